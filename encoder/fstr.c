/* pmusim encoder — the canonical string, as libpfm4 4.13 prints it:
 *   PMU::EVENT[:UMASK...]:mod=val...
 * unit masks in the event's table order, each once; an event alias prints
 * the event it stands for; every modifier the event takes, in the model's
 * order (k u e i c [t]) with its value, ldlat only on the load-latency event.
 * Built for every encoding, so it appends with memcpy into a growing buffer
 * rather than through printf. */
#include <string.h>
#include "enc_internal.h"

static void
put(GString *s, const char *p, gsize n)
{
    if (s->len + n + 1 > s->allocated_len) {
        g_string_append_len(s, p, (gssize)n);
        return;
    }
    memcpy(s->str + s->len, p, n);
    s->len += n;
    s->str[s->len] = '\0';
}

static void
put_str(GString *s, const char *p)
{
    put(s, p, strlen(p));
}

/* ":name=value" */
static void
put_mod(GString *s, const char *name, guint64 v)
{
    char buf[24];
    guint n = sizeof buf;
    do {
        buf[--n] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    buf[--n] = '=';
    put(s, ":", 1);
    put_str(s, name);
    put(s, buf + n, sizeof buf - n);
}

void
pms_fstr_build(GString *s, const PmsResolved *r, const PmsRuleOut *out)
{
    const PmsEvent *ev = r->event;
    const PmsPrepared *p = r->prep;
    put_str(s, r->model->name);
    put(s, "::", 2);
    put_str(s, ev->equiv ? ev->equiv : ev->name);
    for (guint64 u = out->printed; u; u &= u - 1) {
        put(s, ":", 1);
        put_str(s, ev->umasks[g_bit_nth_lsf(u, -1)].name);
    }
    for (guint j = 0; j < p->n_mods; j++)
        if (out->mod_print & (1u << j))
            put_mod(s, p->mods[j].mod->name, out->mod_val[j]);
}

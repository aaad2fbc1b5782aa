/* pmusim encoder — the canonical string, as libpfm4 4.13 prints it:
 *   PMU::EVENT[:UMASK...]:mod=val...
 * unit masks in the event's table order, each once; an event alias prints
 * the event it stands for; every modifier the event takes, in the model's
 * order (k u e i c [t]) with its value, ldlat only on the load-latency event.
 * Built for every encoding, so it appends with memcpy into a growing buffer
 * rather than through printf. */
#include <string.h>
#include "enc_internal.h"

static inline void
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

/* ":name=value" */
static void
put_mod(GString *s, const PmsPrepared *p, guint j, guint64 v)
{
    char buf[24];
    guint n = sizeof buf;
    do {
        buf[--n] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    put(s, p->fstr_mod[j], p->fstr_mod_len[j]);
    put(s, buf + n, sizeof buf - n);
}

void
pms_fstr_build(GString *s, const PmsResolved *r, const PmsRuleOut *out)
{
    const PmsEvent *ev = r->event;
    const PmsPrepared *p = r->prep;
    const PmsPrepEvent *pe = &p->events[ev - r->model->events];
    put(s, p->fstr_prefix, p->fstr_prefix_len);
    put(s, ev->equiv ? ev->equiv : ev->name, pe->name_len);
    for (guint64 u = out->printed; u; u &= u - 1) {
        guint i = pms_lsb(u);
        put(s, ":", 1);
        put(s, ev->umasks[i].name, pe->umask_len[i]);
    }
    for (guint j = 0; j < p->n_mods; j++)
        if (out->mod_print & (1u << j))
            put_mod(s, p, j, out->mod_val[j]);
}

/* pmusim — the devices' run inputs, generic over their run keys
 * (sim_input.h): blocks reset, copied and freed key by key, the number
 * parsers every key shares, and pms_sim_set_input. */
#include "sim_input.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

/* Digits only (no blank, no sign), at least one after any 0x, and the
 * value within 64 bits: a hand loop, as g_ascii_strtoull took them, without
 * its generality on the stimulus's hottest path. */
gboolean sim_parse_u64_n(const char *s, gsize n, guint64 *out)
{
    gboolean hex = n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const char *d = hex ? s + 2 : s, *end = s + n;
    if (d == end)
        return FALSE;
    guint64 v = 0;
    for (const char *q = d; q < end; q++) {
        guint x;
        if (*q >= '0' && *q <= '9')
            x = (guint)(*q - '0');
        else if (hex && *q >= 'a' && *q <= 'f')
            x = (guint)(*q - 'a' + 10);
        else if (hex && *q >= 'A' && *q <= 'F')
            x = (guint)(*q - 'A' + 10);
        else
            return FALSE;
        guint base = hex ? 16 : 10;
        if (v > (G_MAXUINT64 - x) / base)
            return FALSE; /* beyond 2^64 - 1 */
        v = v * base + x;
    }
    *out = v;
    return TRUE;
}

gboolean sim_parse_u64(const char *s, guint64 *out)
{
    return s && sim_parse_u64_n(s, strlen(s), out);
}

gboolean sim_parse_value(const char *s, guint64 *out)
{
    if (s[0] == '-') {
        guint64 v;
        if (!sim_parse_u64(s + 1, &v) || v == 0 || v > ((guint64)1 << 63))
            return FALSE;
        *out = (guint64)0 - v;
        return TRUE;
    }
    if (s[0] == '2' && s[1] == '^') {
        const char *op = strpbrk(s + 2, "+-");
        g_autofree char *exp = g_strndup(s + 2, op ? (gsize)(op - s - 2) : strlen(s + 2));
        guint64 k, n = 0;
        if (!sim_parse_u64(exp, &k) || k > 63 || (op && !sim_parse_u64(op + 1, &n)))
            return FALSE;
        guint64 base = (guint64)1 << k;
        if (op && *op == '-') {
            if (n > base)
                return FALSE;
            *out = base - n;
        } else {
            if (n > G_MAXUINT64 - base)
                return FALSE;
            *out = base + n;
        }
        return TRUE;
    }
    return sim_parse_u64(s, out);
}

guint sim_input_threads(const PmsModel *m)
{
    return m->smt ? 2 : 1;
}

gboolean sim_input_fail(GError **error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error_literal(error, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS, msg);
    return FALSE;
}

/* ip=A0[,A1] / daddr=A0[,A1]: '-' or an omitted thread: none (a thread
 * given by an earlier token of the run keeps its address).  The key's name
 * for messages is the field's: the caller passes it through the key table,
 * so the two keys share this parser through their own wrappers below. */
static gboolean thread_addrs(const PmsModel *m, const char *what, const char *s, SimThreadAddrs *f, GError **error)
{
    guint threads = sim_input_threads(m);
    g_auto(GStrv) parts = g_strsplit(s, ",", -1);
    guint n = g_strv_length(parts);
    if (n == 0 || n > threads)
        return sim_input_fail(error, "%s: expected 1..%u comma-separated addresses (one per thread), got '%s'", what,
                              threads, s);
    for (guint t = 0; t < n; t++) {
        if (strcmp(parts[t], "-") == 0)
            continue;
        if (!sim_parse_u64(parts[t], &f->a[t]))
            return sim_input_fail(error, "%s: '%s' for thread %u: expected a 64-bit address or '-'", what, parts[t], t);
        f->has[t] = TRUE;
    }
    return TRUE;
}

gboolean sim_key_ip(const PmsModel *m, const char *value, gpointer field, GError **error)
{
    return thread_addrs(m, "ip", value, field, error);
}

gboolean sim_key_daddr(const PmsModel *m, const char *value, gpointer field, GError **error)
{
    return thread_addrs(m, "daddr", value, field, error);
}

gboolean sim_key_dse(const PmsModel *m, const char *value, gpointer field, GError **error)
{
    (void)m;
    SimOptValue *f = field;
    if (!sim_parse_value(value, &f->v))
        return sim_input_fail(error, "dse: '%s': expected a number (the data source encoding)", value);
    f->has = TRUE;
    return TRUE;
}

void sim_list_append(SimList *l, gconstpointer elem, gsize size)
{
    l->v = g_realloc(l->v, (l->n + 1) * size);
    memcpy((char *)l->v + l->n * size, elem, size);
    l->n++;
}

/* ---- blocks ------------------------------------------------------------------ */

void sim_input_reset_key(const SimRunKey *k, const SimRunInputs *in, gpointer block)
{
    gpointer f = sim_input_field(block, k);
    if (k->elem) {
        SimList *l = f;
        g_free(l->v);
        l->v = NULL;
        l->n = 0;
    } else {
        memcpy(f, (const char *)in->defaults + k->offset, k->size);
    }
}

gpointer sim_input_new(const SimRunInputs *in)
{
    return g_memdup2(in->defaults, in->size);
}

void sim_input_clear(const SimRunInputs *in, gpointer block)
{
    for (guint i = 0; i < in->n_keys; i++)
        sim_input_reset_key(&in->keys[i], in, block);
}

void sim_input_free(const SimRunInputs *in, gpointer block)
{
    if (!block)
        return;
    sim_input_clear(in, block);
    g_free(block);
}

void sim_input_apply(const SimRunInputs *in, gpointer dst, gconstpointer src)
{
    for (guint i = 0; i < in->n_keys; i++) {
        const SimRunKey *k = &in->keys[i];
        if (!src) {
            sim_input_reset_key(k, in, dst);
            continue;
        }
        gconstpointer from = (const char *)src + k->offset;
        gpointer to = sim_input_field(dst, k);
        if (k->elem) {
            const SimList *a = from;
            SimList *b = to;
            if (a->n != b->n)
                b->v = g_realloc(b->v, a->n * k->elem);
            b->n = a->n;
            if (a->n)
                memcpy(b->v, a->v, a->n * k->elem);
        } else {
            memcpy(to, from, k->size);
        }
    }
}

void sim_run_input(PmsSim *s, const SimRunInputs *in, gconstpointer block)
{
    if (s->ops->inputs)
        sim_input_apply(s->ops->inputs, s->ops->input(s), in == s->ops->inputs ? block : NULL);
}

/* ---- keys of the devices ----------------------------------------------------- */

const SimRunKey *sim_device_key(const SimDeviceOps *ops, const char *name)
{
    const SimRunInputs *in = ops ? ops->inputs : NULL;
    for (guint i = 0; in && i < in->n_keys; i++)
        if (strcmp(in->keys[i].name, name) == 0)
            return &in->keys[i];
    return NULL;
}

const SimRunKey *sim_any_device_key(const char *name, const SimRunInputs **owner)
{
    guint n;
    const SimDeviceOps *const *dev = sim_devices(&n);
    for (guint d = 0; d < n; d++) {
        const SimRunKey *k = sim_device_key(dev[d], name);
        if (k) {
            *owner = dev[d]->inputs;
            return k;
        }
    }
    return NULL;
}

gpointer sim_current_input(PmsSim *s, const char *name)
{
    const SimRunKey *k = sim_device_key(s->ops, name);
    return k ? sim_input_field(s->ops->input(s), k) : NULL;
}

/* The API's form of a run token: the key's field of the device's current
 * inputs reset, then parsed (a list key: emptied, or one element more with
 * a value); a key of another family's device is checked and ignored, as in
 * a stimulus. */
gboolean pms_sim_set_input(PmsSim *s, const char *key, const char *value, GError **error)
{
    g_return_val_if_fail(s != NULL && key != NULL, FALSE);
    const SimRunKey *k = sim_device_key(s->ops, key);
    if (k) {
        gpointer block = s->ops->input(s);
        if (!value || !k->elem)
            sim_input_reset_key(k, s->ops->inputs, block);
        if (!value)
            return TRUE;
        if (k->elem && ((SimList *)sim_input_field(block, k))->n >= k->max)
            return sim_input_fail(error, "%s: at most %u %s per run", k->name, k->max, k->max_what);
        return k->parse(s->model, value, sim_input_field(block, k), error);
    }
    const SimRunInputs *owner;
    k = sim_any_device_key(key, &owner);
    if (!k)
        return sim_input_fail(error, "unknown input '%s': the devices read no such run key", key);
    if (!value)
        return TRUE;
    gpointer scratch = sim_input_new(owner);
    gboolean ok = k->parse(s->model, value, sim_input_field(scratch, k), error);
    sim_input_free(owner, scratch);
    return ok;
}

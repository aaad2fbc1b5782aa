/* pmusim encoder — the canonical string, as libpfm4 4.13 prints it:
 *   PMU::EVENT[:UMASK...]:mod=val...
 * unit masks in the event's table order, each once; an event alias prints
 * the event it stands for; every modifier the event takes, in the model's
 * order (k u e i c [t]) with its value, ldlat only on the load-latency event.
 *
 * Built for every encoding, so it is assembled from pieces prepared per
 * model (prepared.c: "glm::INST_RETIRED", ":ANY_P", ":k="), each zero-padded
 * and copied in 32-byte blocks into a buffer with PMS_FSTR_SLACK spare
 * bytes; the length is known before, so the result is allocated once. */
#include <string.h>
#include "enc_internal.h"

static inline void store8(char *p, guint64 w)
{
    memcpy(p, &w, 8);
}

/* Copy len bytes of a padded piece; may write up to PMS_FSTR_SLACK bytes
 * past them.  Most pieces are short: one fixed-size copy, no loop whose trip
 * count the branch predictor would have to guess. */
static inline char *put(char *d, const char *piece, gsize len)
{
    if (G_LIKELY(len <= 32)) {
        store8(d, pms_load8(piece));
        store8(d + 8, pms_load8(piece + 8));
        store8(d + 16, pms_load8(piece + 16));
        store8(d + 24, pms_load8(piece + 24));
        return d + len;
    }
    for (gsize i = 0; i < len; i += 8)
        store8(d + i, pms_load8(piece + i));
    return d + len;
}


static inline guint hex_digits(guint64 v)
{
    return v ? (pms_msb(v) >> 2) + 1 : 1;
}

/* v in decimal at d; returns the end.  Most values have one or two digits. */
static inline char *put_dec(char *d, guint64 v)
{
    if (v < 10) {
        *d = (char)('0' + v);
        return d + 1;
    }
    if (v < 100) {
        d[0] = (char)('0' + v / 10);
        d[1] = (char)('0' + v % 10);
        return d + 2;
    }
    guint n = pms_dec_digits(v);
    for (guint k = n; k > 0; k--) {
        d[k - 1] = (char)('0' + v % 10);
        v /= 10;
    }
    return d + n;
}

/* The modifier tail ":k=1:u=1:e=0..." written at d (its length:
 * pms_fstr_mods_len, enc_internal.h).  Inlined into pms_fstr_write, which
 * every encoding on the rule path calls, as it was before it had a second
 * caller. */
#ifdef __GNUC__
__attribute__((always_inline))
#endif
static inline char *
mods_write(char *d, const PmsResolved *r, const PmsRuleOut *out)
{
    const PmsPrepared *p = r->prep;
    const PmsPrepEvent *pe = r->pe;
    if (out->mod_print == pe->allowed_mods) {
        /* the event's template, its digits set; a value of more digits
         * moves the template's rest to the right (the digits are in
         * modifier order), which the slack past the end allows */
        const char *t = pe->fstr_mods;
        guint tlen = pe->mods_tlen, shift = 0;
        put(d, t, tlen);
        for (guint32 m = (out->mod_changed | out->mod_big) & out->mod_print; m; m &= m - 1) {
            guint j = pms_lsb(m), dp = pe->mod_digit[j];
            guint64 v = out->mod_val[j];
            if (v < 10) {
                d[dp + shift] = (char)('0' + v);
                continue;
            }
            guint n = pms_dec_digits(v);
            put(d + dp + shift + n, t + dp + 1, tlen - dp - 1);
            put_dec(d + dp + shift, v);
            shift += n - 1;
        }
        return d + tlen + shift;
    }
    for (guint32 m = out->mod_print; m; m &= m - 1) {
        guint j = pms_lsb(m);
        d = put_dec(put(d, p->fstr_mod[j], p->fstr_mod_len[j]), out->mod_val[j]);
    }
    return d;
}

gsize pms_fstr_len(const PmsResolved *r, const PmsRuleOut *out)
{
    const PmsPrepEvent *pe = r->pe;
    gsize n = pe->head_len;
    if (G_UNLIKELY(r->raw))
        n += 3 + hex_digits(r->raw_val);
    for (PmsUmaskSet u = out->printed; !pms_uset_empty(u);)
        n += pe->umask_len[pms_uset_pop(&u)];
    return n + pms_fstr_mods_len(r, out);
}

char *pms_fstr_mods_write(char *d, const PmsResolved *r, const PmsRuleOut *out)
{
    return mods_write(d, r, out);
}

char *pms_fstr_write(char *d, const PmsResolved *r, const PmsRuleOut *out)
{
    const PmsPrepEvent *pe = r->pe;
    d = put(d, pe->fstr_head, pe->head_len);
    if (G_UNLIKELY(r->raw)) {
        /* ":0x" and the value in lowercase hex, no leading zeros, where
         * libpfm4 4.13 prints it: right after the event (it prints only the
         * low 32 bits, docs/libpfm4-differences.md; here the whole value) */
        guint n = hex_digits(r->raw_val);
        memcpy(d, ":0x", 3);
        for (guint k = 0; k < n; k++)
            d[3 + k] = "0123456789abcdef"[(r->raw_val >> (4 * (n - 1 - k))) & 15];
        d += 3 + n;
    }
    for (PmsUmaskSet u = out->printed; !pms_uset_empty(u);) {
        guint i = pms_uset_pop(&u);
        d = put(d, pe->fstr_umasks + pe->umask_piece[i], pe->umask_len[i]);
    }
    return mods_write(d, r, out);
}

void pms_fstr_build(GString *s, const PmsResolved *r, const PmsRuleOut *out)
{
    gsize at = s->len, n = pms_fstr_len(r, out);
    g_string_set_size(s, at + n + PMS_FSTR_SLACK);
    pms_fstr_write(s->str + at, r, out);
    g_string_truncate(s, at + n);
}

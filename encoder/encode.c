/* pmusim encoder — pms_encode(): tokenize, resolve, apply the architecture's
 * rules, print the fstr.  The result is a single allocation (struct, register
 * writes and fstr together) sized before anything is written into it, which
 * keeps the encoder fast in batch runs.
 *
 * The plain strings "PMU::EVENT" and "PMU::EVENT:UMASK" are most of what
 * tools ask for, and their result depends on the event and unit mask alone:
 * it is built once per model, with the same rules and the same assembly as
 * any other string (pms_plain_prepare), and copied out after the names are
 * resolved.  Where the rules refuse such a string only the error message
 * depends on the string (its columns): without a GError to fill, the answer
 * is known at once.  It is a table of the model, like its names, not a memory of
 * earlier inputs: it exists for every event and unit mask before the first
 * encoding.
 *
 * Modifiers on such a string change only the event-select fields they own
 * and the modifier tail of the fstr (":k=1:u=1:e=0:i=0:c=0"), unless a unit
 * mask forces one: those are patched into a copy of the prepared result
 * (plain_with_mods), after the same range and combination checks as the
 * rules make.  Anything unusual goes the full way. */
#include <stdlib.h>
#include <string.h>
#include "enc_internal.h"

/* Where the codes go: the program step of the model's architecture (the
 * simulator's, include/pmusim/program.h), on the lowest counter the event and its unit
 * masks may use.  No counter: no writes. */
typedef struct {
    PmsPlacement place;
    PmsRegWrite w[PMS_PROGRAM_MAX_WRITES];
    guint n;
} EncWrites;

static void
program_writes(const PmsResolved *r, const PmsRuleOut *out, EncWrites *ew)
{
    ew->n = 0;
    if (!pms_program_place(r->model, r->event, out->selected, &ew->place, NULL) ||
        !pms_program_writes(&ew->place, out->codes, out->n_codes, ew->w, &ew->n, NULL)) {
        memset(&ew->place, 0, sizeof ew->place);
        ew->n = 0;
    }
}

/* Bytes of the result for these rule outputs, and where its fstr starts. */
static gsize
result_size(const PmsResolved *r, const PmsRuleOut *out, const EncWrites *ew, gsize *fstr_off, gsize *flen)
{
    *flen = pms_fstr_len(r, out);
    *fstr_off = sizeof(PmsEncoding) + ew->n * sizeof(PmsRegWrite);
    /* the fstr pieces are copied in blocks that may overshoot its end */
    return *fstr_off + *flen + 1 + PMS_FSTR_SLACK;
}

/* Write the result into enc (result_size bytes). */
static void
assemble(PmsEncoding *enc, const PmsResolved *r, const PmsRuleOut *out, const EncWrites *ew, gsize fstr_off)
{
    enc->model = r->model;
    enc->event = r->event;
    enc->n_codes = out->n_codes;
    memcpy(enc->codes, out->codes, sizeof enc->codes);
    enc->writes = (PmsRegWrite *)((char *)enc + sizeof(PmsEncoding));
    enc->place = ew->place;
    enc->n_writes = ew->n;
    memcpy(enc->writes, ew->w, ew->n * sizeof *ew->w);
    enc->fstr = (char *)enc + fstr_off;
    *pms_fstr_write(enc->fstr, r, out) = '\0';
    enc->umask_mask = out->selected;
}

/* malloc itself, not g_malloc's wrapper: this runs per encoding.  Out of
 * memory still ends in g_malloc's abort. */
static inline PmsEncoding *
alloc_result(gsize size)
{
    PmsEncoding *enc = malloc(size);
    if (G_UNLIKELY(!enc))
        enc = g_malloc(size);
    return enc;
}

void
pms_plain_prepare(const PmsModel *m, const PmsPrepared *p, const PmsEvent *ev, PmsPrepEvent *pe)
{
    if (pe->unsupported)
        return;
    /* the same rule set as any other string of the model */
    PmsRuleFn rules = pms_rules_for(m->arch);
    PmsResolved r;
    memset(&r, 0, sizeof r);
    r.model = m;
    r.prep = p;
    r.event = ev;
    r.pe = pe;
    r.plm = PMS_PLM_DEFAULT;   /* the prepared results serve the default privilege only */
    /* columns only word error messages, which are not kept here */
    g_autofree PmsTokens *tok = g_new0(PmsTokens, 1);
    r.tok = tok;
    GByteArray *buf = g_byte_array_new();
    guint32 *off = g_new(guint32, ev->n_umasks + 1);
    gint li = p->role_mod[PMS_ROLE_LDLAT];
    /* a one-digit minimum keeps the fstr's modifier tail the template's length */
    gboolean lat = li >= 0 && (ev->flags & PMS_EVENT_LDLAT) && !(ev->flags & PMS_EVENT_OFFCORE) &&
                   p->mods[li].mod->min < 10;
    guint32 *loff = lat ? g_new(guint32, ev->n_umasks + 1) : NULL;
    /* pass 0: the plain strings; pass 1: with ldlat=MIN, load-latency event only */
    for (guint pass = 0; pass < (lat ? 2u : 1u); pass++)
    for (guint c = 0; c <= ev->n_umasks; c++) {
        guint32 *slot = pass ? &loff[c] : &off[c];
        r.user_umasks = c ? G_GUINT64_CONSTANT(1) << (c - 1) : 0;
        if (c) {
            r.umask_col[c - 1] = 1;
            r.umask_count[c - 1] = 1;
        }
        r.mod_set = pass ? 1u << li : 0;
        if (pass)
            r.mod_val[li] = p->mods[li].mod->min;
        PmsRuleOut out;
        memset(&out, 0, sizeof out);
        /* pass 1 keeps only the strings that need the threshold */
        if ((pass && off[c] != PMS_PLAIN_FAILS) || !rules(&r, &out, NULL) ||
            (pass && (out.n_codes != 2 || out.mod_val[li] != p->mods[li].mod->min))) {
            *slot = PMS_PLAIN_FAILS;
            continue;
        }
        gsize fstr_off, flen;
        EncWrites ew;
        program_writes(&r, &out, &ew);
        PmsEncoding *enc = g_malloc0(result_size(&r, &out, &ew, &fstr_off, &flen));
        assemble(enc, &r, &out, &ew, fstr_off);
        /* the image need not carry the block-copy slack */
        PmsPlainImage h = { (guint32)(fstr_off + flen + 1), (guint32)fstr_off };
        gsize at = buf->len;
        g_byte_array_set_size(buf, (guint)(at + sizeof h + h.size));
        memcpy(buf->data + at, &h, sizeof h);
        memcpy(buf->data + at + sizeof h, enc, h.size);
        g_free(enc);
        /* the next image starts on a word, as a PmsEncoding must */
        g_byte_array_set_size(buf, (guint)((buf->len + 7) / 8 * 8));
        *slot = (guint32)at;
    }
    pe->plain_off = off;
    pe->ldlat_off = loff;
    pe->plain = (char *)g_byte_array_free(buf, FALSE);
}

/* Write v in decimal at d; returns the end. */
static inline char *
put_dec(char *d, guint64 v)
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
    char tmp[20];
    guint n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        *d++ = tmp[--n];
    return d;
}

/* The prepared result of "EVENT[:UMASK]" (the image at off; with lat, the
 * one of "EVENT:UMASK:ldlat=MIN") with the string's modifiers applied: the
 * event-select fields of the modifiers, the threshold and the modifier tail
 * of the fstr are all that differ from it when no unit mask forces a
 * modifier (the checks below are those of rules_x86_core.c).  Returns the
 * result; NULL with *refused FALSE when the string is not such a case (the
 * general path decides), NULL with *refused TRUE when the rules refuse the
 * string (out of range, e without c, t without SMT): the general path would
 * refuse it too, and is asked only for the message. */
static PmsEncoding *
plain_with_mods(const PmsResolved *r, guint32 off, gboolean lat, gboolean *refused)
{
    const PmsPrepared *p = r->prep;
    const PmsPrepEvent *pe = r->pe;
    const PmsModel *m = r->model;
    guint64 u = r->user_umasks;
    *refused = FALSE;
    PmsPlainImage h;
    memcpy(&h, pe->plain + off, sizeof h);
    const PmsEncoding *img = (const PmsEncoding *)(pe->plain + off + sizeof h);
    guint32 ms = r->mod_set;
    /* unusual: a unit mask or alias that forces modifiers, a modifier
     * outside the event-select register (but the threshold), no evtsel */
    gint li = p->role_mod[PMS_ROLE_LDLAT];
    guint32 lbit = lat ? 1u << li : 0;
    if ((img->umask_mask & pe->forced_mask) || (pe->equiv && u && pe->equiv[pms_lsb(u)]) ||
        (ms & ~(p->evtsel_mods | lbit)) || !p->evtsel_regs[0] || !img->place.event)
        return NULL;
    /* ranges, and whether a value needs more than one digit */
    guint32 big = 0;   /* bit j: modifier j's value has two digits or more */
    for (guint32 g = ms; g; g &= g - 1) {
        guint j = pms_lsb(g);
        const PmsModifier *mod = p->mods[j].mod;
        guint64 v = r->mod_val[j];
        if (v < mod->min || v > mod->max) {
            *refused = TRUE;
            return NULL;
        }
        big |= (guint32)(v >= 10) << j;
    }
    /* the image holds the defaults (k=1 u=1, others 0); naming k or u
     * turns the other one off */
    gint ki = p->role_mod[PMS_ROLE_K], ui = p->role_mod[PMS_ROLE_U];
    guint32 plm = (ki >= 0 ? 1u << ki : 0) | (ui >= 0 ? 1u << ui : 0);
    guint32 ones = (ms & plm) ? 0 : plm;   /* modifiers at 1 without being named */
    gint eix = p->role_mod[PMS_ROLE_E], cix = p->role_mod[PMS_ROLE_C], tix = p->role_mod[PMS_ROLE_T];
    gboolean e_on = eix >= 0 && (ms & (1u << eix)) && r->mod_val[eix];
    gboolean c_on = cix >= 0 && (ms & (1u << cix)) && r->mod_val[cix];
    gboolean t_on = tix >= 0 && (ms & (1u << tix)) && r->mod_val[tix];
    if (pms_x86_combination_fault(m, e_on, c_on, t_on) != PMS_ROLE_OTHER) {
        *refused = TRUE;
        return NULL;
    }
    guint64 evtsel = img->codes[0];
    for (guint32 g = (ms | (plm & ~ones)) & p->evtsel_mods; g; g &= g - 1) {
        guint j = pms_lsb(g);
        guint sh = p->mods[j].field->shift;
        guint64 fm = p->evtsel_mod_mask[j];
        guint64 v = (ms & (1u << j)) ? r->mod_val[j] : 0;
        evtsel = (evtsel & ~(fm << sh)) | ((v & fm) << sh);
    }
    /* the fstr: the image's, its modifier tail rewritten */
    gsize flen = h.size - h.fstr_off - 1;
    gsize keep = flen - pe->mods_tlen;   /* head and unit masks */
    gsize extra = 0;
    for (guint32 g = big ? ms : 0; g; g &= g - 1)
        for (guint64 v = r->mod_val[pms_lsb(g)]; v >= 10; v /= 10)
            extra++;
    /* PMS_FSTR_SLACK: modifier names are copied a word at a time */
    PmsEncoding *enc = alloc_result(h.size + extra + PMS_FSTR_SLACK);
    memcpy(enc, img, h.fstr_off + keep);
    enc->writes = (PmsRegWrite *)((char *)enc + sizeof(PmsEncoding));
    enc->fstr = (char *)enc + h.fstr_off;
    enc->codes[0] = evtsel;
    if (lat)
        enc->codes[1] = r->mod_val[li];   /* the threshold is the second code */
    /* the writes of the new codes, by the same program step as the image's */
    guint nw;
    pms_program_writes(&enc->place, enc->codes, enc->n_codes, enc->writes, &nw, NULL);
    /* The template with its digits set, up to the first modifier whose
     * value is longer than a digit; from there on, piece by piece. */
    char *d = enc->fstr + keep;
    guint32 first_big = big & -big;
    guint32 digits = (ms | plm) & ~ones & pe->allowed_mods & (first_big - 1);
    memcpy(d, pe->fstr_mods, pe->mods_tlen);   /* the template: default digits */
    for (guint32 g = digits; g; g &= g - 1) {
        guint j = pms_lsb(g);
        d[pe->mod_digit[j]] = (char)('0' + ((ms & (1u << j)) ? r->mod_val[j] : 0));
    }
    if (!big) {
        d[pe->mods_tlen] = '\0';
        return enc;
    }
    guint jb = pms_lsb(big);
    d = put_dec(d + pe->mod_digit[jb], r->mod_val[jb]);
    for (guint32 g = pe->allowed_mods & ~((first_big << 1) - 1); g; g &= g - 1) {
        guint j = pms_lsb(g);
        if (G_LIKELY(p->fstr_mod_len[j] <= 8))
            memcpy(d, p->fstr_mod[j], 8);   /* padded piece, slack after the result */
        else
            memcpy(d, p->fstr_mod[j], p->fstr_mod_len[j]);
        guint64 v = (ms & (1u << j)) ? r->mod_val[j] : (ones >> j) & 1;
        d = put_dec(d + p->fstr_mod_len[j], v);
    }
    *d = '\0';
    return enc;
}

/* The pipeline.  pms_encode passes the default privilege as a constant, so
 * its copy keeps the prepared shortcuts without a test; they hold results
 * for the default privilege only, and another one goes the full way. */
#ifdef __GNUC__
__attribute__((always_inline))
#endif
static inline PmsEncoding *
encode(const PmsModelSet *models, const char *str, guint plm, GError **error)
{
    g_return_val_if_fail(models != NULL, NULL);
    if (!str) {
        pms_enc_fail(error, PMS_ERR_INVAL, 0, "no event string");
        return NULL;
    }
    PmsTokens t;
    if (!pms_tokenize_internal(str, &t, error))
        return NULL;
    PmsResolved r;
    if (!pms_resolve(models, &t, &r, error))
        return NULL;
    r.plm = plm;
    guint64 u = r.user_umasks;
    if (plm != PMS_PLM_DEFAULT || r.raw) {
        /* no shortcut: the rules below (a raw unit mask: rare) */
    } else if (r.pe->plain_off && r.mod_set && !r.thrice && !(u & (u - 1))) {
        guint c = u ? pms_lsb(u) + 1 : 0;
        gint li = r.prep->role_mod[PMS_ROLE_LDLAT];
        gboolean lat = li >= 0 && (r.mod_set & (1u << li));
        guint32 off = !lat ? r.pe->plain_off[c] : r.pe->ldlat_off ? r.pe->ldlat_off[c] : PMS_PLAIN_FAILS;
        if (off != PMS_PLAIN_FAILS) {
            gboolean refused;
            PmsEncoding *enc = plain_with_mods(&r, off, lat, &refused);
            if (enc || (refused && !error))
                return enc;   /* refused: the message is built below when asked for */
        }
    } else if (r.pe->plain_off && !r.thrice && !(u & (u - 1))) {
        guint32 off = r.pe->plain_off[u ? pms_lsb(u) + 1 : 0];
        if (off == PMS_PLAIN_FAILS && !error)
            return NULL;   /* the rules refuse it; the message is built below when asked for */
        if (off != PMS_PLAIN_FAILS) {
            PmsPlainImage h;
            memcpy(&h, r.pe->plain + off, sizeof h);
            PmsEncoding *enc = alloc_result(h.size);
            memcpy(enc, r.pe->plain + off + sizeof h, h.size);
            enc->writes = (PmsRegWrite *)((char *)enc + sizeof(PmsEncoding));
            enc->fstr = (char *)enc + h.fstr_off;
            return enc;
        }
    }
    /* the x86 core rules without the dispatch call: the common case */
    PmsRuleFn rules = r.model->arch == PMS_ARCH_X86_CORE ? pms_rules_x86_core : pms_rules_for(r.model->arch);
    if (!rules) {
        pms_enc_fail(error, PMS_ERR_NOTSUPP, 1, "no encoding rules yet for PMU %s (architecture %s)",
                     r.model->name, pms_arch_name(r.model->arch));
        return NULL;
    }
    PmsRuleOut out;   /* the rules set every field encode reads, codes[] aside */
    memset(out.codes, 0, sizeof out.codes);
    if (!rules(&r, &out, error))
        return NULL;

    gsize fstr_off, flen;
    EncWrites ew;
    program_writes(&r, &out, &ew);
    PmsEncoding *enc = alloc_result(result_size(&r, &out, &ew, &fstr_off, &flen));
    assemble(enc, &r, &out, &ew, fstr_off);
    return enc;
}

PmsEncoding *
pms_encode(const PmsModelSet *models, const char *str, GError **error)
{
    return encode(models, str, PMS_PLM_DEFAULT, error);
}

PmsEncoding *
pms_encode_plm(const PmsModelSet *models, const char *str, guint plm, GError **error)
{
    if (plm & ~(guint)(PMS_PLM0 | PMS_PLM1 | PMS_PLM2 | PMS_PLM3)) {
        pms_enc_fail(error, PMS_ERR_INVAL, 0, "privilege mask 0x%x has bits beyond PLM0..PLM3 (0x1, 0x2, 0x4, 0x8)", plm);
        return NULL;
    }
    return encode(models, str, plm, error);
}

void
pms_encoding_free(PmsEncoding *enc)
{
    free(enc);   /* from malloc (g_malloc is malloc too) */
}

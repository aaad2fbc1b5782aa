/* pmusim encoder — pms_encode(): tokenize, resolve, apply the architecture's
 * rules, print the fstr.  The result is a single allocation (struct, register
 * writes and fstr together) sized before anything is written into it, which
 * keeps the encoder fast in batch runs.
 *
 * The plain strings "PMU::EVENT" and "PMU::EVENT:UMASK" are most of what
 * tools ask for, and their result depends on the event and unit mask alone:
 * the second time one is asked for, its result is built with the same rules
 * and the same assembly as any other string (plain_build) and kept in the
 * model's prepared cache, to be copied out after the names are resolved.
 * Not the first time: a caller that remembers its answers (the batch
 * protocol) asks for each string once, and building every plain result of
 * a model up front cost it more than all its encodings.  Where the rules
 * refuse such a string only the error message depends on the string (its
 * columns): without a GError to fill, the answer is known at once.
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

/* Two marks told apart by address; their contents differ too, so that no
 * identical-constant folding can give them one. */
const PmsPlainImage pms_plain_refused = { 0, 0 }, pms_plain_seen = { 0, 1 };

/* Column c's plain string (0: "EVENT", i + 1: "EVENT:UMASK_i"; with lat,
 * the same with ldlat=MIN) through the same rules and assembly as any other
 * string of the model, as a PmsPlainImage, or PMS_PLAIN_REFUSED where the
 * rules refuse it.  With lat, only the strings that need the threshold:
 * those whose plain string is refused (the caller looks that one up first). */
static gpointer
plain_build(const PmsResolved *from, guint c, gboolean lat)
{
    static const PmsTokens no_tokens;   /* columns only word error messages, not kept here */
    const PmsPrepared *p = from->prep;
    gint li = p->role_mod[PMS_ROLE_LDLAT];
    PmsResolved r;
    memset(&r, 0, sizeof r);
    r.model = from->model;
    r.prep = p;
    r.event = from->event;
    r.pe = from->pe;
    r.tok = &no_tokens;
    r.plm = PMS_PLM_DEFAULT;   /* the prepared results serve the default privilege only */
    if (c) {
        r.user_umasks = G_GUINT64_CONSTANT(1) << (c - 1);
        r.umask_col[c - 1] = 1;
        r.umask_count[c - 1] = 1;
    }
    if (lat) {
        r.mod_set = 1u << li;
        r.mod_val[li] = p->mods[li].mod->min;
    }
    PmsRuleOut out;
    memset(&out, 0, sizeof out);
    if (!p->fam->rules(&r, &out, NULL) ||
        (lat && (out.n_codes != 2 || out.mod_val[li] != p->mods[li].mod->min)))
        return PMS_PLAIN_REFUSED;
    gsize fstr_off, flen;
    EncWrites ew;
    program_writes(&r, &out, &ew);
    gsize size = result_size(&r, &out, &ew, &fstr_off, &flen);
    /* the header, then the result (a word further: aligned as a PmsEncoding must be) */
    PmsPlainImage *h = g_malloc(sizeof *h + size);
    assemble((PmsEncoding *)(h + 1), &r, &out, &ew, fstr_off);
    h->size = (guint32)(fstr_off + flen + 1);   /* copies need not carry the block-copy slack */
    h->fstr_off = (guint32)fstr_off;
    return h;
}

/* The prepared result of column c (see plain_build), built the second
 * time the slot is asked for: a string asked for once (a batch that
 * remembers its answers asks for each line once) costs no more than the
 * rule path, and one asked for again is then a copy.  NULL: not built
 * yet, the rule path answers.  Thread-safe: two threads may both build
 * it; one result is kept. */
static const PmsPlainImage *
plain_image(const PmsResolved *r, guint c, gboolean lat)
{
    if (lat) {
        /* the threshold's slots serve only the strings that need it: those
         * whose plain string the rules refuse */
        const PmsPlainImage *plain = plain_image(r, c, FALSE);
        if (plain != &pms_plain_refused)
            return plain ? &pms_plain_refused : NULL;
    }
    gpointer *slot = &r->pe->plain[c + (lat ? r->event->n_umasks + 1 : 0)];
    gpointer img = g_atomic_pointer_get(slot);
    if (G_LIKELY(img != NULL && img != PMS_PLAIN_SEEN))
        return img;
    if (img == NULL) {
        g_atomic_pointer_compare_and_exchange(slot, NULL, PMS_PLAIN_SEEN);
        return NULL;
    }
    img = plain_build(r, c, lat);
    if (!g_atomic_pointer_compare_and_exchange(slot, PMS_PLAIN_SEEN, img)) {
        if (img != PMS_PLAIN_REFUSED)
            g_free(img);
        img = g_atomic_pointer_get(slot);
    }
    return img;
}

void
pms_plain_clear(PmsPrepEvent *pe)
{
    for (guint i = 0; i < pe->n_plain && pe->plain; i++)
        if (pe->plain[i] != PMS_PLAIN_REFUSED && pe->plain[i] != PMS_PLAIN_SEEN)
            g_free(pe->plain[i]);
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

/* The prepared result of "EVENT[:UMASK]" (the image h; with lat, the one
 * of "EVENT:UMASK:ldlat=MIN") with the string's modifiers applied: the
 * event-select fields of the modifiers, the threshold and the modifier tail
 * of the fstr are all that differ from it when no unit mask forces a
 * modifier (the checks below are those of rules_x86_core.c).  Returns the
 * result; NULL with *refused FALSE when the string is not such a case (the
 * general path decides), NULL with *refused TRUE when the rules refuse the
 * string (out of range, e without c, t without SMT): the general path would
 * refuse it too, and is asked only for the message. */
static PmsEncoding *
plain_with_mods(const PmsResolved *r, const PmsPlainImage *hp, gboolean lat, gboolean *refused)
{
    const PmsPrepared *p = r->prep;
    const PmsPrepEvent *pe = r->pe;
    const PmsModel *m = r->model;
    guint64 u = r->user_umasks;
    *refused = FALSE;
    const PmsPlainImage h = *hp;
    const PmsEncoding *img = (const PmsEncoding *)(hp + 1);
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
    } else if (r.pe->plain && r.mod_set && !r.thrice && !(u & (u - 1))) {
        guint c = u ? pms_lsb(u) + 1 : 0;
        gint li = r.prep->role_mod[PMS_ROLE_LDLAT];
        gboolean lat = li >= 0 && (r.mod_set & (1u << li));
        const PmsPlainImage *h = !lat || r.pe->plain_lat ? plain_image(&r, c, lat) : &pms_plain_refused;
        if (h && h != &pms_plain_refused) {
            gboolean refused;
            PmsEncoding *enc = plain_with_mods(&r, h, lat, &refused);
            if (enc || (refused && !error))
                return enc;   /* refused: the message is built below when asked for */
        }
    } else if (r.pe->plain && !r.thrice && !(u & (u - 1))) {
        const PmsPlainImage *h = plain_image(&r, u ? pms_lsb(u) + 1 : 0, FALSE);
        if (h == &pms_plain_refused && !error)
            return NULL;   /* the rules refuse it; the message is built below when asked for */
        if (h && h != &pms_plain_refused) {
            PmsEncoding *enc = alloc_result(h->size);
            memcpy(enc, h + 1, h->size);
            enc->writes = (PmsRegWrite *)((char *)enc + sizeof(PmsEncoding));
            enc->fstr = (char *)enc + h->fstr_off;
            return enc;
        }
    }
    if (!r.prep->fam) {
        pms_enc_fail(error, PMS_ERR_NOTSUPP, 1, "no encoding rules yet for PMU %s (architecture %s)",
                     r.model->name, r.model->family->name);
        return NULL;
    }
    PmsRuleFn rules = r.prep->fam->rules;
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

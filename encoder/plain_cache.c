/* pmusim encoder — the plain-result cache: rule results kept per event and
 * unit mask, so that a string asked for again is a copy.
 *
 * The plain strings "PMU::EVENT" and "PMU::EVENT:UMASK" are most of what
 * tools ask for.  The second time one is asked for, its result is made by
 * the model's rule set and pms_enc_result, exactly as for any other string
 * (plain_build), and kept in the event's slot, to be copied out after the
 * names are resolved.  Not the first time: a caller that remembers its
 * answers (the batch protocol) asks for each string once, and building
 * every plain result of a model up front cost it more than all its
 * encodings.  Where the rules refuse such a string only the error message
 * depends on the string (its columns): without a GError to fill, the answer
 * is known at once.
 *
 * Modifiers on such a string: the kept result is handed to the rule set's
 * PmsModsFn (pms_x86_core_mods, pms_x86_uncore_mods: the family entry's mods),
 * which applies them as the rule set's own path does and says whether it
 * refuses the string or the case is not its (then the rules decide), and
 * fstr.c writes the modifier tail of the fstr (pms_fstr_mods_write).  The
 * program step said, when the result was kept, what its placement and
 * writes read of the codes (pms_program_place_code_bits,
 * pms_program_writes_src): codes it places alike keep the kept placement,
 * and the writes are the kept ones with the new codes put in.
 *
 * So the cache holds rule results and restates no rule.  What a result is
 * kept under, and why that is enough:
 *  - the model and event (the slots are the event's, in the model's
 *    prepared cache), and the one unit mask named, or none: a string
 *    naming more, or one three times (which libpfm4 4.13 reads as a second
 *    copy, rules_x86_core.c), or a raw unit mask is not looked up;
 *  - the default privilege mask only (pms_encode_plm with another goes to
 *    the rules);
 *  - whether the load-latency threshold is given: its results are those of
 *    "EVENT:UMASK:ldlat=MIN", kept only where the plain string is refused
 *    for want of it;
 *  - every other modifier is applied by the PmsModsFn to the result kept
 *    for the string without modifiers.
 * A unit mask named twice is the same string as named once (the resolver
 * counts mentions; the rules tell 1 and 2 apart from 3 only).  The test
 * suite checks the cache against the rules: encoder/tests/test_encoder.c
 * on every event and unit mask of every model, harness/tests/
 * test_rules_parity.c (`pmusim --rules-only`) on the CLI's corpus, and the
 * whole suite once more with the cache off (meson test --setup rulesonly). */
#include <string.h>
#include "enc_internal.h"

/* the PmsEncoding after a header must be aligned as malloc aligns one */
G_STATIC_ASSERT(sizeof(PmsPlainImage) % 8 == 0);

/* Two marks told apart by address; their contents differ too, so that no
 * identical-constant folding can give them one. */
const PmsPlainImage pms_plain_refused = { .size = 0 }, pms_plain_seen = { .fstr_off = 1 };

/* Column c's plain string (0: "EVENT", i + 1: "EVENT:UMASK_i"; with lat,
 * the same with ldlat=MIN) through the same rules and assembly as any other
 * string of the model, as a PmsPlainImage, or PMS_PLAIN_REFUSED where the
 * rules refuse it.  With lat, only the strings that need the threshold:
 * those whose plain string is refused (the caller looks that one up first). */
static gpointer plain_build(const PmsResolved *from, guint c, gboolean lat)
{
    static const PmsTokens no_tokens; /* columns only word error messages, not kept here */
    const PmsPrepared *p = from->prep;
    gint li = p->role_mod[PMS_ROLE_LDLAT];
    PmsResolved r;
    memset(&r, 0, sizeof r);
    r.model = from->model;
    r.prep = p;
    r.event = from->event;
    r.pe = from->pe;
    r.tok = &no_tokens;
    r.plm = PMS_PLM_DEFAULT; /* the kept results serve the default privilege only */
    if (c) {
        r.user_umasks = pms_uset_bit(c - 1);
        r.umask_col[c - 1] = 1;
        r.umask_count[c - 1] = 1;
    }
    if (lat) {
        r.mod_set = 1u << li;
        r.mod_val[li] = p->mods[li].mod->min;
    }
    PmsRuleOut out;
    memset(&out, 0, sizeof out);
    if (!r.prep->fam->rules(&r, &out, NULL))
        return PMS_PLAIN_REFUSED;
    PmsEncoding *enc = pms_enc_result(&r, &out);
    gsize fstr_off = (gsize)(enc->fstr - (char *)enc), flen = strlen(enc->fstr);
    /* the header, then the result (a header further: aligned as a PmsEncoding must be) */
    PmsPlainImage *h = g_malloc(sizeof *h + fstr_off + flen + 1);
    h->size = (guint32)(fstr_off + flen + 1); /* copies need not carry the block-copy slack */
    h->fstr_off = (guint32)fstr_off;
    h->tail_off = (guint32)(flen - pms_fstr_mods_len(&r, &out));
    h->first_ok = pms_program_place(r.model, r.event, enc->umask_mask, &h->first, NULL);
    h->place_bits = pms_program_place_code_bits(r.model);
    h->patch = FALSE;
    h->pad = 0;
    PmsRegWrite w[PMS_PROGRAM_MAX_WRITES];
    guint nw;
    if (enc->place.event && pms_program_writes_src(&enc->place, enc->codes, enc->n_codes, w, &nw, h->src, NULL) &&
        nw == enc->n_writes) {
        h->patch = TRUE;
        for (guint j = 0; j < nw; j++)
            h->patch &= h->src[j] == PMS_PROGRAM_SRC_NONE || h->src[j] < enc->n_codes;
    }
    PmsEncoding *img = memcpy(h + 1, enc, h->size);
    img->writes = NULL; /* set in each copy */
    img->fstr = NULL;
    pms_encoding_free(enc);
    return h;
}

/* The kept result of column c (see plain_build), built the second time
 * the slot is asked for: a string asked for once (a batch that remembers
 * its answers asks for each line once) costs no more than the rule path,
 * and one asked for again is then a copy.  NULL: not built yet, the rule
 * path answers.  Thread-safe: two threads may both build it; one result
 * is kept. */
static inline const PmsPlainImage *plain_image(const PmsResolved *r, guint c, gboolean lat)
{
    if (lat) {
        /* the threshold's slots serve only the strings that need it: those
         * whose plain string the rules refuse */
        const PmsPlainImage *plain = plain_image(r, c, FALSE);
        if (plain != &pms_plain_refused)
            return plain ? &pms_plain_refused : NULL;
    }
    gpointer img = g_atomic_pointer_get(&r->pe->plain[c + (lat ? r->event->n_umasks + 1 : 0)]);
    if (G_LIKELY(img != NULL && img != PMS_PLAIN_SEEN))
        return img;
    return pms_plain_image(r, c, lat);
}

const PmsPlainImage *pms_plain_image(const PmsResolved *r, guint c, gboolean lat)
{
    gpointer *slot = &r->pe->plain[c + (lat ? r->event->n_umasks + 1 : 0)];
    gpointer img = g_atomic_pointer_get(slot);
    if (img != NULL && img != PMS_PLAIN_SEEN)
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

void pms_plain_clear(PmsPrepEvent *pe)
{
    for (guint i = 0; i < pe->n_plain && pe->plain; i++)
        if (pe->plain[i] != PMS_PLAIN_REFUSED && pe->plain[i] != PMS_PLAIN_SEEN)
            g_free(pe->plain[i]);
}

/* The kept result h of the string without its modifiers, with r's
 * modifiers applied by the rule set (PmsModsFn): its codes, the writes of
 * those codes by the same program step as the kept ones, its fstr up to
 * the modifier tail and fstr.c's tail.  NULL with *v the rule set's
 * verdict when it refuses the string (PMS_MODS_WORDED: reported to error as
 * its own path reports it; PMS_MODS_REFUSED: its own path would refuse it
 * too, and is asked only for the message), NULL with PMS_MODS_OTHER when
 * the string is left to the rule set's own path. */
static PmsEncoding *plain_with_mods(const PmsResolved *r, const PmsPlainImage *hp, PmsModsVerdict *v, GError **error)
{
    const PmsEncoding *img = (const PmsEncoding *)(hp + 1);
    *v = PMS_MODS_OTHER;
    if (!img->place.event)
        return NULL; /* no counter, no writes: the rule path says what that gives */
    PmsRuleOut out;
    out.selected = img->umask_mask;
    out.n_codes = img->n_codes;
    memcpy(out.codes, img->codes, sizeof out.codes);
    PmsModsVerdict given = r->prep->plain_mods(r, &out, error);
    if (given != PMS_MODS_OK) {
        *v = given;
        return NULL;
    }
    /* the modifiers may move the event (skl: intxcp to PERFEVTSEL2): the
     * rule path places it then.  Codes the placement reads alike are placed
     * alike (hp->place_bits) */
    PmsPlacement pl;
    if (out.n_codes != img->n_codes || ((out.codes[0] ^ img->codes[0]) & hp->place_bits)) {
        if (!pms_program_place_codes_from(&hp->first, hp->first_ok, r->model, img->place.event, out.selected, out.codes,
                                          out.n_codes, &pl, NULL) ||
            pl.counter != img->place.counter || pl.fixed != img->place.fixed)
            return NULL;
    }
    gsize keep = hp->fstr_off + hp->tail_off; /* the struct, the writes, the fstr's head and unit masks */
    /* PMS_FSTR_SLACK: fstr.c copies pieces in blocks */
    PmsEncoding *enc = pms_enc_alloc(keep + pms_fstr_mods_len(r, &out) + 1 + PMS_FSTR_SLACK);
    memcpy(enc, img, keep);
    enc->writes = (PmsRegWrite *)((char *)enc + sizeof(PmsEncoding));
    enc->fstr = (char *)enc + hp->fstr_off;
    memcpy(enc->codes, out.codes, sizeof enc->codes);
    if (hp->patch && out.n_codes == img->n_codes) {
        /* the same placement and number of codes: the kept writes, the codes put in */
        for (guint j = 0; j < enc->n_writes; j++)
            if (hp->src[j] != PMS_PROGRAM_SRC_NONE)
                enc->writes[j].value = out.codes[hp->src[j]] & enc->writes[j].mask;
    } else {
        guint nw;
        if (!pms_program_writes(&enc->place, enc->codes, enc->n_codes, enc->writes, &nw, NULL) || nw != enc->n_writes) {
            pms_encoding_free(enc);
            return NULL; /* not what the kept writes were: the rule path decides */
        }
    }
    *pms_fstr_mods_write((char *)enc + keep, r, &out) = '\0';
    return enc;
}

/* The keys (file comment) are checked by pms_plain_answer
 * (enc_internal.h), which copies a kept plain result out itself. */
gboolean pms_plain_answer_mods(const PmsResolved *r, GError **error, PmsEncoding **enc)
{
    PmsUmaskSet u = r->user_umasks;
    guint c = pms_uset_empty(u) ? 0 : pms_uset_lowest(u) + 1;
    gint li = r->prep->role_mod[PMS_ROLE_LDLAT];
    gboolean lat = li >= 0 && (r->mod_set & (1u << li));
    const PmsPlainImage *h = !lat || r->pe->plain_lat ? plain_image(r, c, lat) : &pms_plain_refused;
    if (!h || h == &pms_plain_refused)
        return FALSE; /* with modifiers a refused plain string may still encode: the rules tell */
    PmsModsVerdict v;
    *enc = plain_with_mods(r, h, &v, error);
    return *enc || v == PMS_MODS_WORDED || (v == PMS_MODS_REFUSED && !error);
}

/* How many slots an event's plain strings take: one for the event alone,
 * one per unit mask, and as many again with ldlat=MIN on the load-latency
 * event. */
static guint plain_slots(const PmsPrepared *p, const PmsEvent *ev, PmsPrepEvent *pe)
{
    if (pe->unsupported)
        return 0;
    pe->plain_lat = p->role_mod[PMS_ROLE_LDLAT] >= 0 && (ev->flags & PMS_EVENT_LDLAT);
    pe->n_plain = (ev->n_umasks + 1) * (pe->plain_lat ? 2 : 1);
    return pe->n_plain;
}

void pms_plain_init(const PmsModel *m, PmsPrepared *p)
{
    p->plain_mods = p->fam ? p->fam->mods : NULL;
    if (!p->plain_mods)
        return;
    gsize n = 0;
    for (guint i = 0; i < m->n_events; i++)
        n += plain_slots(p, &m->events[i], &p->events[i]);
    p->plain_slots = g_new0(gpointer, MAX(n, 1)); /* one block for them all */
    for (guint i = 0, at = 0; i < m->n_events; at += p->events[i++].n_plain)
        if (p->events[i].n_plain)
            p->events[i].plain = p->plain_slots + at;
}

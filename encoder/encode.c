/* pmusim encoder — pms_encode(): tokenize, resolve, apply the architecture's
 * rules, print the fstr.  The result is a single allocation (struct, register
 * writes and fstr together) sized before anything is written into it, which
 * keeps the encoder fast in batch runs.
 *
 * Before the rules, the plain-result cache (plain_cache.c) is asked: it
 * answers the strings it holds a rule result for, unless the model set
 * turned it off (pms_model_set_set_encoder_cache). */
#include <stdio.h>
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

static void program_writes(const PmsResolved *r, const PmsRuleOut *out, EncWrites *ew)
{
    ew->n = 0;
    if (!pms_program_place_codes(r->model, r->event, out->selected, out->codes, out->n_codes, &ew->place, NULL) ||
        !pms_program_writes(&ew->place, out->codes, out->n_codes, ew->w, &ew->n, NULL)) {
        memset(&ew->place, 0, sizeof ew->place);
        ew->n = 0;
    }
}

/* Bytes of the result for these rule outputs, and where its fstr starts. */
static gsize result_size(const PmsResolved *r, const PmsRuleOut *out, const EncWrites *ew, gsize *fstr_off, gsize *flen)
{
    *flen = pms_fstr_len(r, out);
    *fstr_off = sizeof(PmsEncoding) + ew->n * sizeof(PmsRegWrite);
    /* the fstr pieces are copied in blocks that may overshoot its end */
    return *fstr_off + *flen + 1 + PMS_FSTR_SLACK;
}

/* Write the result into enc (result_size bytes). */
static void assemble(PmsEncoding *enc, const PmsResolved *r, const PmsRuleOut *out, const EncWrites *ew, gsize fstr_off)
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

PmsEncoding *pms_enc_result(const PmsResolved *r, const PmsRuleOut *out)
{
    gsize fstr_off, flen;
    EncWrites ew;
    program_writes(r, out, &ew);
    PmsEncoding *enc = pms_enc_alloc(result_size(r, out, &ew, &fstr_off, &flen));
    assemble(enc, r, out, &ew, fstr_off);
    return enc;
}

/* The pipeline.  pms_encode passes the default privilege as a constant, so
 * its copy has one test less; the cache serves the default privilege only. */
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
    if (r.pe->plain && pms_model_set_get_encoder_cache(models)) {
        PmsEncoding *enc;
        if (pms_plain_answer(&r, error, &enc))
            return enc;
    }
    if (!r.prep->fam) {
        pms_enc_fail(error, PMS_ERR_NOTSUPP, 1, "no encoding rules yet for PMU %s (architecture %s)", r.model->name,
                     r.model->family->name);
        return NULL;
    }
    PmsRuleFn rules = r.prep->fam->rules;
    PmsRuleOut out; /* the rules set every field encode reads, codes[] aside */
    memset(out.codes, 0, sizeof out.codes);
    if (!rules(&r, &out, error))
        return NULL;

    gsize fstr_off, flen;
    EncWrites ew;
    program_writes(&r, &out, &ew);
    PmsEncoding *enc = pms_enc_alloc(result_size(&r, &out, &ew, &fstr_off, &flen));
    assemble(enc, &r, &out, &ew, fstr_off);
    return enc;
}

PmsEncoding *pms_encode(const PmsModelSet *models, const char *str, GError **error)
{
    return encode(models, str, PMS_PLM_DEFAULT, error);
}

PmsEncoding *pms_encode_plm(const PmsModelSet *models, const char *str, guint plm, GError **error)
{
    if (plm & ~(guint)(PMS_PLM0 | PMS_PLM1 | PMS_PLM2 | PMS_PLM3)) {
        pms_enc_fail(error, PMS_ERR_INVAL, 0, "privilege mask 0x%x has bits beyond PLM0..PLM3 (0x1, 0x2, 0x4, 0x8)",
                     plm);
        return NULL;
    }
    return encode(models, str, plm, error);
}

/* The column a message names ("column N: ..."), 0 when none. */
static guint message_column(const GError *err)
{
    guint col = 0;
    if (err && sscanf(err->message, "column %u: ", &col) != 1)
        col = 0;
    return col;
}

PmsEncoding *pms_encode_class(const PmsModelSet *models, const char *str, guint plm, int *code, guint *column)
{
    guint col_slot;
    if (!column)
        column = &col_slot;
    GError *slot = NULL; /* the target: a GError lands here only from a path that does not ask */
    PmsEncQuiet saved = pms_enc_quiet;
    pms_enc_quiet.target = &slot;
    pms_enc_quiet.code = 0;
    pms_enc_quiet.col = 0;
    PmsEncoding *enc =
        plm == PMS_PLM_DEFAULT ? encode(models, str, PMS_PLM_DEFAULT, &slot) : pms_encode_plm(models, str, plm, &slot);
    int quiet = pms_enc_quiet.code;
    guint quiet_col = pms_enc_quiet.col;
    pms_enc_quiet.target = saved.target;
    pms_enc_quiet.code = saved.code;
    pms_enc_quiet.col = saved.col;
    *code = 0;
    *column = 0;
    if (enc)
        return enc;
    if (slot) {
        *code = slot->domain == PMS_ENCODE_ERROR ? slot->code : PMS_ERR_INVAL;
        *column = message_column(slot);
        g_error_free(slot);
    } else if (quiet) {
        *code = quiet;
        *column = quiet_col;
    } else {
        /* a failure that reported no class (none is known to): the
         * error of the full path, message and all */
        g_autoptr(GError) err = NULL;
        enc = pms_encode_plm(models, str, plm, &err);
        *code = err && err->domain == PMS_ENCODE_ERROR ? err->code : PMS_ERR_INVAL;
        *column = message_column(err);
    }
    return enc;
}

/* The results' blocks (enc_internal.h).  Most results are a few hundred
 * bytes: a block is at least ENC_MIN_CAP, so that the kept one serves the
 * next result whatever its length. */
#define ENC_MIN_CAP 512
G_STATIC_ASSERT(PMS_ENC_HEAD >= sizeof(gsize) && PMS_ENC_HEAD % 16 == 0);

_Thread_local PmsEncSpare pms_enc_spare;

/* At the thread's exit: its kept block (a thread that never frees a
 * result keeps none). */
static void spare_release(gpointer unused)
{
    (void)unused;
    free(pms_enc_spare.blk);
    pms_enc_spare.blk = NULL;
    pms_enc_spare.armed = FALSE; /* a result freed later in the exit arms it again */
}

static GPrivate spare_exit = G_PRIVATE_INIT(spare_release);

PmsEncoding *pms_enc_alloc_new(gsize size)
{
    gsize cap = MAX(size, ENC_MIN_CAP);
    gsize *blk = malloc(PMS_ENC_HEAD + cap);
    if (G_UNLIKELY(!blk))
        blk = g_malloc(PMS_ENC_HEAD + cap);
    blk[0] = cap;
    return (PmsEncoding *)(gpointer)((char *)blk + PMS_ENC_HEAD);
}

void pms_encoding_free(PmsEncoding *enc)
{
    if (!enc)
        return;
    gsize *blk = (gsize *)(gpointer)((char *)enc - PMS_ENC_HEAD);
    PmsEncSpare *s = &pms_enc_spare;
    if (G_UNLIKELY(!s->armed)) {
        g_private_set(&spare_exit, GINT_TO_POINTER(1));
        s->armed = TRUE;
    }
    /* keep the bigger block */
    if (s->blk && s->blk[0] >= blk[0]) {
        free(blk);
        return;
    }
    if (s->blk)
        free(s->blk);
    s->blk = blk;
}

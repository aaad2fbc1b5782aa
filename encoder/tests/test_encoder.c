/* encoder/tests — tokenizer, resolver, x86 core rules, fstr, decode, errors.
 *
 * The models are the test-only enct.pmu (Westmere-like) and encg.pmu
 * (Goldmont-like) in this directory (and encu.pmu, an Itanium PMU without
 * rules yet), passed as argv[1..3], so the
 * expectations do not move when the shipped models change.  Every expected
 * register value is derived by hand from the IA32_PERFEVTSELx layout
 * (SDM Vol. 3B Fig. 18-1):
 *
 *   event 7:0  umask 15:8  USR 16 (0x10000)  OS 17 (0x20000)  E 18 (0x40000)
 *   INT 20 (0x100000)  ANY 21 (0x200000)  EN 22 (0x400000)  INV 23 (0x800000)
 *   CMASK 31:24
 *
 * libpfm4 always returns EN and INT set, so every evtsel below contains
 * 0x500000; with both privilege levels that is 0x530000. */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <CUnit/CUnit.h>
#include "cu_tap.h"
#include "encoder.h"
#include "enc_internal.h"
#include "model_cache.h"
#include "vectors.h"

static PmsModelSet *set;
static const char *enct_path, *encg_path, *encu_path;
/* PMUSIM_RULES_ONLY was set when the suite started (meson test --setup
 * rulesonly, a hook of the test programs and the CLI, never read by the
 * library): `set` has the encoder's plain-result cache off, so every test
 * through it takes the rule path.  The tests of the cache turn it on in
 * their own sets either way. */
static gboolean rules_only_run;

static void dec_is(const char *model, guint64 v, gboolean has_extra, guint64 x, const char *expect);

/* skl (models/skl.pmu): IN_TXCP (bit 33) exists on IA32_PERFEVTSEL2 only
 * (SDM 18.11.5.1; the model's writable masks), so an event with intxcp goes
 * to counter 2, IN_TX (bit 32) stays on the lowest; FRONTEND_RETIRED's unit
 * mask and fe_thres program MSR_PEBS_FRONTEND (0x3F7, SDM Table 18-59). */
static void test_skl_extras(void)
{
    g_autoptr(PmsEncoding) cp = pms_encode(set, "skl::INST_RETIRED:ANY_P:intxcp", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cp);
    CU_ASSERT_EQUAL(cp->codes[0], G_GUINT64_CONSTANT(0x2005300c0));
    CU_ASSERT_EQUAL(cp->place.counter, 2);
    CU_ASSERT_EQUAL_FATAL(cp->n_writes, 2);
    CU_ASSERT_STRING_EQUAL(cp->writes[0].name, "IA32_PERFEVTSEL2");
    g_autoptr(PmsEncoding) tx = pms_encode(set, "skl::INST_RETIRED:ANY_P:intx", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(tx);
    CU_ASSERT_EQUAL(tx->codes[0], G_GUINT64_CONSTANT(0x1005300c0));
    CU_ASSERT_EQUAL(tx->place.counter, 0);
    g_autoptr(PmsEncoding) fe = pms_encode(set, "skl::FRONTEND_RETIRED:IDQ_4_BUBBLES:fe_thres=8", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fe);
    CU_ASSERT_EQUAL_FATAL(fe->n_codes, 2);
    CU_ASSERT_EQUAL(fe->codes[0], 0x5301c6);
    CU_ASSERT_EQUAL(fe->codes[1], 0x400806);
    CU_ASSERT_EQUAL_FATAL(fe->n_writes, 3);
    CU_ASSERT_EQUAL(fe->writes[1].address, 0x3f7);
    CU_ASSERT_EQUAL(fe->writes[1].value, 0x400806);
    /* and back: the bubble length is fe_thres, a sub-event takes none */
    dec_is("skl", 0x5301c6, TRUE, 0x400806,
           "skl::FRONTEND_RETIRED:IDQ_4_BUBBLES:k=1:u=1:e=0:i=0:c=0:intx=0:intxcp=0:fe_thres=8");
    dec_is("skl", 0x5301c6, TRUE, 0x11,
           "skl::FRONTEND_RETIRED:DSB_MISS:k=1:u=1:e=0:i=0:c=0:intx=0:intxcp=0:fe_thres=0");
    dec_is("icl", 0x5301c6, TRUE, 0x500806,
           "icl::FRONTEND_RETIRED:LATENCY_GE_8:k=1:u=1:e=0:i=0:c=0:intx=0:intxcp=0:fe_thres=8");
}

static PmsModelSet *load_set(void)
{
    g_autoptr(GError) err = NULL;
    PmsModelSet *s = pms_model_set_new_builtin(&err);
    if (!s) {
        fprintf(stderr, "# built-in models: %s\n", err->message);
        return NULL;
    }
    if (!pms_model_set_add_file(s, enct_path, &err) || !pms_model_set_add_file(s, encg_path, &err) ||
        !pms_model_set_add_file(s, encu_path, &err)) {
        fprintf(stderr, "# test models: %s\n", err->message);
        pms_model_set_free(s);
        return NULL;
    }
    if (rules_only_run)
        pms_model_set_set_encoder_cache(s, FALSE);
    return s;
}

/* Whether none of the model's plain-result slots was ever written: the
 * rule path alone has encoded its strings (the slots are made when the
 * model is prepared, the cache on or off). */
static gboolean slots_untouched(const PmsModelSet *s, const char *model)
{
    const PmsModel *m = pms_model_set_get(s, model);
    const PmsPrepared *pp = m ? pms_model_cache_peek(m, PMS_MODEL_CACHE_ENCODER) : NULL;
    for (guint i = 0; pp && i < pp->n_events; i++)
        for (guint k = 0; pp->events[i].plain && k < pp->events[i].n_plain; k++)
            if (pp->events[i].plain[k])
                return FALSE;
    return TRUE;
}

static int suite_init(void)
{
    set = load_set();
    return set ? 0 : 1;
}

static int suite_clean(void)
{
    pms_model_set_free(set);
    set = NULL;
    return 0;
}

/* Encode `str`; it must succeed with these codes and this fstr. */
static void ok2(const char *str, guint n, guint64 c0, guint64 c1, const char *fstr)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsEncoding) e = pms_encode(set, str, &err);
    if (!e) {
        fprintf(stderr, "# %s: unexpected error: %s\n", str, err->message);
        CU_FAIL("encoding failed");
        return;
    }
    if (e->n_codes != n || e->codes[0] != c0 || (n > 1 && e->codes[1] != c1))
        fprintf(stderr, "# %s: got %u codes 0x%" G_GINT64_MODIFIER "x 0x%" G_GINT64_MODIFIER "x\n", str, e->n_codes,
                e->codes[0], e->codes[1]);
    CU_ASSERT_EQUAL(e->n_codes, n);
    CU_ASSERT_EQUAL(e->codes[0], c0);
    if (n > 1)
        CU_ASSERT_EQUAL(e->codes[1], c1);
    if (fstr) {
        if (strcmp(e->fstr, fstr) != 0)
            fprintf(stderr, "# %s: fstr %s, expected %s\n", str, e->fstr, fstr);
        CU_ASSERT_STRING_EQUAL(e->fstr, fstr);
    }
    /* without a GError to fill the encoder may take shortcuts: same result */
    g_autoptr(PmsEncoding) q = pms_encode(set, str, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    CU_ASSERT_STRING_EQUAL(q->fstr, e->fstr);
    CU_ASSERT_EQUAL(q->codes[0], e->codes[0]);
    /* and when only an error's class is asked for */
    int code = -1;
    guint column = 99;
    g_autoptr(PmsEncoding) c = pms_encode_class(set, str, PMS_PLM_DEFAULT, &code, &column);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_EQUAL(code, 0);
    CU_ASSERT_EQUAL(column, 0);
    CU_ASSERT_STRING_EQUAL(c->fstr, e->fstr);
    CU_ASSERT_EQUAL(c->codes[0], e->codes[0]);
}

static void ok1(const char *str, guint64 c0, const char *fstr)
{
    ok2(str, 1, c0, 0, fstr);
}

/* Encode `str`; it must fail with `code`, the message starting with
 * "column COL:" (COL 0: no column expected) and containing `needle`. */
static void bad(const char *str, PmsEncodeError code, guint col, const char *needle)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsEncoding) e = pms_encode(set, str, &err);
    CU_ASSERT_PTR_NULL(e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(err);
    if (!g_error_matches(err, PMS_ENCODE_ERROR, (gint)code))
        fprintf(stderr, "# %.60s: got %s (%s), expected %s\n", str, pms_encode_error_name(err->code), err->message,
                pms_encode_error_name(code));
    CU_ASSERT_TRUE(g_error_matches(err, PMS_ENCODE_ERROR, (gint)code));
    if (col) {
        g_autofree char *prefix = g_strdup_printf("column %u: ", col);
        if (!g_str_has_prefix(err->message, prefix))
            fprintf(stderr, "# %.60s: message '%s', expected column %u\n", str, err->message, col);
        CU_ASSERT_TRUE(g_str_has_prefix(err->message, prefix));
    }
    if (needle) {
        if (!strstr(err->message, needle))
            fprintf(stderr, "# %.60s: message '%s' lacks '%s'\n", str, err->message, needle);
        CU_ASSERT_PTR_NOT_NULL(strstr(err->message, needle));
    }
    /* refused as well when nobody asks for the message (the shortcuts) */
    g_autoptr(PmsEncoding) q = pms_encode(set, str, NULL);
    CU_ASSERT_PTR_NULL(q);
    /* the batch protocol's call: the same class, and no message formatted */
    int cls = -1;
    guint column = 999, msg_col = 0;
    guint formatted = pms_enc_quiet.formatted;
    g_autoptr(PmsEncoding) c = pms_encode_class(set, str, PMS_PLM_DEFAULT, &cls, &column);
    CU_ASSERT_PTR_NULL(c);
    if (cls != err->code)
        fprintf(stderr, "# %.60s: class-only %s, expected %s\n", str, pms_encode_error_name(cls),
                pms_encode_error_name(err->code));
    CU_ASSERT_EQUAL(cls, err->code);
    /* and the column the message names (0: none) */
    if (sscanf(err->message, "column %u: ", &msg_col) != 1)
        msg_col = 0;
    if (column != msg_col)
        fprintf(stderr, "# %.60s: class-only column %u, the message's %u\n", str, column, msg_col);
    CU_ASSERT_EQUAL(column, msg_col);
    if (pms_enc_quiet.formatted != formatted)
        fprintf(stderr, "# %.60s: class-only call formatted %u message(s)\n", str, pms_enc_quiet.formatted - formatted);
    CU_ASSERT_EQUAL(pms_enc_quiet.formatted, formatted);
    /* short, printable, valid UTF-8 whatever the input was */
    CU_ASSERT_TRUE(strlen(err->message) < 400);
    CU_ASSERT_TRUE(g_utf8_validate(err->message, -1, NULL));
}

/* ---- tokenizer ---- */

/* ---- modifiers patched into a prepared result (encode.c) ---- */

/* Values derived by hand from the evtsel layout (SDM Vol. 3B 18.2.1): event
 * 0xc0 umask 0x00 (INST_RETIRED.ANY_P), 0x0b/0x10 (MEM:LAT); USR bit 16,
 * OS 17, E 18, INT 20, EN 22, INV 23, CMASK 24-31. */
static void test_modifier_patch(void)
{
    ok1("enct::INST_RETIRED:ANY_P:c=16:i:k", 0x10d200c0, "enct::INST_RETIRED:ANY_P:k=1:u=0:e=0:i=1:c=16:t=0");
    ok1("enct::INST_RETIRED:ANY_P:c=255:e", 0xff5700c0, "enct::INST_RETIRED:ANY_P:k=1:u=1:e=1:i=0:c=255:t=0");
    ok1("enct::INST_RETIRED:ANY_P:u:c=2", 0x025100c0, NULL);
    ok2("enct::MEM:LAT:ldlat=300:u", 2, 0x51100b, 300, "enct::MEM:LAT:k=0:u=1:e=0:i=0:c=0:t=0:ldlat=300");
    ok2("enct::MEM:LAT:c=12:ldlat=7", 2, 0x0c53100b, 7, "enct::MEM:LAT:k=1:u=1:e=0:i=0:c=12:t=0:ldlat=7");
    ok2("enct::MEM:LAT:ldlat=65535:c=10:k", 2, 0x0a52100b, 65535, "enct::MEM:LAT:k=1:u=0:e=0:i=0:c=10:t=0:ldlat=65535");
    /* the rules still refuse, with and without a message asked for */
    bad("enct::INST_RETIRED:ANY_P:c=256", PMS_ERR_ATTR_VAL, 0, "out of range");
    bad("enct::INST_RETIRED:ANY_P:e", PMS_ERR_ATTR, 0, "needs a threshold");
    bad("enct::MEM:LAT:ldlat=2:u", PMS_ERR_ATTR_VAL, 0, "out of range");
    bad("enct::MEM:LAT:ldlat=0", PMS_ERR_ATTR_VAL, 0, "out of range");
}

static void test_tokenize(void)
{
    PmsTokens t;
    g_autoptr(GError) err = NULL;
    CU_ASSERT_TRUE_FATAL(pms_tokenize("enct::INST_RETIRED:u=1.k", &t, &err));
    CU_ASSERT_TRUE(t.has_pmu);
    CU_ASSERT_EQUAL(t.pmu_len, 4);
    CU_ASSERT_EQUAL(t.ev_off, 6);
    CU_ASSERT_EQUAL(t.ev_len, 12);
    CU_ASSERT_EQUAL(t.n_attrs, 2); /* '.' separates like ':' (libpfm4) */
    CU_ASSERT_EQUAL(t.attrs[0].off, 19);
    CU_ASSERT_EQUAL(t.attrs[0].len, 3);
    CU_ASSERT_EQUAL(t.attrs[0].eq, 1);
    CU_ASSERT_EQUAL(t.attrs[1].off, 23);
    CU_ASSERT_EQUAL(t.attrs[1].eq, -1);

    CU_ASSERT_TRUE(pms_tokenize("EV", &t, NULL));
    CU_ASSERT_FALSE(t.has_pmu);
    CU_ASSERT_EQUAL(t.ev_len, 2);
    CU_ASSERT_EQUAL(t.n_attrs, 0);

    /* trailing separator: one empty attribute */
    CU_ASSERT_TRUE(pms_tokenize("p::E:", &t, NULL));
    CU_ASSERT_EQUAL(t.n_attrs, 1);
    CU_ASSERT_EQUAL(t.attrs[0].len, 0);

    /* the first "::" ends the PMU name */
    CU_ASSERT_TRUE(pms_tokenize("a::b::c", &t, NULL));
    CU_ASSERT_EQUAL(t.pmu_len, 1);
    CU_ASSERT_EQUAL(t.ev_len, 1);
    CU_ASSERT_EQUAL(t.n_attrs, 2);

    /* attributes beyond 64 are counted, not stored */
    g_autoptr(GString) s = g_string_new("p::E");
    for (int i = 0; i < 200; i++)
        g_string_append(s, ":u");
    CU_ASSERT_TRUE(pms_tokenize(s->str, &t, NULL));
    CU_ASSERT_TRUE(t.too_many);
    CU_ASSERT_EQUAL(t.n_attrs, PMS_ENC_MAX_ATTRS + 1);

    CU_ASSERT_FALSE(pms_tokenize("p::E:\tu", &t, &err));
    CU_ASSERT_TRUE(g_error_matches(err, PMS_ENCODE_ERROR, PMS_ERR_INVAL));
    CU_ASSERT_TRUE(g_str_has_prefix(err->message, "column 6: "));
}

/* The grammar of tokenize.c, byte by byte and nothing else: the reference
 * the tokenizer's block scan must agree with.  Returns the column of the
 * first blank or ',' (0: none). */
static guint ref_tokenize(const char *s, PmsTokens *t)
{
    gsize start = 0, skip = 0;
    gint eq = -1;
    gboolean event = TRUE;
    t->has_pmu = FALSE;
    t->pmu_len = 0;
    t->ev_off = t->ev_len = 0;
    t->len = 0;
    t->n_attrs = 0;
    t->too_many = FALSE;
    for (gsize i = 0;; i++) {
        char c = s[i];
        if (c == ' ' || c == '\t' || c == ',')
            return (guint)i + 1;
        if (c == '=') {
            if (eq < 0 && !event)
                eq = (gint)(i - start);
            continue;
        }
        if (c == ':' && !t->has_pmu && s[i + 1] == ':') {
            t->has_pmu = TRUE;
            t->pmu_len = (guint)i;
            t->n_attrs = 0;
            t->too_many = FALSE;
            skip = i + 1;
            start = i + 2;
            event = TRUE;
            eq = -1;
            continue;
        }
        if (c != ':' && c != '.' && c != '\0')
            continue;
        if (i == skip && i)
            continue;
        if (event) {
            t->ev_off = (guint)start;
            t->ev_len = (guint)(i - start);
        } else if (t->n_attrs == PMS_ENC_MAX_ATTRS + 1) {
            t->too_many = TRUE;
        } else {
            t->attrs[t->n_attrs++] = (PmsTok){ (guint)start, (guint)(i - start), eq };
            t->too_many = t->n_attrs > PMS_ENC_MAX_ATTRS;
        }
        if (!c) {
            t->len = i;
            return 0;
        }
        event = FALSE;
        start = i + 1;
        eq = -1;
    }
}

/* The tokenizer reads 16 bytes at a time and keeps separators as bits, a
 * word per 64 bytes: strings whose "::", separators and '=' fall on every
 * side of those boundaries (and past the 256 bytes it folds) must come out
 * as the byte-by-byte grammar says. */
static void test_tokenize_blocks(void)
{
    static const char pieces[] = "ab::..==:Z\x01\xc3";
    GRand *rnd = g_rand_new_with_seed(21);
    char buf[400];
    guint checked = 0, differ = 0;
    for (guint n = 0; n < 20000; n++) {
        guint len = (guint)g_rand_int_range(rnd, 0, n % 8 ? 140 : 300);
        gboolean blanks = n % 5 == 0;
        for (guint i = 0; i < len; i++) {
            gint32 r = g_rand_int_range(rnd, 0, 100);
            buf[i] = r < 70 ? (char)('a' + r % 26) : pieces[r % (sizeof pieces - 1)];
            if (blanks && r == 99)
                buf[i] = " \t,"[i % 3];
        }
        buf[len] = '\0';
        PmsTokens want, got;
        guint bad = ref_tokenize(buf, &want);
        g_autoptr(GError) err = NULL;
        gboolean ok = pms_tokenize(buf, &got, &err);
        gboolean same = ok == !bad;
        if (same && bad) {
            g_autofree char *col = g_strdup_printf("column %u: ", bad);
            same = g_str_has_prefix(err->message, col);
        } else if (same) {
            same = want.has_pmu == got.has_pmu && want.pmu_len == got.pmu_len && want.ev_off == got.ev_off &&
                want.ev_len == got.ev_len && want.n_attrs == got.n_attrs && want.too_many == got.too_many &&
                want.len == got.len;
            for (guint i = 0; same && i < want.n_attrs; i++)
                same = want.attrs[i].off == got.attrs[i].off && want.attrs[i].len == got.attrs[i].len &&
                    want.attrs[i].eq == got.attrs[i].eq;
            for (guint i = 0; same && i < MIN(len, PMS_ENC_FOLD_MAX); i++)
                same = got.up[i] == g_ascii_toupper(buf[i]);
        }
        if (!same && differ++ < 3) {
            g_autofree char *esc = g_strescape(buf, NULL);
            fprintf(stderr, "# tokenize differs from the grammar on '%s'\n", esc);
        }
        checked++;
    }
    g_rand_free(rnd);
    CU_ASSERT_EQUAL(checked, 20000);
    CU_ASSERT_EQUAL(differ, 0);
}

/* ---- plain events, privilege, case, defaults ---- */

static void test_basic(void)
{
    /* 0xc0 | umask 0 | USR|OS 0x30000 | INT|EN 0x500000 */
    ok1("enct::INST_RETIRED", 0x5300c0, "enct::INST_RETIRED:ANY_P:k=1:u=1:e=0:i=0:c=0:t=0");
    /* names and modifiers are case-insensitive; output is canonical case */
    ok1("ENCT::inst_retired:Any_P:U", 0x5100c0, "enct::INST_RETIRED:ANY_P:k=0:u=1:e=0:i=0:c=0:t=0");
    /* naming one privilege level drops the other; u=0 alone counts nothing */
    ok1("enct::INST_RETIRED:k", 0x5200c0, "enct::INST_RETIRED:ANY_P:k=1:u=0:e=0:i=0:c=0:t=0");
    ok1("enct::INST_RETIRED:u=0", 0x5000c0, "enct::INST_RETIRED:ANY_P:k=0:u=0:e=0:i=0:c=0:t=0");
    ok1("enct::INST_RETIRED:k=1:u=1", 0x5300c0, NULL);
    /* booleans with or without =1, in any order, '.' as separator */
    ok1("enct::INST_RETIRED.i=1.u", 0xd100c0, "enct::INST_RETIRED:ANY_P:k=0:u=1:e=0:i=1:c=0:t=0");
    /* t: ANY bit 21 */
    ok1("enct::INST_RETIRED:t", 0x7300c0, "enct::INST_RETIRED:ANY_P:k=1:u=1:e=0:i=0:c=0:t=1");
    /* the event alias prints the event it stands for */
    ok1("enct::INSTRUCTIONS_RETIRED", 0x5300c0, "enct::INST_RETIRED:ANY_P:k=1:u=1:e=0:i=0:c=0:t=0");
    /* default umask A (0x01): 0x0e | 0x100 | 0x530000 */
    ok1("enct::UOPS", 0x53010e, "enct::UOPS:A:k=1:u=1:e=0:i=0:c=0:t=0");
    /* A|B = 0x03 */
    ok1("enct::UOPS:B:A", 0x53030e, "enct::UOPS:A:B:k=1:u=1:e=0:i=0:c=0:t=0");
    /* no unit masks at all */
    ok1("enct::CYC", 0x53003c, "enct::CYC:k=1:u=1:e=0:i=0:c=0:t=0");
}

static void test_numbers(void)
{
    /* c lands in 31:24: 16 -> 0x10000000 */
    ok1("enct::INST_RETIRED:c=0x10", 0x105300c0, NULL);
    ok1("enct::INST_RETIRED:c=0X1f", 0x1f5300c0, NULL);
    ok1("enct::INST_RETIRED:c=16", 0x105300c0, "enct::INST_RETIRED:ANY_P:k=1:u=1:e=0:i=0:c=16:t=0");
    ok1("enct::INST_RETIRED:c=255", 0xff5300c0, NULL);
    ok1("enct::INST_RETIRED:c=010", 0x085300c0, NULL); /* strtoull base 0: octal */
    ok1("enct::INST_RETIRED:c=+5", 0x055300c0, NULL);
    ok1("enct::INST_RETIRED:c=0", 0x5300c0, NULL);
    ok1("enct::INST_RETIRED:u=y:k=N", 0x5100c0, NULL);
    bad("enct::INST_RETIRED:c=256", PMS_ERR_ATTR_VAL, 22, "out of range 0..255");
    /* issue 10: a negative value is called so, not quoted as its 64-bit wrap */
    bad("enct::INST_RETIRED:c=-1", PMS_ERR_ATTR_VAL, 22, "value '-1' for modifier 'c' is negative: expected 0..255");
    bad("enct::INST_RETIRED:c=-0x10:u", PMS_ERR_ATTR_VAL, 22, "value '-0x10' for modifier 'c' is negative");
    bad("enct::INST_RETIRED:c=08", PMS_ERR_ATTR_VAL, 22, NULL);
    bad("enct::INST_RETIRED:c=0x", PMS_ERR_ATTR_VAL, 22, NULL);
    bad("enct::INST_RETIRED:c=1x", PMS_ERR_ATTR_VAL, 22, "bad value '1x'");
    bad("enct::INST_RETIRED:c=99999999999999999999", PMS_ERR_ATTR_VAL, 22, NULL);
    bad("enct::INST_RETIRED:c=", PMS_ERR_ATTR_VAL, 22, NULL);
    bad("enct::INST_RETIRED:c", PMS_ERR_ATTR_VAL, 20, "needs a value");
    bad("enct::INST_RETIRED:u=2", PMS_ERR_ATTR_VAL, 22, "expected 0 or 1");
    bad("enct::INST_RETIRED:u=yes", PMS_ERR_ATTR_VAL, 22, NULL);
    bad("enct::INST_RETIRED:u==1", PMS_ERR_ATTR_VAL, 22, NULL);
}

static void test_duplicates(void)
{
    ok1("enct::INST_RETIRED:u:u=1", 0x5100c0, NULL);
    ok1("enct::INST_RETIRED:c=1:c=0x1", 0x015300c0, NULL);
    ok1("enct::INST_RETIRED:ANY_P:ANY_P", 0x5300c0, "enct::INST_RETIRED:ANY_P:k=1:u=1:e=0:i=0:c=0:t=0");
    /* second u at column 22 */
    bad("enct::INST_RETIRED:u:u=0", PMS_ERR_ATTR_SET, 22, "given twice");
    bad("enct::INST_RETIRED:c=1:c=2", PMS_ERR_ATTR_SET, 24, NULL);
    /* a repeat conflict is reported before a range error (libpfm4's order) */
    bad("enct::INST_RETIRED:c=300:u:u=0", PMS_ERR_ATTR_SET, 0, NULL);
}

static void test_exclusive_and_required(void)
{
    /* L2 has no default: a unit mask is required (column of the event) */
    bad("enct::L2", PMS_ERR_UMASK, 7, "needs a unit mask (one of LD_HIT, LD_MISS, LOADS)");
    /* LD_MISS at column 17 cannot join LD_HIT */
    bad("enct::L2:LD_HIT:LD_MISS", PMS_ERR_FEATCOMB, 17, "LD_MISS cannot be combined with LD_HIT");
    /* umask 0x03 */
    /* umask 0x03; named twice is named once */
    ok1("enct::L2:LOADS:LOADS", 0x530324, "enct::L2:LOADS:k=1:u=1:e=0:i=0:c=0:t=0");
    /* three times: libpfm4 keeps two copies, a combination of an exclusive
     * unit mask (PFM_ERR_FEATCOMB), reported at its first mention */
    bad("enct::L2:LOADS:LOADS:LOADS", PMS_ERR_FEATCOMB, 10, "repeated");
    bad("enct::L2:LOADS:LOADS:LOADS:LOADS:LOADS:LOADS", PMS_ERR_FEATCOMB, 10, NULL);
    /* aliases count as the unit mask they stand for: two names of REF are
     * one unit mask, three are a combination as in libpfm4; a plain alias
     * named three times too; an alias that sets modifiers does not trip it */
    ok1("enct::LLC:LLC_REF:REF", 0x534f2e, "enct::LLC:REF:k=1:u=1:e=0:i=0:c=0:t=0");
    bad("enct::LLC:LLC_REF:ALL_REF:REF", PMS_ERR_FEATCOMB, 11, "repeated");
    bad("enct::LLC:LLC_REF:LLC_REF:LLC_REF", PMS_ERR_FEATCOMB, 11, NULL);
    bad("enct::LLC:REF:MISS", PMS_ERR_FEATCOMB, 15, "MISS cannot be combined with REF");
    bad("enct::INST_RETIRED:ANY_P:ANY_P:ANY_P", PMS_ERR_FEATCOMB, 20, NULL);
    ok1("enct::INST_RETIRED:TOTAL_CYCLES:TOTAL_CYCLES:TOTAL_CYCLES", 0x10d300c0, NULL);
    /* a combinable unit mask may repeat: printed once */
    ok2("enct::OFFCORE_RESPONSE_0:DMND_RFO:DMND_RFO:DMND_RFO:LOCAL_DRAM", 2, 0x5301b7, 0x2002,
        "enct::OFFCORE_RESPONSE_0:DMND_RFO:LOCAL_DRAM:k=1:u=1:e=0:i=0:c=0:t=0");
    /* ',' separates events in libpfm4: malformed here */
    bad("enct::L2:LOADS,enct::L2", PMS_ERR_INVAL, 15, "one event per string");
    bad("enct::UOPS:STALL:B", PMS_ERR_FEATCOMB, 18, NULL);
    /* group-exclusive MEM */
    bad("enct::MEM:LOADS:LAT:ldlat=5", PMS_ERR_FEATCOMB, 17, NULL);
}

static void test_forced_modifiers(void)
{
    /* TOTAL_CYCLES = ANY_P with c=16, i=1: 0x10000000 | 0x800000 | 0x5300c0;
     * fstr prints the alias expanded, as libpfm4 does */
    ok1("enct::INST_RETIRED:TOTAL_CYCLES", 0x10d300c0, "enct::INST_RETIRED:ANY_P:k=1:u=1:e=0:i=1:c=16:t=0");
    ok1("enct::INST_RETIRED:TOTAL_CYCLES:c=16:i", 0x10d300c0, NULL);
    ok1("enct::INST_RETIRED:ANY_P:TOTAL_CYCLES", 0x10d300c0, NULL);
    /* c=3 at column 33 contradicts the alias */
    bad("enct::INST_RETIRED:TOTAL_CYCLES:c=3", PMS_ERR_ATTR_SET, 33, "TOTAL_CYCLES sets c=16");
    bad("enct::INST_RETIRED:i=0:TOTAL_CYCLES", PMS_ERR_ATTR_SET, 24, NULL);
    /* STALL (no alias) = umask 0x01, c=1, i=1: 0x01000000 | 0x800000 | 0x53010e */
    ok1("enct::UOPS:STALL", 0x01d3010e, "enct::UOPS:STALL:k=1:u=1:e=0:i=1:c=1:t=0");
    bad("enct::UOPS:STALL:c=2", PMS_ERR_ATTR_SET, 0, "STALL sets c=1");
    /* CORE forces t: umask 0x04 -> 0x400, ANY 0x200000 */
    ok1("enct::UOPS:CORE", 0x73040e, "enct::UOPS:CORE:k=1:u=1:e=0:i=0:c=0:t=1");
    bad("enct::UOPS:CORE:t=0", PMS_ERR_ATTR_SET, 0, NULL);
}

static void test_edge_and_t(void)
{
    /* e needs c >= 1 (libpfm_intel_wsm(3)) */
    bad("enct::INST_RETIRED:e", PMS_ERR_ATTR, 20, "needs a threshold");
    bad("enct::INST_RETIRED:c=0:e", PMS_ERR_ATTR, 24, NULL);
    /* E 0x40000 + c=1 0x01000000 */
    ok1("enct::INST_RETIRED:e:c=1", 0x015700c0, "enct::INST_RETIRED:ANY_P:k=1:u=1:e=1:i=0:c=1:t=0");
    ok1("enct::INST_RETIRED:e=0", 0x5300c0, NULL);
    /* also on the Goldmont-like model, where libpfm4 4.13 lets it pass */
    bad("encg::INST_RETIRED:e", PMS_ERR_ATTR, 20, NULL);
    ok1("encg::INST_RETIRED:e:c=1", 0x015700c0, "encg::INST_RETIRED:ANY_P:k=1:u=1:e=1:i=0:c=1");
    /* no hyper-threading, no t */
    bad("encg::INST_RETIRED:t", PMS_ERR_ATTR, 20, "unknown unit mask or modifier 't'");
}

static void test_fixed_only(void)
{
    /* code 0x00, base umask 0x03 -> 0x300; only k, u, t exist there */
    ok1("enct::REF_CYCLES", 0x530300, "enct::REF_CYCLES:k=1:u=1:t=0");
    ok1("enct::REF_CYCLES:t", 0x730300, "enct::REF_CYCLES:k=1:u=1:t=1");
    bad("enct::REF_CYCLES:c=1", PMS_ERR_ATTR, 18, "fixed-counter event");
}

static void test_ldlat(void)
{
    /* 0x0b | LAT 0x10 << 8 | 0x530000; codes[1] = the threshold */
    ok2("enct::MEM:LAT:ldlat=10", 2, 0x53100b, 10, "enct::MEM:LAT:k=1:u=1:e=0:i=0:c=0:t=0:ldlat=10");
    ok2("enct::MEM:LAT:ldlat=3", 2, 0x53100b, 3, NULL);
    ok2("enct::MEM:LAT:ldlat=0xffff", 2, 0x53100b, 65535, NULL);
    /* required on the latency umask (libpfm4 quietly uses 3) */
    bad("enct::MEM:LAT", PMS_ERR_ATTR, 7, "needs the load-latency threshold");
    /* value column 21 */
    bad("enct::MEM:LAT:ldlat=2", PMS_ERR_ATTR_VAL, 21, "out of range 3..65535");
    bad("enct::MEM:LAT:ldlat=65536", PMS_ERR_ATTR_VAL, 21, NULL);
    bad("enct::MEM:LAT:ldlat=10:ldlat=11", PMS_ERR_ATTR_SET, 24, NULL);
    /* only on that umask: MEM:LOADS, ldlat at column 17 */
    bad("enct::MEM:LOADS:ldlat=10", PMS_ERR_ATTR, 17, "applies only to the load-latency");
    bad("enct::INST_RETIRED:ldlat=10", PMS_ERR_ATTR, 20, NULL);
    bad("encg::INST_RETIRED:ldlat=10", PMS_ERR_ATTR, 20, "unknown unit mask or modifier 'ldlat'");
    /* libpfm4 prints ldlat=0 on the event's other unit masks; one code only */
    ok1("enct::MEM:LOADS", 0x53010b, "enct::MEM:LOADS:k=1:u=1:e=0:i=0:c=0:t=0:ldlat=0");
    /* ... and that string re-encodes: ldlat=0 there means "none" */
    ok1("enct::MEM:LOADS:k=1:u=1:e=0:i=0:c=0:t=0:ldlat=0", 0x53010b, "enct::MEM:LOADS:k=1:u=1:e=0:i=0:c=0:t=0:ldlat=0");
    bad("enct::MEM:LOADS:ldlat=3", PMS_ERR_ATTR, 17, NULL);
    bad("enct::INST_RETIRED:ldlat=0", PMS_ERR_ATTR, 20, "applies only to the load-latency event");
    /* MEM has no default */
    bad("enct::MEM:ldlat=10", PMS_ERR_UMASK, 7, NULL);

    /* register writes: the event select and MSR_PEBS_LD_LAT (0x3f6) */
    g_autoptr(PmsEncoding) e = pms_encode(set, "enct::MEM:LAT:ldlat=10", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_EQUAL_FATAL(e->n_writes, 2);
    CU_ASSERT_STRING_EQUAL(e->writes[0].name, "IA32_PERFEVTSEL0");
    CU_ASSERT_EQUAL(e->writes[0].address, 0x186);
    CU_ASSERT_EQUAL(e->writes[1].address, 0x3f6);
    CU_ASSERT_EQUAL(e->writes[1].value, 10);
}

static void test_writes(void)
{
    /* CYC may use counter 1 only: its event select is 0x187 */
    g_autoptr(PmsEncoding) e = pms_encode(set, "enct::CYC", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_EQUAL_FATAL(e->n_writes, 1);
    CU_ASSERT_STRING_EQUAL(e->writes[0].name, "IA32_PERFEVTSEL1");
    CU_ASSERT_EQUAL(e->writes[0].address, 0x187);
    CU_ASSERT_EQUAL(e->writes[0].value, 0x53003c);
    CU_ASSERT_TRUE(pms_uset_empty(e->umask_mask));
    g_autoptr(PmsEncoding) u = pms_encode(set, "enct::UOPS:B", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(u);
    CU_ASSERT_TRUE(pms_uset_eq(u->umask_mask, pms_uset_bit(1))); /* B is the second umask */
    CU_ASSERT_PTR_EQUAL(u->model, pms_model_set_get(set, "enct"));
    CU_ASSERT_STRING_EQUAL(u->event->name, "UOPS");
}

/* enct WIDE: 128 unit masks, U<i> = i + 1 (enct.pmu).  Event select:
 * 0x99 | umask << 8 | USR (16) | OS (17) | INT (20) | EN (22) = 0x530099 +
 * umask << 8 (Intel SDM 18.2.1.1's IA32_PERFEVTSELx layout). */
static void test_wide_event(void)
{
    ok1("enct::WIDE:U127", 0x538099, "enct::WIDE:U127:k=1:u=1:e=0:i=0:c=0:t=0");
    ok1("enct::WIDE:U127", 0x538099, NULL); /* the kept result, the second time */
    ok1("enct::WIDE:U127:c=5", 0x05538099, "enct::WIDE:U127:k=1:u=1:e=0:i=0:c=5:t=0");
    /* the default is U70 (0x47) */
    ok1("enct::WIDE", 0x534799, "enct::WIDE:U70:k=1:u=1:e=0:i=0:c=0:t=0");
    /* U100 (0x65) hard-wires c=2 (cmask, bits 31:24) */
    ok1("enct::WIDE:U100", 0x02536599, "enct::WIDE:U100:k=1:u=1:e=0:i=0:c=2:t=0");
    bad("enct::WIDE:U100:c=3", PMS_ERR_ATTR_SET, 0, "sets c=2");
    /* U120 is an alias of U110 (0x6f): fstr names U110 */
    ok1("enct::WIDE:U120", 0x536f99, "enct::WIDE:U110:k=1:u=1:e=0:i=0:c=0:t=0");
    /* one group, exclusive: the second unit mask named, at column 16 */
    bad("enct::WIDE:U65:U127", PMS_ERR_FEATCOMB, 16, "U127 cannot be combined with U65");
    bad("enct::WIDE:U3:U127", PMS_ERR_FEATCOMB, 15, "U127 cannot be combined with U3");
    g_autoptr(PmsEncoding) e = pms_encode(set, "enct::WIDE:U127", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_TRUE(pms_uset_eq(e->umask_mask, pms_uset_bit(127)));
    CU_ASSERT_EQUAL(pms_uset_count(e->umask_mask), 1);
    dec_is("enct", 0x538099, FALSE, 0, "enct::WIDE:U127:k=1:u=1:e=0:i=0:c=0:t=0");

    /* one unit mask more than a set holds: the event is refused, the rest of the model works */
    g_autofree char *text = NULL;
    CU_ASSERT_TRUE_FATAL(g_file_get_contents(enct_path, &text, NULL, NULL));
    GString *t = g_string_new(text);
    g_string_append(t, "\n[event WIDER]\ncode = 0x9a\ngroup = optional\n");
    for (guint i = 0; i <= PMS_UMASK_SET_MAX; i++)
        g_string_append_printf(t, "umask.V%u = 0x%02x\n", i, i & 0xff);
    g_autofree char *path = NULL;
    gint fd = g_file_open_tmp("wider-XXXXXX.pmu", &path, NULL);
    CU_ASSERT_TRUE_FATAL(fd >= 0);
    close(fd);
    CU_ASSERT_TRUE_FATAL(g_file_set_contents(path, t->str, (gssize)t->len, NULL));
    g_string_free(t, TRUE);
    g_autoptr(GError) err = NULL;
    PmsModelSet *s = pms_model_set_new_builtin(&err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_TRUE_FATAL(pms_model_set_add_file(s, path, &err));
    unlink(path);
    g_autoptr(PmsEncoding) w = pms_encode(s, "enct::WIDER:V1", &err);
    CU_ASSERT_PTR_NULL(w);
    CU_ASSERT_TRUE(g_error_matches(err, PMS_ENCODE_ERROR, PMS_ERR_NOTSUPP));
    g_autoptr(PmsEncoding) k = pms_encode(s, "enct::WIDE:U127", NULL);
    CU_ASSERT_PTR_NOT_NULL(k);
    pms_model_set_free(s);
}

static void test_offcore_nhm(void)
{
    /* evtsel: 0xb7 | base umask 0x01 << 8 | USR | INT|EN | c=1 -> 0x015101b7;
     * RSP: ANY_DATA 0x13 | LOCAL_DRAM 0x2000 = 0x2013 */
    ok2("enct::OFFCORE_RESPONSE_0:ANY_DATA:LOCAL_DRAM:u:c=1", 2, 0x015101b7, 0x2013,
        "enct::OFFCORE_RESPONSE_0:DMND_DATA_RD:DMND_RFO:PF_DATA_RD:LOCAL_DRAM:k=0:u=1:e=0:i=0:c=1:t=0");
    /* defaults fill both groups: 0xff | 0xff00, printed by their own names */
    ok2("enct::OFFCORE_RESPONSE_0", 2, 0x5301b7, 0xffff,
        "enct::OFFCORE_RESPONSE_0:ANY_REQUEST:ANY_RESPONSE:k=1:u=1:e=0:i=0:c=0:t=0");
    ok2("enct::OFFCORE_RESPONSE_0:LOCAL_DRAM", 2, 0x5301b7, 0x20ff, NULL);
    ok2("enct::OFFCORE_RESPONSE_0:DMND_RFO:UNCORE_HIT:LOCAL_DRAM", 2, 0x5301b7, 0x2102,
        "enct::OFFCORE_RESPONSE_0:DMND_RFO:UNCORE_HIT:LOCAL_DRAM:k=1:u=1:e=0:i=0:c=0:t=0");
    /* an alias and its parts together print each part once */
    ok2("enct::OFFCORE_RESPONSE_0:DMND_RFO:ANY_DATA:UNCORE_HIT", 2, 0x5301b7, 0x113,
        "enct::OFFCORE_RESPONSE_0:DMND_DATA_RD:DMND_RFO:PF_DATA_RD:UNCORE_HIT:k=1:u=1:e=0:i=0:c=0:t=0");
    g_autoptr(PmsEncoding) e = pms_encode(set, "enct::OFFCORE_RESPONSE_0:ANY_DATA:LOCAL_DRAM", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_EQUAL_FATAL(e->n_writes, 2);
    CU_ASSERT_STRING_EQUAL(e->writes[1].name, "MSR_OFFCORE_RSP_0");
    CU_ASSERT_EQUAL(e->writes[1].address, 0x1a6);
    CU_ASSERT_EQUAL(e->writes[1].value, 0x2013);
}

static void test_offcore_glm(void)
{
    /* nothing about the response: ANY_RESPONSE (bit 16), no snoop default;
     * request default ANY_REQUEST (bit 15): 0x18000 */
    ok2("encg::OFFCORE_RESPONSE_0", 2, 0x5301b7, 0x18000,
        "encg::OFFCORE_RESPONSE_0:ANY_REQUEST:ANY_RESPONSE:k=1:u=1:e=0:i=0:c=0");
    /* supplier without snoop: no snoop default (SDM: the response part is one
     * of supplier, snoop, average latency): 0x1 | 0x40000 */
    ok2("encg::OFFCORE_RESPONSE_0:DMND_DATA_RD:L2_HIT", 2, 0x5301b7, 0x40001,
        "encg::OFFCORE_RESPONSE_0:DMND_DATA_RD:L2_HIT:k=1:u=1:e=0:i=0:c=0");
    /* both named: both kept (libpfm_intel_glm(3) "supplier + snoops") */
    ok2("encg::OFFCORE_RESPONSE_0:DMND_DATA_RD:L2_HIT:L2_MISS_HITM_OTHER_CORE", 2, 0x5301b7, 0x1000040001, NULL);
    /* snoop alone: no supplier bit (Intel's L2_MISS encodings) */
    ok2("encg::OFFCORE_RESPONSE_0:DMND_DATA_RD:L2_MISS_HITM_OTHER_CORE", 2, 0x5301b7, 0x1000000001,
        "encg::OFFCORE_RESPONSE_0:DMND_DATA_RD:L2_MISS_HITM_OTHER_CORE:k=1:u=1:e=0:i=0:c=0");
    /* the snoop alias named by the user is printed expanded */
    ok2("encg::OFFCORE_RESPONSE_0:DMND_DATA_RD:L2_HIT:L2_MISS_SNP_ANY", 2, 0x5301b7, 0x3000040001,
        "encg::OFFCORE_RESPONSE_0:DMND_DATA_RD:L2_HIT:L2_MISS_HITM_OTHER_CORE:L2_MISS_SNP_NON_DRAM:k=1:u=1:e=0:i=0:c="
        "0");
    /* ANY_RESPONSE overrides: no supplier (exclusive group) and no snoop with it */
    bad("encg::OFFCORE_RESPONSE_0:ANY_RESPONSE:L2_HIT", PMS_ERR_FEATCOMB, 39, NULL);
    bad("encg::OFFCORE_RESPONSE_0:L2_MISS_HITM_OTHER_CORE:ANY_RESPONSE", PMS_ERR_FEATCOMB, 50, "overrides");
    /* ANY_REQUEST is exclusive in the request group */
    bad("encg::OFFCORE_RESPONSE_0:ANY_REQUEST:DMND_DATA_RD", PMS_ERR_FEATCOMB, 38, NULL);
    /* average latency: request umasks only; OUTSTANDING is bit 38 */
    ok2("encg::OFFCORE_RESPONSE_0:DMND_DATA_RD:OUTSTANDING", 2, 0x5301b7, 0x4000000001,
        "encg::OFFCORE_RESPONSE_0:DMND_DATA_RD:OUTSTANDING:k=1:u=1:e=0:i=0:c=0");
    ok2("encg::OFFCORE_RESPONSE_0:OUTSTANDING", 2, 0x5301b7, 0x4000008000, NULL);
    bad("encg::OFFCORE_RESPONSE_0:OUTSTANDING:L2_HIT", PMS_ERR_FEATCOMB, 38, "request unit masks only");
    bad("encg::OFFCORE_RESPONSE_0:OUTSTANDING:ANY_RESPONSE", PMS_ERR_FEATCOMB, 38, NULL);
    bad("encg::OFFCORE_RESPONSE_1:OUTSTANDING", PMS_ERR_FEATCOMB, 26, "OFFCORE_RESPONSE_0 only");
    /* RSP_1: evtsel umask 0x02; 0x8000 | 0x40000 */
    ok2("encg::OFFCORE_RESPONSE_1:ANY_REQUEST:L2_HIT", 2, 0x5302b7, 0x48000,
        "encg::OFFCORE_RESPONSE_1:ANY_REQUEST:L2_HIT:k=1:u=1:e=0:i=0:c=0");
    ok2("encg::OFFCORE_RESPONSE_1:L2_MISS_SNP_ANY", 2, 0x5302b7, 0x1000008000,
        "encg::OFFCORE_RESPONSE_1:ANY_REQUEST:L2_MISS_SNP_ANY:k=1:u=1:e=0:i=0:c=0");
}

static void test_errors(void)
{
    bad("", PMS_ERR_NOTFOUND, 1, "no PMU given");
    bad("INST_RETIRED", PMS_ERR_NOTFOUND, 1, "no PMU given");
    bad("foo::INST_RETIRED", PMS_ERR_NOTFOUND, 1, "unknown PMU 'foo'");
    bad("::", PMS_ERR_NOTFOUND, 1, NULL);
    bad(":", PMS_ERR_NOTFOUND, 1, NULL);
    bad("enct::", PMS_ERR_NOTFOUND, 7, "missing event name");
    bad("enct::NOPE", PMS_ERR_NOTFOUND, 7, "unknown event 'NOPE' for PMU enct");
    bad("enct:::INST_RETIRED", PMS_ERR_NOTFOUND, 7, NULL);
    bad("enct::INST_RETIRED=1", PMS_ERR_NOTFOUND, 7, NULL);
    bad("enct::INST_RETIRED:", PMS_ERR_ATTR, 20, "empty attribute");
    bad("enct::INST_RETIRED::u", PMS_ERR_ATTR, 20, NULL);
    bad("enct::INST_RETIRED:ANY_P:", PMS_ERR_ATTR, 26, NULL);
    bad("enct::INST_RETIRED:FOO", PMS_ERR_ATTR, 20,
        "unknown unit mask or modifier 'FOO' for event INST_RETIRED (expected a unit mask: ANY_P, TOTAL_CYCLES; or a "
        "modifier: k, u, e, i, c, t)");
    bad("enct::INST_RETIRED:=1", PMS_ERR_ATTR, 20, "without a name");
    bad("enct::INST_RETIRED:ANY_P=1", PMS_ERR_ATTR, 20, "takes no value");
    bad("enct::INST_RETIRED: u", PMS_ERR_INVAL, 20, NULL);
    bad(" enct::INST_RETIRED", PMS_ERR_INVAL, 1, NULL);
    /* the first bad attribute in string order decides (names before values) */
    bad("enct::INST_RETIRED:FOO:c=abc", PMS_ERR_ATTR, 20, NULL);
    bad("enct::INST_RETIRED:c=abc:FOO", PMS_ERR_ATTR_VAL, 22, NULL);

    g_autoptr(GError) err = NULL;
    CU_ASSERT_PTR_NULL(pms_encode(set, NULL, &err));
    CU_ASSERT_TRUE(g_error_matches(err, PMS_ENCODE_ERROR, PMS_ERR_INVAL));

    CU_ASSERT_STRING_EQUAL(pms_encode_error_name(0), "PFM_SUCCESS");
    CU_ASSERT_STRING_EQUAL(pms_encode_error_name(PMS_ERR_NOTFOUND), "PFM_ERR_NOTFOUND");
    CU_ASSERT_STRING_EQUAL(pms_encode_error_name(PMS_ERR_UMASK), "PFM_ERR_UMASK");
    CU_ASSERT_STRING_EQUAL(pms_encode_error_name(PMS_ERR_ATTR), "PFM_ERR_ATTR");
    CU_ASSERT_STRING_EQUAL(pms_encode_error_name(PMS_ERR_ATTR_VAL), "PFM_ERR_ATTR_VAL");
    CU_ASSERT_STRING_EQUAL(pms_encode_error_name(PMS_ERR_ATTR_SET), "PFM_ERR_ATTR_SET");
    CU_ASSERT_STRING_EQUAL(pms_encode_error_name(PMS_ERR_INVAL), "PFM_ERR_INVAL");
    CU_ASSERT_STRING_EQUAL(pms_encode_error_name(PMS_ERR_NOTSUPP), "PFM_ERR_NOTSUPP");
    CU_ASSERT_STRING_EQUAL(pms_encode_error_name(PMS_ERR_FEATCOMB), "PFM_ERR_FEATCOMB");
    CU_ASSERT_STRING_EQUAL(pms_encode_error_name(PMS_ERR_TOOSMALL), "PFM_ERR_TOOSMALL");
    CU_ASSERT_STRING_EQUAL(pms_encode_error_name(PMS_ERR_TOOMANY), "PFM_ERR_TOOMANY");
    CU_ASSERT_STRING_EQUAL(pms_encode_error_name(99), "PFM_ERR_INVAL");
}

/* ---- the uncore rules (built-in nhm_unc / wsm_unc) ----
 * MSR_UNCORE_PERFEVTSELx (SDM Vol. 3B Fig. 18-28): event 7:0, umask 15:8,
 * OCC_CTR_RST 17 (0x20000), E 18 (0x40000), INT 20 (0x100000), EN 22
 * (0x400000), INV 23 (0x800000), CMASK 31:24; no USR/OS.  EN|INT = 0x500000.
 * Codes from SDM Table 19-18 (UNC_LLC_MISS.ANY 09H/03H, UNC_QMC_WRITES
 * 2FH, UNC_GQ_CYCLES_FULL.READ_TRACKER 00H/01H). */

static void dec_is(const char *model, guint64 v, gboolean has_extra, guint64 x, const char *expect);

static void test_uncore(void)
{
    ok1("nhm_unc::UNC_LLC_MISS", 0x500309, "nhm_unc::UNC_LLC_MISS:ANY:e=0:i=0:c=0:o=0");
    bad("nhm_unc::UNC_LLC_MISS:c=-1", PMS_ERR_INVAL, 25, "value '-1' for modifier 'c' is negative: expected 0..255");
    ok1("nhm_unc::unc_llc_miss:read:write", 0x500309, "nhm_unc::UNC_LLC_MISS:READ:WRITE:e=0:i=0:c=0:o=0");
    ok1("nhm_unc::UNC_LLC_MISS:e", 0x540309, "nhm_unc::UNC_LLC_MISS:ANY:e=1:i=0:c=0:o=0");
    ok1("nhm_unc::UNC_LLC_MISS:o", 0x520309, "nhm_unc::UNC_LLC_MISS:ANY:e=0:i=0:c=0:o=1");
    ok1("nhm_unc::UNC_LLC_MISS:c=255:e:i:o", 0xffd60309, "nhm_unc::UNC_LLC_MISS:ANY:e=1:i=1:c=255:o=1");
    ok1("nhm_unc::UNC_LLC_MISS:c=0x10", 0x10500309, "nhm_unc::UNC_LLC_MISS:ANY:e=0:i=0:c=16:o=0");
    ok1("nhm_unc::UNC_GQ_CYCLES_FULL:READ_TRACKER:c=2:i:e", 0x2d40100,
        "nhm_unc::UNC_GQ_CYCLES_FULL:READ_TRACKER:e=1:i=1:c=2:o=0");
    /* the fixed counter's event: its pseudo code 0xff with EN|INT, no modifier */
    ok1("nhm_unc::UNC_CLK_UNHALTED", 0x5000ff, "nhm_unc::UNC_CLK_UNHALTED");
    ok1("wsm_unc::UNC_CLK_UNHALTED", 0x5000ff, "wsm_unc::UNC_CLK_UNHALTED");
    ok1("wsm_unc::UNC_QHL_CYCLES_NOT_EMPTY:IOH:REMOTE", 0x500322, "wsm_unc::UNC_QHL_CYCLES_NOT_EMPTY:IOH:REMOTE");
    /* UNC_QMC_WRITES: one group only; no unit mask = the first group's default */
    ok1("nhm_unc::UNC_QMC_WRITES", 0x50072f, "nhm_unc::UNC_QMC_WRITES:FULL_ANY:e=0:i=0:c=0:o=0");
    ok1("nhm_unc::UNC_QMC_WRITES:PARTIAL_CH0", 0x50082f, "nhm_unc::UNC_QMC_WRITES:PARTIAL_CH0:e=0:i=0:c=0:o=0");
    ok1("nhm_unc::UNC_QMC_WRITES:PARTIAL_CH0:PARTIAL_CH1", 0x50182f, NULL);
    ok1("nhm_unc::UNC_QMC_WRITES:FULL_CH0:FULL_CH2", 0x50052f, NULL);
    bad("nhm_unc::UNC_QMC_WRITES:FULL_ANY:PARTIAL_ANY", PMS_ERR_FEATCOMB, 34, "one group only");
    bad("nhm_unc::UNC_QMC_WRITES:PARTIAL_CH1:FULL_CH0", PMS_ERR_FEATCOMB, 37, "FULL_CH0 (group full)");
    /* NCOMBO */
    bad("nhm_unc::UNC_LLC_MISS:ANY:READ", PMS_ERR_FEATCOMB, 27, "cannot be combined");
    bad("nhm_unc::UNC_LLC_MISS:ANY:ANY:ANY", PMS_ERR_FEATCOMB, 23, "repeated");
    ok1("nhm_unc::UNC_LLC_MISS:READ:READ:READ", 0x500109, NULL);
    bad("nhm_unc::UNC_QPI_TX_STALLED_SINGLE_FLIT:LINK_0:LINK_1", PMS_ERR_FEATCOMB, 48, "cannot be combined");
    /* missing unit mask, modifiers the event lacks, privilege modifiers */
    bad("nhm_unc::UNC_DRAM_OPEN", PMS_ERR_UMASK, 10, "needs a unit mask");
    bad("nhm_unc::UNC_QHL_CYCLES_NOT_EMPTY", PMS_ERR_UMASK, 10, "IOH");
    bad("nhm_unc::UNC_QHL_CYCLES_NOT_EMPTY:IOH:e", PMS_ERR_ATTR, 39, "takes no modifier");
    bad("nhm_unc::UNC_CLK_UNHALTED:e", PMS_ERR_ATTR, 27, "takes no modifier");
    bad("nhm_unc::UNC_LLC_MISS:u", PMS_ERR_ATTR, 23, "all privilege levels");
    bad("nhm_unc::UNC_LLC_MISS:k", PMS_ERR_ATTR, 23, "all privilege levels");
    bad("nhm_unc::UNC_LLC_MISS:t", PMS_ERR_ATTR, 23, "unknown unit mask or modifier");
    /* ranges: libpfm4's uncore class is PFM_ERR_INVAL */
    bad("nhm_unc::UNC_LLC_MISS:c=256", PMS_ERR_INVAL, 25, "out of range 0..255");
    bad("nhm_unc::UNC_DRAM_OPEN:c=256", PMS_ERR_INVAL, 26, "out of range"); /* before the missing unit mask */
    bad("nhm_unc::UNC_LLC_MISS:ANY:READ:c=256", PMS_ERR_FEATCOMB, 27, "cannot be combined");
    bad("nhm_unc::UNC_LLC_MISS:c=99999999999999999999999", PMS_ERR_INVAL, 25, "out of range");
    bad("nhm_unc::UNC_LLC_MISS:c=99999999999999999999999x", PMS_ERR_ATTR_VAL, 25, "bad value");
    bad("enct::INST_RETIRED:c=99999999999999999999999", PMS_ERR_ATTR_VAL, 22, "bad value");
    bad("nhm_unc::UNC_LLC_MISS:c", PMS_ERR_ATTR_VAL, 23, "needs a value");
    bad("nhm_unc::UNC_LLC_MISS:o=2", PMS_ERR_ATTR_VAL, 25, "expected 0 or 1");
    bad("nhm_unc::UNC_LLC_MISS:o=1:o=0", PMS_ERR_ATTR_SET, 27, "given twice");
    bad("nhm_unc::UNC_LLC_MISS:", PMS_ERR_ATTR, 23, "stray");
    bad("nhm_unc::UNC_NOPE", PMS_ERR_NOTFOUND, 10, "unknown event");

    /* the register write: the event select of counter 0 first (more writes,
     * such as the counter's global enable, may follow) */
    g_autoptr(PmsEncoding) e = pms_encode(set, "wsm_unc::UNC_LLC_HITS:PROBE:c=3", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_EQUAL(e->n_codes, 1);
    CU_ASSERT_EQUAL(e->codes[0], 0x03500408);
    CU_ASSERT_FATAL(e->n_writes >= 1);
    CU_ASSERT_STRING_EQUAL(e->writes[0].name, "MSR_UNCORE_PERFEVTSEL0");
    CU_ASSERT_EQUAL(e->writes[0].address, 0x3c0);
    CU_ASSERT_EQUAL(e->writes[0].value, 0x03500408);

    /* the uncore has the plain-result cache too, and it agrees with the rule
     * path (the cache off) on every event, unit mask and a modifier spread */
    const PmsModel *unc = pms_model_set_get(set, "nhm_unc");
    const PmsPrepared *pp = pms_model_cache_peek(unc, PMS_MODEL_CACHE_ENCODER); /* prepared by the encodings above */
    CU_ASSERT_PTR_NOT_NULL_FATAL(pp);
    CU_ASSERT_PTR_NOT_NULL(pp->events[0].plain);
    /* (the whole suite also runs with `set`'s cache off: meson's rulesonly setup) */
    CU_ASSERT_EQUAL(pms_model_set_get_encoder_cache(set), !rules_only_run);
    g_autoptr(PmsModelSet) slow = pms_model_set_new_builtin(NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(slow);
    pms_model_set_set_encoder_cache(slow, FALSE);
    g_autoptr(PmsModelSet) fast = pms_model_set_new_builtin(NULL);
    CU_ASSERT_FATAL(slow && fast);
    CU_ASSERT_TRUE(pms_model_set_get_encoder_cache(fast));
    static const char *const mods[] = {
        "", ":e", ":i", ":c=2", ":c=255", ":c=256", ":o", ":e:c=1", ":e=1:i=1:c=7:o=1", ":u", ":e=0:e=1"
    };
    guint compared = 0;
    for (guint pm = 0; pm < 2; pm++) {
        const PmsModel *um = pms_model_set_get(fast, pm ? "wsm_unc" : "nhm_unc");
        for (guint i = 0; i < um->n_events; i++) {
            const PmsEvent *ev = &um->events[i];
            for (guint u = 0; u <= ev->n_umasks; u++)
                for (guint k = 0; k < G_N_ELEMENTS(mods); k++) {
                    g_autofree char *str = g_strdup_printf("%s::%s%s%s%s", um->name, ev->name, u ? ":" : "",
                                                           u ? ev->umasks[u - 1].name : "", mods[k]);
                    g_autoptr(GError) e1 = NULL, e2 = NULL;
                    g_autoptr(PmsEncoding) a = pms_encode(fast, str, &e1);
                    g_autoptr(PmsEncoding) b = pms_encode(slow, str, &e2);
                    CU_ASSERT_EQUAL(a == NULL, b == NULL);
                    if (a && b) {
                        CU_ASSERT_STRING_EQUAL(a->fstr, b->fstr);
                        CU_ASSERT(a->n_codes == b->n_codes && a->codes[0] == b->codes[0]);
                        CU_ASSERT(a->n_writes == b->n_writes && a->writes[0].value == b->writes[0].value);
                    } else if (e1 && e2) {
                        CU_ASSERT_EQUAL(e1->code, e2->code);
                        CU_ASSERT_STRING_EQUAL(e1->message, e2->message);
                    }
                    compared++;
                }
        }
    }
    CU_ASSERT(compared > 3000);
    CU_ASSERT_TRUE(slots_untouched(slow, "nhm_unc"));
    CU_ASSERT_FALSE(slots_untouched(fast, "nhm_unc"));

    dec_is("nhm_unc", 0x500309, FALSE, 0, "nhm_unc::UNC_LLC_MISS:ANY:e=0:i=0:c=0:o=0");
    dec_is("nhm_unc", 0xffd60309, FALSE, 0, "nhm_unc::UNC_LLC_MISS:ANY:e=1:i=1:c=255:o=1");
    dec_is("nhm_unc", 0x5000ff, FALSE, 0, "nhm_unc::UNC_CLK_UNHALTED");
    dec_is("wsm_unc", 0x50182f, FALSE, 0, "wsm_unc::UNC_QMC_WRITES:PARTIAL_CH0:PARTIAL_CH1:e=0:i=0:c=0:o=0");
}

/* Encode with a default privilege mask; NULL code 0 means success expected. */
static void plm_ok(const char *str, guint plm, guint64 c0, const char *fstr)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsEncoding) e = pms_encode_plm(set, str, plm, &err);
    if (!e)
        fprintf(stderr, "# %s plm 0x%x: %s\n", str, plm, err->message);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    if (e->codes[0] != c0 || strcmp(e->fstr, fstr) != 0)
        fprintf(stderr, "# %s plm 0x%x: 0x%" G_GINT64_MODIFIER "x %s\n", str, plm, e->codes[0], e->fstr);
    CU_ASSERT_EQUAL(e->codes[0], c0);
    CU_ASSERT_STRING_EQUAL(e->fstr, fstr);
    g_autoptr(PmsEncoding) q = pms_encode_plm(set, str, plm, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    CU_ASSERT_EQUAL(q->codes[0], c0);
    if (e->n_writes)
        CU_ASSERT_EQUAL(e->writes[0].value, c0);
}

static void plm_bad(const char *str, guint plm, const char *needle)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsEncoding) e = pms_encode_plm(set, str, plm, &err);
    CU_ASSERT_PTR_NULL(e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(err);
    CU_ASSERT_TRUE(g_error_matches(err, PMS_ENCODE_ERROR, PMS_ERR_INVAL));
    if (!strstr(err->message, needle))
        fprintf(stderr, "# %s plm 0x%x: '%s' lacks '%s'\n", str, plm, err->message, needle);
    CU_ASSERT_PTR_NOT_NULL(strstr(err->message, needle));
    CU_ASSERT_PTR_NULL(pms_encode_plm(set, str, plm, NULL));
}

/* dfl_plm as libpfm4 4.13 maps it on the core PMUs (probed): PLM0 -> OS
 * (k, bit 17), PLM3 -> USR (u, bit 16), PLM1/PLM2 -> nothing; a string
 * naming u or k ignores it.  Every path: plain, modifiers, general. */
static void test_plm(void)
{
    plm_ok("enct::INST_RETIRED", PMS_PLM0 | PMS_PLM3, 0x5300c0, "enct::INST_RETIRED:ANY_P:k=1:u=1:e=0:i=0:c=0:t=0");
    plm_ok("enct::INST_RETIRED", PMS_PLM3, 0x5100c0, "enct::INST_RETIRED:ANY_P:k=0:u=1:e=0:i=0:c=0:t=0");
    plm_ok("enct::INST_RETIRED:ANY_P", PMS_PLM0, 0x5200c0, "enct::INST_RETIRED:ANY_P:k=1:u=0:e=0:i=0:c=0:t=0");
    plm_ok("enct::INST_RETIRED", PMS_PLM1, 0x5000c0, "enct::INST_RETIRED:ANY_P:k=0:u=0:e=0:i=0:c=0:t=0");
    plm_ok("enct::INST_RETIRED", PMS_PLM2, 0x5000c0, "enct::INST_RETIRED:ANY_P:k=0:u=0:e=0:i=0:c=0:t=0");
    plm_ok("enct::INST_RETIRED", 0, 0x5000c0, "enct::INST_RETIRED:ANY_P:k=0:u=0:e=0:i=0:c=0:t=0");
    plm_ok("enct::INST_RETIRED", PMS_PLM1 | PMS_PLM3, 0x5100c0, "enct::INST_RETIRED:ANY_P:k=0:u=1:e=0:i=0:c=0:t=0");
    plm_ok("enct::INST_RETIRED:c=12:i", PMS_PLM3, 0x0cd100c0, "enct::INST_RETIRED:ANY_P:k=0:u=1:e=0:i=1:c=12:t=0");
    plm_ok("enct::INST_RETIRED:k", PMS_PLM3, 0x5200c0, "enct::INST_RETIRED:ANY_P:k=1:u=0:e=0:i=0:c=0:t=0");
    plm_ok("enct::INST_RETIRED:u=0", PMS_PLM0, 0x5000c0, "enct::INST_RETIRED:ANY_P:k=0:u=0:e=0:i=0:c=0:t=0");
    plm_ok("enct::OFFCORE_RESPONSE_0:DMND_DATA_RD:LOCAL_DRAM", PMS_PLM3, 0x5101b7,
           "enct::OFFCORE_RESPONSE_0:DMND_DATA_RD:LOCAL_DRAM:k=0:u=1:e=0:i=0:c=0:t=0");
    /* the default keeps the prepared results */
    plm_ok("enct::INST_RETIRED:c=2", PMS_PLM0 | PMS_PLM3, 0x025300c0,
           "enct::INST_RETIRED:ANY_P:k=1:u=1:e=0:i=0:c=2:t=0");
    plm_bad("enct::INST_RETIRED", 0x10, "beyond PLM0..PLM3");
    /* uncore: no privilege filter; only PLM0|PLM3 */
    plm_ok("nhm_unc::UNC_LLC_MISS", PMS_PLM0 | PMS_PLM3, 0x500309, "nhm_unc::UNC_LLC_MISS:ANY:e=0:i=0:c=0:o=0");
    plm_bad("nhm_unc::UNC_LLC_MISS", PMS_PLM3, "need PLM0|PLM3");
    plm_bad("nhm_unc::UNC_LLC_MISS", PMS_PLM0, "all privilege levels");
    plm_bad("wsm_unc::UNC_CLK_UNHALTED", PMS_PLM0 | PMS_PLM1 | PMS_PLM2 | PMS_PLM3, "need PLM0|PLM3");
    plm_bad("wsm_unc::UNC_CLK_UNHALTED", 0, "need PLM0|PLM3");
}

static void test_no_rules(void)
{
    /* an Itanium placeholder model without a counting PMC layout: the ia64
     * rules cannot place a field, a clear NOTSUPP, no crash */
    bad("encu::UNC_CLK", PMS_ERR_NOTSUPP, 1, "no encoding rules for PMU encu");
    g_autoptr(GError) err = NULL;
    CU_ASSERT_PTR_NULL(pms_decode(pms_model_set_get(set, "encu"), 0x01, FALSE, 0, &err));
    CU_ASSERT_TRUE(g_error_matches(err, PMS_ENCODE_ERROR, PMS_ERR_NOTSUPP));
}

static char *repeat(const char *head, const char *piece, int n)
{
    GString *s = g_string_new(head);
    for (int i = 0; i < n; i++)
        g_string_append(s, piece);
    return g_string_free(s, FALSE);
}

static void test_hostile(void)
{
    /* 10 kB event name: not found, message capped */
    g_autofree char *big = repeat("enct::", "A", 10000);
    bad(big, PMS_ERR_NOTFOUND, 7, "bytes)");
    g_autofree char *bigu = repeat("enct::INST_RETIRED:", "B", 10000);
    bad(bigu, PMS_ERR_ATTR, 20, NULL);
    g_autofree char *bigv = repeat("enct::INST_RETIRED:c=", "9", 10000);
    bad(bigv, PMS_ERR_ATTR_VAL, 22, NULL);
    /* format directives are data */
    bad("enct::INST_RETIRED:%n%s%x", PMS_ERR_ATTR, 20, "'%n%s%x'");
    bad("%n%s::X", PMS_ERR_NOTFOUND, 1, "'%n%s'");
    /* invalid UTF-8 and control bytes are quoted as \xNN */
    bad("enct::INST_RETIRED:\xff\xfe", PMS_ERR_ATTR, 20, "\\xff\\xfe");
    bad("enct::INST_\x01RETIRED", PMS_ERR_NOTFOUND, 7, "\\x01");
    bad("\xc3\x28::X", PMS_ERR_NOTFOUND, 1, "\\xc3(");
    /* 64 unit masks and modifiers are fine, the 65th is too many (column of
     * the 65th: 19 + 2 * 64 + 1 = 148) */
    g_autofree char *u64 = repeat("enct::INST_RETIRED", ":u", 64);
    ok1(u64, 0x5100c0, NULL);
    g_autofree char *u65 = repeat("enct::INST_RETIRED", ":u", 65);
    bad(u65, PMS_ERR_TOOMANY, 148, "more than 64");
    g_autofree char *u300 = repeat("enct::INST_RETIRED", ":u", 300);
    bad(u300, PMS_ERR_TOOMANY, 148, NULL);
    /* libpfm4 4.13 overruns its array here; we answer */
    g_autofree char *a65 = repeat("enct::INST_RETIRED", ":ANY_P", 65);
    bad(a65, PMS_ERR_TOOMANY, 0, NULL);
    g_autofree char *a64 = repeat("enct::OFFCORE_RESPONSE_0", ":DMND_RFO", 64);
    ok2(a64, 2, 0x5301b7, 0xff02, NULL);
    g_autofree char *c500 = repeat("enct::INST_RETIRED", ":c=1", 500);
    bad(c500, PMS_ERR_TOOMANY, 0, NULL);
    g_autofree char *colons = repeat("enct::INST_RETIRED", ":", 5000);
    bad(colons, PMS_ERR_ATTR, 20, NULL);
    g_autofree char *dcolons = repeat("", "::", 5000);
    bad(dcolons, PMS_ERR_NOTFOUND, 1, NULL);
    /* hundreds of repeated hostile strings stay fast and clean */
    gint64 t0 = g_get_monotonic_time();
    for (int i = 0; i < 200; i++) {
        g_autoptr(GError) err = NULL;
        g_autoptr(PmsEncoding) e = pms_encode(set, u300, &err);
        CU_ASSERT_PTR_NULL(e);
    }
    /* generous bound: 200 x 600-byte strings; a quadratic scan would not fit */
    CU_ASSERT_TRUE(g_get_monotonic_time() - t0 < 2 * G_USEC_PER_SEC);
}

/* ---- decode ---- */

static void dec_is(const char *model, guint64 v, gboolean has_extra, guint64 x, const char *expect)
{
    g_autoptr(GError) err = NULL;
    g_autofree char *s = pms_decode(pms_model_set_get(set, model), v, has_extra, x, &err);
    if (!s)
        fprintf(stderr, "# decode 0x%" G_GINT64_MODIFIER "x: %s\n", v, err->message);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    if (strcmp(s, expect) != 0)
        fprintf(stderr, "# decode 0x%" G_GINT64_MODIFIER "x: %s, expected %s\n", v, s, expect);
    CU_ASSERT_STRING_EQUAL(s, expect);
}

static void test_decode(void)
{
    dec_is("enct", 0x5300c0, FALSE, 0, "enct::INST_RETIRED:ANY_P:k=1:u=1:e=0:i=0:c=0:t=0");
    /* EN/INT need not be set in the value decoded */
    dec_is("enct", 0x0300c0, FALSE, 0, "enct::INST_RETIRED:ANY_P:k=1:u=1:e=0:i=0:c=0:t=0");
    dec_is("enct", 0x10d300c0, FALSE, 0, "enct::INST_RETIRED:ANY_P:k=1:u=1:e=0:i=1:c=16:t=0");
    dec_is("enct", 0x53030e, FALSE, 0, "enct::UOPS:A:B:k=1:u=1:e=0:i=0:c=0:t=0");
    /* STALL and A:c=1:i=1 encode alike; decode prefers the plain unit mask */
    dec_is("enct", 0x01d3010e, FALSE, 0, "enct::UOPS:A:k=1:u=1:e=0:i=1:c=1:t=0");
    dec_is("enct", 0x5101b7, TRUE, 0x2013,
           "enct::OFFCORE_RESPONSE_0:DMND_DATA_RD:DMND_RFO:PF_DATA_RD:LOCAL_DRAM:k=0:u=1:e=0:i=0:c=0:t=0");
    dec_is("enct", 0x53100b, TRUE, 10, "enct::MEM:LAT:k=1:u=1:e=0:i=0:c=0:t=0:ldlat=10");
    dec_is("encg", 0x5301b7, TRUE, 0x1000000001,
           "encg::OFFCORE_RESPONSE_0:DMND_DATA_RD:L2_MISS_HITM_OTHER_CORE:k=1:u=1:e=0:i=0:c=0");

    /* every successful encoding decodes to its own fstr */
    static const char *const strs[] = {
        "enct::INST_RETIRED:u:c=3:i",
        "enct::L2:LD_MISS:k",
        "enct::UOPS:CORE",
        "enct::CYC:t",
        "enct::OFFCORE_RESPONSE_0",
        "enct::OFFCORE_RESPONSE_0:DMND_RFO:UNCORE_HIT",
        "enct::MEM:LAT:ldlat=300:u",
        "enct::MEM:LOADS",
        "encg::OFFCORE_RESPONSE_1:ANY_REQUEST:L2_HIT",
        "encg::OFFCORE_RESPONSE_0:OUTSTANDING",
        "encg::INST_RETIRED:e:c=4",
    };
    for (guint i = 0; i < G_N_ELEMENTS(strs); i++) {
        g_autoptr(PmsEncoding) e = pms_encode(set, strs[i], NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(e);
        dec_is(e->model->name, e->codes[0], e->n_codes > 1, e->codes[1], e->fstr);
    }

    g_autoptr(GError) err = NULL;
    const PmsModel *t = pms_model_set_get(set, "enct");
    CU_ASSERT_PTR_NULL(pms_decode(t, 0x5300ee, FALSE, 0, &err));
    CU_ASSERT_TRUE(g_error_matches(err, PMS_ENCODE_ERROR, PMS_ERR_NOTFOUND));
    g_clear_error(&err);
    /* an offcore value without its extra register cannot be decoded */
    CU_ASSERT_PTR_NULL(pms_decode(t, 0x5301b7, FALSE, 0, &err));
    CU_ASSERT_TRUE(g_error_matches(err, PMS_ENCODE_ERROR, PMS_ERR_NOTFOUND));
    g_clear_error(&err);
    /* L2 umask 0x40 is no unit mask of L2: a raw unit mask */
    dec_is("enct", 0x534024, FALSE, 0, "enct::L2:0x40:k=1:u=1:e=0:i=0:c=0:t=0");
}

/* ---- raw unit masks (libpfm4 4.13's PFM_ATTR_RAW_UMASK), on the built-in
 * models: codes from the PERFEVTSEL layout (SDM Vol. 3B 18.2.1: umask 15:8,
 * USR 16, OS 17, E 18, INT 20, EN 22, INV 23, CMASK 31:24); classes and fstr
 * as probed on libpfm4 4.13 (docs/libpfm4-differences.md, Raw unit masks) */
static void test_raw_umask(void)
{
    ok1("wsm::INST_RETIRED:0xff:k", 0x52ffc0, "wsm::INST_RETIRED:0xff:k=1:u=0:e=0:i=0:c=0:t=0");
    ok1("wsm::INST_RETIRED:c=2:0X00FF:u", 0x251ffc0, "wsm::INST_RETIRED:0xff:k=0:u=1:e=0:i=0:c=2:t=0");
    ok1("wsm::INST_RETIRED:0x0", 0x5300c0, "wsm::INST_RETIRED:0x0:k=1:u=1:e=0:i=0:c=0:t=0");
    /* no forced modifier, no default unit mask, nothing required */
    ok1("wsm::UOPS_RETIRED:0x1", 0x5301c2, "wsm::UOPS_RETIRED:0x1:k=1:u=1:e=0:i=0:c=0:t=0");
    /* ORed onto the pseudo code's umask; an alias's unit mask is replaced */
    ok1("wsm::UNHALTED_REFERENCE_CYCLES:0x4", 0x530700, "wsm::UNHALTED_REFERENCE_CYCLES:0x4:k=1:u=1:t=0");
    ok1("wsm::LLC_REFERENCES:0x1", 0x53012e, "wsm::L3_LAT_CACHE:REFERENCE:0x1:k=1:u=1:e=0:i=0:c=0:t=0");
    /* the load-latency event: one code, no threshold */
    ok1("wsm::MEM_INST_RETIRED:0x10", 0x53100b, "wsm::MEM_INST_RETIRED:0x10:k=1:u=1:e=0:i=0:c=0:t=0:ldlat=0");
    bad("wsm::MEM_INST_RETIRED:0x10:ldlat=3", PMS_ERR_ATTR, 28, "ldlat");
    /* offcore: the extra register */
    ok2("wsm::OFFCORE_RESPONSE_0:0xffff", 2, 0x5301b7, 0xffff,
        "wsm::OFFCORE_RESPONSE_0:0xffff:k=1:u=1:e=0:i=0:c=0:t=0");
    ok2("glm::OFFCORE_RESPONSE_1:0x360005ffbf:k", 2, 0x5202b7, 0x360005ffbf,
        "glm::OFFCORE_RESPONSE_1:0x360005ffbf:k=1:u=0:e=0:i=0:c=0");
    bad("wsm::OFFCORE_RESPONSE_0:0x10000", PMS_ERR_ATTR, 25, "MSR_OFFCORE_RSP_0");
    bad("glm::OFFCORE_RESPONSE_0:0x40", PMS_ERR_ATTR, 25, NULL);
    bad("glm::OFFCORE_RESPONSE_0:0x4000000000", PMS_ERR_ATTR, 25, NULL);
    /* uncore */
    ok1("nhm_unc::UNC_DRAM_OPEN:0xff", 0x50ff60, "nhm_unc::UNC_DRAM_OPEN:0xff:e=0:i=0:c=0:o=0");
    ok1("wsm_unc::UNC_CLK_UNHALTED:0x80", 0x5080ff, "wsm_unc::UNC_CLK_UNHALTED:0x80");
    bad("nhm_unc::UNC_DRAM_OPEN:CH0:0x1", PMS_ERR_ATTR, 28, "cannot be combined");
    bad("nhm_unc::UNC_DRAM_OPEN:c=300:0x100", PMS_ERR_INVAL, 0, NULL);
    bad("nhm_unc::UNC_DRAM_OPEN:0x100:c=300", PMS_ERR_ATTR, 24, "0x100");
    /* malformed, repeated, mixed, with a value; width and range in string order */
    bad("wsm::INST_RETIRED:0x100", PMS_ERR_ATTR, 19, "umask field");
    bad("wsm::INST_RETIRED:0x10000000000000000", PMS_ERR_ATTR, 19, "64 bits");
    bad("wsm::INST_RETIRED:0xfg", PMS_ERR_ATTR, 19, "hexadecimal");
    bad("wsm::INST_RETIRED:0x", PMS_ERR_ATTR, 19, "hexadecimal");
    bad("wsm::INST_RETIRED:0xzz=1", PMS_ERR_ATTR, 19, "hexadecimal");
    bad("wsm::UOPS_ISSUED:0xff=", PMS_ERR_ATTR_VAL, 22, "takes no value");
    bad("wsm::INST_RETIRED:0x1:0x1", PMS_ERR_ATTR, 23, "second raw");
    bad("wsm::INST_RETIRED:ANY_P:0x1", PMS_ERR_ATTR, 25, "ANY_P");
    bad("wsm::INST_RETIRED:0x1:ANY_P", PMS_ERR_ATTR, 23, "ANY_P");
    bad("wsm::INST_RETIRED:0x100:c=300", PMS_ERR_ATTR, 19, NULL);
    bad("wsm::INST_RETIRED:c=300:0x100", PMS_ERR_ATTR_VAL, 21, NULL);
    bad("wsm::INST_RETIRED:255", PMS_ERR_ATTR, 19, NULL);
    /* only the x86 core and uncore PMUs take them */
    bad("nhmex_cbox0::TRANS_IPQ:0x1", PMS_ERR_ATTR, 24, NULL);
    /* decode falls back to a raw unit mask where no named one matches */
    dec_is("wsm", 0x53f0c0, FALSE, 0, "wsm::INST_RETIRED:0xf0:k=1:u=1:e=0:i=0:c=0:t=0");
    dec_is("wsm", 0x5301c0, FALSE, 0, "wsm::INST_RETIRED:ANY_P:k=1:u=1:e=0:i=0:c=0:t=0");
    dec_is("glm", 0x5301b7, TRUE, 0x1, "glm::OFFCORE_RESPONSE_0:0x1:k=1:u=1:e=0:i=0:c=0");
    dec_is("nhm_unc", 0x50ff60, FALSE, 0, "nhm_unc::UNC_DRAM_OPEN:0xff:e=0:i=0:c=0:o=0");
    /* the rule path alone gives the same answers (the cache skips raw strings) */
    g_autoptr(PmsModelSet) fresh = pms_model_set_new_builtin(NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fresh);
    pms_model_set_set_encoder_cache(fresh, FALSE);
    static const char *const strs[] = { "wsm::INST_RETIRED:0xff:k", "wsm::OFFCORE_RESPONSE_0:0xffff:c=1",
                                        "nhm_unc::UNC_DRAM_OPEN:0x3:o", "wsm::LLC_REFERENCES:0x1" };
    for (guint i = 0; i < G_N_ELEMENTS(strs); i++) {
        g_autoptr(PmsEncoding) a = pms_encode(set, strs[i], NULL);
        g_autoptr(PmsEncoding) b = pms_encode(fresh, strs[i], NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(a);
        CU_ASSERT_PTR_NOT_NULL_FATAL(b);
        CU_ASSERT_STRING_EQUAL(a->fstr, b->fstr);
        CU_ASSERT_EQUAL(a->codes[0], b->codes[0]);
        CU_ASSERT_EQUAL(a->codes[1], b->codes[1]);
    }
}

/* ---- Xeon 7500 C-Box (arch nhmex_cbox), on the built-in models ----
 *
 * Expected values derived by hand from C_MSR_PMON_EVT_SEL (Intel 323535-001
 * Table 2-13): event 7:0, umask 15:8, edge 18 (0x40000), pmi_en 20
 * (0x100000), en 22 (0x400000, always set), inv 23 (0x800000), threshold
 * 31:24; codes and unit masks from likwid's NHM-EX table (LLC_MISSES 0x14,
 * ALL 0x07; SNP_HITS 0x28, REMOTE_RD_HITM 0x01, REMOTE_RFO_HITM 0x10;
 * TRANS_IPQ 0x1b, no unit mask; ARB_LOSSES and ARB_WINS both 0x0a). */
static void test_nhmex_cbox(void)
{
    ok1("nhmex_cbox3::LLC_MISSES:ALL", 0x400714, "nhmex_cbox3::LLC_MISSES:ALL:e=0:i=0:t=0:pmi=0");
    ok1("nhmex_cbox3::LLC_MISSES:ALL:t=2", 0x02400714, "nhmex_cbox3::LLC_MISSES:ALL:e=0:i=0:t=2:pmi=0");
    ok1("nhmex_cbox3::LLC_MISSES:ALL:t=2:i", 0x02c00714, "nhmex_cbox3::LLC_MISSES:ALL:e=0:i=1:t=2:pmi=0");
    ok1("nhmex_cbox0::TRANS_IPQ", 0x40001b, "nhmex_cbox0::TRANS_IPQ:e=0:i=0:t=0:pmi=0");
    ok1("nhmex_cbox0::TRANS_IPQ:e", 0x44001b, "nhmex_cbox0::TRANS_IPQ:e=1:i=0:t=0:pmi=0");
    ok1("nhmex_cbox0::TRANS_IPQ:pmi", 0x50001b, "nhmex_cbox0::TRANS_IPQ:e=0:i=0:t=0:pmi=1");
    ok1("nhmex_cbox7::TRANS_IPQ:e=1:i=1:t=255:pmi=1", 0xffd4001b, "nhmex_cbox7::TRANS_IPQ:e=1:i=1:t=255:pmi=1");
    /* modifier order in the string does not matter; fstr prints e i t pmi */
    ok1("nhmex_cbox7::TRANS_IPQ:pmi:t=0x10:i:e=0", 0x10d0001b, "nhmex_cbox7::TRANS_IPQ:e=0:i=1:t=16:pmi=1");
    /* i without t: accepted (the counter ignores it, choice A5) */
    ok1("nhmex_cbox1::TRANS_IPQ:i", 0xc0001b, "nhmex_cbox1::TRANS_IPQ:e=0:i=1:t=0:pmi=0");
    /* unit masks combine (OR) and print in table order */
    ok1("nhmex_cbox2::SNP_HITS:REMOTE_RFO_HITM:REMOTE_RD_HITM", 0x401128,
        "nhmex_cbox2::SNP_HITS:REMOTE_RD_HITM:REMOTE_RFO_HITM:e=0:i=0:t=0:pmi=0");
    ok1("nhmex_cbox2::snp_hits:remote_any", 0x40ff28, "nhmex_cbox2::SNP_HITS:REMOTE_ANY:e=0:i=0:t=0:pmi=0");
    /* the flagged duplicate: likwid's code for both */
    ok1("nhmex_cbox5::ARB_WINS:IV", 0x40400a, "nhmex_cbox5::ARB_WINS:IV:e=0:i=0:t=0:pmi=0");
    ok1("nhmex_cbox5::ARB_LOSSES:IV", 0x40400a, "nhmex_cbox5::ARB_LOSSES:IV:e=0:i=0:t=0:pmi=0");

    /* errors: class and column */
    bad("nhmex_cbox3::LLC_MISSES", PMS_ERR_UMASK, 14, "needs a unit mask");
    bad("nhmex_cbox3::LLC_MISSES:t=1", PMS_ERR_UMASK, 14, NULL);
    bad("nhmex_cbox3::LLC_MISSES:ALL:u", PMS_ERR_ATTR, 29, "unknown unit mask or modifier 'u'");
    bad("nhmex_cbox3::LLC_MISSES:ALL:k", PMS_ERR_ATTR, 29, NULL);
    bad("nhmex_cbox3::LLC_MISSES:ALL:c=1", PMS_ERR_ATTR, 29, NULL);
    bad("nhmex_cbox3::LLC_MISSES:ALL:t=256", PMS_ERR_ATTR_VAL, 31, "out of range 0..255");
    bad("nhmex_cbox3::LLC_MISSES:ALL:t", PMS_ERR_ATTR_VAL, 29, "needs a value");
    bad("nhmex_cbox3::LLC_MISSES:ALL:pmi=2", PMS_ERR_ATTR_VAL, 33, NULL);
    bad("nhmex_cbox3::LLC_MISSES:ALL:t=1:t=2", PMS_ERR_ATTR_SET, 33, NULL);
    bad("nhmex_cbox3::LLC_MISSES:NOPE", PMS_ERR_ATTR, 25, NULL);
    bad("nhmex_cbox3::TRANS_IPQ:ALL", PMS_ERR_ATTR, 24, NULL);
    bad("nhmex_cbox3::NO_SUCH", PMS_ERR_NOTFOUND, 14, NULL);
    bad("nhmex_cbox8::TRANS_IPQ", PMS_ERR_NOTFOUND, 1, NULL);
    bad("nhmex_cbox3::CACHE_CHAR_QUAL", PMS_ERR_NOTFOUND, 14, NULL);

    /* no privilege filter: only the default privilege mask (as on the other uncore) */
    g_autoptr(GError) perr = NULL;
    CU_ASSERT_PTR_NULL(pms_encode_plm(set, "nhmex_cbox3::TRANS_IPQ", PMS_PLM3, &perr));
    CU_ASSERT_TRUE(g_error_matches(perr, PMS_ENCODE_ERROR, PMS_ERR_INVAL));
    g_autoptr(PmsEncoding) pdef = pms_encode_plm(set, "nhmex_cbox3::TRANS_IPQ", PMS_PLM0 | PMS_PLM3, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(pdef);
    CU_ASSERT_EQUAL(pdef->codes[0], 0x40001b);

    /* the fields come from the model's own box: its event select's layout */
    const PmsModel *m = pms_model_set_get(set, "nhmex_cbox3");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    const PmsRegister *sel2 = pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sel2);
    CU_ASSERT_EQUAL(sel2->address, 0xdd4);
    CU_ASSERT_EQUAL(sel2->instance, 3);
    CU_ASSERT_PTR_NULL(pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 6));
    const PmsLayout *l = sel2->layout;
    guint64 v = 0;
    v = pms_field_set(pms_layout_field(l, "event"), v, 0x14);
    v = pms_field_set(pms_layout_field(l, "umask"), v, 0x07);
    v = pms_field_set(pms_layout_field(l, "en"), v, 1);
    v = pms_field_set(pms_layout_field(l, "threshold"), v, 9);
    v = pms_field_set(pms_layout_field(l, "pmi_en"), v, 1);
    g_autoptr(PmsEncoding) e9 = pms_encode(set, "nhmex_cbox3::LLC_MISSES:ALL:t=9:pmi", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e9);
    CU_ASSERT_EQUAL(e9->codes[0], v);
    CU_ASSERT_PTR_EQUAL(e9->model, m);
    CU_ASSERT_TRUE(pms_uset_eq(e9->umask_mask, pms_uset_bit(3))); /* ALL, the fourth unit mask */
    /* where the codes go is the program step's (sim/program/program_nhmex.c): the
     * own box's event select of the lowest counter, that counter's ctr_en
     * bit in the box's GLOBAL_CTL, and the U-Box's en_all */
    CU_ASSERT_EQUAL_FATAL(e9->n_writes, 3);
    CU_ASSERT_PTR_EQUAL(e9->writes[0].reg, pms_model_reg_by_kind(m, PMS_REG_EVTSEL, 0));
    CU_ASSERT_EQUAL(e9->writes[0].address, 0xdd0);
    CU_ASSERT_EQUAL(e9->writes[0].value, v);
    CU_ASSERT_EQUAL(e9->writes[1].address, 0xdc0);
    CU_ASSERT_EQUAL(e9->writes[1].mask, 0x1);
    CU_ASSERT_EQUAL(e9->writes[1].value, 0x1);
    CU_ASSERT_EQUAL(e9->writes[2].address, 0xc00);
    CU_ASSERT_EQUAL(e9->writes[2].mask, 1u << 28);
    CU_ASSERT_EQUAL(e9->writes[2].value, 1u << 28);

    /* decode: back to the fstr */
    dec_is("nhmex_cbox3", 0x02c00714, FALSE, 0, "nhmex_cbox3::LLC_MISSES:ALL:e=0:i=1:t=2:pmi=0");
    dec_is("nhmex_cbox3", 0x00000714, FALSE, 0, "nhmex_cbox3::LLC_MISSES:ALL:e=0:i=0:t=0:pmi=0");
    dec_is("nhmex_cbox6", 0xffd4001b, FALSE, 0, "nhmex_cbox6::TRANS_IPQ:e=1:i=1:t=255:pmi=1");
    static const char *const strs[] = {
        "nhmex_cbox0::SNP_HITS:REMOTE_RD_HITM:REMOTE_RFO_HITE:t=3",
        "nhmex_cbox4::MAF_NACK2:WB_PENDING:pmi:e",
        "nhmex_cbox7::OCCUPANCY_MAF:t=12:i",
        "nhmex_cbox1::LLC_VICTIMS:ALL",
    };
    for (guint i = 0; i < G_N_ELEMENTS(strs); i++) {
        g_autoptr(PmsEncoding) e = pms_encode(set, strs[i], NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(e);
        dec_is(e->model->name, e->codes[0], FALSE, 0, e->fstr);
    }
    g_autoptr(GError) err = NULL;
    CU_ASSERT_PTR_NULL(pms_decode(m, 0x400099, FALSE, 0, &err));
    CU_ASSERT_TRUE(g_error_matches(err, PMS_ENCODE_ERROR, PMS_ERR_NOTFOUND));
}

/* Every event and every unit mask of every C-Box model: the event select
 * is the model's code and unit mask with en, nothing else. */
static void test_nhmex_cbox_all(void)
{
    guint n = 0;
    for (guint mi = 0; mi < pms_model_set_count(set); mi++) {
        const PmsModel *m = pms_model_set_nth(set, mi);
        if (!pms_model_is_family(m, "nhmex_cbox") || !g_str_has_prefix(m->source, "builtin:"))
            continue;
        for (guint ei = 0; ei < m->n_events; ei++) {
            const PmsEvent *ev = &m->events[ei];
            for (guint c = ev->n_umasks ? 1 : 0; c <= ev->n_umasks; c++) {
                g_autofree char *str = g_strdup_printf("%s::%s%s%s:t=%u", m->name, ev->name, c ? ":" : "",
                                                       c ? ev->umasks[c - 1].name : "", c);
                guint64 umask = c ? ev->umasks[c - 1].value : 0;
                g_autofree char *fstr = g_strdup_printf("%s::%s%s%s:e=0:i=0:t=%u:pmi=0", m->name, ev->name,
                                                        c ? ":" : "", c ? ev->umasks[c - 1].name : "", c);
                ok1(str, (guint64)c << 24 | 0x400000 | umask << 8 | ev->code, fstr);
                n++;
            }
            if (ev->n_umasks) {
                g_autofree char *str = g_strdup_printf("%s::%s", m->name, ev->name);
                bad(str, PMS_ERR_UMASK, (guint)strlen(m->name) + 3, NULL);
            }
        }
    }
    CU_ASSERT_EQUAL(n, 8 * (117 + 15));
}

/* The C-Box error vectors name the column of the offending token in their
 * src ("column N", scripts/gen-nhmex-vectors.py); the vector format compares
 * the class only, so the column is checked here against the builtin encoder. */
static void test_nhmex_vector_columns(void)
{
    g_autoptr(PmsVectorSet) vs = pms_vector_set_new();
    g_autoptr(GError) err = NULL;
    CU_ASSERT_TRUE_FATAL(pms_vector_set_load_builtin(vs, &err));
    guint checked = 0;
    for (guint i = 0; i < pms_vector_set_count(vs); i++) {
        const PmsVector *v = pms_vector_set_nth(vs, i);
        if (v->kind != PMS_VECTOR_ENCODE || !g_str_has_prefix(v->pmu, "nhmex_cbox") ||
            strcmp(v->ret, "PFM_SUCCESS") == 0)
            continue;
        const char *c = strstr(v->source, "column ");
        CU_ASSERT_PTR_NOT_NULL_FATAL(c);
        guint col = (guint)g_ascii_strtoull(c + strlen("column "), NULL, 10);
        g_autoptr(GError) e = NULL;
        g_autoptr(PmsEncoding) enc = pms_encode(set, v->event, &e);
        CU_ASSERT_PTR_NULL(enc);
        CU_ASSERT_PTR_NOT_NULL_FATAL(e);
        CU_ASSERT_STRING_EQUAL(pms_encode_error_name(e->code), v->ret);
        g_autofree char *prefix = g_strdup_printf("column %u: ", col);
        if (!g_str_has_prefix(e->message, prefix))
            fprintf(stderr, "# %s:%u: %.60s: '%s', expected column %u\n", v->file, v->line, v->event, e->message, col);
        CU_ASSERT_TRUE(g_str_has_prefix(e->message, prefix));
        checked++;
    }
    CU_ASSERT_TRUE(checked >= 8 * 50);
}

/* Two encodings that must be the same result (NULL: both failed). */
static void same_result(const PmsEncoding *a, const PmsEncoding *b, const char *what)
{
    CU_ASSERT_EQUAL(a != NULL, b != NULL);
    if (!a || !b) {
        if ((a != NULL) != (b != NULL))
            fprintf(stderr, "# %s: one encoding failed, the other did not\n", what);
        return;
    }
    gboolean same = a->model == b->model && a->event == b->event && a->n_codes == b->n_codes &&
        memcmp(a->codes, b->codes, sizeof a->codes) == 0 && a->n_writes == b->n_writes &&
        strcmp(a->fstr, b->fstr) == 0 && pms_uset_eq(a->umask_mask, b->umask_mask);
    for (guint i = 0; same && i < a->n_writes; i++)
        same = strcmp(a->writes[i].name, b->writes[i].name) == 0 && a->writes[i].address == b->writes[i].address &&
            a->writes[i].value == b->writes[i].value;
    if (!same)
        fprintf(stderr, "# %s: %s / %s differ\n", what, a->fstr, b->fstr);
    CU_ASSERT_TRUE(same);
}

/* The tokenizer reads 16 bytes at a time, past a string's end when that
 * stays inside the page: a string ending right before an unmapped page must
 * still be read exactly, whatever its length and where it starts. */
static void test_page_end(void)
{
    long pg = sysconf(_SC_PAGESIZE);
    char *map = mmap(NULL, (size_t)pg * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CU_ASSERT_FATAL(map != MAP_FAILED);
    CU_ASSERT_FATAL(mprotect(map + pg, (size_t)pg, PROT_NONE) == 0);
    static const char *const strs[] = {
        "enct::INST_RETIRED:ANY_P",
        "enct::INST_RETIRED:u:c=3:i",
        "enct::OFFCORE_RESPONSE_0:DMND_RFO:UNCORE_HIT",
        "enct::INST_RETIRED",
        "e",
        "",
        "enct::INST_RETIRED:ANY_P:u k",
        "enct::X",
        "encg::INST_RETIRED:e:c=4",
    };
    for (guint i = 0; i < G_N_ELEMENTS(strs); i++) {
        gsize len = strlen(strs[i]);
        /* the NUL on the page's last byte, then up to 20 bytes before it */
        for (gsize back = 0; back <= 20; back++) {
            char *at = map + pg - 1 - back - len;
            memset(map + pg - 64 - len, 'Z', 64 + len);
            memcpy(at, strs[i], len + 1);
            g_autoptr(GError) e1 = NULL;
            g_autoptr(GError) e2 = NULL;
            g_autoptr(PmsEncoding) a = pms_encode(set, at, &e1);
            g_autoptr(PmsEncoding) b = pms_encode(set, strs[i], &e2);
            same_result(a, b, strs[i]);
            CU_ASSERT_EQUAL(e1 ? e1->code : 0, e2 ? e2->code : 0);
            CU_ASSERT_STRING_EQUAL(e1 ? e1->message : "", e2 ? e2->message : "");
        }
    }
    munmap(map, (size_t)pg * 2);
}

/* The same models as `set`, with the encoder's plain-result cache off
 * (rules) or on (cached), whatever the run (NULL on failure). */
static PmsModelSet *load_cache_set(gboolean on)
{
    PmsModelSet *s = load_set();
    if (s)
        pms_model_set_set_encoder_cache(s, on);
    return s;
}

/* The same result from two model sets holding the same models. */
static void same_result_across(const PmsEncoding *a, const PmsEncoding *b, const char *what)
{
    CU_ASSERT_EQUAL(a != NULL, b != NULL);
    if (!a || !b) {
        if ((a != NULL) != (b != NULL))
            fprintf(stderr, "# %s: one encoding failed, the other did not\n", what);
        return;
    }
    gboolean same = strcmp(a->model->name, b->model->name) == 0 && strcmp(a->event->name, b->event->name) == 0 &&
        a->n_codes == b->n_codes && memcmp(a->codes, b->codes, sizeof a->codes) == 0 && a->n_writes == b->n_writes &&
        strcmp(a->fstr, b->fstr) == 0 && pms_uset_eq(a->umask_mask, b->umask_mask);
    for (guint i = 0; same && i < a->n_writes; i++)
        same = strcmp(a->writes[i].name, b->writes[i].name) == 0 && a->writes[i].address == b->writes[i].address &&
            a->writes[i].value == b->writes[i].value && a->writes[i].mask == b->writes[i].mask;
    if (!same)
        fprintf(stderr, "# %s: %s / %s differ\n", what, a->fstr, b->fstr);
    CU_ASSERT_TRUE(same);
}

/* The slot of wsm's EVENT[:UMASK] plain string in a set's prepared cache
 * (slot n_umasks + 1 + c: the same with ldlat=MIN). */
static gpointer plain_slot(const PmsModelSet *s, const char *event, const char *umask, gboolean lat)
{
    const PmsModel *m = pms_model_set_get(s, "wsm");
    const PmsEvent *ev = pms_model_event(m, event);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
    const PmsPrepEvent *pe =
        &((const PmsPrepared *)pms_model_cache_peek(m, PMS_MODEL_CACHE_ENCODER))->events[ev - m->events];
    CU_ASSERT_PTR_NOT_NULL_FATAL(pe->plain);
    guint c = umask ? (guint)(pms_event_umask(ev, umask) - ev->umasks) + 1 : 0;
    CU_ASSERT_FATAL(c + (lat ? ev->n_umasks + 1 : 0) < pe->n_plain);
    return pe->plain[c + (lat ? ev->n_umasks + 1 : 0)];
}

/* Encode `str` in both sets: the same result or the same error. */
static void same_both_ways(const PmsModelSet *fast, const PmsModelSet *rules, const char *str)
{
    g_autoptr(GError) e1 = NULL, e2 = NULL;
    g_autoptr(PmsEncoding) a = pms_encode(fast, str, &e1);
    g_autoptr(PmsEncoding) b = pms_encode(rules, str, &e2);
    same_result_across(a, b, str);
    CU_ASSERT_STRING_EQUAL(e1 ? e1->message : "", e2 ? e2->message : "");
}

/* A modifier rule that refuses a string whose plain result is kept (a value
 * out of range, e without c) is reported by the kept path itself, as the
 * rule path reports it: the same class, column and message, and the same
 * class and column where only those are asked for (pms_encode_class, the
 * batch protocol), on the core and the uncore rule sets. */
static void test_kept_refusals(void)
{
    g_autoptr(PmsModelSet) fast = load_cache_set(TRUE);
    g_autoptr(PmsModelSet) rules = load_cache_set(FALSE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fast);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rules);
    static const struct {
        const char *plain, *mods;
        int code;
    } cases[] = {
        { "wsm::INST_RETIRED:ANY_P", ":c=256", PMS_ERR_ATTR_VAL },
        { "wsm::INST_RETIRED:ANY_P", ":u:c=300:k", PMS_ERR_ATTR_VAL },
        { "wsm::INST_RETIRED:ANY_P", ":e", PMS_ERR_ATTR },
        { "wsm::INST_RETIRED:ANY_P", ":e=1:i", PMS_ERR_ATTR },
        { "nhm::UOPS_ISSUED:ANY", ":i:c=999", PMS_ERR_ATTR_VAL },
        { "skl::UOPS_ISSUED:ANY", ":c=256", PMS_ERR_ATTR_VAL },
        { "nhm_unc::UNC_LLC_MISS:ANY", ":c=256", PMS_ERR_INVAL },
        { "wsm_unc::UNC_QMC_WRITES:FULL_ANY", ":e:c=1000", PMS_ERR_INVAL },
    };
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        /* twice plain: the result is kept (test_plain_slots) */
        for (guint k = 0; k < 2; k++)
            same_both_ways(fast, rules, cases[i].plain);
        g_autofree char *str = g_strconcat(cases[i].plain, cases[i].mods, NULL);
        same_both_ways(fast, rules, str);
        g_autoptr(GError) err = NULL;
        g_autoptr(PmsEncoding) e = pms_encode(fast, str, &err);
        CU_ASSERT_PTR_NULL(e);
        CU_ASSERT_TRUE(err && err->code == cases[i].code);
        int c1, c2;
        guint col1, col2;
        g_autoptr(PmsEncoding) a = pms_encode_class(fast, str, PMS_PLM_DEFAULT, &c1, &col1);
        g_autoptr(PmsEncoding) b = pms_encode_class(rules, str, PMS_PLM_DEFAULT, &c2, &col2);
        CU_ASSERT_TRUE(!a && !b);
        CU_ASSERT_EQUAL(c1, cases[i].code);
        CU_ASSERT_EQUAL(c1, c2);
        CU_ASSERT_EQUAL(col1, col2);
        if (c1 != c2 || col1 != col2)
            fprintf(stderr, "# %s: kept %d at %u, rules %d at %u\n", str, c1, col1, c2, col2);
    }
}

/* A plain string's result is kept the second time its slot is asked for
 * (encode.c): after one encoding the slot is only marked, after the second
 * it holds the result (or says the rules refuse the string), and other
 * slots stay empty; the ldlat=MIN slot fills only for a string that needs
 * the threshold.  Every answer along the way equals the rule path's. */
static void test_plain_slots(void)
{
    g_autoptr(PmsModelSet) fast = load_cache_set(TRUE);
    g_autoptr(PmsModelSet) rules = load_cache_set(FALSE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fast);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rules);
    same_both_ways(fast, rules, "wsm::INST_RETIRED:ANY_P");
    CU_ASSERT_PTR_EQUAL(plain_slot(fast, "INST_RETIRED", "ANY_P", FALSE), PMS_PLAIN_SEEN);
    CU_ASSERT_PTR_NULL(plain_slot(fast, "INST_RETIRED", NULL, FALSE));
    /* the second time through a modifier: the result is built, then patched */
    same_both_ways(fast, rules, "wsm::INST_RETIRED:ANY_P:u:c=12");
    gpointer img = plain_slot(fast, "INST_RETIRED", "ANY_P", FALSE);
    CU_ASSERT(img != NULL && img != PMS_PLAIN_SEEN && img != PMS_PLAIN_REFUSED);
    same_both_ways(fast, rules, "wsm::INST_RETIRED:ANY_P");
    same_both_ways(fast, rules, "wsm::INST_RETIRED:ANY_P:k");
    CU_ASSERT_PTR_EQUAL(plain_slot(fast, "INST_RETIRED", "ANY_P", FALSE), img);
    CU_ASSERT_PTR_NULL(plain_slot(fast, "INST_RETIRED", NULL, FALSE));

    /* refused without its threshold: the slot says so, with or without a GError */
    const char *lat = "wsm::MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD";
    same_both_ways(fast, rules, lat);
    same_both_ways(fast, rules, lat);
    CU_ASSERT_PTR_EQUAL(plain_slot(fast, "MEM_INST_RETIRED", "LATENCY_ABOVE_THRESHOLD", FALSE), PMS_PLAIN_REFUSED);
    CU_ASSERT_PTR_NULL(pms_encode(fast, lat, NULL));
    CU_ASSERT_PTR_NULL(plain_slot(fast, "MEM_INST_RETIRED", "LATENCY_ABOVE_THRESHOLD", TRUE));
    /* with it: the ldlat=MIN slot, the threshold patched in */
    static const char *const with[] = { ":ldlat=3", ":ldlat=3", ":ldlat=64:u", ":ldlat=65535", ":ldlat=2" };
    for (guint i = 0; i < G_N_ELEMENTS(with); i++) {
        g_autofree char *str = g_strconcat(lat, with[i], NULL);
        same_both_ways(fast, rules, str);
    }
    img = plain_slot(fast, "MEM_INST_RETIRED", "LATENCY_ABOVE_THRESHOLD", TRUE);
    CU_ASSERT(img != NULL && img != PMS_PLAIN_SEEN && img != PMS_PLAIN_REFUSED);
    /* a plain string that encodes never fills its ldlat=MIN slot */
    same_both_ways(fast, rules, "wsm::MEM_INST_RETIRED:LOADS:ldlat=3");
    same_both_ways(fast, rules, "wsm::MEM_INST_RETIRED:LOADS:ldlat=3");
    same_both_ways(fast, rules, "wsm::MEM_INST_RETIRED:LOADS:ldlat=3");
    CU_ASSERT_PTR_NULL(plain_slot(fast, "MEM_INST_RETIRED", "LOADS", TRUE));
}

/* Threads encoding the same strings in one fresh set race to read the same
 * built-in models (model_set.c), to prepare them (prepared.c), and to mark
 * and build the same slots (plain_image's compare-and-exchange): every
 * result must still equal the rule path's, and each slot hold one result
 * (a lost race's result is freed: ASan and valgrind see no leak). */
typedef struct {
    const PmsModelSet *fast, *rules;
    gint wrong;
} RaceCtx;

static const char *const race_strings[] = {
    "wsm::INST_RETIRED:ANY_P",
    "wsm::INST_RETIRED:ANY_P:u",
    "wsm::UOPS_ISSUED:ANY",
    "wsm::UOPS_ISSUED:ANY:c=1:i",
    "wsm::MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD:ldlat=3",
    "wsm::MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD:ldlat=9",
    "wsm::MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD",
    "nhm_unc::UNC_LLC_MISS:ANY",
    "nhm_unc::UNC_LLC_MISS:ANY:e:c=1",
    "glm::INST_RETIRED:ANY_P:k",
};

static gpointer race_thread(gpointer data)
{
    RaceCtx *c = data;
    for (guint round = 0; round < 50; round++)
        for (guint i = 0; i < G_N_ELEMENTS(race_strings); i++) {
            g_autoptr(GError) e1 = NULL, e2 = NULL;
            g_autoptr(PmsEncoding) a = pms_encode(c->fast, race_strings[i], &e1);
            g_autoptr(PmsEncoding) b = pms_encode(c->rules, race_strings[i], &e2);
            gboolean same = (a == NULL) == (b == NULL) &&
                (!a ||
                 (strcmp(a->fstr, b->fstr) == 0 && a->n_codes == b->n_codes &&
                  memcmp(a->codes, b->codes, sizeof a->codes) == 0)) &&
                strcmp(e1 ? e1->message : "", e2 ? e2->message : "") == 0;
            if (!same)
                g_atomic_int_inc(&c->wrong);
        }
    return NULL;
}

static void test_plain_slots_threads(void)
{
    g_autoptr(PmsModelSet) fast = load_cache_set(TRUE);
    g_autoptr(PmsModelSet) rules = load_cache_set(FALSE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fast);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rules);
    RaceCtx c = { fast, rules, 0 };
    GThread *t[4];
    for (guint i = 0; i < G_N_ELEMENTS(t); i++)
        t[i] = g_thread_new("encode", race_thread, &c);
    for (guint i = 0; i < G_N_ELEMENTS(t); i++)
        g_thread_join(t[i]);
    CU_ASSERT_EQUAL(c.wrong, 0);
    gpointer img = plain_slot(fast, "INST_RETIRED", "ANY_P", FALSE);
    CU_ASSERT(img != NULL && img != PMS_PLAIN_SEEN && img != PMS_PLAIN_REFUSED);
    CU_ASSERT_TRUE(slots_untouched(rules, "wsm"));
}

/* Result blocks (encode.c): the block a thread frees last serves its next
 * result.  A result kept while others are made and freed stays intact and
 * is never handed out again; a result too big for the kept block gets its
 * own; results move between threads and outlive the thread that made them
 * (its kept block is freed when it ends: the valgrind and ASan runs see a
 * leak otherwise). */
static const char *const reuse_str[] = {
    "enct::INST_RETIRED:ANY_P:c=16:i:k",
    "enct::CYC",
};
static const char *const reuse_fstr[] = {
    "enct::INST_RETIRED:ANY_P:k=1:u=0:e=0:i=1:c=16:t=0",
    "enct::CYC:k=1:u=1:e=0:i=0:c=0:t=0",
};

static gpointer reuse_thread(gpointer data)
{
    (void)data;
    pms_encoding_free(pms_encode(set, reuse_str[1], NULL)); /* kept by this thread until it ends */
    return pms_encode(set, reuse_str[0], NULL);             /* freed by the caller's thread */
}

static void test_result_blocks(void)
{
    PmsEncoding *a = pms_encode(set, reuse_str[0], NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    for (guint i = 0; i < 6; i++) {
        PmsEncoding *b = pms_encode(set, reuse_str[i % 2], NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(b);
        CU_ASSERT_PTR_NOT_EQUAL(a, b);
        CU_ASSERT_STRING_EQUAL(b->fstr, reuse_fstr[i % 2]);
        CU_ASSERT_PTR_EQUAL(b->writes, (PmsRegWrite *)(b + 1));
        pms_encoding_free(b);
        CU_ASSERT_STRING_EQUAL(a->fstr, reuse_fstr[0]);
        CU_ASSERT_EQUAL(a->codes[0], 0x10d200c0);
    }
    /* a result longer than any block kept so far: an event whose 24 unit
     * masks with long names are all named */
    g_autofree char *text = NULL;
    CU_ASSERT_TRUE_FATAL(g_file_get_contents(enct_path, &text, NULL, NULL));
    g_autoptr(GString) t = g_string_new(text);
    g_autoptr(GString) str = g_string_new("enct::LONG");
    g_string_append(t, "\n[event LONG]\ncode = 0x9b\n");
    for (guint i = 0; i < 24; i++) {
        g_string_append_printf(t, "umask.A_UNIT_MASK_WITH_A_LONG_NAME_%02u = 0x%02x\n", i, i + 1);
        g_string_append_printf(str, ":A_UNIT_MASK_WITH_A_LONG_NAME_%02u", i);
    }
    g_autofree char *path = NULL;
    gint fd = g_file_open_tmp("long-XXXXXX.pmu", &path, NULL);
    CU_ASSERT_TRUE_FATAL(fd >= 0);
    close(fd);
    CU_ASSERT_TRUE_FATAL(g_file_set_contents(path, t->str, (gssize)t->len, NULL));
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsModelSet) s = pms_model_set_new_builtin(&err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_TRUE_FATAL(pms_model_set_add_file(s, path, &err));
    unlink(path);
    for (guint i = 0; i < 2; i++) {
        PmsEncoding *small = pms_encode(s, reuse_str[1], NULL), *c = pms_encode(s, str->str, &err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(small);
        pms_encoding_free(small);
        CU_ASSERT_PTR_NOT_NULL_FATAL(c);
        CU_ASSERT_TRUE(strlen(c->fstr) > 800);
        CU_ASSERT_TRUE(g_str_has_suffix(c->fstr, ":A_UNIT_MASK_WITH_A_LONG_NAME_23:k=1:u=1:e=0:i=0:c=0:t=0"));
        CU_ASSERT_STRING_EQUAL(a->fstr, reuse_fstr[0]);
        pms_encoding_free(c);
    }
    pms_encoding_free(NULL);
    GThread *th = g_thread_new("encode", reuse_thread, NULL);
    PmsEncoding *d = g_thread_join(th);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_STRING_EQUAL(d->fstr, reuse_fstr[0]);
    pms_encoding_free(d);
    pms_encoding_free(a);
}

/* "PMU::EVENT" and "PMU::EVENT:UMASK" are answered from results kept per
 * event and unit mask (from their second encoding on), and the same strings with the default privilege levels
 * named (":k=1:u=1") from those results with the modifiers patched on.  Both
 * must agree with the rule path (the same models, the cache off) for every
 * event and unit mask of every model, errors
 * included, and a string the rules refuse must fail alike with and without
 * a GError to fill. */
static void test_prepared_plain(void)
{
    g_autoptr(PmsModelSet) fast = load_cache_set(TRUE);
    g_autoptr(PmsModelSet) rules = load_cache_set(FALSE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fast);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rules);
    guint checked = 0;
    for (guint mi = 0; mi < pms_model_set_count(fast); mi++) {
        const PmsModel *m = pms_model_set_nth(fast, mi);
        if (!pms_model_is_family(m, "x86_core"))
            continue;
        for (guint ei = 0; ei < m->n_events; ei++) {
            const PmsEvent *ev = &m->events[ei];
            for (guint c = 0; c <= ev->n_umasks; c++) {
                g_autofree char *plain =
                    g_strdup_printf("%s::%s%s%s", m->name, ev->name, c ? ":" : "", c ? ev->umasks[c - 1].name : "");
                g_autofree char *named = g_strconcat(plain, ":k=1:u=1", NULL);
                g_autoptr(GError) e1 = NULL, e2 = NULL, e3 = NULL, e4 = NULL;
                g_autoptr(PmsEncoding) a = pms_encode(fast, plain, &e1);
                g_autoptr(PmsEncoding) ra = pms_encode(rules, plain, &e2);
                g_autoptr(PmsEncoding) b = pms_encode(fast, named, &e3);
                g_autoptr(PmsEncoding) rb = pms_encode(rules, named, &e4);
                g_autoptr(PmsEncoding) q = pms_encode(fast, plain, NULL);
                same_result_across(a, ra, plain);
                same_result_across(b, rb, named);
                same_result(a, q, plain);
                CU_ASSERT_EQUAL(a == NULL, e1 != NULL);
                CU_ASSERT_STRING_EQUAL(e1 ? e1->message : "", e2 ? e2->message : "");
                CU_ASSERT_STRING_EQUAL(e3 ? e3->message : "", e4 ? e4->message : "");
                /* modifiers the rule set applies to the kept result (each
                 * string twice: the first time may only mark the slot) */
                static const char *const mods[] = { ":u",       ":k=0",         ":c=12:e",     ":e",
                                                    ":i:c=1",   ":t=1",         ":c=256",      ":ldlat=3",
                                                    ":ldlat=0", ":ldlat=100:k", ":ldlat=70000" };
                for (guint k = 0; k < 2 * G_N_ELEMENTS(mods); k++) {
                    g_autofree char *with = g_strconcat(plain, mods[k / 2], NULL);
                    g_autoptr(GError) f1 = NULL, f2 = NULL;
                    g_autoptr(PmsEncoding) x = pms_encode(fast, with, k & 1 ? &f1 : NULL);
                    g_autoptr(PmsEncoding) rx = pms_encode(rules, with, k & 1 ? &f2 : NULL);
                    same_result_across(x, rx, with);
                    CU_ASSERT_STRING_EQUAL(f1 ? f1->message : "", f2 ? f2->message : "");
                }
                checked++;
            }
        }
    }
    /* the five built-in models and the two x86 test models */
    CU_ASSERT_TRUE(checked > 1000);
    CU_ASSERT_TRUE(slots_untouched(rules, "wsm"));
    CU_ASSERT_FALSE(slots_untouched(fast, "wsm"));
}

/* The encoder layer of the family registry lists every family once, and a
 * model's prepared facts carry its family's entry. */
static void test_family_table(void)
{
    g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
    CU_ASSERT_TRUE(pms_enc_family_table_check(problems));
    for (guint i = 0; i < problems->len; i++)
        fprintf(stderr, "# %s\n", (const char *)problems->pdata[i]);
    for (guint i = 0; i < pms_model_set_count(set); i++) {
        const PmsModel *m = pms_model_set_nth(set, i);
        CU_ASSERT_PTR_NOT_NULL(pms_enc_family(m));
        CU_ASSERT_PTR_EQUAL(pms_prepared_get(m)->fam, pms_enc_family(m));
    }
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s ENCT.pmu ENCG.pmu ENCU.pmu\n", argv[0]);
        return 2;
    }
    enct_path = argv[1];
    encg_path = argv[2];
    encu_path = argv[3];
    rules_only_run = g_getenv("PMUSIM_RULES_ONLY") != NULL;
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("encoder", suite_init, suite_clean);
    CU_add_test(s, "family table", test_family_table);
    CU_add_test(s, "tokenize", test_tokenize);
    CU_add_test(s, "tokenize blocks", test_tokenize_blocks);
    CU_add_test(s, "basic", test_basic);
    CU_add_test(s, "numbers", test_numbers);
    CU_add_test(s, "duplicates", test_duplicates);
    CU_add_test(s, "exclusive and required", test_exclusive_and_required);
    CU_add_test(s, "forced modifiers", test_forced_modifiers);
    CU_add_test(s, "edge and t", test_edge_and_t);
    CU_add_test(s, "fixed-only", test_fixed_only);
    CU_add_test(s, "ldlat", test_ldlat);
    CU_add_test(s, "plain slots", test_plain_slots);
    CU_add_test(s, "plain slots, threads", test_plain_slots_threads);
    CU_add_test(s, "register writes", test_writes);
    CU_add_test(s, "result blocks", test_result_blocks);
    CU_add_test(s, "offcore nhm", test_offcore_nhm);
    CU_add_test(s, "more unit masks than 64", test_wide_event);
    CU_add_test(s, "offcore glm", test_offcore_glm);
    CU_add_test(s, "errors", test_errors);
    CU_add_test(s, "hostile input", test_hostile);
    CU_add_test(s, "decode", test_decode);
    CU_add_test(s, "raw unit masks", test_raw_umask);
    CU_add_test(s, "no rules for the architecture", test_no_rules);
    CU_add_test(s, "uncore rules", test_uncore);
    CU_add_test(s, "default privilege mask", test_plm);
    CU_add_test(s, "string at a page's end", test_page_end);
    CU_add_test(s, "skl: IN_TXCP on counter 2, MSR_PEBS_FRONTEND", test_skl_extras);
    CU_add_test(s, "prepared plain results", test_prepared_plain);
    CU_add_test(s, "modifiers on prepared results", test_modifier_patch);
    CU_add_test(s, "kept results: a modifier's refusal worded as the rules word it", test_kept_refusals);
    CU_add_test(s, "Xeon 7500 C-Box", test_nhmex_cbox);
    CU_add_test(s, "Xeon 7500 C-Box: every event and unit mask", test_nhmex_cbox_all);
    CU_add_test(s, "Xeon 7500 C-Box: error columns of the vectors", test_nhmex_vector_columns);
    return pms_cu_tap_run();
}

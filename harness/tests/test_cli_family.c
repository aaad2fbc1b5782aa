/* harness/family: the harness's family table (every registered family has
 * an entry) and each family's hooks against what its documents say: perf's
 * forms, the register decode writes, the own signal of a one-line
 * experiment, why a surviving mutant is unobservable. */
#include "cli_family.h"
#include "cu_tap.h"
#include "sim.h"

#include <string.h>

static PmsModelSet *models;

static const PmsModel *model(const char *name)
{
    const PmsModel *m = pms_model_set_get(models, name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    return m;
}

static void test_table(void)
{
    g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
    CU_ASSERT_TRUE(pms_cli_family_table_check(problems));
    for (guint i = 0; i < problems->len; i++)
        fprintf(stderr, "# %s\n", (const char *)problems->pdata[i]);
    /* every model of every family finds its hooks, and the hooks a command
     * calls without asking are there */
    for (guint i = 0; i < pms_model_set_count(models); i++) {
        const PmsCliFamily *f = pms_cli_family(pms_model_set_nth(models, i));
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        CU_ASSERT_TRUE(f->explain && f->decode_reg && f->list_event && f->own_signal && f->unobservable);
    }
}

/* The encoding of str, which must encode. */
static PmsEncoding *enc_of(const char *str)
{
    g_autoptr(GError) err = NULL;
    PmsEncoding *enc = pms_encode(models, str, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(enc);
    return enc;
}

static void check_perf(const char *str, const char *sym, const char *raw)
{
    g_autoptr(PmsEncoding) enc = enc_of(str);
    g_autofree char *s = pms_cli_perf_symbolic(enc);
    g_autofree char *r = pms_cli_perf_raw(enc);
    g_autofree char *why = pms_cli_perf_inexpressible(enc);
    CU_ASSERT_STRING_EQUAL(s, sym);
    CU_ASSERT_STRING_EQUAL(r, raw);
    CU_ASSERT_PTR_NULL(why);
}

/* perf's forms from each model's [perf]: cpu/, uncore/, uncore_cbox_<n>/, none (perfmon). */
static void test_perf_families(void)
{
    check_perf("wsm::INST_RETIRED:ANY_P:c=2:i", "cpu/event=0xc0,umask=0x01,cmask=2,inv/", "r28001c0");
    check_perf("nhm_unc::UNC_LLC_MISS:ANY", "uncore/event=0x09,umask=0x03/", "uncore/config=0x309/");
    check_perf("nhmex_cbox3::LLC_MISSES:ALL:t=2:i:e", "uncore_cbox_3/event=0x14,umask=0x07,thresh=2,inv,edge/",
               "uncore_cbox_3/config=0x2840714/");
    check_perf("montecito::NOPS_RETIRED:thres=3:u",
               "(no perf syntax: perf_events has no Itanium PMU; perfmon programs the registers below)",
               "perfmon: PMC4=0x2305008");
    /* the uncore's OCC_CTR_RST has no perf term */
    g_autoptr(PmsEncoding) occ = enc_of("nhm_unc::UNC_DRAM_OPEN:CH0:o");
    g_autofree char *why = pms_cli_perf_inexpressible(occ);
    CU_ASSERT_PTR_NOT_NULL(why);
    CU_ASSERT_TRUE(why && strstr(why, "OCC_CTR_RST"));
}

/* x86 core perf forms (fabricated encodings; bit layout by hand). */

static void test_perf_x86_core(void)
{
    PmsEvent ev = { .name = (char *)"E" };
    PmsEncoding enc = { .model = model("wsm"), .event = &ev, .n_codes = 1 };
    /* 0x1d100c0: event 0xc0, umask 0, USR(16) INT(20) EN(22) INV(23), cmask 1 */
    enc.codes[0] = 0x1d100c0;
    g_autofree char *sym = pms_cli_perf_symbolic(&enc);
    g_autofree char *raw = pms_cli_perf_raw(&enc);
    CU_ASSERT_STRING_EQUAL(sym, "cpu/event=0xc0,umask=0x00,cmask=1,inv/u");
    CU_ASSERT_STRING_EQUAL(raw, "r18000c0:u");
    /* offcore: event 0xb7 umask 0x01 USR OS INT EN, extra register value */
    ev.flags = PMS_EVENT_OFFCORE;
    ev.extra_reg = (char *)"MSR_OFFCORE_RSP_0";
    enc.n_codes = 2;
    enc.codes[0] = 0x5301b7;
    enc.codes[1] = 0x1011;
    g_autofree char *osym = pms_cli_perf_symbolic(&enc);
    g_autofree char *oraw = pms_cli_perf_raw(&enc);
    CU_ASSERT_STRING_EQUAL(osym, "cpu/event=0xb7,umask=0x01,offcore_rsp=0x1011/");
    CU_ASSERT_STRING_EQUAL(oraw, "r1b7  cpu/config=0x1b7,config1=0x1011/");
    /* load latency: OS only, any-thread and edge set */
    ev.flags = PMS_EVENT_LDLAT;
    ev.extra_reg = (char *)"MSR_PEBS_LD_LAT";
    enc.codes[0] = 0x66100b; /* event 0x0b umask 0x10 OS(17) EDGE(18) ANY(21) EN(22) */
    enc.codes[1] = 3;
    g_autofree char *lsym = pms_cli_perf_symbolic(&enc);
    CU_ASSERT_STRING_EQUAL(lsym, "cpu/event=0x0b,umask=0x10,edge,any,ldlat=3/k");
}

/* decode: the event select, or the Itanium's counting PMC (no extra hints). */
static void test_decode_reg(void)
{
    const PmsModel *wsm = model("wsm"), *mont = model("montecito"), *cbox = model("nhmex_cbox3");
    const PmsRegister *r = pms_cli_family(wsm)->decode_reg(wsm);
    CU_ASSERT_TRUE(r && r->kind == PMS_REG_EVTSEL);
    CU_ASSERT_TRUE(pms_cli_family(wsm)->decode_extra_hints);
    r = pms_cli_family(cbox)->decode_reg(cbox);
    CU_ASSERT_TRUE(r && r->kind == PMS_REG_EVTSEL);
    r = pms_cli_family(mont)->decode_reg(mont);
    CU_ASSERT_TRUE(r && r->kind == PMS_REG_IA64_PMC && g_str_equal(r->name, "PMC4"));
    CU_ASSERT_FALSE(pms_cli_family(mont)->decode_extra_hints);
    /* the Itanium listing is the family's own; the others use the generic one */
    CU_ASSERT_PTR_NOT_NULL(pms_cli_family(mont)->list_model);
    CU_ASSERT_PTR_NULL(pms_cli_family(wsm)->list_model);
    CU_ASSERT_TRUE(pms_cli_family(mont)->flags & PMS_CLI_RANGES_DISPATCH);
    CU_ASSERT_FALSE(pms_cli_family(wsm)->flags & PMS_CLI_RANGES_DISPATCH);
    CU_ASSERT_TRUE(pms_cli_family(wsm)->flags & PMS_CLI_SIM_BENCH);
    CU_ASSERT_FALSE(pms_cli_family(cbox)->flags & PMS_CLI_SIM_BENCH);
    /* diff's raw unit-mask strings ask the encoder: libpfm4 4.13 takes raw
     * unit masks on the x86 core PMUs and nhm_unc/wsm_unc only */
    CU_ASSERT_TRUE(pms_encoder_takes_raw_umask(wsm));
    CU_ASSERT_TRUE(pms_encoder_takes_raw_umask(model("nhm_unc")));
    CU_ASSERT_FALSE(pms_encoder_takes_raw_umask(cbox));
    CU_ASSERT_FALSE(pms_encoder_takes_raw_umask(mont));
}

static guint32 own(const char *str)
{
    g_autoptr(PmsEncoding) enc = enc_of(str);
    return pms_cli_family(enc->model)->own_signal(enc->model, enc->codes, enc->n_codes);
}

/* The own signal: event code and unit mask of the event select; Itanium's
 * es/umask, the retired-instruction family on signal 0x08.0x0 (semantics.md
 * §11.4). */
static void test_own_signal(void)
{
    CU_ASSERT_EQUAL(own("wsm::INST_RETIRED:ANY_P"), PMS_SIGNAL_KEY(0xc0, 0x01));
    CU_ASSERT_EQUAL(own("nhm_unc::UNC_LLC_MISS:ANY"), PMS_SIGNAL_KEY(0x09, 0x03));
    CU_ASSERT_EQUAL(own("nhmex_cbox3::LLC_MISSES:ALL"), PMS_SIGNAL_KEY(0x14, 0x07));
    CU_ASSERT_EQUAL(own("montecito::NOPS_RETIRED"), PMS_SIGNAL_KEY(0x50, 0));
    CU_ASSERT_EQUAL(own("montecito::IA64_INST_RETIRED"), PMS_SIGNAL_KEY(0x08, 0));
}

static const char *unobs(const char *str, guint code, guint bit)
{
    g_autoptr(PmsEncoding) enc = enc_of(str);
    return pms_cli_family(enc->model)
        ->unobservable(enc->model, enc->event, enc->place.counter, enc->codes, enc->n_codes, code, bit);
}

/* Why a flip is unobservable, each family by its own documents. */
static void test_unobservable(void)
{
    /* invert without a threshold: the SDM's words on the core, §10's on the C-Box */
    const char *core = unobs("wsm::INST_RETIRED:ANY_P", 0, 23);
    const char *cbox = unobs("nhmex_cbox3::LLC_MISSES:ALL", 0, 23);
    CU_ASSERT_TRUE(core && strstr(core, "INV acts only with a non-zero counter mask"));
    CU_ASSERT_TRUE(cbox && strstr(cbox, "invert acts only with a non-zero threshold"));
    /* the uncore's occupancy reset (bit 17) */
    const char *unc = unobs("nhm_unc::UNC_LLC_MISS:ANY", 0, 17);
    CU_ASSERT_TRUE(unc && strstr(unc, "OCC_CTR_RST"));
    /* an event select bit that counts is no excuse */
    CU_ASSERT_PTR_NULL(unobs("wsm::INST_RETIRED:ANY_P", 0, 0));
    /* Itanium: a MESI qualifier on an event without MESI (bit 27) */
    const char *ia = unobs("montecito::NOPS_RETIRED", 0, 27);
    CU_ASSERT_TRUE(ia && strstr(ia, "MESI qualifiers"));
    CU_ASSERT_PTR_NULL(unobs("montecito::NOPS_RETIRED", 0, 8));
}

/* The test-only family's hooks (models/tests/toy.pmu): its own signal is
 * TOY_CTL's event and umask fields, its decode register TOY_CTL0, perf has
 * no form of it, and its explanation names its threshold. */
static void test_toy(void)
{
    const PmsModel *toy = model("toy");
    const PmsCliFamily *f = pms_cli_family(toy);
    guint64 code = 0x330310; /* MEM (0x10), umask 0x3, en, int, thresh 3 */
    CU_ASSERT_EQUAL(f->own_signal(toy, &code, 1), PMS_SIGNAL_KEY(0x10, 0x3));
    CU_ASSERT_STRING_EQUAL(f->decode_reg(toy)->name, "TOY_CTL0");
    CU_ASSERT_FALSE(f->flags & (PMS_CLI_SIM_BENCH | PMS_CLI_RANGES_DISPATCH));
    g_autoptr(PmsEncoding) enc = enc_of("toy::MEM:ANY:t=3");
    CU_ASSERT_EQUAL(enc->codes[0], code);
    g_autofree char *sym = pms_cli_perf_symbolic(enc);
    CU_ASSERT_TRUE(strstr(sym, "no perf syntax") != NULL);
    CU_ASSERT_PTR_NULL(f->unobservable(toy, enc->event, 0, enc->codes, enc->n_codes, 0, 17));
    g_autoptr(GString) o = g_string_new(NULL);
    f->explain(o, enc);
    CU_ASSERT_TRUE(strstr(o->str, "threshold: t=3: each cycle with at least 3 occurrences adds 1") != NULL);
}

/* The amd64 family's hooks (models/amd64_fam17h_zen2.pmu): the own signal
 * carries the 12-bit event code (bits 7:0 and 35:32), perf's event term
 * prints it whole, the decode register is PERF_CTL0 and the explanation
 * says there is no overflow status and which mode counts. */
static void test_amd64(void)
{
    const PmsModel *m = model("amd64_fam17h_zen2");
    const PmsCliFamily *f = pms_cli_family(m);
    g_autoptr(PmsEncoding) enc = enc_of("amd64_fam17h_zen2::RETIRED_FUSED_INSTRUCTIONS:g");
    CU_ASSERT_EQUAL(enc->codes[0], G_GUINT64_CONSTANT(0x101005300d0));
    CU_ASSERT_EQUAL(f->own_signal(m, enc->codes, enc->n_codes), PMS_SIGNAL_KEY(0x1d0, 0));
    CU_ASSERT_STRING_EQUAL(f->decode_reg(m)->name, "PERF_CTL0");
    g_autoptr(PmsEncoding) plain = enc_of("amd64_fam17h_zen2::RETIRED_FUSED_INSTRUCTIONS");
    g_autofree char *sym = pms_cli_perf_symbolic(plain);
    CU_ASSERT_STRING_EQUAL(sym, "cpu/event=0x1d0,umask=0x00/");
    g_autofree char *raw = pms_cli_perf_raw(plain);
    CU_ASSERT_STRING_EQUAL(raw, "r1000000d0");
    /* GuestOnly has no perf term: perf sets it itself */
    g_autofree char *lost = pms_cli_perf_inexpressible(enc);
    CU_ASSERT_TRUE(lost && strstr(lost, "HostOnly and GuestOnly"));
    g_autoptr(GString) o = g_string_new(NULL);
    f->explain(o, enc);
    CU_ASSERT_TRUE(strstr(o->str, "event 0x1d0") != NULL);
    CU_ASSERT_TRUE(strstr(o->str, "counts in guest mode only (GuestOnly)") != NULL);
    CU_ASSERT_TRUE(strstr(o->str, "no overflow status register") != NULL);
}

int main(int argc, char **argv)
{
    g_autoptr(GError) err = NULL;
    models = pms_model_set_new_builtin(&err);
    if (models && argc > 1 && !pms_model_set_add_file(models, argv[1], &err)) {
        fprintf(stderr, "models: %s\n", err->message);
        return 1;
    }
    if (!models) {
        fprintf(stderr, "models: %s\n", err->message);
        return 1;
    }
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("harness family table", NULL, NULL);
    CU_add_test(s, "every family has an entry and its hooks", test_table);
    CU_add_test(s, "perf forms per family", test_perf_families);
    CU_add_test(s, "x86 core perf forms, fabricated", test_perf_x86_core);
    CU_add_test(s, "decode register, listing and command flags", test_decode_reg);
    CU_add_test(s, "own signal of a one-line experiment", test_own_signal);
    CU_add_test(s, "unobservable mutants", test_unobservable);
    CU_add_test(s, "the test-only family toy", test_toy);
    CU_add_test(s, "the amd64 family (Zen 2)", test_amd64);
    int status = pms_cu_tap_run();
    pms_model_set_free(models);
    return status;
}

/* sim-pebs: the PEBS half of the library (include/pmusim/pebs.h) without the
 * CLI: pms_pebs_configure's writes and refusals, the simulator's DS area,
 * assists and records, RESET, and either engine giving the same result.
 *
 * Expected values: IA32_PEBS_ENABLE bit i = PEBS_EN_PMCi, 32+i = LL_EN_PMCi
 * (SDM Fig 18-21 as docs/semantics.md §5.1 quotes it); the records by the
 * hand derivation beside each run (semantics.md §5.2, choices §8a). */
#include "cu_tap.h"
#include "pmusim.h"

#include <string.h>

static PmsModelSet *models;

static const PmsModel *model(const char *name)
{
    return pms_model_set_get(models, name);
}

static void test_configure(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsEncoding) enc = pms_encode(models, "wsm::MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD:ldlat=40:u", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(enc);
    /* on PMC2 by the vector's choice: bits 2 and 34 */
    PmsPlacement pl;
    CU_ASSERT_TRUE_FATAL(pms_program_place_on(enc->model, enc->event, 2, FALSE, &pl, NULL));
    PmsPebsConfig c;
    CU_ASSERT_TRUE_FATAL(pms_pebs_configure(&pl, enc->codes, enc->n_codes, &c, &err));
    CU_ASSERT_EQUAL(c.counter, 2);
    CU_ASSERT_TRUE(c.load_latency);
    CU_ASSERT_EQUAL(c.ld_lat, 40);
    CU_ASSERT_EQUAL(c.n_writes, 2);
    CU_ASSERT_STRING_EQUAL(c.writes[0].name, "IA32_PEBS_ENABLE");
    CU_ASSERT_EQUAL(c.writes[0].value, ((guint64)1 << 34) | 4);
    CU_ASSERT_EQUAL(c.writes[0].mask, ((guint64)1 << 34) | 4);
    CU_ASSERT_EQUAL(c.writes[1].address, 0x3f6);
    CU_ASSERT_EQUAL(c.writes[1].value, 40);
    CU_ASSERT_PTR_NULL(c.notes);
    g_autofree char *words = pms_pebs_describe(enc->model, &c);
    CU_ASSERT_PTR_NOT_NULL(strstr(words, "only loads slower than 40 core cycles"));
    pms_pebs_config_clear(&c);
    /* GLM: PMC1 has no PEBS_EN bit */
    g_autoptr(PmsEncoding) g = pms_encode(models, "glm::INST_RETIRED:ANY_P", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    CU_ASSERT_TRUE_FATAL(pms_program_place_on(g->model, g->event, 1, FALSE, &pl, NULL));
    CU_ASSERT_FALSE(pms_pebs_configure(&pl, g->codes, g->n_codes, &c, &err));
    CU_ASSERT_TRUE(g_error_matches(err, PMS_ENCODE_ERROR, PMS_ERR_NOTSUPP));
    CU_ASSERT_PTR_NOT_NULL(strstr(err->message, "IA32_PMC0..0 only"));
    g_clear_error(&err);
    /* a threshold below the model's ldlat minimum in the codes (another encoder's) */
    guint64 codes[2] = { enc->codes[0], 2 };
    CU_ASSERT_TRUE_FATAL(pms_program_place_on(enc->model, enc->event, 0, FALSE, &pl, NULL));
    CU_ASSERT_FALSE(pms_pebs_configure(&pl, codes, 2, &c, &err));
    CU_ASSERT_TRUE(g_error_matches(err, PMS_ENCODE_ERROR, PMS_ERR_ATTR_VAL));
}

/* nhm PMC0 = INST_RETIRED.ANY_P with EN|USR (no INT), PEBS_EN 0; 1 per cycle
 * from 2^48-2: carry in cycle 1 (armed), assist in cycle 2: record at 0x100,
 * reload 2^48-2; carry in cycle 4, assist in cycle 5: record at 0x1b0, index
 * 0x260 = threshold: OvfBuf and PMI 5 (no PMI in cycle 2: INT clear). */
static void run_case(PmsSimEngine engine)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsSim) sim = pms_sim_new(model("nhm"), &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    pms_sim_set_engine(sim, engine);
    PmsPebsDs ds = { 0x100, 0x100, 0x400, 0x260, { (guint64)-2 } };
    CU_ASSERT_TRUE(pms_sim_set_pebs_ds(sim, &ds, &err));
    guint64 regs[17] = { 0x202, 7 };
    pms_sim_set_pebs_regs(sim, regs);
    CU_ASSERT_TRUE(pms_sim_write(sim, 0x186, 0x4100c0, &err));
    CU_ASSERT_TRUE(pms_sim_write(sim, 0x38f, 1, &err));
    CU_ASSERT_TRUE(pms_sim_write(sim, 0x3f1, 1, &err));
    CU_ASSERT_TRUE(pms_sim_set_counter(sim, 0xc1, ((guint64)1 << 48) - 2, &err));
    PmsSimCount cnt = { PMS_SIGNAL_KEY(0xc0, 0x00), 0, 1, 0 };
    PmsSimRun run = { 6, { 3, 3 }, &cnt, 1, NULL, 0, NULL, 0 };
    pms_sim_set_ip(sim, 0, TRUE, 0x401000);
    CU_ASSERT_TRUE(pms_sim_run(sim, &run, &err));
    guint n;
    guint64 total;
    const PmsPebsRecord *r = pms_sim_pebs_records(sim, &n, &total);
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_EQUAL(total, 2);
    CU_ASSERT_EQUAL(r[0].cycle, 2);
    CU_ASSERT_EQUAL(r[0].address, 0x100);
    CU_ASSERT_EQUAL(r[0].format, 1);
    CU_ASSERT_EQUAL(r[0].n_fields, 22);
    CU_ASSERT_EQUAL(r[0].field[0], 0x202);      /* rflags */
    CU_ASSERT_EQUAL(r[0].field[1], 0x401000);   /* rip */
    CU_ASSERT_EQUAL(r[0].field[2], 7);          /* rax */
    CU_ASSERT_EQUAL(r[0].field[18], 1);         /* status: PMC0's bit */
    CU_ASSERT_STRING_EQUAL(pms_pebs_field_name(1, 18), "status");
    CU_ASSERT_EQUAL(r[1].cycle, 5);
    CU_ASSERT_EQUAL(r[1].address, 0x1b0);
    PmsPebsDs got;
    pms_sim_get_pebs_ds(sim, &got);
    CU_ASSERT_EQUAL(got.index, 0x260);
    guint np;
    const guint64 *pmis = pms_sim_pmis(sim, &np);
    CU_ASSERT_EQUAL_FATAL(np, 1);
    CU_ASSERT_EQUAL(pmis[0], 5);
    guint64 v = 0;
    CU_ASSERT_TRUE(pms_sim_read(sim, 0x38e, &v, &err));
    CU_ASSERT_EQUAL(v, (guint64)1 << 62);
    CU_ASSERT_TRUE(pms_sim_read(sim, 0xc1, &v, &err));
    CU_ASSERT_EQUAL(v, ((guint64)1 << 48) - 2);
    /* RESET: no records, DS area 0 */
    pms_sim_reset(sim);
    (void)pms_sim_pebs_records(sim, &n, &total);
    CU_ASSERT_EQUAL(n, 0);
    CU_ASSERT_EQUAL(total, 0);
    pms_sim_get_pebs_ds(sim, &got);
    CU_ASSERT_EQUAL(got.base, 0);
}

static void test_sim_engines(void)
{
    run_case(PMS_SIM_REFERENCE);
    run_case(PMS_SIM_FAST);
}

static void test_sim_refusals(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsSim) glm = pms_sim_new(model("glm"), &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(glm);
    PmsPebsDs ds = { 0x100, 0x100, 0x400, 0, { 0 } };
    CU_ASSERT_FALSE(pms_sim_set_pebs_ds(glm, &ds, &err));
    CU_ASSERT_TRUE(g_error_matches(err, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL));
    g_clear_error(&err);
    g_autoptr(PmsSim) unc = pms_sim_new(model("nhm_unc"), &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(unc);
    CU_ASSERT_FALSE(pms_sim_set_pebs_ds(unc, &ds, &err));
    g_clear_error(&err);
    guint n = 1;
    CU_ASSERT_PTR_NULL(pms_sim_pebs_records(unc, &n, NULL));
    CU_ASSERT_EQUAL(n, 0);
    g_autoptr(PmsSim) nhm = pms_sim_new(model("nhm"), &err);
    PmsPebsDs bad = { 0x100, 0x80, 0x400, 0, { 0 } };
    CU_ASSERT_FALSE(pms_sim_set_pebs_ds(nhm, &bad, &err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err->message, "index is below the buffer base"));
}

int main(void)
{
    models = pms_model_set_new_builtin(NULL);
    if (!models || CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("sim-pebs", NULL, NULL);
    CU_add_test(s, "pms_pebs_configure: writes, describe, refusals", test_configure);
    CU_add_test(s, "DS area, assists, records, OvfBuf PMI, RESET; both engines", test_sim_engines);
    CU_add_test(s, "DS area refused where no records are modelled or it is inconsistent", test_sim_refusals);
    int status = pms_cu_tap_run();
    pms_model_set_free(models);
    return status;
}

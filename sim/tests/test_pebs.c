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
    CU_ASSERT_TRUE(pms_sim_set_input(sim, "ip", "0x401000", &err));
    /* format 1 takes the data address for load-latency records only */
    CU_ASSERT_TRUE(pms_sim_set_input(sim, "daddr", "0x9000", &err));
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
    CU_ASSERT_EQUAL(r[0].field[0], 0x202);    /* rflags */
    CU_ASSERT_EQUAL(r[0].field[1], 0x401000); /* rip */
    CU_ASSERT_EQUAL(r[0].field[2], 7);        /* rax */
    CU_ASSERT_EQUAL(r[0].field[18], 1);       /* status: PMC0's bit */
    CU_ASSERT_EQUAL(r[0].field[19], 0);       /* dla: not a load-latency record */
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

/* The format tables against the SDM's: format 1 = 22 fields, 0xB0 bytes
 * (issue 8's Core i7 table); format 3 = Table 18-20 p.667 (GLM): 25 fields
 * 00H..C0H, 0xC8 bytes, 90H applicable counters, 98H data linear address,
 * B0H EventingRIP, C0H TSC; each field 64 bits, so field i sits at 8*i. */
static void test_formats(void)
{
    CU_ASSERT_EQUAL(pms_pebs_record_size(1), 0xb0);
    CU_ASSERT_EQUAL(pms_pebs_record_size(3), 0xc8);
    CU_ASSERT_EQUAL(pms_pebs_record_size(2), 0);
    CU_ASSERT_PTR_NULL(pms_pebs_field_name(2, 0));
    static const guint fmts[] = { 1, 3 };
    for (guint k = 0; k < G_N_ELEMENTS(fmts); k++) {
        guint i = 0;
        for (; pms_pebs_field_name(fmts[k], i); i++)
            CU_ASSERT_EQUAL(pms_pebs_field_offset(fmts[k], i), 8 * i);
        CU_ASSERT_EQUAL(i * 8, pms_pebs_record_size(fmts[k]));
    }
    CU_ASSERT_STRING_EQUAL(pms_pebs_field_name(3, 17), "r15");
    CU_ASSERT_EQUAL(pms_pebs_field_offset(3, 17), 0x88);
    CU_ASSERT_STRING_EQUAL(pms_pebs_field_name(3, 18), "applicable");
    CU_ASSERT_EQUAL(pms_pebs_field_offset(3, 18), 0x90);
    CU_ASSERT_STRING_EQUAL(pms_pebs_field_name(3, 19), "dla");
    CU_ASSERT_STRING_EQUAL(pms_pebs_field_name(3, 20), "rsvd_a0");
    CU_ASSERT_STRING_EQUAL(pms_pebs_field_name(3, 22), "eventing_ip");
    CU_ASSERT_EQUAL(pms_pebs_field_offset(3, 22), 0xb0);
    CU_ASSERT_STRING_EQUAL(pms_pebs_field_name(3, 24), "tsc");
    CU_ASSERT_EQUAL(pms_pebs_field_offset(3, 24), 0xc0);
    CU_ASSERT_PTR_NULL(pms_pebs_field_name(3, 25));
}

/* glm (PEBS_REC_FMT 3 in the model): PMC0 = INST_RETIRED.ANY_P (C0H/00H)
 * with EN|USR|INT, 1 per cycle at CPL 3 from 2^48-2, DS reset0 = 2^48-2,
 * threshold two records on (0x1000 + 2 * 0xC8 = 0x1190).  c1: carry, armed
 * (no PMI: PEBS); c2: assist, record 0 at 0x1000 with applicable = PMC0's
 * GLOBAL_STATUS bit (1), dla = daddr 0x7000, eventing_ip = rip = ip
 * 0x402000, tsc = the assist's cycle 2, reserved 0; PMC0 := 2^48-2, INT ->
 * PMI 2; c4 carry, c5 assist: record 1 at 0x10c8, index 0x1190 = threshold
 * -> OvfBuf (bit 62) and PMI 5 (SDM 18-19 p.655; semantics.md §5.2). */
static void run_glm(PmsSimEngine engine)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsSim) sim = pms_sim_new(model("glm"), &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    pms_sim_set_engine(sim, engine);
    PmsPebsDs ds = { 0x1000, 0x1000, 0x2000, 0x1190, { (guint64)-2 } };
    CU_ASSERT_TRUE_FATAL(pms_sim_set_pebs_ds(sim, &ds, &err));
    guint64 regs[17] = { 0x246, 0, 0, 0, 0, 0, 0, 0, 0x7ff0 };
    pms_sim_set_pebs_regs(sim, regs);
    CU_ASSERT_TRUE(pms_sim_write(sim, 0x186, 0x5100c0, &err));
    CU_ASSERT_TRUE(pms_sim_write(sim, 0x38f, 1, &err));
    CU_ASSERT_TRUE(pms_sim_write(sim, 0x3f1, 1, &err));
    CU_ASSERT_TRUE(pms_sim_set_counter(sim, 0xc1, ((guint64)1 << 48) - 2, &err));
    PmsSimCount cnt = { PMS_SIGNAL_KEY(0xc0, 0x00), 0, 1, 0 };
    PmsSimRun run = { 6, { 3, 3 }, &cnt, 1, NULL, 0, NULL, 0 };
    pms_sim_set_ip(sim, 0, TRUE, 0x402000); /* the typed setter (sim_ia64.h) reaches the x86 core too */
    pms_sim_set_daddr(sim, 0, TRUE, 0x7000);
    CU_ASSERT_TRUE(pms_sim_run(sim, &run, &err));
    guint n;
    const PmsPebsRecord *r = pms_sim_pebs_records(sim, &n, NULL);
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_EQUAL(r[0].format, 3);
    CU_ASSERT_EQUAL_FATAL(r[0].n_fields, 25);
    CU_ASSERT_EQUAL(r[0].cycle, 2);
    CU_ASSERT_EQUAL(r[0].address, 0x1000);
    CU_ASSERT_EQUAL(r[0].field[0], 0x246);    /* rflags */
    CU_ASSERT_EQUAL(r[0].field[1], 0x402000); /* rip */
    CU_ASSERT_EQUAL(r[0].field[9], 0x7ff0);   /* rsp */
    CU_ASSERT_EQUAL(r[0].field[18], 1);       /* applicable: PMC0 */
    CU_ASSERT_EQUAL(r[0].field[19], 0x7000);  /* dla */
    CU_ASSERT_EQUAL(r[0].field[20], 0);
    CU_ASSERT_EQUAL(r[0].field[21], 0);
    CU_ASSERT_EQUAL(r[0].field[22], 0x402000); /* eventing_ip */
    CU_ASSERT_EQUAL(r[0].field[23], 0);
    CU_ASSERT_EQUAL(r[0].field[24], 2); /* tsc */
    CU_ASSERT_EQUAL(r[1].address, 0x10c8);
    CU_ASSERT_EQUAL(r[1].field[24], 5);
    PmsPebsDs got;
    pms_sim_get_pebs_ds(sim, &got);
    CU_ASSERT_EQUAL(got.index, 0x1190);
    guint np;
    const guint64 *pmis = pms_sim_pmis(sim, &np);
    CU_ASSERT_EQUAL_FATAL(np, 2);
    CU_ASSERT_EQUAL(pmis[0], 2);
    CU_ASSERT_EQUAL(pmis[1], 5);
    guint64 v = 0;
    CU_ASSERT_TRUE(pms_sim_read(sim, 0x38e, &v, &err));
    CU_ASSERT_EQUAL(v, (guint64)1 << 62);
}

static void test_glm(void)
{
    run_glm(PMS_SIM_REFERENCE);
    run_glm(PMS_SIM_FAST);
}

/* glm, GLOBAL_STATUS_SET (0x391) bit 0 (docs/semantics.md §8a choice, SDM
 * 18-30 p.666): with PEBS_EN 0 clear it only sets the status bit (no record
 * follows); with it set, PMC0 is armed and its next counted cycle writes a
 * record, clears the bit and reloads the DS reset value (2^48-5). */
static void test_glm_status_set(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsSim) sim = pms_sim_new(model("glm"), &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    PmsPebsDs ds = { 0x1000, 0x1000, 0x2000, 0, { (guint64)-5 } };
    CU_ASSERT_TRUE_FATAL(pms_sim_set_pebs_ds(sim, &ds, &err));
    CU_ASSERT_TRUE(pms_sim_write(sim, 0x186, 0x4100c0, &err));
    CU_ASSERT_TRUE(pms_sim_write(sim, 0x38f, 1, &err));
    PmsSimCount cnt = { PMS_SIGNAL_KEY(0xc0, 0x00), 0, 1, 0 };
    PmsSimRun run = { 2, { 3, 3 }, &cnt, 1, NULL, 0, NULL, 0 };
    CU_ASSERT_TRUE(pms_sim_write(sim, 0x391, 1, &err));
    CU_ASSERT_TRUE(pms_sim_run(sim, &run, &err));
    guint n;
    (void)pms_sim_pebs_records(sim, &n, NULL);
    CU_ASSERT_EQUAL(n, 0);
    guint64 v = 0;
    CU_ASSERT_TRUE(pms_sim_read(sim, 0xc1, &v, &err));
    CU_ASSERT_EQUAL(v, 2);
    /* PEBS on, the bit set again: armed; the next counted cycle assists */
    CU_ASSERT_TRUE(pms_sim_write(sim, 0x3f1, 1, &err));
    CU_ASSERT_TRUE(pms_sim_write(sim, 0x391, 1, &err));
    CU_ASSERT_TRUE(pms_sim_run(sim, &run, &err));
    const PmsPebsRecord *r = pms_sim_pebs_records(sim, &n, NULL);
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_EQUAL(r[0].cycle, 2);
    CU_ASSERT_EQUAL(r[0].field[24], 2); /* tsc */
    CU_ASSERT_TRUE(pms_sim_read(sim, 0xc1, &v, &err));
    CU_ASSERT_EQUAL(v, ((guint64)1 << 48) - 4); /* reload 2^48-5 at cycle 2, +1 at cycle 3 */
    CU_ASSERT_TRUE(pms_sim_read(sim, 0x38e, &v, &err));
    CU_ASSERT_EQUAL(v, 0);
}

static void test_sim_refusals(void)
{
    g_autoptr(GError) err = NULL;
    PmsPebsDs ds = { 0x100, 0x100, 0x400, 0, { 0 } };
    g_autoptr(PmsSim) unc = pms_sim_new(model("nhm_unc"), &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(unc);
    CU_ASSERT_FALSE(pms_sim_set_pebs_ds(unc, &ds, &err));
    CU_ASSERT_TRUE(g_error_matches(err, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL));
    CU_ASSERT_PTR_NOT_NULL(strstr(err->message, "no IA32_PEBS_ENABLE"));
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
    CU_add_test(s, "record formats 1 and 3: field offsets and sizes as the SDM's tables", test_formats);
    CU_add_test(s, "glm: format 3 records (applicable counters, dla, eventing IP, TSC), OvfBuf PMI; both engines",
                test_glm);
    CU_add_test(s, "glm: a status bit set through GLOBAL_STATUS_SET arms PEBS (only with PEBS_EN)",
                test_glm_status_set);
    CU_add_test(s, "DS area refused where no records are modelled or it is inconsistent", test_sim_refusals);
    int status = pms_cu_tap_run();
    pms_model_set_free(models);
    return status;
}

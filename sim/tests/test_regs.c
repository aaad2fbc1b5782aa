/* Register layer: #GP cases, write rules of each register kind, reset. */
#include "fixtures.h"

#include <string.h>

static void expect_gp(PmsSim *s, guint32 addr, guint64 v, const char *needle1, const char *needle2)
{
    GError *e = NULL;
    CU_ASSERT_FALSE(pms_sim_write(s, addr, v, &e));
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_TRUE(g_error_matches(e, PMS_SIM_ERROR, PMS_SIM_ERROR_GP));
    if (!strstr(e->message, needle1) || (needle2 && !strstr(e->message, needle2)))
        fprintf(stderr, "# message: %s\n", e->message);
    CU_ASSERT_PTR_NOT_NULL(strstr(e->message, needle1));
    if (needle2)
        CU_ASSERT_PTR_NOT_NULL(strstr(e->message, needle2));
    g_error_free(e);
}

static void test_gp_reserved(void)
{
    g_autoptr(PmsSim) s = fx_sim(fx_model("nhm"), PMS_SIM_REFERENCE);
    fx_write(s, A_EVTSEL0, 0x4300c0);
    /* nhm.pmu: PERFEVTSEL writable 0xffffffff, so bit 32 is reserved (SDM Fig 18-6). */
    expect_gp(s, A_EVTSEL0, (1ull << 32) | 0x4300c0, "IA32_PERFEVTSEL0", "0x100000000");
    CU_ASSERT_EQUAL(fx_read(s, A_EVTSEL0), 0x4300c0); /* unchanged */
    /* FIXED_CTR_CTRL: bits 63:12 reserved (SDM 18-7). */
    expect_gp(s, A_FIXED_CTRL, 0x1000, "IA32_FIXED_CTR_CTRL", "0x1000");
    /* GLOBAL_CTRL: nhm writable 0x70000000f; bit 4 (no PMC4) is reserved. */
    expect_gp(s, A_GCTRL, 0x10, "IA32_PERF_GLOBAL_CTRL", "0x10");
    CU_ASSERT_EQUAL(fx_read(s, A_GCTRL), 0xf);
    /* Fixed counters are written full width; bit 48 is above it (A10). */
    expect_gp(s, A_FIXED0, 1ull << 48, "IA32_FIXED_CTR0", NULL);
    CU_ASSERT_EQUAL(fx_read(s, A_FIXED0), 0);
}

static void test_gp_unknown_readonly(void)
{
    g_autoptr(PmsSim) s = fx_sim(fx_model("nhm"), PMS_SIM_REFERENCE);
    expect_gp(s, 0x4c1, 1, "0x4c1", "no such register"); /* no A_PMC on NHM (semantics §1.1) */
    expect_gp(s, A_STATUS, 1, "IA32_PERF_GLOBAL_STATUS", "read-only");
    guint64 v;
    GError *e = NULL;
    CU_ASSERT_FALSE(pms_sim_read(s, 0x4c1, &v, &e));
    CU_ASSERT_TRUE(g_error_matches(e, PMS_SIM_ERROR, PMS_SIM_ERROR_GP));
    g_clear_error(&e);
    g_autoptr(PmsSim) g = fx_sim(fx_model("glm"), PMS_SIM_REFERENCE);
    expect_gp(g, A_INUSE, 0, "IA32_PERF_GLOBAL_INUSE", "read-only");
    /* A_PMC: bits above the 48-bit width take #GP (SDM 18-15). */
    expect_gp(g, A_APMC0, 1ull << 48, "IA32_A_PMC0", NULL);
}

static void test_legacy_sign_extension(void)
{
    g_autoptr(PmsSim) s = fx_sim(fx_model("nhm"), PMS_SIM_REFERENCE);
    /* SDM 18-3: EAX written, bits 47:32 copy bit 31. */
    fx_write(s, A_PMC0, 0x80000000);
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), 0xffff80000000ull);
    fx_write(s, A_PMC0, 0x7fffffff);
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), 0x7fffffffull);
    /* EDX is ignored by the legacy alias: -5 as a 64-bit value = 2^48 - 5. */
    fx_write(s, A_PMC0, (guint64)-5);
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), (1ull << 48) - 5);
    g_autoptr(PmsSim) g = fx_sim(fx_model("glm"), PMS_SIM_REFERENCE);
    /* GLM A_PMC0 (0x4c1) is the full-width alias of PMC0: no sign extension. */
    fx_write(g, A_APMC0, 0x80000000);
    CU_ASSERT_EQUAL(fx_read(g, A_PMC0), 0x80000000ull);
    fx_write(g, A_APMC0, (1ull << 48) - 3);
    CU_ASSERT_EQUAL(fx_read(g, A_PMC0), (1ull << 48) - 3);
    CU_ASSERT_EQUAL(fx_read(g, A_APMC0), (1ull << 48) - 3);
    /* Fixed counters: full width, no sign extension (SDM 18-6). */
    fx_write(g, A_FIXED0, 0x80000000);
    CU_ASSERT_EQUAL(fx_read(g, A_FIXED0), 0x80000000ull);
}

static void test_reset_values(void)
{
    /* A25: GLOBAL_CTRL resets with the GP enables set, fixed clear: 4 GP -> 0xf. */
    g_autoptr(PmsSim) s = fx_sim(fx_model("nhm"), PMS_SIM_REFERENCE);
    CU_ASSERT_EQUAL(fx_read(s, A_GCTRL), 0xf);
    CU_ASSERT_EQUAL(fx_read(s, A_STATUS), 0);
    PmsModel *z = fx_model_with("nhm", "global_ctrl_reset", "zero");
    g_autoptr(PmsSim) sz = fx_sim(z, PMS_SIM_REFERENCE);
    CU_ASSERT_EQUAL(fx_read(sz, A_GCTRL), 0); /* 2016 SDM Table 9-1 */
    fx_write(sz, A_GCTRL, 3);
    pms_sim_reset(sz);
    CU_ASSERT_EQUAL(fx_read(sz, A_GCTRL), 0);
    pms_sim_free(g_steal_pointer(&sz));
    pms_model_free(z);
}

static void test_status_registers(void)
{
    g_autoptr(PmsSim) g = fx_sim(fx_model("glm"), PMS_SIM_REFERENCE);
    /* v4 STATUS_SET sets bits (A20), STATUS_RESET clears them; both read 0 (A22). */
    fx_write(g, A_STATUS_SET, (1ull << 59) | 0x5);
    CU_ASSERT_EQUAL(fx_read(g, A_STATUS), (1ull << 59) | 0x5);
    CU_ASSERT_EQUAL(fx_read(g, A_STATUS_SET), 0);
    fx_write(g, A_OVF, 0x1);
    CU_ASSERT_EQUAL(fx_read(g, A_STATUS), (1ull << 59) | 0x4);
    CU_ASSERT_EQUAL(fx_read(g, A_OVF), 0);
    /* STATUS_SET bit 63 is reserved (A11). */
    expect_gp(g, A_STATUS_SET, 1ull << 63, "IA32_PERF_GLOBAL_STATUS_SET", NULL);
    /* INUSE (SDM 18-14): bit n when EVTSELn[7:0] != 0, 32+i when FIXED EN i != 0,
     * 63 when any INT/PMI bit is set. */
    CU_ASSERT_EQUAL(fx_read(g, A_INUSE), 0);
    fx_write(g, A_EVTSEL0 + 2, EVTSEL(0x3c, 0, EV_INT));
    fx_write(g, A_FIXED_CTRL, 0x30); /* EN1 = 3 */
    CU_ASSERT_EQUAL(fx_read(g, A_INUSE), (1ull << 63) | (1ull << 33) | (1ull << 2));
    /* v3 OVF_CTRL on nhm: write-1-to-clear too. */
    g_autoptr(PmsSim) s = fx_sim(fx_model("nhm"), PMS_SIM_REFERENCE);
    fx_write(s, A_EVTSEL0, EVTSEL(0xc0, 0x01, EV_USR | EV_EN));
    fx_write(s, A_PMC0, (guint64)-1);
    fx_run(s, 1, PMS_SIGNAL_KEY(0xc0, 0x01), 1, 0, 3, 3);
    CU_ASSERT_EQUAL(fx_read(s, A_STATUS), 1);
    fx_write(s, A_OVF, 1);
    CU_ASSERT_EQUAL(fx_read(s, A_STATUS), 0);
}

static void test_models_and_options(void)
{
    /* every shipped x86 core model and the test model build an instance */
    const char *names[] = { "glm", "wsm", "wsm_dp", "nhm", "nhm_ex", "tiny" };
    for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
        const PmsModel *m = fx_model(names[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        GError *e = NULL;
        PmsSim *s = pms_sim_new(m, &e);
        if (!s)
            fprintf(stderr, "# %s: %s\n", names[i], e->message);
        CU_ASSERT_PTR_NOT_NULL(s);
        if (s) {
            CU_ASSERT_EQUAL(pms_sim_threads(s), m->smt ? 2u : 1u);
            CU_ASSERT_PTR_EQUAL(pms_sim_model(s), m);
        }
        pms_sim_free(s);
    }
    /* bad option values are model errors naming the option */
    const char *bad[][2] = { { "cpl_gate", "middle" },        { "anythread_combine", "xor" },
                             { "global_ctrl_reset", "ones" }, { "fixed0_signal", "c0" },
                             { "ldlat_signal", "0x1.0x100" }, { "pmi_skid", "-1" } };
    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        PmsModel *m = fx_model_with("nhm", bad[i][0], bad[i][1]);
        GError *e = NULL;
        PmsSim *s = pms_sim_new(m, &e);
        CU_ASSERT_PTR_NULL(s);
        CU_ASSERT_TRUE(g_error_matches(e, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL));
        if (e)
            CU_ASSERT_PTR_NOT_NULL(strstr(e->message, bad[i][0]));
        g_clear_error(&e);
        pms_sim_free(s);
        pms_model_free(m);
    }
    /* an architecture not simulated yet */
    PmsModel *m = fx_model_with("nhm", NULL, NULL);
    m->family = pms_family_by_name("ia64");
    GError *e = NULL;
    CU_ASSERT_PTR_NULL(pms_sim_new(m, &e));
    CU_ASSERT_TRUE(g_error_matches(e, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL));
    g_clear_error(&e);
    /* a counter register beyond the declared counters */
    m->family = pms_family_by_name("x86_core");
    guint saved = m->n_gp;
    m->n_gp = 1;
    CU_ASSERT_PTR_NULL(pms_sim_new(m, &e));
    CU_ASSERT_TRUE(e && strstr(e->message, "declares 1 general counters"));
    g_clear_error(&e);
    m->n_gp = saved;
    m->gp_width = 64;
    CU_ASSERT_PTR_NULL(pms_sim_new(m, &e));
    CU_ASSERT_TRUE(e && strstr(e->message, "out of range"));
    g_clear_error(&e);
    m->gp_width = 48;
    /* a layout without a field the simulator reads by name */
    m->family = pms_family_by_name("x86_core");
    PmsLayout *l = NULL;
    for (guint i = 0; i < m->n_regs; i++)
        if (m->regs[i].kind == PMS_REG_EVTSEL)
            l = (PmsLayout *)m->regs[i].layout;
    for (guint i = 0; l && i < l->n_fields; i++)
        if (g_strcmp0(l->fields[i].name, "cmask") == 0) {
            g_free(l->fields[i].name);
            l->fields[i].name = g_strdup("threshold");
        }
    CU_ASSERT_PTR_NULL(pms_sim_new(m, &e));
    CU_ASSERT_TRUE(e && strstr(e->message, "cmask"));
    g_clear_error(&e);
    pms_model_free(m);
}

static void test_set_counter(void)
{
    g_autoptr(PmsSim) s = fx_sim(fx_model("nhm"), PMS_SIM_REFERENCE);
    GError *e = NULL;
    /* any 48-bit value, which a legacy write could not produce (semantics §3.5) */
    CU_ASSERT_TRUE(pms_sim_set_counter(s, A_PMC0, 1ull << 40, NULL));
    CU_ASSERT_EQUAL(fx_read(s, A_PMC0), 1ull << 40);
    CU_ASSERT_TRUE(pms_sim_set_counter(s, A_FIXED0 + 2, (1ull << 48) - 1, NULL));
    CU_ASSERT_EQUAL(fx_read(s, A_FIXED0 + 2), (1ull << 48) - 1);
    CU_ASSERT_FALSE(pms_sim_set_counter(s, A_PMC0, 1ull << 48, &e));
    CU_ASSERT_TRUE(e && strstr(e->message, "48-bit counter IA32_PMC0"));
    g_clear_error(&e);
    CU_ASSERT_FALSE(pms_sim_set_counter(s, A_EVTSEL0, 1, &e));
    CU_ASSERT_TRUE(e && strstr(e->message, "not a counter"));
    g_clear_error(&e);
    g_autoptr(PmsSim) g = fx_sim(fx_model("glm"), PMS_SIM_REFERENCE);
    CU_ASSERT_TRUE(pms_sim_set_counter(g, A_APMC0, 12345, NULL));
    CU_ASSERT_EQUAL(fx_read(g, A_PMC0), 12345);
}

void register_regs_tests(void)
{
    CU_pSuite s = CU_add_suite("sim registers", NULL, NULL);
    CU_add_test(s, "reserved bits take #GP, register unchanged", test_gp_reserved);
    CU_add_test(s, "unknown and read-only registers take #GP", test_gp_unknown_readonly);
    CU_add_test(s, "legacy PMC writes sign-extend, A_PMC and fixed do not", test_legacy_sign_extension);
    CU_add_test(s, "RESET values and the A25 option", test_reset_values);
    CU_add_test(s, "status reset/set/ovf_ctrl/inuse", test_status_registers);
    CU_add_test(s, "models and options", test_models_and_options);
    CU_add_test(s, "pms_sim_set_counter preloads any in-width value", test_set_counter);
}

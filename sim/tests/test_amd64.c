/* The amd64 device (sim/dev_amd64.c; docs/amd64.md, docs/semantics.md §12),
 * driven by register writes hand-written from the PERF_CTL layout (event 7:0
 * and 35:32, umask 15:8, usr 16, os 17, edge 18, int 20, en 22, inv 23,
 * cmask 31:24, guest_only 40, host_only 41), never from the encoder: the
 * model option svme, INT, the legacy aliases, the 12-bit code and #GP. */
#include "fixtures.h"

#include <string.h>

enum {
    CTL0 = 0xc0010200,
    CTR0 = 0xc0010201,
    CTL1 = 0xc0010202,
    CTR1 = 0xc0010203,
    LEG_SEL0 = 0xc0010000,
    LEG_CTR0 = 0xc0010004
};
#define A_GO (G_GUINT64_CONSTANT(1) << 40)
#define A_HO (G_GUINT64_CONSTANT(1) << 41)
#define A_CTL(code, bits) (((guint64)(code)&0xff) | ((guint64)((code) >> 8) << 32) | (guint64)(bits))

static void run_mode(PmsSim *s, guint64 cycles, guint32 sig, guint64 n, gboolean guest)
{
    g_autoptr(GError) e = NULL;
    CU_ASSERT_TRUE(pms_sim_set_input(s, "guest", guest ? "1" : "0", &e));
    PmsSimCount c = { sig, 0, n, 0 };
    PmsSimRun r = { .cycles = cycles, .cpl = { 3, 3 }, .counts = &c, .n_counts = 1 };
    CU_ASSERT_TRUE(pms_sim_run(s, &r, &e));
}

/* svme=on: HO alone host only, GO alone guest only, both or neither both
 * modes; svme=off: a counter with either bit counts nothing, HO=GO=1
 * included (the choice of semantics.md §12), the other counts on. */
static void test_virt_filter(void)
{
    static const guint64 bits[4] = { A_HO, A_GO, A_HO | A_GO, 0 };
    static const guint64 want_on[4] = { 6, 10, 16, 16 }, want_off[4] = { 0, 0, 0, 16 };
    for (int off = 0; off < 2; off++) {
        g_autoptr(PmsModel) m = fx_model_with("amd64_fam17h_zen2", "svme", off ? "off" : "on");
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        for (guint e = 0; e < 2; e++) {
            PmsSim *s = fx_sim(m, e ? PMS_SIM_FAST : PMS_SIM_REFERENCE);
            for (guint k = 0; k < 4; k++)
                fx_write(s, CTL0 + 2 * k, A_CTL(0xc0, EV_EN | EV_USR | EV_OS) | bits[k]);
            run_mode(s, 2, PMS_SIGNAL_KEY(0xc0, 0), 3, FALSE);
            run_mode(s, 2, PMS_SIGNAL_KEY(0xc0, 0), 5, TRUE);
            for (guint k = 0; k < 4; k++)
                CU_ASSERT_EQUAL(fx_read(s, CTR0 + 2 * k), off ? want_off[k] : want_on[k]);
            pms_sim_free(s);
        }
    }
}

/* A wrap without INT: the counter goes on from 0, no PMI, and nothing else
 * shows it (there is no status register to read); with INT one PMI. */
static void test_wrap_int(void)
{
    PmsSim *s = fx_sim(fx_model("amd64_fam17h_zen2"), PMS_SIM_REFERENCE);
    fx_write(s, CTL0, A_CTL(0xc0, EV_EN | EV_USR | EV_OS));
    fx_write(s, CTL1, A_CTL(0xc0, EV_EN | EV_USR | EV_OS | EV_INT));
    fx_write(s, CTR0, (G_GUINT64_CONSTANT(1) << 48) - 2);
    fx_write(s, CTR1, (G_GUINT64_CONSTANT(1) << 48) - 3);
    fx_run(s, 3, PMS_SIGNAL_KEY(0xc0, 0), 1, 0, 3, 3);
    CU_ASSERT_EQUAL(fx_read(s, CTR0), 1);
    CU_ASSERT_EQUAL(fx_read(s, CTR1), 0);
    guint n = 0;
    const guint64 *p = pms_sim_pmis(s, &n);
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_EQUAL(p[0], 2); /* counter 1's carry, cycle 2; counter 0's (cycle 1) interrupts nothing */
    pms_sim_free(s);
}

/* The legacy registers are PERF_CTL0/PERF_CTR0 by another address. */
static void test_legacy_alias(void)
{
    PmsSim *s = fx_sim(fx_model("amd64_fam17h_zen2"), PMS_SIM_REFERENCE);
    fx_write(s, LEG_SEL0, A_CTL(0xc1, EV_EN | EV_USR));
    CU_ASSERT_EQUAL(fx_read(s, CTL0), A_CTL(0xc1, EV_EN | EV_USR));
    fx_write(s, LEG_CTR0, 40);
    fx_run(s, 2, PMS_SIGNAL_KEY(0xc1, 0), 1, 0, 3, 3);
    CU_ASSERT_EQUAL(fx_read(s, CTR0), 42);
    CU_ASSERT_EQUAL(fx_read(s, LEG_CTR0), 42);
    fx_write(s, CTR0, 7);
    CU_ASSERT_EQUAL(fx_read(s, LEG_CTR0), 7);
    /* a reserved bit through the alias is the register's #GP */
    g_autoptr(GError) e = NULL;
    CU_ASSERT_FALSE(pms_sim_write(s, LEG_SEL0, A_CTL(0xc1, EV_EN) | (1u << 19), &e));
    CU_ASSERT_TRUE(e && g_error_matches(e, PMS_SIM_ERROR, PMS_SIM_ERROR_GP));
    CU_ASSERT_EQUAL(fx_read(s, CTL0), A_CTL(0xc1, EV_EN | EV_USR));
    pms_sim_free(s);
}

/* 12-bit codes: 0x1d0 is not 0xd0, and the high nibble selects. */
static void test_twelve_bit_code(void)
{
    PmsSim *s = fx_sim(fx_model("amd64_fam17h_zen2"), PMS_SIM_FAST);
    fx_write(s, CTL0, A_CTL(0x1d0, EV_EN | EV_USR | EV_OS));
    fx_write(s, CTL1, A_CTL(0xd0, EV_EN | EV_USR | EV_OS));
    fx_run(s, 2, PMS_SIGNAL_KEY(0x1d0, 0), 3, 0, 3, 3);
    fx_run(s, 1, PMS_SIGNAL_KEY(0xd0, 0), 5, 0, 3, 3);
    CU_ASSERT_EQUAL(fx_read(s, CTR0), 6);
    CU_ASSERT_EQUAL(fx_read(s, CTR1), 5);
    g_autoptr(GError) e = NULL;
    CU_ASSERT_FALSE(pms_sim_write(s, CTR0, G_GUINT64_CONSTANT(1) << 48, &e));
    pms_sim_free(s);
}

/* The run key guest= is the stimulus's too (docs/stimulus-format.md). */
static void test_guest_key(void)
{
    const PmsModel *m = fx_model("amd64_fam17h_zen2");
    static const char text[] = "write 0xc0010200 0x200004300c0\n"
                               "run 2 guest=1 0xc0.0x00=4\n"
                               "run 3 0xc0.0x00=1\n"
                               "read 0xc0010201 3\n";
    g_autoptr(GError) e = NULL;
    PmsStim *st = pms_stim_parse(m, text, -1, "t.stim", &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    PmsSim *s = fx_sim(m, PMS_SIM_REFERENCE);
    CU_ASSERT_TRUE(pms_stim_execute(st, s, &e));
    pms_sim_free(s);
    pms_stim_free(st);
    g_clear_error(&e);
    CU_ASSERT_PTR_NULL(pms_stim_parse(m, "run 1 guest=2\n", -1, "t.stim", &e));
    CU_ASSERT_TRUE(e && strstr(e->message, "guest"));
}

void register_amd64_tests(void)
{
    CU_pSuite s = CU_add_suite("amd64 device (Zen 2)", NULL, NULL);
    CU_add_test(s, "HostOnly/GuestOnly against guest= and svme", test_virt_filter);
    CU_add_test(s, "wrap with and without INT, no status", test_wrap_int);
    CU_add_test(s, "legacy PerfEvtSel0/PerfCtr0 alias counter 0", test_legacy_alias);
    CU_add_test(s, "12-bit event codes", test_twelve_bit_code);
    CU_add_test(s, "the stimulus's guest= run key", test_guest_key);
}

/* The LBR of the x86 core device (sim/lbr.c) and the LBR encoder
 * (encoder/lbr_config.c) through the public API.  Register addresses and
 * bits are hand-written from the SDM: MSR_LBR_SELECT 0x1C8 (Table 17-11: bit
 * 0 CPL_EQ_0, 1 CPL_NEQ_0, 2 JCC, 3 NEAR_REL_CALL, 4 NEAR_IND_CALL, 5
 * NEAR_RET, 6 NEAR_IND_JMP, 7 NEAR_REL_JMP, 8 FAR_BRANCH), TOS 0x1C9,
 * FROM_IP 0x680+n, TO_IP 0x6C0+n (17.7), DEBUGCTL bit 0 LBR, 11
 * FREEZE_LBRS_ON_PMI; GLOBAL_STATUS bit 58 LBR_Frz (v4, Fig 18-11);
 * EN_CALLSTACK bit 9 (Table 17-13), whose configuration (SDM 17.9 p.17-30)
 * is JCC|NEAR_IND_JMP|NEAR_REL_JMP|FAR_BRANCH|EN_CALLSTACK = 0x3c4. */
#include "fixtures.h"
#include "lbr.h"

#include <string.h>

enum { A_LBR_SELECT = 0x1c8, A_TOS = 0x1c9, A_FROM0 = 0x680, A_TO0 = 0x6c0, A_STATUS_RESET = 0x390 };

static PmsSimLbrBranch br(guint64 from, PmsLbrBranchType t, guint cpl, gboolean mp)
{
    return (PmsSimLbrBranch){ from, from + 0x10, t, cpl, mp, FALSE };
}

/* One cycle carrying these branches (and n occurrences of INST_RETIRED.ANY_P). */
static void run_br(PmsSim *s, const PmsSimLbrBranch *b, guint n, guint64 occ)
{
    pms_sim_set_lbr_branches(s, b, n);
    fx_run(s, 1, PMS_SIGNAL_KEY(0xc0, 0), occ, 0, b && n ? (guint8)b[0].cpl : 3, 3);
    pms_sim_set_lbr_branches(s, NULL, 0);
}

static void test_ring_wrap(void)
{
    for (int e = 0; e < 2; e++) {
        PmsSim *s = fx_sim(fx_model("nhm"), e ? PMS_SIM_FAST : PMS_SIM_REFERENCE);
        CU_ASSERT_EQUAL(pms_sim_lbr_entries(s), 16);
        fx_write(s, A_DEBUGCTL, 1);
        /* 17 branches: TOS steps 1..16 mod 16 = 1; entry 1 holds the 17th */
        for (guint i = 1; i <= 17; i++) {
            PmsSimLbrBranch b = br(0x1000 * i, PMS_LBR_BR_JCC, 3, i == 17);
            run_br(s, &b, 1, 0);
        }
        CU_ASSERT_EQUAL(fx_read(s, A_TOS), 1);
        CU_ASSERT_EQUAL(fx_read(s, A_FROM0 + 1), 0x8000000000011000ull); /* mispredicted: bit 63 */
        CU_ASSERT_EQUAL(fx_read(s, A_TO0 + 1), 0x11010);
        CU_ASSERT_EQUAL(fx_read(s, A_FROM0 + 0), 0x10000); /* the 16th */
        CU_ASSERT_EQUAL(fx_read(s, A_FROM0 + 2), 0x2000);  /* the 2nd, not yet overwritten */
        /* RESET: TOS and entries 0 */
        pms_sim_reset(s);
        CU_ASSERT_EQUAL(fx_read(s, A_TOS), 0);
        CU_ASSERT_EQUAL(fx_read(s, A_FROM0 + 1), 0);
        pms_sim_free(s);
    }
}

static void test_gates(void)
{
    PmsSim *s = fx_sim(fx_model("wsm"), PMS_SIM_FAST);
    PmsSimLbrBranch b = br(0x400000, PMS_LBR_BR_NEAR_RET, 3, FALSE);
    /* DEBUGCTL.LBR clear: nothing */
    run_br(s, &b, 1, 0);
    CU_ASSERT_EQUAL(fx_read(s, A_TOS), 0);
    fx_write(s, A_DEBUGCTL, 1);
    /* CPL_NEQ_0 drops CPL 3 and CPL 1, not CPL 0 */
    fx_write(s, A_LBR_SELECT, 0x2);
    run_br(s, &b, 1, 0);
    b.cpl = 1;
    run_br(s, &b, 1, 0);
    CU_ASSERT_EQUAL(fx_read(s, A_TOS), 0);
    b.cpl = 0;
    run_br(s, &b, 1, 0);
    CU_ASSERT_EQUAL(fx_read(s, A_TOS), 1);
    /* a kernel address: bits 62:48 copy bit 47 (format 000011b) */
    PmsSimLbrBranch k = br(0xffff800000001000ull, PMS_LBR_BR_FAR, 0, FALSE);
    run_br(s, &k, 1, 0);
    CU_ASSERT_EQUAL(fx_read(s, A_FROM0 + 2), 0x7fff800000001000ull);
    CU_ASSERT_EQUAL(fx_read(s, A_TO0 + 2), 0xffff800000001010ull);
    pms_sim_free(s);
}

/* semantics.md A13: NEAR_REL_JMP drops near relative calls on nhm; not under the snb rule */
static void test_jmp_rule(void)
{
    PmsModel *snb = fx_model_with("nhm", "lbr_jmp_rule", "snb");
    const PmsModel *models[2] = { fx_model("nhm"), snb };
    for (int i = 0; i < 2; i++) {
        PmsSim *s = fx_sim(models[i], PMS_SIM_REFERENCE);
        fx_write(s, A_DEBUGCTL, 1);
        fx_write(s, A_LBR_SELECT, 1u << 7 | 1u << 6); /* NEAR_REL_JMP, NEAR_IND_JMP */
        PmsSimLbrBranch b[3] = { br(0x1000, PMS_LBR_BR_NEAR_REL_CALL, 3, FALSE),
                                 br(0x2000, PMS_LBR_BR_NEAR_IND_CALL, 3, FALSE),
                                 br(0x3000, PMS_LBR_BR_NEAR_RET, 3, FALSE) };
        run_br(s, b, 3, 0);
        CU_ASSERT_EQUAL(fx_read(s, A_TOS), i == 0 ? 0 : 3);
        pms_sim_free(s);
    }
    pms_model_free(snb);
    g_autoptr(PmsModel) bad = fx_model_with("nhm", "lbr_jmp_rule", "maybe");
    g_autoptr(GError) err = NULL;
    CU_ASSERT_PTR_NULL(pms_sim_new(bad, &err));
    CU_ASSERT_PTR_NOT_NULL(err ? strstr(err->message, "lbr_jmp_rule = 'maybe': expected nhm or snb") : NULL);
}

/* The branches of the overflow cycle go in, then the freeze: v3 clears
 * DEBUGCTL.LBR, v4 sets LBR_Frz; both engines alike. */
static void test_freeze(void)
{
    for (int v4 = 0; v4 < 2; v4++)
        for (int e = 0; e < 2; e++) {
            PmsSim *s = fx_sim(fx_model(v4 ? "glm" : "nhm"), e ? PMS_SIM_FAST : PMS_SIM_REFERENCE);
            fx_write(s, A_EVTSEL0, EVTSEL(0xc0, 0, EV_USR | EV_OS | EV_INT | EV_EN));
            fx_write(s, A_GCTRL, 1);
            fx_write(s, A_PMC0, (guint64)-1);
            fx_write(s, A_DEBUGCTL, 1 | 1u << 11);
            PmsSimLbrBranch b = br(0x1000, PMS_LBR_BR_JCC, 3, FALSE);
            run_br(s, &b, 1, 1); /* overflow and PMI in cycle 0, after the branch */
            run_br(s, &b, 1, 0); /* frozen */
            CU_ASSERT_EQUAL(fx_read(s, A_TOS), 1);
            if (v4) {
                CU_ASSERT_EQUAL(fx_read(s, A_DEBUGCTL), 0x801);
                CU_ASSERT_EQUAL(fx_read(s, A_STATUS) >> 58 & 1, 1);
                fx_write(s, A_STATUS_RESET, 1ull << 58);
            } else {
                CU_ASSERT_EQUAL(fx_read(s, A_DEBUGCTL), 0x800);
                fx_write(s, A_DEBUGCTL, 0x801);
            }
            run_br(s, &b, 1, 0);
            CU_ASSERT_EQUAL(fx_read(s, A_TOS), 2);
            guint n;
            const guint64 *pmis = pms_sim_pmis(s, &n);
            CU_ASSERT_TRUE(n == 1 && pmis[0] == 0);
            pms_sim_free(s);
        }
    /* glm: 32 entries; TO_IP 63:48 counts the clocks since the last entry
     * (since RESET for the first), saturating at 0xffff (semantics reference 5.5) */
    PmsSim *g = fx_sim(fx_model("glm"), PMS_SIM_FAST);
    CU_ASSERT_EQUAL(pms_sim_lbr_entries(g), 32);
    fx_write(g, A_DEBUGCTL, 1);
    fx_run(g, 5, PMS_SIGNAL_KEY(0xc0, 0), 0, 0, 3, 3);
    PmsSimLbrBranch k[2] = { br(0xffff800000001000ull, PMS_LBR_BR_FAR, 0, TRUE), br(0x2000, PMS_LBR_BR_JCC, 0, FALSE) };
    run_br(g, k, 2, 0); /* cycle 5: 5 clocks since RESET, then 0 */
    CU_ASSERT_EQUAL(fx_read(g, A_FROM0 + 1), 0xffff800000001000ull);
    CU_ASSERT_EQUAL(fx_read(g, A_TO0 + 1), 0x0005800000001010ull);
    CU_ASSERT_EQUAL(fx_read(g, A_TO0 + 2), 0x2010);
    fx_run(g, 70000, PMS_SIGNAL_KEY(0xc0, 0), 0, 0, 3, 3);
    run_br(g, &k[1], 1, 0); /* 70001 clocks later: saturated */
    CU_ASSERT_EQUAL(fx_read(g, A_TO0 + 3), 0xffff000000002010ull);
    run_br(g, &k[1], 1, 0); /* the next cycle: 1 */
    CU_ASSERT_EQUAL(fx_read(g, A_TO0 + 4), 0x0001000000002010ull);
    pms_sim_reset(g); /* RESET: counting from cycle 0 again */
    fx_write(g, A_DEBUGCTL, 1);
    fx_run(g, 2, PMS_SIGNAL_KEY(0xc0, 0), 0, 0, 3, 3);
    run_br(g, &k[1], 1, 0);
    CU_ASSERT_EQUAL(fx_read(g, A_TO0 + 1), 0x0002000000002010ull);
    pms_sim_free(g);
}

enum { SEL_CALLSTACK = 0x3c4 };

/* Call-stack mode (semantics.md §8b): calls push, a near return clears the
 * entry at TOS and steps TOS back; both engines alike. */
static void test_callstack(void)
{
    for (int e = 0; e < 2; e++) {
        PmsSim *s = fx_sim(fx_model("glm"), e ? PMS_SIM_FAST : PMS_SIM_REFERENCE);
        fx_write(s, A_DEBUGCTL, 1);
        fx_write(s, A_LBR_SELECT, SEL_CALLSTACK | 1); /* user only */
        /* main->a, a->b, b->leaf (filtered jcc between), leaf returns */
        PmsSimLbrBranch p[5] = { br(0x1000, PMS_LBR_BR_NEAR_REL_CALL, 3, FALSE),
                                 br(0x2000, PMS_LBR_BR_NEAR_IND_CALL, 3, FALSE), br(0x2800, PMS_LBR_BR_JCC, 3, FALSE),
                                 br(0x3000, PMS_LBR_BR_NEAR_REL_CALL, 3, FALSE),
                                 br(0x4f00, PMS_LBR_BR_NEAR_RET, 3, FALSE) };
        run_br(s, p, 5, 0);
        CU_ASSERT_EQUAL(fx_read(s, A_TOS), 2);
        CU_ASSERT_EQUAL(fx_read(s, A_FROM0 + 1), 0x1000);
        CU_ASSERT_EQUAL(fx_read(s, A_FROM0 + 2), 0x2000);
        CU_ASSERT_EQUAL(fx_read(s, A_FROM0 + 3), 0); /* the leaf's call: flushed */
        CU_ASSERT_EQUAL(fx_read(s, A_TO0 + 3), 0);
        /* a return at ring 0 is dropped by CPL_EQ_0: no pop */
        PmsSimLbrBranch k = br(0xffffffff81000000ull, PMS_LBR_BR_NEAR_RET, 0, FALSE);
        run_br(s, &k, 1, 0);
        CU_ASSERT_EQUAL(fx_read(s, A_TOS), 2);
        /* two more returns empty the stack; a third wraps TOS to 31 and clears entry 0 */
        fx_write(s, A_FROM0 + 0, 0x77);
        PmsSimLbrBranch r[3] = { p[4], p[4], p[4] };
        run_br(s, r, 3, 0);
        CU_ASSERT_EQUAL(fx_read(s, A_TOS), 31);
        CU_ASSERT_EQUAL(fx_read(s, A_FROM0 + 0), 0);
        CU_ASSERT_EQUAL(fx_read(s, A_FROM0 + 1), 0);
        /* EN_CALLSTACK clear: the same return is recorded */
        fx_write(s, A_LBR_SELECT, SEL_CALLSTACK & ~0x200u);
        run_br(s, &p[4], 1, 0);
        CU_ASSERT_EQUAL(fx_read(s, A_TOS), 0);
        CU_ASSERT_EQUAL(fx_read(s, A_FROM0 + 0), 0x4f00);
        pms_sim_free(s);
    }
    /* lifo (default): outside the SDM's configuration a return pops the
     * newest record, a jcc's too, and NEAR_RET does not stop it */
    PmsSim *s = fx_sim(fx_model("glm"), PMS_SIM_FAST);
    fx_write(s, A_DEBUGCTL, 1);
    fx_write(s, A_LBR_SELECT, 0x200 | 1u << 5);
    PmsSimLbrBranch q[3] = { br(0x1000, PMS_LBR_BR_NEAR_REL_CALL, 3, FALSE), br(0x1800, PMS_LBR_BR_JCC, 3, FALSE),
                             br(0x1f00, PMS_LBR_BR_NEAR_RET, 3, FALSE) };
    run_br(s, q, 3, 0);
    CU_ASSERT_EQUAL(fx_read(s, A_TOS), 1);
    CU_ASSERT_EQUAL(fx_read(s, A_FROM0 + 1), 0x1000);
    CU_ASSERT_EQUAL(fx_read(s, A_FROM0 + 2), 0);
    pms_sim_free(s);
    /* glm's cycle count: a pop writes no entry, so the next record counts
     * from the last write (cycle 0), not from the pop (cycle 4) */
    s = fx_sim(fx_model("glm"), PMS_SIM_FAST);
    fx_write(s, A_DEBUGCTL, 1);
    fx_write(s, A_LBR_SELECT, SEL_CALLSTACK);
    run_br(s, q, 1, 0);
    fx_run(s, 3, PMS_SIGNAL_KEY(0xc0, 0), 0, 0, 3, 3);
    run_br(s, &q[2], 1, 0);
    run_br(s, q, 1, 0);
    CU_ASSERT_EQUAL(fx_read(s, A_TOS), 1);
    CU_ASSERT_EQUAL(fx_read(s, A_TO0 + 1), 0x0005000000001010ull);
    pms_sim_free(s);
    /* option lbr_callstack = configured: EN_CALLSTACK alone is ignored
     * (the return recorded), with the SDM's configuration it pops */
    g_autoptr(PmsModel) cfgd = fx_model_with("glm", "lbr_callstack", "configured");
    s = fx_sim(cfgd, PMS_SIM_REFERENCE);
    fx_write(s, A_DEBUGCTL, 1);
    fx_write(s, A_LBR_SELECT, 0x200);
    run_br(s, q, 3, 0);
    CU_ASSERT_EQUAL(fx_read(s, A_TOS), 3);
    fx_write(s, A_LBR_SELECT, SEL_CALLSTACK);
    run_br(s, &q[2], 1, 0);
    CU_ASSERT_EQUAL(fx_read(s, A_TOS), 2);
    CU_ASSERT_EQUAL(fx_read(s, A_FROM0 + 3), 0);
    pms_sim_free(s);
    g_autoptr(PmsModel) bad = fx_model_with("glm", "lbr_callstack", "sometimes");
    g_autoptr(GError) err = NULL;
    CU_ASSERT_PTR_NULL(pms_sim_new(bad, &err));
    CU_ASSERT_PTR_NOT_NULL(err ? strstr(err->message, "lbr_callstack = 'sometimes': expected lifo or configured")
                               : NULL);
}

/* The encoder's callstack flag and pms_lbr_action / describe. */
static void test_callstack_api(void)
{
    const PmsModel *g = fx_model("glm");
    PmsLbrEncoding enc;
    PmsLbrConfig cs = { TRUE, PMS_PLM3, PMS_LBR_JCC | PMS_LBR_NEAR_IND_JMP | PMS_LBR_NEAR_REL_JMP | PMS_LBR_FAR_BRANCH,
                        FALSE, TRUE };
    CU_ASSERT_TRUE(pms_lbr_encode(g, &cs, PMS_PLM_DEFAULT, &enc, NULL));
    CU_ASSERT_EQUAL(enc.lbr_select, SEL_CALLSTACK | 1);
    CU_ASSERT_TRUE(pms_lbr_callstack_configured(enc.lbr_select, g));
    CU_ASSERT_FALSE(pms_lbr_callstack_configured(enc.lbr_select | 1u << 5, g)); /* NEAR_RET set */
    CU_ASSERT_FALSE(pms_lbr_callstack_configured(enc.lbr_select | 2, g));       /* no ring left */
    CU_ASSERT_EQUAL(
        pms_lbr_action(enc.lbr_select, g, PMS_LBR_JMP_RULE_SNB, PMS_LBR_CALLSTACK_LIFO, PMS_LBR_BR_NEAR_RET, 3),
        PMS_LBR_POP);
    CU_ASSERT_EQUAL(
        pms_lbr_action(enc.lbr_select, g, PMS_LBR_JMP_RULE_SNB, PMS_LBR_CALLSTACK_LIFO, PMS_LBR_BR_NEAR_RET, 0),
        PMS_LBR_DROP);
    CU_ASSERT_EQUAL(
        pms_lbr_action(enc.lbr_select, g, PMS_LBR_JMP_RULE_SNB, PMS_LBR_CALLSTACK_LIFO, PMS_LBR_BR_NEAR_REL_CALL, 3),
        PMS_LBR_RECORD);
    CU_ASSERT_EQUAL(
        pms_lbr_action(0x200, g, PMS_LBR_JMP_RULE_SNB, PMS_LBR_CALLSTACK_CONFIGURED, PMS_LBR_BR_NEAR_RET, 3),
        PMS_LBR_RECORD);
    /* nhm has no EN_CALLSTACK: refused by name; bit 9 never pops there */
    g_autoptr(GError) err = NULL;
    PmsLbrConfig nhm = { TRUE, 0, 0, FALSE, TRUE };
    CU_ASSERT_FALSE(pms_lbr_encode(fx_model("nhm"), &nhm, PMS_PLM_DEFAULT, &enc, &err));
    CU_ASSERT_TRUE(g_error_matches(err, PMS_ENCODE_ERROR, PMS_ERR_NOTSUPP));
    CU_ASSERT_PTR_NOT_NULL(err ? strstr(err->message, "en_callstack") : NULL);
    CU_ASSERT_EQUAL(
        pms_lbr_action(0x200, fx_model("nhm"), PMS_LBR_JMP_RULE_NHM, PMS_LBR_CALLSTACK_LIFO, PMS_LBR_BR_NEAR_RET, 3),
        PMS_LBR_RECORD);
    g_autofree char *words = pms_lbr_describe(g, SEL_CALLSTACK | 1, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(words, "Recorded: near relative calls and near indirect calls."));
    CU_ASSERT_PTR_NOT_NULL(strstr(words,
                                  "Call-stack mode (LBR_SELECT.EN_CALLSTACK = 1, SDM 17.9): a near return at "
                                  "rings 1-3 is not recorded but flushes the newest entry"));
    CU_ASSERT_PTR_NOT_NULL(strstr(words, "This is the SDM's call-stack configuration"));
    g_autofree char *odd = pms_lbr_describe(g, 0x200, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(odd, "Not the SDM's call-stack configuration"));
    g_autoptr(PmsModel) cfgd = fx_model_with("glm", "lbr_callstack", "configured");
    g_autofree char *ign = pms_lbr_describe(cfgd, 0x200, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(ign, "EN_CALLSTACK is set but ignored"));
    CU_ASSERT_PTR_NOT_NULL(strstr(ign, "near returns"));
}

static void test_no_lbr(void)
{
    PmsSim *s = fx_sim(fx_model("nhm_unc"), PMS_SIM_FAST);
    CU_ASSERT_EQUAL(pms_sim_lbr_entries(s), 0);
    pms_sim_free(s);
    g_autoptr(GError) err = NULL;
    PmsLbrConfig cfg = { TRUE, 0, 0, FALSE, FALSE };
    PmsLbrEncoding enc;
    CU_ASSERT_FALSE(pms_lbr_encode(fx_model("nhm_unc"), &cfg, PMS_PLM_DEFAULT, &enc, &err));
    CU_ASSERT_TRUE(g_error_matches(err, PMS_ENCODE_ERROR, PMS_ERR_NOTSUPP));
}

static void test_encoder_api(void)
{
    const PmsModel *m = fx_model("nhm");
    PmsLbrEncoding enc;
    PmsLbrConfig off = { FALSE, 0, PMS_LBR_JCC, FALSE, FALSE };
    CU_ASSERT_TRUE(pms_lbr_encode(m, &off, PMS_PLM_DEFAULT, &enc, NULL));
    CU_ASSERT_EQUAL(enc.n_writes, 0); /* lbr_used 0: nothing written */
    PmsLbrConfig all = { TRUE, PMS_PLM0, PMS_LBR_FILTER_ALL, TRUE, FALSE };
    CU_ASSERT_TRUE(pms_lbr_encode(m, &all, PMS_PLM_DEFAULT, &enc, NULL));
    CU_ASSERT_EQUAL(enc.lbr_select, 0x1fe);
    CU_ASSERT_EQUAL(enc.debugctl, 0x801);
    CU_ASSERT_EQUAL(enc.debugctl_mask, 0x801);
    CU_ASSERT_EQUAL(enc.n_writes, 2);
    CU_ASSERT_EQUAL(enc.writes[0].address, A_LBR_SELECT);
    CU_ASSERT_EQUAL(enc.writes[1].mask, 0x801);
    g_autoptr(GError) err = NULL;
    PmsLbrConfig bad = { TRUE, 0, 1u << 9, FALSE, FALSE };
    CU_ASSERT_FALSE(pms_lbr_encode(m, &bad, PMS_PLM_DEFAULT, &enc, &err));
    CU_ASSERT_TRUE(g_error_matches(err, PMS_ENCODE_ERROR, PMS_ERR_INVAL));
    g_clear_error(&err);
    PmsLbrConfig none = { TRUE, 0, 0, FALSE, FALSE };
    CU_ASSERT_FALSE(pms_lbr_encode(m, &none, PMS_PLM2, &enc, &err));
    CU_ASSERT_TRUE(g_error_matches(err, PMS_ENCODE_ERROR, PMS_ERR_ATTR_VAL));
    /* pms_lbr_describe of raw values: both rings dropped, LBR off */
    g_autofree char *words = pms_lbr_describe(m, 0x3, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(words, "LBR off (IA32_DEBUGCTL.LBR = 0)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(words, "no ring at all"));
    CU_ASSERT_PTR_NOT_NULL(strstr(words, "Recorded: nothing"));
    g_autofree char *nolbr = pms_lbr_describe(fx_model("nhm_unc"), 0, 0);
    CU_ASSERT_STRING_EQUAL(nolbr, "model nhm_unc has no LBR.\n");
    /* the names are the lbr_select layout's */
    CU_ASSERT_STRING_EQUAL(pms_lbr_filter_name(PMS_LBR_FAR_BRANCH), "far_branch");
    CU_ASSERT_PTR_NULL(pms_lbr_filter_name(3));
    guint f;
    CU_ASSERT_TRUE(pms_lbr_parse_filter("none", &f, NULL) && f == 0);
    CU_ASSERT_TRUE(pms_lbr_parse_filter("NEAR_RET,jcc", &f, NULL) && f == (PMS_LBR_NEAR_RET | PMS_LBR_JCC));
    /* an empty list, like an empty item, is no filter name ("none" is) */
    CU_ASSERT_FALSE(pms_lbr_parse_filter("", &f, NULL));
    CU_ASSERT_FALSE(pms_lbr_parse_filter("jcc,,far_branch", &f, NULL));
}

/* pms_sim_set_input: the stimulus's branch= text, one branch per call
 * (CPL: the run's unless cplN), sticky until cleared; the stimulus's
 * messages without source:line; another family's key checked and ignored;
 * an unknown key refused. */
static void test_set_input(void)
{
    PmsSim *s = fx_sim(fx_model("nhm"), PMS_SIM_FAST);
    GError *e = NULL;
    fx_write(s, A_DEBUGCTL, 1);
    CU_ASSERT_TRUE(pms_sim_set_input(s, "branch", "0x1000:0x2000:jcc", &e));
    CU_ASSERT_TRUE(pms_sim_set_input(s, "branch", "0x3000:0x4000:near_ret:mp", &e));
    fx_run(s, 1, PMS_SIGNAL_KEY(0xc0, 0), 0, 0, 3, 3);
    CU_ASSERT_EQUAL(fx_read(s, A_TOS), 2);
    CU_ASSERT_EQUAL(fx_read(s, A_FROM0 + 1), 0x1000);
    CU_ASSERT_EQUAL(fx_read(s, A_FROM0 + 2), 0x8000000000003000ull);
    fx_run(s, 1, PMS_SIGNAL_KEY(0xc0, 0), 0, 0, 3, 3); /* sticky: two more */
    CU_ASSERT_EQUAL(fx_read(s, A_TOS), 4);
    CU_ASSERT_TRUE(pms_sim_set_input(s, "branch", NULL, &e));
    fx_run(s, 1, PMS_SIGNAL_KEY(0xc0, 0), 0, 0, 3, 3);
    CU_ASSERT_EQUAL(fx_read(s, A_TOS), 4);
    CU_ASSERT_FALSE(pms_sim_set_input(s, "branch", "0x1000:0x2000:jump", &e));
    CU_ASSERT_TRUE(e && g_str_has_prefix(e->message, "branch: type 'jump': expected one of jcc"));
    g_clear_error(&e);
    for (guint i = 0; i < PMS_SIM_MAX_BRANCHES; i++)
        CU_ASSERT_TRUE(pms_sim_set_input(s, "branch", "1:2:jcc", NULL));
    CU_ASSERT_FALSE(pms_sim_set_input(s, "branch", "1:2:jcc", &e));
    CU_ASSERT_TRUE(e && strcmp(e->message, "branch: at most 64 branches per run") == 0);
    g_clear_error(&e);
    CU_ASSERT_TRUE(pms_sim_set_input(s, "dse", "0x42", &e));
    CU_ASSERT_FALSE(pms_sim_set_input(s, "dse", "x", &e));
    CU_ASSERT_TRUE(e && strcmp(e->message, "dse: 'x': expected a number (the data source encoding)") == 0);
    g_clear_error(&e);
    /* the Itanium's keys: checked, then ignored */
    CU_ASSERT_TRUE(pms_sim_set_input(s, "psr", "up", &e));
    CU_ASSERT_FALSE(pms_sim_set_input(s, "psr", "down", &e));
    CU_ASSERT_TRUE(e && strcmp(e->message, "psr: 'down' for thread 0: expected up, pp, up+pp or none") == 0);
    g_clear_error(&e);
    CU_ASSERT_FALSE(pms_sim_set_input(s, "nosuchkey", "1", &e));
    CU_ASSERT_TRUE(g_error_matches(e, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS));
    g_clear_error(&e);
    pms_sim_free(s);
}

void register_lbr_tests(void)
{
    CU_pSuite s = CU_add_suite("lbr", NULL, NULL);
    CU_add_test(s, "ring wrap, mispredict bit, reset (both engines)", test_ring_wrap);
    CU_add_test(s, "DEBUGCTL.LBR and the CPL bits; sign extension", test_gates);
    CU_add_test(s, "NHM jump rule (A13) vs snb; bad option", test_jmp_rule);
    CU_add_test(s, "freeze on PMI: v3 and v4, both engines; glm format", test_freeze);
    CU_add_test(s, "call-stack mode: push, pop, wrap, lifo vs configured (both engines)", test_callstack);
    CU_add_test(s, "call-stack mode: encoder flag, action, describe", test_callstack_api);
    CU_add_test(s, "a model without LBR", test_no_lbr);
    CU_add_test(s, "pms_lbr_encode and the name lists", test_encoder_api);
    CU_add_test(s, "pms_sim_set_input: branch= and the other keys", test_set_input);
}

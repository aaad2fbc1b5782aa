/* Test fixtures of the simulator suites: models loaded from the source tree,
 * register shorthands (hand-written from the SDM layout, never from the
 * encoder) and one-line runs. */
#pragma once
#include <CUnit/CUnit.h>
#include "model.h"
#include "sim.h"
#include "stimulus.h"

/* models/<name>.pmu or models/tests/tiny.pmu; cached, freed at exit */
const PmsModel *fx_model(const char *name);
/* A private copy with [options] key = value changed (caller frees). */
PmsModel *fx_model_with(const char *name, const char *key, const char *value);
PmsSim *fx_sim(const PmsModel *m, PmsSimEngine engine);
void fx_free_models(void);

/* IA32_PERFEVTSELx bits (SDM Fig 18-6) */
#define EV_USR (1u << 16)
#define EV_OS (1u << 17)
#define EV_E (1u << 18)
#define EV_INT (1u << 20)
#define EV_ANY (1u << 21)
#define EV_EN (1u << 22)
#define EV_INV (1u << 23)
#define EV_CMASK(c) ((guint64)(c) << 24)
#define EVTSEL(code, umask, bits) ((guint64)(code) | ((guint64)(umask) << 8) | (guint64)(bits))

enum {
    A_PMC0 = 0xc1,
    A_EVTSEL0 = 0x186,
    A_FIXED0 = 0x309,
    A_FIXED_CTRL = 0x38d,
    A_STATUS = 0x38e,
    A_GCTRL = 0x38f,
    A_OVF = 0x390,
    A_STATUS_SET = 0x391,
    A_INUSE = 0x392,
    A_DEBUGCTL = 0x1d9,
    A_RSP0 = 0x1a6,
    A_RSP1 = 0x1a7,
    A_LDLAT = 0x3f6,
    A_APMC0 = 0x4c1,
};

void fx_write(PmsSim *s, guint32 addr, guint64 v);
guint64 fx_read(PmsSim *s, guint32 addr);
/* `cycles` cycles: signal sig with n0 (thread 0) / n1 (thread 1), CPLs */
void fx_run(PmsSim *s, guint64 cycles, guint32 sig, guint64 n0, guint64 n1, guint8 cpl0, guint8 cpl1);
/* one cycle per entry of n[] (thread 0, CPL cpl) */
void fx_run_seq(PmsSim *s, guint32 sig, const guint64 *n, guint len, guint8 cpl);

void register_regs_tests(void);
void register_pipe_tests(void);
void register_scenario_tests(void);
void register_stimulus_tests(void);
void register_diff_tests(void);
void register_program_tests(void);
void register_uncore_tests(void);
void register_nhmex_tests(void);
void register_diff_device_tests(void);
void register_amd64_tests(void);
void register_ia64_tests(void);
void register_lbr_tests(void);
void register_fields_tests(void);
void register_topdown_tests(void);
void register_skl_tests(void);
void register_closed_form_tests(void);

/* How many random cases a differential test runs: n, or a quarter of it
 * under PMS_TEST_QUICK (scripts/test's sanitizer run, where each case costs
 * several times more: the coverage build runs them all). */
guint fx_cases(guint n);

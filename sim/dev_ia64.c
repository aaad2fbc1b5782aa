/* pmusim — the Itanium 2 9000 (Montecito) PMU device: the twelve counters
 * PMC4..15 / PMD4..15, the overflow and freeze register PMC0, the
 * qualifiers of the instruction stream (code ranges: IBRs, PMC32, PMC38;
 * opcode matchers: PMC32-36; data ranges: DBRs, PMC41), the MESI
 * qualifiers, the D-EAR and I-EAR (PMC40, PMC37; PMD32-36), the ETB and
 * IP-EAR (PMC39, PMC42; PMD38, 39, 48-63), and every other PMC and PMD of
 * the model as checked storage
 * (reference/montecito/registers.md §1-12, semantics reference §8;
 * docs/semantics.md §11).  Registers are reached by space and number
 * (pms_sim_write_at(sim, PMS_SPACE_PMC, 4, ...)).
 *
 *   counting: counter n (PMDn, configured by PMCn) adds the occurrences of
 *     the signal es.umask (event select 15:8, the 4-bit unit mask 19:16,
 *     matched exactly: Montecito's unit masks are an enumeration, not a bit
 *     set) of its own hardware thread, or of both threads when all (bit 26)
 *     is set on PMC4-7 (and on PMC8-15 only with the model option
 *     `all_on_pmc8_15 = both`), each thread's occurrences only at the
 *     privilege levels whose plm bit is set (bit k: CPL k).  thres = 0 adds
 *     every occurrence; thres = t adds 1 in a cycle with more than t
 *     occurrences (option `thres_compare = gt`, the libpfm document) or at
 *     least t (`ge`, the "at least" wording of Intel's manuals).  No
 *     counter counts while PMC0.fr is set; a counter with plm = 0 counts
 *     nothing.
 *   PSR gate and instruction set: each thread's occurrences count only
 *     while its PSR.up (pm, bit 6, = 0: a user monitor) or PSR.pp (pm = 1:
 *     a privileged monitor) is set (IA64 Table 7-4, semantics reference
 *     8.4), and only when ism (bits 25:24) does not mask the instruction
 *     set the thread executes (pms_sim_set_psr / _isa, the psr= and isa=
 *     tokens; both PSR bits set and IA-64 unless a run says otherwise).
 *     registers.md 3 documents only ism = 10b, IA-64 only; the other values
 *     follow option `ism_bits`: `mask` (bit 24 masks IA-64, bit 25 IA-32:
 *     00 both, 01 IA-32, 11 none) or `enable` (bit 25 enables IA-64, bit 24
 *     IA-32: 00 none, 01 IA-32, 11 both).
 *   overflow: PMDn is 47 bits and wraps modulo 2^47.  A carry out of bit 46
 *     of a counter with oi (bit 5) sets PMC0 bit n and fr and raises one PMI
 *     in that cycle however many counters overflowed (the counters count
 *     through the overflow cycle and stop from the next).  With oi = 0 the
 *     counter just wraps (option `overflow_without_oi = wrap`); `status`
 *     also sets its PMC0 bit, without fr or a PMI.  Software clears fr (and
 *     the overflow bits) by writing PMC0.  ev (bit 4) gives an external
 *     notification on every overflow whatever oi (IA64 Table 7-4; option
 *     `ev_notify = overflow | none`), recorded by the engines.
 *   reads: PMD4-15 bits 63:47 copy bit 46 (option `pmd_read_upper =
 *     sign_extend`) or read 0 (`zero`).
 *   writes: any bit outside the register's writable and ignored masks is a
 *     #GP naming the register, which stays unchanged; ignored bits read 0
 *     (PMD4-15: bits 63:47 of a write are dropped; PMC1-3 read 0).
 *   code ranges: an occurrence carries its thread's instruction address
 *     when the run has one (pms_sim_set_ip, the stimulus's ip= token).  IBR
 *     pair k matches address A when ((A ^ IBR[2k]) & (mask | bits 63:56)) is
 *     0, bits 3:0 never compared (registers.md 12); PMC38.ig_ibrpk = 0 makes
 *     pair k constrain channel k; PMC38.fine turns IBRP0/IBRP2 and
 *     IBRP1/IBRP3 into inclusive lower/upper bundle bounds inside one 64 KB
 *     page for channels 0 and 1 (registers.md 8); PMC32.inv inverts channel
 *     0, PMC32.ig_ad = 1 lifts every constraint (registers.md 4).  Counters
 *     with es 0x08 and umask k (IA64_INST_RETIRED, IA64_TAGGED_INST_RETIRED_
 *     IBRPk) count the retired-instruction signal 0x08.0x0 that channel k
 *     passes; the instruction-prefetch events (model code_range =
 *     prefetch) are constrained by channel 1, the dual fetch events
 *     (code_range = dual) by channel 0 for a thread's demand fetches and 1
 *     for its prefetches (pms_sim_set_prefetch, the fetch= token); other
 *     events with the model's iarr qualifier are constrained by channel 0;
 *     events without iarr are not constrained.  An occurrence
 *     without an address passes only channels that do not constrain.
 *   opcode matching: an occurrence carries its thread's instruction, slot
 *     type M/I/F/B and 41-bit opcode, when the run has one
 *     (pms_sim_set_insn, the insn= token).  Matcher 1 (PMC32 mask and slot
 *     enables, PMC33 match) serves channels 0 and 2, matcher 2 (PMC34/35)
 *     channels 1 and 3; an instruction matches when its slot is enabled and
 *     every opcode bit whose mask bit is 0 equals the match value
 *     (registers.md 4, 5); PMC36.chk_ig_opcm = 1 lets channel k ignore its
 *     matcher.  Events with the opcm qualifier count on their channel (as
 *     above) only what the matcher passes; events without opcm are not
 *     constrained.  An occurrence without an instruction passes only a
 *     matcher that matches everything (mask all ones, every slot enabled:
 *     the reset values).  No opcode inversion (none is documented).
 *   data ranges: an occurrence carries its thread's data address when the
 *     run has one (pms_sim_set_daddr, the daddr= token).  DBR pair k covers
 *     A when ((A ^ DBR[2k]) & (mask | bits 63:56)) is 0, every low bit
 *     compared (registers.md 12); it constrains when PMC41.ena_dbrpk = 1 and
 *     cfg_dtagk carries the data tag: 0 or 2 under libpfm's iod_tab (option
 *     `pmc41_dtag = iod`), anything but 3 under the Linux reading
 *     (`active`); registers.md 10 marks the encoding UNCONFIRMED.  Events
 *     with the darr qualifier count only occurrences inside the union of
 *     the constraining pairs (every occurrence when none constrains; none
 *     without an address when one does); events without darr are not
 *     constrained.  On one counter the code-range, opcode and data tests
 *     must all pass.
 *   MESI: an occurrence carries its thread's line state when the run has
 *     one (pms_sim_set_mesi, the mesi= token).  A counter of an event with
 *     the model's mesi flag counts it only when the state's bit (27 + I, S,
 *     E, M) is set; with all four clear, none (option `mesi_zero = none`) or
 *     all (`all`); an occurrence without a state is not qualified
 *     (registers.md 3).
 *   EARs: thread 0's D-EAR / I-EAR event (pms_sim_set_dear/iear, the dear=
 *     and iear= tokens) happens in its run's first cycle and is captured
 *     when PMC0.fr is clear, the EAR's plm has the CPL and the mode
 *     qualifies it: D-EAR (PMC40) cache latency >= 4 << umask, TLB level's
 *     umask bit, ALAT miss; I-EAR (PMC37) cache latency >= the umask's
 *     L1I_EAR_CACHE_LATn threshold or a RAB hit for umask 0, ct = 01
 *     nothing, TLB level's umask bit.  The capture fills PMD32/33/36 or
 *     PMD34/35 (valid: PMD36.vl, PMD34.stat); the last event wins (option
 *     `ear_capture = last`) or the first until software clears the valid
 *     bits (`first`) (registers.md 6, 7).
 *   ETB / IP-EAR: thread 0's branches (pms_sim_set_branches, br= tokens),
 *     in their run's first cycle, fr clear and PMC39.plm, tm, ptm, ppm and
 *     brt (option `etb_brt`: 0 = all under `code`, none under `man`)
 *     passing, go into the 16-entry ring PMD48-63 at PMD38.ebi (full, bit 5,
 *     when it wraps): a source entry, and for a taken branch a target
 *     entry.  With PMC42.mode = 4 the ring records instead one IP-EAR entry
 *     per run whose thread 0 has an IP (IP 63:4, the run length in cycles
 *     saturated at 63), and keeps recording PMC42.delay cycles past the PMI
 *     that set fr (registers.md 9, 11).
 *
 * Not modelled: the per-event maximum increment (max_inc) is the encoder's
 * bound on a useful thres, not a limit of this device: a stimulus may give
 * any count per cycle; the pm and ism fields of the EAR and ETB
 * configuration registers (stored: their captures take no PSR or
 * instruction-set gate), the active/floating/causal thread-activity types
 * (every cycle of the stimulus is a cycle of an active thread), the EAR/ETB
 * counting events as captures (DATA_EAR_EVENTS etc. count the stimulus's
 * signals), the ETB extension bits (written 0), PMC39.ds = 1 (records
 * nothing), IP-EAR modes other than 4 and its ef/f bits, thread 1's
 * monitor events.  The IBR plm and x fields
 * and the DBR plm, r and w fields are not applied; PMC41's instruction-side
 * tags (cfg_dtag 0 and 1 also name the IBR/opcode tags) are not applied:
 * the instruction side acts through iarr/opcm as above whatever PMC41
 * holds; the kernel's refusal of some PMC32/38/41 combinations is not a
 * device rule.  The fine-mode end-bound erratum is not modelled, nor the
 * inaccuracy of events counted under a qualifier they lack.  docs/semantics.md §11.
 */
#include "sim_internal.h"
#include "ia64_input.h"
#include "model_ia64.h"

#include <string.h>

enum {
    IA64_MAX_CTRS = 12,
};

typedef struct {
    PmsSim *sim;
    guint n;      /* counters */
    guint base;   /* number of the first: 4 */
    guint64 mask; /* 2^47 - 1 */
    guint64 *pmc0;
    guint64 *pmc[IA64_MAX_CTRS], *pmd[IA64_MAX_CTRS];
    SimField fr, ovfl;
    SimField plm[4], oi, es, umask, thres, all;
    gboolean sign_extend; /* pmd_read_upper */
    gboolean ovf_status;  /* overflow_without_oi = status */
    gboolean thres_ge;    /* thres_compare = ge */
    gboolean all_high;    /* all_on_pmc8_15 = both */
    SimField pm, ism;     /* PMC4 bit 6, bits 25:24 (absent: pm = 0, no mask) */
    SimField ev;          /* PMC4 bit 4 (absent: no external notification) */
    gboolean ev_none;     /* ev_notify = none */
    gboolean ism_enable;  /* ism_bits = enable */
    PmsPipeCfg cfg[IA64_MAX_CTRS];
    gboolean cfg_valid;
    /* code-range restriction: IBR0..7, PMC38, PMC32 (absent: none) */
    gboolean ranges;
    guint64 *ibr[8], *pmc38, *pmc32;
    SimField ig_ibrp[4], fine, inv, ig_ad, ibr_mask;
    guint8 qual[256][16];       /* PMS_IA64_QUAL_* of the events with (es, umask) */
    guint8 code_range[256][16]; /* PmsIa64CodeRange of the events with (es, umask) */
    /* opcode matching: PMC32/33 (matcher 0) and PMC34/35 (matcher 1), PMC36
     * (absent: every occurrence matches) */
    gboolean opcm;
    guint64 *om_mask[2], *om_match[2], *pmc36;
    SimField om_bits[2], om_slot[2][4], om_val[2], ig_opcm[4];
    /* data ranges: DBR0..7, PMC41 (absent: none) */
    gboolean dranges;
    guint64 *dbr[8], *pmc41;
    SimField dbr_mask, cfg_dtag[4], ena_dbrp[4];
    gboolean dtag_active; /* pmc41_dtag = active */
    /* MESI qualifiers: PMC bits 27-30, the events with the model's mesi flag */
    gboolean mesi;           /* the fields exist */
    SimField mesi_bit[4];    /* PmsSimMesi order: I, S, E, M */
    guint8 mesi_ev[256][16]; /* (es, umask) of a mesi event */
    gboolean mesi_zero_all;  /* mesi_zero = all */
    /* EARs: PMC37 (I-EAR), PMC40 (D-EAR) and their data registers */
    gboolean ears;
    guint64 *pmc37, *pmc40, *pmd32, *pmd33, *pmd34, *pmd35, *pmd36;
    SimField iear_plm, iear_umask, iear_ct, dear_plm, dear_mode, dear_umask;
    SimField iear_pm, dear_pm, dear_ism; /* optional: the monitors' PSR gate and set mask */
    gboolean ear_first;                  /* ear_capture = first */
    /* ETB / IP-EAR: PMC39, PMC42, PMD38, PMD39, PMD48-63 */
    gboolean etb;
    guint64 *pmc39, *pmc42, *pmd38, *pmd39, *etb_pmd[16];
    SimField etb_plm, etb_ds, etb_tm, etb_ptm, etb_ppm, etb_brt;
    SimField ipear_plm, ipear_mode, ipear_delay;
    SimField etb_pm, ipear_pm; /* optional */
    gboolean brt_man;          /* etb_brt = man */
    gboolean pmi_seen;         /* a PMI set fr (IP-EAR delay), at pmi_cycle */
    guint64 pmi_cycle;
    SimIa64Input in; /* the current run inputs (ia64_input.h) */
} Ia64;

enum { OPCODE_BITS = 41 };
#define OPCODE_MASK ((((guint64)1) << OPCODE_BITS) - 1)

enum { IA64_RETIRED = PMS_IA64_RETIRED_CODE };

static gboolean choice(const PmsModel *m, const char *key, const char *a, const char *b, gboolean *is_b, GError **error)
{
    const char *v = pms_model_option(m, key, a);
    if (g_ascii_strcasecmp(v, a) == 0 || g_ascii_strcasecmp(v, b) == 0) {
        *is_b = g_ascii_strcasecmp(v, b) == 0;
        return TRUE;
    }
    g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL, "model %s: option %s = '%s': expected %s or %s", m->name,
                key, v, a, b);
    return FALSE;
}

static gboolean field(const PmsRegister *r, const char *const *names, guint idx, const char *what, SimField *f,
                      GError **error)
{
    *f = sim_resolve(r, names, idx, 0);
    if (!f->present) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL, "model register %s: no field '%s' in its layout",
                    r->name, what);
        return FALSE;
    }
    return TRUE;
}

/* A register of the model and a field of its layout, or FALSE (optional
 * feature absent).  A register present without a field the device needs is
 * an error. */
static gboolean opt_field(const PmsModel *m, guint pmc, const char *name, SimField *f, gboolean *present,
                          GError **error)
{
    const PmsRegister *r = pms_model_reg_at(m, PMS_SPACE_PMC, pmc);
    if (!r || !r->layout) {
        *present = FALSE;
        return TRUE;
    }
    const char *const names[] = { name, NULL };
    return field(r, names, 0, name, f, error);
}

static guint64 *pmd_storage(PmsSim *sim, guint n, gboolean *present)
{
    const PmsRegister *r = pms_model_reg_at(sim->model, PMS_SPACE_PMD, n);
    if (!r)
        *present = FALSE;
    return sim_storage(sim, r);
}

/* EARs (registers.md 6, 7): PMC37, PMC40 and PMD32-36; optional, all or
 * nothing */
static gboolean ears_init(Ia64 *s, const PmsModel *m, GError **error)
{
    PmsSim *sim = s->sim;
    s->ears = TRUE;
    if (!opt_field(m, 37, "plm", &s->iear_plm, &s->ears, error) ||
        !opt_field(m, 37, "umask", &s->iear_umask, &s->ears, error) ||
        !opt_field(m, 37, "ct", &s->iear_ct, &s->ears, error) ||
        !opt_field(m, 40, "plm", &s->dear_plm, &s->ears, error) ||
        !opt_field(m, 40, "mode", &s->dear_mode, &s->ears, error) ||
        !opt_field(m, 40, "umask", &s->dear_umask, &s->ears, error))
        return FALSE;
    s->pmc37 = sim_storage(sim, pms_model_reg_at(m, PMS_SPACE_PMC, 37));
    s->pmc40 = sim_storage(sim, pms_model_reg_at(m, PMS_SPACE_PMC, 40));
    static const char *const n_pm[] = { "pm", NULL }, *const n_ism[] = { "ism", NULL };
    if (s->ears) {
        s->iear_pm = sim_resolve(pms_model_reg_at(m, PMS_SPACE_PMC, 37), n_pm, 0, 0);
        s->dear_pm = sim_resolve(pms_model_reg_at(m, PMS_SPACE_PMC, 40), n_pm, 0, 0);
        s->dear_ism = sim_resolve(pms_model_reg_at(m, PMS_SPACE_PMC, 40), n_ism, 0, 0);
    }
    s->pmd32 = pmd_storage(sim, 32, &s->ears);
    s->pmd33 = pmd_storage(sim, 33, &s->ears);
    s->pmd34 = pmd_storage(sim, 34, &s->ears);
    s->pmd35 = pmd_storage(sim, 35, &s->ears);
    s->pmd36 = pmd_storage(sim, 36, &s->ears);
    return TRUE;
}

/* ETB and IP-EAR (registers.md 9, 11): PMC39, PMC42, PMD38, PMD39,
 * PMD48-63; optional, all or nothing */
static gboolean etb_init(Ia64 *s, const PmsModel *m, GError **error)
{
    PmsSim *sim = s->sim;
    s->etb = TRUE;
    if (!opt_field(m, 39, "plm", &s->etb_plm, &s->etb, error) || !opt_field(m, 39, "ds", &s->etb_ds, &s->etb, error) ||
        !opt_field(m, 39, "tm", &s->etb_tm, &s->etb, error) || !opt_field(m, 39, "ptm", &s->etb_ptm, &s->etb, error) ||
        !opt_field(m, 39, "ppm", &s->etb_ppm, &s->etb, error) ||
        !opt_field(m, 39, "brt", &s->etb_brt, &s->etb, error) ||
        !opt_field(m, 42, "plm", &s->ipear_plm, &s->etb, error) ||
        !opt_field(m, 42, "mode", &s->ipear_mode, &s->etb, error) ||
        !opt_field(m, 42, "delay", &s->ipear_delay, &s->etb, error))
        return FALSE;
    s->pmc39 = sim_storage(sim, pms_model_reg_at(m, PMS_SPACE_PMC, 39));
    s->pmc42 = sim_storage(sim, pms_model_reg_at(m, PMS_SPACE_PMC, 42));
    static const char *const n_pm[] = { "pm", NULL };
    if (s->etb) {
        s->etb_pm = sim_resolve(pms_model_reg_at(m, PMS_SPACE_PMC, 39), n_pm, 0, 0);
        s->ipear_pm = sim_resolve(pms_model_reg_at(m, PMS_SPACE_PMC, 42), n_pm, 0, 0);
    }
    s->pmd38 = pmd_storage(sim, 38, &s->etb);
    s->pmd39 = pmd_storage(sim, 39, &s->etb);
    for (guint i = 0; i < 16; i++)
        s->etb_pmd[i] = pmd_storage(sim, 48 + i, &s->etb);
    return TRUE;
}

static gboolean ia64_init(PmsSim *sim, GError **error)
{
    const PmsModel *m = sim->model;
    if (m->n_gp < 1 || m->n_gp > IA64_MAX_CTRS || m->gp_width < 1 || m->gp_width > 63 || m->counter_base < 1 ||
        m->counter_base + m->n_gp > 64) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                    "model %s: an Itanium PMU has 1..%d counters of widths 1..63 numbered from 1 up to 63 "
                    "(has %u of width %u from %u)",
                    m->name, IA64_MAX_CTRS, m->n_gp, m->gp_width, m->counter_base);
        return FALSE;
    }
    Ia64 *s = g_new0(Ia64, 1);
    sim->dev = s;
    s->sim = sim;
    s->n = m->n_gp;
    s->base = m->counter_base;
    s->mask = ((guint64)1 << m->gp_width) - 1;
    const PmsRegister *p0 = pms_model_reg_at(m, PMS_SPACE_PMC, 0);
    if (!p0) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL, "model %s: no PMC0 (overflow status and freeze)",
                    m->name);
        return FALSE;
    }
    static const char *const n_fr[] = { "fr", NULL }, *const n_ovfl[] = { "ovfl", NULL };
    if (!field(p0, n_fr, 0, "fr", &s->fr, error) || !field(p0, n_ovfl, 0, "ovfl", &s->ovfl, error))
        return FALSE;
    s->pmc0 = sim_storage(sim, p0);
    for (guint i = 0; i < s->n; i++) {
        const PmsRegister *c = pms_model_reg_at(m, PMS_SPACE_PMC, s->base + i);
        const PmsRegister *d = pms_model_reg_at(m, PMS_SPACE_PMD, s->base + i);
        if (!c || !d) {
            g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL, "model %s: no %s%u for counter %u", m->name,
                        c ? "PMD" : "PMC", s->base + i, s->base + i);
            return FALSE;
        }
        s->pmc[i] = sim_storage(sim, c);
        s->pmd[i] = sim_storage(sim, d);
    }
    /* PMC4's layout is every counter's (registers.md 3); the PMC0 overflow
     * bits must reach the last counter */
    const PmsRegister *c0 = pms_model_reg_at(m, PMS_SPACE_PMC, s->base);
    static const char *const n_plm[] = { "plm%u", "plm", NULL }, *const n_oi[] = { "oi", NULL },
                             *const n_es[] = { "es", NULL }, *const n_um[] = { "umask", NULL },
                             *const n_th[] = { "thres", NULL }, *const n_all[] = { "all", NULL };
    for (guint k = 0; k < 4; k++)
        if (!field(c0, n_plm, k, "plm", &s->plm[k], error))
            return FALSE;
    if (!field(c0, n_oi, 0, "oi", &s->oi, error) || !field(c0, n_es, 0, "es", &s->es, error) ||
        !field(c0, n_um, 0, "umask", &s->umask, error) || !field(c0, n_th, 0, "thres", &s->thres, error) ||
        !field(c0, n_all, 0, "all", &s->all, error))
        return FALSE;
    /* pm and ism (registers.md 3): optional; without pm PSR.up gates every
     * counter, without ism no instruction set is masked */
    static const char *const n_pm[] = { "pm", NULL }, *const n_ism[] = { "ism", NULL };
    s->pm = sim_resolve(c0, n_pm, 0, 0);
    s->ism = sim_resolve(c0, n_ism, 0, 0);
    static const char *const n_ev[] = { "ev", NULL };
    s->ev = sim_resolve(c0, n_ev, 0, 0);
    if (s->ovfl.shift != s->base || s->ovfl.width < s->n) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                    "model %s: PMC0 ovfl (bits %u..%u) does not give counter n bit n for counters %u..%u", m->name,
                    s->ovfl.shift, s->ovfl.shift + s->ovfl.width - 1, s->base, s->base + s->n - 1);
        return FALSE;
    }
    /* code ranges (registers.md 4, 8, 12): optional, all or nothing */
    const PmsRegister *p38 = pms_model_reg_at(m, PMS_SPACE_PMC, 38), *p32 = pms_model_reg_at(m, PMS_SPACE_PMC, 32);
    s->ranges = p38 && p32 && p38->layout && p32->layout;
    for (guint k = 0; k < 8 && s->ranges; k++) {
        const PmsRegister *b = pms_model_reg_at(m, PMS_SPACE_IBR, k);
        s->ranges = b != NULL;
        if (b)
            s->ibr[k] = sim_storage(sim, b);
        if (b && k == 1) {
            static const char *const n_mask[] = { "mask", NULL };
            s->ibr_mask = sim_resolve(b, n_mask, 0, 0);
        }
    }
    if (s->ranges && !sim_require(pms_model_reg_at(m, PMS_SPACE_IBR, 1), s->ibr_mask, "mask", error))
        return FALSE;
    if (s->ranges) {
        static const char *const n_ig[] = { "ig_ibrp%u", NULL }, *const n_fine[] = { "fine", NULL },
                                 *const n_inv[] = { "inv", NULL }, *const n_igad[] = { "ig_ad", NULL };
        for (guint k = 0; k < 4; k++)
            if (!field(p38, n_ig, k, "ig_ibrp", &s->ig_ibrp[k], error))
                return FALSE;
        if (!field(p38, n_fine, 0, "fine", &s->fine, error) || !field(p32, n_inv, 0, "inv", &s->inv, error) ||
            !field(p32, n_igad, 0, "ig_ad", &s->ig_ad, error))
            return FALSE;
        s->pmc38 = sim_storage(sim, p38);
        s->pmc32 = sim_storage(sim, p32);
    }
    /* every qualifier of the events with a given (es, umask), ORed */
    for (guint e = 0; e < m->n_events; e++) {
        const PmsEvent *ev = &m->events[e];
        if (ev->code <= 0xff && ev->base_umask <= 0xf) {
            s->qual[ev->code][ev->base_umask] |= (guint8)pms_ia64_facts(ev)->qualifiers;
            if (pms_ia64_facts(ev)->code_range)
                s->code_range[ev->code][ev->base_umask] = (guint8)pms_ia64_facts(ev)->code_range;
        }
    }
    /* opcode matchers (registers.md 4, 5): optional, all or nothing */
    static const guint om_regs[2][2] = { { 32, 33 }, { 34, 35 } };
    const PmsRegister *p36 = pms_model_reg_at(m, PMS_SPACE_PMC, 36);
    s->opcm = p36 && p36->layout;
    for (guint j = 0; j < 2 && s->opcm; j++) {
        const PmsRegister *mk = pms_model_reg_at(m, PMS_SPACE_PMC, om_regs[j][0]),
                          *mt = pms_model_reg_at(m, PMS_SPACE_PMC, om_regs[j][1]);
        s->opcm = mk && mt && mk->layout && mt->layout;
        if (!s->opcm)
            break;
        static const char *const n_mask[] = { "mask", NULL }, *const n_match[] = { "match", NULL };
        static const char *const n_slot[4][2] = { { "m", NULL }, { "i", NULL }, { "f", NULL }, { "b", NULL } };
        static const char *const what[4] = { "m", "i", "f", "b" };
        if (!field(mk, n_mask, 0, "mask", &s->om_bits[j], error) ||
            !field(mt, n_match, 0, "match", &s->om_val[j], error))
            return FALSE;
        for (guint k = 0; k < 4; k++) /* PmsSimSlot order */
            if (!field(mk, n_slot[k], 0, what[k], &s->om_slot[j][k], error))
                return FALSE;
        s->om_mask[j] = sim_storage(sim, mk);
        s->om_match[j] = sim_storage(sim, mt);
    }
    if (s->opcm) {
        static const char *const n_igo[] = { "ch%u_ig_opcm", NULL };
        for (guint k = 0; k < 4; k++)
            if (!field(p36, n_igo, k, "ch_ig_opcm", &s->ig_opcm[k], error))
                return FALSE;
        s->pmc36 = sim_storage(sim, p36);
    }
    /* data ranges (registers.md 10, 12): optional, all or nothing */
    const PmsRegister *p41 = pms_model_reg_at(m, PMS_SPACE_PMC, 41);
    s->dranges = p41 && p41->layout;
    for (guint k = 0; k < 8 && s->dranges; k++) {
        const PmsRegister *b = pms_model_reg_at(m, PMS_SPACE_DBR, k);
        s->dranges = b != NULL;
        if (b)
            s->dbr[k] = sim_storage(sim, b);
        if (b && k == 1) {
            static const char *const n_mask[] = { "mask", NULL };
            s->dbr_mask = sim_resolve(b, n_mask, 0, 0);
        }
    }
    if (s->dranges && !sim_require(pms_model_reg_at(m, PMS_SPACE_DBR, 1), s->dbr_mask, "mask", error))
        return FALSE;
    if (s->dranges) {
        static const char *const n_dtag[] = { "cfg_dtag%u", NULL }, *const n_ena[] = { "ena_dbrp%u", NULL };
        for (guint k = 0; k < 4; k++)
            if (!field(p41, n_dtag, k, "cfg_dtag", &s->cfg_dtag[k], error) ||
                !field(p41, n_ena, k, "ena_dbrp", &s->ena_dbrp[k], error))
                return FALSE;
        s->pmc41 = sim_storage(sim, p41);
    }
    /* MESI qualifiers (registers.md 3): optional, all four or none */
    static const char *const n_mesi[4][2] = {
        { "mesi_i", NULL }, { "mesi_s", NULL }, { "mesi_e", NULL }, { "mesi_m", NULL }
    };
    s->mesi = TRUE;
    for (guint k = 0; k < 4; k++) {
        s->mesi_bit[k] = sim_resolve(c0, n_mesi[k], 0, 0);
        s->mesi &= s->mesi_bit[k].present;
    }
    for (guint e = 0; e < m->n_events; e++) {
        const PmsEvent *ev = &m->events[e];
        if (pms_ia64_facts(ev)->mesi && ev->code <= 0xff && ev->base_umask <= 0xf)
            s->mesi_ev[ev->code][ev->base_umask] = 1;
    }
    if (!ears_init(s, m, error) || !etb_init(s, m, error))
        return FALSE;
    gboolean zero, wrap_status, ge, both, active, mesi_all, first, man, ism_enable, ev_none;
    if (!choice(m, "pmd_read_upper", "sign_extend", "zero", &zero, error) ||
        !choice(m, "overflow_without_oi", "wrap", "status", &wrap_status, error) ||
        !choice(m, "thres_compare", "gt", "ge", &ge, error) ||
        !choice(m, "all_on_pmc8_15", "own", "both", &both, error) ||
        !choice(m, "pmc41_dtag", "iod", "active", &active, error) ||
        !choice(m, "mesi_zero", "none", "all", &mesi_all, error) ||
        !choice(m, "ear_capture", "last", "first", &first, error) ||
        !choice(m, "etb_brt", "code", "man", &man, error) ||
        !choice(m, "ism_bits", "mask", "enable", &ism_enable, error) ||
        !choice(m, "ev_notify", "overflow", "none", &ev_none, error))
        return FALSE;
    s->ev_none = ev_none;
    s->ism_enable = ism_enable;
    s->mesi_zero_all = mesi_all;
    s->ear_first = first;
    s->brt_man = man;
    s->dtag_active = active;
    s->sign_extend = !zero;
    s->ovf_status = wrap_status;
    s->thres_ge = ge;
    s->all_high = both;
    return TRUE;
}

static void ia64_finalize(PmsSim *sim)
{
    Ia64 *s = sim->dev;
    sim_input_clear(&sim_ia64_inputs, &s->in);
    g_clear_pointer(&sim->dev, g_free);
}

static gpointer ia64_input(PmsSim *sim)
{
    Ia64 *s = sim->dev;
    return &s->in;
}

static void ia64_reset(PmsSim *sim)
{
    Ia64 *s = sim->dev;
    /* the model's reset values (PMC0 = 0, PMC4-15 = 0x2000000, PMD = 0) */
    s->cfg_valid = FALSE;
    s->pmi_seen = FALSE;
    s->pmi_cycle = 0;
}

static gboolean is_counter(const Ia64 *s, const PmsRegister *r, PmsRegSpace space)
{
    return r->space == space && r->address >= s->base && r->address < s->base + s->n;
}

static gboolean is_pmc0(const Ia64 *s, PmsSim *sim, const PmsRegister *r)
{
    return sim_storage(sim, r) == s->pmc0;
}

static gboolean ia64_write(PmsSim *sim, const PmsRegister *r, guint64 value, GError **error)
{
    Ia64 *s = sim->dev;
    /* registers.md 1-3, model writable/ignored: a reserved bit is a #GP
     * naming the register, which stays unchanged; ignored bits read 0 */
    guint64 bad = value & ~(r->writable | r->ignored);
    if (bad)
        return sim_gp_error(error, r, value, bad, "reserved bits set:");
    guint64 v = value & r->writable;
    if (is_counter(s, r, PMS_SPACE_PMD))
        v &= s->mask; /* IA64 Table 7-3: writes to bits 63:W are ignored */
    *sim_storage(sim, r) = v;
    if (r->space == PMS_SPACE_PMC)
        s->cfg_valid = FALSE;
    if (is_pmc0(s, sim, r))
        s->pmi_seen = FALSE; /* software owns fr now: no IP-EAR delay */
    return TRUE;
}

static guint64 ia64_read(PmsSim *sim, const PmsRegister *r)
{
    Ia64 *s = sim->dev;
    guint64 v = *sim_storage(sim, r);
    if (is_counter(s, r, PMS_SPACE_PMD)) {
        v &= s->mask;
        /* registers.md 2: bits 63:47 copy bit 46 (libpfm pmd_sxt47), or 0 */
        if (s->sign_extend && (v >> (g_bit_nth_msf(s->mask, -1))) & 1)
            v |= ~s->mask;
    }
    return v;
}

static gboolean ia64_set_counter(PmsSim *sim, const PmsRegister *r, guint64 value, GError **error)
{
    Ia64 *s = sim->dev;
    if (!is_counter(s, r, PMS_SPACE_PMD))
        return FALSE;
    if (value & ~s->mask) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_GP,
                    "value 0x%" G_GINT64_MODIFIER "x does not fit the %u-bit counter %s", value,
                    (guint)g_bit_nth_msf(s->mask, -1) + 1, r->name);
        return FALSE;
    }
    *sim_storage(sim, r) = value;
    return TRUE;
}

/* Counter i's pipeline: plm per level, all (both threads: a sum), thres as
 * the pipeline's cmask (n > t is n >= t + 1), no edge, no invert. */
static void counter_cfg(const Ia64 *s, guint i, PmsPipeCfg *c)
{
    guint64 v = *s->pmc[i];
    memset(c, 0, sizeof *c);
    c->per_level = TRUE;
    for (guint k = 0; k < 4; k++)
        c->plm |= (guint)(sim_fget(s->plm[k], v) & 1) << k;
    c->cpl_gate_pre = TRUE;
    c->smt = s->sim->n_threads > 1;
    c->n_threads = s->sim->n_threads;
    c->any = sim_fget(s->all, v) && (s->base + i < 8 || s->all_high);
    guint t = (guint)sim_fget(s->thres, v);
    c->cmask = t == 0 ? 0 : s->thres_ge ? t : t + 1;
    c->thres_gt = t != 0 && !s->thres_ge ? t : 0;
}

/* ---- code-range restriction --------------------------------------------- */

/* registers.md 12: pair k matches A when every address bit whose mask bit is
 * 1 (and bits 63:56, which have no mask bit) equals the even register's;
 * bits 3:0 are not compared (bundle granularity).  `ignore` adds bits not
 * compared (fine mode: the offset within the 64 KB page). */
static gboolean pair_match(const Ia64 *s, guint k, guint64 a, guint64 ignore)
{
    guint64 care = sim_fget(s->ibr_mask, *s->ibr[2 * k + 1]) | ((guint64)0xff << 56);
    return ((a ^ *s->ibr[2 * k]) & care & ~(guint64)0xf & ~ignore) == 0;
}

/* The channels (bit k: IBRPk) that let an occurrence with instruction
 * address a (valid: it has one) through.  A channel whose pair does not
 * constrain (PMC38.ig_ibrpk = 1, or PMC32.ig_ad = 1 for all) passes every
 * occurrence; a constraining one passes the occurrences whose address
 * matches: coarse, pair k's address/mask; fine (PMC38.fine), range r = 0, 1
 * from IBRPr (lower) to IBRPr+2 (upper), inclusive bundle addresses in one
 * 64 KB page, on channel r, channels 2 and 3 passing everything.
 * PMC32.inv inverts channel 0's test.  semantics.md §11. */
static guint code_tags(const Ia64 *s, gboolean valid, guint64 a)
{
    if (!s->ranges || sim_fget(s->ig_ad, *s->pmc32))
        return 0xf;
    gboolean fine = sim_fget(s->fine, *s->pmc38) != 0;
    guint tags = 0;
    for (guint k = 0; k < 4; k++) {
        gboolean constrained = sim_fget(s->ig_ibrp[k], *s->pmc38) == 0 && !(fine && k >= 2);
        gboolean in = FALSE;
        if (constrained && valid) {
            if (!fine)
                in = pair_match(s, k, a, 0);
            else {
                guint64 lo = *s->ibr[2 * k] & 0xfff0, hi = *s->ibr[2 * (k + 2)] & 0xfff0, off = a & 0xfff0;
                in = pair_match(s, k, a, 0xffff) && pair_match(s, k + 2, a, 0xffff) && lo <= off && off <= hi;
            }
        }
        if (constrained && k == 0 && sim_fget(s->inv, *s->pmc32))
            in = valid && !in;
        if (!constrained || in)
            tags |= 1u << k;
    }
    return tags;
}

/* ---- opcode matching ------------------------------------------------------ */

/* Matcher j (0: PMC32/33, 1: PMC34/35) in its match-everything state: every
 * opcode bit ignored (mask 41 ones) and every slot type enabled (the reset
 * values, and what libpfm leaves when no matcher is used). */
static gboolean opcm_all(const Ia64 *s, guint j)
{
    guint64 v = *s->om_mask[j];
    for (guint k = 0; k < 4; k++)
        if (!sim_fget(s->om_slot[j][k], v))
            return FALSE;
    return (sim_fget(s->om_bits[j], v) & OPCODE_MASK) == OPCODE_MASK;
}

/* registers.md 4, semantics reference 8.8: an instruction of slot type
 * `slot` and opcode `op` matches matcher j when j enables its slot type and
 * every opcode bit whose mask bit is 0 equals the match register's.  An
 * occurrence without an instruction (valid = FALSE) matches only a matcher
 * that matches everything. */
static gboolean opcm_match(const Ia64 *s, guint j, gboolean valid, PmsSimSlot slot, guint64 op)
{
    if (!valid)
        return opcm_all(s, j);
    guint64 v = *s->om_mask[j];
    guint64 care = ~sim_fget(s->om_bits[j], v) & OPCODE_MASK;
    return sim_fget(s->om_slot[j][slot], v) && ((op ^ sim_fget(s->om_val[j], *s->om_match[j])) & care) == 0;
}

/* The channels (bit k) whose opcode test an occurrence passes: channel k
 * ignores the opcode matchers when PMC36.chk_ig_opcm = 1, else it takes
 * matcher k % 2 (channels 0 and 2: PMC32/33, 1 and 3: PMC34/35, registers.md
 * 5).  No inversion: none is documented for the opcode test. */
static guint opcode_tags(const Ia64 *s, gboolean valid, PmsSimSlot slot, guint64 op)
{
    if (!s->opcm)
        return 0xf;
    gboolean m[2] = { opcm_match(s, 0, valid, slot, op), opcm_match(s, 1, valid, slot, op) };
    guint tags = 0;
    for (guint k = 0; k < 4; k++)
        if (sim_fget(s->ig_opcm[k], *s->pmc36) || m[k % 2])
            tags |= 1u << k;
    return tags;
}

/* ---- data-range restriction ------------------------------------------------ */

/* Does DBR pair k constrain?  ena_dbrpk = 1 and a cfg_dtagk that includes the
 * data-address tag: libpfm's iod_tab (registers.md 10) gives 0 (I+O+D) and 2
 * (D only), i.e. bit 0 clear (option pmc41_dtag = iod); the Linux reading
 * (semantics reference 8.7: active when cfg_dtag != 3) gives 0, 1 and 2
 * (pmc41_dtag = active). */
static gboolean dbr_constrains(const Ia64 *s, guint k)
{
    guint64 v = *s->pmc41;
    if (!sim_fget(s->ena_dbrp[k], v))
        return FALSE;
    guint64 tag = sim_fget(s->cfg_dtag[k], v);
    return s->dtag_active ? tag != 3 : (tag & 1) == 0;
}

/* registers.md 12: pair k covers A when every address bit whose mask bit is 1
 * (and bits 63:56, which have no mask bit) equals DBR[2k]'s; all low bits
 * are compared (byte granularity).  The odd register's plm, r and w are not
 * applied. */
static gboolean dbr_match(const Ia64 *s, guint k, guint64 a)
{
    guint64 care = sim_fget(s->dbr_mask, *s->dbr[2 * k + 1]) | ((guint64)0xff << 56);
    return ((a ^ *s->dbr[2 * k]) & care) == 0;
}

/* Does an occurrence with data address a (valid: it has one) pass the data
 * ranges?  The cover is the union of the constraining pairs (libpfm covers
 * one data range with up to four pairs, for every darr event): it passes
 * when no pair constrains, or its address lies in a constraining pair. */
static gboolean data_pass(const Ia64 *s, gboolean valid, guint64 a)
{
    if (!s->dranges)
        return TRUE;
    gboolean constrained = FALSE;
    for (guint k = 0; k < 4; k++)
        if (dbr_constrains(s, k)) {
            constrained = TRUE;
            if (valid && dbr_match(s, k, a))
                return TRUE;
        }
    return !constrained;
}

/* ---- MESI qualifiers ------------------------------------------------------ */

/* Does counter configuration v let an occurrence in line state `state`
 * (valid: the stimulus gave one) through?  Only events with the model's
 * mesi flag are qualified (es, umask of PMC bits 15:8, 19:16); an
 * occurrence without a state is not constrained.  The state's bit (27 + I,
 * S, E, M, registers.md 3) must be set; with all four clear the option
 * mesi_zero decides: none (default: the bits are enables, libpfm sets all
 * four to "capture everything") or all (the qualifier is off). */
static gboolean mesi_pass(const Ia64 *s, guint64 v, guint es, guint um, gboolean valid, PmsSimMesi state)
{
    if (!s->mesi || !valid || es > 0xff || !s->mesi_ev[es][um & 0xf])
        return TRUE;
    guint bits = 0;
    for (guint k = 0; k < 4; k++)
        bits |= (guint)(sim_fget(s->mesi_bit[k], v) & 1) << k;
    if (bits == 0)
        return s->mesi_zero_all;
    return (bits >> state) & 1;
}

/* ---- PSR gate and instruction-set mask -------------------------------------- */

/* registers.md 3 (pm, bit 6: privileged monitor), semantics reference 8.4
 * (IA64 Table 7-4): a counter with pm = 0 is a user monitor, enabled by its
 * thread's PSR.up; one with pm = 1 a privileged monitor, enabled by PSR.pp.
 * The plm test is separate (pms pipeline, per level). */
static gboolean psr_gate(SimField pm, guint64 v, guint psr)
{
    guint need = pm.present && sim_fget(pm, v) ? PMS_SIM_PSR_PP : PMS_SIM_PSR_UP;
    return (psr & need) != 0;
}

static gboolean psr_pass(const Ia64 *s, guint64 v, guint psr)
{
    return psr_gate(s->pm, v, psr);
}

/* ism, bits 25:24 (registers.md 3: 10b = IA-64 only, the one value libpfm
 * and the kernel write; the others are UNCONFIRMED).  Option ism_bits:
 * mask (default; the field is named a mask) -- bit 24 + PSR.is set masks
 * that instruction set (24: IA-64, 25: IA-32): 00 both, 01 IA-32 only, 10
 * IA-64 only, 11 none; enable -- bit 25 enables IA-64 and bit 24 IA-32: 00
 * none, 01 IA-32 only, 10 IA-64 only, 11 both.  semantics.md §11.2. */
static gboolean ism_gate(const Ia64 *s, SimField f, guint64 v, PmsSimIsa isa)
{
    if (!f.present)
        return TRUE;
    guint ism = (guint)sim_fget(f, v) & 3;
    if (s->ism_enable)
        return (ism >> (isa == PMS_SIM_ISA_IA64 ? 1 : 0)) & 1;
    return !((ism >> (isa == PMS_SIM_ISA_IA64 ? 0 : 1)) & 1);
}

static gboolean ism_pass(const Ia64 *s, guint64 v, PmsSimIsa isa)
{
    return ism_gate(s, s->ism, v, isa);
}

/* ---- EARs ------------------------------------------------------------------- */

static gboolean plm_pass(SimField plm, guint64 v, guint cpl)
{
    return (sim_fget(plm, v) >> cpl) & 1;
}

/* A latency and its overflow bit in a field of `bits` bits: the field keeps
 * the low bits (the latency counter wrapped), ov says it did. */
static guint64 lat_field(guint32 lat, guint bits)
{
    guint64 max = ((guint64)1 << bits) - 1;
    return ((guint64)lat & max) | ((guint64)(lat > max) << bits);
}

/* The TLB-mode umask bit of a translation level: D-EAR (registers.md 7,
 * the DATA_EAR_TLB_* umasks) L2DTLB 0x2, VHPT 0x4, FAULT 0x8; I-EAR (6, the
 * L1I_EAR_TLB_* umasks) L2TLB 0x1, VHPT 0x2, FAULT 0x4.  L1: none. */
static guint tlb_bit(PmsSimTlb t, guint shift)
{
    return t == PMS_SIM_TLB_L1 ? 0 : (1u << (t - 1)) << shift;
}

/* D-EAR (PMC40, registers.md 7): cache mode (0) captures an access whose
 * latency is at least 4 << umask (DATA_EAR_CACHE_LAT4 = umask 0 ... LAT4096
 * = 0xa; larger umasks capture nothing); TLB mode (1) one whose translation
 * level's umask bit is set; ALAT mode (2) an ALAT miss; mode 3 nothing.  The
 * capture writes PMD32 = data address, PMD33 = latency 12:0 and ov 13 (cache
 * mode; 0 otherwise) and stat 15:14 (cache, ALAT: 1; TLB: 1 L2, 2 VHPT, 3
 * fault), PMD36 = the bundle pair's address (IP bits 63:5), bn (IP bit 4),
 * vl = 1 and the slot. */
static void dear_capture(Ia64 *s, const PmsSimDearEvent *e, guint cpl)
{
    guint64 cfg = *s->pmc40;
    if (!plm_pass(s->dear_plm, cfg, cpl) || (s->ear_first && (*s->pmd36 >> 3) & 1))
        return;
    guint mode = (guint)sim_fget(s->dear_mode, cfg), um = (guint)sim_fget(s->dear_umask, cfg);
    guint64 stat = 1, lat = 0;
    switch (mode) {
    case 0:
        if (um > 0xa || e->latency < (4u << um))
            return;
        lat = lat_field(e->latency, 13);
        break;
    case 1:
        if (!(um & tlb_bit(e->tlb, 1)))
            return;
        stat = e->tlb;
        break;
    case 2:
        if (!e->alat)
            return;
        break;
    default:
        return;
    }
    *s->pmd32 = e->daddr;
    *s->pmd33 = lat | stat << 14;
    *s->pmd36 = (e->ip & ~(guint64)0x1f) | ((e->ip >> 4) & 1) << 2 | (guint64)1 << 3 | (e->slot & 3);
}

/* The I-EAR cache-mode latency thresholds by umask (the L1I_EAR_CACHE_LATn
 * events' umasks, registers.md 6); RAB (umask 0) is separate, other umasks
 * capture nothing. */
static gboolean iear_threshold(guint um, guint32 *min)
{
    static const struct {
        guint8 um;
        guint16 lat;
    } tab[] = {
        { 0x40, 0 },   { 0xff, 4 },   { 0xfe, 8 },    { 0xfc, 16 },   { 0xf8, 32 },
        { 0xf0, 128 }, { 0xe0, 256 }, { 0xc0, 1024 }, { 0x80, 4096 },
    };
    for (guint i = 0; i < G_N_ELEMENTS(tab); i++)
        if (tab[i].um == um) {
            *min = tab[i].lat;
            return TRUE;
        }
    return FALSE;
}

/* I-EAR (PMC37, registers.md 6): ct = 1 cache mode with the umask field,
 * ct 0 and the umask's top bit: nothing, else TLB mode with its low 7 bits
 * (fields by name: iear_cfg).  Cache mode captures
 * a miss whose latency reaches the umask's threshold (umask 0: a RAB hit);
 * TLB mode one whose translation level's umask bit is set.  The capture
 * writes PMD34 = IP bits 63:5 and stat 1:0 (cache: 1, 3 for a RAB hit; TLB:
 * 1 L2, 2 VHPT, 3 fault) and PMD35 = latency 11:0 and ov 12 (cache mode; 0
 * otherwise). */
static void iear_capture(Ia64 *s, const PmsSimIearEvent *e, guint cpl)
{
    guint64 cfg = *s->pmc37;
    if (!plm_pass(s->iear_plm, cfg, cpl) || (s->ear_first && (*s->pmd34 & 3)))
        return;
    guint64 stat, lat = 0;
    guint um = (guint)sim_fget(s->iear_umask, cfg);
    if (sim_fget(s->iear_ct, cfg)) {
        guint32 min;
        if (um == 0) {
            if (!e->rab)
                return;
        } else if (!iear_threshold(um, &min) || e->latency < min)
            return;
        stat = e->rab ? 3 : 1;
        lat = lat_field(e->latency, 12);
    } else if ((um >> 7) & 1) {
        return; /* the umask's top bit without ct: no TLB mode captures */
    } else {
        if (!(um & 0x7f & tlb_bit(e->tlb, 0)))
            return;
        stat = e->tlb;
    }
    *s->pmd34 = (e->ip & ~(guint64)0x1f) | stat;
    *s->pmd35 = lat;
}

/* ---- ETB / IP-EAR ----------------------------------------------------------- */

/* PMD39 holds 4 extension bits per entry, interleaved PMD48, 56, 49, 57, ...
 * (registers.md 9): entry i's nibble. */
static guint ext_shift(guint i)
{
    return 4 * (i < 8 ? 2 * i : 2 * (i - 8) + 1);
}

/* One entry into the ring at PMD38.ebi; ebi advances, and full (bit 5) is
 * set when it wraps. */
static void etb_put(Ia64 *s, guint64 entry, guint ext)
{
    guint i = (guint)(*s->pmd38 & 0xf);
    *s->etb_pmd[i] = entry;
    guint sh = ext_shift(i);
    *s->pmd39 = (*s->pmd39 & ~((guint64)0xf << sh)) | (guint64)(ext & 0xf) << sh;
    guint next = (i + 1) & 0xf;
    *s->pmd38 = (*s->pmd38 & ~(guint64)0xf) | next | (next == 0 ? (guint64)1 << 5 : 0);
}

/* A 2-bit "which" mask of PMC39 (tm, ptm, ppm): bit 0 passes the first
 * kind (not taken / mispredicted), bit 1 the second (taken / predicted). */
static gboolean mask2(SimField f, guint64 v, gboolean second)
{
    return (sim_fget(f, v) >> (second ? 1 : 0)) & 1;
}

/* ETB (PMC39, registers.md 9): a branch is recorded when the plm bit of the
 * CPL, tm (taken), ptm (target prediction), ppm (path prediction) and brt
 * (type: option etb_brt) pass and ds = 0.  A taken branch writes a source
 * entry (s = 1, its slot, mp) and a target entry (s = 0, slot 0, mp); a
 * not-taken branch a source entry with slot 3.  mp = either prediction
 * missed.  Extension bits are written 0. */
static void etb_branch(Ia64 *s, const PmsSimBranch *b, guint cpl)
{
    guint64 cfg = *s->pmc39;
    if (!plm_pass(s->etb_plm, cfg, cpl) || sim_fget(s->etb_ds, cfg) || !mask2(s->etb_tm, cfg, b->taken) ||
        !mask2(s->etb_ptm, cfg, !b->mp_target) || !mask2(s->etb_ppm, cfg, !b->mp_path))
        return;
    guint brt = (guint)sim_fget(s->etb_brt, cfg);
    if (brt == 0 ? s->brt_man : brt != (guint)b->type + 1)
        return;
    guint64 mp = (b->mp_target || b->mp_path) ? 2 : 0;
    guint64 slot = b->taken ? (b->slot & 3) : 3;
    etb_put(s, (b->from & ~(guint64)0xf) | slot << 2 | mp | 1, 0);
    if (b->taken)
        etb_put(s, (b->to & ~(guint64)0xf) | mp, 0);
}

/* IP-EAR (PMC42 mode 4, registers.md 11): a run whose thread 0 carries an
 * instruction address records one entry (ef = 0): IP bits 63:4 in 59:0, the
 * run's length in cycles (saturated at 63) bits 3:0 in 63:60 and bits 5:4
 * in the entry's PMD39 bits 1:0 (f, ef = 0).  Other modes record nothing. */
static void ipear_capture(Ia64 *s, guint64 ip, guint64 cycles)
{
    guint64 c = MIN(cycles, 63);
    etb_put(s, ((ip >> 4) & (((guint64)1 << 60) - 1)) | (c & 0xf) << 60, (guint)(c >> 4));
}

/* The monitors' captures for a run's first cycle (every engine calls units
 * once per run before counting): nothing while PMC0.fr is set (registers.md
 * 1: fr freezes the model-specific monitors), except that the IP-EAR keeps
 * capturing for PMC42.delay cycles after the PMI that set fr. */
static void capture(Ia64 *s, PmsSim *sim, const PmsSimRun *run)
{
    gboolean fr = sim_fget(s->fr, *s->pmc0) != 0;
    guint cpl = run->cpl[0];
    /* every monitor is gated by thread 0's PSR.up (pm = 0) or PSR.pp (pm =
     * 1), as the counters (IA64 Table 7-4); the D-EAR also by its ism */
    guint psr = s->in.psr[0];
    if (s->ears && !fr) {
        if (s->in.dear.has && psr_gate(s->dear_pm, *s->pmc40, psr) &&
            ism_gate(s, s->dear_ism, *s->pmc40, (PmsSimIsa)s->in.isa[0]))
            dear_capture(s, &s->in.dear.ev, cpl);
        if (s->in.iear.has && psr_gate(s->iear_pm, *s->pmc37, psr))
            iear_capture(s, &s->in.iear.ev, cpl);
    }
    if (!s->etb)
        return;
    guint64 ip42 = *s->pmc42;
    if (sim_fget(s->ipear_mode, ip42) == 4) {
        gboolean open = !fr || (s->pmi_seen && sim->cycle <= s->pmi_cycle + sim_fget(s->ipear_delay, ip42));
        if (open && s->in.ip.has[0] && plm_pass(s->ipear_plm, ip42, cpl) && psr_gate(s->ipear_pm, ip42, psr))
            ipear_capture(s, s->in.ip.a[0], run->cycles);
        return;
    }
    if (fr || !psr_gate(s->etb_pm, *s->pmc39, psr))
        return;
    const PmsSimBranch *br = s->in.br.v;
    for (guint k = 0; k < s->in.br.n; k++)
        etb_branch(s, &br[k], cpl);
}

static guint ia64_units(PmsSim *sim, const PmsSimRun *run, SimOcc *occ, SimUnit *u)
{
    Ia64 *s = sim->dev;
    if (!s->cfg_valid) {
        for (guint i = 0; i < s->n; i++)
            counter_cfg(s, i, &s->cfg[i]);
        s->cfg_valid = TRUE;
    }
    capture(s, sim, run);
    /* the tags are constant in a run: the addresses, the instruction and
     * the registers do not change inside one */
    guint ctags[PMS_SIM_MAX_THREADS], otags[PMS_SIM_MAX_THREADS];
    gboolean dpass[PMS_SIM_MAX_THREADS];
    for (guint t = 0; t < PMS_SIM_MAX_THREADS; t++) {
        ctags[t] = code_tags(s, s->in.ip.has[t], s->in.ip.a[t]);
        otags[t] = opcode_tags(s, s->in.insn.has[t], s->in.insn.slot[t], s->in.insn.op[t]);
        dpass[t] = data_pass(s, s->in.daddr.has[t], s->in.daddr.a[t]);
    }
    memset(occ, 0, sizeof(SimOcc) * s->n);
    for (guint i = 0; i < s->n; i++) {
        guint64 v = *s->pmc[i];
        guint es = (guint)sim_fget(s->es, v), um = (guint)sim_fget(s->umask, v);
        /* the retired-instruction family counts IA64_INST_RETIRED (0x08.0)
         * tagged on channel umask; other events take channel 0.  The code
         * range constrains the family and the iarr events, the opcode
         * matcher the opcm events, the data ranges the darr events; every
         * thread's occurrences pass its PSR gate (pm) and the ism mask */
        guint channel = 0, q = es <= 0xff ? s->qual[es][um & 0xf] : 0;
        guint cr = es <= 0xff ? s->code_range[es][um & 0xf] : 0;
        guint32 key = PMS_SIGNAL_KEY(es, um);
        gboolean retired = es == IA64_RETIRED && um < 4;
        if (retired)
            channel = um, key = PMS_SIGNAL_KEY(IA64_RETIRED, 0);
        else if (cr == PMS_IA64_CODE_RANGE_PREFETCH)
            channel = 1; /* instruction prefetches: IBRP1's channel */
        gboolean pass[PMS_SIM_MAX_THREADS];
        for (guint t = 0; t < PMS_SIM_MAX_THREADS; t++) {
            /* a dual fetch event: demand fetches on channel 0, prefetches on 1 */
            guint ch = cr == PMS_IA64_CODE_RANGE_DUAL ? (s->in.fetch[t] ? 1u : 0u) : channel;
            pass[t] = ((!retired && !(q & PMS_IA64_QUAL_IARR)) || (ctags[t] >> ch) & 1) &&
                (!(q & PMS_IA64_QUAL_OPCM) || (otags[t] >> ch) & 1) && (!(q & PMS_IA64_QUAL_DARR) || dpass[t]) &&
                mesi_pass(s, v, es, um, s->in.mesi.has[t], s->in.mesi.state[t]) && psr_pass(s, v, s->in.psr[t]) &&
                ism_pass(s, v, (PmsSimIsa)s->in.isa[t]);
        }
        for (guint k = 0; k < run->n_counts; k++) {
            const PmsSimCount *c = &run->counts[k];
            if (c->signal == key && c->box == 0 && pass[c->thread])
                occ[i][c->thread] += c->count;
        }
        u[i] = (SimUnit){ s->pmd[i], s->mask, s->cfg[i], occ[i], NULL, FALSE, s->base + i, i, 0 };
    }
    return s->n;
}

static gboolean frozen(const Ia64 *s)
{
    return sim_fget(s->fr, *s->pmc0) != 0;
}

static gboolean ia64_enabled(const PmsSim *sim, const SimUnit *u)
{
    const Ia64 *s = sim->dev;
    return !frozen(s) && s->cfg[u->id].plm != 0;
}

static guint ia64_off_reasons(const PmsSim *sim, const SimUnit *u)
{
    const Ia64 *s = sim->dev;
    return (frozen(s) ? PMS_SIM_OFF_FROZEN : 0) | (s->cfg[u->id].plm == 0 ? PMS_SIM_OFF_PLM : 0);
}

static gboolean ia64_pmi_enabled(const PmsSim *sim, const SimUnit *u)
{
    const Ia64 *s = sim->dev;
    return sim_fget(s->oi, *s->pmc[u->id]) != 0;
}

/* ev (IA64 Table 7-4): an external notification on every overflow of the
 * counter, whatever its oi; option ev_notify = none for a part without the
 * capability ("if the capability is present"). */
static gboolean ia64_ext_enabled(const PmsSim *sim, const SimUnit *u)
{
    const Ia64 *s = sim->dev;
    return !s->ev_none && s->ev.present && sim_fget(s->ev, *s->pmc[u->id]) != 0;
}

static void ia64_overflow(PmsSim *sim, const SimUnit *u)
{
    Ia64 *s = sim->dev;
    /* registers.md 1: the overflow bit only with oi = 1 (option status: always) */
    if (s->ovf_status || sim_fget(s->oi, *s->pmc[u->id]))
        *s->pmc0 |= (guint64)1 << (s->base + u->id);
}

static gboolean ia64_pmi(PmsSim *sim, guint64 cycle)
{
    Ia64 *s = sim->dev;
    /* registers.md 1: fr set with the overflow bits; one edge-triggered PMI */
    *s->pmc0 |= sim_fbit(s->fr);
    s->pmi_seen = TRUE; /* the IP-EAR's delay counts from here */
    s->pmi_cycle = cycle;
    return TRUE;
}

static guint64 ia64_status(const PmsSim *sim, const SimUnit *u)
{
    (void)u; /* every counter's overflow bit is in PMC0 */
    const Ia64 *s = sim->dev;
    return *s->pmc0;
}

static gboolean ia64_edge_latch(const PmsSim *sim, guint i)
{
    (void)sim;
    (void)i;
    return FALSE; /* no edge detector */
}

const SimDeviceOps sim_ia64_ops = {
    .name = "ia64",
    .init = ia64_init,
    .finalize = ia64_finalize,
    .reset = ia64_reset,
    .write = ia64_write,
    .read = ia64_read,
    .set_counter = ia64_set_counter,
    .units = ia64_units,
    .enabled = ia64_enabled,
    .off_reasons = ia64_off_reasons,
    .pmi_enabled = ia64_pmi_enabled,
    .ext_enabled = ia64_ext_enabled,
    .overflow = ia64_overflow,
    .pmi = ia64_pmi,
    .status = ia64_status,
    .edge_latch = ia64_edge_latch,
    .inputs = &sim_ia64_inputs,
    .input = ia64_input,
};

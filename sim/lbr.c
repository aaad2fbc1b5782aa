/* pmusim — the Last Branch Record of the x86 core device: thread 0's taken
 * branches through DEBUGCTL and LBR_SELECT into the ring of
 * MSR_LASTBRANCH_n_FROM_IP / TO_IP with MSR_LASTBRANCH_TOS
 * (docs/semantics.md §5.4-5.5, SDM 17.7).
 *
 * Every register and field is the model's (kinds lbr_tos, lbr_from, lbr_to;
 * layouts lbr_from, lbr_to, lbr_tos), so the ring has as many entries as the
 * model has FROM_IP registers (16 on nhm/wsm, 32 on glm).
 *
 * glm's TO_IP[63:48] (layout field cycle_count) counts the core clocks since
 * the previous entry was written (since RESET for the first), saturating.
 *
 * glm's call-stack mode (LBR_SELECT field en_callstack, SDM 17.9 p.17-30): a
 * near return pops instead of being recorded: the entry at TOS is cleared
 * and TOS steps back (pms_lbr_action; the choices are semantics.md §8b's).
 *
 * skl's MSR_LBR_INFO_n (kind lbr_info, SDM-2016 17.12 / Linux msr-index.h
 * LBR_INFO_*): each entry written also writes its INFO register: bit 63
 * mispredicted, 62 taken inside a transactional region (or the abort
 * record), 61 the abort record, 15:0 the core clocks since the previous
 * entry was written, saturating (as glm's TO_IP cycle count); a pop clears
 * it with the entry.  A model with LBR_INFO (LBR format 5) need not have a
 * mispred field in FROM_IP: the flags live in INFO.
 *
 * Not modelled: glm's LBR_INFO registers; LBR_SELECT shared by the two NHM threads (the
 * instance is thread 0); far branches' CS-relative forms, interrupts and
 * exceptions as branches (a `far_branch` is one record like any other);
 * freeze-while-SMM; BTS. */
#include "sim_internal.h"
#include "sim_input.h"
#include "lbr.h"

#include <string.h>

void pms_sim_set_lbr_branches(PmsSim *s, const PmsSimLbrBranch *br, guint n)
{
    g_return_if_fail(n <= PMS_SIM_MAX_BRANCHES);
    g_return_if_fail(n == 0 || br != NULL);
    SimList *f = sim_current_input(s, "branch"); /* the x86 core's branch= input */
    if (f) {
        f->v = g_realloc(f->v, n * sizeof *br);
        f->n = n;
        if (n)
            memcpy(f->v, br, n * sizeof *br);
    }
}

/* branch=FROM:TO:TYPE[:mp][:abort][:cplN]: a taken branch of thread 0, in token
 * order; its CPL is the run's unless cplN says (resolved at the capture) */
gboolean sim_lbr_key_branch(const PmsModel *m, const char *value, gpointer field, GError **error)
{
    (void)m;
    PmsSimLbrBranch b;
    if (!pms_lbr_parse_branch(value, PMS_SIM_LBR_CPL_RUN, &b, error))
        return FALSE;
    sim_list_append(field, &b, sizeof b);
    return TRUE;
}

guint pms_sim_lbr_entries(const PmsSim *s)
{
    guint n = 0;
    while (n < SIM_LBR_MAX && pms_model_reg_by_kind(s->model, PMS_REG_LBR_FROM, n))
        n++;
    return n;
}

static SimField field(const PmsRegister *r, const char *name)
{
    const char *const names[] = { name, NULL };
    return sim_resolve(r, names, 0, 0);
}

gboolean sim_lbr_init(SimLbr *l, PmsSim *sim, GError **error)
{
    const PmsModel *m = sim->model;
    memset(l, 0, sizeof *l);
    l->n = pms_sim_lbr_entries(sim);
    const PmsRegister *tos = pms_model_reg_by_kind(m, PMS_REG_LBR_TOS, 0);
    if (!l->n)
        return TRUE; /* a model without an LBR: branches are ignored */
    if (pms_model_reg_by_kind(m, PMS_REG_LBR_FROM, SIM_LBR_MAX)) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                    "model %s: more than %d LBR entries (kind lbr_from, index %d): at most %d are simulated", m->name,
                    SIM_LBR_MAX, SIM_LBR_MAX, SIM_LBR_MAX);
        return FALSE;
    }
    for (guint i = 0; i < l->n; i++) {
        const PmsRegister *to = pms_model_reg_by_kind(m, PMS_REG_LBR_TO, i);
        if (!to) {
            g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                        "model %s: LBR entry %u has a FROM_IP register but no TO_IP (kind lbr_to, index %u)", m->name,
                        i, i);
            return FALSE;
        }
        l->from[i] = sim_storage(sim, pms_model_reg_by_kind(m, PMS_REG_LBR_FROM, i));
        l->to[i] = sim_storage(sim, to);
    }
    const PmsRegister *from0 = pms_model_reg_by_kind(m, PMS_REG_LBR_FROM, 0);
    const PmsRegister *to0 = pms_model_reg_by_kind(m, PMS_REG_LBR_TO, 0);
    l->tos = sim_storage(sim, tos);
    l->tos_f = field(tos, "tos");
    l->from_addr = field(from0, "address");
    l->from_sext = field(from0, "sign_ext");
    l->from_mp = field(from0, "mispred");
    l->to_addr = field(to0, "address");
    l->to_sext = field(to0, "sign_ext");
    l->to_cycles = field(to0, "cycle_count");
    const PmsRegister *info0 = pms_model_reg_by_kind(m, PMS_REG_LBR_INFO, 0);
    if (info0) {
        for (guint i = 0; i < l->n; i++) {
            const PmsRegister *ri = pms_model_reg_by_kind(m, PMS_REG_LBR_INFO, i);
            if (!ri) {
                g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                            "model %s: LBR entry %u has no MSR_LBR_INFO register (kind lbr_info, index %u) while "
                            "entry 0 has one",
                            m->name, i, i);
                return FALSE;
            }
            l->info[i] = sim_storage(sim, ri);
        }
        l->info_mp = field(info0, "mispred");
        l->info_tx = field(info0, "in_tx");
        l->info_abort = field(info0, "tsx_abort");
        l->info_cycles = field(info0, "cycles");
        if (!sim_require(info0, l->info_mp, "mispred", error) || !sim_require(info0, l->info_tx, "in_tx", error) ||
            !sim_require(info0, l->info_abort, "tsx_abort", error) ||
            !sim_require(info0, l->info_cycles, "cycles", error))
            return FALSE;
    }
    l->sel = sim_storage(sim, pms_model_reg_by_kind(m, PMS_REG_LBR_SELECT, 0));
    if (!tos || !sim_require(tos, l->tos_f, "tos", error) || !sim_require(from0, l->from_addr, "address", error) ||
        (!info0 && !sim_require(from0, l->from_mp, "mispred", error)) ||
        !sim_require(to0, l->to_addr, "address", error)) {
        if (!tos)
            g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                        "model %s: LBR entries but no MSR_LASTBRANCH_TOS (kind lbr_tos)", m->name);
        return FALSE;
    }
    if (l->tos_f.width < 32 && (1u << l->tos_f.width) < l->n) {
        /* the loader refuses it too (models/model_lbr.c): TOS would wrap early */
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL,
                    "model %s: field tos of %s is %u bits wide: it cannot index the %u LBR entries", m->name, tos->name,
                    l->tos_f.width, l->n);
        return FALSE;
    }
    GError *e = NULL;
    if (!pms_lbr_jmp_rule(m, &l->rule, &e) || !pms_lbr_callstack_rule(m, &l->cs_rule, &e)) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_MODEL, "%s", e->message);
        g_error_free(e);
        return FALSE;
    }
    return TRUE;
}

/* An address into an entry: the address field, its top bit copied into the
 * sign-extension field where the layout has one (semantics.md §5.5). */
static guint64 entry(SimField addr, SimField sext, guint64 a)
{
    guint64 v = sim_fset(addr, 0, a);
    if (sext.present && addr.width && ((a >> (addr.shift + addr.width - 1)) & 1))
        v = sim_fset(sext, v, ~(guint64)0);
    return v;
}

void sim_lbr_reset(SimLbr *l)
{
    l->last_update = 0;
    l->at = G_MAXUINT64;
    l->added = 0;
}

void sim_lbr_trace(const SimLbr *l, guint64 cycle, PmsSimTrace *t)
{
    if (l->at != cycle || !l->offered)
        return;
    t->lbr_offered = l->offered;
    t->lbr_new = l->added;
    t->lbr_popped = l->popped;
    t->lbr_tos = l->tos_after;
    t->lbr_on = l->on;
}

void sim_lbr_capture(SimLbr *l, PmsSim *sim, gboolean on, const PmsSimLbrBranch *br, guint n, guint run_cpl,
                     gboolean in_tx)
{
    l->added = 0;
    l->popped = 0;
    l->at = sim->cycle;
    l->offered = n;
    l->on = on && l->n;
    if (!l->on)
        return;
    for (guint k = 0; k < n; k++) {
        const PmsSimLbrBranch *b = &br[k];
        guint cpl = b->cpl == PMS_SIM_LBR_CPL_RUN ? run_cpl : b->cpl;
        PmsLbrAction act = pms_lbr_action(*l->sel, sim->model, l->rule, l->cs_rule, b->type, cpl);
        if (act == PMS_LBR_DROP)
            continue;
        if (act == PMS_LBR_POP) {
            /* SDM 17.9: the last captured record is flushed, LIFO.  Cleared
             * (the entry reads 0, so a reader walking down from TOS stops at
             * the bottom of the stack) and TOS back by one, modulo the
             * entries: an empty stack wraps like the ring does.  No entry
             * is written, so the glm cycle count does not restart. */
            guint top = (guint)sim_fget(l->tos_f, *l->tos) % l->n;
            *l->from[top] = 0;
            *l->to[top] = 0;
            if (l->info[top])
                *l->info[top] = 0;
            *l->tos = sim_fset(l->tos_f, *l->tos, (top + l->n - 1) % l->n);
            l->popped++;
            continue;
        }
        /* SDM 17.7: TOS moves to the next entry, which takes the branch */
        guint tos = ((guint)sim_fget(l->tos_f, *l->tos) + 1) % l->n;
        *l->tos = sim_fset(l->tos_f, *l->tos, tos);
        *l->from[tos] = sim_fset(l->from_mp, entry(l->from_addr, l->from_sext, b->from), b->mispredicted ? 1 : 0);
        /* semantics reference 5.5: a saturating count of the clocks since
         * the last update (a second branch of the same cycle: 0) */
        guint64 elapsed = sim->cycle - l->last_update;
        *l->to[tos] =
            sim_fset(l->to_cycles, entry(l->to_addr, l->to_sext, b->to), MIN(elapsed, sim_fmask(l->to_cycles)));
        if (l->info[tos]) {
            guint64 info = sim_fset(l->info_cycles, 0, MIN(elapsed, sim_fmask(l->info_cycles)));
            info = sim_fset(l->info_mp, info, b->mispredicted ? 1 : 0);
            /* the abort record is taken from inside the region it ends */
            info = sim_fset(l->info_tx, info, in_tx || b->tsx_abort ? 1 : 0);
            *l->info[tos] = sim_fset(l->info_abort, info, b->tsx_abort ? 1 : 0);
        }
        l->last_update = sim->cycle;
        l->added++;
    }
    l->tos_after = (guint)sim_fget(l->tos_f, *l->tos);
}

/* decimal or 0x hex, as every number of a stimulus */
static gboolean parse_addr(const char *t, guint64 *v)
{
    gboolean hex = t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
    return (!hex || t[2]) && g_ascii_string_to_unsigned(hex ? t + 2 : t, hex ? 16 : 10, 0, G_MAXUINT64, v, NULL);
}

gboolean pms_lbr_parse_branch(const char *text, guint cpl, PmsSimLbrBranch *br, GError **error)
{
    memset(br, 0, sizeof *br);
    br->cpl = cpl;
    g_auto(GStrv) f = g_strsplit(text, ":", -1);
    if (g_strv_length(f) < 3) {
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS,
                    "branch: expected FROM:TO:TYPE[:mp][:abort][:cplN], got '%s'", text);
        return FALSE;
    }
    guint64 *addr[2] = { &br->from, &br->to };
    for (guint i = 0; i < 2; i++)
        if (!parse_addr(f[i], addr[i])) {
            g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS,
                        "branch: %s address '%s': expected a 64-bit number (decimal or 0x hex)",
                        i ? "target" : "branch", f[i]);
            return FALSE;
        }
    guint t = 0;
    while (t < PMS_LBR_N_FILTERS && g_ascii_strcasecmp(f[2], pms_lbr_filter_name(1u << t)) != 0)
        t++;
    if (t == PMS_LBR_N_FILTERS) {
        g_autoptr(GString) list = g_string_new(NULL);
        for (guint i = 0; i < PMS_LBR_N_FILTERS; i++)
            g_string_append_printf(list, "%s%s", i ? ", " : "", pms_lbr_filter_name(1u << i));
        g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS, "branch: type '%s': expected one of %s", f[2],
                    list->str);
        return FALSE;
    }
    br->type = (PmsLbrBranchType)t;
    gboolean had_cpl = FALSE;
    for (guint i = 3; f[i]; i++) {
        if (!g_ascii_strcasecmp(f[i], "mp"))
            br->mispredicted = TRUE;
        else if (!g_ascii_strcasecmp(f[i], "abort"))
            br->tsx_abort = TRUE;
        else if (!g_ascii_strncasecmp(f[i], "cpl", 3) && f[i][3] >= '0' && f[i][3] <= '3' && !f[i][4] && !had_cpl) {
            br->cpl = (guint)(f[i][3] - '0');
            had_cpl = TRUE;
        } else {
            g_set_error(error, PMS_SIM_ERROR, PMS_SIM_ERROR_STIMULUS,
                        "branch: flag '%s': expected mp, abort or one of cpl0, cpl1, cpl2, cpl3", f[i]);
            return FALSE;
        }
    }
    return TRUE;
}

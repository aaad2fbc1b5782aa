/* pmusim — Montecito debug-register range restriction (docs/ia64-range.md).
 *
 * Written from the facts of range-restriction.md and registers.md; the cover
 * algorithm is our own (an optimal outward rounding, not libpfm's recursive
 * split), so that the programmed cover always contains the request. */
#include "ia64_range.h"

#include <string.h>

G_DEFINE_QUARK(pms - ia64 - range - error - quark, pms_ia64_range_error)

const char *pms_ia64_range_error_name(int code)
{
    switch (code) {
    case PMS_IA64_RANGE_ERROR_FEATCOMB:
        return "PFMLIB_ERR_FEATCOMB";
    case PMS_IA64_RANGE_ERROR_IRRINVAL:
        return "PFMLIB_ERR_IRRINVAL";
    case PMS_IA64_RANGE_ERROR_IRRALIGN:
        return "PFMLIB_ERR_IRRALIGN";
    case PMS_IA64_RANGE_ERROR_IRRTOOBIG:
        return "PFMLIB_ERR_IRRTOOBIG";
    case PMS_IA64_RANGE_ERROR_IRRTOOMANY:
        return "PFMLIB_ERR_IRRTOOMANY";
    case PMS_IA64_RANGE_ERROR_DRRINVAL:
        return "PFMLIB_ERR_DRRINVAL";
    case PMS_IA64_RANGE_ERROR_DRRTOOMANY:
        return "PFMLIB_ERR_DRRTOOMANY";
    case PMS_IA64_RANGE_ERROR_IRRFLAGS:
        return "PFMLIB_ERR_IRRFLAGS";
    default:
        return "PFMLIB_ERR_INVAL";
    }
}

/* A debug pair can describe one aligned block of 2^p bytes, p <= 56: the
 * mask has 56 bits and address bits 63:56 are always compared. */
#define MAX_LOG2 56
#define FINE_MASK 0x00ffffffffff0000ull /* fine mode: bits 55:16 (the 64 KB page) */
#define BUNDLE 16u

typedef struct {
    guint64 base;
    guint log2;
} Block;

/* One range's cover: up to PMS_IA64_RANGE_PAIRS blocks, ascending. */
typedef struct {
    guint n;
    Block b[PMS_IA64_RANGE_PAIRS];
    guint64 soff, eoff;
} Cover;

static guint fls64(guint64 x) /* index of the highest set bit; x != 0 */
{
    return 63u - (guint)__builtin_clzll(x);
}

/* Blocks needed for a length L laid out from a point aligned to at least the
 * top bit of L: one per set bit below 2^56, and 2^(b-56) blocks of 2^56 for
 * a set bit b >= 56. */
static guint64 blocks_for(guint64 len)
{
    return (guint64)__builtin_popcountll(len & ((1ull << MAX_LOG2) - 1)) + (len >> MAX_LOG2);
}

/* The smallest len' >= len, len' <= 2^k, with blocks_for(len') <= n; FALSE if
 * none.  The optimum is always len rounded up to a multiple of some 2^j
 * (docs/ia64-range.md, "Cover"), so those are the only candidates. */
static gboolean round_up_to_blocks(guint64 len, guint k, guint n, guint64 *out)
{
    for (guint j = 0; j <= k; j++) {
        guint64 step = 1ull << j;
        guint64 up = (len + step - 1) & ~(step - 1); /* len <= 2^k <= 2^63: no overflow */
        if (blocks_for(up) <= n) {
            *out = up;
            return TRUE;
        }
    }
    return FALSE;
}

/* Lay out len bytes downwards from c (left part) or upwards from c (right
 * part), largest block next to c; appends in ascending address order. */
static void lay_left(Cover *cv, guint64 c, guint64 len)
{
    /* ascending addresses: the smallest block is lowest */
    guint64 at = c - len;
    for (guint b = 0; b < 64 && len; b++) {
        guint64 bit = 1ull << b;
        if (!(len & bit))
            continue;
        guint64 count = b >= MAX_LOG2 ? bit >> MAX_LOG2 : 1;
        guint log2 = b >= MAX_LOG2 ? MAX_LOG2 : b;
        for (guint64 i = 0; i < count; i++) {
            cv->b[cv->n++] = (Block){ at, log2 };
            at += 1ull << log2;
        }
        len &= ~bit;
    }
}

static void lay_right(Cover *cv, guint64 c, guint64 len)
{
    guint64 at = c;
    for (int b = 63; b >= 0 && len; b--) {
        guint64 bit = 1ull << b;
        if (!(len & bit))
            continue;
        guint64 count = b >= MAX_LOG2 ? bit >> MAX_LOG2 : 1;
        guint log2 = b >= MAX_LOG2 ? MAX_LOG2 : (guint)b;
        for (guint64 i = 0; i < count; i++) {
            cv->b[cv->n++] = (Block){ at, log2 };
            at += 1ull << log2;
        }
        len &= ~bit;
    }
}

/* The cover of [s, e) (s < e) with at most n pairs that extends least beyond
 * the range (then: fewest pairs).  FALSE when n pairs cannot cover it. */
static gboolean cover_range(guint64 s, guint64 e, guint n, Cover *out)
{
    guint64 last = e - 1, x = s ^ last;
    memset(out, 0, sizeof *out);
    if (x == 0) { /* one byte */
        out->n = 1;
        out->b[0] = (Block){ s, 0 };
        return TRUE;
    }
    /* s and last agree above bit k and differ at k (s has 0, last 1). */
    guint k = fls64(x);
    guint64 c = last & ~((1ull << k) - 1); /* s < c <= last, c a multiple of 2^k */
    guint64 left = c - s, right = e - c;   /* both in 1..2^k */
    gboolean found = FALSE;
    guint64 best_excess = 0;
    guint best_pairs = 0;
    guint64 best_l = 0, best_r = 0;
    gboolean best_single = FALSE;
    /* One block of 2^(k+1): the smallest single aligned block holding both. */
    if (k + 1 <= MAX_LOG2) {
        found = TRUE;
        best_single = TRUE;
        best_pairs = 1;
        best_excess = (1ull << (k + 1)) - (e - s);
    }
    /* A left part below c and a right part from c, each rounded outwards. */
    for (guint i = 1; i < n; i++) {
        for (guint j = 1; i + j <= n; j++) {
            guint64 l2, r2;
            if (!round_up_to_blocks(left, k, i, &l2) || !round_up_to_blocks(right, k, j, &r2))
                continue;
            guint64 excess = (l2 - left) + (r2 - right); /* each < 2^63 */
            guint pairs = (guint)(blocks_for(l2) + blocks_for(r2));
            if (!found || excess < best_excess || (excess == best_excess && pairs < best_pairs)) {
                found = TRUE;
                best_single = FALSE;
                best_excess = excess;
                best_pairs = pairs;
                best_l = l2;
                best_r = r2;
            }
        }
    }
    if (!found)
        return FALSE;
    if (best_single) {
        guint64 base = s & ~((2ull << k) - 1);
        out->n = 1;
        out->b[0] = (Block){ base, k + 1 };
        out->soff = s - base;
        out->eoff = best_excess - out->soff;
    } else {
        lay_left(out, c, best_l);
        lay_right(out, c, best_r);
        out->soff = best_l - left;
        out->eoff = best_r - right;
    }
    return TRUE;
}

static guint64 mask_of(guint log2)
{
    /* ones from bit log2 to 55; 0 for a 2^56 block */
    return ~((1ull << log2) - 1) & PMS_IA64_BR_MASK_BITS;
}

gboolean pms_ia64_br_match(PmsIa64RangeSide side, guint64 addr, guint64 even, guint64 odd)
{
    guint64 m = (odd & PMS_IA64_BR_MASK_BITS) | ~PMS_IA64_BR_MASK_BITS;
    if (side == PMS_IA64_RANGE_CODE)
        m &= ~(guint64)(BUNDLE - 1); /* IA-64 fetches: IBR address bits 3:0 ignored */
    return ((addr ^ even) & m) == 0;
}

static void add_reg(PmsIa64RangeResult *out, PmsRegSpace space, guint num, guint64 value)
{
    out->regs[out->n_regs++] = (PmsIa64RangeReg){ space, num, value };
}

static guint range_plm(const PmsIa64RangeRequest *req, guint i)
{
    return req->ranges[i].plm ? req->ranges[i].plm : req->plm;
}

/* Saturating sum for comparing total excesses (each may be near 2^64). */
static guint64 sat_add(guint64 a, guint64 b)
{
    return a + b < a ? G_MAXUINT64 : a + b;
}

/* Several pairs over several ranges: every range gets at least one pair;
 * among all splits of the available pairs, the one with the least total
 * excess, then the fewest pairs, then the most pairs for earlier ranges.
 * Fills covers[]; FALSE when no split covers every range. */
static gboolean cover_all(const PmsIa64RangeRequest *req, guint n_avail, Cover covers[PMS_IA64_RANGE_MAX])
{
    guint n = req->n_ranges;
    /* feasible[i][a]: cover of range i with at most a pairs */
    Cover cv[PMS_IA64_RANGE_MAX][PMS_IA64_RANGE_PAIRS + 1];
    gboolean ok[PMS_IA64_RANGE_MAX][PMS_IA64_RANGE_PAIRS + 1];
    for (guint i = 0; i < n; i++)
        for (guint a = 1; a <= n_avail; a++)
            ok[i][a] = cover_range(req->ranges[i].start, req->ranges[i].end, a, &cv[i][a]);
    gboolean found = FALSE;
    guint64 best_excess = 0;
    guint best_pairs = 0;
    guint best[PMS_IA64_RANGE_MAX] = { 0 };
    guint alloc[PMS_IA64_RANGE_MAX] = { 0 };
    /* enumerate alloc[0..n-1] >= 1 with sum <= n_avail; earlier ranges' larger shares first */
    for (guint a0 = n_avail; a0 >= 1; a0--) {
        for (guint a1 = (n > 1 ? n_avail : 1); a1 >= 1; a1--) {
            for (guint a2 = (n > 2 ? n_avail : 1); a2 >= 1; a2--) {
                for (guint a3 = (n > 3 ? n_avail : 1); a3 >= 1; a3--) {
                    alloc[0] = a0, alloc[1] = a1, alloc[2] = a2, alloc[3] = a3;
                    guint sum = 0;
                    gboolean feasible = TRUE;
                    guint64 excess = 0;
                    guint pairs = 0;
                    for (guint i = 0; i < n; i++) {
                        sum += alloc[i];
                        if (sum > n_avail || !ok[i][alloc[i]]) {
                            feasible = FALSE;
                            break;
                        }
                        excess = sat_add(excess, sat_add(cv[i][alloc[i]].soff, cv[i][alloc[i]].eoff));
                        pairs += cv[i][alloc[i]].n;
                    }
                    if (!feasible)
                        continue;
                    if (!found || excess < best_excess || (excess == best_excess && pairs < best_pairs)) {
                        found = TRUE;
                        best_excess = excess;
                        best_pairs = pairs;
                        memcpy(best, alloc, sizeof best);
                    }
                }
            }
        }
    }
    if (!found)
        return FALSE;
    for (guint i = 0; i < n; i++)
        covers[i] = cv[i][best[i]];
    return TRUE;
}

static gboolean fail(GError **error, PmsIa64RangeError code, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static gboolean fail(GError **error, PmsIa64RangeError code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error_literal(error, PMS_IA64_RANGE_ERROR, code, msg);
    return FALSE;
}

/* PMC41: channel N is tagged when pair N carries a range (code: the pairs
 * PMC41 tags, data: the DBR pairs used); registers.md §10 with no opcode
 * matcher: code only -> cfg_dtag 1, data only -> 2, untagged -> 3 and
 * ena_dbrpN = 0. */
static guint64 pmc41_for(gboolean code, guint tagged)
{
    guint64 v = PMS_IA64_PMC41_DEFAULT;
    for (guint ch = 0; ch < PMS_IA64_RANGE_PAIRS; ch++) {
        guint shift = 3 + 8 * ch;
        guint64 ena = 1ull << (45 + ch);
        v &= ~(3ull << shift);
        if (tagged & (1u << ch)) {
            v |= (guint64)(code ? 1 : 2) << shift;
            v |= ena;
        } else {
            v |= 3ull << shift;
            v &= ~ena;
        }
    }
    return v;
}

gboolean pms_ia64_range_compute(const PmsIa64RangeRequest *req, PmsIa64RangeResult *out, GError **error)
{
    if (!req || !out)
        return fail(error, PMS_IA64_RANGE_ERROR_INVAL, "no request or no result");
    memset(out, 0, sizeof *out);
    gboolean code = req->side == PMS_IA64_RANGE_CODE;
    if (req->side != PMS_IA64_RANGE_CODE && req->side != PMS_IA64_RANGE_DATA)
        return fail(error, PMS_IA64_RANGE_ERROR_INVAL, "side must be code or data");
    if (req->plm == 0 || req->plm > 0xf)
        return fail(error, PMS_IA64_RANGE_ERROR_INVAL, "the privilege level mask 0x%x is not 1..0xf", req->plm);
    if (req->n_ranges > PMS_IA64_RANGE_MAX)
        return fail(error, code ? PMS_IA64_RANGE_ERROR_IRRTOOMANY : PMS_IA64_RANGE_ERROR_DRRTOOMANY,
                    "%u %s ranges: at most %u", req->n_ranges, code ? "code" : "data", PMS_IA64_RANGE_MAX);
    if (req->n_events && !req->events)
        return fail(error, PMS_IA64_RANGE_ERROR_INVAL, "n_events without events");
    /* 1. qualifier support (range-restriction.md §2 check 1) */
    gboolean retired_only = req->n_events > 0;
    guint retired_pairs = 0;
    for (guint i = 0; i < req->n_events; i++) {
        const PmsIa64RangeEvent *ev = &req->events[i];
        if (!ev->no_qualcheck && !(code ? ev->iarr : ev->darr))
            return fail(error, PMS_IA64_RANGE_ERROR_FEATCOMB, "event %s does not support %s range restriction",
                        ev->name ? ev->name : "?", code ? "code" : "data");
        if (ev->retired && ev->retired_ibrp < PMS_IA64_RANGE_PAIRS)
            retired_pairs |= 1u << ev->retired_ibrp;
        else
            retired_only = FALSE;
    }
    /* Which IBR pairs the events need (range-restriction.md §6): prefetches
     * are seen by IBRP1 only, demand fetches and everything else by IBRP0.
     * b is the first pair of the cover; dup repeats it on the next pair. */
    gboolean need0 = code && req->n_events == 0, need1 = FALSE, cpu_cycles = FALSE;
    for (guint i = 0; code && i < req->n_events; i++) {
        const PmsIa64RangeEvent *ev = &req->events[i];
        switch (ev->code_range) {
        case PMS_IA64_CODE_RANGE_PREFETCH:
            need1 = TRUE;
            break;
        case PMS_IA64_CODE_RANGE_DUAL:
            if (!(req->flags & (PMS_IA64_RANGE_DEMAND_FETCH | PMS_IA64_RANGE_PREFETCH_MATCH)))
                return fail(error, PMS_IA64_RANGE_ERROR_IRRFLAGS,
                            "event %s counts demand fetches and prefetches: "
                            "say which the code range restricts (demand-fetch and/or prefetch-match)",
                            ev->name ? ev->name : "?");
            need0 |= (req->flags & PMS_IA64_RANGE_DEMAND_FETCH) != 0;
            need1 |= (req->flags & PMS_IA64_RANGE_PREFETCH_MATCH) != 0;
            break;
        case PMS_IA64_CODE_RANGE_NOT_IBRP1:
            cpu_cycles = TRUE;
            need0 = TRUE;
            break;
        default:
            need0 = TRUE;
        }
    }
    guint b = need0 || !need1 ? 0 : 1;
    gboolean dup = need0 && need1;
    if (cpu_cycles && need1)
        return fail(error, PMS_IA64_RANGE_ERROR_FEATCOMB,
                    "the CPU_OP_CYCLES events cannot be measured while IBRP1 restricts prefetches");
    if (!code && (req->flags & PMS_IA64_RANGE_INV))
        return fail(error, PMS_IA64_RANGE_ERROR_FEATCOMB, "inversion applies to code ranges only (PMC32.inv)");
    for (guint i = 0; i < req->n_ranges; i++)
        if (range_plm(req, i) > 0xf)
            return fail(error, PMS_IA64_RANGE_ERROR_INVAL, "range %u: privilege level mask 0x%x is not 1..0xf", i,
                        range_plm(req, i));
    /* 3. the intervals */
    PmsIa64RangeError einval = code ? PMS_IA64_RANGE_ERROR_IRRINVAL : PMS_IA64_RANGE_ERROR_DRRINVAL;
    if (req->n_ranges == 0)
        return fail(error, einval, "no %s range", code ? "code" : "data");
    for (guint i = 0; i < req->n_ranges; i++) {
        const PmsIa64Range *r = &req->ranges[i];
        if (r->start >= r->end)
            return fail(error, einval,
                        "range %u: start 0x%" G_GINT64_MODIFIER "x is not below end 0x%" G_GINT64_MODIFIER "x", i,
                        r->start, r->end);
        if (code && ((r->start | r->end) & (BUNDLE - 1)))
            return fail(error, PMS_IA64_RANGE_ERROR_IRRALIGN,
                        "range %u: %s 0x%" G_GINT64_MODIFIER "x is not a multiple of 16 (a bundle)", i,
                        (r->start & (BUNDLE - 1)) ? "start" : "end", (r->start & (BUNDLE - 1)) ? r->start : r->end);
    }
    guint n = req->n_ranges;
    Cover covers[PMS_IA64_RANGE_MAX];
    guint tagged = 0; /* PMC41 channels */
    PmsRegSpace space = code ? PMS_SPACE_IBR : PMS_SPACE_DBR;
    guint64 br[2 * PMS_IA64_RANGE_PAIRS] = { 0 };

    /* fine mode: every code range inside one 64 KB page, at most two */
    gboolean fine = code && !(req->flags & PMS_IA64_RANGE_NO_FINE) && n <= 2;
    for (guint i = 0; fine && i < n; i++)
        if ((req->ranges[i].start >> 16) != ((req->ranges[i].end - 1) >> 16))
            fine = FALSE;

    if (fine && need1 && n != 1)
        return fail(error, PMS_IA64_RANGE_ERROR_IRRTOOMANY,
                    "%u code ranges with prefetch events: fine mode takes one (IBRP1 and IBRP3)", n);
    if (fine) {
        for (guint i = 0; i < n * (dup ? 2 : 1); i++) {
            const PmsIa64Range *r = &req->ranges[i % n];
            guint64 lower = r->start & ~31ull; /* the PMU sees bundle pairs */
            guint64 upper = r->end - BUNDLE;   /* inclusive bound */
            if ((upper & 31) == 0)
                upper += BUNDLE; /* erratum: the upper bound must be an odd bundle */
            guint64 odd = ((guint64)range_plm(req, i % n) << PMS_IA64_BR_PLM_SHIFT) | FINE_MASK;
            guint lo = b + i, up = b + i + 2; /* dup: the one range again on IBRP1 / IBRP3 */
            br[2 * lo] = lower, br[2 * lo + 1] = odd;
            br[2 * up] = upper, br[2 * up + 1] = odd;
            out->pairs_used |= (1u << lo) | (1u << up);
            out->range_pairs[i % n] |= (1u << lo) | (1u << up);
            out->soff[i % n] = r->start - lower;
            out->eoff[i % n] = upper + BUNDLE - r->end; /* modulo 2^64: right even at the top */
            tagged |= 1u << lo;                         /* PMC41 tags the lower pairs only */
        }
    } else {
        guint avail[PMS_IA64_RANGE_PAIRS], n_avail = 0;
        gboolean multi = !code || retired_only;
        if (code && retired_only) {
            /* one IA64_TAGGED_INST_RETIRED_IBRPk event per pair used */
            for (guint k = 0; k < PMS_IA64_RANGE_PAIRS; k++)
                if (retired_pairs & (1u << k))
                    avail[n_avail++] = k;
        } else if (code) {
            avail[n_avail++] = b; /* other events: one block on IBRP0 (prefetches: IBRP1) */
        } else {
            for (guint k = 0; k < PMS_IA64_RANGE_PAIRS; k++)
                avail[n_avail++] = k;
        }
        if (code && !multi && n > 1)
            return fail(error, PMS_IA64_RANGE_ERROR_IRRTOOMANY,
                        "%u code ranges need fine mode or IA64_INST_RETIRED events; coarse mode has one pair", n);
        if (n > n_avail)
            return fail(error, code ? PMS_IA64_RANGE_ERROR_IRRTOOMANY : PMS_IA64_RANGE_ERROR_DRRTOOMANY,
                        "%u ranges but %u debug register pairs", n, n_avail);
        if (!cover_all(req, n_avail, covers)) {
            if (code && n_avail == 1)
                return fail(error, PMS_IA64_RANGE_ERROR_IRRTOOBIG,
                            "range 0: no aligned block of at most 2^56 bytes covers it");
            return fail(error, code ? PMS_IA64_RANGE_ERROR_IRRTOOMANY : PMS_IA64_RANGE_ERROR_DRRTOOMANY,
                        "%u debug register pairs cannot cover the %s ranges", n_avail, code ? "code" : "data");
        }
        guint next = 0;
        for (guint i = 0; i < n; i++) {
            for (guint blk = 0; blk < covers[i].n; blk++) {
                guint k = avail[next++];
                br[2 * k] = covers[i].b[blk].base;
                br[2 * k + 1] = ((guint64)range_plm(req, i) << PMS_IA64_BR_PLM_SHIFT) | mask_of(covers[i].b[blk].log2);
                out->pairs_used |= 1u << k;
                out->range_pairs[i] |= 1u << k;
            }
            out->soff[i] = covers[i].soff;
            out->eoff[i] = covers[i].eoff;
        }
        if (dup) {
            /* the demand fetches' block on IBRP0 again on IBRP1 for the
             * prefetches (libpfm writes IBRP0 twice: quirk Q6, not kept) */
            br[2] = br[0], br[3] = br[1];
            out->pairs_used |= 1u << 1;
            out->range_pairs[0] |= 1u << 1;
        }
        tagged = out->pairs_used;
    }
    out->fine = fine;
    for (guint k = 0; k < PMS_IA64_RANGE_PAIRS; k++) {
        if (out->pairs_used & (1u << k)) {
            add_reg(out, space, 2 * k, br[2 * k]);
            add_reg(out, space, 2 * k + 1, br[2 * k + 1]);
        }
    }
    out->pmc41 = pmc41_for(code, tagged);
    if (code) {
        out->pmc32 = PMS_IA64_PMC32_DEFAULT_RR | ((req->flags & PMS_IA64_RANGE_INV) ? PMS_IA64_PMC32_INV : 0);
        out->pmc38 = PMS_IA64_PMC38_DEFAULT | (fine ? PMS_IA64_PMC38_FINE : 0);
        for (guint k = 0; k < PMS_IA64_RANGE_PAIRS; k++)
            if (out->pairs_used & (1u << k))
                out->pmc38 &= ~(1ull << (1 + 3 * k)); /* ig_ibrpk */
        add_reg(out, PMS_SPACE_PMC, 32, out->pmc32);
        add_reg(out, PMS_SPACE_PMC, 38, out->pmc38);
    }
    add_reg(out, PMS_SPACE_PMC, 41, out->pmc41);
    return TRUE;
}

PmsIa64RangeEvent pms_ia64_range_event_of(const PmsEvent *ev)
{
    PmsIa64RangeEvent r = { 0 };
    r.name = ev->name;
    r.iarr = (pms_ia64_facts(ev)->qualifiers & PMS_IA64_QUAL_IARR) != 0;
    r.darr = (pms_ia64_facts(ev)->qualifiers & PMS_IA64_QUAL_DARR) != 0;
    r.retired = ev->code == PMS_IA64_RETIRED_CODE;
    r.retired_ibrp = r.retired ? (guint)ev->base_umask : 0;
    r.code_range = pms_ia64_facts(ev)->code_range;
    return r;
}

#!/usr/bin/env python3
"""Write vectors/<pmu>/lbr.sim: the LBR simulation vectors of the x86 core
PMUs (nhm, nhm_ex, wsm, wsm_dp, glm).

Reads only the project's own models/*.pmu (register names, the lbr_select,
debugctl, global_status, lbr_from and lbr_to layouts, the number of
MSR_LASTBRANCH_n_FROM_IP registers and option lbr_jmp_rule).  The expected
values come from the documented rules, computed here by a few independent
lines, never by the project's encoder or simulator:

  * encoder (libpfm_nehalem(3), SDM Table 17-11): lbr_plm without PLM0 sets
    CPL_EQ_0, without PLM3 sets CPL_NEQ_0; each filter flag sets its
    LBR_SELECT bit; lbr_used sets DEBUGCTL.LBR, the freeze option
    FREEZE_LBRS_ON_PMI (SDM Fig 17-11);
  * capture (docs/semantics.md §5.4, A13): a set LBR_SELECT bit drops its
    class or ring; on nhm/wsm NEAR_REL_JMP also drops near relative calls,
    NEAR_IND_JMP near indirect calls and near returns; glm has the SNB rule;
  * ring (§5.5, SDM 17.7): TOS steps forward modulo the entries, then the
    entry at TOS takes FROM (address 47:0, bits 62:48 its sign extension, 63
    the mispredict flag: LBR format 000011b / 000110b) and TO (47:0, and on
    nhm/wsm 63:48 its sign extension; on glm 63:48 the core clocks since the
    previous entry was written, since RESET for the first, saturating);
  * freeze (§2.8): the branches of a cycle go in before it counts; the
    overflow's PMI clears DEBUGCTL.LBR (v3) or sets LBR_Frz (v4).

Every vector carries all seven branch classes at CPL 3 and at CPL 0, so
that flipping any LBR_SELECT bit changes the TOS or an entry (`pmusim
conform --mutants` reports it).

Usage: scripts/gen-lbr-vectors.py [--models DIR] [--out DIR]
"""
import argparse
import configparser
import os

PMUS = ["glm", "wsm", "wsm_dp", "nhm", "nhm_ex"]
CLASSES = ["jcc", "near_rel_call", "near_ind_call", "near_ret", "near_ind_jmp", "near_rel_jmp", "far_branch"]
MASK64 = (1 << 64) - 1


class Model:
    def __init__(self, path):
        cp = configparser.ConfigParser(interpolation=None, strict=False, comment_prefixes=("#",),
                                       inline_comment_prefixes=None, delimiters=("=",))
        cp.optionxform = str
        with open(path) as f:
            cp.read_file(f)
        self.name = cp["pmu"]["name"]
        self.version = int(cp["pmu"]["version"])
        self.options = dict(cp["options"])
        self.layouts = {}
        self.regs = {}
        for s in cp.sections():
            if s.startswith("layout "):
                fields = {}
                for k, v in cp[s].items():
                    hi, _, lo = v.partition(":")
                    lo = lo or hi
                    fields[k] = (int(lo), int(hi) - int(lo) + 1)
                self.layouts[s[7:]] = fields
            elif s.startswith("register "):
                self.regs[s[9:]] = cp[s]
        self.entries = sum(1 for r in self.regs.values() if r["kind"] == "lbr_from")
        self.nhm_rule = self.options.get("lbr_jmp_rule", "snb") == "nhm"

    def bit(self, layout, field):
        lo, w = self.layouts[layout][field]
        return ((1 << w) - 1) << lo

    def put(self, layout, field, v):
        lo, w = self.layouts[layout][field]
        return (v & ((1 << w) - 1)) << lo


def lbr_select(m, plm, filters):
    """libpfm_nehalem(3) + SDM Table 17-11 -> MSR_LBR_SELECT."""
    v = 0
    if 0 not in plm:
        v |= m.bit("lbr_select", "cpl_eq_0")
    if 3 not in plm:
        v |= m.bit("lbr_select", "cpl_neq_0")
    for f in filters:
        v |= m.bit("lbr_select", f)
    return v


def passes(m, sel, cls, cpl):
    """semantics.md §5.4 and A13: does LBR_SELECT let the branch in?"""
    def on(f):
        return sel & m.bit("lbr_select", f)
    if on("cpl_eq_0" if cpl == 0 else "cpl_neq_0") or on(cls):
        return False
    if m.nhm_rule:
        if cls == "near_rel_call" and on("near_rel_jmp"):
            return False
        if cls in ("near_ind_call", "near_ret") and on("near_ind_jmp"):
            return False
    return True


def entry(m, layout, addr, mp=False):
    """An address into FROM_IP / TO_IP (semantics.md §5.5)."""
    lo, w = m.layouts[layout]["address"]
    v = m.put(layout, "address", addr)
    if "sign_ext" in m.layouts[layout] and (addr >> (lo + w - 1)) & 1:
        v |= m.bit(layout, "sign_ext")
    if mp:
        v |= m.bit(layout, "mispred")
    return v


def branches(pas, cpl):
    """One run's branches: every class once, at `cpl`; jcc and near_ret
    mispredicted.  User addresses below 2^47, kernel ones sign-extended."""
    out = []
    for t, cls in enumerate(CLASSES):
        if cpl == 0:
            frm = 0xFFFFFFFF81000000 + pas * 0x10000 + t * 0x100
            to = frm + 0x80
        else:
            frm = 0x400000 + pas * 0x10000 + t * 0x100
            to = frm + 0x40
        out.append((frm, to, cls, cpl, cls in ("jcc", "near_ret")))
    return out


class Ring:
    def __init__(self, m):
        self.m = m
        self.last = 0      # cycle of the last entry written (RESET: 0)
        self.tos = 0
        self.fr = [0] * m.entries
        self.to = [0] * m.entries

    def capture(self, sel, brs, cycle):
        n = 0
        for (frm, to, cls, cpl, mp) in brs:
            if not passes(self.m, sel, cls, cpl):
                continue
            self.tos = (self.tos + 1) % self.m.entries
            self.fr[self.tos] = entry(self.m, "lbr_from", frm, mp)
            self.to[self.tos] = entry(self.m, "lbr_to", to)
            if "cycle_count" in self.m.layouts["lbr_to"]:
                lo, w = self.m.layouts["lbr_to"]["cycle_count"]
                self.to[self.tos] |= min(cycle - self.last, (1 << w) - 1) << lo
            self.last = cycle
            n += 1
        return n

    def reads(self):
        L = ["read MSR_LASTBRANCH_TOS %d" % self.tos]
        for i in range(self.m.entries):
            L.append("read MSR_LASTBRANCH_%d_FROM_IP 0x%x" % (i, self.fr[i]))
            L.append("read MSR_LASTBRANCH_%d_TO_IP 0x%x" % (i, self.to[i]))
        return L


def run_line(brs, extra=""):
    toks = ["branch=0x%x:0x%x:%s%s" % (f, t, c, ":mp" if mp else "") for (f, t, c, cpl, mp) in brs]
    return "run 1 cpl=%d%s %s" % (brs[0][3], extra, " ".join(toks))


def lbr_record(plm, filters, freeze):
    w = ["lbr"]
    if plm is not None:
        w.append("plm=" + ",".join(str(p) for p in sorted(plm)))
    if filters:
        w.append("filter=" + ",".join(filters))
    if freeze:
        w.append("freeze")
    return " ".join(w)


COMMON_SRC = ("src Expected values by scripts/gen-lbr-vectors.py's own rules: LBR_SELECT = CPL_EQ_0 unless PLM0, "
              "CPL_NEQ_0 unless PLM3, one bit per filter flag (libpfm_nehalem(3), SDM Table 17-11, positions from "
              "the model's lbr_select layout); DEBUGCTL LBR | FREEZE_LBRS_ON_PMI (SDM Fig 17-11); a set bit drops "
              "its class or ring (semantics.md 5.4){rule}; TOS steps forward mod {n} and the entry at TOS takes "
              "FROM (47:0, 62:48 sign extension, 63 mispredicted) and TO (47:0{to}) (semantics.md 5.5, SDM 17.7).")


def to_words(m):
    return (", 63:48 sign extension" if "sign_ext" in m.layouts["lbr_to"] else
            "; 63:48 the clocks since the previous entry, since RESET for the first: each run is one cycle")


def vector(m, name, plm, filters, freeze, passes_n, why):
    sel = lbr_select(m, plm if plm is not None else (0, 3), filters)
    rule = ("; A13 on this part: NEAR_REL_JMP also drops near relative calls, NEAR_IND_JMP near indirect calls and "
            "returns" if m.nhm_rule else "; SNB rule on this part (A13): each bit drops its own class")
    to = to_words(m)
    L = ["vector %s" % name, 'event 0 "%s::INST_RETIRED:ANY_P"' % m.name, lbr_record(plm, filters, freeze),
         "src " + why, COMMON_SRC.format(rule=rule, n=m.entries, to=to)]
    ring = Ring(m)
    # No read of MSR_LBR_SELECT: the encoder's value shows in what is
    # recorded (a read would catch every LBR_SELECT mutant without that).
    body = []
    kept = []
    cycle = 0
    for p in range(passes_n):
        for cpl in (3, 0):
            brs = branches(p, cpl)
            k = ring.capture(sel, brs, cycle)
            cycle += 1
            kept.append("pass %d CPL %d: %d of 7" % (p, cpl, k))
            body.append(run_line(brs))
    L.append("src Recorded per run: %s; TOS %d." % ("; ".join(kept), ring.tos))
    L += body + ring.reads() + ["expect-pmi none", "end", ""]
    return L


def freeze_vector(m):
    """A PMI in the cycle of the second run's branches: they go in first
    (before the cycle counts), then the LBR is frozen; the third run's are
    lost; software unfreezes; the fourth run's go in."""
    sel = 0
    dbg = m.bit("debugctl", "lbr") | m.bit("debugctl", "freeze_lbrs_on_pmi")
    ring = Ring(m)
    v4 = m.version >= 4
    how = ("v4: LBR_Frz (IA32_PERF_GLOBAL_STATUS) is set and DEBUGCTL stays; software clears it through "
           "IA32_PERF_GLOBAL_STATUS_RESET" if v4 else
           "v3: the processor clears DEBUGCTL.LBR; software sets it again")
    L = ["vector lbr_freeze_on_pmi", 'event 0 "%s::INST_RETIRED:ANY_P"' % m.name, "lbr freeze",
         "src semantics.md 2.8 (A8, A18): FREEZE_LBRS_ON_PMI freezes the LBR in the overflow cycle; %s. "
         "PMC0 preloaded 2^48-2 counts 1 in cycles 0 and 1 (u and k, INT from the encoder): carry and PMI in cycle 1. "
         "The branches of a cycle go in before it counts (lbr.h), so cycle 1's are recorded, cycle 2's are lost." % how,
         COMMON_SRC.format(rule="", n=m.entries, to=to_words(m))]
    body = ["write IA32_PMC0 -2"]
    b0, b1, b2, b3 = branches(0, 3), branches(0, 0), branches(1, 3), branches(1, 0)
    ring.capture(sel, b0, 0)
    body.append(run_line(b0, " INST_RETIRED.ANY_P=1"))
    ring.capture(sel, b1, 1)
    body.append(run_line(b1, " INST_RETIRED.ANY_P=1"))
    body.append(run_line(b2))  # frozen: nothing recorded
    body += ring.reads()
    if v4:
        st = m.bit("global_status", "lbr_frz") | m.put("global_status", "pmc", 1)
        body += ["read IA32_DEBUGCTL 0x%x" % dbg, "read IA32_PERF_GLOBAL_STATUS 0x%x" % st,
                 "write IA32_PERF_GLOBAL_STATUS_RESET 0x%x" % m.bit("global_status", "lbr_frz")]
    else:
        body += ["read IA32_DEBUGCTL 0x%x" % (dbg & ~m.bit("debugctl", "lbr")),
                 "write IA32_DEBUGCTL 0x%x" % dbg]
    ring.capture(sel, b3, 3)
    body.append(run_line(b3))
    body += ring.reads()
    L.append("src TOS 14 after cycle 1, unchanged by cycle 2; %d after cycle 3 (7 more, mod %d)." % (ring.tos, m.entries))
    L += body + ["expect-pmi 1", "end", ""]
    return L


def generate(m):
    out = ["# vectors/%s/lbr.sim -- written by scripts/gen-lbr-vectors.py from models/%s.pmu; edit the generator."
           % (m.name, m.name),
           "# LBR vectors (docs/vectors-format.md, 'lbr' record): every filter flag alone, both privilege levels,",
           "# every class at both rings, the ring's wrap, freeze on PMI.  Derivation: the generator's docstring.", ""]
    out += vector(m, "lbr_every_class_both_rings", None, [], False, 1,
                  "lbr_used, default privilege (PLM0|PLM3), no filter: all 14 branches.")
    for f in CLASSES:
        out += vector(m, "lbr_filter_" + f, None, [f], False, 1, "filter flag %s alone." % f.upper())
    out += vector(m, "lbr_plm_0", (0,), [], False, 1, "lbr_plm = PLM0: ring 0 only (CPL_NEQ_0 set).")
    out += vector(m, "lbr_plm_3", (3,), [], False, 1, "lbr_plm = PLM3: rings 1-3 only (CPL_EQ_0 set).")
    out += vector(m, "lbr_ring_wrap", None, ["far_branch"], False, 3,
                  "three passes of both runs, far branches filtered: %d branches wrap the %d-entry ring."
                  % (36, m.entries))
    out += freeze_vector(m)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--models", default=os.path.join(root, "models"))
    ap.add_argument("--out", default=os.path.join(root, "vectors"))
    args = ap.parse_args()
    for pmu in PMUS:
        m = Model(os.path.join(args.models, pmu + ".pmu"))
        path = os.path.join(args.out, pmu, "lbr.sim")
        with open(path, "w") as f:
            f.write("\n".join(generate(m)).rstrip("\n") + "\n")
        print("%s/lbr.sim" % pmu)


if __name__ == "__main__":
    main()

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
    overflow's PMI clears DEBUGCTL.LBR (v3) or sets LBR_Frz (v4);
  * call stack (glm, LBR_SELECT field en_callstack; SDM 17.9 p.17-30,
    semantics.md §8b): a near return at a ring LBR_SELECT lets through is
    not recorded but flushes the newest record, LIFO: the entry at TOS
    reads 0 afterwards and TOS steps back by one (mod the entries); no entry
    is written, so the glm cycle count keeps counting from the last write.

Every vector carries all seven branch classes at CPL 3 and at CPL 0 (the
call-stack ones: every class at CPL 3, calls and a return at CPL 0), so
that flipping any LBR_SELECT bit changes the TOS or an entry (`pmusim
conform --mutants` reports it) unless the documented rule says it cannot
(A13; NEAR_RET in call-stack mode).

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


def lbr_select(m, plm, filters, callstack=False):
    """libpfm_nehalem(3) + SDM Table 17-11 (+ EN_CALLSTACK, Table 17-13) -> MSR_LBR_SELECT."""
    v = m.bit("lbr_select", "en_callstack") if callstack else 0
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


def callstack_on(m, sel):
    """semantics.md §8b: EN_CALLSTACK set (model option lbr_callstack =
    configured: and the SDM's configuration, else ignored)."""
    if "en_callstack" not in m.layouts["lbr_select"] or not sel & m.bit("lbr_select", "en_callstack"):
        return False
    if m.options.get("lbr_callstack", "lifo") == "lifo":
        return True
    def on(f):
        return sel & m.bit("lbr_select", f)
    return (all(on(f) for f in ("jcc", "near_ind_jmp", "near_rel_jmp", "far_branch")) and
            not any(on(f) for f in ("near_rel_call", "near_ind_call", "near_ret")) and
            not (on("cpl_eq_0") and on("cpl_neq_0")))


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
            if cls == "near_ret" and callstack_on(self.m, sel):
                if sel & self.m.bit("lbr_select", "cpl_eq_0" if cpl == 0 else "cpl_neq_0"):
                    continue
                self.fr[self.tos] = self.to[self.tos] = 0
                self.tos = (self.tos - 1) % self.m.entries
                continue
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


def lbr_record(plm, filters, freeze, callstack=False):
    w = ["lbr"]
    if plm is not None:
        w.append("plm=" + ",".join(str(p) for p in sorted(plm)))
    if filters:
        w.append("filter=" + ",".join(filters))
    if freeze:
        w.append("freeze")
    if callstack:
        w.append("callstack")
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


# Call-stack programs: one run per line, each branch (kind, caller, callee)
# at CPL 3 unless the run says "k".  Kinds: call (near_rel_call), icall
# (near_ind_call), ret, and the classes the SDM's configuration filters
# (jcc, ijmp, jmp, far), which stay in so that clearing their bit shows.
# A call goes from site 0x...x0 of the caller to the callee's entry; a
# return from the callee's exit back behind the call site.
FUNCS = {"main": 0x401000, "a": 0x402000, "b": 0x403000, "leaf1": 0x404000, "leaf2": 0x405000,
         "c": 0x406000, "sys": 0xFFFFFFFF81100000}
KIND_CLASS = {"call": "near_rel_call", "icall": "near_ind_call", "ret": "near_ret", "jcc": "jcc",
              "ijmp": "near_ind_jmp", "jmp": "near_rel_jmp", "far": "far_branch"}


def cs_branch(kind, src, dst, site, cpl):
    base = FUNCS[src]
    if kind in ("call", "icall"):
        frm, to = base + 0x10 * site, FUNCS[dst]
    elif kind == "ret":
        frm, to = base + 0xF00, FUNCS[dst] + 0x10 * site + 5
    else:
        frm, to = base + 0x100 + 0x10 * site, base + 0x200 + 0x10 * site
    return (frm, to, KIND_CLASS[kind], cpl, kind == "ret" and site == 2)


NESTED = [
    # main -> a -> b, a conditional and a jump on the way
    [("call", "main", "a", 1), ("jcc", "a", "a", 1), ("call", "a", "b", 1)],
    # b calls two leaves; each returns (their records go again)
    [("icall", "b", "leaf1", 1), ("ijmp", "leaf1", "leaf1", 1), ("ret", "leaf1", "b", 1),
     ("call", "b", "leaf2", 2), ("jmp", "leaf2", "leaf2", 1), ("ret", "leaf2", "b", 2), ("far", "b", "b", 1)],
    # ring 0: a call and its return, then a call that has not returned yet
    # (plm 3 drops all three: nothing pushed or popped)
    [("call", "sys", "sys", 1), ("ret", "sys", "sys", 1), ("call", "sys", "sys", 2)],
    # b returns to a; a calls c
    [("ret", "b", "a", 1), ("call", "a", "c", 2)],
]
CALLSTACK_FILTER = ["jcc", "near_ind_jmp", "near_rel_jmp", "far_branch"]


def callstack_vector(m, name, program, plm, filters, callstack, why):
    sel = lbr_select(m, plm, filters, callstack)
    L = ["vector %s" % name, 'event 0 "%s::INST_RETIRED:ANY_P"' % m.name,
         lbr_record(plm, filters, False, callstack), "src " + why,
         "src Expected values by scripts/gen-lbr-vectors.py's own rules: LBR_SELECT = CPL_EQ_0 unless PLM0, "
         "one bit per filter flag, EN_CALLSTACK for callstack (SDM Tables 17-11/17-13, positions from the "
         "model's lbr_select layout); a set bit drops its class or ring; with EN_CALLSTACK a near return at a "
         "ring that passes flushes the newest record (SDM 17.9 p.17-30: LIFO): that entry reads 0 and TOS "
         "steps back by one (semantics.md 8b); otherwise TOS steps forward mod %d and the entry at TOS takes "
         "FROM (47:0, 62:48 sign extension, 63 mispredicted) and TO (47:0; 63:48 the clocks since the "
         "previous entry was written: each run is one cycle, a pop writes nothing) (semantics.md 5.5)."
         % m.entries]
    ring = Ring(m)
    body = []
    for cycle, run in enumerate(program):
        k = run[0][1] == "sys"
        brs = [cs_branch(kind, src, dst, site, 0 if k else 3) for (kind, src, dst, site) in run]
        ring.capture(sel, brs, cycle)
        body.append(run_line(brs))
    L.append("src TOS %d at the end." % ring.tos)
    L += body + ring.reads() + ["expect-pmi none", "end", ""]
    return L


def callstack_vectors(m):
    if "en_callstack" not in m.layouts["lbr_select"]:
        return []
    out = callstack_vector(m, "lbr_callstack_calls_returns", NESTED[:3], (3,), CALLSTACK_FILTER, True,
                           "SDM call-stack configuration (JCC, NEAR_IND_JMP, NEAR_REL_JMP, FAR_BRANCH and "
                           "EN_CALLSTACK set; calls and returns not filtered), user only: main calls a, a calls b, "
                           "b calls leaf1 and leaf2, which return: their records are popped, main->a and a->b stay; "
                           "a conditional, an indirect and a relative jump and a far branch are filtered, and so "
                           "are the ring-0 calls and return.")
    out += callstack_vector(m, "lbr_callstack_nested", NESTED, (3,), CALLSTACK_FILTER, True,
                            "the same (the ring-0 calls and return are dropped by CPL_EQ_0: nothing pushed or "
                            "popped), then b returns to a (a->b popped) and a calls c: the stack is main->a, a->c.")
    out += callstack_vector(m, "lbr_callstack_off", NESTED, (3,), CALLSTACK_FILTER, False,
                            "the nested program without EN_CALLSTACK: every user call and return is recorded.")
    out += callstack_vector(m, "lbr_callstack_unfiltered", NESTED, (0, 3), [], True,
                            "EN_CALLSTACK without the SDM's filtering (outside the documented configuration; "
                            "pmusim's choice, option lbr_callstack = lifo, semantics.md 8b): every branch is "
                            "pushed and each near return pops whatever record is newest (b's return pops the "
                            "unreturned ring-0 call).")
    return out


def generate(m):
    out = ["# vectors/%s/lbr.sim -- written by scripts/gen-lbr-vectors.py from models/%s.pmu; edit the generator."
           % (m.name, m.name),
           "# LBR vectors (docs/vectors-format.md, 'lbr' record): every filter flag alone, both privilege levels,",
           "# every class at both rings, the ring's wrap, freeze on PMI%s.  Derivation: the generator's docstring."
           % (", call-stack mode" if "en_callstack" in m.layouts["lbr_select"] else ""), ""]
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
    out += callstack_vectors(m)
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

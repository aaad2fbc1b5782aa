#!/usr/bin/env python3
"""Write vectors/<pmu>/events.sim: one simulation vector per event of every
model, proving that the event's own signal counts and that its neighbours
(another unit mask of the same event, another event code, other offcore
request/response bits, a load at the threshold latency) do not.

Reads only the project's own models/*.pmu.  The expected values are derived
from the documented counting rules (docs/semantics.md §2-§5, SDM Vol. 3B
18-4/18-7/18-39), computed here by a small independent implementation of
those rules, never by the project's simulator; every vector's `src` spells
the derivation out.  The stimulus is chosen so that every bit of the event
select (event, umask, usr, os, edge, int, any on SMT parts, en, inv where a
counter mask is set, cmask) and of the extra register changes the expected
outcome; `pmusim conform --mutants` measures that.  The Nehalem/Westmere
uncore (arch x86_uncore: nhm_unc, wsm_unc) follows docs/semantics.md §9: no
privilege filter, one thread, the PMI routed by the stimulus (EN_PMI_CORE0),
OVF_PMI and CHG in its own GLOBAL_STATUS, the fixed counter counting cycles.

Usage: scripts/gen-sim-vectors.py [--models DIR] [--out DIR]
Also refreshes vectors/vectors.gresource.xml's list of .sim/.stim files.
"""
import argparse
import configparser
import glob
import os
import re
import sys

PMUS = ["glm", "wsm", "wsm_dp", "nhm", "nhm_ex", "nhm_unc", "wsm_unc"] + ["nhmex_cbox%d" % i for i in range(8)] + \
    ["montecito", "skl", "icl"]
WIDTH = 48

# The cycle pattern every generated vector uses: (cycles, n0, n1, cpl0, cpl1),
# n = occurrences of the event's own signal per cycle on thread 0 / 1.  Why
# these numbers: n0 > 1 (so c=0 differs from c=1 and from edges), runs of
# zero cycles at CPL 3 and at CPL 0 (inverted thresholds, usr/os), a cycle of
# exactly 16 and one of 200 (cmask bits up to 128), thread 1 active where
# thread 0 is idle or just below a threshold (AnyThread), both CPLs on both
# threads.
PATTERN = [
    (2, 2, 1, 3, 3),
    (1, 0, 3, 3, 3),
    (1, 3, 0, 0, 3),
    (2, 0, 0, 0, 0),
    (1, 1, 2, 3, 0),
    (1, 16, 0, 3, 3),
    (2, 0, 0, 3, 3),
    (1, 200, 5, 0, 0),
    (1, 2, 0, 0, 3),
    (1, 10, 8, 3, 3),
]
# Neighbour signals and non-matching transactions go into the 7th run (2
# cycles where the own signal is idle at CPL 3): were they selected, they
# would change the count whatever the threshold (16 per cycle trips c=1,
# c=16 and inverted thresholds alike).
NEIGH_RUN = 6
NEIGH_N = 16
_first = sum(r[0] for r in PATTERN[:NEIGH_RUN])
NEIGH_CYCLES = "cycles %d-%d" % (_first, _first + PATTERN[NEIGH_RUN][0] - 1)


def pattern_for(cfg):
    """The pattern for one core vector.  A threshold c that no thread-0 value
    of PATTERN equals cannot be told from c+1 (10 and 16 pass or fail both
    alike); so, for such a c (not inverted), cycle 7 (CPL 3) has exactly c
    (a threshold one higher fails it, user mode alone passes it), cycle 11
    (right after the 200 cycle) also c (two passing cycles in a row: an edge
    counts one), and cycle 12 c-1 with 1 on thread 1 (fails alone, passes
    when AnyThread sums the threads).  Run lengths stay, so the cycle numbers
    in the texts do."""
    c = cfg["cmask"]
    if c == 0 or cfg["inv"] or c in {r[1] for r in PATTERN}:
        return PATTERN
    p = list(PATTERN)
    p[5] = (1, c, 0, 3, 3)
    p[8] = (1, c, 0, 0, 3)
    p[9] = (1, c - 1, 1, 3, 3)
    return p


def neigh_n(cfg):
    """Occurrences per cycle of each neighbour signal: at least the threshold,
    so that a neighbour a mutant selects would pass it."""
    return max(NEIGH_N, cfg["cmask"])


def num(s):
    return int(s, 0)


class Umask:
    def __init__(self, name, spec):
        parts = spec.split()
        self.name = name
        self.value = num(parts[0])
        self.flags = set()
        self.forced = {}
        self.group = ""
        self.code = None
        self.counters = None
        self.equiv = None
        for p in parts[1:]:
            if "=" in p:
                k, v = p.split("=", 1)
                if k in ("c", "i", "e", "t"):
                    self.forced[k] = int(v, 0)
                elif k == "group":
                    self.group = v
                elif k == "code":
                    self.code = num(v)
                elif k == "counters":
                    self.counters = num(v)
                elif k == "equiv":
                    self.equiv = v
            else:
                self.flags.add(p)


class Event:
    def __init__(self, name, sec):
        self.name = name
        self.code = num(sec["code"])
        self.base_umask = num(sec.get("base_umask", "0"))
        self.counters = num(sec["counters"]) if "counters" in sec else None
        self.fixed = num(sec.get("fixed", "0"))
        self.flags = set(sec.get("flags", "").split())
        self.extra = sec.get("extra")
        self.match = sec.get("match", "bits")
        self.umasks = [Umask(k[6:], v) for k, v in sec.items() if k.startswith("umask.")]
        self.groups = {"": sec.get("group", "required")}
        # Itanium facts (docs/model-format.md "ia64 models")
        self.max_inc = int(sec.get("max_inc", "1"))
        self.ear = sec.get("ear")
        self.ear_mode = sec.get("ear_mode")
        self.mesi = sec.get("mesi", "false") == "true"
        self.qualifiers = set(sec.get("qualifiers", "").split())
        self.equiv = sec.get("equiv")
        for k, v in sec.items():
            if k.startswith("group."):
                self.groups[k[6:]] = v


def instances_of(spec):
    """[pmu] instances = UNIT:LIST (docs/model-format.md) -> (unit, [n, ...])."""
    unit, _, items = spec.partition(":")
    out = []
    for item in items.split(","):
        lo, _, hi = item.strip().partition("..")
        out += range(int(lo, 0), int(hi or lo, 0) + 1)
    return unit.strip(), out


def model_path(models, pmu):
    """The file that provides PMU `pmu`: models/PMU.pmu, or the file of several
    PMUs ([pmu] instances) whose name_pattern makes it (nhmex.pmu: nhmex_cbox3)."""
    own = os.path.join(models, pmu + ".pmu")
    if os.path.exists(own):
        return own
    for path in sorted(glob.glob(os.path.join(models, "*.pmu"))):
        with open(path) as f:
            text = f.read()
        pat = re.search(r"^name_pattern\s*=\s*(\S+)\s*$", text, re.M)
        if pat and re.fullmatch(re.escape(pat.group(1)).replace("%u", "[0-9]+"), pmu):
            return path
    sys.exit("no model file provides %s in %s" % (pmu, models))


class Model:
    def __init__(self, path, pmu_name=None):
        cp = configparser.ConfigParser(interpolation=None, strict=False, comment_prefixes=("#",),
                                       inline_comment_prefixes=None, delimiters=("=",))
        cp.optionxform = str
        with open(path) as f:
            cp.read_file(f)
        pmu = cp["pmu"]
        self.name = pmu["name"]
        self.smt = pmu.get("smt", "false") == "true"
        self.version = int(pmu.get("version", "0"))
        self.arch = pmu.get("arch", "x86_core")
        self.n_gp = int(pmu["gp_counters"])
        self.instance = int(pmu.get("instance", "0"))
        self.file = os.path.basename(path)
        if "instances" in pmu:
            # one PMU of a file of several: the instance its name stands for
            _, insts = instances_of(pmu["instances"])
            names = {pmu["name_pattern"].replace("%u", str(n)): n for n in insts}
            if pmu_name not in names:
                sys.exit("%s provides %s, not %s" % (path, ", ".join(names), pmu_name))
            self.name, self.instance = pmu_name, names[pmu_name]
        self.counter_base = int(pmu.get("counter_base", "0"))
        self.gp_width = int(pmu.get("gp_width", "48"))
        self.offcore_style = pmu.get("offcore_style")
        self.options = dict(cp["options"]) if cp.has_section("options") else {}
        self.layouts = {}
        self.regs = {}
        self.events = []
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
            elif s.startswith("event "):
                self.events.append(Event(s[6:], cp[s]))
        self.by_name = {e.name: e for e in self.events}

    def field_bits(self, layout, field):
        lo, w = self.layouts[layout][field]
        return ((1 << w) - 1) << lo

    def writable(self, reg):
        return num(self.regs[reg].get("writable", hex((1 << 64) - 1)))


# ---- the documented pipeline (semantics.md §3), per cycle ------------------


def count(cfg, cycles, smt, preload, width=WIDTH):
    """cycles: list of (n0, n1, cpl0, cpl1).  Returns (final value, overflow
    cycles, increments per cycle)."""
    mask = (1 << width) - 1
    ctr = preload
    latch = False
    ovf = []
    incs = []
    for k, (n0, n1, cpl0, cpl1) in enumerate(cycles):
        def qual(cpl):
            return cfg["os"] if cpl == 0 else cfg["usr"]
        if cfg["any"] and smt:
            x0, x1 = (n0 if qual(cpl0) else 0), (n1 if qual(cpl1) else 0)
            # A6: clock events combine the threads with OR, the others SUM
            N = (1 if (x0 or x1) else 0) if cfg.get("or") else x0 + x1
            own = False
        else:
            N = n0
            own = True
        if cfg["cmask"] == 0:
            cond = N > 0
            inc = N
        else:
            cond = N < cfg["cmask"] if cfg["inv"] else N >= cfg["cmask"]
            inc = 1 if cond else 0
        if cfg["edge"]:
            inc = 1 if (cond and not latch) else 0
            latch = cond
        if own and not qual(cpl0):
            inc = 0
        s = ctr + inc
        if s > mask:
            ovf.append(k)
        ctr = s & mask
        incs.append(inc)
    return ctr, ovf, incs


def expand(pattern):
    out = []
    for c, n0, n1, p0, p1 in pattern:
        out.extend([(n0, n1, p0, p1)] * c)
    return out


# ---- choosing the event string ----------------------------------------------


def pick_umasks(ev):
    """The unit masks a plain event string selects: the default of each
    required group, else its first unit mask without forced modifiers."""
    chosen = []
    for g, props in ev.groups.items():
        members = [u for u in ev.umasks if u.group == g and "ldlat" not in u.flags]
        if not members:
            continue
        d = [u for u in members if "default" in u.flags]
        if d:
            chosen.append(d[0])
        elif "required" in props.split():
            plain = [u for u in members if not u.forced and not u.equiv]
            chosen.append(plain[0] if plain else members[0])
    return chosen


def tok_signal(code, umask):
    return "0x%02x.0x%02x" % (code, umask)


class Vec:
    def __init__(self):
        self.lines = []


def stim_runs(pattern, smt, own_tokens, extra_tokens):
    """Run records: own_tokens(n0, n1) -> tokens; extra_tokens(i) -> tokens
    added in the i-th run record."""
    out = []
    for i, (c, n0, n1, p0, p1) in enumerate(pattern):
        toks = ["run", str(c), ("cpl=%d,%d" % (p0, p1)) if smt else ("cpl=%d" % p0)]
        toks += own_tokens(n0, n1)
        toks += extra_tokens(i)
        out.append(" ".join(toks))
    return out


def fmt_seq(vals):
    return "(" + ",".join(str(v) for v in vals) + ")"


def derive_words(cfg, smt):
    parts = []
    if cfg["any"] and smt:
        parts.append("t=1: N = %s over both threads of n gated by each thread's CPL (u/k)"
                     % ("OR (A6 clock event)" if cfg.get("or") else "sum"))
    else:
        parts.append("N = thread-0 n" + (" (t ignored: no SMT)" if cfg["any"] else ""))
    if cfg["cmask"] == 0:
        parts.append("c=0: add N per cycle")
    else:
        parts.append("c=%d%s: 1 per cycle with N %s %d" % (cfg["cmask"], " i=1" if cfg["inv"] else "",
                                                           "<" if cfg["inv"] else ">=", cfg["cmask"]))
    if cfg["edge"]:
        parts.append("e=1: only the rising edge of that condition")
    if not (cfg["any"] and smt):
        parts.append("the increment is kept when thread 0's CPL passes u/k")
    return "; ".join(parts)


def make_vector(m, name, events_str, counter, fixed, cfg, own_tokens, extra_tokens, neighbours_text, own_text):
    pattern = pattern_for(cfg)
    cycles = expand(pattern)
    total, _, incs = count(cfg, cycles, m.smt, 0)
    if total == 0:
        raise SystemExit("%s %s: the pattern gives a zero count" % (m.name, name))
    K = total // 2 + 1 if total >= 2 else total
    preload = (1 << WIDTH) - K
    final, ovf, _ = count(cfg, cycles, m.smt, preload)
    pmi_cycle = ovf[0]
    reg = ("IA32_FIXED_CTR%d" if fixed else "IA32_PMC%d") % counter
    status = 1 << ((32 + counter) if fixed else counter)
    pmi_on = cfg["int"]
    lines = ["vector %s" % name, 'event %d "%s"' % (counter, events_str)]
    thread1 = (", thread 1 n=%s CPL=%s" % (fmt_seq(c[1] for c in cycles), fmt_seq(c[3] for c in cycles))
               if m.smt else " (one thread)")
    src = ("derived (semantics.md §2-§4, SDM 18-4/18-7/18-39): own signal %s per cycle thread 0 n=%s CPL=%s"
           "%s; %s; u=%d k=%d -> increments %s, total %d. %s "
           "Preload 2^48-%d: the carry out of bit 47 comes in cycle %d, so %sGLOBAL_STATUS bit %d, and the "
           "counter ends at %d-%d=%d." % (
               own_text, fmt_seq(c[0] for c in cycles), fmt_seq(c[2] for c in cycles),
               thread1, derive_words(cfg, m.smt),
               cfg["usr"], cfg["os"], fmt_seq(incs), total, neighbours_text, K, pmi_cycle,
               "a PMI then (INT=1) and " if pmi_on else "no PMI (INT=0) but ",
               (32 + counter) if fixed else counter, total, K, final))
    lines.append("src " + src)
    lines.append("write %s 2^48-%d" % (reg, K))
    lines += stim_runs(pattern, m.smt, own_tokens, extra_tokens)
    lines.append("read %s %d" % (reg, final))
    lines.append("read IA32_PERF_GLOBAL_STATUS 0x%x" % status)
    lines.append("expect-pmi %s" % (str(pmi_cycle) if pmi_on else "none"))
    lines.append("end")
    return lines


def clock_or(m, code, umask, fixed_index):
    """semantics.md A6: under AnyThread the cycle events (0x3c/0x00, 0x3c/0x01,
    FIXED_CTR1/2) OR the threads with `clock-or`; `sum` sums everything."""
    mode = m.options.get("anythread_combine", "clock-or")
    if mode != "clock-or":
        return False
    if fixed_index is not None:
        return fixed_index >= 1
    return (code, umask) in ((0x3c, 0x00), (0x3c, 0x01))


def base_cfg():
    return {"usr": 1, "os": 1, "edge": 0, "int": 1, "any": 0, "inv": 0, "cmask": 0}


def lowest_counter(m, ev, umasks):
    allowed = ev.counters if ev.counters is not None else (1 << m.n_gp) - 1
    for u in umasks:
        if u.counters is not None:
            allowed &= u.counters
    allowed &= (1 << m.n_gp) - 1
    if not allowed:
        return None
    return (allowed & -allowed).bit_length() - 1


def neighbour_event(m, ev, code):
    """A real event of the model with another code (its default signal)."""
    for other in m.events:
        if other.code != code and "offcore" not in other.flags and "fixed_only" not in other.flags \
                and other.code not in (0x00,):
            um = pick_umasks(other)
            u = other.base_umask
            c = other.code
            for x in um:
                u |= x.value
                if x.code is not None:
                    c = x.code
            if c != code and c != code ^ 1:
                return other.name, c, u
    return None


def plain_vector(m, ev):
    umasks = pick_umasks(ev)
    code = ev.code
    umask = ev.base_umask
    cfg = base_cfg()
    for u in umasks:
        umask |= u.value
        if u.code is not None:
            code = u.code
        for k, v in u.forced.items():
            cfg[{"c": "cmask", "i": "inv", "e": "edge", "t": "any"}[k]] = v
    counter = lowest_counter(m, ev, umasks)
    if counter is None:
        return None
    cfg["or"] = clock_or(m, code, umask, None)
    estr = "%s::%s" % (m.name, ev.name) + "".join(":" + u.name for u in umasks)
    own = tok_signal(code, umask)
    # Neighbours: another unit mask of the same code (every single bit outside
    # the umask where bits are summed, else another listed unit mask), and
    # another event code.
    neigh = []
    match_exact = ev.match == "exact"
    # A unit mask with a code of its own (icl CPU_CLK_UNHALTED:DISTRIBUTED,
    # 0xec) shares no umask values with its event's others: its neighbours are
    # then the single bits outside it, which neither rule selects and which a
    # mutant adding one of them is caught by under either rule.
    own_code = any(u.code is not None and u.code != ev.code for u in umasks)
    if match_exact and not own_code:
        others = sorted({u.value | ev.base_umask for u in ev.umasks} - {umask})
        neigh += [(code, others[0] if others else umask ^ 0x01)]
    else:
        neigh += [(code, 1 << b) for b in range(8) if not (umask >> b) & 1]
    ne = neighbour_event(m, ev, code)
    if ne:
        neigh.append((ne[1], ne[2]))
    neigh_toks = ["%s=%d" % (tok_signal(c, u), neigh_n(cfg)) for c, u in neigh]

    own_tokens = fixed_own_tokens(m, own)

    def extra_tokens(i):
        return neigh_toks if i == NEIGH_RUN else []
    ntext = ("Neighbours %s occur %d times per cycle in %s (thread 0) and are not selected "
             "(semantics.md §2: %s; another code never) -> add 0." % (
                 ", ".join(tok_signal(c, u) for c, u in neigh), neigh_n(cfg), NEIGH_CYCLES,
                 "exact umask match" if match_exact and not own_code else
                 "bits outside the evtsel umask, selected neither by exact match nor by inclusion" if own_code else
                 "a signal counts when its umask bits lie inside the evtsel umask, these lie outside"))
    return make_vector(m, "ev_" + ev.name.lower(), estr, counter, False, cfg, own_tokens, extra_tokens, ntext,
                       own + (" (code %s)" % hex(code)))


def fixed_own_tokens(m, own):
    """A fixed counter's own signal: thread 0's and thread 1's counts on one
    token where the model has two threads, thread 0's alone otherwise."""
    def own_tokens(n0, n1):
        if n0 == 0 and n1 == 0:
            return []
        return ["%s=%d,%d" % (own, n0, n1)] if m.smt else (["%s=%d" % (own, n0)] if n0 else [])
    return own_tokens


def fixed_only_vector(m, ev):
    fx = ev.fixed
    counter = (fx & -fx).bit_length() - 1
    own = tok_signal(ev.code, ev.base_umask)
    cfg = base_cfg()
    cfg["or"] = clock_or(m, None, None, counter)

    own_tokens = fixed_own_tokens(m, own)

    def extra_tokens(i):
        return ["0x3c.0x00=16", "0xc0.0x00=16"] if i == NEIGH_RUN else []
    ntext = ("FIXED_CTR%d counts only its own signal (semantics.md §2, SDM Table 18-8): 0x3c.0x00 and 0xc0.0x00 "
             "in %s add 0; codes[0]'s usr/os/int become its EN/PMI bits (SDM 18-7)." % (counter, NEIGH_CYCLES))
    return make_vector(m, "ev_" + ev.name.lower(), "%s::%s" % (m.name, ev.name), counter, True, cfg,
                       own_tokens, extra_tokens, ntext, own)


def offcore_vector(m, ev):
    req_members = [u for u in ev.umasks if u.group == "request" and bin(u.value).count("1") == 1
                   and not u.equiv and "ANY" not in u.name]
    R = req_members[0]
    if m.offcore_style == "glm":
        resp = [u for u in ev.umasks if u.name == "L2_HIT"][0]
        xreg = ev.extra
        writable = m.writable(xreg)
        req_bits = [b for b in range(16) if (writable >> b) & 1 and b != 15]
        # transaction response bits: L2_HIT and the snoop bits (ANY_RESPONSE
        # and OUTSTANDING are register features, not responses)
        rsp_bits = [b for b in range(16, 38) if (writable >> b) & 1 and b != 16]
        estr = "%s::%s:%s:%s" % (m.name, ev.name, R.name, resp.name)
    else:
        singles = [u for u in ev.umasks if u.group == "response" and bin(u.value).count("1") == 1
                   and not u.equiv]
        resp = ([u for u in singles if u.name == "LOCAL_DRAM"] or singles)[0]
        req_bits = list(range(0, 8))
        rsp_bits = list(range(8, 16))
        estr = "%s::%s:%s:%s" % (m.name, ev.name, R.name, resp.name)
    S = resp.value
    counter = lowest_counter(m, ev, [R, resp])
    code, umask = ev.code, ev.base_umask
    wrong_req = [1 << b for b in req_bits if (1 << b) != R.value]
    wrong_rsp = [1 << b for b in rsp_bits if (1 << b) != S]
    cfg = base_cfg()

    def own_tokens(n0, n1):
        t = []
        if n0:
            t.append("offcore=0x%x/0x%x*%d" % (R.value, S, n0))
        if n1 and m.smt:
            t.append("offcore=0x%x/0x%x*%d@1" % (R.value, S, n1))
        return t

    def extra_tokens(i):
        if i != NEIGH_RUN:
            return []
        t = ["offcore=0x%x/0x%x*16" % (r, S) for r in wrong_req]
        t += ["offcore=0x%x/0x%x*16" % (R.value, s) for s in wrong_rsp]
        if m.offcore_style == "glm":
            t.append("inflight=0x%x*7" % R.value)
        # a raw signal of the same event code with other umask bits
        t += ["%s=16" % tok_signal(code, 1 << b) for b in range(8) if not (umask >> b) & 1]
        return t
    ntext = ("In " + NEIGH_CYCLES + ", 16 transactions per cycle for every other request bit with response 0x%x "
             "(wrong request) and for every other response bit with request 0x%x (wrong response)%s, and raw "
             "signals 0x%02x.<other umask bits>: none matches MSR %s = 0x%x (%s) -> add 0." % (
                 S, R.value, ", and 7 in-flight requests (OUTSTANDING only)" if m.offcore_style == "glm" else "",
                 code, ev.extra, R.value | S,
                 "SDM Tables 18-21/18-22, semantics.md §5: request bit and L2_HIT/snoop bit must match"
                 if m.offcore_style == "glm" else
                 "SDM Table 18-26, semantics.md §5: a request bit and a response bit must both match"))
    return make_vector(m, "ev_" + ev.name.lower(), estr, counter, False, cfg, own_tokens, extra_tokens, ntext,
                       "transactions request 0x%x response 0x%x" % (R.value, S))


def frontend_vector(m, ev):
    """FRONTEND_RETIRED (0xC6/0x01) with MSR_PEBS_FRONTEND (SDM-2016 18.13.1.4,
    Tables 18-58/18-59, semantics.md §8d) in the IDQ-bubble sub-event (EVTSEL
    0x06), the mode in which every writable MSR bit decides: an instruction
    counts when it was delivered after at least IDQ_Bubble_Length cycles with
    at least IDQ_Bubble_Width of the 4 slots empty.  Own instructions sit
    exactly at the length and width; the neighbours are one cycle shorter, one
    slot narrower, or without a bubble (cache and TLB events only)."""
    u = [x for x in ev.umasks if x.name == "IDQ_2_BUBBLES"][0]
    L = 5
    fe = m.layouts[m.regs[ev.extra]["layout"]]
    W = (u.value >> fe["idq_bubble_width"][0]) & ((1 << fe["idq_bubble_width"][1]) - 1)
    sel = u.value & ((1 << fe["evtsel"][1]) - 1)
    assert sel == 0x06 and W == 2
    msr = u.value | (L << fe["idq_bubble_length"][0])
    estr = "%s::%s:%s:fe_thres=%d" % (m.name, ev.name, u.name, L)
    counter = lowest_counter(m, ev, [u])
    code, umask = ev.code, ev.base_umask
    cfg = base_cfg()
    own = "len%d:width%d" % (L, W)
    neigh = ["len%d:width%d" % (L - 1, W), "len%d:width%d" % (L, W - 1),
             "any_dsb_miss:dsb_miss:l1i_miss:l2_miss:itlb_miss:stlb_miss"]

    def own_tokens(n0, n1):
        return ["fe=%s:x%d" % (own, n0)] if n0 else []

    def extra_tokens(i):
        if i != NEIGH_RUN:
            return []
        return ["fe=%s:x16" % n for n in neigh] + \
            ["%s=16" % tok_signal(code, 1 << b) for b in range(8) if not (umask >> b) & 1]
    ntext = ("%s = 0x%x (%s: EVTSEL 0x06, the IDQ-bubble mode, width %d, fe_thres %d in IDQ_Bubble_Length; "
             "SDM-2016 Table 18-59, semantics.md §8d): an instruction counts when delivered after at least %d "
             "cycles each with at least %d of the 4 slots empty.  In %s, 16 instructions per cycle each of %s "
             "(one cycle too short, one slot too narrow, no bubble: cache/TLB events only) and raw signals "
             "0x%02x.<other umask bits> -> add 0.  The fe= instructions are thread 0's (semantics.md §8d: AnyThread "
             "is ignored for this event, SDM-2016 18.13.1.4), so thread 1's n above has no instructions." % (
                 ev.extra, msr, u.name, W, L, L, W, NEIGH_CYCLES, ", ".join(neigh), code))
    return make_vector(m, "ev_" + ev.name.lower(), estr, counter, False, cfg, own_tokens, extra_tokens, ntext,
                       "retired instructions fe=%s" % own)


def topdown_m_vector(m, ev):
    """TOPDOWN_M:SLOTS on fixed counter 3 (semantics.md §2, §8c: FIXED_CTR3
    counts the signal 0x00.0x04, TOPDOWN.SLOTS, besides the stimulus's
    slots=, which must add up to the slot width and so cannot give the
    pattern's counts)."""
    u = [x for x in ev.umasks if x.name == "SLOTS"][0]
    fx = ev.fixed
    counter = (fx & -fx).bit_length() - 1
    own = tok_signal(ev.code, u.value | ev.base_umask)
    cfg = base_cfg()
    cfg["or"] = clock_or(m, None, None, counter)

    own_tokens = fixed_own_tokens(m, own)
    neigh = ["0x3c.0x00", "0xc0.0x00", "0x00.0x03"]

    def extra_tokens(i):
        return ["%s=16" % n for n in neigh] if i == NEIGH_RUN else []
    ntext = ("FIXED_CTR%d counts only its own signal (semantics.md §2, §8c): %s (the other fixed counters' signals) "
             "in %s add 0; codes[0]'s usr/os/int become its EN/PMI bits (SDM 18-7)." % (
                 counter, ", ".join(neigh), NEIGH_CYCLES))
    lines = make_vector(m, "ev_" + ev.name.lower(), "%s::%s:%s" % (m.name, ev.name, u.name), counter, True, cfg,
                        own_tokens, extra_tokens, ntext, own + " (TOPDOWN.SLOTS)")
    # A tail: one cycle of 5 retiring slots (T1's width) after the pattern.
    # FIXED_CTR3 adds them; SLOTS is no metric, so GLOBAL_CTRL bit 48 stays
    # clear and IA32_PERF_METRICS, frozen (T4) since RESET, reads 0 -- a
    # metric unit mask (0x80..0x83) would have set bit 48 and read 0xff.
    reg = "IA32_FIXED_CTR%d" % counter
    k = max(i for i, l in enumerate(lines) if l.startswith("read %s " % reg))
    final = int(lines[k].split()[2])
    slots = int(m.options.get("slots_width", "5"))
    tail = ["run 1 cpl=3 slots=retiring:%d" % slots, "read %s %d" % (reg, final + slots), "read IA32_PERF_METRICS 0"]
    lines[k + 1:k + 1] = tail
    src = [i for i, l in enumerate(lines) if l.startswith("src ")][-1]
    lines.insert(src + 1, "src Tail: one more CPL 3 cycle of %d retiring slots (semantics.md §8c T1) adds %d to %s "
                 "(%d+%d=%d); SLOTS is no metric, so GLOBAL_CTRL bit 48 stays clear and IA32_PERF_METRICS, frozen "
                 "since RESET (T4), reads 0." % (slots, slots, reg, final, slots, final + slots))
    return lines


def split_n(n, k):
    """n occurrences over k kinds, as evenly as possible, the first kinds
    taking the remainder (zero parts stay out)."""
    return [n // k + (1 if i < n % k else 0) for i in range(k)]


def offcore_snb_vector(m, ev):
    """skl/icl: MSR_OFFCORE_RSP_x with request (15:0), supplier (30:16) and
    snoop (37:31) fields.  SDM 18.9.5 p.18-59 (the layout skl's 18.13.2
    keeps, Tables 18-60..18-62): a valid response is ANY | (OR of supplier
    bits & OR of snoop bits), ANY (bit 16) making the others ignored; so a
    transaction counts when one of its request bits is set in the register
    and either ANY is set or both its supplier bit and its snoop bit are.
    skl's unit masks are the bits of the three groups; icl's are whole
    register values (Intel's OCR MSRValues)."""
    xreg = ev.extra
    lay = m.layouts[m.regs[xreg]["layout"]]
    wr = m.writable(xreg)

    def field(name):
        lo, w = lay[name]
        return [b for b in range(lo, lo + w) if (wr >> b) & 1]
    req_f, sup_f, snp_f = field("request"), field("supplier"), field("snoop")
    any_bit = 16   # SDM Table 18-37 / 18-61: "Any", bit 16, inside the supplier field
    assert any_bit in sup_f

    def bits_of(v, f):
        return [b for b in f if (v >> b) & 1]
    if any(u.group == "request" for u in ev.umasks):
        # skl: one unit mask of each group, each a single bit
        def single(group, prefer=None):
            c = [u for u in ev.umasks if u.group == group and bin(u.value).count("1") == 1 and not u.equiv
                 and "ANY" not in u.name]
            return ([u for u in c if u.name == prefer] or c)[0]
        picked = [single("request"), single("supplier", "L3_MISS_LOCAL"), single("snoop")]
        V = picked[0].value | picked[1].value | picked[2].value
        estr = "%s::%s" % (m.name, ev.name) + "".join(":" + u.name for u in picked)
        what = "unit masks %s = 0x%x | 0x%x | 0x%x" % ("+".join(u.name for u in picked), picked[0].value,
                                                          picked[1].value, picked[2].value)
    else:
        # icl: a whole value; the one with a single request bit, no ANY and
        # the fewest bits (every bit must be needed by some own transaction)
        c = [u for u in ev.umasks if len(bits_of(u.value, req_f)) == 1 and not (u.value >> any_bit) & 1
             and bits_of(u.value, sup_f) and bits_of(u.value, snp_f)]
        u = min(c, key=lambda x: (bin(x.value).count("1"), x.value))
        V = u.value
        estr = "%s::%s:%s" % (m.name, ev.name, u.name)
        what = "unit mask %s = 0x%x (the whole register value)" % (u.name, V)
    R = 1 << bits_of(V, req_f)[0]
    Ss, Ns = bits_of(V, sup_f), bits_of(V, snp_f)
    assert len(bits_of(V, req_f)) == 1 and Ss and Ns and any_bit not in Ss
    # own transaction kinds: every supplier and every snoop bit of V is the
    # one matching bit of some kind, so clearing any of them loses counts
    K = max(len(Ss), len(Ns))
    kinds = [(1 << Ss[i % len(Ss)]) | (1 << Ns[i % len(Ns)]) for i in range(K)]
    S0, N0 = 1 << Ss[0], 1 << Ns[0]
    counter = lowest_counter(m, ev, [])
    code, umask = ev.code, ev.base_umask
    wrong_req = [1 << b for b in req_f if (1 << b) != R]
    wrong_sup = [1 << b for b in sup_f if b not in Ss and b != any_bit]
    wrong_snp = [1 << b for b in snp_f if b not in Ns]
    cfg = base_cfg()

    def own_tokens(n0, n1):
        t = []
        for part, k in zip(split_n(n0, K), kinds):
            if part:
                t.append("offcore=0x%x/0x%x*%d" % (R, k, part))
        for part, k in zip(split_n(n1, K) if m.smt else [], kinds):
            if part:
                t.append("offcore=0x%x/0x%x*%d@1" % (R, k, part))
        return t

    def extra_tokens(i):
        if i != NEIGH_RUN:
            return []
        t = ["offcore=0x%x/0x%x*16" % (r, S0 | N0) for r in wrong_req]
        t += ["offcore=0x%x/0x%x*16" % (R, s | N0) for s in wrong_sup]
        t += ["offcore=0x%x/0x%x*16" % (R, S0 | n) for n in wrong_snp]
        t += ["%s=16" % tok_signal(code, 1 << b) for b in range(8) if not (umask >> b) & 1]
        return t
    ntext = ("%s = 0x%x (%s): request bit 0x%x, supplier bits %s, snoop bits %s, ANY (bit %d) clear. "
             "SDM 18.9.5 p.18-59 (the supplier/snoop layout skl's 18.13.2 keeps), semantics.md §5: a transaction "
             "counts when a request bit matches and ANY is set or both a supplier bit and a snoop bit match. "
             "In %s, 16 transactions per cycle for every other writable request bit with response 0x%x (wrong "
             "request), for every other writable supplier bit but ANY with snoop 0x%x (wrong supplier, right "
             "snoop), for every other writable snoop bit with supplier 0x%x (right supplier, wrong snoop), and raw "
             "signals 0x%02x.<other umask bits>: none matches -> add 0." % (
                 xreg, V, what, R, ",".join(str(b) for b in Ss), ",".join(str(b) for b in Ns), any_bit,
                 NEIGH_CYCLES, S0 | N0, N0, S0, code))
    own = ("transactions request 0x%x with response %s (each cycle's n split over %s as evenly as possible, the "
           "first taking the remainder)" % (R, " or ".join("0x%x" % k for k in kinds),
                                            "these %d kinds" % K if K > 1 else "this one kind")
           if K > 1 else "transactions request 0x%x response 0x%x" % (R, kinds[0]))
    return make_vector(m, "ev_" + ev.name.lower(), estr, counter, False, cfg, own_tokens, extra_tokens, ntext, own)


def ldlat_vector(m, ev):
    u = [x for x in ev.umasks if "ldlat" in x.flags][0]
    T = 32
    estr = "%s::%s:%s:ldlat=%d" % (m.name, ev.name, u.name, T)
    code, umask = ev.code, ev.base_umask | u.value
    counter = lowest_counter(m, ev, [u])
    cfg = base_cfg()
    for k, v in u.forced.items():
        cfg[{"c": "cmask", "i": "inv", "e": "edge", "t": "any"}[k]] = v
    others = sorted({x.value for x in ev.umasks} - {u.value})
    if not others and ev.match != "exact":
        # The only unit mask (skl/icl MEM_TRANS_RETIRED): the single bits outside
        # it, which the inclusion rule (semantics.md §2) never selects.
        others = [1 << b for b in range(8) if not (umask >> b) & 1]

    def own_tokens(n0, n1):
        t = []
        if n0:
            t.append("load=%d*%d" % (T + 1, n0))
        if n1 and m.smt:
            t.append("load=%d*%d@1" % (T + 1, n1))
        return t

    def extra_tokens(i):
        if i != NEIGH_RUN:
            return []
        return ["load=%d*16" % T, "load=%d*2" % (T - 1)] + ["%s=16" % tok_signal(code, o) for o in others]
    ntext = ("Loads of latency %d (equal to the threshold, 16 per cycle) and %d in %s do not count (SDM 18-39: "
             "strictly above PEBS_LD_LAT), nor the other unit masks %s -> add 0." % (
                 T, T - 1, NEIGH_CYCLES, ", ".join(tok_signal(code, o) for o in others)))
    return make_vector(m, "ev_" + ev.name.lower(), estr, counter, False, cfg, own_tokens, extra_tokens, ntext,
                       "loads of latency %d (> ldlat %d)" % (T + 1, T))


# ---- the Nehalem/Westmere uncore (arch x86_uncore, semantics.md §9) --------
#
# Its rules differ from the core's: no USR/OS (every privilege level counts:
# the CPL-0 cycles of the pattern count like the CPL-3 ones), no AnyThread,
# one thread; a counter counts when its EN and GLOBAL_CTRL.EN_PCk (EN_FC0) are
# set; the fixed counter adds 1 per enabled cycle (U-clocks) whatever the
# stimulus; an overflow of a counter whose PMI bit is set also sets OVF_PMI
# (bit 61), and CHG (bit 63) follows every status bit going 0 -> 1 (A21); the
# PMI is recorded only when an EN_PMI_COREn routes it (A15), which no event
# sets: the stimulus writes it.

def unc_reg(m, kind, index=None):
    for name, sec in m.regs.items():
        if sec.get("kind") == kind and (index is None or int(sec.get("index", "0")) == index):
            return name, num(sec["address"])
    raise SystemExit("%s: no register of kind %s%s" % (m.name, kind, "" if index is None else " %d" % index))


def unc_bit(m, layout, field, index=None):
    lo, w = m.layouts[layout][field]
    if index is not None:
        if w == 1:
            return 1 << lo
        return 1 << (lo + index)
    return ((1 << w) - 1) << lo


def unc_make_vector(m, name, estr, counter, fixed, cfg, own_tokens, extra_tokens, neighbours_text, own_text):
    gc_name, _ = unc_reg(m, "global_ctrl")
    st_name, _ = unc_reg(m, "global_status")
    gc_layout = m.regs[gc_name]["layout"]
    st_layout = m.regs[st_name]["layout"]
    if fixed:
        reg, _ = unc_reg(m, "fixed_ctr", counter)
        en_bit = unc_bit(m, gc_layout, "fixed")
        ovf_bit = unc_bit(m, st_layout, "fixed")
        cycles = [(1, 0, c[2], c[3]) for c in expand(PATTERN)]
    else:
        reg, _ = unc_reg(m, "pmc", counter)
        en_bit = unc_bit(m, gc_layout, "pmc", counter)
        ovf_bit = unc_bit(m, st_layout, "pmc", counter)
        cycles = expand(PATTERN)
    route = 1 << m.layouts[gc_layout]["pmi_core"][0]          # EN_PMI_CORE0
    ovf_pmi = unc_bit(m, st_layout, "ovf_pmi")
    chg = unc_bit(m, st_layout, "chg")
    total, _, incs = count(cfg, cycles, False, 0)
    if total == 0:
        raise SystemExit("%s %s: the pattern gives a zero count" % (m.name, name))
    K = total // 2 + 1 if total >= 2 else total
    final, ovf, _ = count(cfg, cycles, False, (1 << WIDTH) - K)
    pmi_cycle = ovf[0]
    status = ovf_bit | (ovf_pmi if cfg["int"] else 0) | chg
    if fixed:
        how = ("the fixed counter adds 1 in every enabled cycle, whatever the stimulus says (it counts U-clocks; "
               "semantics.md §9 'Clock'), so %d cycles add %d" % (len(cycles), total))
    else:
        how = ("no privilege filter: the CPL-0 cycles count like the CPL-3 ones (semantics.md §9, libpfm_intel_nhm_unc(3) "
               "'all privilege levels'); %s -> increments %s, total %d" % (
                   derive_words(cfg, False).split("; the increment")[0], fmt_seq(incs), total))
    src = ("derived (semantics.md §9, §3; SDM 18.8.2 pp.18-42..18-47): own signal %s per cycle n=%s at CPL=%s (one "
           "thread); %s. %s The program step sets %s = 0x%x (EN_%s%d: read back); the stimulus adds EN_PMI_CORE0 "
           "(bit 48, routing: a session's, not an event's). Preload 2^48-%d: the carry out of bit 47 comes in cycle "
           "%d: OVF_%s%d (bit %d)%s and CHG (bit 63, A21) -> status 0x%x; %s; the counter ends at %d-%d=%d." % (
               own_text, fmt_seq(c[0] for c in expand(PATTERN)), fmt_seq(c[2] for c in cycles), how,
               neighbours_text, gc_name, en_bit, "FC" if fixed else "PC", counter, K, pmi_cycle,
               "FC" if fixed else "PC", counter, ovf_bit.bit_length() - 1,
               ", OVF_PMI (bit 61: the %s bit is set)" % ("PMI" if fixed else "INT") if cfg["int"] else "",
               status, "a PMI in that cycle (routed to core 0, A15)" if cfg["int"] else "no PMI (INT=0)",
               total, K, final))
    lines = ["vector %s" % name, 'event %d "%s"' % (counter, estr), "src " + src,
             "read %s 0x%x" % (gc_name, en_bit),
             "write %s 0x%x" % (gc_name, en_bit | route),
             "write %s 2^48-%d" % (reg, K)]
    lines += stim_runs(PATTERN, False, own_tokens, extra_tokens)
    lines.append("read %s %d" % (reg, final))
    lines.append("read %s 0x%x" % (st_name, status))
    lines.append("expect-pmi %s" % (str(pmi_cycle) if cfg["int"] else "none"))
    lines.append("end")
    return lines


def unc_pick_umasks(ev):
    """As pick_umasks, but an event whose groups exclude each other
    (group_excl, UNC_QMC_WRITES) takes the first group only."""
    chosen = pick_umasks(ev)
    if "group_excl" in ev.flags and chosen:
        chosen = [u for u in chosen if u.group == chosen[0].group]
    return chosen


def unc_plain_vector(m, ev):
    umasks = unc_pick_umasks(ev)
    code = ev.code
    umask = ev.base_umask
    cfg = base_cfg()
    for u in umasks:
        umask |= u.value
        if u.forced:
            raise SystemExit("%s %s: forced modifiers on an uncore unit mask" % (m.name, ev.name))
    counter = lowest_counter(m, ev, umasks)
    estr = "%s::%s" % (m.name, ev.name) + "".join(":" + u.name for u in umasks)
    own = tok_signal(code, umask)
    neigh = [(code, 1 << b) for b in range(8) if not (umask >> b) & 1]
    ne = neighbour_event(m, ev, code)
    if ne:
        neigh.append((ne[1], ne[2]))
    neigh_toks = ["%s=%d" % (tok_signal(c, u), NEIGH_N) for c, u in neigh]

    def own_tokens(n0, n1):
        return ["%s=%d" % (own, n0)] if n0 else []

    def extra_tokens(i):
        return neigh_toks if i == NEIGH_RUN else []
    ntext = ("Neighbours %s (every unit-mask bit outside 0x%02x, and %s) occur 16 times per cycle in %s and are "
             "not selected (semantics.md §2: a signal counts when its umask bits lie inside the evtsel umask and "
             "its code is the evtsel's) -> add 0." % (
                 ", ".join(tok_signal(c, u) for c, u in neigh), umask,
                 ("another event code, %s" % ne[0]) if ne else "no other code", NEIGH_CYCLES))
    return unc_make_vector(m, "ev_" + ev.name.lower(), estr, counter, False, cfg, own_tokens, extra_tokens, ntext,
                           own + (" (code %s)" % hex(code)))


def unc_fixed_vector(m, ev):
    fx = ev.fixed
    counter = (fx & -fx).bit_length() - 1
    own = tok_signal(ev.code, ev.base_umask)
    ne = neighbour_event(m, ev, ev.code)
    cfg = base_cfg()

    def own_tokens(n0, n1):
        return ["%s=%d" % (own, n0)] if n0 else []

    def extra_tokens(i):
        return ["%s=16" % tok_signal(ne[1], ne[2])] if i == NEIGH_RUN and ne else []
    ntext = ("The stimulus's 0x%02x occurrences (0 to 200 per cycle) and %s=16 in %s change nothing; codes[0]'s EN "
             "and INT become MSR_UNCORE_FIXED_CTR_CTRL's EN (bit 0) and PMI (bit 2) (program step, semantics.md "
             "§9; SDM Fig 18-29)." % (ev.code, tok_signal(ne[1], ne[2]) if ne else "-", NEIGH_CYCLES))
    return unc_make_vector(m, "ev_" + ev.name.lower(), "%s::%s" % (m.name, ev.name), counter, True, cfg,
                           own_tokens, extra_tokens, ntext, own + " (pseudo code: the fixed counter has no event select)")


# ---- the Xeon 7500 uncore (arch nhmex_cbox, semantics.md §10) --------------
#
# One model per C-Box name, each describing the whole uncore.  A counter of
# the PMU's own box counts when its EVT_SEL.en, the box's GLOBAL_CTL.ctr_en[k]
# and the U-Box's en_all are set (the program step sets all three); no
# privilege filter, one thread; threshold then invert (documented: n < t)
# then edge.  An overflow sets the box's ov[k], the S-Box summary bit of its
# pair and the U-Box's ov_s<sbox>; a PMI needs pmi_en and reaches a core when
# pmi_core_sel is set, which no event does: the stimulus writes it, so that
# a wrong pmi_en shows as a PMI.

def nx_reg(m, kind, unit, instance, index=0):
    for name, sec in m.regs.items():
        if (sec.get("kind") == kind and sec.get("unit") == unit and int(sec.get("instance", "0")) == instance
                and int(sec.get("index", "0")) == index):
            return name
    raise SystemExit("%s: no register of kind %s in %s%d" % (m.name, kind, unit, instance))


def nx_field(m, reg, field, index=None):
    lo, w = m.layouts[m.regs[reg]["layout"]][field]
    return (1 << (lo + index)) if index is not None else ((1 << w) - 1) << lo


def nx_plain_vector(m, ev):
    own_box = m.instance
    umasks = pick_umasks(ev)
    code, umask = ev.code, ev.base_umask
    for u in umasks:
        umask |= u.value
    counter = lowest_counter(m, ev, umasks)
    cfg = base_cfg()
    cfg["int"] = 0                      # pmi=0 unless the string says so
    estr = "%s::%s" % (m.name, ev.name) + "".join(":" + u.name for u in umasks)
    own = tok_signal(code, umask)
    other_box = (own_box + 1) % 8
    neigh = ["%s=%d" % (tok_signal(code, 1 << b), NEIGH_N) for b in range(8) if not (umask >> b) & 1]
    ne = neighbour_event(m, ev, code)
    if ne:
        neigh.append("%s=%d" % (tok_signal(ne[1], ne[2]), NEIGH_N))
    neigh.append("cbox%d/%s=%d" % (other_box, own, NEIGH_N))
    ctl = nx_reg(m, "box_ctrl", "cbox", own_box)
    st = nx_reg(m, "box_status", "cbox", own_box)
    ctr = nx_reg(m, "pmc", "cbox", own_box, counter)
    uctl = nx_reg(m, "global_ctrl", "ubox", 0)
    ust = nx_reg(m, "global_status", "ubox", 0)
    sb = own_box // 4
    ssum = nx_reg(m, "box_status", "sbox", sb)
    en_bit = nx_field(m, ctl, "ctr_en", counter)
    ov_bit = nx_field(m, st, "ov", counter)
    en_all = nx_field(m, uctl, "en_all")
    core0 = 1 << m.layouts[m.regs[uctl]["layout"]]["pmi_core_sel"][0]
    sum_bit = nx_field(m, ssum, "ov_c_l" if own_box % 4 < 2 else "ov_c_r")
    u_bit = nx_field(m, ust, "ov_s%d" % sb)
    cycles = expand(PATTERN)
    total, _, incs = count(cfg, cycles, False, 0)
    K = total // 2 + 1 if total >= 2 else total
    final, ovf, _ = count(cfg, cycles, False, (1 << WIDTH) - K)
    src = ("derived (semantics.md §10, §3; the C-Box register table): own signal %s per cycle n=%s at CPL=%s "
           "(no privilege filter: CPL 0 counts like 3); %s -> increments %s, total %d.  Neighbours %s occur 16 "
           "times per cycle in %s: other unit-mask bits and another code are not selected (semantics.md §2), "
           "and the same signal in C-Box %d is another box's -> add 0.  The program step sets %s = 0x%x "
           "(ctr_en[%d]) and en_all in %s (read back); the stimulus adds pmi_core_sel = core 0 so that a set "
           "pmi_en would show a PMI.  Preload 2^48-%d: the carry out of bit 47 in cycle %d sets %s.ov[%d] = "
           "0x%x, %s bit 0x%x (%s, C-Box %d is in S-Box %d's %s pair) and %s.ov_s%d = 0x%x; pmi_en is 0: no PMI; "
           "the counter ends at %d-%d=%d." % (
               own, fmt_seq(c[0] for c in cycles), fmt_seq(c[2] for c in cycles),
               derive_words(cfg, False).split("; the increment")[0], fmt_seq(incs), total,
               ", ".join(t.split("=")[0] for t in neigh), NEIGH_CYCLES, other_box, ctl, en_bit, counter, uctl, K,
               ovf[0], st, counter, ov_bit, ssum, sum_bit, "ov_c_l" if own_box % 4 < 2 else "ov_c_r", own_box, sb,
               "lower" if own_box % 4 < 2 else "upper", ust, sb, u_bit, total, K, final))
    lines = ["vector ev_" + ev.name.lower(), 'event %d "%s"' % (counter, estr), "src " + src,
             "read %s 0x%x" % (ctl, en_bit),
             "read %s 0x%x" % (uctl, en_all),
             "write %s 0x%x" % (uctl, en_all | core0),
             "write %s 2^48-%d" % (ctr, K)]
    lines += stim_runs(PATTERN, False, lambda n0, n1: ["%s=%d" % (own, n0)] if n0 else [],
                       lambda i: neigh if i == NEIGH_RUN else [])
    lines += ["read %s %d" % (ctr, final), "read %s 0x%x" % (st, ov_bit), "read %s 0x%x" % (ssum, sum_bit),
              "read %s 0x%x" % (ust, u_bit), "expect-pmi none", "end"]
    return lines


# ---- the Itanium 2 9000 Montecito (arch ia64, semantics.md §11) ------------
#
# Counter n (PMCn configuration, PMDn value, 47 bits) adds, per cycle, the
# occurrences of its signal es.umask (the 4-bit umask matched exactly) of
# thread 0 -- or of both threads when all (bit 26) is set on PMC4-7 -- each
# thread's occurrences only at the CPLs whose plm bit is set; thres = 0 adds
# them all, thres = t > 0 adds 1 in a cycle with more than t (thres_compare
# = gt).  The carry out of bit 46 with oi sets PMC0 bit n and fr and raises
# one PMI in that cycle; fr stops every counter from the next cycle.  Reads
# of PMDn copy bit 46 into bits 63:47 (pmd_read_upper = sign_extend).  The
# retired-instruction family (es 0x08, umask k <= 3) counts the signal
# 0x08.0x0 that code-range channel k passes (§11.4).
#
# The stimulus never gives an event more occurrences per cycle than its
# max_inc M (a real event cannot), and the string asks for thres = M - 1 (the
# largest the encoder accepts): only cycles at M count, the edge M - 1 does
# not under gt (it would under ge), and every thres bit flipped changes the
# count.  The default privilege mask is PLM0|PLM3 (docs/montecito.md: the
# string names neither k nor u), so CPL 1 and 2 cycles that do not count show
# the plm1/plm2 bits.  Every string sets oi: the preload makes the carry come
# in the last counting cycle before a final cycle that would count but for
# the freeze.

IA64_REGION = 0x10000          # pair k covers [0x10000*(k+1), +0xffff]
IA64_IBR_MASK = 0x00ffffffffff0000
IA64_PMC38_ALL_ON = 0xdb6 & ~0x492          # reset with ig_ibrp0..3 (bits 1,4,7,10) cleared
IA64_PMC32_RANGES = 0x030f01ffffffffff & ~(3 << 56)   # reset with inv (56) and ig_ad (57) cleared


def ia64_ip(k):
    return IA64_REGION * (k + 1) + 0x120


def ia64_count(cfg, cycles, preload, width):
    """cycles: (n0, n1, cpl0, cpl1, pass0, pass1).  Returns (final, pmc0 bits
    set, pmi cycles, increments)."""
    mask = (1 << width) - 1
    ctr, frozen, pmc0, pmis, incs = preload, False, 0, [], []
    for k, (n0, n1, c0, c1, p0, p1) in enumerate(cycles):
        inc = 0
        if not frozen and cfg["plm"]:
            x0 = n0 if (cfg["plm"] >> c0) & 1 and p0 else 0
            x1 = n1 if (cfg["plm"] >> c1) & 1 and p1 else 0
            N = x0 + (x1 if cfg["all"] else 0)
            inc = N if cfg["thres"] == 0 else (1 if N > cfg["thres"] else 0)
        s = ctr + inc
        if s > mask and cfg["oi"]:
            pmc0 |= 1 | (1 << cfg["counter"])
            pmis.append(k)
        ctr = s & mask
        incs.append(inc)
        if pmc0 & 1:
            frozen = True
    return ctr, pmc0, pmis, incs


def ia64_pattern(M):
    """(cycles, n0, n1, cpl0, cpl1, what) runs; the own signal's counts."""
    return [
        (2, M, 0, 3, 3, "M at CPL 3"),
        (1, M - 1, 0, 3, 3, "the edge M-1 at CPL 3"),
        (1, M, 0, 0, 3, "M at CPL 0"),
        (1, M, 0, 1, 3, "M at CPL 1"),
        (1, M, 0, 2, 3, "M at CPL 2"),
        (1, 0, M, 3, 3, "thread 1 only"),
        (1, 1, 0, 3, 3, "1 at CPL 3"),
        (2, 0, 0, 3, 3, "neighbours"),
        (1, M, M, 0, 0, "M on both threads at CPL 0"),
        (1, M, 0, 3, 3, "after the carry"),
    ]


IA64_NEIGH_RUN = 7


def ia64_neighbours(m, ev, code, umask):
    """Another umask of the same code (an event of the model if there is
    one), and another code (code^1 if the model has it, else the next code)."""
    same = sorted({e.base_umask for e in m.events if e.code == code and e.base_umask != umask})
    if code == 0x08 and umask <= 3:
        # the retired family counts 0x08.0x0: its neighbour is the signal
        # named by its own umask (0x08.0x1-0x3 feed no counter, §11.4)
        same = [umask or 1]
    out = [(code, same[0] if same else umask ^ 1)]
    codes = sorted({e.code for e in m.events if e.code != code})
    other = code ^ 1 if (code ^ 1) in codes else min(codes, key=lambda c: (bin(c ^ code).count("1"), c))
    ou = min(e.base_umask for e in m.events if e.code == other)
    out.append((other, ou))
    return out


def ia64_vector(m, ev):
    counter = (ev.counters & -ev.counters).bit_length() - 1
    M = ev.max_inc
    T = min(M - 1, 7)
    code = ev.code
    umask = 0 if ev.ear else ev.base_umask
    retired = code == 0x08 and umask <= 3
    cfg = {"plm": 0x9, "all": 0, "thres": T, "oi": 1, "counter": counter}
    estr = "montecito::%s%s:oi" % (ev.name, (":thres=%d" % T) if T else "")
    own = tok_signal(0x08, 0) if retired else tok_signal(code, umask)
    neigh = ia64_neighbours(m, ev, code, umask)
    pattern = ia64_pattern(M)
    runs = []          # (cycles, tokens, [(n0, n1, c0, c1, pass0, pass1)])
    for i, (c, n0, n1, c0, c1, what) in enumerate(pattern):
        toks = ["cpl=%d,%d" % (c0, c1)]
        if n0 or n1:
            toks.append("%s=%d,%d" % (own, n0, n1))
        if retired:
            toks.append("ip=0x%x,0x%x" % (ia64_ip(umask), ia64_ip(umask)))
        if i == IA64_NEIGH_RUN:
            toks += ["%s=%d" % (tok_signal(nc, nu), M) for nc, nu in neigh]
        runs.append((c, toks, [(n0, n1, c0, c1, True, True)] * c))
        if i == IA64_NEIGH_RUN and retired:
            # the retired signal on the other channels' addresses, and without any
            for j in range(4):
                if j != umask:
                    runs.append((1, ["cpl=3,3", "%s=%d" % (own, M), "ip=0x%x" % ia64_ip(j)],
                                 [(M, 0, 3, 3, False, False)]))
            runs.append((1, ["cpl=3,3", "%s=%d" % (own, M)], [(M, 0, 3, 3, False, False)]))
    cycles = [x for r in runs for x in r[2]]
    main = cycles[:-1]
    _, _, _, incs = ia64_count(dict(cfg, oi=0), main, 0, m.gp_width)
    K = sum(incs)
    if K == 0:
        raise SystemExit("montecito %s: the pattern gives a zero count" % ev.name)
    preload = (1 << m.gp_width) - K
    final, pmc0, pmis, allincs = ia64_count(cfg, cycles, preload, m.gp_width)
    assert len(pmis) == 1 and pmis[0] < len(cycles) - 1, ev.name
    sx = preload | (((1 << 64) - 1) ^ ((1 << m.gp_width) - 1))      # bit 46 is set: 63:47 copy it
    ntext = ("Neighbours %s occur %d times per cycle in the neighbour cycles and are not selected (§11.2: the "
             "4-bit umask is matched exactly, another code never) -> add 0." % (
                 ", ".join(tok_signal(c, u) for c, u in neigh), M))
    if retired:
        ntext += (" Code ranges (written as a session's, §11.4): IBR%d/IBR%d = 0x%x/0x%x for pair k = 0..3 "
                  "(addresses 0x%x*(k+1) .. +0xffff), PMC38 = 0x%x (ig_ibrp0..3 = 0), PMC32 = 0x%x (ig_ad = inv "
                  "= 0); the own runs carry ip=0x%x (pair %d): umask %d counts 0x08.0x0 that channel %d passes. "
                  "The same signal at pair j's address (j != %d) and without an ip passes no constraining "
                  "channel %d -> add 0." % (
                      0, 1, IA64_REGION, IA64_IBR_MASK, IA64_REGION, IA64_PMC38_ALL_ON, IA64_PMC32_RANGES,
                      ia64_ip(umask), umask, umask, umask, umask, umask))
    thr = ("thres=%d (max_inc %d - 1, gt): 1 per cycle with N > %d, so only cycles at %d count, the edge %d does "
           "not" % (T, M, T, M, M - 1)) if T else "max_inc 1: thres=0 adds N"
    src = ("derived (semantics.md §11.2-§11.3; registers.md 1-3; libpfm_montecito(3) threshold): own signal %s "
           "(PMC%d: es 0x%02x umask 0x%x%s), max_inc %d; runs %s; thread 0 n=%s CPL=%s, thread 1 n=%s CPL=%s. "
           "plm = PLM0|PLM3 (the string names neither k nor u; docs/montecito.md): CPL 1 and 2 do not count; "
           "all = 0: thread 1 does not count; %s -> increments %s, %d before the last cycle. %s "
           "Preload PMD%d = 2^47-%d (reads 0x%x: bits 63:47 copy bit 46); oi: the carry out of bit 46 comes in "
           "cycle %d: PMC0 = fr | bit %d = 0x%x, one PMI then, fr stops the counter from cycle %d, so the last "
           "cycle's increment is lost and PMD%d ends at %d." % (
               own, counter, code, umask, (" (EAR event: its umask goes to %s)" % ev.extra) if ev.ear else "",
               M, "; ".join("%d x %s" % (p[0], p[5]) for p in pattern),
               fmt_seq(c[0] for c in cycles), fmt_seq(c[2] for c in cycles),
               fmt_seq(c[1] for c in cycles), fmt_seq(c[3] for c in cycles),
               thr, fmt_seq(allincs), K, ntext, counter, K, sx, pmis[0], counter, pmc0, pmis[0] + 1, counter,
               final))
    lines = ["vector ev_" + ev.name.lower(), 'event %d "%s"' % (counter, estr), "src " + src]
    if retired:
        for k in range(4):
            lines.append("write ibr:%d 0x%x" % (2 * k, IA64_REGION * (k + 1)))
            lines.append("write ibr:%d 0x%x" % (2 * k + 1, IA64_IBR_MASK))
        lines.append("write pmc:38 0x%x" % IA64_PMC38_ALL_ON)
        lines.append("write pmc:32 0x%x" % IA64_PMC32_RANGES)
    lines.append("write pmd:%d 2^47-%d" % (counter, K))
    lines.append("read pmd:%d 0x%x" % (counter, sx))
    for c, toks, _ in runs:
        lines.append("run %d %s" % (c, " ".join(toks)))
    lines += ["read pmd:%d %d" % (counter, final), "read pmc:0 0x%x" % pmc0]
    if ev.mesi:
        # MESI (semantics.md §11.9): the string names no state, so libpfm sets
        # all four bits 27-30; runs of 1, 2, 4 and 8 cycles in states I, S, E, M
        # make every qualifier bit worth a distinct power of two of the count
        inc = M if T == 0 else 1
        lines[2] += (" MESI tail (semantics.md §11.9; registers.md 3: bits 27-30 = I, S, E, M, all four set when "
                     "the string names none): PMC0 and PMD%d cleared, then M on thread 0 at CPL 3 for 1, 2, 4, 8 "
                     "cycles in states I, S, E, M: %d per cycle -> 15 x %d = %d; each state bit is worth 1, 2, 4 "
                     "or 8 cycles of it." % (counter, inc, inc, 15 * inc))
        lines += ["write pmc:0 0", "write pmd:%d 0" % counter]
        for c, st in ((1, "I"), (2, "S"), (4, "E"), (8, "M")):
            lines.append("run %d cpl=3,3 %s=%d,0 mesi=%s" % (c, own, M, st))
        lines.append("read pmd:%d %d" % (counter, 15 * inc))
    tail, why = ia64_gate_tail(m, counter, own, M, T, ("ip=0x%x,0x%x" % (ia64_ip(umask), ia64_ip(umask)))
                               if retired else None)
    lines[2] += " " + why
    lines += tail
    if ev.ear:
        tail, why = ia64_ear_tail(ev)
        lines[2] += " " + why
        lines += ["write pmc:0 0"] + tail
    # ev (registers.md 3 bit 4; IA64 Table 7-4): the string leaves it 0, so
    # the carry above gives no external notification (ev = 1 would give one)
    lines[2] += (" External visibility (IA64 Table 7-4; semantics.md §11.3): the string leaves ev = 0, so the "
                 "carry gives no external notification (ev = 1 would give one in cycle %d)." % pmis[0])
    lines += ["expect-pmi %d" % pmis[0], "expect-ext none", "end"]
    return lines


# The PSR gate and the instruction-set mask (semantics.md §11.2): a counter
# whose pm is 0 counts a thread's occurrences only while that thread's
# PSR.up is set, one whose pm is 1 only while PSR.pp is set (IA64 Table 7-4,
# semantics reference 8.4); ism (bits 25:24) = 10b counts IA-64 only
# (registers.md 3).  The other ism values follow the model option ism_bits:
# mask -- bit 24 masks IA-64, bit 25 IA-32; enable -- bit 25 enables IA-64,
# bit 24 IA-32.  An event string that is not a system-wide session gets
# pm = 0 and ism = 10b.
IA64_PSR_UP, IA64_PSR_PP = 1, 2
IA64_PSR_TOK = {IA64_PSR_UP | IA64_PSR_PP: "up+pp", IA64_PSR_UP: "up", IA64_PSR_PP: "pp", 0: "none"}


def ia64_gate(m, pm, ism, psr, ia32):
    if not psr & (IA64_PSR_PP if pm else IA64_PSR_UP):
        return False
    if m.options.get("ism_bits", "mask") == "enable":
        return bool((ism >> (0 if ia32 else 1)) & 1)
    return not (ism >> (1 if ia32 else 0)) & 1


def ia64_gate_tail(m, counter, own, M, T, ip_tok):
    """Runs of 1, 2, 4 and 8 cycles (M per cycle on thread 0 at CPL 3) with
    PSR.up clear, PSR.pp clear, both clear, and executing IA-32: each case is
    worth its own power of two of the count, so flipping pm or either ism
    bit changes it.  Returns (lines, src text)."""
    inc = M if T == 0 else 1
    cases = [(1, IA64_PSR_PP, False), (2, IA64_PSR_UP, False), (4, 0, False),
             (8, IA64_PSR_UP | IA64_PSR_PP, True)]
    lines = ["write pmc:0 0", "write pmd:%d 0" % counter]
    total, got = 0, []
    for c, psr, ia32 in cases:
        toks = ["cpl=3,3", "%s=%d,0" % (own, M)] + ([ip_tok] if ip_tok else [])
        if psr != IA64_PSR_UP | IA64_PSR_PP:
            toks.append("psr=" + IA64_PSR_TOK[psr])
        if ia32:
            toks.append("isa=ia32")
        lines.append("run %d %s" % (c, " ".join(toks)))
        yes = ia64_gate(m, 0, 2, psr, ia32)
        total += c * inc if yes else 0
        got.append("yes" if yes else "no")
    lines.append("read pmd:%d %d" % (counter, total))
    why = ("PSR / instruction-set tail (semantics.md §11.2; registers.md 3 pm, ism; IA64 Table 7-4): PMC0 and "
           "PMD%d cleared, then M on thread 0 at CPL 3 for 1 cycle with PSR.up clear (psr=pp), 2 with PSR.pp "
           "clear (psr=up), 4 with both clear, 8 executing IA-32 (isa=ia32): pm = 0 (PSR.up gates), ism = 10b "
           "(IA-64 only) -> counted %s, %d per cycle -> %d. pm = 1 would count the 1-cycle run instead of the "
           "2-cycle one; ism 00 or 11 adds the IA-32 run or drops the IA-64 ones (ism_bits = %s)." % (
               counter, ", ".join(got), inc, total, m.options.get("ism_bits", "mask")))
    return lines, why


# I-EAR cache-mode latency thresholds by PMC37 umask (the L1I_EAR_CACHE_LATn
# events' umasks; 0 = RAB hits only) -- semantics.md §11.10
IA64_IEAR_THR = {0x40: 0, 0xff: 4, 0xfe: 8, 0xfc: 16, 0xf8: 32, 0xf0: 128, 0xe0: 256, 0xc0: 1024, 0x80: 4096}
IA64_TLB_FLAG = {1: "l2", 2: "vhpt", 3: "fault"}


def ia64_ear_tail(ev):
    """EAR tail (semantics.md §11.10): one EAR event per run, the capture
    register read after each, so that every modelled bit of the event's
    PMC37/PMC40 (plm, mode / ct, umask) changes an outcome.  The string's
    plm is PLM0|PLM3.  Returns (lines, src text)."""
    dear = ev.ear == "dear"
    mode = {"cache": 0, "tlb": 1, "alat": 2}[ev.ear_mode]
    um = ev.base_umask
    # candidate events: (cpl, latency, tlb level 0..3, flag: alat (D) / rab (I)) -> captured?
    if dear and mode == 0:
        thr = 4 << um
        cands = [(3, thr, 0, False), (3, thr - 1, 0, False)]
        good = (thr, 0, False)
        rule = "cache mode umask 0x%x: latency >= %d" % (um, thr)
    elif dear and mode == 1:
        cands = [(3, 0, lv, False) for lv in (1, 2, 3)]
        lv = min(l for l in (1, 2, 3) if um & (1 << l))
        good = (0, lv, False)
        rule = "TLB mode umask 0x%x: levels L2 0x2, VHPT 0x4, FAULT 0x8" % um
    elif dear:
        cands = [(3, 0, 0, True), (3, 9000, 3, False)]
        good = (0, 0, True)
        rule = "ALAT mode: ALAT misses only"
    elif mode == 0:
        thr = IA64_IEAR_THR.get(um)
        if um == 0:
            cands = [(3, 0, 0, True), (3, 0, 0, False)]
            good = (0, 0, True)
            rule = "cache mode umask 0: RAB hits only"
        else:
            cands = [(3, thr, 0, False)] + ([(3, thr - 1, 0, False)] if thr else [])
            good = (thr, 0, False)
            rule = "cache mode umask 0x%x: latency >= %d" % (um, thr)
    else:
        cands = [(3, 0, lv, False) for lv in (1, 2, 3)]
        lv = min(l for l in (1, 2, 3) if um & (1 << (l - 1)))
        good = (0, lv, False)
        rule = "TLB mode umask 0x%x: levels L2TLB 0x1, VHPT 0x2, FAULT 0x4" % um
    cands += [(c,) + good for c in (0, 1, 2)]
    # the monitor's PSR gate and (D-EAR) instruction-set mask (semantics.md
    # §11.10): the string's pm = 0 needs PSR.up, ism = 10b IA-64 code
    gates = ["psr=pp"] + (["isa=ia32"] if dear else [])
    cands += [(3,) + good + (g,) for g in gates]

    def captured(cpl, lat, lv, flag, gate=None):
        if gate or not (0x9 >> cpl) & 1:
            return False
        if dear:
            return (lat >= 4 << um if mode == 0 else bool(um & (1 << lv)) if mode == 1 and lv else
                    flag if mode == 2 else False)
        if mode == 0:
            return flag if um == 0 else lat >= IA64_IEAR_THR[um]
        return bool(lv) and bool(um & (1 << (lv - 1)))

    lines, seen, outcome = [], None, []
    for k, cand in enumerate(cands):
        cpl, lat, lv, flag = cand[:4]
        gate = cand[4] if len(cand) > 4 else None
        flags = ([IA64_TLB_FLAG[lv]] if lv else []) + ([("alat" if dear else "rab")] if flag else [])
        if dear:
            da, ip = 0x600000000 + 0x1000 * k, 0x4000000 + 0x40 * k
            tok = "dear=0x%x:0x%x:%d%s" % (da, ip, lat, "".join(":" + f for f in flags))
        else:
            ip = 0x8000000 + 0x100 * k
            tok = "iear=0x%x:%d%s" % (ip, lat, "".join(":" + f for f in flags))
        lines.append("run 1 cpl=%d,3 %s%s" % (cpl, tok, " " + gate if gate else ""))
        if captured(cpl, lat, lv, flag, gate):
            if dear:
                seen = da
                lines.append("read pmd:36 0x%x" % (ip | 8))
            else:
                stat = (3 if flag else 1) if mode == 0 else lv
                seen = ip | stat
                # latency 11:0, ov (bit 12) when it does not fit; TLB mode: 0
                lines.append("read pmd:35 0x%x" % (((lat & 0xfff) | (lat > 0xfff) << 12) if mode == 0 else 0))
            outcome.append("yes")
        else:
            outcome.append("no")
        lines.append("read pmd:%d 0x%x" % (32 if dear else 34, seen or 0))
    why = ("EAR tail (semantics.md §11.10; registers.md %s): PMC0 cleared, then one %s event per run, the "
           "capture register read after each; %s, plm PLM0|PLM3; events (CPL, latency, TLB level, %s) %s -> "
           "captured %s (the last capture stays; PMD%s shows it).") % (
               "7" if dear else "6", "D-EAR" if dear else "I-EAR", rule, "ALAT" if dear else "RAB",
               ", ".join("(%d, %d, %s, %s%s)" % (c[0], c[1], IA64_TLB_FLAG.get(c[2], "L1"), "yes" if c[3] else "no",
                                                ", " + c[4] if len(c) > 4 else "")
                         for c in cands), ", ".join(outcome), "32/36" if dear else "34/35")
    why += (" The monitor's gates (semantics.md §11.10; IA64 Table 7-4): the string's pm = 0 captures only while "
            "PSR.up is set, so the psr=pp event is not captured%s." % (
                ", and ism = 10b only IA-64 code, so the isa=ia32 one is not either" if dear else ""))
    return lines, why


def generate(m):
    of = "models/" + m.file + ("" if m.file == m.name + ".pmu" else " (%s)" % m.name)
    out = ["# vectors/%s/events.sim — one simulation vector per event of %s: its own signal" % (m.name, of),
        "# counts, neighbouring signals do not.  Written by scripts/gen-sim-vectors.py (expected values",
        "# from the documented rules, see each src); format: docs/vectors-format.md.", ""]
    n = 0
    skipped = []
    for ev in m.events:
        if m.arch == "ia64":
            lines = ia64_vector(m, ev)
        elif m.arch == "nhmex_cbox":
            lines = nx_plain_vector(m, ev)
        elif m.arch == "x86_uncore":
            lines = unc_fixed_vector(m, ev) if (ev.counters == 0 and ev.fixed) else unc_plain_vector(m, ev)
        elif ev.extra == "MSR_PEBS_FRONTEND":
            lines = frontend_vector(m, ev)
        elif "metrics" in ev.flags:
            lines = topdown_m_vector(m, ev)
        elif "offcore" in ev.flags and "supplier" in m.layouts.get(m.regs[ev.extra].get("layout", ""), {}) \
                and m.offcore_style != "glm":
            lines = offcore_snb_vector(m, ev)
        elif "offcore" in ev.flags:
            lines = offcore_vector(m, ev)
        elif "ldlat" in ev.flags:
            lines = ldlat_vector(m, ev)
        elif ev.counters == 0 and ev.fixed:
            lines = fixed_only_vector(m, ev)
        else:
            lines = plain_vector(m, ev)
        if lines is None:
            skipped.append(ev.name)
            continue
        out += lines + [""]
        n += 1
    return out, n, skipped


def refresh_gresource(vdir):
    path = os.path.join(vdir, "vectors.gresource.xml")
    with open(path) as f:
        text = f.read()
    keep = [l for l in text.splitlines() if not re.search(r"<file>.*\.(sim|stim)</file>", l)]
    files = sorted(os.path.relpath(p, vdir) for ext in ("sim", "stim")
                   for p in glob.glob(os.path.join(vdir, "*", "*." + ext)))
    idx = max(i for i, l in enumerate(keep) if "<file>" in l or "<gresource " in l)
    keep[idx + 1:idx + 1] = ["    <file>%s</file>" % f for f in files]
    with open(path, "w") as f:
        f.write("\n".join(keep) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--models", default=os.path.join(root, "models"))
    ap.add_argument("--out", default=os.path.join(root, "vectors"))
    ap.add_argument("--pmu", action="append", help="only these PMUs (default: all of the project's)")
    args = ap.parse_args()
    for pmu in args.pmu or PMUS:
        m = Model(model_path(args.models, pmu), pmu)
        if m.options.get("anythread_combine", "clock-or") not in ("sum", "clock-or"):
            sys.exit("%s: the derivation handles anythread_combine = sum or clock-or" % pmu)
        lines, n, skipped = generate(m)
        rel = os.path.join(pmu, "events.sim")
        with open(os.path.join(args.out, rel), "w") as f:
            f.write("\n".join(lines))
        print("%-18s %4d vectors%s" % (rel, n, ("; no counter for " + ", ".join(skipped)) if skipped else ""))
    refresh_gresource(args.out)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Generate models/{glm,wsm,wsm_dp,nhm,nhm_ex,skl,icl}.pmu (format: docs/model-format.md).

Inputs (read only here; the outputs are committed so the project never needs them;
all of them are in the repository, under scripts/data/, see its README.md):
  * Debian's libpfm4 4.13, through scripts/pfm-dump.c (its output is committed
    as scripts/data/libpfm4/pfm-dump.json; --libpfm compiles and runs it
    against the installed libpfm4 instead, LIBPFM_ENCODE_INACTIVE=1): event
    and unit-mask names, codes, defaults, aliases (equiv), and probe
    encodings of every event alone, with each unit mask, with each unit mask
    named three times and with each pair of unit masks.  From the probes we
    derive the unit-mask groups, exclusivity (excl) and forced modifiers
    (c/i/e/t).
  * Intel's event JSON (scripts/data/intel-perfmon): the counters each event
    may use, and a cross-check of the codes.
  * Register facts (addresses, layouts, writable bits) are written below from
    the SDM as summarized in the project's reference notes (semantics.md
    section 1, 2, 4, 5 and its per-part MSR map).

Descriptions are not copied from anywhere: events carry none, registers and
modifiers carry a few words of our own.

usage: scripts/gen-models.py [--reference DIR] [--dump FILE | --libpfm] [--out DIR] [--report FILE]
(defaults: scripts/data, scripts/data/libpfm4/pfm-dump.json, models/,
docs/gen-models-report.txt; --libpfm: run libpfm4 through scripts/pfm-dump.c,
needs libpfm4-dev; scripts/regenerate runs every generator)
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

PMUS = ["glm", "wsm", "wsm_dp", "nhm", "nhm_ex", "skl", "icl"]
# perfmon v4/v5 client cores with 8 counter sets and TSX qualifiers (facts: see registers())
SKL_LIKE = ("skl", "icl")

# part -> Intel JSON file (relative to the intel-perfmon directory)
INTEL_JSON = {
    "glm": "GLM/events/goldmont_core.json",
    "wsm": "WSM-EP-SP/events/WestmereEP-SP_core.json",
    "wsm_dp": "WSM-EP-DP/events/WestmereEP-DP_core.json",
    "nhm": "NHM-EP/events/NehalemEP_core.json",
    "nhm_ex": "NHM-EX/events/NehalemEX_core.json",
    "skl": "SKL/events/skylake_core.json",
    "icl": "ICL/events/icelake_core.json",
}

DESC = {
    "glm": "Intel Goldmont (Atom C3000/Pentium J4000-class) core PMU, perfmon v4",
    "wsm": "Intel Westmere single-socket core PMU, perfmon v3",
    "wsm_dp": "Intel Westmere DP (Xeon 5600) core PMU, perfmon v3",
    "nhm": "Intel Nehalem core PMU, perfmon v3",
    "nhm_ex": "Intel Nehalem-EX (Xeon 7500) core PMU, perfmon v3",
    "skl": "Intel Skylake client (6th generation Core) core PMU, perfmon v4",
    "icl": "Intel Icelake client (10th generation Core) core PMU, perfmon v5",
}

PFM_SUCCESS, PFM_ERR_FEATCOMB, PFM_ERR_UMASK = 0, -5, -6

# Where libpfm4 4.13's code is wrong by Intel's JSON (the authority for codes),
# the model keeps libpfm4's names and takes Intel's encoding.  Each entry is
# listed in docs/libpfm4-differences.md ("Model facts").  Architectural
# encodings libpfm4 uses instead of Intel's model-specific ones (C0H/00H for
# INST_RETIRED:ANY_P, C4H/00H for BR_INST_RETIRED:ALL_BRANCHES) are kept: both
# are valid and the SDM lists the architectural ones.
CORRECTIONS = {
    # glm: libpfm4 puts CPU_CLK_UNHALTED at event code 0x00, where the GP forms
    # are 0x3C (JSON CPU_CLK_UNHALTED.CORE_P 3C/00, .REF 3C/01); CORE and
    # REF_TSC are fixed-counter-only pseudo encodings (JSON "Fixed counter 1/2").
    ("glm", "CPU_CLK_UNHALTED"): {"code": 0x3C},
    ("glm", "CPU_CLK_UNHALTED", "CORE"): {"code": 0x00, "counters": 0, "fixed": 0x2},
    ("glm", "CPU_CLK_UNHALTED", "REF_TSC"): {"code": 0x00, "counters": 0, "fixed": 0x4},
    ("glm", "CPU_CLK_UNHALTED", "CORE_P"): {"fixed": 0x2},
    # nhm: libpfm4 gives FUSIONS_DECODED the code of MACRO_INSTS:DECODED (D0/01);
    # Intel's NHM JSON has MACRO_INSTS.FUSIONS_DECODED at A6/01.
    ("nhm", "MACRO_INSTS", "FUSIONS_DECODED"): {"code": 0xA6},
    # glm RSP_1: libpfm4's table value for L2_MISS_SNP_ANY is bits 33-36
    # (0x1e << 32: sets reserved bit 35, misses NON_DRAM bit 37), unlike RSP_0
    # and unlike its own expansion; SDM/JSON: bits 33, 34, 36, 37.
    ("glm", "OFFCORE_RESPONSE_1", "L2_MISS_SNP_ANY"): {"value": 0x3600000000},
    ("nhm_ex", "MACRO_INSTS", "FUSIONS_DECODED"): {"code": 0xA6},
    # skl: libpfm4 makes UOPS_RETIRED:STALL_CYCLES and TOTAL_CYCLES aliases of
    # ALL (umask 0x01, and TOTAL_CYCLES c=10); Intel's SKL JSON: C2/02 c=1 i=1
    # and C2/02 c=16 i=1, i.e. RETIRE_SLOTS (02H) with the counter mask
    ("skl", "UOPS_RETIRED", "STALL_CYCLES"): {"value": 0x02, "equiv": "RETIRE_SLOTS:c=1:i"},
    ("skl", "UOPS_RETIRED", "TOTAL_CYCLES"): {"value": 0x02, "c": 16, "equiv": "RETIRE_SLOTS:c=16:i"},
    # icl: libpfm4 puts TOPDOWN:BACKEND_BOUND_SLOTS at the pseudo code 0x00
    # (where umask 0x02 is fixed counter 1); JSON TOPDOWN.BACKEND_BOUND_SLOTS A4/02
    ("icl", "TOPDOWN", "BACKEND_BOUND_SLOTS"): {"code": 0xA4},
    # icl: libpfm4 files MEM_LOAD_MISC_RETIRED at C4 (BR_INST_RETIRED's code);
    # JSON MEM_LOAD_MISC_RETIRED.UC D4/04
    ("icl", "MEM_LOAD_MISC_RETIRED"): {"code": 0xD4},
}
PFM_ATTR_UMASK = 1

report = []  # lines for the generator report (differences, oddities)
MOD_CODE = {}  # libpfm4 modifier name -> its attribute index (libpfm4's fstr order)
NCOMBO_COUNT = {}  # pmu -> unit masks libpfm4 refuses to combine (excl or exclusive group)


def note(pmu, msg):
    report.append("%s: %s" % (pmu, msg))


# ---------------------------------------------------------------- libpfm4 ----

def run_dump(script_dir):
    src = os.path.join(script_dir, "pfm-dump.c")
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "pfm-dump")
        subprocess.run(["cc", "-O1", "-o", exe, src, "-lpfm"], check=True)
        env = dict(os.environ, LIBPFM_ENCODE_INACTIVE="1")
        out = subprocess.run([exe] + PMUS, check=True, env=env, stdout=subprocess.PIPE).stdout
    return json.loads(out)


def fstr_umasks(fstr, names):
    """Unit-mask names in a libpfm4 fstr 'pmu::EV:U1:U2:k=1:...'."""
    parts = fstr.split("::", 1)[-1].split(":")[1:]
    return [p for p in parts if "=" not in p and p in names]


class UF:
    def __init__(self, items):
        self.p = {i: i for i in items}

    def find(self, x):
        while self.p[x] != x:
            self.p[x] = self.p[self.p[x]]
            x = self.p[x]
        return x

    def union(self, a, b):
        self.p[self.find(a)] = self.find(b)


def probe(ev, a=None, b=None):
    P = ev["probes"]
    if a is None:
        return P[""]
    if b is None:
        return P[a]
    return P.get(a + ":" + b) or P.get(b + ":" + a)


# ------------------------------------------------------------- intel json ----

def load_intel(refdir, pmu):
    path = os.path.join(refdir, "intel-perfmon", INTEL_JSON[pmu])
    with open(path) as f:
        d = json.load(f)
    evs = d["Events"] if isinstance(d, dict) else d
    by_code = {}
    for e in evs:
        # "0xB7, 0xBB": the offcore events, one entry for both codes
        try:
            codes = [int(c, 16) for c in e["EventCode"].split(",")]
            umask = int(e["UMask"], 16)
        except (KeyError, ValueError):
            continue
        for code in codes:
            by_code.setdefault((code, umask), []).append(e)
    return by_code


def counters_of(entries):
    mask = 0
    for e in entries:
        # Skylake's JSON gives the counters with hyper-threading off (8) as
        # CounterHTOff; the model has all 8 (its smt option hides 4-7)
        c = str(e.get("CounterHTOff") or e.get("Counter", ""))
        if "Fixed" in c:
            continue
        for x in c.split(","):
            x = x.strip()
            if x.isdigit():
                mask |= 1 << int(x)
    return mask


# ------------------------------------------------------------ static facts ---

def flat_equiv(equiv, ums, depth=0):
    """A libpfm4 alias whose parts are aliases themselves, expanded to real
    unit masks as libpfm4 does (skl OFFCORE_RESPONSE L3_HIT = L3_HITMES =
    L3_HITM:L3_HITE:L3_HITS; ITLB_MISSES WALK_ACTIVE = WALK_PENDING:c=1 =
    WALK_DURATION:c=1); the encoder expands one level."""
    by = {u["name"]: u for u in ums}
    out = []
    for part in equiv.split(":"):
        u = by.get(part)
        if u is not None and u["equiv"] and depth < 4:
            out += flat_equiv(u["equiv"], ums, depth + 1).split(":")
        else:
            out.append(part)
    return ":".join(out)


def bits(*idx):
    v = 0
    for i in idx:
        v |= 1 << i
    return v


def header(pmu):
    if pmu in SKL_LIKE:
        # skl: perfmon v4 (libpfm4 pfm_skl_init; SDM 18.13); icl: v5 (Linux
        # intel_pmu_init's v5 features; libpfm4 says 4).  8 counter sets: skl
        # has 8 with HT off (CPUID.0AH:EAX[15:8], SDM Table 35-37), icl 8 per
        # thread (Linux ICL constraint masks 0xff; facts section 4 item 1).
        return [
            ("name", pmu),
            ("desc", DESC[pmu]),
            ("arch", "x86_core"),
            ("version", 4 if pmu == "skl" else 5),
            ("smt", "true"),
            ("gp_counters", 8), ("gp_width", 48),
            ("fixed_counters", 3 if pmu == "skl" else 4), ("fixed_width", 48),
            ("edge_needs_cmask", "true"),
            ("offcore_style", "nhm"),
        ]
    glm = pmu == "glm"
    return [
        ("name", pmu),
        ("desc", DESC[pmu]),
        ("arch", "x86_core"),
        ("version", 4 if glm else 3),
        ("smt", "false" if glm else "true"),
        ("gp_counters", 4), ("gp_width", 48),
        ("fixed_counters", 3), ("fixed_width", 48),
        # The SDM requires CMASK >= 1 with edge on all three (libpfm4 4.13
        # enforces it on nhm/wsm only).
        ("edge_needs_cmask", "true"),
        ("offcore_style", "glm" if glm else "nhm"),
    ]


OPTIONS = [
    ("# What-if switches read by the simulator (semantics.md section 6).", None),
    ("cpl_gate", "post"),
    ("global_ctrl_reset", "gp"),
    ("anythread_combine", "clock-or"),
]



def lbr_options(pmu):
    """semantics.md A13: on NHM/WSM the jump bits of LBR_SELECT also gate the
    calls and returns (SDM Table 17-12's exceptions; Linux nhm_lbr_sel_map);
    glm has the SNB/HSW meaning (Table 17-13)."""
    return [("# nhm | snb: how LBR_SELECT's jump bits treat calls and returns (A13)", None),
            ("lbr_jmp_rule", "nhm" if pmu.startswith(("nhm", "wsm")) else "snb")]


def smt_options(pmu):
    """skl: 4 counters per thread with hyper-threading, 8 without (libpfm4
    intel_skl_support.num_cntrs comment, SDM Table 35-37 GLOBAL_STATUS bits
    4-7 'if CPUID.0AH:EAX[15:8] > 4..7'); the simulator reads the switch."""
    if pmu != "skl":
        return []
    return [("# on: hyper-threading on, only counters 0-3 exist for software; off: all 8", None),
            ("smt", "on")]


def layouts(pmu):
    if pmu in SKL_LIKE:
        return layouts_skl(pmu)
    glm = pmu == "glm"
    L = {}
    L["evtsel"] = [("event", "7:0"), ("umask", "15:8"), ("usr", "16"), ("os", "17"),
                   ("edge", "18"), ("pc", "19"), ("int", "20"), ("any", "21"),
                   ("en", "22"), ("inv", "23"), ("cmask", "31:24")]
    f = []
    for i in range(3):
        f += [("en%d" % i, "%d:%d" % (4 * i + 1, 4 * i)), ("any%d" % i, str(4 * i + 2)),
              ("pmi%d" % i, str(4 * i + 3))]
    L["fixed_ctrl"] = f
    L["global_ctrl"] = [("pmc", "3:0"), ("fixed", "34:32")]
    st = [("pmc", "3:0"), ("fixed", "34:32")]
    if glm:
        st += [("trace_topa_pmi", "55"), ("lbr_frz", "58"), ("ctr_frz", "59"), ("asci", "60")]
    else:
        st += [("ovf_uncore", "61")]
    st += [("ovf_buf", "62"), ("cond_chgd", "63")]
    L["global_status"] = st
    if glm:
        L["offcore"] = [("request", "15:0"), ("supplier", "30:16"), ("snoop", "37:31"),
                        ("outstanding", "38")]
        L["pebs_enable"] = [("pebs_en", "0")]
    else:
        L["offcore"] = [("request", "7:0"), ("response", "15:8")]
        L["pebs_enable"] = [("pebs_en", "3:0"), ("ll_en", "35:32")]
        L["ld_lat"] = [("threshold", "15:0")]
    lbr = [("cpl_eq_0", "0"), ("cpl_neq_0", "1"), ("jcc", "2"), ("near_rel_call", "3"),
           ("near_ind_call", "4"), ("near_ret", "5"), ("near_ind_jmp", "6"),
           ("near_rel_jmp", "7"), ("far_branch", "8")]
    if glm:
        lbr.append(("en_callstack", "9"))
    L["lbr_select"] = lbr
    dbg = [("lbr", "0"), ("btf", "1"), ("tr", "6"), ("bts", "7"), ("btint", "8"),
           ("bts_off_os", "9"), ("bts_off_usr", "10"), ("freeze_lbrs_on_pmi", "11"),
           ("freeze_perfmon_on_pmi", "12")]
    if not glm:
        dbg.append(("uncore_pmi_en", "13"))
    dbg.append(("freeze_while_smm_en", "14"))
    L["debugctl"] = dbg
    # LBR entries (SDM 17.7 Tables 17-8..17-10; semantics.md 5.5): FROM_IP in
    # the format PERF_CAPABILITIES.lbr_fmt names (nhm/wsm 000011b, 64-bit EIP
    # with flags: bit 63 = mispredicted); glm 000110b keeps bit 63 and puts an
    # elapsed-cycle count in TO_IP[63:48] instead of the sign extension.
    L["lbr_from"] = [("address", "47:0"), ("sign_ext", "62:48"), ("mispred", "63")]
    L["lbr_to"] = [("address", "47:0"), ("cycle_count" if glm else "sign_ext", "63:48")]
    L["lbr_tos"] = [("tos", "4:0" if glm else "3:0")]
    L["perf_capabilities"] = [("lbr_fmt", "5:0"), ("pebs_trap", "6"), ("pebs_arch_reg", "7"),
                              ("pebs_rec_fmt", "11:8"), ("smm_freeze", "12"),
                              ("full_width_write", "13")]
    return L


def layouts_skl(pmu):
    """skl and icl (facts: SDM-2016 18.11.5.1, 18.13, Tables 18-59..18-62 and
    35-37; Linux perf_event.h / msr-index.h for what the 2016 SDM lacks)."""
    icl = pmu == "icl"
    nfix = 4 if icl else 3
    L = {}
    # IN_TX bit 32, IN_TXCP bit 33 (SDM 18.11.5.1)
    L["evtsel"] = [("event", "7:0"), ("umask", "15:8"), ("usr", "16"), ("os", "17"),
                   ("edge", "18"), ("pc", "19"), ("int", "20"), ("any", "21"),
                   ("en", "22"), ("inv", "23"), ("cmask", "31:24"), ("in_tx", "32"), ("in_txcp", "33")]
    f = []
    for i in range(nfix):
        f += [("en%d" % i, "%d:%d" % (4 * i + 1, 4 * i)), ("any%d" % i, str(4 * i + 2)),
              ("pmi%d" % i, str(4 * i + 3))]
    L["fixed_ctrl"] = f
    fixed = "35:32" if icl else "34:32"
    L["global_ctrl"] = [("pmc", "7:0"), ("fixed", fixed)] + ([("perf_metrics", "48")] if icl else [])
    # v4 status bits (SDM Table 35-37); icl adds PERF_METRICS_OVF 48 (Linux
    # GLOBAL_STATUS_PERF_METRICS_OVF_BIT)
    st = [("pmc", "7:0"), ("fixed", fixed)] + ([("perf_metrics", "48")] if icl else [])
    st += [("trace_topa_pmi", "55"), ("lbr_frz", "58"), ("ctr_frz", "59"), ("asci", "60"),
           ("ovf_uncore", "61"), ("ovf_buf", "62"), ("cond_chgd", "63")]
    L["global_status"] = st
    # SDM 18.13.2: request 15:0, supplier 30:16, snoop 37:31
    L["offcore"] = [("request", "15:0"), ("supplier", "30:16"), ("snoop", "37:31")]
    L["pebs_enable"] = [("pebs_en", "7:0" if icl else "3:0"), ("ll_en", "35:32")]
    L["ld_lat"] = [("threshold", "15:0")]
    # SDM Table 18-59
    L["pebs_frontend"] = [("evtsel", "7:0"), ("idq_bubble_length", "19:8"), ("idq_bubble_width", "22:20")]
    L["lbr_select"] = [("cpl_eq_0", "0"), ("cpl_neq_0", "1"), ("jcc", "2"), ("near_rel_call", "3"),
                       ("near_ind_call", "4"), ("near_ret", "5"), ("near_ind_jmp", "6"),
                       ("near_rel_jmp", "7"), ("far_branch", "8"), ("en_callstack", "9")]
    L["debugctl"] = [("lbr", "0"), ("btf", "1"), ("tr", "6"), ("bts", "7"), ("btint", "8"),
                     ("bts_off_os", "9"), ("bts_off_usr", "10"), ("freeze_lbrs_on_pmi", "11"),
                     ("freeze_perfmon_on_pmi", "12"), ("uncore_pmi_en", "13"), ("freeze_while_smm_en", "14"),
                     ("rtm_debug", "15")]
    # LBR format 5 (LBR_FORMAT_INFO): the flags live in MSR_LBR_INFO_x
    # (msr-index.h LBR_INFO_*); FROM keeps glm's mispred field for the
    # simulator's LBR, which reads it there
    L["lbr_from"] = [("address", "47:0"), ("sign_ext", "62:48"), ("mispred", "63")]
    L["lbr_to"] = [("address", "47:0"), ("sign_ext", "63:48")]
    L["lbr_info"] = [("cycles", "15:0"), ("tsx_abort", "61"), ("in_tx", "62"), ("mispred", "63")]
    L["lbr_tos"] = [("tos", "4:0")]
    cap = [("lbr_fmt", "5:0"), ("pebs_trap", "6"), ("pebs_arch_reg", "7"), ("pebs_rec_fmt", "11:8"),
           ("smm_freeze", "12"), ("full_width_write", "13")]
    if icl:
        cap += [("pebs_baseline", "14"), ("perf_metrics_available", "15")]
    L["perf_capabilities"] = cap
    if icl:
        # Linux INTEL_TD_METRIC_*: 8-bit fractions of the slots
        L["perf_metrics"] = [("retiring", "7:0"), ("bad_spec", "15:8"), ("fe_bound", "23:16"),
                             ("be_bound", "31:24")]
    return L


def registers_skl(pmu, reg):
    icl = pmu == "icl"
    nfix = 4 if icl else 3
    ctr48 = (1 << 48) - 1
    for i in range(8):
        # IN_TXCP only on IA32_PERFEVTSEL2 (SDM 18.11.5.1)
        reg("IA32_PERFEVTSEL%d" % i, 0x186 + i, "evtsel", i,
            writable=0x3FFFFFFFF if i == 2 else 0x1FFFFFFFF, layout="evtsel")
    for i in range(8):
        reg("IA32_PMC%d" % i, 0xC1 + i, "pmc", i, width=48)
    for i in range(8):
        reg("IA32_A_PMC%d" % i, 0x4C1 + i, "a_pmc", i, width=48, writable=ctr48)
    for i in range(nfix):
        # IA32_FIXED_CTR3 0x30C: TOPDOWN.SLOTS (Linux MSR_ARCH_PERFMON_FIXED_CTR3)
        reg("IA32_FIXED_CTR%d" % i, 0x309 + i, "fixed_ctr", i, width=48, writable=ctr48)
    # lbr_fmt 5 (Linux LBR_FORMAT_INFO for skl/icl client), PEBS record
    # format 3 on skl (Linux pebs_record_skl) and 4 (adaptive) on icl,
    # full-width writes; icl: PERF_METRICS available (bit 15)
    cap = bits(13) | 5 | (3 << 8 if not icl else 4 << 8 | bits(14, 15))
    reg("IA32_PERF_CAPABILITIES", 0x345, "perf_capabilities", readonly=True, reset=cap,
        layout="perf_capabilities")
    reg("IA32_FIXED_CTR_CTRL", 0x38D, "fixed_ctrl", writable=0xFFFF if icl else 0xFFF, layout="fixed_ctrl")
    fixed = ((1 << nfix) - 1) << 32
    metrics = bits(48) if icl else 0
    reg("IA32_PERF_GLOBAL_STATUS", 0x38E, "global_status", readonly=True, layout="global_status")
    reg("IA32_PERF_GLOBAL_CTRL", 0x38F, "global_ctrl", writable=0xFF | fixed | metrics, layout="global_ctrl")
    reg("IA32_PERF_GLOBAL_STATUS_RESET", 0x390, "global_status_reset",
        writable=0xFF | fixed | metrics | bits(55, 58, 59, 60, 61, 62, 63), layout="global_status")
    reg("IA32_PERF_GLOBAL_STATUS_SET", 0x391, "global_status_set",
        writable=0xFF | fixed | metrics | bits(55, 58, 59, 60, 61, 62), layout="global_status")
    reg("IA32_PERF_GLOBAL_INUSE", 0x392, "global_inuse", readonly=True)
    if icl:
        reg("IA32_PERF_METRICS", 0x329, "perf_metrics", writable=0xFFFFFFFF, layout="perf_metrics")
    # valid masks: Linux intel_skl_extra_regs / intel_icl_extra_regs
    rsp = 0x3FFFFFBFFF if icl else 0x3FFFFF8FFF
    reg("MSR_OFFCORE_RSP_0", 0x1A6, "offcore_rsp", 0, writable=rsp, layout="offcore")
    reg("MSR_OFFCORE_RSP_1", 0x1A7, "offcore_rsp", 1, writable=rsp, layout="offcore")
    reg("MSR_LBR_SELECT", 0x1C8, "lbr_select", writable=0x3FF, layout="lbr_select")
    reg("MSR_LASTBRANCH_TOS", 0x1C9, "lbr_tos", writable=0x1F, layout="lbr_tos")
    for i in range(32):
        reg("MSR_LASTBRANCH_%d_FROM_IP" % i, 0x680 + i, "lbr_from", i, layout="lbr_from")
    for i in range(32):
        reg("MSR_LASTBRANCH_%d_TO_IP" % i, 0x6C0 + i, "lbr_to", i, layout="lbr_to")
    for i in range(32):
        reg("MSR_LBR_INFO_%d" % i, 0xDC0 + i, "lbr_info", i, layout="lbr_info")
    reg("IA32_DEBUGCTL", 0x1D9, "debugctl", writable=bits(0, 1, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
        layout="debugctl")
    reg("IA32_PEBS_ENABLE", 0x3F1, "pebs_enable", writable=(0xFF if icl else 0xF) | 0xF00000000,
        layout="pebs_enable")
    reg("MSR_PEBS_LD_LAT", 0x3F6, "pebs_ld_lat", writable=0xFFFF, layout="ld_lat")
    # Linux INTEL_UEVENT_EXTRA_REG(0x01c6, MSR_PEBS_FRONTEND, 0x7fff17, FE)
    reg("MSR_PEBS_FRONTEND", 0x3F7, "pebs_frontend", writable=0x7FFF17, layout="pebs_frontend")


def registers(pmu):
    glm = pmu == "glm"
    R = []

    def reg(name, addr, kind, index=None, width=None, writable=None, reset=None,
            readonly=False, layout=None):
        R.append((name, addr, kind, index, width, writable, reset, readonly, layout))

    if pmu in SKL_LIKE:
        registers_skl(pmu, reg)
        return R
    ctr48 = (1 << 48) - 1
    for i in range(4):
        reg("IA32_PERFEVTSEL%d" % i, 0x186 + i, "evtsel", i, writable=0xFFFFFFFF, layout="evtsel")
    for i in range(4):
        # legacy writes: the simulator sign-extends bit 31 (semantics.md 3.2)
        reg("IA32_PMC%d" % i, 0xC1 + i, "pmc", i, width=48)
    if glm:
        for i in range(4):
            reg("IA32_A_PMC%d" % i, 0x4C1 + i, "a_pmc", i, width=48, writable=ctr48)
    for i in range(3):
        reg("IA32_FIXED_CTR%d" % i, 0x309 + i, "fixed_ctr", i, width=48, writable=ctr48)
    # PEBS_REC_FMT (bits 11:8), the record layout sim/pebs.c writes: 1 on NHM/WSM (SDM Vol. 3B
    # PEBS record format of the Core i7, as issue 8 cites it); 0011b on GLM (SDM 18.7.1 p.667-668,
    # Table 18-20; docs/semantics.md §8a).
    # lbr_fmt (bits 5:0): 000011b on nhm/wsm, 000110b on glm (semantics.md §8b, reference 5.5)
    pebs_rec_fmt = 3 if glm else 1
    lbr_fmt = 0x6 if glm else 0x3
    reg("IA32_PERF_CAPABILITIES", 0x345, "perf_capabilities", readonly=True,
        reset=(bits(13) if glm else 0) | pebs_rec_fmt << 8 | lbr_fmt, layout="perf_capabilities")
    reg("IA32_FIXED_CTR_CTRL", 0x38D, "fixed_ctrl", writable=0xFFF, layout="fixed_ctrl")
    reg("IA32_PERF_GLOBAL_STATUS", 0x38E, "global_status", readonly=True, layout="global_status")
    reg("IA32_PERF_GLOBAL_CTRL", 0x38F, "global_ctrl", writable=0x70000000F, layout="global_ctrl")
    if glm:
        reg("IA32_PERF_GLOBAL_STATUS_RESET", 0x390, "global_status_reset",
            writable=0x70000000F | bits(55, 58, 59, 60, 61, 62, 63), layout="global_status")
        reg("IA32_PERF_GLOBAL_STATUS_SET", 0x391, "global_status_set",
            writable=0x70000000F | bits(55, 58, 59, 60, 61, 62), layout="global_status")
        reg("IA32_PERF_GLOBAL_INUSE", 0x392, "global_inuse", readonly=True)
    else:
        reg("IA32_PERF_GLOBAL_OVF_CTRL", 0x390, "global_ovf_ctrl",
            writable=0x70000000F | bits(61, 62, 63), layout="global_status")
    if glm:
        reg("MSR_OFFCORE_RSP_0", 0x1A6, "offcore_rsp", 0, writable=0x760005FFBF, layout="offcore")
        reg("MSR_OFFCORE_RSP_1", 0x1A7, "offcore_rsp", 1, writable=0x360005FFBF, layout="offcore")
    else:
        reg("MSR_OFFCORE_RSP_0", 0x1A6, "offcore_rsp", 0, writable=0xFFFF, layout="offcore")
        if pmu.startswith("wsm"):
            reg("MSR_OFFCORE_RSP_1", 0x1A7, "offcore_rsp", 1, writable=0xFFFF, layout="offcore")
    reg("MSR_LBR_SELECT", 0x1C8, "lbr_select", writable=0x3FF if glm else 0x1FF, layout="lbr_select")
    # The LBR stack: 16 entries on nhm/wsm, 32 on glm (semantics.md 5.5), R/W
    reg("MSR_LASTBRANCH_TOS", 0x1C9, "lbr_tos", writable=0x1F if glm else 0xF, layout="lbr_tos")
    for i in range(32 if glm else 16):
        reg("MSR_LASTBRANCH_%d_FROM_IP" % i, 0x680 + i, "lbr_from", i, layout="lbr_from")
    for i in range(32 if glm else 16):
        reg("MSR_LASTBRANCH_%d_TO_IP" % i, 0x6C0 + i, "lbr_to", i, layout="lbr_to")
    reg("IA32_DEBUGCTL", 0x1D9, "debugctl",
        writable=bits(0, 1, 6, 7, 8, 9, 10, 11, 12, 14) | (0 if glm else bits(13)), layout="debugctl")
    reg("IA32_PEBS_ENABLE", 0x3F1, "pebs_enable", writable=0x1 if glm else 0xF0000000F,
        layout="pebs_enable")
    if not glm:
        reg("MSR_PEBS_LD_LAT", 0x3F6, "pebs_ld_lat", writable=0xFFFF, layout="ld_lat")
    return R


def modifiers(pmu, pfm_mods):
    """In libpfm4's fstr order (taken from the dump), with our own descriptions."""
    table = {
        "k": ("bool", None, "evtsel", "os", "count at privilege level 0"),
        "u": ("bool", None, "evtsel", "usr", "count at privilege levels 1 to 3"),
        "e": ("bool", None, "evtsel", "edge", "count rising edges of the condition"),
        "i": ("bool", None, "evtsel", "inv", "invert the counter-mask comparison"),
        "c": ("int", "0:255", "evtsel", "cmask", "counter mask: count cycles with at least this many events"),
        "t": ("bool", None, "evtsel", "any", "count events of both hardware threads of the core"),
        # SDM: the smallest legal threshold is 3 (libpfm4 4.13 accepts 1..65535)
        "ldlat": ("int", "3:65535", "pebs_ld_lat", "threshold", "load latency threshold in core cycles"),
        "intx": ("bool", None, "evtsel", "in_tx", "count only inside transactional regions"),
        "intxcp": ("bool", None, "evtsel", "in_txcp", "drop the counts of transactional regions that abort"),
        "fe_thres": ("int", "1:4095", "pebs_frontend", "idq_bubble_length",
                     "front-end latency threshold in cycles (MSR_PEBS_FRONTEND)"),
    }
    if pmu in SKL_LIKE:
        # libpfm4 (pfmlib_intel_x86.c) and Linux's mem-loads take 1..65535
        # here; the 2016 SDM's Skylake section names no higher minimum
        table["ldlat"] = ("int", "1:65535") + table["ldlat"][2:]
    return [(m,) + table[m] for m in pfm_mods]


# ----------------------------------------------------------------- events ----

def offcore_group(pmu, value):
    if pmu == "icl":
        # libpfm4's icl unit masks are whole register values (request,
        # supplier and snoop in one), one of them at a time
        return ""
    if pmu in ("glm", "skl"):
        if value & 0xFFFF:
            return "request"
        if value & (1 << 38) and pmu == "glm":
            return "supplier"     # OUTSTANDING replaces the response part
        if value & 0x7FFF0000:
            return "supplier"
        return "snoop"
    return "request" if value & 0xFF else "response"


def derive_event(pmu, ev, intel, fixed_map):
    """-> dict with the model facts of one libpfm4 event."""
    name = ev["name"]
    raw = int(ev["code"], 16)
    code, base = raw & 0xFF, (raw >> 8) & 0xFF
    if ev["equiv"] and not any(a["type"] == PFM_ATTR_UMASK for a in ev["attrs"]):
        # An alias: libpfm4 encodes its expansion, so record that encoding
        # (its own table code can differ: wsm BRANCH_INSTRUCTIONS_RETIRED).
        r = probe(ev)
        if r[0] == PFM_SUCCESS:
            c0 = int(r[1][0], 16)
            if (c0 & 0xFFFF) != (raw & 0xFFFF):
                note(pmu, "alias %s: table code 0x%04x, libpfm4 encodes its expansion %s as 0x%04x"
                     % (name, raw & 0xFFFF, ev["equiv"], c0 & 0xFFFF))
            code, base = c0 & 0xFF, (c0 >> 8) & 0xFF
            # skl CPU_CLK_UNHALTED = CPU_CLK_THREAD_UNHALTED, which libpfm4
            # encodes and prints with its default THREAD_P: the alias names it
            head = r[2].split("::", 1)[-1].split(":")
            parts = [x for x in head[1:] if "=" not in x]
            if pmu in SKL_LIKE and head[0] == ev["equiv"] and parts:
                ev = dict(ev, equiv=":".join([ev["equiv"]] + parts))
    fix = CORRECTIONS.get((pmu, name), {})
    if "code" in fix:
        note(pmu, "%s: event code 0x%02x from Intel's JSON (libpfm4 4.13: 0x%02x)" % (name, fix["code"], code))
        code = fix["code"]
    ums = [a for a in ev["attrs"] if a["type"] == PFM_ATTR_UMASK]
    mods = [a["name"] for a in ev["attrs"] if a["type"] != PFM_ATTR_UMASK]
    MOD_CODE.update((a["name"], int(a["code"], 16)) for a in ev["attrs"] if a["type"] != PFM_ATTR_UMASK)
    names = [u["name"] for u in ums]
    # icl OCR is OFFCORE_RESPONSE_0 under another name, unit masks and all
    offcore = name.startswith("OFFCORE_RESPONSE") or (ev["equiv"] or "").startswith("OFFCORE_RESPONSE")
    # FRONTEND_RETIRED: its unit masks are MSR_PEBS_FRONTEND values (SDM
    # 18.13.1.4), like an offcore event's are its RSP register's
    frontend = "fe_thres" in mods
    extra_val = offcore or frontend
    out = {"name": name, "code": code, "base": base, "flags": [], "extra": None,
           "equiv": ev["equiv"] or None, "umasks": [], "groups": [], "mods": mods}
    if ev["precise"]:
        out["flags"].append("pebs")
    if offcore:
        out["flags"].append("offcore")
        out["extra"] = "MSR_OFFCORE_RSP_%s" % (ev["equiv"] or name)[-1]
    if "ldlat" in mods:
        out["flags"].append("ldlat")
        out["extra"] = "MSR_PEBS_LD_LAT"
    if frontend:
        out["extra"] = "MSR_PEBS_FRONTEND"

    # value and forced modifiers of each umask, from its own probe
    info = {}
    probe_code = {}
    for u in ums:
        r = probe(ev, u["name"])
        value = int(u["code"], 16)
        forced = {}
        if r[0] == PFM_SUCCESS:
            c0 = int(r[1][0], 16)
            if extra_val:
                value = int(u["code"], 16)
            else:
                value = ((c0 >> 8) & 0xFF) & ~base
            if (c0 & 0xFF) != code and "code" not in fix:
                note(pmu, "%s:%s encodes event code 0x%x, not 0x%x" % (name, u["name"], c0 & 0xFF, code))
                if pmu in SKL_LIKE and not offcore:
                    # libpfm4's umask word carries its own code (icl
                    # INST_RETIRED:PREC_DIST 0x100, TOPDOWN:SLOTS_P 0x1a4)
                    probe_code[u["name"]] = c0 & 0xFF
            for key, shift, width in (("c", 24, 8), ("i", 23, 1), ("e", 18, 1), ("t", 21, 1)):
                v = (c0 >> shift) & ((1 << width) - 1)
                if v:
                    forced[key] = v
        info[u["name"]] = (value, forced)

    # groups
    uf = UF(names)
    dfl = [u["name"] for u in ums if u["dfl"]]
    if offcore:
        gname = {n: offcore_group(pmu, info[n][0]) for n in names}
    else:
        for u in names:
            r = probe(ev, u)
            if r[0] != PFM_SUCCESS:
                continue
            sel = fstr_umasks(r[2], names)
            for d in dfl:
                if d != u and d not in sel:
                    uf.union(u, d)
        # umasks that are aliases of others belong with them
        for u in ums:
            if u["equiv"]:
                for part in u["equiv"].split(":"):
                    if part in names:
                        uf.union(u["name"], part)
        roots = []
        for n in names:
            r = uf.find(n)
            if r not in roots:
                roots.append(r)
        if len(roots) > 1:
            # umasks not touching any default cannot be placed by the probe:
            # keep one group unless a default proves otherwise
            nondfl_roots = [r for r in roots if not any(uf.find(d) == r for d in dfl)]
            for r in nondfl_roots:
                uf.union(r, roots[0])
            roots = []
            for n in names:
                r = uf.find(n)
                if r not in roots:
                    roots.append(r)
        gname = {n: ("" if len(roots) == 1 else "g%d" % roots.index(uf.find(n))) for n in names}
        if len(roots) > 1:
            note(pmu, "%s has %d unit-mask groups" % (name, len(roots)))

    order = []
    for n in names:
        if gname[n] not in order:
            order.append(gname[n])

    # exclusivity.  libpfm4 marks single unit masks "no combination": such a
    # umask refuses any other umask of its group (in either order), the others
    # combine freely.  The triple probe U:U:U shows the flag directly (libpfm4
    # keeps a thrice-named umask twice, see pfm-dump.c), also in a group of
    # one; the pair probes are the fallback for a umask that cannot be
    # encoded alone, and the cross-check below.
    conflict = {}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            r = probe(ev, a, b)
            if r is not None and r[0] == PFM_ERR_FEATCOMB:
                conflict.setdefault(a, set()).add(b)
                conflict.setdefault(b, set()).add(a)
    # Aliases (equiv) are expanded before libpfm4 applies its rules, so only
    # real unit masks take part in the exclusivity analysis.
    alias = {u["name"] for u in ums if u["equiv"]}
    ncombo = set()
    for n in names:
        if n in alias:
            continue
        three = ev["probes"].get("%s:%s:%s" % (n, n, n))
        if probe(ev, n)[0] == PFM_SUCCESS and three is not None:
            if three[0] == PFM_ERR_FEATCOMB:
                ncombo.add(n)
            elif three[0] != PFM_SUCCESS:
                note(pmu, "%s:%s named three times: libpfm4 error %d" % (name, n, three[0]))
        else:
            members = [m for m in names if gname[m] == gname[n] and m != n and m not in alias]
            if members and all(m in conflict.get(n, ()) for m in members):
                ncombo.add(n)
                note(pmu, "%s:%s does not encode alone; excl from its pair probes" % (name, n))
    groups = []
    excl = set()
    for g in order:
        members = [n for n in names if gname[n] == g and n not in alias]
        # a group whose every umask refuses the others is written 'exclusive'
        # (same meaning to the encoder, one word instead of one per umask)
        exclusive = len(members) > 1 and all(n in ncombo for n in members)
        if not exclusive:
            excl.update(n for n in members if n in ncombo)
        # a group is required unless an umask of another group encodes alone
        # without any member of this group (libpfm4 then needs no default)
        required = True
        has_dfl = any(n in dfl for n in names if gname[n] == g)
        if not has_dfl:
            for n in names:
                if gname[n] != g and probe(ev, n)[0] == PFM_SUCCESS:
                    required = False
        groups.append({"name": g, "required": required, "exclusive": exclusive})
    # cross-check: a same-group pair conflicts in libpfm4 exactly when one of
    # the two is 'no combination' (glm offcore has rules of its own, which the
    # encoder implements from the documents: reported, not flagged)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if gname[a] != gname[b] or a in alias or b in alias:
                continue
            r = probe(ev, a, b)
            if r is None:
                continue
            refused = r[0] == PFM_ERR_FEATCOMB
            if refused != (a in ncombo or b in ncombo):
                note(pmu, "%s: %s with %s: libpfm4 %s, the excl flags say %s%s"
                     % (name, a, b, "refuses" if refused else "accepts",
                        "refuse" if not refused else "accept",
                        " (glm offcore rule, enforced by the encoder)" if offcore and pmu == "glm" else ""))
    # report the flags that are not simply "the whole group is exclusive"
    for g in groups:
        if not g["exclusive"]:
            flagged = [n for n in names if gname[n] == g["name"] and n in excl]
            if flagged:
                note(pmu, "%s: excl (refuses the rest of its group%s; U:U:U probe): %s"
                     % (name, " " + g["name"] if g["name"] else "", " ".join(flagged)))
    NCOMBO_COUNT[pmu] = NCOMBO_COUNT.get(pmu, 0) + len(ncombo)

    # glm offcore: rules the probes cannot show, from libpfm_intel_glm(3) and
    # SDM Table 18-22 (hence names, not probes): ANY_RESPONSE and OUTSTANDING
    # replace the supplier/snoop part, so selecting either drops the other
    # response groups' requirement and defaults ('override'); without them
    # the snoop part is required.  Which supplier umasks combine is derived
    # like everywhere else (ANY_RESPONSE refuses L2_HIT in libpfm4 too).
    override = set()
    if offcore and pmu == "skl":
        # libpfm_intel_skl(3): ANY_RESPONSE stands for the whole response
        # (supplier and snoop); libpfm4 drops the snoop default with it
        override = {"ANY_RESPONSE"} & set(names)
    if offcore and pmu == "glm":
        override = {"ANY_RESPONSE", "OUTSTANDING"} & set(names)
        for g in groups:
            if g["name"] == "snoop":
                g["required"] = True

    for u in ums:
        n = u["name"]
        value, forced = info[n]
        words = []
        if gname[n]:
            words.append("group=" + gname[n])
        if u["dfl"] or (pmu in SKL_LIKE and len(names) == 1 and not offcore):
            # skl/icl MEM_LOAD_L3_MISS_RETIRED: a lone unit mask that libpfm4
            # 4.13 does not mark default is the default here (lint rule; the
            # bare event is refused by libpfm4: docs/libpfm4-differences.md)
            words.append("default")
        if n in excl:
            words.append("excl")
        if n in override:
            words.append("override")
        r = probe(ev, n)
        if "ldlat" in mods and r[0] == PFM_SUCCESS and len(r[1]) > 1:
            words.append("ldlat")  # libpfm4 writes the threshold as codes[1]
        ufix0 = CORRECTIONS.get((pmu, name, n), {})
        if "c" in ufix0:
            note(pmu, "%s:%s: c=%d from Intel's JSON (libpfm4 4.13: c=%d)" % (name, n, ufix0["c"], forced.get("c", 0)))
            forced = dict(forced, c=ufix0["c"])
        for k in ("c", "i", "e", "t"):
            if k in forced:
                words.append("%s=%d" % (k, forced[k]))
        if u["equiv"]:
            eq = CORRECTIONS.get((pmu, name, n), {}).get("equiv") or u["equiv"]
            words.append("equiv=" + (flat_equiv(eq, ums) if pmu in SKL_LIKE else eq))
        ufix = dict(CORRECTIONS.get((pmu, name, n), {}))
        if n in probe_code and "code" not in ufix:
            ufix["code"] = probe_code[n]
            code_from_probe = True
        else:
            code_from_probe = False
        if "value" in ufix:
            note(pmu, "%s:%s: value 0x%x from the SDM (libpfm4 4.13: 0x%x)" % (name, n, ufix["value"], value))
            value = ufix["value"]
        if "code" in ufix:
            if not code_from_probe:
                note(pmu, "%s:%s: code 0x%02x from Intel's JSON (libpfm4 4.13: 0x%02x)" % (name, n, ufix["code"], code))
            words.append("code=0x%02x" % ufix["code"])
        out["umasks"].append((n, value, words))
        out.setdefault("ufix", {})[n] = ufix
    out["groups"] = groups

    # counters: Intel's JSON for the encodings this event can produce
    mask = 0
    fixed = 0
    seen = False
    keys = [(code, (base | v) & 0xFF) for (_, v, _) in out["umasks"]] if ums and not extra_val else [(code, base)]
    for k in keys:
        if k in intel:
            seen = True
            mask |= counters_of(intel[k])
    if not seen:
        note(pmu, "%s (code 0x%02x umask %s): no Intel JSON entry; %s assumed"
             % (name, code, ",".join("0x%02x" % k[1] for k in keys),
                    "every counter" if pmu in SKL_LIKE else "counters 0-3"))
    if not mask:
        mask = all_counters(pmu)
    out["counters"] = mask
    for (fc, fu), bit in fixed_map.items():
        if (fc, fu) in keys:
            fixed |= bit
    # per-umask counters where Intel restricts one unit mask more than the
    # event, and the fixed counter that counts the same thing
    ufixed = {}
    for (n, v, words) in out["umasks"]:
        ufix = out["ufix"][n]
        ucode = ufix.get("code", code)
        k = (ucode, (base | v) & 0xFF)
        umask_ctr = counters_of(intel[k]) if (k in intel and not extra_val) else mask
        umask_ctr = ufix.get("counters", umask_ctr or mask)
        if pmu in SKL_LIKE and ucode == 0x00 and k in fixed_map:
            umask_ctr = 0  # a fixed counter's pseudo code (JSON "Fixed counter N")
        if "ldlat" in words:
            # Intel's JSON lists PMC3 only for the load-latency event, but the
            # SDM's Nehalem PEBS text and Linux's constraint (0x100b, mask 0xf)
            # allow any counter: semantics choice A12, docs/semantics.md.
            umask_ctr = 0xF
        if umask_ctr != mask:
            words.append("counters=0x%x" % umask_ctr)
        forced = any(w[:2] in ("c=", "i=", "e=", "t=") for w in words)
        ufixed[n] = ufix.get("fixed", 0 if forced or extra_val else fixed_map.get(k, 0))
    if out["umasks"]:
        # the event's mask is the union; unit masks that differ say so
        fixed = 0
        for f in ufixed.values():
            fixed |= f
        for (n, v, words) in out["umasks"]:
            if ufixed[n] != fixed:
                words.append("fixed=0x%x" % ufixed[n])
    if name == "UNHALTED_REFERENCE_CYCLES":
        # libpfm4 maps it to fixed counter 2 only (its code is not a GP event)
        fixed, out["counters"] = 0x4, 0
        out["flags"].append("fixed_only")
    out["fixed"] = fixed
    # Unit masks that are alternatives (a group of two or more where some
    # refuse the others) are whole values, not independent bits; a lone
    # no-combination umask says nothing about its bits.
    alts = any(g["exclusive"] or (sum(1 for n in names if gname[n] == g["name"] and n not in alias) > 1
                                  and any(n in excl for n in names if gname[n] == g["name"]))
               for g in groups)
    out["match"] = "exact" if alts else "bits"
    # Intel's own words for each encoding (its JSON's BriefDescription; the
    # JSON is BSD-3-Clause, its notice in models/LICENSE.intel-perfmon)
    out["udesc"] = {}
    for (n, v, words) in out["umasks"]:
        k = (out["ufix"][n].get("code", code), (base | v) & 0xFF)
        if k in intel and not extra_val:
            out["udesc"][n] = intel_desc(intel[k])
    out["desc"] = intel_desc(intel[(code, base)]) if not out["umasks"] and (code, base) in intel else None
    return out


NOT_MODELLED = {
    "skl": [
        "#",
        "# Not modelled: TSX itself (IN_TX/IN_TXCP are fields the stimulus drives), the",
        "# TSX_FORCE_ABORT errata path, PEBS record contents beyond format 3's layout,",
        "# MSR_PEBS_FRONTEND's sub-events other than by their EVTSEL value, LBR_INFO's",
        "# branch type (Arch LBR era), the uncore.  IA32_PERF_CAPABILITIES has only the",
        "# formats and full-width writes set (the other bits of a real part are not sourced).",
    ],
    "icl": [
        "#",
        "# Not modelled: adaptive PEBS (record format 4 is reported, MSR_PEBS_DATA_CFG",
        "# and PEBS on fixed counters are absent), AnyThread (deprecated on v5: the",
        "# bit stays writable), TSX, the uncore.  8 counters per thread whatever",
        "# hyper-threading says (libpfm4 says 16).  OFFCORE_RESPONSE_0/1 and OCR take",
        "# libpfm4's 71 unit masks, each a whole MSR_OFFCORE_RSP_x value, one at a time.",
    ],
}


def topdown_m_event():
    """icl TOPDOWN_M: not in libpfm4 4.13 (libpfm4's later icl table has it,
    code 0x00, umasks SLOTS 0x04, RETIRING 0x80, BAD_SPEC 0x81,
    FRONTEND_BOUND 0x82, BACKEND_BOUND 0x83, modifiers k and u; Linux's
    pseudo events slots and topdown-* have the same numbers).  SLOTS is fixed
    counter 3, the others IA32_PERF_METRICS fields (flags = metrics)."""
    um = [("SLOTS", 0x04, ["dup"])] + [(n, v, ["fixed=0x0"]) for (n, v) in (
        ("RETIRING", 0x80), ("BAD_SPEC", 0x81), ("FRONTEND_BOUND", 0x82), ("BACKEND_BOUND", 0x83))]
    return {"name": "TOPDOWN_M", "code": 0x00, "base": 0, "counters": 0, "fixed": 0x8, "flags": ["metrics"],
            "extra": None, "modifiers": "k u", "match": "exact", "equiv": None,
            "groups": [{"name": "", "required": True, "exclusive": True}],
            "desc": "Top-down level-1 metrics: the slots (fixed counter 3) and IA32_PERF_METRICS' four fractions",
            "umasks": [(n, v, w) for (n, v, w) in um], "udesc": {}}


def all_counters(pmu):
    return 0xFF if pmu in SKL_LIKE else 0xF


def intel_desc(entries):
    text = " ".join((entries[0].get("BriefDescription") or "").split())
    # a model value is one GKeyFile line: no escapes, no list separators
    return text.replace("\\", "/").replace(";", ",") or None


def check_codes(pmu, events, intel):
    """Every (code, umask) libpfm4 produces should exist in Intel's JSON."""
    missing = 0
    for e in events:
        if "offcore" in e["flags"] or "fixed_only" in e["flags"] or e["extra"] == "MSR_PEBS_FRONTEND":
            continue
        vals = [(e["ufix"][n].get("code", e["code"]), v) for (n, v, w) in e["umasks"]
                if not any(x.startswith("equiv=") for x in w)] or [(e["code"], 0)]
        for (ucode, v) in vals:
            if (ucode, (e["base"] | v) & 0xFF) not in intel:
                missing += 1
                note(pmu, "libpfm4 %s umask 0x%02x (code 0x%02x) has no Intel JSON event"
                     % (e["name"], (e["base"] | v) & 0xFF, ucode))
    return missing


def check_by_name(pmu, events, intel):
    """Where libpfm4's EVENT:UMASK has an Intel EVENT.UMASK of the same name,
    compare the encodings (code, umask, cmask, inv, edge, any)."""
    by_name = {}
    for entries in intel.values():
        for x in entries:
            by_name[x["EventName"].upper()] = x
    same = diff = 0
    for e in events:
        if "offcore" in e["flags"] or e["extra"] == "MSR_PEBS_FRONTEND":
            continue
        for (n, v, words) in e["umasks"]:
            j = by_name.get("%s.%s" % (e["name"], n))
            if not j:
                continue
            forced = dict((w[0], int(w[2:])) for w in words if w[:2] in ("c=", "i=", "e=", "t="))
            ours = (e["ufix"][n].get("code", e["code"]), (e["base"] | v) & 0xFF, forced.get("c", 0), forced.get("i", 0),
                    forced.get("e", 0), forced.get("t", 0))
            def num(k):
                try:
                    return int(str(j.get(k, "0")).split(",")[0], 0)
                except ValueError:
                    return 0
            theirs = (num("EventCode"), num("UMask"), num("CounterMask"), num("Invert"),
                      num("EdgeDetect"), num("AnyThread"))
            if ours == theirs:
                same += 1
            else:
                diff += 1
                note(pmu, "libpfm4 %s:%s encodes code/umask/c/i/e/t %s, Intel JSON %s.%s says %s"
                     % (e["name"], n, "/".join("0x%x" % x for x in ours), e["name"], n,
                        "/".join("0x%x" % x for x in theirs)))
    note(pmu, "same-name cross-check with Intel JSON: %d agree, %d differ" % (same, diff))


def mark_duplicates(pmu, events):
    """libpfm4 lists some encodings under two names (architectural names next
    to model-specific ones).  Mark the later one 'dup' so the lint knows it is
    intended."""
    seen = {}
    for e in events:
        if e["equiv"] or "offcore" in e["flags"] or "fixed_only" in e["flags"]:
            continue
        if not e["umasks"]:
            key = (e["code"], e["base"], ())
            if key in seen:
                e["flags"].append("dup")
                note(pmu, "%s encodes like %s (both in libpfm4)" % (e["name"], seen[key]))
            else:
                seen[key] = e["name"]
            continue
        for (n, v, words) in e["umasks"]:
            if any(w.startswith("equiv=") for w in words):
                continue
            forced = tuple(w for w in words if w[:2] in ("c=", "i=", "e=", "t="))
            ucode = e["ufix"][n].get("code", e["code"])
            key = (ucode, (e["base"] | v) & 0xFF, forced)
            if key in seen:
                words.append("dup")
                note(pmu, "%s:%s encodes like %s (both in libpfm4)" % (e["name"], n, seen[key]))
            else:
                seen[key] = "%s:%s" % (e["name"], n)


# ----------------------------------------------------------------- output ----

def fmt_num(v):
    return "0x%x" % v if isinstance(v, int) else str(v)



def perf_section(regs):
    """[perf]: Linux's cpu PMU (sysfs .../cpu/format): the event-select
    fields perf names, in the order its string prints them; usr/os are its
    :u/:k; INT and EN are perf's own; offcore_rsp and ldlat go to config1."""
    L = ["", "# perf's syntax for these events (pmusim encode --format=perf).",
         "[perf]", "pmu = cpu", "raw = r", "raw_mask = 0xffacffff", "owned = int en",
         "term.event = event hex2 always", "term.umask = umask hex2 always", "term.cmask = cmask dec",
         "term.inv = inv flag", "term.edge = edge flag", "term.any = any flag", "term.pc = pc flag",
         "priv.u = usr", "priv.k = os",
         "no_priv = k=0 and u=0 count at no privilege level, and perf cannot say so: cpu/.../ "
         "without :u or :k counts at both"]
    for r in regs:
        if r[2] == "offcore_rsp":
            L.append("extra.%s = offcore_rsp hex" % r[0])
        elif r[2] == "pebs_ld_lat":
            L.append("extra.%s = ldlat dec" % r[0])
    return L

def write_model(pmu, dump, intel, outdir):
    d = dump[pmu]
    fixed_map = {(0xC0, 0x00): 0x1, (0xC0, 0x01): 0x1, (0x3C, 0x00): 0x2}
    if pmu in SKL_LIKE:
        # the pseudo codes of Intel's JSON: INST_RETIRED.ANY 00/01,
        # CPU_CLK_UNHALTED.THREAD 00/02, .REF_TSC 00/03, icl TOPDOWN.SLOTS 00/04
        fixed_map.update({(0x00, 0x01): 0x1, (0x00, 0x02): 0x2, (0x00, 0x03): 0x4})
        if pmu == "icl":
            fixed_map[(0x00, 0x04)] = 0x8
    evs = d["events"]
    events = [derive_event(pmu, ev, intel, fixed_map) for ev in evs]
    check_codes(pmu, events, intel)
    check_by_name(pmu, events, intel)
    mark_duplicates(pmu, events)
    mods_order = list(events[0]["mods"])
    for e in events:
        for m in e["mods"]:
            if m not in mods_order:
                mods_order.append(m)
    if pmu in SKL_LIKE:
        # libpfm4's fstr order (k u e i c t ldlat intx intxcp fe_thres); an
        # event that takes fewer than all (icl: t only on the reference
        # cycles, skl FRONTEND_RETIRED no t) names its own
        mods_order.sort(key=lambda m: MOD_CODE[m])
        for e in events:
            implied = [m for m in mods_order if m != "ldlat" or m in e["mods"]]
            if e["mods"] != implied:
                e["modifiers"] = " ".join(e["mods"])
        if pmu == "icl":
            events.append(topdown_m_event())
    L = [
        "# %s.pmu — generated by scripts/gen-models.py: the built-in model changes in the generator." % pmu,
        "# A what-if variant: copy this file (installed in share/pmusim/models/), edit it, pass it with --model FILE.",
        "# Format: docs/model-format.md.  Names, defaults, groups and aliases follow",
        "# libpfm4 4.13; counters and the event and unit-mask descriptions come from",
        "# Intel's event JSON (BSD-3-Clause, Copyright (c) 2021, Intel Corporation: notice in",
        "# models/LICENSE.intel-perfmon); registers from the SDM.",
    ] + NOT_MODELLED.get(pmu, []) + [
        "",
        "[pmu]",
    ]
    for k, v in header(pmu):
        L.append("%s = %s" % (k, v))
    L += ["", "[options]"]
    for k, v in OPTIONS + lbr_options(pmu) + smt_options(pmu):
        L.append(k if v is None else "%s = %s" % (k, v))
    for lname, fields in layouts(pmu).items():
        L += ["", "[layout %s]" % lname]
        L += ["%s = %s" % f for f in fields]
    for (name, addr, kind, index, width, writable, reset, readonly, layout) in registers(pmu):
        L += ["", "[register %s]" % name, "address = 0x%x" % addr, "kind = %s" % kind]
        if index is not None:
            L.append("index = %d" % index)
        # A counter's width is [pmu] gp_width / fixed_width's (the one place a
        # what-if edits it); the loader derives its writable bits from it.
        counter = kind in ("pmc", "a_pmc", "fixed_ctr")
        if width is not None and not counter:
            L.append("width = %d" % width)
        if writable is not None and not (counter and width is not None and writable == (1 << width) - 1):
            L.append("writable = 0x%x" % writable)
        if reset:
            L.append("reset = 0x%x" % reset)
        if readonly:
            L.append("readonly = true")
        if layout:
            L.append("layout = %s" % layout)
    for (m, typ, rng, reg, field, desc) in modifiers(pmu, mods_order):
        L += ["", "[modifier %s]" % m, "type = %s" % typ]
        if rng:
            L.append("range = %s" % rng)
        L += ["register = %s" % reg, "field = %s" % field, "desc = %s" % desc]
    L += perf_section(registers(pmu))
    for e in events:
        L += ["", "[event %s]" % e["name"], "code = 0x%02x" % e["code"]]
        if e["base"]:
            L.append("base_umask = 0x%02x" % e["base"])
        if e["counters"] != all_counters(pmu):
            L.append("counters = 0x%x" % e["counters"])
        if e["fixed"]:
            L.append("fixed = 0x%x" % e["fixed"])
        if e["flags"]:
            L.append("flags = %s" % " ".join(e["flags"]))
        if e["extra"]:
            L.append("extra = %s" % e["extra"])
        if e.get("modifiers"):
            L.append("modifiers = %s" % e["modifiers"])
        if e["match"] != "bits":
            L.append("match = %s" % e["match"])
        if e["equiv"]:
            L.append("equiv = %s" % e["equiv"])
        for g in e["groups"]:
            words = []
            words.append("required" if g["required"] else "optional")
            if g["exclusive"]:
                words.append("exclusive")
            if g["name"] == "" and g["required"] and not g["exclusive"]:
                continue  # the default for the unnamed group
            L.append("%s = %s" % ("group" if not g["name"] else "group." + g["name"], " ".join(words)))
        if e.get("desc"):
            L.append("desc = %s" % e["desc"])
        for (n, v, words) in e["umasks"]:
            L.append("umask.%s = %s" % (n, " ".join([fmt_num(v)] + words)))
        for (n, v, words) in e["umasks"]:
            if e["udesc"].get(n):
                L.append("desc.%s = %s" % (n, e["udesc"][n]))
    path = os.path.join(outdir, pmu + ".pmu")
    with open(path + ".tmp", "w") as f:
        f.write("\n".join(L) + "\n")
    os.replace(path + ".tmp", path)
    return len(events), sum(len(e["umasks"]) for e in events)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    data = os.path.join(here, "data")
    ap.add_argument("--reference", default=data, help="the reference folder (default: scripts/data)")
    src = ap.add_mutually_exclusive_group()
    src.add_argument("--dump", default=os.path.join(data, "libpfm4", "pfm-dump.json"),
                     help="the saved pfm-dump JSON to read (default: scripts/data/libpfm4/pfm-dump.json)")
    src.add_argument("--libpfm", action="store_true",
                     help="compile scripts/pfm-dump.c and run the installed libpfm4 instead of reading --dump")
    ap.add_argument("--out", default=os.path.join(here, "..", "models"))
    ap.add_argument("--report", default=os.path.join(here, "..", "docs", "gen-models-report.txt"),
                    help="write the differences found to this file ('-': stderr)")
    args = ap.parse_args()
    if args.libpfm:
        dump = run_dump(here)
    else:
        with open(args.dump) as f:
            dump = json.load(f)
    for pmu in PMUS:
        intel = load_intel(args.reference, pmu)
        n_ev, n_um = write_model(pmu, dump, intel, args.out)
        note(pmu, "%d of %d unit masks refuse the rest of their group (excl or an exclusive group)"
             % (NCOMBO_COUNT.get(pmu, 0), n_um))
        print("%s: %d events, %d unit masks" % (pmu, n_ev, n_um))
    if args.report != "-":
        with open(args.report, "w") as f:
            f.write("# Written by scripts/gen-models.py: what the generator noticed while\n"
                    "# reconciling libpfm4 4.13 with Intel's JSON.  Summary and decisions:\n"
                    "# docs/libpfm4-differences.md, section 'Model facts'.\n")
            f.write("\n".join(report) + "\n")
    else:
        for line in report:
            print("  " + line, file=sys.stderr)


if __name__ == "__main__":
    main()

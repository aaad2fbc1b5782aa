#!/usr/bin/env python3
"""Write vectors/<pmu>/raw.enc: raw unit masks ("EVENT:0xHEX").

libpfm4 4.13 accepts a hexadecimal number in place of the unit-mask names on
the Intel x86 core PMUs and on nhm_unc/wsm_unc (PFMLIB_PMU_FL_RAW_UMASK); its
validate_x86 test checks such strings.  The expected codes come from the
documented register layouts, not from any encoder:

  IA32_PERFEVTSELx (SDM Vol. 3B 18.2.1, Fig. 18-1): event 7:0, umask 15:8,
  USR 16, OS 17, E 18, INT 20, ANY 21, EN 22, INV 23, CMASK 31:24;
  MSR_UNCORE_PERFEVTSELx (SDM Vol. 3B 18.8.2.2, Fig. 18-28): event 7:0,
  umask 15:8, OCC_CTR_RST 17, E 18, INT 20, EN 22, INV 23, CMASK 31:24.
  EN and INT are set as libpfm4 returns them (docs/encoder-protocol.md).

The event codes are Intel's (event JSON: INST_RETIRED.ANY_P 0xc0,
OFFCORE_RESPONSE_0 0xb7 umask 0x01, OFFCORE_RESPONSE_1 0xbb umask 0x01 on
Nehalem/Westmere and 0xb7 umask 0x02 on Goldmont; uncore UNC_DRAM_OPEN 0x60,
UNC_QMC_WRITES 0x2f, UNC_CLK_UNHALTED the pseudo code 0xff of libpfm4).
What the raw unit mask does, where it is printed, which widths and which
error classes, was established by probing libpfm4 4.13 (Debian's
libpfm.so.4, `pmusim encode --batch --backend libpfm4`); every choice where
pmusim differs is in docs/libpfm4-differences.md ("Raw unit masks").

usage: scripts/gen-raw-vectors.py [--out DIR]
(default vectors/; reads no input; writes DIR/<pmu>/raw.enc; scripts/gen-vectors.py
keeps every *.enc in vectors.gresource.xml, the raw.enc files after the other
generators'; scripts/regenerate runs every generator)
"""
import argparse
import os

EN, INT, USR, OS, E, INV = 1 << 22, 1 << 20, 1 << 16, 1 << 17, 1 << 18, 1 << 23
ANYT = 1 << 21
OCC = 1 << 17

LAYOUT = "SDM Vol. 3B 18.2.1 PERFEVTSEL layout (EN, INT set as libpfm4 returns them)"
ULAYOUT = "SDM Vol. 3B 18.8.2.2 MSR_UNCORE_PERFEVTSEL layout (EN, INT set as libpfm4 returns them)"
PROBE = "libpfm4 4.13 probed (docs/libpfm4-differences.md, Raw unit masks)"

# pmu: (has t, OFFCORE_RESPONSE_1 (code, umask) or None, widest raw extra value the
# register takes, first value libpfm4 4.13 refuses)
CORE = {
    "glm": (False, (0xb7, 0x02), 0x360005ffbf),
    "wsm": (True, (0xbb, 0x01), 0xffff),
    "wsm_dp": (True, (0xbb, 0x01), 0xffff),
    "nhm": (True, None, 0xffff),
    "nhm_ex": (True, None, 0xffff),
}


def sel(event, umask, k=1, u=1, e=0, i=0, c=0, t=0):
    return EN | INT | event | umask << 8 | (OS if k else 0) | (USR if u else 0) | (E if e else 0) | \
        (INV if i else 0) | c << 24 | (ANYT if t else 0)


def mods(t, k=1, u=1, e=0, i=0, c=0, tv=0):
    s = ":k=%d:u=%d:e=%d:i=%d:c=%d" % (k, u, e, i, c)
    return s + (":t=%d" % tv if t else "")


def ok(s, codes, fstr, src):
    return '"%s" PFM_SUCCESS %s fstr "%s" src derived: %s' % (s, ",".join("0x%x" % v for v in codes), fstr, src)


def bad(s, ret, src):
    return '"%s" %s - src %s' % (s, ret, src)


def core(pmu):
    t, of1, widest = CORE[pmu]
    P = pmu + "::"
    v = []
    ir = P + "INST_RETIRED"
    v.append(ok(ir + ":0xff:k", [sel(0xc0, 0xff, u=0)], ir + ":0xff" + mods(t, u=0),
                "raw umask 0xff in the umask field, OS only (libpfm4 issue example); " + LAYOUT))
    v.append(ok(ir + ":0x1", [sel(0xc0, 0x01)], ir + ":0x1" + mods(t), "raw umask 0x1; " + LAYOUT))
    v.append(ok(ir + ":0x0", [sel(0xc0, 0x00)], ir + ":0x0" + mods(t),
                "raw umask 0 replaces every unit mask (no default, nothing required); " + LAYOUT + "; " + PROBE))
    v.append(ok(ir + ":0X00FF", [sel(0xc0, 0xff)], ir + ":0xff" + mods(t),
                "0X and leading zeros are read as strtoull reads them; fstr prints 0x, lowercase, no leading zero; " + PROBE))
    v.append(ok(ir + ":c=2:0xff:u", [sel(0xc0, 0xff, k=0, c=2)], ir + ":0xff" + mods(t, k=0, c=2),
                "raw umask between modifiers; fstr prints it right after the event; " + LAYOUT + "; " + PROBE))
    v.append(ok(ir + ":0xff:u:c=1:i=1:e=1", [sel(0xc0, 0xff, k=0, c=1, i=1, e=1)],
                ir + ":0xff" + mods(t, k=0, c=1, i=1, e=1), "raw umask with u, c, i, e; " + LAYOUT))
    if t:
        v.append(ok(ir + ":0xff:t=1", [sel(0xc0, 0xff, t=1)], ir + ":0xff" + mods(t, tv=1),
                    "raw umask with AnyThread (bit 21); " + LAYOUT))
    v.append(ok(P + "UOPS_ISSUED:0x1:c=1:i=1", [sel(0x0e, 0x01, c=1, i=1)], P + "UOPS_ISSUED:0x1" + mods(t, c=1, i=1),
                "raw umask on an event whose unit masks force modifiers: none is forced; " + LAYOUT + "; " + PROBE))
    urc = P + "UNHALTED_REFERENCE_CYCLES"
    v.append(ok(urc + ":0x4", [EN | INT | OS | USR | 0x07 << 8], urc + ":0x4:k=1:u=1" + (":t=0" if t else ""),
                "fixed-counter event: its pseudo code's umask 03H stays, the raw umask is ORed onto it; " + LAYOUT + "; " + PROBE))
    if pmu in ("wsm", "wsm_dp"):
        v.append(ok(P + "LLC_REFERENCES:0x1", [sel(0x2e, 0x01)], P + "L3_LAT_CACHE:REFERENCE:0x1" + mods(t),
                    "alias of L3_LAT_CACHE:REFERENCE (umask 4FH): the raw umask replaces the alias's unit mask, "
                    "fstr names the aliased event; " + LAYOUT + "; " + PROBE))
    of = P + "OFFCORE_RESPONSE_0"
    v.append(ok(of + ":0x1", [sel(0xb7, 0x01), 0x1], of + ":0x1" + mods(t),
                "offcore: the raw value is the OFFCORE_RSP_0 register (codes[1]), the event select keeps umask 0x01; "
                "SDM Vol. 3B 18.8.5 / 18.7.2; " + PROBE))
    v.append(ok(of + ":0x%x:k" % widest, [sel(0xb7, 0x01, u=0), widest], of + ":0x%x" % widest + mods(t, u=0),
                "offcore: every writable bit of MSR_OFFCORE_RSP_0 (model register writable mask); " + LAYOUT))
    if of1:
        o1 = P + "OFFCORE_RESPONSE_1"
        v.append(ok(o1 + ":0x1", [sel(of1[0], of1[1]), 0x1], o1 + ":0x1" + mods(t),
                    "offcore 1: the raw value is OFFCORE_RSP_1; Intel event JSON code/umask; " + PROBE))
    # errors
    v.append(bad(ir + ":0x100", "PFM_ERR_ATTR", "raw umask wider than the 8-bit umask field; " + PROBE))
    v.append(bad(ir + ":0x10000000000000000", "PFM_ERR_ATTR", "raw umask too big for 64 bits (strtoull saturates, too wide); " + PROBE))
    v.append(bad(of + ":0x%x" % (widest + 1 if pmu != "glm" else 0x40), "PFM_ERR_ATTR",
                 "offcore raw value with a bit MSR_OFFCORE_RSP_0 does not take; " +
                 ("libpfm4 4.13 refuses it too (16 bits on wsm)" if pmu in ("wsm", "wsm_dp") else
                  "libpfm4 4.13 accepts up to 38 bits: docs/libpfm4-differences.md")))
    v.append(bad(of + ":0x4000000000", "PFM_ERR_ATTR", "offcore raw value beyond 38 bits; " + PROBE))
    v.append(bad(ir + ":0xfg", "PFM_ERR_ATTR", "raw umask that is not a hex number; " + PROBE))
    v.append(bad(ir + ":0x", "PFM_ERR_ATTR", "0x without digits; " + PROBE))
    v.append(bad(ir + ":255", "PFM_ERR_ATTR", "decimal is not a raw umask (hexadecimal only): unknown attribute; " + PROBE))
    v.append(bad(P + "UOPS_ISSUED:0xff=", "PFM_ERR_ATTR_VAL", "raw umask with '=' (libpfm4 issue example); " + PROBE))
    v.append(bad(ir + ":0xff=1", "PFM_ERR_ATTR_VAL", "raw umask with a value; " + PROBE))
    v.append(bad(ir + ":0xzz=1", "PFM_ERR_ATTR", "malformed raw umask with a value: the number is checked first; " + PROBE))
    v.append(bad(ir + ":0x1:0x1", "PFM_ERR_ATTR", "two raw umasks; " + PROBE))
    v.append(bad(ir + ":ANY_P:0x1", "PFM_ERR_ATTR", "raw umask after a named unit mask; " + PROBE))
    v.append(bad(ir + ":0x1:ANY_P", "PFM_ERR_ATTR", "named unit mask after a raw umask; " + PROBE))
    v.append(bad(ir + ":0x1=:ANY_P", "PFM_ERR_ATTR_VAL", "attributes are checked in string order; " + PROBE))
    v.append(bad(ir + ":0x100:c=300", "PFM_ERR_ATTR", "width and modifier range checked in string order: raw first; " + PROBE))
    v.append(bad(ir + ":c=300:0x100", "PFM_ERR_ATTR_VAL", "width and modifier range checked in string order: c first; " + PROBE))
    return v


def uncore(pmu):
    P = pmu + "::"
    m = ":e=0:i=0:c=0:o=0"
    d = P + "UNC_DRAM_OPEN"
    v = []
    v.append(ok(d + ":0xff", [EN | INT | 0x60 | 0xff << 8], d + ":0xff" + m, "raw umask 0xff; " + ULAYOUT))
    v.append(ok(d + ":0x1:o=1", [EN | INT | OCC | 0x60 | 0x01 << 8], d + ":0x1:e=0:i=0:c=0:o=1",
                "raw umask with OCC_CTR_RST; " + ULAYOUT))
    q = P + "UNC_QMC_WRITES"
    v.append(ok(q + ":0x7:c=1:i=1", [EN | INT | INV | 1 << 24 | 0x2f | 0x07 << 8], q + ":0x7:e=0:i=1:c=1:o=0",
                "raw umask over both groups of a one-group-only event (no group rule applies); " + ULAYOUT + "; " + PROBE))
    k = P + "UNC_CLK_UNHALTED"
    v.append(ok(k + ":0x80", [EN | INT | 0xff | 0x80 << 8], k + ":0x80",
                "fixed-counter pseudo event: the raw umask lands in the umask bits of its pseudo code; " + PROBE))
    v.append(bad(d + ":0x100", "PFM_ERR_ATTR", "raw umask wider than the 8-bit umask field; " + PROBE))
    v.append(bad(d + ":CH0:0x1", "PFM_ERR_ATTR", "raw umask after a named unit mask; " + PROBE))
    v.append(bad(d + ":0xff=1", "PFM_ERR_ATTR_VAL", "raw umask with a value; " + PROBE))
    v.append(bad(d + ":0x", "PFM_ERR_ATTR", "0x without digits; " + PROBE))
    v.append(bad(d + ":0x100:c=300", "PFM_ERR_ATTR", "width before the later c range; " + PROBE))
    v.append(bad(d + ":c=300:0x100", "PFM_ERR_INVAL", "uncore c range (PFM_ERR_INVAL in libpfm4's uncore code) before the later width; " + PROBE))
    return v


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "vectors"))
    root = ap.parse_args().out
    head = ("# Raw unit masks (EVENT:0xHEX): written by scripts/gen-raw-vectors.py; its header\n"
            "# gives the layouts the codes come from.\n")
    for pmu in list(CORE) + ["nhm_unc", "wsm_unc"]:
        lines = core(pmu) if pmu in CORE else uncore(pmu)
        with open(os.path.join(root, pmu, "raw.enc"), "w") as f:
            f.write(head)
            for line in lines:
                f.write(line + "\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The bash completion (harness/completion/pmusim.bash) in bash: the words it
offers for commands, options, PMUs, event strings (bash splits the line at
':', as COMP_WORDBREAKS does) and option values, all asked from the built
pmusim.  Exit 77 (skipped) without bash.  TAP on stdout.

usage: completion.py PMUSIM COMPLETION_SCRIPT
"""
import shutil
import subprocess
import sys

DRIVER = r'''
source "$1"
line=$2
COMP_LINE=$line; COMP_POINT=${#line}
# bash's own split: at blanks, and ':' runs are words of their own
l=${line//::/ :: }
read -r -a COMP_WORDS <<<"$l"
[[ $line == *" " || $line == *: ]] && COMP_WORDS+=("")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_WORDS[0]=$3
COMPREPLY=()
_pmusim
printf '%s\n' "${COMPREPLY[@]}"
'''

CASES = [
    ("pmusim con", {"conform"}, None),
    ("pmusim help s", {"sim"}, None),
    ("pmusim sim --eng", {"--engine"}, None),
    ("pmusim sim --engine ", {"reference", "fast"}, None),
    ("pmusim sim --pmu wsm_", {"wsm_dp", "wsm_unc"}, None),
    ("pmusim list amd", {"amd64_fam17h_zen2"}, None),
    ("pmusim encode gl", {"glm::"}, None),
    # after 'glm::' bash replaces only the text after the last ':'
    ("pmusim encode glm::INST_RET", {"INST_RETIRED:ANY_P"}, None),
    ("pmusim sim -e wsm::OFFCORE_RESPONSE_0:ANY_D", None, {"ANY_DATA", "ANY_DRAM"}),
    ("pmusim sim --pmu wsm -e INST_RETIRED:A", None, {"ANY_P"}),
    ("pmusim conform --backend ", {"builtin", "libpfm4", "cmd:"}, None),
]


def main():
    pmusim, script = sys.argv[1], sys.argv[2]
    bash = shutil.which("bash")
    if not bash:
        print("1..0 # SKIP bash is not installed")
        return 77
    print("1..%d" % len(CASES))
    failed = 0
    for i, (line, exact, subset) in enumerate(CASES, 1):
        r = subprocess.run([bash, "-c", DRIVER, "driver", script, line, pmusim], capture_output=True, text=True,
                           timeout=120)
        got = {w for w in r.stdout.split("\n") if w}
        ok = r.returncode == 0 and (got == exact if exact is not None else subset <= got)
        failed += not ok
        print("%s %d - '%s' offers %s%s" % ("ok" if ok else "not ok", i, line,
                                           sorted(exact if exact is not None else subset),
                                           "" if ok else " (got %s; %s)" % (sorted(got)[:12], r.stderr.strip())))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

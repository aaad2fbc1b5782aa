"""taplib — the TAP reporting the Python CLI tests share: check() records
one result, finish() prints them as TAP (up to 40 lines of detail under a
failure) and exits 0 only when all passed."""
import sys

results = []


def check(name, ok, detail=""):
    results.append((name, bool(ok), detail))


def finish():
    print("TAP version 13\n1..%d" % len(results))
    for i, (name, ok, detail) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", i, name))
        if not ok:
            for line in str(detail).splitlines()[:40]:
                print("#   " + line)
    sys.exit(0 if all(ok for _, ok, _ in results) else 1)

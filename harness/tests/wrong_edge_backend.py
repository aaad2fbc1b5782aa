#!/usr/bin/env python3
"""A toy encoder backend with one wrong bit (issue 18): it relays every
request to `PMUSIM encode --batch` and, when the request sets the edge
modifier (":e"), moves the first code's bit 18 (edge) to bit 19 (pc), as an
encoder with a wrong bit position would.  With --more it also sets bit 2 of
the second code (the OFFCORE_RSP register) of OFFCORE_RESPONSE_1 requests and
bit 40 (outside every event-select field) of the first code of ARITH
requests.  Usage: wrong_edge_backend.py PMUSIM [--more]

Binary I/O throughout: a request may hold TABs, CRs and bytes that are not
UTF-8, and the answer starts with the request's bytes unchanged."""
import subprocess
import sys

EDGE, PC = 1 << 18, 1 << 19


def main():
    more = "--more" in sys.argv[2:]
    child = subprocess.Popen([sys.argv[1], "encode", "--batch"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE)
    for line in sys.stdin.buffer:
        req = line[:-1] if line.endswith(b"\n") else line
        child.stdin.write(req + b"\n")
        child.stdin.flush()
        answer = child.stdout.readline().rstrip(b"\n")
        # split after the request, never by counting TABs (docs/encoder-protocol.md)
        rest = answer[len(req) + 1:].split(b"\t")
        if b":e" in req and rest[0] == b"PFM_SUCCESS" and rest[2]:
            codes = rest[2].split(b",")
            first = int(codes[0], 16)
            if first & EDGE:
                first = (first & ~EDGE) | PC
            codes[0] = b"%#x" % first
            rest[2] = b",".join(codes)
        if more and rest[0] == b"PFM_SUCCESS" and rest[2]:
            codes = rest[2].split(b",")
            if b"OFFCORE_RESPONSE_1" in req and len(codes) > 1:
                codes[1] = b"%#x" % (int(codes[1], 16) | 4)
            if b"ARITH" in req:
                codes[0] = b"%#x" % (int(codes[0], 16) | 1 << 40)
            rest[2] = b",".join(codes)
        sys.stdout.buffer.write(req + b"\t" + b"\t".join(rest) + b"\n")
        sys.stdout.buffer.flush()
    child.stdin.close()
    child.wait()


if __name__ == "__main__":
    main()

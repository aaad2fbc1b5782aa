#!/usr/bin/env python3
"""An example encoder backend for pmusim's batch protocol, in Python 3.

    pmusim conform --backend 'cmd:python3 examples/backend.py build/harness/pmusim'

What this is: a protocol skeleton.  The protocol side (reading requests as
bytes, echoing each one exactly, formatting the answer, flushing, surviving
a dead encoder) is done here as the protocol asks (docs/encoder-protocol.md);
the encoding itself is three functions below, marked YOUR ENCODER GOES HERE:
`setup()` (once, before the first request), `encode()` (each request) and
`finish()` (at the end of input).  Replace their bodies with your encoder.

As shipped, `encode()` does not encode anything itself: it asks pmusim's own
builtin encoder, a `pmusim encode --batch` child process, and takes the
answer apart into fields.  That is why this example passes every built-in
vector (the meson tests `example-backend-py*` run it): what it proves is the
protocol handling, not an encoder.  Usage:

    backend.py [PMUSIM [ENCODE-OPTION...]]

PMUSIM (default: `pmusim` on PATH) is the program asked, with `encode
--batch` and the ENCODE-OPTIONs (e.g. `--model my.pmu`) after it.

Rules this file keeps, each one a way a first backend goes wrong:

- Bytes, never text.  A request may hold a TAB, a CR, invalid UTF-8 (the
  vectors in vectors/*/invalid.enc do): sys.stdin in text mode would
  translate or fail to decode them.  Only the final b'\\n' is removed, and
  a last line without one is still a request.
- The answer starts with the request exactly as read, then a TAB.  The
  request may itself contain TABs, so a reader never splits an answer on
  TAB from the left without knowing the request: it removes the request
  and its TAB, and splits the rest (RET, COUNT, CODES, FSTR, optional REGS:
  none of them may contain a TAB).  `_relay_fields()` does exactly that.
- Every answer is on stdout before the backend waits for the next request
  (pmusim sends one line and waits for its answer): this file flushes after
  each answer.
- Nothing but answers on stdout; diagnostics go to stderr.
"""

import subprocess
import sys

# The error names a backend may answer (libpfm4's), besides PFM_SUCCESS.
ERRORS = {
    b"PFM_ERR_NOTSUPP", b"PFM_ERR_INVAL", b"PFM_ERR_NOINIT", b"PFM_ERR_NOTFOUND",
    b"PFM_ERR_FEATCOMB", b"PFM_ERR_UMASK", b"PFM_ERR_NOMEM", b"PFM_ERR_ATTR",
    b"PFM_ERR_ATTR_VAL", b"PFM_ERR_ATTR_SET", b"PFM_ERR_TOOMANY", b"PFM_ERR_TOOSMALL",
    # a backend that drives another encoder reports that one's death with it
    b"BACKEND_CRASH",
}


class Answer:
    """One encoding: RET, the codes (ints), FSTR and the optional REGS (bytes)."""

    def __init__(self, ret, codes=(), fstr=b"", regs=b""):
        self.ret = ret
        self.codes = list(codes)
        self.fstr = fstr
        self.regs = regs


def format_answer(request, a):
    """The answer line for `request` (bytes, without its b'\\n')."""
    if a.ret == b"PFM_SUCCESS":
        if not a.codes:
            raise ValueError("PFM_SUCCESS needs at least one code")
    elif a.ret not in ERRORS or a.codes or a.fstr or a.regs:
        raise ValueError("an error is a libpfm4 error name without codes, FSTR or REGS")
    for field in (a.fstr, a.regs):
        # a TAB would shift the fields; a CR or other control byte is refused by pmusim
        if any(b < 0x20 for b in field):
            raise ValueError("FSTR and REGS may not contain a TAB or another control byte")
    codes = b",".join(b"0x%x" % c for c in a.codes)  # lowercase hex, 0x0 for zero
    line = b"\t".join([request, a.ret, b"%d" % len(a.codes), codes, a.fstr])
    if a.regs:
        line += b"\t" + a.regs
    return line + b"\n"


# ---------------------------------------------------------------------------
# YOUR ENCODER GOES HERE: setup(), encode() and finish().  As shipped they
# start, ask and close pmusim's builtin encoder (_Relay, below).
#
# setup(args) is called once with the command-line arguments, before the
# first request: load your encoder there.  If it cannot run, exit non-zero
# with one line on stderr (sys.exit("backend.py: ...")).
#
# encode(event) takes one event string (bytes, as read, without the newline)
# and returns an Answer.  An event string need not be valid UTF-8: work on
# the bytes, or decode so that decoding cannot fail, e.g.
#
#     ok, codes, fstr = my_encoder.encode(event.decode("utf-8", "surrogateescape"))
#     return Answer(b"PFM_SUCCESS", codes, fstr.encode()) if ok else Answer(b"PFM_ERR_NOTFOUND")
#
# finish() is called at the end of input.  An exception ends the backend:
# pmusim answers that line BACKEND_CRASH (the traceback on stderr says why)
# and starts the backend afresh for the next one.
# ---------------------------------------------------------------------------
_relay = None


def setup(args):
    global _relay
    args = args or ["pmusim"]
    _relay = _Relay([args[0], "encode", "--batch"] + args[1:])
    _relay.start()


def encode(event):
    return _relay.ask(event)


def finish():
    _relay.close()


class _Relay:
    """A `pmusim encode --batch` child kept running, asked one line at a time."""

    def __init__(self, argv):
        self.argv = argv
        self.child = None

    def start(self):
        try:
            self.child = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        except OSError as e:
            sys.exit("backend.py: cannot start %s: %s" % (self.argv[0], e.strerror))

    def ask(self, event):
        if self.child is None or self.child.poll() is not None:
            self.start()
        try:
            self.child.stdin.write(event + b"\n")
            self.child.stdin.flush()
            answer = self.child.stdout.readline()
        except OSError:  # BrokenPipeError: it died before reading the line
            answer = b""
        fields = _relay_fields(event, answer)
        if fields is None:
            # The encoder behind us died or answered something else: this
            # line is BACKEND_CRASH, the next one gets a fresh encoder.
            why = "died" if not answer.endswith(b"\n") else "answered another line"
            print("backend.py: the encoder %s; answering BACKEND_CRASH" % why, file=sys.stderr)
            self.stop()
            return Answer(b"BACKEND_CRASH")
        return fields

    def stop(self):
        if self.child is not None:
            self.child.kill()
            self.child.wait()
            self.child = None

    def close(self):
        if self.child is not None:
            self.child.stdin.close()
            self.child.wait()
            self.child = None


def _relay_fields(request, answer):
    """The Answer in `answer` (one line from a batch-protocol encoder) to
    `request`, or None when it is not an answer to that request."""
    if not answer.endswith(b"\n") or not answer.startswith(request + b"\t"):
        return None
    f = answer[len(request) + 1 : -1].split(b"\t")  # after the echo: no TAB inside a field
    if len(f) not in (4, 5):
        return None
    try:
        codes = [int(c, 16) for c in f[2].split(b",")] if f[2] else []
        if len(codes) != int(f[1]):
            return None
    except ValueError:
        return None
    return Answer(f[0], codes, f[3], f[4] if len(f) == 5 else b"")


def main():
    setup(sys.argv[1:])  # a backend that cannot run says so once and exits non-zero
    out = sys.stdout.buffer
    try:
        for line in sys.stdin.buffer:  # readline: returns as soon as a line is there
            request = line[:-1] if line.endswith(b"\n") else line
            out.write(format_answer(request, encode(request)))
            out.flush()  # the answer is out before we wait for the next request
    except BrokenPipeError:
        sys.exit(1)  # nobody reads our answers any more
    finish()


if __name__ == "__main__":
    main()

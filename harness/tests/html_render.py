#!/usr/bin/env python3
"""Render `pmusim sim --format html` in headless Chromium and check the
screenshot: not blank, and the timing diagram drawn (its waveform blue and
its occurrence-bar blue present).  Exit 77 (skipped, with the reason) when
Chromium is not installed (Debian: apt-get install chromium; scripts/test
installs it).  TAP on stdout.

usage: html_render.py PMUSIM
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

WAVE = (0x15, 0x65, 0xc0)   # .wave stroke (#1565c0)
BAR = (0x90, 0xca, 0xf9)    # .bar fill (#90caf9)


def png_pixels(path):
    """(width, height, rows of RGB tuples) of an 8-bit RGB/RGBA PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise ValueError("unexpected PNG format %d/%d/%d" % (depth, ctype, interlace))
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, bpp)])
        prev = line
    return w, h, rows


def main():
    pmusim = sys.argv[1]
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        print("1..0 # SKIP Chromium is not installed (Debian: apt-get install chromium; scripts/test installs it)")
        return 77
    print("1..2")
    with tempfile.TemporaryDirectory() as tmp:
        html, png = os.path.join(tmp, "t.html"), os.path.join(tmp, "t.png")
        r = subprocess.run([pmusim, "sim", "--pmu", "wsm", "-e", "INST_RETIRED:ANY_P:c=2", "--occurrences",
                            "1,2,3,0", "--format", "html", "-o", html], capture_output=True, text=True)
        if r.returncode != 0:
            print("not ok 1 - pmusim wrote the HTML: %s" % r.stderr.strip())
            print("not ok 2 - # not rendered")
            return 1
        print("ok 1 - pmusim wrote the HTML")
        subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        "--window-size=800,900", "--screenshot=" + png, "file://" + html],
                       capture_output=True, timeout=120, cwd=tmp)
        if not os.path.exists(png):
            print("not ok 2 - Chromium wrote no screenshot")
            return 1
        w, h, rows = png_pixels(png)
        px = [p for row in rows for p in row]
        ink = sum(1 for p in px if p != (255, 255, 255)) / len(px)
        wave = sum(1 for p in px if p == WAVE)
        bar = sum(1 for p in px if p == BAR)
        ok = ink > 0.02 and wave > 200 and bar > 200
        print("%s 2 - the screenshot (%dx%d) is not blank (%.1f%% ink) and shows the diagram "
              "(%d waveform pixels, %d bar pixels)" % ("ok" if ok else "not ok", w, h, 100 * ink, wave, bar))
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

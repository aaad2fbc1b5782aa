#!/usr/bin/env python3
"""Every committed tutorial figure (docs/tutorial/*.svg) in headless
Chromium: one page holds them all, one below the other; a script measures
each figure's title lines (getBBox of text.title) against the figure's own
width and height, and the page's DOM is dumped with the results
(--dump-dom); a screenshot of the same page must show ink in each figure's
box (not blank).  Exit 77 (skipped, with the reason) when Chromium is not
installed (Debian: apt-get install chromium; scripts/test installs it).
TAP on stdout.

usage: tutorial_figures.py DOCS_TUTORIAL_DIR
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from html_render import png_pixels  # noqa: E402

SCALE = 0.25

SCRIPT = """
<script>
const out = [];
let y = 0;
for (const fig of document.querySelectorAll('div.fig')) {
  const svg = fig.querySelector('svg');
  const w = svg.width.baseVal.value, h = svg.height.baseVal.value;
  const boxes = [...svg.querySelectorAll('text.title')].map(t => {
    const b = t.getBBox(); return [b.x, b.y, b.width, b.height]; });
  const r = fig.getBoundingClientRect();
  out.push({name: fig.dataset.name, w: w, h: h, top: r.top + window.scrollY, boxes: boxes});
}
document.body.setAttribute('data-result', JSON.stringify(out));
</script>
"""


def main():
    docdir = sys.argv[1]
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    figs = sorted(glob.glob(os.path.join(docdir, "*.svg")))
    if not browser:
        print("1..0 # SKIP Chromium is not installed (Debian: apt-get install chromium; scripts/test installs it)")
        return 77
    print("1..%d" % (2 * len(figs)))
    with tempfile.TemporaryDirectory() as tmp:
        page = os.path.join(tmp, "figs.html")
        width = 0
        height = 0
        with open(page, "w", encoding="utf-8") as f:
            f.write("<!DOCTYPE html><html><head><meta charset='utf-8'><style>body{margin:0}"
                    "div.fig{margin:0;padding:0;line-height:0}</style></head><body>\n")
            for path in figs:
                svg = open(path, encoding="utf-8").read()
                svg = re.sub(r"^<\?xml[^>]*>\s*", "", svg)
                m = re.search(r'<svg[^>]* width="(\d+)" height="(\d+)"', svg)
                width = max(width, int(m.group(1)) if m else 0)
                height += int(m.group(2)) if m else 0
                f.write("<div class='fig' data-name='%s'>%s</div>\n" % (os.path.basename(path), svg))
            f.write(SCRIPT + "</body></html>\n")
        common = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]
        dom = subprocess.run(common + ["--dump-dom", "file://" + page], capture_output=True, text=True,
                             timeout=180, cwd=tmp).stdout
        m = re.search(r'data-result="([^"]*)"', dom)
        result = json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&")) if m else []
        png = os.path.join(tmp, "figs.png")
        # a quarter scale: a sixteenth of the pixels to decode, ink still shows
        subprocess.run(common + ["--force-device-scale-factor=%g" % SCALE,
                                 "--window-size=%d,%d" % (max(width, 100), max(height, 100)),
                                 "--screenshot=" + png, "file://" + page],
                       capture_output=True, timeout=180, cwd=tmp)
        rows = png_pixels(png)[2] if os.path.exists(png) else []
        failed = 0
        n = 0
        by_name = {r["name"]: r for r in result}
        for path in figs:
            name = os.path.basename(path)
            r = by_name.get(name)
            n += 1
            if not r or not r["boxes"]:
                failed += 1
                print("not ok %d - %s: no title measured" % (n, name))
            else:
                bad = [b for b in r["boxes"] if b[0] < 0 or b[1] < 0 or b[0] + b[2] > r["w"] or b[1] + b[3] > r["h"]]
                print("%s %d - %s: the title's %d line(s) lie inside the %dx%d image%s" %
                      ("not ok" if bad else "ok", n, name, len(r["boxes"]), r["w"], r["h"],
                       (": outside " + str(bad)) if bad else ""))
                failed += bool(bad)
            n += 1
            if not r or not rows:
                failed += 1
                print("not ok %d - %s: no screenshot" % (n, name))
                continue
            top, h, w = int(r["top"] * SCALE), int(r["h"] * SCALE), int(r["w"] * SCALE)
            px = [p for row in rows[top:top + h] for p in row[:w]]
            ink = sum(1 for p in px if p != (255, 255, 255)) / max(len(px), 1)
            ok = ink > 0.02
            failed += not ok
            print("%s %d - %s: the screenshot is not blank (%.1f%% ink)" % ("ok" if ok else "not ok", n, name,
                                                                             100 * ink))
        return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Render a vpux-run --trace file as a self-contained HTML timeline.

    trace2html.py TRACE.json OUT.html [--title TEXT]
    trace2html.py --text TIMELINE.txt OUT.html [--title TEXT]

The first form draws what a trace viewer shows: a row per engine track
of each process, a box per complete ("X") event at its ts/dur, labelled,
and the flow arrows (s -> f) between them, as an SVG in one HTML page.
The second wraps the text of vpux-run --timeline in a terminal-like page.
Documentation/profiling.rst makes its screenshots from both with a
headless browser (make profiling-images).
"""
import html
import json
import sys

COLORS = {"dma": "#4e79a7", "dpu": "#f28e2b", "shave": "#59a14f"}


def text_page(src, out, title):
    body = html.escape(open(src).read())
    open(out, "w").write(
        "<!doctype html><html><head><meta charset='utf-8'><title>%s</title>"
        "<style>body{margin:0;background:#1e1e1e}"
        "pre{font:14px/1.35 'DejaVu Sans Mono',monospace;color:#d4d4d4;"
        "padding:14px 18px;margin:0}"
        ".bar{background:#333;color:#bbb;font:13px sans-serif;padding:6px 12px}"
        "</style></head><body><div class='bar'>%s</div><pre>%s</pre>"
        "</body></html>" % (html.escape(title), html.escape(title), body))


def trace_page(src, out, title):
    doc = json.load(open(src))
    ev = doc["traceEvents"]
    pname, tname, tsort = {}, {}, {}
    for e in ev:
        if e["ph"] == "M" and e["name"] == "process_name":
            pname[e["pid"]] = e["args"]["name"]
        elif e["ph"] == "M" and e["name"] == "thread_name":
            tname[(e["pid"], e["tid"])] = e["args"]["name"]
        elif e["ph"] == "M" and e["name"] == "thread_sort_index":
            tsort[(e["pid"], e["tid"])] = e["args"]["sort_index"]
    slices = [e for e in ev if e["ph"] == "X"]
    used = {(e["pid"], e["tid"]) for e in slices}
    rows = sorted((k for k in tname if k in used),
                  key=lambda k: (k[0], tsort.get(k, k[1])))
    end = max([e["ts"] + e["dur"] for e in slices] + [0.001])
    left, width, rh, top = 190, 1000, 34, 64
    y = {}
    cur = top
    header = []
    last_pid = None
    for k in rows:
        if k[0] != last_pid:
            header.append((cur, pname.get(k[0], "process %d" % k[0])))
            cur += 24
            last_pid = k[0]
        y[k] = cur
        cur += rh
    height = cur + 40
    sx = width / end
    svg = ["<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' "
           "font-family='sans-serif'>" % (left + width + 30, height)]
    svg.append("<defs><marker id='a' viewBox='0 0 10 10' refX='9' refY='5' "
               "markerWidth='7' markerHeight='7' orient='auto'>"
               "<path d='M0,0L10,5L0,10z' fill='#555'/></marker></defs>")
    svg.append("<rect width='100%' height='100%' fill='#fff'/>")
    svg.append("<text x='12' y='24' font-size='16' font-weight='bold'>%s</text>"
               % html.escape(title))
    # time axis: cycles (1 ns on the trace's axis = 1 cycle)
    step = 10 ** max(0, len(str(int(end * 1000))) - 1)
    while end * 1000 / step < 4:
        step //= 2 if step > 1 else 1
        if step <= 1:
            break
    t = 0
    while t <= end * 1000:
        x = left + t / 1000 * sx
        svg.append("<line x1='%.1f' y1='%d' x2='%.1f' y2='%d' stroke='#eee'/>"
                   % (x, top - 8, x, height - 30))
        svg.append("<text x='%.1f' y='%d' font-size='11' fill='#666' "
                   "text-anchor='middle'>%d</text>" % (x, top - 12, t))
        t += step
    svg.append("<text x='%d' y='%d' font-size='11' fill='#666'>device cycles</text>"
               % (left + width - 70, height - 12))
    for yy, name in header:
        svg.append("<text x='8' y='%d' font-size='13' font-weight='bold'>%s</text>"
                   % (yy + 16, html.escape(name)))
    for k in rows:
        svg.append("<rect x='0' y='%d' width='%d' height='%d' fill='%s'/>"
                   % (y[k], left + width + 30, rh, "#f7f7f7" if rows.index(k) % 2 else "#fff"))
        svg.append("<text x='20' y='%d' font-size='13'>%s</text>"
                   % (y[k] + 21, html.escape(tname[k])))
    pos = {}
    for e in slices:
        k = (e["pid"], e["tid"])
        x = left + e["ts"] * sx
        w = max(e["dur"] * sx, 1.5)
        col = COLORS.get(e.get("cat"), "#999")
        if not e["args"].get("completed", True):
            col = "#e15759"
        svg.append("<rect x='%.1f' y='%d' width='%.1f' height='%d' fill='%s' "
                   "stroke='#fff'><title>%s: %s</title></rect>"
                   % (x, y[k] + 4, w, rh - 8, col, html.escape(e["name"]),
                      html.escape(json.dumps(e["args"]))))
        if w > 40:
            svg.append("<text x='%.1f' y='%d' font-size='11' fill='#fff'>%s</text>"
                       % (x + 4, y[k] + 21, html.escape(e["name"][:int(w / 6.5)])))
        pos[(e["pid"], e["tid"], e["ts"])] = (x, w, y[k])
    starts = {}
    for e in ev:
        if e["ph"] == "s":
            starts[e["id"]] = e
    for e in ev:
        if e["ph"] != "f" or e["id"] not in starts:
            continue
        s = starts[e["id"]]
        a = pos.get((s["pid"], s["tid"], s["ts"]))
        b = pos.get((e["pid"], e["tid"], e["ts"]))
        if not a or not b:
            continue
        svg.append("<line x1='%.1f' y1='%d' x2='%.1f' y2='%d' stroke='#555' "
                   "stroke-width='1.2' marker-end='url(#a)'/>"
                   % (a[0] + a[1], a[2] + rh / 2, b[0] + 2, b[2] + rh / 2))
    lx = left
    for name, col in COLORS.items():
        svg.append("<rect x='%d' y='%d' width='12' height='12' fill='%s'/>"
                   "<text x='%d' y='%d' font-size='12'>%s</text>"
                   % (lx, height - 24, col, lx + 16, height - 13, name.upper()))
        lx += 80
    svg.append("<text x='%d' y='%d' font-size='12'>arrows: barrier edges</text>"
               % (lx, height - 13))
    svg.append("</svg>")
    open(out, "w").write("<!doctype html><html><head><meta charset='utf-8'>"
                         "<title>%s</title></head><body style='margin:0'>%s"
                         "</body></html>" % (html.escape(title), "".join(svg)))


def main():
    a = sys.argv[1:]
    title = "vpux trace"
    if "--title" in a:
        i = a.index("--title")
        title = a[i + 1]
        del a[i:i + 2]
    if a and a[0] == "--text":
        text_page(a[1], a[2], title)
    elif len(a) == 2:
        trace_page(a[0], a[1], title)
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)


main()

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Check a vpux-run --trace file against the Chrome trace-event format.

    trace_check.py TRACE.json [RUN.json] [--overlap KIND,KIND] [--processes N]

Checks the fields the trace-event format requires of each phase used
(M metadata, X complete, s/f flow), that every slice sits on a named
engine track, that flows pair up, and that each slice's duration is its
op's cycles (1 ns on the axis = 1 cycle). With RUN.json (vpux-run
--json of the same run) every slice's cycles must equal the profile's
per-op cycles and start/end; with --overlap, slices of the two kinds
must overlap in time; with --processes, that many processes (requests).
Exits 0 and prints a summary, or 1 naming the first problem.
"""
import json
import sys


def fail(msg):
    print("trace_check: " + msg, file=sys.stderr)
    sys.exit(1)


def main():
    args = sys.argv[1:]
    overlap = None
    procs = None
    files = []
    while args:
        a = args.pop(0)
        if a == "--overlap":
            overlap = args.pop(0).split(",")
        elif a == "--processes":
            procs = int(args.pop(0))
        else:
            files.append(a)
    if not files:
        fail("usage: trace_check.py TRACE.json [RUN.json] [--overlap A,B] [--processes N]")
    doc = json.load(open(files[0]))
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        fail("no traceEvents array (JSON object format)")
    threads = {}
    slices = []
    flows = {}
    pids = set()
    for i, e in enumerate(doc["traceEvents"]):
        for k in ("name", "ph", "pid", "tid"):
            if k not in e:
                fail("event %d has no '%s': %r" % (i, k, e))
        ph = e["ph"]
        if not isinstance(e["pid"], int) or not isinstance(e["tid"], int):
            fail("event %d: pid/tid not integers" % i)
        pids.add(e["pid"])
        if ph == "M":
            if not isinstance(e.get("args"), dict):
                fail("metadata event %d without args" % i)
            if e["name"] == "thread_name":
                threads[(e["pid"], e["tid"])] = e["args"]["name"]
        elif ph == "X":
            for k in ("ts", "dur", "cat", "args"):
                if k not in e:
                    fail("complete event %d has no '%s'" % (i, k))
            if not isinstance(e["ts"], (int, float)) or e["ts"] < 0 or \
               not isinstance(e["dur"], (int, float)) or e["dur"] < 0:
                fail("complete event %d: bad ts/dur" % i)
            slices.append(e)
        elif ph in ("s", "f"):
            for k in ("id", "ts", "cat"):
                if k not in e:
                    fail("flow event %d has no '%s'" % (i, k))
            if ph == "f" and e.get("bp") != "e":
                fail("flow end %d does not bind to its enclosing slice" % i)
            flows.setdefault(e["id"], []).append(e)
        else:
            fail("event %d: unexpected phase %r" % (i, ph))
    for fid, fl in flows.items():
        if sorted(x["ph"] for x in fl) != ["f", "s"]:
            fail("flow %r does not pair a start with an end" % fid)
    if not slices:
        fail("no slices")
    by_key = {}
    for e in slices:
        track = threads.get((e["pid"], e["tid"]))
        if track is None:
            fail("slice %r on an unnamed track" % e["name"])
        a = e["args"]
        if not track.lower().startswith(a["kind"]):
            fail("slice %r (%s) on track %s" % (e["name"], a["kind"], track))
        if a["completed"]:
            if round(e["dur"] * 1000) != a["cycles"]:
                fail("slice %r: dur %r us != %d cycles" % (e["name"], e["dur"], a["cycles"]))
            if a["end_cycle"] - a["start_cycle"] != a["cycles"]:
                fail("slice %r: end - start != cycles" % e["name"])
        if round(e["ts"] * 1000) != a["start_cycle"]:
            fail("slice %r: ts %r != start cycle %d" % (e["name"], e["ts"], a["start_cycle"]))
        by_key[(e["pid"], a["kind"], a["index"])] = e
    if len(files) > 1:
        run = json.load(open(files[1]))
        for o in run["ops"]:
            e = by_key.get((1, o["engine"], o["index"]))
            if e is None:
                fail("op %s#%d of the profile has no slice" % (o["engine"], o["index"]))
            if e["args"]["cycles"] != o["cycles"]:
                fail("%s: %d cycles, the profile says %d" % (e["name"], e["args"]["cycles"], o["cycles"]))
            if "start_cycle" in o and (o["start_cycle"] != e["args"]["start_cycle"] or
                                       o["end_cycle"] != e["args"]["end_cycle"]):
                fail("%s: start/end differ from vpux-run --json" % e["name"])
    if overlap:
        a_kind, b_kind = overlap
        found = None
        for x in slices:
            if x["args"]["kind"] != a_kind:
                continue
            for y in slices:
                if y["args"]["kind"] != b_kind or y["pid"] != x["pid"]:
                    continue
                if x["ts"] < y["ts"] + y["dur"] and y["ts"] < x["ts"] + x["dur"]:
                    found = (x["name"], y["name"])
                    break
            if found:
                break
        if not found:
            fail("no %s slice overlaps a %s slice" % (a_kind, b_kind))
    if procs is not None and len(pids) != procs:
        fail("%d processes, want %d" % (len(pids), procs))
    msg = "%d slices on %d tracks, %d flows, %d process(es)" % (
        len(slices), len(threads), len(flows), len(pids))
    if overlap:
        msg += "; %s overlaps %s" % found
    print(msg)


main()

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Where a 2-CPU machine put its wakees: each sched_waking .. sched_wakeup pair of an ftrace text
trace (a real one, or `schedscope-cli run ... --export-ftrace F`), classified by whether the
wakee's previous CPU (sched_waking's target_cpu) and the other CPU were idle at the waking, whether
the waking ran on the previous CPU or the other one, and whether the wakee stayed on its previous
CPU or moved. With --busy-prev, the pairs whose previous CPU was busy and the other idle, by
wakee comm, waker and context (the line's irq-context character: h hardirq, s softirq, . task).

    python3 docs/tools/wakee_placement.py TRACE [--busy-prev]

A CPU is idle when its last switch went to the idle task, no woken task waits for it, and no line
of a task ran on it since (the traces' CPU 1 lacks its idle -> task switches, README quirks).
TRACE may be .xz compressed (tests/data/traces/*.trace.xz)."""
import argparse, collections, lzma, re

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("trace")
ap.add_argument("--busy-prev", action="store_true", help="list the busy-prev, idle-other pairs by comm")
args = ap.parse_args()
opener = lzma.open if args.trace.endswith(".xz") else open
line_rx = re.compile(r"^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+(\S+)\s+([\d.]+):\s+(\w+):\s+(.*)$")
cur = {0: 0, 1: 0}      # pid running on each CPU (0: idle)
pending = {0: 0, 1: 0}  # woken tasks not yet seen running there
waking, counts, busy_prev = {}, collections.Counter(), collections.Counter()
with opener(args.trace, "rt") as f:
    for line in f:
        m = line_rx.match(line)
        if not m:
            continue
        comm, pid, cpu, flags, _, event, rest = m.groups()
        pid, cpu = int(pid), int(cpu)
        if cpu not in cur:
            raise SystemExit(f"{args.trace}: CPU {cpu}: this tool reads 2-CPU traces")
        if pid != 0:
            pending[cpu] = 0
            if event != "sched_switch":
                cur[cpu] = pid
        if event == "sched_switch":
            nxt = int(re.search(r"next_pid=(\d+)", rest).group(1))
            cur[cpu] = nxt
            if nxt != 0:
                pending[cpu] = 0
        elif event == "sched_waking":
            wakee = int(re.search(r" pid=(\d+)", rest).group(1))
            prev = int(re.search(r"target_cpu=(\d+)", rest).group(1))
            idle = {c: cur[c] == 0 and pending[c] == 0 for c in cur}
            wakee_comm = re.sub(r"\d+", "N", re.search(r"comm=(\S+)", rest).group(1))
            waking[wakee] = (prev, cpu, idle, wakee_comm, re.sub(r"\d+", "N", comm), flags[2])
        elif event == "sched_wakeup":
            wakee = int(re.search(r" pid=(\d+)", rest).group(1))
            dest = int(re.search(r"target_cpu=(\d+)", rest).group(1))
            if wakee in waking:
                prev, waker_cpu, idle, wakee_comm, waker, ctx = waking.pop(wakee)
                key = ("prev idle" if idle[prev] else "prev busy",
                       "other idle" if idle[1 - prev] else "other busy",
                       "waker on prev" if waker_cpu == prev else "waker on other",
                       "stayed" if dest == prev else "moved")
                counts[key] += 1
                if not idle[prev] and idle[1 - prev] and waker_cpu == prev:
                    busy_prev[(wakee_comm, waker, ctx, key[3])] += 1
            if cur[dest] == 0:
                pending[dest] += 1
for key, n in sorted(counts.items()):
    print(f"{n:7d}  {', '.join(key)}")
if args.busy_prev:
    print("\nprev busy, other idle, waker on prev: wakee, waker, context, outcome")
    for key, n in sorted(busy_prev.items(), key=lambda kv: -kv[1]):
        print(f"{n:7d}  {', '.join(key)}")

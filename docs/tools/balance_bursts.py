#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Migrations in an ftrace text trace (a real one, or `schedscope-cli run … --export-ftrace F`),
split into wakeup migrations (a sched_migrate_task inside the task's sched_waking .. sched_wakeup
window) and balancer migrations, the latter grouped into bursts (same destination CPU, < 200 us
apart): how many tasks one balance moved, and which context ran it.

    python3 docs/tools/balance_bursts.py TRACE [--comm hackbench]

TRACE may be .xz compressed (tests/data/traces/*.trace.xz)."""
import argparse, collections, lzma, re

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("trace")
ap.add_argument("--comm", default="hackbench", help="count only migrations of tasks with this comm")
args = ap.parse_args()
opener = lzma.open if args.trace.endswith(".xz") else open
line_rx = re.compile(r"^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+(\S+)\s+([\d.]+):\s+(\w+):\s+(.*)$")
pid_rx = re.compile(r" pid=(\d+)")
waking, bursts, cur, wakeup_migrations = set(), [], None, 0
for line in opener(args.trace, "rt"):
    m = line_rx.match(line)
    if not m:
        continue
    comm, _, _, flags, ts, event, rest = m.groups()
    ts = float(ts)
    if event == "sched_waking":
        waking.add(int(pid_rx.search(rest).group(1)))
    elif event in ("sched_wakeup", "sched_wakeup_new"):
        waking.discard(int(pid_rx.search(rest).group(1)))
    elif event == "sched_migrate_task" and f"comm={args.comm} " in rest + " ":
        fields = dict(re.findall(r"(\w+)=(\S+)", rest))
        if int(fields["pid"]) in waking:
            wakeup_migrations += 1
            continue
        dest = int(fields["dest_cpu"])
        if cur and cur[0] == dest and ts - cur[2] < 200e-6:
            cur[1] += 1
            cur[2] = ts
        else:
            if cur:
                bursts.append(cur)
            # an 's' in the irq-flags column: softirq context (the periodic or NOHZ idle balance)
            cur = [dest, 1, ts, comm, "softirq" if "s" in flags else "task"]
if cur:
    bursts.append(cur)
balance = sum(b[1] for b in bursts)
print(f"migrations of {args.comm}: {wakeup_migrations + balance} ({wakeup_migrations} at wakeup, {balance} by the balancer)")
print(f"balancer bursts: {len(bursts)}; tasks per burst (10 = 10 or more):",
      sorted(collections.Counter(min(b[1], 10) for b in bursts).items()))
print("context of each burst's first migration:",
      collections.Counter(b[4] for b in bursts).most_common())

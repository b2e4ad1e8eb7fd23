#!/usr/bin/env python3
"""Compares easel builds on one document, run for run in turn: median wall and CPU time.

    Tools/ab-exports.py CARD NAME=BINARY[:VAR=VALUE...] NAME=BINARY ...

Each round runs every build once (the order reversed every other round, so that neither
always follows the other), `easel export CARD --out` a file in a scratch folder; the wall
time is the process's, the CPU time its user and system time from wait4. RUNS (default 41)
sets the rounds. A build may carry environment variables (`new=./easel:EASEL_THREADS=1`).
The machines Easel is measured on are shared and noisy: read medians of many rounds, and
compare builds only within one invocation.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time


def parse(spec):
    name, rest = spec.split("=", 1)
    binary, *assignments = rest.split(":")
    return name, binary, dict(assignment.split("=", 1) for assignment in assignments)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    card, builds = sys.argv[1], [parse(spec) for spec in sys.argv[2:]]
    rounds = int(os.environ.get("RUNS", "41"))
    wall = {name: [] for name, _, _ in builds}
    cpu = {name: [] for name, _, _ in builds}
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "out.png")
        for index in range(rounds):
            for name, binary, variables in builds if index % 2 == 0 else builds[::-1]:
                environment = dict(os.environ, **variables)
                start = time.perf_counter()
                process = subprocess.Popen(
                    [binary, "export", card, "--out", out], stdout=subprocess.DEVNULL, env=environment)
                _, status, usage = os.wait4(process.pid, 0)
                wall[name].append((time.perf_counter() - start) * 1000)
                cpu[name].append((usage.ru_utime + usage.ru_stime) * 1000)
                if status != 0:
                    sys.exit(f"{name}: easel export {card} failed")
    print(os.path.basename(card), "  ".join(
        f"{name} wall {statistics.median(wall[name]):6.2f} cpu {statistics.median(cpu[name]):6.2f}"
        for name, _, _ in builds))


if __name__ == "__main__":
    main()

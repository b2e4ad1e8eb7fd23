#!/usr/bin/env python3
"""Times `easel export` of the same documents by several easel binaries, as processes, in
turn: each round runs every binary once per document, in an order that rotates from round
to round, so a noisy minute falls on all of them. Prints each binary's median with its
quartiles, the median of its per-round differences from the binary before it and from the
first, and whether every binary wrote the same bytes. How docs/performance.md measured the
start-up devices it kept and removed.

    python3 Tools/compare-exports.py --runs 60 \\
        --document Assets/Samples/1A2B3C4D-0000-4000-8000-000000000002.rwcard \\
        before=/tmp/easel-before after=.build/release/easel

The machine should be quiet: other builds and tests add far more than a millisecond.
"""
import argparse
import hashlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=40, help="rounds (each binary runs once per document in each)")
    parser.add_argument("--document", action="append", required=True, help="a document to export (repeatable)")
    parser.add_argument("binaries", nargs="+", help="NAME=PATH of an easel binary; the first is the reference")
    arguments = parser.parse_args()
    binaries = [entry.split("=", 1) for entry in arguments.binaries]
    if any(len(entry) != 2 for entry in binaries):
        sys.exit("each binary is NAME=PATH")
    output = tempfile.mkdtemp(prefix="compare-exports-")
    times = {(name, document): [] for name, _ in binaries for document in arguments.document}

    def export(name, binary, document):
        # Each binary writes into a folder of its own, replacing its previous output.
        target = os.path.join(output, name, os.path.basename(document) + ".png")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        start = time.perf_counter()
        finished = subprocess.run([binary, "export", document, "-o", target], capture_output=True)
        elapsed = (time.perf_counter() - start) * 1000
        if finished.returncode != 0:
            sys.exit(f"{name} {document}: exit {finished.returncode}: {finished.stderr.decode()}")
        return elapsed, target

    for document in arguments.document:  # once untimed: the page cache, the fonts
        for name, binary in binaries:
            export(name, binary, document)
    for round in range(arguments.runs):
        shift = round % len(binaries)
        for document in arguments.document:
            for name, binary in binaries[shift:] + binaries[:shift]:
                times[(name, document)].append(export(name, binary, document)[0])

    print(f"{arguments.runs} rounds; medians [quartiles] in ms; differences are medians of per-round differences")
    for document in arguments.document:
        digests = set()
        for name, binary in binaries:
            with open(os.path.join(output, name, os.path.basename(document) + ".png"), "rb") as file:
                digests.add(hashlib.sha256(file.read()).hexdigest())
        print(f"{document}: {'the same bytes' if len(digests) == 1 else 'DIFFERENT BYTES'}")
        first = times[(binaries[0][0], document)]
        previous = None
        for name, _ in binaries:
            these = sorted(times[(name, document)])
            quartiles = these[len(these) // 4], these[(3 * len(these)) // 4]
            line = f"  {name:16} {statistics.median(these):7.2f} [{quartiles[0]:.2f}-{quartiles[1]:.2f}]"
            if previous is not None:
                before = times[(previous, document)]
                step = statistics.median(a - b for a, b in zip(times[(name, document)], before))
                total = statistics.median(a - b for a, b in zip(times[(name, document)], first))
                line += f"  from {previous}: {step:+.2f} ({100 * step / statistics.median(before):+.1f} %)"
                if previous != binaries[0][0]:
                    line += f"  from {binaries[0][0]}: {total:+.2f} ({100 * total / statistics.median(first):+.1f} %)"
            print(line)
            previous = name
    shutil.rmtree(output)


if __name__ == "__main__":
    main()

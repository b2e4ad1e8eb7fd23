"""deploy/slurm/export.sbatch on a real single-node Slurm cluster (Debian's slurm-wlm and
munge): 500 cards in an array of 4 shards; one task SIGKILLed mid-run (as the kernel's OOM
killer or a dying node does) and requeued with `scontrol requeue`; the run converges (every
PNG whole, each document rendered once, the merged report complete, PNGs byte-identical to
a single export); then the same folder in 2 shards renders nothing.

    python3 Tests/Scale/slurm_export_test.py EASEL_BINARY_FOLDER [WORK_FOLDER]
"""

import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from scale_support import ROOT, Processes, SlurmCluster, check, finish, make_cards, png_problem, wait_for

CARDS = 500
SHARDS = 4
KILLED_TASK = 2
JOBS = 2  # the script's --jobs (SLURM_CPUS_PER_TASK): at most this many documents in flight when killed


def main():
    started = time.monotonic()
    binaries = Path(sys.argv[1]).resolve()
    work = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(tempfile.mkdtemp(prefix="easel-slurm-"))
    work.mkdir(parents=True, exist_ok=True)
    easel = binaries / "easel"
    names = make_cards(work / "cards", CARDS)
    pngs, reports = work / "pngs", work / "reports"
    processes = Processes()
    cluster = SlurmCluster(work / "slurm", processes)
    try:
        cluster.start()
        print(f"slurm: a node of {os.cpu_count()} CPUs up after {time.monotonic() - started:.1f} s", flush=True)
        environment = dict(cluster.environment, PATH=f"{binaries}:{os.environ['PATH']}")
        script = ROOT / "deploy" / "slurm" / "export.sbatch"

        def submit(array, report_folder):
            output = cluster.run(["sbatch", "--parsable", f"--array={array}", "--cpus-per-task", str(JOBS), str(script),
                                  str(work / "cards"), str(pngs), str(report_folder)], env=environment, cwd=work)
            return output.strip().split(";")[0]

        job = submit(f"1-{SHARDS}", reports)
        journal = pngs / f".easel-journal-{KILLED_TASK}-of-{SHARDS}.jsonl"

        def journal_lines():
            try:
                return journal.read_text().count("\n")
            except FileNotFoundError:
                return 0

        wait_for(lambda: journal_lines() >= 10, 120, f"task {KILLED_TASK} to have rendered 10 documents", interval=0.01)
        holder = (pngs / f".easel-lease-{KILLED_TASK}-of-{SHARDS}").read_text()
        pid = int(holder.split()[1])
        os.kill(pid, 9)
        # What is on disk as the task dies: a document whose PNG is here is never rendered again.
        present = {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in pngs.glob("*.png")}
        check(f"pid {pid} on" in holder, f"the lease names the running task: {holder.strip()}")
        print(f"killed task {KILLED_TASK} (pid {pid}) with {len(present)} PNGs in the folder", flush=True)
        wait_for(lambda: cluster.job_states(job).get(KILLED_TASK) == "FAILED", 60, "Slurm to see the task fail", 0.2)
        cluster.run(["scontrol", "requeue", f"{job}_{KILLED_TASK}"])
        # Slurm holds a requeued job back two minutes (for the node to clean up); start it now.
        cluster.run(["scontrol", "update", f"JobId={job}_{KILLED_TASK}", "StartTime=now"])
        states = cluster.wait_until_done(job, 240)
        check(set(states.values()) == {"COMPLETED"}, f"every task completed after the requeue: {states}")

        problems = {name: png_problem(pngs / f"{name}.png") if (pngs / f"{name}.png").exists() else "missing"
                    for name in names}
        bad = {name: problem for name, problem in problems.items() if problem}
        check(not bad, f"all {CARDS} PNGs are whole ({len(bad)} not: {list(bad.items())[:3]})")

        shard_reports = sorted(reports.glob("*.json"))
        check([p.name for p in shard_reports] == [f"report-{k}-of-{SHARDS}.json" for k in range(1, SHARDS + 1)],
              f"a report per shard: {[p.name for p in shard_reports]}")
        killed = json.loads((reports / f"report-{KILLED_TASK}-of-{SHARDS}.json").read_text())
        statuses = {Path(e["input"]).stem + ".png": e["status"] for e in killed["entries"]}
        kept = [n for n, s in statuses.items() if s == "skipped"]
        redone = [n for n, s in statuses.items() if s == "rendered" and n in present]
        check(len(kept) >= 10 and all(n in present for n in kept),
              f"the requeued task kept what the killed one made: {len(kept)} of {len(statuses)} up to date")
        check(len(redone) <= JOBS, f"at most the {JOBS} documents in flight rendered again: {len(redone)}")
        after = {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in pngs.glob("*.png")}
        rewritten = [n for n in present if after.get(n) != present[n]]
        check(len(rewritten) <= JOBS, f"no PNG there at the kill written again but those in flight: {rewritten}")

        merged = subprocess.run([str(easel), "report", "merge", *map(str, shard_reports), "-o", str(work / "report.json"),
                                 "--html", str(work / "report.html")], capture_output=True, text=True, timeout=60)
        check(merged.returncode == 0, f"the merged report is complete (exit {merged.returncode}) {merged.stderr.strip()}")
        totals = json.loads((work / "report.json").read_text())["totals"]
        check(totals["documents"] == CARDS and totals["failed"] == 0
              and totals["rendered"] + totals["skipped"] == CARDS, f"merged totals: {totals}")
        rendered_all = sum(json.loads(p.read_text())["totals"]["rendered"] for p in shard_reports) + len(kept)
        check(CARDS <= rendered_all <= CARDS + JOBS,
              f"each document rendered once (renders counted: {rendered_all} for {CARDS} documents)")

        sample = random.Random(7).sample(names, 12)
        same = 0
        for name in sample:
            alone = work / "alone" / f"{name}.png"
            alone.parent.mkdir(exist_ok=True)
            subprocess.run([str(easel), "export", str(work / "cards" / f"{name}.rwcard"), "-o", str(alone)],
                           capture_output=True, timeout=60, check=True)
            same += alone.read_bytes() == (pngs / f"{name}.png").read_bytes()
        check(same == len(sample), f"sharded PNGs are byte-identical to single exports ({same} of {len(sample)})")

        again = submit("1-2", work / "reports-2")
        states = cluster.wait_until_done(again, 120)
        check(set(states.values()) == {"COMPLETED"}, f"the run in 2 shards completed: {states}")
        second = subprocess.run([str(easel), "report", "merge", *map(str, sorted((work / "reports-2").glob("*.json"))),
                                 "-o", str(work / "report-2.json")], capture_output=True, text=True, timeout=60)
        totals = json.loads((work / "report-2.json").read_text())["totals"]
        check(second.returncode == 0 and totals["rendered"] == 0 and totals["skipped"] == CARDS,
              f"2 shards after 4 render nothing: {totals}")
        leftovers = sorted(p.name for p in pngs.glob(".easel-journal-*"))
        manifest = json.loads((pngs / ".easel-manifest.json").read_text())
        check(not leftovers, f"every journal folded into the manifest once its run ended: {leftovers}")
        check(len(manifest.get("entries", manifest)) == CARDS, f"the manifest records the {CARDS} documents")
    finally:
        cluster.stop()
        processes.stop_all()
    finish("slurm export", started)


if __name__ == "__main__":
    main()

"""What the scale tests share: checks that count failures, bounded waits, a folder of
generated cards, a PNG checker, and the real engines started in a scratch folder and
stopped by PID: a single-node Slurm cluster (munged, slurmctld, slurmd from Debian's
packages) and nginx running the repository's site file in front of easel-serve replicas."""

import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "Assets" / "Samples"

failures = []


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message, flush=True)
    if not condition:
        failures.append(message)
    return condition


def finish(name, started):
    """Prints the time taken and exits 1 when a check failed."""
    print(f"{name}: {time.monotonic() - started:.1f} s", flush=True)
    if failures:
        print(f"{len(failures)} {name} check(s) failed")
        raise SystemExit(1)
    print(f"{name}: every check passed")


def wait_for(condition, seconds, what, interval=0.05):
    """Calls `condition` until it returns something true, for at most `seconds`; fails naming `what`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(interval)
    raise TimeoutError(f"gave up after {seconds} s waiting for {what}")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def port_is_free(port):
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


def make_cards(folder, count):
    """`count` distinct cards made from the sample cards (each its own background, and its
    own words where the sample has text), beside the samples' photos; returns their names."""
    folder.mkdir(parents=True, exist_ok=True)
    samples = sorted(SAMPLES.glob("*.rwcard"))
    for photo in SAMPLES.iterdir():
        if photo.is_file() and not photo.suffix:
            shutil.copy(photo, folder / photo.name)
    names = []
    for number in range(count):
        card = json.loads(samples[number % len(samples)].read_text())
        identifier = f"5CA1E000-0000-4000-8000-{number:012d}"
        card["id"] = identifier
        card.setdefault("textElements", [])  # the legacy sample has neither this nor a background
        card["backgroundColor"] = [(number % 10) / 10, (number // 10 % 10) / 10, (number // 100 % 10) / 10, 1]
        for text in card.get("textElements", []):
            text["text"] = f"Card {number}"
        (folder / f"{identifier}.rwcard").write_text(json.dumps(card))
        names.append(identifier)
    return names


def png_problem(path):
    """None for a whole PNG (signature, every chunk's CRC, IHDR first, IEND last), else what is wrong."""
    data = path.read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return "no PNG signature"
    offset, kinds = 8, []
    while offset + 12 <= len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        kind = data[offset + 4 : offset + 8]
        body = data[offset + 8 : offset + 8 + length]
        if len(body) != length:
            return f"chunk {kind!r} cut short"
        (crc,) = struct.unpack(">I", data[offset + 8 + length : offset + 12 + length])
        if zlib.crc32(kind + body) != crc:
            return f"chunk {kind!r} has a wrong CRC"
        kinds.append(kind)
        offset += 12 + length
    if not kinds or kinds[0] != b"IHDR" or kinds[-1] != b"IEND" or offset != len(data):
        return f"chunks {kinds[:3]}…{kinds[-2:]} do not make a whole PNG"
    return None


class Processes:
    """Processes this test started, stopped by PID (SIGTERM, then SIGKILL after 5 s) in reverse order."""

    def __init__(self):
        self.started = []

    def start(self, arguments, log, **options):
        process = subprocess.Popen(arguments, stdout=log, stderr=subprocess.STDOUT, **options)
        self.started.append(process)
        return process

    def stop_all(self):
        for process in reversed(self.started):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(5)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(5)
        self.started.clear()


class SlurmCluster:
    """A single-node Slurm cluster in `folder`: its own munge key and socket, slurm.conf,
    state and logs, ports picked free; the node is this machine with its CPUs."""

    def __init__(self, folder, processes):
        self.folder = folder
        self.processes = processes
        self.environment = dict(os.environ, SLURM_CONF=str(folder / "slurm.conf"))

    def start(self):
        folder = self.folder
        for name in ["state", "spool"]:
            (folder / name).mkdir(parents=True, exist_ok=True)
        key = folder / "munge.key"
        key.write_bytes(os.urandom(1024))
        key.chmod(0o600)
        socket_path = folder / "munge.socket"
        self.processes.start(
            ["munged", "--foreground", "--force", f"--key-file={key}", f"--socket={socket_path}",
             f"--pid-file={folder / 'munged.pid'}", f"--seed-file={folder / 'munged.seed'}"],
            open(folder / "munged.log", "w"))
        wait_for(socket_path.exists, 10, "munged's socket")
        node = socket.gethostname().split(".")[0]
        cpus = os.cpu_count() or 1
        (folder / "slurm.conf").write_text("\n".join([
            "ClusterName=easelscale",
            f"SlurmctldHost={node}(127.0.0.1)",
            f"SlurmctldPort={free_port()}",
            f"SlurmdPort={free_port()}",
            "SlurmUser=root",
            "SlurmdUser=root",
            "AuthType=auth/munge",
            "CredType=cred/munge",
            f"AuthInfo=socket={socket_path}",
            f"StateSaveLocation={folder / 'state'}",
            f"SlurmdSpoolDir={folder / 'spool'}",
            f"SlurmctldPidFile={folder / 'slurmctld.pid'}",
            f"SlurmdPidFile={folder / 'slurmd.pid'}",
            f"SlurmctldLogFile={folder / 'slurmctld.log'}",
            f"SlurmdLogFile={folder / 'slurmd.log'}",
            # No cgroups in a container: processes tracked by their parentage, tasks not pinned.
            "ProctrackType=proctrack/linuxproc",
            "TaskPlugin=task/none",
            "JobAcctGatherType=jobacct_gather/none",
            "AccountingStorageType=accounting_storage/none",
            "SchedulerType=sched/builtin",
            "SelectType=select/cons_tres",
            "SelectTypeParameters=CR_CPU",
            "ReturnToService=2",
            "MpiDefault=none",
            "PlugStackConfig=/dev/null",
            f"NodeName={node} NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN",
            "PartitionName=easel Nodes=ALL Default=YES MaxTime=INFINITE State=UP",
            "",
        ]))
        self.processes.start(["slurmctld", "-D", "-c"], open(folder / "slurmctld.out", "w"), env=self.environment)
        self.processes.start(["slurmd", "-D"], open(folder / "slurmd.out", "w"), env=self.environment)
        wait_for(lambda: self.run(["sinfo", "-h", "-o", "%T"], check=False).strip() == "idle", 60,
                 "the Slurm node to be idle", interval=0.5)

    def run(self, arguments, check=True, **options):
        """Runs a Slurm command against this cluster; returns its output."""
        result = subprocess.run(arguments, env=options.pop("env", self.environment), capture_output=True, text=True,
                                timeout=60, **options)
        if check and result.returncode != 0:
            raise RuntimeError(f"{' '.join(arguments)}: {result.returncode} {result.stderr}")
        return result.stdout

    def job_states(self, job):
        """Each array task's state by task id, as scontrol shows them (pending, running, finished)."""
        text = self.run(["scontrol", "-o", "show", "job", str(job)], check=False)
        states = {}
        for line in text.splitlines():
            fields = dict(part.split("=", 1) for part in line.split() if "=" in part)
            for task in expand_tasks(fields.get("ArrayTaskId", "")):
                states[task] = fields.get("JobState", "")
        return states

    def wait_until_done(self, job, seconds):
        finished = {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY"}
        return wait_for(lambda: (s := self.job_states(job)) and all(v in finished for v in s.values()) and s,
                        seconds, f"job {job} to finish", interval=0.5)

    def stop(self):
        self.run(["scancel", "--full", "-u", "root"], check=False)


def expand_tasks(text):
    """Array task ids from scontrol's ArrayTaskId (`3`, `2-4`, `1,3-4`, with a `%limit`)."""
    tasks = []
    for part in text.split("%")[0].split(","):
        if "-" in part:
            low, high = part.split("-")
            tasks += range(int(low), int(high) + 1)
        elif part.isdigit():
            tasks.append(int(part))
    return tasks

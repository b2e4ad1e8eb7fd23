"""Floods an `easel serve` it starts itself, and measures what the flood costs it.

Usage: flood.py EASEL FOLDER bodies [COUNT [MIB]]
       flood.py EASEL FOLDER connections COUNT FD_LIMIT

bodies:      COUNT (40) parallel POSTs of MIB (32) MiB each to /api/render (a small
             drawing padded with spaces to the size, valid JSON).
connections: COUNT idle connections opened to a server started with its open-file limit
             (soft and hard) at FD_LIMIT, held for 5 seconds.

During each flood the server's memory is sampled (/proc/PID/status: VmRSS and VmHWM, the
peak) and GET /healthz is asked on a new connection every 200 ms (5 s timeout each).
Prints the statuses, the peak memory and the probe latencies; stops the server (SIGTERM)
and exits 1 if a probe went unanswered. Loopback only; Python 3 standard library only.
Not a test (nothing is asserted on memory): a measurement for ServerLimits' doc comments.
"""
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import threading
import time

DRAWING = (
    b'{"format":"org.easel.drawing","version":1,"canvas":{"size":[200,100],"background":[1,1,1,1]},'
    b'"graphics":[{"kind":"ellipse","transform":{"center":[100,50],"size":[80,60],"rotation":30},"fill":[1,0,0,1]}]}'
)


def start_server(easel, folder, fd_limit=None):
    def limit():
        if fd_limit:
            resource.setrlimit(resource.RLIMIT_NOFILE, (fd_limit, fd_limit))

    server = subprocess.Popen(
        [easel, "serve", folder, "--port", "0"], stderr=subprocess.PIPE, preexec_fn=limit
    )
    deadline = time.time() + 60
    while time.time() < deadline:
        line = server.stderr.readline().decode()
        found = re.search(r"serving .* on http://127\.0\.0\.1:(\d+)", line)
        if found:
            # Keep draining stderr so the server never blocks on a full pipe.
            threading.Thread(target=server.stderr.read, daemon=True).start()
            return server, int(found.group(1))
        if server.poll() is not None:
            break
    server.kill()
    sys.exit("the server did not start")


def memory(pid):
    """(VmRSS, VmHWM) in MiB."""
    with open(f"/proc/{pid}/status") as status:
        fields = dict(line.split(":", 1) for line in status if ":" in line)
    return tuple(int(fields[key].split()[0]) / 1024 for key in ("VmRSS", "VmHWM"))


def read_response(sock):
    """The status of the response on `sock` (read until the server closes), or None."""
    data = b""
    try:
        while len(data) < 1 << 20:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    except OSError:
        pass
    match = re.match(rb"HTTP/1\.1 (\d{3})", data)
    return int(match.group(1)) if match else None


def health(port):
    """(status, seconds) of one GET /healthz on a new connection."""
    started = time.time()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.settimeout(5)
            sock.sendall(f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
            status = read_response(sock)
    except OSError:
        status = None
    return status, time.time() - started


class Watch:
    """Samples memory every 50 ms and probes /healthz every 200 ms until stopped."""

    def __init__(self, pid, port):
        self.pid, self.port = pid, port
        self.stop = threading.Event()
        self.peak_rss = 0.0
        self.probes = []
        self.threads = [threading.Thread(target=self.sample), threading.Thread(target=self.probe)]
        for thread in self.threads:
            thread.start()

    def sample(self):
        while not self.stop.wait(0.05):
            self.peak_rss = max(self.peak_rss, memory(self.pid)[0])

    def probe(self):
        while not self.stop.wait(0.2):
            self.probes.append(health(self.port))

    def finish(self):
        self.stop.set()
        for thread in self.threads:
            thread.join()
        latencies = sorted(seconds for status, seconds in self.probes if status == 200)
        failed = sum(1 for status, _ in self.probes if status != 200)
        return latencies, failed


def flood_bodies(port, count, mebibytes):
    body = DRAWING + b" " * ((mebibytes << 20) - len(DRAWING))
    head = (
        f"POST /api/render HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode()
    statuses = [None] * count
    barrier = threading.Barrier(count)

    def post(index):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
                sock.settimeout(60)
                barrier.wait(timeout=60)
                try:
                    sock.sendall(head + body)
                except OSError:
                    pass  # refused and closed while sending: the answer may still be there
                statuses[index] = read_response(sock)
        except OSError as error:
            statuses[index] = f"error {error.errno}"

    threads = [threading.Thread(target=post, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


def flood_connections(port, count, hold):
    sockets = []
    for _ in range(count):
        try:
            sockets.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        except OSError:
            break
    time.sleep(hold)
    closed = 0
    for sock in sockets:
        sock.setblocking(False)
        try:
            closed += sock.recv(1, socket.MSG_PEEK) == b""
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
        sock.close()
    return len(sockets), closed


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    easel, folder, mode, *rest = sys.argv[1:]
    fd_limit = int(rest[1]) if mode == "connections" else None
    # The client's own limit must hold the flood's sockets.
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    server, port = start_server(easel, folder, fd_limit)
    try:
        time.sleep(0.5)
        before = memory(server.pid)
        print(f"server {server.pid} on port {port}: at rest {before[0]:.0f} MiB")
        watch = Watch(server.pid, port)
        started = time.time()
        if mode == "bodies":
            count = int(rest[0]) if rest else 40
            mebibytes = int(rest[1]) if len(rest) > 1 else 32
            statuses = flood_bodies(port, count, mebibytes)
            summary = {status: statuses.count(status) for status in set(statuses)}
            print(f"{count} POSTs of {mebibytes} MiB: {summary} in {time.time() - started:.1f} s")
        else:
            count = int(rest[0])
            opened, closed = flood_connections(port, count, hold=5)
            print(f"{opened} of {count} idle connections opened (server limit {fd_limit} files); the server closed {closed}")
        latencies, failed = watch.finish()
        after = memory(server.pid)
        print(f"memory: peak sampled RSS {watch.peak_rss:.0f} MiB, VmHWM {after[1]:.0f} MiB, RSS after {after[0]:.0f} MiB")
        if latencies:
            print(
                f"/healthz: {len(latencies)} answered, median {latencies[len(latencies) // 2] * 1000:.1f} ms, "
                f"slowest {latencies[-1] * 1000:.1f} ms; {failed} unanswered"
            )
        else:
            print(f"/healthz: none answered; {failed} unanswered")
        return 1 if failed or not latencies else 0
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


if __name__ == "__main__":
    sys.exit(main())

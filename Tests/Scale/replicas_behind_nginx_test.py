"""Two easel-serve replicas, each with a state folder of its own, over one folder of cards,
behind nginx running the repository's site file (deploy/nginx/easel.conf, included as it
is): 8 clients x 50 If-Match edits through nginx lose none; `?rev=` renders are served from
nginx's cache after the first request, and no picture is stale after an edit through either
replica; an event-stream client that reconnects to the other replica with Last-Event-ID gets
every event it missed; events reach a browser through nginx.

    python3 Tests/Scale/replicas_behind_nginx_test.py EASEL_BINARY_FOLDER [WORK_FOLDER]
"""

import http.client
import json
import os
import re
import shutil
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

from scale_support import ROOT, SAMPLES, Processes, check, failures, finish, port_is_free, wait_for

PUBLIC_HOST = "easel.example.com"
NGINX_PORT, REPLICA_PORTS = 18080, (18081, 18082)  # as deploy/nginx/easel.conf has them
CLIENTS, EDITS = 8, 50
CARD = "1A2B3C4D-0000-4000-8000-000000000001.rwcard"
DOCUMENT = f"/api/documents/{CARD}"


def request(port, method, path, body=None, headers=None, host=None):
    """One request on a new connection; returns (status, headers as a lower-cased dict, body bytes)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        all_headers = {"Host": host or f"127.0.0.1:{port}", **(headers or {})}
        data = json.dumps(body).encode() if body is not None else None
        if data is not None:
            all_headers["Content-Type"] = "application/json"
        connection.request(method, path, body=data, headers=all_headers)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def through_nginx(method, path, body=None, headers=None):
    return request(NGINX_PORT, method, path, body, headers, host=PUBLIC_HOST)


def edit(port, operations, host=None):
    """Applies `operations` as one edit, If-Match the revision just read; on 412 (another
    edit came first) or 503 reads again and retries, at most 200 times. Returns the new revision."""
    for _ in range(200):
        status, headers, _ = request(port, "GET", DOCUMENT, host=host)
        if status == 503:
            time.sleep(float(headers.get("retry-after", "0.1")) / 10)
            continue
        revision = headers["etag"].strip('"').split("-")[0]
        status, headers, body = request(port, "POST", f"{DOCUMENT}/edits", {"operations": operations},
                                        {"If-Match": f'"{revision}"'}, host=host)
        if status == 200:
            return json.loads(body)["revision"]
        if status not in (412, 409, 503):
            raise RuntimeError(f"edit answered {status}: {body[:200]!r}")
    raise RuntimeError("an edit was refused 200 times")


class EventStream:
    """`GET /api/events` on a raw socket, read as it comes: the ids and data of change events."""

    def __init__(self, port, last_event_id=None, host=None):
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=0.2)
        last = f"Last-Event-ID: {last_event_id}\r\n" if last_event_id else ""
        self.socket.sendall(f"GET /api/events HTTP/1.1\r\nHost: {host or f'127.0.0.1:{port}'}\r\n{last}\r\n".encode())
        self.buffer, self.events, self.resyncs = b"", [], 0

    def pump(self, seconds):
        """Reads what arrives for `seconds`, parsing whole events."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                chunk = self.socket.recv(65536)
            except socket.timeout:
                continue
            if not chunk:
                break
            self.buffer += chunk
            while b"\n\n" in self.buffer:
                block, self.buffer = self.buffer.split(b"\n\n", 1)
                fields = dict(line.split(": ", 1) for line in block.decode().splitlines() if ": " in line)
                if fields.get("event") == "change":
                    self.events.append((fields.get("id"), json.loads(fields["data"])))
                elif fields.get("event") == "resync":
                    self.resyncs += 1

    def until(self, condition, seconds, what):
        deadline = time.monotonic() + seconds
        while not condition(self):
            if time.monotonic() > deadline:
                raise TimeoutError(f"gave up after {seconds} s waiting for {what}")
            self.pump(0.2)

    def revisions(self):
        return {data.get("revision") for _, data in self.events if data.get("path") == CARD}

    def close(self):
        self.socket.close()


def start_replicas_and_nginx(work, binaries, processes):
    cards = work / "cards"
    shutil.copytree(SAMPLES, cards)
    for index, port in enumerate(REPLICA_PORTS):
        state = work / f"state-{index + 1}"
        state.mkdir()
        processes.start(
            [str(binaries / "easel-serve"), str(cards), "--port", str(port), "--public-host", PUBLIC_HOST,
             "--trusted-proxy", "127.0.0.1"],
            open(work / f"replica-{index + 1}.log", "w"), env=dict(os.environ, XDG_STATE_HOME=str(state)))
    nginx = work / "nginx"
    nginx.mkdir()
    site = ROOT / "deploy" / "nginx" / "easel.conf"
    cache = re.search(r"proxy_cache_path\s+(\S+)", site.read_text()).group(1)
    shutil.rmtree(cache, ignore_errors=True)  # the site's own cache, from an earlier run
    temporary = "\n".join(f"  {kind}_temp_path {nginx / kind};" for kind in
                          ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"])
    (nginx / "nginx.conf").write_text(f"""worker_processes 2;
pid {nginx / 'nginx.pid'};
error_log {nginx / 'error.log'} warn;
events {{ worker_connections 1024; }}
http {{
  access_log {nginx / 'access.log'};
{temporary}
  include {site};
}}
""")
    processes.start(["nginx", "-p", str(nginx), "-c", str(nginx / "nginx.conf"), "-g", "daemon off;"],
                    open(nginx / "nginx.out", "w"))
    for port in REPLICA_PORTS:
        wait_for(lambda: ready(port), 60, f"the replica on {port}", interval=0.2)
    wait_for(lambda: ready(NGINX_PORT, PUBLIC_HOST), 30, "nginx", interval=0.2)
    return cards


def ready(port, host=None):
    try:
        return request(port, "GET", "/readyz", host=host)[0] == 200
    except OSError:
        return False


def edits_lose_nothing(cards):
    """8 clients x 50 edits through nginx, each adding a text that names it."""
    errors = []

    def client(number):
        try:
            for n in range(EDITS):
                edit(NGINX_PORT, [{"verb": "add", "kind": "text", "value": f"c{number}-e{n}", "at": [n * 2, number * 30]}],
                     host=PUBLIC_HOST)
        except Exception as error:  # noqa: BLE001 - reported as a failed check
            errors.append(f"client {number}: {error}")

    started = time.monotonic()
    threads = [threading.Thread(target=client, args=(number,)) for number in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    seconds = time.monotonic() - started
    check(not errors and not any(t.is_alive() for t in threads), f"every client finished: {errors[:3]}")
    texts = [t.get("text") for t in json.loads((cards / CARD).read_text())["textElements"]]
    wanted = {f"c{c}-e{n}" for c in range(CLIENTS) for n in range(EDITS)}
    counted = [t for t in texts if t in wanted]
    check(set(counted) == wanted and len(counted) == len(wanted),
          f"{CLIENTS} clients x {EDITS} If-Match edits through nginx: {len(set(counted))} of {len(wanted)} kept, "
          f"{len(counted) - len(set(counted))} twice, in {seconds:.1f} s")
    logs = [request(port, "GET", "/metrics")[2].decode() for port in REPLICA_PORTS]
    served = [sum(float(line.rsplit(" ", 1)[1]) for line in log.splitlines()
                  if line.startswith("easel_http_requests_total") and "edits" in line and 'status="200"' in line)
              for log in logs]
    check(all(count > 0 for count in served), f"both replicas took edits: {served}")


def renders_are_cached_and_never_stale():
    status, headers, _ = through_nginx("GET", DOCUMENT)
    revision = headers["etag"].strip('"').split("-")[0]
    pinned = f"{DOCUMENT}/render.png?preset=thumbnail&rev={revision}"
    answers = [through_nginx("GET", pinned) for _ in range(10)]
    statuses = [a[1].get("x-cache-status") for a in answers]
    check(statuses[0] in ("MISS", "EXPIRED") and statuses[1:] == ["HIT"] * 9,
          f"a ?rev= render is served from nginx's cache after the first request: {statuses}")
    check(answers[0][1].get("cache-control") == "public, max-age=31536000, immutable",
          f"…because easel says it may: {answers[0][1].get('cache-control')}")
    check(len({a[2] for a in answers}) == 1, "the cached bytes are the render's")
    stale = 0
    for step in range(6):
        port = REPLICA_PORTS[step % 2]
        new = edit(port, [{"verb": "background", "color": ["tomato", "gold", "teal"][step % 3]},
                          {"verb": "move", "index": 0, "by": [step + 1, 0]}])
        other = REPLICA_PORTS[(step + 1) % 2]
        truth_status, truth_headers, truth = request(other, "GET", f"{DOCUMENT}/render.png?preset=thumbnail")
        check(truth_status == 200 and truth_headers.get("x-easel-revision") == new,
              f"edit {step + 1} through replica {port}: the other replica renders it at once "
              f"({truth_status}, revision {truth_headers.get('x-easel-revision')} for {new})")
        plain = through_nginx("GET", f"{DOCUMENT}/render.png?preset=thumbnail")
        fresh = through_nginx("GET", f"{DOCUMENT}/render.png?preset=thumbnail&rev={new}")
        check(fresh[0] == 200 and fresh[1].get("x-easel-revision") == new
              and fresh[1].get("cache-control") == "public, max-age=31536000, immutable",
              f"edit {step + 1}: its ?rev= render is answered as that revision, to be kept for good "
              f"({fresh[0]}, revision {fresh[1].get('x-easel-revision')}, {fresh[1].get('cache-control')})")
        # nginx stores a response after it has sent it: a request that follows at once may
        # still find it being stored. Asked again (a few times, briefly), it must be a hit.
        tries = [through_nginx("GET", f"{DOCUMENT}/render.png?preset=thumbnail&rev={new}")]
        while tries[-1][1].get("x-cache-status") != "HIT" and len(tries) < 4:
            time.sleep(0.25)
            tries.append(through_nginx("GET", f"{DOCUMENT}/render.png?preset=thumbnail&rev={new}"))
        stale += (plain[2] != truth) + (fresh[2] != truth) + sum(again[2] != truth for again in tries)
        stale += plain[1].get("x-cache-status") == "HIT"
        check(tries[-1][1].get("x-cache-status") == "HIT",
              f"edit {step + 1} through replica {port}: its ?rev= render then served from nginx's cache "
              f"({[again[1].get('x-cache-status') for again in tries]})")
    check(stale == 0, f"no stale picture through nginx after 6 edits through either replica ({stale} stale)")
    old = through_nginx("GET", pinned)
    check(old[2] == answers[0][2], "the old revision's URL still shows the old revision (it is immutable)")


def events_reach_the_other_replica():
    observer = EventStream(REPLICA_PORTS[1])
    browser = EventStream(REPLICA_PORTS[0])
    through = EventStream(NGINX_PORT, host=PUBLIC_HOST)
    observer.pump(0.5)
    browser.pump(0.5)
    before = [edit(NGINX_PORT, [{"verb": "move", "index": 1, "by": [1, 1]}], host=PUBLIC_HOST) for _ in range(3)]
    browser.until(lambda s: set(before) <= s.revisions(), 10, "the first edits' events")
    through.until(lambda s: set(before) <= s.revisions(), 10, "events through nginx")
    check(True, "events reach a client through nginx (its unbuffered location)")
    last_id = browser.events[-1][0]
    seen = list(browser.events)
    browser.close()
    # Away: edits through both replicas and nginx.
    missed = [edit(port, [{"verb": "move", "index": 1, "by": [-1, 2]}]) for port in REPLICA_PORTS * 2]
    missed.append(edit(NGINX_PORT, [{"verb": "background", "color": "navy"}], host=PUBLIC_HOST))
    observer.until(lambda s: set(before + missed) <= s.revisions(), 10, "the observer to see every edit")
    back = EventStream(REPLICA_PORTS[1], last_event_id=last_id)
    back.until(lambda s: set(missed) <= s.revisions(), 10, "the missed edits after reconnecting")
    back.pump(0.5)
    got = {event_id for event_id, _ in seen + back.events}
    everything = {event_id for event_id, _ in observer.events}
    check(back.resyncs == 0 and set(missed) <= back.revisions(),
          f"reconnected to the other replica with Last-Event-ID: {len(back.events)} events replayed, "
          f"every missed edit among them ({len(missed)})")
    check(everything <= got, f"the client has every event the other replica sent ({len(everything - got)} missing)")
    for stream in [observer, back, through]:
        stream.close()


def main():
    started = time.monotonic()
    binaries = Path(sys.argv[1]).resolve()
    work = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(tempfile.mkdtemp(prefix="easel-replicas-"))
    work.mkdir(parents=True, exist_ok=True)
    busy = [port for port in (NGINX_PORT, *REPLICA_PORTS) if not port_is_free(port)]
    if busy:
        raise SystemExit(f"ports {busy} are taken; deploy/nginx/easel.conf needs 18080-18082 on 127.0.0.1")
    processes = Processes()
    try:
        cards = start_replicas_and_nginx(work, binaries, processes)
        edits_lose_nothing(cards)
        renders_are_cached_and_never_stale()
        events_reach_the_other_replica()
    finally:
        processes.stop_all()
        if failures:  # what the servers said, for a failure seen only in CI
            for log in [work / "nginx" / "error.log", work / "replica-1.log", work / "replica-2.log"]:
                lines = log.read_text(errors="replace").splitlines() if log.exists() else []
                print(f"--- the last {min(len(lines), 15)} lines of {log.name}", *lines[-15:], sep="\n")
    finish("replicas behind nginx", started)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Times `easel export --timeout T` on every case of the hostile corpus and on decoder and
layout bombs made here, and prints how far past the deadline each ended (read, not asserted:
machines here are shared). Needs cjpeg and jpegtran (Debian: libjpeg-turbo-progs).

    Tests/Scripts/deadline-timing.py .build/release/easel [SECONDS]
"""
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

easel = os.path.abspath(sys.argv[1])
allowed = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
work = tempfile.mkdtemp(prefix="easel-deadline-")


def card(image_name):
    return json.dumps({
        "id": "1A2B3C4D-0000-4000-8000-00000000C0DE", "backgroundColor": [1, 1, 1, 1],
        "imageElements": [{"transform": {"size": [1300, 2000], "rotation": {"degrees": 0}, "offset": [0, 0]},
                           "imageFilename": image_name}], "textElements": []})


def make_bombs():
    cases = {}
    # 2,000 bidirectional texts (the red team's 12 MB drawing).
    text = "שלום Hello مرحبا 123 " * 140
    graphic = {"kind": "text", "text": text, "fontSize": 12, "fill": [0, 0, 0, 1],
               "transform": {"center": [400, 300], "size": [700, 500]}}
    path = os.path.join(work, "texts", "texts.drawing")
    os.makedirs(os.path.dirname(path))
    open(path, "w").write(json.dumps({"version": 1, "canvas": {"size": [800, 600]}, "graphics": [graphic] * 2000}))
    cases["2,000 bidi texts (%d MB)" % (os.path.getsize(path) >> 20)] = path
    # A 6000x4000 photo of 98 scans (within the budget; every scan a pass over the image).
    random.seed(1)
    ppm = os.path.join(work, "big.ppm")
    with open(ppm, "wb") as f:
        f.write(b"P6 6000 4000 255\n")
        row = b""
        for y in range(4000):
            if y % 40 == 0:
                row = bytes(random.getrandbits(8) for _ in range(6000 * 3))
            f.write(row)
    scans = os.path.join(work, "scans.txt")
    with open(scans, "w") as f:
        for c in range(3):
            f.write(f"{c}: 0 0 0 0;\n")
        for k in range(1, 64):
            f.write(f"0: {k} {k} 0 0;\n")
        for c in (1, 2):
            for k in range(1, 62, 4):
                f.write(f"{c}: {k} {min(63, k + 3)} 0 0;\n")
    baseline = subprocess.run(["cjpeg", "-quality", "90", ppm], capture_output=True, check=True).stdout
    jpeg = os.path.join(work, "base.jpg")
    open(jpeg, "wb").write(baseline)
    progressive = subprocess.run(["jpegtran", "-scans", scans, jpeg], capture_output=True, check=True).stdout
    folder = os.path.join(work, "photo98")
    os.makedirs(folder)
    open(os.path.join(folder, "0B5E1D2C-0000-4000-8000-0000000000B1"), "wb").write(progressive)
    open(os.path.join(folder, "card.rwcard"), "w").write(card("0B5E1D2C-0000-4000-8000-0000000000B1"))
    cases["a 6000x4000 JPEG of 98 scans"] = os.path.join(folder, "card.rwcard")
    # Its last scan repeated 5,000 times (under the 64 MiB image file limit) (the red team's scan bomb).
    last = progressive.rindex(b"\xff\xda")
    bomb = progressive[:-2] + progressive[last:-2] * 5000 + b"\xff\xd9"
    folder = os.path.join(work, "scanbomb")
    os.makedirs(folder)
    open(os.path.join(folder, "0B5E1D2C-0000-4000-8000-0000000000B2"), "wb").write(bomb)
    open(os.path.join(folder, "card.rwcard"), "w").write(card("0B5E1D2C-0000-4000-8000-0000000000B2"))
    cases["that JPEG's last scan 5,000 times (%d MB)" % (len(bomb) >> 20)] = os.path.join(folder, "card.rwcard")
    return cases


def run(document):
    started = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    result = subprocess.run(
        [easel, "export", document, "--timeout", str(allowed), "--out", os.path.join(work, "out.png")],
        capture_output=True, text=True, timeout=allowed * 20)
    seconds = time.monotonic() - started
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return seconds, max(peak, before) >> 10, result.returncode, result.stderr.strip().splitlines()[-1:] or [""]


cases = make_bombs()
corpus = os.path.join(root, "Tests/Corpus/hostile")
for expectation in json.load(open(os.path.join(corpus, "expectations.json"))):
    cases["corpus: " + expectation["name"]] = os.path.join(corpus, expectation["name"], expectation["document"])
longest = ("", 0.0)
print(f"{'case':58} {'wall s':>7} {'exit':>4}  last line")
for name, document in cases.items():
    seconds, peak, status, last = run(document)
    if seconds > longest[1]:
        longest = (name, seconds)
    print(f"{name[:58]:58} {seconds:7.2f} {status:4}  {last[0][:90]}")
print(f"\nlongest: {longest[0]}: {longest[1]:.2f} s against a timeout of {allowed:g} s "
      f"({longest[1] - allowed:+.2f} s past it)")

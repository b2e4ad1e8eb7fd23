#!/usr/bin/env bash
# Writes the JPEG decoder-bomb fixtures (see README.md) with libjpeg-turbo's own tools
# (Debian: libjpeg-turbo-progs). Deterministic.
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A 64x64 grey gradient as PPM, and a 2048x2048 one.
python3 - "$work" <<'PY'
import sys
folder = sys.argv[1]
for side, name in ((64, "small"), (2048, "large")):
    rows = bytearray()
    for y in range(side):
        for x in range(side):
            rows += bytes(((x * 255) // side, (y * 255) // side, ((x + y) * 127) // side))
    open(f"{folder}/{name}.ppm", "wb").write(b"P6 %d %d 255\n" % (side, side) + rows)
PY

# 98 valid scans (jpegtran takes at most 100 in a script): every component's DC, then
# component 0's 63 AC coefficients one by one and the others' in bands of four. Within the
# limit of 100, it must decode.
{
  for c in 0 1 2; do echo "$c: 0 0 0 0;"; done
  for k in $(seq 1 63); do echo "0: $k $k 0 0;"; done
  for c in 1 2; do for k in $(seq 1 4 61); do echo "$c: $k $(( k + 3 > 63 ? 63 : k + 3 )) 0 0;"; done; done
} > "$work/scans.txt"
cjpeg -quality 90 -sample 1x1 "$work/small.ppm" > "$work/small.jpg"
jpegtran -scans "$work/scans.txt" "$work/small.jpg" > scans-98.jpg

# A 2048x2048 progressive photo: long enough to decode that a deadline stops it midway.
cjpeg -quality 75 -progressive "$work/large.ppm" > progressive-2048.jpg


# A progressive 4:4:4 file whose header claims 7000x7000: its coefficient buffers alone
# would take 294 MB, refused from the header (the SOF2 marker's height and width patched).
cjpeg -quality 90 -sample 1x1 -progressive "$work/small.ppm" > "$work/progressive.jpg"
python3 - "$work/progressive.jpg" progressive-claims-7000.jpg <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
i = data.index(b"\xff\xc2")
data[i + 5:i + 9] = (7000).to_bytes(2, "big") + (7000).to_bytes(2, "big")
open(sys.argv[2], "wb").write(data)
PY


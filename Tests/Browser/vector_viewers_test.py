"""Easel's SVG and PDF in other people's viewers: rsvg-convert, resvg and chromium draw the
SVG, and poppler's pdftoppm the PDF, of a card and a drawing as Easel's own PNG shows them.

The card holds what a vector export has to get right: a PNG photo and a JPEG photo (both
embedded as the files are, not encoded again), a photo clipped to a heart, a rotated one, and
texts. The drawing holds faded shapes (a fill alone, a fill with a stroke, overlapping), a
faded photo and a faded photo clipped to a hexagon. Each viewer's picture is compared with
Easel's PNG by `easel golden diff` with the perceptual tolerance (pixelmatch's method:
anti-aliased edge pixels are not counted, since two rasterisers never agree on those) and at
most 0.5 % of the pixels differing: a photo, a colour, an opacity or a clip that came out
wrong fails it.

`make browser-test` runs it. The pictures go to OUTPUT_FOLDER/vector/ to be looked at.

Usage: vector_viewers_test.py EASEL_BINARY [OUTPUT_FOLDER]
"""

import base64
import json
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

from playwright.sync_api import sync_playwright

from browser_support import CHROMIUM, check, finish

EASEL = Path(sys.argv[1]).resolve()
OUTPUT = Path(sys.argv[2] if len(sys.argv) > 2 else "out/browser").resolve() / "vector"
RESVG = shutil.which("resvg") or str(Path(sys.executable).parent / "resvg")


def run(*arguments, cwd):
    result = subprocess.run([str(a) for a in arguments], cwd=cwd, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(map(str, arguments))} exited {result.returncode}: {result.stderr}")
    return result


def easel(*arguments, cwd):
    return run(EASEL, *arguments, cwd=cwd)


def photo_rgb(width, height):
    """A smooth photo-like picture (sky, sun, hills) as RGB rows: no grain, so that two
    resampling filters agree on it."""
    rows = []
    for y in range(height):
        row = bytearray()
        for x in range(width):
            hill = height * 0.6 + 40 * ((x / width * 6.3) % 3.14 - 1.57) ** 2 / 2.5
            if y > hill:
                r, g, b = 90 + y * 60 // height, 120, 50
            else:
                r, g, b = 110 + y * 80 // height, 150 + y * 60 // height, 230
            dx, dy = x - width * 0.3, y - height * 0.3
            if dx * dx + dy * dy < (height * 0.15) ** 2:
                r, g, b = 250, 220, 40
            row += bytes((r, g, b))
        rows.append(bytes(row))
    return rows


def write_png(path, rows, width, height):
    """An 8-bit RGB PNG, written with zlib: the kind of file the app's photos are."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\x00" + row for row in rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 6))
                     + chunk(b"IEND", b""))


def make_documents(folder):
    width, height = 600, 400
    rows = photo_rgb(width, height)
    write_png(folder / "photo.png", rows, width, height)
    (folder / "photo.ppm").write_bytes(b"P6\n%d %d\n255\n" % (width, height) + b"".join(rows))
    run("cjpeg", "-quality", "95", "-outfile", "photo.jpg", "photo.ppm", cwd=folder)
    # A camera-sized JPEG (the same photo, each pixel made 4x4) drawn small: an SVG or PDF
    # decodes it at the size it is drawn at and embeds the file, which the viewer draws.
    large = [b"".join(row[i:i + 3] * 4 for i in range(0, len(row), 3)) for row in rows]
    large = [row for row in large for _ in range(4)]
    (folder / "large.ppm").write_bytes(b"P6\n%d %d\n255\n" % (width * 4, height * 4) + b"".join(large))
    run("cjpeg", "-quality", "90", "-outfile", "large.jpg", "large.ppm", cwd=folder)

    easel("new", "card", "Card.rwcard", cwd=folder)
    easel("add", "Card.rwcard", "image", "photo.png", "--at", "380,420", "--size", "600x400", cwd=folder)
    easel("add", "Card.rwcard", "image", "photo.jpg", "--at", "900,900", "--size", "600x400", "--rotation", "8",
          cwd=folder)
    # Easel stores an added photo as PNG, as the app does; a card made elsewhere may hold the
    # JPEG itself (the app reads any format), which a vector export embeds as it is.
    stored = json.loads((folder / "Card.rwcard").read_text())["imageElements"][1]["imageFilename"]
    shutil.copy(folder / "photo.jpg", folder / stored)
    easel("add", "Card.rwcard", "image", "photo.png", "--at", "650,1450", "--size", "700x500", "--clip", "heart",
          cwd=folder)
    easel("add", "Card.rwcard", "image", "large.jpg", "--at", "1000,1760", "--size", "450x300", "--rotation", "-6",
          "--clip", "heart", cwd=folder)
    stored = json.loads((folder / "Card.rwcard").read_text())["imageElements"][3]["imageFilename"]
    shutil.copy(folder / "large.jpg", folder / stored)
    easel("add", "Card.rwcard", "text", "Greetings from the hills", "--at", "650,160", "--color", "navy", cwd=folder)
    easel("add", "Card.rwcard", "text", "See you soon", "--at", "650,1850", "--font", "Chalkduster", cwd=folder)

    easel("new", "drawing", "Faded.drawing", "--size", "800x600", cwd=folder)
    easel("add", "Faded.drawing", "rectangle", "--at", "400,300", "--size", "800x600", "--fill", "#f4f1e8", cwd=folder)
    easel("add", "Faded.drawing", "image", "photo.png", "--at", "300,200", "--size", "420x280", "--opacity", "0.6",
          cwd=folder)
    easel("add", "Faded.drawing", "image", "photo.png", "--at", "650,130", "--size", "240x160", "--opacity", "0.8",
          "--clip", "hexagon", cwd=folder)
    easel("add", "Faded.drawing", "ellipse", "--at", "420,260", "--size", "300x220", "--fill", "tomato",
          "--opacity", "0.5", cwd=folder)
    easel("add", "Faded.drawing", "star", "--at", "560,380", "--size", "260x260", "--fill", "gold", "--stroke", "navy",
          "--stroke-width", "10", "--opacity", "0.5", cwd=folder)
    easel("add", "Faded.drawing", "heart", "--at", "220,430", "--size", "220x200", "--fill", "seagreen",
          "--stroke", "black", "--stroke-width", "6", "--opacity", "0.7", cwd=folder)
    return ["Card.rwcard", "Faded.drawing"]


def compare(expected, actual, label, folder):
    result = subprocess.run(
        [str(EASEL), "golden", "diff", str(expected), str(actual), "--tolerance", "perceptual", "--max-pixels", "0.5%",
         "--json", "--out", str(OUTPUT / f"{label}-diff.png")],
        cwd=folder, capture_output=True, text=True)
    try:
        statistics = json.loads(result.stdout)["statistics"]
        detail = f"{statistics['differingPixels']} pixels differ ({statistics['differingRatio'] * 100:.3f} %)"
    except (ValueError, KeyError):
        detail = result.stderr.strip()
    check(result.returncode == 0, f"{label}: as Easel's PNG shows it ({detail})")


def main():
    OUTPUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as temporary, sync_playwright() as playwright:
        folder = Path(temporary)
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(device_scale_factor=1)
        for document in make_documents(folder):
            name = Path(document).stem
            easel("export", document, "--out", f"{name}.png", cwd=folder)
            easel("export", document, "--out", f"{name}.svg", cwd=folder)
            easel("export", document, "--out", f"{name}.pdf", cwd=folder)
            shutil.copy(folder / f"{name}.png", OUTPUT / f"{name}-easel.png")
            svg = (folder / f"{name}.svg").read_text()
            check("data:image/png;base64," in svg, f"{name}: the PNG photo is embedded as its file")
            if name == "Card":
                check("data:image/jpeg;base64," in svg, f"{name}: the JPEG photo is embedded as its file")
                large = (folder / "large.jpg").read_bytes()
                check("data:image/jpeg;base64," + base64.b64encode(large).decode() in svg,
                      f"{name}: the 2400x1600 JPEG, decoded small, is embedded as its file")
            check("<mask" not in svg, f"{name}: no masks over the page")
            pdf = (folder / f"{name}.pdf").read_bytes()
            check(b"/Predictor 15" in pdf, f"{name}: the PDF holds the PNG photo as rows Easel deflated")
            if name == "Card":
                check(b"/DCTDecode" in pdf, f"{name}: the PDF holds the JPEG photo as its file")
                check(large in pdf, f"{name}: the PDF holds the 2400x1600 JPEG as its file")

            run("rsvg-convert", "-o", OUTPUT / f"{name}-rsvg.png", f"{name}.svg", cwd=folder)
            compare(folder / f"{name}.png", OUTPUT / f"{name}-rsvg.png", f"{name} in rsvg-convert", folder)
            run(RESVG, f"{name}.svg", OUTPUT / f"{name}-resvg.png", cwd=folder)
            compare(folder / f"{name}.png", OUTPUT / f"{name}-resvg.png", f"{name} in resvg", folder)
            run("pdftoppm", "-r", "72", "-png", "-singlefile", f"{name}.pdf", OUTPUT / f"{name}-poppler", cwd=folder)
            compare(folder / f"{name}.png", OUTPUT / f"{name}-poppler.png", f"{name}'s PDF in pdftoppm", folder)

            width, height = (int(v) for v in svg.split('viewBox="0 0 ', 1)[1].split('"', 1)[0].split())
            page.set_viewport_size({"width": width, "height": height})
            page.goto((folder / f"{name}.svg").as_uri())
            page.screenshot(path=str(OUTPUT / f"{name}-chromium.png"))
            compare(folder / f"{name}.png", OUTPUT / f"{name}-chromium.png", f"{name} in chromium", folder)
        browser.close()
    print(f"pictures in {OUTPUT}")
    finish("vector viewers")


main()

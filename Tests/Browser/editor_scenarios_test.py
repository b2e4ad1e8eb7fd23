"""Making a card and a drawing from scratch in the browser editor, as a person does it:
`easel serve` and Debian's chromium, driven by Playwright, on a 1280x800 page.

The card: a new card (a background from the app's palette), two photos dropped at once at a
point, one pasted from the clipboard, a text typed on the canvas in a picker font and
colour, a frame, a move, a resize (corner and aspect kept) and a rotation, several selected
and aligned, copied and pasted into another card, then undone to the start and redone to
the end. Every value is checked in the files on disk, and the final card's rendering
against a golden. The drawing: shapes, a line and an arrow drawn by dragging, a path drawn
with the pen and one of its points moved, a line's end moved, checked in the file. Then
the red team's steps, each a check that failed before: the live preview of an element
alone, snapping with guides, the view from 10 % to 800 %, text edited in place, copy,
cut, duplicate and select all.

Measured and printed, not asserted: mouse-up to the server's new picture (p50, p95) on
the typical card and on a drawing of 1,000 shapes, and frames per second during a drag.

Usage: editor_scenarios_test.py EASEL_BINARY [SCREENSHOT_FOLDER] [--record]
"""

import json
import math
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

from playwright.sync_api import sync_playwright

from browser_support import (CHROMIUM, ROOT, centre, check, compare_screenshot, drag, drop_files, eventually, finish,
                             paste_files, percentile, read_json, revision, settle, stage_point, start_server,
                             wait_for_rendering, wait_saved)

EASEL = Path(sys.argv[1]).resolve()
SCREENSHOTS = Path(sys.argv[2] if len(sys.argv) > 2 and not sys.argv[2].startswith("--") else "out/browser").resolve()
RECORD = "--record" in sys.argv
SAMPLES = ROOT / "Assets" / "Samples"
PORTRAIT = (SAMPLES / "5F3E2A10-77C4-4B9D-8E21-0D9C6B4A3F22").read_bytes()  # 300x450
LANDSCAPE = (SAMPLES / "8A1C53E2-0B1F-4C07-9A52-3E1B7F0C2D11").read_bytes()  # 600x400
UUID_NAME = re.compile(r"[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}")


def png_size(data):
    return struct.unpack(">II", data[16:24])


def card_bounds(transform):
    """The box on the card around an element's rotated frame: (minX, minY, maxX, maxY)."""
    w, h = transform["size"]
    angle = math.radians(transform["rotation"]["degrees"])
    cx, cy = 650 + transform["offset"][0], 1000 + transform["offset"][1]
    xs, ys = [], []
    for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        x, y = sx * w / 2, sy * h / 2
        xs.append(cx + x * math.cos(angle) - y * math.sin(angle))
        ys.append(cy + x * math.sin(angle) + y * math.cos(angle))
    return min(xs), min(ys), max(xs), max(ys)


def canvas_point(page, screen, canvas_width):
    stage = page.locator("#stage").bounding_box()
    scale = stage["width"] / canvas_width
    return (screen[0] - stage["x"]) / scale, (screen[1] - stage["y"]) / scale


def described(document, index):
    """An element as `easel info --json` describes it (by the property table's keys)."""
    result = subprocess.run([str(EASEL), "info", str(document), "--json"], capture_output=True, text=True, check=True)
    return json.loads(result.stdout)["elements"][index]


def visible_point(page, index):
    """A screen point where the element's own box is the topmost thing (where a person would click it)."""
    point = page.evaluate("""(index) => { const box = document.querySelector(`.box[data-index="${index}"]`);
        const r = box.getBoundingClientRect();
        for (let fy = 0.1; fy < 0.95; fy += 0.1) for (let fx = 0.1; fx < 0.95; fx += 0.1) {
          const x = r.left + fx * r.width, y = r.top + fy * r.height;
          if (document.elementFromPoint(x, y) === box) return [x, y];
        }
        return null; }""", index)
    if point is None:
        raise SystemExit(f"element {index} is covered everywhere")
    return point


def selected(page):
    return [int(i) for i in page.eval_on_selector_all(".box.selected", "nodes => nodes.map(n => n.dataset.index)")]


def press_until_disabled(page, key, button, limit=60):
    """Presses `key` until `button` is disabled (the history's end), at most `limit` times."""
    for _ in range(limit):
        if page.is_disabled(button):
            return True
        before = page.evaluate("() => document.getElementById('rendering').dataset.revision")
        page.locator("#viewport").focus()
        page.keyboard.press(key)
        eventually(lambda: page.evaluate("() => document.getElementById('rendering').dataset.revision") != before
                   or page.is_disabled(button), 10, f"{key} to take effect")
    return page.is_disabled(button)


def card_from_scratch(page, base, folder, schema):
    page.goto(base + "#/")
    page.wait_for_selector("#grid li")
    page.click("#new-card")
    page.wait_for_selector("#editor:not([hidden]) .tools button[data-tool='text']")
    path = page.evaluate("() => decodeURIComponent(location.hash.slice('#/edit/'.length))")
    card = folder / path
    created = card.read_bytes()
    palette = {name: hex_ for name, hex_ in schema["palettes"]["cardBackgrounds"].items()}
    background = json.loads(created)["backgroundColor"]
    as_hex = "#" + "".join(f"{round(c * 255):02X}" for c in background[:3])
    check(UUID_NAME.fullmatch(card.stem) and as_hex in palette.values(),
          f"a new card is named by a UUID and gets a colour of the app's palette ({as_hex})")
    wait_for_rendering(page, revision(card))

    # Two photos dropped at once at a point: both land there (the second a little apart),
    # each in a frame of its photo's proportions, stored as the app stores photos, selected.
    drop_at = tuple(round(v) for v in stage_point(page, 420, 560, 1300))
    drop_files(page, [("portrait.png", PORTRAIT, "image/png"), ("landscape.png", LANDSCAPE, "image/png")], drop_at)
    eventually(lambda: len((read_json(card) or {}).get("imageElements", [])) == 2 and len(selected(page)) == 2, 15,
               "two dropped photos")
    images = read_json(card)["imageElements"]
    point = canvas_point(page, drop_at, 1300)
    first = images[0]["transform"]
    check(abs(650 + first["offset"][0] - point[0]) < 1 and abs(1000 + first["offset"][1] - point[1]) < 1,
          f"the first dropped photo is centred where it was dropped: {first['offset']} for {point}")
    ratios = [e["transform"]["size"][0] / e["transform"]["size"][1] for e in images]
    check(abs(ratios[0] - 300 / 450) < 0.01 and abs(ratios[1] - 600 / 400) < 0.01,
          f"each photo's frame has its proportions: {ratios}")
    stored = [folder / e["imageFilename"] for e in images]
    check(all(UUID_NAME.fullmatch(f.name) and f.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for f in stored),
          "the photos are stored as extension-less PNGs named by UUIDs")
    check(selected(page) == [0, 1], f"both dropped photos are selected: {selected(page)}")

    # One pasted from the clipboard: at the middle of the view, selected.
    settle(page, card)
    page.locator("#viewport").focus()
    paste_files(page, [("pasted.png", LANDSCAPE, "image/png")])
    eventually(lambda: len((read_json(card) or {}).get("imageElements", [])) == 3, 15, "the pasted photo")
    settle(page, card)
    check(selected(page) == [2], f"the pasted photo is selected: {selected(page)}")

    # A text typed on the canvas: editing starts in place, Enter keeps it; its frame fits
    # its words; then a picker font and a palette colour from the inspector.
    page.click("button[data-tool='text']")
    page.wait_for_selector(".text-field:focus")
    page.keyboard.type("Happy birthday")
    page.keyboard.press("Enter")
    eventually(lambda: len((read_json(card) or {}).get("textElements", [])) == 1, 10, "the typed text")
    settle(page, card)
    text = read_json(card)["textElements"][0]
    width, height = text["transform"]["size"]
    check(text["text"] == "Happy birthday" and 600 < width <= 1300 and 150 < height < 400,
          f"the typed text is on the card in a frame that fits its words: {text['text']!r} {width}x{height}")
    check(selected(page) == [3], f"the new text is selected: {selected(page)}")
    page.select_option("#inspector select[aria-label='Font']", "Chalkduster")
    settle(page, card)
    page.click("#inspector button[aria-label='Fill colour appColor1']")
    settle(page, card)
    text = read_json(card)["textElements"][0]
    check(text["textFont"] == "Chalkduster" and [round(c, 3) for c in text["textColor"][:3]] == [0.187, 0.151, 0.907],
          f"the text has the picker font and the palette colour: {text['textFont']}, {text['textColor']}")

    # A frame for the first photo (the heart is frameIndex 3).
    page.locator(".box[data-index='0']").focus()
    page.click("#inspector button[aria-label='Clip frame heart']")
    settle(page, card)
    check(read_json(card)["imageElements"][0].get("frameIndex") == 3, "the heart frame is frameIndex 3 on disk")

    # Move, resize (the opposite corner and the proportions kept) and rotate the second photo.
    page.locator(".box[data-index='1']").focus()
    before = read_json(card)["imageElements"][1]["transform"]
    start = centre(page, ".box[data-index='1']")
    drag(page, start, (start[0] - 40, start[1] + 120))
    settle(page, card)
    moved = read_json(card)["imageElements"][1]["transform"]
    check(moved["offset"] != before["offset"] and moved["size"] == before["size"], "the drag moved the photo")
    handle = page.locator(".box.selected .handle.se").bounding_box()
    corner = (handle["x"] + 6, handle["y"] + 6)
    drag(page, corner, (corner[0] + 30, corner[1] + 10))
    settle(page, card)
    resized = read_json(card)["imageElements"][1]["transform"]
    kept = card_bounds(moved)[:2], card_bounds(resized)[:2]
    check(resized["size"][0] > moved["size"][0] and abs(resized["size"][0] / resized["size"][1] - 1.5) < 0.01
          and all(abs(a - b) < 1.5 for a, b in zip(*kept)),
          f"a corner resized it keeping the opposite corner and its proportions: {moved['size']} -> {resized['size']}, {kept}")
    knob = page.locator(".box.selected .handle.rotate").bounding_box()
    knob_point = (knob["x"] + 6, knob["y"] + 6)
    drag(page, knob_point, (knob_point[0] + 60, knob_point[1] + 10))
    settle(page, card)
    rotated = read_json(card)["imageElements"][1]["transform"]
    check(rotated["rotation"]["degrees"] > 5, f"the knob rotated it: {rotated['rotation']}")

    # Several selected (Shift-click) and aligned on their left edges, as one undo step.
    page.mouse.click(*visible_point(page, 0))
    page.keyboard.down("Shift")
    page.mouse.click(*visible_point(page, 2))
    page.keyboard.up("Shift")
    check(selected(page) == [0, 2], f"Shift-click adds to the selection: {selected(page)}")
    page.click("#inspector button[aria-label='Align left']")
    settle(page, card)
    elements = read_json(card)["imageElements"]
    lefts = [card_bounds(elements[i]["transform"])[0] for i in (0, 2)]
    check(abs(lefts[0] - lefts[1]) < 0.01, f"Align left lines their left edges up: {lefts}")

    # Copy the text and the second photo, paste them into another card: the photo is copied
    # with a file of its own, the text with its words, font and colour.
    page.keyboard.press("Escape")
    page.mouse.click(*visible_point(page, 1))
    page.keyboard.down("Shift")
    page.mouse.click(*visible_point(page, 3))
    page.keyboard.up("Shift")
    check(selected(page) == [1, 3], f"the photo and the text are selected: {selected(page)}")
    page.keyboard.press("Control+c")
    final_source = card.read_bytes()
    other = folder / "1A2B3C4D-0000-4000-8000-000000000001.rwcard"
    before_other = read_json(other)
    page.goto(base + f"#/edit/{other.name}")
    page.wait_for_function(f"() => document.getElementById('title').textContent.startsWith('{other.name}')")
    wait_for_rendering(page, revision(other))
    page.locator("#viewport").focus()
    page.keyboard.press("Control+v")
    eventually(lambda: len((read_json(other) or {}).get("textElements", [])) == len(before_other["textElements"]) + 1,
               10, "the paste into the other card")
    settle(page, other)
    after_other = read_json(other)
    source = json.loads(final_source)
    pasted_image, pasted_text = after_other["imageElements"][-1], after_other["textElements"][-1]
    check(len(after_other["imageElements"]) == len(before_other["imageElements"]) + 1
          and pasted_image["imageFilename"] != source["imageElements"][1]["imageFilename"]
          and (folder / pasted_image["imageFilename"]).read_bytes() == (folder / source["imageElements"][1]["imageFilename"]).read_bytes(),
          "the pasted photo has a file of its own with the copied photo's pixels")
    same_place = all(abs(a - b) < 0.01 for key in ("size", "offset") for a, b in
                     zip(pasted_text["transform"][key], source["textElements"][0]["transform"][key]))
    check(pasted_text["text"] == "Happy birthday" and pasted_text["textFont"] == "Chalkduster" and same_place,
          f"the pasted text keeps its words, font and place: {pasted_text}")
    page.screenshot(path=str(SCREENSHOTS / "scenario-pasted.png"))

    # Back to the new card: a background from the palette chosen in the inspector (so the
    # rendering is the golden's), then undo to the start and redo to the end.
    page.goto(base + f"#/edit/{path}")
    page.wait_for_function(f"() => document.getElementById('title').textContent.startsWith('{path}')")
    wait_for_rendering(page, revision(card))
    page.locator("#viewport").focus()
    page.keyboard.press("Escape")
    page.click("#inspector button[aria-label='Background random3']")
    settle(page, card)
    final = card.read_bytes()
    check(json.loads(final)["backgroundColor"][:3] == [0.985, 0.711, 0.152], "the background is random3")
    check(press_until_disabled(page, "Control+z", "#undo") and eventually(lambda: card.read_bytes() == created, 10, "the start"),
          "undo goes back to the new card as it was made")
    check(press_until_disabled(page, "Control+Shift+z", "#redo") and eventually(lambda: card.read_bytes() == final, 10, "the end"),
          "redo comes back to the finished card, byte for byte")
    settle(page, card)
    page.screenshot(path=str(SCREENSHOTS / "scenario-card.png"))
    rendered = SCREENSHOTS / "scenario-card-render.png"
    subprocess.run([str(EASEL), "export", str(card), "--preset", "thumbnail", "-o", str(rendered)], check=True)
    compare_screenshot(EASEL, rendered, "scenario-card-render.png", SCREENSHOTS, RECORD)
    return path


def drawing_scenario(page, base, folder):
    page.goto(base + "#/")
    page.wait_for_selector("#grid li")
    page.click("#new-drawing")
    page.wait_for_selector("#editor:not([hidden]) .tools button[data-tool='pen']")
    path = page.evaluate("() => decodeURIComponent(location.hash.slice('#/edit/'.length))")
    drawing = folder / path
    wait_for_rendering(page, revision(drawing))
    at = lambda x, y: stage_point(page, x, y, 800)
    count = lambda: len((read_json(drawing) or {}).get("graphics", []))

    def draw(tool, start, end, expected):
        page.click(f"button[data-tool='{tool}']")
        drag(page, at(*start), at(*end), steps=8)
        eventually(lambda: count() == expected, 10, f"the {tool}")
        settle(page, drawing)

    draw("rectangle", (40, 40), (240, 140), 1)
    draw("rounded-rectangle", (280, 40), (400, 140), 2)
    draw("ellipse", (440, 40), (600, 160), 3)
    draw("star", (620, 40), (760, 180), 4)
    draw("polygon", (40, 200), (160, 300), 5)
    draw("line", (200, 220), (380, 300), 6)
    draw("arrow", (420, 220), (600, 220), 7)
    graphics = read_json(drawing)["graphics"]
    kinds = [g["kind"] for g in graphics]
    check(kinds == ["rectangle", "roundedRectangle", "ellipse", "star", "polygon", "line", "line"],
          f"each tool drew its shape: {kinds}")
    frames = [(g["transform"]["center"], g["transform"]["size"]) for g in graphics[:5]]
    check(frames[0] == ([140, 90], [200, 100]) and frames[2] == ([520, 100], [160, 120]),
          f"a dragged frame is the shape's frame: {frames[:3]}")
    check(graphics[6].get("stroke", {}).get("arrowheads") == "end", "the arrow is a line with an arrowhead at its end")
    check(selected(page) == [6], "the last shape drawn is selected")

    # The pen: three corners, a curve point (a drag), and a click on the first point closes it.
    page.click("button[data-tool='pen']")
    for x, y in ((80, 380), (220, 340), (300, 420)):
        page.mouse.click(*at(x, y))
    drag(page, at(240, 540), at(300, 580), steps=6)
    page.mouse.click(*at(80, 380))
    eventually(lambda: count() == 8, 10, "the pen's path")
    settle(page, drawing)
    path_graphic = read_json(drawing)["graphics"][7]
    outline = described(drawing, 7).get("path", "")
    check(outline.startswith("M") and " C " in outline and outline.rstrip().endswith("Z"),
          f"the pen drew a closed path with a curve: {outline}")
    check(selected(page) == [7] and page.locator(".handle.path-point").count() == 5,
          f"the path is selected with a handle on each of its points ({page.locator('.handle.path-point').count()})")

    # One of the path's points moved: the outline and its frame follow.
    frame_before = path_graphic["transform"]
    point = page.locator(".handle.path-point").nth(1).bounding_box()
    start = (point["x"] + point["width"] / 2, point["y"] + point["height"] / 2)
    drag(page, start, (start[0] + 20, start[1] - 60), steps=8)
    eventually(lambda: read_json(drawing)["graphics"][7]["transform"] != frame_before, 10, "the moved point")
    settle(page, drawing)
    edited = read_json(drawing)["graphics"][7]
    check(described(drawing, 7)["path"] != outline and edited["transform"]["size"][1] > frame_before["size"][1],
          f"moving a point changed the outline and the frame grew to hold it: {frame_before['size']} -> {edited['transform']['size']}")

    # A line's end dragged to a new place.
    page.locator(".box[data-index='5']").focus()
    end = page.locator(".handle.end.to").bounding_box()
    end_point = (end["x"] + end["width"] / 2, end["y"] + end["height"] / 2)
    drag(page, end_point, at(380, 360), steps=8)
    settle(page, drawing)
    line = described(drawing, 5)
    check(line["from"] == [200, 220] and abs(line["to"][0] - 380) < 1 and abs(line["to"][1] - 360) < 1,
          f"the line's end moved and its start stayed: {line['from']} -> {line['to']}")
    page.screenshot(path=str(SCREENSHOTS / "scenario-drawing.png"))


def main():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="easel-scenarios-") as scratch:
        folder, state = Path(scratch) / "docs", Path(scratch) / "state"
        shutil.copytree(SAMPLES, folder)
        server, port, environment = start_server(EASEL, folder, state)
        base = f"http://127.0.0.1:{port}/"
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                context = browser.new_context(viewport={"width": 1280, "height": 800})
                page = context.new_page()
                errors = []
                page.on("pageerror", lambda error: errors.append(str(error)))
                page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
                page.goto(base)
                schema = page.evaluate("async () => (await fetch('/api/schema')).json()")
                card_from_scratch(page, base, folder, schema)
                drawing_scenario(page, base, folder)
                check(errors == [], f"no console errors: {errors}")
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)
    finish("editor scenario")


main()

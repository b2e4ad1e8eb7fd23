"""The browser editor end to end: `easel serve` and Debian's chromium, driven by Playwright.

`make browser-test` runs it after building. It serves a copy of Assets/Samples, opens the
document browser and a card, and checks what a person does and sees against the files on
disk: a drag moves the element by the dragged distance in canvas units, resize and rotate
change the frame, the heart frame is `frameIndex` 3, Ctrl-Z restores the file, an
`easel move` in a terminal refreshes the page, a stale edit shows the conflict, reloading
restores the scene, and nothing is logged as an error. Screenshots of the browser and the
editor are compared with goldens by Easel's own comparator (anti-aliasing aware) and kept
in the screenshot folder to be looked at. Measured and printed, not asserted: the time from
the end of a drag to the new server rendering, and the frame rate during a drag.

Usage: editor_test.py EASEL_BINARY [SCREENSHOT_FOLDER] [--record]
"""

import json
import os
import math
import re
import subprocess
import sys
import time
from pathlib import Path

import browser_support
from browser_support import (ROOT, box_of, check, drag, easel_cli, eventually, revision, right_click_box, served_samples, unexpected_errors,
                             wait_for_rendering)

EASEL = Path(sys.argv[1]).resolve()
SCREENSHOTS = Path(sys.argv[2] if len(sys.argv) > 2 and not sys.argv[2].startswith("--") else "out/browser").resolve()
RECORD = "--record" in sys.argv
CARD = "1A2B3C4D-0000-4000-8000-000000000001.rwcard"


def card_json(folder):
    return json.loads((folder / CARD).read_text())


def compare_screenshot(actual, name):
    browser_support.compare_screenshot(EASEL, actual, name, SCREENSHOTS, RECORD)


def stage_scale(page):
    """Screen pixels per canvas unit."""
    return page.evaluate("() => document.getElementById('stage').getBoundingClientRect().width") / 1300


def drag_handle(page, folder, handle, by, key):
    """Drags the selected box's `handle` (se, rotate...) by `by` pixels from 6 px inside it, waits for
    the save and the new rendering, and returns the first image element's transform[key] before and after."""
    before = card_json(folder)["imageElements"][0]["transform"][key]
    box = box_of(page, page.locator(f".box.selected .handle.{handle}"))
    start = (box["x"] + 6, box["y"] + 6)
    drag(page, start, (start[0] + by[0], start[1] + by[1]))
    page.wait_for_function("() => document.getElementById('status').textContent === 'Saved'")
    wait_for_rendering(page, revision(folder / CARD))
    return before, card_json(folder)["imageElements"][0]["transform"][key]


def corner(transform, sx, sy):
    """The point of a card element's frame at (sx, sy) halves of its size from its centre, on the card."""
    rotation = transform.get("rotation", 0)
    degrees = rotation.get("degrees", 0) if isinstance(rotation, dict) else rotation
    angle = math.radians(degrees)
    w, h = transform["size"]
    x, y = sx * w / 2, sy * h / 2
    cx, cy = 650 + transform["offset"][0], 1000 + transform["offset"][1]
    return (cx + x * math.cos(angle) - y * math.sin(angle), cy + x * math.sin(angle) + y * math.cos(angle))


def card_element(folder, name, index):
    return json.loads((folder / name).read_text())["imageElements"][index]


def hands_and_status(page, base, folder, environment):
    """Issue 39's first defects: the selected element is grabbed where others cover it, an
    element wholly under another is reached by Alt-click or a second click, a refused edit
    says Not saved with the server's message beside its control, and menus close."""
    second = "1A2B3C4D-0000-4000-8000-000000000002.rwcard"
    # Image 1 laid exactly over image 0: image 0 cannot be pressed except through image 1.
    easel_cli(EASEL, environment)("set", str(folder / second), "1", "--at", "230,310")
    page.goto(base + "#/edit/" + second)
    page.wait_for_selector(".box[data-index='10']")
    wait_for_rendering(page, revision(folder / second))
    box = box_of(page, page.locator(".box[data-index='1']"))
    point = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.click(*point)
    check(page.get_attribute(".box.selected", "data-index") == "1", "a click selects the topmost element")
    # Past the time a second click could come (350 ms), the first click's choice stands.
    page.wait_for_timeout(800)
    check(page.get_attribute(".box.selected", "data-index") == "1",
          f"and it stays selected: a first click does not reach the element beneath "
          f"({page.get_attribute('.box.selected', 'data-index')})")
    page.mouse.click(*point)
    check(eventually(lambda: page.get_attribute(".box.selected", "data-index") == "0", 3, page=page),
          "a second click on the selected element reaches the one beneath")
    page.mouse.click(*point)
    check(eventually(lambda: page.get_attribute(".box.selected", "data-index") == "1", 3, page=page),
          "and a third goes round to the top again")
    page.wait_for_timeout(800)
    page.keyboard.down("Alt")
    page.mouse.click(*point)
    page.keyboard.up("Alt")
    check(page.get_attribute(".box.selected", "data-index") == "0", "Alt-click selects the element beneath")
    # A drag where image 1 covers it moves the selected image 0, not image 1.
    before0, before1 = card_element(folder, second, 0), card_element(folder, second, 1)
    drag(page, point, (point[0] + 40, point[1]))
    page.wait_for_function("() => document.getElementById('status').textContent === 'Saved'")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and card_element(folder, second, 0) == before0:
        time.sleep(0.05)
    check(card_element(folder, second, 0)["transform"]["offset"] != before0["transform"]["offset"]
          and card_element(folder, second, 1) == before1, "a press inside the selected frame drags the selected element")
    wait_for_rendering(page, revision(folder / second))
    # A second click (no drag) on the selected element reaches the one beneath.
    box = box_of(page, page.locator(".box[data-index='0']"))
    page.mouse.click(box["x"] + box["width"] / 2 - 30, box["y"] + box["height"] / 2)
    check(browser_support.eventually(lambda: page.get_attribute(".box.selected", "data-index") == "1", 5),
          "a click on the selected element selects the one beneath (once no second click can come)")

    # A refused edit: Not saved, the server's message beside the Size control, the file as it was.
    on_disk = (folder / second).read_bytes()
    page.fill("[data-key='size'] input[aria-label='Size Width']", "-5")
    page.locator("[data-key='size'] input[aria-label='Size Width']").dispatch_event("change")
    page.wait_for_selector("#inspector .refusal", timeout=10000)
    check(page.locator("#status").inner_text() == "Not saved", f"a refused edit says Not saved: {page.locator('#status').inner_text()}")
    refusal = page.locator("#inspector .refusal")
    check("width must be from 0" in refusal.inner_text(), f"the server's message is shown: {refusal.inner_text()}")
    check(page.evaluate("() => document.querySelector('#inspector .refusal').previousElementSibling.dataset.key") == "size",
          "the message sits beside the control that sent the value")
    check((folder / second).read_bytes() == on_disk, "the refused edit changed nothing on disk")
    page.screenshot(path=str(SCREENSHOTS / "editor-refused.png"))

    # Menus close on Escape and on a press outside.
    page.click("#export summary")
    check(page.evaluate("() => document.getElementById('export').open"), "the Export menu opens")
    page.keyboard.press("Escape")
    check(not page.evaluate("() => document.getElementById('export').open"), "Escape closes the Export menu")
    page.click("#settings summary")
    page.mouse.click(5, 400)
    check(not page.evaluate("() => document.getElementById('settings').open"), "a press outside closes the Settings menu")

    # "front" on a card's topmost image says why nothing moves (cards keep images under texts).
    page.locator(".box[data-index='10']").click()
    on_disk = (folder / second).read_bytes()
    page.click("button[aria-label='Move front']")
    note = page.locator("#inspector .note.order")
    check(note.count() == 1 and "images under its texts" in note.inner_text(), "front on the top image says why")
    check((folder / second).read_bytes() == on_disk, "and changes nothing")

    # A new text is typed where it lands, at the middle of what the view shows of the card,
    # in a frame that fits its word, and is selected.
    page.locator("#viewport").evaluate("(v) => { v.scrollTop = 0; }")
    view = box_of(page, page.locator("#viewport"))
    page.click("button[aria-label='Add text']")
    page.wait_for_selector(".text-field:focus")
    page.keyboard.type("Hi")
    page.keyboard.press("Enter")
    page.wait_for_selector(".box.selected[data-index='11']", timeout=10000)
    added = json.loads((folder / second).read_text())["textElements"][-1]["transform"]
    scale = stage_scale(page)
    stage = box_of(page, page.locator("#stage"))
    top, bottom = max(view["y"], stage["y"]), min(view["y"] + view["height"], stage["y"] + stage["height"])
    left, right = max(view["x"], stage["x"]), min(view["x"] + view["width"], stage["x"] + stage["width"])
    expected = (((left + right) / 2 - stage["x"]) / scale - 650, ((top + bottom) / 2 - stage["y"]) / scale - 1000)
    width, height = added["size"]
    check(abs(added["offset"][0] - expected[0]) < 2 and abs(added["offset"][1] - expected[1]) < 2
          and 200 < width < 500 and 200 < height < 300,
          f"the new text is at the middle of the view, in a frame for its word, and selected: {added}, expected offset {expected}")

    check(page.locator("#inspector button[aria-label='No fill']").count() == 0, "a card text's colour offers no None")

    # The dark theme's fields are readable: dark background, light text.
    page.click("#settings summary")
    page.select_option("#setting-theme", "dark")
    page.keyboard.press("Escape")
    colours = page.evaluate("""() => { const s = getComputedStyle(document.querySelector('#inspector input[type=number]'));
        return [s.backgroundColor, s.color]; }""")
    check(colours == ["rgb(44, 44, 46)", "rgb(242, 242, 247)"], f"dark-theme fields are dark with light text: {colours}")
    page.screenshot(path=str(SCREENSHOTS / "editor-dark.png"))
    page.click("#settings summary")
    page.select_option("#setting-theme", "light")
    page.keyboard.press("Escape")

    # The document browser: no editor controls, and names that stay inside their tiles.
    page.goto(base + "#/")
    page.wait_for_selector("#grid li")
    check(not any(page.is_visible(s) for s in ["#undo", "#redo", "#export", "#status"]),
          "the document browser shows no Undo, Redo, Export or save status")
    overflowing = page.evaluate("""() => [...document.querySelectorAll('#grid li')].filter((li) =>
        li.querySelector('.name').getBoundingClientRect().right > li.getBoundingClientRect().right + 0.5).length""")
    check(overflowing == 0, f"every name fits its tile ({overflowing} overflow)")
    page.screenshot(path=str(SCREENSHOTS / "editor-browser-names.png"))


def main():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with served_samples(EASEL, "easel-editor-", viewport={"width": 1280, "height": 800}) as session:
        page, context, base, folder, state = session.page, session.context, session.base, session.folder, session.state
        environment, errors = session.environment, session.errors
        # The document browser.
        page.goto(base)
        page.wait_for_selector("#grid li")
        page.wait_for_function("() => [...document.querySelectorAll('#grid img')].every(i => i.complete && i.naturalWidth > 0)")
        items = page.eval_on_selector_all("#grid li", "nodes => nodes.map(n => n.dataset.path)")
        check(CARD in items and "Showcase.drawing" in items, f"the browser lists the folder's documents: {items}")
        page.screenshot(path=str(SCREENSHOTS / "editor-browser.png"))
        compare_screenshot(SCREENSHOTS / "editor-browser.png", "editor-browser.png")

        # Live: a drawing made by the CLI appears in the open browser.
        subprocess.run([str(EASEL), "new", "drawing", str(folder / "from-cli.drawing"), "--size", "300x200"],
                       env=dict(os.environ, XDG_STATE_HOME=str(state)), check=True, capture_output=True)
        page.wait_for_selector("#grid li[data-path='from-cli.drawing'] img", timeout=10000)
        check(True, "a drawing made by `easel new` appears in the open browser")
        # Delete it from the browser, after the confirmation.
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("button[aria-label='Delete from-cli.drawing']")
        page.wait_for_selector("#grid li[data-path='from-cli.drawing']", state="detached", timeout=10000)
        check(not (folder / "from-cli.drawing").exists() and any((state / "easel" / "trash").iterdir()),
              "Delete (confirmed) moves the drawing to Easel's trash")

        # An address whose document part is not a path of the folder's (a '..' part that would
        # take the editor's requests to other routes, an escape that does not decode) opens
        # nothing: the browser stays, with no error.
        for hash in ["#/edit/..%2F..%2Fapi%2Fschema", "#/edit/%E0%A4%A", f"#/edit/.%2F{CARD}"]:
            page.goto(base + hash)
            page.wait_for_timeout(500)
            check(page.is_visible("#grid") and page.locator(".box").count() == 0, f"{hash} opens nothing")
        page.goto(base)
        page.wait_for_selector("#grid li")

        # Open the card.
        page.click(f"#grid li[data-path='{CARD}'] a.open")
        page.wait_for_selector(".box[data-index='0']")
        wait_for_rendering(page, revision(folder / CARD))
        page.screenshot(path=str(SCREENSHOTS / "editor-card.png"))
        compare_screenshot(SCREENSHOTS / "editor-card.png", "editor-card.png")

        # Drag element 0 by (60, 45) screen pixels: its offset moves by that over the scale.
        before = card_json(folder)["imageElements"][0]["transform"]["offset"]
        scale = stage_scale(page)
        box = box_of(page, page.locator(".box[data-index='0']"))
        centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        frames = page.evaluate("""() => { window.__frames = 0; const tick = () => { window.__frames++;
            window.__raf = requestAnimationFrame(tick); }; window.__raf = requestAnimationFrame(tick);
            window.__dragStart = performance.now(); return 0; }""")
        drag(page, centre, (centre[0] + 60, centre[1] + 45), steps=30)
        fps = page.evaluate("""() => { cancelAnimationFrame(window.__raf);
            return window.__frames / ((performance.now() - window.__dragStart) / 1000); }""")
        dropped = time.monotonic()
        page.wait_for_function("() => document.getElementById('status').textContent === 'Saved'")
        moved_revision = revision(folder / CARD)
        waited = wait_for_rendering(page, moved_revision)
        after = card_json(folder)["imageElements"][0]["transform"]["offset"]
        dx, dy = after[0] - before[0], after[1] - before[1]
        check(abs(dx - 60 / scale) < 0.6 and abs(dy - 45 / scale) < 0.6,
              f"the drag moved the element by ({dx:.2f}, {dy:.2f}) units, expected ({60 / scale:.2f}, {45 / scale:.2f})")
        print(f"measure end of drag to the new server rendering: {(time.monotonic() - dropped) * 1000:.0f} ms "
              f"(after the save: {waited * 1000:.0f} ms); frames during the drag: {fps:.0f}/s")

        # Resize with the south-east handle: the north-west corner stays and so does the
        # aspect ratio; then the east edge: only the width changes, the west edge stays.
        frame_before = card_json(folder)["imageElements"][0]["transform"]
        size_before, size_after = drag_handle(page, folder, "se", (30, 20), "size")
        frame_after = card_json(folder)["imageElements"][0]["transform"]
        check(size_after != size_before, f"the handle resized the frame: {size_before} -> {size_after}")
        check(abs(size_after[0] / size_after[1] - size_before[0] / size_before[1]) < 0.01,
              f"a corner keeps the aspect ratio: {size_before} -> {size_after}")
        check(all(abs(a - b) < 1.5 for a, b in zip(corner(frame_before, -1, -1), corner(frame_after, -1, -1))),
              f"a corner keeps the opposite corner: {corner(frame_before, -1, -1)} -> {corner(frame_after, -1, -1)}")
        width_before, width_after = drag_handle(page, folder, "e", (25, 0), "size")
        frame_edge = card_json(folder)["imageElements"][0]["transform"]
        check(width_after[0] != width_before[0] and abs(width_after[1] - width_before[1]) < 0.01,
              f"an edge changes one side: {width_before} -> {width_after}")
        check(all(abs(a - b) < 1.5 for a, b in zip(corner(frame_after, -1, 0), corner(frame_edge, -1, 0))),
              "an edge keeps the opposite edge")
        rotation_before, rotation_after = drag_handle(page, folder, "rotate", (84, 34), "rotation")
        check(rotation_after != rotation_before, f"the knob rotated the frame: {rotation_before} -> {rotation_after}")

        # The heart frame from the inspector: frameIndex 3 on disk.
        before_heart = (folder / CARD).read_bytes()
        page.click("button[aria-label='Clip frame heart']")
        page.wait_for_function("() => document.getElementById('status').textContent === 'Saved'")
        wait_for_rendering(page, revision(folder / CARD))
        check(card_json(folder)["imageElements"][0].get("frameIndex") == 3, "the heart frame is frameIndex 3 on disk")

        # Ctrl-Z restores the file as it was before the heart.
        page.locator("#viewport").focus()
        page.keyboard.press("Control+z")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and (folder / CARD).read_bytes() != before_heart:
            time.sleep(0.05)
        check((folder / CARD).read_bytes() == before_heart, "Ctrl-Z restores the file")
        wait_for_rendering(page, revision(folder / CARD))

        # An uploaded photo becomes an image element, stored as the app stores photos.
        images_before = len(card_json(folder)["imageElements"])
        page.set_input_files("#upload", str(ROOT / "Assets" / "Samples" / "5F3E2A10-77C4-4B9D-8E21-0D9C6B4A3F22"))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and len(card_json(folder)["imageElements"]) == images_before:
            time.sleep(0.05)
        name = card_json(folder)["imageElements"][-1].get("imageFilename", "")
        check(len(card_json(folder)["imageElements"]) == images_before + 1 and re.fullmatch(r"[0-9A-F-]{36}", name)
              and (folder / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n",
              f"the upload is a new image element stored as an extension-less PNG named by a UUID ({name})")
        wait_for_rendering(page, revision(folder / CARD))
        page.locator("#undo").click()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and len(card_json(folder)["imageElements"]) != images_before:
            time.sleep(0.05)
        check(len(card_json(folder)["imageElements"]) == images_before, "the Undo button takes the upload out")
        wait_for_rendering(page, revision(folder / CARD))

        # The export menu's downloads are the renders.
        page.click("#export summary")
        links = page.eval_on_selector_all("#export-items a", "nodes => nodes.map(n => [n.textContent, n.href, n.download])")
        check(len(links) == 6, f"PNG, SVG and PDF, each at the share and thumbnail sizes: {[l[0] for l in links]}")
        statuses = page.evaluate("async (urls) => Promise.all(urls.map(async u => (await fetch(u)).status))",
                                 [link[1] for link in links])
        check(statuses == [200] * 6, f"every export link downloads: {statuses}")
        page.click("#export summary")

        # The keyboard: Tab reaches the elements (focus selects), arrows nudge, repeats coalesce.
        page.locator(".box[data-index='1']").focus()
        offset = card_json(folder)["imageElements"][1]["transform"]["offset"]
        for _ in range(5):
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Shift+ArrowDown")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and card_json(folder)["imageElements"][1]["transform"]["offset"] == offset:
            time.sleep(0.05)
        nudged = card_json(folder)["imageElements"][1]["transform"]["offset"]
        check(nudged == [offset[0] + 5, offset[1] + 10], f"five arrows and a shifted one nudge by (5, 10): {offset} -> {nudged}")
        page.wait_for_function("() => document.getElementById('status').textContent === 'Saved'")
        wait_for_rendering(page, revision(folder / CARD))
        # Leaving the page at once still saves the nudge that was waiting for the keys to rest.
        page.locator(".box[data-index='1']").focus()
        page.keyboard.press("ArrowLeft")
        page.goto("about:blank")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and card_json(folder)["imageElements"][1]["transform"]["offset"] == nudged:
            time.sleep(0.05)
        left = card_json(folder)["imageElements"][1]["transform"]["offset"]
        check(left == [nudged[0] - 1, nudged[1]], f"leaving the page sends the pending nudge: {nudged} -> {left}")
        page.goto(base + f"#/edit/{CARD}")
        page.wait_for_selector(".box[data-index='0']")
        wait_for_rendering(page, revision(folder / CARD))

        # `easel move` in a terminal: the open page shows it.
        started = time.monotonic()
        easel_cli(EASEL, environment)("move", str(folder / CARD), "1", "--by", "40,0")
        moved_by_cli = revision(folder / CARD)
        wait_for_rendering(page, moved_by_cli, timeout=10)
        refreshed = time.monotonic() - started
        check(True, f"an easel move in a terminal refreshed the page ({refreshed * 1000:.0f} ms after the command started)")

        # A stale edit: the page does not hear of a change (events blocked), then edits. The
        # blocked stream and the 412 are logged by the browser on purpose here.
        check(unexpected_errors(errors) == [], f"no console errors before the conflict but a busy server's: {errors}")
        page.route("**/api/events", lambda route: route.abort())
        page.reload()
        page.wait_for_selector(".box[data-index='0']")
        wait_for_rendering(page, revision(folder / CARD))
        easel_cli(EASEL, environment)("move", str(folder / CARD), "1", "--by", "-40,0")
        on_disk = (folder / CARD).read_bytes()
        box = box_of(page, page.locator(".box[data-index='0']"))
        centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        drag(page, centre, (centre[0] + 20, centre[1]))
        page.wait_for_selector("#conflict:not([hidden])", timeout=10000)
        check(page.locator("#status").inner_text() == "Conflict", "the indicator says Conflict")
        check((folder / CARD).read_bytes() == on_disk, "the stale edit overwrote nothing")
        page.screenshot(path=str(SCREENSHOTS / "editor-conflict.png"))
        page.click("#conflict-reload")
        page.wait_for_function("() => document.getElementById('status').textContent === 'Saved'")
        page.unroute("**/api/events")
        errors.clear()

        # Scene restore: zoom 50 %, element 1 selected; the page opened again at its root.
        page.select_option("#zoom", "0.5")
        page.locator(".box[data-index='1']").click()
        page.goto(base)
        page.wait_for_selector(".box.selected")
        selected = page.get_attribute(".box.selected", "data-index")
        zoom = page.input_value("#zoom")
        check(selected == "1" and zoom == "0.5", f"reopening restores document, zoom and selection ({zoom}, {selected})")
        check(CARD in page.inner_text("#title"), "the last document is open again")

        check(unexpected_errors(errors) == [], f"no console errors after the conflict but a busy server's: {errors}")

        # The inspector's controls come from the property table: a drawing's graphic
        # gets a shadow from its Shadow section, written to the file.
        page.set_viewport_size({"width": 1280, "height": 1000})
        page.goto(base + "#/edit/Showcase.drawing")
        page.wait_for_selector(".box[data-index='1']")
        page.locator(".box[data-index='1']").click()
        page.wait_for_selector("input[aria-label='Shadow blur']")
        page.fill("input[aria-label='Shadow blur']", "9")
        page.press("input[aria-label='Shadow blur']", "Enter")
        page.locator("input[aria-label='Shadow blur']").dispatch_event("change")
        page.wait_for_function("() => document.getElementById('status').textContent === 'Saved'")
        drawing = folder / "Showcase.drawing"
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and "shadow" not in json.loads(drawing.read_text())["graphics"][1]:
            time.sleep(0.05)
        shadow = json.loads(drawing.read_text())["graphics"][1].get("shadow", {})
        check(shadow.get("blur") == 9, f"the inspector's Shadow blur wrote the graphic's shadow: {shadow}")
        wait_for_rendering(page, revision(drawing))
        page.screenshot(path=str(SCREENSHOTS / "editor-drawing-inspector.png"))
        check(unexpected_errors(errors) == [], f"no console errors in the drawing's inspector but a busy server's: {errors}")

        # Bring to front from the element's menu: the element stays selected at its new place.
        count = len(json.loads(drawing.read_text())["graphics"])
        moved = json.loads(drawing.read_text())["graphics"][1]
        right_click_box(page, 1)
        page.click("#element-menu button:has-text('Bring to front')")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and json.loads(drawing.read_text())["graphics"][-1] != moved:
            time.sleep(0.05)
        wait_for_rendering(page, revision(drawing))
        page.wait_for_selector(f".box.selected[data-index='{count - 1}']", timeout=5000)
        check(page.locator(".box.selected").count() == 1, "after Bring to front the element moved is selected at the top")
        page.click("#undo")
        eventually(lambda: json.loads(drawing.read_text())["graphics"][-1] != moved, 10, "the Bring to front undone")
        wait_for_rendering(page, revision(drawing))
        hands_and_status(page, base, folder, environment)
    browser_support.finish("editor")


main()

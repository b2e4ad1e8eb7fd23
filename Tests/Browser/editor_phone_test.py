"""The editor on a phone, as the Cards app is used: `easel serve` and Debian's chromium,
driven by Playwright with a phone's profile (touch, 390x844, device scale factor 3).

With touch only (CDP touch events): a new card, a sticker picked from its sheet (stored as
the app stores images: an extension-less PNG named by a UUID, the element's keys the
app's), a drag, a pinch and a turn at once (one undo step), a text typed in the Text sheet
in a picker font and colour, a frame from the Frames sheet, the long-press menu, the view
pinched on the empty canvas with the page itself never zooming, Share (downloaded where the
browser cannot share files), a gesture made offline and sent after a reload, and the card
list's carousel swiped. Where a finger could mean two things, it means what the screen
shows: the room around the card (an element's undrawn part under it) and a one-line text's
middle (no handle under it); a double tap on the empty canvas fits the card again, and a
long press there pastes what the menu copied. On its side, the Stickers sheet's tabs, the
Text sheet and the carousel's captions fit. Files on disk are checked each time.
Screenshots of a phone upright, a phone on its side and a tablet are compared with goldens,
and the keyboard and screen-reader checks of the desktop hold at each size.

Usage: editor_phone_test.py EASEL_BINARY [SCREENSHOT_FOLDER] [--record]
"""

import json
import math
import re
import struct
import sys
import time
from pathlib import Path

from browser_support import (box_count, box_of, check, compare_screenshot, easel_cli, eventually, finish, read_json, revision, selected,
                             served_samples, settle, unexpected_errors, unnamed_controls, wait_for_rendering)

EASEL = Path(sys.argv[1]).resolve()
SCREENSHOTS = Path(sys.argv[2] if len(sys.argv) > 2 and not sys.argv[2].startswith("--") else "out/browser").resolve()
RECORD = "--record" in sys.argv
UUID_NAME = re.compile(r"[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}")
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3, "is_mobile": True, "has_touch": True}


class Fingers:
    """Touches through the DevTools protocol, as a phone's screen sends them."""

    def __init__(self, page):
        self.page = page
        self.cdp = page.context.new_cdp_session(page)

    def send(self, kind, points):
        self.cdp.send("Input.dispatchTouchEvent", {
            "type": kind, "touchPoints": [{"x": x, "y": y, "id": i, "radiusX": 4, "radiusY": 4, "force": 1}
                                          for i, (x, y) in enumerate(points)]})

    def gesture(self, starts, ends, steps=12, hold=0.0):
        """Fingers down at `starts`, moved together to `ends`, lifted."""
        self.send("touchStart", starts)
        if hold:
            time.sleep(hold)
        for step in range(1, steps + 1):
            t = step / steps
            self.send("touchMove", [(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t) for a, b in zip(starts, ends)])
            time.sleep(0.016)
        self.send("touchEnd", [])

    def tap(self, point):
        self.send("touchStart", [point])
        self.send("touchEnd", [])

    def press(self, point, seconds=0.8):
        """A long press: the finger held `seconds`, and on until the element menu it opens
        shows (at most 5 s more), as a person waits for it; a busy page may run its
        long-press timer after a lift that came in the meantime."""
        self.send("touchStart", [point])
        time.sleep(seconds)
        eventually(lambda: self.page.locator("#element-menu:not([hidden])").count() > 0, 5, "the long press's menu",
                   page=self.page)
        self.send("touchEnd", [])


def tap(fingers, page, selector):
    box = box_of(page, page.locator(selector).first)
    fingers.tap((box["x"] + box["width"] / 2, box["y"] + box["height"] / 2))


def centre_of(page, selector):
    box = box_of(page, page.locator(selector))
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def small_targets(page):
    """Controls on screen smaller than 44 px a side (a finger's size), outside the canvas (a
    closed menu's and a sheet off screen's are not on screen)."""
    return page.evaluate("""() => [...document.querySelectorAll('button, summary, select, input, a.open, a.brand, .menu-items label')]
        .filter((c) => c.getClientRects().length && getComputedStyle(c).visibility !== 'hidden' && !c.closest('#viewport'))
        .filter((c) => !c.closest('details:not([open]) .menu-items'))
        .filter((c) => { const r = c.getBoundingClientRect();
          return r.right > 0 && r.bottom > 0 && r.left < innerWidth && r.top < innerHeight; })
        .filter((c) => { const r = c.getBoundingClientRect(); return r.width < 43.5 || r.height < 43.5; })
        .map((c) => (c.getAttribute('aria-label') || c.textContent).trim().slice(0, 40))""")


def accessible_everywhere(page, where):
    check(unnamed_controls(page) == [], f"every control has a name a screen reader reads ({where}): {unnamed_controls(page)}")
    page.locator(".box[data-index='0']").focus()
    check(page.get_attribute(".box[data-index='0']", "aria-pressed") == "true", f"the keyboard reaches and selects an element ({where})")


def png_size(path):
    data = path.read_bytes()
    return data[:8] == b"\x89PNG\r\n\x1a\n", struct.unpack(">II", data[16:24])


def card_on_a_phone(session):
    page, base, folder = session.page, session.base, session.folder
    fingers = Fingers(page)
    page.goto(base)
    page.wait_for_selector("#grid li img")
    check(page.evaluate("() => document.documentElement.scrollWidth") <= 390, "the card list fits the phone's width")
    tiles = page.eval_on_selector_all("#grid li", "nodes => nodes.map(n => n.getBoundingClientRect().width)")
    check(len(tiles) >= 2 and all(150 <= w <= 195 for w in tiles), f"two thumbnails a row: {tiles}")
    tap(fingers, page, "#new-card")
    page.wait_for_selector("#editor:not([hidden]) button[data-tool='stickers']")
    path = page.evaluate("() => decodeURIComponent(location.hash.slice('#/edit/'.length))")
    card = folder / path
    wait_for_rendering(page, revision(card))
    stage = box_of(page, page.locator("#stage"))
    check(stage["width"] >= 360, f"the card fills the phone's width: {stage['width']:.0f} px of 390")
    bar = box_of(page, page.locator(".tools"))
    check(bar["y"] + bar["height"] >= 844 - 1 and [b.strip() for b in page.locator(".tools .tool-label").all_inner_texts()]
          == ["Photos", "Frames", "Stickers", "Text"], "the app's toolbar is at the bottom: Photos, Frames, Stickers, Text")
    check(small_targets(page) == [], f"every control outside the canvas is at least 44 px: {small_targets(page)}")

    # A sticker from its sheet, stored as the app stores an image.
    tap(fingers, page, "button[data-tool='stickers']")
    page.wait_for_selector("#sheet[open] .sticker-grid button img")
    tap(fingers, page, "#sheet .sheet-tabs button:has-text('Party')")
    page.wait_for_selector("#sheet button[aria-label='Sticker cake']")
    page.wait_for_function("() => [...document.querySelectorAll('#sheet .sticker-grid img')].every(i => i.complete && i.naturalWidth > 0)")
    page.screenshot(path=str(SCREENSHOTS / "phone-stickers.png"))
    tap(fingers, page, "#sheet button[aria-label='Sticker cake']")
    eventually(lambda: len((read_json(card) or {}).get("imageElements", [])) == 1, 10, "the sticker")
    settle(page, card)
    element = read_json(card)["imageElements"][0]
    stored = folder / element.get("imageFilename", "")
    is_png, size = png_size(stored)
    check(set(element) == {"transform", "imageFilename", "frameIndex"} and element["frameIndex"] is None
          and UUID_NAME.fullmatch(stored.name) and is_png and size == (512, 512),
          f"the sticker is an image element as the app writes one, its file a 512x512 PNG named by a UUID: {element}")

    # One finger drags it; two pinch and turn it at once: one undo step.
    before = read_json(card)["imageElements"][0]["transform"]
    scale = box_of(page, page.locator("#stage"))["width"] / 1300
    start = centre_of(page, ".box[data-index='0']")
    fingers.gesture([start], [(start[0] - 60, start[1] + 90)])
    settle(page, card)
    dragged = read_json(card)["imageElements"][0]["transform"]
    moved = [dragged["offset"][0] - before["offset"][0], dragged["offset"][1] - before["offset"][1]]
    check(abs(moved[0] + 60 / scale) < 3 and abs(moved[1] - 90 / scale) < 3 and dragged["size"] == before["size"],
          f"one finger drags the sticker by its distance over the scale: {moved}")
    centre = centre_of(page, ".box[data-index='0']")
    a0, b0 = (centre[0] - 40, centre[1]), (centre[0] + 40, centre[1])
    turn = math.radians(30)
    a1 = (centre[0] - 60 * math.cos(turn), centre[1] - 60 * math.sin(turn))
    b1 = (centre[0] + 60 * math.cos(turn), centre[1] + 60 * math.sin(turn))
    fingers.gesture([a0, b0], [a1, b1], steps=16)
    settle(page, card)
    pinched = read_json(card)["imageElements"][0]["transform"]
    ratio = pinched["size"][0] / dragged["size"][0]
    check(abs(ratio - 1.5) < 0.05 and abs(pinched["size"][0] - pinched["size"][1]) < 0.01,
          f"a pinch resizes it keeping its proportions: {dragged['size']} -> {pinched['size']}")
    check(abs(pinched["rotation"]["degrees"] - 30) < 2, f"and the same two fingers turn it: {pinched['rotation']}")
    page.click("#undo")
    check(eventually(lambda: read_json(card)["imageElements"][0]["transform"] == dragged, 10),
          "one undo takes the whole pinch and turn back")
    settle(page, card)
    page.click("#redo")
    eventually(lambda: read_json(card)["imageElements"][0]["transform"] == pinched, 10, "the redo")
    settle(page, card)

    # A frame from the Frames sheet.
    tap(fingers, page, "button[data-tool='frames']")
    page.wait_for_selector("#sheet[open] button[aria-label='Frame heart'] img")
    tap(fingers, page, "#sheet button[aria-label='Frame heart']")
    check(eventually(lambda: read_json(card)["imageElements"][0].get("frameIndex") == 3, 10),
          "the heart from the Frames sheet is frameIndex 3 on disk")
    settle(page, card)

    # A text typed in the Text sheet, in a picker font shown in its own face and a palette colour.
    tap(fingers, page, "button[data-tool='text']")
    page.wait_for_selector("#sheet[open] input[aria-label='Enter text']")
    page.wait_for_function("""() => [...document.querySelectorAll('#sheet .font-list img')].slice(0, 4)
        .every(i => i.complete && i.naturalWidth > 20)""")
    page.screenshot(path=str(SCREENSHOTS / "phone-text-sheet.png"))
    page.locator("#sheet input[aria-label='Enter text']").type("Hello phone")
    page.locator("#sheet button[aria-label='Font Chalkduster']").scroll_into_view_if_needed()
    tap(fingers, page, "#sheet button[aria-label='Font Chalkduster']")
    tap(fingers, page, "#sheet button[aria-label='Colour appColor6']")
    page.locator("#sheet input[aria-label='Enter text']").press("Enter")
    eventually(lambda: len((read_json(card) or {}).get("textElements", [])) == 1, 10, "the text")
    settle(page, card)
    text = read_json(card)["textElements"][0]
    check(text["text"] == "Hello phone" and text["textFont"] == "Chalkduster"
          and [round(c, 3) for c in text["textColor"][:3]] == [0.222, 0.784, 0.474],
          f"the text from the sheet has its font and colour: {text}")

    # A long press opens the element's menu; Duplicate makes a copy.
    fingers.press(centre_of(page, ".box[data-index='0']"))
    page.wait_for_selector("#element-menu:not([hidden]) button:has-text('Duplicate')")
    page.screenshot(path=str(SCREENSHOTS / "phone-menu.png"))
    tap(fingers, page, "#element-menu button:has-text('Duplicate')")
    check(eventually(lambda: len(read_json(card)["imageElements"]) == 2, 10), "the long press menu's Duplicate copies the sticker")
    settle(page, card)
    texts_before_paste = len(read_json(card)["textElements"])

    # With nothing copied, the empty canvas's Paste says so and adds nothing.
    page.evaluate("() => localStorage.removeItem('easel.clipboard')")
    stage, view = box_of(page, page.locator("#stage")), box_of(page, page.locator("#viewport"))
    empty = (stage["x"] + stage["width"] / 2, (stage["y"] + stage["height"] + view["y"] + view["height"]) / 2)
    page.locator("#viewport").focus()
    page.keyboard.press("Escape")
    fingers.press(empty)
    page.wait_for_selector("#element-menu:not([hidden]) button:has-text('Paste')")
    tap(fingers, page, "#element-menu button:has-text('Paste')")
    check(eventually(lambda: page.inner_text("#notice").startswith("Nothing to paste"), 5, page=page),
          f"a Paste with nothing copied says so: {page.inner_text('#notice')!r}")
    check(len(read_json(card)["imageElements"]) == 2 and len(read_json(card)["textElements"]) == texts_before_paste,
          "and adds nothing")

    # The menu's Copy says so, and a long press on the empty canvas offers Paste (a finger
    # has no Ctrl-V); the paste is then undone.
    fingers.press(centre_of(page, ".box[data-index='0']"))
    page.wait_for_selector("#element-menu:not([hidden]) button:has-text('Copy')")
    tap(fingers, page, "#element-menu button:has-text('Copy')")
    check(eventually(lambda: page.inner_text("#notice") == "Copied.", 5, page=page), "the menu's Copy says it copied")
    stage, view = box_of(page, page.locator("#stage")), box_of(page, page.locator("#viewport"))
    empty = (stage["x"] + stage["width"] / 2, (stage["y"] + stage["height"] + view["y"] + view["height"]) / 2)
    page.locator("#viewport").focus()
    page.keyboard.press("Escape")  # no handle of the selection where the finger goes
    fingers.press(empty)
    page.wait_for_selector("#element-menu:not([hidden]) button:has-text('Paste')")
    check(page.locator("#element-menu button").count() == 1, "on the empty canvas the menu is Paste alone")
    tap(fingers, page, "#element-menu button:has-text('Paste')")
    check(eventually(lambda: len(read_json(card)["imageElements"]) == 3, 10), "a long press on the empty canvas pastes what was copied")
    settle(page, card)
    page.click("#undo")
    eventually(lambda: len(read_json(card)["imageElements"]) == 2, 10, "the paste undone")
    settle(page, card)

    # Two fingers on the empty canvas zoom the view, and the page itself does not zoom.
    page.locator("#viewport").focus()
    page.keyboard.press("Escape")
    stage, view = box_of(page, page.locator("#stage")), box_of(page, page.locator("#viewport"))
    low = (stage["x"] + stage["width"] / 2, (stage["y"] + stage["height"] + view["y"] + view["height"]) / 2)
    level = page.inner_text("#zoom-level")
    # The whole-canvas picture asked for during the pinch (not a layer's, not a detail's).
    whole = re.compile(r"/render\.png\?width=(\d+)&rev=[^&]*$")
    asked = []
    listener = lambda request: asked.append(whole.search(request.url).group(1)) if whole.search(request.url) else None
    page.on("request", listener)
    fingers.gesture([(low[0] - 30, low[1]), (low[0] + 30, low[1])], [(low[0] - 70, low[1]), (low[0] + 70, low[1])])
    check(eventually(lambda: page.inner_text("#zoom-level") != level, 5)
          and page.evaluate("() => window.visualViewport.scale") == 1,
          f"a pinch on the empty canvas zooms the view ({level} -> {page.inner_text('#zoom-level')}), not the page")
    eventually(lambda: asked, 5, "the picture at the pinch's zoom", page=page)
    page.wait_for_timeout(500)
    page.remove_listener("request", listener)
    # Twelve steps, each a new width: one picture once the view settles (a few at most,
    # when a slow host lets the view rest mid-pinch; a refused one asked again is the same
    # width), not a render for each step.
    check(1 <= len(set(asked)) <= 3, f"a pinch asks the server for the picture at its new zoom once it settles: widths {asked}")
    page.select_option("#zoom", "fit") if page.is_visible("#zoom") else page.evaluate(
        "() => { const z = document.getElementById('zoom'); z.value = 'fit'; z.dispatchEvent(new Event('change')); }")
    settle(page, card)

    # Share: downloaded where the browser cannot share files, at the app's share size.
    with page.expect_download() as download:
        tap(fingers, page, "#share")
    saved = Path(download.value.path())
    check(png_size(saved) == (True, (1300, 2000)), f"Share gives the card's picture at the app's share size: {png_size(saved)}")
    check(download.value.suggested_filename == "Hello phone.png",
          f"named by the card's title (its first text), not its id: {download.value.suggested_filename}")

    # A gesture made while the server cannot be reached is kept, across a reload, and sent.
    page.route("**/edits", lambda route: route.abort())
    on_disk = card.read_bytes()
    start = centre_of(page, ".box[data-index='1']")
    fingers.gesture([start], [(start[0] + 40, start[1] + 40)])
    page.wait_for_function("() => document.getElementById('status').textContent === 'Offline'", timeout=10000)
    page.reload()
    page.wait_for_selector(".box[data-index='1']")
    check(card.read_bytes() == on_disk, "offline, nothing reached the file")
    page.unroute("**/edits")
    check(eventually(lambda: card.read_bytes() != on_disk, 15), "the gesture made offline is sent when the server is back, after a reload")
    settle(page, card)

    # The inspector is a bottom sheet: the card's background from the app's palette.
    page.locator("#viewport").focus()
    page.keyboard.press("Escape")
    tap(fingers, page, "#inspector-toggle")
    page.wait_for_selector("#inspector button[aria-label='Background random2']")
    page.wait_for_function("() => document.getElementById('inspector').getBoundingClientRect().bottom <= window.innerHeight + 1")
    page.screenshot(path=str(SCREENSHOTS / "phone-inspector.png"))
    tap(fingers, page, "#inspector button[aria-label='Background random2']")
    check(eventually(lambda: read_json(card)["backgroundColor"][:3] == [0.683, 0.908, 0.784], 10),
          "the inspector's bottom sheet sets the background")
    tap(fingers, page, "#inspector-toggle")
    settle(page, card)
    accessible_everywhere(page, "phone upright")

    # A pressed button shows the editor's pressed colour (the chosen tool's); the browser's own tap flash, which fades
    # on its own clock (and once left a button tinted in the screenshot below), is off. Headless
    # chromium does not set :active for the protocol's touches, so the DevTools protocol forces it.
    toggle_style = "(p) => getComputedStyle(document.getElementById('inspector-toggle'))[p]"
    fingers.cdp.send("DOM.enable")
    fingers.cdp.send("CSS.enable")
    toggle = fingers.cdp.send("DOM.querySelector", {"nodeId": fingers.cdp.send("DOM.getDocument")["root"]["nodeId"],
                                                    "selector": "#inspector-toggle"})["nodeId"]
    fingers.cdp.send("CSS.forcePseudoState", {"nodeId": toggle, "forcedPseudoClasses": ["active"]})
    pressed = page.evaluate(toggle_style, "backgroundColor")
    fingers.cdp.send("CSS.forcePseudoState", {"nodeId": toggle, "forcedPseudoClasses": []})
    check(pressed == "rgba(10, 100, 216, 0.15)" and page.evaluate(toggle_style, "webkitTapHighlightColor") == "rgba(0, 0, 0, 0)",
          f"a pressed button shows the editor's colour ({pressed}), not the browser's tap flash")
    check(page.evaluate(toggle_style, "backgroundColor") == "rgb(255, 255, 255)", "a press lifted leaves the button as it was")
    page.locator("#viewport").focus()
    page.keyboard.press("Escape")
    page.screenshot(path=str(SCREENSHOTS / "phone-portrait.png"))
    compare_screenshot(EASEL, SCREENSHOTS / "phone-portrait.png", "phone-portrait.png", SCREENSHOTS, RECORD)
    return path


def hands_on_a_phone(session, path):
    """Where a finger could mean two things, it means what the screen shows: the room around
    the card is empty canvas even where an element reaches past the card's edge (a part that is
    not drawn), a finger on a one-line text's middle moves it (no handle under it to stretch it
    instead), and a double tap on the empty canvas fits the card in the view again."""
    page, card, fingers = open_in_editor(session, path)
    # The top sticker made larger than the card and moved down: most of it hangs past the card's
    # bottom edge, where it is not drawn, under the grey room below the card.
    original = read_json(card)["imageElements"][1]["transform"]
    page.evaluate("""async (path) => { const api = await import('/editor/api.js');
        await api.edit(path, [{ verb: 'set', index: 1, at: [650, 1900], size: [1400, 1400], rotation: 0 }]); }""", path)
    eventually(lambda: read_json(card)["imageElements"][1]["transform"]["size"] == [1400, 1400], 10, "the large sticker")
    settle(page, card)
    stage, view = box_of(page, page.locator("#stage")), box_of(page, page.locator("#viewport"))
    scale = stage["width"] / 1300
    below = (stage["x"] + stage["width"] / 2, (stage["y"] + stage["height"] + view["y"] + view["height"]) / 2)
    check(view["y"] + view["height"] - (stage["y"] + stage["height"]) > 40, "there is room below the card to touch")
    large = read_json(card)["imageElements"][1]["transform"]
    fingers.tap((below[0], stage["y"] + 1970 * scale))  # its drawn part, at the card's bottom
    page.wait_for_selector(".box[data-index='1'].selected")
    fingers.tap(below)
    check(eventually(lambda: page.locator(".box.selected").count() == 0, 3, page=page),
          "a tap on the room below the card deselects, though the sticker's undrawn part lies under it")
    fingers.gesture([below], [(below[0] + 50, below[1] - 30)])
    level = page.inner_text("#zoom-level")
    fingers.gesture([(below[0] - 30, below[1]), (below[0] + 30, below[1])], [(below[0] - 70, below[1]), (below[0] + 70, below[1])])
    check(eventually(lambda: page.inner_text("#zoom-level") != level, 5, page=page),
          f"a pinch there zooms the view ({level} -> {page.inner_text('#zoom-level')})")
    page.wait_for_timeout(600)
    check(read_json(card)["imageElements"][1]["transform"] == large and page.inner_text("#status") == "Saved",
          f"and neither the drag nor the pinch changed the sticker: {read_json(card)['imageElements'][0]['transform']}")
    fingers.tap(below)
    fingers.tap(below)
    check(eventually(lambda: page.inner_text("#zoom-level") == level, 5, page=page),
          f"a double tap on the empty canvas fits the card again ({page.inner_text('#zoom-level')}, fit {level})")
    # One finger pans, then a second joins: the view carries on from the fingers' middle as
    # it is then, without a jump of half the distance between them.
    first, second = below, (below[0] + 160, below[1] - 40)
    fingers.send("touchStart", [first])
    for step in range(1, 7):
        fingers.send("touchMove", [(first[0] + 5 * step, first[1])])
        time.sleep(0.016)
    first = (first[0] + 30, first[1])
    stage_before = box_of(page, page.locator("#stage"))
    fingers.send("touchStart", [first, second])
    fingers.send("touchMove", [first, (second[0] + 1, second[1])])
    fingers.send("touchEnd", [])
    page.wait_for_timeout(200)
    stage_after = box_of(page, page.locator("#stage"))
    shift = (stage_after["x"] - stage_before["x"], stage_after["y"] - stage_before["y"])
    check(abs(shift[0]) < 8 and abs(shift[1]) < 8, f"a second finger joining a pan does not make the view jump: moved {shift}")
    page.evaluate("() => { const z = document.getElementById('zoom'); z.value = 'fit'; z.dispatchEvent(new Event('change')); }")
    page.click("#undo")
    check(eventually(lambda: read_json(card)["imageElements"][1]["transform"] == original, 10), "undo puts the sticker back")
    settle(page, card)

    # A one-line text made thin (under a grip's 44 px on screen): a finger on its middle moves it.
    text_box = page.locator(".box[data-kind='text']").first
    text_index, original = int(text_box.get_attribute("data-index")), read_json(card)["textElements"][0]["transform"]
    page.evaluate("""async ([path, index]) => { const api = await import('/editor/api.js');
        await api.edit(path, [{ verb: 'set', index, size: [1090, 100] }]); }""", [path, text_index])
    eventually(lambda: read_json(card)["textElements"][0]["transform"]["size"] == [1090, 100], 10, "the thin text")
    settle(page, card)
    box = box_of(page, text_box)
    middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    fingers.tap(middle)
    page.wait_for_selector(".box[data-kind='text'].selected")
    handles = page.eval_on_selector(".box.selected", "b => [...b.querySelectorAll('.handle')].map(h => h.dataset.handle)")
    check(box["height"] < 44 and not {"n", "s"} & set(handles),
          f"a text {box['height']:.0f} px tall has no top or bottom handle under a finger: {handles}")
    before = read_json(card)["textElements"][0]["transform"]
    fingers.gesture([middle], [(middle[0], middle[1] + 60)])
    settle(page, card)
    after = read_json(card)["textElements"][0]["transform"]
    check(after["size"] == before["size"] and abs(after["offset"][1] - before["offset"][1] - 60 / scale) < 3,
          f"a finger on the text's middle moves it, keeping its size: {before} -> {after}")
    page.click("#undo")
    eventually(lambda: read_json(card)["textElements"][0]["transform"] == before, 10, "the undone drag")
    settle(page, card)
    page.click("#undo")
    check(eventually(lambda: read_json(card)["textElements"][0]["transform"] == original, 10), "undo puts the text back")
    settle(page, card)
    page.locator("#viewport").focus()
    page.keyboard.press("Escape")
    tap(fingers, page, "#inspector-toggle")
    page.wait_for_selector("#inspector button[aria-label='Background random2']")
    check("Tap an element" in page.inner_text("#inspector") and "Shift" not in page.inner_text("#inspector"),
          "the inspector tells a finger what it can do, not a mouse and keyboard")
    tap(fingers, page, "#inspector-toggle")


def what_a_finger_is_left_with(session, path):
    """After a delete, or an undo of an add, nothing is selected (a kept index would name
    whichever element slid into its place); of several photos picked, one the server refuses
    is named in a notice and the others still go in; the menu's Copy puts a text on the
    system clipboard, as the app puts it on the pasteboard; the Text sheet marks the colour
    chosen; an element at the card's top has its rotation knob on screen; the inspector's
    sheet closes from within."""
    base, folder = session.base, session.folder
    session.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base.rstrip("/"))
    page, card, fingers = open_in_editor(session, path)
    images = lambda: len(read_json(card)["imageElements"])
    texts = lambda: len(read_json(card)["textElements"])

    # A sticker added is selected; undone, nothing is.
    count = images()
    tap(fingers, page, "button[data-tool='stickers']")
    page.wait_for_selector("#sheet[open] .sheet-tabs button:has-text('Party')")
    tap(fingers, page, "#sheet .sheet-tabs button:has-text('Party')")
    page.wait_for_selector("#sheet button[aria-label='Sticker cake']")
    tap(fingers, page, "#sheet button[aria-label='Sticker cake']")
    eventually(lambda: images() == count + 1, 10, "the sticker")
    settle(page, card)
    check(eventually(lambda: page.locator(".box.selected").count() == 1, 5, page=page), "the sticker added is selected")
    page.click("#undo")
    eventually(lambda: images() == count, 10, "the sticker undone")
    settle(page, card)
    check(page.locator(".box.selected").count() == 0 and page.locator("button[data-tool='frames']").is_disabled(),
          f"after undoing the add nothing is selected, and Frames waits for an image: {page.locator('.box.selected').count()}")

    # The menu's Copy of a text: the text on the system clipboard. Its Delete: nothing selected.
    page.evaluate("() => navigator.clipboard.writeText('BEFORE')")
    text_box = page.locator(".box[data-kind='text']").first
    box = box_of(page, text_box)
    words = read_json(card)["textElements"][0]["text"]
    fingers.press((box["x"] + box["width"] / 2, box["y"] + box["height"] / 2))
    page.wait_for_selector("#element-menu:not([hidden]) button:has-text('Copy')")
    tap(fingers, page, "#element-menu button:has-text('Copy')")
    check(eventually(lambda: page.evaluate("() => navigator.clipboard.readText()") == words, 5, page=page),
          f"the menu's Copy puts the text on the system clipboard: {page.evaluate('() => navigator.clipboard.readText()')!r}")
    count = texts()
    fingers.press((box["x"] + box["width"] / 2, box["y"] + box["height"] / 2))
    page.wait_for_selector("#element-menu:not([hidden]) button:has-text('Delete')")
    tap(fingers, page, "#element-menu button:has-text('Delete')")
    eventually(lambda: texts() == count - 1, 10, "the text deleted")
    settle(page, card)
    check(page.locator(".box.selected").count() == 0, "after a delete nothing is selected (not the element in its place)")
    page.click("#undo")
    eventually(lambda: texts() == count, 10, "the delete undone")
    settle(page, card)

    # Two photos picked, the first not an image: the second goes in, the first is named.
    count = images()
    photo = next(p for p in folder.iterdir() if UUID_NAME.fullmatch(p.name) and png_size(p)[0])
    page.set_input_files("#upload", [{"name": "notes.png", "mimeType": "image/png", "buffer": b"not an image at all"},
                                     {"name": "photo.png", "mimeType": "image/png", "buffer": photo.read_bytes()}])
    check(eventually(lambda: images() == count + 1, 10), "the photo after a refused file is still added")
    check(eventually(lambda: "notes.png" in page.inner_text("#notice"), 5, page=page)
          and page.get_attribute("#status", "data-state") != "offline",
          f"the refused file is named in a notice, not as the server out of reach: {page.inner_text('#notice')!r}")
    settle(page, card)
    page.click("#undo")
    eventually(lambda: images() == count, 10, "the photo undone")
    settle(page, card)

    # An element at the card's top, the card fitted in the view: its rotation knob below its
    # frame, on screen.
    page.evaluate("() => { const z = document.getElementById('zoom'); z.value = 'fit'; z.dispatchEvent(new Event('change')); }")
    page.evaluate("""async (path) => { const api = await import('/editor/api.js');
        await api.edit(path, [{ verb: 'set', index: 0, at: [650, 120], rotation: 0 }]); }""", path)
    eventually(lambda: read_json(card)["imageElements"][0]["transform"]["offset"][1] == 120 - 1000, 10, "the element at the top")
    settle(page, card)
    fingers.tap(centre_of(page, ".box[data-index='0']"))
    page.wait_for_selector(".box[data-index='0'].selected .handle.rotate")
    knob, view = box_of(page, page.locator(".handle.rotate")), box_of(page, page.locator("#viewport"))
    check(knob["y"] >= view["y"], f"the rotation knob is on screen ({knob['y']:.0f} px, the view from {view['y']:.0f})")
    page.click("#undo")
    eventually(lambda: read_json(card)["imageElements"][0]["transform"]["offset"][1] != 120 - 1000, 10, "the move undone")
    settle(page, card)

    # The Text sheet marks the colour chosen.
    tap(fingers, page, "button[data-tool='text']")
    page.wait_for_selector("#sheet[open] .swatch")
    tap(fingers, page, "#sheet button[aria-label='Colour appColor3']")
    ring = lambda: page.eval_on_selector("#sheet button[aria-label='Colour appColor3']", "b => getComputedStyle(b).boxShadow")
    other = lambda: page.eval_on_selector("#sheet button[aria-label='Colour appColor6']", "b => getComputedStyle(b).boxShadow")
    check(eventually(lambda: ring() != "none" and other() == "none", 5, page=page),
          f"the colour chosen is marked ({ring()}), the others not ({other()})")
    tap(fingers, page, "#sheet-close")

    # The inspector's sheet closes from within.
    page.locator("#viewport").focus()
    page.keyboard.press("Escape")
    tap(fingers, page, "#inspector-toggle")
    page.wait_for_selector("#inspector .inspector-done")
    tap(fingers, page, "#inspector .inspector-done")
    check(eventually(lambda: not page.evaluate("() => document.body.classList.contains('inspector-open')"), 3, page=page)
          and page.get_attribute("#inspector-toggle", "aria-expanded") == "false", "Done closes the inspector's sheet")


def open_in_editor(session, path):
    """Opens the card at `path` in the editor, its rendering shown: the page, the card's file
    and fingers on the page."""
    page, card = session.page, session.folder / path
    page.goto(session.base + f"#/edit/{path}")
    page.wait_for_selector(".box[data-index='0']")
    wait_for_rendering(page, revision(card))
    return page, card, Fingers(page)


def a_finger_takes_the_element_it_touches(session, path):
    """Two photos picked at once are both selected; a tap on one selects it alone (a finger
    moves one element, so a selection of several would say otherwise); with the lower one
    selected (its box raised over the rest for its handles), a tap where the upper one is
    drawn over it selects the upper one, as a tap in the app takes the topmost."""
    page, card, fingers = open_in_editor(session, path)
    folder = session.folder
    images = lambda: len(read_json(card)["imageElements"])
    count = images()
    photo = next(p for p in folder.iterdir() if UUID_NAME.fullmatch(p.name) and png_size(p)[0])
    page.set_input_files("#upload", [{"name": "one.png", "mimeType": "image/png", "buffer": photo.read_bytes()},
                                     {"name": "two.png", "mimeType": "image/png", "buffer": photo.read_bytes()}])
    eventually(lambda: images() == count + 2, 15, "the two photos")
    settle(page, card)
    lower, upper = count, count + 1
    check(eventually(lambda: selected(page) == [lower, upper], 5, page=page), f"both photos picked are selected: {selected(page)}")
    low, high = (box_of(page, page.locator(f".box[data-index='{i}']")) for i in (lower, upper))
    # The lower photo where the upper one does not cover it (the upper lies down and right of it).
    only_lower = (low["x"] + min(low["width"] * 0.2, (high["x"] - low["x"]) / 2),
                  low["y"] + min(low["height"] * 0.2, (high["y"] - low["y"]) / 2))
    fingers.tap(only_lower)
    check(eventually(lambda: selected(page) == [lower], 5, page=page), f"a tap on one of them selects it alone: {selected(page)}")
    # A point on both photos where nothing drawn above the upper one (a text) lies.
    both = page.evaluate("""([lower, upper]) => {
        const rect = (i) => document.querySelector(`.box[data-index="${i}"]`).getBoundingClientRect();
        const low = rect(lower), high = rect(upper);
        const above = [...document.querySelectorAll('.box')].filter((b) => Number(b.dataset.index) > upper)
          .map((b) => b.getBoundingClientRect());
        const left = Math.max(low.left, high.left), right = Math.min(low.right, high.right);
        const top = Math.max(low.top, high.top), bottom = Math.min(low.bottom, high.bottom);
        for (let fy = 0.1; fy < 1; fy += 0.1) for (let fx = 0.1; fx < 1; fx += 0.1) {
          const x = left + fx * (right - left), y = top + fy * (bottom - top);
          if (!above.some((r) => x >= r.left && x <= r.right && y >= r.top && y <= r.bottom)) return [x, y];
        }
        return null; }""", [lower, upper])
    check(both is not None, "the two photos overlap where nothing lies over them")
    fingers.tap(both)
    check(eventually(lambda: selected(page) == [upper], 5, page=page),
          f"a tap where the upper photo is drawn over the selected one selects the upper: {selected(page)}")
    for expected in (count + 1, count):
        page.click("#undo")
        eventually(lambda: images() == expected, 10, "a photo undone")
        settle(page, card)


def a_slow_sticker_list_stays_in_its_sheet(session, path):
    """The stickers' list arriving after their sheet was closed and the Text sheet opened is
    not put into the Text sheet (it was, under the text field)."""
    page, _, fingers = open_in_editor(session, path)
    held = []
    page.route("**/api/stickers", lambda route: held.append(route))
    tap(fingers, page, "button[data-tool='stickers']")
    eventually(lambda: held, 5, "the stickers' list asked for", page=page)
    tap(fingers, page, "#sheet-close")
    tap(fingers, page, "button[data-tool='text']")
    page.wait_for_selector("#sheet[open] input[aria-label='Enter text']")
    held[0].continue_()
    page.wait_for_timeout(500)
    check(page.locator("#sheet .sticker-grid, #sheet .sheet-tabs").count() == 0 and page.get_attribute("#sheet", "data-sheet") == "text",
          f"the Text sheet holds no stickers: {page.locator('#sheet .sticker-grid').count()} sticker grids")
    page.unroute("**/api/stickers")
    tap(fingers, page, "#sheet-close")


def a_finger_drag_while_changed_elsewhere(session):
    """A finger drags a text while the CLI removes the sticker below it: the drag is saved
    for the text, now one place lower (it went to whichever element took its place), and
    the text's box keeps following the finger once the change is shown."""
    card = session.folder / "3C4D5E6F-0000-4000-8000-0000000000B2.rwcard"
    easel = easel_cli(EASEL, session.environment)
    easel("new", "card", str(card))
    easel("add", str(card), "sticker", "camping/tent", "--at", "300,300")
    easel("add", str(card), "text", "Dragged meanwhile", "--at", "650,1200")
    page, card, fingers = open_in_editor(session, card.name)
    text = lambda: read_json(card)["textElements"][0]["transform"]
    before, start_box = text(), box_of(page, page.locator(".box[data-index='1']"))
    start = (start_box["x"] + start_box["width"] / 2, start_box["y"] + start_box["height"] / 2)
    fingers.send("touchStart", [start])
    for step in range(1, 7):
        fingers.send("touchMove", [(start[0], start[1] - 8 * step)])
        time.sleep(0.016)
    easel("remove", str(card), "0")
    eventually(lambda: box_count(page) == 1, 10, "the sticker's removal shown", page=page)
    for step in range(7, 13):
        fingers.send("touchMove", [(start[0], start[1] - 8 * step)])
        time.sleep(0.016)
    box = box_of(page, page.locator(".box[data-index='0']"))
    check(abs((box["y"] - start_box["y"]) + 96) < 4, f"the text's box follows the finger after the change is shown: "
          f"{box['y'] - start_box['y']:.0f} px of -96")
    fingers.send("touchEnd", [])
    settle(page, card)
    after = read_json(card)
    check(after["imageElements"] == [] and len(after["textElements"]) == 1 and text()["offset"] != before["offset"],
          f"the finger's drag moved the text, now one place lower: {before} -> {text()}")
    check(text()["size"] == before["size"] and text()["rotation"] == before["rotation"],
          f"and left its size and angle as they were: {before} -> {text()}")


def carousel_on_a_phone(session):
    page, base = session.page, session.base
    fingers = Fingers(page)
    page.goto(base + "#/")
    page.wait_for_selector("#grid li")
    tap(fingers, page, "#mode-carousel")
    page.wait_for_selector("#carousel:not([hidden]) li img")
    page.wait_for_function("() => [...document.querySelectorAll('#carousel img')].slice(0, 2).every(i => i.complete && i.naturalWidth > 0)")
    before = page.evaluate("() => document.getElementById('carousel').scrollLeft")
    first = box_of(page, page.locator("#carousel li").first)
    fingers.gesture([(300, first["y"] + first["height"] / 2)], [(60, first["y"] + first["height"] / 2)], steps=10)
    check(eventually(lambda: page.evaluate("() => document.getElementById('carousel').scrollLeft") > before + 100, 5),
          "a swipe goes to the next card in the carousel")
    page.screenshot(path=str(SCREENSHOTS / "phone-carousel.png"))
    tap(fingers, page, "#mode-list")


def other_sizes(session, path):
    """The same card on a phone on its side and on a tablet."""
    page, base, folder = session.page, session.base, session.folder
    for name, size in (("phone-landscape", {"width": 844, "height": 390}), ("tablet", {"width": 820, "height": 1180})):
        page.set_viewport_size(size)
        page.goto(base + f"#/edit/{path}")
        page.wait_for_selector(".box[data-index='0']")
        wait_for_rendering(page, revision(folder / path))
        page.locator("#viewport").focus()
        page.keyboard.press("Escape")
        if name == "phone-landscape":
            bar = box_of(page, page.locator(".tools"))
            check(bar["x"] + bar["width"] >= 844 - 1 and bar["height"] > bar["width"], "on its side, the toolbar is at the side")
        check(small_targets(page) == [], f"every control is at least 44 px for a finger ({name}): {small_targets(page)}")
        check(page.evaluate("() => document.documentElement.scrollWidth") <= size["width"], f"{name}: nothing runs off the screen")
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))
        compare_screenshot(EASEL, SCREENSHOTS / f"{name}.png", f"{name}.png", SCREENSHOTS, RECORD)
        accessible_everywhere(page, name)


def sheets_on_its_side(session, path):
    """A phone on its side is 390 px tall: the Stickers sheet's tabs are whole, the Text
    sheet shows its field, fonts, colours and Add at once, and the carousel its captions."""
    page, base, folder = session.page, session.base, session.folder
    fingers = Fingers(page)
    page.set_viewport_size({"width": 844, "height": 390})
    page.goto(base + f"#/edit/{path}")
    page.wait_for_selector(".box[data-index='0']")
    wait_for_rendering(page, revision(folder / path))
    tap(fingers, page, "button[data-tool='stickers']")
    page.wait_for_selector("#sheet[open] .sheet-tabs button")
    tabs = page.eval_on_selector("#sheet .sheet-tabs", """t => ({ shown: t.clientHeight, whole: t.scrollHeight,
        tallest: Math.max(...[...t.children].map(b => b.offsetHeight)) })""")
    check(tabs["shown"] >= tabs["tallest"] >= 44 and tabs["whole"] <= tabs["shown"],
          f"on its side, the Stickers sheet's tabs are whole, not cut: {tabs}")
    page.screenshot(path=str(SCREENSHOTS / "phone-landscape-stickers.png"))
    tap(fingers, page, "#sheet-close")
    tap(fingers, page, "button[data-tool='text']")
    page.wait_for_selector("#sheet[open] input[aria-label='Enter text']")
    shown = page.evaluate("""() => { const body = document.getElementById('sheet-body').getBoundingClientRect();
        return ['input[aria-label="Enter text"]', '.swatch:last-child', 'button[aria-label="Add the text"]', '.font-list']
          .filter((s) => { const r = document.querySelector('#sheet-body ' + s).getBoundingClientRect();
            return r.top < body.top - 1 || r.bottom > Math.min(body.bottom, innerHeight) + 1; }); }""")
    check(shown == [], f"on its side, the Text sheet shows its field, colours, Add and fonts at once (cut: {shown})")
    page.screenshot(path=str(SCREENSHOTS / "phone-landscape-text.png"))
    tap(fingers, page, "#sheet-close")
    page.goto(base + "#/")
    page.wait_for_selector("#grid li")
    tap(fingers, page, "#mode-carousel")
    page.wait_for_selector("#carousel:not([hidden]) li .name")
    bottom = page.eval_on_selector("#carousel li .name", "n => n.getBoundingClientRect().bottom")
    check(bottom <= 390, f"on its side, the carousel's card and its caption fit the screen (the caption ends at {bottom:.0f} px)")
    page.screenshot(path=str(SCREENSHOTS / "phone-landscape-carousel.png"))
    tap(fingers, page, "#mode-list")


def main():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with served_samples(EASEL, "easel-phone-", accept_downloads=True, **PHONE) as session:
        path = card_on_a_phone(session)
        hands_on_a_phone(session, path)
        what_a_finger_is_left_with(session, path)
        a_finger_takes_the_element_it_touches(session, path)
        a_slow_sticker_list_stays_in_its_sheet(session, path)
        a_finger_drag_while_changed_elsewhere(session)
        carousel_on_a_phone(session)
        other_sizes(session, path)
        sheets_on_its_side(session, path)
        # The offline step's refused requests (ERR_FAILED) and the upload refused on purpose
        # (415) are expected.
        check(all("net::ERR_FAILED" in e or "status of 415" in e for e in unexpected_errors(session.errors)),
              f"no console errors but the offline step's and a busy server's: {session.errors}")
    finish("phone editor")


main()

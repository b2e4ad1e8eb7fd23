"""The editor on a busy server, in Debian's chromium driven by Playwright. First `easel serve
--render-queue 0` (a render that finds both workers busy is refused at once with 503 and
Retry-After) while this test keeps both workers busy for a while: each picture the server
draws for the page is refused at first and must still arrive (the document list's
thumbnails, the card opened meanwhile and its picture, the Stickers sheet's pictures), and
a picture refused more often than the editor asks arrives once the page gains focus. Then
a server whose budget of request bodies this test holds with slow uploads: a nudge made
meanwhile, and a photo uploaded meanwhile, are refused at first and must still be
saved (the photo added once). The refusals are counted from
the page's responses, so the test fails if nothing was refused (it would prove nothing) or
if what was refused never came.

Usage: editor_busy_server_test.py EASEL_BINARY [SCREENSHOT_FOLDER]
"""

import contextlib
import itertools
import re
import socket
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from browser_support import (check, eventually, finish, many_shapes, read_json, revision, served_samples,
                             unexpected_errors, wait_for_rendering)

EASEL = Path(sys.argv[1]).resolve()
SCREENSHOTS = Path(sys.argv[2] if len(sys.argv) > 2 and not sys.argv[2].startswith("--") else "out/browser").resolve()
CARD = "1A2B3C4D-0000-4000-8000-000000000001.rwcard"
# A photo of the samples (an extension-less PNG, as the Cards app stores them).
SAMPLE_PHOTO = Path(__file__).resolve().parents[2] / "Assets" / "Samples" / "5F3E2A10-77C4-4B9D-8E21-0D9C6B4A3F22"
# How long the workers are kept busy: past the editor's first three tries (about 0.5, 1.5
# and 3 s after the first refusal), well within its last (about 15 s).
BUSY_SECONDS = 2.5

# The widths the busy clients render at, each once in the whole test: a width asked for
# before is the cache's to answer, without a worker (the second busy spell began with
# cache hits, and a card opened then was sometimes not refused at all).
WIDTHS = itertools.count(1000)

# The pictures that every image element on the page has loaded (or not yet), by selector.
LOADED = """(selector) => [...document.querySelectorAll(selector)]
    .filter((image) => { const box = image.getBoundingClientRect();
                         return box.bottom > 0 && box.top < innerHeight && box.width > 0; })
    .map((image) => image.complete && image.naturalWidth > 0)"""


@contextlib.contextmanager
def kept_busy(base, document, seconds=BUSY_SECONDS, stop=None):
    """Two clients that ask for renders of `document` back to back, each at a width not asked
    for before (the cache would answer a repeat), until `seconds` have passed: both workers
    stay busy, and a request that arrives meanwhile finds no place. The block runs while they
    do; leaving it waits for them to end. `stop`, a threading.Event, ends them sooner."""
    deadline = time.monotonic() + seconds
    lock = threading.Lock()

    def client():
        while time.monotonic() < deadline and not (stop and stop.is_set()):
            with lock:
                width = next(WIDTHS)
            try:
                urllib.request.urlopen(f"{base}api/documents/{document}/render.png?width={width}", timeout=30).read()
            except OSError:
                # Refused (the page's request took the worker; a quick one, such as a
                # picker's picture, leaves it free again at once): ask again soon, or the
                # page's next requests find it free too.
                time.sleep(0.002)

    threads = [threading.Thread(target=client) for _ in range(2)]
    for thread in threads:
        thread.start()
    time.sleep(0.2)  # both renders under way before the page asks
    yield
    for thread in threads:
        thread.join()


@contextlib.contextmanager
def bodies_held(port, seconds=BUSY_SECONDS):
    """Four uploads that declare 32 MiB each (the server's whole budget of bodies held at
    once, 128 MiB) and send all of it but its last byte, then nothing until `seconds` have
    passed (a body holds the bytes that have arrived): a request with a body that arrives
    meanwhile finds no room and is refused. The block runs meanwhile; leaving it waits for
    the uploads to be closed."""
    uploads = []
    for _ in range(4):
        upload = socket.create_connection(("127.0.0.1", port))
        upload.sendall(b"POST /api/render?format=png&kind=card HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                       b"Content-Type: application/json\r\nContent-Length: 33554432\r\n\r\n{"
                       + b" " * (33554432 - 2))
        uploads.append(upload)
    time.sleep(1.0)  # the server has taken their bytes before the page sends

    def release():
        time.sleep(seconds)
        for upload in uploads:
            upload.close()

    thread = threading.Thread(target=release)
    thread.start()
    yield
    thread.join()


def all_loaded(page, selector):
    loaded = page.evaluate(LOADED, selector)
    return bool(loaded) and all(loaded)


def refused(responses, pattern):
    return [url for url, status in responses if status == 503 and re.search(pattern, url)]


def pictures_arrive(page, responses, base, busy, act, selector, what, pattern):
    """`act()` while the server is kept busy, then checks that every picture `selector`
    finds in view arrives, and that the server refused some (`pattern` of their URLs) at
    first: else this proved nothing."""
    responses.clear()
    with kept_busy(base, busy):
        act()
        page.wait_for_selector(selector)
        check(eventually(lambda: all_loaded(page, selector), 30, f"the {what}s", page=page),
              f"every {what} in view arrives from a busy server: {page.evaluate(LOADED, selector)}")
    pictures = refused(responses, pattern)
    check(len(pictures) > 0, f"the busy server refused {what}s at first ({len(pictures)} times)")


def main():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with served_samples(EASEL, "easel-busy-", server_arguments=["--render-queue", "0"],
                        viewport={"width": 1280, "height": 800}) as session:
        page, base = session.page, session.base
        busy = many_shapes(session.folder / "busy.drawing").name
        # Renders that take a debug server about half a second: a worker is free between
        # two of them less often, so a picture is refused nine times in a row (below).
        slow = many_shapes(session.folder / "slow.drawing", count=6000).name
        responses = []
        page.on("response", lambda response: responses.append((response.url, response.status)))

        # The document list while the server is busy: every thumbnail comes.
        pictures_arrive(page, responses, base, busy, lambda: page.goto(base), "#grid img", "thumbnail",
                        r"/render\.png\?preset=thumbnail")
        page.screenshot(path=str(SCREENSHOTS / "busy-browser.png"))

        # A card opened while the server is busy: its description (worked out by the render
        # workers too) or its picture is refused first, asked again, and comes. The server
        # stays busy until the page has been refused the card once (at most 20 s): with a
        # fixed spell of 2.5 s, a page slow to start on two busy cores sometimes asked only
        # after the spell had ended, and was never refused.
        responses.clear()
        card_pattern = rf"/{re.escape(CARD)}(/render\.png\?width=.*)?$"
        card_refused = threading.Event()
        with kept_busy(base, busy, seconds=20, stop=card_refused):
            page.goto(base + f"#/edit/{CARD}")
            waited_until = time.monotonic() + 20
            while not card_refused.is_set() and time.monotonic() < waited_until:
                page.wait_for_timeout(100)
                if refused(responses, card_pattern):
                    card_refused.set()
        asked = refused(responses, card_pattern)
        check(len(asked) > 0, f"the busy server refused the card (its description or picture) at first ({len(asked)} times)")
        waited = wait_for_rendering(page, revision(session.folder / CARD), timeout=30)
        check(page.evaluate("() => document.getElementById('rendering').naturalWidth") > 0,
              f"the card's picture arrives from a busy server once it has room (after {waited:.1f} s)")

        # The Stickers sheet opened while the server is busy: every sticker's picture comes.
        pictures_arrive(page, responses, base, busy, lambda: page.click("button[data-tool='stickers']"),
                        ".sticker-grid img", "sticker picture", r"/api/stickers/.+\.png")
        page.screenshot(path=str(SCREENSHOTS / "busy-stickers.png"))

        # A picture refused more often than the editor asks (the first request and eight
        # more; here one of the Frames sheet's shapes) is asked for again when the person
        # comes back to the page (here: it gains focus), and comes. The server stays busy,
        # with the slow drawing, until one has been refused that often (at most a minute).
        # (With renders of 80 ms, every shape's picture once found a worker free within
        # its nine tries: red in a fresh-clone run, with a most of 8.)
        page.keyboard.press("Escape")
        page.locator(".box[data-index='1']").click()
        arrived = "() => [...document.querySelectorAll('.frame-grid img')].map((image) => image.naturalWidth > 0)"
        responses.clear()
        given_up = threading.Event()

        def refusals():
            counts = {}
            for url in refused(responses, r"/api/clip-samples/"):
                shape = url.split("?")[0].rsplit("/", 1)[-1]
                counts[shape] = counts.get(shape, 0) + 1
            return counts

        with kept_busy(base, slow, seconds=60, stop=given_up):
            page.click("button[data-tool='frames']")
            page.wait_for_selector(".frame-grid img", state="attached")
            waited_until = time.monotonic() + 60
            while not given_up.is_set() and time.monotonic() < waited_until:
                page.wait_for_timeout(250)
                if max(refusals().values(), default=0) >= 9:
                    given_up.set()
        check(given_up.is_set(), f"a frame picture was refused 9 times: {refusals()}")
        # The server is idle now: what the editor still asks for arrives (its longest wait is
        # about 3 s); what it gave up does not.
        page.wait_for_timeout(8000)
        given = sorted(shape for shape, count in refusals().items() if count >= 9)
        missing = page.evaluate("""() => [...document.querySelectorAll('.frame-grid img')]
            .filter((image) => !(image.naturalWidth > 0)).map((image) => image.src.split('?')[0].split('/').pop())""")
        check(given and sorted(missing) == given,
              f"the pictures refused 9 times, and only they, are not asked for again by themselves ({missing}; {given})")
        page.evaluate("() => window.dispatchEvent(new Event('focus'))")
        check(eventually(lambda: all(page.evaluate(arrived)), 30, "the frame pictures after focus", page=page),
              f"the missing frame pictures come when the page gains focus: {page.evaluate(arrived)}")
        page.keyboard.press("Escape")

        check(unexpected_errors(session.errors) == [], f"no console errors but the busy server's 503s: {unexpected_errors(session.errors)}")

    with served_samples(EASEL, "easel-busy-", viewport={"width": 1280, "height": 800}) as session:
        page, base, card = session.page, session.base, session.folder / CARD
        page.goto(base + f"#/edit/{CARD}")
        page.wait_for_selector(".box[data-index='1']")
        wait_for_rendering(page, revision(card))
        responses = []
        page.on("response", lambda response: responses.append((response.url, response.status)))

        # A nudge while the server holds as many bodies as it may: saved once there is room.
        offset = read_json(card)["imageElements"][1]["transform"]["offset"]
        with bodies_held(int(base.rsplit(":", 1)[1].strip("/"))):
            page.locator(".box[data-index='1']").focus()
            page.keyboard.press("ArrowRight")
            # On disk, and the page told so (the file is written before the answer reaches it).
            moved = eventually(lambda: (read_json(card) or {}).get("imageElements", [{}, {}])[1].get("transform", {})
                               .get("offset") == [offset[0] + 1, offset[1]] and page.inner_text("#status") == "Saved",
                               30, "the nudge on disk and Saved", page=page)
        edits = refused(responses, r"/edits$")
        check(len(edits) > 0, f"the busy server refused the nudge at first ({len(edits)} times)")
        check(moved,
              f"the nudge is saved once the server has room: {offset} -> "
              f"{read_json(card)['imageElements'][1]['transform']['offset']}, status {page.inner_text('#status')}")

        # A photo uploaded while the server holds as many bodies as it may: the server says it
        # did nothing (`nothingDone`), so the editor sends it again, and it is added once.
        wait_for_rendering(page, revision(card))
        images = len(read_json(card)["imageElements"])
        responses.clear()
        with bodies_held(int(base.rsplit(":", 1)[1].strip("/"))):
            page.set_input_files("#upload", str(SAMPLE_PHOTO))
            added = eventually(lambda: len((read_json(card) or {}).get("imageElements", [])) == images + 1, 30,
                               "the upload on disk", page=page)
        uploads = refused(responses, r"/images(\?.*)?$")
        check(len(uploads) > 0, f"the busy server refused the upload at first ({len(uploads)} times)")
        check(added, f"the upload is added once the server has room: {images} -> "
                     f"{len(read_json(card)['imageElements'])} images")
        time.sleep(1)
        check(len(read_json(card)["imageElements"]) == images + 1, "and only once")
        check(unexpected_errors(session.errors) == [], f"no console errors but the busy server's 503s: {unexpected_errors(session.errors)}")
    finish("busy server")


main()

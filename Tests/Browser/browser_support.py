"""What the editor's browser tests share: `easel serve` on a scratch folder, checks that
count failures, the server's revision of a file, waits on the page and on disk (each with a
deadline), pointer drags, files dropped or pasted as a person's browser hands them over, and
screenshots compared with goldens by Easel's own comparator."""

import base64
import contextlib
import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
GOLDENS = ROOT / "Tests" / "Browser" / "Goldens"
CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")

failures = []


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message, flush=True)
    if not condition:
        failures.append(message)
    return condition


def finish(name):
    """Exits 1 when a check failed."""
    if failures:
        print(f"{len(failures)} {name} check(s) failed")
        raise SystemExit(1)
    print(f"{name}: every check passed")


def revision(path):
    """The server's revision of a file: FNV-1a (64 bits) of its bytes, 16 hex digits."""
    value = 0xCBF29CE484222325
    for byte in path.read_bytes():
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{value:016x}"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(easel, folder, state, arguments=()):
    """`easel serve folder` (with `arguments`) on a free loopback port; returns the process,
    port and environment."""
    port = free_port()
    environment = dict(os.environ, XDG_STATE_HOME=str(state), TZ="UTC")
    process = subprocess.Popen([str(easel), "serve", str(folder), "--port", str(port), *arguments], env=environment,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seen = []
    for line in process.stderr:
        seen.append(line)
        if "serving" in line:
            break
    else:
        process.kill()
        raise SystemExit(f"easel serve did not start: {''.join(seen)}")
    # Keep reading its log, so that a full pipe can never stop the server.
    threading.Thread(target=lambda: [None for _ in process.stderr], daemon=True).start()
    return process, port, environment


@dataclass
class Session:
    """A browser page on `easel serve` of a copy of Assets/Samples; `errors` collects what
    the page logged as an error."""
    page: object
    context: object
    base: str
    folder: Path
    state: Path
    environment: dict
    errors: list = field(default_factory=list)


@contextlib.contextmanager
def served_samples(easel, prefix="easel-browser-", server_arguments=(), **context_options):
    """Serves a copy of the samples (their dates fixed: a card with no text is named by its
    date; `server_arguments` added to `easel serve`'s) and opens a chromium page on it;
    `context_options` are Playwright's (viewport, has_touch, device_scale_factor...). Stops
    both afterwards."""
    with tempfile.TemporaryDirectory(prefix=prefix) as scratch:
        folder, state = Path(scratch) / "docs", Path(scratch) / "state"
        shutil.copytree(ROOT / "Assets" / "Samples", folder)
        for sample in folder.iterdir():
            os.utime(sample, (1_795_000_000, 1_795_000_000))
        server, port, environment = start_server(easel, folder, state, server_arguments)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                context = browser.new_context(**context_options)
                page = context.new_page()
                session = Session(page, context, f"http://127.0.0.1:{port}/", folder, state, environment)
                page.on("pageerror", lambda error: session.errors.append(str(error)))
                page.on("console", lambda message: session.errors.append(message.text) if message.type == "error" else None)
                yield session
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)


def many_shapes(path, count=1000):
    """Writes a drawing of `count` shapes (five kinds, each its own colour and turn) at
    `path`, 800x600: a document whose renders take a debug server 130–200 ms (a drag on
    it, with its layers, about a second from mouse-up to picture)."""
    kinds = ["rectangle", "ellipse", "star", "polygon", "diamond"]
    graphics = []
    for i in range(count):
        graphic = {"kind": kinds[i % 5], "transform": {"center": [20 + (i * 37) % 760, 20 + (i * 53) % 560], "size": [40, 30],
                                                         "rotation": (i * 7) % 360},
                   "fill": "#%02X%02X%02X" % ((i * 5) % 256, (i * 11) % 256, (i * 17) % 256)}
        if graphic["kind"] == "star":
            graphic.update({"points": 5, "innerRadiusRatio": 0.5})
        if graphic["kind"] == "polygon":
            graphic["sides"] = 6
        graphics.append(graphic)
    path.write_text(json.dumps({"format": "org.easel.drawing", "version": 1,
                                "canvas": {"size": [800, 600], "background": "#FFFFFF"}, "graphics": graphics}))
    return path


def unexpected_errors(errors):
    """What the page logged as errors, less a busy server's refusals: the browser logs each
    503 it is answered, and the editor asks again for a rendering (as Retry-After says) or
    draws a gesture without its layers. A debug server on a slow host answers a heavy
    document's renders so, one user or not (`RenderPool`: at most `maxQueueWait` of renders
    ahead)."""
    return [error for error in errors if "the server responded with a status of 503" not in error]


def compare_screenshot(easel, actual, name, screenshots, record=False):
    """Easel's comparator (perceptual, anti-aliasing aware) against the golden; `record` writes it."""
    golden = GOLDENS / name
    if record or not golden.exists():
        GOLDENS.mkdir(parents=True, exist_ok=True)
        shutil.copy(actual, golden)
        print(f"note recorded {golden.relative_to(ROOT)}")
        return
    composite = screenshots / (Path(name).stem + "-difference.png")
    result = subprocess.run([str(easel), "golden", "diff", str(golden), str(actual), "--tolerance", "perceptual",
                             "--max-pixels", "0.5%", "--out", str(composite)], capture_output=True, text=True)
    check(result.returncode == 0, f"the {name} screenshot matches its golden ({result.stdout.strip()} {result.stderr.strip()})")


def eventually(condition, timeout=10, what="a condition", page=None):
    """Waits (at most `timeout` seconds) until `condition()` is true; returns its last value.
    With `page`, waits through it: Playwright delivers the page's events (responses, console
    messages) only while it is called, not while the test sleeps."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value or time.monotonic() > deadline:
            if not value:
                print(f"note gave up waiting for {what} after {timeout} s")
            return value
        if page is None:
            time.sleep(0.05)
        else:
            page.wait_for_timeout(50)


def read_json(path):
    """A document's JSON, or None while it is being replaced."""
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def wait_for_rendering(page, expected_revision, timeout=10):
    """Waits until the editor shows the server's rendering of `expected_revision` with no
    preview layer over it; returns the seconds waited."""
    start = time.monotonic()
    page.wait_for_function(
        """(revision) => { const image = document.getElementById('rendering');
            return image.dataset.revision === revision && image.complete && image.naturalWidth > 0
              && image.style.visibility !== 'hidden'; }""",
        arg=expected_revision, timeout=timeout * 1000)
    return time.monotonic() - start


def wait_saved(page, timeout=10):
    page.wait_for_function("() => document.getElementById('status').textContent === 'Saved'", timeout=timeout * 1000)


def settle(page, path, timeout=10):
    """Waits for the save, then for the rendering of the file as it is on disk."""
    wait_saved(page, timeout)
    eventually(lambda: page.evaluate("() => document.getElementById('rendering').dataset.revision") == revision(path),
               timeout, "the rendering of the saved file")
    wait_for_rendering(page, revision(path), timeout)


def easel_cli(easel, environment):
    """`easel ARGUMENTS...` as a person at a terminal beside the server runs it (its state
    folder shared, so the history is one): a function of the arguments, which stops the test
    if the command fails."""
    return lambda *arguments: subprocess.run([str(easel), *arguments], env=environment, check=True,
                                             stdout=subprocess.DEVNULL)


def box_count(page):
    """How many element boxes the editor shows (one per element of the description shown)."""
    return page.evaluate("() => document.querySelectorAll('#overlay .box[data-index]').length")


def right_click_box(page, index):
    """A right click in the middle of element `index`'s box, which opens its menu: sent to
    the box itself, since another element's box may lie over it there."""
    page.eval_on_selector(f".box[data-index='{index}']", """b => { const r = b.getBoundingClientRect();
        b.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true, button: 2,
          clientX: r.left + r.width / 2, clientY: r.top + r.height / 2 })); }""")


def drag(page, start, end, steps=20):
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=steps)
    page.mouse.up()


def box_of(page, locator, timeout=5):
    """The element's box on screen. Waits (at most `timeout` seconds) through a moment it has
    none: the editor draws its overlay again when a new revision arrives, and an element
    measured while it is replaced has no box."""
    box = eventually(lambda: locator.bounding_box(), timeout, "an element's box on screen", page=page)
    assert box is not None, f"no box on screen for {locator}"
    return box


def selected(page):
    """The indices of the elements the editor shows selected."""
    return [int(i) for i in page.eval_on_selector_all(".box.selected", "nodes => nodes.map(n => n.dataset.index)")]


def centre(page, selector):
    box = box_of(page, page.locator(selector))
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def stage_point(page, x, y, canvas_width):
    """The screen point of canvas point (x, y)."""
    stage = box_of(page, page.locator("#stage"))
    scale = stage["width"] / canvas_width
    return stage["x"] + x * scale, stage["y"] + y * scale


def files_transfer(page, files):
    """A DataTransfer holding `files` ([(name, bytes, type)]), as a person's browser hands
    dropped or pasted files to the page."""
    return page.evaluate_handle(
        """(files) => { const transfer = new DataTransfer();
            for (const [name, data, type] of files) {
              const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
              transfer.items.add(new File([bytes], name, { type }));
            }
            return transfer; }""",
        [[name, base64.b64encode(data).decode(), kind] for name, data, kind in files])


def drop_files(page, files, point):
    """Drags `files` over the canvas and drops them at the screen `point`."""
    transfer = files_transfer(page, files)
    for event in ("dragenter", "dragover", "drop"):
        page.dispatch_event("#viewport", event, {"dataTransfer": transfer, "clientX": point[0], "clientY": point[1]})


def paste_files(page, files):
    """A paste whose clipboard holds `files`, as the browser fires it for Ctrl+V after a
    screenshot or an image was copied elsewhere."""
    transfer = files_transfer(page, files)
    page.evaluate("""(transfer) => document.activeElement.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }))""", transfer)


def unnamed_controls(page):
    """Every visible control a screen reader would announce without a name."""
    return page.evaluate("""() => [...document.querySelectorAll(
        'button, input, select, summary, a[href], [role=button], [role=textbox], [tabindex]')]
      .filter((c) => c.getClientRects().length && getComputedStyle(c).visibility !== 'hidden')
      .filter((c) => {
        const labelled = c.getAttribute('aria-labelledby');
        const name = c.getAttribute('aria-label') || (labelled && document.getElementById(labelled)?.textContent)
          || [...(c.labels || [])].map((l) => l.textContent).join('') || (c.type === 'file' ? '' : c.textContent)
          || c.getAttribute('title') || c.getAttribute('alt');
        return !name || !name.trim();
      }).map((c) => c.outerHTML.slice(0, 120))""")


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))]

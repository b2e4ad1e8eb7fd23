"""The golden report in a real browser (Debian's chromium, driven by Playwright).

`make browser-test` runs it after building: it makes a suite with every kind of result
(passed, failed, new, missing), runs `easel golden verify --report`, opens the page from disk
and checks what a person sees: the counts, every image loading, the filters, the slider, the
onion skin and the cluster zooms. Screenshots go to out/browser/ to be looked at.

Usage: golden_report_test.py EASEL_BINARY [SCREENSHOT_FOLDER]
"""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

EASEL = Path(sys.argv[1]).resolve()
SCREENSHOTS = Path(sys.argv[2] if len(sys.argv) > 2 else "out/browser").resolve()
CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")

failures = []


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message)
    if not condition:
        failures.append(message)


def easel(*arguments, cwd, allowed=(0,)):
    result = subprocess.run([str(EASEL), *arguments], cwd=cwd, capture_output=True, text=True)
    if result.returncode not in allowed:
        raise SystemExit(f"easel {' '.join(arguments)} exited {result.returncode}: {result.stderr}")
    return result


def make_suite(folder: Path):
    """Docs with goldens; then one changed, one new, one golden orphaned."""
    (folder / "Docs" / "nested").mkdir(parents=True)
    easel("new", "drawing", "Docs/kept.drawing", "--size", "300x200", cwd=folder)
    easel("add", "Docs/kept.drawing", "star", "--at", "150,100", "--size", "120x120", "--fill", "gold", cwd=folder)
    easel("new", "drawing", "Docs/nested/changed name.drawing", "--size", "300x200", cwd=folder)
    easel("add", "Docs/nested/changed name.drawing", "ellipse", "--at", "100,100", "--size", "80x80", "--fill", "navy",
          cwd=folder)
    easel("add", "Docs/nested/changed name.drawing", "rect", "--at", "230,60", "--size", "40x30", "--fill", "tomato",
          cwd=folder)
    easel("new", "drawing", "Docs/gone.drawing", "--size", "100x100", cwd=folder)
    easel("golden", "record", "Docs", "Goldens", cwd=folder)
    (folder / "Docs" / "gone.drawing").unlink()
    easel("move", "Docs/nested/changed name.drawing", "0", "--by", "6,4", cwd=folder)
    easel("set", "Docs/nested/changed name.drawing", "1", "--fill", "seagreen", cwd=folder)
    easel("new", "drawing", "Docs/new.drawing", "--size", "200x120", cwd=folder)
    easel("add", "Docs/new.drawing", "heart", "--at", "100,60", "--size", "80x80", "--fill", "crimson", cwd=folder)
    result = easel("golden", "verify", "Docs", "Goldens", "--report", "Report", cwd=folder, allowed=(1,))
    check("accept what it shows" in result.stderr, "verify names the report and how to accept it")


def all_images_loaded(page):
    return page.evaluate(
        """() => [...document.images].filter(i => !i.complete || i.naturalWidth === 0).map(i => i.getAttribute('src'))""")


def main():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="easel-browser-") as scratch:
        folder = Path(scratch)
        make_suite(folder)
        page_path = folder / "Report" / "index.html"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            errors = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
            page.goto(page_path.as_uri())
            page.wait_for_load_state("load")

            heading = page.inner_text("h1")
            check(heading == "Golden report: 1 failed, 1 new, 1 missing, 1 passed", f"the heading counts: {heading!r}")
            statuses = page.eval_on_selector_all(".result", "nodes => nodes.map(n => n.dataset.status)")
            check(statuses == ["failed", "new", "missing", "passed"], f"every result, problems first: {statuses}")
            check(all_images_loaded(page) == [], f"every visible image loads: {all_images_loaded(page)}")
            check(scratch not in page.content(), "no absolute path in the page")
            page.screenshot(path=str(SCREENSHOTS / "report.png"), full_page=True)

            failed = page.locator(".result.failed")
            check("nested/changed name.drawing" in failed.inner_text(), "the failure names its document")

            # The slider: expected on the left of the handle, actual on the right.
            failed.locator("[data-view=slider]").click()
            check(failed.locator(".view.slider").is_visible(), "the slider view shows")
            check(not failed.locator(".view.composite").is_visible(), "and the composite hides")
            slider = failed.locator(".view.slider input")
            slider.fill("20")
            clip = failed.locator(".view.slider .over").evaluate("node => node.style.clipPath")
            check(clip == "inset(0px 80% 0px 0px)", f"moving the slider reveals 20 % of expected: {clip!r}")
            check(all_images_loaded(page) == [], "the slider's images load")
            failed.screenshot(path=str(SCREENSHOTS / "slider.png"))

            failed.locator("[data-view=onion]").click()
            onion = failed.locator(".view.onion input")
            onion.fill("75")
            opacity = failed.locator(".view.onion .over").evaluate("node => node.style.opacity")
            check(opacity == "0.75", f"the onion skin's opacity follows: {opacity!r}")
            failed.screenshot(path=str(SCREENSHOTS / "onion.png"))

            zooms = failed.locator(".clusters figure")
            check(zooms.count() >= 1, f"a zoom per cluster ({zooms.count()})")
            # Each zoom's background image must load too (CSS url(), not an <img>).
            zoom_loaded = page.evaluate("""async () => {
                const urls = [...document.querySelectorAll('.zoom')].map(z => getComputedStyle(z).backgroundImage
                    .slice(5, -2));
                const loads = urls.map(url => new Promise(done => {
                    const image = new Image(); image.onload = () => done(image.naturalWidth > 0);
                    image.onerror = () => done(false); image.src = url; }));
                return (await Promise.all(loads)).every(Boolean) && urls.length > 0;
            }""")
            check(zoom_loaded, "every cluster zoom's image loads")

            new = page.locator(".result.new")
            check(new.locator("img.single").count() == 1, "a new document shows its rendering")

            # Filters.
            page.locator(".filters [data-status=passed]").click()
            visible = page.eval_on_selector_all(".result", "nodes => nodes.filter(n => !n.hidden).map(n => n.dataset.status)")
            check(visible == ["passed"], f"the Passed filter shows only passed results: {visible}")
            page.locator(".filters [data-status=all]").click()
            visible = page.eval_on_selector_all(".result", "nodes => nodes.filter(n => !n.hidden).length")
            check(visible == 4, "All shows them all again")
            check(errors == [], f"no script errors: {errors}")
            browser.close()

        # Accepting what the report showed makes verify pass.
        easel("golden", "accept", "Report", cwd=folder)
        easel("golden", "verify", "Docs", "Goldens", cwd=folder)
        check(True, "after `easel golden accept Report`, verify passes")

    print(f"screenshots in {SCREENSHOTS}")
    if failures:
        raise SystemExit(f"{len(failures)} browser check(s) failed")


main()

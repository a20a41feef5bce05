"""Take docs/teaching.md's screenshots: the offline pages in the classroom theme, at 1280×800.

    python docs/teaching_screenshots.py          # from the repository root
"""

import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from viz import site  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def main():
    from playwright.sync_api import sync_playwright
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp)
        site.main([str(ROOT / "tutorials"), str(out), "--theme", "classroom", "--only", "04",
                   "05"])
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto((out / "index.html").as_uri())
            page.screenshot(path=str(ROOT / "docs" / "img" / "teaching-index.png"))
            page.goto((out / "05_hooks.html").as_uri())
            page.wait_for_function("document.body.dataset.frame === '0'")
            page.click(".mg-site-code summary")  # fold the code away: the picture shows
            page.evaluate("document.activeElement.blur()")
            for _ in range(6):
                page.keyboard.press("ArrowRight")
            page.wait_for_timeout(300)
            page.screenshot(path=str(ROOT / "docs" / "img" / "teaching-page.png"))
            browser.close()


if __name__ == "__main__":
    main()

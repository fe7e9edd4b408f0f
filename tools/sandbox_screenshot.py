"""Re-make docs/sandbox.png (the README's picture): a fresh sandbox, two players, a few Bide turns.

.venv/bin/python tools/sandbox_screenshot.py    # needs Debian's chromium
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.sandbox_process import SandboxProcess  # noqa: E402


def send(page, text):
    page.locator("#composer").fill(text)
    page.keyboard.press("Escape")
    page.keyboard.press("Enter")


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        sandbox = SandboxProcess(Path(folder) / "data")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox"])
                alice = browser.new_page(viewport={"width": 1280, "height": 1080})
                bob = browser.new_page(viewport={"width": 1280, "height": 1080})
                alice.goto(f"{sandbox.url}/alice")
                bob.goto(f"{sandbox.url}/bob")
                alice.wait_for_selector("#channel-list .channel")
                send(alice, "/play game:bide opponent:bob")
                bob.get_by_role("button", name="Accept").click()
                for page in (alice, bob):
                    page.locator(".channel.thread").first.click()
                    page.wait_for_selector("#messages .message img")
                for page, move, boards in ((alice, "e5", 2), (bob, "d4", 3), (alice, "bide", 4), (bob, "e6", 5)):
                    send(page, f"/move move:{move}")
                    alice.wait_for_function(f"document.querySelectorAll('#messages .message img').length >= {boards}")
                alice.locator("#composer").click()
                alice.locator("#composer").type("/move move:d")
                alice.locator("#popup .item").first.wait_for()
                alice.wait_for_timeout(300)
                alice.screenshot(path=str(ROOT / "docs" / "sandbox.png"))
                browser.close()
        finally:
            sandbox.interrupt()
            sandbox.kill()


if __name__ == "__main__":
    main()

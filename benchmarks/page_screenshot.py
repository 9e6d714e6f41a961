"""The README's screenshot of ``chunkwise serve``'s page, made the way a user sees it.

    .venv/bin/python benchmarks/page_screenshot.py [--out docs/serve-page.png]
        [--query "upload a file with UploadFile"] [--embedder minilm]

Indexes the bundled FastAPI + Pydantic docs into a scratch LanceDB folder, starts
``chunkwise serve`` on a free port, opens its page in Debian's headless chromium
(Playwright, ``executable_path``), types the query, waits for the first result's
document with the passage highlighted, and saves the screenshot.
"""

from __future__ import annotations

import argparse
import shutil
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "tests" / "data" / "docs" / "fastapi-pydantic-docs.tar.xz"


def main() -> None:
    import httpx
    from playwright.sync_api import sync_playwright

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "serve-page.png"))
    ap.add_argument("--query", default="upload a file with UploadFile")
    ap.add_argument("--embedder", default="minilm")
    args = ap.parse_args()
    chromium = shutil.which("chromium")
    if chromium is None:
        sys.exit("needs Debian's chromium: apt-get install chromium")
    cli = [sys.executable, "-m", "chunkwise.cli"]
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(DOCS) as tar:
            tar.extractall(Path(tmp) / "docs", filter="data")
        db = str(Path(tmp) / "idx")
        subprocess.run([*cli, "index", str(Path(tmp) / "docs"), "--db", db, "--embedder",
                        args.embedder, "--no-progress"], check=True)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        server = subprocess.Popen([*cli, "serve", "--db", db, "--port", str(port)])
        url = f"http://127.0.0.1:{port}"
        try:
            while True:
                try:
                    httpx.get(url + "/health", timeout=5)
                    break
                except httpx.TransportError:
                    time.sleep(0.2)
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
                page = browser.new_page(viewport={"width": 1400, "height": 860})
                page.goto(url + "/")
                page.wait_for_function("document.getElementById('index').textContent")
                page.fill("#query", args.query)
                page.press("#query", "Enter")
                page.wait_for_selector(".hit")
                page.frame_locator("#document").locator("#hit").wait_for()
                page.wait_for_timeout(500)  # the scroll to the passage
                page.screenshot(path=args.out)
                print(f"{args.out}: first result {page.locator('.hit').first.get_attribute('data-doc-id')}")
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()

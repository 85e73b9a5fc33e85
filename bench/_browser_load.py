"""Background load for live_latency: Debian's Chromium showing a live run's scoreboard.

Run as ``python bench/_browser_load.py URL SHOT``: headless Chromium (``/usr/bin/chromium``,
driven by Playwright as the browser tests do, never Playwright's own download) opens
``URL`` (the ``/scoreboard`` page of the live run's server) and keeps it open, following
the match over its event stream, until stdin closes; then it saves a screenshot to
``SHOT`` and prints the points the page shows as one JSON line.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def main() -> int:
    """Show the page until stdin closes."""
    from playwright.sync_api import sync_playwright

    url, shot = sys.argv[1], Path(sys.argv[2])
    with tempfile.TemporaryDirectory() as profile, sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(
            profile, executable_path=str(CHROMIUM), headless=True, args=ARGS,
            viewport={"width": 1280, "height": 800},
        )  # fmt: skip
        page = ctx.new_page()
        page.goto(url)
        page.wait_for_selector("[data-role=points]", timeout=30_000)
        print("ready", flush=True)
        sys.stdin.read()
        shot.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shot))
        points = page.locator("[data-role=points]").all_inner_texts()
        print(json.dumps({"points": points}), flush=True)
        ctx.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The report in a real browser (Debian's Chromium driven by Playwright): at phone width
nothing makes the page scroll sideways, it loads nothing, and printed it is ink on white
with every card whole. Screenshots go to ``test-artifacts/report/``.

Chromium and Playwright missing is a failure with the fix in one line, never a skip.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from carom.report import match_summary, write_report
from tests.carom.report.test_report_page import NASTY, _example

if TYPE_CHECKING:
    from playwright.sync_api import Browser

CHROMIUM = Path(os.environ.get("CAROM_CHROMIUM", "/usr/bin/chromium"))
ARTIFACTS = Path(__file__).parents[3] / "test-artifacts" / "report"
PHONE, DESKTOP = (390, 844), (1280, 900)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("Playwright is missing: `.venv/bin/pip install playwright`", pytrace=False)
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: `apt-get install -y chromium`", pytrace=False)
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture(scope="module", params=["en", "ko"])
def report(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    shots, run = _example()
    path = tmp_path_factory.mktemp("report") / f"report-{request.param}.html"
    write_report(path, shots, title=f"three-cushion {NASTY}", meta={"video": "example.json"},
                 summary=match_summary(run), lang=request.param)  # fmt: skip
    return path


def _open(browser: Browser, path: Path, size: tuple[int, int], requests: list[str]) -> Any:
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    page.on("request", lambda r: requests.append(r.url))
    page.goto(path.as_uri())
    return page


def test_at_phone_width_nothing_scrolls_sideways_and_nothing_is_fetched(
    browser: Browser, report: Path
) -> None:
    requests: list[str] = []
    page = _open(browser, report, PHONE, requests)
    assert requests == [report.as_uri()]  # the file itself, nothing else
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    boxes = page.evaluate(
        "[...document.querySelectorAll('svg')].map(s => s.getBoundingClientRect())"
        ".map(r => [r.left, r.right, r.height])"
    )
    assert len(boxes) == 14 + 2  # a diagram a card, two plots
    assert all(left >= 0 and right <= PHONE[0] and height > 60 for left, right, height in boxes)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{report.stem}-phone.png"))
    page.close()


def test_printed_it_is_ink_on_white_and_a_card_never_breaks(browser: Browser, report: Path) -> None:
    page = _open(browser, report, DESKTOP, [])
    page.emulate_media(media="print")
    got = page.evaluate(
        """() => {
      const bg = e => getComputedStyle(e).backgroundColor;
      const q = s => [...document.querySelectorAll(s)];
      return {
        body: bg(document.body),
        verdicts: [...new Set(q('.verdict').map(bg))],
        rows: [...new Set(q('table.sheet td').map(bg))],
        backdrops: [...new Set(q('.diagram svg .background').map(e => getComputedStyle(e).fill))],
        cards: [...new Set(q('section.shot').map(e => getComputedStyle(e).breakInside))],
      };
    }"""
    )
    white = "rgb(255, 255, 255)"
    assert got == {"body": white, "verdicts": [white], "rows": [white], "backdrops": [white],
                   "cards": ["avoid"]}  # fmt: skip
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.pdf(path=str(ARTIFACTS / f"{report.stem}.pdf"))
    page.emulate_media(media="screen")
    page.screenshot(path=str(ARTIFACTS / f"{report.stem}-desktop.png"))
    page.close()

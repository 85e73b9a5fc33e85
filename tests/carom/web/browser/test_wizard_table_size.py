"""The wizard in Chromium when the balls deny the server's table size (a match table
served as 2100 x 1050): the page says so in its status, with the size they imply."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from carom.web import RunningServer, WebSettings, create_app, serve_in_thread
from referee import Table
from tests.carom.web.browser.conftest import TOKEN, Pages, shot, stopped_after
from tests.carom.web.test_camera import first_seconds


@pytest.fixture(scope="module")
def wrong_table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """The app in-process over a real socket: the sample's first 1.5 s as its camera."""
    work = tmp_path_factory.mktemp("wizard-size")
    settings = WebSettings(db=work / "web.db", token=TOKEN,
                           camera=str(first_seconds(work / "clip.mp4", end_s=1.5)),
                           calibration=work / "calibration.json",
                           table=Table(length_mm=2100.0, width_mm=1050.0))  # fmt: skip
    yield from stopped_after(serve_in_thread(create_app(settings)))


@pytest.fixture(scope="module")
def pages(context: Any, wrong_table: RunningServer) -> Pages:
    return Pages(context, wrong_table.url)


def test_the_wizard_says_the_balls_deny_the_table_size(pages: Pages) -> None:
    wizard = pages.open("/wizard")
    status = wizard.locator("#status").filter(has_text="table size doubtful")
    status.wait_for(timeout=60_000)
    text = status.inner_text()
    assert "2,100 × 1,050 mm table" in text and "about 2," in text, text
    assert "named sizes near it: match: 2,840 × 1,420" in text, text
    assert "--table" in text
    assert "error" in (status.get_attribute("class") or ""), status.get_attribute("class")
    shot(wizard, "wizard_table_size")
    wizard.close()

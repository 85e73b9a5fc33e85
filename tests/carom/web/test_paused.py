"""Why scoring is paused, keyed for the pages: the sentences the live loop really writes.

The camera lost (the live loop's constant), and the drift check's two warnings from real
rendered frames (the picture shifted, the cloth darkened): each is read into its
``pause.<key>`` message with its numbers, and the English catalogue says it back to the
character; any other sentence stays unkeyed. The pages' side is in
``browser/test_pages_i18n.py``.
"""

from __future__ import annotations

import numpy as np

from calibration import DriftCheck
from carom.i18n import catalogue
from carom.live.loop._runner import CAMERA_LOST
from carom.web._paused import PAUSE_ENGLISH, paused_parts
from tests.calibration.test_drift import CAL, rendered_frame, shifted


def _said_in_english(why: str) -> str:
    parts = paused_parts(why)
    assert parts is not None, why
    return str(catalogue("web").text("en", f"pause.{parts['key']}", **parts["fields"]))


def test_the_live_loop_s_pauses_are_keyed_and_said_back_whole() -> None:
    check = DriftCheck(rendered_frame(), CAL)
    moved = check.check(shifted(rendered_frame(), 5.0, -2.0)).reason
    dark = check.check(np.zeros_like(rendered_frame())).reason
    said = {CAMERA_LOST: "camera_lost", moved: "camera_moved_table", dark: "camera_moved_cloth"}
    for why, key in said.items():
        parts = paused_parts(why)
        assert parts is not None and parts["key"] == key, why
        assert _said_in_english(why) == why
    shift = paused_parts(moved)
    assert shift is not None and shift["fields"]["du_px"].startswith("+")
    assert set(PAUSE_ENGLISH) == set(said.values())


def test_another_sentence_and_no_pause_are_not_keyed() -> None:
    assert paused_parts(None) is None and paused_parts("") is None
    assert paused_parts("the referee stepped out") is None
    assert paused_parts(CAMERA_LOST + " for good") is None


def test_every_language_names_the_pauses() -> None:
    english = catalogue("web").messages["en"]
    for key, template in PAUSE_ENGLISH.items():
        assert english[f"pause.{key}"] == template

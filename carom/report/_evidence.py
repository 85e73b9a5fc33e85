"""A contact's evidence (vision's English line) read into a keyed phrase for the report.

Vision says why it found each event in one English line (``bounce, v_n -1650 -> 1555
mm/s, gap 3.6 mm``); the report's event table shows it. :func:`evidence_code` reads each
line the event finders write into its ``evidence_<key>`` message and fields (numbers as
written, ball and cushion names as codes); an evidence that is itself a doubt (a way
through other cushions, a guessed gap) is said as that doubt, and any other line is
shown as it is. ``tests/carom/report/test_evidence.py`` holds the templates to the
finders by running them.
"""

from __future__ import annotations

from carom.i18n import TemplateReader

__all__ = ["EVIDENCE_ENGLISH", "evidence_code"]

#: The evidence lines vision's event finders write, by key (``evidence_<key>``).
EVIDENCE_ENGLISH: dict[str, str] = {
    "bounce": "bounce, v_n {v_in} -> {v_out} mm/s, gap {gap} mm",
    "ran_along": "ran along {along_s} s, v_n {v_in} -> {v_out} mm/s, gap {gap} mm",
    "impulse": "impulse {ratio}x noise, gap {gap} mm",
    "impulse_rest": "impulse {ratio}x noise, gap {gap} mm, a ball at rest set off",
    "timed_after": "{evidence}; timed from the paths after (a contact just before bent them)",
    "pin_no_ball": "pin gone from its spot; no ball within {reach} mm",
    "pin_ball": "pin gone from its spot; {ball} reached the pin ({d} mm from its spot)",
    "vanished_rail": "vanished over this rail, contact assumed",
    "rested_struck": "rested on the cushion, struck into it",
    "kiss_bounce": (
        "path after the ball contact fits a bounce off the {cushion} cushion, not a straight run"
    ),
    "kiss_corner": (
        "path after the ball contact fits a bounce in the corner of the {cushion} and "
        "{second_cushion} cushions, not a straight run"
    ),
    "kiss_pushed": (
        "struck from rest towards the {cushion} cushion a few mm away: there within the frame"
    ),
    "kiss_pushed_on": (
        "kicked on towards the {cushion} cushion a few mm away: there within the frame"
    ),
    "came_back": (
        "{ball} came back along the line of centres ({v} mm/s after): "
        "{other} returned off the {cushion} cushion into it"
    ),
    "left_area": "centre left the playing area",
    "vanished_pocket": "vanished {d} mm from the pocket",
    "vanished_speed": "vanished at {v} mm/s, {d} mm from a rail",
    "unseen_struck": (
        "{ball} set off from rest; {other}, unseen then, is the only ball that can have struck it"
    ),
    "set_off": "{ball} set off from rest; {other}'s path {miss} mm from the striking point",
    "unseen_mid": (
        "unseen {s} s in mid-flight; its path after, traced back through {n} cushion(s), "
        "leads to where it was seen"
    ),
    "first_path": (
        "its first path, traced back through the {cushion} cushion, passes {miss} mm "
        "from its resting centre"
    ),
    "unseen_rest": "unseen from its rest; its first path traced back through {n} cushion(s)",
    "before_kiss": "path reached the cushion {ms} ms before the ball contact",
    "grazing": "grazing the cushion, gap {gap} mm",
    "near_miss": "near miss, gap {gap} mm",
}
#: Fields that hold names or a line of their own, not numbers.
_WORDS = ("ball", "other", "cushion", "second_cushion", "evidence")
_READER = TemplateReader(EVIDENCE_ENGLISH, _WORDS)


def evidence_code(text: str) -> tuple[str, dict[str, str]] | None:
    """``(key, fields)`` of an evidence line the finders write; None for any other."""
    return _READER.read(text)

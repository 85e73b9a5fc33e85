"""The annotated video's words: every language's, drawn with a font that has their letters.

Real fonts from the machine (fontconfig), real pixels: a Korean name is drawn letter by
letter (OpenCV's own font drew ``???``), every language's ball and event words stay on
their label's plate, and with no font that has the letters the video keeps OpenCV's font
and the user is told how to get one.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from carom.analyze._report import note_in
from carom.analyze._run_notes import RunNote
from carom.i18n import LANGUAGES, catalogue
from carom.report import FontGlyphs, HersheyGlyphs, VideoWords, pick_glyphs
from carom.report import _annotate_glyphs as glyphs_module
from carom.report._annotate_labels import draw_label, label_size
from referee import (
    Ball,
    BallContact,
    Call,
    Cushion,
    CushionContact,
    Foul,
    OffTable,
    Pin,
    PinDown,
    Pocket,
    Pocketed,
)
from vision import ScoredEvent

NAME = "김민수"


def _events() -> list[ScoredEvent]:
    evs = [
        BallContact(t_s=1.0, balls=(Ball.WHITE, Ball.RED)),
        CushionContact(t_s=1.0, ball=Ball.YELLOW, cushion=Cushion.LEFT),
        Call(t_s=1.0, foul=Foul.TOUCH),
        PinDown(t_s=1.0, pin=Pin.CENTER, ball=Ball.WHITE),
        OffTable(t_s=1.0, ball=Ball.RED),
        Pocketed(t_s=1.0, ball=Ball.RED, pocket=Pocket.HEAD_LEFT),
    ]
    return [ScoredEvent(e, 1.0) for e in evs]


def test_ascii_keeps_opencv_s_font_and_english_words_are_the_catalogue_s() -> None:
    """English labels came from the events' ids: "red pocket head_left" (and "white2" for
    the 7-pin game's second white) in the video and the report's events table."""
    glyphs, missing = pick_glyphs(["Ana 3 : 1 Ben", *VideoWords("en").texts()])
    assert isinstance(glyphs, HersheyGlyphs) and missing == ""
    words = VideoWords("en")
    assert [words.event(e) for e in _events()] == [
        "white-red", "cushion left", "call touch", "centre pin down", "red off table",
        "red pocket head left",
    ]  # fmt: skip
    assert words.ball(Ball.WHITE2) == "white 2"
    assert words.ball(Ball.YELLOW) == "yellow"


def test_a_korean_name_is_drawn_letter_by_letter() -> None:
    glyphs, missing = pick_glyphs([f"{NAME} 0 : 0 Ben"])
    assert not missing, "this machine needs a font with Hangul (fonts-nanum, fonts-noto-cjk)"
    assert isinstance(glyphs, FontGlyphs)
    letters = []
    for ch in NAME:
        img = np.zeros((60, 60, 3), np.uint8)
        glyphs.draw(img, (10, 45), ch, 1.0, (255, 255, 255))
        assert (img > 128).sum() > 60, ch  # ink, not an empty box
        letters.append(img.tobytes())
    assert len(set(letters)) == 3  # three different letters (OpenCV drew '?' three times)
    hershey = [np.zeros((60, 60, 3), np.uint8) for _ in NAME]
    for img, ch in zip(hershey, NAME, strict=True):
        HersheyGlyphs().draw(img, (10, 45), ch, 1.0, (255, 255, 255))
    assert len({img.tobytes() for img in hershey}) == 1


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_s_words_stay_on_their_plates(lang: str) -> None:
    words = VideoWords(lang)
    glyphs, missing = pick_glyphs([f"{NAME} 12 : 3 Ben", *words.texts()])
    assert not missing
    texts = [words.event(e) for e in _events()] + [words.ball(b) for b in Ball] + [NAME]
    if lang != "en":
        said = catalogue("report").text(lang, "video_cushion", cushion=catalogue(
            "report").text(lang, "side_left"))  # fmt: skip
        assert said in texts and "cushion" not in said
    for text in texts:
        for scale in (0.45, 0.75):
            w, h = label_size([text], scale, glyphs)
            img = np.zeros((120, 900, 3), np.uint8)
            box = (20.0, 20.0, 20.0 + w, 20.0 + h)
            draw_label(img, box, [text], (0, 200, 255), scale, glyphs)
            ink = np.argwhere(img.min(axis=2) > 150)  # the light text (the bar is not grey)
            assert len(ink) > 10, (lang, text)
            (y0, x0), (y1, x1) = ink.min(axis=0), ink.max(axis=0)
            assert x0 >= 20 and x1 < 20 + w and y0 >= 20 and y1 < 20 + h, (lang, text, scale)


def test_letters_no_font_has_are_named_with_the_way_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Latin-only font given: the name's Hangul is returned as missing; no font at all:
    OpenCV's font and the same letters (the video is written either way). ``carom
    analyze``'s note names them and the way out, in the report's language too."""
    fonts = glyphs_module._fontconfig("Ana")
    latin = [p for p in fonts if not any(glyphs_module._covers(p, c) for c in NAME)]
    assert latin, f"this test needs a font without Hangul among {fonts}"
    monkeypatch.setenv("CAROM_FONT", str(latin[0]))
    monkeypatch.setattr(glyphs_module, "_fontconfig", lambda chars: [])
    monkeypatch.setattr(glyphs_module, "_KNOWN_FONTS", ())
    glyphs, missing = pick_glyphs([f"{NAME} 0 : 0 Ben"])
    assert isinstance(glyphs, FontGlyphs) and glyphs.paths == (latin[0],)
    assert missing == "".join(sorted(NAME))
    monkeypatch.delenv("CAROM_FONT")
    glyphs, missing = pick_glyphs([f"{NAME} 0 : 0 Ben"])
    assert isinstance(glyphs, HersheyGlyphs) and missing == "".join(sorted(NAME))
    note = RunNote.of("font_missing", letters=missing)
    assert NAME[0] in note.english() and "CAROM_FONT" in note.english()
    korean = note_in("ko", note)
    assert "CAROM_FONT" in korean and NAME in korean and "no font" not in korean


def test_carom_font_is_tried_first(monkeypatch: pytest.MonkeyPatch) -> None:
    hangul, missing = glyphs_module.fonts_for(NAME)
    assert len(hangul) == 1 and not missing
    monkeypatch.setenv("CAROM_FONT", str(hangul[0]))
    monkeypatch.setattr(glyphs_module, "_fontconfig", lambda chars: [Path("/nonexistent.ttf")])
    glyphs, _ = pick_glyphs([NAME])
    assert isinstance(glyphs, FontGlyphs) and glyphs.paths == (hangul[0],)


def test_a_name_in_two_scripts_takes_a_font_for_each() -> None:
    """Turkish letters and Hangul in one video: no font here has both, so two are used,
    each letter drawn from one that has it (no empty boxes)."""
    text = f"{NAME} 0 : 0 Işıl Çağrı"
    glyphs, missing = pick_glyphs([text])
    assert not missing and isinstance(glyphs, FontGlyphs)
    for ch in set(text) - {" "}:
        assert any(glyphs_module._covers(p, ch) for p in glyphs.paths), ch
    img = np.zeros((80, 800, 3), np.uint8)
    glyphs.draw(img, (10, 60), text, 1.0, (255, 255, 255))
    assert (img > 128).any(axis=2).sum() > 500

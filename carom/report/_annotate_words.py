"""The annotated video's words in the report's language: ball names and event labels.

English is what the video always showed (``white``, ``white-red``, ``cushion left``,
``call touch``, ``5 pin down``, ``red off table``, ``red pocket head left``); other
languages fill the report catalogue's ``video_<kind>`` messages with its ball, cushion,
pin, pocket and foul names. :meth:`VideoWords.texts` gives every word the video may
show, so that the glyphs chosen (:mod:`._annotate_glyphs`) can draw them all.
"""

from __future__ import annotations

from dataclasses import dataclass

from carom.i18n import catalogue
from referee import BallContact, Call, CushionContact, OffTable, PinDown
from vision import ScoredEvent

__all__ = ["VideoWords"]

_NAMED = ("ball_", "side_", "pin_", "pocket_", "foul_", "video_")


@dataclass(frozen=True, slots=True)
class VideoWords:
    """Ball names and event labels in ``lang`` (a code of ``carom.i18n.LANGUAGES``)."""

    lang: str = "en"

    def _t(self, key: str, **fields: str) -> str:
        return catalogue("report").text(self.lang, key, **fields)

    def ball(self, ball: str) -> str:
        """A ball's name: ``white`` (the 7-pin game's ``white 2``) in English, ``흰 공``."""
        return self._t(f"ball_{ball}")

    def event(self, e: ScoredEvent) -> str:
        """An event's label on the video."""
        ev = e.event  # English too from its catalogue: "white 2", not the id "white2"
        if isinstance(ev, BallContact):
            return self._t(
                "video_ball", first=self.ball(ev.balls[0]), second=self.ball(ev.balls[1])
            )
        if isinstance(ev, CushionContact):
            return self._t("video_cushion", cushion=self._t(f"side_{ev.cushion}"))
        if isinstance(ev, Call):
            return self._t("video_call", foul=self._t(f"foul_{ev.foul}"))
        if isinstance(ev, PinDown):
            return self._t("video_pin", pin=self._t(f"pin_{ev.pin}"))
        if isinstance(ev, OffTable):
            return self._t("video_off", ball=self.ball(ev.ball))
        return self._t(
            "video_pocket", ball=self.ball(ev.ball), pocket=self._t(f"pocket_{ev.pocket}")
        )

    def texts(self) -> list[str]:
        """Every word the video may show in this language (names and templates)."""
        messages = catalogue("report").messages
        said = messages.get(self.lang, messages["en"])
        return [text for key, text in said.items() if key.startswith(_NAMED)]

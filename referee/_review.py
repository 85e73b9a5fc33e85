"""Why a verdict asks for review, as keyed parts (``Verdict.review_parts``).

Each review is made here from what raised it: a doubt in words (a shot's, from vision
or the live loop, :func:`doubt_review`) or a doubtful event that decides the call
(:func:`decisive_review`). Their English is the sentence ``Verdict.review`` has always
held; the codes in their fields are ``referee._review_codes``'s.
"""

from __future__ import annotations

import json

from referee._events import Event
from referee._reason import Reason, ReasonKey, english_reason, reason_json
from referee._review_codes import doubt_code, event_code, time_doubt
from referee._verdict import Verdict

__all__ = ["decisive_review", "doubt_review"]


def doubt_review(text: str) -> tuple[Reason, ...]:
    """A review that is a doubt sentence: one part, or one per ``; ``-joined known doubt."""
    codes = [doubt_code(piece) for piece in text.split("; ")]
    if len(codes) > 1 and any(c.startswith("text:") for c in codes):
        codes = [doubt_code(text)]
    return tuple(Reason.of(ReasonKey.REVIEW_DOUBT, doubt=c) for c in codes)


def decisive_review(event: Event, other: Verdict) -> tuple[Reason, ...]:
    """``event``'s doubt (its own, or its time's error) decides the call; else ``other``."""
    doubt = doubt_code(event.doubt) if event.doubt else time_doubt(event.t_err_s)
    parts = other.reason_parts
    if not parts or english_reason(parts) != other.reason:
        parts = (Reason.of(ReasonKey.TEXT, text=other.reason),)
    said = json.dumps(reason_json(parts), ensure_ascii=False, separators=(",", ":"))
    return (
        Reason.of(ReasonKey.REVIEW_DECIDES, doubt=doubt, event=event_code(event), instead=said),
    )

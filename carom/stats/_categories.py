"""Shot categories: what each player's judged shots were (docs/stats.md).

Theory of operation. The verdict of each shot is the referee core's, from replaying
the log (``ShotRecord``: who shot, points, fouls, review, break), so the counts agree
with ``carom score`` whether or not the log carries ``carom analyze``'s own
``verdict``. The events come from the log's shot of the same index: a shot with no
event counts only as a shot; in the carom disciplines the cue ball's events give its
opening (cushions before its first ball contact), read as contacts are written, one
per event (no merging of repeats).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from carom.stats._model import ShotCategories
from referee import BallContact, CushionContact, Discipline, Shot, ShotRecord

__all__ = ["OPENING_DISCIPLINES", "cushions_before_ball", "player_categories", "shot_categories"]

#: The carom disciplines, where the cue ball's opening is counted.
OPENING_DISCIPLINES: frozenset[Discipline] = frozenset(
    d for d in Discipline if d not in (Discipline.FIVE_PINS, Discipline.PIN_CAROM_7)
)


def cushions_before_ball(shot: Shot) -> int | None:
    """Cushions the cue ball touched before its first ball contact; ``None``: no contact.

    ``shot.events`` are in time order (the reader sorts them by ``t_s``).
    """
    cue = shot.cue_ball
    cushions = 0
    for event in shot.events:
        match event:
            case CushionContact(ball=ball) if ball == cue:
                cushions += 1
            case BallContact(balls=balls) if cue in balls:
                return cushions
    return None


def _opening(shot: Shot) -> dict[str, int]:
    cushions = cushions_before_ball(shot)
    if cushions is None:
        return {"no_ball_contact": 1}
    names = ("ball_first", "cushion_first_1", "cushion_first_2", "cushion_first_3plus")
    return {names[min(cushions, 3)]: 1}


def shot_categories(record: ShotRecord, shot: Shot | None, opening: bool) -> ShotCategories:
    """One judged shot counted; ``shot``: the log's own (``None``: its events not read)."""
    if shot is not None and not shot.events:
        return ShotCategories(shots=1, without_events=1)
    v = record.verdict
    counts = {
        "scoring": int(v.points > 0),
        "misses": int(v.points == 0 and not v.fouls),
        "review": int(v.review is not None),
        "breaks": int(record.is_break),
    }
    if opening and shot is not None:
        counts.update(_opening(shot))
    fouls = Counter(str(f) for f in v.fouls)
    return ShotCategories(shots=1, fouls=dict(sorted(fouls.items())), **counts)


def player_categories(
    players: Iterable[str],
    records: Iterable[ShotRecord],
    shots: Mapping[int, Shot] | None,
    discipline: Discipline,
) -> dict[str, ShotCategories]:
    """Each player's shots counted (every player present, zero when they never shot).

    ``shots``: the log's shots by index, or ``None`` when the log's events were not read
    (the verdict categories are still counted, the opening not).
    """
    out = {p: ShotCategories() for p in players}
    opening = discipline in OPENING_DISCIPLINES
    for record in records:
        shot = None if shots is None else shots.get(record.index)
        counted = shot_categories(record, shot, opening)
        out[record.player] = out.get(record.player, ShotCategories()) + counted
    return out

"""Plain factory functions for referee tests."""

from __future__ import annotations

from referee import (
    Ball,
    BallContact,
    Call,
    Cushion,
    CushionContact,
    Discipline,
    Event,
    Foul,
    Match,
    MatchConfig,
    Pin,
    PinDown,
    Shot,
    ShotRecord,
    cue_ball_due,
)

W, Y, R = Ball.WHITE, Ball.YELLOW, Ball.RED


def config(
    discipline: Discipline = Discipline.THREE_CUSHION,
    *,
    target: int | dict[str, int] = 3,
    first: str | None = "A",
    **kw: object,
) -> MatchConfig:
    targets = target if isinstance(target, dict) else {"A": target, "B": target}
    return MatchConfig(
        discipline=discipline,
        players=("A", "B"),
        cue_balls={"A": W, "B": Y},
        target=targets,
        first_player=first,
        **kw,  # type: ignore[arg-type]
    )


def many(
    players: str = "ABC",
    discipline: Discipline = Discipline.THREE_CUSHION,
    *,
    target: int = 3,
    first: str | None = "A",
    **kw: object,
) -> MatchConfig:
    """A match of one-letter players in that order; the whites rotate unless given."""
    return MatchConfig(
        discipline=discipline,
        players=tuple(players),
        cue_balls=kw.pop("cue_balls", {}),  # type: ignore[arg-type]
        target=dict.fromkeys(players, target),
        first_player=first,
        **kw,  # type: ignore[arg-type]
    )


def three_cushion_events(
    cue: Ball, first: Ball, second: Ball, t0: float = 0.0
) -> tuple[Event, ...]:
    return (
        BallContact(t_s=t0 + 0.3, balls=(cue, first)),
        CushionContact(t_s=t0 + 0.8, ball=cue, cushion=Cushion.FOOT),
        CushionContact(t_s=t0 + 1.3, ball=cue, cushion=Cushion.LEFT),
        CushionContact(t_s=t0 + 1.8, ball=cue, cushion=Cushion.HEAD),
        BallContact(t_s=t0 + 2.4, balls=(cue, second)),
    )


def point(index: int, cue: Ball, other: Ball | None = None) -> Shot:
    """A three-cushion point (red first, then the other cue ball)."""
    second = other if other is not None else (Y if cue == W else W)
    return Shot(index=index, cue_ball=cue, events=three_cushion_events(cue, R, second))


def miss(index: int, cue: Ball) -> Shot:
    """The cue ball hits only the red."""
    return Shot(index=index, cue_ball=cue, events=(BallContact(t_s=0.3, balls=(cue, R)),))


def foul(index: int, cue: Ball, what: Foul = Foul.PUSH) -> Shot:
    return Shot(index=index, cue_ball=cue, events=(Call(t_s=0.0, foul=what),))


def drive(match: Match, script: str) -> list[ShotRecord]:
    """Play ``p`` (point), ``m`` (miss), ``f`` (foul) strokes for whoever is at the table."""
    records = []
    for ch in script.replace(" ", ""):
        state = match.state
        assert state.shooter is not None
        cue = cue_ball_due(state) or state.config.cue_ball_pair[0]
        index = state.shots_played
        shot = {"p": point, "m": miss, "f": foul}[ch](index, cue)
        records.append(match.play(shot))
    return records


def five_pins_stroke(match: Match, cue: Ball, *pins: Pin) -> Shot:
    """The next five-pins stroke: ``cue`` hits the opponent's ball, which knocks ``pins``."""
    other = Y if cue is W else W
    falls = tuple(PinDown(t_s=1.0 + 0.1 * i, pin=p, ball=other) for i, p in enumerate(pins))
    hit = BallContact(t_s=0.5, balls=(cue, other))
    return Shot(index=match.state.shots_played, cue_ball=cue, events=(hit, *falls))

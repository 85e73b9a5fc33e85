"""Invariants over random event lists and random matches (hypothesis)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import (
    DISCIPLINES,
    Ball,
    BallContact,
    Call,
    Correction,
    CorrectionKind,
    Cushion,
    CushionContact,
    Discipline,
    Event,
    IllegalMoveError,
    Match,
    MatchConfig,
    OffTable,
    Phase,
    PinDown,
    Pocket,
    Pocketed,
    RuleOptions,
    RulesError,
    Shot,
    ShotRecord,
    UnknownBallError,
    Verdict,
    call_fouls,
    cue_ball_due,
    english_reason,
    judge,
    match_stats,
    shot_context,
)

ROLES = ("cue", "opp", "obj")
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def event_recipes(draw: st.DrawFn, discipline: Discipline) -> list[tuple]:
    """Events with ball roles instead of names, so they fit any shooter."""
    kinds = ["ball", "cushion", "off", "call"]
    if DISCIPLINES[discipline].pins:
        kinds.append("pin")
    if discipline is Discipline.PIN_CAROM_7:
        kinds.append("pocket")
    n = draw(st.integers(0, 9))
    out = []
    for _ in range(n):
        kind = draw(st.sampled_from(kinds))
        t = draw(st.floats(0.0, 10.0, allow_nan=False))
        doubt = draw(st.sampled_from([None, None, None, "hidden by the arm"]))
        err = draw(st.sampled_from([0.0, 0.0, 0.004]))
        a, b = draw(st.permutations(ROLES))[:2]
        extra: tuple
        if kind == "ball":
            extra = (a, b)
        elif kind == "cushion":
            extra = (a, draw(st.sampled_from(list(Cushion))))
        elif kind == "off":
            extra = (a,)
        elif kind == "call":
            extra = (draw(st.sampled_from(sorted(call_fouls(discipline)))),)
        elif kind == "pin":
            pin = draw(st.sampled_from(sorted(DISCIPLINES[discipline].pins)))
            extra = (pin, draw(st.sampled_from([a, None])))
        else:
            extra = (a, draw(st.sampled_from(list(Pocket))))
        out.append((kind, t, doubt, err, extra))
    return out


def build_events(recipe: list[tuple], balls: dict[str, Ball]) -> tuple[Event, ...]:
    events: list[Event] = []
    for kind, t, doubt, err, extra in recipe:
        common = {"t_s": t, "doubt": doubt, "t_err_s": err}
        if kind == "ball":
            events.append(BallContact(balls=(balls[extra[0]], balls[extra[1]]), **common))
        elif kind == "cushion":
            events.append(CushionContact(ball=balls[extra[0]], cushion=extra[1], **common))
        elif kind == "off":
            events.append(OffTable(ball=balls[extra[0]], **common))
        elif kind == "call":
            events.append(Call(foul=extra[0], **common))
        elif kind == "pin":
            knocker = None if extra[1] is None else balls[extra[1]]
            events.append(PinDown(pin=extra[0], ball=knocker, **common))
        else:
            events.append(Pocketed(ball=balls[extra[0]], pocket=extra[1], **common))
    return tuple(sorted(events, key=lambda e: e.t_s))


def make_config(discipline: Discipline, **kw: object) -> MatchConfig:
    return MatchConfig(
        discipline=discipline,
        players=("A", "B"),
        cue_balls={"A": Ball.WHITE, "B": Ball.YELLOW},
        target={"A": 5, "B": 5},
        first_player="A",
        **kw,  # type: ignore[arg-type]
    )


def shot_for(match: Match, recipe: list[tuple], wrong_ball: bool = False) -> Shot:
    ctx = shot_context(match.state)
    balls = {"cue": ctx.cue_ball, "opp": ctx.opponent_ball, "obj": ctx.object_ball}
    cue = ctx.opponent_ball if wrong_ball else ctx.cue_ball
    return Shot(index=match.state.shots_played, cue_ball=cue, events=build_events(recipe, balls))


def play_all(discipline: Discipline, recipes: list[list[tuple]], **kw: object) -> Match:
    match = Match(make_config(discipline, **kw))
    for recipe in recipes:
        if match.state.phase is Phase.OVER:
            break
        match.play(shot_for(match, recipe))
    return match


disciplines = st.sampled_from(list(Discipline))


@FAST
@given(data=st.data(), discipline=disciplines, is_break=st.booleans(), wrong=st.booleans())
def test_any_well_formed_event_list_yields_a_verdict(
    data: st.DataObject, discipline: Discipline, is_break: bool, wrong: bool
) -> None:
    match = Match(make_config(discipline))
    ctx = replace(shot_context(match.state), is_break=is_break)
    shot = shot_for(match, data.draw(event_recipes(discipline)), wrong_ball=wrong)
    verdict = judge(shot, ctx)
    assert isinstance(verdict, Verdict) and verdict.reason
    assert min(verdict.points, verdict.opponent_points, verdict.penalty) >= 0
    # The scoring games key every reason (pages translate it); the parts say the same.
    keyed = discipline not in (Discipline.FIVE_PINS, Discipline.PIN_CAROM_7)
    if keyed:
        assert verdict.reason_parts and english_reason(verdict.reason_parts) == verdict.reason
    if verdict.review is not None:
        assert verdict.review.strip()


@FAST
@given(data=st.data(), discipline=disciplines)
def test_replaying_a_log_twice_gives_identical_results(
    data: st.DataObject, discipline: Discipline
) -> None:
    recipes = data.draw(st.lists(event_recipes(discipline), max_size=25))
    first = play_all(discipline, recipes, sets=3)
    second = play_all(discipline, recipes, sets=3)
    assert first.records == second.records
    assert first.state == second.state


def _invariants(match: Match) -> None:
    state = match.state
    for player, s in state.scores.items():
        assert s.points == sum(s.runs) + s.current_run + s.awarded + s.corrected + s.carried, player
        assert s.innings == len(s.runs) + (1 if s.in_inning else 0)
    stats = match_stats(state)
    for p in state.config.players:
        games_points = sum(g.points[p] for g in state.games)
        live = 0 if state.phase is Phase.OVER else state.scores[p].points
        assert stats[p].points == games_points + live


@FAST
@given(data=st.data(), discipline=disciplines)
def test_stats_are_consistent(data: st.DataObject, discipline: Discipline) -> None:
    recipes = data.draw(st.lists(event_recipes(discipline), max_size=30))
    limit = None if discipline is Discipline.PIN_CAROM_7 else 6  # it ends at zero, not a limit
    match = play_all(discipline, recipes, sets=3, innings_limit=limit)
    _invariants(match)
    if discipline not in (Discipline.FIVE_PINS,):
        for s in match.state.scores.values():
            assert s.points == sum(s.runs) + s.current_run  # no fouls' gifts, no corrections


@FAST
@given(data=st.data(), discipline=disciplines)
def test_illegal_input_never_changes_the_score(data: st.DataObject, discipline: Discipline) -> None:
    recipes = data.draw(st.lists(event_recipes(discipline), max_size=20))
    match = play_all(discipline, recipes)
    before, n = match.state, len(match.records)
    bad_ball = Ball.WHITE1 if discipline is not Discipline.PIN_CAROM_7 else Ball.YELLOW
    attempts = [
        lambda: match.play(Shot(index=0, cue_ball=bad_ball)),
        lambda: match.correct(Correction(CorrectionKind.POINTS, "nobody", 1)),
        lambda: match.correct(Correction(CorrectionKind.POINTS, "A", -10_000)),
        lambda: match.lag(__import__("referee").Lag(winner="A")),
    ]
    if before.phase is Phase.OVER:
        attempts.append(lambda: match.play(Shot(index=0, cue_ball=Ball.RED)))
    for attempt in attempts:
        try:
            attempt()
        except (IllegalMoveError, UnknownBallError, RulesError):
            pass
        else:  # pragma: no cover - would be a bug
            raise AssertionError("illegal input was accepted")
        assert match.state is before and len(match.records) == n
    _invariants(match)


# --- two players or more -----------------------------------------------------------


@st.composite
def many_player_configs(draw: st.DrawFn) -> MatchConfig:
    """2-5 players; balls kept (two, or an even number given balls) or rotating."""
    n = draw(st.integers(2, 5))
    players = tuple("ABCDE"[:n])
    discipline = draw(
        st.sampled_from([d for d in Discipline if n == 2 or d is not Discipline.FIVE_PINS])
    )
    keep = discipline is not Discipline.PIN_CAROM_7 and (
        n == 2 or (n % 2 == 0 and draw(st.booleans()))
    )
    cue_balls = {p: (Ball.WHITE, Ball.YELLOW)[i % 2] for i, p in enumerate(players)} if keep else {}
    options = RuleOptions(
        follow_cue_ball=n > 2 and draw(st.booleans()),
        rotate_cue_ball_every_stroke=draw(st.booleans()),
    )
    limits = st.sampled_from([None, 2, 5])  # none in the 7-pin game: it ends at zero
    return MatchConfig(
        discipline=discipline, players=players, cue_balls=cue_balls,
        target=dict.fromkeys(players, 4), first_player="A", sets=3,
        innings_limit=None if DISCIPLINES[discipline].countdown else draw(limits),
        equalizing=draw(st.booleans()),
        options=options,
    )  # fmt: skip


def _due_by_rule(cfg: MatchConfig, prev: ShotRecord | None, ball: Ball | None, nxt: str) -> Ball:
    """rules.md §1 restated: the white the previous stroke did not use, kept for the inning."""
    if not cfg.rotates:
        return cfg.ball_of(nxt)
    assert ball is not None and prev is not None
    same_inning = prev.player == nxt and not prev.verdict.inning_ends and not prev.game_over
    if same_inning and not cfg.options.rotate_cue_ball_every_stroke:
        return ball
    return cfg.other_cue_ball(ball)


def _check_turn(cfg: MatchConfig, prev: ShotRecord, record: ShotRecord) -> None:
    """The turn passes to the next player in order; sets are broken in turn."""
    if record.set_index == prev.set_index:
        allowed = {cfg.next_player(prev.player)} | (
            set() if prev.verdict.inning_ends else {prev.player}
        )
        assert record.player in allowed, (prev, record)


@FAST
@given(data=st.data(), cfg=many_player_configs())
def test_any_number_of_players_takes_turns_and_rotates_the_whites(
    data: st.DataObject, cfg: MatchConfig
) -> None:
    match = Match(cfg)
    prev: ShotRecord | None = None
    played: Ball | None = None
    breakers = [match.state.breaker]
    for recipe in data.draw(st.lists(event_recipes(cfg.discipline), max_size=30)):
        state = match.state
        if state.phase is Phase.OVER:
            break
        assert state.shooter is not None
        due = cue_ball_due(state)
        if prev is not None and cfg.discipline is not Discipline.PIN_CAROM_7:
            assert due == _due_by_rule(cfg, prev, played, state.shooter)
        if state.set_index != (prev.set_index if prev else 0):
            breakers.append(state.breaker)
        shot = shot_for(match, recipe, wrong_ball=data.draw(st.sampled_from([False] * 5 + [True])))
        record = match.play(shot)
        if prev is not None:
            _check_turn(cfg, prev, record)
        prev, played = record, shot.cue_ball
        innings = [s.innings for s in match.state.scores.values()]
        assert max(innings) - min(innings) <= 1
    assert breakers == [
        cfg.players[i % len(cfg.players)] for i in range(len(breakers))
    ]  # each set broken by the next player
    _invariants(match)
    if cfg.equalizing and cfg.countdown_from is None and cfg.discipline is not Discipline.FIVE_PINS:
        for game in match.state.games:
            assert len(set(game.innings.values())) == 1, game  # every round completed

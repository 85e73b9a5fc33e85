"""The readable scoresheet printed by ``carom score``."""

from __future__ import annotations

from carom.i18n import display_width, pad_to
from carom.match import ScoreRun
from carom.report._setup_words import setup_line
from referee import ShotRecord, match_stats

__all__ = ["render_sheet", "render_standings"]


def _shot_line(r: ShotRecord, players: tuple[str, ...], width: int) -> list[str]:
    v = r.verdict
    board = " : ".join(str(r.score_after[p]) for p in players)
    if v.points or v.penalty or v.opponent_points:
        parts = [f"+{v.points}" if v.points else ""]
        if v.opponent_points:
            parts.append(f"opp +{v.opponent_points}")
        if v.penalty:
            parts.append(f"pen {v.penalty}")
        pts = " ".join(p for p in parts if p)
    else:
        pts = "0"
    turn = "  (turn passes)" if v.inning_ends else ""
    player = pad_to(r.player, width)
    lines = [f"{r.index:>4}  {player} {r.inning:>6}  {pts:<12} {board:<11} {v.reason}{turn}"]
    indent = " " * 6
    if r.is_break or r.index == 0:
        lines.append(f"{indent}{r.break_why}")
    if v.review:
        lines.append(f"{indent}REVIEW: {v.review}")
    lines.extend(f"{indent}re-spot {s.ball} {_on_spot(str(s.spot))}" for s in v.respots)
    if str(v.next_position) != "play_on":
        lines.append(f"{indent}next: {str(v.next_position).replace('_', ' ')}")
    lines.extend(f"{indent}{a}" for a in v.announcements)
    if r.note:
        lines.append(f"{indent}>> {r.note}")
    return lines


def render_sheet(run: ScoreRun) -> str:
    """Every shot's verdict, then the final score and statistics, as text."""
    state = run.match.state
    cfg = state.config
    out = [f"{cfg.discipline}: {' vs '.join(cfg.players)}", setup_line(run.setup or cfg)]
    if run.lag is not None:
        out.append(f"lag: {run.lag.reason}")
    width = max([10, *map(display_width, cfg.players)])  # long names keep the columns in line
    out.append(
        f"{'shot':>4}  {'player':<{width}} {'inning':>6}  {'points':<12} {'score':<11} verdict"
    )
    for r in run.match.records:
        out.extend(_shot_line(r, cfg.players, width))
    out.append("")
    result = "in progress"
    if state.winner:
        result = f"{state.winner} wins"
    elif state.draw:
        shared = len(state.tied) < len(cfg.players)
        result = f"draw between {', '.join(state.tied)}" if state.tied and shared else "draw"
    out.append(f"result: {result}")
    # Over sets the board is the last set's; the match's points stand beside it, as the
    # innings and the average are the match's (a board of 1 beside 2 innings at 1.000).
    sets = cfg.sets > 1
    head = f"{'score':>6} {'points':>7}" if sets else f"{'score':>6}"
    head += f" {'innings':>8} {'average':>8} {'high run':>9} {'sets':>5}"
    out.append(f"{'player':<{width}} {head}")
    stats = match_stats(state)
    for p in cfg.players:
        s = stats[p]
        points = f" {s.points:>7}" if sets else ""
        out.append(
            f"{pad_to(p, width)} {state.board(p):>6}{points} {s.innings:>8} {s.average:>8} "
            f"{s.high_run:>9} {s.sets_won:>5}"
        )
    for a in state.audit:
        out.append(f"audit v{a.version} after {a.shots_played} shots: {a.action}: {a.detail}")
    return "\n".join(out)


def render_standings(rows: list[dict[str, object]]) -> str:
    """The event table printed after several matches (MP, GA, BA, HR)."""
    out = ["standings (match points, then general average, best average, high run):"]
    width = max([10, *(display_width(str(r["player"])) for r in rows)])
    out.append(
        f"{'#':>3} {'player':<{width}} {'MP':>3} {'matches':>8} {'GA':>7} {'BA':>7} {'HR':>4}"
    )
    for r in rows:
        player = pad_to(str(r["player"]), width)
        out.append(
            f"{r['rank']:>3} {player} {r['match_points']:>3} {r['matches']:>8} "
            f"{r['general_average']!s:>7} {r['best_average']!s:>7} {r['high_run']:>4}"
        )
    return "\n".join(out)


def _on_spot(spot: str) -> str:
    """``on spot 3`` (the 7-pin table's numbered spots), else ``on the head spot``."""
    if spot.startswith("spot") and spot[4:].isdigit():
        return f"on spot {spot[4:]}"
    return f"on the {spot.replace('_', ' ')} spot"

"""``carom live``: a camera (or a replayed video) over the table calls the match live.

Composition root of live mode: the match database and session (``carom.live``), the
capture thread, the scoreboard link, the keyboard and the processing loop
(:class:`carom.live.loop._runner.LiveRunner`). Restarting the same command after a crash
resumes the same match (a video file continues where the last committed shot ended).
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from carom.cli._live_calibration import calibration_file, live_calibration
from carom.cli._live_lines import CallPrinter, say_result, shot_line
from carom.cli._outputs import check_output
from carom.cli._score import add_board_options, tell_board
from carom.console import say, show

# The live shot segmenter: a shot ends after 0.15 s without a ball moving 2 mm in 0.1 s
# (carom analyze waits 0.6 s for 4 mm in 0.2 s). Checked: every verdict of the four
# samples and the 1080p render equals the truth with it, each of the 60 real tracked
# shots gives exactly one shot that never ends before its last motion
# (tests/vision/test_segment_realdata.py), and the verdict leaves within the 150 ms
# budget (bench/results/live_latency.md). See docs/live.md, "Latency".
LIVE_REST_S = 0.15
LIVE_WINDOW_S = 0.1
LIVE_MOVE_MM = 2.0

__all__ = ["add_parser", "run", "shot_line"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``carom live``."""
    p = sub.add_parser(
        "live",
        help="referee a match live from a camera (or a video replayed in real time)",
        description="Watch SRC, judge every shot as it ends, keep the match in the database "
        "(a crash resumes with the same command), show it on the scoreboard. Calls on stdin: "
        "foul <kind>, accept, reject, points <n>, undo, timeout [player], correct <player> "
        "<+-n>, turn <player>, break, help (docs/live.md).",
    )
    p.add_argument("--camera", required=True, metavar="SRC",
                   help="camera index (0), stream URL (rtsp://...) or a video file replayed "
                   "at real-time pace")  # fmt: skip
    p.add_argument("--calibration", type=Path, metavar="FILE",
                   help="calibration file (default: the camera's beside the database, where "
                   "the wizard saves, else one fitted now from SRC and saved there)")  # fmt: skip
    from carom.match import add_match_options

    add_match_options(p)
    add_board_options(p, "show the match on a scoreboard")  # port, baud, address, confirm
    p.add_argument("--db", type=Path, default=Path("carom-live.db"),
                   help="match database (default carom-live.db)")  # fmt: skip
    p.add_argument("--pace", type=float, default=1.0,
                   help="video file replay speed: 1 real time, 2 twice as fast, 0 as fast as "
                   "processed without dropping frames (tests, benchmarks)")  # fmt: skip
    p.add_argument("--shot-clock", type=float, metavar="S",
                   help="seconds a shot (40; 0 turns the clock off); over the match file's "
                   "[clock]")  # fmt: skip
    p.add_argument("--clock-warning", type=float, metavar="S", help="warning (10 s left)")
    p.add_argument("--extensions", type=int, help="time-outs per player per game (2)")
    p.add_argument("--extension-s", type=float, metavar="S", help="seconds a time-out adds (40)")
    p.add_argument("--shot-clock-expiry", choices=["warn", "foul"],
                   help="when the shot clock runs out: warn (show it; a referee may call the "
                   "foul shot_clock) or foul (the stroke begun after it is that foul; the "
                   "inning passes). The rules set no time: see docs/live.md")  # fmt: skip
    p.add_argument("--rest-s", type=float, default=LIVE_REST_S, metavar="S",
                   help="stillness ending a shot (0.15; analyze: 0.6)")  # fmt: skip
    p.add_argument("--window-s", type=float, default=LIVE_WINDOW_S, metavar="S",
                   help="segmenter motion window (0.1; analyze: 0.2)")  # fmt: skip
    p.add_argument("--move-mm", type=float, default=LIVE_MOVE_MM, metavar="MM",
                   help="motion within the window (2; analyze: 4)")  # fmt: skip
    p.add_argument("--drift-every", type=float, default=0.0, metavar="S",
                   help="check every S seconds that the camera did not move (default 0: "
                   "off; see docs/live.md)")  # fmt: skip
    from carom.cli._analyze import add_detector_option

    add_detector_option(p)
    p.add_argument("--metrics", type=Path, metavar="FILE",
                   help="keep the live figures (latency, fps, drops) in this file")  # fmt: skip
    p.add_argument("--status-every", type=float, default=10.0, metavar="S",
                   help="seconds between status lines on stderr")  # fmt: skip
    p.add_argument("--serve", action="store_true",
                   help="also serve this match's scoreboard, overlay and console on the web "
                   "(as carom serve; --host, --port, --token-file ...)")  # fmt: skip
    from carom.cli._serve import add_server_options

    add_server_options(p)


def _config(args: argparse.Namespace) -> tuple[Any, Any]:
    """The referee's set-up and the shot clock's: the match file with the flags over it."""
    from carom.match import match_from_args
    from carom.pipeline import Pipeline

    match = match_from_args(args)
    pipeline = Pipeline(source=args.camera, match=match, calibration=args.calibration,
                        detector=args.detector)  # fmt: skip
    return pipeline.config(), _clock(args, match.clock)


def _clock(args: argparse.Namespace, clock: Any) -> Any:
    """The file's ``[clock]`` with the clock flags over it (``--shot-clock 0``: off)."""
    from dataclasses import replace

    from carom.match import ClockExpiry
    from referee import CaromError

    changes: dict[str, Any] = {}
    if args.shot_clock is not None:
        changes["enabled"] = args.shot_clock > 0
        changes["length_s"] = args.shot_clock or clock.length_s
        changes["warning_s"] = min(clock.warning_s, changes["length_s"])
    if args.clock_warning is not None:
        changes["warning_s"] = args.clock_warning
    if args.extensions is not None:
        changes["extensions"] = args.extensions
    if args.extension_s is not None:
        changes["extension_s"] = args.extension_s
    if args.shot_clock_expiry is not None:
        changes["expiry"] = ClockExpiry(args.shot_clock_expiry)
    try:
        return replace(clock, **changes)
    except CaromError as exc:
        flags = "--shot-clock, --clock-warning, --extensions, --extension-s"
        raise CaromError(f"{flags}: {exc}") from None


def _check_inputs(args: argparse.Namespace) -> None:
    """Bad paths fail now, in one line, not after the camera opened."""
    from calibration import load_calibration
    from carom.live.loop import is_file_source
    from referee import CaromError
    from vision import VideoFileSource

    if args.calibration is not None:
        load_calibration(args.calibration)
    if is_file_source(args.camera):
        VideoFileSource(args.camera).close()
    if not 0.0 <= args.pace <= 100.0:
        raise CaromError(f"--pace {args.pace}: use 0 (as fast as processed) up to 100")
    _check_periods(args)
    if args.metrics is not None:
        check_output(args.metrics, "--metrics")  # not after the match was played
    if args.serve:  # a port in use fails now, not after a fit and a new match
        from carom.web import bind

        bind(args.host, args.port).close()


def _check_periods(args: argparse.Namespace) -> None:
    """``--status-every`` and ``--drift-every``: finite seconds in their ranges."""
    from referee import CaromError

    if not 0.5 <= args.status_every <= 3600.0:
        raise CaromError(f"--status-every {args.status_every}: use 0.5 to 3600 seconds")
    if not 0.0 <= args.drift_every <= 86400.0:
        raise CaromError(f"--drift-every {args.drift_every}: use 0 (off) to 86400 seconds")


def _segment(args: argparse.Namespace) -> Any:
    from referee import CaromError
    from vision import SegmentSettings

    given = {"rest_s": args.rest_s, "window_s": args.window_s, "move_mm": args.move_mm}
    if any(not 0.0 < v <= 10.0 for v in given.values()):
        raise CaromError(f"--rest-s, --window-s, --move-mm: use 0 < value <= 10, got {given}")
    return SegmentSettings(**given)


def run(args: argparse.Namespace) -> int:
    """Carry out ``carom live``; CaromError (one line) on bad input.

    6 (``EXIT_DEVICE``) when the board never acknowledged the final state within
    ``--scoreboard-confirm`` (one line on stderr after the result; the match is saved).
    """
    from carom.live import LiveSession, LiveSetup, MatchStore
    from carom.live.loop import (
        BoardSink,
        Capture,
        CaptureSettings,
        LiveMetrics,
        LiveRunner,
        read_keyboard,
    )
    from carom.match import ShotClock
    from carom.timestamps import now_iso

    config, clock_settings = _config(args)
    _check_inputs(args)  # and the library warnings into the log
    if args.db.exists():  # no match database: said before a calibration is fitted
        MatchStore(args.db, strict=True).close()
    calibration = live_calibration(args, config)
    clock = ShotClock(clock_settings)
    store = MatchStore(args.db, strict=True)  # a damaged file: one line, never resumed
    try:
        # The same video by any spelling of its path resumes its match.
        setup = LiveSetup.seen_by(config, args.camera, clock_settings.extensions)
        session = LiveSession.open(store, setup, now_iso=now_iso())
        start_s = session.resume_video_t_s or 0.0
        _say_opened(session, start_s, args.camera)
        _say_left_unfinished(store, session, setup, args.db)
        session.subscribe(CallPrinter())  # each call on stdout as it is made
        capture = Capture(args.camera, CaptureSettings(pace=args.pace, start_s=start_s))
        link = _board_link(args) if args.scoreboard else None
        board, metrics = BoardSink(link), LiveMetrics()
        web = None
        if args.serve:  # the web server over this session (carom.web.start_for_live)
            web = _serve(args, session, config, clock_settings)
        runner = LiveRunner(
            session, capture.start(), calibration_file=calibration_file(args, calibration),
            config=config, board=board, clock=clock, metrics=metrics, segment=_segment(args),
            drift_every_s=args.drift_every, status_every_s=args.status_every,
            metrics_path=args.metrics, detector=args.detector,
        )  # fmt: skip
        if web is not None:
            web.attach(runner)
        read_keyboard(sys.stdin, runner.lines)
        final = None
        try:
            final = _play(runner, args.scoreboard_confirm, session)
        finally:
            capture.stop()
            board.close(_flush_s(final))
            if web is not None:
                web.detach()
        say_result(session)
    finally:
        store.close()
    return _final_status(final)


def _board_link(args: argparse.Namespace) -> Any:
    """The started link to the board at ``--scoreboard`` (its baud and bus address)."""
    from hardware import ScoreboardLink

    url, baud, addr = args.scoreboard, args.scoreboard_baud, args.scoreboard_addr
    return ScoreboardLink(url, baud=baud, addr=addr, dialect=args.scoreboard_dialect).start()


def _play(runner: Any, confirm_s: float, session: Any) -> Any:
    """Run the loop to its end, then confirm the board's final state (its result).

    Raises:
        KeyboardInterrupt: Ctrl-C or SIGTERM stopped it (exit 130, the match as committed,
            said with how to go on).
    """
    with _interrupts_stop(runner):
        runner.run()
    if runner.interrupted.is_set():
        _say_kept(session)
        raise KeyboardInterrupt
    return runner.view.confirm_final(confirm_s, lambda line: say("live", line))


@contextlib.contextmanager
def _interrupts_stop(runner: Any) -> Iterator[None]:
    """Ctrl-C and SIGTERM stop the loop at its next frame (``LiveRunner.interrupt``).

    Not Python's default KeyboardInterrupt, raised wherever the main thread happens to
    be: one raised inside a finalizer or callback is swallowed ("Exception ignored"),
    and the loop went on (seen once in CI). A second Ctrl-C while stopping is the
    default again. Only the main thread may set handlers; elsewhere nothing changes.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, _frame: Any) -> None:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        runner.interrupt()

    before = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


def _flush_s(final: Any) -> float:
    """Seconds the board's last messages are waited for at the close.

    0 for a board that did not confirm the final state in ``--scoreboard-confirm``: it
    was waited for long enough.
    """
    return 0.0 if final is not None and not final.confirmed else 2.0


def _final_status(final: Any) -> int:
    """0, or 6 with one line when the board never confirmed the final state."""
    from carom.cli._main import EXIT_DEVICE

    if final.confirmed:
        return 0
    tell_board("live", final.line)
    return EXIT_DEVICE


def _say(text: str) -> None:
    say("live", text)


def _serve(args: argparse.Namespace, session: Any, config: Any, clock: Any) -> Any:
    """``--serve``: the web server of ``carom serve`` over this session, in a thread."""
    from carom.cli._serve import settings_of
    from carom.web import MatchSetup, start_for_live

    settings = settings_of(args, camera=None, calibration=None, pace=args.pace)
    return start_for_live(settings, (args.host, args.port), args.camera, session,
                          MatchSetup(config, clock))  # fmt: skip


def _say_opened(session: Any, start_s: float, camera: str = "") -> None:
    """``new match N``, or ``resumed match N at A 1 : 1 B, B at the table``.

    And where a video resumes. It said "version 7", which tells an operator nothing,
    and no score.
    """
    if session.resumed:
        from hardware import is_camera_spec

        video = start_s and not is_camera_spec(camera)
        where = f"; the video resumes at {start_s:.2f} s" if video else ""
        _say(f"resumed match {session.match_id} at {_standing(session)}{where}")
        if session.pending is not None:  # held before the restart: still waits for a person
            show("live", f"REVIEW: {session.pending.reason or 'a person decides'}")
    else:
        _say(f"new match {session.match_id}")


def _standing(session: Any) -> str:
    """``A 1 : 1 B, B at the table`` (three players or more: ``1 : 0 : 2 (A, B, C)``)."""
    state = session.state
    score = " : ".join(str(state.board(p)) for p in state.config.players)
    names = state.config.players
    at = f"{names[0]} {score} {names[-1]}" if len(names) == 2 else f"{score} ({', '.join(names)})"
    return at + (f", {state.shooter} at the table" if state.shooter else "")


def _say_kept(session: Any) -> None:
    """Stopped (Ctrl-C, SIGTERM) before the match's end: what is kept and how to go on.

    It said only "interrupted", though running the same command again resumes the match.
    """
    if session.state.phase.name == "OVER":
        return
    _say(f"stopped: match {session.match_id} is kept at {_standing(session)}; the same "
         "command resumes it (carom matches lists the matches)")  # fmt: skip


def _say_left_unfinished(store: Any, session: Any, setup: Any, db: Path) -> None:
    """A new match beside an unfinished one of the same camera or video: name it.

    Its set-up differs (players, first player, targets, rules ...), so it was not
    resumed; a restart that left out an option would otherwise begin at 0 without a word.
    """
    from carom.live import held_by

    if session.resumed:
        return
    m = session.left_unfinished(store, setup.sources, besides=session.match_id)
    pid = None if m is None else held_by(db, m.id)
    if m is not None and pid is not None:  # not left: refereed now (not to be resumed)
        _say(f"match {m.id} ({' - '.join(m.players)}) of this camera is being refereed by "
             f"another process (pid {pid}) with another set-up; this is a new match beside "
             "it")  # fmt: skip
    elif m is not None:
        _say(f"match {m.id} ({' - '.join(m.players)}, begun {m.created_at[:16]}) of this "
             "camera was left unfinished with another set-up: the same options (players, "
             f"first player, targets, rules) resume it; carom matches {db} lists every "
             "match")  # fmt: skip

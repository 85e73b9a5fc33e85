"""The README's commands, each with what it must do, and the runner that runs them in order
(tests/test_readme_blocks.py and tests/test_readme_archives.py, issue 22).

The commands run in a temporary folder holding the bundled files they name
(``sample_videos/``, ``examples/``), one after the other, so a later command reads what
an earlier one wrote (``carom score log.json`` the log ``carom export`` wrote). Each
command of the README has a :class:`Step` below saying what it must do: its exit status
and the lines or files the README promises. A command that cannot run here as written (an
installation, a camera, a server that runs until stopped, real-time pace) has its closest
runnable form and the reason beside it.

The README's sections run in three parts, each in a folder of its own (a part's commands
read only what the part's own wrote): the recorded video's sections (``RECORDED``), the
rest that are not paced by the clock, and the paced ones (``PACED``: a board, live mode,
the server, a camera stream), which run with the wall-clock tests. The first two are in
two test files so that the suite's two workers run them side by side.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from tests.readme_run import (
    Step,
    readme_sections,
    run_command,
    run_python,
    serve_and_fetch,
    start_background,
    stop_background,
    stream_camera,
)

ROOT = Path(__file__).parents[1]
README = ROOT / "README.md"


_TRAJ = ("shots.json", "trajectories.json", "trajectories.csv", "report.html")


def _analysis(name: str, *extra: str) -> tuple[str, ...]:
    return tuple(f"carom-analysis/{name}/{f}" for f in (*_TRAJ, *extra))


_SAMPLE = "sample_videos/three_cushion_match.mp4"
_CLIP = "examples/one_shot.mp4"  # the first 15 s of the sample: one point, for A
_VIDEO = f"`VIDEO.mp4` is the user's video: {_CLIP}, as the README suggests"
_SCORES_CLIP = (r"^A\s+1\s+1\s", r"^B\s+0\s+0\s")
_BOARD_END = r"^\|\s*>?\s*B\s+2\s+HR"  # the emulator's last board: B at 2
_SCORES_3C = (r"^A\s+1\s+1\s", r"^B\s+2\s+1\s")  # the clip's scoresheet: A 1, B 2

#: Every command of the README's ``sh`` blocks, in README order, with its promise.
STEPS: dict[str, Step | tuple[Step, ...]] = {
    # -- Two commands
    "python3 -m venv .venv && .venv/bin/pip install -q -e . && .venv/bin/carom analyze "
    f"{_SAMPLE}": Step(
        run_as=f"carom analyze {_SAMPLE}",
        why="installing: the test runs in the project the suite runs in, installed so",
        out=_SCORES_3C, files=_analysis("three_cushion_match", "calibration.json"),
        truth="three_cushion_match"),
    "bash scripts/check": Step(
        run_as="carom --version", out=(r"\d+\.\d+",),
        why="it runs the whole suite, this test included (CI runs it: .ci/run)"),
    # -- Refereeing a recorded video
    "carom analyze VIDEO.mp4": Step(
        run_as=f"carom analyze {_CLIP}", why=_VIDEO, out=_SCORES_CLIP,
        files=_analysis("one_shot", "calibration.json"), truth="three_cushion_match",
        truth_of="one_shot"),
    "carom analyze VIDEO.mp4 --calibration table.json": Step(
        run_as=f"carom analyze {_CLIP} --calibration carom-analysis/one_shot/calibration.json",
        why=_VIDEO + "; `table.json` its calibration, from the command before",
        out=_SCORES_CLIP),
    "carom analyze VIDEO.mp4 --table 2100x1050 --annotate": Step(
        run_as=f"carom analyze {_CLIP} --table 2100x1050 --annotate",
        why=_VIDEO + "; a match table, so the balls say that 2100x1050 is not its size",
        out=(r"table size doubtful: the balls look 0\.7\d times .* \(match: 2840x1420",),
        files=_analysis("one_shot", "annotated.mp4")),
    "carom analyze VIDEO.mp4 --json": Step(
        run_as=f"carom analyze {_CLIP} --json", why=_VIDEO, out=(r'"format": "carom-',)),
    "carom analyze VIDEO.mp4 --detector color": Step(
        run_as=f"carom analyze {_CLIP} --detector color", why=_VIDEO, out=_SCORES_CLIP),
    "carom analyze VIDEO.mp4 --match examples/match.toml": Step(
        run_as=f"carom analyze {_CLIP} --match examples/match.toml", why=_VIDEO,
        out=_SCORES_CLIP),
    "carom analyze sample_videos/five_pins_match.mp4 --discipline five-pins --players "
    "Ana,Ben --first Ana": Step(
        out=(r"^Ana\s+10\s", r"^Ben\s+5\s", r"REVIEW"), truth="five_pins_match"),
    "carom analyze sample_videos/balkline_47_2.mp4 --discipline balkline-47/2": Step(
        out=(r"REVIEW",), truth="balkline_47_2"),
    "carom analyze sample_videos/hard_three_cushion.mp4 --players Ana,Ben --start-score "
    "Ana=12,Ben=7 --start-innings Ana=9,Ben=9 --start-shooter Ana": Step(
        out=(r"^Ana\s+12\s", r"^Ben\s+9\s", r"red then white after 3 cushions",
             r"^set-up: .*; joined in progress at 12 : 7 after 9 : 9 innings, Ana at the table$"),
        truth="hard_three_cushion"),
    "carom analyze sample_videos/seven_pins_match.mp4 --discipline pin-carom-7 --table "
    "pyramid --first A": Step(
        out=(r"340 : 250", r"^\s+re-spot white2 on spot 3$",
             r"^set-up: each counts down from 300; pyramid table 3550x1775 mm;"),
        truth="seven_pins_match"),
    # -- Whole archives
    "carom batch examples/samples.csv --out season/": (
        Step(out=(r"three_cushion_match", r"seven_pins_match"),
             files=("season/batch.json", "season/stats.html", "season/stats-players.csv")),
        Step(out=(r"^\[5/5\] skipped ",)),  # again: all five skipped
    ),
    "carom batch 'sample_videos/**/three_*.mp4' --out archive/ --players Ana,Ben "
    "--workers 2": Step(
        out=(r"three_cushion_match",), files=("archive/batch.json",)),
    "carom batch examples/samples.csv --out season/ --ray": Step(
        out=(r"skipped +seven_pins_match",)),
    "carom stats season/": Step(
        out=(r"balkline_47_2", r"hard_three_cushion"), files=("season/stats.html",)),
    # -- Scoring a shot log
    "carom score examples/three_cushion_match.json": Step(out=(r"result: Ana wins",)),
    "carom score examples/three_cushion_match.json --json": Step(
        out=(r'"format": "carom-score/1"',)),
    "carom score carom-analysis/three_cushion_match/shots.json --discipline one-cushion": (
        Step(out=(r"one-cushion",))),
    "carom score examples/three_cushion_match.json examples/three_players_match.json": (
        Step(out=(r"standings", r"^\s*1 Ana\s+3\s", r"Cleo"))),
    # -- A scoreboard on a serial port
    "carom scoreboard-emulator --pty --link /tmp/board": Step(
        run_as="carom scoreboard-emulator --pty --link {tmp}/board",
        why="a fixed /tmp path would be shared by tests running at the same time",
        until="carom score examples/three_cushion_match.json --scoreboard /tmp/board",
        out=(r"^\|\s*>?\s*Ben\s+4\s+HR",)),
    "carom score examples/three_cushion_match.json --scoreboard /tmp/board": Step(
        run_as="carom score examples/three_cushion_match.json --scoreboard {tmp}/board",
        why="the emulator's link in this test's folder", out=(r"result: Ana wins",)),
    # -- Live mode
    "carom scoreboard-emulator --pty --link /tmp/carom-board": Step(
        run_as="carom scoreboard-emulator --pty --link {tmp}/carom-board",
        why="a fixed /tmp path would be shared by tests running at the same time",
        until="carom live --camera sample_videos/three_cushion_match.mp4 --calibration "
        "cal.json --players A,B --first A --scoreboard /tmp/carom-board",
        out=(_BOARD_END,)),
    "carom calibrate sample_videos/three_cushion_match.mp4 --frame 30 --out cal.json": Step(
        out=(r"^verdict: good",), files=("cal.json", "cal_overlay.png")),
    "carom live --camera sample_videos/three_cushion_match.mp4 --calibration cal.json "
    "--players A,B --first A --scoreboard /tmp/carom-board": Step(
        run_as="carom live --camera sample_videos/three_cushion_match.mp4 --calibration "
        "cal.json --players A,B --first A --scoreboard {tmp}/carom-board --pace 0",
        why="--pace 0: the same frames as fast as they are processed, not at real-time "
        "pace (56 s); the emulator's link in this test's folder",
        out=(r"A 1 : 2 B",), files=("carom-live.db",)),
    "carom matches carom-live.db": Step(out=(r"A - B\s+1 - 2\s+4 shots\s+unfinished",)),
    "carom export carom-live.db --match 1 --json log.json --csv results.csv "
    "--shots-csv shots.csv": Step(
        out=(r"match 1 is not finished", r"^wrote match 1: log.json, results.csv, shots.csv$"),
        files=("log.json", "results.csv", "shots.csv")),
    "carom score log.json": Step(out=_SCORES_3C),
    "carom matches carom-live.db --repair new.db": Step(
        out=(r"wrote new.db: 1 of 1 matches",), files=("new.db",)),
    # -- Web
    "carom serve --camera sample_videos/three_cushion_match.mp4": Step(
        run_as="carom serve --camera sample_videos/three_cushion_match.mp4 --port 0",
        why="it serves until stopped: started, its pages fetched, stopped with Ctrl-C "
        "(SIGINT); --port 0 as port 8765 may be taken by another test",
        out=(r"admin token: \S+",
             r"listening on http://127\.0\.0\.1:\d+/ .*calibration wizard /wizard")),
    # -- Synthetic video
    "carom synth --list": Step(out=(r"^3c-third-cushion-late\b", r"^three-cushion-match")),
    "carom synth 3c-third-cushion-late --out out/ --fps 30 --k1 -0.2 --cloth green": Step(
        files=tuple(f"out/3c-third-cushion-late{s}" for s in (".mp4", ".json", ".shots.json"))),
    "carom synth --samples sample_videos/": Step(
        run_as="carom synth --help", out=(r"--samples DIR",),
        why="it renders all five bundled clips (minutes of CPU); "
        "tests/synth/test_samples.py checks they are still what the code makes"),
    # -- Calibrating a table
    "carom calibrate sample_videos/three_cushion_match.mp4 --out calibration.json": Step(
        out=(r"^verdict: good",), files=("calibration.json", "calibration_overlay.png")),
    "carom calibrate 0 --out table3.json": Step(
        run_as="carom calibrate {camera} --out table3.json", camera=True,
        out=(r"^verdict: good",), files=("table3.json", "table3_overlay.png"),
        why="no camera device here: a stream URL (a camera's other form) serving the "
        "one-shot clip's frames at its pace, as an IP camera does"),
    "carom calibrate examples/table.jpg --corners '223,98;1048,189;997,599;184,506' --out "
    "table.json": Step(
        out=(r"^verdict: doubtful: corners only: 4 marked points fit any lens",), status=3,
        files=("table.json", "table_overlay.png")),
}  # fmt: skip


#: The README's Python examples, by their first line: what each prints.
PYTHON: dict[str, tuple[str, ...]] = {
    "from referee import Match, MatchConfig, Discipline, Ball, Shot, BallContact, "
    "CushionContact, Cushion": (r"^point: red then yellow after 3 cushions$",),
    "from calibration import load_calibration": (
        r"^white \[BallContact\(t_s=1\.8\d*, balls=\(<Ball\.RED",
    ),
}


def steps_of(command: str) -> tuple[Step, ...]:
    """The steps of a command, one per time the README writes it."""
    steps = STEPS[command]
    return steps if isinstance(steps, tuple) else (steps,)


#: The README's sections whose commands are paced by the clock (a board replayed over a
#: serial link, a camera, a server): run with the wall-clock tests.
PACED = ("A scoreboard on a serial port", "Live mode", "Web scoreboard")
#: The sections of a recorded video: analysing it, then scoring the shot log it wrote.
RECORDED = ("Two commands", "Refereeing a recorded video", "Scoring a shot log")
PARTS = ("recorded", "archives", "paced")


def part_of(heading: str, step: Step | None) -> str:
    """The part a command (``step``) or a Python example (``None``) under ``heading`` runs in."""
    if step is not None and (heading.startswith(PACED) or step.camera):
        return "paced"
    return "recorded" if heading.startswith(RECORDED) else "archives"


def _project_copy(tmp: Path) -> Path:
    """A folder with the bundled files the README's commands name."""
    for name in ("sample_videos", "examples"):
        shutil.copytree(ROOT / name, tmp / name)
    return tmp


def run_part(tmp: Path, part: str) -> None:
    """Every command of ``part`` in README order, in a copy of the bundled files in ``tmp``."""
    folder = _project_copy(tmp)
    running: dict[str, tuple[subprocess.Popen[str], Step, str]] = {}
    sections = readme_sections(README.read_text())
    commands = [command for _, command in sections]
    try:
        for i, (heading, command) in enumerate(sections):
            if "\n" in command:
                if part_of(heading, None) == part:
                    run_python(command, folder, PYTHON)
                continue
            step = steps_of(command)[commands[:i].count(command)]
            if part_of(heading, step) == part:
                _run_one(step, command, folder, running)
    finally:
        for proc, _, _ in running.values():
            proc.kill()
            proc.communicate()


def _run_one(
    step: Step, command: str, folder: Path,
    running: dict[str, tuple[subprocess.Popen[str], Step, str]],
) -> None:  # fmt: skip
    if step.until:
        running[step.until] = (start_background(step, command, folder), step, command)
    elif command.startswith("carom serve"):
        serve_and_fetch(step, command, folder)
    elif step.camera:
        with stream_camera(folder / _CLIP) as url:
            run_command(step, command, folder, camera=url)
    else:
        run_command(step, command, folder)
    if command in running:
        stop_background(*running.pop(command))

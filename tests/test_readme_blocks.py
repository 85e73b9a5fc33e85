"""Every command block of the README, run in order as a new user would (issue 22).

The commands run in a temporary folder holding the bundled files they name
(``sample_videos/``, ``examples/``), one after the other, so a later command reads what
an earlier one wrote (``carom score log.json`` the log ``carom export`` wrote). Each
command of the README has a :class:`Step` below saying what it must do: its exit status
and the lines or files the README promises. A command that cannot run here as written (an
installation, a camera, a server that runs until stopped, real-time pace) has its closest
runnable form and the reason beside it; a command added to the README without a step
fails the test, so none is left out silently.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import av

ROOT = Path(__file__).parents[1]
README = ROOT / "README.md"
CAROM = [sys.executable, "-m", "carom"]


@dataclass(frozen=True, slots=True)
class Step:
    """What one README command must do.

    Attributes:
        status: The exit status the README gives it (0 unless it says otherwise).
        out: Regular expressions each matching a line of its stdout or stderr.
        files: Files it writes, relative to the folder the commands run in.
        run_as: Its closest runnable form, when it cannot run here as written.
        why: Why it runs as ``run_as`` (required with it).
        truth: A bundled clip ``NAME``: the shot log it writes has the points and fouls
            of ``sample_videos/NAME.json``, shot by shot, as the README says.
        truth_of: The analysis folder holding that shot log, when it is not ``NAME``'s
            (``examples/one_shot.mp4``: the first shot of its truth).
        until: For a command that runs until stopped (the scoreboard emulator): the
            README command after which it is stopped; ``out`` is then its output.
    """

    status: int = 0
    out: tuple[str, ...] = ()
    files: tuple[str, ...] = ()
    run_as: str | None = None
    why: str = ""
    truth: str | None = None
    truth_of: str | None = None
    until: str | None = None


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
        run_as=f"carom analyze {_CLIP} --table 2100x1050 --annotate", why=_VIDEO,
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
        out=(r"^Ana\s+12\s", r"^Ben\s+9\s", r"REVIEW"), truth="hard_three_cushion"),
    "carom analyze sample_videos/seven_pins_match.mp4 --discipline pin-carom-7 --table "
    "pyramid --first A": Step(
        out=(r"340 : 250",), truth="seven_pins_match"),
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
    "carom export carom-live.db --match 1 --json log.json --csv results.csv": Step(
        out=(r"match 1 is not finished",), files=("log.json", "results.csv")),
    "carom score log.json": Step(out=_SCORES_3C),
    "carom matches carom-live.db --repair new.db": Step(
        out=(r"wrote new.db: 1 of 1 matches",), files=("new.db",)),
    # -- Web
    "carom serve --camera sample_videos/three_cushion_match.mp4": Step(
        run_as="carom serve --camera sample_videos/three_cushion_match.mp4 --port 0",
        why="it serves until stopped: started, its pages fetched, stopped with Ctrl-C "
        "(SIGINT); --port 0 as port 8765 may be taken by another test",
        out=(r"admin token: \S+", r"listening on http://127\.0\.0\.1:\d+/")),
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
        run_as=f"carom calibrate {_SAMPLE} --out table3.json", out=(r"^verdict: good",),
        files=("table3.json",),
        why="no camera here: the sample video as the source, as a camera's frames"),
    "carom calibrate examples/table.jpg --corners '223,98;1048,189;997,599;184,506' --out "
    "table.json": Step(out=(r"^verdict: good",), files=("table.json", "table_overlay.png")),
}  # fmt: skip


#: The README's Python examples, by their first line: what each prints.
PYTHON: dict[str, tuple[str, ...]] = {
    "from referee import Match, MatchConfig, Discipline, Ball, Shot, BallContact, "
    "CushionContact, Cushion": (r"^point: red then yellow after 3 cushions$",),
    "from calibration import load_calibration": (
        r"^white \[BallContact\(t_s=1\.8\d*, balls=\(<Ball\.RED",
    ),
}


def readme_steps(text: str) -> list[str]:
    """The commands of the ``sh`` blocks of ``text`` and its ``python`` blocks whole, in
    order: continuations joined, comments and blank lines left out, spaces collapsed."""
    steps = []
    for kind, block in re.findall(r"```(sh|python)\n(.*?)```", text, flags=re.S):
        if kind == "python":
            steps.append(block)
            continue
        for line in block.replace("\\\n", " ").splitlines():
            command = " ".join(re.split(r"(?:^|\s)#", line)[0].split())
            if command:
                steps.append(command)
    return steps


def readme_commands(text: str) -> list[str]:
    """The commands of the ``sh`` blocks of ``text`` in order (see :func:`readme_steps`)."""
    return [step for step in readme_steps(text) if "\n" not in step]


def _python(code: str, folder: Path) -> None:
    """Run a Python example as a user would paste it into a file; check what it prints."""
    first = code.splitlines()[0]
    assert first in PYTHON, f"a Python example without an entry in PYTHON: {first}"
    done = subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True,
                          text=True, timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, f"{first}:\n{done.stderr}"
    _said(done.stdout, PYTHON[first], first)


def _steps(command: str) -> tuple[Step, ...]:
    """The steps of a command, one per time the README writes it."""
    steps = STEPS[command]
    return steps if isinstance(steps, tuple) else (steps,)


def _argv(step: Step, command: str, tmp: Path) -> list[str]:
    words = shlex.split((step.run_as or command).format(tmp=tmp))
    assert words[0] == "carom", f"not a carom command: {command}"
    return CAROM + words[1:]


def _said(text: str, patterns: tuple[str, ...], command: str) -> None:
    for pattern in patterns:
        assert re.search(pattern, text, flags=re.M), f"{command}: no line like {pattern!r}"


def _points_and_fouls(verdicts: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    keys = ("points", "opponent_points", "penalty", "fouls")
    return [tuple(json.dumps(v[k]) for k in keys) for v in verdicts]


def _check_truth(folder: Path, name: str, analysis: str) -> None:
    """The shot log has the points and fouls of the clip's truth file, shot by shot (its
    first shots for a clip cut from a bundled one)."""
    truth = json.loads((folder / "sample_videos" / f"{name}.json").read_text())
    log = json.loads((folder / "carom-analysis" / analysis / "shots.json").read_text())
    got = _points_and_fouls([shot["verdict"] for shot in log["shots"]])
    want = _points_and_fouls(truth["verdicts"])
    assert got == (want if analysis == name else want[: len(got)]), analysis
    assert got, analysis


def _run(step: Step, command: str, folder: Path) -> None:
    done = subprocess.run(_argv(step, command, folder), cwd=folder, capture_output=True,
                          text=True, timeout=300, check=False)  # fmt: skip
    said = done.stdout + done.stderr
    assert done.returncode == step.status, f"{command}: exit {done.returncode}\n{said}"
    assert "Traceback" not in said, f"{command}:\n{said}"
    _said(said, step.out, command)
    for name in step.files:
        assert (folder / name).stat().st_size > 0, f"{command}: no {name}"
    if step.truth:
        _check_truth(folder, step.truth, step.truth_of or step.truth)


def _start(step: Step, command: str, folder: Path) -> subprocess.Popen[str]:
    """Start a command that runs until stopped; return once it says it is ready."""
    proc = subprocess.Popen(_argv(step, command, folder), cwd=folder, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)  # fmt: skip
    assert proc.stdout is not None
    first = proc.stdout.readline()
    assert "scoreboard emulator on" in first, f"{command}: {first}"
    return proc


def _stop(proc: subprocess.Popen[str], step: Step, command: str) -> None:
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=20)
    _said(out, step.out, command)


def _get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, response.read().decode()


def _serve(step: Step, command: str, folder: Path) -> None:
    """Start ``carom serve``, fetch its pages, stop it with Ctrl-C: it ends cleanly."""
    proc = subprocess.Popen(_argv(step, command, folder), cwd=folder, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)  # fmt: skip
    assert proc.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + 120
    while not (lines and "listening on" in lines[-1]) and time.monotonic() < deadline:
        lines.append(proc.stdout.readline())
        assert lines[-1] or proc.poll() is None, f"{command} ended:\n{''.join(lines)}"
    _said("".join(lines), step.out, command)
    base = re.findall(r"listening on (http://\S+/)", lines[-1])[0]
    try:
        for page in ("scoreboard", "console", "overlay", "history", "wizard"):
            status, html = _get(base + page)
            assert status == 200, page
            assert "<html" in html, page
    finally:
        proc.send_signal(signal.SIGINT)
        rest, _ = proc.communicate(timeout=30)
    assert proc.returncode in (0, 130), f"{command}: exit {proc.returncode}\n{rest}"
    assert "Traceback" not in rest, rest


def _project_copy(tmp: Path) -> Path:
    """A folder with the bundled files the README's commands name."""
    for name in ("sample_videos", "examples"):
        shutil.copytree(ROOT / name, tmp / name)
    return tmp


def test_every_readme_command_has_a_step_and_every_step_a_command() -> None:
    commands = readme_commands(README.read_text())
    for command in set(commands):
        n = commands.count(command)
        assert len(_steps(command)) == n, f"{command}: {n} times in the README"
    assert set(commands) == set(STEPS), (
        f"commands without a step: {sorted(set(commands) - set(STEPS))}; "
        f"steps of no command: {sorted(set(STEPS) - set(commands))}"
    )
    firsts = [code.splitlines()[0] for code in readme_steps(README.read_text()) if "\n" in code]
    assert sorted(firsts) == sorted(PYTHON), "PYTHON: one entry a Python example"
    for command, step in ((c, s) for c in STEPS for s in _steps(c)):
        assert (step.run_as is None) == (not step.why), f"{command}: a run_as needs a why"
        assert step.until is None or step.until in STEPS, command


def test_every_readme_command_runs_in_order(tmp_path: Path) -> None:
    folder = _project_copy(tmp_path)
    running: dict[str, tuple[subprocess.Popen[str], Step, str]] = {}
    commands = readme_steps(README.read_text())
    try:
        for i, command in enumerate(commands):
            if "\n" in command:
                _python(command, folder)
                continue
            step = _steps(command)[commands[:i].count(command)]
            if step.until:
                running[step.until] = (_start(step, command, folder), step, command)
            elif command.startswith("carom serve"):
                _serve(step, command, folder)
            else:
                _run(step, command, folder)
            if command in running:
                _stop(*running.pop(command))
    finally:
        for proc, _, _ in running.values():
            proc.kill()
            proc.communicate()


def test_readme_commands_joins_continuations_and_drops_comments() -> None:
    text = (
        "```sh\ncarom a x \\\n    --b 1   # note\n# only a comment\n\ncarom c 'p#q'\n```\n"
        "```text\ncarom not-a-command\n```\n```sh\ncarom a x --b 1\n```\n"
    )
    assert readme_commands(text) == ["carom a x --b 1", "carom c 'p#q'", "carom a x --b 1"]


def cut_clip(src: Path, dst: Path, seconds: float) -> int:
    """Copy the first ``seconds`` of ``src``'s video to ``dst`` (packets as they are, no
    re-encoding); return the number of frames. ``examples/one_shot.mp4`` is made so:
    ``cut_clip(Path("sample_videos/three_cushion_match.mp4"), Path("examples/one_shot.mp4"),
    15)``."""
    n = 0
    with av.open(str(src)) as source, av.open(str(dst), "w") as out:
        stream = source.streams.video[0]
        copy = out.add_stream_from_template(stream)
        for packet in source.demux(stream):
            if packet.dts is None or packet.pts is None:
                continue  # the demuxer's flush packet
            if packet.pts * packet.time_base >= seconds:
                break
            packet.stream = copy
            out.mux(packet)
            n += 1
    return n


def test_the_one_shot_example_is_the_first_seconds_of_the_bundled_clip(tmp_path: Path) -> None:
    """Regenerated samples leave no stale example: it is cut from the bundled clip again."""
    made = tmp_path / "one_shot.mp4"
    assert cut_clip(ROOT / "sample_videos" / "three_cushion_match.mp4", made, 15) == 448
    assert made.read_bytes() == (ROOT / _CLIP).read_bytes()

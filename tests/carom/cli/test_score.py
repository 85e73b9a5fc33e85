"""``carom score`` as a user runs it: the installed console script, real files."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from carom.match import score_document, score_file
from carom.match._read_bounded import media_kind
from carom.report import render_sheet
from hardware import Faults, ScoreboardEmulator, Snapshot, snapshot_from_state
from referee import match_stats
from tests.carom.cli._in_process import carom_in_process

ROOT = Path(__file__).parents[3]
EXAMPLE = ROOT / "examples" / "three_cushion_match.json"


def _carom_cmd() -> list[str]:
    exe = shutil.which("carom", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "carom"]


def _carom(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*_carom_cmd(), *args], capture_output=True, text=True, timeout=60,
                          env=env)  # fmt: skip


def test_score_example_prints_every_shot_and_the_result() -> None:
    out = _carom("score", str(EXAMPLE))
    assert out.returncode == 0, out.stderr
    assert "lag: Ana won" in out.stdout
    assert "equalizing inning for Ben" in out.stdout
    assert "REVIEW: balls too close to tell" in out.stdout
    assert "result: Ana wins" in out.stdout
    assert out.stderr == ""


def test_over_sets_the_table_gives_the_match_s_points_beside_the_last_set_s_board() -> None:
    """A board of 2 beside 3 innings at 1.333 reads wrong: the match's points stand too."""
    doc = json.loads(EXAMPLE.read_text())
    doc["match"].update(sets=3, target=2)
    sheet = render_sheet(score_document(doc)).splitlines()
    at = sheet.index("result: Ana wins") + 1
    assert sheet[at].split() == ["player", "score", "points", "innings", "average", "high",
                                 "run", "sets"]  # fmt: skip
    stats = match_stats(score_document(doc).match.state)
    for line in sheet[at + 1 : at + 3]:
        player, _board, points, innings, average, *_ = line.split()
        assert (int(points), int(innings), average) == (
            stats[player].points, stats[player].innings, stats[player].average)  # fmt: skip
    assert sheet[at + 1].split()[1:3] == ["2", "4"]  # Ana's last set, and the match
    single = render_sheet(score_document(json.loads(EXAMPLE.read_text()))).splitlines()
    assert "points" not in single[single.index("result: Ana wins") + 1]  # one game: the board


def test_score_json_document() -> None:
    out = _carom("score", str(EXAMPLE), "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    shots = doc["shots"]
    assert len(shots) == 14
    for shot in shots:
        assert set(shot) >= {
            "index", "player", "points", "fouls", "inning_ends", "review", "reason", "score_after",
        }  # fmt: skip
        assert isinstance(shot["fouls"], list)
    assert shots[0]["score_after"] == {"Ana": 1, "Ben": 0}
    assert shots[5]["fouls"] == ["push"]
    assert shots[7]["review"] is not None
    assert doc["winner"] == "Ana" and doc["score"] == {"Ana": 5, "Ben": 4}
    assert doc["statistics"]["Ana"]["average"] == "1.666"


def test_discipline_override_changes_the_verdicts(tmp_path: Path) -> None:
    out = _carom("score", str(EXAMPLE), "--json", "--discipline", "one-cushion")
    doc = json.loads(out.stdout)
    assert doc["discipline"] == "one-cushion"
    assert doc["shots"][2]["points"] == 1  # two cushions are enough in one-cushion


def _one_line_error(out: subprocess.CompletedProcess[str], status: int = 2) -> str:
    """The one stderr line of a failed command, after checking its exit status."""
    assert out.returncode == status, out.stderr
    assert "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    return lines[0]


def test_a_file_that_is_no_shot_log_is_named_with_its_kind() -> None:
    truth = ROOT / "sample_videos" / "three_cushion_match.json"  # beside its .shots.json
    line = _one_line_error(carom_in_process("score", str(truth)))
    assert line == (f"carom: {truth}: format: expected 'carom-shots/1', got "
                    "'carom-synth-truth/1': not a shot log")  # fmt: skip


@pytest.mark.parametrize(
    ("name", "kind"),
    [("sample_videos/three_cushion_match.mp4", "an MP4 (or MOV) video"),
     ("examples/table.jpg", "a picture")],
)  # fmt: skip
def test_a_video_given_as_a_shot_log_names_the_command_that_reads_it(name: str, kind: str) -> None:
    """It said "not UTF-8 text (0xfc at byte 43, line 1)" (found by a review as a new user)."""
    line = _one_line_error(carom_in_process("score", str(ROOT / name)))
    assert line == (f"carom: {ROOT / name}: {kind}, not a shot log; `carom analyze` referees "
                    "a video and writes its shot log (shots.json), which this reads")  # fmt: skip


def test_other_videos_and_text_are_told_apart_by_their_first_bytes(tmp_path: Path) -> None:
    heads = {"a.mkv": b"\x1a\x45\xdf\xa3" + bytes(200),
             "a.avi": b"RIFF\0\0\0\0AVI " + bytes(200), "a.ts": (b"\x47" + bytes(187)) * 2,
             "a.json": b'{"format": "carom-shots/1"}'}  # fmt: skip
    for name, head in heads.items():
        (tmp_path / name).write_bytes(head)
    kinds = {name: media_kind(tmp_path / name) for name in heads}
    assert kinds == {"a.mkv": "a Matroska (MKV or WebM) video", "a.avi": "an AVI video",
                     "a.ts": "an MPEG-TS video", "a.json": None}  # fmt: skip
    assert media_kind(tmp_path / "missing.json") is None  # the reader says it is missing


def test_malformed_log_gives_one_line_error_naming_the_field(tmp_path: Path) -> None:
    doc = json.loads(EXAMPLE.read_text())
    doc["shots"][3]["events"][1]["cushion"] = "top"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    line = _one_line_error(_carom("score", str(bad)))
    assert "shots[3].events[1].cushion" in line and "'top'" in line


def test_missing_file_and_invalid_json(tmp_path: Path) -> None:
    assert "no such file" in _one_line_error(_carom("score", str(tmp_path / "nope.json")))
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": ')
    assert "not valid JSON (line 1" in _one_line_error(_carom("score", str(broken)))
    # A batch's folder: it said "cannot read it (Is a directory)".
    line = _one_line_error(_carom("score", str(tmp_path)))
    assert line == (
        f"carom: {tmp_path}: a folder, not a shot log; give its shots.json (carom "
        "score FOLDER/shots.json), or carom stats FOLDER for a season of them"
    )


def test_a_shot_the_referee_refuses_is_named_with_the_way_out(tmp_path: Path) -> None:
    """It said only the referee's words, and no way out (docs/exit-status.md)."""
    doc = json.loads(EXAMPLE.read_text())
    doc["shots"][2]["decided_points"] = 2
    log = tmp_path / "refused.json"
    log.write_text(json.dumps(doc))
    for run in (_carom("score", str(log)), carom_in_process("score", str(log))):
        assert _one_line_error(run) == (
            f"carom: {log}: stopped: shot 2 refused: decided points: one stroke scores 1 at "
            "most in three-cushion, not 2; mend it in the log (or leave it out) and score again"
        )


def test_shot_after_match_end_keeps_what_was_judged(tmp_path: Path) -> None:
    doc = json.loads(EXAMPLE.read_text())
    extra = dict(doc["shots"][-1], index=len(doc["shots"]))
    doc["shots"].append(extra)
    log = tmp_path / "long.json"
    log.write_text(json.dumps(doc))
    out = _carom("score", str(log))
    assert "result: Ana wins" in out.stdout  # the judged shots are all printed
    why = (
        "the match was over after shot 13 (Ana wins); the shots after it are not "
        "scored; check the log's target and its last shots"
    )
    assert _one_line_error(out).endswith(f"stopped: {why}")
    # --json says the same (it spoke of an undo, which only the live console has).
    scored = _carom("score", str(log), "--json")
    assert json.loads(scored.stdout)["error"] == why


@pytest.mark.parametrize(
    ("args", "prog"),
    [(["score"], "carom score"), (["nope"], "carom"),
     (["score", "x.json", "--discipline", "pool"], "carom score"),
     (["analyze", "x.mp4", "--lang", "de"], "carom analyze"),
     (["batch", "x.mp4", "--workers", "0"], "carom batch"), (["--bogus"], "carom"),
     # An unknown option of a command is the command's error ("carom --help" listed
     # the commands, not its options); one before the command stays carom's.
     (["analyze", "x.mp4", "--bogus"], "carom analyze"), (["--bogus", "score", "x"], "carom")],
)  # fmt: skip
def test_bad_arguments_are_one_line_naming_the_way_to_the_usage(args: list[str], prog: str) -> None:
    """argparse's refusals too: one line, not its usage block first (status 2)."""
    out = carom_in_process(*args)
    assert out.returncode == 2 and out.stdout == ""
    assert len(out.stderr.splitlines()) == 1, out.stderr
    assert out.stderr.startswith(f"{prog}: error: ")
    assert out.stderr.endswith(f"; `{prog} --help` lists the options\n")


def test_several_logs_add_the_standings(tmp_path: Path) -> None:
    doc = json.loads(EXAMPLE.read_text())
    doc["match"]["players"] = ["Ana", "Cleo"]
    doc["match"]["cue_balls"] = {"Ana": "white", "Cleo": "yellow"}
    second = tmp_path / "second.json"
    second.write_text(json.dumps(doc))
    out = _carom("score", str(EXAMPLE), str(second), "--json")
    assert out.returncode == 0, out.stderr
    table = json.loads(out.stdout)["standings"]
    assert table[0]["player"] == "Ana"
    assert table[0]["match_points"] == 4 and table[0]["general_average"] == "1.666"
    text = _carom("score", str(EXAMPLE), str(second)).stdout
    assert "standings (match points, then general average" in text


THREE = ROOT / "examples" / "three_players_match.json"


def test_three_players_sheet_shows_the_order_the_draw_and_every_player() -> None:
    out = _carom("score", str(THREE))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "three-cushion: Ana vs Ben vs Cleo"
    assert "Ana reached the target: equalizing inning for Ben, Cleo" in out.stdout
    assert "   9  Cleo            2  0            3 : 3 : 0 " in out.stdout
    assert "result: draw between Ana, Ben" in lines
    rows = [line.split() for line in lines if line.split()[:1] in (["Ana"], ["Ben"], ["Cleo"])]
    assert rows[-3:] == [
        ["Ana", "3", "2", "1.500", "2", "0"],
        ["Ben", "3", "2", "1.500", "2", "0"],
        ["Cleo", "0", "2", "0.000", "0", "0"],
    ]


def test_three_players_json_and_standings_share_the_draw() -> None:
    out = _carom("score", str(THREE), str(THREE), "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    match = doc["matches"][0]
    assert match["players"] == ["Ana", "Ben", "Cleo"]
    assert match["draw"] is True and match["tied"] == ["Ana", "Ben"]
    assert match["score"] == {"Ana": 3, "Ben": 3, "Cleo": 0}
    assert [s["player"] for s in match["shots"]] == [
        "Ana", "Ana", "Ben", "Ben", "Ben", "Cleo", "Ana", "Ana", "Ben", "Cleo",
    ]  # fmt: skip
    points = {p: s["match_points"] for p, s in match["statistics"].items()}
    assert points == {"Ana": 1, "Ben": 1, "Cleo": 0}
    table = {row["player"]: row["match_points"] for row in doc["standings"]}
    assert table == {"Ana": 2, "Ben": 2, "Cleo": 0}


# --- --scoreboard: the board ends right, or the user is told (status 6) -----------------

UNCONFIRMED = "carom: scoreboard: the board never confirmed the final state"


def _waiting_line(url: str, final: str, more_s: str) -> str:
    """What the command says when the board has not confirmed the end after a second."""
    return (f"scoreboard: the board at {url} has not confirmed the final state ({final}) "
            f"yet; sending it again for up to {more_s} s more")  # fmt: skip


def _final_snapshot() -> Snapshot:
    """What the board must show at the end of the example (as the replay publishes it)."""
    match = score_file(EXAMPLE).match
    return snapshot_from_state(match.state, review=match.records[-1].verdict.review is not None)


@pytest.fixture
def board() -> Iterator[list[ScoreboardEmulator]]:
    made: list[ScoreboardEmulator] = []
    yield made
    for emu in made:
        emu.stop()


@pytest.mark.realtime  # the link's timeouts and retries run on the wall clock
@pytest.mark.parametrize(
    "faults",
    [
        Faults(drop=0.01, seed=1),
        Faults(drop=0.02, seed=2),
        Faults(drop=0.05, seed=3),
        Faults(drop=0.10, seed=4),
        Faults(corrupt=0.02, seed=5),
        Faults(corrupt=0.05, seed=6),
        Faults(drop=0.05, corrupt=0.05, seed=7),
    ],
    ids=lambda f: f"drop{f.drop:g}-corrupt{f.corrupt:g}",
)
def test_a_noisy_serial_line_ends_with_the_right_board_or_says_so(
    faults: Faults, board: list[ScoreboardEmulator]
) -> None:
    emu = ScoreboardEmulator.open_pty(faults=faults)  # a real pty; the faults on its input
    board.append(emu)
    out = carom_in_process("score", str(EXAMPLE), "--scoreboard", emu.url,
                           "--scoreboard-delay", "0", "--scoreboard-confirm", "2")  # fmt: skip
    assert "result: Ana wins" in out.stdout  # the scoresheet is printed either way
    # Not confirmed after a second: one line says the command waits (up to 1 s more).
    waiting = f"carom score: {_waiting_line(emu.url, 'Ana 5 : 4 Ben, over', '1')}"
    lines = out.stderr.splitlines()
    said, rest = lines[:1] == [waiting], lines[1:] if lines[:1] == [waiting] else lines
    if out.returncode == 0:  # never 0 with a wrong board
        assert emu.snapshot == _final_snapshot(), out.stderr
        assert rest == []
    else:
        assert out.returncode == 6 and said, out.stderr
        assert len(rest) == 1 and rest[0].startswith(UNCONFIRMED), out.stderr
        assert "the final state is Ana 5 : 4 Ben, over" in rest[0]
    if faults.drop <= 0.01 and faults.corrupt == 0:  # half the frames pass: always there
        assert out.returncode == 0


def test_a_board_at_another_bus_address_is_reached_with_scoreboard_addr(
    board: list[ScoreboardEmulator],
) -> None:
    """Boards on RS-485 have an address (DIP switches); score and live spoke only to 00."""
    emu = ScoreboardEmulator.open_pty(addr=5)
    board.append(emu)
    out = _carom("score", str(EXAMPLE), "--scoreboard", emu.url, "--scoreboard-delay", "0",
                 "--scoreboard-addr", "0x05", "--scoreboard-confirm", "5")  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert emu.snapshot == _final_snapshot()
    out = _carom("score", str(EXAMPLE), "--scoreboard", emu.url, "--scoreboard-delay", "0",
                 "--scoreboard-addr", "255")  # fmt: skip
    assert out.returncode == 2 and "0xFF is the broadcast address" in out.stderr


@pytest.mark.realtime  # the link writes on its own thread, read as it comes
def test_a_one_way_text_board_gets_a_line_a_snapshot_with_scoreboard_dialect_text() -> None:
    """The simplest boards take the one-line text dialect (docs/scoreboard-protocol.md);
    the library spoke it but no command could choose it (found by a new installer)."""
    import os
    import select
    import time

    master, slave = os.openpty()
    try:
        proc = subprocess.Popen(
            [*_carom_cmd(), "score", str(EXAMPLE), "--scoreboard", os.ttyname(slave),
             "--scoreboard-dialect", "text", "--scoreboard-delay", "0",
             "--scoreboard-confirm", "2"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        got, end = b"", time.monotonic() + 60
        while (proc.poll() is None or select.select([master], [], [], 0.2)[0]) and (
            time.monotonic() < end
        ):
            if select.select([master], [], [], 0.05)[0]:
                got += os.read(master, 4096)
        out, err = proc.communicate(timeout=30)
    finally:
        os.close(master)
        os.close(slave)
    assert proc.returncode == 0, err
    assert "result: Ana wins" in out and err == ""  # one-way: what was written counts
    # The link writes the newest snapshot (with no delay between shots some are passed
    # over), and the final state again until the end.
    lines = [line for line in got.decode("ascii").split("\r\n") if line]
    assert lines and lines[-1] == ">Ana 5 : 4 Ben  R0  I3  END", lines
    board = re.compile(r">?Ana \d+ : \d+ >?Ben  R\d+  I\d+(  [A-Z]+)*")
    assert all(board.fullmatch(line) for line in lines), lines


def test_a_deaf_board_ends_the_command_with_status_6_after_the_scoresheet(
    board: list[ScoreboardEmulator], tmp_path: Path
) -> None:
    emu = ScoreboardEmulator.open_pty(faults=Faults(drop=1.0))  # hears nothing, never acks
    board.append(emu)
    log = tmp_path / "carom.log"
    out = _carom("--log-file", str(log), "score", str(EXAMPLE), "--scoreboard", emu.url,
                 "--scoreboard-delay", "0", "--scoreboard-confirm", "1.5")  # fmt: skip
    assert out.returncode == 6 and "Traceback" not in out.stderr
    waiting, line = out.stderr.strip().splitlines()  # each printed once, though logged too
    assert waiting == f"carom score: {_waiting_line(emu.url, 'Ana 5 : 4 Ben, over', '0.5')}"
    assert line.removeprefix("carom: ") in log.read_text(encoding="utf-8")
    assert waiting.removeprefix("carom score: ") in log.read_text(encoding="utf-8")
    assert line.startswith(UNCONFIRMED + " within 1.5 s (it acknowledged no state;")
    assert line.endswith(f"check the cable and the board at {emu.url} and its bus address (0: "
                         "--scoreboard-addr) (the result printed is the right one)")  # fmt: skip
    assert "result: Ana wins" in out.stdout
    assert emu.snapshot is None


@pytest.mark.parametrize("value", ["-1", "nan", "inf", "lots", "601"])
def test_nonsense_confirm_time_is_a_usage_error(value: str) -> None:
    out = carom_in_process("score", str(EXAMPLE), "--scoreboard-confirm", value)
    assert out.returncode == 2 and "--scoreboard-confirm" in out.stderr
    assert "seconds from 0 to 600" in out.stderr


def test_a_match_over_before_the_log_ends_says_what_the_command_line_can_do() -> None:
    done = carom_in_process("score", str(EXAMPLE), "--discipline", "one-cushion")
    assert done.returncode == 2
    assert done.stderr == (
        f"carom: {EXAMPLE}: stopped: the match was over after shot 8 (Ana wins); the log's "
        "later shots are not scored under one-cushion; leave out --discipline to score the "
        "log under its own rules\n"
    )
    assert "undo" not in done.stderr  # the command line has none
    assert "result: Ana wins" in done.stdout  # the sheet up to the end is printed


def test_standings_of_unfinished_logs_say_why_and_show_the_figures_so_far() -> None:
    samples = ROOT / "sample_videos"
    logs = [samples / "three_cushion_match.shots.json", samples / "hard_three_cushion.shots.json"]
    done = carom_in_process("score", *map(str, logs))
    assert done.returncode == 0, done.stderr
    tail = done.stdout.split("result: in progress")[-1].splitlines()
    at = tail.index(f"standings count finished matches only; not finished: {logs[0]}, {logs[1]}")
    assert tail[at + 1] == "provisional figures so far (no match points until a match ends):"
    rows = [line.split() for line in tail[at + 3 :]]
    # B: 2 points in each log's one inning (GA 2.000); A: 1 point in 2 innings
    assert rows == [["1", "B", "-", "2", "2.000", "2.000", "2"],
                    ["2", "A", "-", "2", "0.500", "1.000", "1"]]  # fmt: skip


def test_standings_name_the_unfinished_logs_they_leave_out() -> None:
    unfinished = ROOT / "sample_videos" / "three_cushion_match.shots.json"
    done = carom_in_process("score", str(EXAMPLE), str(unfinished))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == f"standings count finished matches only; not finished: {unfinished}"
    assert [line.split()[1] for line in lines[-3:-1]] == ["Ana", "Ben"]  # the finished match


def test_long_player_names_keep_the_sheet_s_columns_in_line(tmp_path: Path) -> None:
    text = (
        EXAMPLE.read_text().replace('"Ana"', '"Dick Jaspers"').replace('"Ben"', '"Marco Zanetti"')
    )
    log = tmp_path / "long.json"
    log.write_text(text)
    done = carom_in_process("score", str(log))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    (head,) = [line for line in lines if line.startswith("shot  player")]
    inning = head.index("inning")
    shots = [line for line in lines if re.match(r"^ +\d+  \S", line)]
    assert len(shots) >= 5 and all(s[inning : inning + 6].strip().isdigit() for s in shots)
    (table,) = [line for line in lines if line.startswith("player ") and "innings" in line]
    score = table.index("score")
    rows = [line for line in lines if line.startswith(("Dick Jaspers ", "Marco Zanetti "))]
    assert len(rows) == 2 and all(r[score : score + 5].strip().isdigit() for r in rows)

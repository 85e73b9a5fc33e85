"""``carom serve`` and ``carom live --serve`` as a person runs them: real processes, sockets."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
from pathlib import Path

import httpx2
import pytest
from fastapi.testclient import TestClient

from carom.cli import main
from carom.web import WebSettings, create_app
from tests.carom.live._helpers import carom_cmd, write_truth_calibration
from tests.carom.web._web import SseClient
from tests.carom.web.test_camera import first_seconds

_URL = re.compile(r"(?:listening|serving) on (http://[0-9.]+:\d+)/")


def _start(*args: str, env: dict[str, str] | None = None) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen([*carom_cmd(), *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)  # fmt: skip
    assert proc.stderr is not None
    deadline = time.monotonic() + 60
    lines = []
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        lines.append(line)
        if m := _URL.search(line):
            proc.lines = lines  # type: ignore[attr-defined]
            return proc, m.group(1)
    proc.kill()
    raise AssertionError("no URL printed: " + "".join(lines) + proc.stderr.read())


def _stop(proc: subprocess.Popen[str], sig: signal.Signals = signal.SIGINT) -> tuple[int, str]:
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    return proc.returncode, "".join(proc.lines) + err  # type: ignore[attr-defined]


def test_serve_makes_a_token_once_and_refuses_requests_without_it(tmp_path: Path) -> None:
    db, token_file = tmp_path / "web.db", tmp_path / "token"
    env = {k: v for k, v in os.environ.items() if k != "CAROM_TOKEN"}
    proc, url = _start("serve", "--db", str(db), "--port", "0", "--token-file", str(token_file),
                       env=env)  # fmt: skip
    try:
        assert url.startswith("http://127.0.0.1:")  # loopback unless told otherwise
        token = token_file.read_text().strip()
        assert token_file.stat().st_mode & 0o777 == 0o600
        assert httpx2.get(url + "/api/health").json()["status"] == "ok"
        rebound = httpx2.get(url + "/api/state", headers={"Host": "evil.example"})
        assert rebound.status_code == 400  # a loopback server answers its own names only
        body = {"players": ["Ann", "Bob"]}
        r = httpx2.post(url + "/api/matches", json=body)
        assert r.status_code == 401 and "token" in r.json()["detail"]
        r = httpx2.post(
            url + "/api/matches", json=body, headers={"Authorization": f"Bearer {token}"}
        )
        assert r.status_code == 201
    finally:
        code, err = _stop(proc)
    assert code == 0, err
    assert err.count(token) == 1 and "Traceback" not in err
    assert token.encode() not in db.read_bytes()  # stored hashed only
    said: list[str] = []
    app = create_app(WebSettings(db=db), say=said.append)  # started again: the same token
    with TestClient(app) as c:
        r = c.post("/api/matches", json=body, headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 201 and r.json()["match"]["id"] == 1  # the match resumes
    # no new token was made or shown: where it is and how to make a new one (it said
    # nothing of it; found by a review as a new user), and the match left unfinished
    assert [s[:28] for s in said] == [
        "admin token: the one shown a",
        "match 1 (Ann - Bob, begun 20",
    ]
    assert said[0].endswith("lost it? carom serve --new-token makes a new one)")
    # A restarted service asked for a token file is told why none is written (it said
    # nothing, and the file stayed as it was) (found by a review as a club operator).
    said.clear()
    again = tmp_path / "token-again"
    with TestClient(create_app(WebSettings(db=db, token_file=again), say=said.append)):
        pass
    assert not again.exists()
    told = f"--token-file {again}: not written: the database keeps an admin token made before"
    assert any(s.startswith(told) and "--new-token" in s for s in said), said


def test_bad_options_are_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        cases = {
            "cannot listen": ["serve", "--db", str(tmp_path / "a.db"), "--port", str(port)],
            "is a folder": ["serve", "--db", str(tmp_path), "--port", "0"],
            "needs --camera": ["serve", "--db", str(tmp_path / "b.db"), "--calibration", "x.json"],
            "--drift-every -5.0: use 0": [
                "serve",
                "--db",
                str(tmp_path / "c.db"),
                "--drift-every",
                "-5",
            ],
            "--token-file /proc/t: not writable": [
                "serve",
                "--db",
                str(tmp_path / "d.db"),
                "--token-file",
                "/proc/t",
                "--port",
                "0",
            ],
            "--token-file": [
                "serve",
                "--db",
                str(tmp_path / "e.db"),
                "--token-file",
                str(tmp_path),
                "--port",
                "0",
            ],
        }
        for words, args in cases.items():
            assert main(args) == 2
            err = capsys.readouterr().err
            assert words in err and len(err.strip().splitlines()) == 1, err
    # Refused before a token was made and kept in a database nobody has the token of.
    assert not any((tmp_path / f"{n}.db").exists() for n in "cde")


def test_live_serve_shows_the_match_carom_live_referees(tmp_path: Path) -> None:
    clip = first_seconds(tmp_path / "clip.mp4", end_s=1.4)  # before the first stroke
    calibration = write_truth_calibration(tmp_path / "calibration.json")
    env = os.environ | {"CAROM_TOKEN": "live-serve-token-0123456789"}
    auth = {"Authorization": f"Bearer {env['CAROM_TOKEN']}"}
    proc, url = _start("live", "--camera", str(clip), "--calibration", str(calibration),
                       "--players", "A", "B", "--first", "A", "--db", str(tmp_path / "live.db"),
                       "--pace", "0.5", "--serve", "--port", "0", env=env)  # fmt: skip
    docs = []
    sse = SseClient(url, timeout_s=60)
    try:
        # Every page the line names is served (it named the console and the overlay only).
        named = re.findall(r"\w+ (/\w+)", proc.lines[-1])  # type: ignore[attr-defined]
        assert named == ["/scoreboard", "/overlay", "/console", "/history"]
        assert all(httpx2.get(url + page).status_code == 200 for page in named)
        docs.append(sse.next()[1])
        r = httpx2.post(url + "/api/matches", json={"players": ["C", "D"]}, headers=auth)
        assert r.status_code == 409 and "carom live" in r.json()["detail"]
        r = httpx2.get(url + "/api/calibration")  # the wizard: live calibrates, not this page
        assert r.status_code == 409 and r.json()["detail_parts"] == {
            "key": "wizard_live", "fields": {"camera": str(clip)}}  # fmt: skip
        r = httpx2.post(url + "/api/calls", json={"kind": "timeout"}, headers=auth, timeout=30)
        assert r.status_code == 200, r.text  # taken by carom live's loop
        try:
            while True:
                docs.append(sse.next()[1])
        except (EOFError, OSError):
            pass  # carom live ended with the video: the server stopped
    finally:
        sse.close()
        proc.communicate(timeout=60)
    assert proc.returncode == 0
    assert docs[0]["match"]["players"][0]["name"] == "A"
    assert docs[-1]["match"]["players"][0]["timeouts"] == 1


def test_a_review_left_at_the_video_s_end_waits_for_the_console_with_the_keyboard_closed(
    tmp_path: Path,
) -> None:
    """Under a service manager stdin is closed: the shot cut off by the video's end waits
    for the web console's decision instead of being dropped (the run ended with status 0
    and the review undecided, without a word)."""
    clip = first_seconds(tmp_path / "clip.mp4", end_s=5.0)  # in the middle of the first shot
    calibration = write_truth_calibration(tmp_path / "calibration.json")
    env = os.environ | {"CAROM_TOKEN": "live-serve-token-0123456789"}
    auth = {"Authorization": f"Bearer {env['CAROM_TOKEN']}"}
    proc, url = _start("live", "--camera", str(clip), "--calibration", str(calibration),
                       "--players", "A", "B", "--first", "A", "--db", str(tmp_path / "live.db"),
                       "--pace", "0", "--shot-clock", "0", "--serve", "--port", "0",
                       env=env)  # fmt: skip
    try:
        assert proc.stderr is not None
        for line in proc.stderr:
            proc.lines.append(line)  # type: ignore[attr-defined]
            if "waits for review" in line:
                break
        assert line.strip() == ("carom live: the video ended; shot 0 waits for review: decide "
                                "it at the keyboard or in the web console")  # fmt: skip
        r = httpx2.post(url + "/api/calls", json={"kind": "decision", "decision": "reject"},
                        headers=auth, timeout=30)  # fmt: skip
        assert r.status_code == 200, r.text
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert out.splitlines()[0] == "REVIEW: the video ended before every ball stopped"
    assert out.splitlines()[1].startswith("shot 0  A  0  ")  # decided: judged, then the result
    assert "nobody can decide it" not in err


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_ctrl_c_or_a_service_manager_s_stop_ends_serve_cleanly_with_status_0(
    tmp_path: Path, sig: signal.Signals
) -> None:
    """Its normal end (docs/exit-status.md): SIGTERM died of the signal (143) before."""
    proc, url = _start("serve", "--db", str(tmp_path / "web.db"), "--port", "0")
    assert httpx2.get(url + "/api/health").json()["status"] == "ok"
    code, err = _stop(proc, sig)
    assert code == 0, err
    assert err.strip().splitlines()[-1] == "carom serve: stopped"


def test_a_camera_whose_table_is_not_found_gets_this_server_s_wizard(tmp_path: Path) -> None:
    """The fit fails: the server starts anyway and says, once, why and where its own
    wizard is (not "carom serve --camera ..." again, nor a --calibration to pass)."""
    from tests.carom.cli._no_table import floor, write_clip

    clip = write_clip(tmp_path / "floor.mp4", floor(), seconds=1.0)
    db = tmp_path / "web.db"
    proc, url = _start("serve", "--camera", str(clip), "--db", str(db), "--port", "0")
    code, err = _stop(proc)
    assert code == 0, err
    (line,) = [x for x in err.splitlines() if "calibration failed" in x]
    saved = db.parent / "web-calibration" / "camera-floor.mp4.json"
    assert line.startswith(f"carom serve: {clip}: calibration failed: no table found")
    assert line.endswith(
        f"; mark the table's corners in this server's wizard, {url}/wizard: it saves them "
        f"to {saved}, and a match can start once they are saved"
    ), line
    assert "carom serve --camera" not in line and "--calibration" not in line


def test_an_address_this_machine_does_not_have_is_said_with_host_as_the_way_out(
    tmp_path: Path,
) -> None:
    """It said to pass another --port or stop the program using it: neither helps."""
    done = subprocess.run([*carom_cmd(), "serve", "--host", "192.0.2.1", "--port", "0",
                           "--db", str(tmp_path / "web.db")],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == (
        "carom: cannot listen on 192.0.2.1:0 (Cannot assign requested address); no network "
        "interface of this machine has that address: pass one it has with --host (0.0.0.0: "
        "all of them, 127.0.0.1: this machine only)"
    )
    assert list(tmp_path.iterdir()) == []  # no database made


def test_live_serve_on_a_port_in_use_fails_before_any_work(tmp_path: Path) -> None:
    """One line and status 2 before the calibration is fitted or a match is made."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([*carom_cmd(), "live", "--camera", str(first_seconds(
            tmp_path / "clip.mp4", end_s=1.0)), "--players", "A,B", "--db",
            str(tmp_path / "live.db"), "--serve", "--port", str(port)],
            capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == (
        f"carom: cannot listen on 127.0.0.1:{port} (Address already in use); pass another "
        "--port or stop the program using it"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["clip.mp4"]  # no database, no fit


def test_a_stop_the_moment_the_address_is_said_is_the_normal_end(tmp_path: Path) -> None:
    """A watcher that stops serve as soon as it says where it listens (a script, a test)
    got status 130 and "carom: interrupted" most times (the signal came before the
    server's own handling); three stops in a row, each a clean end."""
    for i in range(3):
        proc, _url = _start("serve", "--db", str(tmp_path / f"web{i}.db"), "--port", "0")
        code, err = _stop(proc)
        assert code == 0, err
        assert err.rstrip().endswith("carom serve: stopped"), err

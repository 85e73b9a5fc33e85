"""Running the README's commands for tests/readme_steps.py: what a step promises,
the blocks in order, one command run and checked, a command that runs until stopped, the
server's pages, a Python example, and the bundled clips cut and streamed as a camera."""

from __future__ import annotations

import contextlib
import http.server
import json
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import av
import cv2

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
        camera: ``run_as`` reads ``{camera}``: a stream URL serving a bundled clip as
            an IP camera does (MJPEG over HTTP, at the clip's pace), instead of a device.
    """

    status: int = 0
    out: tuple[str, ...] = ()
    files: tuple[str, ...] = ()
    run_as: str | None = None
    why: str = ""
    truth: str | None = None
    truth_of: str | None = None
    until: str | None = None
    camera: bool = False


def readme_sections(text: str) -> list[tuple[str, str]]:
    """Each step of :func:`readme_steps` with the ``##`` heading it is under."""
    found = []
    for part in re.split(r"(?m)^(?=## )", text):
        heading = part.splitlines()[0].removeprefix("## ") if part.startswith("## ") else ""
        found += [(heading, step) for step in _steps_in(part)]
    return found


def _steps_in(text: str) -> list[str]:
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


def readme_steps(text: str) -> list[str]:
    """The commands of the ``sh`` blocks of ``text`` and its ``python`` blocks whole, in
    order: continuations joined, comments and blank lines left out, spaces collapsed."""
    return [step for _, step in readme_sections(text)]


def readme_commands(text: str) -> list[str]:
    """The commands of the ``sh`` blocks of ``text`` in order (see :func:`readme_steps`)."""
    return [step for step in readme_steps(text) if "\n" not in step]


def run_python(code: str, folder: Path, prints: dict[str, tuple[str, ...]]) -> None:
    """Run a Python example as a user would paste it into a file; check what it prints."""
    first = code.splitlines()[0]
    assert first in prints, f"a Python example without an entry in PYTHON: {first}"
    done = subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True,
                          text=True, timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, f"{first}:\n{done.stderr}"
    said(done.stdout, prints[first], first)


def argv_of(step: Step, command: str, tmp: Path, camera: str = "") -> list[str]:
    """The command's words, as ``run_as`` gives them with this run's folder and camera."""
    words = shlex.split((step.run_as or command).format(tmp=tmp, camera=camera))
    assert words[0] == "carom", f"not a carom command: {command}"
    return CAROM + words[1:]


def said(text: str, patterns: tuple[str, ...], command: str) -> None:
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


def run_command(step: Step, command: str, folder: Path, camera: str = "") -> None:
    """Run one command; check its exit status, its lines, its files and its verdicts."""
    done = subprocess.run(argv_of(step, command, folder, camera), cwd=folder, capture_output=True,
                          text=True, timeout=900, check=False)  # fmt: skip
    text = done.stdout + done.stderr
    assert done.returncode == step.status, f"{command}: exit {done.returncode}\n{text}"
    assert "Traceback" not in text, f"{command}:\n{text}"
    said(text, step.out, command)
    for name in step.files:
        assert (folder / name).stat().st_size > 0, f"{command}: no {name}"
    if step.truth:
        _check_truth(folder, step.truth, step.truth_of or step.truth)


def ctrl_c_default() -> None:
    """In the child: Ctrl-C (SIGINT) as a terminal gives it.

    A shell's background job, and so everything it starts, ignores SIGINT, and Python
    keeps an inherited SIG_IGN: without this the command under test would not stop.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_background(step: Step, command: str, folder: Path) -> subprocess.Popen[str]:
    """Start a command that runs until stopped; return once it says it is ready."""
    proc = subprocess.Popen(argv_of(step, command, folder), cwd=folder, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            preexec_fn=ctrl_c_default)  # fmt: skip
    assert proc.stdout is not None
    first = proc.stdout.readline()
    assert "scoreboard emulator on" in first, f"{command}: {first}"
    return proc


def stop_background(proc: subprocess.Popen[str], step: Step, command: str) -> None:
    proc.send_signal(signal.SIGINT)
    try:
        out, _ = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()  # never left running for the next test to trip over
        proc.communicate()
        raise AssertionError(f"{command}: still running 60 s after Ctrl-C") from None
    said(out, step.out, command)


def _get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, response.read().decode()


def serve_and_fetch(step: Step, command: str, folder: Path) -> None:
    """Start ``carom serve``, fetch its pages, stop it with Ctrl-C: it ends cleanly."""
    proc = subprocess.Popen(argv_of(step, command, folder), cwd=folder, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            preexec_fn=ctrl_c_default)  # fmt: skip
    assert proc.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + 120
    while not (lines and "listening on" in lines[-1]) and time.monotonic() < deadline:
        lines.append(proc.stdout.readline())
        assert lines[-1] or proc.poll() is None, f"{command} ended:\n{''.join(lines)}"
    said("".join(lines), step.out, command)
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


def _mjpeg_handler(video: Path) -> type[http.server.BaseHTTPRequestHandler]:
    class Stream(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
            self.end_headers()
            capture = cv2.VideoCapture(str(video))
            fps = capture.get(cv2.CAP_PROP_FPS)
            try:
                ok, image = capture.read()
                while ok:
                    jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1]
                    head = f"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: {jpeg.size}"
                    self.wfile.write(head.encode() + b"\r\n\r\n" + jpeg.tobytes() + b"\r\n")
                    time.sleep(1.0 / fps)
                    ok, image = capture.read()
            except OSError:
                return  # the reader hung up
            finally:
                capture.release()

        def log_message(self, format: str, *args: object) -> None:
            """Quiet: the test's output is its own."""

    return Stream


@contextlib.contextmanager
def stream_camera(video: Path) -> Iterator[str]:
    """Serve ``video``'s frames as an IP camera does, on 127.0.0.1; yield the stream's URL."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _mjpeg_handler(video))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/stream.mjpg"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()

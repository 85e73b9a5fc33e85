"""Real-browser tests of the pages: Debian's Chromium driven by Playwright, the real server.

The server is the real ``carom serve`` in a subprocess on a free port (one per module);
the browser is one Chromium for the session with a fresh user-data-dir (each server has
its own origin, so its own localStorage). Every test leaves
screenshots in ``test-artifacts/web/``.

Chromium comes from Debian (``apt-get install -y chromium``), never from
``playwright install``: if it (or the Playwright package) is missing the tests fail
with a one-line message naming the fix, they are not skipped.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page

#: Debian's chromium; CAROM_CHROMIUM points elsewhere (another distribution's path).
CHROMIUM = Path(os.environ.get("CAROM_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
REPO = Path(__file__).parents[4]
SAMPLES = REPO / "sample_videos"
ARTIFACTS = REPO / "test-artifacts" / "web"
TOKEN = "browser-test-token-0123456789"


def _missing() -> str | None:
    """Why the browser cannot run (one line with the fix), or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return (
            "Playwright's Python package is missing: `.venv/bin/pip install playwright` "
            "(never `playwright install`: Debian's chromium is used)"
        )
    if not CHROMIUM.exists():
        return (
            f"{CHROMIUM} is missing: install it with `apt-get install -y chromium` "
            "(the project's test command does)"
        )
    return None


#: Checked once at import: every browser test fails with this one line when set.
MISSING = _missing()


def carom_cmd() -> list[str]:
    """How to run the ``carom`` command of this environment."""
    exe = shutil.which("carom", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "carom"]


@dataclass
class Server:
    """A running ``carom serve``: its URL, token, files and process."""

    url: str
    token: str
    db: Path
    calibration: Path | None
    proc: subprocess.Popen[str]
    log: Path
    extra: dict[str, Any] = field(default_factory=dict)

    def get(self, path: str) -> Any:
        """GET ``path`` as JSON."""
        with urllib.request.urlopen(self.url + path, timeout=10) as resp:
            return json.loads(resp.read())

    def post(self, path: str, body: object | None = None) -> Any:
        """POST ``path`` with the token; the JSON answer."""
        data = json.dumps(body).encode() if body is not None else b""
        headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
        req = urllib.request.Request(self.url + path, data=data, method="POST", headers=headers)
        with urllib.request.urlopen(req, timeout=10) as resp:
            return json.loads(resp.read())

    def wait_state(self, check: Any, timeout_s: float, what: str) -> dict[str, Any]:
        """Poll ``/api/state`` until ``check(state)``; fail naming ``what`` otherwise."""
        end = time.monotonic() + timeout_s
        state: dict[str, Any] = {}
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                pytest.fail(
                    f"carom serve ended ({self.proc.returncode}): {self.tail()}", pytrace=False
                )
            state = self.get("/api/state")
            if check(state):
                return state
            time.sleep(0.1)
        pytest.fail(
            f"{what}: not seen in {timeout_s:.0f} s; last state {json.dumps(state)[:600]}; "
            f"server: {self.tail()}"
        )

    def tail(self) -> str:
        """The end of the server's output (for failure messages)."""
        return (
            self.log.read_text(encoding="utf-8", errors="replace")[-1500:]
            if self.log.exists()
            else ""
        )

    def stop(self) -> None:
        """Ctrl-C the server; kill it if it does not stop."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def start_server(work: Path, *args: str, calibration: Path | None = None) -> Server:
    """``carom serve --port 0`` with a preset token; returns once it answers.

    The server picks a free port itself and prints its URL ("listening on http://...")
    on stderr, read here from its log: no race for a port with other processes.
    """
    db, log = work / "carom.db", work / "serve.log"
    cmd = [*carom_cmd(), "serve", "--db", str(db), "--host", "127.0.0.1", "--port", "0",
           "--token-file", str(work / "token"), *args]  # fmt: skip
    if calibration is not None:
        cmd += ["--calibration", str(calibration)]
    env = dict(os.environ, CAROM_TOKEN=TOKEN)
    with log.open("w", encoding="utf-8") as out:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                text=True, env=env, cwd=REPO)  # fmt: skip
    server = Server("", TOKEN, db, calibration, proc, log)
    end = time.monotonic() + 30
    while time.monotonic() < end:
        if proc.poll() is not None:
            pytest.fail(
                f"carom serve did not start ({proc.returncode}): {server.tail()}", pytrace=False
            )
        found = _LISTENING.search(server.tail()) if not server.url else None
        if found:
            server.url = found.group(1)
        try:
            if server.url:
                server.get("/api/health")
                return server
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.1)
    server.stop()
    pytest.fail(f"carom serve did not answer in 30 s: {server.tail()}", pytrace=False)


class _Stoppable(Protocol):
    def stop(self) -> None: ...


_S = TypeVar("_S", bound=_Stoppable)


def stopped_after(server: _S) -> Iterator[_S]:
    """A module fixture's body: ``yield from stopped_after(server)`` stops it after."""
    try:
        yield server
    finally:
        server.stop()


_LISTENING = re.compile(r"listening on (http://[\w.:\[\]-]+?)/?[\s(]")


@pytest.fixture(scope="session")
def context(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrowserContext]:
    """One Chromium for the session (fresh profile); each server is its own origin."""
    if MISSING:
        pytest.fail(MISSING, pytrace=False)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=str(CHROMIUM),
            headless=True, args=CHROMIUM_ARGS, viewport={"width": 1280, "height": 800})  # fmt: skip
        ctx.set_default_timeout(15_000)
        try:
            yield ctx
        finally:
            ctx.close()


@dataclass
class Pages:
    """Opens pages that record uncaught script errors and CSP refusals; tests assert none."""

    context: BrowserContext
    base: str
    errors: list[str] = field(default_factory=list)

    def open(self, path: str, size: tuple[int, int] | None = None) -> Page:
        """A new tab on ``path`` (``size``: its viewport in CSS px, else 1280x800)."""
        page = self.context.new_page()
        if size is not None:
            page.set_viewport_size({"width": size[0], "height": size[1]})
        page.on("pageerror", lambda exc: self.errors.append(f"{path}: {exc}"))
        page.on("console", lambda msg: self._csp(path, msg.type, msg.text))
        page.goto(self.base + path)
        return page

    def _csp(self, path: str, kind: str, text: str) -> None:
        """A Content-Security-Policy refusal (logged as a console error) is an error too."""
        if kind == "error" and "Content Security Policy" in text:
            self.errors.append(f"{path}: {text}")


@pytest.fixture(autouse=True)
def _no_script_errors(pages: Pages) -> Iterator[None]:
    """Every test also checks that no page threw an uncaught script error.

    Each module provides ``pages`` (its server's pages).
    """
    yield
    errors, pages.errors[:] = list(pages.errors), []
    assert not errors, f"script errors in the pages: {errors}"


def shot(page: Page, name: str, **kwargs: Any) -> Path:
    """Save a screenshot of ``page`` as ``test-artifacts/web/NAME.png``."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), **kwargs)
    return path

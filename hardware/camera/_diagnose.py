"""Why a camera did not open: what was tried, and what to check, in one line.

OpenCV says only that a capture is not open. :func:`explain_camera` looks further,
without opening the camera a second time:

* a device index ``N`` is ``/dev/videoN`` on Linux: missing (unplugged, or another
  number), not readable by this user (the ``video`` group), or present (then another
  program holds it, or it is not a capture device);
* a stream URL: its host is looked up and its port tried with one TCP connection
  (``timeout_s``): host unknown, connection refused (nothing listens there), no answer
  (address, network, firewall), or the port answers but no video came (the path, the
  user name and password, the stream's format).

User names and passwords in a URL are never repeated (:func:`safe_spec`).
"""

from __future__ import annotations

import os
import re
import socket
import urllib.parse
from pathlib import Path

__all__ = ["explain_camera", "safe_spec"]

_AUTHORITY = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)(?P<authority>[^/?#]*)")
_DEFAULT_PORTS = {"rtsp": 554, "rtsps": 322, "http": 80, "https": 443, "rtmp": 1935}


def safe_spec(spec: int | str) -> str:
    """``spec`` as it may be shown: a URL's user name and password replaced by ``***``."""
    text = str(spec)
    match = _AUTHORITY.match(text)
    if match is None or "@" not in match["authority"]:
        return text
    host = match["authority"].rsplit("@", 1)[1]
    return f"{match['scheme']}***@{host}{text[match.end() :]}"


def explain_camera(spec: int | str, *, timeout_s: float = 2.0) -> str:
    """What was tried to open ``spec`` and what to check (see the module docstring)."""
    text = str(spec)
    if text.isascii() and text.isdigit():
        return _explain_device(Path(f"/dev/video{int(text)}"), f"index {text}")
    if text.startswith("/dev/"):
        return _explain_device(Path(text), "")
    return _explain_url(text, timeout_s)


def _explain_device(path: Path, name: str) -> str:
    tried = f"tried V4L2 on {name} ({path})" if name else f"tried V4L2 on {path}"
    if not path.exists():
        return (f"{tried}: no such device; check the camera is plugged in and powered, "
                "and which /dev/video* it got (v4l2-ctl --list-devices)")  # fmt: skip
    if not os.access(path, os.R_OK | os.W_OK):
        return (f"{tried}: this user may not open it; add the user to the 'video' group "
                "(sudo adduser $USER video) and log in again")  # fmt: skip
    return (f"{tried}: the device is there but gave no picture; check no other program "
            "uses the camera and that it is a capture device (some cameras add a second "
            "/dev/video* for metadata)")  # fmt: skip


def _explain_url(url: str, timeout_s: float) -> str:
    tried = "tried FFmpeg"
    try:
        parts = urllib.parse.urlsplit(url)
        host, port = parts.hostname, parts.port or _DEFAULT_PORTS.get(parts.scheme.lower())
    except ValueError:  # a bad port or bracket: urlsplit refuses it
        host = port = None
    if not host or port is None:
        return f"{tried}: cannot tell its host and port; check the address"
    where = f"{host}:{port}"
    try:
        with socket.create_connection((host, port), timeout=timeout_s):
            pass
    except socket.gaierror:
        return f"{tried}: host {host!r} not found; check the name or use the camera's IP address"
    except ConnectionRefusedError:
        return (f"{tried}: {where} refused the connection (nothing listens there); check "
                "the camera is on and streaming, and the port")  # fmt: skip
    except TimeoutError:
        return (f"{tried}: no answer from {where} within {timeout_s:g} s; check the "
                "address, the network cable and any firewall between")  # fmt: skip
    except OSError as exc:
        return f"{tried}: {where}: {exc.strerror or exc}; check the address and the network"
    return (f"{tried}: {where} answers but gave no video; check the path after the port, "
            "the user name and password, and that the camera streams MJPEG or H.264")  # fmt: skip

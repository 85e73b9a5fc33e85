"""Videos given as URLs: which sources are URLs, and fetching one while it is hashed."""

from __future__ import annotations

import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from carom.batch._key import stream_sha256
from referee import CaromError

__all__ = ["display_name", "fetch_video", "is_url"]

_READ_TIMEOUT_S = 60.0


def is_url(source: str) -> bool:
    """A source the worker fetches (``http``, ``https``, ``file`` URLs).

    One that does not parse (``http://[x``: a bad IPv6 host) is not a URL: the path
    check then refuses it in one line, where ``urlsplit`` would raise ValueError.
    """
    try:
        return urllib.parse.urlsplit(source).scheme in ("http", "https", "file")
    except ValueError:
        return False


def display_name(source: str) -> str:
    """A URL's file name (``video`` if its path has none); a path as given."""
    if not is_url(source):
        return source
    return Path(urllib.parse.unquote(urllib.parse.urlsplit(source).path)).name or "video"


def fetch_video(url: str, folder: Path) -> tuple[Path, str]:
    """Read ``url`` into ``folder`` (made) under its file name: (the file, its SHA-256).

    Raises:
        CaromError: the URL cannot be read to its end (one line with the reason).
    """
    folder.mkdir(parents=True, exist_ok=True)
    local = folder / display_name(url)
    try:
        with urllib.request.urlopen(url, timeout=_READ_TIMEOUT_S) as answer, local.open("wb") as f:
            sha = stream_sha256(answer, f)
    except urllib.error.HTTPError as exc:
        raise CaromError(f"{url}: cannot read the video (HTTP {exc.code} {exc.reason}); check "
                         "the URL and that the workers can reach it") from None  # fmt: skip
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", None) or exc
        raise CaromError(f"{url}: cannot read the video ({reason}); check the URL and that "
                         "the workers can reach it") from None  # fmt: skip
    return local, sha

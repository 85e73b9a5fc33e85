"""The scoreboard protocols the link speaks, by dialect name.

A new protocol is a module beside ``_codec_framed.py`` with a class that follows
:class:`~hardware.BoardCodec` (``_codec.py``), and one entry in ``_CODECS`` below;
``ScoreboardLink(url, dialect="<name>")`` then speaks it. A protocol kept outside this
package is added at run time with :func:`register_codec`.
"""

from __future__ import annotations

from collections.abc import Callable

from hardware._errors import ScoreboardError
from hardware.scoreboard._codec import BoardCodec
from hardware.scoreboard._codec_framed import FramedCodec
from hardware.scoreboard._codec_text import TextCodec

__all__ = ["CodecFactory", "codec_for", "dialects", "register_codec"]

#: Makes a codec (a class that follows :class:`BoardCodec` is one).
CodecFactory = Callable[[], BoardCodec]

_CODECS: dict[str, CodecFactory] = {
    "frames": FramedCodec,  # docs/scoreboard-protocol.md
    "text": TextCodec,  # one line per snapshot, nothing answered
}


def dialects() -> tuple[str, ...]:
    """The dialect names a link accepts, the default (``"frames"``) first."""
    return tuple(_CODECS)


def register_codec(name: str, factory: CodecFactory) -> None:
    """Make ``name`` a dialect whose codec ``factory()`` makes.

    Raises:
        ScoreboardError: ``name`` is empty or already a dialect.
    """
    if not name or name in _CODECS:
        raise ScoreboardError(f"dialect {name!r} is empty or taken; taken are {', '.join(_CODECS)}")
    _CODECS[name] = factory


def codec_for(dialect: str) -> BoardCodec:
    """A new codec of ``dialect``.

    Raises:
        ScoreboardError: no protocol of that name is registered; the message lists them.
    """
    factory = _CODECS.get(dialect)
    if factory is None:
        raise ScoreboardError(f"dialect {dialect!r} is unknown; use one of {', '.join(_CODECS)}")
    return factory()

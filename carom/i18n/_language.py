"""Which language a page or report is in: the table's setting, the browser's, or English."""

from __future__ import annotations

from collections.abc import Mapping

__all__ = [
    "LANGUAGES",
    "environment_language",
    "language_code",
    "language_name",
    "pick_language",
    "user_language",
]

#: Language code -> its own name. English is the fallback of every catalogue.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "ko": "한국어",
    "tr": "Türkçe",
    "nl": "Nederlands",
    "fr": "Français",
    "es": "Español",
}


def language_name(code: str) -> str:
    """The language's own name (``Türkçe``); the code itself when unknown."""
    return LANGUAGES.get(code, code)


def language_code(text: str) -> str | None:
    """The language a user typed, as one of :data:`LANGUAGES` (None: not one of them).

    A region and the locale's spelling are ignored, in any case: ``es``, ``ES``,
    ``es-ES`` and ``es_ES.UTF-8`` are all ``es``.
    """
    code = _base(text.split(".")[0])
    return code if code in LANGUAGES else None


def pick_language(
    setting: str | None = None, accept_language: str | None = None, *more: str | None
) -> str:
    """The language to use: the setting, else the browser's choice, else ``en``.

    ``setting`` (a table's, a command's) wins if it is one we have; then each of
    ``more`` in turn (further settings: a page's own choice, then its table's, then the
    server's, of which an unknown one gives way to the next); else the best of
    the browser's ``Accept-Language`` we have (``ko-KR,ko;q=0.9,en;q=0.5``: ``ko``). A
    region is ignored (``es-CO`` is ``es``); a malformed header is ignored, never an
    error.
    """
    for wanted in (setting, *more):
        if wanted is not None and _base(wanted) in LANGUAGES:
            return _base(wanted)
    best, best_q = "en", -1.0
    for i, part in enumerate((accept_language or "").split(",")[:32]):
        code, q = _range(part)
        # Equal weights keep the header's order (an earlier one wins).
        if code in LANGUAGES and q > best_q and q > 0:
            best, best_q = code, q - i * 1e-6
    return best


def environment_language(environ: Mapping[str, str]) -> str | None:
    """The language of the user's locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``).

    A setting for :func:`pick_language`: ``ko_KR.UTF-8`` gives ``ko_KR`` (``ko``); ``C``
    gives ``C``, which is no language we have (English).
    """
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if value := environ.get(name, "").split(".")[0].strip():
            return value
    return None


def user_language(given: str | None, environ: Mapping[str, str] | None = None) -> str:
    """A command's language: ``--lang`` if given, else the system's, else English.

    The system's is ``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` of ``environ`` (default
    ``os.environ``) when it is one of :data:`LANGUAGES`.
    """
    import os

    return given or pick_language(environment_language(os.environ if environ is None else environ))


def _base(code: str) -> str:
    return code.strip().lower().replace("_", "-").split("-")[0]


def _range(part: str) -> tuple[str, float]:
    """``ko;q=0.9`` -> (``ko``, 0.9); an unreadable weight is 0."""
    code, _, params = part.partition(";")
    q = 1.0
    for param in params.split(";"):
        name, _, value = param.partition("=")
        if name.strip().lower() == "q":
            try:
                q = float(value)
            except ValueError:
                q = 0.0
    return _base(code), q if 0.0 <= q <= 1.0 else 0.0

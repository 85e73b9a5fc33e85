"""A domain's messages in every language, read once from the package's JSON files."""

from __future__ import annotations

import functools
import json
import string
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from carom.i18n._language import LANGUAGES
from referee import CaromError

__all__ = ["Catalogue", "CatalogueError", "catalogue"]


class CatalogueError(CaromError):
    """A message catalogue is missing or malformed (a packaging bug: the line names it)."""


@dataclass(frozen=True, slots=True)
class Catalogue:
    """One domain's templates: ``messages[lang][key]`` (every language, English complete)."""

    domain: str
    messages: Mapping[str, Mapping[str, str]]

    def text(self, lang: str, key: str, **fields: Any) -> str:
        """The message ``key`` in ``lang`` (English where ``lang`` lacks it) with ``fields``.

        Raises:
            CatalogueError: English has no ``key`` (a bug in the caller).
        """
        template = self.messages.get(lang, {}).get(key)
        if template is None:
            template = self.messages["en"].get(key)
        if template is None:
            raise CatalogueError(f"catalogue {self.domain}: no message {key!r}")
        return template.format_map(fields) if fields else template

    def keys(self) -> frozenset[str]:
        """Every key English has."""
        return frozenset(self.messages["en"])

    def for_language(self, lang: str) -> dict[str, str]:
        """Every message in ``lang``, English where it has none (for a page's script)."""
        return {**self.messages["en"], **self.messages.get(lang, {})}


@functools.cache
def catalogue(domain: str) -> Catalogue:
    """The catalogue of ``domain`` (``carom/i18n/messages/<domain>.<lang>.json``)."""
    messages = {lang: _read(domain, lang) for lang in LANGUAGES}
    if not messages["en"]:
        raise CatalogueError(f"catalogue {domain}: no English messages; reinstall carom-referee")
    return Catalogue(domain, messages)


def _read(domain: str, lang: str) -> dict[str, str]:
    name = f"{domain}.{lang}.json"
    path = resources.files("carom.i18n").joinpath("messages", name)
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise CatalogueError(f"catalogue {name}: not valid JSON ({exc})") from None
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise CatalogueError(f"catalogue {name}: expected an object of text messages")
    return data


def placeholders(template: str) -> frozenset[str]:
    """The ``{name}`` fields of a template (for the catalogue tests)."""
    return frozenset(f for _, f, _, _ in string.Formatter().parse(template) if f)

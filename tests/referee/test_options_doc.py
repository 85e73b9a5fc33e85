"""Every rule option is documented, with its default, in docs/rules-options.md."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

from referee import RuleOptions

DOC = Path(__file__).parents[2] / "docs" / "rules-options.md"


def _json(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)


def test_every_option_is_documented_with_its_default() -> None:
    text = DOC.read_text()
    defaults = RuleOptions()
    for f in fields(RuleOptions):
        row = f"| `{f.name}` | `{_json(getattr(defaults, f.name))}` |"
        assert row in text, f"docs/rules-options.md lacks {row}"

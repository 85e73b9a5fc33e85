"""Every relative link of the README and docs/ leads to a file of the repository (a
page renamed or never added is a dead link a user follows), and the pages' plain
mentions of the rule digest (``rules.md §5``) have the page they name."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_every_relative_link_leads_to_a_file() -> None:
    dead, checked = [], 0
    for page in PAGES:
        for target in _LINK.findall(page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue  # a web address, a mail link, an anchor on the page
            checked += 1
            if not (page.parent / target.split("#")[0]).exists():
                dead.append(f"{page.relative_to(ROOT)}: {target}")
    assert not dead, dead
    assert len(PAGES) > 20 and checked > 100, checked


def test_the_rule_digest_the_pages_cite_is_in_docs() -> None:
    citing = [p for p in PAGES if "rules.md §" in p.read_text(encoding="utf-8")]
    assert citing and (ROOT / "docs" / "rules.md").is_file()
    assert "](docs/rules.md)" in (ROOT / "README.md").read_text(encoding="utf-8")

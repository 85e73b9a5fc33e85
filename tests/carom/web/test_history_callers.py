"""The history page names who decided a review in the page's language (``hist.by_*``).

The journal keeps who made a call as :class:`carom.live.Caller` (``web``, ``keyboard``,
``shot clock``); ``history.js`` maps each to its words, and any other name (a program's
own) is shown as it is. A caller missing from the map, or a map entry no caller gives,
would show the raw journal word in every language.
"""

from __future__ import annotations

import re
from pathlib import Path

from carom.i18n import LANGUAGES, catalogue
from carom.live import Caller

HISTORY_JS = Path(__file__).parents[3] / "carom" / "web" / "static" / "history.js"


def _mapped() -> dict[str, str]:
    """The journal word -> message key map of ``history.js``'s ``decided``."""
    line = next(s for s in HISTORY_JS.read_text().splitlines() if "const by = {" in s)
    body = line.split("{", 1)[1].split("}", 1)[0]
    pairs = re.findall(r'(?:"([^"]+)"|(\w+)):\s*t\("([\w.]+)"\)', body)
    assert len(pairs) == body.count("t("), body
    return {quoted or bare: key for quoted, bare, key in pairs}


def test_every_caller_the_journal_keeps_is_named_by_the_history_page() -> None:
    mapped = _mapped()
    assert set(mapped) == {str(c) for c in Caller}
    for lang in LANGUAGES:
        words = [catalogue("web").text(lang, mapped[str(c)]) for c in Caller]
        assert all(w.strip() for w in words), (lang, words)
        assert len(set(words)) == len(words), (lang, words)

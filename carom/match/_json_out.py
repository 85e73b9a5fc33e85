"""``carom score --json`` written as it goes: the shots one by one, never the whole text.

The document is the one :func:`run_json` describes, byte for byte what
``json.dumps(doc, indent=2)`` gives (tests compare them), but the ``shots`` list is
written a record at a time: 100,000 shots never become one string nor one list of
dictionaries (the records themselves are the match's, kept by the referee).
"""

from __future__ import annotations

import json
import textwrap
from typing import Any, TextIO

from carom.match._replay import ScoreRun, run_json
from referee import record_json

__all__ = ["write_score_json"]

_MARK = "\x00shots\x00"


def write_score_json(runs: list[ScoreRun], table: Any | None, out: TextIO) -> None:
    """Write the ``--json`` document of ``runs`` (with ``table``, the standings, if several)."""
    if table is None:
        _write_run(runs[0], out, 0)
    else:
        out.write('{\n  "matches": [')
        for i, run in enumerate(runs):
            out.write(",\n    " if i else "\n    ")
            _write_run(run, out, 2)
        out.write("\n  ]," if runs else "],")
        standings = json.dumps(table, indent=2)
        out.write("\n  " + '"standings": ' + textwrap.indent(standings, "  ").lstrip() + "\n}")
    out.write("\n")


def _write_run(run: ScoreRun, out: TextIO, level: int) -> None:
    """One run's document, its lines indented by ``level`` levels after the first."""
    doc = run_json(run, with_shots=False)
    doc["shots"] = _MARK  # in its place: the key is there already
    head, tail = _indented(json.dumps(doc, indent=2), level).split(json.dumps(_MARK))
    out.write(head)
    records = run.match.records
    if not records:
        out.write("[]")
    else:
        pad = "  " * (level + 2)
        out.write("[")
        for i, record in enumerate(records):
            item = _indented(json.dumps(record_json(record), indent=2), level + 2)
            out.write(("," if i else "") + "\n" + pad + item)
        out.write("\n" + "  " * (level + 1) + "]")
    out.write(tail)


def _indented(text: str, level: int) -> str:
    """``text`` with every line but the first indented by ``level`` levels of two spaces."""
    first, _, rest = text.partition("\n")
    return first + ("\n" + textwrap.indent(rest, "  " * level) if rest else "")

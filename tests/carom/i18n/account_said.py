"""The console's account lines and the board's warning, said from the web catalogue alone.

The test oracle for ``Carom.fmt.account`` and ``Carom.fmt.boardWarning`` (app.js): each
``what.<key>`` / ``board.<key>`` message filled as the pages fill it, written from the
catalogue and the documents' shapes, not from the pages' code.
"""

from __future__ import annotations

from typing import Any

from carom.i18n import catalogue, format_number
from tests.carom.i18n.said import said_in

__all__ = ["account_in", "board_warning_in", "paused_in"]


def _t(lang: str, key: str, **fields: Any) -> str:
    return catalogue("web").text(lang, key, **fields)


def _title(lang: str, name: str) -> str:
    web = catalogue("web")
    key = f"name.{name}"
    return web.text(lang, key) if key in web.messages["en"] else name.replace("_", " ")


def paused_in(lang: str, why: str, why_parts: dict[str, Any] | None) -> str:
    """Why scoring is paused: its ``pause.<key>`` message, else the sentence as it is."""
    if why_parts is None or lang == "en":
        return why
    fields = {}
    for name, value in why_parts["fields"].items():
        text = str(value)
        decimals = len(text.split(".")[1]) if "." in text else 0
        number = format_number(lang, float(text), decimals)
        fields[name] = ("+" if text.startswith("+") else "") + number
    return _t(lang, f"pause.{why_parts['key']}", **fields)


def _signed(lang: str, n: int) -> str:
    return ("+" if n >= 0 else "") + format_number(lang, n)


def _reason(lang: str, parts: list[dict[str, Any]], english: str) -> str:
    return "; ".join(said_in(lang, p, "web") for p in parts) if parts else english


def account_in(lang: str, doc: dict[str, Any]) -> str:
    """An account (``what_parts``) in ``lang``."""
    key, f = doc["key"], doc["fields"]
    fields: dict[str, Any] = {}
    for name, value in f.items():
        if name.endswith("_parts"):
            continue
        if isinstance(value, dict) and set(value) == {"key", "fields"}:
            fields[name] = account_in(lang, value)
        elif isinstance(value, int) and not isinstance(value, bool):
            fields[name] = format_number(lang, value)
        else:
            fields[name] = value
    fields.update(_special(lang, key, f, fields))
    return _t(lang, f"what.{key}", **fields)


def _special(lang: str, key: str, f: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
    said = _t(lang, "hist.by_web") if f.get("note") == "web console" else f.get("note")
    note = _t(lang, "what.note", note=said) if f.get("note") else ""
    if key == "shot":
        fouls = ", ".join(_title(lang, x) for x in f["fouls"])
        board = ", ".join(f"{p} {format_number(lang, n)}" for p, n in f["board"])
        reason = _reason(lang, f["reason_parts"], f["reason"])
        return {"n": str(f["n"]), "points": _signed(lang, f["points"]),
                "fouls": _t(lang, "what.fouls", fouls=fouls) if fouls else "",
                "reason": reason, "board": board}  # fmt: skip
    if key == "held":
        reason = f["reason"]
        return {"n": str(f["n"]), "reason": fields["reason"] if isinstance(reason, dict)
                else _reason(lang, f["reason_parts"], reason)}  # fmt: skip
    if key in ("paused", "played_paused"):
        return {"why": paused_in(lang, f["why"], f.get("why_parts"))}
    if key == "review":
        decision = str(f["decision"])
        if decision.startswith("points "):
            return {"decision": _t(lang, "what.decision_points",
                                   points=format_number(lang, int(decision[7:])))}  # fmt: skip
        return {"decision": _t(lang, f"what.decision_{decision}")}
    if key.startswith("correct_"):
        return {"note": note, **({"points": _signed(lang, f["points"])} if "points" in f else {})}
    if key == "lag_fault" and "fault_keys" in f:
        return {"faults": "; ".join(_t(lang, f"what.lag_{k}") for k in f["fault_keys"])}
    if key == "foul_called":
        return {"foul": _title(lang, f["foul"])}
    if key in ("session", "match_started", "match_from_live", "match_closed"):
        how = {"how": _t(lang, f"what.how_{f['how']}")} if "how" in f else {}
        version = {"version": str(f["version"])} if "version" in f else {}
        return {"id": str(f["id"]), **how, **version}
    return {}


def board_warning_in(lang: str, parts: dict[str, Any]) -> str:
    """A board's warning (``scoreboard.warning_parts``) in ``lang``."""
    f = parts["fields"]

    def summary(s: dict[str, Any] | None) -> str:
        if s is None:
            return _t(lang, "board.nothing")
        (a, b), (sa, sb) = s["players"], s["scores"]
        over = _t(lang, "board.over" if s["over"] else "board.not_over")
        return _t(lang, "board.summary", a=a, b=b, sa=format_number(lang, sa),
                  sb=format_number(lang, sb), over=over)  # fmt: skip

    acked = (_t(lang, "board.acked", summary=summary(f["shown"])) if f["shown"]
             else _t(lang, "board.acked_none"))  # fmt: skip
    port = _t(lang, "board.port", error=f["port_error"]) if f["port_error"] else ""
    same = f["shown"] is not None and summary(f["shown"]) == summary(f["current"])
    key = "board.shows_same" if same else "board.shows"
    shows = _t(lang, key, acked=acked, port=port, current=summary(f["current"]))
    late = float(f["late_s"])
    late_s = format_number(lang, late, 0 if late.is_integer() else 1)
    return _t(lang, "board.late", late_s=late_s, shows=shows)

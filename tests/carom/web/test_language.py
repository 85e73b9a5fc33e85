"""The pages' language over HTTP: the messages endpoint, the table's setting, the browser's.

``GET /api/i18n/web`` answers the ``web`` catalogue in one language: ``?lang=``, else
the table's setting (``POST /api/settings/language``, kept in the database), else the
server's default, else the browser's ``Accept-Language``, else English.
"""

from __future__ import annotations

import typing
from pathlib import Path

from carom.i18n import LANGUAGES, catalogue
from carom.web._models import LanguageIn
from tests.carom.web._web import AUTH, client, db_dump


def _lang(c: typing.Any, query: str = "", header: str | None = None) -> str:
    headers = {"Accept-Language": header} if header is not None else {}
    r = c.get("/api/i18n/web" + query, headers=headers)
    assert r.status_code == 200, r.text
    lang: str = r.json()["lang"]
    return lang


def test_the_messages_come_in_the_language_asked_for(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        doc = c.get("/api/i18n/web?lang=ko").json()
        assert doc["lang"] == "ko" and doc["table_language"] is None
        assert doc["messages"]["stat.high_run"] == "하이런"
        assert doc["messages"] == catalogue("web").for_language("ko")
        assert doc["languages"] == LANGUAGES
        assert _lang(c, "?lang=fr-BE") == "fr"
        assert _lang(c, "?lang=xx", "tr-TR,tr;q=0.9") == "tr"  # unknown: the browser's
        assert _lang(c, "", "nl-BE,nl;q=0.9,en;q=0.5") == "nl"
        assert _lang(c, "", "de-DE") == "en"
        assert _lang(c) == "en"
        assert c.get("/api/i18n/web?lang=" + "x" * 40).status_code == 422


def test_the_table_s_language_wins_over_the_browser_s_and_outlives_a_restart(
    tmp_path: Path,
) -> None:
    with client(tmp_path) as c:
        r = c.post("/api/settings/language", json={"language": "es"}, headers=AUTH)
        assert r.status_code == 200, r.text
        assert r.json()["table_language"] == "es"
        assert _lang(c, "", "ko") == "es"
        assert _lang(c, "?lang=ko", "fr") == "ko"  # a page's own ?lang= wins
        assert _lang(c, "?lang=zz", "ko") == "es"  # one we lack gives way to the table's
    with client(tmp_path) as c:  # a new server over the same database
        assert c.get("/api/settings/language").json()["table_language"] == "es"
        assert _lang(c, "", "ko") == "es"
        r = c.post("/api/settings/language", json={"language": None}, headers=AUTH)
        assert r.json()["table_language"] is None
        assert _lang(c, "", "ko") == "ko"


def test_the_server_s_default_comes_after_the_table_s(tmp_path: Path) -> None:
    with client(tmp_path, language="tr") as c:
        assert _lang(c, "", "ko") == "tr"
        assert _lang(c, "?lang=zz", "ko") == "tr"
        c.post("/api/settings/language", json={"language": "nl"}, headers=AUTH)
        assert _lang(c, "", "ko") == "nl"


def test_a_refused_language_change_leaves_the_database_alone(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        c.post("/api/settings/language", json={"language": "fr"}, headers=AUTH)
        before = db_dump(tmp_path / "web.db")
        r = c.post("/api/settings/language", json={"language": "ko"})
        assert r.status_code == 401
        for body in ({"language": "de"}, {"language": "ko", "x": 1}, {}):
            r = c.post("/api/settings/language", json=body, headers=AUTH)
            assert r.status_code == 422, body
            assert "\n" not in str(r.json()["detail"])
        assert db_dump(tmp_path / "web.db") == before
        assert _lang(c, "", "ko") == "fr"


def test_the_setting_accepts_exactly_the_catalogue_s_languages() -> None:
    field = LanguageIn.model_fields["language"].annotation
    literal = next(a for a in typing.get_args(field) if typing.get_origin(a) is typing.Literal)
    assert set(typing.get_args(literal)) == set(LANGUAGES)

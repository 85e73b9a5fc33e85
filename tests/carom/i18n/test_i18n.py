"""The message catalogues are complete in every language; the language is picked as the
user asked; numbers and dates are written as each language writes them."""

from __future__ import annotations

import datetime
import json
import re
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import carom.web
from carom.i18n import (
    LANGUAGES,
    CatalogueError,
    catalogue,
    format_date,
    format_number,
    pick_language,
    user_language,
)
from carom.i18n._catalogue import placeholders
from referee import (
    DOUBT_ENGLISH,
    EVENT_ENGLISH,
    LAYOUT_BALL_ENGLISH,
    LAYOUT_ITEM_ENGLISH,
    PIN_ITEM_ENGLISH,
    PLACE_ENGLISH,
    PLACE_PREPOSITION,
    REGION_KINDS,
    REGION_WORDS,
    ZONE_FIELDS,
    ZONE_GROUP_ENGLISH,
    Ball,
    Foul,
    Pin,
    Pocket,
    ReasonKey,
)
from tests.fuzz_scale import examples


def _domains() -> list[str]:
    folder = resources.files("carom.i18n").joinpath("messages")
    return sorted({p.name.rsplit(".", 2)[0] for p in folder.iterdir() if p.name.endswith(".json")})


def test_every_language_has_every_message_with_the_same_fields() -> None:
    """English is complete; each other language has each key, with the same placeholders
    (a translation that drops ``{player}`` would show a gap; one that adds a field would
    raise). None is an empty translation."""
    for domain in _domains():
        cat = catalogue(domain)
        for lang in LANGUAGES:
            messages = cat.messages[lang]
            assert set(messages) == set(cat.keys()), (domain, lang, set(cat.keys()) ^ set(messages))
            for key, template in messages.items():
                assert template.strip(), (domain, lang, key)
                assert placeholders(template) == placeholders(cat.messages["en"][key]), (
                    domain, lang, key,
                )  # fmt: skip


def test_a_message_falls_back_to_english_and_an_unknown_key_is_an_error() -> None:
    from carom.i18n import Catalogue

    cat = Catalogue(
        "t", {"en": {"hi": "Hello {name}", "bye": "Bye"}, "fr": {"hi": "Bonjour {name}"}}
    )
    assert cat.text("fr", "hi", name="Ana") == "Bonjour Ana"
    assert cat.text("fr", "bye") == "Bye"
    assert cat.text("xx", "hi", name="Ben") == "Hello Ben"
    assert cat.for_language("fr") == {"hi": "Bonjour {name}", "bye": "Bye"}
    with pytest.raises(CatalogueError, match="no message 'gone'"):
        cat.text("en", "gone")


@pytest.mark.parametrize(
    ("setting", "header", "expected"),
    [
        (None, None, "en"),
        ("ko", "fr", "ko"),
        ("es-CO", None, "es"),
        ("xx", "nl-BE,nl;q=0.9,en;q=0.8", "nl"),
        (None, "de-DE,de;q=0.9,tr;q=0.8,en;q=0.7", "tr"),
        (None, "en;q=0.5,fr;q=0.9", "fr"),
        (None, "fr;q=0,es", "es"),
        (None, "ko;q=abc,es;q=0.1", "es"),
        (None, "fr, es", "fr"),
        (None, ";;;,,q=", "en"),
    ],
)
def test_the_language_is_the_setting_else_the_browser_s_best_else_english(
    setting: str | None, header: str | None, expected: str
) -> None:
    assert pick_language(setting, header) == expected


@pytest.mark.parametrize(
    ("given", "environ", "expected"),
    [
        ("fr", {"LANG": "ko_KR.UTF-8"}, "fr"),
        (None, {"LANG": "ko_KR.UTF-8"}, "ko"),
        (None, {"LC_ALL": "tr_TR.UTF-8", "LANG": "nl_NL.UTF-8"}, "tr"),
        (None, {"LC_MESSAGES": "es_CO", "LANG": "en_US.UTF-8"}, "es"),
        (None, {"LANG": "C.UTF-8"}, "en"),
        (None, {"LANG": "de_DE.UTF-8"}, "en"),
        (None, {}, "en"),
    ],
)
def test_a_command_s_language_is_the_flag_else_the_system_s_else_english(
    given: str | None, environ: dict[str, str], expected: str
) -> None:
    assert user_language(given, environ) == expected


@given(st.one_of(st.none(), st.text(max_size=40)), st.one_of(st.none(), st.text(max_size=200)))
@settings(max_examples=examples(200))
def test_any_setting_and_header_give_a_language_we_have(
    setting: str | None, header: str | None
) -> None:
    assert pick_language(setting, header) in LANGUAGES


@pytest.mark.parametrize(
    ("lang", "value", "decimals", "expected"),
    [
        ("en", 1234567.891, 2, "1,234,567.89"),
        ("ko", 1234.5, 1, "1,234.5"),
        ("tr", 1234.5, 1, "1.234,5"),
        ("nl", 0.833, 3, "0,833"),
        ("fr", 1234567.0, 0, "1\u202f234\u202f567"),
        ("es", -1234.25, 2, "-1.234,25"),
        ("en", -0.0004, 3, "0.000"),
        ("xx", 12.5, 1, "12.5"),
    ],
)
def test_numbers_are_written_as_each_language_writes_them(
    lang: str, value: float, decimals: int, expected: str
) -> None:
    assert format_number(lang, value, decimals) == expected


@given(st.sampled_from(sorted(LANGUAGES)), st.integers(-(10**9), 10**9), st.integers(0, 3))
@settings(max_examples=examples(300))
def test_a_written_number_reads_back_as_the_same_number(
    lang: str, milli: int, decimals: int
) -> None:
    value = milli / 1000
    text = format_number(lang, value, decimals)
    point = "." if lang in ("en", "ko") else ","
    plain = "".join(c for c in text if c.isdigit() or c in "-" + point).replace(point, ".")
    assert float(plain) == pytest.approx(round(value, decimals), abs=10**-decimals / 2)


def test_dates_are_written_in_each_language_s_short_form() -> None:
    day = datetime.date(2026, 3, 4)
    got = {lang: format_date(lang, day) for lang in LANGUAGES}
    assert got == {"en": "2026-03-04", "ko": "2026. 3. 4.", "tr": "04.03.2026",
                   "nl": "04-03-2026", "fr": "04/03/2026", "es": "4/3/2026"}  # fmt: skip


def test_the_catalogue_files_are_json_objects_of_text() -> None:
    folder = resources.files("carom.i18n").joinpath("messages")
    for path in folder.iterdir():
        if path.name.endswith(".json"):
            data = json.loads(path.read_text(encoding="utf-8"))
            assert isinstance(data, dict) and all(isinstance(v, str) for v in data.values())


def test_a_table_s_column_headings_differ_in_every_language() -> None:
    """Two columns headed alike read as one (the verdict and the review decision were
    both "판정" in Korean)."""
    folder = resources.files("carom.i18n").joinpath("messages")
    for path in folder.iterdir():
        if path.name.startswith("web.") and path.name.endswith(".json"):
            data = json.loads(path.read_text(encoding="utf-8"))
            heads = [v.casefold() for k, v in data.items() if k.startswith("col.")]
            assert len(heads) == len(set(heads)), path.name


def test_every_foul_has_a_name_on_the_pages_and_in_the_report() -> None:
    """Every name of ``referee.Foul`` (the console's buttons, the history, the report's
    cards); the catalogue test above checks that every language has every key."""
    web, report = catalogue("web"), catalogue("report")
    for foul in Foul:
        assert f"name.{foul}" in web.messages["en"], foul
        assert f"foul_{foul}" in report.messages["en"], foul
        names = {report.text(lang, f"foul_{foul}") for lang in LANGUAGES}
        assert len(names) >= 5, f"{foul}: the same words in many languages: {names}"


def test_every_pin_has_a_name_on_the_pages_and_in_the_report() -> None:
    """The pins a five-pins reason names (``pins``, the scoring items' pins)."""
    web, report = catalogue("web"), catalogue("report")
    for pin in Pin:
        assert f"pin.{pin}" in web.messages["en"] and f"pin_{pin}" in report.messages["en"], pin
        names = {report.text(lang, f"pin_{pin}") for lang in LANGUAGES}
        assert len(names) >= 5, f"{pin}: the same words in many languages: {names}"


def test_every_ball_has_a_name_on_the_pages_and_in_the_report() -> None:
    """The balls a reason names, the 7-pin game's two whites too."""
    web, report = catalogue("web"), catalogue("report")
    for ball in Ball:
        assert f"ball.{ball}" in web.messages["en"] and f"ball_{ball}" in report.messages["en"]


def test_the_english_catalogues_say_what_the_referee_says() -> None:
    """Every keyed phrase of the referee (reasons, announcements, break rules, notes), every
    pin game item, break layout item and break place is in both catalogues, their English
    the core's own template."""
    for domain, sep in (("web", "."), ("report", "_")):
        english = catalogue(domain).messages["en"]
        for key in ReasonKey:
            assert english.get(f"reason{sep}{key}") == key.template, (domain, key)
        for kind, template in PIN_ITEM_ENGLISH.items():
            assert english.get(f"pins_item{sep}{kind}") == template, (domain, kind)
        for place, name in PLACE_ENGLISH.items():
            assert english.get(f"place{sep}{place}") == name, (domain, place)
        for form, template in LAYOUT_ITEM_ENGLISH.items():
            assert english.get(f"layout{sep}{form}") == template, (domain, form)
        for role, template in LAYOUT_BALL_ENGLISH.items():
            assert english.get(f"layout_ball{sep}{role}") == template, (domain, role)
        for group, words in ZONE_GROUP_ENGLISH.items():
            assert english.get(f"zone_group{sep}{group}") == words, (domain, group)
        for kind, template in REGION_KINDS.items():
            assert english.get(f"zone_region{sep}{kind}") == template, (domain, kind)
        for word in REGION_WORDS:
            assert english.get(f"zone_word{sep}{word}") == word, (domain, word)
        for name, template in DOUBT_ENGLISH.items():
            assert english.get(f"doubt{sep}{name}") == template, (domain, name)
        for name, template in EVENT_ENGLISH.items():
            assert english.get(f"review_event{sep}{name}") == template, (domain, name)
        for pocket in Pocket:
            assert f"pocket{sep}{pocket}" in english, (domain, pocket)


def test_the_pages_say_each_zone_field_the_core_names() -> None:
    """``Carom.fmt.phrase`` (app.js) says the fields of ``referee.ZONE_FIELDS``, all of them."""
    script = (Path(carom.web.__file__).parent / "static" / "app.js").read_text()
    found = re.search(r"for \(const name of \[([^\]]*)\]\) \{\n\s*if \(name in fields\) "
                      r"fields\[name\] = fmt.zoneField", script)  # fmt: skip
    assert found is not None, "app.js: the zone fields are not where expected"
    assert set(re.findall(r'"(\w+)"', found.group(1))) == ZONE_FIELDS


def test_the_pages_say_each_break_place_with_the_core_s_preposition() -> None:
    """``Carom.fmt.placed`` (app.js) keeps the places not said with ``on``; the core's
    ``PLACE_PREPOSITION`` is the truth."""
    script = (Path(carom.web.__file__).parent / "static" / "app.js").read_text()
    found = re.search(r"const prep = \{([^}]*)\}\[place\] \|\| \"on\"", script)
    assert found is not None, "app.js: the places' prepositions are not where expected"
    pairs = dict(re.findall(r"(\w+): \"(\w+)\"", found.group(1)))
    assert pairs == {p: w for p, w in PLACE_PREPOSITION.items() if w != "on"}

"""collect_stats over a season of real shot logs: every number against carom score's."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carom.match import score_file, stopped_reason
from carom.stats import MatchFigures, SeasonStats, ShotCategories, collect_stats, stats_json
from referee import CaromError, Discipline, ShotLogError, average_text
from tests.carom.stats.expected import categories, opening, score_json, table_json
from tests.carom.stats.season import SAMPLES, SEASON, sample, write_log, write_season

FIGURE_KEYS = ("match_points", "points", "innings", "average", "high_run", "sets_won")


def season_in(tmp_path: Path) -> tuple[list[Path], SeasonStats]:
    paths = write_season(tmp_path / "season")
    return paths, collect_stats([tmp_path / "season"])


def test_every_log_is_found_once_in_path_order(tmp_path: Path) -> None:
    paths, season = season_in(tmp_path)
    assert [m.path for m in season.matches] == paths
    assert [m.name for m in season.matches] == list(SEASON)
    assert season.skipped == ()
    again = collect_stats([tmp_path / "season", paths[0]])  # a log named twice counts once
    assert [m.path for m in again.matches] == paths
    # One path as a string, or strings: the same season (a str was AttributeError).
    for one in (str(tmp_path / "season"), [str(tmp_path / "season")]):
        assert [m.path for m in collect_stats(one).matches] == paths


def test_the_same_analysis_found_in_two_folders_counts_once(tmp_path: Path) -> None:
    """A batch's folder and an analyze's both hold the same video's log: one match, and
    the second listed as skipped with the first's path (both were counted)."""
    paths, season = season_in(tmp_path)
    copy = tmp_path / "carom-analysis" / paths[0].parent.name / "shots.json"
    copy.parent.mkdir(parents=True)
    copy.write_bytes(paths[0].read_bytes())
    again = collect_stats([tmp_path / "season", tmp_path / "carom-analysis"])
    assert [m.path for m in again.matches] == paths
    assert again.players == season.players  # nobody's figures counted twice
    assert again.skipped == ((copy, f"the same shot log as {paths[0]}: counted once"),)
    # Two logs of no shot at all (two matches never played) stay two matches.
    empty = {**json.loads(paths[0].read_text(encoding="utf-8")), "shots": []}
    for name in ("one", "two"):
        write_log(tmp_path / "empty" / name / "shots.json", empty)
    assert len(collect_stats([tmp_path / "empty"]).matches) == 2


def test_each_match_has_carom_scores_numbers(tmp_path: Path) -> None:
    paths, season = season_in(tmp_path)
    for path, match in zip(paths, season.matches, strict=True):
        want = score_json(path)
        assert (match.discipline, list(match.players)) == (want["discipline"], want["players"])
        assert (match.phase, match.winner, match.draw) == (
            want["phase"],
            want["winner"],
            want["draw"],
        )
        # carom score's reason, in the words of the command line (no undo there).
        assert match.error == (None if want["error"] is None else stopped_reason(score_file(path)))
        for player, stats in want["statistics"].items():
            f = match.of(player)
            assert {k: getattr(f, k) for k in FIGURE_KEYS} == stats
        got = stats_json(season)["matches"][paths.index(path)]["statistics"]
        assert {p: {k: s[k] for k in FIGURE_KEYS} for p, s in got.items()} == want["statistics"]


def test_the_season_has_finished_matches_a_draw_and_players_in_several(tmp_path: Path) -> None:
    _, season = season_in(tmp_path)
    assert sum(m.finished for m in season.matches) == 5
    assert any(m.finished and m.draw for m in season.matches)
    cleo = {s.discipline: s.matches for s in season.players if s.player == "Cleo"}
    assert cleo == {"three-cushion": 1, "balkline-47/2": 1, "five-pins": 1}
    assert any(m.error for m in season.matches)  # the draw has shots after its end


def expected_players(paths: list[Path]) -> dict[tuple[str, str], dict[str, Any]]:
    """Each player's season in each discipline from carom score's documents and
    standings, summed here."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for path in paths:
        doc = score_json(path)
        for player, s in doc["statistics"].items():
            e = out.setdefault((player, doc["discipline"]), Counter(high_run=0))
            e.update(matches=1, points=s["points"], innings=s["innings"])
            e["high_run"] = max(e["high_run"], s["high_run"])
            e[f"points_{doc['discipline']}"] += s["points"]
            if s["match_points"] is not None:
                e.update(finished=1, match_points=s["match_points"])
                e[("lost", "drawn", "won")[s["match_points"]]] += 1
    table = table_json(paths)
    for player, e in out.items():
        assert e["match_points"] == table.get(player, {"match_points": 0})["match_points"]
        e["best_average"] = table[player]["best_average"] if player in table else "0.000"
        e["general_average"] = average_text(e["points"], e["innings"])
    return out


def test_each_players_season_sums_the_matches(tmp_path: Path) -> None:
    paths, season = season_in(tmp_path)
    want = expected_players(paths)
    assert {(s.player, s.discipline) for s in season.players} == set(want)
    for s in season.players:
        e = want[s.player, s.discipline]
        for key in (
            "matches",
            "finished",
            "won",
            "drawn",
            "lost",
            "match_points",
            "points",
            "innings",
            "high_run",
            "general_average",
        ):
            assert getattr(s, key) == e[key], (s.player, key)
        assert s.best_average_text == e["best_average"]
        by_discipline = {k: v for k, v in e.items() if k.startswith("points_")}
        assert {f"points_{d}": n for d, n in s.points_by_discipline.items()} == by_discipline


def test_players_are_ranked_by_match_points_ga_ba_hr(tmp_path: Path) -> None:
    paths, season = season_in(tmp_path)
    want = expected_players(paths)

    def key(player: tuple[str, str]) -> tuple[int, Fraction, Fraction, int]:
        e = want[player]
        ga = Fraction(e["points"], e["innings"]) if e["innings"] else Fraction(0)
        return (e["match_points"], ga, Fraction(e["best_average"]), e["high_run"])

    order = [str(d) for d in Discipline]  # each discipline ranked on its own, in this order
    ranked = sorted(sorted(want), key=key, reverse=True)
    ranked.sort(key=lambda p: order.index(p[1]))
    assert [(s.player, s.discipline) for s in season.players] == ranked
    for kind in {d for _, d in ranked}:
        ranks = [s.rank for s in season.players if s.discipline == kind]
        assert ranks == list(range(1, len(ranks) + 1)), kind
    keys = [key(p) for p in ranked if p[1] == "three-cushion"]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) > 1


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(order=st.permutations(range(len(SEASON))))
def test_the_season_does_not_depend_on_the_order_of_the_logs(
    tmp_path: Path, order: list[int]
) -> None:
    root = tmp_path / "order"
    paths = write_season(root) if not root.exists() else sorted(root.glob("*/shots.json"))
    first = stats_json(collect_stats(paths))
    shuffled = stats_json(collect_stats([paths[i] for i in order]))
    assert shuffled["players"] == first["players"]
    assert by_path(shuffled["matches"]) == by_path(first["matches"])


def by_path(matches: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each match's document without its number in the season's order."""
    return {m["path"]: {k: v for k, v in m.items() if k != "match"} for m in matches}


def counted(c: ShotCategories) -> Counter[str]:
    out = Counter({k: v for k, v in c.counts().items() if v})
    out.update({f"foul_{name}": n for name, n in c.fouls.items()})
    return out


def test_categories_are_a_direct_count_over_the_log(tmp_path: Path) -> None:
    paths, season = season_in(tmp_path)
    for path, match in zip(paths, season.matches, strict=True):
        for player, want in categories(path).items():
            assert counted(match.of(player).categories) == +want, (match.name, player)
    three = collect_stats([SAMPLES / "three_cushion_match.shots.json"]).matches[0]
    direct = categories(SAMPLES / "three_cushion_match.shots.json")
    assert sum(direct.values(), Counter())["shots"] == len(sample("three_cushion_match")["shots"])
    assert counted(three.of("A").categories) == +direct["A"]
    assert sum(direct["A"][k] for k in ("ball_first", "cushion_first_1")) > 0


def test_the_season_categories_are_the_sum_of_the_matches(tmp_path: Path) -> None:
    _, season = season_in(tmp_path)
    for s in season.players:
        mine = [m.of(s.player).categories for m in season.matches
                if s.player in m.players and m.discipline == s.discipline]  # fmt: skip
        want = sum((counted(c) for c in mine), Counter())
        assert counted(s.categories) == want


def test_a_shot_without_events_counts_only_as_a_shot(tmp_path: Path) -> None:
    doc = sample("three_cushion_match")
    doc["shots"][1]["events"] = []
    path = write_log(tmp_path / "bare" / "shots.json", doc)
    match = collect_stats([path]).matches[0]
    a = match.of("A").categories
    assert (a.shots, a.without_events, a.scoring, a.misses, a.foul_total) == (2, 1, 1, 0, 0)
    openings = (a.ball_first, a.cushion_first_1, a.cushion_first_2, a.cushion_first_3plus)
    assert sum(openings) + a.no_ball_contact == 1  # the shot with events only


def test_a_damaged_log_is_skipped_and_the_rest_counted(tmp_path: Path) -> None:
    paths = write_season(tmp_path / "season")
    broken = tmp_path / "season" / "00-broken" / "shots.json"
    broken.parent.mkdir()
    broken.write_text(paths[0].read_text()[:500], encoding="utf-8")
    wrong = write_log(tmp_path / "season" / "00-wrong" / "shots.json", {"format": "x"})
    huge = tmp_path / "season" / "00-huge" / "shots.json"  # its reason began with its name
    huge.parent.mkdir()
    huge.write_text('{"format": "carom-shots/1", "n": 1' + "0" * 40 + "}", encoding="utf-8")
    write_log(tmp_path / "season" / ".trash" / "shots.json", {"format": "x"})
    season = collect_stats([tmp_path / "season"])
    assert [m.path for m in season.matches] == paths
    assert [p for p, _ in season.skipped] == [broken, huge, wrong]
    reasons = [why for _, why in season.skipped]
    assert all(why and "\n" not in why for why in reasons)
    assert "not valid JSON" in reasons[0] and "carom-shots/1" in reasons[2]
    assert reasons[1].startswith("a number has more than 30 digits"), reasons[1]
    # The log's name is printed before its reason: a reason naming it too said it twice.
    assert not any(why.startswith(str(path)) for path, why in season.skipped), reasons


def test_an_empty_folder_is_one_line_error(tmp_path: Path) -> None:
    (tmp_path / "empty" / ".hidden").mkdir(parents=True)
    write_log(tmp_path / "empty" / ".hidden" / "shots.json", sample("three_cushion_match"))
    with pytest.raises(CaromError) as caught:
        collect_stats([tmp_path / "empty"])
    message = str(caught.value)
    assert "\n" not in message and str(tmp_path / "empty") in message and "carom batch" in message


def test_logs_none_of_which_can_be_read_are_one_line_error_not_an_empty_season(
    tmp_path: Path,
) -> None:
    """It wrote a season of 0 players and 0 matches (its files in the current folder) and
    exited 0, which docs/stats.md gives to a season that was counted."""
    broken = tmp_path / "a" / "shots.json"
    broken.parent.mkdir()
    broken.write_text("x,y\n", encoding="utf-8")
    wrong = write_log(tmp_path / "b" / "shots.json", {"format": "x"})
    with pytest.raises(CaromError) as caught:
        collect_stats([broken, wrong])
    message = str(caught.value)
    assert message.startswith(f"{broken}, {wrong}: no shot log could be read (the first of 2 "
                              f"skipped: {broken}: not valid JSON")  # fmt: skip
    assert "\n" not in message and message.endswith("or a shot log (shots.json)")


def test_a_log_whose_folder_name_is_not_utf8_is_one_line_before_anything_is_written(
    tmp_path: Path,
) -> None:
    """It crashed (an internal error) after writing the CSVs, before the page."""
    write_log(tmp_path / "s" / "g\udce9" / "shots.json", sample("three_cushion_match"))
    with pytest.raises(CaromError) as caught:
        collect_stats([tmp_path / "s"])
    assert str(caught.value) == (f"{tmp_path / 's'}/g\\xe9/shots.json: its name is not UTF-8 "
                                 "text (written in another encoding); rename it with UTF-8 "
                                 "letters")  # fmt: skip


def test_a_missing_path_is_one_line_error(tmp_path: Path) -> None:
    with pytest.raises(CaromError, match="no such file or folder") as caught:
        collect_stats([tmp_path / "nowhere"])
    assert "\n" not in str(caught.value)


def test_a_sample_file_is_named_after_its_stem() -> None:
    season = collect_stats([SAMPLES / "balkline_47_2.shots.json"])
    match: MatchFigures = season.matches[0]
    assert match.name == "balkline_47_2" and not match.finished and match.result is None


BALLS = ("white", "yellow", "red")
CUSHIONS = ("head", "foot", "left", "right")
raw_events = st.lists(
    st.one_of(
        st.builds(lambda b, c: {"kind": "cushion", "ball": b, "cushion": c},
                  st.sampled_from(BALLS), st.sampled_from(CUSHIONS)),
        st.builds(lambda pair: {"kind": "ball", "balls": list(pair)},
                  st.permutations(BALLS).map(lambda p: p[:2])),
    ),
    max_size=12,
)  # fmt: skip


@given(events=raw_events, times=st.lists(st.integers(0, 5), min_size=12, max_size=12))
def test_the_opening_is_the_cushions_before_the_first_ball(
    events: list[dict[str, Any]], times: list[int]
) -> None:
    """Any event list, equal times included: the opening as counted from the raw JSON."""
    from carom.stats._categories import cushions_before_ball
    from referee import parse_shot

    raw = [{**e, "t_s": float(t)} for e, t in zip(events, times, strict=False)]
    shot = {"index": 0, "cue_ball": "white", "events": raw}
    names = ["ball_first", "cushion_first_1", "cushion_first_2", "cushion_first_3plus"]
    got = cushions_before_ball(parse_shot(shot, "shot"))
    assert (names[min(got, 3)] if got is not None else "no_ball_contact") == opening(shot)


def test_a_log_too_big_to_read_whole_keeps_its_verdict_categories(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import carom.stats._collect as collect

    def too_big(path: Path) -> Any:
        raise ShotLogError(f"{path}: 65 MB, more than the 64 MB allowed")

    path = write_log(tmp_path / "big" / "shots.json", sample("three_cushion_match"))
    whole = collect_stats([path]).matches[0].of("B").categories
    monkeypatch.setattr(collect, "load_json", too_big)
    streamed = collect_stats([path]).matches[0].of("B").categories
    assert (streamed.shots, streamed.scoring, streamed.misses) == (
        whole.shots, whole.scoring, whole.misses)  # fmt: skip
    assert whole.ball_first + whole.cushion_first_1 > 0
    assert streamed.ball_first + streamed.cushion_first_1 + streamed.without_events == 0


def test_a_name_in_decomposed_and_composed_form_is_one_player(tmp_path: Path) -> None:
    """``Zoë`` typed composed in one log and decomposed (e + combining diaeresis, as some
    systems save names) in another counted as two players of the season."""
    import unicodedata

    example = json.loads((Path(__file__).parents[3] / "examples" / "three_cushion_match.json")
                         .read_text(encoding="utf-8"))  # fmt: skip
    for form in ("NFC", "NFD"):
        zoe = unicodedata.normalize(form, "Zoë")
        text = json.dumps(example).replace('"Ben"', json.dumps(zoe, ensure_ascii=False))
        (tmp_path / f"{form}.shots.json").write_text(text, encoding="utf-8")
    season = collect_stats([tmp_path])
    assert len(season.matches) == 2
    assert sorted(p.player for p in season.players) == ["Ana", "Zoë"]
    assert {m.players for m in season.matches} == {("Ana", "Zoë")}

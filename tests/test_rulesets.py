"""Named rulesets (issue 15): one mechanism for every game, from jw.new to records, the
command line and the design lab."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

import janus_widgets as jw
from janus_widgets import games
from janus_widgets.__main__ import main as cli
from janus_widgets.core import CUSTOM, Record, RecordError, Ruleset, Variant, VariantError, option
from janus_widgets.core.variant import check_rulesets

#: The rulesets issue 15 asks for, at least, with the options each must set.
REQUIRED = {
    "janus": {"rulebook": {}, "tolls on every field": {"toll_fields": "entered"}},
    "jactus": {"rulebook": {}, "other edition": {"dog_throws": "other"},
               "points": {"scoring": "points"},
               "no spoiling": {"spoil": False}},    # a house rule (JA-19, issue 18)
    "jinns": {"rulebook": {}, "newer edition": {"placement": "random",
                                                "shared_towers": "zero"}},
    "janus-cards": {"rulebook": {}, "joint agreement": {"agreement": "joint"}},
}


def test_every_game_has_the_rulesets_asked_for():
    assert set(REQUIRED) == set(games.names())
    for name, wanted in REQUIRED.items():
        rulesets = games.get(name).rulesets()
        assert [r.name for r in rulesets][:1] == ["rulebook"]
        assert {r.name: dict(r.options) for r in rulesets} == wanted
        for ruleset in rulesets:
            assert ruleset.source and ruleset.note.endswith(".")


@pytest.mark.parametrize("name", sorted(REQUIRED))
def test_a_ruleset_starts_a_game_and_options_go_on_top(name):
    game = games.get(name)
    players = next(s for s in game.Variant.options() if s.name == "players").choices
    for ruleset in game.rulesets():
        state = jw.new(name, ruleset=ruleset.name, seed=4)
        assert state.variant == game.Variant(**ruleset.options)
        assert game.ruleset_of(state.variant) == ruleset.name
        for n in players:                     # the number of players stays open
            variant = game.variant(ruleset=ruleset.name, players=n)
            assert variant.players == n and game.ruleset_of(variant) == ruleset.name
            described = game.describe_variant(variant)
            assert described.startswith(f"{ruleset.name} ruleset")
    # The rulebook is today's defaults.
    assert game.variant(ruleset="rulebook") == game.Variant() == game.variant()


def test_an_option_changed_from_a_ruleset_makes_it_custom():
    jactus = games.get("jactus")
    variant = jactus.variant(ruleset="points", supply="full")
    assert variant.scoring == "points" and variant.supply == "full"
    assert jactus.ruleset_of(variant) == CUSTOM
    assert jactus.describe_variant(variant) == ("custom (supply: all pieces; "
                                                "scoring: points (6, 2, 5))")
    # ... and options that happen to equal a ruleset are that ruleset.
    assert jactus.ruleset_of(jactus.variant(dog_throws="other", players=5)) == "other edition"


def test_ruleset_names_are_forgiving_about_case_and_hyphens():
    jinns = games.get("jinns")
    assert jinns.ruleset("Newer-Edition").name == "newer edition"
    assert jinns.ruleset("newer_edition") is jinns.ruleset("newer edition")


@pytest.mark.parametrize("name", sorted(REQUIRED))
def test_an_unknown_ruleset_lists_the_allowed_ones(name):
    game = games.get(name)
    with pytest.raises(VariantError) as err:
        jw.new(name, ruleset="house rules", seed=1)
    assert err.value.field == "ruleset" and err.value.value == "house rules"
    for ruleset in game.rulesets():
        assert repr(ruleset.name) in str(err.value)
        assert repr(ruleset.name) in err.value.allowed


def test_bad_options_on_top_of_a_ruleset_list_what_is_allowed():
    with pytest.raises(VariantError) as err:
        jw.new("jactus", ruleset="points", steal="sometimes")
    assert err.value.field == "steal"
    assert "kind-empty" in str(err.value) and "centre-empty" in str(err.value)
    with pytest.raises(VariantError) as err:
        jw.new("jinns", ruleset="newer edition", repetition_limit=7)
    assert "0, 2, 3, 4, 5, 10, 20" in str(err.value)
    with pytest.raises(VariantError, match="no variant option 'colour'"):
        jw.new("janus", ruleset="tolls on every field", colour="red")
    with pytest.raises(VariantError, match="a variant or a ruleset"):
        games.get("jactus").variant({"players": 3}, ruleset="points")


def test_a_ruleset_is_a_frozen_value():
    points = games.get("jactus").ruleset("points")
    assert points == Ruleset("points", {"scoring": "points"}, source=points.source,
                             note=points.note)
    assert hash(points) == hash(Ruleset("points", {}, source=points.source, note=points.note))
    with pytest.raises(TypeError):
        points.options["scoring"] = "collection"         # type: ignore[index]
    assert repr(points) == "Ruleset('points', {'scoring': 'points'})"


@dataclass(frozen=True)
class Demo(Variant):
    game_title = "Demo"
    players: int = option(2, doc="Seats.", choices=(2, 3), setup=True)
    fast: bool = option(False, doc="Skip the slow part.")
    size: int = option(5, doc="How big.", minimum=1, maximum=9)


RULEBOOK = Ruleset("rulebook", source="the box", note="As printed.")


@pytest.mark.parametrize("rulesets,says", [
    ((), "first ruleset must be 'rulebook'"),
    ((Ruleset("quick", {"fast": True}, source="s", note="n."),), "first ruleset"),
    ((Ruleset("rulebook", {"fast": True}, source="s", note="n."),), "default options"),
    ((RULEBOOK, Ruleset("rulebook", {"fast": True}, source="s", note="n.")), "distinct"),
    ((RULEBOOK, Ruleset("custom", {"fast": True}, source="s", note="n.")), "distinct"),
    ((RULEBOOK, Ruleset("four", {"players": 3}, source="s", note="n.")), "set-up option"),
    ((RULEBOOK, Ruleset("same", {"size": 5}, source="s", note="n.")), "the same rules"),
    ((RULEBOOK, Ruleset("quick", {"fast": True})), "needs a source and a note"),
    ((RULEBOOK, Ruleset("huge", {"size": 99}, source="s", note="n.")), "size=99"),
    ((RULEBOOK, Ruleset("odd", {"colour": 1}, source="s", note="n.")), "no variant option"),
])
def test_a_game_declares_sound_rulesets(rulesets, says):
    with pytest.raises(ValueError, match=says):
        check_rulesets(Demo, rulesets)


def test_sound_rulesets_pass_the_check():
    quick = Ruleset("quick", {"fast": True}, source="a house rule", note="Skip it.")
    assert check_rulesets(Demo, [RULEBOOK, quick]) == (RULEBOOK, quick)
    assert quick.matches(Demo(players=3, fast=True)) and not quick.matches(Demo(fast=True,
                                                                                size=4))


# --- records ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name,ruleset", [(n, r.name) for n in sorted(REQUIRED)
                                          for r in games.get(n).rulesets()])
def test_a_record_keeps_its_ruleset_through_json(name, ruleset, tmp_path):
    state = jw.new(name, ruleset=ruleset, seed=8)
    for _ in range(12):
        if state.is_over:
            break
        state = state.play_chance() if state.is_chance else state.play(state.legal_moves()[-1])
    record = state.record()
    assert record.ruleset == ruleset
    data = json.loads(record.to_json())
    assert data["ruleset"] == ruleset and data["variant"] == state.variant.to_dict()
    loaded = Record.load(record.save(tmp_path / "game.json"))
    assert loaded.ruleset == ruleset and loaded.final_state() == state
    assert json.loads(loaded.to_json()) == data


def test_a_custom_game_is_recorded_as_custom():
    state = jw.new("jactus", ruleset="points", supply="full", seed=2).play("r*")
    data = json.loads(state.record().to_json())
    assert data["ruleset"] == CUSTOM
    assert Record.from_json(json.dumps(data)).ruleset == CUSTOM


def test_an_old_record_without_a_ruleset_still_loads():
    state = jw.new("jactus", dog_throws="other", seed=3).play("r*").play("=11111")
    data = json.loads(state.record().to_json())
    del data["ruleset"]                                    # as written before issue 15
    loaded = Record.from_json(json.dumps(data))
    assert loaded.final_state() == state
    assert loaded.ruleset == "other edition"               # worked out from the options
    assert json.loads(loaded.to_json())["ruleset"] == "other edition"


@pytest.mark.parametrize("ruleset,says", [
    ("house rules", "record ruleset: Jactus has no ruleset 'house rules'"),
    (7, "no ruleset 7"),
    ("points", "names the ruleset 'points' but its options are those of 'rulebook'"),
    (CUSTOM, "names the ruleset 'custom' but its options are those of 'rulebook'"),
])
def test_a_record_with_a_wrong_ruleset_is_refused(ruleset, says):
    data = json.loads(jw.new("jactus", seed=3).play("r*").record().to_json())
    data["ruleset"] = ruleset
    with pytest.raises(RecordError, match=says):
        Record.from_json(json.dumps(data))


# --- the command line and the design lab ----------------------------------------------------
def test_rules_lists_the_rulesets_and_shows_one(capsys):
    assert cli(["rules", "jactus"]) == 0
    out = capsys.readouterr().out
    for ruleset in games.get("jactus").rulesets():
        assert ruleset.name in out and ruleset.source in out
    assert "scoring='collection':" in out
    assert cli(["rules", "jinns", "--ruleset", "newer edition"]) == 0
    out = capsys.readouterr().out
    assert " *newer edition" in out
    assert "placement='random' (rulebook: 'runs')" in out
    assert "shared_towers='zero' (rulebook: 'completer')" in out
    assert "repetition_limit=10:" in out


def test_simulate_takes_a_ruleset(capsys):
    assert cli(["simulate", "jactus", "--ruleset", "points", "--players", "3", "--games", "2",
                "--bots", "greedy", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["variant"]["scoring"] == "points" and data["variant"]["players"] == 3
    assert cli(["simulate", "janus-cards", "--ruleset", "joint agreement", "--games", "2"]) == 0
    assert "variant joint agreement ruleset" in capsys.readouterr().out
    assert cli(["simulate", "jinns", "--ruleset", "newer edition", "--set", "players=3",
                "--games", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["variant"]["placement"] == "random" and data["variant"]["players"] == 3


@pytest.mark.parametrize("argv,says", [
    (["simulate", "jactus", "--ruleset", "house", "--games", "2"],
     "Jactus has no ruleset 'house': choose one of 'rulebook', 'other edition', 'points'"),
    (["rules", "janus", "--ruleset", "house"], "choose one of 'rulebook', 'tolls on every"),
    (["simulate", "jactus", "--ruleset", "points", "--set", "steal=some", "--games", "2"],
     "steal='some' is not allowed: choose one of kind-empty, centre-empty"),
])
def test_a_bad_ruleset_on_the_command_line_is_a_clear_error(argv, says, capsys):
    assert cli(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and says in err


def test_a_designer_compares_rulesets_by_name():
    from janus_widgets.analysis.tournament import compare_variants

    comparison = compare_variants("jactus", ["rulebook", "points"], bots=["greedy"], n=4,
                                  players=3)
    assert comparison.labels == ["rulebook", "points"]
    first, second = comparison.results
    assert first.variant["scoring"] == "collection" and second.variant["scoring"] == "points"
    assert first.variant["players"] == second.variant["players"] == 3


def test_the_design_lab_offers_the_other_rulesets():
    from janus_widgets.analysis.design_lab import RULESET, DesignLab

    lab = DesignLab("jactus", games=10)
    assert ("ruleset (a whole reading)", RULESET) in lab.option_box.options
    lab.choose(RULESET, "Points")
    assert lab.value_control.value == "points"
    assert list(lab.value_control.options) == ["other edition", "points", "no spoiling"]
    with pytest.raises(VariantError, match="no ruleset 'house'"):
        lab.choose(RULESET, "house")

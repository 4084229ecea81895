"""The shared protocol: registry, variants, moves, views and errors."""

from __future__ import annotations

import re

import pytest

import janus_widgets as jw
from janus_widgets import games
from janus_widgets.core import IllegalMoveError, InvalidMoveError, Move, VariantError


def test_registry_names_and_get():
    assert "jactus" in games.names()
    assert games.get("jactus").name == "jactus"
    with pytest.raises(ValueError, match="no game called 'chess'.*jactus"):
        games.get("chess")


@pytest.mark.parametrize("name", games.names())
def test_every_game_declares_documented_variants(name):
    game = games.get(name)
    default = game.Variant()
    for spec in game.Variant.options():
        assert spec.doc and spec.doc.endswith("."), spec.name
        assert spec.rule.startswith(game.rule_prefix + "-"), spec.name
        assert getattr(default, spec.name) == spec.default
    assert game.Variant.from_dict(default.to_dict()) == default
    assert game.sample_variants()[0] == default


@pytest.mark.parametrize("name", games.names())
def test_from_raw_refuses_an_inconsistent_position_naming_the_game(name):
    game = games.get(name)
    raw = game.new(seed=1).raw
    assert game.from_raw(raw, seed=1) == game.new(seed=1)
    with pytest.raises(ValueError, match=f"^not a consistent {re.escape(game.title)} "
                                         "position: bad (seat|turn) 99"):
        game.from_raw(raw[:1] + (99,) + raw[2:])


@pytest.mark.parametrize("name", games.names())
def test_every_game_starts_and_lists_moves(name):
    state = jw.new(name, seed=1)
    assert state.ply == 0 and not state.is_over
    assert state.legal_moves() or state.is_chance
    assert str(state) and repr(state).startswith("<")
    assert state.view(None) is not None
    for seat in range(state.num_players):
        assert state.view(seat) is not None
    with pytest.raises(ValueError, match="not a seat"):
        state.view(state.num_players)


def test_variant_error_fields():
    with pytest.raises(VariantError) as err:
        games.get("jactus").Variant(players=9)
    assert err.value.field == "players" and err.value.value == 9
    assert "2, 3, 4, 5, 6" in err.value.allowed


def test_moves_are_hashable_values_with_notation():
    state = jw.new("jactus", seed=0).play("r*").play("=11234")
    a = state.parse("r11")
    b = state.legal_moves().get("r11")
    assert a == b and hash(a) == hash(b) and {a, b} == {a}
    assert str(a) == "r11" and repr(a) == "Move('r11')"
    assert isinstance(a, Move) and a.description
    assert "r11" in state.legal_moves() and "r55" not in state.legal_moves()


def test_moves_from_another_state_mean_the_same():
    one = jw.new("jactus", seed=0).play("r*").play("=11234")
    two = jw.new("jactus", seed=0).play("r*").play("=11566")
    move = one.parse("r1")
    assert two.play(move).dice == (1, 5, 6, 6)


def test_explain_legal_and_illegal():
    jactus = games.get("jactus")
    state = jactus.new(seed=0).play("r*").play("=11234")
    yes = jactus.explain(state, "r11")
    assert yes.legal and yes.rule == "JA-6" and str(yes).startswith("JA-6: ")
    no = jactus.explain(state, "r66")
    assert not no.legal and no.rule == "JA-6" and "no 6" in no.reason
    with pytest.raises(InvalidMoveError):
        jactus.explain(state, "r9")


def test_errors_are_value_errors_with_the_legal_options():
    state = jw.new("jactus", seed=0)
    with pytest.raises(ValueError) as err:
        state.play("dog")
    assert isinstance(err.value, IllegalMoveError)
    assert err.value.legal == ("r*",) and "Legal now: r*" in str(err.value)


def test_a_move_of_another_game_is_refused():
    state = jw.new("jactus", seed=0)
    foreign = Move("jinns", 0, "x")
    with pytest.raises(InvalidMoveError, match="jinns move"):
        state.play(foreign)


def test_play_action_checks_numbers():
    state = jw.new("jactus", seed=0)
    assert state.play_action(461).is_chance
    with pytest.raises(InvalidMoveError):
        state.play_action(10**6)
    with pytest.raises(InvalidMoveError):
        state.play_action("461")  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError):
        state.play_action(0)


def test_new_without_seed_keeps_a_fresh_seed():
    a, b = jw.new("jactus"), jw.new("jactus")
    assert a.seed != b.seed
    assert a.play("r*").play_chance() == jw.new("jactus", seed=a.seed).play("r*").play_chance()

"""Janus (board game), rule by rule (IDs from seeds/janus.md)."""

from __future__ import annotations

import json
from collections import Counter
from math import factorial

import pytest
from hypothesis import given
from hypothesis import strategies as st

from janus_widgets import games
from janus_widgets.core import (CHANCE, TERMINAL, IllegalMoveError, InvalidMoveError,
                                RandomStream, Record, VariantError)
from janus_widgets.core.simulate import random_playout
from janus_widgets.games.janus.components import (COLOURS, DEFAULT_SQUARES, FIELDS, Tile,
                                                  field_name, parse_field, square_fields,
                                                  square_of, standard_tiles)
from janus_widgets.games.janus.rules import (NUM_ACTIONS, PASS, SHUFFLE_BASE, JanusVariant,
                                             position, shuffle_action, shuffle_order)

from helpers import moves, refused

janus = games.get("janus")


def laid(seed: int = 0, **options):
    """A new game with the tiles shuffled and laid."""
    return janus.new(seed=seed, **options).play_chance()


# --- JB-1: board and squares ---------------------------------------------------------
def test_JB1_field_names_round_trip_and_a1_is_the_marked_corner():
    assert [field_name(f) for f in (0, 9, 90, 99)] == ["a1", "j1", "a10", "j10"]
    assert all(parse_field(field_name(f)) == f for f in range(FIELDS))
    for bad in ("k1", "a0", "a11", "a01", "1a", "", "aa"):
        with pytest.raises(ValueError):
            parse_field(bad)


def test_JB1_squares_are_2x2_blocks():
    assert square_fields(0) == (0, 1, 10, 11)                  # a1 b1 a2 b2
    assert square_fields(24) == (88, 89, 98, 99)               # i9 j9 i10 j10
    assert sorted(f for s in range(25) for f in square_fields(s)) == list(range(FIELDS))
    assert all(square_of(f) == s for s in range(25) for f in square_fields(s))


def test_JB1_default_layout_five_of_each_value_latin_and_mirror_symmetric():
    rows = DEFAULT_SQUARES
    assert Counter(v for row in rows for v in row) == {v: 5 for v in range(1, 6)}
    assert all(sorted(row) == [1, 2, 3, 4, 5] for row in rows)
    assert all(sorted(rows[i][j] for i in range(5)) == [1, 2, 3, 4, 5] for j in range(5))
    # mirror about the diagonal a10–j1: square (i, j) matches (4 - j, 4 - i)
    assert all(rows[i][j] == rows[4 - j][4 - i] for i in range(5) for j in range(5))
    assert rows[2][2] == 5 and rows[0][0] == rows[4][4]        # centre 5; a1 and j10 alike
    assert laid().square_values == tuple(v for row in rows for v in row)


def test_JB1_square_values_option_changes_the_score():
    flat = ((9,) * 5,) * 5
    state = position(JanusVariant(squares=flat), tiles={"c3": "R2+", "c6": "Y1*"},
                     columns=("c3", "j10"), fill=False).play("c5")
    assert state.owners[square_of(parse_field("c3"))] == 0
    assert state.scores() == (9.0, 0.0)
    assert JanusVariant.from_dict(JanusVariant(squares=flat).to_dict()).squares == flat


@pytest.mark.parametrize("squares", [((1, 2, 3, 4, 5),) * 4, ((1, 2, 3, 4),) * 5,
                                     ((1, 2, 3, 4, 10),) * 5, ((1, 2, 3, 4, "5"),) * 5,
                                     "12345"])
def test_JB1_bad_square_tables_are_refused(squares):
    with pytest.raises(VariantError) as err:
        JanusVariant(squares=squares)
    assert err.value.field == "squares"


# --- JB-2: tiles ------------------------------------------------------------------------
def test_JB2_built_in_set_25_per_colour_2_heads_each_distances_even():
    tiles = standard_tiles()
    assert len(tiles) == 100
    assert Counter(t.colour for t in tiles) == {c: 25 for c in COLOURS}
    assert Counter(t.colour for t in tiles if t.head) == {c: 2 for c in COLOURS}
    assert Counter(t.distance for t in tiles) == {d: 20 for d in range(1, 6)}
    heads = [t for t in tiles if t.head]
    assert all(len(t.directions) == 2 for t in heads)          # two opposite faces
    assert all(a == (-b[0], -b[1]) for t in heads for a, b in [t.directions])
    assert Counter(t.lines for t in heads) == {"-": 2, "|": 2, "/": 2, "\\": 2}
    # every colour holds each (rose, distance) of the ordinary tiles at most once
    assert len({(t.colour, t.distance, t.lines) for t in tiles}) == 100


@pytest.mark.parametrize("preset,values", [("1-5", {1, 2, 3, 4, 5}), ("1-4", {1, 2, 3, 4}),
                                           ("1-3", {1, 2, 3}), ("2-4", {2, 3, 4})])
def test_JB2_distance_presets_spread_evenly(preset, values):
    counts = Counter(t.distance for t in standard_tiles(preset))
    assert set(counts) == values and max(counts.values()) - min(counts.values()) <= 1
    state = laid(distances=preset)
    assert {t.distance for t in state.tiles if t is not None} == values


def test_JB2_tile_codes():
    assert Tile.from_code("R3+") == Tile("red", 3, "+", False)
    assert Tile.from_code("g1|-").lines == "+"                 # normalised
    assert Tile.from_code("B2/\\").lines == "x"
    assert Tile.from_code("Y4-/").code == "Y4-/"
    assert Tile.from_code("Y2\\J") == Tile("yellow", 2, "\\", True)
    assert Tile.from_code("R5*").directions.__len__() == 8
    for bad in ("R3", "Q3+", "R0+", "Rx+", "R3+J", "R3?", "R3*J", 7):
        with pytest.raises(ValueError):
            Tile.from_code(bad)  # type: ignore[arg-type]


@given(st.sampled_from(standard_tiles() + standard_tiles("1-3")))
def test_JB2_every_tile_code_round_trips(tile):
    assert Tile.from_code(tile.code) == tile


def custom_tiles() -> list[str]:
    # all red 1-step orthogonal tiles, with two blue heads
    return ["R1+"] * 98 + ["B1-J", "B1|J"]


def test_JB2_custom_tile_table_is_used_and_recorded():
    variant = JanusVariant(tiles=custom_tiles())
    assert variant.tiles[0] == Tile("red", 1, "+", False)
    assert variant.to_dict()["tiles"] == custom_tiles()
    assert JanusVariant.from_dict(json.loads(json.dumps(variant.to_dict()))) == variant
    state = janus.new(variant, seed=4).play_chance()
    assert Counter(t.code for t in state.tiles) == {"R1+": 98, "B1-J": 1, "B1|J": 1}
    stream = RandomStream(4)
    for _ in range(30):
        if state.is_over:
            break
        state = state.play(stream.choice(state.legal_moves()))
    loaded = Record.from_json(state.record().to_json())
    assert loaded.final_state() == state


@pytest.mark.parametrize("tiles,fragment", [
    (["R1+"] * 99, "100 tiles"),
    (["R1+"] * 99 + ["Q1+"], "tile 99"),
    (["R1+"] * 99 + ["R1+J"], "one line"),
    (["R1+"] * 99 + [("red", 0, "+", False)], "distance 0"),
    (["R1+"] * 99 + [("purple", 1, "+", False)], "purple"),
    ("R1+" * 100, "sequence"),
])
def test_JB2_bad_tile_tables_name_the_problem(tiles, fragment):
    with pytest.raises(VariantError) as err:
        JanusVariant(tiles=tiles)
    assert err.value.field == "tiles" and fragment in str(err.value)


def test_JB2_tiles_and_distances_clash():
    with pytest.raises(VariantError) as err:
        JanusVariant(tiles=custom_tiles(), distances="1-3")
    assert "clash" in str(err.value)


# --- JB-3: players, coins --------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_JB3_each_player_starts_with_15_coins(players):
    state = laid(players=players)
    assert state.coins == (15,) * players and state.tolls == (0,) * players
    assert state.scores() == (0.0,) * players and state.heads == ((),) * players


def test_JB3_coins_option():
    assert laid(coins=4).coins == (4, 4)


# --- JB-4: the shuffle -----------------------------------------------------------------
def test_JB4_the_shuffle_is_one_chance_outcome_that_cannot_be_listed():
    state = janus.new(seed=8)
    assert state.is_chance and state.current_player == CHANCE and state.phase == "shuffle"
    assert state.chance_outcomes() is None and state.legal_moves() == ()
    assert state.tiles_left == 0
    move = state.sample_chance()
    assert move.chance and state.is_legal(move)
    assert SHUFFLE_BASE <= move.action < SHUFFLE_BASE + factorial(100)
    after = state.play(move)
    assert after.tiles_left == 100 and after.current_player == 0
    assert sorted(after.tile_ids) == list(range(100))          # each tile once
    assert after.tile_ids == shuffle_order(move.action)
    assert state.parse(str(move)) == move                      # notation round trip
    assert move.description == "The tiles are shuffled and laid from a1 to j10 in this order."


def test_JB4_notation_is_the_tile_order_by_rows():
    order = [99] + list(range(1, 99)) + [0]
    state = janus.new(seed=0).play("=" + "".join(f"{k:02d}" for k in order))
    assert state.tile_ids[0] == 99 and state.tile_ids[99] == 0
    assert state.last_move.action == shuffle_action(order)
    text = state.last_move.notation
    rows = text[1:].split("/")
    assert text.startswith("=9901") and len(rows) == 10 and all(len(r) == 20 for r in rows)
    assert rows[9].endswith("9800")                              # i10 = 98, j10 = 00


def test_JB4_shuffle_is_seeded_and_recorded():
    a, b, c = laid(seed=5), laid(seed=5), laid(seed=6)
    assert a.tile_ids == b.tile_ids and a.tile_ids != c.tile_ids
    rec = a.record()
    assert rec.moves[0].startswith("=") and Record.from_json(rec.to_json()).final_state() == a


def test_JB4_shuffle_draws_every_tile_for_a1_about_equally_often():
    engine = janus.engine()
    stream = RandomStream(2024)
    counts = Counter(shuffle_order(engine.sample(engine.initial(), stream))[57]
                     for _ in range(5000))
    expected = 50
    chi2 = sum((counts.get(k, 0) - expected) ** 2 / expected for k in range(100))
    assert len(counts) == 100 and chi2 < 150                   # 99 dof: p ≈ 0.0006


@given(st.permutations(list(range(100))))
def test_JB4_tile_order_rank_is_a_bijection(order):
    action = shuffle_action(order)
    assert janus.engine().is_chance_action(action)
    assert shuffle_order(action) == tuple(order)


def test_JB4_rank_extremes():
    assert shuffle_action(range(100)) == SHUFFLE_BASE
    assert shuffle_action(range(99, -1, -1)) == SHUFFLE_BASE + factorial(100) - 1
    engine = janus.engine()
    assert not engine.is_chance_action(SHUFFLE_BASE + factorial(100))
    assert not engine.is_chance_action(PASS)


@pytest.mark.parametrize("text", ["=", "=12", "=" + "00" * 100, "=" + "0a" * 100])
def test_JB4_bad_shuffle_notation(text):
    with pytest.raises(InvalidMoveError) as err:
        janus.new(seed=0).play(text)
    assert err.value.rule == "JB-4"


def test_JB4_players_cannot_act_at_the_shuffle_and_it_happens_once():
    state = janus.new(seed=0)
    refused(state, "a2", "JB-4")
    refused(state, "pass", "JB-4")
    shuffle = state.sample_chance()
    refused(state.play(shuffle), shuffle, "JB-22")


# --- JB-5 / JB-6: corners and who starts --------------------------------------------------
@pytest.mark.parametrize("players,order,corners", [
    (2, "clockwise", ("a1", "j10")), (2, "anticlockwise", ("a1", "j10")),
    (3, "clockwise", ("a1", "a10", "j10")), (3, "anticlockwise", ("a1", "j1", "j10")),
    (3, "opposite", ("a1", "j10", "a10")), (4, "clockwise", ("a1", "a10", "j10", "j1")),
    (4, "anticlockwise", ("a1", "j1", "j10", "a10")),
    (4, "opposite", ("a1", "j10", "a10", "j1"))])
def test_JB5_starting_corners(players, order, corners):
    state = laid(players=players, corner_order=order)
    assert state.column_names == corners
    assert all(state.tile_at(f) is not None for f in state.columns)  # on tiles


def test_JB6_A_starts_and_turns_go_in_seat_order():
    state = laid(players=3)
    seen = []
    for _ in range(6):
        if state.phase == "move":
            seen.append(state.current_player)
        state = state.play(state.legal_moves()[0])
    assert seen[:3] == [0, 1, 2]


# --- JB-7 / JB-8: the tile decides, the edge ---------------------------------------------
def test_JB7_exactly_the_distance_in_an_allowed_direction():
    state = position(tiles={"e5": "R3+"}, columns=("e5", "j10"))
    assert moves(state) == ["e2", "b5", "h5", "e8"]
    assert state.targets == tuple(parse_field(f) for f in ("e2", "b5", "h5", "e8"))
    exp = state.explain("e8")
    assert exp.legal and exp.rule == "JB-7" and "3 fields up" in exp.reason
    assert "exactly 3 fields; e6 is 1 away" in refused(state, "e6", "JB-7").reason
    assert "allows only right, left, up and down; h8 is up-right" in \
        refused(state, "h8", "JB-7").reason
    assert "not on a straight line" in refused(state, "f7", "JB-7").reason
    assert "must move" in refused(state, "e5", "JB-7").reason


def test_JB7_a_janus_head_goes_where_its_faces_look():
    state = position(tiles={"e5": "Y2\\J"}, columns=("e5", "j10"))
    assert moves(state) == ["g3", "c7"]
    assert "looks only up-left and down-right" in refused(state, "g7", "JB-7").reason


def test_JB8_never_off_the_board():
    state = position(tiles={"a1": "R3*"}, columns=("a1", "j10"))
    assert moves(state) == ["d1", "a4", "d4"]                   # five of eight are off


def test_JB8_JB12_a_head_in_a_corner_looking_off_the_board_is_stuck():
    state = position(tiles={"a10": "R1/J"}, columns=("a10", "j10"))
    assert moves(state) == ["pass"]
    exp = state.explain("pass")
    assert exp.legal and exp.rule == "JB-12" and "off the board" in exp.reason


# --- JB-9 / JB-10: columns and the way -----------------------------------------------------
def test_JB9_never_onto_a_column():
    state = position(tiles={"e5": "R3+"}, columns=("e5", "h5"))
    assert "h5" not in moves(state)
    assert "B's column stands on h5" in refused(state, "h5", "JB-9").reason


def test_JB10_by_default_a_move_passes_over_columns_and_empty_fields():
    tiles = {"e5": "R3+"}
    state = position(tiles=tiles, columns=("e5", "f5"), empty=("e6", "e7"))
    assert "h5" in moves(state) and "e8" in moves(state)


def test_JB10_options_block_columns_and_empty_fields_on_the_way():
    tiles = {"e5": "R3+"}
    no_jump = position(tiles=tiles, columns=("e5", "f5"), pass_columns=False)
    assert "h5" not in moves(no_jump) and "b5" in moves(no_jump)
    assert "B's column on f5 is in the way" in refused(no_jump, "h5", "JB-10").reason
    blocked = position(tiles=tiles, columns=("e5", "j10"), empty=("e6",),
                       empty_fields="block")
    assert "e8" not in moves(blocked) and "e2" in moves(blocked)
    assert "empty field e6" in refused(blocked, "e8", "JB-10").reason
    # landing on an empty field is still allowed
    landing = position(tiles=tiles, columns=("e5", "j10"), empty=("e8",),
                       empty_fields="block")
    assert "e8" in moves(landing)


# --- JB-11: from an empty field -----------------------------------------------------------
def test_JB11_one_step_in_any_of_eight_directions():
    state = position(tiles={"f6": "R1-"}, columns=("e5", "d4"), empty=("e5",))
    assert state.tile_at("e5") is None
    assert moves(state) == ["e4", "f4", "d5", "f5", "d6", "e6", "f6"]   # d4 is B's
    after = state.play("f6")
    assert after.tile_at("f6") == Tile("red", 1, "-")          # landed on a tile
    assert "exactly one field" in refused(state, "e7", "JB-11").reason
    corner = position(tiles={"e5": "R1-"}, fill=False, columns=("a1", "j10"))
    assert moves(corner) == ["b1", "a2", "b2"]


# --- JB-12: forfeit -------------------------------------------------------------------------
def test_JB12_forfeit_only_when_no_move_and_the_tile_stays():
    stuck = position(tiles={"a10": "R1/J", "c3": "G1+"}, columns=("a10", "c3"))
    assert stuck.parse("pass").description == "A cannot move and forfeits the turn."
    after = stuck.play("pass")
    assert after.current_player == 1 and after.tile_at("a10").code == "R1/J"
    assert after.tiles_left == stuck.tiles_left
    free = position(tiles={"c3": "G1+"}, columns=("c3", "a10"))
    err = refused(free, "pass", "JB-12")
    assert "b3" in err.reason


# --- JB-13: the tile left goes --------------------------------------------------------------
def test_JB13_the_tile_left_is_removed_and_a_head_goes_to_the_player():
    state = position(tiles={"e5": "R2-J", "g5": "Y1+"}, columns=("e5", "j10"))
    after = state.play("g5")
    assert after.tile_at("e5") is None and after.tiles_left == state.tiles_left - 1
    assert after.heads == ((Tile("red", 2, "-", True),), ())
    assert after.tile_at("g5") == Tile("yellow", 1, "+")        # the landing tile stays
    # leaving an empty field removes nothing
    empty = position(tiles={"f5": "Y1+"}, columns=("e5", "j10"), empty=("e5",))
    assert empty.play("f5").tiles_left == empty.tiles_left


# --- JB-14: head bonus ------------------------------------------------------------------------
def bonus_position(**options):
    # A holds the red head R2-J; from e5 (B1-) A can reach f5 (red) or d5 (yellow)
    return position(tiles={"e5": "B1-", "f5": "R3x", "d5": "Y3x", "c2": "R1*"},
                    columns=("e5", "j10"), heads={"A": ["R2-J"]}, empty=("a10",), **options)


def test_JB14_landing_on_a_tile_of_a_held_heads_colour_gives_a_second_move():
    state = bonus_position()
    bonus = state.play("f5")
    assert bonus.phase == "bonus" and bonus.current_player == 0
    assert "pass" in moves(bonus) and "c2" in moves(bonus)
    assert bonus.explain("pass").rule == "JB-14"
    assert bonus.parse("pass").description == "A declines the second move."
    declined = bonus.play("pass")
    assert declined.current_player == 1 and declined.phase == "move"
    assert declined.tile_at("f5") is not None                   # declining removes nothing
    other = state.play("d5")                                     # yellow: no bonus
    assert other.phase == "move" and other.current_player == 1


def test_JB14_a_second_move_earns_no_third_by_default():
    bonus = bonus_position().play("f5")
    after = bonus.play("c2")                                     # lands on red again
    assert after.phase == "move" and after.current_player == 1
    assert after.tile_at("f5") is None                           # the second move removes too


def test_JB14_chain_option_lets_a_second_move_earn_a_third():
    bonus = bonus_position(chain_bonus=True).play("f5")
    third = bonus.play("c2")
    assert third.phase == "bonus" and third.current_player == 0


def test_JB14_a_head_counts_from_the_moment_it_is_taken():
    state = position(tiles={"e5": "R2-J", "g5": "R4x", "c5": "Y1+"}, columns=("e5", "j10"))
    assert state.play("g5").phase == "bonus"
    assert state.play("c5").phase == "move"


def test_JB14_bonus_optional_false_must_move_and_forced_pass_if_stuck():
    bonus = bonus_position(bonus_optional=False).play("f5")
    assert "pass" not in moves(bonus)
    refused(bonus, "pass", "JB-14")
    stuck = position(tiles={"a10": "R1/J"}, columns=("a10", "j10"), heads={"A": ["R2-J"]},
                     empty=("e5",), phase="bonus", bonus_optional=False)
    assert moves(stuck) == ["pass"] and stuck.explain("pass").rule == "JB-12"
    assert stuck.play("pass").current_player == 1


# --- JB-15: winning a square ---------------------------------------------------------------
def test_JB15_removing_the_last_tile_of_a_square_wins_it():
    state = position(tiles={"c3": "R2+", "d4": "G1x", "c5": "Y1*"}, columns=("c3", "j10"),
                     fill=False)
    square = square_of(parse_field("c3"))
    after = state.play("c5")                                     # d4 still holds a tile
    assert after.owners[square] is None and after.coins == (15, 15)
    state = position(tiles={"c3": "R2+", "c5": "Y1*"}, columns=("c3", "j10"), fill=False)
    won = state.play("c5")
    assert won.owners[square] == 0 and won.coins == (14, 15)
    assert won.scores() == (float(DEFAULT_SQUARES[1][1]), 0.0)
    assert "wins the square c3–d4 (worth 4)" in state.parse("c5").description


# --- JB-16 / JB-17: tolls ----------------------------------------------------------------------
def toll_position(**options):
    # B owns a1–b2; A's column on a4 (R2|, its square keeps b3) can land on a2 (B's)
    return position(tiles={"a4": "R2|", "b3": "G1+", "a6": "Y1*"}, columns=("a4", "j10"),
                    owners={"a1": "B"}, fill=False, **options)


def test_JB16_landing_in_a_square_another_owns_pays_a_toll():
    state = toll_position()
    assert "A pays B a toll" in state.parse("a2").description
    after = state.play("a2")
    assert after.coins == (14, 14) and after.tolls == (0, 1)
    assert after.scores() == (0.0, DEFAULT_SQUARES[0][0] + 1.0)
    free = state.play("a6")                                      # an unowned square
    assert free.coins == (15, 14) and free.tolls == (0, 0)


def test_JB16_every_landing_pays_and_own_squares_are_free():
    state = position(tiles={"j9": "G1+"}, columns=("b2", "j9"), empty=("a1", "b1", "a2", "b2"),
                     owners={"a1": "B"})
    first = state.play("b1")                                     # A wanders inside B's square
    assert first.tolls == (0, 1)
    second = first.play("j8").play("a1")
    assert second.tolls == (0, 2) and second.coins[0] == 13
    mine = position(tiles={"j9": "G1+"}, columns=("b2", "j9"), empty=("a1", "b1", "a2", "b2"),
                    owners={"a1": "A"})
    assert mine.play("b1").coins == (14, 15)                     # own square: no toll


def test_JB16_passing_over_an_owned_square_is_free():
    state = position(tiles={"c1": "R4|", "c2": "Y1*"}, columns=("c1", "j10"),
                     empty=("c3", "d3", "c4", "d4"), owners={"c3": "B"})
    after = state.play("c5")                                     # over c3 and c4
    assert after.tolls == (0, 0)


def shortfall_position(**options):
    # coins=2: A has 1 coin and 1 toll coin; leaving c3 wins c3–d4, landing on a3 is B's
    return position(JanusVariant(coins=2, **options), tiles={"c3": "R2+", "j1": "Y1*"},
                    columns=("c3", "j10"), fill=False, owners={"a3": "B"}, coins=(1, 1),
                    tolls=(1, 0))


def test_JB17_a_toll_without_coins_is_waived_by_default():
    state = shortfall_position()
    assert "no coin left for B's toll" in state.parse("a3").description
    after = state.play("a3")
    assert after.coins == (0, 1) and after.tolls == (1, 0)
    assert after.is_over and after.end_reason == "no-coins"


def test_JB17_option_pays_with_a_toll_coin_received():
    after = shortfall_position(toll_shortfall="from-tolls").play("a3")
    assert after.coins == (0, 1) and after.tolls == (0, 1)
    assert after.scores() == (4.0, 6.0) and after.winners() == (1,)


# --- JB-18 .. JB-21: the end and the score -------------------------------------------------------
def test_JB18_the_game_ends_when_the_last_tile_leaves():
    state = position(tiles={"e5": "R1-"}, columns=("e5", "a1"), fill=False)
    over = state.play("f5")
    assert over.is_over and over.current_player == TERMINAL
    assert over.end_reason == "tiles-gone" and over.tiles_left == 0
    assert over.scores() == (5.0, 0.0) and over.winners() == (0,)
    assert "Game over: A wins with 5 points: all tiles are gone (JB-18)." in str(over)


def test_JB18_the_game_ends_when_a_player_runs_out_of_coins():
    state = position(JanusVariant(coins=1), tiles={"e5": "R1-", "j1": "Y1*"},
                     columns=("e5", "a1"), fill=False)
    over = state.play("f5")
    assert over.coins == (0, 1) and over.is_over and over.end_reason == "no-coins"


def test_JB19_the_game_ends_when_nobody_can_move():
    state = position(tiles={"a10": "R1/J", "j1": "B4/J", "e5": "Y1*"}, fill=False,
                     columns=("a10", "j1"))
    one = state.play("pass")
    assert not one.is_over and one.current_player == 1
    over = one.play("pass")
    assert over.is_over and over.end_reason == "stuck"
    assert "no column can move" in str(over)


def test_JB19_one_stuck_column_does_not_end_the_game():
    state = position(tiles={"a10": "R1/J", "e5": "Y1*", "e7": "G1+"}, fill=False,
                     columns=("a10", "e5"))
    after = state.play("pass").play("e6").play("pass")
    assert not after.is_over and after.current_player == 1


def test_JB20_idle_rounds_end_a_wandering_game():
    state = position(tiles={"j1": "Y1*"}, fill=False, columns=("a10", "c10"),
                     idle_rounds=1)
    one = state.play("a9")
    assert one.idle_turns == 1 and not one.is_over
    over = one.play("c9")
    assert over.is_over and over.end_reason == "idle"


def test_JB20_removing_a_tile_resets_the_idle_count():
    state = position(tiles={"c10": "R1-", "j1": "Y1*"}, fill=False, columns=("a10", "c10"))
    assert state.play("a9").idle_turns == 1
    assert state.play("a9").play("d10").idle_turns == 0


def test_JB20_paying_a_toll_resets_the_idle_count():
    state = position(tiles={"j1": "Y1*"}, fill=False, columns=("b2", "c10"),
                     owners={"a1": "B"}, idle_rounds=1)
    paid = state.play("b1")
    assert paid.tolls == (0, 1) and paid.idle_turns == 0
    assert not paid.play("c9").is_over


def test_JB20_idle_rounds_0_turns_the_idle_end_off():
    wander = {"tiles": {"j1": "Y1*"}, "fill": False, "columns": ("a10", "c10")}
    ends = position(idle_rounds=1, **wander).play_line(["a9", "c9"])
    assert ends.is_over and ends.end_reason == "idle"
    state = position(idle_rounds=0, **wander)
    state = state.play_line(["a9", "c9", "a10", "c10"] * 30)   # 120 turns, nothing removed
    assert not state.is_over and state.idle_turns == 120
    assert "idle" not in janus.board()._subline(state)          # no "n of 0 idle turns"


# --- JB-12 (option stuck): a column its tile takes nowhere ---------------------------------
STUCK = {"tiles": {"a10": "R1/J", "e5": "Y1*"}, "fill": False, "columns": ("a10", "e5")}


def test_JB12_stuck_forfeit_a_column_on_a_dead_tile_forfeits_every_turn():
    state = position(**STUCK)
    assert moves(state) == ["pass"]
    exp = state.explain("pass")
    assert exp.legal and exp.rule == "JB-12"
    assert "never will" in exp.reason and "stuck='forfeit'" in exp.reason
    later = state.play_line(["pass", "e6"])                     # B moves, A's turn again
    assert later.current_player == 0 and moves(later) == ["pass"]
    assert later.tile_at("a10").code == "R1/J"                  # JB-12: the tile stays


def test_JB12_stuck_step_the_column_steps_one_field_instead():
    state = position(stuck="step", **STUCK)
    assert moves(state) == ["a9", "b9", "b10"]                  # the three neighbours
    exp = state.explain("b9")
    assert exp.legal and exp.rule == "JB-12" and "stuck='step'" in exp.reason
    assert "leads off the board" in exp.reason
    far = refused(state, "c8", "JB-12")
    assert "not next to it" in far.reason
    refused(state, "pass", "JB-12")                               # it can move now
    after = state.play("b9")
    assert after.tile_at("a10") is None                           # JB-13: the tile left goes
    assert [h.code for h in after.heads[0]] == ["R1/J"]           # ... a head, to A
    assert "A takes the red Janus head" in state.parse("b9").description


def test_JB12_stuck_step_keeps_the_one_column_per_field_rule():
    state = position(stuck="step", tiles={"a10": "R1/J", "b9": "Y1*", "e5": "G1+"},
                     fill=False, columns=("a10", "b9"))
    assert moves(state) == ["a9", "b10"]
    refused(state, "b9", "JB-9")


def test_JB12_a_column_other_columns_block_is_not_stuck_for_good():
    # Only a2 is on the board for the R1| on a1 ... and B stands there: A must pass,
    # under either reading, since B will move on.
    for stuck in ("forfeit", "step"):
        state = position(stuck=stuck, tiles={"a1": "R1|", "a2": "G1+", "e5": "Y1*"},
                         fill=False, columns=("a1", "a2"))
        assert moves(state) == ["pass"], stuck


def test_JB12_stuck_step_with_blocking_empty_fields():
    # The B2| on a5 reaches a3 or a7 only over a4 or a6, both empty for good when
    # empty_fields='block': stuck for good.
    spec = {"tiles": {"a5": "B2|", "e5": "Y1*"}, "fill": False, "columns": ("a5", "e5"),
            "empty_fields": "block"}
    assert moves(position(**spec)) == ["pass"]
    assert "stays empty" in position(**spec).explain("pass").reason
    assert moves(position(stuck="step", **spec)) == ["a4", "b4", "b5", "a6", "b6"]
    # With empty fields counted the same tile reaches a3 and a7 as usual.
    assert moves(position(stuck="step", tiles={"a5": "B2|", "e5": "Y1*"}, fill=False,
                          columns=("a5", "e5"))) == ["a3", "a7"]


# --- JB-16 (option toll_fields): which fields pay ------------------------------------------
def crossing(**options):
    """The issue's example: B's column on c2 (a blue 3, vertical) moving to c5 crosses c3
    and c4 of A's square c3-d4."""
    return position(tiles={"c2": "B3|"}, columns=("a1", "c2"), to_move=1,
                    owners={"c3": "A"}, empty=("c3", "c4", "d3", "d4"), **options)


def test_JB16_toll_fields_landing_crossing_a_square_costs_nothing():
    state = crossing()
    assert state.variant.toll_fields == "landing"
    after = state.play("c5")
    assert after.tolls == (0, 0) and after.coins == (14, 15)
    assert "toll" not in state.parse("c5").description


def test_JB16_toll_fields_entered_every_field_crossed_pays():
    state = crossing(toll_fields="entered")
    after = state.play("c5")
    assert after.tolls == (2, 0) and after.coins == (14, 13)
    assert state.parse("c5").description.endswith("; B pays A 2 tolls.")
    assert after.idle_turns == 0


def test_JB16_toll_fields_entered_counts_the_landing_field_once_and_own_squares_free():
    # B's blue 2 on c2 crosses c3 and lands on c4, both in A's square c3-d4.
    onto = {"tiles": {"c2": "B2|"}, "columns": ("a1", "c2"), "to_move": 1,
            "owners": {"c3": "A"}, "empty": ("c3", "c4", "d3", "d4")}
    assert position(**onto).play("c4").tolls == (1, 0)
    assert position(toll_fields="entered", **onto).play("c4").tolls == (2, 0)
    # B's blue 3 crosses A's c3 and c4 and lands on c5 in B's own square: only A is paid.
    home = {"tiles": {"c2": "B3|"}, "columns": ("a1", "c2"), "to_move": 1,
            "owners": {"c3": "A", "c5": "B"},
            "empty": ("c3", "c4", "d3", "d4", "c5", "c6", "d5", "d6")}
    assert position(**home).play("c5").tolls == (0, 0)
    assert position(toll_fields="entered", **home).play("c5").tolls == (2, 0)


def test_JB16_toll_fields_entered_tolls_to_two_owners_in_the_order_crossed():
    state = position(JanusVariant(players=3, toll_fields="entered"), tiles={"a1": "R5|"},
                     columns=("a1", "j10", "j1"), owners={"a3": "B", "a5": "C"},
                     empty=("a3", "a4", "b3", "b4", "a5", "b5", "a6", "b6"))
    after = state.play("a6")                    # a2 free; a3, a4 (B's); a5, a6 (C's)
    assert after.tolls == (0, 2, 2) and after.coins[0] == 11
    assert state.parse("a6").description.endswith("; A pays B 2 tolls, and A pays C 2 "
                                                  "tolls.")
    landing = position(JanusVariant(players=3), tiles={"a1": "R5|"},
                       columns=("a1", "j10", "j1"), owners={"a3": "B", "a5": "C"},
                       empty=("a3", "a4", "b3", "b4", "a5", "b5", "a6", "b6"))
    assert landing.play("a6").tolls == (0, 0, 1)


def test_JB16_JB17_toll_fields_entered_when_the_coins_run_out_on_the_way():
    # coins=2: B has 1 coin left (the other went to A as a toll, or to A's circle).
    spec = {"tiles": {"c2": "B3|"}, "columns": ("a1", "c2"), "to_move": 1,
            "owners": {"c3": "A"}, "empty": ("c3", "c4", "d3", "d4"), "coins": (1, 1)}
    waived = position(JanusVariant(coins=2, toll_fields="entered"), tolls=(1, 0), **spec)
    assert waived.parse("c5").description.endswith(
        "; B pays A a toll, and B has no coin left for A's toll.")
    over = waived.play("c5")
    assert over.tolls == (2, 0) and over.coins == (1, 0)
    assert over.is_over and over.end_reason == "no-coins"         # JB-18
    paid = position(JanusVariant(coins=2, toll_fields="entered",
                                 toll_shortfall="from-tolls"), tolls=(0, 1), **spec)
    assert paid.parse("c5").description.endswith(
        "; B pays A a toll, and B pays A a toll with a toll coin received earlier.")
    after = paid.play("c5")
    assert after.tolls == (2, 0) and after.coins == (1, 0)


def test_JB21_score_counts_squares_and_tolls_not_coins_and_ties_share():
    state = position(tiles={"e5": "R1-"}, columns=("e5", "a1"), fill=False,
                     owners={"a3": "B"}, tolls=(1, 0), coins=(14, 14))
    # A: square e5–f6 (5) + 1 toll; B: a3–b4 (5) ... then A wins 6 to 5
    over = state.play("f5")
    assert over.scores() == (6.0, 5.0) and over.winners() == (0,)
    tie = position(tiles={"e5": "R1-"}, columns=("e5", "a1"), fill=False,
                   owners={"a3": "B"}).play("f5")
    assert tie.scores() == (5.0, 5.0) and tie.winners() == (0, 1)
    assert tie.returns() == (0.5, 0.5)
    assert "A and B share the win" in str(tie)


# --- JB-22 / JB-23: turn discipline, game over -------------------------------------------------
def test_JB22_only_the_player_to_move_acts_from_their_own_column():
    state = position(tiles={"e5": "R3+"}, columns=("e5", "j10"))
    err = pytest.raises(IllegalMoveError, state.play, "e8", player=1).value
    assert err.rule == "JB-22"
    assert state.play("e5-e8") == state.play("e8") == state.play("e5e8")
    with pytest.raises(InvalidMoveError) as bad:
        state.play("d5-e8")
    assert bad.value.rule == "JB-22" and "stands on e5" in str(bad.value)


def test_JB23_no_move_after_the_end():
    over = position(tiles={"e5": "R1-"}, columns=("e5", "a1"), fill=False).play("f5")
    assert over.legal_moves() == ()
    refused(over, "f6", "JB-23")
    refused(over, "pass", "JB-23")


# --- invariants over whole games ---------------------------------------------------------------
@pytest.mark.parametrize("variant", janus.sample_variants(), ids=lambda v: v.describe())
def test_tiles_only_leave_coins_are_conserved_squares_stay_owned(variant):
    """Walk random games on the lean path and check every transition."""
    engine = janus.engine(variant)
    stream = RandomStream(77)
    n = variant.players
    bound = 1 + (100 + variant.coins * n + n) * (variant.idle_rounds * n + 1)
    for _ in range(4):
        raw = engine.apply(engine.initial(), engine.sample(engine.initial(), stream))
        steps = 0
        while engine.current(raw) != TERMINAL:
            acts = engine.actions(raw)
            new = engine.apply(raw, acts[stream.below(len(acts))])
            engine.check_invariants(new)
            board, new_board = raw[2], new[2]
            assert all(b == a or b == -1 for a, b in zip(board, new_board)), "tiles only leave"
            assert sum(1 for a, b in zip(board, new_board) if a != b) <= 1
            assert all(o == -1 or o == p for o, p in zip(raw[5], new[5])), "owned stays owned"
            assert all(h == nh[:len(h)] for h, nh in zip(raw[6], new[6])), "heads are kept"
            assert all(b <= a for a, b in zip(raw[4], new[4])), "own coins only go"
            assert sum(new[4]) + sum(o >= 0 for o in new[5]) + sum(new[7]) == variant.coins * n
            raw = new
            steps += 1
            assert steps <= bound, "JB-20: every game ends"


def test_lean_playouts_end():
    engine = janus.engine()
    for seed in range(5):
        raw, steps = random_playout(engine, engine.initial(), RandomStream(seed))
        assert engine.current(raw) == TERMINAL and steps < 2000


def test_check_invariants_catches_broken_states():
    state = position(tiles={"c3": "R2+"}, columns=("c3", "j10"))
    engine = state.engine
    raw = list(state.raw)
    for index, value, message in [
        (4, (15, 14), "coins not conserved"),
        (2, state.raw[2][:1] * 2 + state.raw[2][2:], "one field only"),
        (5, (0,) + (-1,) * 24, "still holds tiles"),
        (3, (22, 22), "one column per field"),
        (8, 3, "tiles left"),
    ]:
        broken = list(raw)
        broken[index] = value
        with pytest.raises(AssertionError, match=message):
            engine.check_invariants(tuple(broken))


# --- the readable state, notation, descriptions ----------------------------------------------
def test_state_properties_for_the_canvas():
    state = position(tiles={"e5": "R2-J", "g5": "Y1+"}, columns=("e5", "j10"),
                     owners={"a1": "B"}, empty=("a1", "b1", "a2", "b2"), tolls=(0, 0))
    assert state.phase == "move" and state.mover == 0
    assert state.tile_at("e5").head and state.tile_at(44).lines == "-"
    assert state.tiles[parse_field("g5")].colour == "yellow"
    assert state.owners[0] == 1 and state.coins == (15, 14)
    assert state.columns == (44, 99) and state.column_names == ("e5", "j10")
    assert state.targets == (parse_field("c5"), parse_field("g5"))
    assert state.end_reason is None and len(state.table) == 100
    after = state.play("g5")
    assert [t.code for t in after.heads[0]] == ["R2-J"]
    with pytest.raises(ValueError):
        state.tile_at("k3")


def test_text_form_shows_board_columns_squares_and_players():
    state = position(tiles={"e5": "R2-J"}, columns=("e5", "j10"), owners={"a1": "B"},
                     empty=("a1", "b1", "a2", "b2"))
    text = str(state)
    assert "A:R2-J" in text and "B:" in text
    assert " 1   b      b" in text                                 # B's square, empty fields
    assert "1B" in text                                            # its value and owner
    assert "A  column e5" in text and "coins 14" in text
    assert text.endswith("A to move (96 tiles left).")


def test_descriptions_are_one_sentence():
    state = laid(seed=1)
    stream = RandomStream(1)
    for _ in range(60):
        if state.is_over:
            break
        for move in state.legal_moves():
            d = move.description
            assert d.endswith(".") and d.count(". ") == 0 and d[0].isupper()
        state = state.play(stream.choice(state.legal_moves()))


@pytest.mark.parametrize("text", ["k1", "a11", "a0", "", "x", "pass2", "a1-", "a1-z9",
                                  "=1", "e5-e8-e9"])
def test_malformed_notation_is_refused_with_help(text):
    state = position(tiles={"e5": "R3+"}, columns=("e5", "j10"))
    with pytest.raises(InvalidMoveError) as err:
        state.play(text)
    message = str(err.value)
    assert repr(text) in message and "Legal now:" in message and "e8" in message


def test_action_numbers_are_fixed():
    state = position(tiles={"e5": "R3+"}, columns=("e5", "j10"))
    assert NUM_ACTIONS == 101 and PASS == 100
    assert [m.action for m in state.legal_moves()] == [14, 41, 47, 74]
    assert state.play_action(74) == state.play("e8")
    with pytest.raises(InvalidMoveError):
        state.play_action(10 ** 200)
    with pytest.raises(IllegalMoveError):
        state.play_action(PASS)


@pytest.mark.parametrize("options,field", [
    ({"players": 5}, "players"), ({"players": 1}, "players"), ({"players": "2"}, "players"),
    ({"corner_order": "random"}, "corner_order"), ({"coins": 0}, "coins"),
    ({"distances": "1-6"}, "distances"), ({"pass_columns": "no"}, "pass_columns"),
    ({"empty_fields": "skip"}, "empty_fields"), ({"idle_rounds": -1}, "idle_rounds"),
    ({"toll_shortfall": "debt"}, "toll_shortfall"), ({"chain": True}, "chain"),
    ({"toll_fields": "crossed"}, "toll_fields"), ({"stuck": "wait"}, "stuck")])
def test_bad_variant_values_name_the_field(options, field):
    with pytest.raises(ValueError) as err:
        janus.new(seed=0, **options)
    assert field in str(err.value)


@pytest.mark.parametrize("kwargs,fragment", [
    ({"tiles": {"e5": "R9+"}}, "no unused R9+"),
    ({"tiles": {"e5": 3, "e6": 3}}, "used twice"),
    ({"columns": ("e5",)}, "one field per seat"),
    ({"columns": ("e5", "e5")}, "one column per field"),
    ({"phase": "shuffle"}, "phase"),
    ({"tolls": (3, 0)}, "coins not conserved"),
    ({"heads": {"A": ["R2-J"]}}, "empty="),
    ({"owners": {"a1": "C"}}, "not a seat"),
])
def test_position_builder_refuses_inconsistent_positions(kwargs, fragment):
    with pytest.raises(ValueError) as err:
        position(**kwargs)
    assert fragment in str(err.value)

"""Jinns of the Lake, rule by rule (IDs from seeds/jinns.md)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from janus_widgets import games
from janus_widgets.core import (CHANCE, TERMINAL, IllegalMoveError, InvalidMoveError,
                                RandomStream, Record)
from janus_widgets.core.simulate import random_playout
from janus_widgets.games.jinns.rules import (CELLS, COLOURS, NUM_ACTIONS, JinnsVariant, Pawn,
                                             move_action, position)

from helpers import moves, random_play, refused

jinns = games.get("jinns")
FOUR = JinnsVariant(players=4)
THREE_P = JinnsVariant(players=3)


def pile(state, cell: int) -> str:
    return "".join(str(p) for p in state.pile(cell))


def set_up(variant=None, seed: int = 0):
    """Play the placement by runs, always choosing the first legal pawn."""
    state = jinns.new(variant, seed=seed)
    while state.phase == "setup":
        state = state.play(state.legal_moves()[0])
    return state


def all_pawns(state) -> Counter:
    """Every pawn on the board, in a taken-off tower or set aside."""
    count: Counter = Counter()
    for p in state.piles:
        count.update(p)
    for parts in state.towers:
        for part in parts:
            count.update(part)
    count.update(state.set_aside)
    count.update(state.supply)
    return count


FULL_SET = Counter({Pawn(c, s): 2 for c in COLOURS for s in range(1, 5)})


# --- JI-1: the ring and the pawns ------------------------------------------------------
def test_JI1_thirty_two_pawns_two_of_each_kind():
    state = jinns.new(seed=0)
    assert Counter(state.supply) == FULL_SET and len(state.supply) == 32
    assert all(p == () for p in state.piles) and len(state.piles) == CELLS


def test_JI1_after_placement_every_cell_holds_one_pawn():
    state = set_up()
    assert state.phase == "play" and state.occupied == tuple(range(32))
    assert all(len(p) == 1 for p in state.piles) and state.supply == ()
    assert all_pawns(state) == FULL_SET


def test_JI1_pawns_are_conserved_through_whole_games():
    for variant in (JinnsVariant(), FOUR, THREE_P):
        state = jinns.new(variant, seed=3)
        stream = RandomStream(3)
        while not state.is_over:
            state = state.play(stream.choice(state.legal_moves()))
            pending = state.pending_tower or ()
            assert all_pawns(state) + Counter(pending) == FULL_SET
            assert all(len(p) <= 4 and len({q.colour for q in p}) == len(p)
                       for p in state.piles)


# --- JI-2 / JI-3: seats, colours, alliances -------------------------------------------
@pytest.mark.parametrize("players,colours", [
    (2, (("Y", "R"), ("B", "G"))),
    (3, (("Y", "G"), ("B", "G"), ("R", "G"))),
    (4, (("Y",), ("B",), ("R",), ("G",)))])
def test_JI2_seats_and_colours(players, colours):
    state = jinns.new(players=players, seed=0)
    assert state.controlled_colours == colours and state.num_players == players


def test_JI3_alliances_only_with_four_players():
    assert jinns.new(players=4, seed=0).alliances == ((0, 2), (1, 3))
    four = jinns.new(players=4, seed=0)
    assert [four.ally(s) for s in range(4)] == [2, 3, 0, 1]
    two = jinns.new(seed=0)
    assert two.alliances == () and two.ally(0) is None


# --- JI-4 / JI-5: placement in runs ------------------------------------------------------
def placement_schedule(variant) -> tuple[str, str]:
    """(colour letter of each cell, seat letter placing it) over a whole placement."""
    state = jinns.new(variant, seed=0)
    colours, seats = [], []
    while state.phase == "setup":
        colours.append(state.run_colour)
        seats.append("ABCD"[state.current_player])
        assert state.next_cell == len(colours) - 1
        state = state.play(state.legal_moves()[-1])
    return "".join(colours), "".join(seats)


def test_JI4_two_players_runs_of_four_yellow_blue_red_green():
    colours, seats = placement_schedule(JinnsVariant())
    assert colours == "YYYYBBBBRRRRGGGG" * 2
    assert seats == "AAAABBBBAAAABBBB" * 2


def test_JI4_four_players_each_places_their_colour():
    colours, seats = placement_schedule(FOUR)
    assert colours == "YYYYBBBBRRRRGGGG" * 2
    assert seats == "AAAABBBBCCCCDDDD" * 2


def test_JI5_three_players_four_own_then_two_green_while_green_lasts():
    colours, seats = placement_schedule(THREE_P)
    assert colours == "YYYYGGBBBBGGRRRRGGYYYYGGBBBBRRRR"
    assert seats == "AAAAAABBBBBBCCCCCCAAAAAABBBBCCCC"


def test_JI4_the_placer_chooses_which_pawns_and_their_order():
    state = jinns.new(seed=0)
    assert moves(state) == ["Y1", "Y2", "Y3", "Y4"]
    state = state.play_line(["Y4", "Y4", "Y1"])
    assert [pile(state, c) for c in range(3)] == ["Y4", "Y4", "Y1"]
    assert moves(state) == ["Y1", "Y2", "Y3"]                  # both yellow 4s are down
    err = refused(state, "Y4", "JI-1")
    assert "both are already placed" in err.reason
    err = refused(state, "B1", "JI-4")
    assert "yellow run" in err.reason
    refused(state, "3.1+", "JI-4")
    refused(state, "pass", "JI-4")


def test_JI4_the_second_run_of_a_colour_gets_the_four_pawns_left():
    state = jinns.new(seed=0).play_line(["Y1", "Y1", "Y2", "Y2"])
    while state.next_cell < 16:
        state = state.play(state.legal_moves()[0])
    assert state.run_colour == "Y" and moves(state) == ["Y3", "Y4"]
    state = state.play_line(["Y4", "Y3", "Y4"])
    assert moves(state) == ["Y3"]                              # the order was A's choice


# --- JI-6: random placement -----------------------------------------------------------
def test_JI6_random_placement_is_a_chance_point_per_cell_with_exact_odds():
    state = jinns.new(placement="random", seed=4)
    assert state.is_chance and state.current_player == CHANCE and state.phase == "deal"
    odds = {str(m): p for m, p in state.chance_outcomes()}
    assert len(odds) == 16 and set(odds.values()) == {Fraction(1, 16)}
    state = state.play("=Y3")
    assert pile(state, 0) == "Y3" and state.next_cell == 1
    odds = {str(m): p for m, p in state.chance_outcomes()}
    assert odds["=Y3"] == Fraction(1, 31) and odds["=G2"] == Fraction(2, 31)
    assert sum(odds.values()) == 1
    state = state.play("=Y3")
    assert "=Y3" not in state.legal_moves()
    err = refused(state, "=Y3", "JI-6")
    assert "already on the board" in err.reason
    refused(state, "Y1", "JI-6")                               # players do not place


def test_JI6_random_placement_is_seeded_and_recorded():
    def deal(seed):
        state = jinns.new(placement="random", seed=seed)
        while state.is_chance:
            state = state.play_chance()
        return state

    a, b = deal(21), deal(21)
    assert a.piles == b.piles and a.history == b.history
    assert deal(22).piles != a.piles
    assert a.phase == "play" and a.current_player == 0 and a.occupied == tuple(range(32))
    assert all_pawns(a) == FULL_SET
    record = a.record()
    assert len(record.moves) == 32 and all(m.startswith("=") for m in record.moves)
    data = record.to_dict()
    data["seed"] = 5
    data.pop("result", None)
    assert Record.from_dict(data).final_state().raw == a.raw    # the record, not the seed


def test_JI6_random_placement_draws_every_kind_fairly():
    """The first cell's pawn is uniform over the 16 kinds (each 2 of 32)."""
    eng = jinns.engine(JinnsVariant(placement="random"))
    stream = RandomStream(8)
    counts = Counter(eng.sample(eng.initial(), stream) for _ in range(16_000))
    assert len(counts) == 16
    assert all(800 < c < 1200 for c in counts.values()), counts


# --- JI-7: the first move -------------------------------------------------------------
@pytest.mark.parametrize("variant", [JinnsVariant(), THREE_P, FOUR])
def test_JI7_A_moves_first_after_the_placement(variant):
    state = set_up(variant)
    assert state.phase == "play" and state.current_player == 0


# --- JI-8: what a player may move ------------------------------------------------------
def test_JI8_only_piles_topped_by_your_colour_at_any_depth():
    state = position(piles={0: "B1Y1", 3: "R2", 6: "G1", 9: "Y2B3", 12: "G4R1B2"})
    # Y1 on 0 reaches R2 (3) clockwise and G4R1B2 (12) anticlockwise, where the blue 1
    # carried beneath it would clash; R2 on 3 reaches Y2B3 (9) but not G4R1B2 (12).
    assert state.movable_cells() == (0, 3)
    assert moves(state) == ["0.1+", "0.1-", "0.2+", "3.1+"]
    err = refused(state, "9.1+", "JI-8")
    assert "blue 3" in err.reason and "yellow and red" in err.reason
    err = refused(state, "0.3+", "JI-8")
    assert "only 2 pawns" in err.reason
    err = refused(state, "5.1+", "JI-8")
    assert "cell 5 is empty" in err.reason


def test_JI8_the_moving_pawns_keep_their_order_and_the_rest_stays():
    state = position(piles={0: "G1B2Y3", 5: "R4", 7: "B1", 8: "G2", 20: "G3"})
    after = state.play("0.2+")          # Y3 with B2 beneath it, three occupied cells on
    assert pile(after, 0) == "G1" and pile(after, 8) == "G2B2Y3"
    after = state.play("0.1-")          # Y3 alone, anticlockwise: 20, 8, 7
    assert pile(after, 0) == "G1B2" and pile(after, 7) == "B1Y3"


# --- JI-9: the n-th occupied cell, empty cells do not count ------------------------------
def test_JI9_empty_cells_do_not_count_and_the_ring_wraps_around():
    state = position(piles={2: "B1", 10: "G2", 29: "R3", 30: "B4", 31: "G1"})
    # Clockwise from 29: 30 (1), 31 (2), then past cell 0 to 2 (3).
    # Anticlockwise: 10 (1), 2 (2), then past cell 0 to 31 (3).
    assert state.landings(29, 1) == {2: state.parse("29.1+"), 31: state.parse("29.1-")}
    after = state.play("29.1+")
    assert pile(after, 2) == "B1R3" and after.occupied == (2, 10, 30, 31)


def test_JI9_anticlockwise_wraps_past_cell_zero():
    state = position(piles={1: "Y2", 17: "B1", 30: "G3", 31: "B2"})
    assert state.landing("1.1-") == 30          # 31 (1), 30 (2)
    assert state.landing("1.1+") == 30          # 17 (1), 30 (2): the same cell both ways
    assert moves(state) == ["1.1+"]


def test_JI9_option_distance_is_the_height_of_the_moving_pile():
    piles = {0: "B2R1", 4: "G1", 8: "Y3", 12: "G2", 16: "B4"}
    strength = position(piles=piles)
    height = position(JinnsVariant(distance="height"), piles=piles)
    # The red 1 on top: one occupied cell in the rulebook reading for any depth ...
    assert strength.landing("0.2+") == 4 and strength.landing("0.1+") == 4
    # ... the number of pawns moving in the study variant.
    assert height.landing("0.1+") == 4 and height.landing("0.2+") == 8
    assert height.landing("0.2-") == 12
    exp = height.explain("0.2+")
    assert exp.legal and "2 occupied cells" in exp.reason


# --- JI-10: no cell twice ---------------------------------------------------------------
def test_JI10_a_move_needs_n_other_occupied_cells():
    piles = {0: "Y4", 5: "B1", 9: "G1", 20: "B2"}
    state = position(piles=piles)
    assert state.moves_from(0) == () and moves(state) == ["pass"]
    err = refused(state, "0.1+", "JI-10")
    assert "needs 4 other occupied cells but only 3 remain" in err.reason
    more = position(piles={**piles, 25: "G3"})               # four others: now it moves
    assert moves(more) == ["0.1+", "0.1-"]
    assert more.landing("0.1+") == 25 and more.landing("0.1-") == 5


def test_JI10_a_pawn_never_lands_on_its_own_cell_going_round():
    # Three occupied cells, a strength-3 pawn: counting round would come back to 0.
    state = position(piles={0: "Y3", 1: "B1", 2: "G1"})
    assert moves(state) == ["pass"]
    refused(state, "0.1+", "JI-10")


# --- JI-11: the colour rule ------------------------------------------------------------
def test_JI11_no_two_pawns_of_one_colour_anywhere_in_the_pile():
    state = position(piles={0: "R2", 4: "G3", 8: "Y1R3B2", 12: "B1", 16: "G4"})
    assert state.landing("0.1+") == 8 and state.landing("0.1-") == 12
    err = refused(state, "0.1+", "JI-11")               # a red 3 lies under the blue 2
    assert "two red pawns" in err.reason
    assert moves(state) == ["0.1-"]


def test_JI11_the_pawns_carried_beneath_count_too():
    state = position(piles={0: "G1Y2", 3: "R1", 6: "B1G3", 9: "B2", 12: "B4"})
    assert state.landing("0.1+") == state.landing("0.2+") == 6
    assert moves(state) == ["0.1+", "0.1-", "0.2-", "3.1+", "3.1-"]
    err = refused(state, "0.2+", "JI-11")               # the green 1 carried beneath
    assert "two green pawns" in err.reason


# --- JI-12: the same landing both ways ---------------------------------------------------
def test_JI12_the_same_landing_both_ways_is_one_move():
    state = position(piles={0: "Y1", 7: "B2"})
    assert moves(state) == ["0.1+"]
    assert state.parse("0.1-") == state.parse("0.1+")
    with pytest.raises(IllegalMoveError) as err:
        state.play_action(move_action(0, 1, clockwise=False))
    assert err.value.rule == "JI-12" and "written 0.1+" in str(err.value)
    # Four occupied cells and a 2: the second cell each way is the same cell.
    state = position(piles={0: "Y2", 3: "B1", 10: "G1", 20: "B4"})
    assert state.landing("0.1+") == state.landing("0.1-") == 10
    assert [str(m) for m in state.moves_from(0)] == ["0.1+"]


# --- JI-13: the ally rule (4 players) -------------------------------------------------
def test_JI13_no_covering_a_pile_your_ally_controls():
    # A (yellow): the Y1 on 0 reaches 4 clockwise (red on top: C's) and 12 anticlockwise.
    state = position(FOUR, piles={0: "Y1", 4: "B2R3", 8: "G1", 12: "R2B1"})
    assert moves(state) == ["0.1-"]
    err = refused(state, "0.1+", "JI-13")
    assert "ally C" in err.reason
    # A pile with a red pawn lower down is fine: R2B1 is topped by blue.
    assert pile(state.play("0.1-"), 12) == "R2B1Y1"


def test_JI13_allies_may_cover_opponents_and_opponents_may_cover_anyone():
    state = position(FOUR, piles={0: "R1", 4: "Y2", 8: "G1", 12: "B4"}, to_move=2)
    assert moves(state) == ["0.1-"]                    # C (red) may not cover A's yellow
    state = position(FOUR, piles={0: "G1", 4: "Y2", 8: "R1", 12: "B4"}, to_move=3)
    assert moves(state) == ["0.1+"]                    # D (green) covers yellow freely;
    refused(state, "0.1-", "JI-13")                    # but not its ally's blue


def test_JI13_no_ally_rule_with_two_players():
    state = position(piles={0: "Y1", 4: "R1"})
    assert moves(state) == ["0.1+", "4.1+"]            # A covers its own red and yellow


# --- JI-14: towers of four ---------------------------------------------------------------
def test_JI14_a_tower_of_four_is_taken_off_by_its_maker():
    state = position(piles={0: "R1", 4: "G1B2Y3", 9: "B4", 13: "G2"})
    after = state.play("0.1+")
    assert after.pile(4) == () and after.occupied == (9, 13)
    assert [["".join(map(str, p)) for p in t] for t in after.towers] == [["G1B2Y3R1"], []]
    assert after.scores() == (4.0, 6.0)                # A: 4 × 1; B: B4 and G2 alone
    assert after.current_player == 1


def test_JI14_three_players_keep_the_whole_tower():
    state = position(THREE_P, piles={0: "B1", 4: "G1R2Y3", 9: "Y4", 13: "G3"}, to_move=1)
    after = state.play("0.1+")
    assert [len(t) for t in after.towers] == [0, 1, 0]
    assert after.towers[1][0][-1] == Pawn("B", 1) and after.phase == "play"


# --- JI-15 / JI-22: four players keep a half --------------------------------------------
def test_JI15_the_maker_keeps_a_half_and_the_ally_gains_the_other():
    state = position(FOUR, piles={0: "Y4", 3: "G1R2B3", 5: "B1", 9: "G4", 12: "R3"})
    made = state.play("0.1-")                          # 12, 9, 5, 3: onto the pile of 3
    assert made.phase == "split" and made.current_player == 0
    assert [str(p) for p in made.pending_tower] == ["G1", "R2", "B3", "Y4"]
    assert moves(made) == ["top", "bottom"] and made.pile(3) == ()
    refused(made, "5.1+", "JI-15")
    refused(made, "pass", "JI-15")
    top = made.play("top")
    assert top.current_player == 1 and top.phase == "play"
    assert [str(p) for p in top.towers[0][0]] == ["B3", "Y4"]
    assert [str(p) for p in top.towers[2][0]] == ["G1", "R2"]
    # JI-22: each half scores as a pile of two: 2 × 4 for A; C: 2 × 2 + its R3 on the board.
    assert top.scores() == (8.0, 1.0, 4.0 + 3.0, 4.0)
    bottom = made.play("bottom")
    assert bottom.scores() == (4.0, 1.0, 8.0 + 3.0, 4.0)


def test_JI15_no_halves_with_two_players():
    state = position(piles={0: "Y1", 5: "B2"})
    err = refused(state, "top", "JI-14")
    assert "goes whole" in err.reason


# --- JI-16 / JI-22: four players, a pile of three ------------------------------------------
def test_JI16_take_off_or_leave_the_pile_of_three():
    state = position(FOUR, piles={0: "Y1", 3: "G1B3", 6: "B1", 10: "R4", 14: "G2"})
    made = state.play("0.1+")                          # onto G1B3: a pile of three
    assert made.phase == "three" and made.pending_cell == 3 and made.current_player == 0
    assert moves(made) == ["x3", "leave"]
    refused(made, "x6", "JI-16")
    refused(made, "0.1+", "JI-16")
    off = made.play("x3")
    assert off.pile(3) == () and off.current_player == 1
    assert [str(p) for p in off.towers[0][0]] == ["B3", "Y1"]     # the upper two
    assert [str(p) for p in off.towers[2][0]] == ["G1"]           # the base to ally C
    # JI-22: A 2 × 1 = 2; C 1 × 1 (the base) + R4 on the board.
    assert off.scores() == (2.0, 1.0, 1.0 + 4.0, 2.0)
    left = made.play("leave")
    assert pile(left, 3) == "G1B3Y1" and left.current_player == 1 and left.towers[0] == ()
    assert left.scores()[0] == 3.0


def test_JI16_option_any_turn_take_off_instead_of_moving():
    variant = JinnsVariant(players=4, take_three="any-turn")
    state = position(variant, piles={0: "G1B3Y1", 5: "R1B2Y4", 9: "B1", 13: "G3R2"})
    assert "x0" in moves(state) and "x5" in moves(state) and "x13" not in moves(state)
    err = refused(state, "x9", "JI-16")
    assert "holds 1 pawn" in err.reason
    off = state.play("x5")
    assert off.current_player == 1 and [str(p) for p in off.towers[2][0]] == ["R1"]
    # Making a pile of three does not stop the turn in this reading.
    other = position(variant, piles={0: "Y1", 3: "G1B3", 6: "B1", 10: "R4", 14: "G2"})
    assert other.play("0.1+").phase == "play"
    default = position(FOUR, piles={0: "G1B3Y1", 5: "B1", 9: "R4", 13: "G2"})
    err = refused(default, "x0", "JI-16")
    assert "take_three='any-turn'" in err.reason


def test_JI16_no_piles_of_three_off_with_two_players():
    state = position(piles={0: "Y1", 3: "G1B3", 6: "B1", 10: "R4"})
    after = state.play("0.1+")
    assert after.phase == "play" and pile(after, 3) == "G1B3Y1"
    refused(after, "x3", "JI-16")


# --- JI-17: the shared green (3 players) -------------------------------------------------
def test_JI17_anyone_may_move_green_and_green_on_the_board_scores_for_nobody():
    piles = {0: "G2", 4: "Y1", 8: "B3G1", 12: "R4", 16: "Y3"}
    for seat in range(3):
        state = position(THREE_P, piles=piles, to_move=seat)
        assert {"0.1-", "8.1+", "8.1-", "8.2+", "8.2-"} <= set(moves(state))
    state = position(THREE_P, piles=piles, to_move=1)
    assert state.movable_cells() == (0, 8)            # B's own blue 3 is under the green
    assert state.controller(0) is None and state.controller(8) is None
    assert state.scores() == (4.0, 0.0, 4.0)


@pytest.mark.parametrize("shared,value", [("completer", 8.0), ("zero", 0.0)])
def test_JI17_a_tower_completed_with_green_goes_to_its_maker(shared, value):
    variant = JinnsVariant(players=3, shared_towers=shared)
    state = position(variant, piles={0: "G2", 4: "Y1", 9: "B3R1Y4", 12: "R4"}, to_move=2)
    after = state.play("0.1+")                         # C moves the green 2: 4, 9
    assert after.towers[2] and after.towers[2][0][-1] == Pawn("G", 2)
    assert after.scores()[2] == value + 4.0            # + C's R4 on the board


# --- JI-18 / JI-19: passing and the end ----------------------------------------------------
def test_JI18_a_player_without_moves_passes_and_only_then():
    state = position(piles={0: "Y4", 5: "B1", 9: "G1"})
    assert moves(state) == ["pass"]
    assert state.legal_moves()[0].description.startswith("Pass")
    after = state.play("pass")
    assert after.current_player == 1 and after.passes == 1 and not after.is_over
    err = refused(after, "pass", "JI-18")
    assert "only a player with no move may pass" in err.reason


def test_JI19_the_game_ends_when_every_player_must_pass():
    state = position(piles={0: "Y4", 5: "B4"})
    over = state.play("pass")
    assert over.is_over and over.current_player == TERMINAL
    assert over.end_reason == "all-passed"
    assert over.winners() == (0, 1)                    # JI-23: 4 each, a shared win


def test_JI19_three_players_all_pass_in_turn():
    state = position(THREE_P, piles={0: "Y4", 5: "B4", 9: "R4"})
    one = state.play("pass")
    assert not one.is_over and one.current_player == 1
    two = one.play("pass")
    assert two.is_over and two.winners() == (0, 1, 2)


def test_JI19_a_pass_does_not_end_the_game_while_someone_can_move():
    state = position(piles={0: "Y4", 5: "B1", 9: "G1"})
    after = state.play("pass")
    assert not after.is_over and moves(after) == ["5.1+", "5.1-", "9.1+", "9.1-"]


# --- JI-20: repetition ---------------------------------------------------------------------
SHUTTLE = {0: "B4Y1", 1: "G4", 2: "B3"}    # B has no move; A's yellow 1 shuttles 0 <-> 1
SHUTTLE_LINE = ["0.1+", "pass", "1.1-", "pass"]


def test_JI20_a_shuttle_ends_at_the_third_occurrence_with_limit_3():
    state = position(JinnsVariant(repetition_limit=3), piles=SHUTTLE)
    assert state.repetitions == 1
    state = state.play_line(SHUTTLE_LINE)
    assert state.repetitions == 2 and not state.is_over
    state = state.play_line(SHUTTLE_LINE[:3])
    assert not state.is_over
    state = state.play("pass")                         # the start position, 3rd time
    assert state.is_over and state.end_reason == "repetition" and state.repetitions == 3
    assert state.scores() == (2.0, 7.0) and state.winners() == (1,)
    refused(state, "0.1+", "JI-25")
    assert "came back 3 times (JI-20)" in str(state) and state.outcome().endswith("(JI-20)")


def test_JI20_by_default_a_shuttle_ends_at_the_tenth_occurrence():
    """The default limit is 10, chosen from the measurement in seeds/jinns.md."""
    state = position(piles=SHUTTLE)
    assert JinnsVariant().repetition_limit == 10
    state = state.play_line(SHUTTLE_LINE * 8)
    assert state.repetitions == 9 and not state.is_over
    state = state.play_line(SHUTTLE_LINE[:3])
    assert not state.is_over
    state = state.play("pass")                         # the start position, 10th time
    assert state.is_over and state.end_reason == "repetition" and state.repetitions == 10
    assert state.scores() == (2.0, 7.0) and state.winners() == (1,)
    assert "came back 10 times (JI-20)" in str(state)


@pytest.mark.parametrize("limit,plies", [(2, 4), (3, 8), (4, 12), (5, 16), (10, 36),
                                         (20, 76)])
def test_JI20_the_limit_is_an_option(limit, plies):
    state = position(JinnsVariant(repetition_limit=limit), piles=SHUTTLE)
    for ply in range(plies):
        assert not state.is_over
        state = state.play(SHUTTLE_LINE[ply % 4])
    assert state.is_over and state.end_reason == "repetition"


def test_JI20_without_the_rule_the_shuttle_never_ends():
    state = position(JinnsVariant(repetition_limit=0), piles=SHUTTLE)
    state = state.play_line(SHUTTLE_LINE * 50)
    assert not state.is_over and state.repetitions == 0


def test_JI20_a_change_of_occupied_cells_starts_the_count_again():
    state = position(piles=SHUTTLE).play_line(SHUTTLE_LINE)
    assert state.repetitions == 2
    state = state.play("0.2+")                         # the whole pile leaves cell 0
    assert state.occupied == (1, 2) and state.repetitions == 1


def test_JI20_random_playouts_always_finish():
    for variant in jinns.sample_variants():
        if not variant.repetition_limit:
            continue
        eng = jinns.engine(variant)
        stream = RandomStream(variant.players)
        for _ in range(60):
            raw, steps = random_playout(eng, eng.initial(), stream, max_steps=3000)
            assert eng.current(raw) == TERMINAL, (variant, steps)


# --- JI-21 / JI-23: scoring and winning -----------------------------------------------------
def test_JI21_the_rulebook_examples():
    state = position(piles={3: "B1G4Y2", 8: "B3R1", 14: "Y4"},
                     taken=[["G1B2Y4R3"], []])
    part = state.towers[0][0]
    assert len(part) * part[-1].strength == 4 * 3                 # a tower of 4 under a 3
    assert [state.controller(c) for c in (3, 8, 14)] == [0, 0, 0]
    # 4×3 + 3×2 + 2×1 + 1×4
    assert state.scores() == (12.0 + 6.0 + 2.0 + 4.0, 0.0)


def test_JI21_board_piles_are_never_shared_between_allies():
    state = position(FOUR, piles={0: "Y1R4", 5: "B2", 9: "G1Y3"})
    # Y1R4 is C's alone (red on top) and G1Y3 A's alone, allies or not.
    assert state.scores() == (6.0, 2.0, 8.0, 0.0)


def test_JI23_the_best_score_wins():
    state = position(piles={0: "Y4", 5: "B2R3", 9: "G3"}).play("pass")
    assert state.is_over and state.scores() == (10.0, 3.0) and state.winners() == (0,)
    assert "A wins" in str(state)


# --- JI-24 / JI-25: discipline ----------------------------------------------------------------
def test_JI24_out_of_turn():
    state = position(piles={0: "Y1", 5: "B2", 9: "G1"})
    with pytest.raises(IllegalMoveError) as err:
        state.play("5.1+", player=1)
    assert err.value.rule == "JI-24" and "A's turn" in str(err.value)
    assert state.play("0.1+", player=0).current_player == 1
    chance = jinns.new(placement="random", seed=0)
    with pytest.raises(IllegalMoveError) as err:
        chance.play("=Y1", player=0)
    assert err.value.rule == "JI-6"


def test_JI25_nothing_after_the_end():
    over = position(piles={0: "Y4", 5: "B4"}).play("pass")
    assert over.legal_moves() == ()
    refused(over, "pass", "JI-25")
    refused(over, "Y1", "JI-25")


# --- JI-26: notation ---------------------------------------------------------------------------
def test_JI26_short_forms_are_read():
    state = position(piles={0: "Y1", 5: "B2", 9: "G1B1R2"})
    assert str(state.parse("0+")) == "0.1+"
    # R2 with B1 beneath: two occupied cells, clockwise 0 then 5; anticlockwise 5 then 0.
    assert str(state.parse(" 9.2>5 ")) == "9.2+"
    assert str(state.parse("9.2>0")) == "9.2-"
    assert str(state.parse("y1")) == "Y1" and str(state.parse("=g4")) == "=G4"
    assert str(state.parse("X7")) == "x7" and str(state.parse("PASS")) == "pass"
    with pytest.raises(InvalidMoveError) as err:
        state.parse("9.2>7")
    assert err.value.rule == "JI-9" and "lands on cell 5 or 0" in str(err.value)


@pytest.mark.parametrize("text", ["", "5", "5.", "5.0+", "5.5+", "32.1+", "-1.1+", "x32",
                                  "Y5", "Y0", "Q1", "5.2+9", "5.2>", "5.2>40", "top half",
                                  "=", "5.1+-"])
def test_JI26_malformed_notation_is_refused_with_help(text):
    state = position(piles={0: "Y1", 5: "B2", 9: "G1"})
    with pytest.raises(InvalidMoveError) as err:
        state.play(text)
    message = str(err.value)
    assert repr(text) in message and "Legal now:" in message and "0.1+" in message


def test_JI26_every_action_number_has_notation_that_reads_back():
    state = position(piles={0: "Y1", 5: "B2", 9: "G1"})
    eng = state.engine
    for action in range(NUM_ACTIONS):
        text = eng.notation(state.raw, action)
        assert eng.parse(state.raw, text) == action, text
        assert eng.describe(state.raw, action).endswith(".")
    with pytest.raises(InvalidMoveError):
        state.play_action(NUM_ACTIONS)
    with pytest.raises(InvalidMoveError):
        state.play_action(-1)


# --- descriptions, text, properties ------------------------------------------------------------
def test_descriptions_are_one_sentence_each():
    state = position(piles={0: "R3", 4: "G1B2", 7: "Y1", 9: "B1", 12: "G2"})
    described = {str(m): m.description for m in state.legal_moves()}
    assert described["0.1+"] == ("Move the red 3 from cell 0 clockwise onto the blue 1 on "
                                 "cell 9.")
    state = position(piles={0: "B4Y2R3", 4: "G1", 7: "G2", 9: "G3", 12: "G4"})
    described = {str(m): m.description for m in state.legal_moves()}
    assert described["0.2+"] == ("Move the red 3 with the pawn beneath it from cell 0 "
                                 "clockwise onto the green 3 on cell 9.")
    assert described["0.3-"] == ("Move the red 3 with the 2 pawns beneath it from cell 0 "
                                 "anticlockwise onto the green 2 on cell 7, completing a "
                                 "tower of four that is taken off.")
    assert jinns.new(seed=0).legal_moves()[2].description == "Place a yellow 3 on cell 0."


def test_text_form_names_piles_seats_and_the_turn():
    state = position(FOUR, piles={0: "Y1R4", 5: "B2", 9: "G1Y3"}, to_move=2,
                     taken=[[], ["B1"], [], []])
    text = str(state)
    assert " 0 Y1R4" in text and " 9 G1Y3" in text
    assert "C (red, ally A)" in text and "C to move." in text
    assert "B (blue, ally D): taken off B1" in text


def test_state_properties_for_a_canvas():
    state = position(piles={0: "B2R1", 3: "G2", 8: "Y4", 20: "B1"}, taken=[["G1B2Y3R4"], []])
    assert state.piles[0] == (Pawn("B", 2), Pawn("R", 1)) and state.piles[1] == ()
    assert state.top(0) == Pawn("R", 1) and state.top(1) is None
    assert state.occupied == (0, 3, 8, 20)
    assert state.towers[0][0][-1] == Pawn("R", 4)
    assert state.controller(0) == 0 and state.controller(3) == 1 and state.controller(4) is None
    assert state.movable_cells() == (0,)               # Y4 lacks four other piles
    assert [str(m) for m in state.moves_from(0, 1)] == ["0.1+", "0.1-"]
    # Two deep, the blue 2 beneath would meet the blue 1 on cell 20: one landing only.
    assert state.landings(0, 2) == {3: state.parse("0.2+")}
    assert state.moves_from(3) == () and state.landings(0, 3) == {}
    assert len(state.set_aside) == 32 - 5 - 4 and state.supply == ()
    assert state.next_cell is None and state.run_colour is None
    assert state.pending_tower is None and state.pending_cell is None
    assert state.end_reason is None and state.phase == "play"
    for bad in (-1, 32, "3", 2.0, True):
        with pytest.raises(ValueError, match="cells are numbered"):
            state.pile(bad)
    with pytest.raises(ValueError, match="depth"):
        state.moves_from(0, 5)


def test_state_is_immutable():
    state = position(piles={0: "Y1", 5: "B2", 9: "G1"})
    text = str(state)
    state.play("0.1+")
    with pytest.raises(IllegalMoveError):
        state.play("5.1+")
    assert str(state) == text and state.history == ()
    with pytest.raises(AttributeError):
        state.piles = ()  # type: ignore[misc]


# --- the position builder and variants -----------------------------------------------------------
@pytest.mark.parametrize("kwargs,message", [
    ({"piles": {0: "Y1Y2"}}, "colour twice"),
    ({"piles": {0: "Y1B1R1G1"}}, "tower of four"),
    ({"piles": {0: "Y1", 1: "Y1", 2: "Y1"}}, "too many Y1"),
    ({"piles": {0: "Y1"}, "taken": [["Y1B1R1G1", "Y1"], []]}, "too many Y1"),
    ({"piles": {0: "Y9"}}, "not a pile"),
    ({"piles": {40: "Y1"}}, "cells are numbered"),
    ({"piles": ["Y1"] * 5}, "32 piles"),
    ({"piles": {0: "Y1"}, "to_move": 2}, "to_move"),
    ({"piles": {0: "Y1"}, "taken": [[]]}, "one list of towers per seat"),
    ({"piles": {0: "Y1"}, "taken": [["Y1B1R1"], []]}, "taken-off parts have 4 pawns"),
])
def test_position_builder_refuses_inconsistent_positions(kwargs, message):
    with pytest.raises(ValueError, match=message):
        position(**kwargs)


def test_position_builder_accepts_a_full_ring():
    ring = ["Y1", "."] * 2 + [""] * 28
    state = position(piles=ring)
    assert state.occupied == (0, 2)


@pytest.mark.parametrize("options,field", [
    ({"players": 5}, "players"), ({"players": "2"}, "players"), ({"players": 2.0}, "players"),
    ({"placement": "shuffled"}, "placement"), ({"distance": "far"}, "distance"),
    ({"take_three": "never"}, "take_three"), ({"shared_towers": 1}, "shared_towers"),
    ({"repetition_limit": 1}, "repetition_limit"), ({"repetition_limit": True},
                                                    "repetition_limit"),
    ({"colour": "red"}, "colour")])
def test_bad_variant_values_name_the_field_and_the_allowed(options, field):
    with pytest.raises(ValueError) as err:
        jinns.new(seed=0, **options)
    assert field in str(err.value)
    assert "allowed" in str(err.value) or "options are" in str(err.value)


# --- the movement rule against an independent walk round the ring ------------------------------
def reference_moves(state) -> set[tuple[int, int, int]]:
    """(cell, depth, landing) of every legal move, walking the ring cell by cell."""
    seat = state.current_player
    mine = state.controlled_colours[seat]
    ally = state.ally(seat)
    ally_colour = "YBRG"[ally] if ally is not None else None
    height_mode = state.variant.distance == "height"
    out = set()
    for cell in range(CELLS):
        pawns = state.pile(cell)
        if not pawns or pawns[-1].colour not in mine:
            continue
        for depth in range(1, len(pawns) + 1):
            part = pawns[len(pawns) - depth:]
            n = depth if height_mode else part[-1].strength
            for step in (1, -1):
                visited = {cell}
                here, counted = cell, 0
                while counted < n:
                    here = (here + step) % CELLS
                    if here in visited:
                        break
                    visited.add(here)
                    if state.pile(here):
                        counted += 1
                if counted < n:
                    continue                          # would visit a cell twice
                target = state.pile(here)
                if ally_colour and target[-1].colour == ally_colour:
                    continue
                if {p.colour for p in part} & {p.colour for p in target}:
                    continue
                out.add((cell, depth, here))
    return out


def random_position(variant, seed: int, plies: int):
    return random_play(jinns.new(variant, seed=seed), plies, seed)


@given(seed=st.integers(0, 10_000), plies=st.integers(32, 110),
       variant=st.sampled_from([JinnsVariant(), THREE_P, FOUR,
                                JinnsVariant(distance="height"),
                                JinnsVariant(players=4, distance="height")]))
def test_moves_agree_with_a_walk_round_the_ring(seed, plies, variant):
    state = random_position(variant, seed, plies)
    if state.phase != "play":
        return
    engine_moves = {(m.action >> 3, ((m.action >> 1) & 3) + 1, state.landing(m))
                    for m in state.legal_moves() if m.action < 256}
    assert engine_moves == reference_moves(state)
    if not engine_moves and not any(str(m).startswith("x") for m in state.legal_moves()):
        assert moves(state) == ["pass"]
    for move in state.legal_moves():
        if move.action >= 256:
            continue
        cell = move.action >> 3
        assert move in state.moves_from(cell)
        assert state.landings(cell, ((move.action >> 1) & 3) + 1)[state.landing(move)] == move


@given(seed=st.integers(0, 10_000), variant=st.sampled_from(
    [JinnsVariant(), THREE_P, FOUR, JinnsVariant(placement="random"),
     JinnsVariant(players=4, take_three="any-turn"),
     JinnsVariant(players=3, shared_towers="zero")]))
def test_finished_games_score_by_the_rules(seed, variant):
    state = random_position(variant, seed, 400)
    assert state.is_over and state.end_reason in ("all-passed", "repetition")
    scores = [0] * state.num_players
    for cell in state.occupied:
        who = state.controller(cell)
        if who is not None:
            scores[who] += len(state.pile(cell)) * state.top(cell).strength
    for seat, parts in enumerate(state.towers):
        for part in parts:
            zero = variant.players == 3 and variant.shared_towers == "zero" and \
                part[-1].colour == "G"
            scores[seat] += 0 if zero else len(part) * part[-1].strength
    assert state.scores() == tuple(float(s) for s in scores)
    best = max(scores)
    assert state.winners() == tuple(s for s, v in enumerate(scores) if v == best)
    assert all_pawns(state) == FULL_SET
    if state.end_reason == "all-passed":
        for seat in range(state.num_players):
            probe = position(variant, piles={c: "".join(map(str, state.pile(c)))
                                             for c in state.occupied},
                             to_move=seat)
            assert moves(probe) == ["pass"]
    else:
        assert state.repetitions == variant.repetition_limit


def test_lean_and_checked_paths_agree():
    eng = jinns.engine()
    stream = RandomStream(9)
    raw = eng.initial()
    state = jinns.new(seed=0)
    while eng.current(raw) != TERMINAL:
        acts = eng.actions(raw)
        assert [m.action for m in state.legal_moves()] == list(acts)
        action = acts[stream.below(len(acts))]
        raw = eng.apply(raw, action)
        state = state.play_action(action)
        assert state.raw == raw
    assert state.is_over and state.legal_moves() == ()

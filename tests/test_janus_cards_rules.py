"""The Janus card game, rule by rule (IDs from seeds/janus-cards.md)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from janus_widgets import games
from janus_widgets.core import (CHANCE, TERMINAL, IllegalMoveError, InvalidMoveError,
                                RandomStream, Record, VariantError)
from janus_widgets.games.janus_cards.rules import JanusCardsVariant, position
from janus_widgets.games.janus_cards.tables import (AGREE, CARDS, CHANCE_BASE, DRAW_PP,
                                                    NUM_ACTIONS, SYMBOL_NAMES, deck_size,
                                                    discard_action, draw_action)

from helpers import moves, random_play, refused

cards = games.get("janus-cards")


def dealt(seed: int = 0, **options):
    """A new game with the deal and the first turned-up card played by chance."""
    state = cards.new(seed=seed, **options)
    while state.is_chance:
        state = state.play_chance()
    return state


def random_game(seed: int, plies: int, **options):
    return random_play(cards.new(seed=seed, **options), plies, seed)


# --- JC-1: the deck -------------------------------------------------------------
@pytest.mark.parametrize("symbols", [3, 4, 7, 11])
def test_JC1_every_pair_of_symbols_once_doubles_included(symbols):
    players = min(2 if symbols == 3 else 3, 6)
    state = cards.new(seed=0, symbols=symbols, players=players)
    deck = state.unturned
    assert len(deck) == deck_size(symbols) == symbols * (symbols + 1) // 2
    pairs = {frozenset(card) for card in deck}
    assert len(pairs) == len(deck)                     # no card twice
    names = SYMBOL_NAMES[:symbols]
    assert pairs == {frozenset((a, b)) for i, a in enumerate(names) for b in names[i:]}
    sides = Counter(s for card in deck for s in card)
    assert set(sides.values()) == {symbols + 1}        # each symbol on n+1 sides


def test_JC1_the_box_has_66_cards_55_mixed_and_11_doubles():
    deck = cards.new(seed=0).unturned
    assert len(deck) == 66
    assert sum(a == b for a, b in deck) == 11


def test_JC1_cards_are_never_made_or_lost():
    state = random_game(3, 150, players=3, symbols=5)
    assert state.ply > 30
    total = (sum(state.hand_sizes) + len(state.pile) + len(state.unturned)
             + 3 * len(state.trios))
    assert total == deck_size(5)


# --- JC-2: seats and the allowed player counts ------------------------------------
@pytest.mark.parametrize("symbols,most", [(3, 2), (4, 4), (5, 6), (11, 6)])
def test_JC2_player_range_follows_the_deck(symbols, most):
    assert JanusCardsVariant(symbols=symbols, players=most).players == most
    if most < 6:
        with pytest.raises(VariantError) as err:
            JanusCardsVariant(symbols=symbols, players=most + 1)
        assert err.value.field == "players" and f"2 … {most}" in str(err.value)


def test_JC2_A_deals_and_begins_then_seat_order():
    state = dealt(seed=1, players=3)
    assert state.current_player == 0 and state.phase == "play"
    for expected in (1, 2, 0, 1):
        state = state.play(state.legal_moves().get("x1") or state.legal_moves()[0])
        while state.is_chance:
            state = state.play_chance()
        assert state.current_player == expected


# --- JC-3 / JC-9: two sides; holding a drawn card -------------------------------
def test_JC9_a_card_drawn_from_a_hand_turns_its_old_back_to_the_drawer():
    state = position(hands=[["s/m"], ["h/c", "k/f"], ["l/b"]], pile=["t/r"])
    assert state.view(0).shown("B1") == "crown"       # A sees the back of B's card
    after = state.play("dB1")
    assert after.hands[0] == (("sun", "moon"), ("crown", "heart"))
    a, b, c = (after.view(p).card("A2") for p in range(3))
    assert (a.front, a.back) == ("crown", None)        # A never saw the heart side
    assert (b.front, b.back) == (None, "heart")        # B never saw its crown side either
    assert (c.front, c.back) == ("crown", "heart")     # C saw both, one after the other
    assert after.view(1).shown("A2") == "heart"


def test_JC9_a_card_drawn_from_the_pile_keeps_its_face_up_side_towards_the_drawer():
    state = position(hands=[["s/m"], ["h/c"], ["l/b"]], pile=["t/r", "k/f"])
    after = state.play("dP")
    assert after.hands[0][-1] == ("tree", "ring")
    assert after.view(0).card("A2").back is None
    assert after.view(1).card("A2").back == "ring"
    assert after.pile == (("key", "fish"),)            # the card below is on top now


def test_JC9_slots_close_up_and_new_cards_go_last():
    state = position(hands=[["s/m"], ["h/c", "k/f", "l/b"], ["t/r"]], pile=["w/w"])
    after = state.play("dB2")
    assert after.hands[1] == (("heart", "crown"), ("leaf", "bell"))
    assert after.hands[0][-1] == ("fish", "key")


# --- JC-4: chance decides the cards ------------------------------------------------
def test_JC4_deal_outcomes_are_exact_and_doubles_count_once():
    state = cards.new(seed=0)
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 55 * 2 + 11
    odds = {str(m): p for m, p in outcomes}
    assert sum(odds.values()) == 1
    assert odds["=s/m"] == odds["=m/s"] == Fraction(1, 132)
    assert odds["=s/s"] == Fraction(1, 66)


def test_JC4_deal_goes_round_two_cards_each_then_the_pile_turns_up():
    state = cards.new(seed=4, players=3)
    for seat in (0, 1, 2, 0, 1, 2):
        assert state.is_chance and state.turn == seat and state.phase == "deal"
        state = state.play_chance()
    assert state.hand_sizes == (2, 2, 2)
    assert state.phase == "reveal" and state.current_player == CHANCE
    state = state.play_chance()
    assert state.phase == "play" and len(state.pile) == 1
    assert len(state.unturned) == 66 - 7


def test_JC4_outcomes_are_played_by_notation_and_recorded():
    state = cards.new(seed=0, players=2, symbols=3).play_line(
        ["=s/m", "=h/h", "=m/h", "=s/s", "=m/m"])
    assert state.hands == ((("sun", "moon"), ("moon", "heart")),
                           (("heart", "heart"), ("sun", "sun")))
    assert state.pile == (("moon", "moon"),)
    assert state.record().moves[:2] == ["=s/m", "=h/h"]
    refused(state, "=s/h", "JC-19")                    # no chance point now
    err = refused(cards.new(seed=0, players=2, symbols=3).play("=s/m"), "=m/s", "JC-4")
    assert "not among the unturned" in err.reason
    with pytest.raises(IllegalMoveError) as err2:
        cards.new(seed=0, players=2, symbols=3).play_action(CHANCE_BASE + 1)  # sun/sun reversed
    assert err2.value.rule == "JC-4" and "=s/s" in err2.value.reason


def test_JC4_a_player_cannot_act_for_chance():
    state = cards.new(seed=0)
    refused(state, "agree", "JC-4")
    refused(state, "x1", "JC-4")
    err = refused(cards.new(seed=0, symbols=4, players=2), "=w/w", "JC-1")
    assert "no wave/wave card" in err.reason


# --- JC-5: the dealt cards' exception --------------------------------------------
def test_JC5_look_a_player_knows_both_sides_of_their_dealt_cards():
    state = dealt(seed=2)
    for seat in range(4):
        view = state.view(seat)
        assert all(c.known for c in view.hands[seat])
        for other in range(4):
            if other != seat:
                assert all(c.front is None and c.back for c in view.hands[other])


def test_JC5_none_a_player_sees_only_the_side_facing_them():
    state = dealt(seed=2, deal_peek="none")
    for seat in range(4):
        view = state.view(seat)
        assert all(c.front and c.back is None for c in view.hands[seat])


# --- JC-6: the pile -----------------------------------------------------------------
def test_JC6_taking_the_last_turned_card_turns_up_the_next_by_chance():
    state = dealt(seed=5, players=3)
    assert len(state.pile) == 1
    after = state.play("dP")
    assert after.is_chance and after.phase == "reveal" and after.turn == 1
    outcomes = after.chance_outcomes()
    assert len(outcomes) == sum(1 if a == b else 2 for a, b in after.unturned)
    turned = after.play_chance()
    assert turned.current_player == 1 and len(turned.pile) == 1


def test_JC6_discards_go_on_top_no_chance_needed():
    state = dealt(seed=5, players=3)
    top = state.pile[0]
    after = state.play("x1")
    assert not after.is_chance and after.pile[1] == top
    assert after.pile[0] == state.hands[0][0]          # the discarder's side is up


# --- JC-7 / JC-8: drawing ---------------------------------------------------------
def test_JC8_draw_options_one_or_two_from_different_players_or_with_the_pile():
    state = position(hands=[["s/m"], ["h/c", "k/f"], ["l/b"]], pile=["t/r"])
    assert moves(state) == ["dB1", "dB2", "dC1", "dP", "dB1+C1", "dB1+P", "dB2+C1",
                            "dB2+P", "dC1+P", "x1", "agree"]
    err = refused(state, "dB1+B2", "JC-8")
    assert "two_from_one_player=False" in err.reason
    refused(state, "dA1", "JC-8")
    err = refused(state, "dC2", "JC-8")
    assert "holds only 1 card" in err.reason
    with pytest.raises(IllegalMoveError) as err2:
        state.play_action(DRAW_PP)
    assert err2.value.rule == "JC-8" and "two_from_pile=False" in err2.value.reason
    with pytest.raises(IllegalMoveError) as err3:
        state.play_action(draw_action((4, 0)))         # seat E in a 3-player game
    assert err3.value.rule == "JC-2"


def test_JC8_options_allow_two_from_one_player_and_two_from_the_pile():
    v = JanusCardsVariant(players=3, two_from_pile=True, two_from_one_player=True)
    state = position(v, hands=[["s/m"], ["h/c", "k/f"], ["l/b"]], pile=["t/r", "w/w"])
    assert "dB1+B2" in moves(state) and "dP+P" in moves(state)
    both = state.play("dB1+B2")
    assert both.hand_sizes == (3, 0, 1)
    assert both.hands[0][1:] == (("crown", "heart"), ("fish", "key"))
    pp = state.play("dP+P")
    assert pp.hands[0][1:] == (("tree", "ring"), ("wave", "wave"))
    assert pp.is_chance and pp.phase == "reveal"       # the pile is out of turned cards


def test_JC8_two_from_the_pile_turns_up_the_second_card_first():
    v = JanusCardsVariant(players=3, two_from_pile=True)
    state = position(v, hands=[["s/m"], ["h/c"], ["l/b"]], pile=["t/r"])
    half = state.play("dP+P")
    assert half.is_chance and half.hand_sizes == (2, 1, 1) and half.turn == 0
    done = half.play("=k/f")
    assert done.hands[0][-1] == ("key", "fish") and done.is_chance  # and the next turns up
    assert done.turn == 1
    assert done.view(1).card("A3").back == "fish"
    assert done.view(0).card("A3").back is None


def test_JC8_halfway_through_a_two_card_pile_draw_three_alike_fronts_are_allowed():
    """The reachable position of issue 13: A holds three moon fronts after the first of
    two pile cards; the trio waits for the second card (JC-8, JC-12), and every check
    of the invariants along the way accepts it."""
    v = JanusCardsVariant(players=4, symbols=5, deal_peek="none", two_from_pile=True,
                          two_from_one_player=True, auto_end=False)
    state = cards.new(v, seed=11)
    for move in "=m/s =h/s =k/c =k/k =m/m =s/s =s/c =c/c =m/k dP+P".split():
        state = state.play(move)
        state.engine.check_invariants(state.raw)
    assert state.phase == "reveal" and state.turn == 0
    assert [front for front, _ in state.hands[0]] == ["moon", "moon", "moon"]
    assert cards.from_raw(state.raw, v).raw == state.raw      # a position one may build
    done = state.play_chance()
    state.engine.check_invariants(done.raw)
    assert done.trio_counts[0] == 1                          # laid with the second card
    # The same hand is refused when A is not the one drawing (B's turn) ...
    with pytest.raises(ValueError, match="A holds an unlaid trio"):
        cards.from_raw(state.raw[:1] + (1,) + state.raw[2:], v)
    # ... and when no draw is halfway (a card simply turns up on the pile).
    with pytest.raises(ValueError, match="A holds an unlaid trio"):
        cards.from_raw(state.raw[:9] + (0,) + state.raw[10:], v)


def test_JC8_the_empty_pile_cannot_be_drawn():
    v = JanusCardsVariant(players=2, symbols=3)
    empty = position(v, hands=[["s/m", "h/h", "m/h"], ["m/m", "s/s", "s/h"]])
    assert empty.pile_size == 0 and "dP" not in moves(empty)
    refused(empty, "dP", "JC-8")


# --- JC-10: hand limit ----------------------------------------------------------
def test_JC10_four_cards_no_draw_three_cards_one_draw_none_must_draw():
    four = position(hands=[["s/m", "h/c", "k/f", "l/b"], ["t/r"], ["w/w"]], pile=["s/s"])
    assert all(m.startswith("x") or m == "agree" for m in moves(four))
    err = refused(four, "dB1", "JC-10")
    assert "four cards" in err.reason
    three = position(hands=[["s/m", "h/c", "k/f"], ["t/r"], ["w/w"]], pile=["s/s"])
    assert "dB1" in moves(three) and "dB1+C1" not in moves(three)
    refused(three, "dB1+C1", "JC-10")
    none = position(hands=[[], ["t/r"], ["w/w"]], pile=["s/s"])
    assert moves(none) == ["dB1", "dC1", "dP", "dB1+C1", "dB1+P", "dC1+P", "agree"]
    err = refused(none, "x1", "JC-10")
    assert "must draw" in err.reason


# --- JC-11: discarding ---------------------------------------------------------------
def test_JC11_discard_two_the_second_ends_on_top_front_up():
    state = position(hands=[["s/m", "h/c", "k/f"], ["t/r"], ["w/w"]], pile=["s/s"])
    after = state.play("x13")
    assert after.pile == (("key", "fish"), ("sun", "moon"), ("sun", "sun"))
    assert after.hands[0] == (("heart", "crown"),)
    for seat in range(3):
        assert after.view(seat).card("P1").front == "key"
    assert after.view(0).card("P1").back is None       # A still never saw fish
    assert after.view(1).card("P1").back == "fish"
    err = refused(state, "x4", "JC-11")
    assert "only 3 cards" in err.reason


# --- JC-12: trios --------------------------------------------------------------------
def test_JC12_a_trio_is_laid_at_once_symbol_side_up():
    """trio_backs="hidden" (the default): A never saw the far sides of A's suns and
    does not see them now; B and C saw them while A held the cards, and keep them."""
    state = position(hands=[["s/m", "s/h"], ["k/s", "f/b"], ["c/l"]], pile=["t/r"])
    assert state.variant.trio_backs == "hidden"
    after = state.play("dB1")
    assert after.trios == ((0, "sun"),) and after.trio_counts == (1, 0, 0)
    assert after.hand_sizes == (0, 1, 1) and after.current_player == 1
    mine = after.view(0).trios[0].cards
    assert [c.front for c in mine] == ["sun"] * 3       # the symbol side, up for all
    assert [c.back for c in mine] == [None, None, None]  # A dealt and drew them sun-side
    for seat in (1, 2):
        assert [c.back for c in after.view(seat).trios[0].cards] == ["moon", "heart", "key"]
    # A's odds of a far side count the deck; B's are certain; the panel says so.
    odds = after.view(0).other_side_odds("T1a")
    assert sum(odds.values()) == 1 and len(odds) > 1
    assert after.view(1).other_side_odds("T1a") == {"moon": 1}
    assert "A lays a trio of suns for A" in after.history_for(1)[-1]
    assert "Trios laid (symbol side up)" in cards.draw(after.view(0)).texts()


def test_JC12_option_shown_lays_trios_open():
    """trio_backs="shown" (the reading before issue 13): both sides seen by all."""
    v = JanusCardsVariant(players=3, trio_backs="shown")
    state = position(v, hands=[["s/m", "s/h"], ["k/s", "f/b"], ["c/l"]], pile=["t/r"])
    after = state.play("dB1")
    for seat in range(3):
        assert all(c.known for c in after.view(seat).trios[0].cards)
    assert "Trios laid (open: both sides shown)" in cards.draw(after.view(0)).texts()


def test_JC12_a_trio_A_laid_with_a_side_A_once_saw_keeps_it():
    """The layer keeps what it saw before: with the deal's look (JC-5) A knows both
    sides of the two cards A was dealt."""
    state = cards.new(JanusCardsVariant(players=2, symbols=3), seed=0).play_line(
        ["=s/m", "=h/h", "=s/h", "=m/m", "=s/s"])
    after = state.play("dP")                         # A: sun/moon, sun/heart, sun/sun
    assert after.trios == ((0, "sun"),)
    assert [c.back for c in after.view(0).trios[0].cards] == ["moon", "heart", None]
    assert [c.back for c in after.view(1).trios[0].cards] == ["moon", "heart", "sun"]


def test_JC12_with_four_matching_fronts_the_lowest_three_are_laid():
    v = JanusCardsVariant(players=3)
    state = position(v, hands=[["s/m", "s/h"], ["k/s", "f/b"], ["c/s"]], pile=["t/r"])
    after = state.play("dB1+C1")
    assert after.hand_sizes == (1, 1, 0)
    assert after.hands[0] == (("sun", "crown"),)       # the highest slot stays


def test_JC12_a_trio_passing_over_a_lower_slot_tells_everyone_it_differs():
    state = position(hands=[["s/m", "h/f"], ["k/s", "t/b"], ["c/s"]], pile=["t/r"])
    assert "sun" in state.view(1).other_side_odds("A2")
    after = state.play("dB1+C1")                       # fronts: sun, heart, sun, sun
    assert after.trios == ((0, "sun"),) and after.hands[0] == (("heart", "fish"),)
    # B and C never saw A's heart side, and now know it is not a sun.
    for seat in (1, 2):
        odds = after.view(seat).other_side_odds("A1")
        assert "sun" not in odds and sum(odds.values()) == 1


def test_JC12_discards_never_form_a_trio():
    state = position(hands=[["s/m", "s/h", "c/f"], ["k/b"], ["c/l"]], pile=["s/t"])
    after = state.play("x3")
    assert after.trios == () and after.hand_sizes == (2, 1, 1)


# --- JC-13: memory and the no-trio facts ---------------------------------------------
def test_JC13_a_seat_remembers_sides_it_saw_before():
    state = position(hands=[["s/m"], ["h/c"], ["l/b"]], pile=["t/r"])
    state = state.play("dB1").play("dA2")              # B takes back the card it lost
    view_c = state.view(2)
    assert view_c.card("B1").known                      # C saw both sides on the way
    assert state.view(1).card("B1").back is None        # B never saw its crown side
    assert state.view(1).card("B1").front == "heart"


def test_JC13_the_no_trio_fact_excludes_a_symbol():
    state = position(hands=[["l/b"], ["s/h", "m/c"], ["k/s"]], pile=["t/r"], to_move=1,
                     remembered={0: ["B1"]})
    before = state.view(0).other_side_odds("B2")
    assert before["sun"] > 0
    after = state.play("dC1")                           # B now holds sun, ?, sun
    view = after.view(0)
    assert len(view.no_trios) == 1
    odds = view.other_side_odds("B2")
    assert "sun" not in odds and sum(odds.values()) == 1


# --- JC-14: agreeing to end -------------------------------------------------------
def test_JC14_agreeing_is_free_and_unanimity_ends_the_game():
    state = position(hands=[["s/m"], ["h/c"], ["l/b"]], pile=["t/r"])
    state = state.play("agree")
    assert state.current_player == 0 and state.agreed == (0,)
    assert "agree" not in moves(state)
    refused(state, "agree", "JC-14")
    state = state.play("x1").play("agree").play("x1").play("agree")
    assert state.is_over and state.end_reason == "agreed"
    assert state.winners() == (0, 1, 2)                 # nobody has a trio: a tie


def test_JC14_a_trio_after_agreeing_belongs_to_nobody():
    state = position(hands=[["s/m", "s/h"], ["k/s", "f/b"], ["c/l"]], pile=["t/r"],
                     agreed=(0,))
    after = state.play("dB1")
    assert after.trios == ((None, "sun"),) and after.trio_counts == (0, 0, 0)
    assert "for nobody" in after.history_for(None)[-1]


THREE_HANDS = {"hands": [["s/m"], ["h/c"], ["l/b"]], "pile": ["t/r"]}
JOINT = JanusCardsVariant(players=3, agreement="joint")


def test_JC14_agreement_binding_an_agreement_stands_until_everyone_has_agreed():
    state = position(**THREE_HANDS).play_line(["agree", "x1", "x1"])   # B does not agree
    assert state.agreed == (0,) and state.current_player == 2
    state = state.play_line(["agree", "dP"])                            # C agrees
    assert state.current_player == 0 and "agree" not in moves(state)   # A agreed for good
    state = state.play_line(["dP", "agree"])                            # B agrees last
    assert state.is_over and state.end_reason == "agreed"


def test_JC14_agreement_joint_everyone_in_turn_ends_the_game():
    state = position(JOINT, **THREE_HANDS)
    assert "a turn without agreeing ends the proposal" in state.explain("agree").reason
    state = state.play_line(["agree", "x1", "agree", "x1", "agree"])
    assert state.is_over and state.end_reason == "agreed"


def test_JC14_agreement_joint_a_turn_without_agreeing_ends_the_proposal():
    state = position(JOINT, **THREE_HANDS).play_line(["agree", "x1"])
    assert state.agreed == (0,)
    state = state.play("x1")                                  # B plays on without agreeing
    assert state.agreed == () and not state.is_over
    state = state.play_line(["agree", "dP", "agree", "dP"])   # C, then A, propose anew
    assert state.agreed == (0, 2) and state.current_player == 1
    assert "agree" in moves(state)
    over = state.play("agree")                                # ... and B agrees: C, A, B
    assert over.is_over and over.end_reason == "agreed"


def test_JC14_agreement_joint_a_trio_after_agreeing_is_its_makers():
    hands = {"hands": [["s/m", "s/h"], ["k/s", "f/b"], ["c/l"]], "pile": ["t/r"]}
    binding = position(agreed=(0,), **hands).play("dB1")
    assert binding.trios == ((None, "sun"),)
    joint = position(JOINT, agreed=(0,), **hands).play("dB1")
    assert joint.trios == ((0, "sun"),) and joint.trio_counts == (1, 0, 0)
    assert "for A" in joint.history_for(None)[-1]
    assert joint.agreed == (0,)                               # A's proposal still stands


# --- JC-15 / JC-17: proven end, nothing left -------------------------------------------
def test_JC15_the_game_ends_when_no_symbol_is_on_three_cards():
    v = JanusCardsVariant(players=2, symbols=3, trio_backs="shown")
    state = position(v, hands=[["s/s", "s/m"], ["h/s"]], pile=["m/m"])
    after = state.play("dB1")
    assert after.is_over and after.end_reason == "proven" and after.winners() == (0,)
    keep = position(v.replace(auto_end=False), hands=[["s/s", "s/m"], ["h/s"]],
                    pile=["m/m"]).play("dB1")
    assert not keep.is_over and keep.current_player == 1
    # With trio sides hidden nobody can make the count, so the proof does not end it.
    hidden = position(v.replace(trio_backs="hidden"), hands=[["s/s", "s/m"], ["h/s"]],
                      pile=["m/m"]).play("dB1")
    assert not hidden.is_over and hidden.trios == ((0, "sun"),)


def test_JC17_the_game_ends_when_every_card_is_in_a_trio():
    v = JanusCardsVariant(players=2, symbols=5)
    state = position(v, hands=[["k/s", "k/k"], ["h/k"]],
                     trios=[("A", ["s/s", "s/m", "s/h"]), ("B", ["m/m", "m/c", "m/k"]),
                            ("B", ["h/m", "h/h", "h/c"]), ("A", ["c/s", "c/c", "c/k"])])
    after = state.play("dB1")
    assert after.is_over and after.end_reason == "exhausted"
    assert after.trio_counts == (3, 2) and after.winners() == (0,)


# --- JC-16: no progress ----------------------------------------------------------------
def test_JC16_rounds_without_a_trio_end_the_game():
    v = JanusCardsVariant(players=2, symbols=4, stall_rounds=2)
    state = position(v, hands=[["s/m"], ["h/c"]], pile=["c/c"])
    for _ in range(3):
        state = state.play("x1") if state.hand_sizes[state.current_player] else \
            state.play("dP")
        assert not state.is_over
    state = state.play(state.legal_moves()[0])
    assert state.is_over and state.end_reason == "stalled" and state.stall == 4


def test_JC16_every_random_game_finishes():
    engine = cards.engine()
    from janus_widgets.core.simulate import random_playout
    stream = RandomStream(8)
    for _ in range(30):
        raw, steps = random_playout(engine, engine.initial(), stream, max_steps=100_000)
        assert engine.current(raw) == TERMINAL and steps < 100_000


# --- JC-18: winning ----------------------------------------------------------------
def test_JC18_most_trios_wins_ties_share():
    v = JanusCardsVariant(players=3)
    state = position(v, hands=[["s/m"], ["h/c"], ["l/b"]], pile=["t/r"],
                     trios=[("A", ["k/k", "k/s", "k/m"]), ("B", ["f/f", "f/s", "f/m"])])
    state = state.play("agree").play("x1").play("agree").play("x1").play("agree")
    assert state.winners() == (0, 1) and state.returns() == (0.5, 0.5, 0.0)
    assert state.scores() == (1.0, 1.0, 0.0)


# --- JC-19 / JC-20: discipline and the end --------------------------------------------
def test_JC19_out_of_turn_and_JC20_after_the_end():
    state = position(hands=[["s/m"], ["h/c"], ["l/b"]], pile=["t/r"])
    with pytest.raises(IllegalMoveError) as err:
        state.play("x1", player=1)
    assert err.value.rule == "JC-19" and "A's turn" in str(err.value)
    over = state.play("agree").play("x1").play("agree").play("x1").play("agree")
    assert over.legal_moves() == () and over.current_player == TERMINAL
    refused(over, "dP", "JC-20")


# --- notation, numbering, descriptions --------------------------------------------
def test_action_numbers_are_fixed_and_documented():
    assert (draw_action((1, 0)), draw_action(None), draw_action((1, 0), None)) == \
        (4, 24, 134)
    assert DRAW_PP == 325 and discard_action(0) == 326 and discard_action(0, 1) == 330
    assert AGREE == 342 and CHANCE_BASE == 343 and NUM_ACTIONS == 475
    state = position(hands=[["s/m"], ["h/c", "k/f"], ["l/b"]], pile=["t/r"])
    assert state.parse("dB1+P").action == state.parse("dP+B1").action == 134


@pytest.mark.parametrize("text,canonical", [("db1", "dB1"), ("dP+b2", "dB2+P"),
                                            ("dC1+B1", "dB1+C1"), (" X1 ", "x1"),
                                            ("x1+2", "x12"), ("=sun/moon", "=s/m"),
                                            ("END", "agree")])
def test_notation_is_read_in_any_order_and_case(text, canonical):
    state = position(hands=[["s/m", "h/h"], ["h/c", "k/f"], ["l/b"]], pile=["t/r"])
    assert str(state.parse(text)) == canonical


@pytest.mark.parametrize("text", ["", "d", "dQ1", "dB9", "dB0", "dB", "dB1+B1",
                                  "dB1+C1+P", "x", "x5", "x11", "x123", "=s", "=z/m",
                                  "draw", "dD1", 42, None])
def test_malformed_notation_is_refused_with_help(text):
    state = position(hands=[["s/m"], ["h/c"], ["l/b"]], pile=["t/r"])
    with pytest.raises(InvalidMoveError) as err:
        state.play(text)
    if isinstance(text, str):
        assert repr(text) in str(err.value) and "Legal now:" in str(err.value)


def test_descriptions_are_sentences_that_name_only_the_pile_top():
    state = position(hands=[["s/m", "h/h"], ["h/c", "k/f"], ["l/b"]], pile=["t/r"])
    described = {str(m): m.description for m in state.legal_moves()}
    assert described["dB1"] == "Draw B's card 1."
    assert described["dB2+P"] == "Draw B's card 2 and the top card of the pile (it shows tree)."
    assert described["x21"] == ("Discard your cards 2 and 1 onto the pile, your sides up, "
                                "card 1 on top.")
    for text in described.values():
        assert text.endswith(".")
        named = {s for s in SYMBOL_NAMES if s in text}
        assert named <= {"tree"}


@pytest.mark.parametrize("options,field", [
    ({"players": 7}, "players"), ({"players": 1}, "players"), ({"players": "3"}, "players"),
    ({"symbols": 2}, "symbols"), ({"symbols": 12}, "symbols"), ({"symbols": 5.0}, "symbols"),
    ({"deal_peek": "both"}, "deal_peek"), ({"two_from_pile": 1}, "two_from_pile"),
    ({"stall_rounds": 0}, "stall_rounds"), ({"colour": "red"}, "colour"),
    ({"symbols": 3, "players": 3}, "players")])
def test_bad_variant_values_name_the_field_and_the_allowed(options, field):
    with pytest.raises(ValueError) as err:
        cards.new(seed=0, **options)
    assert field in str(err.value)
    assert "allowed" in str(err.value) or "options are" in str(err.value)


def test_position_refuses_impossible_positions():
    with pytest.raises(ValueError, match="only one sun/moon card"):
        position(hands=[["s/m"], ["m/s"], ["l/b"]], pile=["t/r"])
    with pytest.raises(ValueError, match="unlaid trio"):
        position(hands=[["s/m", "s/h", "s/k"], ["h/c"], ["l/b"]], pile=["t/r"])
    with pytest.raises(ValueError, match="front/back"):
        position(hands=[["sun"], ["h/c"], ["l/b"]], pile=["t/r"])
    with pytest.raises(ValueError, match="only the symbols"):
        position(JanusCardsVariant(players=2, symbols=3), hands=[["s/w"], ["h/h"]])


def test_state_is_immutable_and_has_a_text_form():
    state = position(hands=[["s/m"], ["h/c"], ["l/b"]], pile=["t/r"])
    text = str(state)
    state.play("dB1")
    assert str(state) == text and state.ply == 0
    with pytest.raises(AttributeError):
        state.hands = ()  # type: ignore[misc]
    assert "A  1:sun|moon" in text and "P1:tree|ring" in text and "A to move" in text


def test_lean_path_agrees_with_the_checked_path():
    state = random_game(12, 120, players=4, symbols=6)
    engine = state.engine
    raw = state.start.raw
    for move in state.history:
        assert engine.is_legal(raw, move.action)
        raw = engine.apply(raw, move.action)
        engine.check_invariants(raw)
    assert raw == state.raw


@given(seed=st.integers(0, 2**32), plies=st.integers(0, 120),
       players=st.integers(2, 4), symbols=st.integers(4, 7))
def test_any_game_round_trips_through_its_record(seed, plies, players, symbols):
    state = random_game(seed, plies, players=players, symbols=symbols)
    again = Record.from_json(state.record().to_json()).final_state()
    assert again == state and again.history == state.history
    for move in state.legal_moves():
        assert cards.parse_move(state, str(move)) == move


def test_cards_table_is_ordered_so_small_decks_are_prefixes():
    assert CARDS[:3] == ((0, 0), (0, 1), (1, 1))
    for n in range(3, 12):
        assert {max(c) for c in CARDS[:deck_size(n)]} == set(range(n))


def test_long_games_keep_their_states_small_and_comparable():
    """Thousands of moves without agreeing: the no-trio facts are pruned, so states
    stay small, hash and compare (no deep nesting)."""
    variant = JanusCardsVariant(players=6, deal_peek="none", stall_rounds=1000)
    engine = cards.engine(variant)
    stream = RandomStream(5)
    raw = engine.initial()
    most = 0
    for _ in range(3000):
        if engine.current(raw) == TERMINAL:
            break
        if engine.current(raw) == CHANCE:
            action = engine.sample(raw, stream)
        else:
            acts = [a for a in engine.actions(raw) if a != AGREE]
            action = acts[stream.below(len(acts))]
        raw = engine.apply(raw, action)
        most = max(most, len(raw[10]))
    engine.check_invariants(raw)
    assert 0 < most < 100
    state = cards.from_raw(raw, variant)
    assert state == cards.from_raw(raw, variant) and hash(state) == hash(state)
    for seat in range(6):                              # and the views still redraw
        view = state.view(seat)
        assert engine.view_raw(engine.determinize(view, stream), seat) == view


def test_a_trio_of_fish_is_said_in_the_plural_and_old_records_still_read():
    """"A lays a trio of fish", not "fishs"; a seat's record saved with the old words
    still reads, and any other words are still refused."""
    from janus_widgets.core.record import Record
    from janus_widgets.core.seat_record import read_record
    from janus_widgets.core.simulate import play_game
    game = games.get("janus-cards")
    final = play_game(game.new(game.variant({"players": 4}), seed=1),
                      ["greedy"] * 4).final_state()
    told = [str(h) for h in final.history_for(0)]
    assert any(h.endswith("A lays a trio of fish for A") for h in told)
    assert not any("fishs" in h or "leafs" in h for h in told)
    # ... and the status line's sentence says it too (it reads the words back).
    from janus_widgets.games.janus_cards.told import told_sentence
    record = Record.from_state(final).view(0)
    i = next(i for i, h in enumerate(told) if h.endswith("trio of fish for A"))
    before = record.replay_view(i)
    assert told_sentence(before, told[i]).endswith("A laid a trio of fish.")
    assert told_sentence(before, told[i].replace("of fish ", "of fishs ")).endswith(
        "A laid a trio of fish.")
    text = Record.from_state(final).view(0).to_json()
    assert type(read_record(text.replace("trio of fish ", "trio of fishs "))).__name__ \
        == "SeatRecord"
    with pytest.raises(Exception, match="not what the seat was told"):
        read_record(text.replace("trio of fish ", "trio of fishes "))

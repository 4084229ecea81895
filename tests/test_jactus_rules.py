"""Jactus, rule by rule (IDs from seeds/jactus.md)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from janus_widgets import games
from janus_widgets.core import CHANCE, TERMINAL, IllegalMoveError, InvalidMoveError
from janus_widgets.core.bots import make_bot
from janus_widgets.games.jactus.rules import JactusVariant, position

from helpers import moves, refused

jactus = games.get("jactus")


# --- JA-1 / JA-3: components and supply -------------------------------------
@pytest.mark.parametrize("players,supply", [(2, (1, 2, 1)), (3, (2, 4, 2)), (4, (3, 6, 3)),
                                            (5, (3, 6, 4)), (6, (3, 6, 4))])
def test_JA3_supply_by_player_count(players, supply):
    state = jactus.new(players=players, seed=0)
    assert tuple(state.supply) == supply
    assert all(tuple(h) == (0, 0, 0) for h in state.holdings)


def test_JA3_full_supply_option():
    assert tuple(jactus.new(players=2, supply="full", seed=0).supply) == (3, 6, 4)


# --- JA-2 / JA-4 / JA-14: seats, one throw per turn, turn passes -------------
def test_JA2_A_opens_and_turns_pass_in_seat_order():
    state = jactus.new(players=3, seed=0)
    assert state.current_player == 0 and moves(state) == ["r*"]
    state = state.play("r*").play("=12345")          # JA-14: no score
    assert state.current_player == 1
    state = state.play("r1").play("=6")
    assert state.current_player == 2
    state = state.play("r2").play("=6")
    assert state.current_player == 0                  # back to A after the last seat


# --- JA-5: opening a round --------------------------------------------------
def test_JA5_round_opens_with_all_five_dice():
    state = jactus.new(seed=0)
    assert moves(state) == ["r*"]
    refused(state, "r1", "JA-5")
    thrown = state.play("r*")
    assert thrown.is_chance and thrown.current_player == CHANCE
    assert len(thrown.chance_outcomes()) == 252       # multisets of five dice


# --- JA-6: continuing a round -----------------------------------------------
def test_JA6_pick_up_any_dice_on_the_table_at_least_one():
    state = jactus.new(seed=0).play("r*").play("=22356")
    legal = moves(state)
    # (2 twos + 1) * 2 * 2 * 2 - 1 (nothing) = 23 distinct pick-ups by value
    assert len(legal) == 23 and "r22356" in legal and "r2" in legal
    err = refused(state, "r4", "JA-6")
    assert "no 4" in err.reason
    err = refused(state, "r222", "JA-6")
    assert "only 2" in err.reason
    with pytest.raises(InvalidMoveError):
        state.play("r")                                 # at least one die


def test_JA6_dice_not_picked_up_stay():
    state = jactus.new(seed=0).play("r*").play("=22356").play("r36")
    assert state.dice == (2, 2, 5)                      # stay as B found them
    state = state.play("=11")
    assert state.dice == (1, 1, 2, 2, 5)


def test_JA6_pick_up_all_five_with_star():
    state = jactus.new(seed=0).play("r*").play("=22356")
    assert str(state.parse("r*")) == "r22356"


# --- JA-7: the dice decide ---------------------------------------------------
def test_JA7_chance_outcomes_are_exact():
    state = jactus.new(seed=0).play("r*")
    outcomes = dict((str(m), p) for m, p in state.chance_outcomes())
    assert sum(outcomes.values()) == 1
    assert outcomes["=11111"] == Fraction(1, 7776)
    assert outcomes["=12345"] == Fraction(120, 7776)
    assert outcomes["=11222"] == Fraction(10, 7776)


def test_JA7_sampling_is_seeded_and_recorded():
    a = jactus.new(seed=99).play("r*").play_chance()
    b = jactus.new(seed=99).play("r*").play_chance()
    assert a.history == b.history and a.dice == b.dice
    assert a.record().moves[-1] == a.last_move.notation


def test_JA7_a_player_cannot_act_for_the_dice():
    state = jactus.new(seed=0).play("r*")
    refused(state, "r1", "JA-7")
    refused(state, "=12", "JA-7")                       # two values for five dice
    with pytest.raises(IllegalMoveError) as err:
        state.play("=12345", player=0)                  # nobody plays the dice
    assert err.value.rule == "JA-7"


# --- JA-8: what a throw allows ------------------------------------------------
@pytest.mark.parametrize("face,expected", [
    (1, ["dog", "coin", "pass"]), (6, ["venus", "dog", "pass"]),
    (3, ["dog", "pass"]), (5, ["dog", "pass"])])
def test_JA8_rulebook_reading(face, expected):
    state = jactus.new(seed=0).play("r*").play("=" + str(face) * 5)
    assert state.current_player == 0 and state.claim_face == face
    assert moves(state) == expected


@pytest.mark.parametrize("face,expected", [(1, ["coin", "pass"]), (6, ["venus", "pass"]),
                                           (4, ["dog", "pass"])])
def test_JA8_other_reading(face, expected):
    state = jactus.new(seed=0, dog_throws="other").play("r*").play("=" + str(face) * 5)
    assert moves(state) == expected
    if face in (1, 6):
        err = refused(state, "dog", "JA-8")
        assert "dog_throws='other'" in err.reason


def test_JA8_no_claim_without_five_of_a_kind():
    state = jactus.new(seed=0).play("r*").play("=11112")
    refused(state, "coin", "JA-8")


# --- JA-9: claiming is optional ---------------------------------------------------
def test_JA9_pass_claims_nothing():
    state = jactus.new(seed=0).play("r*").play("=33333").play("pass")
    assert tuple(state.supply) == (1, 2, 1)
    assert moves(state) == ["r*"] and state.current_player == 0


# --- JA-10 / JA-11: empty supply, take from another player -------------------------
def test_JA10_take_from_a_holder_the_thrower_chooses():
    state = position(JactusVariant(players=4), dice=(6,) * 5, phase="claim", to_move=0,
                     holdings=((0, 0, 0), (1, 0, 0), (0, 0, 0), (2, 0, 0)))
    assert moves(state) == ["venus@B", "venus@D", "dog", "pass"]
    after = state.play("venus@D")
    assert after.holdings[3].venus == 1 and after.holdings[0].venus == 1
    err = refused(state, "venus@C", "JA-10")
    assert "holds no Venus" in err.reason


def test_JA10_never_from_yourself_and_impossible_when_nobody_else_holds():
    state = position(dice=(6,) * 5, phase="claim", to_move=0,
                     holdings=((1, 0, 0), (0, 0, 0)))
    assert moves(state) == ["dog", "pass"]
    refused(state, "venus@A", "JA-10")
    refused(state, "venus", "JA-10")


def test_JA11_supply_first():
    state = position(JactusVariant(players=3), dice=(2,) * 5, phase="claim", to_move=0,
                     holdings=((0, 0, 0), (0, 1, 0), (0, 0, 0)))
    assert moves(state) == ["dog", "pass"]
    refused(state, "dog@B", "JA-11")


# Option steal (JA-10): 2 players, the dog cards are gone (B holds both) but the supply
# still holds its Venus card and its coin; A throws five 3s.
DOGS_GONE = {"dice": (3,) * 5, "phase": "claim", "to_move": 0,
             "holdings": ((0, 0, 0), (0, 2, 0))}


def test_JA10_steal_kind_empty_a_dog_is_taken_once_the_dogs_are_gone():
    state = position(**DOGS_GONE)
    assert state.variant.steal == "kind-empty" and tuple(state.supply) == (1, 0, 1)
    assert moves(state) == ["dog@B", "pass"]
    after = state.play("dog@B")
    assert after.holdings == ((0, 1, 0), (0, 1, 0))


def test_JA10_steal_centre_empty_not_while_the_centre_holds_anything():
    state = position(JactusVariant(steal="centre-empty"), **DOGS_GONE)
    assert moves(state) == ["pass"]                      # the claim is impossible
    err = refused(state, "dog@B", "JA-10")
    assert "only once the centre is empty" in err.reason and "Venus 1" in err.reason
    assert "only once the centre is empty" in refused(state, "dog", "JA-10").reason
    after = state.play("pass")
    assert after.holdings == ((0, 0, 0), (0, 2, 0)) and after.current_player == 0


def test_JA10_steal_centre_empty_once_the_centre_is_empty():
    # Every piece is out (A: the Venus, B: both dogs and the coin): both readings agree.
    spec = {"dice": (3,) * 5, "phase": "claim", "to_move": 0,
            "holdings": ((1, 0, 0), (0, 2, 1))}
    for steal in ("kind-empty", "centre-empty"):
        state = position(JactusVariant(steal=steal), **spec)
        assert tuple(state.supply) == (0, 0, 0)
        assert moves(state) == ["dog@B", "pass"], steal
        assert state.explain("dog@B").rule == "JA-10"


# --- JA-12 / JA-13: end of round, the opening throw --------------------------------
def test_JA12_scorer_opens_the_next_round():
    state = jactus.new(seed=0).play("r*").play("=44444").play("dog")
    assert state.holdings[0].dogs == 1
    assert moves(state) == ["r*"] and state.current_player == 0
    refused(state, "r4", "JA-5")


def test_JA12_after_decline_same_the_thrower_opens_after_a_pass():
    state = position(JactusVariant(players=3), dice=(5,) * 5, phase="claim", to_move=1)
    assert "B then opens the next round" in state.explain("pass").reason
    after = state.play("pass")
    assert after.current_player == 1 and moves(after) == ["r*"]
    assert after.play("r*").throw_can_score                 # JA-13 as usual


def test_JA12_after_decline_next_the_next_player_opens():
    variant = JactusVariant(players=3, after_decline="next")
    state = position(variant, dice=(5,) * 5, phase="claim", to_move=1)
    assert "C then opens the next round" in state.explain("pass").reason
    after = state.play("pass")
    assert after.current_player == 2 and moves(after) == ["r*"]
    assert after.play("r*").throw_can_score
    # ... but a claim still has the claimer open the next round.
    claimed = state.play("dog")
    assert claimed.current_player == 1 and claimed.holdings[1].dogs == 1
    # The last seat's decline passes the round to A.
    last = position(variant, dice=(5,) * 5, phase="claim", to_move=2).play("pass")
    assert last.current_player == 0


def test_JA12_after_decline_next_also_after_an_impossible_claim():
    state = position(JactusVariant(after_decline="next", steal="centre-empty"), **DOGS_GONE)
    assert moves(state) == ["pass"]
    assert state.play("pass").current_player == 1


def test_JA12_JA13_after_decline_next_with_an_opening_throw_that_does_not_score():
    variant = JactusVariant(after_decline="next", opening_throw_scores=False)
    state = position(variant, dice=(5,) * 5, phase="claim", to_move=0).play("pass")
    opening = state.play("r*", player=1)
    assert not opening.throw_can_score                      # JA-13 applies to B's opening
    assert opening.play("=22222").current_player == 0       # five 2s pass the dice on


def test_JA13_opening_throw_scores_by_default():
    state = jactus.new(seed=0).play("r*").play("=44444").play("dog").play("r*")
    assert state.throw_can_score
    assert state.play("=22222").phase == "claim"


def test_JA13_option_opening_throw_only_sets_up_the_dice():
    state = jactus.new(seed=0, opening_throw_scores=False).play("r*")
    assert state.play("=22222").phase == "claim"       # the game's first throw counts
    state = state.play("=44444").play("dog").play("r*")
    assert not state.throw_can_score
    after = state.play("=22222")
    assert after.phase == "pick" and after.current_player == 1


# --- JA-15 / JA-16 / JA-18: winning and the end -----------------------------------
def test_JA15_collection_wins_at_once():
    state = position(dice=(1,) * 5, phase="claim", to_move=1,
                     holdings=((0, 0, 0), (1, 2, 0)))
    won = state.play("coin")
    assert won.is_over and won.current_player == TERMINAL
    assert won.winners() == (1,) and won.scores() == (0.0, 4.0)
    refused(won, "r*", "JA-18")
    assert won.legal_moves() == ()


def test_JA15_two_venus_cards_are_no_substitute_for_a_dog():
    state = position(JactusVariant(players=4), dice=(6,) * 5, phase="claim",
                     holdings=((1, 1, 1), (0, 0, 0), (0, 0, 0), (0, 0, 0)))
    assert not state.play("venus").is_over
    assert state.play("dog").is_over


def test_JA16_points_variant():
    v = JactusVariant(scoring="points", players=3)
    state = position(v, dice=(6,) * 5, phase="claim", holdings=((1, 0, 0), (0, 0, 0), (0, 0, 0)))
    assert state.scores() == (6.0, 0.0, 0.0)
    won = state.play("venus")                          # 6 + 6 = 12
    assert won.is_over and won.winners() == (0,)
    assert not state.play("dog").is_over                # 6 + 2 = 8


def test_JA16_points_target_option():
    v = JactusVariant(scoring="points", points_target=20, players=3)
    state = position(v, dice=(1,) * 5, phase="claim",
                     holdings=((1, 2, 0), (0, 0, 0), (0, 0, 0)))
    assert state.scores()[0] == 10.0
    assert not state.play("coin").is_over             # 15 < 20


@pytest.mark.parametrize("players,supply,most", [(2, "by-players", 15), (3, "by-players", 30),
                                                 (4, "by-players", 45), (5, "by-players", 50),
                                                 (6, "by-players", 50), (2, "full", 50)])
def test_JA16_a_target_above_the_points_in_play_is_refused(players, supply, most):
    """Issue 13 item 8: target 16 with two players once played 10,000 plies and never
    ended. The limit is every piece in play (Venus 6, dog 2, coin 5)."""
    from janus_widgets.core import VariantError
    ok = jactus.new(seed=0, players=players, supply=supply, scoring="points",
                    points_target=most)
    assert ok.variant.points_in_play() == most
    with pytest.raises(VariantError) as err:
        jactus.new(seed=0, players=players, supply=supply, scoring="points",
                   points_target=most + 1)
    assert err.value.field == "points_target" and f"2 … {most}" in str(err.value)
    assert "JA-16" in str(err.value) and f"{most} points" in str(err.value)
    # The target matters only when scoring by points.
    assert jactus.new(seed=0, players=players, supply=supply, points_target=60)


# --- JA-17: turn discipline ---------------------------------------------------------
def test_JA17_move_out_of_turn():
    state = jactus.new(seed=0).play("r*").play("=12345")
    with pytest.raises(IllegalMoveError) as err:
        state.play("r1", player=0)                      # it is B's turn
    assert err.value.rule == "JA-17" and "B's turn" in str(err.value)
    assert state.play("r1", player=1).is_chance


# --- bad input ----------------------------------------------------------------------
@pytest.mark.parametrize("text", ["r7", "r0", "r123456", "x", "", "dog@G", "dog@Z",
                                  "venus@", "=", "r1a"])
def test_malformed_notation_is_refused_with_help(text):
    state = jactus.new(seed=0).play("r*").play("=12345")
    with pytest.raises(InvalidMoveError) as err:
        state.play(text)
    message = str(err.value)
    assert repr(text) in message and "Legal now:" in message and "r*" in message


def test_non_text_move_is_refused():
    state = jactus.new(seed=0)
    with pytest.raises(InvalidMoveError):
        state.play(42)  # type: ignore[arg-type]
    with pytest.raises(InvalidMoveError):
        state.play(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("options,field", [
    ({"players": 7}, "players"), ({"players": 1}, "players"), ({"players": "2"}, "players"),
    ({"players": 2.0}, "players"), ({"dog_throws": "some"}, "dog_throws"),
    ({"opening_throw_scores": "yes"}, "opening_throw_scores"),
    ({"points_target": 0}, "points_target"), ({"colour": "red"}, "colour")])
def test_bad_variant_values_name_the_field_and_the_allowed(options, field):
    with pytest.raises(ValueError) as err:
        jactus.new(seed=0, **options)
    assert field in str(err.value)
    assert ("allowed" in str(err.value) or "options are" in str(err.value))


def test_bad_seed():
    for seed in (-1, "1", 1.5, True, 2**63):
        with pytest.raises(ValueError, match="seed"):
            jactus.new(seed=seed)


def test_state_is_immutable():
    state = jactus.new(seed=0).play("r*").play("=12345")
    text = str(state)
    state.play("r1")
    with pytest.raises(IllegalMoveError):
        state.play("coin")
    assert str(state) == text and len(state.history) == 2
    with pytest.raises(AttributeError):
        state.dice = (1, 1, 1, 1, 1)  # type: ignore[misc]


def test_text_form_names_everything_a_player_needs():
    state = position(JactusVariant(players=3), dice=(2, 2, 3, 5, 6), to_move=1,
                     holdings=((0, 1, 0), (1, 0, 0), (0, 0, 0)))
    text = str(state)
    assert "2 2 3 5 6" in text and "B to pick up" in text
    assert "Supply: Venus 1 · dogs 3 · coins 2" in text


def test_descriptions_are_sentences():
    state = jactus.new(seed=0).play("r*").play("=22356")
    described = {str(m): m.description for m in state.legal_moves()}
    assert described["r22"] == "Pick up two 2s and throw them."
    assert described["r22356"] == "Pick up all five dice and throw them."
    assert state.play("r3").legal_moves()[0].description == "The thrown die shows 1."


# --- JA-19: no spoiling (a design option) -----------------------------------------------
def test_JA19_by_default_a_pickup_may_spoil():
    state = position(dice=(3, 3, 3, 5, 6))
    assert "r6" in moves(state)                      # 3 3 3 5 stay: no five of a kind
    assert state.explain("r6").rule == "JA-6"


def test_JA19_no_spoiling_refuses_a_pickup_whose_throw_cannot_score():
    state = position(JactusVariant(spoil=False), dice=(3, 3, 3, 5, 6))
    assert moves(state) == ["r56", "r356", "r3335", "r3336", "r3356", "r33356"]
    err = refused(state, "r6", "JA-19")
    assert "3 3 3 5" in err.reason and "two different faces" in err.reason
    assert "r56" in err.reason                       # what would be allowed
    refused(state, "r35", "JA-19")
    assert state.explain("r56").rule == "JA-19" and state.explain("r56").legal
    refused(state, "r4", "JA-6")                     # not on the table: still JA-6
    assert str(state.parse("r*")) == "r33356"        # all five: always allowed


def test_JA19_every_position_keeps_a_move_and_every_throw_can_score():
    from janus_widgets.games.jactus.rules import CLAIM, FIVE_DICE
    engine = jactus.engine(JactusVariant(spoil=False))
    for dice in FIVE_DICE:
        raw = position(JactusVariant(spoil=False), dice=dice).raw
        assert engine.actions(raw), dice
        for action in engine.actions(raw):
            thrown = engine.apply(raw, action)
            assert any(engine.apply(thrown, a)[0] == CLAIM
                       for a, _ in engine.chance_outcomes(thrown)), (dice, action)


def test_JA19_no_spoiling_is_played_through_the_engine():
    engine = jactus.engine(JactusVariant(spoil=False))
    state = jactus.new(spoil=False, seed=3).play("r*").play("=12345")
    assert list(engine.actions(state.raw)) == [m.action for m in state.legal_moves()]
    assert moves(state) == ["r1234", "r1235", "r1245", "r1345", "r2345", "r12345"]


def test_JA19_the_greedy_closed_form_values_exactly_the_legal_pickups():
    # The greedy bot zips greedy_values with the legal actions: one value per legal move.
    from janus_widgets.games.jactus.rules import FIVE_DICE
    for spoil in (True, False):
        engine = jactus.engine(JactusVariant(spoil=spoil))
        for dice in FIVE_DICE:
            raw = position(JactusVariant(spoil=spoil), dice=dice).raw
            values = engine.greedy_values(raw, 0)
            assert len(values) == len(engine.actions(raw)), (spoil, dice)
    state = position(JactusVariant(spoil=False), dice=(3, 3, 3, 5, 6))
    bot = make_bot("greedy", jactus, 0, 1)
    assert str(bot(state)) == "r56"                  # keeps the three 3s and tries

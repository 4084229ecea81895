"""The probability lab: exact odds, simulation beside them, Roman dice, exercises.

Exact values are checked three ways: against published figures, against brute-force
enumeration of the equally likely ordered throws, and against closed forms. The
simulation is checked against the exact values with fixed seeds.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement, product

import numpy as np
import pytest

from janus_widgets.analysis import exercises, montecarlo as mc, roman_dice as rd
from janus_widgets.analysis import jactus_odds as jo
from janus_widgets.games.jactus.rules import JactusVariant, position

FACES = range(1, 7)
ALL_POSITIONS = list(combinations_with_replacement(FACES, 5))
ALL_KEPT = [k for n in range(5) for k in combinations_with_replacement(FACES, n)]
TARGET_FACES = {"five-of-a-kind": set(FACES), "five-sixes": {6}, "five-ones": {1},
                "five-2-to-5": {2, 3, 4, 5}}


# --- brute force, written independently of the package ------------------------------------

def scores(dice, target) -> bool:
    return len(set(dice)) == 1 and dice[0] in TARGET_FACES[target]


@lru_cache(maxsize=None)
def brute_chance(kept: tuple, target: str) -> Fraction:
    """Enumerate every ordered throw of the dice not kept."""
    m = 5 - len(kept)
    hits = sum(scores(kept + t, target) for t in product(FACES, repeat=m))
    return Fraction(hits, 6 ** m)


def sub_multisets(dice):
    counts = Counter(dice)
    faces = sorted(counts)
    for pick in product(*(range(counts[f] + 1) for f in faces)):
        yield tuple(f for f, c in zip(faces, pick) for _ in range(c))


def legal_kept(dice):
    return [k for k in sub_multisets(dice) if len(k) <= 4]


def brute_keep_largest(dice, target):
    counts = Counter(dice)
    face = max(counts, key=lambda f: (counts[f], f in TARGET_FACES[target], f))
    return (face,) * min(counts[face], 4)


def brute_within(n: int, target: str, keep) -> Fraction:
    """P(score within n throws), enumerating every ordered throw at every step."""
    @lru_cache(maxsize=None)
    def go(kept: tuple, left: int) -> Fraction:
        if left == 0:
            return Fraction(0)
        m = 5 - len(kept)
        total = Fraction(0)
        for t in product(FACES, repeat=m):
            dice = tuple(sorted(kept + t))
            total += 1 if scores(dice, target) else go(tuple(keep(dice, target)), left - 1)
        return total / 6 ** m
    return go((), n)


# --- published values ------------------------------------------------------------------------

def test_published_five_of_a_kind_in_one_throw():
    assert jo.probability_within(1, target="five-of-a-kind", policy="keep-largest") \
        == Fraction(1, 1296)


def test_published_within_three_throws_keeping_the_largest_group():
    p = jo.probability_within(3, target="five-of-a-kind", policy="keep-largest")
    assert isinstance(p, Fraction)
    assert f"{float(p):.4g}" == "0.04603"


def test_published_expected_throws_keeping_the_largest_group():
    e = jo.expected_throws(target="five-of-a-kind", policy="keep-largest")
    assert isinstance(e, Fraction)
    assert f"{float(e):.2f}" == "11.09"


def test_textbook_transition_matrix_keeping_the_largest_group():
    # the classic chain on "how many alike" (e.g. Yahtzee texts), rows 1..4 alike
    textbook = {1: [120, 900, 250, 25, 1], 2: [0, 120, 80, 15, 1],
                3: [0, 0, 25, 10, 1], 4: [0, 0, 0, 5, 1]}
    dens = {1: 1296, 2: 216, 3: 36, 4: 6}
    lumped = jo.chain("five-of-a-kind", "keep-largest").lumped()
    assert lumped.labels[1:] == ("one die kept", "two alike kept", "three alike kept",
                                 "four alike kept")
    rows = lumped.matrix()
    for k in range(1, 5):
        assert rows[k][1:] == [Fraction(v, dens[k]) for v in textbook[k]]
    # the opening throw of all five dice: largest group 1..5
    assert rows[0][1:] == [Fraction(v, 7776) for v in (720, 5400, 1500, 150, 6)]


# --- brute force ---------------------------------------------------------------------------------

@pytest.mark.parametrize("target", sorted(TARGET_FACES))
def test_one_throw_chances_match_enumeration_of_every_throw(target):
    for kept in ALL_KEPT:
        assert jo.throw_chance(kept, target) == brute_chance(kept, target), kept


@pytest.mark.parametrize("target", ["five-of-a-kind", "five-sixes", "five-2-to-5"])
@pytest.mark.parametrize("n", [1, 2, 3])
def test_chain_within_n_matches_enumeration_keeping_the_largest_group(target, n):
    assert jo.probability_within(n, target, "keep-largest") == \
        brute_within(n, target, brute_keep_largest)


def test_chain_within_two_from_a_start_position_matches_enumeration():
    start = (2, 2, 3, 5, 6)
    kept = brute_keep_largest(start, "five-of-a-kind")            # (2, 2)
    expected = Fraction(0)
    for t in product(FACES, repeat=3):
        dice = tuple(sorted(kept + t))
        if scores(dice, "five-of-a-kind"):
            expected += Fraction(1, 216)
        else:
            expected += Fraction(1, 216) * brute_chance(
                brute_keep_largest(dice, "five-of-a-kind"), "five-of-a-kind")
    assert jo.probability_within(2, start=start) == expected


def test_custom_policy_matches_enumeration():
    def keep_low_pairs(dice):                  # keep a pair of the lowest face, if any
        counts = Counter(dice)
        pairs = [f for f in sorted(counts) if counts[f] >= 2]
        return (pairs[0],) * 2 if pairs else ()

    assert jo.probability_within(2, "five-of-a-kind", keep_low_pairs) == \
        brute_within(2, "five-of-a-kind", lambda dice, t: keep_low_pairs(dice))


# --- closed forms ----------------------------------------------------------------------------

@pytest.mark.parametrize("target", ["five-sixes", "five-ones"])
def test_keeping_the_target_face_each_die_waits_for_its_own_six(target):
    # each die independently shows the face for good at a geometric time
    for n in range(0, 8):
        assert jo.probability_within(n, target, "keep-target") == \
            (1 - Fraction(5, 6) ** n) ** 5
    # E[max of five geometric(1/6)] by inclusion and exclusion
    expected = sum(Fraction((-1) ** (j + 1) * math.comb(5, j)) / (1 - Fraction(5, 6) ** j)
                   for j in range(1, 6))
    assert jo.expected_throws(target, "keep-target") == expected


@pytest.mark.parametrize("target,p", [("five-of-a-kind", Fraction(1, 1296)),
                                      ("five-sixes", Fraction(1, 7776)),
                                      ("five-2-to-5", Fraction(4, 7776))])
def test_rerolling_all_dice_is_geometric(target, p):
    assert jo.expected_throws(target, "reroll-all") == 1 / p
    assert jo.probability_within(5, target, "reroll-all") == 1 - (1 - p) ** 5
    assert jo.throws_distribution(4, target, "reroll-all") == \
        [(1 - p) ** k * p for k in range(4)]


def test_exact_solve_with_and_without_lumping_agree():
    c = jo.chain("five-of-a-kind", ["best-margin", "keep-largest", "best-next"])
    assert c._reduced() is not c                     # the answers come from 5-ish states
    assert c._absorption(c._seat_rhs()) == list(c.seat_chances())
    assert sum(c.seat_chances()) == 1


def threes_first(dice):
    """A policy that keeps any 3s before a larger group (it breaks the faces' symmetry)."""
    if 3 in dice:
        return (3,) * min(dice.count(3), 4)
    return brute_keep_largest(dice, "five-of-a-kind")


def test_expectation_of_a_policy_that_cannot_be_lumped():
    c = jo.chain("five-of-a-kind", threes_first)
    assert c._reduced() is c
    dist = c.distribution(400)
    assert 0 < c.expected() - sum(k * p for k, p in enumerate(dist, 1)) < Fraction(1, 10 ** 20)
    assert c.expected() > jo.expected_throws()      # worse than keeping the largest group


def test_distribution_within_and_expectation_agree():
    c = jo.chain("five-of-a-kind", "keep-largest")
    dist = c.distribution(300)
    assert sum(dist[:7]) == c.within(7)
    mean_so_far = sum(k * p for k, p in enumerate(dist, start=1))
    tail = 1 - sum(dist)
    assert 0 < tail < Fraction(1, 10 ** 20)
    assert 0 < c.expected() - mean_so_far < Fraction(1, 10 ** 17)


def test_lumped_chain_gives_the_same_answers():
    for target, policy in [("five-of-a-kind", "keep-largest"), ("five-sixes", "keep-target"),
                           ("five-2-to-5", "keep-target"), ("five-ones", "best-next")]:
        full = jo.chain(target, policy)
        lumped = full.lumped()
        assert len(lumped.states) <= len(full.states)
        assert lumped.within(4) == full.within(4)
        assert lumped.expected() == full.expected()
        for row in lumped.matrix():
            assert sum(row) == 1
    # one die is kept only from five different faces, so a 5 or a 6: 21 kept multisets
    assert len(jo.chain().states) == 21 and len(jo.chain().lumped().states) == 5


def test_lumping_refuses_a_policy_that_breaks_the_symmetry():
    full = jo.chain("five-of-a-kind", threes_first)
    assert (3, 3) in full.states and (5, 5) in full.states
    with pytest.raises(ValueError, match="cannot be lumped"):
        full.lumped()


def test_generic_dice_model_reproduces_the_jactus_chain():
    five = jo.DiceModel("five dice", tuple(FACES), (Fraction(1, 6),) * 6, 5)
    c = jo.model_chain(five, lambda d: len(set(d)) == 1,
                       keep=lambda d: brute_keep_largest(d, "five-of-a-kind"))
    assert c.expected() == jo.expected_throws()
    assert c.within(3) == jo.probability_within(3)


# --- the Jactus twist: pick-ups, the next player ---------------------------------------------

@pytest.mark.parametrize("target", sorted(TARGET_FACES))
def test_best_pickup_is_the_best_of_all_legal_pickups(target):
    for dice in ALL_POSITIONS:
        best = jo.best_pickups(dice, target)
        top = max(brute_chance(k, target) for k in legal_kept(dice))
        assert best[0].chance == top
        assert {p.kept for p in best} == {k for k in legal_kept(dice)
                                           if brute_chance(k, target) == top}
        assert jo.next_player_chance(dice, target) == top


def test_best_next_is_keep_target_and_keep_largest_for_any_five():
    assert jo.policy_table("best-next", "five-of-a-kind") == \
        jo.policy_table("keep-largest", "five-of-a-kind")
    for target in ("five-sixes", "five-ones", "five-2-to-5"):
        table = jo.policy_table("best-next", target)
        for dice, kept in jo.policy_table("keep-target", target).items():
            assert brute_chance(table[dice], target) == brute_chance(kept, target)


@pytest.mark.parametrize("dice", [(2, 4, 4, 4, 4), (1, 1, 2, 3, 4), (3, 3, 5, 5, 6),
                                  (1, 2, 3, 4, 6), (6, 6, 6, 1, 1)])
def test_leaves_is_miss_then_next_players_best_chance(dice):
    @lru_cache(maxsize=None)
    def best(d):
        return max(brute_chance(k, "five-of-a-kind") for k in legal_kept(d))
    for p in jo.pickups(dice):
        m = len(p.picked)
        leaves = Fraction(0)
        for t in product(FACES, repeat=m):
            after = tuple(sorted(p.kept + t))
            if not scores(after, "five-of-a-kind"):
                leaves += best(after)
        assert p.leaves == leaves / 6 ** m, p
        assert p.margin == p.chance - p.leaves
        assert tuple(sorted(p.kept + p.picked)) == tuple(sorted(dice))


def test_pickups_are_exactly_the_legal_moves_of_the_engine():
    state = position(dice=(2, 2, 3, 5, 6))
    assert [p.notation for p in jo.pickups(state.dice)] == \
        [str(m) for m in state.legal_moves()]


def test_best_margin_can_spoil_and_then_a_round_may_never_end():
    # keeping three 1s gives me 1/36 but leaves the next player a lot; keeping a
    # 1, 2 and 3 (no chance for me) leaves them less: a better margin
    greedy = jo.best_pickups((1, 1, 1, 2, 3))[0]
    spoil = jo.best_pickups((1, 1, 1, 2, 3), objective="margin")[0]
    assert greedy.kept == (1, 1, 1) and spoil.chance == 0 and spoil.margin > greedy.margin
    assert all(spoil.margin >= p.margin for p in jo.pickups((1, 1, 1, 2, 3)))
    c = jo.chain("five-of-a-kind", ["best-margin", "best-margin"])
    assert c.ever() < 1 and c.expected() == math.inf


@pytest.mark.parametrize("players,others", [(2, "best-next"), (3, "best-next"),
                                            (2, "best-margin"), (2, "keep-largest")])
def test_best_reply_beats_every_other_way_to_play_against_the_others(players, others):
    reply = jo.best_reply(players, others)
    mine = jo.chain("five-of-a-kind", [reply] + [others] * (players - 1)).seat_chances()[0]
    for alternative in ("best-next", "keep-largest", "best-margin", "reroll-all",
                        lambda dice: dice[:2]):
        chances = jo.chain("five-of-a-kind",
                           [alternative] + [others] * (players - 1)).seat_chances()
        assert mine >= chances[0]
    # from seat B too: the reply is a policy for every position, not for one seat
    as_b = jo.chain("five-of-a-kind", [others, reply] + [others] * (players - 2))
    greedy_b = jo.chain("five-of-a-kind", [others, "best-next"] + [others] * (players - 2))
    assert as_b.seat_chances()[1] >= greedy_b.seat_chances()[1]


def test_against_a_greedy_player_the_margin_is_the_best_reply():
    # two players: maximising my chance minus what I leave to a greedy next player is
    # exactly the best way to play the round against that player
    assert jo.policy_table("best-margin") == jo.policy_table(jo.best_reply(2, "best-next"))
    assert jo.policy_table("best-margin") != jo.policy_table("best-next")


def test_round_pickups_agree_with_the_chain_of_the_round():
    # my chance with each pick-up from 3 3 5 5 6 = the chain started there, the
    # pick-up mine and then the best reply against a greedy player
    reply = jo.best_reply(2)
    for rp in jo.round_pickups((3, 3, 5, 5, 6)):
        kept = rp.pickup.kept
        start = jo.KEPT_INDEX[kept]
        c = jo._chain(jo.TARGETS["five-of-a-kind"], (reply, jo.POLICIES["best-next"]),
                      None, (start,))
        assert c.seat_chances_by_state()[kept][0] == rp.round_chance
    best = jo.round_pickups((3, 3, 5, 5, 6))[0]
    assert best.pickup.kept == reply.kept((3, 3, 5, 5, 6))


def test_four_alike_two_players_alternate_a_geometric_series():
    best = jo.round_pickups((2, 4, 4, 4, 4), players=2)[0]
    assert best.pickup.notation == "r2" and best.round_chance == Fraction(6, 11)
    three = jo.round_pickups((2, 4, 4, 4, 4), players=3)[0]
    q = Fraction(5, 6)
    assert three.round_chance == Fraction(1, 6) / (1 - q ** 3)
    with pytest.raises(ValueError, match="2 to 6 players"):
        jo.round_pickups((2, 4, 4, 4, 4), players=7)


def test_simulated_best_reply_rounds_match_the_exact_seat_chances():
    policies = ["best-reply-2", "best-next"]
    exact = jo.seat_chances(policies)
    rounds = mc.simulate_rounds(200_000, policy=policies, seed=31)
    for est, p in zip(rounds.seat_shares(level=0.999), exact):
        assert est.contains(p), (est, p)


def test_seat_chances_pass_the_dice_in_turn():
    a, b = jo.seat_chances(("keep-largest", "keep-largest"))
    assert a + b == 1 and b > a                  # A's opening throw is the weakest
    dist = jo.throws_distribution(400)
    assert abs(a - sum(dist[0::2])) < Fraction(1, 10 ** 20)
    three = jo.seat_chances(["keep-largest", "reroll-all", "keep-largest"])
    assert sum(three) == 1 and three[1] < min(three[0], three[2])


def test_expected_is_infinite_when_a_policy_gets_stuck():
    # keeping the largest group while hoping for five sixes: four 5s stay forever
    c = jo.chain("five-sixes", "keep-largest")
    assert c.expected() == math.inf
    assert 0 < c.ever() < 1
    assert c.within(50) < c.ever()


# --- claim odds for the canvas ---------------------------------------------------------------

@pytest.mark.parametrize("reading", ["any", "other"])
def test_claim_odds_for_every_kept_set_match_enumeration(reading):
    variant = JactusVariant(dog_throws=reading)
    dog = "five-of-a-kind" if reading == "any" else "five-2-to-5"
    for kept in ALL_KEPT:
        odds = jo.claim_odds(kept, variant)
        assert set(odds) == {"venus", "dog", "coin", "any"}
        assert odds["venus"] == brute_chance(kept, "five-sixes")
        assert odds["coin"] == brute_chance(kept, "five-ones")
        assert odds["dog"] == brute_chance(kept, dog)
        assert odds["any"] == brute_chance(kept, "five-of-a-kind")
    assert jo.claim_odds((6, 6), variant)["dog"] == (Fraction(1, 216) if reading == "any"
                                                     else 0)


def test_claim_odds_default_variant_and_returned_dict_is_a_copy():
    odds = jo.claim_odds([5, 5, 5, 5])
    assert odds == {"venus": 0, "dog": Fraction(1, 6), "coin": 0, "any": Fraction(1, 6)}
    odds["dog"] = 1
    assert jo.claim_odds((5, 5, 5, 5))["dog"] == Fraction(1, 6)


def test_claim_advice_names_the_best_pickup_for_each_claim():
    advice = jo.claim_advice((1, 1, 6, 6, 6), JactusVariant(dog_throws="other"))
    assert [p.notation for p in advice["venus"].pickups] == ["r11"]
    assert [p.notation for p in advice["coin"].pickups] == ["r666"]
    assert advice["dog"].target.name == "five-2-to-5"
    assert advice["dog"].chance == Fraction(4, 7776)      # nothing to keep: throw all
    assert advice["any"].chance == Fraction(1, 36)


@pytest.mark.parametrize("bad", [(1, 2, 3, 4, 5), (0,), (7,), (1.5,), "66", (True,), None])
def test_claim_odds_refuses_bad_kept_dice(bad):
    with pytest.raises(ValueError, match="kept"):
        jo.claim_odds(bad)


def test_claim_odds_refuses_a_variant_of_another_kind():
    with pytest.raises(ValueError, match="JactusVariant"):
        jo.claim_odds((), variant="other")


# --- names and validation ----------------------------------------------------------------------

def test_unknown_target_and_policy_name_what_is_allowed():
    with pytest.raises(ValueError, match="'five-of-a-kind', 'five-sixes'"):
        jo.probability_within(2, target="yahtzee")
    with pytest.raises(ValueError, match="'keep-largest', 'keep-target', 'reroll-all'"):
        jo.expected_throws(policy="keep-sixes")
    with pytest.raises(ValueError, match="'best-reply-2' … 'best-reply-6'"):
        jo.expected_throws(policy="best-reply-9")
    with pytest.raises(ValueError, match="whole number"):
        jo.probability_within(-1)
    with pytest.raises(ValueError, match="whole number"):
        jo.probability_within(2.5)
    with pytest.raises(ValueError, match="give 5 dice values"):
        jo.probability_within(2, start=(1, 2, 3))
    with pytest.raises(ValueError, match="'venus', 'dog', 'coin', 'any'"):
        jo.target_for_claim("horse")
    with pytest.raises(ValueError, match="'chance' or 'margin'"):
        jo.best_pickups((1, 2, 3, 4, 5), objective="spite")


def test_a_policy_function_must_keep_dice_that_lie_there_at_most_four():
    with pytest.raises(ValueError, match="at most four"):
        jo.expected_throws(policy=lambda dice: dice)              # keeps all five
    with pytest.raises(ValueError, match="at most four"):
        jo.expected_throws(policy=lambda dice: (6, 6) if dice.count(6) < 2 else ())


def test_chance_within_zero_throws_is_zero():
    assert jo.probability_within(0) == 0 and jo.throws_distribution(0) == []


# --- simulation ----------------------------------------------------------------------------------

def test_simulation_tables_agree_with_the_exact_counting():
    nxt = mc._next_position()
    w = jo._throw_weights()
    for k, kept in enumerate(jo.KEPT):
        counts = np.bincount(nxt[k], minlength=len(jo.POSITIONS))
        assert (counts == w[k] * 6 ** len(kept)).all(), kept


@pytest.mark.parametrize("kept,target,seed", [((), "five-of-a-kind", 1),
                                              ((3, 3), "five-of-a-kind", 2),
                                              ((6, 6, 6), "five-sixes", 3),
                                              ((1,), "five-ones", 4)])
def test_simulated_throw_chance_is_within_its_interval(kept, target, seed):
    est = mc.estimate_throw_chance(2_000_000, kept, target, seed=seed, level=0.999)
    assert est.contains(jo.throw_chance(kept, target)), est
    assert est.high - est.low < 0.05 * float(jo.throw_chance(kept, target)) + 0.002


def test_confidence_intervals_cover_the_exact_value_about_95_percent_of_the_time():
    exact = jo.throw_chance((3, 3))                      # 1/216
    inside = sum(mc.estimate_throw_chance(20_000, (3, 3), seed=s).contains(exact)
                 for s in range(40))
    assert 34 <= inside <= 40                            # Binomial(40, 0.95)


def test_simulated_rounds_match_the_exact_chain():
    rounds = mc.simulate_rounds(200_000, seed=11)
    assert rounds.unfinished == 0 and len(rounds) == 200_000
    assert rounds.within(3, level=0.999).contains(jo.probability_within(3))
    assert rounds.expected(level=0.999).contains(jo.expected_throws())
    dist = rounds.distribution(5)
    assert abs(dist[0] - 1 / 1296) < 0.0003 and abs(sum(dist) - rounds.within(5).value) < 1e-12


def test_simulated_seats_with_different_policies_match_the_exact_chances():
    policies = ["keep-largest", "keep-target", "reroll-all"]
    rounds = mc.simulate_rounds(150_000, "five-sixes", policies, seed=5)
    exact = jo.seat_chances(policies, "five-sixes")
    for est, p in zip(rounds.seat_shares(level=0.999), exact):
        assert est.contains(p), (est, p)
    assert rounds.expected(level=0.999).contains(jo.expected_throws("five-sixes", policies))


def test_simulated_rounds_from_a_start_position():
    rounds = mc.simulate_rounds(100_000, start=(2, 4, 4, 4, 4), seed=8)
    assert rounds.within(1, level=0.999).contains(Fraction(1, 6))
    assert rounds.expected(level=0.999).contains(
        jo.expected_throws(start=(2, 4, 4, 4, 4)))


def test_same_seed_same_rounds_and_generators_accepted():
    a = mc.simulate_rounds(5_000, seed=3)
    b = mc.simulate_rounds(5_000, rng=np.random.default_rng(3))
    c = mc.simulate_rounds(5_000, seed=4)
    assert (a.throws == b.throws).all() and (a.faces == b.faces).all()
    assert not (a.throws == c.throws).all()
    assert set(np.unique(a.faces)) <= set(range(1, 7))


def test_randomness_must_be_seeded():
    with pytest.raises(ValueError, match="seeded"):
        mc.simulate_rounds(10)
    with pytest.raises(ValueError, match="not both"):
        mc.throw_hits(10, rng=1, seed=1)
    with pytest.raises(ValueError, match="whole number"):
        mc.estimate_throw_chance(0, seed=1)


def test_rounds_that_may_never_score_are_reported():
    rounds = mc.simulate_rounds(2_000, "five-sixes", "keep-largest", max_throws=300, seed=9)
    assert rounds.unfinished > 0
    assert rounds.within(300).value < 1
    with pytest.raises(ValueError, match="may\\s+never"):
        rounds.expected()


def test_convergence_ends_near_the_exact_value_and_plots():
    data = mc.convergence("within", 3, samples=100_000, seed=21, level=0.999)
    assert data.sizes[-1] == 100_000 and data.exact == jo.probability_within(3)
    assert data.lows[-1] <= float(data.exact) <= data.highs[-1]
    assert (np.diff(data.highs - data.lows)[-5:] < 0).all()     # intervals narrow
    fig = mc.convergence_plot(data=data)
    ax = fig.axes[0]
    assert ax.get_xscale() == "log"
    assert any(abs(line.get_ydata()[0] - float(data.exact)) < 1e-12 for line in ax.lines)
    nxt = mc.convergence("next", kept=(4, 4, 4), samples=50_000, seed=2)
    assert nxt.exact == Fraction(1, 36) and nxt.unit == "throws simulated"
    exp = mc.convergence("expected", samples=20_000, seed=2, level=0.999)
    assert exp.lows[-1] <= float(exp.exact) <= exp.highs[-1]
    with pytest.raises(ValueError, match="'next', 'within', 'expected'"):
        mc.convergence("median", seed=1)
    fig2 = mc.distribution_plot(mc.simulate_rounds(5_000, seed=1), 30)
    assert len(fig2.axes[0].patches) == 30


def test_sample_dice_follows_the_face_probabilities():
    game = rd.tali(weights=rd.KNUCKLEBONE_STUDY_WEIGHTS)
    throws = mc.sample_dice(game, 400_000, seed=12)
    assert throws.shape == (400_000, 4) and set(np.unique(throws)) == {1, 3, 4, 6}
    venus = np.mean([len(set(row)) == 4 for row in throws[:100_000]])
    est = mc.proportion_estimate(int(round(venus * 100_000)), 100_000, 0.999)
    assert est.contains(game.odds()["venus"])
    share_of_ones = mc.proportion_estimate(int((throws == 1).sum()), throws.size, 0.999)
    assert share_of_ones.contains(Fraction(1, 10))


# --- Roman dice ----------------------------------------------------------------------------------

def brute_roman(faces, probs, dice, event) -> Fraction:
    p = dict(zip(faces, probs))
    total = Fraction(0)
    for t in product(faces, repeat=dice):
        if event(tuple(sorted(t))):
            total += math.prod(p[v] for v in t)
    return total


@pytest.mark.parametrize("weights", [None, (1, 4, 4, 1), (2, 3, 5, 7)])
def test_tali_odds_match_enumeration(weights):
    game = rd.tali() if weights is None else rd.tali(weights=weights)
    probs = game.model.probabilities
    assert game.odds()["venus"] == brute_roman((1, 3, 4, 6), probs, 4,
                                               lambda d: len(set(d)) == 4)
    assert game.odds()["dog"] == brute_roman((1, 3, 4, 6), probs, 4, lambda d: d == (1,) * 4)
    assert sum(p for _, p, _ in game.outcomes()) == 1


def test_equal_tali_and_tesserae_values():
    assert rd.TALI.odds() == {"venus": Fraction(3, 32), "dog": Fraction(1, 256)}
    assert rd.TESSERAE.odds() == {"venus": Fraction(1, 216), "dog": Fraction(1, 216)}
    assert rd.TESSERAE.expected_throws("dog") == 216
    assert rd.TALI.within(3) == 1 - Fraction(29, 32) ** 3


def test_tali_keeping_distinct_faces_solved_by_hand():
    # states: number of different faces kept (0 = nothing), rows solved backwards
    e3 = Fraction(4)                                       # one talus, needs the last face
    e2 = (1 + Fraction(10, 16) * e3) / (1 - Fraction(4, 16))
    # three tali thrown beside one kept face: count the ordered results by distinct new faces
    counts = Counter()
    for t in product((1, 3, 4, 6), repeat=3):
        new = len(set(t) - {1})
        counts[4 if new == 3 else 1 + new] += 1
    e1 = (1 + sum(Fraction(c, 64) * {2: e2, 3: e3}.get(s, 0) for s, c in counts.items()
                  if s in (2, 3))) / (1 - Fraction(counts[1], 64))
    first = Counter()
    for t in product((1, 3, 4, 6), repeat=4):
        first[len(set(t))] += 1
    e0 = 1 + sum(Fraction(c, 256) * {1: e1, 2: e2, 3: e3}[s] for s, c in first.items()
                 if s < 4)
    assert rd.TALI.expected_throws("venus", keep=True) == e0


def test_roman_validation_names_what_is_allowed():
    with pytest.raises(ValueError, match="not exact"):
        rd.tali((0.1, 0.4, 0.4, 0.1))
    with pytest.raises(ValueError, match="add up to exactly 1"):
        rd.tali(("1/4", "1/4", "1/4", "1/3"))
    with pytest.raises(ValueError, match="missing \\[6\\]"):
        rd.tali({1: "1/3", 3: "1/3", 4: "1/3"})
    with pytest.raises(ValueError, match="'venus', 'dog'"):
        rd.TALI.expected_throws("senio")
    assert rd.tali({1: "1/10", 3: "2/5", 4: "2/5", 6: "1/10"}) == rd.tali(weights=(1, 4, 4, 1))


# --- exercises -----------------------------------------------------------------------------------

ALL_EXERCISES = [e for s in (exercises.jactus_odds, exercises.roman_dice) for e in s]


@pytest.mark.parametrize("ex", ALL_EXERCISES, ids=lambda e: e.key)
def test_every_exercise_accepts_its_answer_and_explains_each_mistake(ex):
    assert ex.check(ex.answer)
    assert ex.check(f"{ex.answer.numerator}/{ex.answer.denominator}")
    assert ex.check(float(f"{float(ex.answer):.4g}"))
    for mistake in ex.mistakes:
        verdict = ex.check(mistake.resolve())
        assert not verdict and mistake.why in verdict.message
    assert not ex.check(ex.answer * 2)


def test_exercise_one_recognises_the_one_face_mistake():
    q1 = exercises.jactus_odds.q1
    assert q1.check(Fraction(1, 1296)) and q1.check("1/1296") and q1.check(0.000772)
    wrong = q1.check(Fraction(1, 7776))
    assert not wrong and "six faces" in wrong.message
    assert "odds" in q1.check(1296).message
    assert "3 significant figures" in q1.check(0.00077).message
    assert "not the exact value" in q1.check(Fraction(1, 1300)).message
    assert "Could not read" in q1.check("one in a thousand").message
    assert q1.check("1 in 1296") and q1.check("0.07716%")


def test_published_values_pass_the_exercises():
    assert exercises.jactus_odds.q4.check(0.04603)
    assert exercises.jactus_odds.q5.check(11.09)
    assert not exercises.jactus_odds.q5.check(1296)


def test_exercise_widget_checks_the_typed_answer():
    pytest.importorskip("ipywidgets")
    box = exercises.jactus_odds.q2.widget()
    box.answer_box.value = "1/3"
    box.check_button.click()
    assert "multiply" in box.verdict.value
    box.answer_box.value = "1/36"
    box.check_button.click()
    assert "Right" in box.verdict.value


def test_exercise_sets_list_their_questions():
    assert [e.key for e in exercises.jactus_odds][:3] == ["q1", "q2", "q3"]
    with pytest.raises(AttributeError, match="q1, q2"):
        exercises.roman_dice.q99

"""The design lab's intervals cover their truths 93–97% of the time, and its ◆ marks stay
under a 5% family-wise error rate: measured against known truths.

* Shares of games and two-seat balance: the coverage is computed *exactly*, summing the
  probability of every count a study can show (no simulation noise), at n = 20, 50 and
  200, for scenarios with the truth inside and on the boundary (balance 1, advantage 0,
  drawishness 0, completion 1).
* Every metric, means included, in simulated studies of synthetic games whose truths are
  known (``coverage_support.Scenario``); balance of four seats; real games of the
  certified fair Jactus without spoiling under optimal play; paired differences at
  n = 30.
* The ◆ marks: identical rules with re-seeded bots (synthetic pairs and real Jinns and
  Jactus tournaments on the same deals) show any ◆ in at most 5% of comparisons.

Sizes are modest (the whole file takes about half a minute); ``benchmarks/
interval_coverage.py`` runs the full check and prints every figure.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from coverage_support import (LUDII_KEYS, OptimalWalker, Scenario, any_mark,
                              bank_comparisons, coverage, ludii_coverage, ludii_truths,
                              optimal_studies, paired, paired_coverage, replay_walk,
                              reseeded_bank)
from scipy.stats import binom, multinomial

from janus_widgets.analysis.metrics import (LUDII_METRICS, Z95, Studies, game_row, metric_keys,
                                            result_limits, seat_balance_interval, summarize,
                                            wilson)

BAND = (0.93, 0.97)
#: Balance of three or more seats may be conservative by a point where seats near-tie.
SEATS_HIGH = 0.98
SIZES = (20, 50, 200)
KEYS = metric_keys(2)
SHARES = ("advantage_p1", "balance", "completion", "drawishness", "timeouts", "win_A",
          "win_B")
MEANS = ("duration", "duration_plies", "decisiveness", "lead_change", "branching_factor",
         "score_difference")
FAIR = Scenario("fair, 20% draws", draw=0.2)
AHEAD = Scenario("A ahead, draws and games cut off", shares=(0.6, 0.4), draw=0.2, cap=0.25,
                 turn_scale=25.0, binary_gap=True)
#: Shares whose truth 0 or 1 leaves a single possible count (no game capped, say).
WHOLE = ("completion", "timeouts", "drawishness", "win_A", "win_B")
NO_DRAWS = Scenario("fair, no draws, every game ends", draw=0.0)


def in_band(value: float) -> bool:
    return BAND[0] <= value <= BAND[1]


# --- exact coverage: every count a study can show ---------------------------------------
def _nested(n: int, p_outer: float, p_inner: float, covers) -> float:
    """Coverage when ``m ~ Bin(n, p_outer)`` games count and ``k | m ~ Bin(m, p_inner)``
    of them are counted; studies with m = 0 (the metric undefined) are left out."""
    ks, ms, weights = [], [], []
    for m in range(n + 1):
        k = np.arange(m + 1)
        ks.append(k)
        ms.append(np.full(m + 1, m))
        weights.append(binom.pmf(m, n, p_outer) * binom.pmf(k, m, p_inner))
    k, m, w = (np.concatenate(x) for x in (ks, ms, weights))
    defined = m > 0
    return float((w * covers(k, m) * defined).sum() / (w * defined).sum())


def exact_coverage(scenario: Scenario, n: int) -> dict[str, float]:
    """The exact coverage of every share metric and of two-seat balance."""
    truth = scenario.truths()
    (a, b), cap, draw = scenario.shares, scenario.cap, scenario.draw
    decisive = (1 - cap) * (1 - draw)
    near = 1e-12

    def share(low, high, t):
        return (low <= t + near) & (t - near <= high)

    def advantage(k, m):
        low, high = wilson(k, m)
        return share(low - 0.5, high - 0.5, truth["advantage_p1"])

    def balance(k, m):
        low, high = seat_balance_interval(np.stack([k, m - k], -1))
        return share(low, high, truth["balance"])

    def drawn(k, m):
        return share(*wilson(k, m), draw)

    def whole(p):
        k = np.arange(n + 1)
        return float((binom.pmf(k, n, p) * share(*wilson(k, np.full(n + 1, n)), p)).sum())
    return {"advantage_p1": _nested(n, decisive, a, advantage),
            "balance": _nested(n, decisive, a, balance),
            "drawishness": _nested(n, 1 - cap, draw, drawn),
            "completion": whole(1 - cap), "timeouts": whole(cap),
            "win_A": whole(decisive * a), "win_B": whole(decisive * b)}


@pytest.mark.parametrize("scenario", [FAIR, AHEAD, NO_DRAWS], ids=lambda s: s.name)
def test_shares_and_balance_cover_exactly(scenario):
    for n in SIZES:
        for key, value in exact_coverage(scenario, n).items():
            truth = scenario.truths()[key]
            if truth in (0.0, 1.0) and key in WHOLE:
                # A truth of exactly 0 or 1 (no game capped, every game finished, no draw)
                # leaves one possible count; the interval always holds it (100%), and it
                # says something: n = 200 games all finished give [0.981, 1].
                assert value == 1.0, (scenario.name, key, n)
            else:
                assert in_band(value), (scenario.name, key, n, round(value, 4))
    low, _ = wilson(200, 200)
    assert 0.98 < low < 0.99


@pytest.mark.parametrize("share", [0.5, 0.55, 0.6, 0.7, 0.8, 0.9])
def test_two_seat_balance_covers_exactly_from_fair_to_lopsided(share):
    """Every count of A's wins in 20, 50 and 200 decisive games, its chance summed: fair
    games, slightly unfair ones and a 90-to-10 game. (On the arcsine scale the 90-to-10
    game was covered 0.87 at 20 decisive games, and a 95-to-5 one 0.63.)"""
    truth = 1 - abs(2 * share - 1)
    for m in SIZES:
        k = np.arange(m + 1)
        low, high = seat_balance_interval(np.stack([k, m - k], -1))
        covered = (low <= truth + 1e-12) & (truth - 1e-12 <= high)
        value = float((binom.pmf(k, m, share) * covered).sum())
        if share >= 0.8:
            # Far from fair it is close to Wilson's interval of A's share, folded: its
            # coverage is Wilson's, as exact as a whole count allows (0.970 at 0.9 of 50).
            assert abs(value - wilson_coverage(share, m)) < 0.005, (share, m)
            assert BAND[0] <= value <= 0.975, (share, m, value)
        else:
            assert in_band(value), (share, m, value)


def test_a_fair_game_is_inside_balance_at_any_split():
    # The reproducer: 11 to 10 fits a perfectly fair game ...
    b = summarize([game_row("A" if i < 11 else "B", seed=i) for i in range(21)], 2)["balance"]
    assert b["high"] == 1.0 and b["low"] < b["value"] < 1
    # ... and the upper limit reaches 1 at every odd number of decisive games, 11 … 101.
    for m in (11, 21, 51, 101):
        k = np.arange(m // 2 - 1, m // 2 + 2)
        _, high = seat_balance_interval(np.stack([k, m - k], -1))
        assert (high == 1.0).all(), m
    # Far from fair, it does not: 70 of 100 decisive games.
    low, high = seat_balance_interval([[70, 30]])
    assert high[0] < 0.8 and low[0] > 0.4


# --- simulated studies ----------------------------------------------------------------------
@pytest.mark.parametrize("scenario", [FAIR, AHEAD], ids=lambda s: s.name)
def test_every_metric_covers_in_simulated_studies(scenario):
    truths = scenario.truths()
    studies = 2000
    for n in SIZES:
        rng = np.random.default_rng([27, n])
        measured = coverage(scenario.studies(rng, studies, n), truths, KEYS, Z95)
        exact = exact_coverage(scenario, n)
        for key in MEANS:
            assert in_band(measured[key][0]), (scenario.name, key, n, measured[key])
        for key in SHARES:                  # the simulation agrees with the exact figure
            value, count = measured[key]
            se = math.sqrt(max(exact[key] * (1 - exact[key]), 0.01 * 0.99) / count)
            assert abs(value - exact[key]) <= 4 * se, (scenario.name, key, n, value,
                                                       exact[key])


@pytest.mark.parametrize("shares", [(0.25,) * 4, (0.36, 0.185, 0.215, 0.24), (0.5, 0.3, 0.2),
                                    (0.3, 0.3, 0.2, 0.2), (0.4, 0.4, 0.1, 0.1)],
                         ids=["four equal seats", "seat A behind, C ahead", "three seats",
                              "two tied ahead, two behind", "far apart in tied pairs"])
def test_balance_of_three_and_four_seats_covers(shares):
    scenario = Scenario("seats", shares=shares, draw=0.1)
    for n in SIZES:
        rng = np.random.default_rng([n, len(shares)])
        (value, _), = coverage(scenario.studies(rng, 2000, n), scenario.truths(),
                               ["balance"], Z95).values()
        # Never under the band (ties at the floor and the ceiling were 0.91–0.93 before
        # the quantile of the largest pair gap). Over it by up to a point where seats
        # are near-tied (0.36 against 0.24 with 0.185 and 0.215 near the bottom:
        # 0.975): the lower limit then rarely misses, on the conservative side.
        assert BAND[0] <= value <= SEATS_HIGH, (shares, n, value)


# --- Ludii's own definitions ----------------------------------------------------------------
def wilson_coverage(p: float, n: int) -> float:
    """How often Wilson's interval of k in n holds p, every count's chance summed."""
    k = np.arange(n + 1)
    low, high = wilson(k, np.full(n + 1, n))
    return float(binom.pmf(k, n, p)[(low <= p + 1e-12) & (p - 1e-12 <= high)].sum())


def every_result(n: int, win: float, draw: float) -> tuple[np.ndarray, np.ndarray]:
    """Every count of wins, draws and losses of A in ``n`` games, as results (a win 1, a
    draw ½, a loss 0; studies × games), and its chance."""
    w, d = (a.ravel() for a in np.meshgrid(np.arange(n + 1), np.arange(n + 1)))
    keep = w + d <= n
    w, d = w[keep], d[keep]
    chance = multinomial.pmf(np.stack([w, d, n - w - d], -1), n, [win, draw, 1 - win - draw])
    games = np.arange(n)
    results = np.where(games < w[:, None], 1.0, np.where(games < (w + d)[:, None], 0.5, 0.0))
    return results, chance


@pytest.mark.parametrize("win, draw", [(0.4, 0.2), (0.6, 0.2), (0.7, 0.1), (0.2, 0.5),
                                       (0.05, 0.1), (0.5, 0.0)])
def test_a_mean_of_results_covers_exactly(win, draw):
    """Ludii's advantage, A's mean result (a win 1, a draw ½): every count of wins, draws
    and losses a study can show, its chance summed. (The skew-corrected t covered 0.98 at
    20 games with draws: it pulls a mean of results towards ½.)"""
    for n in SIZES:
        results, chance = every_result(n, win, draw)
        low, high = result_limits(results)
        truth = win + draw / 2
        covered = (low <= truth + 1e-12) & (truth - 1e-12 <= high)
        assert in_band(float((chance * covered).sum())), (win, draw, n)


@pytest.mark.parametrize("win, draw", [(0.4, 0.2), (0.6, 0.2), (0.7, 0.1), (0.2, 0.5),
                                       (0.05, 0.1), (0.5, 0.0), (0.9, 0.05)])
def test_ludii_two_seat_balance_covers_exactly(win, draw):
    """Ludii's balance of two seats, 1 − the gap between their mean results (a draw ½),
    every count summed. (On the t scale a game won 90%, drawn 5%, was covered 0.74 at
    20 games.)"""
    lose = 1 - win - draw
    truth = 1 - abs(win - lose)
    for n in SIZES:
        results, chance = every_result(n, win, draw)
        studies = Studies.simulated(2, np.where(results == 1, 0, np.where(results == 0, 1, -1)))
        low, high = LUDII_METRICS["balance"].measure(studies).limits(Z95)
        covered = (low <= truth + 1e-12) & (truth - 1e-12 <= high)
        assert in_band(float((chance * covered).sum())), (win, draw, n)


@pytest.mark.parametrize("win, draw", [(0.08, 0.9), (0.04, 0.92), (0.3, 0.65)])
def test_very_drawish_games_are_never_undercovered(win, draw):
    """Most games drawn, as in the two-player card game (92% without a single winner):
    Ludii's advantage and balance, every count summed, never under 93%. (With the draws'
    share held at the games', 8% wins and 90% draws was covered 0.81 at 20 games; the
    few decisive games leave the interval conservative here, up to 0.999.)"""
    lose = 1 - win - draw
    for n in SIZES:
        results, chance = every_result(n, win, draw)
        low, high = result_limits(results)
        mean = win + draw / 2
        held = (low <= mean + 1e-12) & (mean - 1e-12 <= high)
        assert float((chance * held).sum()) >= BAND[0], ("advantage", win, draw, n)
        sole = np.where(results == 1, 0, np.where(results == 0, 1, -1))
        low, high = LUDII_METRICS["balance"].measure(Studies.simulated(2, sole)).limits(Z95)
        truth = 1 - abs(win - lose)
        held = (low <= truth + 1e-12) & (truth - 1e-12 <= high)
        assert float((chance * held).sum()) >= BAND[0], ("balance", win, draw, n)
    # Every game a draw: an interval round ½, not the single point ½.
    low, high = result_limits(np.full((1, 20), 0.5))
    assert 0.35 < low[0] < 0.45 and 0.55 < high[0] < 0.65


@pytest.mark.parametrize("scenario", [FAIR, AHEAD, NO_DRAWS], ids=lambda s: s.name)
def test_the_intervals_under_ludii_definitions_cover(scenario):
    """``definition="ludii"`` reports intervals too: they cover Ludii's truths."""
    truths = ludii_truths(scenario)
    for n in SIZES:
        measured = ludii_coverage(scenario.studies(np.random.default_rng([n, 7]), 3000, n),
                                  truths, LUDII_KEYS, Z95)
        for key, (value, count) in measured.items():
            if truths[key] in (0.0, 1.0) and key in WHOLE:
                assert value == 1.0, (scenario.name, key, n)       # one possible count
            elif key in ("completion", "drawishness"):
                # Shares of all games: Wilson's, whose exact coverage at a whole count's
                # lattice is what it is (0.98 at 0.15 of 20 games); measured, it is that.
                exact = wilson_coverage(truths[key], n)
                se = math.sqrt(exact * (1 - exact) / count)
                assert abs(value - exact) <= 4 * se, (scenario.name, key, n, value, exact)
                assert BAND[0] <= exact or n == 20, (scenario.name, key, n, exact)
            else:
                assert in_band(value), (scenario.name, key, n, value, count)


# --- real games: Jactus without spoiling, under optimal play -----------------------------------
@pytest.fixture(scope="module")
def optimal():
    walker = OptimalWalker({"spoil": False})
    games = walker.play(6000, np.random.default_rng(2027))
    return walker, games


def test_walked_games_are_real_optimal_games(optimal):
    walker, games = optimal
    rng = np.random.default_rng(5)
    for _ in range(3):                        # every move the optimal bot's, every throw legal
        path = walker.path(rng)
        final = replay_walk(walker, path)
        assert final.is_over and len(final.winners()) == 1
    truths = walker.truths()
    assert abs(truths["advantage_p1"]) < 5e-5 and walker.solution.gap <= 1e-9
    # 6,000 walked games agree with the exact truths.
    share = (games["sole"] == 0).mean()
    assert abs(share - truths["win_A"]) < 3.5 * math.sqrt(0.25 / 6000)
    turns = games["decisions"]
    assert abs(turns.mean() - truths["duration"]) < 3.5 * turns.std() / math.sqrt(6000)
    assert (games["sole"] >= 0).all()


def test_intervals_cover_on_optimal_jactus(optimal):
    walker, games = optimal
    truths = walker.truths()
    v = truths["win_A"]
    fair = Scenario("optimal Jactus", shares=(v, 1 - v), draw=0.0)
    for n in SIZES:
        # Shares: each optimal game from the start is won by A with the solver's chance
        # v, independently, so the exact coverage at v is the coverage on real games.
        exact = exact_coverage(fair, n)
        for key in ("advantage_p1", "balance", "win_A", "win_B"):
            assert in_band(exact[key]), (key, n, exact[key])
        # Means and everything else: studies of distinct walked games.
        studies = {20: 1200, 50: 600, 200: 400}[n]
        rng = np.random.default_rng(n)
        index = np.argsort(rng.random((studies, len(games["sole"]))), axis=1)[:, :n]
        measured = coverage(optimal_studies(games, index), truths,
                            ["duration", "duration_plies", "advantage_p1", "balance",
                             "completion", "drawishness"], Z95)
        for key in ("duration", "duration_plies"):
            assert in_band(measured[key][0]), (key, n, measured[key])
        for key in ("completion", "drawishness"):     # truths 1 and 0: always held
            assert measured[key][0] == 1.0
        for key in ("advantage_p1", "balance"):
            se = math.sqrt(exact[key] * (1 - exact[key]) / studies)
            assert abs(measured[key][0] - exact[key]) <= 4 * se, (key, n, measured[key])


# --- paired differences at n = 30 ---------------------------------------------------------------
@pytest.mark.parametrize("b", [FAIR, AHEAD], ids=["identical rules", "another rule"])
def test_paired_differences_cover_at_30_games(b):
    a = FAIR
    rng = np.random.default_rng(30)
    sa, sb = paired(rng, a, b, 3000, 30, link=0.6)
    ta, tb = a.truths(), b.truths()
    truths = {k: tb[k] - ta[k] for k in KEYS}
    measured = paired_coverage(sa, sb, truths, KEYS, Z95)
    for key, (value, count) in measured.items():
        if key in ("completion", "timeouts"):
            # FAIR caps no game: a truth of exactly 1 (0) on that side, whose interval
            # still allows for a few capped games; the difference is held more often.
            assert value >= BAND[0] and (b is AHEAD or value == 1.0), (key, value)
            continue
        if key == "balance":
            # Two seats' balance folds at a fair game (|2p − 1|): its difference is valid
            # everywhere but conservative near two fair rules (about 0.99 here; 0.95–0.97
            # away from them): no interval of the folded difference is 95% at both.
            assert BAND[0] <= value, (key, value)
            continue
        assert in_band(value), (key, value, count)


# --- the marks: identical rules, bots re-seeded ----------------------------------------------
def test_identical_rules_show_a_mark_in_at_most_5_percent_of_comparisons_synthetic():
    rng = np.random.default_rng(5)
    for n, comparisons in ((30, 600), (200, 400)):
        a, b = paired(rng, FAIR, FAIR, comparisons, n, link=0.6)
        assert any_mark(a, b, KEYS).mean() <= 0.05, n


@pytest.mark.parametrize("game", ["jinns", "jactus"])
def test_identical_rules_show_a_mark_in_at_most_5_percent_of_comparisons(game):
    # 900 real games: 300 deals, each played three times with the greedy bots seeded
    # afresh; 400 comparisons of 60 deals, each deal's two sides two different seedings.
    bank = reseeded_bank(game, 300, 3, seed=11)
    columns = [r.columns() for r in bank]
    assert columns[0].seeds == columns[1].seeds                      # the same deals
    assert (columns[0].decisions != columns[1].decisions).mean() > 0.5   # other games
    a, b = bank_comparisons(bank, 400, 60, np.random.default_rng(game == "jinns"))
    marked = any_mark(a, b, KEYS)
    assert marked.mean() <= 0.05, marked.mean()


# --- games all alike ---------------------------------------------------------------------------
def test_games_all_alike_give_no_interval_but_a_difference_they_all_show_is_found():
    from janus_widgets.analysis.metrics import GameColumns, paired_difference, with_interval
    rows = [game_row("A" if i % 3 else "B", decisions=10 + i % 4, seed=i) for i in range(30)]
    longer = [dict(r, decisions=r["decisions"] + 1) for r in rows]
    # every game one turn longer: no interval of the mean gap, but 0 is not among the gaps
    d = paired_difference(GameColumns(rows, 2), GameColumns(longer, 2), "duration")
    assert d["low"] is None and d["alike"] == 30 and d["excludes_zero"]
    assert d["p_value"] == pytest.approx(2 * 0.5 ** 30)
    assert with_interval(d, True) == "+1 (all 30 alike)"
    # the same games on both sides: exactly 0
    same = paired_difference(GameColumns(rows, 2), GameColumns(rows, 2), "duration")
    assert (same["value"], same["low"], same["high"], same["p_value"]) == (0, 0, 0, 1.0)
    # every winner led from the start: decisiveness has bounds (0 … 1), so the share of
    # games that could lie elsewhere bounds it, Wilson's upper limit of 0 in 30
    led = [dict(r, decided_at=0.0) for r in rows]
    entry = summarize(led, 2)["decisiveness"]
    assert (entry["value"], entry["low"]) == (0.0, 0.0)
    assert entry["high"] == pytest.approx(wilson(0, 30)[1])
    varied = [dict(r, decided_at=(i % 5) / 5) for i, r in enumerate(rows)]
    m = paired_difference(GameColumns(led, 2), GameColumns(varied, 2), "decisiveness")
    assert m["low"] is not None and m["low"] < m["value"] < m["high"]
    # six games all one turn longer are the fewest whose sign test excludes 0 at 5%
    for n, excludes in ((5, False), (6, True)):
        d = paired_difference(GameColumns(rows[:n], 2), GameColumns(longer[:n], 2),
                              "duration")
        assert d["excludes_zero"] is excludes and d["alike"] == n
    # Ludii's score difference of games that all end 3 to 1: the value, no interval
    scored = [dict(r, scores=[3, 1]) for r in rows]
    gap = summarize(scored, 2, definition="ludii")["score_difference"]
    assert gap["value"] == 2 and gap["low"] is None


def test_the_quantile_of_the_largest_pair_gap():
    from janus_widgets.analysis.metrics import _max_gap_quantile
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((2, 400_000, 3))
    for a, b in ((1, 1), (2, 2), (1, 3), (2, 3)):
        drawn = (x[:, :a].max(1) - y[:, :b].min(1)) / math.sqrt(2)
        assert abs(float(_max_gap_quantile(a, b, 0.975)) - np.quantile(drawn, 0.975)) < 0.02
    # more ties, a higher quantile, down to tiny tails (p-values of 1e-12)
    for level in (0.975, 1 - 1e-6, 1 - 1e-12):
        q = _max_gap_quantile(np.array([1, 1, 2, 2]), np.array([1, 2, 2, 3]), level)
        assert (np.diff(q) > 0).all(), (level, q)
    assert float(_max_gap_quantile(1, 1, 1 - 1e-12)) == pytest.approx(7.034, abs=1e-3)


def test_a_few_decisive_games_all_alike_do_not_make_a_difference():
    """Decisiveness from 3 (or 12) decisive games, mostly 0, against 25, the same
    distribution on both sides: "no difference" is refused at 5% in at most 5% of 400
    comparisons. (Taking an all-alike side as exact refused it in half of them.)"""
    from janus_widgets.analysis.metrics import Studies, _p_value, paired_estimate
    rng = np.random.default_rng(4)
    studies, games = 400, 30

    def side(decisive: int) -> Studies:
        sole = np.full((studies, games), -1)
        chosen = np.argsort(rng.random((studies, games)), 1)[:, :decisive]
        np.put_along_axis(sole, chosen, 0, 1)
        when = np.where(rng.random((studies, games)) < 0.85, 0.0,
                        rng.uniform(0.1, 0.9, (studies, games)))
        return Studies.simulated(2, sole, decided=np.where(sole >= 0, when, np.nan))
    for few in (3, 12):
        estimate = paired_estimate(side(few), side(25), "decisiveness")
        p = _p_value(estimate, estimate.value)
        assert np.isfinite(p).all() and (p < 0.05).mean() <= 0.05, few

"""Jactus solved (janus_widgets.analysis.solve): the method on small games with cycles,
the Bellman equations on positions from real play, best moves, the certificate, the
cache, the optimal bot wherever bots are named, and the widget's best-move hint.

The solutions come from the session's temporary cache folder (tests/../conftest.py):
each variant is solved about once per test run.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

from janus_widgets import games
from janus_widgets.analysis import solve
from janus_widgets.analysis.solve import GameGraph, SolverError, best_response, solve_graph
from janus_widgets.analysis.tournament import bot_scores, run_tournament
from janus_widgets.core import CHANCE, TERMINAL, RandomStream, VariantError
from janus_widgets.core.bots import bot_names, make_bot
from janus_widgets.core.simulate import play_game
from janus_widgets.games.jactus.rules import JactusVariant, position

jactus = games.get("jactus")
A, B, CH, END = 0, 1, solve.CHANCE_NODE, solve.TERMINAL_NODE


@pytest.fixture(scope="session")
def solution():
    return solve.cached_solution()


@pytest.fixture(scope="session")
def spoil_free():
    return solve.cached_solution({"spoil": False})


# --- the method, on games small enough to solve by hand --------------------------------
def test_a_cycle_both_seats_may_keep_is_worth_a_half():
    # A: leave to 0.2 or hand over to B; B: leave to 0.8 or hand back. Each would rather
    # keep the cycle than take its way out, and the Bellman equations hold for every
    # value between 0.2 and 0.8; only ½ counts play that never ends as a draw.
    g = GameGraph.from_edges([A, B, END, END], {0: [2, 1], 1: [3, 0]}, {2: 0.2, 3: 0.8})
    s = solve_graph(g)
    assert s.values[:2].tolist() == [0.5, 0.5] and s.gap == 0.0
    assert s.ends[:2].tolist() == [0.0, 0.0]


def test_a_cycle_one_seat_leaves_is_worth_its_way_out():
    # B would leave at 0.3 (better for B than ½): then A's best is to leave at 0.4.
    g = GameGraph.from_edges([A, B, END, END], {0: [1, 2], 1: [0, 3]}, {2: 0.4, 3: 0.3})
    s = solve_graph(g)
    assert s.values[:2].tolist() == pytest.approx([0.4, 0.3])
    assert s.ends[0] == 1.0


@pytest.fixture(scope="session")
def rulebook_graph(solution):
    """The game graph of 2-player Jactus, explored afresh (the nodes of the solution)."""
    graph, raws = solve.explore(jactus.engine())
    assert raws == solution.raws
    return graph


def test_value_iteration_from_0_and_1_brackets_the_value_but_need_not_meet(solution,
                                                                          rulebook_graph):
    from janus_widgets.analysis.solve import value_iteration
    g = GameGraph.from_edges([A, B, END, END], {0: [2, 1], 1: [3, 0]}, {2: 0.2, 3: 0.8})
    assert value_iteration(g, 0.0, 30)[-1].tolist() == [0.2]
    assert value_iteration(g, 1.0, 30)[-1].tolist() == [0.8]
    # On Jactus: after 100 sweeps the bracket at the start is still nearly [0, 1].
    graph = rulebook_graph
    track = list(range(0, graph.n, 997))
    low = value_iteration(graph, 0.0, 100, track=track)[-1]
    high = value_iteration(graph, 1.0, 100, track=track)[-1]
    exact = solution.values[track]
    assert np.all(low <= exact + 1e-12) and np.all(exact <= high + 1e-12)
    assert high[0] - low[0] > 0.99


def test_a_seat_keeps_a_cycle_rather_than_lose():
    # Strategy iteration from "lose now" cannot see the loop (it is worth the same by the
    # Bellman equations), so the result is not certified; Hoffman-Karp finds the ½.
    g = GameGraph.from_edges([A, END], {0: [1, 0]}, {1: 0.0})
    with pytest.raises(SolverError, match="could not be certified"):
        solve_graph(g, method="strategy")
    s = solve_graph(g)
    assert s.values[0] == 0.5 and "Hoffman-Karp" in s.method and s.gap == 0.0
    assert best_response(g, 0, g.first_choice()).values[0] == 0.5


def test_chance_that_returns_ends_with_probability_one():
    # Chance repeats itself nine times in ten and otherwise A wins: A wins for sure.
    g = GameGraph.from_edges([CH, END], {0: [0, 1]}, {1: 1.0}, probs={0: [0.9, 0.1]})
    s = solve_graph(g)
    assert s.values[0] == pytest.approx(1.0, abs=1e-12) and s.ends[0] == pytest.approx(1.0)


def test_a_graph_that_is_not_a_game_is_refused():
    with pytest.raises(ValueError, match="sum to 1"):
        GameGraph.from_edges([CH, END], {0: [1]}, {1: 1.0}, probs={0: [0.5]})
    with pytest.raises(ValueError, match="at least one edge"):
        GameGraph.from_edges([A, END], {}, {1: 1.0})
    with pytest.raises(ValueError, match="method"):
        solve_graph(GameGraph.from_edges([A, END], {0: [1]}, {1: 1.0}), method="magic")


# --- Jactus: the certificate and the Bellman equations ----------------------------------
def test_the_solution_is_certified(solution):
    assert solution.gap <= 1e-9
    assert solution.residual <= 1e-12
    assert solution.meta["positions"] == len(solution.raws) > 40_000
    assert solution.meta["seconds"] < 120          # measured under load; 60 s quiet


def test_the_certificate_is_recomputed_and_catches_a_worse_strategy(solution, rulebook_graph):
    """The gap of the cached solution's strategies, recomputed here by exact best
    responses, is at most 1e-9; one bad move of B's (after A's opening 6 6 6 6 2, the
    pick-up worst for B) gives A at least what the move throws away."""
    graph = rulebook_graph
    decision_edge = graph.decision[graph.edge_row]
    chosen = decision_edge & (graph.action == solution.moves[graph.edge_row])
    choice = np.full(graph.n, -1, np.int64)
    choice[graph.edge_row[chosen]] = np.nonzero(chosen)[0]
    assert np.array_equal(choice >= 0, graph.decision)      # one move at every decision
    assert solve.exploitability(graph, choice, solution.values) <= 1e-9
    node = solution.index[position(dice=(6, 6, 6, 6, 2), to_move=1).raw]
    edges = np.arange(graph.ptr[node], graph.ptr[node + 1])
    worst = edges[np.argmax(solution.values[graph.succ[edges]])]
    loss = solution.values[graph.succ[worst]] - solution.values[node]
    assert loss > 0.01
    bad = choice.copy()
    bad[node] = worst
    assert solve.exploitability(graph, bad) >= loss - 1e-9


def played_states(seed: int, plies: int, bots=("random", "random")):
    """The states of a real game (the checked path), bots or random moves per seat."""
    stream = RandomStream(seed)
    policies = [None if b == "random" else make_bot(b, jactus, p, seed + p)
                for p, b in enumerate(bots)]
    state = jactus.new(seed=seed)
    out = [state]
    for _ in range(plies):
        if state.is_over:
            break
        if state.is_chance:
            state = state.play_chance()
        else:
            policy = policies[state.current_player]
            state = state.play(policy(state) if policy else stream.choice(state.legal_moves()))
        out.append(state)
    return out


GAMES = [(seed, 300, ("random", "random")) for seed in range(4)] + [
    (seed, 3000, ("greedy", "greedy")) for seed in range(2)] + [(7, 3000, ("optimal", "greedy"))]


@pytest.fixture(scope="session")
def samples(solution):
    """Positions of real games: random play, greedy play, optimal against greedy."""
    return [played_states(*game) for game in GAMES]


@pytest.mark.parametrize("game_index", range(len(GAMES)))
def test_values_satisfy_the_bellman_equations_on_real_play(solution, samples, game_index):
    layouts = set()
    for state in samples[game_index]:
        value = solution.value(state)
        layouts.add(state.raw[3])
        if state.is_over:
            assert value == (1.0 if state.winners() == (0,) else 0.0)
        elif state.is_chance:
            average = sum(float(p) * solution.value(state.play(m))
                          for m, p in state.chance_outcomes())
            assert value == pytest.approx(average, abs=1e-12)
        else:
            after = [solution.value(state.play(m)) for m in state.legal_moves()]
            best = max(after) if state.current_player == 0 else min(after)
            assert value == pytest.approx(best, abs=1e-12)
    assert len(layouts) >= 2 or game_index < 4     # real games change hands


@pytest.mark.parametrize("game_index", range(len(GAMES)))
def test_best_moves_attain_the_value(solution, samples, game_index):
    for state in samples[game_index][::3]:
        if state.current_player < 0:
            assert solution.best_moves(state) == []
            continue
        value = solution.value(state)
        best = solution.best_moves(state)
        assert best and solution.move(state) in best
        sign = 1 if state.current_player == 0 else -1
        for move, after in solution.move_values(state):
            if move in best:
                assert abs(after - value) <= 1e-9
            else:
                assert sign * (value - after) > 1e-9      # every other move is worse


def test_seats_swapped_values_mirror(solution):
    # The rules treat A and B alike: B to move in (x, y) is A to move in (y, x), mirrored.
    for dice in [(1, 2, 3, 4, 5), (6, 6, 6, 2, 3), (4, 4, 1, 1, 2)]:
        for a, b in [((0, 0, 0), (0, 0, 0)), ((1, 0, 0), (0, 1, 1)), ((0, 2, 0), (1, 0, 1))]:
            as_a = position(dice=dice, to_move=0, holdings=(a, b))
            as_b = position(dice=dice, to_move=1, holdings=(b, a))
            assert solution.value(as_a) == pytest.approx(1 - solution.value(as_b), abs=1e-9)


def test_a_winning_claim_is_the_best_move_and_worth_one(solution):
    s = position(dice=(1,) * 5, phase="claim", holdings=((1, 2, 0), (0, 0, 0)))
    assert solution.value(s) == pytest.approx(1.0)
    assert [str(m) for m in solution.best_moves(s)] == ["coin"]
    assert solution.end_probability(s) == 1.0


def test_the_rulebook_game_may_never_end_and_no_spoiling_ends_it(solution, spoil_free):
    start = solution.start
    assert 0 < solution.end_probability(start) < 0.5          # mostly endless spoiling
    assert abs(solution.value(start) - 0.5) < 1e-3
    assert spoil_free.gap <= 1e-9
    assert spoil_free.end_probability(spoil_free.start) == pytest.approx(1.0, abs=1e-9)
    assert spoil_free.meta["positions"] < solution.meta["positions"]


def test_optimal_play_is_unique_about_ending(solution):
    low, high = solution.meta["end_bounds"]
    assert low == pytest.approx(high, abs=1e-9)
    assert low == pytest.approx(solution.end_probability(solution.start), abs=1e-9)


def test_positions_the_solution_does_not_hold_are_refused(solution):
    with pytest.raises(ValueError, match="variant"):
        solution.value(jactus.new(dog_throws="other", seed=0))
    with pytest.raises(ValueError, match="cannot arise"):
        solution.value(("not", "a", "position"))


# --- the cache ------------------------------------------------------------------------
def test_a_cached_solution_equals_a_fresh_one(tmp_path, solution):
    fresh = solve.solve_jactus(folder=tmp_path)
    assert fresh.meta["source"] == "solved"
    files = list(tmp_path.glob("jactus-*.npz"))
    assert len(files) == 1
    again = solve.solve_jactus(folder=tmp_path)
    assert again.meta["source"] == "cache"
    assert again.raws == fresh.raws and again.index == fresh.index
    for name in ("values", "moves", "ends"):
        assert np.array_equal(getattr(again, name), getattr(fresh, name))
    assert again.gap == fresh.gap and again.summary()["value_A"] == fresh.summary()["value_A"]
    assert np.allclose(fresh.values, solution.values, atol=1e-12)



def test_threads_asking_at_once_wait_for_one_solve(monkeypatch, solution):
    """A class's hint requests arrive together on the table server's worker threads:
    one solve (seconds and a few hundred MB the first time), the others wait for it."""
    import threading
    import time
    solved = []

    def slow_solve(variant):
        solved.append(variant)
        time.sleep(0.3)
        return solution
    monkeypatch.setattr(solve, "_MEMO", {})
    monkeypatch.setattr(solve, "solve_jactus", slow_solve)
    got = []
    threads = [threading.Thread(target=lambda: got.append(solve.cached_solution()))
               for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert len(solved) == 1 and len(got) == 8 and all(g is solution for g in got)


def test_a_damaged_cache_file_is_solved_again_never_trusted(tmp_path, monkeypatch, solution):
    solved = []
    monkeypatch.setattr(solve.JactusSolution, "_solve",
                        classmethod(lambda cls, variant: solved.append(variant) or solution))
    file = tmp_path / f"jactus-{solve._cache_key(solution.variant)}.npz"
    file.write_bytes(b"not a solution")
    assert solve.solve_jactus(folder=tmp_path) is solution and len(solved) == 1
    assert solve.solve_jactus(folder=tmp_path).meta["source"] == "cache"   # replaced
    assert len(solved) == 1


@pytest.fixture
def patched_solver(tmp_path, monkeypatch, solution):
    """solve_jactus over ``tmp_path`` with the solving itself replaced by the session's
    solution (counted), and the cache file it writes."""
    solved = []
    monkeypatch.setattr(solve.JactusSolution, "_solve",
                        classmethod(lambda cls, variant: solved.append(variant) or solution))
    assert solve.solve_jactus(folder=tmp_path) is solution and len(solved) == 1
    file = tmp_path / f"jactus-{solve._cache_key(solution.variant)}.npz"
    assert file.exists()
    return solved, file


def _rewrite(file, *, checksum: bool, **arrays):
    """The cache file with some arrays replaced; its checksum recomputed (a forger who
    read this module) or left as it was."""
    with np.load(file) as data:
        content = {k: data[k] for k in data.files}
    content.update(arrays)
    if checksum and "meta" not in arrays:
        meta = json.loads(content["meta"].tobytes())
        meta.pop("checksum")
        meta["checksum"] = solve._checksum(content["values"], content["moves"],
                                           content["ends"], meta)
        content["meta"] = np.frombuffer(json.dumps(meta).encode(), np.uint8)
    np.savez_compressed(file, **content)


@pytest.mark.parametrize("checksum", [False, True])
def test_cached_values_overwritten_are_solved_again(patched_solver, tmp_path, solution,
                                                     checksum):
    """Issue 24: values overwritten with 0.9 came back with gap 0. A checksum catches a
    damaged file; the certificate, recomputed in the game, catches one forged with a
    checksum that matches."""
    solved, file = patched_solver
    _rewrite(file, checksum=checksum, values=np.full_like(solution.values, 0.9))
    assert solve.solve_jactus(folder=tmp_path) is solution and len(solved) == 2
    again = solve.solve_jactus(folder=tmp_path)            # the file was replaced
    assert len(solved) == 2 and again.meta["source"] == "cache"
    assert np.array_equal(again.values, solution.values) and again.gap <= 1e-9


def test_cached_moves_that_lose_are_solved_again(patched_solver, tmp_path, solution):
    solved, file = patched_solver
    moves = solution.moves.copy()
    node = solution.index[position(dice=(6, 6, 6, 6, 2), to_move=1).raw]
    worse = [m.action for m in solution.start.game.from_raw(solution.raws[node]).legal_moves()
             if m.action != moves[node]]
    moves[node] = worse[0]
    _rewrite(file, checksum=True, moves=moves)
    with pytest.raises(ValueError, match="not those of the cached strategies"):
        solve.JactusSolution._load(file, solution.variant)
    assert solve.solve_jactus(folder=tmp_path) is solution and len(solved) == 2


def test_a_cache_nested_100000_deep_is_solved_again(patched_solver, tmp_path, solution):
    """Issue 24: a cache nested 100,000 deep raised RecursionError."""
    solved, file = patched_solver
    deep = np.frombuffer(("[" * 100_000 + "]" * 100_000).encode(), np.uint8)
    _rewrite(file, checksum=False, meta=deep)
    assert solve.solve_jactus(folder=tmp_path) is solution and len(solved) == 2
    # the first format's raw states, nested as deep, are no part of a solution any more
    _rewrite(file, checksum=False, raws=deep)
    assert solve.solve_jactus(folder=tmp_path) is solution and len(solved) == 3


def test_the_cache_is_keyed_by_options_and_version(monkeypatch):
    import janus_widgets
    rulebook = solve._cache_key(JactusVariant())
    assert solve._cache_key(JactusVariant(spoil=False)) != rulebook
    assert solve._cache_key(JactusVariant(dog_throws="other")) != rulebook
    monkeypatch.setattr(janus_widgets, "__version__", "99.0")
    assert solve._cache_key(JactusVariant()) != rulebook


def test_the_cache_lives_in_the_users_cache_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("JANUS_WIDGETS_CACHE", str(tmp_path))
    assert solve.cache_dir() == tmp_path
    monkeypatch.delenv("JANUS_WIDGETS_CACHE")
    import platformdirs
    assert solve.cache_dir() == solve.Path(platformdirs.user_cache_dir("janus_widgets"))


def test_variants_it_cannot_solve_get_a_variant_error():
    with pytest.raises(VariantError, match="2-player") as err:
        solve.solve_jactus({"players": 3})
    assert err.value.field == "players"
    with pytest.raises(VariantError, match="layouts") as err:
        solve.solve_jactus({"supply": "full"})
    assert err.value.field == "supply"
    assert solve.unsolvable(JactusVariant()) is None
    with pytest.raises(TypeError):
        solve.solve_jactus("rulebook")


# --- the policy pictures' data --------------------------------------------------------
def test_policy_table_says_try_or_spoil_for_every_pickup(solution):
    table = solution.policy_table()
    picks = sum(1 for raw in solution.raws if raw[0] == 2)
    assert len(table.rows) == picks
    for row in table.rows[::97]:
        assert row["tries"] == (len(set(row["kept"])) <= 1)
        best = max(v for v in (row["best_try"], row["best_spoil"]) if v is not None)
        assert row["value"] == pytest.approx(best, abs=1e-12)
    # In the even start both spoil unless three or more dice are alike.
    start = [r for r in table.rows if r["mine"] == r["theirs"] == (0, 0, 0)]
    assert {r["pattern"] for r in start if r["tries"]} == {"311", "32", "41"}
    layouts, patterns, share = table.try_share(0)
    assert share.shape == (len(layouts), len(patterns)) and np.nanmax(share) == 1.0


def test_what_the_lesson_says_about_the_pictures_is_true(solution):
    # notebooks/solving-jactus.ipynb, section 3, reads these off the try-or-spoil panels.
    table = solution.policy_table()
    rows = ["11111", "2111", "221", "311", "32", "41"]
    _, even = table.by_face((0, 0, 0), (0, 0, 0))
    assert np.all(even[:3][~np.isnan(even[:3])] == 0) and np.all(even[3:] == 1)
    _, venus = table.by_face((1, 0, 0), (0, 0, 0))
    assert venus[rows.index("2111"), 0] == 1 and venus[rows.index("311"), 5] == 0
    _, behind = table.by_face((0, 0, 0), (1, 0, 1))
    assert behind[rows.index("11111"), 0] == behind[rows.index("11111"), 5] == 1
    _, last_dog = table.by_face((1, 1, 1), (0, 1, 0))
    assert np.all(last_dog[rows.index("11111")] == 0)
    assert np.all(last_dog[rows.index("2111"), 1:5] == 1)
    assert np.all(last_dog[rows.index("311"), 1:5] == 1)
    assert np.all(last_dog[rows.index("32")] == 1) and np.all(last_dog[rows.index("41")] == 1)


def test_policy_pictures_are_drawn(solution):
    pytest.importorskip("matplotlib")
    table = solution.policy_table()
    fig = table.plot()
    assert fig.axes[0].get_xlabel() == "the dice the mover finds"
    fig = table.plot_layouts([((0, 0, 0), (0, 0, 0)), ((1, 0, 0), (0, 0, 0))])
    assert len(fig.axes) >= 2
    assert "try" in " ".join(t.get_text() for t in fig.axes[0].texts)


# --- the bot, wherever bots are named ---------------------------------------------------
def test_core_does_not_import_the_solver_to_name_the_bot():
    code = ("import sys, janus_widgets.core.bots as b; "
            "assert 'optimal' in b.bot_names('jactus'); "
            "assert 'janus_widgets.analysis.solve' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_optimal_bot_is_named_for_jactus_only():
    assert "optimal" in bot_names() and "optimal" in bot_names(jactus)
    assert "optimal" not in bot_names(games.get("jinns"))
    bot = make_bot("optimal", jactus, 1, 5)
    assert isinstance(bot, solve.OptimalBot)
    with pytest.raises(ValueError, match="does not play Jinns"):
        make_bot("optimal", games.get("jinns"), 0, 0)


def test_the_optimal_bot_plays_the_solution(solution, samples):
    bot = make_bot("optimal", jactus, 0, 0)
    for state in samples[0][:60]:
        if state.current_player >= 0:
            assert bot(state) == solution.move(state)
    result = play_game(jactus.new(seed=3), ["optimal", "greedy"], max_plies=20_000)
    assert result.plies > 0
    with pytest.raises(VariantError, match="2-player"):
        bot(jactus.new(players=3, seed=0))


def test_optimal_scores_at_least_a_half_against_greedy_with_seats_rotated():
    result = run_tournament("jactus", bots=["optimal", "greedy"], games=40, seed=11,
                            rotate_seats=True, progress=False)
    scores = bot_scores(result)
    assert scores["optimal"]["games"] == 40
    assert scores["optimal"]["high"] >= 0.5          # at least ½ − the 95% interval
    assert scores["optimal"]["score"] + scores["greedy"]["score"] == pytest.approx(1.0)


def test_bot_scores_count_wins_draws_and_losses():
    from janus_widgets.analysis.tournament import TournamentResult
    rows = [{"bots": ["x", "y"], "winners": ["A"]}, {"bots": ["y", "x"], "winners": ["A"]},
            {"bots": ["x", "y"], "winners": []}, {"bots": ["x", "x"], "winners": ["B"]}]
    scores = bot_scores(TournamentResult("jactus", {}, ["x", "y"], rows, 10, 0))
    assert scores["x"]["score"] == pytest.approx((1 + 0 + 0.5) / 3)
    assert (scores["x"]["wins"], scores["x"]["no_winner"], scores["x"]["losses"]) == (1, 1, 1)
    assert scores["x"]["low"] <= scores["x"]["score"] <= scores["x"]["high"]


def test_the_command_line_takes_the_optimal_bot(capsys):
    from janus_widgets.__main__ import main
    assert main(["simulate", "jactus", "--bots", "optimal,greedy", "--games", "4",
                 "--rotate", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {tuple(g["bots"]) for g in data["games"]} == {("optimal", "greedy"),
                                                        ("greedy", "optimal")}
    assert main(["simulate", "jinns", "--bots", "optimal", "--games", "1"]) == 2
    assert "does not play" in capsys.readouterr().err


# --- the widget: seat menus and the best-move hint -------------------------------------
def test_the_widget_offers_the_optimal_bot_and_a_hint(solution):
    from janus_widgets.widgets.extras import jactus_widget, show_hint
    w = jactus_widget(seed=4, bot_delay=0)
    assert ("optimal bot", "optimal") in w.seat_boxes[1].options
    shown = show_hint(w, True)
    assert "Best for A" in shown and "r*" in shown
    w.play("r*")
    shown = show_hint(w)
    assert "Best for B" in shown and "★" in shown
    best = solution.best_moves(w.state)
    assert all(str(m) in shown for m in best)
    for move, value in solution.move_values(w.state):      # every pick-up with its value
        assert f"<td>{move}</td>" in shown and f"{1 - value:.6f}" in shown, move
    assert "<details class='jactus-hint-more'>" in shown
    w.seat_boxes[1].value = "optimal"                 # B's menu: the bot plays at once
    assert w.state.current_player in (0, CHANCE, TERMINAL)
    assert str(w.replay.moves[2]) == str(solution.move(w.replay.states[2]))
    show_hint(w, False)
    assert show_hint(w) == ""
    jinns = games.get("jinns")
    from janus_widgets.widgets.shell import GameWidget
    assert "optimal" not in [v for _, v in GameWidget(jinns, seed=1).seat_boxes[0].options]


def test_the_hint_explains_variants_it_cannot_solve():
    from janus_widgets.widgets.extras import jactus_widget, show_hint
    w = jactus_widget(players=3, seed=4, bot_delay=0)
    assert "2-player" in show_hint(w, True)


def test_the_hint_toggle_is_off_and_says_why_where_the_solver_cannot_play():
    """3 players: the toggle was active and, pressed, only explained; now it is disabled
    and its tooltip says why. 2 players: active, its usual tooltip."""
    from janus_widgets.widgets.extras import HINT_TOOLTIP, _hint_parts, jactus_widget
    three = jactus_widget(players=3, seed=4, bot_delay=0)
    toggle, _ = _hint_parts(three)
    assert toggle.disabled and "2-player games only" in toggle.tooltip
    two = jactus_widget(players=2, seed=4, bot_delay=0)
    toggle, _ = _hint_parts(two)
    assert not toggle.disabled and toggle.tooltip == HINT_TOOLTIP


def test_chance_points_are_exact_averages_of_fractions(solution):
    state = jactus.new(seed=0).play("r*")
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == Fraction(1)
    assert solution.value(state) == pytest.approx(
        sum(float(p) * solution.value(state.play(m)) for m, p in outcomes), abs=1e-12)

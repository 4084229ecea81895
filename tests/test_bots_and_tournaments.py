"""Bots (random, greedy, MCTS), tournaments, design metrics and the command line."""

from __future__ import annotations

import json

import pytest

from janus_widgets import games
from janus_widgets.__main__ import main as cli
from janus_widgets.analysis.metrics import wilson
from janus_widgets.analysis.tournament import compare_variants, game_seeds, run_tournament
from janus_widgets.core import RandomStream
from janus_widgets.core.bots import GreedyBot, MCTSBot, RandomBot, bot_names, make_bot
from janus_widgets.core.simulate import play_game
from janus_widgets.games.jactus.rules import JactusVariant, position


# --- the bots ---------------------------------------------------------------------
@pytest.mark.parametrize("name", games.names())
@pytest.mark.parametrize("bot", ["random", "greedy", "mcts:20"])
def test_bots_are_seeded_and_reproducible(name, bot):
    game = games.get(name)

    def line(seed):
        state = game.new(seed=4)
        policy = make_bot(bot, game, 0, seed)
        for _ in range(40):
            if state.is_over:
                break
            if state.is_chance:
                state = state.play_chance()
            else:
                move = policy(state.view(state.current_player))
                assert state.is_legal(move)
                state = state.play(move)
        return [m.notation for m in state.history]
    assert line(1) == line(1)


def test_greedy_jactus_keeps_the_largest_group():
    state = games.get("jactus").new(seed=0).play("r*").play("=33346")
    assert str(GreedyBot(seed=2)(state.view(1))) == "r46"


def test_greedy_jactus_closed_form_agrees_with_averaging():
    game = games.get("jactus")
    engine = game.engine()
    bot = GreedyBot(0)
    stream = RandomStream(4)
    state = game.new(seed=3)
    checked = 0
    for _ in range(200):
        if state.is_over:
            break
        if state.is_chance:
            state = state.play_chance()
            continue
        for action in engine.actions(state.raw):
            closed = engine.greedy_value(state.raw, action, state.current_player)
            if closed is not None:
                generic = bot.expected_value(engine, state.raw, action, state.current_player)
                assert closed == pytest.approx(generic, abs=1e-12)
                checked += 1
        state = state.play(stream.choice(state.legal_moves()))
    assert checked > 500


def test_greedy_jactus_claims_what_it_needs_and_takes_from_the_leader():
    v = JactusVariant(players=3)                      # 2 Venus, 4 dogs, 2 coins
    # A holds a Venus, a dog and a coin: a second dog wins at once.
    state = position(v, dice=(1,) * 5, phase="claim", to_move=0,
                     holdings=((1, 1, 1), (0, 0, 0), (1, 2, 0)))
    assert str(GreedyBot(1)(state)) == "dog"
    # B threw five 6s; the Venus cards are gone; C leads (a Venus and two dogs):
    # taking C's Venus is worth more than a dog from the supply or A's Venus.
    state = position(v, dice=(6,) * 5, phase="claim", to_move=1,
                     holdings=((1, 0, 0), (0, 0, 0), (1, 2, 0)))
    assert [str(m) for m in state.legal_moves()] == ["venus@C", "venus@A", "dog", "pass"]
    assert str(GreedyBot(1)(state)) == "venus@C"


def test_mcts_beats_random_at_jinns():
    wins = mcts_vs_random("jinns", iterations=40, count=8)
    assert wins >= 7, f"MCTS won only {wins} of 8 Jinns games against random play"


def test_mcts_beats_random_at_janus():
    wins = mcts_vs_random("janus", iterations=30, count=8)
    assert wins >= 7, f"MCTS won only {wins} of 8 Janus games against random play"


def mcts_vs_random(name: str, iterations: int, count: int) -> int:
    """Games MCTS wins outright against random play, playing each seat in turn."""
    game = games.get(name)
    wins = 0
    for seed in range(count):
        seat = seed % 2                                 # MCTS plays both seats in turn
        bots = [RandomBot(seed + 100), RandomBot(seed + 200)]
        bots[seat] = MCTSBot(iterations, seed=seed)
        result = play_game(game.new(seed=seed), bots, max_plies=5000)
        wins += result.winners == (seat,)
    return wins


def test_mcts_uses_its_time_limit_and_reports_playouts():
    state = games.get("jinns").new(seed=2)
    bot = MCTSBot(10**6, time_limit=0.05, seed=1)
    move = bot(state.view(0))
    assert state.is_legal(move) and 1 <= bot.last_playouts < 10**6


def test_bot_names_and_errors():
    assert {"random", "greedy", "mcts"} <= set(bot_names())
    with pytest.raises(ValueError, match="no bot called 'genius'"):
        make_bot("genius", games.get("jinns"), 0, 0)
    with pytest.raises(ValueError, match="mcts:N"):
        make_bot("mcts:lots", games.get("jinns"), 0, 0)
    assert make_bot("mcts:50", games.get("jinns"), 0, 0).iterations == 50


def test_bots_in_the_widget_seat_menus():
    from janus_widgets.widgets import GameWidget
    w = GameWidget("jactus", seed=1, bot_delay=0)
    labels = [value for _, value in w.seat_boxes[1].options]
    assert {"human", "random", "greedy", "mcts"} <= set(labels)
    w.seat_boxes[0].value = "greedy"
    w.seat_boxes[1].value = "greedy"                     # bots play each other at once
    assert w.state.is_over and w.errors == []


# --- tournaments and metrics ---------------------------------------------------------
def test_tournament_is_reproducible_in_one_or_two_processes():
    a = run_tournament("jinns", bots=["greedy", "random"], games=24, seed=5,
                       progress=False)
    b = run_tournament("jinns", bots=["greedy", "random"], games=24, seed=5,
                       progress=False, processes=2)
    assert a.rows == b.rows
    assert [r["seed"] for r in a.rows] == game_seeds(5, 24)
    c = run_tournament("jinns", bots=["greedy", "random"], games=24, seed=6, progress=False)
    assert c.rows != a.rows


def test_metrics_are_consistent():
    result = run_tournament("jinns", bots=["greedy", "random"], games=40, seed=1,
                            rotate_seats=True, progress=False)
    m = result.metrics()
    assert m["games"] == 40
    total = sum(r["wins"] for r in m["win_rate"].values())
    assert total + m["draws"] + m["capped"] == 40
    for rate in m["win_rate"].values():
        assert rate["low"] <= rate["rate"] <= rate["high"]
    assert m["by_bot"]["greedy"]["rate"] > m["by_bot"]["random"]["rate"]
    assert m["length"]["min"] <= m["length"]["mean"] <= m["length"]["max"]
    assert sum(m["length"]["histogram"]["counts"]) == 40
    assert 0 <= m["decisiveness"]["value"] <= 1 and m["branching"] > 1
    assert "first-player advantage" in str(result)
    json.loads(result.to_json())


def test_capped_games_are_counted():
    result = run_tournament("jactus", games=5, max_plies=50, progress=False)
    assert result.metrics()["capped"] == 5


def test_wilson_interval():
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    low, high = wilson(50, 100)
    assert low < 0.5 < high and high - low == pytest.approx(0.192, abs=0.002)


def test_compare_variants_table_and_plot():
    import matplotlib
    matplotlib.use("Agg")
    comparison = compare_variants("jinns", {"strength": {}, "height": {"distance": "height"}},
                                  bots=["greedy"], n=20, progress=False)
    rows = comparison.table()
    assert [r["variant"] for r in rows] == ["strength", "height"]
    assert rows[0]["length_mean"] != rows[1]["length_mean"]
    fig = comparison.plot()
    assert len(fig.axes) == 2
    assert str(comparison).startswith("metric") and "strength" in str(comparison)


def test_bad_tournament_arguments():
    with pytest.raises(ValueError, match="games=0"):
        run_tournament("jinns", games=0, progress=False)
    with pytest.raises(ValueError, match="no bot called"):
        run_tournament("jinns", bots=["clever"], games=2, progress=False)
    with pytest.raises(ValueError, match="players=9"):
        run_tournament("jinns", games=2, players=9, progress=False)
    with pytest.raises(ValueError, match="max_plies=0 is not allowed"):
        run_tournament("jinns", games=2, max_plies=0, progress=False)
    with pytest.raises(ValueError, match="processes=0 is not allowed"):
        run_tournament("jinns", games=2, processes=0, progress=False)


def first_legal(view):
    """A policy: always the first legal move."""
    return view.legal_moves()[0]


def test_tournaments_take_policies_factories_and_names():
    def factory(seat, seed):
        return GreedyBot(seed)

    kwargs = dict(games=4, seed=5, progress=False)
    by_policy = run_tournament("jinns", bots=[first_legal, first_legal], **kwargs)
    assert by_policy.rows == run_tournament("jinns", bots=[first_legal, first_legal],
                                            **kwargs).rows
    # The moves really came from the policy: the same game played by hand agrees.
    for row in by_policy.rows:
        alone = play_game(games.get("jinns").new(seed=row["seed"]), [first_legal] * 2)
        assert (alone.plies, list(alone.scores)) == (row["plies"], row["scores"])
    assert by_policy.rows != run_tournament("jinns", bots=["random", "random"], **kwargs).rows
    by_factory = run_tournament("jinns", bots=[factory, "greedy"], **kwargs)
    by_name = run_tournament("jinns", bots=["greedy", "greedy"], **kwargs)
    # A factory gets the same (seat, seed) a named bot gets: the same games.
    def games_of(result):
        return [{k: v for k, v in row.items() if k != "bots"} for row in result.rows]

    assert games_of(by_factory) == games_of(by_name)


def test_play_game_takes_bot_names():
    state = games.get("jinns").new(seed=3)
    named = play_game(state, ["greedy", "random"])
    assert named == play_game(state, ["greedy", "random"])        # seeded from the game
    assert named.winners and named.plies > 0
    with pytest.raises(ValueError, match="no bot called 'clever'"):
        play_game(state, ["clever", None])
    with pytest.raises(ValueError, match="one policy per seat: 2 seats, 1 policies"):
        play_game(state, ["greedy"])


def test_command_line(capsys):
    assert cli(["simulate", "jinns", "--games", "6", "--bots", "greedy,random"]) == 0
    out = capsys.readouterr().out
    assert "seat" in out and "first-player advantage" in out
    assert cli(["simulate", "jactus", "--games", "2", "--players", "3", "--bots", "greedy",
                "--set", "dog_throws='other'", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["variant"]["players"] == 3 and data["variant"]["dog_throws"] == "other"
    assert len(data["games"]) == 2
    assert cli(["simulate", "jinns", "--games", "2", "--players", "7"]) == 2
    assert "players=7" in capsys.readouterr().err
    assert cli(["games"]) == 0 and "jinns" in capsys.readouterr().out
    # Bad input: a clear error on stderr and exit code 2, every time.
    for bad, says in ((["--set", "dog_throws"], "write NAME=VALUE"),
                      (["--max-plies", "0"], "max_plies=0 is not allowed"),
                      (["--processes", "0"], "processes=0 is not allowed")):
        assert cli(["simulate", "jactus", "--games", "2", *bad]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and says in err

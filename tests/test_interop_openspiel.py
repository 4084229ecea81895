"""The games as OpenSpiel games: OpenSpiel's own checks, the action and chance
numbering, the length cap, hidden information, and OpenSpiel's MCTS playing them.
"""

from __future__ import annotations

import pickle
from fractions import Fraction

import numpy as np
import pytest

try:
    import pyspiel
except ImportError:  # pragma: no cover - the test extra installs it
    pytest.fail("OpenSpiel is needed: pip install -e '.[test]'", pytrace=False)

from janus_widgets import games  # noqa: E402
from janus_widgets.core.protocol import CHANCE, TERMINAL  # noqa: E402
from janus_widgets.interop import openspiel as jos  # noqa: E402
from janus_widgets.interop import zero_sum_returns  # noqa: E402

CASES = [(name, i) for name in games.names()
         for i in range(len(games.get(name).sample_variants()))]
#: Random Jactus play almost never wins: OpenSpiel's length cap ends those games.
TEST_CAPS = {"jactus": 150}


def os_game(name: str, variant=None, **params):
    return pyspiel.load_game(jos.openspiel_name(name),
                             {**jos.params_of(games.get(name).variant(variant)), **params})


def random_os_game(game, seed: int, *, stop=lambda s: False):
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal() and not stop(state):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


# --- OpenSpiel's own test -----------------------------------------------------------------
@pytest.mark.parametrize("name,index", CASES, ids=[f"{n}-{i}" for n, i in CASES])
def test_openspiel_random_sim_test_passes(name, index):
    variant = games.get(name).sample_variants()[index]
    params = jos.params_of(variant, max_game_length=TEST_CAPS.get(name))
    game = pyspiel.load_game(jos.openspiel_name(name), params)
    # Legal-action masks, sorted unique actions, clones, returns within the bounds and
    # summing to 0, observations of every seat at every decision, and a serialization
    # round trip through OpenSpiel's game string.
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


# --- registration and parameters ----------------------------------------------------------
def test_every_game_is_registered_under_its_short_name():
    names = set(pyspiel.registered_names())
    for name in games.names():
        assert jos.openspiel_name(name) in names
        assert jos.GAME_NAMES[jos.openspiel_name(name)] == name
    assert jos.register() == list(jos.GAME_NAMES)      # registering again is harmless


@pytest.mark.parametrize("name", games.names())
def test_game_info_follows_the_engine(name):
    game = games.get(name)
    for variant in game.sample_variants():
        g = os_game(name, variant, max_game_length=50)
        engine = game.engine(variant)
        assert g.num_players() == variant.players
        assert g.num_distinct_actions() == engine.num_actions
        assert g.max_game_length() == 50
        assert g.min_utility() == -1.0 / (variant.players - 1) and g.max_utility() == 1.0
        params = g.get_parameters()
        for opt in game.Variant.options():
            assert opt.name in params
        t = g.get_type()
        assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
        assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert (t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION) == (
            name == "janus-cards")


def test_variant_options_are_game_parameters_in_strings_and_dicts():
    g = pyspiel.load_game("janus_widgets_jactus(players=4,scoring=points,points_target=20)")
    assert g._ctx.variant == games.get("jactus").variant(players=4, scoring="points",
                                                         points_target=20)
    g = pyspiel.load_game("janus_widgets_janus", {"distances": "2to4", "players": 3})
    assert g._ctx.variant.distances == "2-4"
    g = pyspiel.load_game("janus_widgets_janus", {"distances": "1-3"})
    assert g._ctx.variant.distances == "1-3"
    assert pyspiel.load_game(str(g))._ctx.variant == g._ctx.variant


def test_janus_tables_as_json_or_compact_text_survive_serialization():
    janus = games.get("janus")
    squares = ((5, 1, 4, 2, 3), (1, 4, 3, 5, 2), (2, 5, 1, 3, 4), (3, 2, 5, 4, 1),
               (4, 3, 2, 1, 5))
    tiles = tuple(reversed(janus.variant().tile_table()))
    variant = janus.variant(squares=squares, tiles=tiles)
    compact = jos.params_of(variant)
    assert compact["squares"] == "51423 14352 25134 32541 43215"
    as_json = {"squares": "[[5,1,4,2,3],[1,4,3,5,2],[2,5,1,3,4],[3,2,5,4,1],[4,3,2,1,5]]",
               "tiles": '["' + '","'.join(t.code for t in tiles).replace("\\", "\\\\")
                        + '"]'}
    for params in (compact, as_json):
        g = pyspiel.load_game("janus_widgets_janus", params)
        assert g._ctx.variant == variant
    g = pyspiel.load_game("janus_widgets_janus", compact)
    state = random_os_game(g, 1, stop=lambda s: s.move_number() > 130)
    text = pyspiel.serialize_game_and_state(g, state)
    g2, s2 = pyspiel.deserialize_game_and_state(text)
    assert g2._ctx.variant == variant
    assert str(s2) == str(state) and s2.history() == state.history()


def test_bad_parameters_are_refused_with_the_reason():
    with pytest.raises(Exception, match="Unknown parameter 'speed'"):
        pyspiel.load_game("janus_widgets_jinns", {"speed": 3})
    with pytest.raises(Exception, match="players=7 is not allowed"):
        pyspiel.load_game("janus_widgets_jinns", {"players": 7})
    with pytest.raises(Exception, match="no longest game"):
        pyspiel.load_game("janus_widgets_jactus", {"max_game_length": 0})
    with pytest.raises(Exception, match="five rows of five digits"):
        pyspiel.load_game("janus_widgets_janus", {"squares": "12345 abcde"})


# --- actions and chance -------------------------------------------------------------------
def test_decisions_are_the_engine_action_numbers():
    state = games.get("jinns").new(seed=4)
    g = jos.load("jinns")
    os_state = jos.openspiel_state(state, g)
    for _ in range(60):
        assert os_state.current_player() == state.current_player
        assert os_state.legal_actions() == sorted(state.engine.actions(state.raw))
        move = state.legal_moves()[-1]
        assert os_state.action_to_string(os_state.current_player(), move.action) == str(move)
        state = state.play(move)
        os_state.apply_action(move.action)
    assert jos.to_state(os_state).raw == state.raw


@pytest.mark.parametrize("name,variant", [("jactus", {}), ("jinns", {"placement": "random"}),
                                          ("janus-cards", {"players": 3})])
def test_chance_outcomes_are_small_numbers_with_the_engine_odds(name, variant):
    game = games.get(name)
    g = jos.load(name, **variant)
    base = g._ctx.base
    state = game.new(seed=2, **variant)
    os_state = jos.openspiel_state(state, g)
    seen = 0
    for _ in range(40):
        if state.is_over:
            break
        if state.is_chance:
            exact = {m.action - base: p for m, p in state.chance_outcomes()}
            outcomes = os_state.chance_outcomes()
            assert [a for a, _ in outcomes] == sorted(exact)
            assert all(0 <= a < g.max_chance_outcomes() for a, _ in outcomes)
            assert all(p == pytest.approx(float(exact[a]), abs=1e-15) for a, p in outcomes)
            assert sum(exact.values()) == Fraction(1)
            seen += 1
            move = state.sample_chance()
            state = state.play(move)
            os_state.apply_action(move.action - base)
        else:
            move = state.legal_moves()[0]
            state = state.play(move)
            os_state.apply_action(move.action)
        assert jos.to_state(os_state).raw == state.raw
    assert seen


def test_the_janus_shuffle_is_laid_field_by_field_for_openspiel():
    from janus_widgets.games.janus.rules import shuffle_action, shuffle_order
    janus = games.get("janus")
    state = janus.new(seed=9).play_chance()             # the engine's one shuffle outcome
    order = shuffle_order(state.history[0].action)
    g = jos.load("janus")
    os_state = g.new_initial_state()
    for field, tile in enumerate(order):
        assert os_state.current_player() == pyspiel.PlayerId.CHANCE
        outcomes = os_state.chance_outcomes()
        assert [a for a, _ in outcomes] == sorted(set(range(100)) - set(order[:field]))
        assert all(p == pytest.approx(1 / (100 - field)) for _, p in outcomes)
        os_state.apply_action(tile)
    assert os_state.current_player() == 0
    assert os_state.raw == state.raw
    assert shuffle_action(order) == state.history[0].action
    # ...and back: the same game, move for move.
    assert jos.to_state(os_state).history == state.history
    replay = jos.openspiel_state(state.play(state.legal_moves()[0]), g)
    assert replay.history() == os_state.history() + [state.legal_moves()[0].action]


def test_states_clone_and_pickle_without_copying_the_engine():
    g = jos.load("jinns")
    state = random_os_game(g, 5, stop=lambda s: s.move_number() > 40)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert state.move_number() == clone.move_number() - 1
    assert clone._node.ctx is state._node.ctx
    node = pickle.loads(pickle.dumps(state._node))
    assert node.raw == state.raw and node.actions() == tuple(state.history())


# --- the length cap -----------------------------------------------------------------------
def test_max_game_length_ends_the_openspiel_game_as_a_draw_only():
    g = jos.load("jactus", max_game_length=12)
    state = random_os_game(g, 3)
    assert state.is_terminal() and state.cut_off
    assert state.returns() == [0.0, 0.0]
    decisions = sum(1 for step in state.full_history() if step.player >= 0)
    assert decisions == 12 == g.max_game_length()
    engine_state = jos.to_state(state)
    assert not engine_state.is_over                     # the engine's game goes on
    assert engine_state.current_player in (0, 1, CHANCE)
    assert "max_game_length" in state.observation_string(0)


def test_janus_and_the_card_game_default_to_their_rules_bound():
    janus = games.get("janus").engine()
    assert jos.load("janus").max_game_length() == (100 + 2 * 15 + 1) * 10 * 2
    cards = games.get("janus-cards").engine()
    assert jos.load("janus-cards").max_game_length() == 22 + 23 * 40 + 4
    assert janus.idle_limit == 20 and cards.stall_limit == 40
    # A cap below the bound wins; a cap above it changes nothing.
    assert jos.load("janus", max_game_length=100).max_game_length() == 100
    assert jos.load("janus", max_game_length=10**6).max_game_length() == 2620


def test_the_rules_bound_follows_the_issue_15_options():
    # agreement='joint': a proposal can lapse and be made again, an agree in every turn.
    joint = jos.load("janus-cards", ruleset="joint agreement")
    assert joint.max_game_length() == 2 * (22 + 23 * 40)
    g = random_os_game(joint, 4)
    assert jos.to_state(g).is_over and not g.cut_off
    # idle_rounds=0: no longest game by the rules, so a cap must be given.
    with pytest.raises(ValueError, match="has no longest game by its rules"):
        jos.load("janus", idle_rounds=0)
    assert jos.load("janus", idle_rounds=0, max_game_length=500).max_game_length() == 500


@pytest.mark.parametrize("name", ["janus", "janus-cards", "jinns"])
def test_finished_games_return_zero_sum_results_of_the_engine(name):
    g = jos.load(name, max_game_length=0 if name != "jinns" else 1000)
    for seed in range(3):
        state = random_os_game(g, seed)
        assert not state.cut_off
        final = jos.to_state(state)
        assert final.is_over
        assert state.returns() == zero_sum_returns(final.winners(), final.num_players)
        assert sum(state.returns()) == pytest.approx(0.0)


# --- observations -------------------------------------------------------------------------
def test_perfect_information_observations_are_the_state_itself():
    g = jos.load("jinns", players=3)
    state = random_os_game(g, 8, stop=lambda s: s.move_number() > 50)
    jw = jos.to_state(state)
    from janus_widgets.interop.encoding import encoder
    enc = encoder("jinns", jw.variant)
    for seat in range(3):
        assert state.observation_string(seat) == str(jw.view(seat)) == str(jw)
        np.testing.assert_array_equal(np.asarray(state.observation_tensor(seat), np.float32),
                                      enc.encode(jw.view(seat), seat))
        info = state.information_state_string(seat)
        assert info.startswith(str(jw))
        assert info.endswith("\n".join(f"{k}. {m}" for k, m in
                                       enumerate(jw.history_for(seat), 1)))


def _cards_deal(g, b_first_card: int):
    # 2 players, 3 symbols: A gets sun/sun, B gets ``b_first_card`` (a side facing B), A
    # gets moon/moon, B gets heart/heart; sun/heart turns up on the pile.
    state = g.new_initial_state()
    for side in (0, b_first_card, 4, 10, 6):
        state.apply_action(side)
    return state


def test_equal_views_give_equal_observations_in_the_card_game():
    g = jos.load("janus-cards", players=2, symbols=3)
    # B's first card is sun/moon held sun towards B, or moon/heart held heart towards B:
    # A sees moon on its back either way, B sees a different card.
    one, two = _cards_deal(g, 2), _cards_deal(g, 9)
    a_one, a_two = jos.to_state(one).view(0), jos.to_state(two).view(0)
    assert a_one == a_two
    assert jos.to_state(one).view(1) != jos.to_state(two).view(1)
    assert one.observation_string(0) == two.observation_string(0) == str(a_one)
    assert one.observation_tensor(0) == two.observation_tensor(0)
    assert one.information_state_string(0) == two.information_state_string(0)
    assert one.observation_string(1) != two.observation_string(1)
    assert one.information_state_string(1) != two.information_state_string(1)
    assert one.observation_tensor(1) != two.observation_tensor(1)
    # What A's strings hold of B's card is what A may know: its back only.
    assert "1:?|moon" in one.observation_string(0)
    assert "=?/m" in one.information_state_string(0)
    assert str(one) != str(two)                          # the full states differ


def test_card_game_observations_are_built_from_the_seat_view_all_game_long():
    from janus_widgets.interop.encoding import encoder
    g = jos.load("janus-cards", players=3, symbols=5)
    enc = encoder("janus-cards", g._ctx.variant)
    rng = np.random.default_rng(1)
    state = g.new_initial_state()
    while not state.is_terminal():
        jw = jos.to_state(state)
        for seat in range(3):
            view = jw.view(seat)
            assert state.observation_string(seat) == str(view)
            np.testing.assert_array_equal(
                np.asarray(state.observation_tensor(seat), np.float32),
                enc.encode(view, seat))
            assert state.information_state_string(seat).endswith(
                "\n".join(f"{k}. {m}" for k, m in enumerate(jw.history_for(seat), 1)))
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))


def test_the_card_game_offers_no_observation_of_other_seats_secrets():
    g = jos.load("janus-cards")
    kind = pyspiel.IIGObservationType
    everything = kind(public_info=True, perfect_recall=False,
                      private_info=pyspiel.PrivateInfoType.ALL_PLAYERS)
    with pytest.raises(Exception, match="would show their secrets"):
        g.make_py_observer(everything)
    state = random_os_game(g, 2, stop=lambda s: s.move_number() > 20)
    public_only = g.make_py_observer(kind(public_info=True, perfect_recall=False,
                                          private_info=pyspiel.PrivateInfoType.NONE))
    private_only = g.make_py_observer(kind(public_info=False, perfect_recall=False))
    for observer in (public_only, private_only):
        assert observer.string_from(state, 0) is None and observer.tensor is None
    # In a game without secrets the public observation is everything, the private nothing.
    jinns = jos.load("jinns")
    state = random_os_game(jinns, 2, stop=lambda s: s.move_number() > 20)
    public = jinns.make_py_observer(kind(public_info=True, perfect_recall=False,
                                         private_info=pyspiel.PrivateInfoType.NONE))
    assert public.string_from(state, 1) == state.observation_string(1)
    assert jinns.make_py_observer(kind(public_info=False,
                                       perfect_recall=False)).string_from(state, 1) == ""


@pytest.mark.parametrize("game_string", [
    "janus_widgets_jinns(players=3)", "janus_widgets_janus(idle_rounds=1,coins=3)",
    "janus_widgets_janus_cards(players=3,symbols=5)", "janus_widgets_jactus(max_game_length=40)"])
def test_openspiel_playthrough_generator_runs(game_string):
    # OpenSpiel's golden-file tool: every observation, information state, tensor, chance
    # outcome, legal action and return of one random game, for every seat.
    from open_spiel.python.algorithms import generate_playthrough
    text = generate_playthrough.playthrough(game_string, action_sequence=None, seed=3)
    assert f'game: {game_string}' in text
    assert "ObservationTensor(0).observer" in text and "InformationStateString(1)" in text
    final = [line for line in text.splitlines() if line.startswith("Returns() = ")][-1]
    returns = [float(v) for v in final.split("= ")[1].strip("[]").split(",")]
    assert len(returns) == pyspiel.load_game(game_string).num_players()
    assert sum(returns) == pytest.approx(0.0)


# --- OpenSpiel's MCTS plays our games -----------------------------------------------------
@pytest.mark.parametrize("name", ["jinns", "janus"])
def test_openspiel_mcts_plays_our_game_to_the_end(name):
    from open_spiel.python.algorithms import mcts
    g = jos.load(name)
    rng = np.random.RandomState(4)
    bots = [mcts.MCTSBot(g, uct_c=2.8, max_simulations=15,
                         evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
            for _ in range(g.num_players())]
    state = g.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
    final = jos.to_state(state)
    assert final.is_over and not state.cut_off
    assert final.current_player == TERMINAL
    assert state.returns() == zero_sum_returns(final.winners(), 2)
    assert decisions == len([m for m in final.history if not m.chance])
    # The whole game is a janus_widgets record that replays to the same end.
    from janus_widgets.core.record import Record
    assert Record.from_json(final.record().to_json()).final_state() == final


def test_a_jactus_game_won_in_openspiel_returns_the_win():
    # Chance steered to four scoring throws: A collects a Venus, two dogs and a coin.
    g = jos.load("jactus")
    state = games.get("jactus").new(seed=0)
    os_state = jos.openspiel_state(state, g)
    line = ["r*", "=66666", "venus", "r*", "=22222", "dog", "r*", "=33333", "dog", "r*",
            "=11111", "coin"]
    for text in line:
        move = state.parse(text)
        os_state.apply_action(move.action - g._ctx.base if move.chance else move.action)
        state = state.play(move)
    assert state.is_over and state.winners() == (0,)
    assert os_state.is_terminal() and not os_state.cut_off
    assert os_state.returns() == [1.0, -1.0]
    assert [os_state.action_to_string(-1, a) for a in (0, 460)] == ["=1", "=66666"]


def test_legality_checked_application_refuses_illegal_actions():
    g = jos.load("jinns")
    state = g.new_initial_state()
    illegal = next(a for a in range(g.num_distinct_actions())
                   if a not in state.legal_actions())
    with pytest.raises(pyspiel.SpielError):
        state.apply_action_with_legality_check(illegal)
    state.apply_action_with_legality_check(state.legal_actions()[0])
    assert state.move_number() == 1


def test_resampled_card_positions_look_the_same_to_the_seat_and_differ_elsewhere():
    g = jos.load("janus-cards", players=3, symbols=5)
    state = random_os_game(g, 6, stop=lambda s: not s.is_chance_node()
                           and s.move_number() > 14)
    seat = state.current_player()
    resample = jos.resampler(seed=3)
    worlds = [resample(state, seat) for _ in range(8)]
    assert all(w.observation_string(seat) == state.observation_string(seat) for w in worlds)
    assert all(w.legal_actions() == state.legal_actions() for w in worlds)
    assert len({str(w) for w in worlds}) > 1                # the unseen sides are redrawn
    grown = worlds[0].clone()
    grown.apply_action(grown.legal_actions()[0])
    assert pickle.loads(pickle.dumps(grown._node)).raw == grown.raw


def test_openspiel_ismcts_plays_the_card_game_from_the_seats_views():
    from open_spiel.python.algorithms import ismcts, mcts
    g = jos.load("janus-cards", players=3, symbols=5)
    rng = np.random.RandomState(1)
    bots = []
    for _ in range(3):
        bot = ismcts.ISMCTSBot(g, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0,
                               max_simulations=10, use_observation_string=True,
                               random_state=rng)
        bot.set_resampler(jos.resampler(seed=2))
        bots.append(bot)
    state = g.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    final = jos.to_state(state)
    assert final.is_over and state.returns() == zero_sum_returns(final.winners(), 3)

"""The games as PettingZoo AEC environments: PettingZoo's own API and seed tests,
chance drawn from the seed, observations from views, truncation, rewards, pictures.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

try:
    import pettingzoo  # noqa: F401
except ImportError:  # pragma: no cover - the test extra installs it
    pytest.fail("PettingZoo is needed: pip install -e '.[test]'", pytrace=False)

from pettingzoo.test import api_test, seed_test  # noqa: E402

from janus_widgets import games  # noqa: E402
from janus_widgets.core.errors import IllegalMoveError  # noqa: E402
from janus_widgets.interop import zero_sum_returns  # noqa: E402
from janus_widgets.interop.encoding import encoder  # noqa: E402
from janus_widgets.interop.pettingzoo import DEFAULT_MAX_CYCLES, env, raw_env  # noqa: E402

CASES = [(name, i) for name in games.names()
         for i in range(len(games.get(name).sample_variants()))]
#: PettingZoo names its own board games in these two warnings too: our observations
#: are dicts with an action mask, as in its classic environments.
EXPECTED_WARNINGS = ("Observation is not a NumPy array",
                     "Observation space for each agent probably should be")


def play(e, seed: int) -> list[int]:
    """Play ``e`` to the end with seeded random legal actions; the actions taken."""
    rng = np.random.default_rng(seed)
    taken = []
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = int(rng.choice(legal))
        taken.append(action)
        e.step(action)
    return taken


@pytest.mark.parametrize("name,index", CASES, ids=[f"{n}-{i}" for n, i in CASES])
def test_pettingzoo_api_and_seed_tests_pass(name, index):
    variant = games.get(name).sample_variants()[index]
    # Jactus: random play almost never wins, so its games end by truncation here.
    cycles = 100 if name == "jactus" else None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(name, variant=variant, max_cycles=cycles), num_cycles=1000)
        seed_test(lambda: env(name, variant=variant, max_cycles=cycles), num_cycles=200)
    unexpected = {str(w.message) for w in caught
                  if not str(w.message).startswith(EXPECTED_WARNINGS)}
    assert not unexpected


@pytest.mark.parametrize("name", games.names())
def test_chance_is_drawn_from_the_seed_as_the_game_itself_draws_it(name):
    e = raw_env(name)
    e.reset(seed=31)
    if name == "jactus":                  # random Jactus never ends: thirty turns will do
        rng = np.random.default_rng(5)
        for _ in range(30):
            obs = e.observe(e.agent_selection)
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    else:
        play(e, 5)
    final = e.game_state()
    # The environment's game is the janus_widgets game of its seed: every chance
    # outcome is the one State.play_chance draws at that point.
    state = final.start
    chance_points = 0
    for move in final.history:
        if move.chance:
            assert state.sample_chance() == move
            chance_points += 1
        state = state.play(move)
    assert state == final
    assert chance_points or name == "jinns"               # Jinns placement has no chance
    e2 = raw_env(name)
    e2.reset(seed=31)
    assert e2.game_state().start.seed == final.seed


def test_seeded_resets_repeat_and_differ():
    first, second, other = raw_env("janus"), raw_env("janus"), raw_env("janus")
    first.reset(seed=3)
    second.reset(seed=3)
    other.reset(seed=4)
    assert first.game_state() == second.game_state()
    assert first.game_state() != other.game_state()       # another shuffle
    assert play(first, 1) == play(second, 1)
    assert first.game_state().history == second.game_state().history
    # reset() without a seed goes on with the generator: a new game, still repeatable.
    first.reset()
    second.reset()
    assert first.game_state() == second.game_state() != other.game_state()


@pytest.mark.parametrize("name", games.names())
def test_observations_are_the_view_encoding_and_masks_the_legal_moves(name):
    e = raw_env(name, players=3)
    e.reset(seed=2)
    enc = encoder(name, e.variant)
    rng = np.random.default_rng(0)
    for _ in range(25):
        state = e.game_state()
        mover = state.current_player
        for p, agent in enumerate(e.possible_agents):
            obs = e.observe(agent)
            np.testing.assert_array_equal(obs["observation"], enc.encode(state.view(p), p))
            assert obs["observation"].dtype == np.float32
            mask = obs["action_mask"]
            assert mask.dtype == np.int8 and mask.shape == (state.engine.num_actions,)
            if p == mover:
                assert set(np.flatnonzero(mask)) == {m.action for m in state.legal_moves()}
            else:
                assert not mask.any()
        assert e.agent_selection == e.possible_agents[mover]
        np.testing.assert_array_equal(e.state(), enc.encode(state.view(None), None))
        assert e.state_space.contains(e.state())
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
        if e.terminations[e.agent_selection]:
            break


@pytest.mark.parametrize("name", ["janus", "janus-cards", "jinns"])
def test_finished_games_give_zero_sum_rewards_and_remove_every_agent(name):
    e = raw_env(name)
    e.reset(seed=8)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    rng = np.random.default_rng(2)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        assert not truncated
        e.step(None if terminated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    final = e.game_state()
    assert final.is_over and e.agents == []
    expected = zero_sum_returns(final.winners(), final.num_players)
    assert [totals[a] for a in e.possible_agents] == expected
    assert sum(expected) == pytest.approx(0.0)


def test_max_cycles_truncates_with_no_reward():
    assert DEFAULT_MAX_CYCLES == {"janus": 0, "janus-cards": 0, "jactus": 2000,
                                  "jinns": 1000}
    e = raw_env("jactus", players=3, max_cycles=25)
    e.reset(seed=1)
    steps = 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        assert reward == 0.0 and not terminated
        if truncated:
            assert not obs["action_mask"].any()
            e.step(None)
            continue
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 25 and e.agents == []
    assert not e.game_state().is_over                     # cut off, not finished
    with pytest.raises(ValueError, match="max_cycles"):
        raw_env("jactus", max_cycles=-1)


def test_illegal_actions_are_refused_with_the_rule():
    e = env("jactus")
    e.reset(seed=0)
    with pytest.raises(IllegalMoveError, match="JA-"):
        e.step(0)                                         # pick up dice before r*
    e.step(461)                                           # r*: legal
    with pytest.raises(ValueError, match="whole action number"):
        e.step("r*")


def test_stepping_before_reset_is_an_error():
    with pytest.raises(Exception, match="reset"):
        env("jinns").step(0)


# --- pictures ------------------------------------------------------------------------
@pytest.mark.parametrize("name", games.names())
def test_ansi_and_rgb_renders_show_what_the_seat_to_move_may_see(name):
    try:
        games.get(name).board()
    except ModuleNotFoundError:
        pytest.xfail(f"{name}: its canvas (draw.py) is not built yet")
    e = raw_env(name, render_mode="ansi")
    e.reset(seed=6)
    for _ in range(6):
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    state = e.game_state()
    seat = state.current_player
    text = e.render()
    if name == "janus-cards":
        assert text == str(state.view(seat)) != str(state.view(None))
    else:
        assert text == str(state)
    pictures = raw_env(name, render_mode="rgb_array", render_scale=0.5)
    pictures.reset(seed=6)
    for action in [m.action for m in state.history if not m.chance]:
        pictures.step(action)
    image = pictures.render()
    drawing = state.game.draw(state.view(seat if name == "janus-cards" else None))
    assert image.dtype == np.uint8
    assert image.shape == (round(drawing.height / 2), round(drawing.width / 2), 3)
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 20   # a picture, not a blank


def test_render_modes_are_checked():
    with pytest.raises(ValueError, match="render_mode"):
        raw_env("jinns", render_mode="human")
    e = raw_env("jinns")
    e.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert e.render() is None

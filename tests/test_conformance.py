"""One conformance suite for every registered game and its sample variants.

Each game registers simply by existing: this suite runs over
``games.names()`` and each game's ``sample_variants()``. It plays seeded
random games and checks, after every move: the game's invariants, that
``legal_moves()`` and ``play`` agree, that notation round-trips, that chance
outcomes are a probability distribution, that refused moves cite a rule of the
game and leave nothing changed; then the record round trip and replay
determinism.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from janus_widgets import games
from janus_widgets.core import CHANCE, IllegalMoveError, RandomStream, Record
from janus_widgets.core.simulate import play_game, random_playout

CASES = [(name, variant) for name in games.names()
         for variant in games.get(name).sample_variants()]
IDS = [f"{name}-{variant.describe()}" for name, variant in CASES]

SEEDS = (0, 1, 2)
PLIES = 160


def play_random(game, variant, seed: int, plies: int = PLIES, checks: bool = True):
    """Play a seeded random game on the checked path, checking every step."""
    state = game.new(variant, seed=seed)
    stream = RandomStream(seed + 1000)
    engine = state.engine
    for _ in range(plies):
        if checks:
            engine.check_invariants(state.raw)
            check_position(game, state, stream)
        if state.is_over:
            break
        before = state.raw
        if state.is_chance:
            state = state.play_chance()
        else:
            state = state.play(stream.choice(state.legal_moves()))
        if checks:
            engine.check_transition(before, state.raw)
    return state


def check_position(game, state, stream: RandomStream) -> None:
    legal = state.legal_moves()
    prefix = game.rule_prefix + "-"
    if state.is_over:
        assert not legal and state.winners() is not None
        return
    if state.is_chance:
        outcomes = state.chance_outcomes()
        if outcomes is not None:
            assert sum(p for _, p in outcomes) == 1, "chance probabilities must sum to 1"
            assert all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)
            assert [m for m, _ in outcomes] == list(legal)
            assert state.sample_chance() in legal
        else:
            # Not enumerable: a sampled outcome must still be accepted.
            assert state.is_legal(state.sample_chance())
        return
    assert legal, "a player to move must have at least one legal move (a pass counts)"
    # What a seat's view leaves open can be filled in without changing the view
    # (bots search such states; in games without secrets it is the state itself).
    engine = state.engine
    for seat in range(state.num_players):
        view = state.view(seat)
        filled = engine.determinize(view, stream)
        assert game.State(engine, filled, seed=state.seed).view(seat) == view
        assert [m.action for m in view.legal_moves()] == [m.action for m in legal]
    assert len(set(legal)) == len(legal), "legal moves must be distinct"
    assert [m.action for m in legal] == list(state.engine.actions(state.raw))
    for move in legal:
        assert game.parse_move(state, str(move)) == move, f"notation {move} must round-trip"
        if engine.fixed_notation:      # records read each distinct text once (item 9)
            assert engine.notation(engine.initial(), move.action) == move.notation
        assert move.description and move.description[-1] in ".!?"
    sample = [legal[stream.below(len(legal))] for _ in range(3)]
    for move in sample:
        exp = game.explain(state, move)
        assert exp.legal and exp.rule.startswith(prefix), exp
        state.play(move)  # must not raise
    # Some action numbers that are not legal here: refused, explained, nothing changed.
    legal_actions = {m.action for m in legal}
    n = state.engine.num_actions
    tried = 0
    for _ in range(12):
        action = stream.below(n)
        if action in legal_actions:
            continue
        tried += 1
        before = state.raw
        assert not state.is_legal(state._move(action))
        exp = state._explain(action)
        assert not exp.legal, f"explain() says {exp.move} is legal but it is not listed"
        assert exp.rule.startswith(prefix), exp
        with pytest.raises(IllegalMoveError) as err:
            state.play_action(action)
        assert err.value.rule == exp.rule
        assert exp.rule in str(err.value)
        assert state.raw == before


@pytest.mark.parametrize("name,variant", CASES, ids=IDS)
def test_random_games_keep_invariants(name, variant):
    game = games.get(name)
    for seed in SEEDS:
        play_random(game, variant, seed)


def _player_counts(game) -> tuple[int, int]:
    choices = next(s for s in game.Variant.options() if s.name == "players").choices
    return choices[0], choices[-1]


RULESET_CASES = [(name, ruleset.name, players) for name in games.names()
                 for ruleset in games.get(name).rulesets()
                 for players in _player_counts(games.get(name))]


@pytest.mark.parametrize("name,ruleset,players", RULESET_CASES,
                         ids=[f"{n}-{r}-{p}p" for n, r, p in RULESET_CASES])
def test_every_ruleset_is_played_to_the_end(name, ruleset, players):
    """Each named ruleset, with the fewest and the most players, played from the start to
    its end: every position keeps the invariants and every step the transition rules; a
    sample of positions gets the full check; the record names the ruleset and replays."""
    game = games.get(name)
    start = game.new(ruleset=ruleset, players=players, seed=23)
    assert game.ruleset_of(start.variant) == ruleset
    # Random Jactus play takes some 10**5 throws to finish: greedy bots finish in hundreds.
    policies = ["greedy" if name == "jactus" else None] * players
    result = play_game(start, policies, max_plies=50_000)
    assert not result.capped, "a ruleset's game must end"
    engine = start.engine
    stream = RandomStream(29)
    raw = start.raw
    every = max(1, len(result.actions) // 25)
    for index, action in enumerate(result.actions):
        engine.check_invariants(raw)
        if index % every == 0:
            check_position(game, game.State(engine, raw, seed=start.seed), stream)
        after = engine.apply(raw, action)
        engine.check_transition(raw, after)
        raw = after
    engine.check_invariants(raw)
    final = result.final_state()
    assert final.is_over and final.winners() == result.winners
    record = Record.from_json(final.record().to_json())
    assert record.ruleset == ruleset and record.final_state() == final


@pytest.mark.parametrize("name,variant", CASES, ids=IDS)
def test_record_round_trip_and_replay(name, variant, tmp_path):
    game = games.get(name)
    state = play_random(game, variant, seed=7, checks=False)
    record = state.record(note="conformance")
    path = record.save(tmp_path / "game.json")
    loaded = Record.load(path)
    assert loaded.moves == tuple(record.moves)
    final = loaded.final_state()
    assert final == state and str(final) == str(state)
    replay = loaded.replay()
    replay.last()
    assert replay.state == state
    # Every step of the replay equals the state reached move by move.
    states = loaded.states()
    for index in range(0, len(states), max(1, len(states) // 10)):
        assert replay.goto(index) == states[index]


@pytest.mark.parametrize("name,variant", CASES, ids=IDS)
def test_same_seed_same_game(name, variant):
    game = games.get(name)
    a = play_random(game, variant, seed=11, checks=False).record().to_json()
    b = play_random(game, variant, seed=11, checks=False).record().to_json()
    assert a == b


@pytest.mark.parametrize("name,variant", CASES, ids=IDS)
def test_lean_path_keeps_invariants(name, variant):
    """The unchecked engine path used by playouts and bots stays consistent."""
    engine = games.get(name).engine(variant)
    stream = RandomStream(3)
    for _ in range(3):
        raw = engine.initial()
        for _ in range(2_000):
            engine.check_invariants(raw)
            after, steps = random_playout(engine, raw, stream, max_steps=1)
            engine.check_transition(raw, after)
            raw = after
            if steps < 1:
                break
        engine.check_invariants(raw)


def test_transition_checks_catch_what_may_never_happen():
    """The two-position checks fail on a step that breaks them (so they can fail)."""
    janus = games.get("janus").engine()
    raw = janus.initial()
    while janus.current(raw) == CHANCE:                   # lay the tiles
        raw = janus.apply(raw, janus.sample(raw, RandomStream(1)))
    board = list(raw[2])
    gone = next(f for f, t in enumerate(board) if t >= 0)
    emptied = raw[:2] + (tuple(-1 if f == gone else t for f, t in enumerate(board)),) + raw[3:]
    janus.check_transition(raw, emptied)                  # a tile leaving is fine
    with pytest.raises(AssertionError, match="JB-13: tiles only ever leave"):
        janus.check_transition(emptied, raw)              # one coming back is not
    jinns = games.get("jinns").engine()
    start = jinns.initial()
    taken = start[:4] + (((1,),) + start[4][1:],) + start[5:]
    with pytest.raises(AssertionError, match="JI-14: what A has taken off stays"):
        jinns.check_transition(taken, start)


@pytest.mark.parametrize("name", games.names())
def test_rule_ids_cited_exist_in_seeds(name):
    """Every rule ID the code cites is defined in seeds/<game>.md."""
    import re
    from pathlib import Path

    from conftest import ROOT

    game = games.get(name)
    seeds = (ROOT / "seeds" / f"{name}.md").read_text(encoding="utf-8")
    defined = set(re.findall(rf"\*\*({game.rule_prefix}-\d+)", seeds))
    assert defined, "the seeds file defines rules as **XX-n ...**"
    package = Path(games.__file__).parent / name.replace("-", "_")
    cited = set()
    for source in package.glob("*.py"):
        cited |= set(re.findall(rf"\b({game.rule_prefix}-\d+)\b", source.read_text()))
    assert cited, "the rules cite their IDs"
    assert cited <= defined, f"cited but not defined: {sorted(cited - defined)}"


@pytest.mark.parametrize("name", games.names())
def test_a_malformed_move_names_its_rule_in_the_message(name):
    from janus_widgets.core import InvalidMoveError

    state = games.get(name).new(seed=1)
    for text in ("xyz", "?!", "r7"):
        with pytest.raises(InvalidMoveError) as err:
            state.play(text)
        assert err.value.rule and err.value.rule in str(err.value), str(err.value)


def _not_action_numbers(engine) -> list:
    """Numbers no move of the game has: below 0, and past the decisions and the chance
    outcomes (Janus's shuffle outcomes run very far), and values that are no number."""
    past = engine.num_actions
    while engine.is_action(past):
        past = past * 1_000_003 + 7
    return [-1, -10**9, past, past + 1, 2.5, "12", None, True]


@pytest.mark.parametrize("name", games.names())
def test_forged_moves_and_huge_numbers_raise_the_projects_error(name):
    """Issue 13 item 6: a Move with an action number out of range, and a move text with
    a 5,000-digit number, raise InvalidMoveError in every game and change nothing."""
    from janus_widgets.core import InvalidMoveError, Move

    game = games.get(name)
    state = play_random(game, game.Variant(), seed=2, plies=12, checks=False)
    states = [game.new(seed=2), state]
    while states[-1].is_chance:
        states.append(states[-1].play_chance())
    for here in states:
        before = here.raw
        for action in _not_action_numbers(here.engine):
            forged = Move(name, action, "x")   # type: ignore[arg-type]
            with pytest.raises(InvalidMoveError, match="action number"):
                here.play(forged)
            with pytest.raises(InvalidMoveError):
                here.explain(forged)
            assert not here.is_legal(forged)
            with pytest.raises(InvalidMoveError):
                here.play_action(action)   # type: ignore[arg-type]
        texts = [m.notation for m in here.legal_moves()[:30]] + ["=1", "y1", "r1", "a1"]
        huge = "9" * 5000
        inflated = {re.sub(r"\d+", huge, t, count=1) for t in texts if re.search(r"\d", t)}
        inflated |= {huge, "x" + huge, huge + ".1+", "1." + huge + "+", "5.1>" + huge}
        for text in sorted(inflated):
            with pytest.raises(InvalidMoveError):
                here.play(text)
            assert not here.is_legal(text)
        assert here.raw == before

"""Game records (save, load, corrupt and tampered files) and the replay cursor."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from janus_widgets import games
from janus_widgets.core import Record, RecordError, Replay
from janus_widgets.core.record import FORMAT

from helpers import random_play

jactus = games.get("jactus")


def sample_game(seed: int = 5, plies: int = 40, **options):
    return random_play(jactus.new(seed=seed, **options), plies, seed)


def as_dict(state) -> dict:
    return json.loads(state.record().to_json())


def test_record_holds_everything_needed(tmp_path):
    state = sample_game(players=3, dog_throws="other")
    data = as_dict(state)
    assert data["format"] == FORMAT and data["version"] == 1
    assert data["game"] == "jactus" and data["seed"] == 5
    assert data["variant"]["players"] == 3 and data["variant"]["dog_throws"] == "other"
    assert data["moves"] == [m.notation for m in state.history]
    assert any(m.startswith("=") for m in data["moves"])          # chance outcomes too
    path = state.record().save(tmp_path / "g.json")
    assert Record.load(path).final_state() == state


def test_record_replays_without_the_generator():
    """Outcomes are in the record: a different seed in the file changes nothing played."""
    state = sample_game()
    data = as_dict(state)
    data["seed"] = 12345
    data.pop("result")
    replayed = Record.from_dict(data).final_state()
    assert replayed.raw == state.raw


@pytest.mark.parametrize("mutate,message", [
    (lambda d: d.update(format="chess-pgn"), "not a janus_widgets record"),
    (lambda d: d.update(version=99), "version 99 is not supported"),
    (lambda d: d.update(game="monopoly"), "unknown game 'monopoly'"),
    (lambda d: d["variant"].update(players=9), "players=9 is not allowed"),
    (lambda d: d["variant"].update(wild=True), "no variant option 'wild'"),
    (lambda d: d.update(seed=-4), "seed -4"),
    (lambda d: d.update(moves="r*"), "must be a list"),
    (lambda d: d["moves"].__setitem__(3, 17), "move 3 is 17, not text"),
    (lambda d: d.update(extra=1), "unknown record field 'extra'"),
])
def test_corrupt_records_are_refused_clearly(mutate, message):
    data = as_dict(sample_game())
    mutate(data)
    with pytest.raises(RecordError, match=message):
        Record.from_dict(data)


def test_tampered_move_is_named_by_its_index():
    data = as_dict(sample_game())
    data["moves"][1] = "=66666" if data["moves"][1] != "=66666" else "=55555"
    data["moves"][2] = "r7"                              # not even notation
    with pytest.raises(RecordError) as err:
        Record.from_dict(data)
    assert err.value.index == 2 and "move 2 ('r7')" in str(err.value)


def test_tampered_but_legal_moves_are_caught_by_the_result():
    state = sample_game(plies=60)
    data = as_dict(state)
    # A different, still legal, outcome of the first throw.
    data["moves"][1] = "=12346" if data["moves"][1] != "=12346" else "=12356"
    cut = data["moves"][:2]
    data["moves"] = cut
    with pytest.raises(RecordError, match="result"):
        Record.from_dict(data)


def test_not_json_and_not_utf8(tmp_path):
    with pytest.raises(RecordError, match="not valid JSON"):
        Record.from_json("{moves: [")
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RecordError, match="UTF-8"):
        Record.load(bad)
    with pytest.raises(RecordError, match="cannot read"):
        Record.load(tmp_path / "missing.json")
    with pytest.raises(RecordError, match="JSON object"):
        Record.from_json("[1, 2]")


def test_bad_record_input_raises_record_error_naming_the_fault(tmp_path, monkeypatch):
    """Issue 13 item 7: each of these once escaped as TypeError, RecursionError or
    IsADirectoryError."""
    data = as_dict(sample_game())
    data["variant"] = [3, "any"]
    with pytest.raises(RecordError, match="'variant' must be an object"):
        Record.from_dict(data)
    with pytest.raises(RecordError, match="nested too deeply"):
        Record.from_json("[" * 100_000 + "]" * 100_000)
    with pytest.raises(RecordError, match="nested too deeply"):
        Record.from_json('{"meta": ' + '{"a": ' * 100_000 + "1" + "}" * 100_001)
    with pytest.raises(RecordError, match="is a folder"):
        Record.load(tmp_path)
    path = sample_game().record().save(tmp_path / "g.json")

    def unreadable(self):
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(type(path), "read_bytes", unreadable)   # root reads any file
    with pytest.raises(RecordError, match="cannot read record .*Permission denied"):
        Record.load(path)
    with pytest.raises(RecordError, match="not int"):
        Record.read(42)


def test_game_load_takes_a_path_json_text_or_bytes(tmp_path):
    state = sample_game()
    text = state.record().to_json()
    path = tmp_path / "g.json"
    path.write_text(text)
    for source in (path, str(path), text, "\n  " + text, text.encode(), "\ufeff" + text):
        assert jactus.load(source).final_state() == state
    with pytest.raises(RecordError, match="is a 'jactus' game, not 'jinns'"):
        games.get("jinns").load(text)


def test_a_failed_save_leaves_no_tmp_file_and_keeps_the_old_one(tmp_path, monkeypatch):
    path = tmp_path / "g.json"
    sample_game(seed=1).record().save(path)
    before = path.read_text()
    real_write = type(path).write_text

    def half_written(self, text, *args, **kwargs):
        real_write(self, text[:10], *args, **kwargs)
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(type(path), "write_text", half_written)
    with pytest.raises(OSError, match="No space"):
        sample_game(seed=2).record().save(path)
    monkeypatch.undo()
    assert path.read_text() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]
    (tmp_path / "folder").mkdir()
    with pytest.raises(OSError):                        # a folder in the way
        sample_game(seed=2).record().save(tmp_path / "folder")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "g.json"]


def test_records_are_never_evaluated(tmp_path):
    """A pickle or Python in a record file is refused as text, never run."""
    import pickle
    evil = tmp_path / "evil.json"
    evil.write_bytes(pickle.dumps(object()))
    with pytest.raises(RecordError):
        Record.load(evil)
    with pytest.raises(RecordError):
        Record.from_json("__import__('os').system('true')")


def test_save_is_atomic_and_keeps_the_old_file_on_error(tmp_path, monkeypatch):
    path = tmp_path / "g.json"
    first = sample_game(seed=1).record()
    first.save(path)
    before = path.read_text()

    def boom(*args, **kwargs):
        raise OSError("disk full")
    monkeypatch.setattr("os.replace", boom)
    with pytest.raises(OSError):
        sample_game(seed=2).record().save(path)
    assert path.read_text() == before
    assert not (tmp_path / "g.json.tmp").exists()


# --- replay ---------------------------------------------------------------------
def test_replay_steps_are_direct():
    state = sample_game(plies=30)
    replay = state.record().replay()
    assert replay.index == 0 and replay.length == 30
    assert replay.last() == state
    assert replay.back() == replay.states[29]
    assert replay.first().ply == 0
    assert replay.forward().ply == 1
    assert replay.goto(-1) == state
    with pytest.raises(IndexError, match="0 … 30"):
        replay.goto(31)


def test_a_long_record_keeps_checkpoints_not_a_state_per_move():
    """Issue 13 item 9: a replay keeps the actions and a raw state every
    CHECKPOINT_EVERY moves; every state it gives back is the one a plain replay gives,
    history included (the load time and memory are measured by
    benchmarks/record_load.py)."""
    from janus_widgets.core.replay import CHECKPOINT_EVERY
    moves = ["r*", "=12345"] + ["r5", "=5"] * 2500
    rec = Record.from_dict({"format": FORMAT, "version": 1, "game": "jactus",
                            "variant": {"players": 2}, "seed": 1, "moves": moves})
    replay = rec.replay()
    line = replay.lines[0]
    assert len(line) == 5002 and line._checkpoints[1] == line.raw_at(CHECKPOINT_EVERY)
    assert len(line._checkpoints) == 5002 // CHECKPOINT_EVERY + 1
    assert all(type(a) is int for a in line.actions)
    assert all(type(raw) is tuple for raw in line._checkpoints)     # raw states, no State
    state = jactus.new(players=2, seed=1)
    plain = [state]
    for move in moves[:300]:
        plain.append(plain[-1].play(move))
    for index in (0, 1, 63, 64, 65, 127, 128, 299, 300):
        got = replay.goto(index)
        assert got == plain[index] and got.ply == index and got.seed == 1
        assert got.history == plain[index].history
        assert got.last_move == plain[index].last_move
        assert [m.notation for m in got.history] == moves[:index]
    assert replay.back() == plain[299] and replay.forward() == plain[300]
    assert replay.last().ply == 5002 and len(replay.last().history) == 5002
    assert rec.final_state().history_for(0) == moves
    assert replay.record().moves == moves


class _Plain:
    """The replay as it used to be: every state of every line kept (the model)."""

    def __init__(self, start):
        self.lines = [[start]]
        self.line = 0
        self.index = 0

    def play(self, move):
        states = self.lines[self.line]
        new = states[self.index].play(move)
        i = self.index
        if i < len(states) - 1 and states[i + 1].last_move == new.last_move:
            self.index += 1
            return
        if i == len(states) - 1:
            states.append(new)
            self.index += 1
            return
        for k, other in enumerate(self.lines):
            if len(other) > i + 1 and [s.last_move for s in other[1:i + 2]] == \
                    [s.last_move for s in states[1:i + 1]] + [new.last_move]:
                self.line, self.index = k, i + 1
                return
        self.lines.append(states[:i + 1] + [new])
        self.line, self.index = len(self.lines) - 1, i + 1


@given(ops=st.lists(st.tuples(st.sampled_from(["play", "goto", "switch", "back", "forward"]),
                              st.integers(0, 10**6)), max_size=60),
       seed=st.integers(0, 50))
def test_replay_agrees_with_keeping_every_state(ops, seed):
    """Random plays, jumps, branches and line switches across checkpoint boundaries:
    the checkpointed replay shows the same state as one that keeps every state."""
    start = jactus.new(seed=seed, players=3)
    replay, model = Replay(start), _Plain(start)
    stream_state = random_play(start, 150, seed)
    line = list(stream_state.history)
    for move in line:                   # a long main line first
        replay.play(move)
        model.play(move)
    for op, n in ops:
        if op == "play":
            here = replay.state
            if here.is_over:
                continue
            legal = here.legal_moves()         # at a chance point: the dice outcomes
            move = legal[n % len(legal)]
            replay.play(move)
            model.play(move)
        elif op == "goto":
            index = n % (replay.length + 1)
            replay.goto(index)
            model.index = index
        elif op == "switch":
            k = n % len(replay.lines)
            replay.switch(k)
            model.line, model.index = k, min(model.index, len(model.lines[k]) - 1)
        elif op == "back":
            replay.back()
            model.index = max(model.index - 1, 0)
        else:
            replay.forward()
            model.index = min(model.index + 1, len(model.lines[model.line]) - 1)
        want = model.lines[model.line][model.index]
        assert replay.line == model.line and replay.index == model.index
        assert replay.state == want and replay.state.ply == want.ply
        assert replay.state.last_move == want.last_move
    assert len(replay.lines) == len(model.lines)
    for got, want in zip(replay.lines, model.lines):
        assert got.moves == [s.last_move for s in want[1:]]
        assert got.states[-1] == want[-1]
    back = replay.record().replay()
    assert [l.actions for l in back.lines] == [l.actions for l in replay.lines]


def test_branch_keeps_the_old_line_and_saves_both(tmp_path):
    state = sample_game(plies=12)
    replay = Replay(state.start)
    for move in state.history:
        replay.play(move)
    replay.goto(2)                                      # B to choose dice
    alternatives = [m for m in replay.state.legal_moves() if m != state.history[2]]
    replay.play(alternatives[0])
    assert replay.line == 1 and len(replay.lines) == 2
    assert replay.moves[:2] == list(state.history[:2])
    assert replay.moves[2] == alternatives[0]
    # Playing the old move again from the branch point goes back to line 0.
    replay.goto(2)
    replay.play(state.history[2])
    assert replay.line == 0 and replay.index == 3
    # Saving keeps both lines.
    rec = replay.record()
    assert len(rec.branches) == 1 and rec.branches[0].at == 2
    loaded = Record.load(rec.save(tmp_path / "tree.json"))
    back = loaded.replay()
    assert len(back.lines) == 2
    assert back.lines[1].moves == replay.lines[1].moves
    assert back.lines[0].states[-1] == state


def test_replay_refuses_an_illegal_move_and_changes_nothing():
    replay = Replay(jactus.new(seed=0))
    replay.play("r*")
    with pytest.raises(ValueError):
        replay.play("coin")
    assert replay.index == 1 and replay.length == 1 and len(replay.lines) == 1


def test_branch_record_errors_name_the_branch():
    rec = sample_game(plies=6).record()
    data = rec.to_dict()
    data["branches"] = [{"parent": 0, "at": 2, "moves": ["coin"]}]
    with pytest.raises(RecordError, match="branch 1 move 2"):
        Record.from_dict(data)
    data["branches"] = [{"parent": 3, "at": 2, "moves": []}]
    with pytest.raises(RecordError, match="parent 3"):
        Record.from_dict(data)


# --- property tests ----------------------------------------------------------------
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 80),
       players=st.integers(2, 6))
def test_any_game_round_trips_through_json(seed, plies, players):
    state = sample_game(seed=seed, plies=plies, players=players)
    again = Record.from_json(state.record().to_json()).final_state()
    assert again == state and again.history == state.history


@given(seed=st.integers(0, 2**32), plies=st.integers(0, 60))
def test_notation_round_trips_in_every_reached_state(seed, plies):
    state = sample_game(seed=seed, plies=plies)
    for move in state.legal_moves():
        assert jactus.parse_move(state, str(move)) == move

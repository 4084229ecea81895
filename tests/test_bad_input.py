"""Bad input left over after the audit of issue 24: each case raises the package's own
error (a ``ValueError`` subclass) that says what was wrong and what is allowed.

Records (numbers too long to read, repeated JSON keys, the size limit and the memory it
allows), arguments (seats, seeds, ``rng``, game names, a variant and a ruleset), move
notation outside ASCII, bot names on the command line, forged card-game seat records,
and the greedy bot under ``agreement="joint"``. The solver's cache is in test_solve.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import janus_widgets as jw
from janus_widgets import games
from janus_widgets.__main__ import main
from janus_widgets.core import (TABLE, ArgumentError, InvalidMoveError, JanusError,
                                Record, RecordError, SeatRecord, VariantError)
from janus_widgets.core.bots import GreedyBot, MAX_NAMED_ITERATIONS, make_bot
from janus_widgets.core.record import MAX_BYTES
from janus_widgets.core.rng import RandomStream
from janus_widgets.games.janus_cards.rules import JanusCardsVariant, position

ROOT = Path(__file__).resolve().parents[1]
cards = games.get("janus-cards")


def jactus_record() -> Record:
    state = jw.new("jactus", seed=3).play("r*").play("=11235")
    return state.record()


# --- records -----------------------------------------------------------------------
def test_a_number_over_4300_digits_is_a_record_error_everywhere(tmp_path):
    huge = "7" * 5000
    text = jactus_record().to_json().replace('"seed": 3', f'"seed": {huge}')
    assert huge in text
    with pytest.raises(RecordError, match="5000 digits.*at most 4300"):
        Record.from_json(text)
    path = tmp_path / "huge.json"
    path.write_text(text)
    with pytest.raises(RecordError, match="5000 digits"):
        jw.load(path)
    seat = jactus_record().view(0).to_json(indent=None)
    with pytest.raises(RecordError, match="5001 digits"):
        SeatRecord.from_json(seat[:-1] + ', "meta": {"note": -' + "9" * 5001 + "}}")
    with pytest.raises(RecordError, match="JSON does not allow"):
        Record.from_json(text.replace(huge, "NaN"))
    with pytest.raises(RecordError, match="finite"):
        Record.from_json(text.replace(huge, "1e999"))


@pytest.mark.parametrize("where", ["top", "variant", "meta", "seat"])
def test_a_repeated_json_key_is_refused_not_resolved(where):
    rec = jactus_record()
    if where == "seat":
        text = rec.view(1).to_json().replace('"seat": "B"', '"seat": "A", "seat": "B"')
        reader = SeatRecord.from_json
    else:
        text = rec.to_json(indent=None)
        reader = Record.from_json
        if where == "top":
            text = text.replace('"seed": 3', '"seed": 4, "seed": 3')
        elif where == "variant":
            text = text.replace('"players": 2', '"players": 3, "players": 2')
        else:
            text = text[:-1] + ', "meta": {"who": "Ada", "who": "Bob"}}'
    assert text.count('"seat"') == 2 or where != "seat"
    with pytest.raises(RecordError, match="twice in one object"):
        reader(text)
    with pytest.raises(RecordError, match="twice"):
        jw.games.get("jactus").load(text) if where != "seat" else jw.load(text)


def test_a_record_over_the_size_limit_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "big.json"
    with path.open("w") as out:
        out.write('{"moves": [')
        out.write('"r5",' * (MAX_BYTES // 5))
        out.write('"r5"]}')
    with pytest.raises(RecordError, match=f"the limit is {MAX_BYTES}"):
        jw.load(path)
    with pytest.raises(RecordError, match=f"the limit is {MAX_BYTES}"):
        Record.from_json(path.read_text())


PEAK = textwrap.dedent("""
    import json, sys
    from pathlib import Path
    from janus_widgets.core import RecordError, read_record
    path = sys.argv[1]
    try:
        length = len(read_record(path).replay().lines[0])
    except RecordError as exc:
        length = "refused: " + str(exc)[:60]
    peak = 0.0
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            peak = int(line.split()[1]) / 1024
    print(json.dumps({"length": length, "peak_mb": peak}))
""")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads Linux's VmHWM")
def test_a_record_at_the_size_limit_loads_within_500_mb(tmp_path):
    """The limit and the memory agree: the most legal moves a record may hold, and the
    most JSON values per byte, each read in a fresh process, stay under 500 MB (the
    figures: benchmarks/record_load.py --at-limit)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import record_load
    finally:
        sys.path.pop(0)
    legal, lists = tmp_path / "legal.json", tmp_path / "lists.json"
    moves = record_load.write_compact(legal, MAX_BYTES)
    record_load.write_hostile(lists, MAX_BYTES)
    assert min(legal.stat().st_size, lists.stat().st_size) > MAX_BYTES - 1000
    for path, length in ((legal, moves), (lists, 0)):
        out = subprocess.run([sys.executable, "-c", PEAK, str(path)], check=True,
                             capture_output=True, text=True, cwd=ROOT).stdout
        figures = json.loads(out.strip().splitlines()[-1])
        assert figures["length"] == length
        assert 0 < figures["peak_mb"] <= 500, figures


def test_a_loaded_record_keeps_each_move_text_once():
    data = jactus_record().to_dict()
    data.update(moves=["r*", "=12345"] + ["r5", "=5"] * 50)
    data.pop("result")
    rec = Record.from_dict(json.loads(json.dumps(data)))
    assert len({id(m) for m in rec.moves}) == 4 and len(rec.moves) == 102


# --- arguments ---------------------------------------------------------------------
@pytest.mark.parametrize("name", games.names())
def test_a_seat_that_does_not_exist_is_an_argument_error(name):
    state = jw.new(name, seed=1)
    while state.is_chance:
        state = state.play_chance()
    move = state.legal_moves()[0]
    for player in (9, -1, "B", 1.0, True):
        with pytest.raises(ArgumentError, match="is not a seat: use a seat number 0 …") \
                as err:
            state.play(move, player=player)
        assert err.value.argument == "player" and isinstance(err.value, ValueError)
    assert state.play(move, player=state.current_player) == state.play(move)
    for viewer in (7, -2, "B", 0.5):
        with pytest.raises(ArgumentError, match="'table' for what every seat has seen"):
            state.view(viewer)


def test_seeds_games_and_rulesets_get_the_package_errors():
    with pytest.raises(ArgumentError, match=r"seed=-1 is not allowed: .* 0 to 2\*\*63 - 1"):
        jw.new("jactus", seed=-1)
    with pytest.raises(ArgumentError, match="seed"):
        jw.new("jactus", seed=2**63)
    with pytest.raises(ArgumentError, match="no game called 'chess'.*janus-cards") as err:
        jw.new("chess")
    assert err.value.argument == "game"
    with pytest.raises(VariantError, match="a variant or a ruleset, not both") as err:
        jw.new("jactus", {"players": 3}, ruleset="points")
    assert err.value.field == "ruleset"
    assert jw.new("jactus", ruleset="points", players=3).variant.players == 3


def test_play_chance_names_rng_and_takes_a_generator_or_a_seed():
    state = jw.new("jactus", seed=1).play("r*")
    for rng in ("x", -5, 1.5, [1, 2]):
        with pytest.raises(ArgumentError, match="rng=.* numpy Generator") as err:
            state.play_chance(rng=rng)
        assert err.value.argument == "rng"
    by_seed = state.play_chance(rng=9)
    assert by_seed == state.play_chance(rng=np.random.default_rng(9))
    assert state.play_chance() == state.play_chance(rng=None)
    with pytest.raises(ArgumentError, match="rng"):          # named before the turn is
        jw.new("jactus", seed=1).sample_chance(rng="x")


def test_every_package_error_is_a_janus_error_and_a_value_error():
    for cls in (ArgumentError, RecordError, VariantError, InvalidMoveError):
        assert issubclass(cls, JanusError) and issubclass(cls, ValueError)
    assert jw.ArgumentError is ArgumentError and jw.JanusError is JanusError


# --- notation is ASCII ----------------------------------------------------------------
UNICODE = {"janus": [("a\u0666", "a6")],                    # ARABIC-INDIC DIGIT SIX
           "janus-cards": [("dB\u0661", "dB1"), ("x\u0661", "x1")],
           "jactus": [("r\u0661", "r1")],
           "jinns": [("Y\u0661", "Y1"), ("x\uff11", "x1")]}       # FULLWIDTH DIGIT ONE


def _start(name: str):
    state = jw.new(name, seed=2)
    if name == "janus-cards":
        while state.is_chance:
            state = state.play_chance()
    if name == "jactus":
        state = state.play("r*").play("=12346")
    return state


@pytest.mark.parametrize("name", games.names())
def test_unicode_digits_are_refused_in_every_game(name):
    state = _start(name)
    for text, ascii_text in UNICODE[name]:
        state.engine.parse(state.raw, ascii_text)            # the ASCII text is a move
        with pytest.raises(InvalidMoveError, match="plain ASCII text") as err:
            state.parse(text)
        assert f"U+{ord(text[-1]):04X}" in str(err.value)
        with pytest.raises(InvalidMoveError, match="plain ASCII text"):
            state.engine.parse(state.raw, text)
        assert not state.is_legal(text)


def test_a_janus_field_with_a_unicode_digit_is_no_field():
    from janus_widgets.games.janus.components import parse_field
    assert parse_field("a6") == 50
    with pytest.raises(ValueError, match="is not a field"):
        parse_field("a\u0666")


# --- bots by name -----------------------------------------------------------------
@pytest.mark.parametrize("bots,message", [
    ("mcts:99999999999999999999", "from 1 to 100000"),
    ("mcts:100001", "from 1 to 100000"),
    ("mcts:0", "from 1 to 100000"),
    ("mcts:\u0663", "from 1 to 100000"),                  # ARABIC-INDIC DIGIT THREE
    (",,,", "entry 1 is empty"),
    ("greedy,,random", "entry 2 is empty"),
    ("", "entry 1 is empty"),
    ("greedy,wizard", "entry 2: no bot called 'wizard'"),
    ("optimal", "does not play Jinns"),
])
def test_the_command_line_refuses_bad_bots_and_names_what_is_allowed(bots, message,
                                                                      capsys):
    assert main(["simulate", "jinns", "--games", "1", "--bots", bots]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "random, greedy, mcts, mcts:N (N playouts a move, 1 … 100000)" in err or \
        "mcts:N" in err


def test_named_mcts_bots_are_bounded_but_built_as_asked():
    assert make_bot(f"mcts:{MAX_NAMED_ITERATIONS}", games.get("jinns"), 0, 0).iterations \
        == MAX_NAMED_ITERATIONS
    with pytest.raises(ArgumentError, match="from 1 to 100000"):
        make_bot(f"mcts:{MAX_NAMED_ITERATIONS + 1}", games.get("jinns"), 0, 0)
    with pytest.raises(ArgumentError, match="by text"):
        make_bot(None, games.get("jinns"), 0, 0)


# --- forged card-game seat records -----------------------------------------------------
def card_game(seed: int, plies: int, variant=None):
    """A real card game: the deal, then seeded random decisions."""
    state = cards.new(variant or cards.variant(players=3), seed=seed)
    stream = RandomStream(seed)
    while state.ply < plies and not state.is_over:
        if state.is_chance:
            state = state.play_chance()
            continue
        acts = state.engine.actions(state.raw)
        state = state._child(acts[stream.below(len(acts))])
    return state


@pytest.fixture(scope="module")
def seat_a():
    return card_game(4, 40).seat_record(0).to_dict()


def forged(data: dict, change) -> dict:
    copy = json.loads(json.dumps(data))
    change(copy)
    return copy


def test_genuine_seat_records_of_every_seat_and_the_table_load():
    """The checks refuse no real record: random games of several rule sets, each seat's
    record and the table's, read back from JSON."""
    loaded = 0
    for k, variant in enumerate([cards.variant(players=3),
                                 cards.variant(players=4, symbols=5, trio_backs="shown"),
                                 cards.variant(players=3, symbols=5, two_from_pile=True,
                                               two_from_one_player=True),
                                 cards.variant(players=2, symbols=4, deal_peek="none",
                                               agreement="joint")]):
        state = card_game(10 + k, 400, variant)
        for seat in [*range(state.num_players), TABLE]:
            record = SeatRecord.from_json(state.seat_record(seat).to_json())
            assert record.replay().last().view(seat) == state.view(seat)
            loaded += 1
    assert loaded == 3 + 1 + 4 + 1 + 3 + 1 + 2 + 1


def test_every_move_text_forged_is_refused(seat_a):
    with pytest.raises(RecordError, match=r"move 0 \('@@@'\).*is not what the seat was "
                                          "told") as err:
        SeatRecord.from_dict(forged(seat_a, lambda d: d.update(
            moves=["@@@"] * len(d["moves"]))))
    assert err.value.index == 0
    decision = next(i for i, m in enumerate(seat_a["moves"]) if m[0] in "dx")

    def garble(d):
        d["moves"][decision] = "@@@"
    with pytest.raises(RecordError, match=f"move {decision} .*not a move of the card game"):
        SeatRecord.from_dict(forged(seat_a, garble))

    def other_draw(d):          # a legal-looking draw that is not the one the views show
        text = d["moves"][decision]
        d["moves"][decision] = "x1" if not text.startswith("x1") else "x2"
    with pytest.raises(RecordError, match=f"move {decision} "):
        SeatRecord.from_dict(forged(seat_a, other_draw))


@pytest.mark.parametrize("forgery,message", [
    ("own front unseen", "does not know its front but saw it"),
    ("a symbol beyond the deck", "is not a symbol of this deck"),
    ("a trio card showing another symbol", "lies in a trio of"),
    ("five cards in a hand", "nobody holds more than 4"),
])
def test_an_impossible_card_is_refused(seat_a, forgery, message):
    if forgery == "a symbol beyond the deck":
        state = card_game(2, 30, cards.variant(players=3, symbols=5))
        data = state.seat_record(0).to_dict()
        view = data["views"][-1]
        view["hands"][0][0] = "w" + view["hands"][0][0][1:]          # wave: symbol 11
    elif forgery == "a trio card showing another symbol":
        state = position(hands=[["s/m", "s/k"], ["h/s", "f/b"], ["c/l"]], pile=["t/r"])
        state = state.play("dB1")                                     # A lays three suns
        data = SeatRecord.from_state(state, 1).to_dict()
        data["views"][-1]["trios"][0][2][1] = "h" + data["views"][-1]["trios"][0][2][1][1:]
        with pytest.raises(ValueError, match=message):
            cards.engine(state.variant).view_from_data(data["views"][-1], 1)
        return
    else:
        data = json.loads(json.dumps(seat_a))
        view = data["views"][12]
        if forgery == "own front unseen":
            view["hands"][0][0] = "?" + view["hands"][0][0][1:]
        else:                # every card of the hands and the pile in B's, the count kept
            view["hands"] = [[], [c for h in view["hands"] for c in h] + view["pile"], []]
            view["pile"], view["no_trios"] = [], []
            assert len(view["hands"][1]) > 4
    with pytest.raises(RecordError, match=message):
        SeatRecord.from_dict(data)


def test_a_card_twice_in_a_hand_is_refused(seat_a):
    at = next(i for i, v in enumerate(seat_a["views"]) if len(v["hands"][0]) >= 2
              and "?" not in v["hands"][0][0][:2])       # A knows both sides of its A1

    def twice(d):
        hand = d["views"][at]["hands"][0]
        hand[1] = hand[0]                                  # the same card, both known
    with pytest.raises(RecordError, match=rf"view {at} .* card twice.*one card for every "
                                          r"pair of symbols \(JC-1\)"):
        SeatRecord.from_dict(forged(seat_a, twice))


def test_a_hidden_side_changed_or_views_out_of_order_are_refused(seat_a):
    def other_back(d):                    # what A sees on B's card, changed in one view
        view = d["views"][20]
        card = view["hands"][1][0]
        view["hands"][1][0] = card[0] + ("s" if card[1] != "s" else "m") + card[2:]
    with pytest.raises(RecordError, match="is not the card the move leaves there"):
        SeatRecord.from_dict(forged(seat_a, other_back))

    def swap(d):
        d["views"][5], d["views"][6] = d["views"][6], d["views"][5]
    with pytest.raises(RecordError, match="move 4 "):
        SeatRecord.from_dict(forged(seat_a, swap))

    def not_the_start(d):
        d["views"], d["moves"] = d["views"][3:], d["moves"][3:]
        d.pop("result")
    with pytest.raises(RecordError, match="view 0 of the record is not the start"):
        SeatRecord.from_dict(forged(seat_a, not_the_start))


def test_a_seat_record_made_here_is_trusted_and_steps_the_same():
    state = card_game(7, 60)
    made = state.seat_record(2)
    read = SeatRecord.from_json(made.to_json())
    assert [made.replay_view(i) for i in range(len(made) + 1)] == \
        [read.replay_view(i) for i in range(len(read) + 1)]


# --- the greedy bot under agreement="joint" ---------------------------------------------
def test_greedy_counts_a_trio_laid_after_agreeing_as_its_own_under_joint_agreement():
    """JC-14: with agreement='joint' agreeing costs nothing, so a trio laid after it is
    the maker's; the greedy bot's closed form must say so (it rated it like any move)."""
    for agreement, worth in (("binding", 0.0), ("joint", 1.0)):
        variant = JanusCardsVariant(players=3, agreement=agreement)
        state = position(variant, hands=[["s/m", "s/k"], ["h/s", "f/b"], ["c/l", "t/r"]],
                         pile=["w/r"], to_move=0, agreed=[0])
        eng, bot = state.engine, GreedyBot(0)
        values = dict(zip(state.legal_moves().notations(), eng.greedy_values(state.raw, 0)))
        slow = {m.notation: bot.expected_value(eng, state.raw, m.action, 0)
                for m in state.legal_moves()}
        assert values == pytest.approx(slow)
        assert values["dB1"] == worth                    # B's sun makes A's third
        if agreement == "joint":        # it draws B's sun (alone or with another card)
            chosen = [str(GreedyBot(s)(state.view(0))) for s in range(4)]
            assert all(m.startswith("dB1") and values[m] == 1.0 for m in chosen), chosen


def test_greedy_closed_form_agrees_with_averaging_in_joint_games():
    variant = cards.variant(players=3, symbols=5, agreement="joint")
    eng, checked, after_agreeing = cards.engine(variant), 0, 0
    for seed in range(12):
        state = cards.new(variant, seed=seed)
        stream = RandomStream(seed)
        while not state.is_over and state.ply < 300:
            if state.is_chance:
                state = state.play_chance()
                continue
            raw, seat = state.raw, state.current_player
            values = eng.greedy_values(raw, seat)
            if values is not None:
                bot = GreedyBot(0)
                assert values == pytest.approx(
                    [bot.expected_value(eng, raw, a, seat) for a in eng.actions(raw)])
                checked += 1
                scores = state.scores()
                now = scores[seat] - max(v for p, v in enumerate(scores) if p != seat)
                after_agreeing += raw[7] >> seat & 1 and max(values) > now
            acts = eng.actions(raw)
            agree = [a for a in acts if eng.notation(raw, a) == "agree"]
            # agree often, so trios are laid after agreeing
            pick = agree if agree and stream.below(2) else acts
            state = state._child(pick[stream.below(len(pick))])
    assert checked > 100 and after_agreeing >= 5       # trios laid after agreeing too


def test_a_side_revealed_against_what_a_no_trio_fact_said_is_refused():
    """JC-13: a seat learnt that three sides do not all show one symbol; a record that
    then reveals the third one as the other two's symbol is forged."""
    from janus_widgets.games.janus_cards.record_check import check_step
    from janus_widgets.games.janus_cards.views import view_from_data, view_to_data
    variant = cards.variant(players=3, symbols=4)
    before, after = card_game(2, 10, variant), card_game(2, 11, variant)
    assert before.view(0).no_trios
    text = before.engine.observed(before.raw, after.last_move.action, 0)
    check_step(before.view(0), text, after.view(0))                 # the real move
    data = view_to_data(after.view(0))
    card = data["hands"][2][1]                                      # C2, its back now seen
    assert card[1] != "m"
    data["hands"][2][1] = card[0] + "m" + card[2:]
    forged_view = view_from_data(data, variant, 0)                  # a view on its own
    with pytest.raises(ValueError, match="do not all show one symbol, and now sees moon "
                                         r"on all three \(JC-13\)"):
        check_step(before.view(0), text, forged_view)


def test_more_bots_than_seats_is_refused_saying_how_many_seats():
    from janus_widgets.analysis.tournament import run_tournament
    with pytest.raises(ArgumentError, match="3 bots for 2 seats; give at most 2"):
        run_tournament("jactus", bots=["greedy"] * 3, games=2, processes=1)
    out = subprocess.run([sys.executable, "-m", "janus_widgets", "simulate", "jinns",
                          "--bots", "greedy,greedy,greedy,greedy,greedy", "--games", "1"],
                         capture_output=True, text=True)
    assert out.returncode == 2 and "5 bots for 2 seats" in out.stderr


def test_output_piped_into_a_program_that_stops_reading_ends_quietly(tmp_path):
    """`janus-widgets notebooks … | head -1` ended with a BrokenPipeError traceback."""
    proc = subprocess.Popen([sys.executable, "-m", "janus_widgets", "notebooks", "--out",
                             str(tmp_path / "nb"), "--edition", "teacher"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()                           # as `| head -0`: nobody reads
    _, err = proc.communicate(timeout=120)
    assert b"Traceback" not in err and b"BrokenPipeError" not in err, err.decode()[-2000:]


def test_the_usage_line_names_the_command_as_it_was_called():
    cli = Path(sys.executable).parent / "janus-widgets"
    usage = subprocess.run([str(cli), "--help"], capture_output=True, text=True)
    assert usage.stdout.startswith("usage: janus-widgets ")
    usage = subprocess.run([sys.executable, "-m", "janus_widgets", "--help"],
                           capture_output=True, text=True)
    assert usage.stdout.startswith("usage: python -m janus_widgets ")

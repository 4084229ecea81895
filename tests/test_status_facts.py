"""The status line states facts (issue 25, items 1–7): who made a move comes from the
record, a message lasts until the next action, a bot that waits says why, a record that
cannot be played on offers no move, and a random session's status line always equals
what the record says.
"""

from __future__ import annotations

import html
import json
import random
import re

import pytest

from janus_widgets import games
from janus_widgets.core import TABLE, Record
from janus_widgets.core.protocol import CHANCE, TERMINAL, seat_name
from janus_widgets.widgets.extras import deal_all
from janus_widgets.widgets import GameWidget


def plain(widget_html: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", widget_html))


# --- item 1: who made each move is the record's -------------------------------------------
def test_bot_or_person_is_read_from_the_record_not_the_seat_menu(tmp_path):
    w = GameWidget("jactus", players=3, seed=5, bot_delay=0)
    w.play("r*")                                   # A, a person, from a cell
    w.set_bot(0, "greedy")                         # now A is a bot: A's move was not
    first = [label for label, i in w.move_log.options if i == 1][0]
    assert first == "1. A r*" and "(bot)" not in first
    w.set_bot(0, None)
    w.set_bot(2, "greedy")
    while "bot:greedy" not in w.table.by and not w.state.is_over:
        w.play(w.state.legal_moves()[0])           # A and B, until C's bot has moved
    bot_moves = [i for i, by in enumerate(w.table.by) if by == "bot:greedy"]
    assert bot_moves and w.state.current_player != 2
    w.set_bot(2, None)                             # C is a person now: its moves stay a bot's
    log = dict((i, label) for label, i in w.move_log.options)
    assert all("C (bot)" in log[i + 1] for i in bot_moves)
    path = w.save(tmp_path / "g.json")             # and the record keeps it
    assert json.loads(path.read_text())["by"][bot_moves[0]] == "bot:greedy"
    again = GameWidget("jactus", players=3, bot_delay=0, record=path, viewpoint=None)
    log = dict((i, label) for label, i in again.move_log.options)
    assert all("C (bot)" in log[i + 1] for i in bot_moves)
    assert Record.load(path).by == tuple(w.table.by)


# --- item 2: a message lasts until the next action -----------------------------------------
def test_four_bots_leave_no_stale_message():
    w = GameWidget("janus", players=4, seed=2, bot_delay=0)
    for seat in range(4):
        w.set_bot(seat, "greedy")
    w.click_key(("button", "lay"))                 # the bots play the game out
    assert w.state.is_over and w.index > 20
    assert "Game over" in w.status_line.value and "JB-4" not in w.message


def test_replaying_the_recorded_move_starts_no_line():
    w = GameWidget("jactus", seed=3, bot_delay=0)
    w.play("r*")
    recorded = w.replay.moves[1]
    w.play(w.state.legal_moves()[0])
    w.goto(1)
    w.play(w.replay.moves[1] if w.replay.length > 1 else recorded)
    assert len(w.replay.lines) == 1 and "new line" not in w.message


def test_a_bot_that_does_not_move_says_why():
    w = GameWidget("jactus", seed=3, bot_delay=0, bots={1: "greedy"})
    w.play("r*")
    while w.state.current_player != 1:
        w.back()
    assert "stepped back" in w.message and "▶" in w.message
    w.table.hold("the teacher paused this table")
    w.last()
    if w.state.current_player == 1:
        assert "paused" in w.message


# --- item 4: a record that cannot be played on offers no move --------------------------
def test_a_table_record_offers_no_move_anywhere():
    w = GameWidget("janus-cards", players=3, seed=4, bot_delay=0)
    w.step()                                        # one card dealt: chance to act next
    table_record = w.state.seat_record(TABLE)
    w.load(table_record)
    assert w.seat_mode and w.state.is_chance
    texts = " ".join(w.drawing.texts())
    assert "Deal a card" not in texts and "click Deal" not in texts
    assert not any(isinstance(r.key, tuple) and r.key[:2] == ("button", "deal")
                   for r in w.drawing.regions)
    status = plain(w.status_line.value)
    assert "chance to act" not in status and "comes next in the record" in status
    labels = [label for label, _ in w.options_list.options]
    assert labels == ["(a seat's record: nothing can be played)"]
    j = GameWidget("jactus", seed=1, bot_delay=0)
    j.play("r*")
    j.load(j.state.seat_record(0))
    assert j.drawing.find(("button", "throw")) is None and "(a record)" in j.drawing.texts()


# --- item 5: every move read the same way --------------------------------------------------
@pytest.mark.parametrize("name", games.names())
def test_every_last_move_names_who_and_what(name):
    w = GameWidget(name, seed=6, bot_delay=0, viewpoint=0)
    rng = random.Random(6)
    for _ in range(25):
        if w.state.is_over:
            break
        if w.state.is_chance:
            w.step()
        else:
            w.play(rng.choice(w.state.legal_moves()))
        last = w.table.facts(0).last
        assert re.match(r"^(Chance: |[A-F]( \(bot\))? played )", last), last
        assert "=?" not in last or "dealt" in last or "turned up" in last, last
        assert " played " not in last or ": " in last, last        # and what it did


@pytest.mark.parametrize("name", games.names())
def test_a_seats_record_reads_as_the_game_did(name, tmp_path):
    """A seat's record, saved and loaded, reads every move as the live game read it for
    that seat: the log, and the last move (with its sentence) at every position."""
    options = {"players": 3} if name == "janus-cards" else {}
    for seat in (0, 1, "current"):
        w = GameWidget(name, seed=5, bot_delay=0, viewpoint=seat, bots={1: "greedy"},
                       **options)
        rng = random.Random(5)
        for _ in range(30):
            if w.state.is_over:
                break
            if w.state.is_chance or w.state.current_player in w.bots:
                w.step()
            else:
                w.play(rng.choice(w.state.legal_moves()))
        live = [label for label, _ in w.move_log.options][1:]
        w.set_bot(1, None)                         # stepping back plays nothing
        lasts = []
        for i in range(w.index + 1):
            w.goto(i)
            lasts.append(w.table.last_move(seat))
        loaded = GameWidget(name, bot_delay=0, **options)
        loaded.load(w.save(tmp_path / f"{seat}.json"))
        assert loaded.seat_mode
        shown = [label for label, _ in loaded.move_log.options][1:]
        assert shown == live and not any(re.search(r"\d+\. chance =", s) for s in shown)
        for i, want in enumerate(lasts):
            loaded.goto(i)
            assert loaded.table.facts(loaded._viewpoint).last == want, (seat, i)
        loaded.last()
        assert plain(loaded.status_line.value).count(lasts[-1].rstrip(".")) == 1
        assert all(": " in last for last in lasts if " played " in last)  # a sentence


@pytest.mark.parametrize("viewer", [0, 1, TABLE, None])
def test_every_card_move_has_a_sentence_in_the_viewers_terms(viewer):
    """Every kind of card move (a draw of one or two, from a hand or the pile, a discard of
    one or two, agreeing, a trio laid, the end) says what it did, in words, for every
    viewer, and names no side that viewer has not seen (the words come from its view)."""
    from janus_widgets.table.narrate import sentence
    cards = games.get("janus-cards")
    said: dict[str, str] = {}
    for seed in range(6):
        state = cards.new(players=3 + seed % 2, seed=seed, two_from_pile=True)
        rng = random.Random(seed)
        while not state.is_over:
            move = state.sample_chance() if state.is_chance else \
                rng.choice(state.legal_moves())
            words = sentence(state.engine, state.raw, move.action, viewer)
            told = state.engine.observed(state.raw, move.action, viewer)
            kind = ("=" if move.chance else move.notation[0] + str(len(move.notation))
                    + "+" * ("+" in move.notation) + "T" * ("trio" in told))
            said.setdefault(kind, words)
            mover = "Chance " if move.chance else seat_name(state.current_player) + " "
            assert words.startswith(mover) and words.endswith(".") and "?" not in words
            assert re.search(r"\b(dealt|turned up|drew|discarded|agreed)\b", words), words
            before = state.view(viewer)
            seen = {c.front for c in before.cards()} | {c.back for c in before.cards()}
            state = state.play(move)
            after = state.view(viewer)
            seen |= {c.front for c in after.cards()} | {c.back for c in after.cards()}
            assert all(symbol in seen for symbol in re.findall(
                r"(\w+) (?:face up|face down|towards|on its back)", words)), (told, words)
    assert {"=", "d3", "d2", "d5+", "d4+", "x2", "x3", "a5"} <= set(said), sorted(said)
    assert any(k.endswith("T") for k in said) and said["a5"].endswith(
        "agreed that no more trios can be formed.")


# --- item 6: small truths -------------------------------------------------------------------
def test_an_empty_card_place_cannot_be_chosen():
    w = GameWidget("janus-cards", players=3, seed=4, bot_delay=0, viewpoint=0)
    deal_all(w)
    w.click_key(("card", "B3")) if w.drawing.find(("card", "B3")) else None
    empty = next(r.key for r in w.drawing.regions if r.key[:1] == ("card",)
                 and int(r.key[1][1:]) > w.state.view(0).hand_sizes["ABC".index(r.key[1][0])])
    w.click_key(empty)
    assert "empty place" in w.message and w._selection.take == ()


def test_space_at_the_end_says_why_nothing_plays():
    w = GameWidget("jactus", seed=3, bot_delay=0)
    w.press(" ")
    assert "a person" in w.message and not w.table.autoplaying


def test_the_confirm_box_uses_the_options_labels_and_the_same_move_count():
    w = GameWidget("janus", seed=3, bot_delay=0)
    w.click_key(("button", "lay"))
    w.play(w.state.legal_moves()[0])
    w.variant_controls["toll_fields"].value = "entered"
    text = plain(w.confirm_text.value)
    assert "tolls on every field" in text and "toll_fields=entered" not in text
    assert f"({w.index} moves)" in text
    w.confirm_yes.click()
    assert [label for label, _ in w.previous_box.options][0].endswith(f"{2} moves")


#: One rule option per game, the value to change it to, and how its label says it.
CHANGES = {"janus": ("toll_fields", "entered", "toll fields: tolls on every field"),
           "jactus": ("steal", "centre-empty", "steal: once the centre is empty"),
           "janus-cards": ("deal_peek", "none", "deal peek: only the side facing you"),
           "jinns": ("distance", "height", "distance: pawns moving (height)")}
#: A second option per game, changed once the first is in force.
SECOND = {"janus": ("stuck", "step", "stuck: step one field"),
          "jactus": ("after_decline", "next", "after decline: the next player opens"),
          "janus-cards": ("trio_backs", "shown", "trio backs: open, both sides"),
          "jinns": ("shared_towers", "zero", "shared towers: scores zero")}


@pytest.mark.parametrize("name", games.names())
def test_a_confirm_box_lists_only_the_changed_options_by_their_labels(name):
    w = GameWidget(name, seed=3, bot_delay=0)
    for option, value, said in (CHANGES[name], SECOND[name]):
        if w.state.is_chance:
            w.step()
        else:
            w.play(w.state.legal_moves()[0])
        w.variant_controls[option].value = value
        text = plain(w.confirm_text.value)
        assert text.startswith(f"Start a new game with {said}? Its rules: "), text
        assert "=" not in text and "_" not in text and "squares" not in text, text
        w.confirm_yes.click()
        assert getattr(w.state.variant, option) == value
    heading = plain(w.heading.value)
    assert f"custom ({CHANGES[name][2]}; {SECOND[name][2]})" in heading and "=" not in heading
    assert SECOND[name][2] in plain(w.ruleset_control.about.value)


# --- item 7: random sessions, checked against the record -----------------------------------
def facts_from_record(w: GameWidget) -> dict:
    """What the status line must say, worked out from the record alone (not from the
    table that shows it)."""
    record = w.record
    replay = record.replay()
    replay.switch(w.table.line, w.table.index)
    line = replay.current_line
    engine = line.start.engine
    state = replay.state
    i = replay.index
    while i > 0 and engine.current(line.raw_at(i - 1)) == CHANCE:
        i -= 1
    mover = None
    if i > 0:
        seat = engine.current(line.raw_at(i - 1))
        mover = seat_name(seat) + (" (bot)" if line.by[i - 1].startswith("bot:") else "")
    return {"where": f"move {replay.index}/{len(line)}", "turn": state.current_player,
            "mover": mover, "over": state.current_player == TERMINAL,
            "scores": " · ".join(f"{seat_name(p)} {s:g}" for p, s in
                                 enumerate(state.scores()))}


@pytest.mark.parametrize("name, seed", [(n, s) for n in games.names() for s in (1, 2)])
def test_random_sessions_the_status_line_is_what_the_record_says(name, seed, tmp_path):
    rng = random.Random(seed)
    w = GameWidget(name, seed=seed, bot_delay=0, viewpoint=None)
    game = games.get(name)
    for step in range(45):
        action = rng.choice(["play", "play", "play", "step", "back", "back", "goto",
                             "bot", "human", "load", "ruleset", "line"])
        if action == "play" and not w.state.is_over and not w.state.is_chance and \
                w.state.current_player not in w.bots:
            w.play(rng.choice(w.state.legal_moves()))
        elif action == "step":
            w.step()
        elif action == "back":
            w.back()
        elif action == "goto":
            w.goto(rng.randint(0, w.replay.length))
        elif action == "bot":
            w.set_bot(rng.randrange(w.state.num_players), "random")
        elif action == "human":
            for seat in list(w.bots):
                w.set_bot(seat, None)
        elif action == "load":
            w.load(w.save(tmp_path / f"s{step}.json"))
        elif action == "ruleset" and rng.random() < 0.3:
            w.set_ruleset(rng.choice([r.name for r in game.rulesets()]))
        elif action == "line" and len(w.replay.lines) > 1:
            w.switch_line(rng.randrange(len(w.replay.lines)))
        want = facts_from_record(w)
        status = plain(w.status_line.value)
        assert want["where"] in status, (step, action, status)
        assert want["scores"] in status
        if want["over"]:
            assert "Game over" in status
        elif want["turn"] >= 0:
            kind = "bot" if want["turn"] in w.bots else "human"
            assert f"{seat_name(want['turn'])} to move ({kind})" in status
        if want["mover"] is not None:
            assert f"{want['mover']} played" in w.table.facts(None).last, (step, action)
            assert f"{want['mover']} played" in status

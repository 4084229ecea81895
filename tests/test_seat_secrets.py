"""What a seat's screen and a seat's file give away: nothing that seat may not know
(issue 13 items 1–3). The boundary is the screen (in Voila and hot-seat play it is all
a student has) and the files it saves; code in the kernel sees everything by design.

* Item 1: the seed is never on a seat's screen, in any game (it predicts the chance to
  come); fresh seeds are drawn with ``secrets``.
* Item 2: a seat saves its own record (no seed, no hidden card), which loads to show
  that seat's view and cannot be played on; the teacher saves the full record.
* Item 3: seat A's whole widget surface is the same in every world A cannot tell apart,
  and no number on it is the seed that rebuilds the game.
"""

from __future__ import annotations

import dataclasses
import json
import secrets

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from janus_widgets import games
from janus_widgets.core import TABLE, Record, RecordError, SeatRecord, read_record
from janus_widgets.core.protocol import CHANCE
from janus_widgets.games.janus_cards.rules import JanusCardsVariant
from janus_widgets.widgets.extras import deal_all
from janus_widgets.widgets import GameWidget
from janus_widgets.widgets.surface import numbers_on, surface_text, widget_surface

from helpers import another_world, random_play

SEED = 8_734_219_563_402_117           # long enough never to appear by accident
cards = games.get("janus-cards")


def seed_on(widget, seed: int = SEED) -> list[str]:
    """The places on the widget's surface that show ``seed``."""
    return [f"{where}: {text[:80]}" for where, text in widget_surface(widget)
            if str(seed) in text]


def played(name: str, plies: int = 30, **kwargs) -> GameWidget:
    w = GameWidget(name, seed=SEED, bot_delay=0, **kwargs)
    state = random_play(w.state, plies, 3)
    w.load(state.record())
    return w


# --- item 1: the seed ---------------------------------------------------------------------
@pytest.mark.parametrize("name", games.names())
def test_item1_no_seat_view_shows_the_seed_in_any_game(name):
    fresh = GameWidget(name, seed=1, bot_delay=0, viewpoint=None)
    fresh.seed_box.value = SEED
    fresh.new_button.click()                 # "New game with seed …": the teacher's
    assert str(SEED) in fresh.status_line.value
    fresh.set_viewpoint(0)                   # the message stays, the seed leaves it
    assert seed_on(fresh) == [] and "New game" not in fresh.status_line.value
    w = played(name, viewpoint=None)
    assert seed_on(w), "the teacher's view shows the seed (heading, seed box)"
    for view in ["current"] + list(range(w.state.num_players)):
        w.set_viewpoint(view)
        assert seed_on(w) == [], (view, seed_on(w))
        assert w.seed_box.value == 0 and w.seed_box.layout.display == "none"
        assert "secret" in w.new_button.tooltip
    # New game still works from a seat's view: a fresh secret seed, still not shown.
    w.set_viewpoint(0)
    w.new_button.click()
    fresh = w.state.seed
    assert fresh != SEED and "secret" in w.message and seed_on(w, fresh) == []
    # The earlier games keep their seed out of the list until the teacher looks.
    assert not any(str(SEED) in label for label, _ in w.previous_box.options)
    w.set_viewpoint(None)
    assert any(str(SEED) in label for label, _ in w.previous_box.options)
    assert w.seed_box.value == fresh and seed_on(w, fresh)


def test_item1_fresh_seeds_come_from_secrets(monkeypatch):
    drawn = []

    def randbits(k):
        drawn.append(k)
        return 1234567
    monkeypatch.setattr(secrets, "randbits", randbits)
    assert cards.new().seed == 1234567 and games.get("jactus").new().seed == 1234567
    assert drawn == [63, 63]
    monkeypatch.undo()
    assert len({cards.new().seed for _ in range(20)}) == 20
    assert cards.has_secrets and not games.get("jactus").has_secrets


# --- item 2: a seat's record ----------------------------------------------------------------
def card_game(seed: int = 5, plies: int = 60, **options):
    return random_play(cards.new(JanusCardsVariant(players=3, **options), seed=seed),
                       plies, seed)


@pytest.mark.parametrize("name", games.names())
def test_item2_a_seats_record_holds_its_account_and_no_seed(name, tmp_path):
    game = games.get(name)
    state = random_play(game.new(seed=SEED), 40, 2)
    for seat in (0, 1, TABLE):
        rec = state.record().view(seat)
        data = json.loads(rec.to_json())
        assert "seed" not in data and str(SEED) not in rec.to_json()
        assert data["seat"] == ("table" if seat == TABLE else "AB"[seat])
        assert data["moves"] == state.history_for(seat)
        assert rec.whose == ("the table" if seat == TABLE else f"seat {'AB'[seat]}")
        back = read_record(rec.save(tmp_path / "seat.json"))
        assert isinstance(back, SeatRecord) and back == rec
        cursor = back.replay()
        here = state.start
        for i, action in enumerate([None] + [m.action for m in state.history]):
            if action is not None:
                here = here.play_action(action)
            assert cursor.goto(i).view(seat) == here.view(seat)
        assert (game.has_secrets) == ("views" in data)
        with pytest.raises(RecordError, match="cannot be replayed as the full game"):
            Record.load(tmp_path / "seat.json")


def test_item2_a_seats_record_gives_away_no_hidden_card():
    """A's record is the same file in every world A cannot tell apart: it holds no
    chance outcome A did not see, and B's is not A's."""
    state = card_game(plies=70)
    mine = state.seat_record(0).to_json()
    others = 0
    for k in range(6):
        world = another_world(state, 0, k)
        if world is None:
            continue
        assert world.seat_record(0).to_json() == mine
        if world.raw != state.raw:
            others += 1
            assert world.record().to_json() != state.record().to_json()  # the full ones do
    assert others >= 3
    assert state.seat_record(1).to_json() != mine


@pytest.mark.parametrize("mutate,message", [
    (lambda d: d.update(seed=5), "holds no seed"),
    (lambda d: d.update(seat="Q"), "'seat' is 'Q'"),
    (lambda d: d.update(seat=0), "'seat' is 0"),
    (lambda d: d.update(extra=1), "unknown field 'extra'"),
    (lambda d: d["views"].pop(), "one per position"),
    (lambda d: d["views"][3].update(hands=[]), "view 3 .*one list per seat"),
    (lambda d: d["views"][2]["hands"][0].__setitem__(0, "zz0101"), "view 2 .*'z' is not"),
    (lambda d: d["views"][4].update(unturned=2), "view 4 .*the deck has 66"),
    (lambda d: d["result"].update(scores=[9, 0, 0]), "states the result"),
    (lambda d: d.update(moves="=s/m"), "must be a list"),
    (lambda d: d.update(variant=[1]), "'variant' must be an object"),
])
def test_item2_a_bad_seat_record_is_refused_clearly(mutate, message):
    data = json.loads(card_game().seat_record(0).to_json())
    mutate(data)
    with pytest.raises(RecordError, match=message):
        SeatRecord.from_dict(data)


def test_item2_a_perfect_information_seat_record_replays_its_moves():
    state = random_play(games.get("jactus").new(seed=4), 30, 4)
    data = json.loads(state.seat_record(1).to_json())
    data["views"] = []
    with pytest.raises(RecordError, match="keep no 'views'"):
        SeatRecord.from_dict(data)
    data.pop("views")
    data["moves"][3] = "coin"
    with pytest.raises(RecordError, match="move 3 \\('coin'\\)"):
        SeatRecord.from_dict(data)


def test_item2_the_widget_saves_what_its_view_may_know_and_says_so(tmp_path):
    w = GameWidget("janus-cards", players=3, seed=SEED, bot_delay=0)
    deal_all(w)
    w.play("dB1")
    assert w.viewpoint == "current" and w.save_button.description == "Save the table's record"
    table = read_record(w.save(tmp_path / "table.json"))
    assert isinstance(table, SeatRecord) and table.seat == TABLE
    assert "the table's record" in w.message and "no seed" in w.message
    w.set_viewpoint(1)
    assert w.save_button.description == "Save B's record"
    assert "no seed, no hidden card" in w.save_button.tooltip
    mine = read_record(w.save(tmp_path / "b.json"))
    assert mine.seat == 1 and mine.views[-1] == w.state.engine.view_to_data(w.state.view(1))
    w.set_viewpoint(None)
    assert w.save_button.description == "Save full record"
    assert "seed" in w.save_button.tooltip
    full = read_record(w.save(tmp_path / "full.json"))
    assert isinstance(full, Record) and full.seed == SEED
    assert full.final_state() == w.state


def test_item2_a_loaded_seat_record_shows_that_view_and_cannot_be_played(tmp_path):
    state = card_game(seed=SEED, plies=30, stall_rounds=20)
    n = state.ply
    assert n == 30 and not state.is_over
    path = state.seat_record(2).save(tmp_path / "c.json")
    w = GameWidget("janus-cards", players=3, bot_delay=0, bots={0: "random", 1: "random"})
    w.load(path)
    assert w.seat_mode and w.viewpoint == 2 and w.index == n
    assert "seat C's record" in w.status_line.value and "not playable" in w.status_line.value
    assert [label for label, _ in w.viewpoint_box.options] == ["seat C's record"]
    assert w.state.view(2) == state.view(2)
    # The log reads as every log does: the move's number, who moved, what C was told.
    mover = "ABC"[card_game(seed=SEED, plies=n - 1, stall_rounds=20).current_player]
    assert [label for label, _ in w.move_log.options][-1] == \
        f"{n}. {mover} {state.history_for(2)[-1]}"
    with pytest.raises(RecordError, match="stepped through but not played on"):
        w.play("dB1")
    assert "load its full record" in w.message
    assert not w.step() and "load its full record" in w.message
    w.play_button.click()
    assert w.index == n and w.replay.length == n and w.errors == []
    w.goto(12)
    assert w.state.view(2) == state.start.play_line(
        [m.notation for m in state.history[:12]]).view(2)
    with pytest.raises(ValueError, match="holds that view only"):
        w.set_viewpoint(None)
    w.click_key(("button", "odds"))          # the odds are the seat's own: they work
    assert w.errors == []
    again = read_record(w.save(tmp_path / "again.json"))
    assert again == read_record(path)        # saving writes the same record
    assert w.state.seed is None and str(state.seed) not in surface_text(w)


# --- item 3: the whole surface ---------------------------------------------------------------
VARIANTS = [JanusCardsVariant(players=3), JanusCardsVariant(),
            JanusCardsVariant(players=4, symbols=6, deal_peek="none"),
            JanusCardsVariant(players=3, symbols=5, two_from_pile=True,
                              two_from_one_player=True)]


def seat_a_widget(state, seed: int) -> GameWidget:
    rec = dataclasses.replace(state.record(), seed=seed)  # outcomes are in the record
    return GameWidget("janus-cards", rec.game_obj.variant(rec.variant), viewpoint=0,
                      bot_delay=0, record=rec)


def surfaces(w: GameWidget, plies: list[int]) -> list:
    out = []
    for ply in plies:
        w.goto(ply)
        out.append((widget_surface(w), w.drawing.layers))
    w.last()
    if w.state.view(0).hands[1]:           # the "what can I know?" panel for B's card 1
        w.click_key(("button", "odds"))
        w.click_key(("card", "B1"))
        out.append((widget_surface(w), w.drawing.layers))
    return out


@settings(max_examples=12)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 10**6),
       plies=st.integers(8, 90), redraw=st.integers(0, 10**6))
def test_item3_seat_As_surface_is_the_same_in_every_world_A_cannot_tell_apart(
        variant, seed, plies, redraw):
    state = random_play(cards.new(variant, seed=seed), plies, seed)
    worlds = [w for w in (another_world(state, 0, redraw + k) for k in range(2))
              if w is not None]
    assert worlds, "the view always admits the world itself at least"
    marks = sorted({0, state.ply // 3, state.ply // 2, state.ply})
    mine = surfaces(seat_a_widget(state, seed), marks)
    for k, world in enumerate(worlds):
        theirs = surfaces(seat_a_widget(world, seed + 1 + k), marks)
        assert theirs == mine
    teacher = [widget_surface(GameWidget("janus-cards", variant, seed=seed, bot_delay=0,
                                         viewpoint=None, record=w.record()))
               for w in [state] + worlds]
    if any(w.raw != state.raw for w in worlds):
        assert any(t != teacher[0] for t in teacher[1:])   # the truth does differ


def rebuilds(state, seed: int) -> bool:
    """Whether ``seed`` with the public decisions gives back the whole game: each chance
    point drawn from ``seed``, as the game itself draws it."""
    here = state.game.new(state.variant, seed=seed)
    for move in state.history:
        if here.is_chance:
            here = here.play_chance()
        else:
            if not here.is_legal(move):
                return False
            here = here.play(move)
    return here.raw == state.raw


@pytest.mark.parametrize("view", [0, "current"])
def test_item3_no_number_on_As_screen_is_a_seed_that_rebuilds_the_game(view):
    fresh = cards.new(JanusCardsVariant(players=3))        # its seed drawn with secrets
    secret = fresh.seed
    game = random_play(fresh, 50, 0)                        # chance drawn from it
    assert rebuilds(game, secret)                    # the true seed would rebuild it
    w = GameWidget("janus-cards", game.variant, viewpoint=view, bot_delay=0,
                   record=game.record())
    numbers = numbers_on(widget_surface(w))
    w.set_viewpoint(None)
    assert secret in numbers_on(widget_surface(w))   # the teacher's screen shows it
    assert secret not in numbers and len(numbers) > 20
    assert not any(rebuilds(game, n) for n in numbers if n < 2**63)


def test_item3_the_surface_reads_every_part_of_the_shell():
    """The surface the secrecy tests compare is the whole screen of the shell's parts:
    every part is inside the widget (so the page gets it) and its words are read."""
    w = played("janus-cards", viewpoint=0)

    def inside(widget):
        yield widget
        for child in getattr(widget, "children", ()):
            yield from inside(child)
    tree = [id(x) for x in inside(w)]
    parts = [w.stage.widget, w.stage.canvas, w.stepbar.widget, w.status.widget,
             w.status.live, w.moves.widget, w.game_panel.widget, w.game_panel.confirm_box,
             w.seats.widget, w.records.widget, w.keyboard, w.heading, w.big_button, w.extras]
    assert all(id(part) in tree for part in parts)
    surface = widget_surface(w)
    where = {place for place, _ in surface}
    assert {"Keyboard.label", "LiveRegion.last", "LiveRegion.position", "Tab.titles",
            "drawing.text", "Select._options_labels"} <= where
    texts = [text for _, text in surface]
    for shown in (w.heading.value, w.status_line.value, w.status.live.position,
                  w.save_button.description, *w.drawing.texts()):
        assert shown in texts
    assert w.move_log.options[-1][0] in texts

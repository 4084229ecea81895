"""The Janus card game in the widget shell, driven from Python: one screen passed round
the table (the cover between turns, the public move log), dealing from the canvas,
moves composed by clicks and refused with their rule, the odds mode kept between moves."""

from __future__ import annotations

import re

import pytest

from janus_widgets.core.protocol import TABLE

from janus_widgets.games.janus_cards.draw import Pick, draw, public_view
from janus_widgets.widgets.extras import DEAL_CLASS, deal_all
from janus_widgets.widgets import GameWidget


@pytest.fixture
def widget():
    return GameWidget("janus-cards", players=3, seed=1, bot_delay=0)


def deal_button(w):
    return next(c for c in w.extras.children if DEAL_CLASS in c._dom_classes)


def private_symbols(w, seat):
    """Symbols on the sides only ``seat`` (of all seats) has seen."""
    view = w.state.view(seat)
    return {s for card in view.cards() for s, by in ((card.front, card.front_seen_by),
                                                     (card.back, card.back_seen_by))
            if s is not None and len(by) < view.players}


def test_the_deal_from_the_canvas_and_from_the_button(widget):
    assert widget.viewpoint == "current" and widget.state.phase == "deal"
    # Chance deals: the screen shows what the whole table has seen, nothing private.
    assert widget.view.viewer == TABLE and not widget._selection.covered
    assert deal_button(widget).layout.display == ""
    widget.click_key(("button", "deal"))                     # Click.step: one card
    assert widget.index == 1 and sum(widget.state.hand_sizes) == 1
    assert widget.drawing.find(("button", "deal")) is not None
    deal_button(widget).click()                              # the rest, and the pile
    assert widget.index == 7 and widget.state.phase == "play"
    assert deal_button(widget).layout.display == "none"
    assert "JC-5" in widget.message


def test_hot_seat_the_screen_is_covered_between_turns(widget):
    deal_all(widget)
    # Covered for A: the picture is the public one, nothing only A knows is on it.
    assert widget.drawing.find(("cover",)) is not None
    assert widget.drawing == draw(public_view(widget.state.view(0)),
                                  selection=Pick(covered=True))
    assert private_symbols(widget, 0) and widget.drawing.texts() != draw(
        widget.state.view(0)).texts()
    widget.click_key(("card", "B1"))                        # under the cover: nothing
    assert widget.index == 7 and "A clicks" in widget.message
    widget.click_key(("cover",))
    assert not widget._selection.covered and widget._selection.shown == 0
    assert private_symbols(widget, 0) <= set(widget.drawing.texts())
    widget.click_key(("card", "B1"))
    widget.click_key(("button", "play"))
    assert str(widget.replay.moves[-1]) == "dB1"
    # B's turn: covered again, and A's choice is gone.
    assert widget.state.current_player == 1 and widget._selection.covered
    assert widget._selection.take == () and widget.drawing.find(("cover",)) is not None
    assert widget.drawing == draw(public_view(widget.state.view(1)),
                                  selection=Pick(covered=True))
    assert "Pass the screen to B" in widget.drawing.texts()


def test_agreeing_keeps_the_screen_for_the_same_player(widget):
    deal_all(widget)
    widget.click_key(("cover",))
    widget.click_key(("button", "agree"))
    assert widget.state.agreed == (0,) and widget.state.current_player == 0
    assert not widget._selection.covered                    # A goes on with the turn
    widget.click_key(("button", "agree"))                   # once only (JC-14)
    assert "JC-14" in widget.message and widget.state.agreed == (0,)


def test_refused_compositions_name_their_rule_and_keep_the_choice(widget):
    deal_all(widget)
    widget.set_viewpoint(0)
    assert not widget._selection.covered                    # a fixed seat: no cover
    widget.click_key(("card", "B1"))
    widget.click_key(("card", "B2"))
    widget.click_key(("button", "play"))
    assert "JC-8" in widget.message and widget.index == 7
    assert widget._selection.take == ("B1", "B2")           # kept, to be corrected
    widget.click_key(("card", "C1"))                        # a third card: not a move
    assert widget.message.startswith("JC-8")
    widget.click_key(("card", "C4"))                        # an empty place: no card
    assert "empty place" in widget.message and widget._selection.take == ("B1", "B2")
    widget.click_key(("button", "clear"))
    widget.click_key(("card", "A2"))
    widget.click_key(("card", "A1"))
    widget.click_key(("button", "play"))
    assert str(widget.replay.moves[-1]) == "x21"
    assert widget.state.pile[0] == widget.replay.states[-2].hands[0][0]   # card 1 on top
    # Seat A watches B's turn: A may not act for B (JC-19).
    widget.click_key(("card", "C1"))
    assert widget.message.startswith("JC-19") and widget.index == 8


def test_the_move_log_of_a_screen_passed_round_shows_what_everyone_knows(widget):
    deal_all(widget)
    widget.play("dB1")
    current = [label for label, _ in widget.move_log.options]
    assert current[-1] == "8. A dB1"                          # seats disagree: notation
    assert all("=?/?" not in c for c in current)
    top = widget.state.pile[0][0]                            # turned up for all to see
    assert current[-2] == f"7. chance turned up a card ({top} / ?)"
    # A card dealt: everyone sees the side facing out, nobody but its holder the other.
    for i, entry in enumerate(current[1:7], start=1):
        assert re.fullmatch(rf"{i}\. chance dealt [ABC] a card \(\? / [a-z]+\)", entry), entry
    widget.set_viewpoint(0)
    mine = [label for label, _ in widget.move_log.options]
    assert mine[-1].startswith("8. A dB1 (A3: ")
    assert any("card (? / " in m for m in mine[1:7])           # others' deals masked
    widget.set_viewpoint(None)
    assert [label for label, _ in widget.move_log.options][-1].count("|") == 1


def test_the_odds_mode_is_kept_from_move_to_move(widget):
    deal_all(widget)
    widget.set_viewpoint(0)
    widget.click_key(("button", "odds"))
    widget.click_key(("card", "B2"))
    assert widget._selection.inspect == "B2"
    view = widget.state.view(0)
    from janus_widgets.games.janus_cards.draw import odds_texts
    for text in odds_texts(view.other_side_odds("B2")).values():
        assert text in widget.drawing.texts()
    widget.click_key(("button", "odds"))
    widget.click_key(("card", "B1"))
    widget.click_key(("button", "play"))
    widget.click_key(("button", "odds"))
    assert widget._selection.odds
    widget.forward()
    widget.back()
    assert widget._selection.odds and widget._selection.inspect is None


def test_one_canvas_message_per_click_and_per_move(widget, sent):
    deal_all(widget)
    before = len(sent)
    widget.click_key(("cover",))
    widget.click_key(("card", "B1"))
    widget.click_key(("button", "play"))
    assert len(sent) == before + 3


def test_bots_reply_and_the_screen_returns_covered(widget):
    widget.set_bot(1, "random")
    widget.set_bot(2, "random")
    deal_all(widget)
    widget.click_key(("cover",))
    widget.click_key(("card", "B1"))
    widget.click_key(("button", "play"))
    assert widget.state.current_player == 0 or widget.state.is_over
    assert widget.index > 9 and widget._selection.covered


def test_select_at_a_chance_point_and_step_back_through_the_deal(widget):
    moves = widget.state.legal_moves()
    assert moves[0].chance
    widget.select(moves[0])
    assert widget.options_list.value is None
    assert widget.drawing.layers["highlight"]               # the deal button outlined
    deal_all(widget)
    widget.goto(3)
    widget.click_key(("button", "deal"))                     # steps the recorded deal
    assert widget.index == 4 and widget.replay.length == 7
    assert widget.errors == []


def test_abuse_never_raises_to_the_user():
    """Hundreds of random clicks, viewpoints and steps back: no traceback, a game that
    moves on, and every picture drawn from the viewpoint's view."""
    from janus_widgets.core import RandomStream
    from janus_widgets.games.janus_cards.draw import HEIGHT, WIDTH
    w = GameWidget("janus-cards", players=4, seed=9, bot_delay=0)
    deal_all(w)
    stream = RandomStream(5)
    said = set()
    for _ in range(150):
        region = stream.choice(w.drawing.regions)
        if stream.below(3):
            w.click(*region.center())                       # mostly on something
        else:
            w.click(stream.below(WIDTH), stream.below(HEIGHT))
        if stream.below(25) == 0:
            w.back_button.click()
        if stream.below(30) == 0:
            w.viewpoint_box.value = stream.choice(["everything", "current", 0, 1, 2, 3])
        said.add(w.message.split(" ")[0])
    assert w.errors == []
    assert {"Refused", "A", "JC-19:"} <= said        # refusals, moves, out of turn

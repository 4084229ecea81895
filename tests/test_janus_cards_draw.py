"""The Janus card game canvas, pure: regions, highlights, clicks, the cover, the odds
panel, and above all that a seat's picture holds nothing the seat's view does not.

The drawing functions get a view (``state.view(seat)``); these tests check that
redrawing what a seat cannot see (``engine.determinize``) leaves its picture identical,
that each card shows exactly the sides its viewer knows (and the teacher's picture both
sides of every card), and that clicks compose the moves a player means, legal or not,
so the shell can name the rule that refuses them (JC-7 … JC-14, JC-19, JC-20).
"""

from __future__ import annotations

import re

from fractions import Fraction

import pytest

from janus_widgets import games
from janus_widgets.core import RandomStream
from janus_widgets.games.janus_cards import draw as D
from janus_widgets.games.janus_cards.draw import Pick, click, fresh_selection, highlight
from janus_widgets.games.janus_cards.rules import JanusCardsVariant, position
from janus_widgets.games.janus_cards.tables import AGREE, SYMBOL_CODES, SYMBOL_NAMES
from janus_widgets.drawing import Rect, Text, render_svg

from helpers import random_play, walk

cards = games.get("janus-cards")
NAMES = set(SYMBOL_NAMES)


# --- helpers -----------------------------------------------------------------------
def played(seed: int = 2, plies: int = 30, **options):
    """A state after a seeded random game (agreeing left out), chance played out."""
    state = random_play(cards.new(seed=seed, **options), plies, seed, avoid=["agree"])
    while state.is_chance:
        state = state.play_chance()
    return state


def texts_in(d, region, half: int | None = None) -> list[str]:
    """The texts drawn inside a region (``half`` 0 / 1: its top / bottom half)."""
    x, y, w, h = region.geometry
    if half is not None:
        h /= 2
        y += half * h
    return [s.text for layer in d.layers.values() for s in layer
            if isinstance(s, Text) and x <= s.x <= x + w and y <= s.y <= y + h]


def halves(d, region) -> tuple[str | None, str | None]:
    """The symbol named on each half of a card (``None``: a "?" back)."""
    out = []
    for half in (0, 1):
        inside = texts_in(d, region, half)
        names = [t for t in inside if t in NAMES]
        assert len(names) + inside.count("?") == 1, inside
        out.append(names[0] if names else None)
    return out[0], out[1]


def symbols_in(d, region) -> set[str]:
    return {t for t in texts_in(d, region) if t in NAMES}


def card_regions(d):
    return [r for r in d.regions if r.key[0] == "card" or r.key == ("pile",)]


def exists(view, key) -> bool:
    if key == ("pile",):
        return view.pile_top is not None
    seat, slot = "ABCDEF".index(key[1][0]), int(key[1][1]) - 1
    return slot < view.hand_sizes[seat]


SELECTIONS = [None, Pick(covered=True), Pick(odds=True, inspect="next")]

VARIANTS = [JanusCardsVariant(), JanusCardsVariant(players=3, deal_peek="none"),
            JanusCardsVariant(players=6), JanusCardsVariant(players=2, symbols=4),
            JanusCardsVariant(players=3, symbols=5, two_from_pile=True,
                              two_from_one_player=True)]


# --- NO LEAK -----------------------------------------------------------------------
@pytest.mark.parametrize("variant", VARIANTS, ids=[v.describe() for v in VARIANTS])
def test_no_leak_redrawing_what_a_seat_cannot_see_changes_nothing_in_its_picture(variant):
    """For many positions and every seat: the seat's picture (every shape, every text,
    every region, the SVG; plain, covered, and with the odds of unseen sides shown) is
    the same in every world that seat cannot tell apart, while the teacher's picture of
    those worlds does change."""
    engine = cards.engine(variant)
    stream = RandomStream(7)
    looked = differs = 0
    for seed in range(12):
        for ply, (raw, _) in enumerate(walk(engine, seed, 90, rare=AGREE, one_in=8,
                                            ended=True)):
            if ply % 11 != 5:
                continue
            teacher = render_svg(D.draw(engine.view_raw(raw, None)))
            for seat in range(engine.num_players):
                view = engine.view_raw(raw, seat)
                other = engine.determinize(view, stream)
                again = engine.view_raw(other, seat)
                unseen = [c.ref for c in view.cards() if not c.known
                          and c.ref[0] != "T" and (c.ref[0] != "P" or c.ref == "P1")]
                picks = SELECTIONS + [Pick(odds=True, inspect=stream.choice(unseen))
                                      for _ in range(2) if unseen]
                for pick in picks:
                    mine, theirs = D.draw(view, selection=pick), D.draw(again, selection=pick)
                    assert mine.texts() == theirs.texts()
                    assert mine == theirs                 # every shape and region
                mine, theirs = D.draw(view), D.draw(again)
                assert render_svg(mine) == render_svg(theirs)
                looked += 1
                differs += render_svg(D.draw(engine.view_raw(other, None))) != teacher
        if looked >= 60:
            break
    assert looked >= 30
    assert differs > looked // 3          # the redrawn worlds really are different


@pytest.mark.parametrize("variant", VARIANTS[:3], ids=[v.describe() for v in VARIANTS[:3]])
def test_no_leak_each_card_shows_exactly_the_sides_its_viewer_knows(variant):
    """Every card drawn for a seat names the symbols of the sides that seat has seen and
    no other; an unseen side is a card back with "?". The teacher's picture names both
    sides of every card."""
    engine = cards.engine(variant)
    checked = unseen = 0
    for seed in range(2):
        for ply, (raw, _) in enumerate(walk(engine, seed, 100, rare=AGREE, one_in=8,
                                            ended=True)):
            if ply % 7 != 3:
                continue
            for seat in [None, *range(engine.num_players)]:
                view = engine.view_raw(raw, seat)
                d = D.draw(view)
                for region in card_regions(d):
                    if not exists(view, region.key):
                        assert symbols_in(d, region) == set()
                        continue
                    card = view.pile_top if region.key == ("pile",) else view.card(
                        region.key[1])
                    # Top half: the holder's side (face up); bottom: the others' side.
                    assert halves(d, region) == (card.front, card.back), (seat, region.key)
                    hidden = (card.front is None) + (card.back is None)
                    if seat is None:
                        assert hidden == 0 and card.front and card.back
                    unseen += hidden
                    checked += 1
    assert checked > 200 and unseen > 50


def test_no_leak_the_covered_screen_shows_only_what_every_seat_has_seen():
    state = played(seed=4, plies=14, players=4)
    private = 0
    for seat in range(4):
        view = state.view(seat)
        public = D.public_view(view)
        d = D.draw(view, selection=Pick(covered=True))
        private += len(D.draw(view).texts()) > len(d.texts())
        for region in card_regions(d):
            if exists(view, region.key):
                card = view.pile_top if region.key == ("pile",) else view.card(region.key[1])
                everyone = {s for s, by in ((card.front, card.front_seen_by),
                                            (card.back, card.back_seen_by))
                            if s is not None and len(by) == 4}
                assert symbols_in(d, region) == everyone
        # The same public picture whoever is next: nothing of any one seat is on it,
        # except who is to move.
        assert D.draw(public, selection=Pick(covered=True)).texts() == d.texts()
    pictures = {render_svg(D.draw(state.view(s), selection=Pick(covered=True)))
                for s in range(4)}
    assert len(pictures) == 1
    assert private == 4                    # every seat knows more than the table


def test_the_teacher_picture_shows_both_sides_and_seats_see_less():
    state = position(hands=[["s/m", "k/f"], ["h/c", "l/b"], ["t/r"]], pile=["w/w"],
                     to_move=0)
    teacher = D.draw(state.view(None))
    for ref, sides in {"A1": {"sun", "moon"}, "B1": {"heart", "crown"},
                       "B2": {"leaf", "bell"}, "C1": {"tree", "ring"}}.items():
        assert symbols_in(teacher, teacher.find(("card", ref))) == sides
    seat_a = D.draw(state.view(0))
    assert symbols_in(seat_a, seat_a.find(("card", "A1"))) == {"sun"}    # A's own side
    assert symbols_in(seat_a, seat_a.find(("card", "B1"))) == {"crown"}  # the side A sees
    assert "heart" not in seat_a.texts() and "moon" not in seat_a.texts()
    assert "heart" in teacher.texts()


# --- every region ---------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_region_is_drawn_where_the_geometry_says(players):
    state = played(seed=players, plies=12, players=players,
                   symbols=4 if players == 2 else 11)
    view = state.view(state.current_player)
    d = D.draw(view, selection=Pick(shown=state.current_player))
    keys = [r.key for r in d.regions]
    assert len(keys) == len(set(keys)), "one region per key"
    for seat in range(players):
        for slot in range(4):
            region = d.find(("card", f"{'ABCDEF'[seat]}{slot + 1}"))
            assert region is not None
            assert region.geometry[:2] == pytest.approx(
                (D.card_origin(players, seat, slot)[0] - 1,
                 D.card_origin(players, seat, slot)[1] - 1), abs=1.01)
            x, y = region.geometry[:2]
            assert 0 <= x and x + region.geometry[2] <= D.WIDTH
            assert 0 <= y and y + region.geometry[3] <= D.HEIGHT
    for key in [("pile",), ("unseen",), ("button", "play"), ("button", "agree"),
                ("button", "clear"), ("button", "odds")]:
        assert key in keys, key
    assert ("cover",) not in keys and ("button", "deal") not in keys
    # No two card regions overlap.
    rects = [r.geometry for r in d.regions if r.key[0] == "card"]
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            assert a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or \
                a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1]


def test_regions_at_the_deal_the_end_and_under_the_cover():
    start = cards.new(seed=1, players=3)
    d = D.draw(start.view(None))
    assert d.find(("button", "deal")) and not d.find(("button", "play"))
    assert any(t.startswith("Dealing: 0 of 6 cards dealt") for t in d.texts())
    covered = D.draw(start.view(None), selection=Pick(covered=True))
    assert covered.find(("button", "deal")) and not covered.find(("cover",))
    state = played(seed=5, plies=20, players=3)
    d = D.draw(state.view(state.current_player), selection=Pick(covered=True))
    assert d.find(("cover",)) and not d.find(("button", "play"))
    assert f"Pass the screen to {'ABC'[state.current_player]}" in d.texts()
    over = state.play("agree")
    while not over.is_over:
        over = over.play("agree") if "agree" in over.legal_moves() else over.play(
            over.legal_moves()[0])
    d = D.draw(over.view(0))
    assert not d.find(("button", "play")) and d.find(("button", "odds"))
    assert any(t.startswith("Game over (agreed)") for t in d.texts())
    cover = D.draw(over.view(None), selection=Pick(covered=True))
    assert cover.find(("cover",)) and "Show every card" in cover.texts()


# --- highlights -------------------------------------------------------------------------
def test_every_legal_move_highlights_regions_that_exist():
    for players, seed in [(3, 1), (4, 2), (6, 3)]:
        state = played(seed=seed, plies=10, players=players, two_from_pile=True,
                       two_from_one_player=True)
        view = state.view(state.current_player)
        plain = D.draw(view)
        for move in state.legal_moves():
            keys = highlight(view, move)
            assert keys, move
            for key in keys:
                assert plain.find(key) is not None, (move, key)
            d = D.draw(view, highlights=keys)
            assert len(d.layers["highlight"]) == len(keys)
            assert all(isinstance(s, Rect) and s.dash for s in d.layers["highlight"])


def test_highlight_names_the_cards_of_a_move():
    state = position(hands=[["s/m", "k/f"], ["h/c", "l/b"], ["t/r"]], pile=["w/w"])
    view = state.view(0)
    assert highlight(view, state.parse("dB2+P")) == (("card", "B2"), ("pile",),
                                                     ("button", "play"))
    assert highlight(view, state.parse("x21")) == (("card", "A2"), ("card", "A1"),
                                                   ("button", "play"))
    assert highlight(view, state.parse("agree")) == (("button", "agree"),)
    chance = cards.new(seed=0)
    assert highlight(chance.view(None), chance.legal_moves()[0]) == (("button", "deal"),)


# --- clicks compose the move ----------------------------------------------------------------
@pytest.fixture
def table():
    return position(hands=[["s/m", "k/f"], ["h/c", "l/b"], ["t/r"]], pile=["w/w"],
                    to_move=0)


def clicks(view, *keys, pick=None):
    result = None
    for key in keys:
        result = click(view, pick, key)
        pick = result.selection
    return result


def test_click_others_cards_and_the_pile_to_draw(table):
    view = table.view(0)
    assert clicks(view, ("card", "B2"), ("button", "play")).move == "dB2"
    assert clicks(view, ("pile",), ("card", "C1"), ("button", "play")).move == "dC1+P"
    assert clicks(view, ("card", "C1"), ("card", "B1"), ("button", "play")).move == "dB1+C1"
    # A second click puts a card back.
    assert clicks(view, ("card", "B1"), ("card", "C1"), ("card", "B1"),
                  ("button", "play")).move == "dC1"
    # The picture says what is chosen.
    pick = clicks(view, ("card", "B2"), ("pile",)).selection
    d = D.draw(view, selection=pick)
    assert says(d, "B2", "draw") and says(d, "P1", "draw")
    assert "Draw B2 + pile" in d.texts()


def says(d, *lines: str) -> bool:
    """Whether the drawing writes these lines one under the other (a card's label: its
    name, then what the pick does with it)."""
    texts = d.texts()
    return any(texts[i:i + len(lines)] == list(lines) for i in range(len(texts)))


def test_click_own_cards_to_discard_in_order(table):
    view = table.view(0)
    assert clicks(view, ("card", "A2"), ("button", "play")).move == "x2"
    assert clicks(view, ("card", "A2"), ("card", "A1"), ("button", "play")).move == "x21"
    pick = clicks(view, ("card", "A2"), ("card", "A1")).selection
    d = D.draw(view, selection=pick)
    assert says(d, "A2", "1st") and says(d, "A1", "2nd, top")
    assert "Discard 2 then 1" in d.texts()
    # Choosing a card to draw drops the discards, and the other way round.
    assert clicks(view, ("card", "A1"), ("card", "B1")).selection.drop == ()
    assert clicks(view, ("card", "B1"), ("card", "A1")).selection.take == ()


def test_illegal_compositions_still_make_the_move(table):
    """Moves the rules refuse are produced all the same: the shell names the rule."""
    view = table.view(0)
    assert clicks(view, ("card", "B1"), ("card", "B2"), ("button", "play")).move == "dB1+B2"
    # An empty place cannot be chosen at all (issue 25): the click says so ...
    empty = clicks(view, ("card", "C3"), ("button", "play"))
    assert empty.move is None and empty.selection.take == ()
    assert "C3 is an empty place" in click(view, None, ("card", "C3")).message
    assert "A4 is an empty place" in click(view, None, ("card", "A4")).message
    # ... and the moves it would have made are still refused by their rules.
    for move, rule in [("dB1+B2", "JC-8"), ("dC3", "JC-8"), ("x4", "JC-11")]:
        assert table.explain(move).rule == rule and not table.is_legal(move)


def test_clicks_that_are_not_moves_say_why(table):
    view = table.view(0)
    three = clicks(view, ("card", "B1"), ("card", "C1"), ("pile",))
    assert three.move is None and three.message.startswith("JC-8")
    assert three.selection.take == ("B1", "C1")
    third = clicks(view, ("card", "A1"), ("card", "A2"), ("card", "A3"))   # A holds two
    assert "empty place" in third.message and third.selection.drop == (0, 1)
    nothing = click(view, None, ("button", "play"))
    assert nothing.move is None and nothing.message.startswith("JC-7")
    assert click(view, None, ("button", "agree")).move == "agree"
    assert clicks(view, ("card", "B1"), ("button", "clear")).selection.take == ()
    # Seat B looks while A is to move: B may not act (JC-19).
    other = click(table.view(1), None, ("card", "A1"))
    assert other.move is None and other.message.startswith("JC-19")
    assert click(table.view(1), None, ("button", "agree")).move is None


def test_two_from_the_pile_when_the_variant_allows(table):
    variant = JanusCardsVariant(players=3, two_from_pile=True)
    state = position(variant, hands=[["s/m"], ["h/c"], ["t/r"]], pile=["w/w", "k/f"])
    view = state.view(0)
    assert clicks(view, ("pile",), ("pile",), ("button", "play")).move == "dP+P"
    assert says(D.draw(view, selection=clicks(view, ("pile",), ("pile",)).selection),
                "P1, P2", "draw")
    assert clicks(view, ("pile",), ("pile",), ("pile",)).selection.take == ()
    assert clicks(table.view(0), ("pile",), ("pile",)).selection.take == ()


def test_chance_and_the_end_only_step_or_explain():
    start = cards.new(seed=1, players=3)
    assert click(start.view(None), None, ("button", "deal")).step
    assert click(start.view(None), Pick(covered=True), ("button", "deal")).step
    refused = click(start.view(None), None, ("card", "A1"))
    assert refused.move is None and "JC-19" in refused.message
    state = position(hands=[["s/m"], ["h/c"]], pile=["w/w"], agreed=[0], to_move=1)
    over = state.play("agree")
    assert over.is_over
    end = click(over.view(0), None, ("card", "B1"))
    assert end.move is None and end.message.startswith("JC-20")


def test_the_cover_lets_only_the_next_player_lift_it(table):
    view = table.view(0)
    covered = Pick(covered=True)
    lifted = click(view, covered, ("cover",)).selection
    assert not lifted.covered and lifted.shown == 0
    for key in [("card", "B1"), ("button", "play"), ("pile",), None]:
        result = click(view, covered, key)
        assert result.move is None and not result.step and result.selection.covered
    assert "A clicks" in click(view, covered, ("card", "B1")).message


def test_fresh_selection_covers_the_screen_between_turns_only_when_passed_round(table):
    view_a, view_b = table.view(0), table.view(1)
    assert fresh_selection(view_a, "current", None).covered
    open_a = Pick(shown=0)
    assert not fresh_selection(view_a, "current", open_a).covered   # A goes on (agree)
    assert fresh_selection(view_b, "current", open_a).covered       # B's turn now
    assert not fresh_selection(view_b, 1, None).covered             # a fixed seat
    assert not fresh_selection(table.view(None), None, None).covered
    assert fresh_selection(view_b, "current", Pick(odds=True)).odds
    assert fresh_selection(view_b, 1, Pick(odds=True, take=("C1",))).take == ()


# --- the "what can I know?" panel --------------------------------------------------------
def test_the_odds_panel_shows_exact_fractions_of_the_view():
    state = position(hands=[["s/m"], []], pile=["k/f"])
    view = state.view(0)
    pick = clicks(view, ("button", "odds"), ("card", "A1")).selection
    assert pick.odds and pick.inspect == "A1"
    d = D.draw(view, selection=pick)
    odds = view.other_side_odds("A1")
    assert odds["sun"] == Fraction(24, 143)                 # worked in the hidden tests
    texts = D.odds_texts(odds)
    for symbol, p in odds.items():
        assert texts[symbol] in d.texts()
        assert f"{SYMBOL_CODES[SYMBOL_NAMES.index(symbol)]} {symbol}" in d.texts()
    assert "24/143" in d.texts() and "12/143" in d.texts()    # one denominator: 143
    # A second click on the card closes the panel; the mode stays on.
    again = click(view, pick, ("card", "A1")).selection
    assert again.odds and again.inspect is None
    # The next card to turn up.
    nxt = D.draw(view, selection=click(view, pick, ("unseen",)).selection)
    unturned = view.unturned_odds()
    assert all(t in nxt.texts() for t in D.odds_texts(unturned).values())
    assert not any(re.fullmatch(r"\d{5,}/\d+", t) for t in nxt.texts())   # nothing long
    # In the mode, clicking cards asks about them instead of choosing them.
    assert clicks(view, ("button", "odds"), ("card", "B1"),
                  ).message.startswith("B1 is an empty place")


def test_a_known_side_has_probability_one():
    state = position(hands=[["s/m"], ["h/c"]], pile=["k/f"], remembered={0: ["B1"]})
    view = state.view(0)
    d = D.draw(view, selection=Pick(odds=True, inspect="B1"))
    assert any("(probability 1)" in t for t in d.texts())
    assert any(t.startswith("Known: crown / heart") for t in d.texts())


def test_odds_in_one_panel_share_a_denominator_or_are_decimals():
    assert D.odds_texts({"a": Fraction(1, 6), "b": Fraction(1, 3), "c": Fraction(1, 2)}) == {
        "a": "1/6", "b": "2/6", "c": "3/6"}
    long = D.odds_texts({"a": Fraction(153070, 1501287), "b": Fraction(1348217, 1501287)})
    assert long == {"a": "0.102", "b": "0.898"}


# --- colour is never the only cue ----------------------------------------------------
def test_every_known_side_carries_its_letter_and_name():
    state = position(hands=[["s/m", "k/f", "l/b"], ["h/c", "w/r"], ["t/t"]],
                     pile=["w/w"])
    d = D.draw(state.view(None))
    for region in card_regions(d):
        if not exists(state.view(None), region.key):
            continue
        inside = texts_in(d, region)
        names = [t for t in inside if t in NAMES]
        letters = [t for t in inside if t in SYMBOL_CODES]
        assert len(names) == 2 and [SYMBOL_CODES[SYMBOL_NAMES.index(n)] for n in names] \
            == letters

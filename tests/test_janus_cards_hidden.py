"""Hidden information in the Janus card game: what each seat may see, and nothing more.

Everything a player, a bot or a widget gets comes from ``state.view(seat)``.
These tests redraw what a seat cannot see (``Engine.determinize``) and check
that nothing the seat is shown changes: its view, the text and repr of the
view, the legal moves, their notation, descriptions and explanations. They
check the odds against a brute-force count over every way the game could have
gone, the history each seat is told against its views, and that the teacher's
view shows everything. Rule IDs from seeds/janus-cards.md (JC-3, JC-5, JC-13).
"""

from __future__ import annotations

import dataclasses
import re
from collections import defaultdict
from fractions import Fraction

import pytest

from janus_widgets import games
from janus_widgets.core import RandomStream
from janus_widgets.games.janus_cards.rules import JanusCardsVariant, _locate, position
from janus_widgets.games.janus_cards.tables import (AGREE, CARDS, CHANCE_BASE, DEAL,
                                                    NUM_ACTIONS, PLAY, REVEAL, SIDE_SYMBOL,
                                                    SYMBOL_CODES, SYMBOL_NAMES)
from janus_widgets.games.janus_cards.views import (BACK, FRONT, CardsView, LaidTrio, NoTrio,
                                                   SeenCard)

from helpers import walk

cards = games.get("janus-cards")

VARIANTS = [JanusCardsVariant(), JanusCardsVariant(players=3),
            JanusCardsVariant(players=3, symbols=5, trio_backs="shown"),
            JanusCardsVariant(players=6, deal_peek="none"),
            JanusCardsVariant(players=3, symbols=5, two_from_pile=True,
                              two_from_one_player=True),
            JanusCardsVariant(players=4, symbols=4, deal_peek="none"),
            JanusCardsVariant(players=2, symbols=3)]
IDS = [v.describe() for v in VARIANTS]


def final(engine, seed: int, plies: int):
    raw = engine.initial()
    history = []
    for raw, action in walk(engine, seed, plies, rare=AGREE):
        history.append(action)
    raw = engine.initial()
    for action in history:
        raw = engine.apply(raw, action)
    return raw, history


# --- a seat's view does not change when what it cannot see is redrawn -------------
@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_redrawing_the_unseen_changes_nothing_a_seat_is_shown(variant):
    engine = cards.engine(variant)
    stream = RandomStream(99)
    redrawn = 0
    looked = 0
    for seed in range(3):
        for ply, (raw, _) in enumerate(walk(engine, seed, 90, rare=AGREE)):
            if ply % (2 + engine.num_players // 2):
                continue
            teacher = engine.view_raw(raw, None)
            for seat in range(engine.num_players):
                view = engine.view_raw(raw, seat)
                other = engine.determinize(view, stream)
                engine.check_invariants(other)
                again = engine.view_raw(other, seat)
                assert again == view
                assert str(again) == str(view) and repr(again) == repr(view)
                looked += 1
                redrawn += engine.view_raw(other, None) != teacher
                if raw[0] != PLAY:
                    continue
                # The legal moves and everything said about them are public.
                assert engine.actions(other) == engine.actions(raw) == view.legal_actions
                for action in engine.actions(raw):
                    assert engine.notation(other, action) == engine.notation(raw, action)
                    assert engine.describe(other, action) == engine.describe(raw, action)
                    assert engine.explain(other, action) == engine.explain(raw, action)
                for action in range(0, NUM_ACTIONS, 7):
                    assert engine.explain(other, action) == engine.explain(raw, action)
    assert looked >= 20
    # The redrawing really redraws: most positions come back different.
    assert redrawn > looked // 3


def test_views_hold_only_plain_public_data():
    state = cards.new(seed=3)
    while state.is_chance:
        state = state.play_chance()
    view = state.view(1)
    assert not hasattr(view, "raw")
    # The view names its engine (bots search with it); an engine is one per variant
    # and holds rules and tables, never a position.
    assert view.engine is state.engine is cards.engine(state.variant)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.stall = 3  # type: ignore[misc]

    def check(value):
        if isinstance(value, (SeenCard, LaidTrio, NoTrio)):
            for f in dataclasses.fields(value):
                check(getattr(value, f.name))
        elif isinstance(value, tuple):
            for item in value:
                check(item)
        else:
            assert value is None or isinstance(value, (str, int, bool)), value

    for f in dataclasses.fields(view):
        if f.name not in ("variant", "engine"):
            check(getattr(view, f.name))
    assert view.variant == state.variant
    assert hash(view) == hash(state.view(1))


# --- the holder never learns its own far side -----------------------------------
def _faces(raw, seat, variant):
    """The sides facing ``seat`` in ``raw``: its fronts, other hands' backs, the
    pile's up sides, the laid trios' symbol sides (both sides when trios lie open,
    trio_backs="shown"; JC-12)."""
    out = set()
    for p, hand in enumerate(raw[2]):
        out.update(s if p == seat else s ^ 1 for s in hand)
    out.update(raw[3])
    for _, _, laid in raw[6]:
        out.update(s for x in laid
                   for s in ((x, x ^ 1) if variant.trio_backs == "shown" else (x,)))
    return out


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_JC13_a_seat_knows_exactly_the_sides_that_have_faced_it(variant):
    """Knowledge recomputed from first principles, step by step, matches the views."""
    engine = cards.engine(variant)
    look = variant.deal_peek == "look"
    for seed in range(3):
        seen = [set() for _ in range(engine.num_players)]
        for raw, action in walk(engine, seed, 150, rare=AGREE):
            after = engine.apply(raw, action)
            laid = after[6][len(raw[6]):]               # a trio laid by this move
            for seat in range(engine.num_players):
                seen[seat] |= _faces(after, seat, variant)
                if laid and seat != raw[1]:
                    # Drawn into the layer's hand before the trio was laid: for that
                    # moment the cards' far sides faced everyone else (JC-9, JC-12).
                    seen[seat] |= {x ^ 1 for _, _, cards in laid for x in cards}
                if engine.is_chance_action(action):
                    side = action - CHANCE_BASE
                    if raw[0] == REVEAL:
                        seen[seat].add(side)          # it turned up for all to see
                    elif raw[0] == DEAL and look and raw[1] == seat:
                        seen[seat].add(side ^ 1)      # JC-5: the dealt card's back
            everyone = range(engine.num_players)
            for seat in everyone:
                view = engine.view_raw(after, seat)
                for card in view.cards():
                    side = _side_at(after, card.ref)
                    assert (card.front is not None) == (side in seen[seat]), card
                    assert (card.back is not None) == (side ^ 1 in seen[seat]), card
                    if card.front is not None:
                        assert card.front == SYMBOL_NAMES[SIDE_SYMBOL[side]]
                    if card.back is not None:
                        assert card.back == SYMBOL_NAMES[SIDE_SYMBOL[side ^ 1]]
                    assert card.front_seen_by == tuple(p for p in everyone if side in seen[p])
                    assert card.back_seen_by == tuple(p for p in everyone
                                                      if side ^ 1 in seen[p])


def _side_at(raw, ref):
    letter, rest = ref[0], ref[1:]
    if letter == "P":
        return raw[3][-int(rest)]
    if letter == "T":
        return raw[6][int(rest[:-1]) - 1][2]["abc".index(rest[-1])]
    return raw[2]["ABCDEF".index(letter)][int(rest) - 1]


def test_JC5_without_the_exception_nobody_knows_their_dealt_backs():
    state = cards.new(seed=8, deal_peek="none", players=5)
    while state.is_chance:
        state = state.play_chance()
    for seat in range(5):
        own = state.view(seat).hands[seat]
        assert all(card.front and card.back is None for card in own)
        assert all(card.back_seen_by == tuple(p for p in range(5) if p != seat)
                   for card in own)


# --- the teacher sees everything --------------------------------------------------
def test_the_teacher_view_shows_both_sides_of_every_card():
    engine = cards.engine(JanusCardsVariant(players=4, symbols=6))
    stream = RandomStream(4)
    for raw, _ in walk(engine, 2, 80, rare=AGREE):
        view = engine.view_raw(raw, None)
        assert all(card.known for card in view.cards())
        assert len(view.unturned_cards) == view.unturned == len(raw[4])
        assert sorted(tuple(sorted(p)) for p in view.unturned_cards) == sorted(
            tuple(sorted((SYMBOL_NAMES[a], SYMBOL_NAMES[b]))) for a, b in
            (CARDS[c] for c in raw[4]))
        assert len(list(view.cards())) + view.unturned == 21
        back = engine.determinize(view, stream)
        assert engine.view_raw(back, None) == view and back[4] == raw[4]
        for card in view.cards():
            assert list(view.other_side_odds(card.ref).values()) == [1]


# --- what each seat is told of the history ----------------------------------------
_FACT = re.compile(r"([A-FPT]\d+[abc]?): ([a-z]+)")


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_history_for_a_seat_names_only_what_faces_it(variant):
    engine = cards.engine(variant)
    for seed in range(3):
        for raw, action in walk(engine, seed, 120, rare=AGREE):
            after = engine.apply(raw, action)
            for seat in range(engine.num_players):
                told = engine.observed(raw, action, seat)
                view = engine.view_raw(after, seat)
                if engine.is_chance_action(action):
                    side = action - CHANCE_BASE
                    ref, stored, _ = _locate(after, side >> 1, seat)
                    card = view.card(ref)
                    front, back = (card.front, card.back) if stored == side else \
                        (card.back, card.front)
                    code = {None: "?", **{n: c for n, c in zip(SYMBOL_NAMES, SYMBOL_CODES)}}
                    assert told == f"={code[front]}/{code[back]}"
                    continue
                assert told.startswith(engine.notation(raw, action))
                for ref, symbol in _FACT.findall(told):
                    assert view.shown(ref) == symbol, (told, ref)


def test_history_for_seats_masks_the_deal():
    state = cards.new(seed=0, players=2, symbols=3).play_line(["=s/m", "=h/h", "=m/h",
                                                               "=s/s", "=m/m"])
    assert state.history_for(0) == ["=s/m", "=?/h", "=m/h", "=?/s", "=m/?"]
    assert state.history_for(1) == ["=?/m", "=h/h", "=?/h", "=s/s", "=m/?"]
    assert state.history_for(None) == [m.notation for m in state.history]
    state = state.play("dB1")
    assert state.history_for(0)[-1] == "dB1 (A3: heart)"
    assert state.history_for(1)[-1] == "dB1 (A3: heart)"
    assert state.history_for(None)[-1] == "dB1 (A3: heart|heart)"
    none = cards.new(seed=0, players=2, symbols=3, deal_peek="none").play("=s/m")
    assert none.history_for(0) == ["=s/?"] and none.history_for(1) == ["=?/m"]
    assert none.record().view(1).moves == ("=?/m",)


# --- brute force: every way the game could have gone -------------------------------
def _twins(engine, history, seat):
    """Every final raw state reachable by the same decisions and any chance outcomes
    whose views for ``seat`` equal the true ones at every ply, with its probability."""
    variant = engine.variant
    true = [engine.initial()]
    for action in history:
        true.append(engine.apply(true[-1], action))
    views = [engine.view_raw(r, seat) for r in true]
    found: dict = defaultdict(Fraction)
    lines: dict = {}

    def go(raw, i, weight, line):
        if i == len(history):
            found[raw] += weight
            lines[raw] = line
            return
        action = history[i]
        if engine.is_chance_action(action):
            options = engine.chance_outcomes(raw)
        else:
            options = [(action, Fraction(1))]
        for choice, p in options:
            nxt = engine.apply(raw, choice)
            if engine.view_raw(nxt, seat) == views[i + 1]:
                go(nxt, i + 1, weight * p, line + (choice,))

    go(true[0], 0, Fraction(1), ())
    total = sum(found.values())
    assert variant == engine.variant and total > 0
    return {r: w / total for r, w in found.items()}, views[-1], lines


BRUTE = [(JanusCardsVariant(players=2, symbols=4), 30),
         (JanusCardsVariant(players=2, symbols=4, trio_backs="shown"), 30),
         (JanusCardsVariant(players=3, symbols=4), 24),
         (JanusCardsVariant(players=2, symbols=4, deal_peek="none"), 22),
         (JanusCardsVariant(players=2, symbols=3), 30)]


def _check_odds(engine, history, seat) -> int:
    """Compare every odds the seat's view gives with the brute-force count."""
    worlds, view, _ = _twins(engine, history, seat)
    checked = 0
    for card in view.cards():
        face = FRONT if card.front is None else BACK if card.back is None else None
        if face is None:
            continue
        want: dict = defaultdict(Fraction)
        for world, p in worlds.items():
            want[engine.view_raw(world, None).card(card.ref).side(face)] += p
        assert view.other_side_odds(card.ref) == dict(sorted(
            (k, v) for k, v in want.items() if v)), (history, seat, card)
        checked += 1
    if view.unturned:
        want = defaultdict(Fraction)
        for world, p in worlds.items():
            for c in world[4]:
                for sym in CARDS[c]:
                    want[SYMBOL_NAMES[sym]] += p / (2 * len(world[4]))
        assert view.unturned_odds() == {k: v for k, v in sorted(want.items())}
    return checked


def _hidden_facts(view) -> int:
    """No-trio facts about two or three sides this seat has not seen."""
    return sum(1 for f in view.no_trios
               if sum(view.card(r).side(face) is None for r, face in f.sides) > 1)


@pytest.mark.parametrize("variant,plies", BRUTE, ids=[v.describe() for v, _ in BRUTE])
def test_JC13_odds_are_exact_against_every_way_the_game_could_have_gone(variant, plies):
    engine = cards.engine(variant)
    checked = 0
    for seed in range(3):
        _, history = final(engine, seed, plies)
        for cut in (len(history) // 2, len(history)):
            for seat in range(engine.num_players):
                checked += _check_odds(engine, history[:cut], seat)
    assert checked > 10


@pytest.mark.parametrize("variant", [JanusCardsVariant(players=3, symbols=4),
                                     JanusCardsVariant(players=2, symbols=4,
                                                       deal_peek="none")],
                         ids=["3 players", "2 players, no peek"])
def test_JC13_odds_are_exact_where_a_fact_hides_several_sides(variant):
    """The hard case: a no-trio fact about two or three sides the seat has not seen
    (tracked while counting, rejected while redrawing)."""
    engine = cards.engine(variant)
    found = 0
    for seed in range(12):
        history = []
        for raw, action in walk(engine, seed, 40, rare=AGREE):
            history.append(action)
            after = engine.apply(raw, action)
            seats = [p for p in range(engine.num_players)
                     if _hidden_facts(engine.view_raw(after, p))]
            if seats:
                _check_odds(engine, history, seats[0])
                found += 1
                break
        if found == 4:
            break
    assert found == 4


@pytest.mark.parametrize("variant,plies", BRUTE[:3], ids=[v.describe() for v, _ in BRUTE[:3]])
def test_what_a_seat_is_told_is_the_same_in_every_world_it_cannot_tell_apart(variant, plies):
    engine = cards.engine(variant)
    start = cards.new(variant, seed=0)
    differ = 0
    for seed in range(3):
        _, history = final(engine, seed, plies)
        for seat in range(engine.num_players):
            worlds, _, lines = _twins(engine, history, seat)
            told = None
            for world in worlds:
                state = _replay(start, lines[world])
                heard = state.history_for(seat)
                told = heard if told is None else told
                assert heard == told
                assert list(state.record().view(seat).moves) == heard
            differ += len(worlds) > 1
    assert differ > 0


def _replay(start, actions):
    state = start
    for action in actions:
        state = state.play_action(action)
    return state


# --- odds worked by hand ---------------------------------------------------------
def test_odds_a_double_counts_twice_like_bertrands_box():
    """A sees sun on its own card and nothing else unknown: of the 12 sun sides, 2
    are on the double, so the hidden side is a sun with chance 2/12."""
    state = position(hands=[["s/m"], []], pile=["k/f"], remembered={0: ["P1"]})
    odds = state.view(0).other_side_odds("A1")
    assert odds["sun"] == Fraction(1, 6)
    assert all(odds[name] == Fraction(1, 12) for name in SYMBOL_NAMES[1:])
    assert sum(odds.values()) == 1


def test_odds_two_unseen_sides_share_a_card():
    """A sees sun on its card and key on the pile: both could be the one sun/key card.
    Counting pairs of cards (doubles twice): 12 × 12 − 1 = 143 arrangements."""
    state = position(hands=[["s/m"], []], pile=["k/f"])
    odds = state.view(0).other_side_odds("A1")
    assert odds["sun"] == Fraction(24, 143)
    assert odds["key"] == Fraction(11, 143)
    assert odds["moon"] == Fraction(12, 143)
    next_up = state.view(0).unturned_odds()
    assert sum(next_up.values()) == 1 and set(next_up) == set(SYMBOL_NAMES)


def test_odds_of_a_known_card_and_bad_refs():
    state = position(hands=[["s/m"], ["h/c"]], pile=["k/f"], remembered={0: ["B1"]})
    view = state.view(0)
    assert view.other_side_odds("b1") == {"heart": 1}   # A knows it; the side B sees
    with pytest.raises(KeyError, match="no card at 'C1'"):
        view.other_side_odds("C1")


def test_determinize_draws_with_the_exact_odds():
    """Sample frequencies of a redrawn hidden side agree with the exact odds."""
    engine = cards.engine(JanusCardsVariant(players=3, symbols=4))
    raw, _ = final(engine, 1, 20)
    view = engine.view_raw(raw, 0)
    stream = RandomStream(2024)
    unseen = [c for c in view.cards() if not c.known]
    assert unseen
    counts: dict = defaultdict(lambda: defaultdict(int))
    n = 4000
    for _ in range(n):
        world = engine.view_raw(engine.determinize(view, stream), None)
        for card in unseen:
            face = FRONT if card.front is None else BACK
            counts[card.ref][world.card(card.ref).side(face)] += 1
    for card in unseen:
        exact = view.other_side_odds(card.ref)
        assert set(counts[card.ref]) <= set(exact)
        for symbol, p in exact.items():
            sigma = (float(p) * (1 - float(p)) / n) ** 0.5
            assert abs(counts[card.ref][symbol] / n - float(p)) < 5 * sigma + 1e-9


def test_determinize_refuses_a_foreign_view():
    engine = cards.engine(JanusCardsVariant(players=3))
    view = cards.new(seed=0).view(0)
    with pytest.raises(ValueError, match="variant"):
        engine.determinize(view, RandomStream(0))
    with pytest.raises(ValueError):
        engine.determinize("A's cards", RandomStream(0))
    assert isinstance(view, CardsView)

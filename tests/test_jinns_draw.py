"""The Jinns of the Lake canvas: regions, highlights and click flows (pure, no browser).

The browser test (tests/test_browser_jinns.py) checks the same picture by its pixels.
"""

from __future__ import annotations

import pytest

from janus_widgets import games
from janus_widgets.core import IllegalMoveError, RandomStream
from janus_widgets.games.jinns import draw as D
from janus_widgets.games.jinns.rules import COLOURS, JinnsVariant, position
from janus_widgets.widgets.extras import deal_rest
from janus_widgets.widgets import GameWidget
from janus_widgets.drawing import Rect, render_svg

jinns = games.get("jinns")
FOUR = JinnsVariant(players=4)


def keys_of(d, kind):
    return [r.key for r in d.regions if isinstance(r.key, tuple) and r.key[0] == kind]


def apply(state, result):
    """Play what a click means (as the shell does); returns the new state."""
    assert result.move is not None, result
    return state.play(result.move)


def refusal(state, result) -> IllegalMoveError:
    assert result.move is not None, result
    with pytest.raises(IllegalMoveError) as err:
        state.play(result.move)
    return err.value


def fill_at(d, x, y):
    """The fill of the topmost rectangle drawn (board and pieces) containing a point."""
    hit = None
    for layer in ("board", "pieces"):
        for s in d.layers[layer]:
            if isinstance(s, Rect) and s.fill and s.x <= x <= s.x + s.w and s.y <= y <= s.y + s.h:
                hit = s.fill
    return hit


LESSON = {0: "Y3", 2: "B1", 5: "R1G2", 9: "B4Y1", 14: "G3", 20: "Y2R4", 27: "B2"}


# --- regions: every cell, every pawn, drawn where its region is ----------------------
def test_every_cell_and_every_pawn_is_a_region():
    state = position(piles=LESSON)
    d = D.draw(state)
    assert sorted(k[1] for k in keys_of(d, "cell")) == list(range(32))
    pawns = sorted(keys_of(d, "pawn"))
    assert pawns == sorted(("pawn", c, lvl) for c, p in LESSON.items()
                           for lvl in range(len(p) // 2))
    for cell, text in LESSON.items():
        for level in range(len(text) // 2):
            x, y, w, h = D.pawn_box(cell, level)
            assert d.hit(x + w / 2, y + h / 2) == ("pawn", cell, level)
            colour = COLOURS.index(text[2 * level])
            # The body is filled with the pawn's colour and carries its letter and strength.
            assert fill_at(d, x + 3, y + h / 2) == D.PAWN_FILL[colour]
            assert text[2 * level: 2 * level + 2] in d.texts()
    for cell in set(range(32)) - set(LESSON):
        x, y = D.cell_point(cell)
        assert d.hit(x, y) == ("cell", cell)


def test_pawns_show_their_strength_as_domes():
    """1 to 4 domes on top of each pawn: as many circles as its strength, in its colour."""
    for text in ("Y1", "B2", "R3", "G4"):
        d = D.draw(position(piles={0: text, 10: "Y2"}))
        x, y, w, h = D.pawn_box(0, 0)
        domes = [s for s in d.layers["pieces"] if type(s).__name__ == "Circle"
                 and x <= s.cx <= x + w and y - 8 <= s.cy <= y + 2]
        assert len(domes) == int(text[1])
        assert {s.fill for s in domes} == {D.PAWN_FILL[COLOURS.index(text[0])]}


def test_the_picture_renders_as_svg_and_says_whose_turn():
    state = position(piles=LESSON)
    svg = state._repr_svg_()
    assert svg.startswith("<svg") and "A (yellow &amp; red) to move" in svg
    assert "Player A" in D.draw(state).texts() and "Player B" in D.draw(state).texts()


# --- placement by clicks ----------------------------------------------------------------
def test_the_whole_placement_is_played_by_clicking_the_tray():
    state = jinns.new(seed=3)
    stream = RandomStream(3)
    placed = 0
    while state.phase == "setup":
        d = D.draw(state)
        assert len(keys_of(d, "tray")) == 16
        cell = state.next_cell
        assert f"cell {cell}" in D.prompt(state)
        colour = COLOURS.index(state.run_colour)
        kinds = [k for k in range(4 * colour, 4 * colour + 4) if state.raw[7][k]]
        kind = kinds[stream.below(len(kinds))]
        state = apply(state, D.click(state, None, ("tray", kind)))
        assert state.pile(cell)[0].colour == COLOURS[colour]
        placed += 1
    assert placed == 32 and state.phase == "play"


def test_a_wrong_tray_click_is_refused_with_its_rule():
    state = jinns.new(seed=3)
    err = refusal(state, D.click(state, None, ("tray", 4)))      # a blue 1 in a yellow run
    assert err.rule == "JI-4"
    for move in ("Y1", "Y1"):
        state = state.play(move)
    err = refusal(state, D.click(state, None, ("tray", 0)))      # both yellow 1s are placed
    assert err.rule == "JI-1"
    # Clicking the ring during placement says where to click instead.
    result = D.click(state, None, ("cell", 5))
    assert result.move is None and result.message.startswith("JI-4")


def test_placement_highlights_the_tray_pawn_and_the_next_cell():
    state = jinns.new(seed=3).play("Y2")
    move = state.legal_moves().get("Y4")
    keys = D.highlight(state, move)
    assert keys == (("tray", 3), ("cell", 1))
    d = D.draw(state, highlights=keys)
    assert len(d.layers["highlight"]) >= 2


def test_random_placement_is_dealt_by_chance_not_clicks():
    state = jinns.new(seed=3, placement="random")
    d = D.draw(state)
    assert "Chance draws the pawn for cell 0" in d.texts()
    result = D.click(state, None, ("tray", 0))
    assert result.move is None and result.message.startswith("JI-6")


# --- moving: pick a pile, choose the depth, click a landing cell ------------------------
def test_click_pile_then_landing_plays_the_move():
    state = position(piles=LESSON)
    first = D.click(state, None, ("pawn", 9, 1))                # the yellow 1 on top
    assert first.selection == (9, 1) and first.move is None
    d = D.draw(state, selection=first.selection)
    # Both landing cells are outlined, the path numbers the occupied cells counted.
    targets = set(state.landings(9, 1))
    assert targets == {5, 14}
    assert "+ ✓ cell 14, onto the G3: a pile of 2" in d.texts()
    second = D.click(state, first.selection, ("cell", 14))
    after = apply(state, second)
    assert second.move == "9.1+" and [str(p) for p in after.pile(14)] == ["G3", "Y1"]


def test_the_pawn_clicked_sets_the_depth_and_the_chooser_changes_it():
    state = position(piles=LESSON)
    assert D.click(state, None, ("pawn", 9, 0)).selection == (9, 2)   # blue 4 and all above
    d = D.draw(state, selection=(9, 1))
    assert sorted(keys_of(d, "depth")) == [("depth", 1), ("depth", 2)]
    assert D.click(state, (9, 1), ("depth", 2)).selection == (9, 2)
    # Taken two deep the pile lands anticlockwise on cell 5, making a tower.
    result = D.click(state, (9, 2), ("pawn", 5, 1))
    assert result.move == "9.2-"
    assert apply(state, result).towers[0]
    # Clicking another level of the same pile changes the depth; the same one puts it down.
    assert D.click(state, (9, 2), ("pawn", 9, 1)).selection == (9, 1)
    assert D.click(state, (9, 1), ("pawn", 9, 1)).selection is None


def test_a_refused_landing_returns_the_move_so_the_rule_is_shown():
    state = position(piles=LESSON)
    sel = D.click(state, None, ("pawn", 0, 0)).selection        # the yellow 3 on cell 0
    d = D.draw(state, selection=sel)
    assert any("JI-11" in t for t in d.texts())                  # clockwise: cell 9, two yellows
    assert "✗" in d.texts()
    err = refusal(state, D.click(state, sel, ("cell", 9)))
    assert err.rule == "JI-11"


def test_clicks_that_cannot_be_moves_say_why():
    state = position(piles=LESSON)
    err = refusal(state, D.click(state, None, ("pawn", 2, 0)))  # a blue pile: B's
    assert err.rule == "JI-8" and "blue" in err.reason
    empty = D.click(state, None, ("cell", 3))
    assert empty.move is None and "empty" in empty.message
    miss = D.click(state, (9, 1), ("cell", 3))                   # not a landing cell
    assert miss.selection == (9, 1) and miss.message.startswith("JI-9")
    assert "cell 5 or cell 14" in miss.message
    assert D.click(state, (9, 1), None).selection is None        # a click on nothing


def test_a_pile_with_no_landing_is_picked_up_with_the_rules_refusing_it():
    state = position(piles={0: "Y4", 3: "B1", 6: "G2"})
    result = D.click(state, None, ("pawn", 0, 0))
    assert result.selection == (0, 1) and "JI-10" in result.message
    d = D.draw(state, selection=(0, 1))
    assert any("JI-10" in t for t in d.texts())


def test_height_reading_counts_the_pawns_moving():
    state = position(JinnsVariant(distance="height"), piles=LESSON)
    d = D.draw(state, selection=(9, 2))
    assert any("2 pawns moving" in t for t in d.texts())
    assert D.click(state, (9, 2), ("cell", 20)).move == "9.2+"   # 2 occupied cells on


# --- passing, halves, piles of three ---------------------------------------------------
def test_pass_button_plays_pass_only_without_a_move():
    stuck = position(piles={0: "Y4", 3: "B1", 6: "G2"})
    assert stuck.legal_moves().notations() == ["pass"]
    d = D.draw(stuck)
    region = d.find(("button", "pass"))
    assert d.hit(*region.center()) == ("button", "pass")
    after = apply(stuck, D.click(stuck, None, ("button", "pass")))
    assert after.passes == 1 and after.current_player == 1
    free = position(piles=LESSON)
    err = refusal(free, D.click(free, None, ("button", "pass")))
    assert err.rule == "JI-18"
    assert D.highlight(stuck, stuck.legal_moves()[0]) == (("button", "pass"),)


def test_four_players_choose_the_half_of_a_tower_by_clicking():
    state = position(FOUR, piles={0: "Y4", 3: "G1R2B3", 5: "B1", 9: "G4", 12: "R3"})
    made = state.play("0.1-")
    assert made.phase == "split"
    d = D.draw(made)
    assert {("button", "top"), ("button", "bottom")} <= set(keys_of(d, "button"))
    assert any("Keep the top half" == t for t in d.texts())
    kept = apply(made, D.click(made, None, ("button", "bottom")))
    assert [str(p) for p in kept.towers[0][0]] == ["G1", "R2"]
    assert [str(p) for p in kept.towers[2][0]] == ["B3", "Y4"]
    # A pile clicked instead: the rules say a half must be chosen first.
    err = refusal(made, D.click(made, None, ("pawn", 5, 0)))
    assert err.rule == "JI-15"


def test_four_players_take_off_or_leave_a_pile_of_three_by_clicking():
    state = position(FOUR, piles={0: "Y1", 3: "G1B3", 6: "B1", 10: "R4", 14: "G2"})
    made = state.play("0.1+")
    assert made.phase == "three" and made.pending_cell == 3
    d = D.draw(made)
    assert {("button", "take"), ("button", "leave")} <= set(keys_of(d, "button"))
    taken = apply(made, D.click(made, None, ("button", "take")))
    assert taken.pile(3) == () and len(taken.towers[0]) == 1 and len(taken.towers[2]) == 1
    left = apply(made, D.click(made, None, ("button", "leave")))
    assert len(left.pile(3)) == 3
    err = refusal(made, D.click(made, None, ("pawn", 6, 0)))
    assert err.rule == "JI-16"


def test_any_turn_take_off_is_a_button_of_the_picked_pile():
    variant = JinnsVariant(players=4, take_three="any-turn")
    state = position(variant, piles={0: "G1B3Y1", 5: "B1", 9: "R4", 13: "G2"})
    sel = D.click(state, None, ("pawn", 0, 2)).selection
    d = D.draw(state, selection=sel)
    assert ("button", "take") in keys_of(d, "button")
    after = apply(state, D.click(state, sel, ("button", "take")))
    assert after.pile(0) == ()
    move = state.legal_moves().get("x0")
    assert D.selection_for(state, move) == (0, 3)
    assert set(D.highlight(state, move)) == {("cell", 0), ("button", "take")}


def test_game_over_shows_the_winner_and_refuses_clicks():
    state = position(piles={0: "Y4", 3: "B4", 6: "G4"})       # nobody can move
    over = state.play("pass")
    assert over.is_over and over.scores() == (4.0, 8.0)
    d = D.draw(over)
    assert "Game over" in d.texts() and "B wins" in d.texts()
    err = refusal(over, D.click(over, None, ("pawn", 3, 0)))
    assert err.rule == "JI-25"


# --- every legal move can be shown --------------------------------------------------------
@pytest.mark.parametrize("variant", [JinnsVariant(), JinnsVariant(players=3), FOUR,
                                     JinnsVariant(players=4, take_three="any-turn"),
                                     JinnsVariant(distance="height")])
def test_every_legal_move_is_highlighted_on_drawn_regions_and_clicks_back(variant):
    """Through random games: each move's highlight keys are drawn regions, and clicking
    the move's pile, then its landing cell, gives back exactly that move."""
    stream = RandomStream(11)
    state = jinns.new(variant, seed=11)
    checked = 0
    while not state.is_over and checked < 400:
        d = D.draw(state)
        drawn = {r.key for r in d.regions}
        for move in state.legal_moves():
            keys = D.highlight(state, move)
            assert keys and set(keys) <= drawn | {("button", "take")}, (move, keys)
            if move.action < 256:
                cell, depth = move.action >> 3, ((move.action >> 1) & 3) + 1
                height = len(state.pile(cell))
                sel = D.click(state, None, ("pawn", cell, height - depth)).selection
                assert sel == (cell, depth) == D.selection_for(state, move)
                target = state.landing(move)
                assert D.click(state, sel, ("cell", target)).move == move.notation
                checked += 1
        moves = state.legal_moves()
        state = state.play(moves[stream.below(len(moves))])
    assert checked > 50


# --- in the widget shell ----------------------------------------------------------------
def test_widget_plays_placement_and_a_move_by_clicks():
    w = GameWidget("jinns", seed=4, bot_delay=0)
    while w.state.phase == "setup":
        colour = COLOURS.index(w.state.run_colour)
        kind = next(k for k in range(4 * colour, 4 * colour + 4) if w.state.raw[7][k])
        w.click_key(("tray", kind))
    assert w.index == 32 and w.state.phase == "play"
    move = next(m for m in w.state.legal_moves() if m.notation.split(".")[1][0] == "1")
    cell, target = move.action >> 3, w.state.landing(move)
    w.click_key(("pawn", cell, len(w.state.pile(cell)) - 1))
    assert w._selection == (cell, 1) and w.drawing.layers["highlight"]
    w.click_key(("cell", target))
    assert w.index == 33 and w.replay.moves[-1] == move and "played" in w.message
    w.click_key(("button", "pass"))                               # B has moves: refused
    assert "JI-18" in w.message and w.index == 33
    assert w.errors == []


def test_widget_variant_switch_redraws_for_four_players():
    w = GameWidget("jinns", seed=4, bot_delay=0)
    w.play("Y1")
    w.variant_controls["players"].value = 4
    w.confirm_yes.click()
    assert w.state.num_players == 4
    texts = w.drawing.texts()
    assert "Player D" in texts and "ally" in texts
    w.variant_controls["players"].value = 2                       # no move yet: at once
    assert w.state.num_players == 2 and "Player D" not in w.drawing.texts()


def test_widget_deals_a_random_placement_in_one_click():
    w = GameWidget("jinns", seed=4, bot_delay=0)
    button = w.extras.children[0]
    assert button.layout.display == "none"                       # placement in runs
    w.variant_controls["placement"].value = "random"              # the shell's control
    assert button.layout.display == "" and w.state.is_chance
    assert "Chance draws the pawn for cell 0" in w.drawing.texts()
    button.click()
    assert w.state.phase == "play" and w.index == 32
    assert button.layout.display == "none"
    assert w.state.seed != 4              # a rule change deals a new game: a fresh seed
    again = GameWidget("jinns", seed=w.state.seed, bot_delay=0, placement="random")
    deal_rest(again)
    assert again.state.piles == w.state.piles                   # the seed decides the ring
    w.goto(5)                                                     # replaying: nothing to deal
    assert button.layout.display == "none"


def test_options_list_shows_the_move_on_the_canvas():
    state = position(piles=LESSON)
    move = state.legal_moves().get("9.2-")
    assert D.selection_for(state, move) == (9, 2)
    d = D.draw(state, highlights=D.highlight(state, move), selection=(9, 2))
    assert ("cell", 5) in D.highlight(state, move)
    assert len(d.layers["highlight"]) > 4 and render_svg(d).count("<polyline") >= 2


def test_random_clicks_never_break_the_widget():
    """Clicks on random regions and random pixels, mixed with clicks that make a legal
    move, in placement and in play with bots answering: no traceback, every state
    consistent, the game goes on."""
    stream = RandomStream(2)
    setup = GameWidget("jinns", seed=2, bot_delay=0)
    play = GameWidget("jinns", seed=2, bot_delay=0, players=4, placement="random")
    deal_rest(play)
    play.set_bot(1, "random")
    play.set_bot(3, "random")
    for w, clicks in ((setup, 80), (play, 200)):
        for _ in range(clicks):
            regions = w.drawing.regions
            roll = stream.below(6)
            if roll < 3:
                w.click_key(regions[stream.below(len(regions))].key)
            elif roll < 5:
                w.click(stream.below(D.WIDTH), stream.below(D.HEIGHT))
            elif not w.state.is_over and w.state.current_player >= 0:
                moves = w.state.legal_moves()
                move = moves[stream.below(len(moves))]
                for key in D.highlight(w.state, move):         # tray/pile, then cell
                    if w.drawing.find(key) is not None:
                        w.click_key(key)
            if stream.below(80) == 0 and w.index > 33:
                w.back()                                          # and on with ▶ step
            elif not w.replay.at_end and w.state.current_player in w.bots:
                w.step()
            w.state.engine.check_invariants(w.state.raw)
        assert w.errors == []
    assert setup.index > 10 and play.index > 40

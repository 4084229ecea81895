"""The Janus canvas, pure: what is drawn where, what a click means, and the widget plumbing.

The browser test (tests/test_browser_janus.py) checks the same pictures by their pixels.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from janus_widgets import games
from janus_widgets.core import RandomStream
from janus_widgets.games.janus import draw as D
from janus_widgets.games.janus.components import (COLOUR_LETTERS, COLOURS, FIELDS, SQUARES,
                                                  Tile, field_name, parse_field,
                                                  square_fields)
from janus_widgets.games.janus.rules import JanusVariant, position
from janus_widgets.widgets.extras import census_html, janus_widget
from janus_widgets.drawing import (HIGHLIGHT, SEAT_STYLES, Circle, Polygon, Rect,
                                           Text, render_svg)

from helpers import random_play

janus = games.get("janus")


def laid(seed: int = 3, **options):
    return janus.new(seed=seed, **options).play_chance()


def inside(x: float, y: float, box: tuple[float, float, float, float]) -> bool:
    bx, by, bw, bh = box
    return bx <= x <= bx + bw and by <= y <= by + bh


def field_box(f: int) -> tuple[float, float, float, float]:
    x, y = D.field_origin(f)
    return (x, y, D.FIELD, D.FIELD)


def shapes_in(d, layer: str, box) -> list:
    """Shapes of a layer whose anchor point lies in the box."""
    out = []
    for s in d.layers[layer]:
        if isinstance(s, Rect):
            x, y = s.x + s.w / 2, s.y + s.h / 2
        elif isinstance(s, Circle):
            x, y = s.cx, s.cy
        elif isinstance(s, Text):
            x, y = s.x, s.y
        elif isinstance(s, Polygon):
            x = sum(p[0] for p in s.points) / len(s.points)
            y = sum(p[1] for p in s.points) / len(s.points)
        else:
            continue
        if inside(x, y, box):
            out.append(s)
    return out


def tile_faces(d) -> dict[int, str]:
    """Field → fill colour of the tile face drawn on it."""
    faces = {}
    colours = set(D.TILE_FILL.values())
    for s in d.layers["board"]:
        if isinstance(s, Rect) and s.fill in colours and s.w == D.FIELD - 2 * D.INSET:
            f = d.hit(s.x + s.w / 2, s.y + s.h / 2)
            assert f is not None and f[0] == "field"
            faces[f[1]] = s.fill
    return faces


# --- the board: fields, squares, the marked corner ----------------------------------------
def test_JB1_every_field_is_a_click_region_in_chess_orientation():
    d = D.draw(laid())
    keys = [r.key for r in d.regions if r.key[0] == "field"]
    assert sorted(k[1] for k in keys) == list(range(FIELDS))
    a1, j1, a10, j10 = (D.field_centre(parse_field(n)) for n in ("a1", "j1", "a10", "j10"))
    assert a1[0] < j1[0] and a1[1] == j1[1]          # files run left to right
    assert a10[1] < a1[1] and a10[0] == a1[0]        # rank 10 at the top
    for f in range(FIELDS):
        assert d.hit(*D.field_centre(f)) == ("field", f)
    assert d.hit(2, 2) is None                          # the table around the board
    # files and ranks are written beside the board
    texts = d.texts()
    assert all(ch in texts for ch in "abcdefghij") and "10" in texts


def test_JB1_payment_circles_show_each_squares_value():
    state = laid()
    d = D.draw(state)
    for s in range(SQUARES):
        cx, cy = D.square_centre(s)
        assert cx == D.field_origin(square_fields(s)[1])[0]   # between its two files
        values = [t.text for t in d.layers["board"] if isinstance(t, Text)
                  and abs(t.x - cx) < 1 and abs(t.y - cy) < 1]
        assert values == [str(state.square_values[s])]


def test_JB1_the_marked_corner_a1_has_a_spot():
    d = D.draw(laid())
    x, y, w, h = field_box(0)
    spots = [s for s in d.layers["board"] if isinstance(s, Circle) and s.fill == D.INK
             and x - 10 <= s.cx <= x + w and y <= s.cy <= y + h + 10]
    assert len(spots) == 2                        # on the frame and on the field a1


# --- tiles ----------------------------------------------------------------------------------
def test_JB2_each_tile_drawn_in_its_colour_with_its_letter_and_distance():
    state = laid()
    d = D.draw(state)
    faces = tile_faces(d)
    assert len(faces) == 100
    for f, tile in enumerate(state.tiles):
        assert faces[f] == D.TILE_FILL[tile.colour], field_name(f)
        texts = [s.text for s in shapes_in(d, "board", field_box(f)) if isinstance(s, Text)]
        letter = COLOUR_LETTERS[COLOURS.index(tile.colour)]
        assert letter in texts, (field_name(f), texts)       # colour is never the only cue
        assert str(tile.distance) in texts


def screen_direction(step):
    dr, dc = step
    n = math.hypot(dr, dc)
    return dc / n, -dr / n


def arrows_of(shapes, cx, cy):
    """Unit vectors of the arrows among the shapes (an arrow's tip is its farthest point)."""
    out = set()
    for s in shapes:
        if isinstance(s, Polygon) and len(s.points) == 7:
            tx, ty = max(s.points, key=lambda p: (p[0] - cx) ** 2 + (p[1] - cy) ** 2)
            n = math.hypot(tx - cx, ty - cy)
            out.add((round((tx - cx) / n, 2), round((ty - cy) / n, 2)))
    return out


@pytest.mark.parametrize("code", ["R1-", "Y2|", "G3x", "B4+", "R5*", "Y1-/", "G9\\"])
def test_JB2_an_arrow_for_every_allowed_direction(code):
    tile = Tile.from_code(code)
    shapes = D.tile_shapes(tile, 0, 0, 48)
    expected = {tuple(round(v, 2) for v in screen_direction(s)) for s in tile.directions}
    assert arrows_of(shapes, 24, 24) == expected
    assert str(tile.distance) in [s.text for s in shapes if isinstance(s, Text)]


@pytest.mark.parametrize("code", ["R2-J", "Y4|J", "G3/J", "B1\\J"])
def test_JB2_a_janus_head_is_a_two_faced_head_looking_its_two_ways(code):
    tile = Tile.from_code(code)
    shapes = D.tile_shapes(tile, 0, 0, 48, (-1, -1))
    look = {tuple(round(v, 2) for v in screen_direction(s)) for s in tile.directions}
    assert arrows_of(shapes, 24, 24) == look               # arrows: the two look directions
    head = [s for s in shapes if isinstance(s, Polygon) and s.fill == D.SKIN]
    assert len(head) == 1
    outline = head[0].points
    hx = sum(p[0] for p in outline) / len(outline)
    hy = sum(p[1] for p in outline) / len(outline)
    # the two noses: the points reaching farthest along each look direction stick out
    # beyond the rest of the head, one on each side
    for ux, uy in look:
        reach = sorted(((p[0] - hx) * ux + (p[1] - hy) * uy for p in outline), reverse=True)
        assert reach[0] > 1.25 * reach[3]
    eyes = [s for s in shapes if isinstance(s, Circle) and s.fill == D.INK]
    assert len(eyes) == 2
    texts = [s.text for s in shapes if isinstance(s, Text)]
    assert str(tile.distance) in texts and code[0] in texts


def test_JB2_a_head_on_the_board_keeps_its_distance_clear_of_its_letter():
    for f in (0, 1, 10, 11):                           # the four corners of a square
        for code in ("R2-J", "Y4|J", "G3/J", "B1\\J"):
            shapes = D.tile_shapes(Tile.from_code(code), 0, 0, 48, D._outer_corner(f))
            texts = [s for s in shapes if isinstance(s, Text)]
            letter, digit = texts[-1], texts[0]
            assert math.hypot(letter.x - digit.x, letter.y - digit.y) > 15


def test_JB13_removed_tiles_leave_empty_fields():
    state = random_play(laid(), 30, 1)
    faces = tile_faces(D.draw(state))
    assert set(faces) == {f for f, t in enumerate(state.tiles) if t is not None}


def test_custom_distances_up_to_nine_are_written():
    tiles = ["R9*"] * 96 + ["Y1-J", "G1|J", "B1/J", "R1\\J"]
    state = janus.new(JanusVariant(tiles=tiles), seed=2).play_chance()
    d = D.draw(state)
    assert d.texts().count("9") >= 96


# --- columns, coins, squares owned -----------------------------------------------------------
def column_rings(d) -> dict[int, tuple[float, float]]:
    """Seat → centre of its column's ring (the ring is drawn in the seat's colour)."""
    out = {}
    for s in d.layers["pieces"]:
        if isinstance(s, Circle) and s.fill is None and s.width == 5:
            seat = [st.colour for st in SEAT_STYLES].index(s.stroke)
            out[seat] = (s.cx, s.cy)
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_JB5_columns_drawn_on_their_fields_with_shape_and_letter(players):
    state = random_play(laid(players=players), 13, 1)
    d = D.draw(state)
    rings = column_rings(d)
    assert {p: rings[p] for p in range(players)} == {
        p: D.field_centre(f) for p, f in enumerate(state.columns)}
    for p, f in enumerate(state.columns):
        near = [s for s in shapes_in(d, "pieces", field_box(f)) if isinstance(s, Text)]
        assert SEAT_STYLES[p].letter in [t.text for t in near]


def test_JB15_owned_square_carries_the_owners_coin_and_is_tinted():
    state = position(tiles={"c3": "R2+", "c6": "Y1*"}, columns=("c3", "j10"), fill=False,
                     owners={"g7": 1})
    state = state.play("c5")                          # A wins c3–d4
    d = D.draw(state)
    for square, seat in ((5 * 1 + 1, 0), (5 * 3 + 3, 1)):
        cx, cy = D.square_centre(square)
        coin = [s for s in d.layers["board"] if isinstance(s, Circle)
                and s.fill == SEAT_STYLES[seat].colour and (s.cx, s.cy) == (cx, cy)]
        assert coin, square
        letters = [s.text for s in d.layers["board"] if isinstance(s, Text)
                   and abs(s.x - cx) < 1 and abs(s.y - cy) < 2]
        assert letters == [SEAT_STYLES[seat].letter]
        value = [s.text for s in d.layers["board"] if isinstance(s, Text)
                 and 0 < s.x - cx < 20 and 0 < s.y - cy < 20]
        assert value == [str(state.square_values[square])]


def test_JB21_side_panels_show_score_coins_squares_tolls_heads():
    state = position(tiles={"c3": "R2+", "c6": "Y1*"}, columns=("c3", "j10"), fill=False,
                     owners={"g7": 1}, heads={1: ["G4-J", "B1|J"]}, tolls=(0, 3),
                     coins=(15, 11))
    d = D.draw(state)
    texts = d.texts()
    assert "Player A" in texts and "Player B" in texts
    assert "15 in hand" in texts and "11 in hand" in texts
    assert f"1 square = {state.square_values[18]}" in texts
    assert "3 coins = 3" in texts
    assert f"{state.scores()[1]:g}" in texts
    x0, y0 = D.panel_origin(1)
    panel = (x0, y0, D.PANEL_W, D.PANEL_H)
    held = [s for s in shapes_in(d, "pieces", panel) if isinstance(s, Circle)
            and s.fill in (D.TILE_FILL["green"], D.TILE_FILL["blue"])]
    assert len(held) == 2                                 # the two heads B holds
    assert "column on c3" in texts and "column on j10" in texts


# --- legal destinations, highlights and clicks ---------------------------------------------
def hint_frames(d) -> set[int]:
    out = set()
    for s in d.layers["pieces"]:
        if isinstance(s, Rect) and s.dash == (7, 3) and s.width == 3.5:
            key = d.hit(s.x + s.w / 2, s.y + s.h / 2)
            out.add(key[1])
    return out


@given(st.integers(0, 10_000), st.integers(0, 60))
def test_JB7_hint_frames_are_exactly_the_legal_destinations(seed, plies):
    state = random_play(laid(seed), plies, seed)
    d = D.draw(state)
    assert hint_frames(d) == set(state.targets)
    assert all(0 <= s.x <= d.width and 0 <= s.y <= d.height
               for s in d.layers["pieces"] if isinstance(s, Text))


def test_highlight_outlines_a_moves_fields_and_the_pass_button():
    state = laid()
    move = state.legal_moves()[0]
    keys = D.highlight(state, move)
    assert keys == (("field", move.action), ("field", state.columns[0]))
    d = D.draw(state, highlights=keys)
    outlined = [s for s in d.layers["highlight"] if isinstance(s, Rect)
                and s.stroke == HIGHLIGHT]
    assert len(outlined) == 2
    bonus = position(tiles={"c3": "Y2+", "c5": "R1*"}, heads={0: ["R2-J"]},
                     columns=("c3", "j10"), fill=False).play("c5")
    assert D.highlight(bonus, bonus.parse("pass")) == (("button", "pass"),)
    assert D.draw(bonus, highlights=(("button", "pass"),)).layers["highlight"]


def test_a_click_on_any_field_means_the_move_there_and_illegal_ones_are_explained():
    state = laid()
    legal = set(state.targets)
    reasons = {}
    for f in range(FIELDS):
        result = D.click(state, None, ("field", f))
        assert result.move == field_name(f)
        explanation = state.explain(result.move)
        assert bool(explanation) == (f in legal)
        reasons.setdefault(explanation.rule, field_name(f))
    assert set(reasons) == {"JB-7"}                    # wrong line or distance
    blocked = position(tiles={"c3": "R2+"}, columns=("c3", "c5"), fill=False)
    why = blocked.explain(D.click(blocked, None, ("field", parse_field("c5"))).move)
    assert not why and why.rule == "JB-9"             # another column stands there
    own = state.explain(D.click(state, None, ("field", state.columns[0])).move)
    assert not own and own.rule == "JB-7" and "must move" in own.reason


def test_JB11_from_an_empty_field_the_explanation_says_one_step():
    state = position(tiles={"f5": "R1+"}, columns=("c3", "j10"), fill=False)
    result = D.click(state, None, ("field", parse_field("c5")))
    why = state.explain(result.move)
    assert not why and why.rule == "JB-11"
    assert hint_frames(D.draw(state)) == set(state.targets) and len(state.targets) == 8


def button(d, key):
    region = d.find(key)
    assert region is not None, key
    x, y, w, h = region.geometry
    return [s.text for s in d.layers["pieces"] if isinstance(s, Text)
            and inside(s.x, s.y, (x, y, w, h))][0]


def test_JB12_the_forfeit_button_is_always_there_and_refused_while_a_move_exists():
    state = laid()
    d = D.draw(state)
    assert button(d, ("button", "pass")) == "Forfeit turn (pass)"
    result = D.click(state, None, ("button", "pass"))
    assert result.move == "pass" and state.explain("pass").rule == "JB-12"
    assert not state.explain("pass")
    stuck = position(tiles={"a1": "R1-", "b1": "Y1-"}, columns=("a1", "b1"), fill=False)
    assert stuck.targets == () and stuck.explain("pass")
    assert "click Forfeit" in D.prompt(stuck)


def test_JB14_a_declinable_second_move_has_a_decline_button():
    bonus = position(tiles={"c3": "Y2+", "c5": "R1*"}, heads={0: ["R2-J"]},
                     columns=("c3", "j10"), fill=False).play("c5")
    assert bonus.phase == "bonus"
    d = D.draw(bonus)
    assert button(d, ("button", "pass")) == "Decline second move"
    assert "second move" in D.prompt(bonus) and "second move" in d.texts()
    assert bonus.explain(D.click(bonus, None, ("button", "pass")).move)
    forced = position(JanusVariant(bonus_optional=False), tiles={"c3": "Y2+", "c5": "R1*"},
                      heads={0: ["R2-J"]}, columns=("c3", "j10"), fill=False).play("c5")
    d = D.draw(forced)
    assert button(d, ("button", "pass")) == "Forfeit second move"
    why = forced.explain(D.click(forced, None, ("button", "pass")).move)
    assert not why and why.rule == "JB-14"


def test_JB4_before_the_shuffle_an_empty_board_and_a_lay_the_tiles_prompt():
    state = janus.new(seed=3)
    d = D.draw(state)
    assert tile_faces(d) == {}
    assert D.prompt(state).startswith("Lay the tiles")
    assert button(d, ("button", "lay")) == "Lay the tiles"
    for key in (("button", "lay"), ("field", 44)):
        result = D.click(state, None, key)
        assert result.step and result.move is None and "JB-4" in result.message
    assert D.click(state, None, None).move is None


def test_JB23_game_over_says_who_won_and_offers_no_button():
    state = random_play(laid(11, players=3), 2000, 2)
    assert state.is_over
    d = D.draw(state)
    text = D.prompt(state)
    assert text.startswith("Game over") and ("wins" in text or " win " in text)
    assert d.find(("button", "pass")) is None and "wins!" in d.texts()
    assert D.click(state, None, ("field", 5)).move == "f1"
    assert state.explain("f1").rule == "JB-23"


@pytest.mark.parametrize("variant", janus.sample_variants(), ids=lambda v: v.describe())
def test_every_sample_variant_draws_through_a_whole_game(variant):
    state = janus.new(variant, seed=4).play_chance()
    stream = RandomStream(4)
    while True:
        d = D.draw(state)
        assert d.width == D.WIDTH and d.height == D.HEIGHT
        assert hint_frames(d) == set(state.targets)
        assert len(tile_faces(d)) == state.tiles_left
        if state.is_over:
            break
        state = state.play(stream.choice(state.legal_moves()))
    assert render_svg(D.draw(state)).startswith("<svg")


def test_svg_of_a_state_shows_the_board():
    svg = laid()._repr_svg_()
    assert svg.startswith("<svg") and "A to move" in svg and D.TILE_FILL["red"] in svg


# --- the widget ---------------------------------------------------------------------------------
@pytest.fixture
def widget():
    return janus_widget(seed=3, bot_delay=0)


def test_widget_lay_the_tiles_then_click_to_move(widget, sent):
    assert widget.state.phase == "shuffle" and "lay the tiles" in census_html(widget.state)
    widget.click_key(("button", "lay"))
    assert widget.state.phase == "move" and widget.index == 1 and len(sent) == 1
    assert "JB-4" in widget.message
    assert "Tiles left 100" in widget.extras.children[0].value
    target = widget.state.targets[0]
    widget.click_key(("field", target))
    assert widget.index == 2 and widget.state.columns[0] == target and len(sent) == 2
    assert "Tiles left 99" in widget.extras.children[0].value
    assert tile_faces(widget.drawing).keys() == {f for f, t in enumerate(widget.state.tiles)
                                                 if t is not None}


def test_widget_a_refused_click_names_its_rule_and_changes_nothing(widget):
    widget.click_key(("button", "lay"))
    state = widget.state
    widget.click_key(("field", state.columns[0]))          # A's own column
    assert "JB-7" in widget.message and "must move" in widget.message
    assert "JB-7" in widget.status_line.value
    assert widget.state == state and widget.index == 1
    wrong = next(f for f in range(FIELDS) if f not in state.targets
                 and f not in state.columns and state.explain(field_name(f)).rule == "JB-7")
    widget.click_key(("field", wrong))
    assert "JB-7" in widget.message and widget.state == state
    widget.click_key(("button", "pass"))
    assert "JB-12" in widget.message and widget.state == state


def test_widget_bots_reply_after_the_tiles_are_laid():
    w = janus_widget(seed=5, bot_delay=0, players=3)
    w.set_bot(0, "random")
    w.set_bot(2, "random")
    w.click_key(("button", "lay"))
    assert w.state.current_player == 1 or w.state.is_over   # A moved by itself
    assert w.index >= 2


def test_widget_stepping_back_to_the_start_shows_the_empty_board_again(widget):
    widget.click_key(("button", "lay"))
    widget.play(widget.state.legal_moves()[0])
    widget.first()
    assert tile_faces(widget.drawing) == {}
    widget.click_key(("field", 50))                        # lays the same tiles again
    assert widget.index == 1 and len(widget.replay.lines) == 1
    assert widget.state.tiles_left == 100


def test_widget_abuse_never_raises():
    w = janus_widget(seed=9, bot_delay=0, players=4)
    w.set_bot(1, "random")
    stream = RandomStream(9)
    for _ in range(150):
        w.click(stream.below(D.WIDTH), stream.below(D.HEIGHT))
        if stream.below(15) == 0:
            w.back_button.click()
    assert w.errors == []
    assert w.replay.length > 0


def test_legal_targets_are_framed_so_they_stand_out_on_any_tile():
    """Each target field: a white band, then the mover's dashes over it (a dashed frame of
    the seat's colour alone vanished on tiles of a similar colour)."""
    from janus_widgets.games.janus.draw import FIELD, draw, field_origin
    from janus_widgets.drawing import SEAT_STYLES, Rect
    state = games.get("janus").new(seed=5)
    state = state.play(state.sample_chance())
    d = draw(state)
    shapes = d.layers["pieces"] + d.layers["highlight"]
    for f in state.targets:
        x, y = field_origin(f)
        around = [s for s in shapes if isinstance(s, Rect) and s.stroke and
                  abs(s.x - x) < 6 and abs(s.y - y) < 6 and s.w > FIELD - 10]
        bands = [i for i, s in enumerate(around) if s.stroke == "#ffffff" and not s.dash
                 and s.width >= 5]
        dashes = [i for i, s in enumerate(around)
                  if s.stroke == SEAT_STYLES[0].colour and s.dash and s.width >= 3]
        assert bands and dashes and bands[0] < dashes[0], (f, around)

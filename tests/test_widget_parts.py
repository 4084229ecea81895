"""The shell's parts, each on its own (the shell that composes them: test_widget_shell.py)."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from janus_widgets import games
from janus_widgets.widgets.drawing import Drawing, svg_body
from janus_widgets.widgets.export import animated_svg, write_animation, write_picture
from janus_widgets.widgets.game_panel import GamePanel
from janus_widgets.widgets.keyboard import KEYS, Keyboard
from janus_widgets.widgets.moves_panel import MovesPanel
from janus_widgets.widgets.records_panel import RecordsPanel
from janus_widgets.widgets.seats import SeatsPanel
from janus_widgets.widgets.stage import BIG, RESERVE, RESERVE_BIG, Stage
from janus_widgets.widgets.status import StatusFacts, StatusLine
from janus_widgets.widgets.stepbar import StepBar


def drawing(width: int = 400, height: int = 200, x: float = 10) -> Drawing:
    d = Drawing(width, height, background="#ffffff")
    d.rect(0, 0, 100, 100, fill="#cc0000", key="left", layer="board")
    d.circle(x + 200, 50, 20, fill="#0000cc", key="dot")
    return d


# --- the stage -------------------------------------------------------------------------
def test_stage_scales_to_the_screen_but_never_past_the_drawing():
    stage = Stage(drawing(900, 600), on_click=lambda x, y: None)
    css = stage.widget.layout.width
    # As wide as the drawing at most, as tall as the screen less the reserve at most.
    assert "900px" in css and f"calc((100vh - {RESERVE}px) * 1.5000)" in css
    assert stage.widget.layout.max_width == "100%"            # never wider than the output
    assert stage.canvas.layout.width == "100%" and stage.canvas.layout.height == "auto"
    stage.set_big(True)              # big: the output's width, the canvas on one screen
    assert stage.widget.layout.width == ("max(min(600px, 100%), min(100%, "
                                         f"calc((100vh - {RESERVE_BIG}px) * 1.5000)))")


def test_stage_paints_one_message_per_frame_and_the_board_only_when_it_changed(sent):
    d = drawing()
    stage = Stage(d, on_click=lambda x, y: None)
    stage.show(d)
    stage.show(drawing(x=40))                         # only the pieces moved
    assert len(sent) == 2 and stage.frames == 2
    assert "cc0000" in str(sent[0]) and "cc0000" not in str(sent[1])
    stage.repaint()                                   # a browser view connected: all again
    assert len(sent) == 3 and "cc0000" in str(sent[2])


def test_a_click_on_a_sharper_big_canvas_means_the_same_drawing_point(sent):
    d = drawing()
    hits = []
    stage = Stage(d, on_click=lambda x, y: hits.append(d.hit(x, y)))
    stage.show(d)
    stage.mouse_down(210, 50)                          # canvas pixels = drawing units
    stage.set_big(True)                                # repainted at BIG × resolution
    assert (stage.canvas.width, stage.canvas.height) == (400 * BIG, 200 * BIG)
    assert len(sent) == 2 and stage.resolution == BIG     # still one message a frame
    stage.mouse_down(210 * BIG, 50 * BIG)              # the same point, scaled canvas
    stage.mouse_down(50 * BIG, 50 * BIG)
    assert hits == ["dot", "dot", "left"]


# --- the step bar ------------------------------------------------------------------------
def test_step_bar_buttons_say_their_keys_and_are_off_at_the_ends():
    bar = StepBar(on_goto=lambda i: None, on_back=lambda: None, on_last=lambda: None,
                  on_step=lambda: None, on_autoplay=lambda on: None, on_delay=lambda s: None)
    bar.show(index=0, length=3, autoplay=False)
    assert bar.first_button.disabled and bar.back_button.disabled
    assert not bar.last_button.disabled
    assert "(←)" in bar.back_button.tooltip and "(Home)" in bar.first_button.tooltip
    assert "(Space)" in bar.autoplay_button.tooltip and "(→)" in bar.forward_button.tooltip
    bar.show(index=3, length=3, autoplay=True)
    assert bar.last_button.disabled and bar.autoplay_button.icon == "pause"


def test_step_bar_delay_and_autoplay_call_back():
    heard = []
    bar = StepBar(on_goto=heard.append, on_back=lambda: heard.append("back"),
                  on_last=lambda: heard.append("last"), on_step=lambda: heard.append("step"),
                  on_autoplay=lambda on: heard.append(("autoplay", on)),
                  on_delay=lambda s: heard.append(("delay", round(s, 2))))
    bar.autoplay_button.value = True
    bar.speed.value = 1.0
    bar.first_button.click()
    assert heard == [("autoplay", True), ("delay", 1.0), 0]


# --- the status line -----------------------------------------------------------------------
def test_an_answer_lasts_until_its_situation_changes():
    line = StatusLine()
    facts = StatusFacts(where="move 4/4", turn="<b>B</b> to move (human)", scores="A 1 · B 0")
    line.show(facts, situation=1)
    line.say("Refused 'r' — JA-6: choose at least one die", "refused", situation=1)
    assert "JA-6" in line.widget.value and line.kind == "refused"
    line.show(facts, situation=1)                     # the same situation: still true
    assert "JA-6" in line.widget.value
    line.show(facts, situation=2)                     # something allowed happened
    assert "JA-6" not in line.widget.value and line.answer == "" and line.kind == "info"
    line.show(facts, situation=1)                     # it does not come back either
    assert line.answer == ""
    with pytest.raises(ValueError, match="kind='loud'"):
        line.say("x", "loud", situation=1)


def test_the_status_line_escapes_text_and_fills_the_live_region():
    line = StatusLine()
    facts = StatusFacts(where="move 1/1", turn="<b>A</b> to move (human)",
                        last="B (bot) played <r1>: pick up", position="dice: 1 2 3")
    line.show(facts, situation=0)
    assert "&lt;r1&gt;" in line.widget.value and "<b>A</b>" in line.widget.value
    assert line.live.last == "B (bot) played <r1>: pick up. A to move (human)"
    assert line.live.position == "dice: 1 2 3"


# --- the moves panel -----------------------------------------------------------------------
def test_legal_moves_show_their_whole_description():
    panel = MovesPanel(on_option=lambda i: None, on_play=lambda: None, on_log=lambda i: None,
                       on_line=lambda i: None)
    long = "B moves 4 fields down from j10 to j6, onto a green 3 tile (all four directions)."
    panel.show_options([("j6", long)])
    assert panel.options_list.options == ((f"j6 — {long}", 0),)
    assert "janus-moves" in panel.options_list._dom_classes      # styled to wrap
    panel.show_options([], note="(chance) press ▶", can_play=False)
    assert panel.selected is None and panel.play_button.disabled
    panel.options_list.value = -1                       # the note itself: nothing to play
    assert panel.selected is None


def test_the_lines_menu_shows_only_when_there_are_lines():
    panel = MovesPanel(on_option=lambda i: None, on_play=lambda: None, on_log=lambda i: None,
                       on_line=lambda i: None)
    panel.show_lines([("main line", 0)], 0)
    assert panel.lines.layout.display == "none"
    panel.show_lines([("main line", 0), ("line 1 (from line 0 after move 2)", 1)], 1)
    assert panel.lines.layout.display == "" and panel.lines.value == 1


# --- seats & view -----------------------------------------------------------------------------
def test_the_view_menu_is_never_blank_and_custom_bots_keep_their_label():
    heard = []
    panel = SeatsPanel(on_viewpoint=heard.append, on_seat=lambda s, w: heard.append((s, w)))
    for viewpoint in (None, "current", 0, 1):
        panel.show(players=3, viewpoint=viewpoint, bots={2: "custom: mine"})
        assert panel.viewpoint_box.label                  # something is always shown
    assert panel.viewpoint_box.label == "seat B"
    assert panel.seat_boxes[2].label == "custom: mine" and len(panel.seat_boxes) == 3
    panel.viewpoint_box.value = "everything"
    assert heard == [None]                                # the teacher's view is None
    panel.show(players=2, viewpoint=None, bots={})
    assert len(panel.seat_boxes) == 2 and panel.viewpoint_box.label == "everything (teacher)"


def test_a_seats_record_offers_its_own_view_only_and_lock_view_disables_the_menu():
    panel = SeatsPanel(on_viewpoint=print, on_seat=print)
    panel.show(players=3, viewpoint=2, bots={}, choices=[("seat C's record", 2)],
               locked=True)
    assert panel.viewpoint_box.options == (("seat C's record", 2),)
    assert panel.viewpoint_box.disabled
    panel.show(players=3, viewpoint="current", bots={})
    assert not panel.viewpoint_box.disabled and len(panel.viewpoint_box.options) == 5


# --- game & variant -----------------------------------------------------------------------------
def test_game_panel_shows_a_variant_without_asking_and_undoes_a_refused_value():
    game = games.get("jinns")
    heard = []
    panel = GamePanel(game, game.variant(), seed=1, on_option=lambda n, c: heard.append(n),
                      on_confirm=heard.append, on_new=heard.append)
    panel.show(game.variant(players=4))
    panel.show_seed(12)
    assert panel.wanted()["players"] == 4 and panel.seed_box.value == 12 and heard == []
    assert panel.seed_box.layout.display == "" and "this seed" in panel.new_button.tooltip
    panel.show_seed(None)                              # a seat's view: no seed anywhere
    assert panel.seed_box.value == 0 and panel.seed_box.layout.display == "none"
    panel.new_button.click()                           # New game still works (secret seed)
    assert heard == [0]
    heard.clear()
    control = panel.variant_controls["players"]
    panel.undo(control, 2)
    assert control.value == 2 and heard == []
    assert not panel.asking
    panel.ask("Start a new game?")
    assert panel.asking
    panel.confirm_yes.click()
    assert heard == [True] and not panel.asking


# --- save / load / export ------------------------------------------------------------------------
def test_records_panel_passes_an_upload_on_as_bytes():
    import datetime
    got = []
    panel = RecordsPanel("jinns", on_save=got.append, on_load=got.append,
                         on_upload=got.append, on_restore=got.append, on_picture=got.append,
                         on_animation=lambda p, f: got.append((p, f)))
    panel.upload.value = ({"name": "g.json", "type": "application/json", "size": 2,
                           "content": memoryview(b"{}"),
                           "last_modified": datetime.datetime.now(datetime.timezone.utc)},)
    panel.show_earlier([])
    panel.restore_button.click()
    assert got == [b"{}", -1]


def test_records_panel_keeps_the_earlier_choice_and_says_what_save_writes():
    panel = RecordsPanel("jactus", on_save=print, on_load=print, on_upload=print,
                         on_restore=print, on_picture=print, on_animation=print)
    panel.show_earlier(["1: a", "2: b", "3: c"], select=2)
    panel.previous_box.value = 0                       # the user picks the first
    panel.show_earlier(["1: a, seed 5", "2: b", "3: c"])   # relabelled: the choice stays
    assert panel.previous_box.value == 0 and panel.previous_box.label == "1: a, seed 5"
    panel.show_earlier(["1: b"])                       # fewer games: a choice that exists
    assert panel.previous_box.value == 0 and panel.previous_box.label == "1: b"
    panel.show_earlier([])
    assert panel.previous_box.options == (("(none yet)", -1),)
    for whose, label in [(None, "Save full record"), (0, "Save A's record"),
                         ("table", "Save the table's record")]:
        panel.show_save(whose)
        assert panel.save_button.description == label
    assert "no seed, no hidden card" in panel.save_button.tooltip


def test_pictures_and_animations(tmp_path):
    from PIL import Image
    frames = [drawing(x=x) for x in (0, 40, 80)]
    svg = write_picture(frames[0], tmp_path / "a.svg").read_text()
    assert svg.startswith("<svg") and "#cc0000" in svg
    png = Image.open(write_picture(frames[0], tmp_path / "a.png", scale=2))
    assert png.size == (800, 400)
    assert png.convert("RGB").getpixel((100, 100)) == (204, 0, 0)
    gif = Image.open(write_animation(frames, tmp_path / "a.gif", fps=4))
    assert gif.n_frames == 3 and gif.info["duration"] == 250 and gif.info["loop"] == 0
    text = write_animation(frames, tmp_path / "a.svg", fps=2).read_text()
    # Each frame shown for half a second of a 1.5 s loop, the first one also without SMIL.
    assert text.count("<animate ") == 3 and 'dur="1.5s"' in text
    assert re.search(r"<g><animate[^>]+values=\"visible;hidden\"", text)
    assert all("".join(svg_body(f)) in text.replace("\n", "") for f in frames)
    assert animated_svg(frames[:1], 2).count("<animate") == 0


@pytest.mark.parametrize("call, message", [
    (lambda d, p: write_picture(d, p / "a.jpg"), "written as .svg or .png"),
    (lambda d, p: write_animation([d], p / "a.mp4"), "written as .gif or .svg"),
    (lambda d, p: write_animation([], p / "a.gif"), "at least one frame"),
    (lambda d, p: write_animation([d], p / "a.gif", fps=0), "fps=0"),
    (lambda d, p: write_picture(d, p / "missing" / "a.svg"), "does not exist"),
])
def test_bad_export_requests_say_what_is_allowed(tmp_path, call, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        call(drawing(), tmp_path)
    assert list(tmp_path.iterdir()) == []


# --- the keyboard ------------------------------------------------------------------------------
def test_keyboard_passes_on_only_the_game_keys_and_names_them_for_screen_readers():
    keyboard = Keyboard(label="Jinns of the Lake")
    heard = []
    keyboard.on_key(heard.append)
    for key in [*KEYS, "a", "Tab", None]:
        keyboard._handle_custom_msg({"key": key}, [])
    keyboard._handle_custom_msg("not a message", [])
    assert heard == list(KEYS)
    assert keyboard.label.startswith("Jinns of the Lake game. Keys: left arrow: one move back")
    assert ".janus-widget" in keyboard._css and "janus-widget" in keyboard._esm


def test_numbers_in_a_panel_share_a_denominator():
    from janus_widgets.core.numbers import shared_denominator, short_number
    assert shared_denominator([Fraction(3, 11), Fraction(1, 22), Fraction(1, 2)]) == [
        "6/22", "1/22", "11/22"]
    assert short_number(705192673542423 / 1125899906842624) == "0.6263"


# --- painting only what changed ----------------------------------------------------------
def test_dirty_rectangles_cover_what_went_and_what_came():
    from janus_widgets.widgets.canvas import dirty_rects, shape_box
    from janus_widgets.widgets.drawing import Circle, Rect, Text
    tiles = [Rect(10 * i, 0, 8, 8, fill="#cc0000") for i in range(40)]
    assert dirty_rects(tiles, list(tiles), 400, 100) == []             # nothing changed
    assert dirty_rects(tiles, tiles[::-1], 400, 100) is None           # only the order
    gone = tiles[:5] + tiles[6:]                                       # one tile removed
    (x, y, w, h), = dirty_rects(tiles, gone, 400, 100)
    box = shape_box(tiles[5])
    assert x <= box[0] and y <= 0 and x + w >= box[2] and y + h >= box[3] and w < 20
    label = Text(200, 50, "WWWW", size=14, bold=True)
    (x, y, w, h), = dirty_rects(gone, gone + [label], 400, 100)
    assert x <= 200 - 2 * 14 and x + w >= 200 + 2 * 14                # wide letters fit
    far = [Circle(5, 95, 3, fill="#000"), Circle(395, 95, 3, fill="#000")]
    assert len(dirty_rects(gone, gone + far, 400, 100)) == 2           # two places
    assert dirty_rects(tiles, [], 400, 100) == [(0, 0, 400, 10)]       # the row of tiles
    cover = [Rect(0, 0, 300, 90, fill="#eeeeee")]
    assert dirty_rects(tiles, tiles + cover, 400, 100) is None          # most of it: all


def test_a_small_change_sends_a_small_frame_and_no_change_sends_nothing(sent):
    from janus_widgets.widgets.drawing import Rect
    def board(removed=()):
        d = Drawing(400, 100, background="#ffffff")
        for i in range(40):
            if i not in removed:
                d.rect(10 * i, 0, 8, 8, fill="#cc0000", layer="board")
                d.text(10 * i + 4, 20, str(i), size=8, layer="board")
        return d
    stage = Stage(board(), on_click=lambda x, y: None)
    stage.show(board())
    full = len(sent[0])
    stage.show(board(removed=(7,)))                    # one tile less
    assert len(sent) == 2 and len(sent[1]) < full / 4
    stage.show(board(removed=(7,)))                    # the same picture again
    assert len(sent) == 2
    stage.repaint()                                    # a new browser view: everything
    assert len(sent) == 3 and len(sent[2]) >= full - 6       # 39 tiles now, not 40

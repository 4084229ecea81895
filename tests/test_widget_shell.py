"""The widget shell, driven from Python (the browser tests drive it by clicks)."""

from __future__ import annotations

import datetime
import json
import re

import pytest

from janus_widgets import games
from janus_widgets.core import IllegalMoveError, RecordError, RandomStream
from janus_widgets.widgets import GameWidget
from janus_widgets.widgets.drawing import render_svg, svg_body


@pytest.fixture
def widget():
    return GameWidget("jactus", seed=3, bot_delay=0)


def status(w) -> str:
    return w.status_line.value


def test_one_canvas_message_per_state_change(widget, sent):
    widget.play("r*")
    assert len(sent) == 1
    widget.click_key(("die", 0))                     # a selection change is one frame too
    assert len(sent) == 2
    widget.back()
    assert len(sent) == 3
    widget.click_key(("die", 0))                     # dice in the air: nothing changes,
    assert len(sent) == 3                            # nothing is sent


def test_click_dice_then_throw_plays_and_throws(widget):
    widget.click_key(("button", "throw"))             # opening throw
    assert widget.index == 2 and len(widget.state.dice) == 5
    dice = widget.state.dice
    widget.click_key(("die", 0))
    widget.click_key(("die", 4))
    assert widget.drawing.texts().count("pick up") == 2
    widget.click_key(("button", "throw"))
    assert widget.replay.moves[2].notation == f"r{dice[0]}{dice[4]}"
    assert widget.replay.moves[3].notation.startswith("=")      # the dice were thrown
    assert widget.state.current_player == 0


def test_a_refused_click_shows_the_rule(widget):
    widget.play("r*")
    widget.click_key(("supply", 0))                   # claim without five of a kind
    assert "JA-8" in widget.message and "JA-8" in status(widget)
    assert widget.index == 2                           # nothing played
    widget.click_key(("button", "throw"))             # no dice chosen
    assert "JA-6" in widget.message


def test_step_through_and_the_controls_follow(widget):
    widget.play("r*")
    widget.play("r1" if 1 in widget.state.dice else f"r{widget.state.dice[0]}")
    assert widget.slider.max == 4 and widget.slider.value == 4
    widget.back()
    assert widget.index == 3 and widget.slider.value == 3 and widget.move_log.value == 3
    widget.first()
    assert widget.state.ply == 0 and widget.slider.value == 0
    assert widget.step() and widget.index == 1
    widget.last()
    assert widget.index == 4
    widget.slider.value = 2                            # the slider drives the cursor
    assert widget.index == 2
    widget.move_log.value = 1                          # so does the log
    assert widget.index == 1


def test_step_at_the_end_waits_for_a_human(widget):
    assert widget.step() is False
    assert widget.index == 0


def test_branch_keeps_the_old_line(widget):
    widget.play("r*")
    first = widget.state.dice
    widget.play(f"r{first[0]}")
    widget.goto(2)
    widget.play(f"r{first[-1]}{first[0]}")
    assert len(widget.replay.lines) == 2 and widget.lines.value == 1
    widget.lines.value = 0
    assert widget.replay.moves[2].notation == f"r{first[0]}"


def test_variant_change_asks_and_keeps_the_old_game(widget):
    widget.play("r*")
    widget.variant_controls["players"].value = 4
    assert widget.confirm_box.layout.display == "flex"
    assert "players: 4" in widget.confirm_text.value
    assert widget.state.num_players == 2               # nothing changed yet
    widget.confirm_no.click()
    assert widget.variant_controls["players"].value == 2 and widget.index == 2
    widget.variant_controls["players"].value = 4
    widget.confirm_yes.click()
    assert widget.state.num_players == 4 and widget.index == 0
    assert len(widget.previous_games) == 1 and widget.previous_games[0].moves == ["r*",
                                                                                 widget.previous_games[0].moves[1]]
    widget.restore(0)
    assert widget.state.num_players == 2 and widget.index == 2


def test_variant_change_without_moves_starts_at_once(widget):
    widget.variant_controls["dog_throws"].value = "other"
    assert widget.state.variant.dog_throws == "other"
    assert widget.confirm_box.layout.display == "none"


def test_the_ruleset_menu_sits_above_the_options_and_starts_a_ruleset(widget):
    game_tab = widget.tabs.children[0]
    assert game_tab.children[0] is widget.ruleset_control
    menu = widget.ruleset_control.menu
    assert list(menu.options) == ["rulebook", "other edition", "points", "no spoiling",
                                  "custom"]
    assert menu.value == "rulebook" and "rulebook ruleset" in widget.heading.value
    widget.set_variant(players=3)
    assert menu.value == "rulebook"                       # the players stay the table's
    menu.value = "points"                                 # no move yet: at once
    assert widget.state.variant.scoring == "points" and widget.state.num_players == 3
    assert widget.variant_controls["scoring"].value == "points"
    assert "points ruleset, players: 3" in widget.heading.value
    assert "Venus 6, dog 2, coin 5" in widget.ruleset_control.about.value
    assert "New game: points ruleset, players: 3." in status(widget)


def test_an_option_changed_by_hand_shows_custom(widget):
    menu = widget.ruleset_control.menu
    widget.variant_controls["supply"].value = "full"
    assert menu.value == "custom" and widget.state.variant.supply == "full"
    assert "supply: all pieces" in widget.ruleset_control.about.value
    assert "custom (supply: all pieces)" in widget.heading.value
    widget.variant_controls["supply"].value = "by-players"   # back to a ruleset's options
    assert menu.value == "rulebook"
    widget.variant_controls["dog_throws"].value = "other"
    assert menu.value == "other edition"                     # options that are a ruleset
    menu.value = "custom"                                    # nothing to start: stays
    assert menu.value == "other edition" and widget.state.variant.dog_throws == "other"


def test_a_ruleset_chosen_mid_game_asks_first(widget):
    widget.play("r*")
    menu = widget.ruleset_control.menu
    menu.value = "points"
    assert widget.confirm_box.layout.display == "flex"
    assert "scoring: points" in widget.confirm_text.value
    assert "points ruleset" in widget.confirm_text.value
    assert widget.state.variant.scoring == "collection"       # nothing changed yet
    widget.confirm_no.click()
    assert menu.value == "rulebook" and widget.variant_controls["scoring"].value == \
        "collection" and widget.index == 2
    menu.value = "points"
    widget.confirm_yes.click()
    assert widget.state.variant.scoring == "points" and widget.index == 0
    assert widget.previous_games[0].ruleset == "rulebook"
    widget.restore(0)                                         # the menu follows the game
    assert menu.value == "rulebook" and widget.state.variant.scoring == "collection"


def test_a_loaded_record_shows_its_ruleset(widget):
    record = games.get("jactus").new(ruleset="other edition", seed=4).play("r*").record()
    widget.load(record.to_json())
    assert widget.ruleset_control.menu.value == "other edition"
    assert widget.variant_controls["dog_throws"].value == "other"


def test_set_ruleset_and_a_ruleset_at_the_start():
    w = GameWidget("jinns", ruleset="newer edition", players=3, seed=2, bot_delay=0)
    assert w.state.variant.placement == "random" and w.state.num_players == 3
    assert w.ruleset_control.value == "newer edition"
    w.set_ruleset("rulebook")
    assert w.state.variant.placement == "runs" and w.state.num_players == 3
    assert w.ruleset_control.value == "rulebook" and w.variant_controls["placement"].value \
        == "runs"
    with pytest.raises(ValueError, match="no ruleset 'house'"):
        w.set_ruleset("house")
    assert w.ruleset_control.value == "rulebook"            # nothing changed


def test_set_variant_and_bad_values(widget):
    widget.set_variant(players=5)
    assert widget.state.num_players == 5 and len(widget.seat_boxes) == 5
    with pytest.raises(ValueError, match="players=9"):
        widget.set_variant(players=9)
    assert widget.state.num_players == 5


def test_seed_box_and_new_game(widget):
    widget.seed_box.value = 99
    widget.new_button.click()
    assert widget.state.seed == 99
    widget.play("r*")
    again = GameWidget("jactus", seed=99, bot_delay=0)
    again.play("r*")
    assert again.state.dice == widget.state.dice


def test_save_and_load(widget, tmp_path):
    widget.play("r*")
    widget.play(f"r{widget.state.dice[0]}")
    path = widget.save(tmp_path / "g.json")
    other = GameWidget("jactus", record=path, bot_delay=0)
    assert other.state == widget.state and other.index == 4
    text = path.read_text()
    fresh = GameWidget("jactus", bot_delay=0)
    fresh.upload.value = ({"name": "g.json", "type": "application/json", "size": len(text),
                           "content": memoryview(text.encode()),
                           "last_modified": datetime.datetime.now(datetime.timezone.utc)},)
    assert fresh.state == widget.state


def test_corrupt_record_changes_nothing(widget, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)                          # the page's folder is here
    widget.play("r*")
    before = widget.state
    bad = tmp_path / "bad.json"
    data = json.loads(widget.record.to_json())
    data["moves"][1] = "=77777"
    bad.write_text(json.dumps(data))
    with pytest.raises(RecordError):
        widget.load(bad)
    assert widget.state == before and "move 1" in widget.message
    widget.path_box.value = "missing.json"             # in the page's own folder
    widget.load_button.click()                          # from the UI: no exception
    assert "cannot read" in widget.message and widget.state == before
    for outside in (str(tmp_path / "bad.json"), "../bad.json", "~/x.json", "x.txt"):
        widget.path_box.value = outside                 # the box reads its folder only
        widget.load_button.click()
        assert "janus-saves" in widget.message or "writes .json" in widget.message
        assert widget.state == before


def test_bots_reply_and_their_turn_refuses_clicks(widget):
    widget.set_bot(1, "random")
    widget.play("r*")
    # A rolled, B (bot) replied and its dice were thrown: A to move again.
    assert widget.state.current_player == 0 or widget.state.is_over
    assert widget.index >= 4
    widget.goto(2)                                       # B to move, a bot seat
    with pytest.raises(IllegalMoveError, match="bot"):
        widget.play(f"r{widget.state.dice[0]}")
    widget.click_key(("die", 0))
    widget.click_key(("button", "throw"))
    assert "bot" in widget.message and widget.index == 2


def test_any_callable_is_a_bot(widget):
    seen = []

    def first_move(view):
        seen.append(view)
        return view.legal_moves()[0]
    widget.set_bot(1, first_move)
    widget.play("r*")
    assert seen and widget.replay.moves[2] == seen[0].legal_moves()[0]
    assert "custom: function" in [label for label, _ in widget.seat_boxes[1].options]


def test_autoplay_replays_then_stops_for_a_human(widget):
    widget.play("r*")
    widget.play(f"r{widget.state.dice[0]}")
    widget.first()
    widget.autoplay()
    assert widget.index == 4 and not widget.autoplay_button.value


def test_abuse_never_raises_to_the_user(widget):
    """Hundreds of random clicks and control changes: no traceback, nothing lost."""
    stream = RandomStream(1)
    widget.set_bot(1, "random")
    for _ in range(300):
        x, y = stream.below(760), stream.below(470)
        widget.click(x, y)
        if stream.below(10) == 0:
            widget.back_button.click()
        if stream.below(25) == 0:
            widget.variant_controls["dog_throws"].value = stream.choice(["any", "other"])
            if widget.confirm_box.layout.display == "flex":
                stream.choice([widget.confirm_yes, widget.confirm_no]).click()
    assert widget.errors == []
    # Every game made along the way is either current or kept.
    played = sum(len(r.moves) for r in widget.previous_games) + widget.replay.length
    assert played > 0


def test_option_list_highlights_then_plays(widget):
    widget.play("r*")
    moves = widget.state.legal_moves()
    widget.options_list.value = 3
    assert widget.drawing.layers["highlight"]            # something outlined
    assert moves[3].notation in widget.message
    widget.play_button.click()
    assert widget.replay.moves[2] == moves[3]


def test_viewpoint_and_svg(widget):
    widget.set_viewpoint(1)
    assert widget.viewpoint == 1
    with pytest.raises(ValueError):
        widget.set_viewpoint(7)
    svg = widget.state._repr_svg_()
    assert svg.startswith("<svg") and "throw all five dice" in svg


def test_client_ready_repaints_everything(widget, sent):
    widget.play("r*")
    before = len(sent)
    widget.canvas._canvases[-1]._client_ready_callbacks()
    assert len(sent) == before + 1
    # the board layer is included: its background fill is in the message
    assert widget.frames >= 2


@pytest.mark.parametrize("name", games.names())
def test_every_game_plugs_into_the_shell(name):
    game = games.get(name)
    try:
        game.board()
    except ModuleNotFoundError:
        pytest.xfail(f"{name}: its canvas (draw.py) is not built yet")
    w = GameWidget(name, seed=1, bot_delay=0)
    assert w.drawing.width > 0 and render_svg(w.drawing).startswith("<svg")
    # Every legal move of the start position can be highlighted.
    for move in w.state.legal_moves()[:20]:
        w.select(move)
    assert w.errors == []


# --- the status line says what is true now (issue 14, items 5-8) ---------------------------
def test_a_refusal_goes_once_a_legal_selection_is_made(widget):
    widget.play("r*")
    widget.click_key(("button", "throw"))             # no dice chosen: refused
    assert "JA-6" in status(widget)
    widget.click_key(("die", 0))
    widget.click_key(("die", 1))                      # two dice chosen: allowed
    assert "JA-6" not in status(widget) and "Throw 2 dice" in widget.drawing.texts()
    widget.click_key(("button", "throw"))
    assert widget.index == 4 and "JA-6" not in status(widget)


def test_a_refusal_in_jinns_goes_with_the_next_allowed_click():
    w = GameWidget("jinns", seed=2, bot_delay=0)
    w.click_key(("cell", 5))                          # set-up: pawns come from the tray
    assert "JI-4" in status(w) and w.index == 0
    kind = w.state.legal_moves()[0].action - 256
    w.click_key(("tray", kind))                       # a pawn from the tray: placed
    assert w.index == 1 and "JI-4" not in status(w)
    assert w.message.startswith("A played ")


def test_a_bot_move_is_announced_and_bot_seats_are_marked(widget):
    widget.set_bot(1, "random")
    widget.play("r*")
    # The last move shown is the bot's (or its dice), never A's opening throw.
    states = widget.replay.states
    movers = [s.current_player for s in states[2:widget.index]]
    assert 1 in movers
    assert "A played r*" not in status(widget)
    widget.goto(3)                                     # right after B's (the bot's) move
    assert widget.message.startswith("B (bot) played r")
    assert "B (bot) played" in status(widget) and ": " in widget.message
    log = [label for label, _ in widget.move_log.options]
    assert any(entry.startswith("3. B (bot) ") for entry in log)
    assert "BOT" in widget.drawing.texts()             # on the canvas, beside B's name
    widget.set_bot(1, None)
    assert "BOT" not in widget.drawing.texts()


def test_new_game_variant_load_and_line_switch_reset_the_line(tmp_path):
    w = GameWidget("jactus", players=4, seed=3, bot_delay=0)
    for seat in (1, 2, 3):
        w.set_bot(seat, "random")
    w.play("r*")
    assert "D (bot) played" in status(w) or "Chance" in status(w)
    w.set_variant(players=2)                           # no seat D any more
    assert "D " not in status(w) and "played" not in status(w)
    w.play("r*")
    w.goto(0)
    assert "move 0/" in status(w) and "played" not in status(w) and "Chance" not in status(w)
    path = w.save(tmp_path / "g.json")
    w.last()
    w.load(path)
    assert f"Loaded {w.replay.length} moves" in status(w)
    w.back()
    assert "Loaded" not in status(w)
    w.set_bot(1, None)
    w.goto(1)
    w.play("=66666")                                   # a new line: five sixes
    assert len(w.replay.lines) == 2 and "new line" in status(w)
    w.switch_line(0)
    assert "new line" not in status(w) and "=66666" not in status(w)


def test_at_the_end_the_line_says_who_won_and_why():
    w = GameWidget("janus", seed=4, bot_delay=0)
    w.set_bot(0, "random")
    w.set_bot(1, "random")
    w.step()                                          # lay the tiles: the bots play it out
    assert w.state.is_over
    text = status(w)
    assert "Game over" in text and re.search(r"\(JB-\d+\)", text)
    assert any(f"{name} wins" in text or "share the win" in text for name in "AB")
    assert "shuffled" not in text.split("Game over")[1]
    w.goto(1)
    log = [label for label, _ in w.move_log.options]
    assert log[1] == "1. chance tiles shuffled and laid (JB-4)"   # one readable entry
    assert len(log) == 1 + 61                               # the log shows 60 moves on


def test_the_view_menu_always_shows_a_view():
    w = GameWidget("janus-cards", players=3, seed=1, bot_delay=0)
    for viewpoint, label in [(None, "everything (teacher)"), (0, "seat A"),
                             ("current", "the player to move")]:
        w.set_viewpoint(viewpoint)
        assert w.viewpoint_box.label == label
    w.viewpoint_box.value = "everything"               # as the menu does it
    assert w.viewpoint is None


# --- keyboard and screen readers (item 9) ----------------------------------------------------
def test_the_keys_step_choose_and_play(widget):
    widget.play("r*")
    widget.play(f"r{widget.state.dice[0]}")
    widget.press("ArrowLeft")
    assert widget.index == 3
    widget.press("Home")
    assert widget.index == 0
    widget.press("End")
    assert widget.index == 4
    widget.press("ArrowRight")                         # A to move: nothing, and it says so
    assert widget.index == 4 and "A is to move" in widget.message
    moves = widget.state.legal_moves()
    widget.press("ArrowDown")
    widget.press("ArrowDown")
    assert widget.options_list.value == 1 and moves[1].notation in widget.message
    widget.press("ArrowUp")
    widget.press("ArrowUp")                            # wraps round to the last
    assert widget.options_list.value == len(moves) - 1
    widget.press("Enter")
    assert widget.replay.moves[4] == moves[-1]
    widget.first()
    widget.press(" ")                                  # autoplay (no kernel: at once)
    assert widget.index == widget.replay.length
    with pytest.raises(ValueError, match="keys are"):
        widget.press("q")


def test_the_keyboard_widget_drives_the_shell(widget):
    widget.play("r*")
    widget.keyboard._handle_custom_msg({"key": "ArrowLeft"}, [])
    assert widget.index == 1
    widget.keyboard._handle_custom_msg({"key": "Enter"}, [])    # dice in the air
    assert "Chance acts here" in widget.message and widget.errors == []
    widget.keyboard._handle_custom_msg({"key": "End"}, [])
    widget.keyboard._handle_custom_msg({"key": "Enter"}, [])    # nothing selected
    assert "Select a move" in widget.message and widget.errors == []


def test_the_live_region_follows_the_move_and_the_view():
    w = GameWidget("janus-cards", players=3, seed=2, bot_delay=0, viewpoint=0)
    from janus_widgets.widgets.extras import deal_all
    deal_all(w)
    assert w.status.live.position == str(w.state.view(0))     # A's knowledge only
    assert w.status.live.position != str(w.state.view(None))
    w.play(w.state.legal_moves()[0])
    assert w.status.live.last.startswith("A played ")
    w.set_viewpoint(None)
    assert w.status.live.position == str(w.state.view(None))


# --- legal moves are never cut (item 2) ---------------------------------------------------------
@pytest.mark.parametrize("name", ["janus", "jinns", "janus-cards"])
def test_a_selected_move_shows_its_whole_description(name):
    w = GameWidget(name, seed=5, bot_delay=0)
    while w.state.is_chance:
        w.step()
    if w.drawing.find(("cover",)) is not None:           # a screen passed round: A takes it
        w.click_key(("cover",))
    move = max(w.state.legal_moves(), key=lambda m: len(m.description))
    w.select(move)
    assert move.description in status(w)
    labels = [label for label, _ in w.options_list.options]
    assert f"{move.notation} — {move.description}" in labels


# --- export (item 10) -------------------------------------------------------------------------
def test_pictures_and_animations_of_the_position_as_shown(widget, tmp_path, monkeypatch):
    from PIL import Image
    monkeypatch.chdir(tmp_path)
    widget.play("r*")
    widget.click_key(("die", 0))                       # a die lifted: shown, so saved
    svg = widget.save_picture(tmp_path / "pos.svg").read_text()
    assert "pick up" in svg and "Saved the picture" in widget.message
    png = Image.open(widget.save_picture(tmp_path / "pos.png"))
    assert png.size == (widget.drawing.width, widget.drawing.height)
    gif = Image.open(widget.save_animation(tmp_path / "game.gif", fps=2))
    assert gif.n_frames == widget.replay.length + 1 == 3 and gif.info["duration"] == 500
    widget.records.animation_box.value = "game.svg"
    widget.records.animation_button.click()            # from the Save / load tab
    assert (tmp_path / "janus-saves" / "game.svg").read_text().count("<animate ") == 3
    part = widget.save_animation(tmp_path / "part.svg", start=1, stop=2).read_text()
    assert part.count("<animate ") == 2
    with pytest.raises(ValueError, match="0 ≤ start ≤ stop ≤ 2"):
        widget.save_animation(tmp_path / "bad.svg", start=2, stop=5)
    widget.records.picture_box.value = "pos.jpg"
    widget.records.picture_button.click()              # refused, said, nothing written
    assert ".png or .svg" in widget.message and not list(tmp_path.rglob("pos.jpg"))


def test_an_animation_from_a_seat_shows_only_what_that_seat_knew(tmp_path):
    from janus_widgets.games.janus_cards.draw import draw
    from janus_widgets.widgets.extras import deal_all
    w = GameWidget("janus-cards", players=3, seed=4, bot_delay=0, viewpoint=1)
    deal_all(w)
    text = w.save_animation(tmp_path / "seat-b.svg").read_text().replace("\n", "")
    for state in w.replay.states:
        assert "".join(svg_body(draw(state.view(1)))) in text
    assert "".join(svg_body(draw(w.state.view(None)))) not in text


# --- the status line's scripted sequences, in every game (issue 14) ------------------------
def _past_chance(w):
    while w.state.is_chance:
        w.step()
    from janus_widgets.widgets.extras import deal_all
    if w.game.name == "janus-cards":
        deal_all(w)


@pytest.mark.parametrize("name", games.names())
def test_a_refusal_then_an_allowed_selection_in_every_game(name):
    w = GameWidget(name, seed=6, bot_delay=0, viewpoint=0)
    _past_chance(w)
    if name == "jinns":                               # a cell in set-up: JI-4
        w.click_key(("cell", 3))
    elif name == "jactus":                            # Throw with no die chosen: JA-6
        w.play("r*")
        w.click_key(("button", "throw"))
    elif name == "janus-cards":                       # two cards of one player: JC-8
        for key in (("card", "B1"), ("card", "B2"), ("button", "play")):
            w.click_key(key)
    else:                                             # a field the tile does not allow
        wrong = next(f for f in range(100)
                     if f not in w.state.targets and f not in w.state.columns)
        from janus_widgets.games.janus.draw import field_centre
        w.click(*field_centre(wrong))
    assert w.status.kind == "refused" and re.search(r"[A-Z]{2}-\d+", w.message), w.message
    refusal = w.message
    w.select(w.state.legal_moves()[0])                # allowed: the refusal goes
    assert refusal not in status(w) and w.message.startswith("Selected ")


@pytest.mark.parametrize("name", games.names())
def test_a_bot_reply_a_variant_change_and_a_load_in_every_game(name, tmp_path):
    w = GameWidget(name, seed=6, bot_delay=0, viewpoint=0)
    _past_chance(w)
    w.set_bot(1, "random")
    for _ in range(8):                                 # A moves until B (a bot) replies
        w.play(w.state.legal_moves()[0])
        if any(s.current_player == 1 for s in w.replay.states):
            break
    assert any(s.current_player == 1 for s in w.replay.states)
    assert "(bot) played" in status(w) or "Chance" in status(w)
    players = w.variant_controls["players"]
    players.value = players.options[-1][1] if hasattr(players, "options") else 3
    w.confirm_yes.click()                             # a new game with other players
    assert "New game" in status(w) and "played" not in status(w) and w.index == 0
    path = w.save(tmp_path / "g.json")                # seat A's view: A's record
    w.restore(0)                                       # the first game again, then load
    w.load(path)
    assert "Loaded seat A's record (0 moves)" in status(w) and "move 0/0" in status(w)
    w.load(w.previous_games[-1])                       # the one with moves
    n = w.replay.length
    assert f"Loaded {n} moves" in status(w) and f"move {n}/{n}" in status(w)


# --- issue 13: widget defects ---------------------------------------------------------
def test_item10_restore_into_an_empty_game_keeps_the_earlier_games_list_true(widget):
    """Play, new game, play, new game, restore entry 0, then entry 1: once wrong labels,
    then IndexError."""
    widget.play("r*")
    widget.new_game(seed=11)
    widget.play("r*")
    widget.play(f"r{widget.state.dice[0]}")
    widget.new_game(seed=12)                          # empty: restoring keeps nothing
    labels = lambda: [label for label, _ in widget.previous_box.options]  # noqa: E731
    assert len(labels()) == 2 and widget.previous_games[1].seed == 11
    widget.previous_box.value = 0
    widget.restore_button.click()
    assert widget.state.seed == 3 and widget.index == 2
    assert len(widget.previous_games) == 1 and labels() == [
        f"1: jactus, seed 11, {len(widget.previous_games[0].moves)} moves"]
    widget.previous_box.value = 0
    widget.restore_button.click()                     # the game of seed 11; 3 is kept
    assert widget.state.seed == 11 and widget.errors == []
    assert [r.seed for r in widget.previous_games] == [3]
    assert labels() == ["1: jactus, seed 3, 2 moves"]
    with pytest.raises(ValueError, match="no earlier game 5"):
        widget.restore(5)


def test_item11_the_play_button_and_a_refused_move_at_a_chance_point_change_nothing(widget):
    widget.play("r*")
    widget.play(f"r{widget.state.dice[0]}")
    widget.replay.goto(3)                       # B's die in the air, at the end of the line
    widget.replay.truncate()
    widget.goto(3)
    assert widget.state.is_chance and widget.replay.at_end
    before = (widget.replay.length, widget.state, widget.replay.record().moves)
    widget.options_list.value = -1              # the "(chance) press ▶" entry
    widget.play_button.click()                  # once IndexError
    assert "Chance acts here" in widget.message and widget.errors == []
    for garbage in ("r7", "coin", "=12345", 42):
        with pytest.raises(ValueError):         # once: chance resolved, then refused
            widget.play(garbage)
        assert (widget.replay.length, widget.state, widget.replay.record().moves) == before
    # A legal move there is played after chance acts, as before.
    legal = widget.state.play_chance().legal_moves()[0]
    widget.play(legal)
    assert widget.replay.moves[3].chance and widget.replay.moves[4] == legal
    assert widget.message.startswith(("A played", "B played"))


def test_item12_a_loaded_game_is_shown_as_saved_and_its_bots_wait(tmp_path):
    w = GameWidget("jactus", seed=4, bot_delay=0)
    for _ in range(3):
        w.play("r*" if w.state.phase == "open" else f"r{w.state.dice[0]}")
    path = w.save(tmp_path / "g.json")
    saved = w.replay.length
    for loaded in (GameWidget("jactus", bot_delay=0, record=path,
                              bots={w.state.current_player: "random"}),
                   GameWidget("jactus", bot_delay=0, bots={0: "random", 1: "random"})):
        if loaded.replay.length != saved:
            loaded.load(path)
        assert loaded.replay.length == saved and loaded.state == w.state
        assert "bot" in loaded.message and "step" in loaded.message
        loaded.set_bot(0, "greedy")                   # choosing a bot: still waits
        assert loaded.replay.length == saved
        assert loaded.step() and loaded.replay.length > saved   # the user steps: it moves
    restored = GameWidget("jactus", seed=4, bot_delay=0, record=path)
    restored.new_game()
    restored.set_bot(w.state.current_player, "random")
    restored.restore(0)
    assert restored.replay.length == saved and "shown as it was" in restored.message


def test_item13_load_reports_every_failure_in_the_status_line(widget, tmp_path):
    widget.play("r*")
    before = widget.state
    folder = tmp_path / "folder"
    folder.mkdir()
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    listed = tmp_path / "listed.json"
    data = json.loads(widget.record.to_json())
    data["variant"] = [2]
    listed.write_text(json.dumps(data))
    other = tmp_path / "jinns.json"
    games.get("jinns").new(seed=1).record().save(other)
    cases = [(folder, "is a folder"), (deep, "nested too deeply"),
             (listed, "'variant' must be an object"), (other, "jinns game"),
             (tmp_path / "missing.json", "cannot read"), (3.5, "not float"),
             ("{not json", "not valid JSON")]
    for source, message in cases:
        with pytest.raises(RecordError):
            widget.load(source)
        assert message in widget.message and "Could not load" in widget.message, source
        assert widget.state == before and widget.errors == []
        widget.path_box.value = str(source)
        widget.load_button.click()                       # from the UI: no exception
        said = widget.message                             # the box names its own folder
        assert any(x in said for x in ("Could not load", "janus-saves", "writes .json"))
        assert widget.state == before


def test_a_failed_save_says_why_and_leaves_nothing(widget, tmp_path):
    (tmp_path / "folder").mkdir()
    with pytest.raises(RecordError, match="Could not save"):
        widget.save(tmp_path / "folder")
    assert "Could not save" in widget.message
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder"]


def test_lock_view_keeps_a_student_on_their_seat():
    w = GameWidget("janus-cards", players=3, seed=2, bot_delay=0, viewpoint=1,
                   lock_view=True)
    assert w.viewpoint_box.disabled and w.viewpoint == 1
    with pytest.raises(ValueError, match="not allowed"):
        GameWidget("jactus", viewpoint=7, bot_delay=0)


def test_the_note_that_a_bot_waits_leaves_once_it_moves(tmp_path):
    w = GameWidget("jactus", seed=4, bot_delay=0)
    w.play("r*")
    path = w.save(tmp_path / "g.json")
    other = GameWidget("jactus", bot_delay=0, bots={1: "random"}, record=path)
    assert "B is played by a bot" in other.message
    other.step()
    assert "B is played by a bot" not in other.message and other.replay.length > 2


# --- issue 13's shell behaviour in the parts of issue 14 -------------------------------------
def test_the_note_that_a_bot_waits_is_true_whenever_it_is_shown(tmp_path):
    w = GameWidget("jactus", seed=4, bot_delay=0)
    w.play("r*")
    path = w.save(tmp_path / "g.json")
    other = GameWidget("jactus", bot_delay=0, record=path)
    assert "played by a bot" not in other.message           # no bot: no note
    other.set_bot(1, "random")                               # a bot now: it waits, says so
    assert "B is played by a bot" in other.message and other.replay.length == 2
    assert "B is played by a bot" in status(other) and "Loaded 2 moves" in other.message
    other.set_bot(1, None)                                   # a person again: the note goes
    assert "played by a bot" not in status(other) and other.replay.length == 2


def test_a_screen_passed_round_shows_the_tables_view_at_a_chance_point():
    from janus_widgets.core import TABLE
    w = GameWidget("janus-cards", players=3, seed=9, bot_delay=0, viewpoint="current")
    from janus_widgets.widgets.extras import deal_all
    deal_all(w)
    for _ in range(6):
        w.play(w.state.legal_moves()[0])
    w.goto(max(i for i, s in enumerate(w.replay.states) if s.is_chance))
    assert w.state.is_chance and w.view == w.state.view(TABLE) != w.state.view(None)
    line = w.replay.current_line
    raws = list(line.raws(0, len(line)))
    expected = [f"{i + 1}. " for i in range(len(line))]
    log = [label for label, _ in w.move_log.options][1:]
    for i, (entry, raw) in enumerate(zip(log, raws)):         # every entry: the table's
        told = w.state.engine.log_entry(raw, line.actions[i], TABLE)
        assert entry.startswith(expected[i]) and entry.endswith(told)


def test_a_seats_record_hides_the_deal_button_and_says_who_moved(tmp_path):
    from janus_widgets.widgets.extras import DEAL_CLASS
    w = GameWidget("janus-cards", players=3, seed=3, bot_delay=0, viewpoint=0)
    w.step()                                                  # one card dealt
    w.load(w.save(tmp_path / "a.json"))                       # A's record, at a deal
    assert w.seat_mode and w.state.is_chance
    deal = [c for c in w.extras.children if DEAL_CLASS in c._dom_classes]
    assert deal and deal[0].layout.display == "none"
    told = w.replay.observations[0]                           # what A was told: "=h/h"
    names = dict(zip("smhckfltbrw", ("sun", "moon", "heart", "crown", "key", "fish",
                                     "leaf", "bell", "tree", "ring", "wave")))
    front, back = told[1:].split("/")
    assert f"Chance: dealt A a card ({names[front]} / {names[back]})." in status(w)  # words
    assert "(1 move)" in w.message
    assert w.status.live.last.startswith("Chance: dealt A") and ".." not in w.status.live.last
    w.press("ArrowDown")                                      # no list to walk: it says why
    assert "not played on" in w.message and w.errors == []


def test_two_quick_back_clicks_go_two_moves_back(monkeypatch):
    """In the browser the step row is shown a moment after the cursor moves; a second
    click of ← in that moment must still go one further back, and ⏭ to the real end."""
    from janus_widgets.widgets import shell

    waiting = []

    class Loop:                                          # the kernel's loop, held still
        def call_later(self, delay, callback):
            waiting.append(callback)

    widget = GameWidget("jactus", seed=3, bot_delay=0)
    widget.play("r*")
    widget.play(f"r{widget.state.dice[0]}")
    end = widget.index
    monkeypatch.setattr(shell, "kernel_loop", lambda: Loop())
    widget.back_button.click()
    widget.back_button.click()                           # the row still shows the end
    assert widget.index == end - 2 and waiting           # the row's refresh is due
    widget.last_button.click()
    assert widget.index == end
    for callback in waiting:
        callback()
    assert widget.stepbar.slider.value == end

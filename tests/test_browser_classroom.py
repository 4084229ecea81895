"""The widget on a classroom screen (issue 14), in headless Chromium: JupyterLab with the
file browser open and Voila, at 1366×768 and 1920×1080, every game.

One notebook holds a widget of each game; one page load per environment covers the
layout at both sizes (bounding boxes inside the part of the screen the notebook shows),
clicks on scaled canvases, the keyboard, the ``aria-live`` text, and scripted sequences
of what the status line must say (a refusal then an allowed selection, a bot's reply, a
variant change, a load).
"""

from __future__ import annotations

import os
import shutil

import pytest

from browser_support import (ALL_GAMES, ARTIFACTS, click_canvas, cut_labels, eventually,
                             kernel, layout, open_lab_notebook, picture, run_all_cells,
                             SIZES, voila_page, wait_painted, wait_picture_change,
                             widget_status, widgets_notebook)
from conftest import ROOT

pytestmark = pytest.mark.browser

#: The four widgets, in page order: (variable, game, options).
WIDGETS = ALL_GAMES
STEP_BUTTONS = ["Go to the start", "One move back", "One move forward, or the dice's or a "
                "bot's move", "Go to the last move", "Step forward on a timer: replay, dice "
                "and bots"]


def classroom_notebook(folder) -> str:
    return widgets_notebook(folder, "classroom.ipynb")


def check_fits(page, index: int, label: str) -> dict:
    """Canvas, step buttons and status line all inside what the screen shows, the canvas
    never wider than the output area; the moves panel beside the canvas or under the
    status line."""
    box = layout(page, index)
    shown = box["shown"]

    def inside(part: dict, name: str) -> None:
        assert part is not None, f"{label}: no {name}"
        assert (part["left"] >= shown["left"] - 1 and part["right"] <= shown["right"] + 1
                and part["top"] >= shown["top"] - 1
                and part["bottom"] <= shown["bottom"] + 1), (label, name, part, shown)

    inside(box["canvas"], "canvas")
    for name in STEP_BUTTONS:
        title = name.split(" (")[0]
        inside(box["buttons"].get(title), title)
    inside(box["status"], "status line")
    cut = cut_labels(page, ".janus-widget")
    assert cut == [], (label, cut)                      # every label shown in full
    canvas, side = box["canvas"], box["side"]
    assert canvas["width"] <= box["output"]["width"] + 1, (label, canvas, box["output"])
    # Scaled, the canvas keeps its aspect ratio.
    ratio = box["canvasWidth"] / box["canvasHeight"]
    assert abs(canvas["width"] / canvas["height"] - ratio) < 0.01, (label, canvas)
    beside = side["left"] >= canvas["right"] - 1 and side["top"] < canvas["bottom"]
    below = side["top"] >= box["status"]["bottom"] - 1
    assert beside or below, (label, side, canvas, box["status"])
    return box


def region_centre(page, widget: str, key) -> tuple[float, float]:
    """The centre of a region of the picture the kernel's widget shows."""
    x, y = kernel(page, f"print(*{widget}.drawing.find({key!r}).center())").split()
    return float(x), float(y)


def scaled_click_checks(page, label: str) -> None:
    """A click on a scaled canvas means the region drawn there (checked in the kernel)."""
    for index, (var, _, _) in enumerate(WIDGETS):
        if var != "jactus":                            # Jactus fits unscaled at 1366
            box = layout(page, index)
            assert box["canvas"]["width"] < box["canvasWidth"] - 20, f"{label}: {var}"
    clicks = [(0, "janus", ("button", "lay"), "janus.state.phase", "move"),
              (2, "cards", ("button", "deal"), "cards.index", "1")]
    kind = int(kernel_value(page, "jinns.state.legal_moves()[1].action - 256"))
    notation = kernel_value(page, "jinns.state.legal_moves()[1].notation")
    clicks.append((3, "jinns", ("tray", kind), "str(jinns.replay.moves[0])", notation))
    for index, var, key, expression, wanted in clicks:
        before = picture(page, index)
        click_canvas(page, *region_centre(page, var, key), index=index)
        wait_picture_change(page, before, index=index)
        assert kernel_value(page, expression) == wanted, (label, var, key)


def kernel_value(page, expression: str) -> str:
    return kernel(page, f"print({expression})").strip()


def wait_status(page, index: int, text: str, present: bool = True,
                timeout: float = 20_000) -> None:
    page.wait_for_function(
        """([index, text, present]) => {
             const s = document.querySelectorAll('.janus-widget .janus-status')[index];
             return s && s.innerText.includes(text) === present;
           }""", arg=[index, text, present], timeout=timeout)


def save_screenshot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name))
    if os.environ.get("JANUS_UPDATE_SCREENSHOTS"):
        shutil.copy(ARTIFACTS / name, ROOT / "docs" / name)


def test_classroom_screens_in_jupyterlab(lab, page, tmp_path):
    base, work = lab
    name = classroom_notebook(work)
    page.set_viewport_size({"width": 1366, "height": 768})
    open_lab_notebook(page, base, name, file_browser=True)
    run_all_cells(page)
    for index in range(len(WIDGETS)):
        wait_painted(page, index)
    assert page.locator(".jp-FileBrowser").is_visible()
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        for index, (var, _, _) in enumerate(WIDGETS):
            check_fits(page, index, f"JupyterLab {width}×{height} {var}")
    # Big mode (a projector): one toggle; the canvas grows to the output's width and is
    # on screen whole (the step bar and the status line follow it: test_browser_screen).
    normal = layout(page, 1)["canvas"]["width"]
    page.locator(".janus-widget").nth(1).get_by_role("button", name="Big").click()
    page.wait_for_function("() => document.querySelectorAll('.janus-widget')[1]"
                           ".classList.contains('janus-big')")
    page.wait_for_timeout(300)
    big = layout(page, 1)
    assert big["canvas"]["top"] >= big["shown"]["top"] - 1
    assert big["canvas"]["bottom"] <= big["shown"]["bottom"] + 1, big
    assert big["canvas"]["width"] > normal * 1.2 and big["canvasWidth"] > 760
    assert big["canvas"]["width"] >= big["output"]["width"] - 2, big
    page.locator(".janus-widget").nth(1).get_by_role("button", name="Big").click()
    page.set_viewport_size({"width": 1366, "height": 768})
    scaled_click_checks(page, "JupyterLab 1366×768")
    kernel(page, "janus.play(janus.state.legal_moves()[0]); janus.select(janus.state."
                 "legal_moves()[-1])")
    for width, height in reversed(SIZES):              # for the README and docs/
        page.set_viewport_size({"width": width, "height": height})
        layout(page, 0)
        save_screenshot(page, f"classroom-{width}x{height}.png")
    keyboard_and_live_region(page)
    status_sequences(page)
    assert kernel_value(page, "[w.errors for w in (janus, jactus, cards, jinns)]") == \
        "[[], [], [], []]"
    assert not page.errors, page.errors


def keyboard_and_live_region(page) -> None:
    """Keys with the widget focused; Tab leaves the canvas; the live region follows."""
    root = page.locator(".janus-widget").nth(0)
    live = root.locator(".janus-live")
    kernel(page, "janus.goto(1)")
    wait_status(page, 0, "move 1/2")
    root.focus()
    page.keyboard.press("ArrowDown")                 # the first legal move is selected
    wait_status(page, 0, "Selected ")
    before_live = live.text_content()
    page.keyboard.press("Enter")                     # ... and played
    page.wait_for_function("() => document.querySelector('.janus-live')"
                           ".textContent.includes('A played')")
    assert kernel_value(page, "janus.index") == "2"
    assert live.text_content() != before_live
    position = kernel_value(page, "str(janus.state).splitlines()[0]")
    assert position in live.text_content()            # the position's text form
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => document.querySelector('.janus-widget .janus-status')"
                           ".innerText.includes('move 1/2')")
    page.keyboard.press("End")
    wait_status(page, 0, "move 2/2")
    page.keyboard.press("Home")
    wait_status(page, 0, "move 0/2")
    page.keyboard.press("ArrowRight")
    wait_status(page, 0, "move 1/2")
    page.keyboard.press(" ")                          # autoplay replays to the end
    wait_status(page, 0, "move 2/2")
    # A human is to move: autoplay stops by itself (on its next tick) and says so.
    def stopped() -> None:
        assert kernel_value(page, "janus.table.autoplaying") == "False"
    eventually(stopped, timeout=10)
    # Tab out of the canvas (ipycanvas would keep it).
    root.locator("canvas").first.focus()
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.tagName") != "CANVAS"
    assert root.get_attribute("aria-label").startswith("Janus game. Keys:")


def status_sequences(page) -> None:
    """What the status line says after scripted steps, in every game."""
    from janus_widgets.games.jactus.draw import draw as jactus_draw
    from janus_widgets import games
    # Jactus: a refusal, then an allowed selection, then a bot's reply.
    kernel(page, "jactus.new_game(seed=8); jactus.set_bot(1, 'random'); jactus.play('r*')")
    start = games.get("jactus").new(players=4, seed=8).play("r*")
    start = start.play(start.sample_chance())
    shown = jactus_draw(start)
    click_canvas(page, *shown.find(("button", "throw")).center(), index=1)
    wait_status(page, 1, "JA-6")
    for die in (0, 1):
        click_canvas(page, *shown.find(("die", die)).center(), index=1)
    wait_status(page, 1, "JA-6", present=False)
    click_canvas(page, *shown.find(("button", "throw")).center(), index=1)
    wait_status(page, 1, "B (bot) played", timeout=30_000)
    # The card game: two cards of one player is refused (JC-8), one card is allowed.
    kernel(page, "from janus_widgets.widgets.extras import deal_all\n"
                 "cards.new_game(seed=5); cards.set_viewpoint(0); deal_all(cards)")
    from janus_widgets.games.janus_cards.draw import BUTTON_W, BUTTON_X, MID_Y, CARD_W, \
        HALF_H, card_origin
    card = [(lambda x, y: (x + CARD_W / 2, y + HALF_H))(*card_origin(3, 1, slot))
            for slot in (0, 1)]
    click_canvas(page, *card[0], index=2)
    click_canvas(page, *card[1], index=2)
    click_canvas(page, BUTTON_X + BUTTON_W / 2, MID_Y + 36, index=2)
    wait_status(page, 2, "JC-8")
    click_canvas(page, *card[1], index=2)
    wait_status(page, 2, "JC-8", present=False)
    # Jinns: a variant change starts a new game and says so; nothing of the old remains.
    widget = page.locator(".janus-widget").nth(3)
    players = widget.locator(".widget-dropdown").filter(
        has=page.locator("label", has_text="players")).locator("select").first
    players.select_option(label="4")
    widget.get_by_role("button", name="Start the new game").click()
    wait_status(page, 3, "New game")
    assert "played" not in widget_status(page, 3)
    assert kernel_value(page, "jinns.state.num_players, jinns.index") == "4 0"
    # Janus: a saved game loaded from the Save / load tab.
    kernel(page, "import os; os.makedirs('janus-saves', exist_ok=True); "
                 "janus.save('janus-saves/classroom-janus.json'); janus.new_game(seed=1)")
    widget = page.locator(".janus-widget").nth(0)
    widget.locator(".lm-TabBar-tab", has_text="Save / load").click()
    widget.locator("input[type=text]").first.fill("classroom-janus.json")
    widget.locator('button[title="Load"]').click()
    wait_status(page, 0, "Loaded 2 moves")
    assert "move 2/2" in widget_status(page, 0)


def test_classroom_screens_in_voila(page, tmp_path):
    with voila_page(page, classroom_notebook, tmp_path, len(WIDGETS)):
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            for index, (var, _, _) in enumerate(WIDGETS):
                check_fits(page, index, f"Voila {width}×{height} {var}")
        page.set_viewport_size({"width": 1366, "height": 768})
        # A click on the scaled Janus canvas lays the tiles; the keys step back.
        from janus_widgets.games.janus.draw import button_box
        box = layout(page, 0)
        assert box["canvas"]["width"] < box["canvasWidth"]
        x, y, w, h = button_box(2)
        before = picture(page, 0)
        click_canvas(page, x + w / 2, y + h / 2, index=0)
        wait_picture_change(page, before, index=0)
        wait_status(page, 0, "move 1/1")
        assert "tiles shuffled and laid" in widget_status(page, 0)
        page.locator(".janus-widget").nth(0).focus()
        page.keyboard.press("ArrowLeft")
        wait_status(page, 0, "move 0/1")
        assert "played" not in widget_status(page, 0)
    assert not [e for e in page.errors if "setAttr" in e], page.errors

"""Widgets in a real browser: JupyterLab and Voila in headless Chromium.

Every notebook is opened in JupyterLab and run; its canvases must be painted
and no cell may fail. Each game's canvas is then clicked like a person would
and checked by its pixels and by the kernel's state.
"""

from __future__ import annotations

import pytest
from browser_support import (
    click_canvas,
    close_in_lab_app,
    lab_app_page,
    open_in_lab_app,
    error_outputs,
    eventually,
    kernel,
    open_lab_notebook,
    picture,
    pixel,
    rgb,
    run_all_cells,
    scratch_notebooks,
    screenshot_widget,
    voila,
    voila_tree,
    wait_painted,
    wait_picture,
    wait_picture_change,
    wait_pixel,
    widget_button,
    widget_errors,
    widget_status,
)

from conftest import ROOT
from janus_widgets import games

pytestmark = pytest.mark.browser

NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))


@pytest.fixture(scope="module")
def lab_app(lab, browser):
    """One JupyterLab page that every notebook below opens in, in turn."""
    page = lab_app_page(browser, lab[0])
    yield page
    page.context.close()


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_runs_in_jupyterlab(lab_app, name):
    page = lab_app
    open_in_lab_app(page, name)
    try:
        run_all_cells(page)
        assert error_outputs(page) == []
        canvases = page.locator(".janus-canvas").count()
        for index in range(canvases):
            wait_painted(page, index)
            shot = picture(page, index)
            assert shot["painted"] == shot["w"] * shot["h"], "the whole canvas is painted"
        assert not [e for e in page.errors if "setAttr" in e], page.errors
    finally:
        close_in_lab_app(page)


# --- Jactus ----------------------------------------------------------------------
def dice_in_kernel(page) -> tuple[int, ...]:
    return tuple(int(v) for v in kernel(page, "print(*game.state.dice)").split())


def check_dice_pixels(page, dice) -> None:
    """Each die drawn where it belongs, with its pips: the centre pip is there for odd
    values, the top-left pip for values from 2 up."""
    from janus_widgets.games.jactus.draw import DIE, die_origin
    for i, value in enumerate(dice):
        x, y = die_origin(i)
        cx, cy = x + DIE / 2, y + DIE / 2
        step = DIE * 0.27
        centre = pixel(page, cx, cy)
        corner = pixel(page, cx - step, cy - step)
        assert (sum(centre[:3]) < 200) == (value % 2 == 1), (i, value, centre)
        assert (sum(corner[:3]) < 200) == (value >= 2), (i, value, corner)
        edge = pixel(page, x, y + DIE / 2)                # the die's dark outline
        assert sum(edge[:3]) < 300, (i, edge)


def check_piece_pixels(page, players: int = 3) -> None:
    """The supply's and every seat's Venus cards, dog cards and coins are drawn where the
    drawing puts them, each in its kind's colour (sampled just inside its top edge, between the outline and the inner line)."""
    from janus_widgets.games.jactus.draw import PIECES, draw
    from janus_widgets.games.jactus.rules import COIN, DOG, VENUS
    drawing = draw(games.get("jactus").new(players=players, seed=0))
    keys = [("supply", k) for k in (VENUS, DOG, COIN)]
    keys += [("held", p, k) for p in range(players) for k in (VENUS, DOG, COIN)]
    for key in keys:
        region = drawing.find(key)
        assert region is not None, key
        want = rgb(PIECES[key[-1]][0])
        if region.kind == "rect":                       # a card: (x, y, w, h)
            x, y, w, _ = region.geometry
            top = (x + w / 2, y + 1.8)
        else:                                           # a coin: (cx, cy, r)
            cx, cy, r = region.geometry
            top = (cx, cy - r + 1.8)
        got = pixel(page, *top)
        assert all(abs(a - b) <= 40 for a, b in zip(got[:3], want)), (key, got, want)


def jactus_region(key) -> tuple[float, float]:
    """Canvas coordinates of a Jactus region that does not move (buttons, supply)."""
    from janus_widgets.games.jactus.draw import draw
    state = games.get("jactus").new(players=3, seed=0).play("r*").play("=12345")
    region = draw(state).find(key)
    assert region is not None, key
    return region.center()


def test_jactus_canvas_in_jupyterlab(lab, page):
    from janus_widgets.games.jactus.draw import DIE, die_origin
    throw = jactus_region(("button", "throw"))
    base, _ = lab
    open_lab_notebook(page, base, "jactus.ipynb")
    run_all_cells(page)
    wait_painted(page, 0)
    kernel(page, "game.new_game(seed=5)")
    opening = picture(page)
    # Click "Throw all five": the kernel throws, the dice appear on the canvas.
    click_canvas(page, *throw)
    wait_picture_change(page, opening)
    assert kernel(page, "print(game.index)").strip() == "2"
    dice = dice_in_kernel(page)
    assert len(dice) == 5
    eventually(lambda: check_dice_pixels(page, dice))
    eventually(lambda: check_piece_pixels(page))
    before_pick = picture(page)
    # Choose dice 0 and 4: they lift.
    x0, y0 = die_origin(0)
    click_canvas(page, x0 + DIE / 2, y0 + DIE / 2)
    x4, y4 = die_origin(4)
    click_canvas(page, x4 + DIE / 2, y4 + DIE / 2)
    # Pixels arrive a frame after the kernel has handled the click: wait for them.
    wait_pixel(page, x0 + DIE / 2, y0 - 6, (255, 247, 214))   # the lifted die's face colour
    assert kernel(page, "print(sorted(game._selection))").strip() == "[0, 4]"
    # Throw them: two more plies (the pick-up and the throw) in the kernel.
    shown = picture(page)
    click_canvas(page, *throw)
    wait_picture_change(page, shown)
    assert kernel(page, "print(game.index)").strip() == "4"
    assert kernel(page, "print(game.replay.moves[2])").strip() == f"r{dice[0]}{dice[4]}"
    wait_pixel(page, x4 + DIE / 2, y4 - 6, (232, 223, 200))  # nothing lifted any more
    thrown = dice_in_kernel(page)
    eventually(lambda: check_dice_pixels(page, thrown))
    # A refused click names its rule in the status line.
    click_canvas(page, *jactus_region(("supply", 0)))       # the Venus card in the supply
    page.wait_for_function(
        "() => document.querySelector('.janus-widget .janus-status').innerText.includes('JA-8')")
    assert "JA-8" in widget_status(page)
    # Step back twice with the buttons: the picture returns.
    after = picture(page)
    widget_button(page, "One move back (←)").click()
    wait_picture_change(page, after)
    widget_button(page, "One move back (←)").click()
    wait_picture(page, before_pick)
    assert kernel(page, "print(game.index)").strip() == "2"
    screenshot_widget(page, "jactus-widget.png")
    assert not page.errors, page.errors


def test_jactus_solver_bot_and_hint_in_jupyterlab(lab, page):
    """The lesson's game: B is the optimal bot, the best-move hint follows the position."""
    base, _ = lab
    open_lab_notebook(page, base, "solving-jactus.ipynb")
    run_all_cells(page)
    assert error_outputs(page) == []
    widget = page.locator(".janus-widget").first
    widget.scroll_into_view_if_needed()
    hint = widget.locator(".jactus-hint-panel")
    hint.filter(has_text="Best for A").wait_for(timeout=60_000)
    assert "r*" in hint.inner_text()
    index = kernel(page, "print(game.index)").strip()
    kernel(page, "game.bot_delay = 0")
    click_canvas(page, *jactus_region(("button", "throw")))      # A throws all five
    # The solver answers for B at once; the hint then shows A's choices with a best move.
    page.wait_for_function(
        "() => [...document.querySelectorAll('.jactus-hint-panel')].some("
        "e => e.innerText.includes('Best for A') && e.innerText.includes('★')"
        " && e.innerText.includes('short of the best'))", timeout=60_000)
    assert int(kernel(page, "print(game.index)").strip()) >= int(index) + 4
    assert kernel(page, "print(game.replay.moves[2] == sol.move(game.replay.states[2]))"
                  ).strip() == "True"
    # The seat menus offer the optimal bot; switching the hint off empties the panel.
    assert widget.locator("select option", has_text="optimal bot").count() >= 2
    widget.locator("button", has_text="Best move (solver)").click()
    page.wait_for_function(
        "() => document.querySelector('.jactus-hint-panel').innerText.trim() === ''")
    assert not [e for e in page.errors if "setAttr" in e], page.errors


def test_jactus_in_voila(page, tmp_path):
    work = scratch_notebooks(ROOT, tmp_path)
    with voila(work / "jactus.ipynb", tmp_path / "voila.log") as url:
        page.goto(url, wait_until="domcontentloaded")
        page.wait_for_selector(".janus-canvas", timeout=120_000)
        wait_painted(page, 0, timeout=120_000)
        assert "import janus_widgets" not in page.inner_text("body")   # no code shown
        opening = picture(page)
        assert opening["painted"] == opening["w"] * opening["h"]
        assert "move 0/0" in widget_status(page)
        click_canvas(page, *jactus_region(("button", "throw")))  # throw all five
        wait_picture_change(page, opening)
        page.wait_for_function(
            "() => document.querySelector('.janus-widget .janus-status')"
            ".innerText.includes('move 2/2')")
        from janus_widgets.games.jactus.draw import DIE, die_origin
        x, y = die_origin(0)
        assert pixel(page, x + 3, y + DIE / 2)[:3] != (153, 153, 153)  # a die, not "?"
        assert widget_errors(page) == []
    real_errors = [e for e in page.errors if "setAttr" in e]
    assert not real_errors, real_errors


# --- lessons as Voila apps (the classroom mode: no code shown) ------------------------
#: Every lesson is driven from the top in test_browser_lesson_controls.py (no second page here).
DRIVEN_ELSEWHERE = ["solving-jactus", "jactus-odds", "jactus-strategy", "roman-dice",
                    "janus-tolls", "what-can-i-know", "jinns-counting", "game-design-lab"]


# Notebooks another Voila test above already opens (and checks for widget errors), and
# bigger-studies: long computations on processes and a Dask cluster for JupyterLab, not a
# page (checked in JupyterLab above).
OPENED_ABOVE = ({"jactus.ipynb", "bigger-studies.ipynb"}
                | {f"{name}.ipynb" for name in DRIVEN_ELSEWHERE})


@pytest.fixture(scope="module")
def voila_pages(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("voila-tree")
    work = scratch_notebooks(ROOT, tmp)
    with voila_tree(work, tmp / "voila.log") as base:
        yield base


@pytest.mark.parametrize("name", [n for n in NOTEBOOKS if n not in OPENED_ABOVE])
def test_no_widget_error_in_voila(voila_pages, page, name):
    """Every notebook as a Voila page shows all its widgets: none left pointing at a
    model that is gone (progress bars were: "Error displaying widget: model not found")."""
    page.goto(f"{voila_pages}voila/render/{name}", wait_until="load", timeout=300_000)
    page.wait_for_timeout(3000)                   # the widget manager renders the views
    assert widget_errors(page) == [], name
    assert not [e for e in page.errors if "setAttr" in e], page.errors

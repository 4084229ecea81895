"""Jinns of the Lake in a real browser: the canvas in JupyterLab, clicked and checked by its
pixels and by the kernel's state."""

from __future__ import annotations

import json
import re

import pytest

from browser_support import (rgb, screenshot_widget, click_canvas, eventually, kernel, open_lab_notebook,
                             picture, pixel, run_all_cells, wait_painted, wait_picture_change,
                             wait_pixel)
from janus_widgets.games.jinns.draw import (INK, PANEL_X, PAWN_FILL, _seat_box, cell_point,
                                            pawn_box)

pytestmark = pytest.mark.browser

COLOURS = "YBRG"
PAWN_RGB = [rgb(c) for c in PAWN_FILL]


def kernel_json(page, expression: str):
    return json.loads(kernel(page, f"import json; print(json.dumps({expression}))"))


def kernel_piles(page) -> list[list[str]]:
    return kernel_json(page, "[[str(p) for p in pile] for pile in game.state.piles]")


def check_ring(page, piles) -> None:
    """Every pawn of every pile is painted in its colour at its place on the ring, and an
    empty cell shows no pawn."""
    for cell, pile in enumerate(piles):
        for level, pawn in enumerate(pile):
            x, y, w, h = pawn_box(cell, level)
            got = pixel(page, x + 3, y + h / 2)[:3]
            assert got == PAWN_RGB[COLOURS.index(pawn[0])], (cell, level, pawn, got)
        if not pile:
            x, y, w, h = pawn_box(cell, 0)
            got = pixel(page, x + 3, y + h / 2)[:3]
            assert got not in PAWN_RGB, (cell, got)


def test_jinns_canvas_in_jupyterlab(lab, page):
    base, _ = lab
    open_lab_notebook(page, base, "jinns.ipynb")
    run_all_cells(page)
    wait_painted(page, 0)
    kernel(page, "game.new_game(seed=5)")
    eventually(lambda: check_ring(page, [[]] * 32))      # an empty ring to start from
    # Placement by clicking the tray: the first pawn of the yellow run goes onto cell 0.
    start = picture(page)
    kind = int(kernel(page, "print(game.state.legal_moves()[2].action - 256)"))
    from janus_widgets.games.jinns.draw import draw
    from janus_widgets.games.jinns.rules import GAME
    tray = draw(GAME.new(seed=5)).find(("tray", kind))
    click_canvas(page, *tray.center())
    wait_picture_change(page, start)
    assert kernel(page, "print(game.index, game.state.piles[0][0])").split() == [
        "1", COLOURS[kind // 4] + str(kind % 4 + 1)]
    # The rest of the placement and a few moves from the kernel; the ring must match it.
    kernel(page, "for _ in range(31): game.play(game.state.legal_moves()[0])\n"
                 "for i in (3, 5, 1, 4): game.play(game.state.legal_moves()[i])")
    piles = kernel_piles(page)
    assert sum(map(len, piles)) == 32 and any(len(p) >= 2 for p in piles)
    assert any(not p for p in piles)                      # some cells have emptied
    eventually(lambda: check_ring(page, piles))
    # Click the top pawn of a pile, then its landing cell: the kernel plays that move.
    index = int(kernel(page, "print(game.index)"))
    move, cell, target = kernel_json(
        page, "next([m.notation, m.action >> 3, game.state.landing(m)] "
              "for m in game.state.legal_moves() if m.notation.split('.')[1][0] == '1')")
    height = len(piles[cell])
    before = picture(page)
    click_canvas(page, *_centre(pawn_box(cell, height - 1)))
    wait_picture_change(page, before)
    assert kernel_json(page, "game._selection") == [cell, 1]
    lifted = picture(page)
    tx, ty = cell_point(target)
    click_canvas(page, tx, ty)
    wait_picture_change(page, lifted)
    assert int(kernel(page, "print(game.index)")) == index + 1
    assert kernel(page, "print(game.replay.moves[-1])").strip() == move
    after = kernel_piles(page)
    assert after[target][-1] == piles[cell][-1] or not after[target]   # landed (or a tower)
    assert len(after[cell]) == height - 1
    eventually(lambda: check_ring(page, after))
    screenshot_widget(page, "jinns-widget.png")
    # The shell's variant control: 2 → 4 players, confirmed in the confirm box, redraws.
    badge_d = (PANEL_X + 20, _seat_box(3, 4)[0] + 20)
    assert pixel(page, *badge_d)[:3] != rgb(INK)
    widget = page.locator(".janus-widget").first
    players = widget.locator(".widget-dropdown").filter(
        has=page.locator("label", has_text=re.compile(r"^players$"))).locator("select")
    players.select_option(label="4")
    confirm = widget.get_by_role("button", name="Start the new game")
    confirm.wait_for(state="visible")
    shown = picture(page)
    confirm.click()
    wait_picture_change(page, shown)
    assert kernel(page, "print(game.state.num_players, game.index)").split() == ["4", "0"]
    wait_pixel(page, *badge_d, rgb(INK))                   # seat D's badge is drawn
    eventually(lambda: check_ring(page, kernel_piles(page)))   # an empty ring again
    # The Ruleset menu above the options (issue 15): choosing "newer edition" starts it at
    # once (no move yet), keeps the 4 players and shows its options below; an option
    # changed by hand then shows "custom".
    menu = widget.locator(".janus-ruleset select")
    assert selected(menu) == "rulebook"
    assert "runs of four" in widget.locator(".janus-ruleset").inner_text()   # its note
    placement = option_select(page, widget, "placement")
    assert selected(placement) == "runs chosen by players"
    shown = picture(page)
    menu.select_option(label="newer edition")
    wait_picture_change(page, shown)                       # a random placement: chance
    assert kernel(page, "v = game.state.variant; print(v.placement, v.shared_towers, "
                        "v.players, game.index)").split() == ["random", "zero", "4", "0"]
    eventually(lambda: _is(selected(placement), "random (newer edition)"))
    assert "newer edition ruleset, players: 4" in widget.locator("h3").first.inner_text()
    option_select(page, widget, "distance").select_option(
        label="pawns moving (height)")
    eventually(lambda: _is(selected(menu), "custom"))
    assert kernel(page, "print(game.state.variant.distance, game.ruleset_control.value)"
                  ).split() == ["height", "custom"]
    assert not page.errors, page.errors


def selected(select) -> str:
    """The label shown by a <select> (its spaces as typed: ipywidgets keeps them with
    no-break spaces)."""
    return select.evaluate("s => s.options[s.selectedIndex].text").replace("\xa0", " ")


def option_select(page, widget, label: str):
    """The <select> of the variant option labelled ``label``."""
    return widget.locator(".widget-dropdown").filter(
        has=page.locator("label", has_text=re.compile(rf"^{label}$"))).locator("select")


def _is(got, wanted) -> None:
    assert got == wanted, (got, wanted)


def _centre(box: tuple[float, float, float, float]) -> tuple[float, float]:
    x, y, w, h = box
    return x + w / 2, y + h / 2

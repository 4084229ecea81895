"""The Janus card game canvas in JupyterLab (headless Chromium): the viewpoint decides
which sides are painted, and clicks compose and play moves — checked by the canvas
pixels and by the kernel's state."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from browser_support import (rgb, ARTIFACTS, click_canvas, eventually, kernel, open_lab_notebook,
                             picture, pixel, run_all_cells, wait_painted, wait_picture_change,
                             widget_status)
from conftest import ROOT

pytestmark = pytest.mark.browser


def half_stripe(seat: int, slot: int, half: int) -> tuple[float, float]:
    """A pixel in the colour stripe at the left edge of a card half (0: top, the
    holder's side; 1: bottom, the others' side): the symbol's colour on a known side,
    the card back's navy on an unknown one."""
    from janus_widgets.games.janus_cards.draw import HALF_H, card_origin
    x, y = card_origin(3, seat, slot)
    return x + 3, y + half * HALF_H + HALF_H / 2


def card_centre(seat: int, slot: int) -> tuple[float, float]:
    from janus_widgets.games.janus_cards.draw import CARD_W, HALF_H, card_origin
    x, y = card_origin(3, seat, slot)
    return x + CARD_W / 2, y + HALF_H


def painted_side(page, seat: int, slot: int, half: int) -> str | None:
    """The symbol painted on a card half (by its colour), or None for a card back."""
    from janus_widgets.games.janus_cards.draw import SYMBOL_COLOURS
    r, g, b, _ = pixel(page, *half_stripe(seat, slot, half))
    for symbol, colour in SYMBOL_COLOURS.items():
        want = rgb(colour)
        if all(abs(a - w) <= 3 for a, w in zip((r, g, b), want)):
            return symbol
    # The back's navy #2b3a67, or its hatching #41548a (or a blend of the two).
    if 40 <= r <= 68 and 55 <= g <= 87 and 100 <= b <= 141:
        return None
    raise AssertionError(f"neither a symbol's colour nor a card back: {(r, g, b)}")


def side_in_kernel(page, viewer: str, ref: str, face: str) -> str | None:
    text = kernel(page, f"print(game.state.view({viewer}).card({ref!r}).{face})").strip()
    return None if text == "None" else text


def choose_view(page, label: str) -> None:
    """Pick a viewpoint in the widget's "Seats & view" tab, as a person would."""
    widget = page.locator(".janus-widget").first
    widget.locator(".lm-TabBar-tab", has_text="Seats & view").click()
    widget.locator(".widget-dropdown", has_text="view").locator("select").select_option(
        label=label)


def test_janus_cards_canvas_in_jupyterlab(lab, page):
    from janus_widgets.games.janus_cards.draw import BUTTON_W, BUTTON_X, MID_Y
    base, _ = lab
    open_lab_notebook(page, base, "janus-cards.ipynb")
    run_all_cells(page)
    wait_painted(page, 0)
    before = picture(page)
    kernel(page, "game.new_game(seed=5); deal_all(game)")
    wait_picture_change(page, before)
    assert kernel(page, "print(game.state.phase, game.state.current_player)").split() == [
        "play", "0"]
    dealt = int(kernel(page, "print(game.index)"))        # 3 × 2 dealt, 1 turned up
    assert dealt == 7

    # The viewpoint decides which sides are painted: B's card 1 from A's seat, then
    # from the teacher's; every painted side matches what the kernel's view holds.
    choose_view(page, "seat A")
    eventually(lambda: assert_sides(page, "0"))
    assert painted_side(page, 1, 0, 0) is None          # A has not seen B's side of B1
    seat_a = picture(page)
    choose_view(page, "everything (teacher)")
    wait_picture_change(page, seat_a)
    eventually(lambda: assert_sides(page, "None"))
    assert painted_side(page, 1, 0, 0) == side_in_kernel(page, "None", "B1", "front")
    assert kernel(page, "print(game.viewpoint)").strip() == "None"

    # Clicks compose moves: two cards of one player is refused with its rule ...
    teacher = picture(page)
    choose_view(page, "seat A")
    wait_picture_change(page, teacher)
    play = (BUTTON_X + BUTTON_W / 2, MID_Y + 36)
    click_canvas(page, *card_centre(1, 0))
    click_canvas(page, *card_centre(1, 1))
    click_canvas(page, *play)
    page.wait_for_function(
        "() => document.querySelector('.janus-widget .janus-status').innerText"
        ".includes('JC-8')")
    assert "JC-8" in widget_status(page)
    assert int(kernel(page, "print(game.index)")) == dealt           # nothing played
    # ... and B's card 1 alone is drawn: the kernel plays dB1, A's new card 3 shows A
    # the side A saw on B1.
    seen = side_in_kernel(page, "0", "B1", "back")
    shown = picture(page)
    click_canvas(page, *card_centre(1, 1))                          # put B2 back
    click_canvas(page, *play)
    wait_picture_change(page, shown)
    eventually(lambda: kernel_moved(page, dealt + 1))
    assert kernel(page, "print(game.replay.moves[-1])").strip() == "dB1"
    assert side_in_kernel(page, "0", "A3", "front") == seen
    eventually(lambda: assert_sides(page, "0"))
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator(".janus-widget").first.screenshot(
        path=str(ARTIFACTS / "janus-cards-widget.png"))
    if os.environ.get("JANUS_UPDATE_SCREENSHOTS"):
        shutil.copy(ARTIFACTS / "janus-cards-widget.png", ROOT / "docs" /
                    "janus-cards-widget.png")
    assert not page.errors, page.errors


def kernel_moved(page, index: int) -> None:
    assert int(kernel(page, "print(game.index)")) == index


def assert_sides(page, viewer: str) -> None:
    """Both halves of every hand card are painted as the kernel's view has them."""
    code = (f"import json; v = game.state.view({viewer}); print(json.dumps("
            "[[s, i, c.front, c.back] for s, h in enumerate(v.hands) for i, c in "
            "enumerate(h)]))")
    cards = json.loads(kernel(page, code))
    assert len(cards) >= 6
    for seat, slot, front, back in cards:
        assert painted_side(page, seat, slot, 0) == front, (viewer, seat, slot)
        assert painted_side(page, seat, slot, 1) == back, (viewer, seat, slot)


#: Every text of the card widget in the page: what is written, what inputs and select
#: lists hold (hidden ones too), tooltips.
PAGE_TEXT_JS = """
() => {
  const w = document.querySelector('.janus-widget');
  const out = [w.innerText];
  for (const el of w.querySelectorAll('input, textarea')) out.push(el.value);
  for (const el of w.querySelectorAll('option')) out.push(el.textContent);
  for (const el of w.querySelectorAll('[title]')) out.push(el.getAttribute('title'));
  return out.join('\\n');
}
"""


def test_a_seats_screen_shows_no_seed_and_save_says_what_it_writes(lab, page):
    """Issue 13 items 1–2 in the browser: seat A's card table shows no seed anywhere in
    the page (heading, seed box, lists, tooltips); the Save button says it writes A's
    record, and the file it writes from the page has no seed; the teacher's view shows
    the seed, so the check can fail."""
    seed = 7_305_118_446_912_203
    base, work = lab
    open_lab_notebook(page, base, "janus-cards.ipynb")
    run_all_cells(page)
    wait_painted(page, 0)
    before = picture(page)
    kernel(page, f"game.new_game(seed={seed}); deal_all(game); game.play('dB1')")
    wait_picture_change(page, before)
    choose_view(page, "everything (teacher)")
    page.wait_for_function(f"() => document.querySelector('.janus-widget h3').innerText"
                           f".includes('{seed}')")
    choose_view(page, "seat A")
    page.wait_for_function(f"() => !document.querySelector('.janus-widget h3').innerText"
                           f".includes('{seed}')")
    assert kernel(page, "print(game.viewpoint)").strip() == "0"
    widget = page.locator(".janus-widget").first
    widget.locator(".lm-TabBar-tab", has_text="Save / load").click()
    save = widget.locator("button", has_text="Save A's record")
    save.wait_for()
    assert "no seed" in save.get_attribute("title")
    text = eventually(lambda: _without_seed(page, seed))
    assert "Save A's record" in text and "seed" not in widget.locator("h3").inner_text()
    widget.locator(".widget-text", has_text="file").locator("input").fill("a-record.json")
    widget.locator(".widget-text", has_text="file").locator("input").press("Enter")
    save.click()
    page.wait_for_function(
        "() => document.querySelector('.janus-widget .janus-status').innerText"
        ".includes(\"Saved seat A's record\")")
    data = json.loads((work / "janus-saves" / "a-record.json").read_text())
    assert data["seat"] == "A" and "seed" not in data and str(seed) not in json.dumps(data)
    assert "no seed" in widget_status(page)
    assert not page.errors, page.errors


def _without_seed(page, seed: int) -> str:
    text = page.evaluate(PAGE_TEXT_JS)
    assert str(seed) not in text, text
    return text

"""Every label of every game's picture can be read: no two texts overlap, none runs off
the picture, and none is smaller than the game's ``TEXT_MIN`` (the browser tests check
that this is 10 px on a classroom screen and 14 px in big mode).

Text sizes are measured with matplotlib's DejaVu Sans, the sans-serif font Chromium
uses on these machines (and the one the raster renderer uses), over positions reached
by seeded random play in each game and player count; the card game is drawn for every
seat and for the teacher.
"""

from __future__ import annotations

import itertools

import pytest

from janus_widgets import games
from janus_widgets.drawing import Text
from helpers import random_play

matplotlib = pytest.importorskip("matplotlib")
from matplotlib.font_manager import FontProperties  # noqa: E402
from matplotlib.textpath import TextToPath  # noqa: E402

_MEASURE = TextToPath()
TOLERANCE = 0.5    # pixels


def text_box(text: Text) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of a label on the canvas."""
    font = FontProperties(family="sans-serif", weight="bold" if text.bold else "normal",
                          size=text.size)
    width = _MEASURE.get_text_width_height_descent(text.text, font, ismath=False)[0]
    height = 0.75 * text.size                      # from the baseline to the cap height
    left = {"left": text.x, "center": text.x - width / 2, "right": text.x - width}[text.align]
    top = {"middle": text.y - height / 2, "top": text.y}.get(text.baseline, text.y - height)
    return left, top, left + width, top + height


def overlap(a, b) -> bool:
    return (a[0] < b[2] - TOLERANCE and b[0] < a[2] - TOLERANCE
            and a[1] < b[3] - TOLERANCE and b[1] < a[3] - TOLERANCE)


def positions(name: str, options: dict, seeds=range(3), plies=150, every=9):
    """Every ``every``-th position of seeded random games (:func:`helpers.random_play`)."""
    game = games.get(name)
    for seed in seeds:
        state = game.new(seed=seed, **options)
        for chunk in range(plies // every + 1):
            yield state
            if state.is_over:
                break
            state = random_play(state, every, seed * 1000 + chunk)


CASES = [("jactus", {}), ("jactus", {"players": 6}), ("jinns", {}), ("jinns", {"players": 4}),
         ("jinns", {"players": 3}), ("janus", {}), ("janus", {"players": 4}),
         ("janus-cards", {}), ("janus-cards", {"players": 6})]


@pytest.mark.parametrize("name, options", CASES,
                         ids=[f"{n}-{o.get('players', 'default')}" for n, o in CASES])
def test_no_label_overlaps_another_or_leaves_the_picture_or_is_too_small(name, options):
    """No two labels overlap, none leaves the picture, and none is smaller than the game's
    ``TEXT_MIN`` (so that it is 10 px on a classroom screen, 14 px in big mode)."""
    game = games.get(name)
    smallest = game.board().TEXT_MIN
    problems = set()
    for state in positions(name, options):
        viewers = [None] + list(range(state.num_players)) if name == "janus-cards" else [None]
        for viewer in viewers:
            drawing = game.draw(state.view(viewer))
            labels = [(shape, text_box(shape)) for shape in
                      itertools.chain.from_iterable(drawing.layers.values())
                      if isinstance(shape, Text) and shape.text.strip()]
            for (a, box_a), (b, box_b) in itertools.combinations(labels, 2):
                if overlap(box_a, box_b):
                    problems.add(f"{a.text!r} overlaps {b.text!r}")
            for label, _ in labels:
                if label.size < smallest:
                    problems.add(f"{label.text!r} is {label.size:g} units high, under the "
                                 f"game's TEXT_MIN {smallest:g}")
            for label, (left, top, right, bottom) in labels:
                if (left < -TOLERANCE or top < -TOLERANCE or right > drawing.width + TOLERANCE
                        or bottom > drawing.height + TOLERANCE):
                    problems.add(f"{label.text!r} runs off the {drawing.width}×"
                                 f"{drawing.height} picture")
    assert not problems, "\n".join(sorted(problems))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_jactus_counts_stay_inside_their_seat_panel(players):
    """Every "×n" beside a seat's pieces lies inside that seat's panel (not on its border)."""
    from janus_widgets.games.jactus.draw import WIDTH
    state = games.get("jactus").new(players=players, seed=1)
    drawing = games.get("jactus").draw(state)
    width = (WIDTH - 40) / players
    counts = [t for t in drawing.layers["pieces"] if isinstance(t, Text)
              and t.text.startswith("×") and t.y > 244]
    assert len(counts) == 3 * players
    for label in counts:
        left, _, right, _ = text_box(label)
        seat = int((left - 20) // width)
        panel_left, panel_right = 20 + seat * width + 4, 20 + (seat + 1) * width - 4
        assert panel_left + 2 <= left and right <= panel_right - 2, (players, seat, label)


def straddles(label, rect, clearance: float = 2.0) -> bool:
    """Whether a label crosses a rectangle's outline, or comes within ``clearance``
    pixels of it (neither well inside nor well outside it)."""
    half = rect.width / 2 + clearance
    left, top, right, bottom = text_box(label)
    outer = (rect.x - half, rect.y - half, rect.x + rect.w + half, rect.y + rect.h + half)
    inner = (rect.x + half, rect.y + half, rect.x + rect.w - half, rect.y + rect.h - half)
    outside = not overlap((left, top, right, bottom), outer)
    within = (inner[0] <= left + TOLERANCE and right - TOLERANCE <= inner[2]
              and inner[1] <= top + TOLERANCE and bottom - TOLERANCE <= inner[3])
    return not (outside or within)


def test_no_label_crosses_a_selection_frame_in_the_card_game():
    """Cards chosen to draw or to discard get a dashed frame; their labels stay clear."""
    from janus_widgets.games.janus_cards.draw import Pick, draw
    from janus_widgets.drawing import Rect
    game = games.get("janus-cards")
    for players in (3, 4, 6):
        state = game.new(players=players, seed=1)
        while state.is_chance:
            state = state.play(state.sample_chance())
        view = state.view(0)
        others = [f"{'ABCDEF'[s]}{k}" for s in range(1, players) for k in (1, 2)]
        for pick in (Pick(take=(others[0],)), Pick(take=(others[0], others[2])),
                     Pick(drop=(0,)), Pick(drop=(0, 1)), Pick(inspect=others[1])):
            d = draw(view, selection=pick)
            frames = [s for s in d.layers["pieces"] + d.layers["highlight"]
                      if isinstance(s, Rect) and s.dash and s.stroke and s.width >= 3]
            labels = [s for layer in d.layers.values() for s in layer if isinstance(s, Text)]
            assert frames, pick
            crossing = [(f, t.text) for f in frames for t in labels if straddles(t, f)]
            assert not crossing, (players, pick, crossing[:3])

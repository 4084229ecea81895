"""The janus-tolls students' toll table (issue 35, item 4): shipped with the package, and
every sampled position recounted by the engine gives the same rows."""

from __future__ import annotations

import numpy as np

from janus_widgets.analysis import janus_lesson


def test_sampled_positions_recount_to_the_shipped_rows():
    table = janus_lesson.toll_table()
    positions = janus_lesson.toll_positions()
    # the rows cover the positions a student may be asked about, and only those
    assert {row[:2] for row in table} <= set(positions)
    rng = np.random.default_rng(35)
    for i in rng.choice(len(positions), 16, replace=False):
        near, owned = positions[i]
        shipped = [row for row in table if row[:2] == (near, owned)]
        assert shipped == janus_lesson.toll_rows(near, owned), (near, owned)


def test_no_student_is_asked_about_the_pages_own_toll_panel():
    """The page works A on h3 and B's square g5 through (its toll panel and measure): that
    position, its figures and 3/8 are never a student's."""
    from janus_widgets.analysis.checking import exercise_sets
    pool = janus_lesson._toll_pool()
    assert not [k for k in pool if k[0] == "h3" and k[1] in ("g5", "h5", "g6", "h6")]
    figures = janus_lesson.page_figures()
    for i in range(40):
        for ex in exercise_sets(f"d{i}")["janus-tolls"]:
            assert ex.answer not in figures, (i, ex.key, ex.answer)


def test_the_table_is_wide_enough_for_a_class():
    """Enough different chances that 30 students drawing them evenly rarely share one:
    with 60, five students share a chance in 0.75% of classes (simulated); the table has
    74 (a chance of a toll is a sum of shares of few moves: it takes few values)."""
    chances = set(janus_lesson._toll_pool().values())
    assert len(chances) >= 60
    assert all(0 < c <= 1 for c in chances)

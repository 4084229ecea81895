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


def test_the_table_is_wide_enough_for_a_class():
    """Enough different chances that 30 students drawing them evenly rarely share one:
    with 60, five students share a chance in 0.75% of classes (simulated); the table has
    74 (a chance of a toll is a sum of shares of few moves: it takes few values)."""
    chances = {row[3] for row in janus_lesson.toll_table()}
    assert len(chances) >= 60
    assert all(0 < c <= 1 for c in chances)

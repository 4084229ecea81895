"""The teacher's dashboard and a table server that goes away: stopped, killed, started
again. The dashboard says at once that it lost its server (never "live" with the seats
as they were) and, when the server is back, that it reconnected. One table server,
started and stopped by the test (tests/server_support.py)."""

from __future__ import annotations

import base64
import re
import time
import urllib.request

import pytest

from janus_widgets import classroom
from janus_widgets.widgets.dashboard import Dashboard
from server_support import table_server


def seat_marks(board: Dashboard) -> list[str]:
    """What the Tables tab says of each seat: A● (connected), A○ (not), A? (not known)."""
    return re.findall(r"<span title='[^']*'>(\w(?:&#9679;|&#9675;|\?))", board.overview.value)


def slips_page(board: Dashboard) -> str:
    """The join slips' page, as the teacher downloads it."""
    return base64.b64decode(board.slips_link.value.split("base64,")[1].split("'")[0]
                            ).decode()


def wait_for(check, timeout: float) -> float:
    """Seconds until ``check()`` holds (fails after ``timeout``)."""
    start = time.monotonic()
    while not check():
        if time.monotonic() - start > timeout:
            raise AssertionError(f"not within {timeout} s")
        time.sleep(0.02)
    return time.monotonic() - start


@pytest.mark.slow
def test_the_dashboard_says_at_once_that_it_lost_its_server_and_when_it_is_back(tmp_path):
    with table_server(tmp_path) as server:
        teacher = classroom.connect(server.url, server.token)
        t = teacher.create_table("jactus", players=2, bots={1: "greedy"})
        seat = classroom.join(server.url, t.codes["A"])
        board = Dashboard(server.url, server.token, lessons={})
        try:
            wait_for(lambda: "A&#9679;" in seat_marks(board), 10)   # A connected
            assert "live," in board.overview.value and board.link.value == ""
            for how in ("stop", "kill"):
                getattr(server, how)()
                lost = wait_for(lambda: "Lost the table server" in board.link.value, 5)
                assert lost < 1.0, f"the dashboard took {lost:.2f} s to say so ({how})"
                wait_for(lambda: "NOT LIVE" in board.overview.value, 2)
                assert "live," not in board.overview.value
                assert seat_marks(board) == ["A?"]       # not the seats of before (B: a bot)
                assert "B bot: greedy" in board.overview.value
                server.start()
                back = wait_for(lambda: "Reconnected" in board.link.value, 15)
                wait_for(lambda: "live," in board.overview.value, 2)
                assert "Lost" not in board.link.value and "NOT LIVE" not in board.overview.value
                assert back < 10
                print(f"{how}: said lost after {lost:.3f} s, reconnected {back:.2f} s "
                      "after the server was started again")
            # live again, truly: a move at the table reaches the overview
            wait_for(lambda: "A&#9679;" in seat_marks(board), 15)   # A is back too
            moves = teacher.table(t.id)["moves"]
            seat.play("r*")
            wait_for(lambda: f"data-moves='{moves}'" not in board.overview.value, 10)
            # and it makes tables again; their slips' short address is the table
            # server's own seat page, which answers
            (made,) = board.create_tables("jactus", 2, 1)
            address = f"{server.url}/seat?code={board.codes[made]['A']}"
            assert address in slips_page(board)
            with urllib.request.urlopen(address, timeout=10) as answer:
                assert answer.status == 200
                assert answer.headers["Content-Type"].startswith("text/html")
        finally:
            board.watch.close()
            seat.close()

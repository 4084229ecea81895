"""A class at many screens, timed in a real browser (headless Chromium).

    python benchmarks/classroom_pages.py [--clicks 20] [--tables 8]

Starts ``python -m janus_widgets classroom`` (the table server and Voila), then:

* opens seat A's and seat B's pages of a two-player Jactus table side by side and, 20
  times, clicks A's throw button on A's canvas and waits for B's canvas to change:
  the time from the click to the new pixels on B's page (median and worst; goal:
  median ≤ 150 ms on this machine);
* opens the teacher's dashboard, makes 8 tables of bots (four seats each, one
  human seat left empty) and measures how long a move takes to show in the dashboard's
  table: from the server storing it (its summary's move count) to the page showing
  that count, over a minute of play.

The machine's load is printed with the figures.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from browser_support import (CHROMIUM, CHROMIUM_ARGS, click_canvas, free_port,  # noqa: E402
                             picture, wait_http, wait_painted)

from janus_widgets import classroom  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clicks", type=int, default=20)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="classroom-bench-"))
    port, pages_port = free_port(), free_port()
    token_file = folder / "token"
    proc = subprocess.Popen([sys.executable, "-m", "janus_widgets", "classroom", "--port",
                             str(port), "--pages-port", str(pages_port), "--db",
                             str(folder / "c.sqlite"), "--teacher-token-file",
                             str(token_file), "--bot-delay", "0.3"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, cwd=folder)
    server, pages = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{pages_port}"
    from playwright.sync_api import sync_playwright
    try:
        wait_http(server + "/api/status", timeout=120, proc=proc)
        token = token_file.read_text().strip()
        teacher = classroom.connect(server, token)
        t = teacher.create_table("jactus", players=2)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                        args=CHROMIUM_ARGS)
            seat = {}
            for letter in "AB":
                page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
                page.set_default_timeout(120_000)
                page.goto(f"{pages}/voila/render/seat.ipynb?"
                          + urlencode({"server": server, "code": t.codes[letter]}))
                page.wait_for_selector(".janus-widget canvas")
                wait_painted(page)
                seat[letter] = page
            from janus_widgets.games.jactus.draw import draw
            delays = []
            while len(delays) < args.clicks:
                record = teacher.record(t.id)
                state = record.final_state()
                if state.current_player != 0:
                    # B passes the dice back with the first move its list offers
                    b = classroom.join(server, t.codes["B"])
                    b.play(b.legal_moves()[0])
                    b.close()
                    time.sleep(0.3)
                    continue
                record = teacher.record(t.id)
                n = len(record.moves)
                for page in seat.values():              # both pages show the present
                    page.wait_for_function(
                        "(n) => document.querySelector('.janus-status').innerText"
                        ".includes(`move ${n}/${n}`)", arg=n)
                view = record.final_state().view(0)
                picture_a = draw(view)
                die = picture_a.find(("die", 0))
                if die is not None and view.phase != "open":
                    shown = picture(seat["A"])          # pick up one die first
                    click_canvas(seat["A"], *die.center())
                    seat["A"].wait_for_function(
                        "(h) => { const c = document.querySelectorAll('.janus-canvas')[0];"
                        " const d = c.getContext('2d').getImageData(0, 0, c.width,"
                        " c.height).data; let x = 0; for (let i = 0; i < d.length; i += 4)"
                        " x = (x * 31 + d[i] * 7 + d[i + 1] * 13 + d[i + 2]) >>> 0;"
                        " return x !== h; }", arg=shown["hash"], polling="raf")
                button = picture_a.find(("button", "throw"))
                before = picture(seat["B"])
                click_canvas(seat["A"], *button.center())
                start = time.perf_counter()
                seat["B"].wait_for_function(
                    """(before) => {
                         const c = document.querySelectorAll('.janus-canvas')[0];
                         const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                         let hash = 0;
                         for (let i = 0; i < d.length; i += 4)
                           hash = (hash * 31 + d[i] * 7 + d[i + 1] * 13 + d[i + 2]) >>> 0;
                         return hash !== before;
                       }""", arg=before["hash"], polling="raf", timeout=30_000)
                delays.append((time.perf_counter() - start) * 1000)
                time.sleep(0.2)
            load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
            print(f"click on seat A's canvas -> new pixels on seat B's page: median "
                  f"{statistics.median(delays):.0f} ms, worst {max(delays):.0f} ms over "
                  f"{len(delays)} throws (goal: median <= 150 ms); load {load}")

            dash = browser.new_context(viewport={"width": 1600, "height": 1000}).new_page()
            dash.set_default_timeout(120_000)
            dash.goto(f"{pages}/voila/render/teacher.ipynb?"
                      + urlencode({"server": server, "token": token}))
            dash.wait_for_selector(".janus-dashboard-tables")
            made = [teacher.create_table("jinns", players=4,
                                         bots={"B": "greedy", "C": "greedy", "D": "greedy"})
                    for _ in range(args.tables)]
            # A person's seat waits: give each table's first seat a bot too, by playing it
            # from here (a scripted student), while the dashboard follows.
            students = [classroom.join(server, m.codes["A"]) for m in made]
            shown: list[float] = []
            end = time.monotonic() + args.seconds
            while time.monotonic() < end:
                for s in students:
                    if s.legal_moves():
                        s.play(s.legal_moves()[0])
                target = made[0].id
                count = next(x["moves"] for x in teacher.tables() if x["id"] == target)
                start = time.perf_counter()
                dash.wait_for_function(
                    f"() => {{ const r = document.querySelector(\".janus-dashboard-tables "
                    f"tr[data-table='{target}']\"); return r && +r.dataset.moves >= {count}; }}",
                    polling=20, timeout=30_000)
                shown.append((time.perf_counter() - start) * 1000)
                time.sleep(0.1)
            load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
            print(f"dashboard with {args.tables} tables of bots playing: a stored move shows "
                  f"in its row after median {statistics.median(shown):.0f} ms, 95th "
                  f"percentile {sorted(shown)[int(0.95 * len(shown))]:.0f} ms "
                  f"({len(shown)} samples); load {load}")
            for s in students:
                s.close()
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)


if __name__ == "__main__":
    main()

"""A class arriving at once at the table server's seat pages, on this machine.

    python benchmarks/classroom_pages.py                  # 30, 60 and 300 seats
    python benchmarks/classroom_pages.py --seats 30 --pages 10

For each class size it starts ``python -m janus_widgets serve`` (its own process and
database), makes the tables (one human seat at each, the other a bot; games in turn:
Jactus, Jinns, Janus, the card game), then at one moment opens every seat: ``--pages``
of them are real Chromium tabs at ``/seat?code=…`` (the time until the page has painted
its first screen), the rest are clients that join with the code and wait for their
first screen over the same WebSocket (the page's own messages). It prints:

* the time to the first screen painted or received: median and slowest, per kind;
* the server's memory per connected seat, beyond the tables themselves (its RSS after
  the tables were made and the bots' first moves, against after every seat connected);
* with every seat connected and ``--playing`` tables playing (their seat plays a legal
  move about a second after its turn comes, a bot answers), the time from a click on
  seat A's page (Play) to new pixels on seat B's page of a two-human table: median and
  99th percentile over ``--moves`` moves.

Nothing is asserted: these are figures (the tests check behaviour, not speed).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import tornado.httpclient
import tornado.websocket

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from browser_support import CHROMIUM, CHROMIUM_ARGS, free_port, wait_http  # noqa: E402

from janus_widgets import classroom  # noqa: E402

GAMES = ("jactus", "jinns", "janus", "janus-cards")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def make_tables(teacher, seats: int) -> list[tuple[str, str]]:
    """``seats`` tables of one human seat and bots: (game, code) each."""
    made = []
    for i in range(seats):
        game = GAMES[i % len(GAMES)]
        if game == "janus-cards":
            t = teacher.create_table(game, players=3, bots={1: "greedy", 2: "greedy"})
        else:
            t = teacher.create_table(game, players=2, bots={1: "greedy"})
        made.append((game, t.codes["A"]))
    return made


async def join(url: str, code: str) -> str:
    client = tornado.httpclient.AsyncHTTPClient()
    reply = await client.fetch(url + "/api/join", method="POST",
                               body=json.dumps({"code": code}),
                               headers={"Content-Type": "application/json"},
                               request_timeout=120)
    return json.loads(reply.body)["credential"]


class Client:
    """A seat that joins and reads its screens over the WebSocket; it can play."""

    def __init__(self, url: str, code: str) -> None:
        self.url, self.code = url, code
        self.first = float("nan")
        self.screen: dict | None = None
        self.ws = None

    async def open(self, start: float) -> None:
        credential = await join(self.url, self.code)
        ws_url = self.url.replace("http://", "ws://") + "/ws"
        self.ws = await tornado.websocket.websocket_connect(
            tornado.httpclient.HTTPRequest(ws_url, request_timeout=120, connect_timeout=120))
        await self.ws.write_message(json.dumps({"type": "hello", "credential": credential,
                                                "screen": True}))
        while True:
            text = await self.ws.read_message()
            if text is None:
                raise RuntimeError("the server closed a seat's socket")
            msg = json.loads(text)
            if msg.get("type") == "screen":
                self.screen = msg
                self.first = time.perf_counter() - start
                return

    async def play_on(self, stop: asyncio.Event, moves: list[int]) -> None:
        """Play a legal move about a second after each turn, until ``stop``."""
        rng = random.Random(self.code)
        asyncio.ensure_future(self._read(stop))
        while not stop.is_set():
            await asyncio.sleep(0.8 + 0.4 * rng.random())
            screen = self.screen
            if screen and screen["steps"]["at_end"] and screen["moves"]["options"]:
                option = rng.choice(screen["moves"]["options"])
                await self.ws.write_message(json.dumps(
                    {"type": "play", "move": option["notation"], "id": os.urandom(6).hex()}))
                moves.append(1)

    async def _read(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            text = await self.ws.read_message()
            if text is None:
                return
            msg = json.loads(text)
            if msg.get("type") == "screen":
                for name, shapes in msg["drawing"]["layers"].items():
                    if shapes == "same" and self.screen is not None:
                        msg["drawing"]["layers"][name] = self.screen["drawing"]["layers"][name]
                self.screen = msg


PAINTED = "() => document.body.dataset.serial !== undefined"


async def new_tabs(browser, count: int) -> list:
    """``count`` tabs of their own (a browser each student already has open)."""
    tabs = []
    for _ in range(count):
        context = await browser.new_context(viewport={"width": 1366, "height": 768})
        tabs.append(await context.new_page())
    return tabs


async def open_pages(tabs: list, url: str, codes: list[str], start: float
                     ) -> list[tuple[float, ...]]:
    """Every tab goes to its seat's address at once: seconds from the address to the
    first screen painted (the page's own clock), from the start, from the address to
    the page joined (its files loaded and run: the browser's own work), and from joined
    to painted (the socket, the server's screen, the painting)."""
    async def one(page, code: str) -> tuple[float, ...]:
        await page.goto(f"{url}/seat?code={code}", wait_until="commit")
        await page.wait_for_function(PAINTED, timeout=120_000, polling=20)
        own = await page.evaluate("() => performance.now()") / 1000
        marks = await page.evaluate(
            "() => Object.fromEntries(performance.getEntriesByType('mark')"
            ".map(m => [m.name, m.startTime / 1000]))")
        server_part = marks["janus-painted"] - marks["janus-joined"]
        return own, time.perf_counter() - start, marks["janus-joined"], server_part
    return await asyncio.gather(*(one(page, code) for page, code in zip(tabs, codes)))


async def click_to_pixels(browser, url: str, teacher, moves: int) -> list[float]:
    """A two-human Jactus table: A's page plays (the Play button), B's page paints the
    move; then B plays and A paints. Milliseconds from the click to B's next frame."""
    t = teacher.create_table("jactus", players=2)
    pages = {}
    for letter in "AB":
        context = await browser.new_context(viewport={"width": 1366, "height": 768})
        page = await context.new_page()
        await page.goto(f"{url}/seat?code={t.codes[letter]}")
        await page.wait_for_function(PAINTED)
        pages[letter] = page
    times = []
    for k in range(moves):
        record = teacher.record(t.id)
        state = record.final_state()
        if state.is_over:
            break
        mover = "AB"[state.current_player]
        me, other = pages[mover], pages["BA"["AB".index(mover)]]
        n = len(record.moves)
        await me.wait_for_function(f"() => document.getElementById('where').textContent "
                                   f"=== 'move {n}/{n}' && document.getElementById("
                                   "'options').options.length > 0 && !document."
                                   "getElementById('play').disabled")
        await me.select_option("#options", index=k % 3 if k % 3 < await me.locator(
            "#options option").count() else 0)
        await me.wait_for_timeout(30)
        # B's page resolves at the first animation frame after its step bar changed.
        waiting = other.evaluate(
            """n => new Promise(done => {
                 const check = () => {
                   if (!document.getElementById('where').textContent.endsWith('/' + n))
                     requestAnimationFrame(() => done(Date.now()));
                   else requestAnimationFrame(check);
                 };
                 check();
               })""", n)
        waiter = asyncio.ensure_future(waiting)
        await asyncio.sleep(0.02)
        clicked = await me.evaluate("() => { const t = Date.now(); "
                                    "document.getElementById('play').click(); return t; }")
        painted = await asyncio.wait_for(waiter, 30)
        times.append(painted - clicked)
        # the chance throw that follows (server side) lands before the next turn
        await asyncio.sleep(0.05)
    return times


async def run_size(seats: int, pages: int, playing: int, moves: int, browser) -> dict:
    folder = Path(tempfile.mkdtemp(prefix=f"janus-bench-{seats}-"))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([sys.executable, "-m", "janus_widgets", "serve", "--port",
                             str(port), "--db", str(folder / "class.sqlite"),
                             "--teacher-token-file", str(folder / "token"),
                             "--bot-delay", "0.4"],
                            stdout=open(folder / "server.log", "w"), stderr=subprocess.STDOUT)
    try:
        wait_http(url + "/api/status", timeout=60, proc=proc)
        teacher = classroom.connect(url, (folder / "token").read_text().strip())
        made = make_tables(teacher, seats)
        await asyncio.sleep(2.0)                     # the bots' first moves are made
        before = rss_mb(proc.pid)
        codes = [code for _, code in made]
        browser_codes, client_codes = codes[:pages], codes[pages:]
        clients = [Client(url, code) for code in client_codes]
        tabs = await new_tabs(browser, len(browser_codes))
        start = time.perf_counter()
        page_times, _ = await asyncio.gather(
            open_pages(tabs, url, browser_codes, start),
            asyncio.gather(*(c.open(start) for c in clients)))
        client_times = [c.first for c in clients]
        await asyncio.sleep(1.0)
        after = rss_mb(proc.pid)
        stop = asyncio.Event()
        played: list[int] = []
        players = [asyncio.ensure_future(c.play_on(stop, played)) for c in clients[:playing]]
        await asyncio.sleep(2.0)
        profile = None
        if os.environ.get("JANUS_PROFILE"):
            profile = subprocess.Popen([str(Path(sys.executable).parent / "py-spy"), "record",
                                        "-p", str(proc.pid), "-d", "20", "-f", "raw", "-o",
                                        os.environ["JANUS_PROFILE"]])
        latencies = await click_to_pixels(browser, url, teacher, moves)
        if profile is not None:
            profile.wait()
        stop.set()
        for task in players:
            task.cancel()
        return {"seats": seats, "pages": page_times, "clients": client_times,
                "rss_before": before, "rss_after": after, "latency": latencies,
                "played": len(played), "playing": len(players)}
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def summary(name: str, times: list[float]) -> str:
    if not times:
        return f"{name}: none"
    return (f"{name} ({len(times)}): median {statistics.median(times):.2f} s, slowest "
            f"{max(times):.2f} s")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


async def main_async(args: argparse.Namespace) -> None:
    from playwright.async_api import async_playwright
    # tornado's client makes 10 requests at a time by default: a class joins at once
    tornado.httpclient.AsyncHTTPClient.configure(None, max_clients=2000)
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                          args=CHROMIUM_ARGS)
        for seats in args.seats:
            r = await run_size(seats, min(args.pages, seats), min(args.playing, seats -
                                                                   args.pages),
                               args.moves, browser)
            per_seat = (r["rss_after"] - r["rss_before"]) / seats
            lat = r["latency"]
            print(f"\n{seats} seats at once ({min(args.pages, seats)} Chromium pages, the "
                  f"rest WebSocket clients; tables of one human seat and bots)")
            pages = r["pages"]
            print("  first screen: " + summary("pages, address to painted",
                                                [p[0] for p in pages]) + " (of which "
                  + summary("address to joined: the page's files loaded and run",
                            [p[2] for p in pages]) + "; "
                  + summary("joined to painted", [p[3] for p in pages]) + "); "
                  + summary("clients received", r["clients"]))
            print(f"  server memory: {r['rss_before']:.0f} MB with the tables, "
                  f"{r['rss_after']:.0f} MB with every seat connected: "
                  f"{per_seat * 1024:.0f} kB per seat")
            if lat:
                print(f"  click on A's page → new pixels on B's page, {r['playing']} tables "
                      f"playing ({r['played']} moves by their seats meanwhile): median "
                      f"{statistics.median(lat):.0f} ms, p99 {percentile(lat, 0.99):.0f} ms "
                      f"over {len(lat)} moves")
        await browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, nargs="+", default=[30, 60, 300])
    parser.add_argument("--pages", type=int, default=10, help="real Chromium pages")
    parser.add_argument("--playing", type=int, default=60,
                        help="tables whose seat plays while the latency is measured")
    parser.add_argument("--moves", type=int, default=40, help="moves timed A → B")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        sys.exit(f"Chromium is needed at {CHROMIUM}")
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()

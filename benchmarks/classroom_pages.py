"""A class arriving at once at the table server's seat pages, on this machine.

    python benchmarks/classroom_pages.py                  # 30, 60 and 300 seats
    python benchmarks/classroom_pages.py --seats 30 --pages 10
    python benchmarks/classroom_pages.py --seats 60 --browsers 10   # a browser per tab

For each class size it starts ``python -m janus_widgets serve`` (its own process and
database), makes the tables (one human seat at each, the other a bot; games in turn:
Jactus, Jinns, Janus, the card game), then at one moment opens every seat: ``--pages``
of them are real Chromium tabs at ``/seat?code=…`` (the time until the page's first
screen, which comes in the page, is on the screen: the browser's first contentful
paint, the first frame with anything of the page in it; and until it has painted its
socket's first screen: playable), the rest are clients that do what the page does (fetch
``/seat?code=…``, then hello with the code on the WebSocket, to its first screen). It
prints:

* Chromium's own share first: the same tabs open a trivial page at once (one line of
  HTML and a one-line module script, from this script's own small server, nothing else
  happening): the time the browser alone takes for that many tabs on this machine;

* the time to the first screen painted or received: median and slowest, per kind; for
  the tabs also where the time went (the page's files, the join, the socket, the
  screen), from the page's own Resource Timing and marks;
* the server's memory per connected seat, beyond the tables themselves (its RSS after
  the tables were made and the bots' first moves, against after every seat connected);
* with every seat connected and ``--playing`` tables playing (their seat plays a legal
  move about a second after its turn comes, a bot answers), the time from a click on
  seat A's page (Play) to new pixels on seat B's page of a two-human table: median and
  99th percentile over ``--moves`` moves;
* the load average of the machine at the start and the end of each size, and the CPU
  seconds the server used in each phase (other programs share this machine).

Who runs where. A class's students each have a browser of their own on a machine of
their own; here they share the machine with the server. So that the figures are the
server's and not the load generator's, the clients run in ``--workers`` processes of
their own (not this one, which drives Chromium), and with ``--pin`` (the default when
the machine has two cores or more) the server is pinned to the first core and
everything else (this process, Chromium, the workers) to the others. Pinning gives
Chromium one core of two; ``--no-pin`` lets everything share both, and then ``--nice``
(10 by default) runs Chromium and the workers at a lower priority: they stand for the
students' devices, which in a class take nothing from the server's CPU, so the server
runs first when it has work (it needs about 0.3 CPU s while 60 seats arrive) and
Chromium has the rest of both cores. ``--nice 0`` runs all at one priority: the
server's answers then wait behind Chromium's ten renderers (the script's first byte
came 0.4-0.7 s after it was asked for at 60 seats).

A class's devices each run a browser of their own: one Chromium browser with ten tabs
has one browser process, whose main thread handles every tab's navigation, requests and
socket in turn, where ten devices have ten. ``--browsers N`` shares the tabs among N
browsers (each with its own browser, GPU and network processes; ``--browsers 10``: a
browser per tab, as in a class); the default is one, as this benchmark always ran.

What is warmed before the clock starts, and nothing else: each tab is made, and has
loaded a blank page from another small server of this script on ``127.0.0.1`` (another
port: the same site, so Chromium's renderer process for the site is running, as a
student's browser is), then the trivial page twice (the first time warms the browser
up, as a browser in use is: its processes started and its script engine ready; the
second is the baseline), then the machine is left alone for 2 s. Those pages are 60
bytes of HTML of their own; nothing of the seat page (``/seat``, its script, style or
icon) is fetched or cached before the clock.

Every time of a tab is read on the page's own clock (the navigation's start in the
epoch, and the page's marks), against this process's wall clock at the start: polling
the page from here through the browser's driver would add its own delays (about
0.4 s for ten tabs on this machine).

Nothing is asserted: these are figures (the tests check behaviour, not speed).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import tornado.httpclient
import tornado.websocket

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from browser_support import CHROMIUM, CHROMIUM_ARGS, free_port, wait_http  # noqa: E402

from janus_widgets import classroom  # noqa: E402
from janus_widgets.table.seat_pages import held_layers  # noqa: E402

GAMES = ("jactus", "jinns", "janus", "janus-cards")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds process ``pid`` has used (its threads included)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


CPU_KINDS = ("server", "load workers", "Chromium", "the rest")


def cpu_by_kind(server: int, workers: list[int]) -> dict[str, float]:
    """CPU seconds used so far by the server, the load workers, Chromium's processes
    and everything else of the machine's processes (this one, Playwright's driver);
    then Chromium's by the kind of process (:func:`chromium_part`)."""
    used = dict.fromkeys(CPU_KINDS, 0.0)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            comm = (entry / "comm").read_text().strip()
            seconds = cpu_seconds(int(entry.name))
        except (OSError, IndexError, ValueError):
            continue                                 # a process that just ended
        pid = int(entry.name)
        kind = ("server" if pid == server else "load workers" if pid in workers
                else "Chromium" if "chrom" in comm or "headless" in comm else "the rest")
        used[kind] += seconds
        if kind == "Chromium":
            part = chromium_part(entry)
            used[part] = used.get(part, 0.0) + seconds
    return used


def chromium_part(entry: Path) -> str:
    """Which of Chromium's processes ``entry`` is: its browser, a renderer (a page),
    its GPU process (which composites and rasterizes), or a utility (the network)."""
    try:                           # Chromium writes its title over its arguments
        args = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return "other"
    kinds = re.findall(r"(?<!\S)--type=(\S+)", args)
    return {"renderer": "renderers", "gpu-process": "its GPU process",
                            "utility": "utilities (the network)", "zygote": "zygotes"}.get(
        kinds[0] if kinds else "", "the browser" if not kinds else kinds[0])


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


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


class Client:
    """A seat that joins and reads its screens over the WebSocket; it can play."""

    def __init__(self, url: str, code: str) -> None:
        self.url, self.code = url, code
        self.first = float("nan")           # its page received (its first screen in it)
        self.live = float("nan")            # its socket's first screen received
        self.screen: dict | None = None
        self.layers: dict[str, list] = {}         # what the page holds of each layer
        self.ws = None

    async def open(self, start: float) -> None:
        """Open the slip's address as the seat page does: the page (its seat's first
        screen in it), then hello with the code on the socket, to its first screen."""
        page = await tornado.httpclient.AsyncHTTPClient().fetch(
            f"{self.url}/seat?code={self.code}", request_timeout=120, connect_timeout=120)
        self.first = time.monotonic() - start
        found = re.search(rb'id="first-screen">([^<]*)</script>', page.body)
        first = json.loads(found.group(1)) if found else {}
        if "screen" in first:
            self.screen = held_layers(self.layers, first["screen"])
        ws_url = self.url.replace("http://", "ws://") + "/ws"
        self.ws = await tornado.websocket.websocket_connect(
            tornado.httpclient.HTTPRequest(ws_url, request_timeout=120, connect_timeout=120))
        hello = {"type": "hello", "code": self.code, "client": os.urandom(8).hex(),
                 "screen": True}
        if "page" in first:
            hello["page"] = first["page"]            # the screen in the page is painted
        await self.ws.write_message(json.dumps(hello))
        while True:
            text = await self.ws.read_message()
            if text is None:
                raise RuntimeError("the server closed a seat's socket")
            msg = json.loads(text)
            if msg.get("type") in ("screen", "live"):
                if msg["type"] == "screen":
                    self.screen = held_layers(self.layers, msg)
                self.live = time.monotonic() - start
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
                self.screen = held_layers(self.layers, msg)


# ---------------------------------------------------------------------- load workers
async def worker_main() -> None:
    """A load-generator process (``--worker``): told on its standard input the server,
    its codes and how many of them play (one JSON line), it says ``ready``; told a start
    time (``time.monotonic()``: one clock for every process of the machine) it opens
    every seat then and writes each one's seconds to its first screen; told ``play`` its
    players play until ``stop``, and it writes how many moves they made."""
    tornado.httpclient.AsyncHTTPClient.configure(None, max_clients=2000)
    loop = asyncio.get_running_loop()

    async def read() -> dict:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            raise SystemExit(0)
        return json.loads(line)

    def write(data: dict) -> None:
        sys.stdout.write(json.dumps(data) + "\n")
        sys.stdout.flush()

    task = await read()
    clients = [Client(task["url"], code) for code in task["codes"]]
    write({"ready": True})
    start = (await read())["start"]
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    await asyncio.gather(*(c.open(start) for c in clients))
    write({"first": [c.first for c in clients], "live": [c.live for c in clients]})
    await read()                                      # play
    stop = asyncio.Event()
    played: list[int] = []
    players = [asyncio.ensure_future(c.play_on(stop, played))
               for c in clients[:task["play"]]]
    await read()                                      # stop
    stop.set()
    for p in players:
        p.cancel()
    write({"played": len(played)})


class Workers:
    """The load-generator processes of one class size."""

    def __init__(self, count: int, url: str, codes: list[str], playing: int,
                 cpus: set[int] | None, nice: int = 0) -> None:
        self.procs = []
        shares = [codes[k::count] for k in range(count)]
        plays = [len(range(k, playing, count)) for k in range(count)]
        for share, play in zip(shares, plays):
            if not share:
                continue
            proc = subprocess.Popen([sys.executable, __file__, "--worker"],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    text=True, preexec_fn=lambda: os.nice(nice),
                                    start_new_session=bool(nice))
            if nice and autogroups():          # a group of its own, at its niceness
                Path(f"/proc/{proc.pid}/autogroup").write_text(str(nice))
            if cpus:
                os.sched_setaffinity(proc.pid, cpus)
            proc.stdin.write(json.dumps({"url": url, "codes": share, "play": play}) + "\n")
            proc.stdin.flush()
            self.procs.append(proc)
        for proc in self.procs:
            assert json.loads(proc.stdout.readline())["ready"]

    def tell(self, data: dict) -> None:
        for proc in self.procs:
            proc.stdin.write(json.dumps(data) + "\n")
            proc.stdin.flush()

    async def answers(self) -> list[dict]:
        loop = asyncio.get_running_loop()
        return list(await asyncio.gather(*(loop.run_in_executor(None, p.stdout.readline)
                                           for p in self.procs)))

    def close(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
            proc.wait()


# ---------------------------------------------------------------------- the tabs
#: The page shows a screen of its socket (it is playable), and its first screen, the
#: one that came in the page, is on the screen: the browser's first contentful paint
#: (its pixels; the script's ``janus-painted`` mark is when it was drawn, before the
#: browser has laid out, painted and shown the frame: 80-120 ms before, on this
#: machine with nothing else running).
PAINTED = ("() => document.body.dataset.serial !== undefined && "
           "performance.getEntriesByName('first-contentful-paint').length > 0")
BLANK = b"<!doctype html><title>a browser already open</title><p>ready"


#: Chromium's own share, the baseline: a page of one line and one module script of one
#: line (``/trivial``), from this script's small threaded server; the tabs open it at
#: once just before the seat pages. What it takes is the browser's, on this machine.
TRIVIAL = (b"<!doctype html><title>trivial</title>"
           b"<script type=module src=/trivial.js></script><p>trivial")
TRIVIAL_JS = b"document.body.dataset.ran = String(performance.timeOrigin + performance.now());"
TRIVIAL_RAN = ("() => document.body && document.body.dataset.ran !== undefined && "
               "performance.getEntriesByName('first-contentful-paint').length > 0")


class _Blank(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body, kind = {"/trivial": (TRIVIAL, "text/html"),
                      "/trivial.js": (TRIVIAL_JS, "text/javascript")}.get(
            self.path, (BLANK, "text/html"))
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


def blank_server() -> tuple[ThreadingHTTPServer, str]:
    """A server of one blank page, on 127.0.0.1 (the table server's site, another
    origin): the tabs load it before the clock so their renderers are running."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Blank)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


async def new_tabs(browsers: list, count: int, blank: str) -> list:
    """``count`` tabs of their own (a browser each student already has open; in turn
    in each of ``browsers``), each
    with a blank page of ``blank`` loaded (see the module's docstring)."""
    tabs = []
    for k in range(count):
        context = await browsers[k % len(browsers)].new_context(
            viewport={"width": 1366, "height": 768})
        page = await context.new_page()
        await page.goto(blank)
        tabs.append(page)
    return tabs


#: Where a tab's time went, read on the page: navigation start → the page's HTML
#: received (with its seat's first screen in it), → its script asked for (the
#: browser's side), → the script's first byte (the server's side), → its script
#: received, → its style received, → the HTML parsed, → the socket asked for, → its
#: handshake done, → hello sent (with the code), → ``joined`` received (the
#: credential), → the first screen read by the script, → the first frame with the page's
#: content on the screen (the browser's first contentful paint), → the script's
#: screen drawn (its mark: the frame with it comes later), → the socket's first screen
#: painted (playable) (seconds, each from navigation start); then the navigation start
#: itself (the epoch, in seconds). "Painted" in the summary is the first contentful
#: paint.
TIMING = """() => {
  const mark = n => (performance.getEntriesByName(n)[0] || {startTime: NaN}).startTime;
  const res = n => performance.getEntriesByType('resource').find(e => e.name.includes(n));
  const nav = performance.getEntriesByType('navigation')[0];
  const script = res('/seat/seat.js') || {}, style = res('/seat/seat.css') || {};
  return [nav.responseEnd, script.requestStart, script.responseStart, script.responseEnd,
          style.responseEnd, nav.domInteractive,
          mark('janus-socket-asked'), mark('janus-socket-handshake'),
          mark('janus-socket-open'), mark('janus-joined'),
          mark('janus-first-screen'),
          (performance.getEntriesByName('first-contentful-paint')[0] || {startTime: NaN})
            .startTime,
          mark('janus-painted'), mark('janus-live'),
          performance.timeOrigin].map(t => t / 1000);
}"""
PARTS = ("HTML received", "script asked", "script's first byte", "script received",
         "style received", "HTML parsed",
         "socket asked", "socket's handshake done", "hello sent (with the code)",
         "joined (its answer)", "first screen read",
         "first contentful paint (on the screen)", "the script's screen drawn",
         "playable")


async def open_pages(tabs: list, url: str, codes: list[str], start: float,
                     start_epoch: float) -> list[tuple[float, ...]]:
    """Every tab goes to its seat's address at once (``start``, ``start_epoch`` on the
    wall clock): for each, the seconds from navigation start to each of :data:`PARTS`
    (the page's own clock), then from ``start`` (when this process asked the tab to
    go) to painted (the first painting), to the script's screen painted and to playable
    (the page's clock against the same wall clock)."""
    async def one(page, code: str) -> tuple[float, ...]:
        await asyncio.sleep(max(0.0, start - time.monotonic()))
        await page.goto(f"{url}/seat?code={code}", wait_until="commit")
        await page.wait_for_function(PAINTED, timeout=120_000, polling=20)
        *parts, origin = await page.evaluate(TIMING)
        shown, drawn, playable = parts[-3:]
        return (*parts, origin + shown - start_epoch, origin + drawn - start_epoch,
                origin + playable - start_epoch)
    return await asyncio.gather(*(one(page, code) for page, code in zip(tabs, codes)))


async def trivial_pages(tabs: list, blank: str) -> list[float]:
    """Every tab opens the trivial page at once: seconds until its script has run and
    its line is on the screen (its first contentful paint), the later of the two (the
    page's clock, as the seat pages' times are read)."""
    start = time.monotonic() + 0.2
    start_epoch = time.time() + 0.2

    async def one(page) -> float:
        await asyncio.sleep(max(0.0, start - time.monotonic()))
        await page.goto(blank + "trivial", wait_until="commit")
        await page.wait_for_function(TRIVIAL_RAN, timeout=60_000, polling=20)
        ran = await page.evaluate(
            "() => Math.max(Number(document.body.dataset.ran), performance.timeOrigin + "
            "performance.getEntriesByName('first-contentful-paint')[0].startTime)")
        return ran / 1000 - start_epoch
    times = await asyncio.gather(*(one(page) for page in tabs))
    for page in tabs:                        # back to the blank page, as before the clock
        await page.goto(blank)
    return list(times)


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


async def run_size(args: argparse.Namespace, seats: int, browsers: list, blank: str,
                   cpus: tuple[set[int], set[int]] | None) -> dict:
    pages = min(args.pages, seats)
    playing = min(args.playing, seats - pages)
    folder = Path(tempfile.mkdtemp(prefix=f"janus-bench-{seats}-"))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([sys.executable, "-m", "janus_widgets", "serve", "--port",
                             str(port), "--db", str(folder / "class.sqlite"),
                             "--teacher-token-file", str(folder / "token"),
                             "--bot-delay", "0.4"],
                            stdout=open(folder / "server.log", "w"), stderr=subprocess.STDOUT,
                            start_new_session=True)   # its own scheduling group: see --nice
    if cpus:
        os.sched_setaffinity(proc.pid, cpus[0])
    workers = None
    profile = None
    try:
        wait_http(url + "/api/status", timeout=60, proc=proc)
        teacher = classroom.connect(url, (folder / "token").read_text().strip())
        made = make_tables(teacher, seats)
        await asyncio.sleep(2.0)                     # the bots' first moves are made
        before = rss_mb(proc.pid)
        codes = [code for _, code in made]
        browser_codes, client_codes = codes[:pages], codes[pages:]
        workers = Workers(args.workers, url, client_codes, playing,
                          cpus[1] if cpus else None, args.nice)
        tabs = await new_tabs(browsers, len(browser_codes), blank)
        await trivial_pages(tabs, blank)          # the browser warms up, as one in use is
        baseline = await trivial_pages(tabs, blank)
        await asyncio.sleep(2.0)
        load_start = load()
        if os.environ.get("JANUS_PROFILE_JOIN"):
            profile = subprocess.Popen([str(Path(sys.executable).parent / "py-spy"),
                                        "record", "-p", str(proc.pid), "-d", "6", "--idle", "-f",
                                        "raw", "-o", os.environ["JANUS_PROFILE_JOIN"]])
            await asyncio.sleep(1.0)
        cpu0 = cpu_seconds(proc.pid)
        kinds0 = cpu_by_kind(proc.pid, [w.pid for w in workers.procs])
        start_epoch = time.time() + 0.5
        start = time.monotonic() + 0.5
        workers.tell({"start": start})
        page_times, answers = await asyncio.gather(
            open_pages(tabs, url, browser_codes, start, start_epoch), workers.answers())
        opened = time.monotonic() - start
        cpu_open = cpu_seconds(proc.pid) - cpu0
        kinds = {kind: seconds - kinds0.get(kind, 0.0) for kind, seconds in
                 cpu_by_kind(proc.pid, [w.pid for w in workers.procs]).items()}
        client_times = [t for a in answers for t in json.loads(a)["first"]]
        client_live = [t for a in answers for t in json.loads(a)["live"]]
        if profile is not None:
            profile.wait()
            profile = None
        await asyncio.sleep(1.0)
        after = rss_mb(proc.pid)
        workers.tell({"play": True})
        await asyncio.sleep(2.0)
        if os.environ.get("JANUS_PROFILE"):
            profile = subprocess.Popen([str(Path(sys.executable).parent / "py-spy"), "record",
                                        "-p", str(proc.pid), "-d", "20", "-f", "raw", "-o",
                                        os.environ["JANUS_PROFILE"]])
        cpu1, clock1 = cpu_seconds(proc.pid), time.monotonic()
        latencies = await click_to_pixels(browsers[0], url, teacher, args.moves)
        cpu_play = (cpu_seconds(proc.pid) - cpu1) / (time.monotonic() - clock1)
        if profile is not None:
            profile.wait()
            profile = None
        workers.tell({"stop": True})
        played = sum(json.loads(a)["played"] for a in await workers.answers())
        return {"seats": seats, "pages": page_times,
                "page_games": [game for game, _ in made[:pages]], "clients": client_times, "clients_live": client_live,
                "baseline": baseline,
                "pages_n": pages, "rss_before": before, "rss_after": after,
                "latency": latencies, "played": played, "playing": playing,
                "opened": opened, "cpu_open": cpu_open, "cpu_kinds": kinds, "cpu_play": cpu_play,
                "load_start": load_start, "load_end": load()}
    finally:
        if workers is not None:
            workers.close()
        if profile is not None:
            profile.kill()
        proc.terminate()
        proc.wait(timeout=30)


def slowest_first(page: tuple[float, ...]) -> float:
    """A tab's first painting (its first contentful paint) on its own clock (from its
    navigation's start)."""
    return page[len(PARTS) - 3]


def summary(name: str, times: list[float]) -> str:
    if not times:
        return f"{name}: none"
    return (f"{name} ({len(times)}): median {statistics.median(times):.2f} s, slowest "
            f"{max(times):.2f} s")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def pinning(args: argparse.Namespace) -> tuple[set[int], set[int]] | None:
    """(the server's cores, everything else's), or None when not pinning."""
    cores = sorted(os.sched_getaffinity(0))
    if not args.pin or len(cores) < 2:
        return None
    return {cores[0]}, set(cores[1:])


def report(r: dict) -> None:
    seats = r["seats"]
    per_seat = (r["rss_after"] - r["rss_before"]) / seats
    lat = r["latency"]
    print(f"\n{seats} seats at once ({r['pages_n']} Chromium pages, the rest WebSocket "
          f"clients; tables of one human seat and bots) [{r['load_start']} at the start, "
          f"{r['load_end']} at the end]")
    pages = r["pages"]
    print("  Chromium's own share: " + summary(
        "the same tabs opening a trivial page (one line, one module script) at once, to its "
        "script run and its line on the screen", r["baseline"]))
    print("  first screen: " + summary("pages, start to painted", [p[-3] for p in pages])
          + "; " + summary("to the script's screen drawn (its mark, before its frame)",
                           [p[-2] for p in pages])
          + "; " + summary("to playable (the socket's screen painted)",
                           [p[-1] for p in pages])
          + "; " + summary("clients, their page received", r["clients"])
          + "; " + summary("their socket's first screen", r["clients_live"]))
    if pages:
        medians = [statistics.median(p[k] for p in pages) for k in range(len(PARTS))]
        print("  the pages' own clocks, medians from navigation start: " + ", ".join(
            f"{name} {t:.2f} s" for name, t in zip(PARTS, medians)))
        at = max(range(len(pages)), key=lambda k: pages[k][-3])
        slowest = pages[at]
        print(f"  the slowest tab to paint ({r['page_games'][at]}, {slowest[-3]:.2f} s from "
              f"the start; navigation "
              f"started {slowest[-3] - slowest_first(slowest):.2f} s after the start), "
              "its own clock: " + ", ".join(f"{name} {t:.2f} s"
                                            for name, t in zip(PARTS, slowest)))
    print(f"  every seat had its socket's first screen {r['opened']:.2f} s after the start; "
          "the "
          f"server used {r['cpu_open']:.2f} CPU seconds meanwhile")
    print("  CPU seconds from the start until every seat had it, by whom (the machine has "
          f"{os.cpu_count()} cores): " + ", ".join(f"{kind} {seconds:.2f}" for kind, seconds
                                                  in r["cpu_kinds"].items()
                                                  if kind in CPU_KINDS)
          + "; Chromium's by process: " + ", ".join(
              f"{kind} {seconds:.2f}" for kind, seconds in r["cpu_kinds"].items()
              if kind not in CPU_KINDS))
    print(f"  server memory: {r['rss_before']:.0f} MB with the tables, "
          f"{r['rss_after']:.0f} MB with every seat connected: "
          f"{per_seat * 1024:.0f} kB per seat")
    if lat:
        print(f"  click on A's page → new pixels on B's page, {r['playing']} tables "
              f"playing ({r['played']} moves by their seats meanwhile; the server busy "
              f"{100 * r['cpu_play']:.0f}% of one core): median "
              f"{statistics.median(lat):.0f} ms, p99 {percentile(lat, 0.99):.0f} ms, "
              f"slowest {max(lat):.0f} ms over {len(lat)} moves")


def niced(program: str, nice: int) -> str:
    """``program``, or with ``nice`` > 0 a small script that runs it at that niceness
    (every process it starts, its renderers too, inherits it)."""
    if not nice:
        return program
    folder = Path(tempfile.mkdtemp(prefix="janus-bench-nice-"))
    script = folder / "chromium"
    script.write_text(f'#!/bin/sh\nexec nice -n {int(nice)} "{program}" "$@"\n')
    script.chmod(0o755)
    return str(script)


def autogroups() -> bool:
    """Whether Linux schedules each session as a group of its own."""
    try:
        return Path("/proc/sys/kernel/sched_autogroup_enabled").read_text().strip() == "1"
    except OSError:
        return False


def nice_browser_groups(nice: int) -> list[str]:
    """Lower the priority of Chromium's scheduling groups to ``nice``. Linux puts each
    session in an autogroup of its own (``/proc/sys/kernel/sched_autogroup_enabled``),
    and the browser Playwright starts leads a session of its own: between groups a
    process's niceness counts for nothing, and the group's own does (``/proc/<pid>/
    autogroup``). Without this, ``--nice`` left Chromium's ten renderers a share of
    the CPU equal to the server's, and the server waited while it had work (at 60
    seats it was busy or waiting for a core about 1.5 s of the arrival's 2.5 s, and
    ran 0.45 s; its log shows answers 0.76 s after the request). Returns the groups
    it set."""
    done = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            comm = (entry / "comm").read_text().strip()
            if "chrom" not in comm and "headless" not in comm:
                continue
            group = (entry / "autogroup").read_text().split()[0]
            if group in done or group == Path("/proc/self/autogroup").read_text().split()[0]:
                continue
            (entry / "autogroup").write_text(str(nice))
            done.append(group)
        except OSError:
            continue                       # gone meanwhile, or not ours to change
    return done


async def main_async(args: argparse.Namespace) -> None:
    from playwright.async_api import async_playwright
    cpus = pinning(args)
    if cpus:
        os.sched_setaffinity(0, cpus[1])     # Chromium and the workers start from here
        print(f"pinned: the server to cores {sorted(cpus[0])}, this process, Chromium and "
              f"{args.workers} load workers to {sorted(cpus[1])}")
    else:
        print("not pinned: the server, Chromium and the load workers share every core")
    if args.nice:
        print(f"the students' side (Chromium and the load workers) at niceness {args.nice}: "
              "the server first when it has work (see --nice)")
    else:
        print("Chromium, the load workers and the server at one priority (--nice 0)")
    blank_http, blank = blank_server()
    async with async_playwright() as p:
        browsers = [await p.chromium.launch(executable_path=niced(CHROMIUM, args.nice),
                                            headless=True, args=CHROMIUM_ARGS)
                    for _ in range(args.browsers)]
        if args.nice and autogroups():
            # Chromium's browser leads a session, so a scheduling group, of its own;
            # the load workers each too (see Workers); the server and this process
            # with Playwright's driver (the students' hands, not their devices) at 0
            groups = nice_browser_groups(args.nice)
            print(f"scheduling groups (autogroups): Chromium's at niceness {args.nice} "
                  f"({', '.join(groups) or 'none found'}), the load workers' too; the "
                  "server's and the driver's at 0")
        print(f"{args.pages} tabs in {args.browsers} Chromium browser"
              + ("s (each its own processes: its browser, GPU and network)"
                 if args.browsers > 1 else " (one browser process for every tab)"))
        for seats in args.seats:
            report(await run_size(args, seats, browsers, blank, cpus))
        for browser in browsers:
            await browser.close()
    blank_http.shutdown()


def main() -> None:
    if sys.argv[1:] == ["--worker"]:
        asyncio.run(worker_main())
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, nargs="+", default=[30, 60, 300])
    parser.add_argument("--pages", type=int, default=10, help="real Chromium pages")
    parser.add_argument("--playing", type=int, default=60,
                        help="tables whose seat plays while the latency is measured")
    parser.add_argument("--moves", type=int, default=40, help="moves timed A → B")
    parser.add_argument("--browsers", type=int, default=1,
                        help="Chromium browsers the tabs are shared among (a student's "
                             "device has a browser of its own; one browser's main "
                             "thread serves all of its tabs)")
    parser.add_argument("--workers", type=int, default=2,
                        help="load-generator processes for the WebSocket clients")
    parser.add_argument("--pin", action=argparse.BooleanOptionalAction, default=True,
                        help="the server on the first core, everything else on the others")
    parser.add_argument("--nice", type=int, default=10, choices=range(0, 20),
                        metavar="0-19",
                        help="the niceness of Chromium and the load workers (they stand "
                             "for the students' own devices): the server has the CPU "
                             "first when it has work, as on a computer of its own; "
                             "0: all at one priority")
    args = parser.parse_args()
    if args.workers < 1 or args.browsers < 1:
        parser.error("--workers and --browsers are 1 or more")
    if not Path(CHROMIUM).exists():
        sys.exit(f"Chromium is needed at {CHROMIUM}")
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()

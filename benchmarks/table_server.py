"""How fast the table server is: 8 tables of 4 seats played by scripted clients and bots.

    python benchmarks/table_server.py [--tables 8] [--seconds 20] [--game jinns]

Starts ``python -m janus_widgets serve`` on a free port with a fresh SQLite file (every
move committed before it is acknowledged, as in class), makes the tables (two seats per
table played by scripted clients over WebSockets, two by the server's greedy bots, no
bot delay), and plays for ``--seconds``. It prints:

* moves per second stored by the server (every table together, chance included);
* the time from a client sending a move to every other seat's client receiving the
  update that holds it: median and 99th percentile (goals: 20 ms and 100 ms);
* the server's memory per table (resident set before and after making the tables);
* the cost of 40 idle connections: memory, and the server's CPU time while idle.

The clients run in this process, on one event loop; the machine's load is printed with
the figures (the server and the clients share its cores).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import tornado.websocket


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def call(url: str, method: str, path: str, secret: str = "", body: object = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, method=method)
    if secret:
        request.add_header("Authorization", f"Bearer {secret}")
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.loads(reply.read())


class Client:
    """A scripted seat: plays a random legal move whenever it is sent some."""

    def __init__(self, url: str, credential: str, table: str, rng: random.Random,
                 sent: dict, latencies: list[float], think: float = 0.0) -> None:
        self.url, self.credential, self.table, self.rng = url, credential, table, rng
        self.think = think
        self.sent, self.latencies = sent, latencies
        self.moves = 0
        self.length = 0

    async def run(self, until: float, play: bool = True) -> None:
        ws = await tornado.websocket.websocket_connect(
            self.url.replace("http://", "ws://") + "/ws")
        await ws.write_message(json.dumps({"type": "hello", "credential": self.credential}))
        while time.monotonic() < until:
            try:
                text = await asyncio.wait_for(ws.read_message(), until - time.monotonic())
            except asyncio.TimeoutError:
                break
            if text is None:
                break
            msg = json.loads(text)
            if msg.get("type") != "update":
                continue
            now = time.monotonic()
            if msg["moves"]:
                self.sent["last"] = max(self.sent.get("last", 0.0), now)
            for move in msg["moves"]:
                key = (self.table, move["ply"])
                if key in self.sent and self.sent[key][1] != self.credential:
                    self.latencies.append(now - self.sent[key][0])
            self.length = msg["length"]
            if play and msg["legal"] and not msg["result"]["over"]:
                move = self.rng.choice(msg["legal"])[1]
                if self.think:
                    await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
                self.sent[(self.table, self.length)] = (time.monotonic(), self.credential)
                self.moves += 1
                await ws.write_message(json.dumps({"type": "play", "move": move,
                                                   "id": f"{self.credential[:6]}-{self.moves}"}))
        ws.close()


async def idle(url: str, credential: str, hold: float) -> None:
    ws = await tornado.websocket.websocket_connect(url.replace("http://", "ws://") + "/ws")
    await ws.write_message(json.dumps({"type": "hello", "credential": credential}))
    await asyncio.sleep(hold)
    ws.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--game", default="jactus",
                        help="a 4-player game (default jactus: games long enough to play "
                             "the whole time)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--think", type=float, default=0.3,
                        help="seconds a paced client thinks before it moves (default 0.3)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="table-bench-"))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([sys.executable, "-m", "janus_widgets", "serve", "--port",
                             str(port), "--db", str(folder / "bench.sqlite"),
                             "--bot-delay", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        token = None
        while token is None:
            line = proc.stdout.readline()
            if not line:
                raise SystemExit("the server did not start")
            found = re.search(r"Teacher's token: (\S+)", line)
            token = found.group(1) if found else None
        time.sleep(0.5)
        rss_empty = rss_kib(proc.pid)
        rng = random.Random(args.seed)
        credentials: list[str] = []

        def make_tables(think: float, first_seed: int) -> tuple[list[Client], dict, list]:
            clients, sent, latencies = [], {}, []
            for k in range(args.tables):
                made = call(url, "POST", "/api/tables", token,
                            {"game": args.game, "players": 4, "seed": first_seed + k,
                             "bots": {"C": "greedy", "D": "greedy"}})
                for letter in ("A", "B"):
                    cred = call(url, "POST", "/api/join",
                                body={"code": made["codes"][letter]})
                    credentials.append(cred["credential"])
                    clients.append(Client(url, cred["credential"], made["id"],
                                          random.Random(rng.random()), sent, latencies,
                                          think))
            return clients, sent, latencies

        def play(clients: list[Client], sent: dict, seconds: float) -> tuple[int, float]:
            before = sum(t["moves"] for t in call(url, "GET", "/api/tables", token)["tables"])
            t0 = time.monotonic()

            async def run() -> None:
                until = time.monotonic() + seconds
                await asyncio.gather(*(c.run(until) for c in clients))
            asyncio.run(run())
            elapsed = sent.get("last", time.monotonic()) - t0   # until the last move came
            after = sum(t["moves"] for t in call(url, "GET", "/api/tables", token)["tables"])
            return after - before, elapsed

        fast, fast_sent, fast_lat = make_tables(0.0, args.seed)
        rss_tables = rss_kib(proc.pid)
        stored, elapsed = play(fast, fast_sent, args.seconds / 2)
        paced, paced_sent, latencies = make_tables(args.think, args.seed + 100)
        paced_moves, paced_elapsed = play(paced, paced_sent, args.seconds / 2)
        tables = call(url, "GET", "/api/tables", token)["tables"]
        finished = sum(1 for t in tables if t["turn"] == "over")
        rss_played = rss_kib(proc.pid)
        fast_sorted = sorted(fast_lat)

        cpu0, rss0 = cpu_seconds(proc.pid), rss_kib(proc.pid)

        async def idle_all() -> None:
            await asyncio.gather(*(idle(url, credentials[i % len(credentials)], 12)
                                   for i in range(40)))
        task_loop = asyncio.new_event_loop()
        fut = task_loop.create_task(idle_all())
        task_loop.run_until_complete(asyncio.sleep(2))           # all 40 signed in
        rss_idle = rss_kib(proc.pid)
        cpu1 = cpu_seconds(proc.pid)
        task_loop.run_until_complete(asyncio.sleep(8))
        cpu2 = cpu_seconds(proc.pid)
        task_loop.run_until_complete(fut)
        task_loop.close()
        del cpu0

        def pct(values: list[float], q: float) -> float:
            return values[min(len(values) - 1, int(q * len(values)))] * 1000

        lat = sorted(latencies)
        load = Path("/proc/loadavg").read_text().split()[:3]
        print(f"table server, {args.tables} tables x 4 seats of {args.game} (2 scripted "
              f"clients + 2 greedy bots each), load {' '.join(load)}")
        print(f"  as fast as the clients can: {stored} moves stored in {elapsed:.1f} s = "
              f"{stored / elapsed:.0f} moves/s (chance and bots included); move -> other "
              f"seats' update median {pct(fast_sorted, 0.5):.1f} ms, 99th percentile "
              f"{pct(fast_sorted, 0.99):.1f} ms")
        print(f"  at a class's pace (each client thinks {args.think:g} s ± 50%): "
              f"{paced_moves} moves in {paced_elapsed:.1f} s; move -> other seats' update "
              f"median {pct(lat, 0.5):.1f} ms, 99th percentile {pct(lat, 0.99):.1f} ms "
              f"over {len(lat)} deliveries (goals 20 ms / 100 ms)")
        print(f"  games finished: {finished} of {len(tables)}")
        made_kib = (rss_tables - rss_empty) / args.tables
        played_kib = (rss_played - rss_empty) / args.tables
        print(f"  memory: {rss_empty / 1024:.1f} MiB empty, +{made_kib:.0f} KiB per table "
              f"made, {played_kib:.0f} KiB per table after playing")
        print(f"  40 idle connections: +{(rss_idle - rss0) / 1024:.2f} MiB, server CPU "
              f"{(cpu2 - cpu1) / 8 * 100:.2f}% of a core while they idle")
    finally:
        proc.terminate()
        proc.wait(timeout=15)


if __name__ == "__main__":
    main()

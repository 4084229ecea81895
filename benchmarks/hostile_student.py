"""Honest seats playing while one student spends every allowance the server gives.

    python benchmarks/hostile_student.py [--honest 30] [--seconds 20]

Starts ``python -m janus_widgets serve`` (its own process and database). ``--honest``
seats play at two-human Jactus tables: each plays a legal move about a second after its
turn comes and times the round trip (``play`` sent → ``ack`` received). Meanwhile one
student at a long card game (about 150 moves, made first) joins its seat as often as
the server lets it keep credentials, opens every socket each credential may have, and
on each sends ``sync`` from move 0 (the whole game's views) and seat-page messages
(each a screen) as fast as the server reads them. Printed: the honest round trips
(median, 99th percentile, slowest), how many of the student's messages the server
refused, and how many it answered. Without the student first, for comparison.
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
from browser_support import free_port, wait_http  # noqa: E402

from janus_widgets import classroom  # noqa: E402


async def join(url: str, code: str) -> str:
    reply = await tornado.httpclient.AsyncHTTPClient().fetch(
        url + "/api/join", method="POST", body=json.dumps({"code": code}),
        headers={"Content-Type": "application/json"}, raise_error=False)
    return json.loads(reply.body).get("credential", "")


async def socket(url: str, credential: str, **hello: object):
    ws = await tornado.websocket.websocket_connect(url.replace("http", "ws") + "/ws")
    await ws.write_message(json.dumps({"type": "hello", "credential": credential, **hello}))
    return ws


async def honest(url: str, code: str, stop: asyncio.Event, trips: list[float]) -> None:
    ws = await socket(url, await join(url, code))
    legal = None
    sent: dict[str, float] = {}
    rng = random.Random(code)
    while not stop.is_set():
        try:
            text = await asyncio.wait_for(ws.read_message(), 0.2)
        except asyncio.TimeoutError:
            text = ""
        if text is None:
            return
        if text:
            msg = json.loads(text)
            if msg["type"] == "update":
                legal = msg["legal"]
            elif msg["type"] == "ack" and msg.get("id") in sent:
                trips.append((time.perf_counter() - sent.pop(msg["id"])) * 1000)
        if legal and not sent:
            await asyncio.sleep(0.5 + rng.random())
            move_id = os.urandom(6).hex()
            sent[move_id] = time.perf_counter()
            await ws.write_message(json.dumps({"type": "play", "id": move_id,
                                               "move": rng.choice(legal)[1]}))
            legal = None


async def hostile(url: str, code: str, stop: asyncio.Event, counts: dict[str, int]) -> None:
    credentials = [await join(url, code) for _ in range(4)]
    sockets = []
    for credential in credentials:
        for k in range(4):
            sockets.append(await socket(url, credential, screen=(k % 2 == 1)))

    async def flood(ws, page: bool) -> None:
        async def read() -> None:
            while not stop.is_set():
                text = await ws.read_message()
                if text is None:
                    return
                kind = json.loads(text).get("type")
                counts[kind] = counts.get(kind, 0) + 1
        reader = asyncio.ensure_future(read())
        message = json.dumps({"type": "goto", "index": 0} if page else
                             {"type": "sync", "since": 0})
        while not stop.is_set():
            try:
                await ws.write_message(message)
            except tornado.websocket.WebSocketClosedError:
                return
            counts["sent"] = counts.get("sent", 0) + 1
            await asyncio.sleep(0.01)
        reader.cancel()
    await asyncio.gather(*(flood(ws, k % 2 == 1) for k, ws in enumerate(sockets)))


async def run(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="janus-hostile-"))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([sys.executable, "-m", "janus_widgets", "serve", "--port",
                             str(port), "--db", str(folder / "c.sqlite"),
                             "--teacher-token-file", str(folder / "token"),
                             "--bot-delay", "0"], stdout=open(folder / "log", "w"),
                            stderr=subprocess.STDOUT)
    try:
        wait_http(url + "/api/status", timeout=60, proc=proc)
        teacher = classroom.connect(url, (folder / "token").read_text().strip())
        long_game = teacher.create_table("janus-cards", players=3, stall_rounds=40,
                                         bots={1: "random", 2: "random"})
        seat = classroom.join(url, long_game.codes["A"])
        while seat.length < 150 and not seat.is_over:
            if seat.legal_moves():
                seat.play(seat.legal_moves()[0])
            else:
                seat.wait(1)
        length = seat.length
        seat.close()
        codes = []
        for _ in range(args.honest // 2):
            t = teacher.create_table("jactus", players=2)
            codes += [t.codes["A"], t.codes["B"]]
        for attack in (False, True):
            stop = asyncio.Event()
            trips: list[float] = []
            counts: dict[str, int] = {}
            tasks = [asyncio.ensure_future(honest(url, code, stop, trips)) for code in codes]
            if attack:
                tasks.append(asyncio.ensure_future(hostile(url, long_game.codes["A"], stop,
                                                           counts)))
            await asyncio.sleep(args.seconds)
            stop.set()
            await asyncio.sleep(0.5)
            for task in tasks:
                task.cancel()
            trips.sort()
            p99 = trips[min(len(trips) - 1, int(0.99 * (len(trips) - 1)))] if trips else 0
            print(f"{'with' if attack else 'without'} the student "
                  f"({args.honest} honest seats, {args.seconds:g} s): round trip median "
                  f"{statistics.median(trips):.1f} ms, p99 {p99:.1f} ms, slowest "
                  f"{max(trips):.1f} ms over {len(trips)} moves")
            if attack:
                print(f"  the student (a {length}-move card game, 4 credentials × 4 "
                      f"sockets, syncs from 0 and page screens): sent {counts.get('sent', 0)}"
                      f", answered {counts.get('update', 0)} updates and "
                      f"{counts.get('screen', 0)} screens, refused "
                      f"{counts.get('error', 0)}")
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--honest", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=20)
    args = parser.parse_args()
    asyncio.run(run(args))


if __name__ == "__main__":
    main()

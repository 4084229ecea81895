"""Issue 35 item 3: the classroom's Voila keeps a lesson's pages ready in advance
(``classroom --lesson NAME --students N``), and a page taken from that pool shows its
own student's numbers, never those of the page as it was warmed (the class's) nor
another student's.

One Voila, started with the command line the ``classroom`` command gives it
(:func:`janus_widgets.classroom_cmd.voila_command` with a pool of two), serves a small
lesson beside a table server: its parameters cell draws ``jactus-odds``' exercises for
the page's student, as every lesson does, a cell before the student's part notes when it
ran, and a later cell shows the student's id and a digest of their first question. Plain
HTTP clients open the pages (a page is ready when its response ends: its kernel has run
the whole notebook).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import threading
import time
import urllib.parse
from pathlib import Path

import pytest

from browser_support import _stop, free_port, get, in_thread, wait_http
from server_support import table_server

from janus_widgets.analysis.checking import exercise_sets
from janus_widgets.classroom_cmd import POOL_STATUS, voila_command
from janus_widgets.table.client import TeacherClient

PAGE = "lessons/quiz.ipynb"


def cell(source: str, tags: tuple[str, ...] = ()) -> dict:
    return {"cell_type": "code", "execution_count": None, "metadata": {"tags": list(tags)},
            "outputs": [], "source": source}


#: A lesson as the lessons are written: the parameters cell first, a cell that needs no
#: student, the student's part last.
QUIZ = {
    "cells": [
        {"cell_type": "markdown", "metadata": {}, "source": "# A quiz"},
        cell("STUDENT_ID = None\n"
             "from janus_widgets.analysis.checking import exercise_sets\n\n"
             "EXERCISES = exercise_sets(student=STUDENT_ID)['jactus-odds']",
             ("parameters",)),
        cell("import os, time\n"
             "print('warmed at', repr(time.time()), 'preheated',\n"
             "      os.environ.get('VOILA_PREHEAT'))"),
        cell("import hashlib\n"
             "print('page of', STUDENT_ID, 'q1', hashlib.sha256(\n"
             "    EXERCISES.q1.question.encode()).hexdigest()[:16])\n"
             "print('request url', os.environ.get('VOILA_REQUEST_URL', 'none'))"),
    ],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                "name": "python3"},
                 "janus_widgets": {"lesson": {"game": None, "minutes": 5,
                                              "level": "test"}}},
    "nbformat": 4, "nbformat_minor": 4}


def digest(student: str | None) -> str:
    question = exercise_sets(student)["jactus-odds"].q1.question
    return hashlib.sha256(question.encode()).hexdigest()[:16]


def status(folder: Path) -> dict:
    try:
        return json.loads((folder / POOL_STATUS).read_text())
    except (OSError, ValueError):
        return {}


def wait_for(test, what: str, timeout: float = 240) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if test():
            return
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture(scope="module")
def room(tmp_path_factory):
    folder = tmp_path_factory.mktemp("preheated")
    (folder / "lessons").mkdir()
    (folder / PAGE).write_text(json.dumps(QUIZ))
    with table_server(folder) as server:
        port = free_port()
        command = voila_command(folder, "127.0.0.1", port, refused=("teacher.ipynb",),
                                pools={PAGE: 2}, students=2, status_file=folder / POOL_STATUS)
        command += ["--GuardedKernelManager.unconnected_timeout=3",
                    "--GuardedKernelManager.check_interval=1",
                    "--GuardedKernelManager.warm_at_once=2"]
        log = open(folder / "voila.log", "w")
        proc = subprocess.Popen(command, cwd=folder, stdout=log, stderr=subprocess.STDOUT,
                                env={**os.environ, "JUPYTER_RUNTIME_DIR": str(folder / "rt")})
        try:
            wait_http(f"http://127.0.0.1:{port}/voila/static/voila.js", proc=proc)
            yield folder, f"http://127.0.0.1:{port}/", server
        finally:
            _stop(proc)
            log.close()


def open_pages(base: str, server, names: list[str]) -> dict[str, tuple[float, str]]:
    """Each student's page opened at once with their class code: when it was asked for,
    and its text."""
    codes = TeacherClient(server.url, server.token).create_class(
        f"c{time.monotonic_ns()}", names)
    pages: dict[str, tuple[float, str]] = {}

    def one(name: str) -> None:
        query = urllib.parse.urlencode({"server": server.url, "code": codes[name]})
        asked = time.time()
        status, _, text = get(f"{base}voila/render/{PAGE}?{query}")
        assert status == 200, (name, status, text[:300])
        pages[name] = (asked, text)

    threads = [threading.Thread(target=one, args=(name,)) for name in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return pages


def shown(text: str) -> dict[str, str]:
    found = {}
    warmed = re.search(r"warmed at (\d+\.\d+) preheated (\w+)", text)
    if warmed:
        found["warmed_at"], found["preheated"] = warmed.groups()
    page = re.search(r"page of (\S+) q1 ([0-9a-f]{16})", text)
    if page:
        found["student"], found["q1"] = page.groups()
    url = re.search(r"request url (\S+)", text)
    found["url"] = url.group(1) if url else ""
    return found


async def query_socket_status(url: str) -> int | None:
    """The status Voila's request-info socket is refused with (None: it opened)."""
    import tornado.httpclient
    import tornado.websocket
    try:
        ws = await tornado.websocket.websocket_connect(url, connect_timeout=20)
    except tornado.httpclient.HTTPClientError as exc:
        return exc.code
    ws.close()
    return None


@pytest.mark.slow
def test_a_preheated_page_shows_its_own_students_numbers_and_a_page_beyond_the_pool_works(
        room):
    folder, base, server = room
    wait_for(lambda: status(folder).get("pools", {}).get(PAGE, {}).get("ready") == 2,
             "the pool of two pages to be warm")
    assert status(folder)["pool_rss_mb"] > 0            # what the teacher is told
    own = {name: digest(name) for name in ("ada", "bo", "cy", "dee")}
    assert len(set(own.values()) | {digest(None)}) == 5  # the test can tell them apart
    pages = open_pages(base, server, ["ada", "bo", "cy"])
    facts = {name: shown(text) for name, (_, text) in pages.items()}
    for name, fact in facts.items():
        assert fact["student"] == name and fact["q1"] == own[name], (name, fact)
    # two pages from the pool: their first cells ran before anyone asked for them; the
    # third, beyond the pool, started on its own (and still shows its own numbers)
    preheated = sorted(name for name, fact in facts.items() if fact["preheated"] == "True")
    assert len(preheated) == 2, facts
    for name in preheated:
        assert float(facts[name]["warmed_at"]) < pages[name][0], facts[name]
    beyond = ({"ada", "bo", "cy"} - set(preheated)).pop()
    assert facts[beyond]["preheated"] == "False"
    # the pool is made again; a page from a refilled kernel knows nothing of the
    # requests that emptied its place
    wait_for(lambda: status(folder).get("pools", {}).get(PAGE, {}).get("ready") == 2,
             "the pool to be made again")
    later = open_pages(base, server, ["dee"])
    fact = shown(later["dee"][1])
    assert fact["preheated"] == "True" and fact["student"] == "dee" and \
        fact["q1"] == own["dee"], fact
    assert fact["url"] == "none", fact
    # only a pool's own kernel opens its request-info socket, once: a page cannot
    # open the one of its own kernel, nor guess one
    kernel = re.search(r'"kernelId": "([0-9a-f-]{36})"', later["dee"][1]).group(1)
    ws = base.replace("http://", "ws://") + "voila/query/"
    assert in_thread(query_socket_status(ws + kernel)) == 403
    assert in_thread(query_socket_status(ws + "0b2c5c2c-0000-4000-8000-000000000000")) \
        == 403
    # the pages taken, never connected to, are shut down (3 s here); the pool's pages,
    # connected to by nobody either, stay
    wait_for(lambda: status(folder).get("kernels") == 2 and
             status(folder)["pools"][PAGE]["ready"] == 2,
             "the pages taken to be shut down and the pool's two to stay", timeout=90)

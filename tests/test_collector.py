"""The table server's garbage-collector pacing (janus_widgets.table.collector): what
survives a full collection is left out of later ones (short pauses with a class's
heap), a cycle that becomes garbage meanwhile is freed at the next thaw, and the
command-line server is the one that paces (it acts on the whole process)."""

from __future__ import annotations

import asyncio
import gc
import threading
import weakref
from types import SimpleNamespace

import pytest

from janus_widgets.table import server as server_module
from janus_widgets.table.collector import OldObjectsFrozen


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def _cycle() -> weakref.ref:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


@pytest.fixture
def pacing():
    clock = SimpleNamespace(now=1000.0)
    made = OldObjectsFrozen(thaw_every=600.0, clock=lambda: clock.now)
    made.install()
    try:
        yield made, clock
    finally:
        made.remove()
    assert made._after not in gc.callbacks and gc.get_freeze_count() == 0


def test_what_survives_a_full_collection_is_left_out_of_the_next(pacing):
    made, _ = pacing
    kept = Node()
    gc.collect()
    assert made.full_collections >= 1
    assert not any(o is kept for o in gc.get_objects()), "a survivor is still walked"
    frozen = gc.get_freeze_count()
    assert frozen > 0
    young = Node()
    gc.collect(1)                                  # a young collection freezes nothing
    assert any(o is young for o in gc.get_objects())
    # none is added (a frozen object freed by its count meanwhile, as another test's
    # thread lets go of one, takes one off: the count may only fall)
    assert gc.get_freeze_count() <= frozen


def test_a_cycle_made_garbage_while_frozen_is_freed_at_the_thaw(pacing):
    made, clock = pacing
    ref = _cycle()
    holder = [ref()]
    gc.collect()                                   # alive: frozen with the rest
    holder.clear()                                 # now garbage, but frozen
    gc.collect()
    assert ref() is not None, "a frozen cycle is not walked until the thaw"
    clock.now += 599.0
    assert made.thaw_if_due() is False
    gc.collect()
    assert ref() is not None
    clock.now += 1.0
    assert made.thaw_if_due() is True and made.thaws == 1
    gc.collect()
    assert ref() is None, "the thaw's full collection frees it"
    assert gc.get_freeze_count() > 0, "and freezes what is left again"


def test_objects_freed_by_their_counts_go_at_once_even_frozen(pacing):
    kept = Node()
    ref = weakref.ref(kept)
    gc.collect()
    del kept
    assert ref() is None


def test_a_wrong_thaw_interval_is_refused():
    with pytest.raises(ValueError, match="thaw_every is a number of seconds above 0"):
        OldObjectsFrozen(thaw_every=0)


def test_serve_paces_while_it_runs_and_stops_pacing_when_it_stops(tmp_path):
    seen: dict[str, object] = {}
    stopped = threading.Event()

    def run() -> None:
        async def main() -> None:
            stop = asyncio.Event()

            def ready(url: str, token: str) -> None:
                seen["pacing"] = [cb.__self__ for cb in gc.callbacks
                                  if isinstance(getattr(cb, "__self__", None),
                                                OldObjectsFrozen)]
                stop.set()
            await server_module.serve("127.0.0.1", 0, str(tmp_path / "c.sqlite"),
                                      str(tmp_path / "token"), ready=ready, stop=stop,
                                      pace_collector=True)
        asyncio.run(main())
        stopped.set()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(60)
    assert stopped.is_set()
    assert len(seen["pacing"]) == 1
    assert not any(isinstance(getattr(cb, "__self__", None), OldObjectsFrozen)
                   for cb in gc.callbacks)
    assert gc.get_freeze_count() == 0


def test_the_command_line_server_paces_its_collector(monkeypatch):
    asked: dict[str, object] = {}

    async def fake_serve(*args, **kwargs) -> None:
        asked.update(kwargs)
    monkeypatch.setattr(server_module, "serve", fake_serve)
    args = SimpleNamespace(host="127.0.0.1", port=0, db="x.sqlite", teacher_token_file=None,
                           certfile=None, keyfile=None, bot_delay=0.1)
    # asyncio.run in a thread of its own: a test before this one in the same worker may
    # leave this thread's loop running (the browser's driver), and asyncio.run refuses
    # to nest.
    code: list[int] = []
    thread = threading.Thread(target=lambda: code.append(
        server_module.run_until_stopped(args, lambda url, token: None)))
    thread.start()
    thread.join(60)
    assert code == [0]
    assert asked["pace_collector"] is True

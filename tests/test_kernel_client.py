"""The sliced kernel channel: short polls, the caller's deadline kept."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from queue import Empty

import pytest
from jupyter_client.channels import AsyncZMQSocketChannel

from janus_widgets import kernel_client
from janus_widgets.kernel_client import SlicedChannel


def run(coroutine):
    """Run a coroutine on a fresh event loop in its own thread (another test's loop may
    still be current in this one)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def channel_with(replies, monkeypatch, polls):
    """A SlicedChannel whose underlying poll answers from ``replies`` (None: nothing yet)."""
    async def fake_get_msg(self, timeout=None):
        polls.append(timeout)
        reply = replies.pop(0) if replies else None
        if reply is None:
            await asyncio.sleep(timeout)
            raise Empty
        return reply

    monkeypatch.setattr(AsyncZMQSocketChannel, "get_msg", fake_get_msg)
    monkeypatch.setattr(kernel_client, "SLICE", 0.01)
    return SlicedChannel.__new__(SlicedChannel)


def test_a_long_wait_is_cut_into_short_polls(monkeypatch):
    polls: list = []
    channel = channel_with([None, None, None, {"msg": "reply"}], monkeypatch, polls)
    assert run(channel.get_msg(timeout=5)) == {"msg": "reply"}
    assert len(polls) == 4 and all(p <= 0.01 for p in polls)


def test_waiting_for_ever_polls_until_a_message_comes(monkeypatch):
    polls: list = []
    channel = channel_with([None] * 5 + [{"msg": "late"}], monkeypatch, polls)
    assert run(channel.get_msg(timeout=None)) == {"msg": "late"}
    assert len(polls) == 6


def test_the_deadline_still_ends_the_wait(monkeypatch):
    polls: list = []
    channel = channel_with([], monkeypatch, polls)
    start = time.monotonic()
    with pytest.raises(Empty):
        run(channel.get_msg(timeout=0.05))
    assert 0.04 <= time.monotonic() - start < 1.0
    assert len(polls) >= 3

"""A Jupyter kernel client that never sleeps through a reply (for Voila and nbclient).

Voila and nbclient run a notebook's cells through jupyter_client's asyncio client. Under
load, that client sometimes misses the wake-up for a reply already waiting in its ZeroMQ
socket (ZeroMQ signals readiness on an edge-triggered descriptor). The kernel is idle, the
reply is there, and the client sleeps until the cell's timeout, which Voila leaves unset: a
lesson page that never finishes loading. Seen on this project's test machines with pyzmq
26.4 and 27.3 and ipykernel 6.31 and 7.4, about one notebook run in fifteen on a loaded
machine.

pyzmq checks the socket once more when a poll times out, so waiting in short polls turns a
lost wake-up into a delay of at most one slice. ``notebooks/voila.json`` makes Voila use
this client when it is started in ``notebooks/``; the tests use it for every notebook they
run.

>>> issubclass(SlicedKernelClient, AsyncKernelClient)
True
>>> SlicedKernelManager().client_factory is SlicedKernelClient
True
"""

from __future__ import annotations

import time
from queue import Empty
from typing import Any

from jupyter_client.asynchronous import AsyncKernelClient
from jupyter_client.channels import AsyncZMQSocketChannel
from jupyter_client.manager import AsyncKernelManager
from traitlets import Type

__all__ = ["SLICE", "SlicedChannel", "SlicedKernelClient", "SlicedKernelManager"]

#: The longest single poll, in seconds: the most a lost wake-up can cost.
SLICE = 0.25


class SlicedChannel(AsyncZMQSocketChannel):
    """A kernel channel whose waits are cut into polls of at most :data:`SLICE` seconds."""

    async def get_msg(self, timeout: float | None = None) -> dict[str, Any]:
        """The next message; ``Empty`` once ``timeout`` seconds pass (None: wait on)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = SLICE if deadline is None else min(SLICE,
                                                      max(0.0, deadline - time.monotonic()))
            try:
                return await super().get_msg(timeout=left)
            except Empty:
                if deadline is not None and time.monotonic() >= deadline:
                    raise


class SlicedKernelClient(AsyncKernelClient):
    """jupyter_client's asyncio client with :class:`SlicedChannel` for every channel."""

    shell_channel_class = Type(SlicedChannel)
    iopub_channel_class = Type(SlicedChannel)
    stdin_channel_class = Type(SlicedChannel)
    control_channel_class = Type(SlicedChannel)


class SlicedKernelManager(AsyncKernelManager):
    """An asyncio kernel manager whose clients are :class:`SlicedKernelClient`."""

    client_factory = Type(SlicedKernelClient)

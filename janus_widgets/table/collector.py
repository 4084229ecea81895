"""Short pauses of Python's garbage collector in a long-running table server.

A class's server holds a few hundred thousand objects that live as long as the class
(the tables, the seats' screens, the drawings and their JSON texts in the screen
model's caches). CPython's full collection walks every one of them each time the
objects that survived since the last one reach a quarter of the heap: measured on the
2-core machine with 300 seats and 60 tables playing, each took 180 to 640 ms, and a
click that arrived meanwhile waited for it (``benchmarks/classroom_pages.py``: the
click's p99 was 272–424 ms, its median 42 ms).

:class:`OldObjectsFrozen` freezes what survives a full collection (:func:`gc.freeze`,
the standard library's tool for this): later collections leave those objects out and
take a few tens of milliseconds. Objects freed by their reference counts (nearly all:
a screen replaced, a cache entry dropped) are freed as before; only a reference
cycle that becomes garbage while frozen waits, until the next thaw (every
``thaw_every`` seconds, 10 minutes by default), when one full collection walks
everything again and frees it.

>>> import gc
>>> pacing = OldObjectsFrozen(thaw_every=600.0)
>>> pacing.install()
>>> _ = gc.collect()                  # a full collection: what survived is frozen
>>> gc.get_freeze_count() > 0
True
>>> pacing.remove()                   # uninstalled, and nothing stays frozen
>>> gc.get_freeze_count()
0
"""

from __future__ import annotations

import gc
import time
from typing import Any, Callable


class OldObjectsFrozen:
    """Freeze what survives each full collection; thaw every ``thaw_every`` seconds.

    ``clock`` gives seconds (:func:`time.monotonic`); :meth:`thaw_if_due` is to be
    called now and then (the server calls it every minute)."""

    def __init__(self, thaw_every: float = 600.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if not thaw_every > 0:
            raise ValueError(f"thaw_every is a number of seconds above 0, not {thaw_every!r}")
        self.thaw_every = float(thaw_every)
        self.clock = clock
        self.thawed_at = clock()
        self.full_collections = 0      # seen since install
        self.thaws = 0

    def install(self) -> None:
        """Start: freeze after every full collection from now on."""
        if self._after not in gc.callbacks:
            gc.callbacks.append(self._after)
        self.thawed_at = self.clock()

    def remove(self) -> None:
        """Stop, and give the frozen objects back to the collector."""
        if self._after in gc.callbacks:
            gc.callbacks.remove(self._after)
        gc.unfreeze()

    def _after(self, phase: str, info: dict[str, Any]) -> None:
        # Called by the collector itself. Right after a full collection every younger
        # generation is empty and what is left is alive: freezing it now keeps
        # nothing that was garbage.
        if phase == "stop" and info.get("generation") == 2:
            self.full_collections += 1
            gc.freeze()

    def thaw_if_due(self) -> bool:
        """Thaw the frozen objects if ``thaw_every`` seconds have passed since the last
        thaw (the next full collection then walks them all once, freeing any cycle that
        became garbage among them, and freezes what is left): whether it thawed."""
        now = self.clock()
        if now - self.thawed_at < self.thaw_every:
            return False
        gc.unfreeze()
        self.thawed_at = now
        self.thaws += 1
        return True

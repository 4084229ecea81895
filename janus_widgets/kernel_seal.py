"""A Voila page's kernel runs no code the browser sends: :func:`seal`.

Voila runs a page's notebook in a kernel of its own and shows no code, but its kernel
WebSocket passes on whatever the browser sends: a student with the browser's developer
tools can send ``execute_request`` and ask the kernel anything (on a seat's page against
bots, every card and the seed). A sealed kernel still answers the page's widgets (comm
messages) and its own notebook (the client that ran the notebook so far), and nothing
else: code, completion, inspection, history and debugging requests from any other client
are dropped, and the kernel's log says so.

A locked seat's page (``GameWidget(..., lock_view=True)``), the classroom's seat and
dashboard pages and the lessons' student editions seal their kernel when they run in
Voila; in JupyterLab nothing is sealed (the person at the notebook may run code).
"""

from __future__ import annotations

import os
from typing import Any

__all__ = ["seal", "in_voila", "sealed", "ANSWERED"]

#: What a sealed kernel still answers from any client: the widgets' messages, the
#: questions every frontend asks about the kernel itself, and the server's own requests
#: to stop it (none of them runs code or reads a variable).
ANSWERED = frozenset({"comm_open", "comm_msg", "comm_close", "comm_info_request",
                      "kernel_info_request", "shutdown_request", "interrupt_request",
                      "usage_request"})

_SEALED = "_janus_sealed"


def in_voila() -> bool:
    """Whether this kernel runs a Voila page (Voila tells its kernels so: a page's kernel
    by its request's ``SERVER_SOFTWARE``, a preheated one, which has no request yet, by
    ``VOILA_PREHEAT``)."""
    return os.environ.get("SERVER_SOFTWARE", "").lower().startswith("voila") or \
        os.environ.get("VOILA_PREHEAT") == "True"


def sealed() -> bool:
    """Whether this process's kernel is sealed."""
    kernel = _kernel()
    return bool(kernel is not None and getattr(kernel, _SEALED, False))


def _kernel() -> Any:
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return None
    shell = get_ipython()
    return getattr(shell, "kernel", None)


def seal(*, only_in_voila: bool = True) -> bool:
    """Let this kernel run code only for the client whose request it is running now (the
    one that runs the notebook); returns whether it is sealed now. With
    ``only_in_voila`` (the default) a kernel outside Voila is left as it is."""
    kernel = _kernel()
    if kernel is None or (only_in_voila and not in_voila()):
        return False
    if getattr(kernel, _SEALED, False):
        return True
    try:
        parent = kernel.get_parent("shell")
    except TypeError:  # pragma: no cover - older ipykernel: get_parent() takes no channel
        parent = kernel.get_parent()
    owner = (parent or {}).get("header", {}).get("session")
    if not owner:
        return False

    def guarded(handler: Any, kind: str) -> Any:
        def run(stream: Any, idents: Any, msg: dict) -> Any:
            session = msg.get("header", {}).get("session")
            if kind in ANSWERED or session == owner:
                return handler(stream, idents, msg)
            kernel.log.warning("janus_widgets: a sealed kernel drops %s from another "
                               "client (a Voila page runs only its own notebook)", kind)
            return None
        return run

    for handlers in (kernel.shell_handlers, getattr(kernel, "control_handlers", {})):
        for kind, handler in list(handlers.items()):
            handlers[kind] = guarded(handler, kind)
    setattr(kernel, _SEALED, True)
    return True

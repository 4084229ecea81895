"""Answer a click at once: ``TCP_NODELAY`` on the kernels' WebSockets of a Jupyter server.

A click's answer reaches the page as a few small WebSocket frames (the kernel busy, the
canvas's message, idle). Jupyter's server leaves Nagle's algorithm on for those sockets,
so a small frame written while the one before is not yet acknowledged waits for the
acknowledgement — on Linux's loopback up to 40 ms, half of a click's whole answer
(``benchmarks/widget_speed.py`` measured 58–62 ms medians with it, 24–28 ms without).
This turns it off for every kernel WebSocket, in JupyterLab and in Voila (whose handler
is the same class).

It is a Jupyter server extension: the package installs
``etc/jupyter/jupyter_server_config.d/janus_widgets.json``, which enables it in JupyterLab;
the ``classroom`` command and the tests start Voila with it (:func:`patch` before Voila's
``main``). A server started any other way works as before, only slower to answer.
"""

from __future__ import annotations

from typing import Any

__all__ = ["patch", "run_voila"]

_PATCHED = "_janus_nodelay"


def patch() -> bool:
    """Set ``TCP_NODELAY`` on each kernel WebSocket as it opens (once per process);
    returns whether this call patched (False if already done)."""
    from jupyter_server.services.kernels.websocket import KernelWebsocketHandler
    if getattr(KernelWebsocketHandler, _PATCHED, False):
        return False
    opened = KernelWebsocketHandler.open

    async def open(self: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: A001
        self.set_nodelay(True)
        return await opened(self, *args, **kwargs)

    KernelWebsocketHandler.open = open  # type: ignore[method-assign]
    setattr(KernelWebsocketHandler, _PATCHED, True)
    return True


def run_voila(argv: list[str]) -> int:
    """``voila`` with :func:`patch` applied and guarded against a hostile student
    (:mod:`janus_widgets.voila_guard`: theme and template overrides off, the guard's kernel
    manager, the security headers): what the ``classroom`` command starts. ``argv``
    comes after those settings, so it may change the caps, not turn the guard off."""
    import sys
    from . import voila_guard
    patch()
    voila_guard.install()
    from voila.app import main
    sys.argv = ["voila", f"--VoilaConfiguration.multi_kernel_manager_class="
                         f"{voila_guard.GuardedKernelManager.__module__}."
                         f"{voila_guard.GuardedKernelManager.__name__}",
                *argv, *voila_guard.OVERRIDES_OFF]
    return int(main() or 0)


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "janus_widgets.nodelay"}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    """Turn Nagle's algorithm off for the server's kernel WebSockets, and Voila's theme and
    template overrides off for the server's Voila pages (``/voila/render`` in JupyterLab:
    Voila 0.5 writes ``?theme=`` into its page unescaped). Extensions load in the order
    of their names, so Voila's, which reads the server's settings, comes after this."""
    patch()
    voila = serverapp.config.VoilaConfiguration
    voila.allow_theme_override = "NO"
    voila.allow_template_override = "NO"
    serverapp.log.info("janus_widgets: kernel WebSockets send at once (TCP_NODELAY); "
                       "Voila's theme and template overrides are off")


if __name__ == "__main__":  # python -m janus_widgets.nodelay ARGS: Voila, patched
    import sys
    raise SystemExit(run_voila(sys.argv[1:]))

"""Clicks answered at once: the kernels' WebSockets send without Nagle's wait
(janus_widgets.nodelay; the figures are in benchmarks/widget_speed.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from janus_widgets import nodelay


def test_the_environment_enables_the_server_extension():
    """The install puts a Jupyter config file in the environment that turns it on for
    every Jupyter server started there (JupyterLab, `dev.py lab`)."""
    config = Path(sys.prefix) / "etc/jupyter/jupyter_server_config.d/janus_widgets.json"
    data = json.loads(config.read_text())
    assert data["ServerApp"]["jpserver_extensions"]["janus_widgets.nodelay"] is True
    assert nodelay._jupyter_server_extension_points() == [{"module": "janus_widgets.nodelay"}]


def test_every_kernel_websocket_opens_with_nodelay():
    from jupyter_server.services.kernels.websocket import KernelWebsocketHandler
    from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler
    nodelay.patch()
    assert nodelay.patch() is False                 # once per process
    calls = []

    class Fake:
        def set_nodelay(self, on):
            calls.append(on)

    # step the coroutine by hand: no event loop is needed (nor disturbed, if another
    # test left one running), and the socket option is set before the first await
    opening = KernelWebsocketHandler.open(Fake(), "no-such-kernel")
    try:
        opening.send(None)
    except BaseException:                            # the real open needs a server
        pass
    finally:
        opening.close()
    assert calls == [True]
    assert VoilaKernelWebsocketHandler.open is KernelWebsocketHandler.open   # Voila too

"""The Voila the ``classroom`` command starts is guarded by itself (issue 33, items 1-3):
started as the command starts it (:func:`janus_widgets.classroom_cmd.voila_command`,
``python -m janus_widgets.nodelay``) on a folder with *no* ``voila.json``, it still
refuses the dashboard, ignores a theme in the address, sends the security headers,
refuses a legacy kernel socket and caps its kernels.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import urllib.error
import urllib.parse
import urllib.request

import pytest

from browser_support import _stop, free_port, get, in_thread, wait_http

from janus_widgets.classroom_cmd import voila_command

PAGE = {"cells": [{"cell_type": "code", "execution_count": None, "id": "c1", "metadata": {},
                   "outputs": [], "source": ["print('page')"]}],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                    "name": "python3"}},
        "nbformat": 4, "nbformat_minor": 5}


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("classroom-voila")
    for name in ("lesson", "teacher"):
        (folder / f"{name}.ipynb").write_text(json.dumps(PAGE))
    assert not (folder / "voila.json").exists()
    port = free_port()
    command = voila_command(folder, "127.0.0.1", port, refused=("teacher.ipynb",))
    command.append("--GuardedKernelManager.max_kernels=1")
    log = open(folder / "voila.log", "w")
    proc = subprocess.Popen(command, cwd=folder, stdout=log, stderr=subprocess.STDOUT,
                            env={**os.environ, "JUPYTER_RUNTIME_DIR": str(folder / "rt")})
    try:
        wait_http(f"http://127.0.0.1:{port}/voila/static/voila.js", proc=proc)
        yield f"http://127.0.0.1:{port}/"
    finally:
        _stop(proc)
        log.close()






async def legacy_socket(url: str) -> int | None:
    """The status a kernel socket without subprotocols is refused with (None: opened)."""
    import tornado.httpclient
    import tornado.websocket
    try:
        ws = await tornado.websocket.websocket_connect(url, connect_timeout=20)
    except tornado.httpclient.HTTPClientError as exc:
        return exc.code
    ws.close()
    return None


def test_the_classrooms_voila_is_guarded_without_any_voila_json(pages):
    for spelling in ("teacher.ipynb", "./teacher.ipynb", "lessons/../teacher.ipynb"):
        assert get(pages + f"voila/render/{spelling}")[0] == 404, spelling
    attack = urllib.parse.urlencode({"theme": '"><script>window.__pwned=1</script>'})
    status, headers, html = get(pages + f"voila/render/lesson.ipynb?{attack}")
    assert status == 200 and "__pwned" not in html
    csp = headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in csp and "'unsafe-inline'" not in csp.split(";")[1]
    assert headers["Referrer-Policy"] == "no-referrer"
    kernel = re.search(r'"kernelId": "([0-9a-f-]{36})"', html).group(1)
    url = pages.replace("http://", "ws://") + f"api/kernels/{kernel}/channels"
    assert in_thread(legacy_socket(url)) == 400
    # the guard's kernel manager: one kernel in all (this test's cap), so a second page
    # is refused with a sentence
    status, _, html = get(pages + "voila/render/lesson.ipynb")
    assert status == 503 and "the server is full, it runs 1 page at once" in html

"""The project's Voila against a hostile student (issue 33, items 1, 2 and 11).

One Voila server, started as the README says (``voila`` in a folder with the project's
``voila.json``), serves a lesson and a small page. A student's link may not bring script
(``?theme=<script>``), every response carries the security headers, a kernel WebSocket
without the v1 protocol is refused at the handshake while the other pages go on
answering, and a lesson page works under the policy in Chromium with every asset from
the server itself.
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import statistics
import time
import urllib.error
import urllib.parse
import urllib.request
from argparse import Namespace
from pathlib import Path

import pytest

from browser_support import get, in_thread, voila_tree, wait_painted, widget_errors

from janus_widgets import voila_guard
from janus_widgets.classroom_cmd import voila_servers

ROOT = Path(__file__).resolve().parent.parent
LESSON = "roman-dice"
#: What a student puts in a link: out of the attribute Voila writes the theme into, then
#: a script.
ATTACK = '"><script>window.__pwned=1;alert("pwned")</script><b class="'

SMALL = {"cells": [{"cell_type": "code", "execution_count": None, "id": "c1", "metadata": {},
                    "outputs": [], "source": ["import ipywidgets as w\n",
                                              "b = w.Button(description='Go', icon='check')\n",
                                              "b"]}],
         "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                     "name": "python3"}},
         "nbformat": 4, "nbformat_minor": 5}
#: A game's widget: its keyboard and the status line's live region are anywidget modules.
GAME = {**SMALL, "cells": [{**SMALL["cells"][0], "source": [
    "import janus_widgets as jw\n", "jw.widget('jactus', players=2, seed=1)"]}]}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One Voila for the module: a lesson and a small page, the notebooks' voila.json."""
    folder = tmp_path_factory.mktemp("guard")
    shutil.copy(ROOT / "notebooks" / "voila.json", folder / "voila.json")
    shutil.copy(ROOT / "notebooks" / f"{LESSON}.ipynb", folder / f"{LESSON}.ipynb")
    (folder / "small.ipynb").write_text(json.dumps(SMALL))
    (folder / "game.ipynb").write_text(json.dumps(GAME))
    with voila_tree(folder, folder / "voila.log") as base:
        yield base






def policy(headers: dict[str, str]) -> dict[str, list[str]]:
    """The Content-Security-Policy header as directive → sources."""
    text = headers.get("Content-Security-Policy", "")
    return {part.split()[0]: part.split()[1:] for part in text.split(";") if part.strip()}


def kernel_of(html: str) -> str:
    return re.search(r'"kernelId": "([0-9a-f-]{36})"', html).group(1)


# --- what the project configures ---------------------------------------------------
def test_every_voila_the_project_configures_has_no_overrides_and_the_guard():
    for path in (ROOT / "voila.json", ROOT / "notebooks" / "voila.json"):
        config = json.loads(path.read_text())["VoilaConfiguration"]
        assert config["allow_theme_override"] == "NO", path
        assert config["allow_template_override"] == "NO", path
        assert config["multi_kernel_manager_class"] == \
            "janus_widgets.voila_guard.GuardedKernelManager", path
    assert set(voila_guard.OVERRIDES_OFF) == {
        "--VoilaConfiguration.allow_theme_override=NO",
        "--VoilaConfiguration.allow_template_override=NO"}


def test_voila_inside_a_jupyter_server_has_no_overrides():
    """Voila's server extension (``/voila/render`` in JupyterLab, the teacher's own
    server) takes its settings from the server's, after the project's extension has
    loaded (extensions load in the order of their names)."""
    from jupyter_server.serverapp import ServerApp
    from voila.configuration import VoilaConfiguration

    from janus_widgets import nodelay
    assert sorted(["janus_widgets.nodelay", "voila.server_extension"])[0] == \
        "janus_widgets.nodelay"
    server = ServerApp()
    assert VoilaConfiguration(parent=server).allow_theme_override == "YES"   # Voila's own
    nodelay._load_jupyter_server_extension(server)
    settings = VoilaConfiguration(parent=server)
    assert (settings.allow_theme_override, settings.allow_template_override) == ("NO", "NO")


def test_the_classroom_keeps_the_dashboard_on_loopback(tmp_path):
    """On the class's network (``--host 0.0.0.0``) the pages' Voila never renders the
    dashboard, and the dashboard's own Voila listens on loopback unless asked."""
    args = Namespace(host="0.0.0.0", port=8866, pages_port=None, dashboard_host="127.0.0.1",
                     dashboard_port=None)
    (pages, _, _), (dashboard, _, _) = voila_servers(args, tmp_path)
    assert pages[1:3] == ["-m", "janus_widgets.nodelay"] and "--Voila.ip=0.0.0.0" in pages
    assert "--GuardedKernelManager.refused_pages=teacher.ipynb" in pages
    assert dashboard[1:4] == ["-m", "janus_widgets.nodelay", "teacher.ipynb"]
    assert "--Voila.ip=127.0.0.1" in dashboard and "--port=8868" in dashboard
    asked = Namespace(**{**vars(args), "dashboard_host": "10.0.0.5", "dashboard_port": 9000})
    dashboard = voila_servers(asked, tmp_path)[1][0]
    assert "--Voila.ip=10.0.0.5" in dashboard and "--port=9000" in dashboard


def test_a_page_cut_anywhere_into_pieces_is_guarded_the_same():
    """Voila streams its page in small pieces: a script or a link cut between two of them
    is put together before it is judged (never passed through unjudged)."""
    from tornado.httputil import HTTPHeaders
    page = (b'<html><link rel="stylesheet" href="https://cdn.example/fa.css">'
            b'<script>voila_process(3, 18)</script><p>a &lt; b</p>'
            b'<script>window.__pwned = 1</script><script src="/voila/static/voila.js">'
            b'</script><script type="application/json">{"a": 1}</script>'
            b'<script type="text/javascript">\n  window.voila_finish();\n</script></html>')

    def through(pieces: list[bytes]) -> bytes:
        guard = voila_guard.PageGuard(request=None)
        guard.nonce = "N"
        headers = HTTPHeaders({"Content-Type": "text/html"})
        out = guard.transform_first_chunk(200, headers, pieces[0], len(pieces) == 1)[2]
        for index, piece in enumerate(pieces[1:], 2):
            out += guard.transform_chunk(piece, index == len(pieces))
        return out
    whole = through([page])
    assert b"__pwned" not in whole and b"cdn.example" not in whole
    assert whole.count(b'nonce="N"') == 2 and b"a &lt; b" in whole
    for cut in range(1, len(page)):
        assert through([page[:cut], page[cut:]]) == whole, cut
    assert through([page[i:i + 7] for i in range(0, len(page), 7)]) == whole


# --- item 1: the headers, and no script from the address ----------------------------
def test_every_response_carries_the_security_headers(server):
    status, headers, html = get(server + "voila/render/small.ipynb")
    assert status == 200
    kernel = kernel_of(html)
    answers = {"page": (status, headers, html),
               "tree": get(server),
               "script file": get(server + "voila/static/voila.js"),
               "missing page": get(server + "voila/render/nothing-here.ipynb"),
               "kernel API": get(server + f"api/kernels/{kernel}"),
               "denied file": get(server + "voila/files/small.ipynb")}
    for name, (status, headers, _) in answers.items():
        csp = policy(headers)
        assert csp, f"{name} ({status}) has no Content-Security-Policy"
        scripts = csp["script-src"]
        assert "'self'" in scripts and not {"'unsafe-inline'", "'unsafe-eval'", "*",
                                             "https:", "http:", "data:"} & set(scripts), name
        # blob: only for the modules anywidget makes from what the page's kernel sent
        assert all(s in ("'self'", "blob:") or s.startswith("'nonce-") for s in scripts), \
            (name, scripts)
        assert csp["frame-ancestors"] == ["'none'"] and csp["object-src"] == ["'none'"]
        assert csp["default-src"] == ["'self'"] and csp["base-uri"] == ["'none'"]
        assert headers.get("X-Content-Type-Options") == "nosniff", name
        assert headers.get("Referrer-Policy") == "no-referrer", name
        assert "Server" not in headers, name             # tornado's name and version
    assert answers["missing page"][0] == 404 and answers["denied file"][0] in (403, 404)
    # every inline script that can run carries this response's nonce; none from elsewhere
    page_policy = policy(answers["page"][1])["script-src"]
    nonce = [s for s in page_policy if s.startswith("'nonce-")][0][7:-1]
    for name in ("page", "tree", "missing page"):
        text = answers[name][2]
        for attrs, _ in re.findall(r"<script([^>]*)>(.*?)</script>", text, re.S):
            if "src=" in attrs or re.search(r'type="application/[\w.+-]*json"', attrs):
                continue
            assert 'nonce="' in attrs, (name, attrs)
        assert not re.search(r"<(?:link|script)[^>]+(?:href|src)=[\"']?(?:https?:)?//", text), \
            name
    assert f'nonce="{nonce}"' in html


def test_a_theme_or_template_in_the_address_is_ignored(server):
    query = urllib.parse.urlencode({"theme": ATTACK, "template": "reveal"})
    status, headers, html = get(server + f"voila/render/small.ipynb?{query}")
    assert status == 200
    assert "__pwned" not in html and "pwned" not in html
    assert 'data-jp-theme-name="JupyterLab Light"' in html
    assert "reveal" not in html.lower()


# --- item 2: the legacy kernel protocol ----------------------------------------------
async def _attempt(url: str, protocols: list[str] | None) -> int | str | None:
    """Open a kernel WebSocket asking for ``protocols``: the HTTP status it was refused
    with, else the subprotocol the server chose (the socket is closed again)."""
    import tornado.httpclient
    import tornado.websocket
    try:
        ws = await tornado.websocket.websocket_connect(url, subprotocols=protocols,
                                                       connect_timeout=20)
    except tornado.httpclient.HTTPClientError as exc:
        return exc.code
    chosen = ws.selected_subprotocol
    ws.close()
    return chosen


def test_a_kernel_socket_without_the_v1_protocol_is_refused(server):
    html = get(server + "voila/render/small.ipynb")[2]
    kernel = kernel_of(html)
    url = server.replace("http://", "ws://") + f"api/kernels/{kernel}/channels"
    refused = [in_thread(_attempt(url, protocols)) for protocols in
               (None, [], ["v0.kernel.websocket.jupyter.org"], ["anything"])]
    assert refused == [400] * 4, f"sockets without the v1 protocol answered {refused}"
    # the pages' own protocol opens
    assert in_thread(_attempt(url, [voila_guard.KERNEL_PROTOCOL])) == \
        voila_guard.KERNEL_PROTOCOL

    # the other pages go on answering at once
    times = []
    for path in ["voila/static/voila.js", f"api/kernels/{kernel}"] * 5:
        start = time.perf_counter()
        assert get(server + path)[0] == 200
        times.append(time.perf_counter() - start)
    assert statistics.median(times) < 0.1 and sorted(times)[-2] < 0.1, times


async def _send_frame(url: str, frame: bytes) -> str | None:
    """Open a v1 kernel WebSocket, send ``frame``, and wait for the socket's end: its
    close reason, or None if it was still open 3 s later (then it is closed here)."""
    import tornado.websocket
    ws = await tornado.websocket.websocket_connect(
        url, subprotocols=[voila_guard.KERNEL_PROTOCOL], connect_timeout=20)
    await ws.write_message(frame, binary=True)
    try:
        while await asyncio.wait_for(ws.read_message(), 3) is not None:
            pass
    except asyncio.TimeoutError:
        ws.close()
        return None
    return ws.close_reason


def test_a_v1_frame_its_length_does_not_hold_closes_its_socket_unread(server):
    """The v1 protocol's header is a count of offsets: 16 bytes saying fifty million
    had Voila build a list that long on its loop (every page waited 13 s). The socket
    is closed unread, and the other pages go on answering at once."""
    html = get(server + "voila/render/small.ipynb")[2]
    url = server.replace("http://", "ws://") + f"api/kernels/{kernel_of(html)}/channels"
    bad = (50_000_000).to_bytes(8, "little") + b"\x10" + bytes(7)
    assert "not one" in in_thread(_send_frame(url, bad))
    times = []
    for path in ["voila/static/voila.js"] * 5:
        start = time.perf_counter()
        assert get(server + path)[0] == 200
        times.append(time.perf_counter() - start)
    assert statistics.median(times) < 0.1, times


# --- items 1 and 11 in a real browser -------------------------------------------------
@pytest.mark.browser
def test_a_lesson_works_under_the_policy_and_a_link_brings_no_script(server, browser):
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    # an init script runs before the page's own and is not subject to its policy
    context.add_init_script("window.__violations = [];"
                            "document.addEventListener('securitypolicyviolation', e => "
                            "window.__violations.push([e.violatedDirective, e.blockedURI, "
                            "(e.sample || '').slice(0, 80)]));")
    page = context.new_page()
    requests: list[str] = []
    dialogs: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        query = urllib.parse.urlencode({"theme": ATTACK})
        page.goto(server + f"voila/render/{LESSON}.ipynb?{query}",
                  wait_until="domcontentloaded", timeout=240_000)
        page.wait_for_selector(".janus-exercise", timeout=240_000)
        # the page works: a student answers the first exercise and the kernel replies
        exercise = page.locator(".janus-exercise").first
        exercise.locator("input").fill("1/2")
        exercise.locator("input").press("Enter")
        exercise.locator("button", has_text="Check").click()
        exercise.locator(".janus-exercise-verdict").filter(has_text="1/2").wait_for(
            timeout=60_000)
        assert widget_errors(page) == []
        # the icons come from Voila's own bundle of Font Awesome (no CDN)
        icon = exercise.locator("button i.fa").first
        family = icon.evaluate("el => getComputedStyle(el, '::before').fontFamily")
        assert "Font Awesome 5 Free" in family, family
        page.wait_for_function("() => document.fonts.check('900 16px \"Font Awesome 5 "
                               "Free\"')", timeout=30_000)
        assert page.evaluate("() => window.__pwned") is None and dialogs == []
        violations = page.evaluate("() => window.__violations")
        # a game's page: the canvas, and the widgets' own modules (anywidget) run
        page.goto(server + "voila/render/game.ipynb", wait_until="domcontentloaded",
                  timeout=240_000)
        wait_painted(page, 0, timeout=240_000)
        page.wait_for_selector(".janus-widget .janus-keys", state="attached", timeout=60_000)
        page.wait_for_selector(".janus-widget .janus-live", state="attached", timeout=60_000)
        assert widget_errors(page) == []
        violations += page.evaluate("() => window.__violations")
        # the policy is enforced: a script put into the page now does not run
        page.evaluate("() => { const s = document.createElement('script');"
                      "s.textContent = 'window.__late = 1'; document.body.append(s); }")
        page.wait_for_function("() => window.__violations.length > 0", timeout=10_000)
        late = page.evaluate("() => [window.__late, window.__violations]")
    finally:
        context.close()
    assert violations == [], violations        # nothing Voila's page needs was blocked
    assert late[0] is None and late[1][0][0] == "script-src-elem", late
    foreign = [u for u in requests if not u.startswith(server) and not u.startswith("data:")
               and not u.startswith(server.replace("http://", "blob:http://")[:-1])]
    assert foreign == [], foreign
    assert not [e for e in errors if "Content Security Policy" in e], errors


def test_the_classrooms_dashboard_talks_to_its_own_table_server_only(tmp_path, monkeypatch):
    """Issue 33 (1): a link to the real dashboard naming another server would have the
    teacher type the token into a page that sends it there: the classroom pins its
    dashboard to its own table server, and the page refuses another before asking."""
    from janus_widgets.classroom_cmd import table_server_address
    from janus_widgets.widgets import pages
    args = Namespace(host="127.0.0.1", port=8866, pages_port=None,
                     dashboard_host="127.0.0.1", dashboard_port=None)
    (_, pages_env, _), (_, dashboard_env, _) = voila_servers(args, tmp_path)
    assert dashboard_env[pages.PINNED_SERVER] == table_server_address(args) == \
        "http://127.0.0.1:8866" == pages_env[pages.PINNED_SERVER]     # the lessons too
    # A class on the network: the dashboard's link names the machine's address, the
    # lessons' slips the one their kernels (on this machine) reach it at, as the table
    # server tells the dashboard (``/api/status``'s "server"): each is pinned to its own.
    wide = Namespace(**{**vars(args), "host": "0.0.0.0"})
    (_, pages_env, _), (_, dashboard_env, _) = voila_servers(wide, tmp_path)
    assert pages_env[pages.PINNED_SERVER] == "http://127.0.0.1:8866"
    assert dashboard_env[pages.PINNED_SERVER] == table_server_address(wide)
    monkeypatch.setenv(pages.PINNED_SERVER, "http://127.0.0.1:8866")
    made = []
    monkeypatch.setattr("janus_widgets.widgets.dashboard.Dashboard",
                        lambda server, token: made.append((server, token)) or
                        pages.W.HTML("dashboard"))
    refused = pages.teacher_page({"server": "http://10.9.8.7:8866", "token": "t0ken"})
    assert made == [] and "another table server" in refused.message.value
    assert refused.second not in refused.children          # no token box at all
    ours = pages.teacher_page({"server": "http://localhost:8866", "token": "t0ken"})
    assert made == [("http://127.0.0.1:8866", "t0ken")] and ours.made is not None

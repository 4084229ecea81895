"""The ``classroom`` command and the teacher's token: never printed, never on a command
line; the dashboard's address (token and all) is in a page beside the database that
only the teacher may read, which the command opens in the teacher's browser when there
is a display. The unit tests need no server; the last test starts the command once (the
table server and its Voilas) as a teacher would."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from janus_widgets import teacher_link


def test_the_dashboards_page_is_the_teachers_only_and_opens_the_dashboard(tmp_path):
    path = tmp_path / "class.sqlite.dashboard.html"
    path.write_text("left by an earlier start")
    os.chmod(path, 0o644)                            # however it was left
    address = teacher_link.dashboard_address("http://127.0.0.1:8868/",
                                             "http://10.0.0.5:8866", "tok<en>&'\"")
    teacher_link.write_dashboard_file(path, address)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    page = path.read_text()
    assert "tok<en>" not in page                     # escaped where it is written
    refresh = re.search(r'http-equiv="refresh" content="0; url=([^"]*)"', page).group(1)
    import html
    assert html.unescape(refresh) == address and "no-referrer" in page


def test_the_browser_is_given_the_file_and_never_the_token(tmp_path, monkeypatch):
    opened: list[str] = []
    monkeypatch.setattr(teacher_link.webbrowser, "open",
                        lambda url, new=0: opened.append(url) or True)
    path = teacher_link.write_dashboard_file(tmp_path / "d.html", "http://h/?token=SECRET")
    assert teacher_link.open_dashboard(path)
    assert opened == [path.resolve().as_uri()] and "SECRET" not in opened[0]


def test_a_browser_that_runs_on_holds_nothing_up(tmp_path, monkeypatch):
    import threading
    closed = threading.Event()
    monkeypatch.setattr(teacher_link.webbrowser, "open",
                        lambda url, new=0: closed.wait(30))   # runs until it is closed
    start = time.monotonic()
    assert teacher_link.open_dashboard(tmp_path / "d.html", wait=0.3)
    assert time.monotonic() - start < 2
    closed.set()
    monkeypatch.setattr(teacher_link.webbrowser, "open", lambda url, new=0: False)
    assert not teacher_link.open_dashboard(tmp_path / "d.html")   # no browser took it


def test_a_display_is_needed_to_open_a_browser():
    assert not teacher_link.has_display({"TERM": "xterm"}, "linux")
    assert teacher_link.has_display({"WAYLAND_DISPLAY": "wayland-0"}, "linux")
    assert teacher_link.has_display({}, "win32")


def test_the_dashboard_is_told_the_lessons_of_the_day(tmp_path, monkeypatch):
    """`classroom --lesson what-can-i-know` still had the dashboard's Lesson codes menu
    choose game-design-lab (the first by name): the command tells its dashboard's Voila
    (whose kernels inherit its environment) the lessons named, and nothing else."""
    from argparse import Namespace

    from janus_widgets.classroom_cmd import lesson_pools, voila_servers
    from janus_widgets.widgets.dashboard import LESSONS_OF_THE_DAY, lessons_of_the_day
    monkeypatch.setenv(LESSONS_OF_THE_DAY, "left-from-before")
    pools = lesson_pools(["what-can-i-know", "roman-dice.ipynb"], 4,
                         ["game-design-lab", "roman-dice", "what-can-i-know"])
    args = Namespace(host="127.0.0.1", port=8866, pages_port=None,
                     dashboard_host="127.0.0.1", dashboard_port=None, pools=pools,
                     students=4)
    (_, dashboard_env, _) = voila_servers(args, tmp_path)[1]
    assert lessons_of_the_day(dashboard_env) == ["what-can-i-know", "roman-dice"]
    (_, dashboard_env, _) = voila_servers(Namespace(**{**vars(args), "pools": {}}),
                                          tmp_path)[1]
    assert lessons_of_the_day(dashboard_env) == []          # none named: none of before


def test_the_dashboard_is_told_the_class_size(tmp_path, monkeypatch):
    """`classroom --students 30` and the dashboard's Lesson codes offered codes for 24:
    the command tells its dashboard's Voila the class size as it tells the lessons of
    the day, with or without a lesson named."""
    from argparse import Namespace

    from janus_widgets.classroom_cmd import voila_servers
    from janus_widgets.widgets.dashboard import CLASS_SIZE, class_size_of_the_day
    monkeypatch.setenv(CLASS_SIZE, "7")                      # left from before
    for pools in ({}, {"lessons/roman-dice.ipynb": 30}):
        args = Namespace(host="127.0.0.1", port=8866, pages_port=None,
                         dashboard_host="127.0.0.1", dashboard_port=None, pools=pools,
                         students=30)
        (_, dashboard_env, _) = voila_servers(args, tmp_path)[1]
        assert class_size_of_the_day(dashboard_env) == 30


def test_the_class_pages_count_a_lesson_slips_pages_by_its_pass(tmp_path, monkeypatch):
    """The pages' Voila reads the key beside the database (the table server sends a
    lesson slip's code on with its pass): from its own folder, so by its full path; the
    dashboard's has none."""
    from argparse import Namespace

    from janus_widgets.classroom_cmd import voila_servers
    monkeypatch.chdir(tmp_path)
    args = Namespace(host="127.0.0.1", port=8866, pages_port=None, db="classroom.sqlite",
                     dashboard_host="127.0.0.1", dashboard_port=None, pools={}, students=4)
    (pages, _, _), (dashboard, _, _) = voila_servers(args, tmp_path / "classroom-pages")
    assert f"--GuardedKernelManager.pages_key_file={tmp_path}/classroom.sqlite.pages-key" \
        in pages
    assert not any("pages_key_file" in part for part in dashboard)


def refused(folder: Path, *command: str, timeout: float = 30) -> subprocess.CompletedProcess:
    """Run ``python -m janus_widgets COMMAND…`` in ``folder``, expected to stop at once;
    one that runs on is stopped (its whole group: a classroom's Voilas too) after
    ``timeout`` seconds, and the test fails."""
    proc = subprocess.Popen([sys.executable, "-m", "janus_widgets", *command], cwd=folder,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    try:
        out = proc.communicate(timeout=timeout)[0]
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        out = proc.communicate()[0]
        raise AssertionError(f"`{' '.join(command)}` did not stop at once:\n{out[-2000:]}")
    return subprocess.CompletedProcess(command, proc.returncode, out)


def test_a_second_classroom_or_server_on_a_running_ones_database_is_refused(tmp_path):
    """Two classrooms in one folder: the second started on the same database, wrote its
    pages and the dashboard's link over the first's, and a move failed ("the move could
    not be stored (expected 12, found 13 …)"). A running server holds its database: a
    classroom or a serve started on it stops at once, says where the first one is and
    what to do, and writes nothing; the first goes on."""
    from browser_support import free_port, wait_http
    from server_support import table_server
    with table_server(tmp_path) as first:
        lock = tmp_path / "classroom.sqlite.lock"
        assert json.loads(lock.read_text()) == {
            "command": "serve", "address": first.url, "pid": first.proc.pid}
        for command in (["classroom", "--no-browser"], ["serve"]):
            done = refused(tmp_path, *command, "--db", "classroom.sqlite",
                           "--port", str(free_port()))
            said = done.stdout
            assert done.returncode == 1, said
            assert ("error: a table server (janus-widgets serve) is running in this "
                    f"folder (database classroom.sqlite; its table server at {first.url}, "
                    f"process {first.proc.pid}): stop it (Ctrl-C in its terminal), or "
                    "start this one in a folder of its own") in said, said
            assert first.token not in said
        assert not (tmp_path / "classroom-pages").exists()
        assert not (tmp_path / "classroom.sqlite.dashboard.html").exists()
        wait_http(first.url + "/api/status", timeout=5, proc=first.proc)   # untouched


def test_a_lock_left_by_a_killed_server_does_not_block_its_restart(tmp_path):
    """The lock is the OS's, held by the process: ``kill -9`` leaves the file, and it
    holds nothing; the same command starts again on the same database."""
    from server_support import table_server

    from janus_widgets.classroom_cmd import hold_database
    with table_server(tmp_path) as server:
        lock = tmp_path / "classroom.sqlite.lock"
        killed = server.proc.pid
        server.kill()
        assert json.loads(lock.read_text())["pid"] == killed      # left as it was
        server.start()                            # fails if it refuses to start
        assert json.loads(lock.read_text())["pid"] == server.proc.pid != killed
    with hold_database(tmp_path / "classroom.sqlite", "classroom", "http://h:1") as held:
        assert json.loads(held.read_text())["command"] == "classroom"
    assert lock.read_text() == ""               # let go of, and said so


def test_a_port_taken_is_named_with_what_it_is_for_before_anything_starts(tmp_path):
    """A classroom listens on three ports (--port N, its lesson pages N+1, the dashboard
    N+2); with N+1 taken it said only "Voila stopped at start (exit code 1)". Every port
    is tried before anything starts: the one taken is named, with what it is for, the
    three a classroom needs, and a --port with all three free."""
    import socket

    from janus_widgets.classroom_cmd import listen_error
    for _ in range(20):                      # N free, N+1 ours, N+2 free
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        if port + 2 > 65535 or listen_error("127.0.0.1", port + 2):
            continue
        taken = socket.socket()
        try:
            taken.bind(("127.0.0.1", port + 1))
        except OSError:
            taken.close()
            continue
        break
    else:
        pytest.skip("no three ports in a row were free")
    with taken:
        taken.listen()
        done = refused(tmp_path, "classroom", "--no-browser", "--port", str(port),
                       "--db", "classroom.sqlite")
    said = done.stdout
    suggested = re.search(rf"error: port {port + 1} \(the lesson pages\) is in use; a "
                          rf"classroom needs {port}, {port + 1} and {port + 2} free: "
                          r"choose another --port, such as (\d+)\n", said)
    assert done.returncode == 2 and suggested, said
    other = int(suggested.group(1))
    assert other % 10 == 0 and other > port + 2
    assert not (tmp_path / "classroom-pages").exists()       # nothing was started


def test_each_port_problem_says_which_option_to_change():
    from argparse import Namespace

    from janus_widgets.classroom_cmd import PortError, check_ports
    in_use = OSError(98, "Address already in use")

    def problem(args: Namespace, busy: set[int], error: OSError = in_use) -> str:
        with pytest.raises(PortError) as caught:
            check_ports(args, lambda host, port: error if port in busy else None)
        return str(caught.value)
    room = {"host": "0.0.0.0", "port": 19010, "pages_port": None, "dashboard_host": None,
            "dashboard_port": None}
    # the dashboard's port given: that option is the one to change
    said = problem(Namespace(**{**room, "dashboard_port": 19015}), {19015, 19020})
    assert said == ("port 19015 (your dashboard) is in use; a classroom needs 19010, "
                    "19011 and 19015 free: choose another --dashboard-port, such as 19030")
    said = problem(Namespace(**{**room, "pages_port": 19010}), set())
    assert said == ("port 19010 is given to the table server (--port) and to the lesson "
                    "pages (--pages-port): each needs a port of its own")
    said = problem(Namespace(**{**room, "port": 65534}), set())
    assert said.startswith("port 65536 (your dashboard) is not a port (they go from 1 to "
                           "65535); a classroom needs 65534, 65535 and 65536 free: choose "
                           "another --port, such as 8870")
    said = problem(Namespace(**{**room, "port": 80}), {80, 81, 82},
                   OSError(13, "Permission denied"))
    assert said == ("port 80 (the table server) is the administrator's only (as every "
                    "port below 1024 is); a classroom needs 80, 81 and 82 free: choose "
                    "another --port, such as 8870")
    said = problem(Namespace(**{**room, "dashboard_host": "192.0.2.7"}), {19012},
                   OSError(99, "Cannot assign requested address"))
    assert said.startswith("--dashboard-host 192.0.2.7 (your dashboard) is not an address "
                           "of this machine")


@pytest.fixture(scope="module")
def running_classroom(tmp_path_factory):
    """One classroom started as a teacher starts it (no browser to open), on this
    machine's loopback address: its table server's address, its dashboard's, and the
    file its terminal's output goes to."""
    from browser_support import free_port
    folder = tmp_path_factory.mktemp("running-classroom")
    port, pages_port, dashboard_port = (free_port() for _ in range(3))
    terminal = folder / "terminal.txt"
    with open(terminal, "w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "janus_widgets", "classroom", "--no-browser",
             "--port", str(port), "--pages-port", str(pages_port), "--dashboard-port",
             str(dashboard_port), "--students", "27", "--bot-delay", "0"],
            stdout=out, stderr=subprocess.STDOUT, cwd=folder, start_new_session=True)
    try:
        deadline = time.monotonic() + 240
        while "Ctrl-C stops" not in terminal.read_text():
            assert proc.poll() is None and time.monotonic() < deadline, \
                "the classroom did not start:\n" + terminal.read_text()[-3000:]
            time.sleep(0.3)
        yield (f"http://127.0.0.1:{port}", f"http://127.0.0.1:{dashboard_port}", terminal)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait()


@pytest.mark.slow
def test_a_request_refused_prints_nothing_on_the_terminal(running_classroom):
    """28 lines of "404 GET /voila/static/voila.js (127.0.0.1)" filled a classroom's
    terminal (maybe on the projector): another classroom's start, on ports that took
    this one's, polled its table server for a Voila, and each request it refused was
    printed through Python logging's last resort. Now the terminal says nothing of
    them (--verbose shows every request)."""
    from browser_support import get
    url, _, terminal = running_classroom
    for path in ("/voila/static/voila.js", "/nothing-here", "/api/tables"):
        assert get(url + path)[0] in (401, 403, 404), path
    time.sleep(1)
    printed = terminal.read_text()
    assert "Ctrl-C stops" in printed
    assert not re.search(r"\b40[134] GET", printed), printed


@pytest.mark.slow
def test_the_dashboards_tab_says_which_classroom(running_classroom):
    """Two classes' dashboards open in one browser were both "teacher" (the notebook's
    name): the dashboard's page is titled by its classroom's table server."""
    import html

    from browser_support import get
    url, dashboard, _ = running_classroom
    status, _, page = get(dashboard + "/")
    title = re.search(r"<title>(.*?)</title>", page, re.DOTALL)
    assert status == 200 and title, page[:2000]
    assert html.unescape(title.group(1)).strip() == \
        f"Classroom · {url.removeprefix('http://')}"


def run_classroom(folder: Path, *extra: str, env: dict[str, str]) -> tuple[
        subprocess.Popen, str]:
    """Start ``python -m janus_widgets classroom`` in ``folder``; it and what it printed
    up to "Ctrl-C stops"."""
    from browser_support import free_port
    ports = [str(free_port()) for _ in range(3)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "janus_widgets", "classroom", "--port", ports[0],
         "--pages-port", ports[1], "--dashboard-port", ports[2],
         "--db", str(folder / "class.sqlite"), "--bot-delay", "0", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=folder, env=env)
    out = []
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        out.append(line)
        if "Ctrl-C stops" in line:
            return proc, "".join(out)
    proc.kill()
    raise AssertionError("the classroom did not start:\n" + "".join(out)[-3000:])


def stop(proc: subprocess.Popen) -> str:
    proc.terminate()
    return proc.communicate(timeout=60)[0]


@pytest.mark.slow
@pytest.mark.browser
def test_the_classroom_command_opens_the_dashboard_and_prints_no_secret(tmp_path, browser):
    """As a teacher starts it: no token in the terminal, the dashboard's page opened in
    the browser; the dashboard shows; Ctrl-C (the page's kernel goes with the classroom)
    and the page says it lost its kernel; started again, a reload brings it back."""
    import html
    from janus_widgets.widgets.dashboard import STALE_AFTER
    opened = tmp_path / "opened.txt"
    stand_in = tmp_path / "browser.sh"                # stands in for the teacher's browser
    stand_in.write_text(f'#!/bin/sh\necho "$@" >> "{opened}"\n')
    stand_in.chmod(0o700)
    env = {**os.environ, "BROWSER": str(stand_in), "DISPLAY": ":99"}
    proc, printed = run_classroom(tmp_path, env=env)
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    dash = context.new_page()
    try:
        token = (tmp_path / "class.sqlite.token").read_text().strip()
        page = tmp_path / "class.sqlite.dashboard.html"
        assert stat.S_IMODE(page.stat().st_mode) == 0o600
        assert token not in printed and "token=" not in printed
        assert f"opened in your browser; to open it again, open {page}" in printed
        assert re.search(r"students' seats:  http://127\.0\.0\.1:\d+/seat ", printed)
        # started for this machine only: the teacher is told the slips open nowhere else
        assert "open on no student's device" in printed and "--host 0.0.0.0" in printed
        time.sleep(0.5)                               # the stand-in browser writes
        assert opened.read_text().split() == [page.as_uri()]
        address = html.unescape(re.search(r'url=([^"]*)"', page.read_text()).group(1))
        assert f"token={token}" in address
        dash.goto(page.as_uri())                      # the page opens the dashboard
        dash.wait_for_selector(".janus-dashboard-tables", timeout=180_000)
        # New tables at 1366×768: every label whole ("empty seats" was "empty se…"),
        # the ruleset named
        dash.get_by_role("tab", name="New tables").click()
        dash.wait_for_selector("label.widget-label:text-is('empty seats')")
        cut = dash.evaluate("""() => [...document.querySelectorAll('label.widget-label')]
            .filter(l => l.offsetParent && l.scrollWidth > l.clientWidth)
            .map(l => l.textContent)""")
        assert cut == [], cut
        chosen = dash.evaluate("""() => [...document.querySelectorAll('select')]
            .filter(s => s.offsetParent).map(s => s.options[s.selectedIndex]?.text)""")
        assert "rulebook\xa0(the\xa0rulebook)" in chosen, chosen     # ipywidgets: nbsp
        # Lesson codes: the lesson from a menu of the lessons the pages serve
        dash.get_by_role("tab", name="Lesson codes").click()
        served = sorted(p.stem for p in (tmp_path / "classroom-pages" / "lessons")
                        .glob("*.ipynb"))
        offered = dash.evaluate("""() => [...document.querySelectorAll('select')]
            .filter(s => s.offsetParent).flatMap(s => [...s.options].map(o => o.text))""")
        offered = [o.replace("\xa0", " ") for o in offered]
        assert "jactus-odds" in served and any(o.endswith("(jactus-odds)") for o in offered)
        assert all(o[o.rindex("(") + 1:-1] in served for o in offered), (offered, served)
        # A lesson at its own address (the one printed), not a slip's: the page says
        # its checks are not sent, and how to have them counted.
        pages_url = re.search(r"Pages for the class at (http://\S+/) ", printed).group(1)
        lesson = context.new_page()
        lesson.goto(f"{pages_url}voila/render/lessons/roman-dice.ipynb", timeout=180_000)
        lesson.wait_for_selector(".janus-exercise", timeout=180_000)
        said = lesson.inner_text(".janus-not-joined")
        assert "not sent to your teacher" in said and "lesson slip" in said
        assert "the page says so" in printed
        time.sleep(STALE_AFTER + 2)                   # a live kernel: no warning
        assert not dash.is_visible(".janus-dashboard-stale")
        assert not lesson.is_visible(".janus-lesson-stale")
    finally:
        printed += stop(proc)
    assert token not in printed and "Classroom stopped" in printed
    start = time.monotonic()
    dash.wait_for_selector(".janus-dashboard-stale", state="visible",
                           timeout=(STALE_AFTER + 5) * 1000)
    said = time.monotonic() - start
    assert "lost its kernel" in dash.inner_text(".janus-dashboard-stale")
    assert said <= STALE_AFTER + 3, said
    print(f"the dashboard said it lost its kernel {said:.1f} s after the classroom stopped")
    # The lesson page too (it looked live, and its checks went nowhere)
    lesson.wait_for_selector(".janus-lesson-stale", state="visible", timeout=5_000)
    told = lesson.inner_text(".janus-lesson-stale")
    assert "lost its link to your class" in told and "reload this page (F5)" in told
    # Started again without the browser: the same token, the page rewritten, nothing
    # opened, still no secret printed; a reload brings the dashboard back.
    proc, again = run_classroom(tmp_path, "--no-browser", env=env)
    try:
        assert (tmp_path / "class.sqlite.token").read_text().strip() == token
        assert f"Your dashboard (this machine only): open {page} in your browser" in again
        assert opened.read_text().split() == [page.as_uri()]          # not again
        dash.goto(page.as_uri())
        dash.wait_for_selector(".janus-dashboard-tables", timeout=180_000)
        assert not dash.is_visible(".janus-dashboard-stale")
    finally:
        again += stop(proc)
        context.close()
    assert token not in again


def test_the_memory_estimate_is_each_lessons_own(capsys):
    """solving-jactus holds the solved game in every page (290 MB, not 170): a teacher
    preparing it with another lesson is told what both together cost."""
    from janus_widgets.classroom_cmd import say_memory
    say_memory({"lessons/solving-jactus.ipynb": 30, "lessons/roman-dice.ipynb": 30}, 30)
    line = capsys.readouterr().out
    assert "30 pages of solving-jactus, 30 pages of roman-dice" in line
    assert "about 290 MB a page of solving-jactus, 170 MB a page of roman-dice" in line
    assert "about 13.5 GB of memory" in line and "at most 24.8 GB" in line
    say_memory({"lessons/roman-dice.ipynb": 30}, 30)
    assert "about 5.0 GB of memory (about 170 MB a page)" in capsys.readouterr().out


def test_pages_that_would_not_fit_in_memory_are_not_all_prepared(capsys):
    """`--students 100` on a machine without the memory only warned, and went on
    preparing pages until the machine ran out (every page of the class stops then): the
    pages prepared now fit in the free memory, each lesson's by the same share, and the
    teacher is told the rest start when opened."""
    from janus_widgets.classroom_cmd import FIT_SHARE, memory_mb, say_memory
    asked = {"lessons/solving-jactus.ipynb": 100, "lessons/roman-dice.ipynb": 100}
    fitted = say_memory(asked, 100, free_mb=8000)
    line = capsys.readouterr().out
    assert memory_mb(fitted, 100)[0] <= FIT_SHARE * 8000 < memory_mb(asked, 100)[0]
    assert fitted == {"lessons/solving-jactus.ipynb": 13, "lessons/roman-dice.ipynb": 13}
    assert "preparing 13 of solving-jactus, 13 of roman-dice; the other pages start " \
        "when a student opens it" in line
    assert say_memory(asked, 100, free_mb=100) == {page: 0 for page in asked}
    assert "none is prepared; every page starts when a student opens it" in \
        capsys.readouterr().out
    enough = {"lessons/roman-dice.ipynb": 30}
    assert say_memory(enough, 30, free_mb=64_000) == enough
    assert "not enough" not in capsys.readouterr().out


def test_the_guides_give_the_commands_own_memory_figures():
    """classroom-server.md said a lesson page takes about 100 MB (3 GB for 30) while
    the command prints about 170 MB: every "about N MB" (or GB) in the guides is the
    command's own figure for a page, or for 30 of them."""
    from janus_widgets.classroom_cmd import LESSON_PAGE_MB, PAGE_MB, _gb
    root = Path(__file__).resolve().parent.parent
    per_page = {PAGE_MB, *LESSON_PAGE_MB.values()}
    for_30 = {_gb(30 * mb).removesuffix(".0 GB").removesuffix(" GB") for mb in per_page}
    said = 0
    for guide in ("README.md", "docs/class-day.md", "docs/classroom-server.md",
                  "docs/lessons.md"):
        text = (root / guide).read_text(encoding="utf-8").replace("\n", " ")
        for number, unit in re.findall(r"about (\d[\d.]*) ([MG]B)\b", text):
            said += 1
            if unit == "MB":
                assert int(number) in per_page, f"{guide}: about {number} MB"
            else:
                assert number.removesuffix(".0") in for_30, f"{guide}: about {number} GB"
    assert said >= 5

"""The teacher's dashboard on its own: a stand-in server (no process, no socket), so
each test says exactly what the server sends, fails or is slow to answer. The dashboard
with a real server: test_table_server.py; in a browser: test_browser_many_screens.py."""

from __future__ import annotations

import re
from typing import Any

import pytest

from janus_widgets.table.client import ClassroomError
from janus_widgets.widgets import dashboard as dashboard_module
from janus_widgets.widgets.dashboard import Dashboard, _tally_plot


class FakeTable:
    def __init__(self, table_id: str, humans: int) -> None:
        self.id = table_id
        self.codes = {"ABCDEF"[k]: f"CODE{table_id.upper()}{'ABCDEF'[k]}"
                      for k in range(humans)}


class FakeClient:
    """What the dashboard asks of :class:`TeacherClient`; ``fail_at`` makes the n-th
    table (1, 2, …) fail as a full server would."""

    instances: list[FakeClient] = []

    def __init__(self, url: str, token: str, **_: Any) -> None:
        self.url = url
        self.made: list[FakeTable] = []
        self.fail_at: int | None = None
        self.answer_rows: list[dict[str, Any]] = []
        self.status_calls: list[tuple[str, str]] = []      # ("end", "t1"), …
        FakeClient.instances.append(self)

    def info(self) -> dict[str, Any]:
        return {"pages": "http://pages:8867", "server": self.url}

    def answers(self) -> list[dict[str, Any]]:
        return list(self.answer_rows)

    def tables(self) -> list[dict[str, Any]]:
        return [summary(t.id) for t in self.made]

    def end(self, table_id: str) -> None:
        self.status_calls.append(("end", table_id))

    def pause(self, table_id: str) -> None:
        self.status_calls.append(("pause", table_id))

    def create_table(self, game: str, seats: int, *, bots: dict[int, str],
                     ruleset: str | None = None, **options: Any) -> FakeTable:
        if self.fail_at is not None and len(self.made) + 1 >= self.fail_at:
            raise ClassroomError("the server keeps at most 4 tables", "too_many")
        table = FakeTable(f"t{len(self.made) + 1}", seats - len(bots))
        self.made.append(table)
        return table


class FakeWatch:
    def __init__(self, url: str, token: str, **_: Any) -> None:
        self.tables: dict[str, dict[str, Any]] = {}
        self.connected = True
        self.callbacks: list[Any] = []

    def on(self, callback: Any) -> None:
        self.callbacks.append(callback)

    def watch(self, table_id: str) -> None:
        pass

    def close(self) -> None:
        pass


def summary(table_id: str, **changes: Any) -> dict[str, Any]:
    base = {"id": table_id, "game": "jactus", "title": "Jactus", "ruleset": "standard",
            "status": "playing", "turn": "A", "moves": 0, "scores": [0.0, 0.0],
            "outcome": "", "seats": [{"seat": "A", "who": "human", "connected": 1},
                                     {"seat": "B", "who": "greedy", "connected": 0}]}
    return {**base, **changes}


def answer(question: str, mistake: str = "", verdict: str = "wrong",
           student: str = "3b/ada", lesson: str = "jactus-odds") -> dict[str, Any]:
    return {"lesson": lesson, "question": question, "student": student, "answer": "x",
            "verdict": verdict, "mistake": mistake, "at": 0.0}


@pytest.fixture
def board(monkeypatch) -> Dashboard:
    FakeClient.instances.clear()
    monkeypatch.setattr(dashboard_module, "TeacherClient", FakeClient)
    monkeypatch.setattr(dashboard_module, "TeacherWatch", FakeWatch)
    return Dashboard("http://server:8866", "token")


class FakeLoop:
    """A kernel's event loop that runs its timed calls when told to."""

    def __init__(self) -> None:
        self.calls: list[Any] = []

    def call_later(self, delay: float, fn: Any) -> None:
        self.calls.append(fn)

    def run_due(self) -> None:
        calls, self.calls = self.calls, []
        for fn in calls:
            fn()


def news(board: Dashboard, msg: dict[str, Any]) -> None:
    for callback in board.watch.callbacks:
        callback(msg)


# --- what students send is shown as text -------------------------------------------------
NASTY = ["$x$", "<script>alert(1)</script>", "1/2$", r"$\frac{$", "a$b$c $$ d", "é" * 500,
         "<img src=x onerror=alert(1)>", "x" * 5000]


def visible_text(page: str) -> str:
    """What a browser shows of HTML made of escaped text (tags dropped, entities read)."""
    import html
    return html.unescape(re.sub(r"<[^>]*>", "", page))


def test_shown_text_is_escaped_kept_from_math_and_cut():
    for text in NASTY:
        page = dashboard_module.shown(text)
        assert "<script" not in page and "<img" not in page
        assert page.startswith("<span class='tex2jax_ignore mathjax_ignore' dir='auto'")
        seen = visible_text(page)
        assert len(seen) <= dashboard_module.SHOWN_CHARS
        assert seen == text or (seen.endswith("\u2026") and text.startswith(seen[:-1]))


def test_answers_with_markup_and_dollars_are_tallied_and_plotted(board):
    for k, text in enumerate(NASTY):
        news(board, {"type": "answer", "answer": answer(text, mistake=text,
                                                        student=f"s{k}")})
    page = board.answers_html.value
    assert "<script" not in page and "<img" not in page
    assert "x" * 100 not in visible_text(page) and "x" * 600 not in page    # cut
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "1/2$" in page
    assert page.count("mathjax_ignore") >= 2 * len(NASTY)
    assert board.answers_plot.value[:4] == b"\x89PNG" and board.plot_note.value == ""


def test_the_plot_draws_labels_literally_even_with_tex_switched_on():
    import matplotlib
    rows = [{"lesson": "l", "question": text, "tried": 2, "right": 1} for text in NASTY]
    with matplotlib.rc_context({"text.usetex": True}):        # no TeX here: it would fail
        assert _tally_plot(rows)[:4] == b"\x89PNG"


def test_a_plot_that_fails_leaves_a_note_and_the_tally_goes_on(board, monkeypatch):
    def broken(rows: Any) -> bytes:
        raise ValueError("no fonts today")
    monkeypatch.setattr(dashboard_module, "_tally_plot", broken)
    news(board, {"type": "answer", "answer": answer("q1", "forgot order")})
    assert "forgot order" in board.answers_html.value
    assert "No plot" in board.plot_note.value and "no fonts today" in board.plot_note.value
    assert board.answers_plot.value == b""
    monkeypatch.undo()
    news(board, {"type": "answer", "answer": answer("q2", "counted once")})
    assert "counted once" in board.answers_html.value and board.plot_note.value == ""


def test_the_tables_overview_escapes_what_the_server_sends(board):
    board.watch.tables = {"t1": summary("t1", title="<b>J</b>", outcome="<i>A</i> $won$",
                                        turn="over",
                                        seats=[{"seat": "A", "who": "<script>",
                                                "connected": 1}], scores=[1.0])}
    news(board, {"type": "table"})
    page = board.overview.value
    assert "<b>J</b>" not in page and "<script>" not in page and "<i>A</i>" not in page
    assert "&lt;script&gt;" in page and "over: &lt;i&gt;A&lt;/i&gt; $won$" in page


# --- refreshes on the kernel's loop --------------------------------------------------------
def test_a_pending_refresh_of_tables_never_swallows_one_of_answers(board, monkeypatch):
    loop = FakeLoop()
    monkeypatch.setattr(dashboard_module, "kernel_loop", lambda: loop)
    updates = board.updates
    news(board, {"type": "table"})                     # the tables' refresh waits ...
    news(board, {"type": "answer", "answer": answer("q9", "off by one")})  # ... and this
    news(board, {"type": "table"})                     # asked again: still one waiting
    assert len(loop.calls) == 2 and "off by one" not in board.answers_html.value
    loop.run_due()
    assert "off by one" in board.answers_html.value    # the answers were refreshed too
    assert board.updates == updates + 1                # the tables once
    news(board, {"type": "answer", "answer": answer("q9", "forgot the order")})
    news(board, {"type": "table"})
    assert len(loop.calls) == 2                        # nothing left pending from before
    loop.run_due()
    assert "forgot the order" in board.answers_html.value and board.updates == updates + 2


def test_a_flood_of_checks_redraws_the_tally_at_most_once_a_second(board, monkeypatch):
    """Issue 33 (10): 200 checks arriving together (a class, or one student flooding)
    cost one tally and one plot, not 200."""
    delays = []

    class TimedLoop(FakeLoop):
        def call_later(self, delay: float, fn: Any) -> None:
            delays.append(delay)
            super().call_later(delay, fn)
    loop = TimedLoop()
    monkeypatch.setattr(dashboard_module, "kernel_loop", lambda: loop)
    plots = []
    real = dashboard_module._tally_plot
    monkeypatch.setattr(dashboard_module, "_tally_plot",
                        lambda rows: plots.append(1) or real(rows))
    for k in range(200):
        news(board, {"type": "answer", "answer": answer("q1", f"mistake {k % 7}",
                                                       student=f"s{k}")})
    assert len(loop.calls) == 1 and delays == [dashboard_module.ANSWERS_EVERY] >= [1.0]
    loop.run_due()
    assert len(plots) == 1 and "0 of 200" in board.answers_html.value


# --- tables for the whole class ------------------------------------------------------------
def slip_codes(board: Dashboard) -> list[str]:
    import base64
    page = base64.b64decode(board.slips_link.value.split("base64,")[1].split("'")[0])
    return re.findall(r"<div class='code'>([^<]*)</div>", page.decode())


def test_a_table_refused_part_way_keeps_the_slips_of_those_made(board):
    client = FakeClient.instances[-1]
    client.fail_at = 5                                 # the 5th of 8 tables is refused
    with pytest.raises(dashboard_module.TablesNotAllMade) as caught:
        board.create_tables("jactus", 3, 24, bot="random")
    assert caught.value.made == ["t1", "t2", "t3", "t4"]
    assert isinstance(caught.value.__cause__, ClassroomError)
    assert sorted(board.codes) == ["t1", "t2", "t3", "t4"]
    assert slip_codes(board) == [code for t in client.made for code in t.codes.values()]
    assert len(slip_codes(board)) == 12 and "join slips (12" in board.slips_link.value
    said = visible_text(board.message.value)
    assert "Made 4 of the 8 tables (t1, t2, t3, t4)" in said
    assert "Table 5 was not made: the server keeps at most 4 tables" in said
    assert "data-table='t4'" in board.overview.value   # the overview shows them


def test_the_button_says_what_failed_and_the_slips_stay(board):
    client = FakeClient.instances[-1]
    client.fail_at = 3
    board.students_box.value = 12
    board.create_button.click()                        # the guard reports, nothing raised
    assert "Made 2 of the" in board.message.value and "#b00020" in board.message.value
    assert len(slip_codes(board)) == 2 * board.seats_box.value


def test_no_table_made_is_the_servers_own_error_and_changes_nothing(board):
    client = FakeClient.instances[-1]
    client.fail_at = 1
    with pytest.raises(ClassroomError, match="at most 4 tables") as caught:
        board.create_tables("jactus", 3, 6)
    assert not isinstance(caught.value, dashboard_module.TablesNotAllMade)
    assert board.codes == {} and board.slips_link.value == ""


def test_checks_add_up_tries_and_a_mistake_counts_each_student_once(board):
    board.answers = [{**answer("q1", "forgot order", student="ada"), "tries": 3},
                     {**answer("q1", "", verdict="right", student="ada"), "tries": 1}]
    news(board, {"type": "answer",                           # ada's fourth such check
                 "answer": {**answer("q1", "forgot order", student="ada"), "tries": 4}})
    news(board, {"type": "answer", "answer": answer("q1", "forgot order", student="bo")})
    row = dashboard_module.tally(board.answers)[0]
    assert (row["tried"], row["right"], row["checks"]) == (2, 1, 6)
    assert len(board.answers) == 3                          # ada's row counted on
    assert row["mistakes"] == [("forgot order", 2)]         # ada's four tries, once


def test_a_table_that_does_not_play_says_why_in_the_overview(board):
    board.watch.tables = {"t1": summary("t1", status="paused",
                                        note="a bot failed: <oops>")}
    news(board, {"type": "table"})
    assert "paused" in board.overview.value
    assert "a bot failed: &lt;oops&gt;" in board.overview.value


def test_an_ended_table_names_nobody_to_move_and_a_bot_is_no_absent_student(board):
    """After End the row said "B" was to move; a bot's seat showed the circle of a
    student who has not joined ("C&#9675; greedy")."""
    board.watch.tables = {"t1": summary("t1", status="ended", turn="B",
                                        seats=[{"seat": "A", "who": "human",
                                                "connected": 1},
                                               {"seat": "B", "who": "greedy",
                                                "connected": 0}], scores=[0.0, 0.0])}
    news(board, {"type": "table"})
    row = board.overview.value
    assert "<td>nobody: ended</td>" in row and "<td>B</td>" not in row
    assert "B bot: greedy</span>" in row and "A&#9679;</span>" in row


# --- mistakes by kind, across students with numbers of their own ---------------------------
def made(lesson: str, key: str, student: str, starts: str) -> dict[str, Any]:
    """The row a student's page sends when ``student`` gives the common mistake of
    ``lesson``'s exercise ``key`` whose explanation begins with ``starts``."""
    from janus_widgets.analysis.checking import exercise_sets
    exercise = getattr(exercise_sets(student)[lesson], key)
    mistake = next(m for m in exercise.mistakes if m.why.startswith(starts))
    verdict = exercise.check(mistake.resolve())
    assert verdict.kind == "wrong" and verdict.mistake
    return {"lesson": lesson, "question": key, "student": f"3b/{student}",
            "answer": str(mistake.resolve()), "verdict": "wrong",
            "mistake": verdict.mistake, "at": 0.0}


def test_one_mistake_made_with_each_students_numbers_is_counted_as_one_kind(board):
    students = ["ada", "bo", "cy", "dee", "eli", "fay"]
    rows = [made("what-can-i-know", "double", s, "That counts cards, not sides")
            for s in students]
    assert len({r["mistake"] for r in rows}) >= 3          # their own numbers differ
    rows.append(made("what-can-i-know", "double", "ada", "That counts the double's"))
    rows.append({**rows[0], "answer": "0.9", "mistake": ""})          # ada, no known one
    rows.append({**rows[1], "answer": "0.8", "mistake": ""})
    for row in rows:
        news(board, {"type": "answer", "answer": row})
    (line,) = dashboard_module.tally(board.answers)
    assert line["tried"] == 6
    (example, n), (unknown, m), (other, k) = line["mistakes"]
    assert n == 6 and example in {r["mistake"] for r in rows[:6]}
    assert m == 2 and unknown.startswith("no known mistake, e.g. 0.")
    assert k == 1 and "counts the double's" in other
    said = visible_text(board.answers_html.value)
    assert "6 students, e.g." in said and "1 student, e.g." in said
    assert "2 students: no known mistake, e.g. 0." in said and "e.g. no known" not in said


def test_a_lessons_different_mistakes_stay_different_kinds_for_every_student():
    from janus_widgets.analysis.checking import exercise_sets, mistake_kind
    for student in ("ada", "bo", "fay"):
        for lesson, exercises in exercise_sets(student).items():
            for exercise in exercises:
                texts = {exercise.check(m.resolve()).mistake for m in exercise.mistakes}
                kinds = [mistake_kind(t) for t in texts if t]
                assert len(set(kinds)) == len(kinds), (lesson, exercise.key, student, kinds)


def test_the_plot_counts_whole_students_and_its_legend_covers_no_bar():
    rows = [{"lesson": "jactus-odds", "question": "q1", "tried": 1, "right": 0},
            {"lesson": "jactus-odds", "question": "q2", "tried": 3, "right": 2},
            {"lesson": "roman-dice", "question": "q4", "tried": 2, "right": 2}]
    for some in (rows[:1], rows):
        fig = dashboard_module._tally_figure(some)
        fig.canvas.draw()
        ax = fig.axes[0]
        ticks = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
        assert len(ticks) >= 2 and all(float(t).is_integer() for t in ticks), ticks
        renderer = fig.canvas.get_renderer()
        legends = fig.legends + [ax.get_legend()] * (ax.get_legend() is not None)
        assert legends
        bars = [p.get_window_extent(renderer) for p in ax.patches]
        labels = [t.get_window_extent(renderer) for t in ax.texts]
        assert len(labels) == len(some)                   # "2 of 3 right" at each bar
        for legend in legends:
            box = legend.get_window_extent(renderer)
            assert not any(box.overlaps(bar) for bar in bars + labels)


# --- New tables, the Tables tab, Open ----------------------------------------------------
def test_new_tables_names_the_ruleset_and_every_label_is_whole(board):
    from janus_widgets import games
    for name in games.names():
        board.game_box.value = name
        rulesets = [r.name for r in games.get(name).rulesets()]
        assert [value for _, value in board.ruleset_box.options] == rulesets
        assert board.ruleset_box.value == "rulebook"
        assert "rulebook" in board.ruleset_box.label
    # A label is cut at its box's description width (ipywidgets' default: 80 px, which
    # cuts "empty seats"); a sans-serif letter is at most about 0.62 em wide.
    for box in (board.game_box, board.ruleset_box, board.seats_box, board.students_box,
                board.bot_box):
        width = box.style.description_width
        assert width.endswith("em"), (box.description, width)
        assert float(width[:-2]) >= 0.62 * len(box.description) + 0.5, box.description
    client = FakeClient.instances[-1]
    made: list[Any] = []
    client.create_table = lambda game, seats, **kw: made.append(kw) or FakeTable("t1", 1)
    board.game_box.value = "jactus"
    board.create_button.click()
    assert made and made[0]["ruleset"] == "rulebook"


def test_a_finished_game_says_finished_not_playing(board):
    board.watch.tables = {"t1": summary("t1", turn="over", outcome="A won"),
                          "t2": summary("t2")}
    news(board, {"type": "table"})
    rows = {m.group(1): m.group(2) for m in re.finditer(
        r"<tr data-table='(t\d)'.*?</td><td>.*?</td><td>.*?</td><td>(\w+)", board.overview.value)}
    assert rows == {"t1": "finished", "t2": "playing"}


def every_widget(widget: Any) -> list[Any]:
    out = [widget]
    for child in getattr(widget, "children", ()):
        out += every_widget(child)
    return out


def on_screen(widget: Any) -> str:
    """Every value the widgets under ``widget`` send to the browser, as one text."""
    import base64
    parts = []
    for w in every_widget(widget):
        for value in w.get_state().values():
            parts.append(str(value))
            if isinstance(value, str) and "base64," in value:      # pictures' own text
                for data in re.findall(r"base64,([A-Za-z0-9+/=]+)", value):
                    parts.append(base64.b64decode(data).decode("utf-8", "replace"))
    return "\n".join(parts)


def test_open_hides_the_seed_and_every_card_until_the_teacher_says_yes(board):
    import janus_widgets as jw
    from janus_widgets.core.protocol import TABLE
    from janus_widgets.drawing import render_svg
    from janus_widgets.widgets.shell import GameWidget
    seed = 987654321987
    state = jw.new("janus-cards", players=3, seed=seed)
    while len(state.record().moves) < 12:
        state = state.play_chance() if state.is_chance else state.play(
            state.legal_moves()[0])
    record = state.record()
    client = FakeClient.instances[-1]
    client.record = lambda table_id: record
    board_drawing = jw.games.get("janus-cards").board()
    public = render_svg(board_drawing.draw(state.view(TABLE)))
    secret = render_svg(board_drawing.draw(state.view(None)))
    assert public != secret                                # there is something to hide
    assert board.open_table("t1") is None
    seen = on_screen(board.opened_box)
    assert public in seen and secret not in seen and str(seed) not in seen
    assert not any(isinstance(w, GameWidget) for w in every_widget(board))
    ask = next(w for w in every_widget(board.opened_box)
               if isinstance(w, dashboard_module.W.Button)
               and w.description.startswith("Show secrets"))
    ask.click()                                            # asks first: nothing shown yet
    assert "may be projected" in on_screen(board.opened_box)
    assert not any(isinstance(w, GameWidget) for w in every_widget(board))
    no = next(w for w in every_widget(board.opened_box)
              if getattr(w, "description", "") == "Cancel")
    no.click()
    assert "may be projected" not in on_screen(board.opened_box)
    ask.click()
    yes = next(w for w in every_widget(board.opened_box)
               if getattr(w, "description", "") == "Yes, show them")
    yes.click()
    (shell,) = [w for w in every_widget(board) if isinstance(w, GameWidget)]
    assert shell.viewpoint is None and str(seed) in on_screen(shell)   # the teacher's
    hide = next(w for w in every_widget(board.opened_box)
                if getattr(w, "description", "") == "Hide secrets")
    hide.click()
    assert not any(isinstance(w, GameWidget) for w in every_widget(board))
    assert str(seed) not in on_screen(board.opened_box)


# --- Lesson codes -----------------------------------------------------------------------------
def test_the_lesson_is_chosen_from_the_lessons_the_pages_serve(monkeypatch, tmp_path):
    import base64
    import shutil

    from janus_widgets.analysis import lessons
    served = tmp_path / "lessons"                       # the class's pages: two lessons
    served.mkdir()
    for stem in ("roman-dice", "jactus-odds"):
        shutil.copy(lessons.lesson(stem).path, served / f"{stem}.ipynb")
    shutil.copy(lessons.lesson("janus-tolls").path, tmp_path)   # not among the pages'
    FakeClient.instances.clear()
    monkeypatch.setattr(dashboard_module, "TeacherClient", FakeClient)
    monkeypatch.setattr(dashboard_module, "TeacherWatch", FakeWatch)
    monkeypatch.chdir(tmp_path)                          # Voila runs teacher.ipynb here
    board = Dashboard("http://server:8866", "token")
    assert isinstance(board.lesson_box, dashboard_module.W.Dropdown)   # never typed
    assert [value for _, value in board.lesson_box.options] == ["jactus-odds", "roman-dice"]
    assert any(label.startswith("Roman dice") for label, _ in board.lesson_box.options)
    client = FakeClient.instances[-1]
    asked = []

    def create_class(name, n, lesson=""):
        asked.append(lesson)
        return {f"student-{k + 1}": f"CODE{k}" for k in range(n)}
    client.create_class = create_class
    for typed in ("Jactus odds", "jactus_odds", "janus-tolls"):
        with pytest.raises(ValueError, match="choose one of jactus-odds, roman-dice"):
            board.create_class("3b", 2, typed)
    board.lesson_box.value = "roman-dice"
    board.class_box.value = "3b"
    board.class_size.value = 2
    board.class_button.click()
    page = base64.b64decode(board.class_link.value.split("base64,")[1].split("'")[0])
    assert asked == ["roman-dice"]                 # the server keeps the code's lesson
    assert b"http://server:8866/lesson?code=CODE1" in page


def test_the_lessons_of_the_day_come_first_and_the_first_is_chosen(monkeypatch):
    """`classroom --lesson what-can-i-know` still chose game-design-lab (the first by
    name) in the Lesson codes menu."""
    FakeClient.instances.clear()
    monkeypatch.setattr(dashboard_module, "TeacherClient", FakeClient)
    monkeypatch.setattr(dashboard_module, "TeacherWatch", FakeWatch)
    served = {"game-design-lab": "Game design lab", "roman-dice": "Roman dice",
              "what-can-i-know": "What can I know?"}
    monkeypatch.setenv(dashboard_module.LESSONS_OF_THE_DAY,
                       "what-can-i-know,not-served,roman-dice")
    board = Dashboard("http://server:8866", "token", lessons=served)
    assert board.lesson_box.value == "what-can-i-know"
    assert list(board.lesson_box.options) == [
        ("today: What can I know? (what-can-i-know)", "what-can-i-know"),
        ("today: Roman dice (roman-dice)", "roman-dice"),
        ("Game design lab (game-design-lab)", "game-design-lab")]
    monkeypatch.delenv(dashboard_module.LESSONS_OF_THE_DAY)   # no lesson named
    board = Dashboard("http://server:8866", "token", lessons=served)
    assert board.lesson_box.value == "game-design-lab" and board.today == []


def test_the_lesson_codes_are_for_the_classrooms_own_class_size(monkeypatch):
    """`classroom --students 30` and the Lesson codes tab still offered codes for 24
    students: the dashboard takes the class size its classroom tells it."""
    monkeypatch.setattr(dashboard_module, "TeacherClient", FakeClient)
    monkeypatch.setattr(dashboard_module, "TeacherWatch", FakeWatch)
    monkeypatch.setenv(dashboard_module.CLASS_SIZE, "30")
    board = Dashboard("http://server:8866", "token", lessons={"roman-dice": "Roman dice"})
    assert board.class_size.value == 30
    asked: list[int] = []

    def create_class(name: str, n: int, lesson: str = "") -> dict[str, str]:
        asked.append(n)
        return {f"student-{k + 1}": f"CODE{k}" for k in range(n)}
    board.client.create_class = create_class
    board.class_box.value = "3b"
    board.class_button.click()                     # Make the codes, the number untouched
    assert asked == [30] and "Download the lesson slips (30, to print)" in \
        board.class_link.value
    monkeypatch.delenv(dashboard_module.CLASS_SIZE)             # no classroom command
    board = Dashboard("http://server:8866", "token", lessons={"roman-dice": "Roman dice"})
    assert board.class_size.value == dashboard_module.DEFAULT_CLASS_SIZE == 24
    assert Dashboard("http://server:8866", "token", lessons={"roman-dice": "Roman dice"},
                     students=12).class_size.value == 12


# --- join slips ------------------------------------------------------------------------------
def test_a_slip_has_a_qr_code_and_a_short_address_on_the_table_server(board):
    import base64
    import html

    import segno
    client = FakeClient.instances[-1]
    board.create_tables("janus-cards", 3, 5)
    # the slips are shown this once (the server keeps only the codes' hashes): said so
    assert "Print the join slips now" in board.message.value
    assert "New codes makes new slips" in board.message.value
    page = base64.b64decode(board.slips_link.value.split("base64,")[1].split("'")[0]
                            ).decode()
    slips = page.split("<div class='slip'>")[1:]
    codes = [code for t in client.made for code in t.codes.values()]
    assert len(slips) == len(codes) == 5
    for slip, code in zip(slips, codes):
        address = f"http://server:8866/seat?code={code}"     # the table server's own
        text = html.unescape(re.sub(r"<svg.*?</svg>", "", slip))
        assert address in text and "%" not in text and "voila" not in text
        assert segno.make(address, error="m", micro=False).svg_inline(scale=3) in slip
        # without the address: which page to open, and that the code is all it asks
        assert f"Or open http://server:8866/seat and type the code {code}." in text


def test_lesson_slips_have_a_qr_code_of_the_lesson_page(board):
    import base64
    import html
    from urllib.parse import parse_qs, urlparse
    client = FakeClient.instances[-1]
    client.create_class = lambda name, n, lesson="": {f"student-{k + 1}": f"CODE{k}"
                                                      for k in range(n)}
    board.create_class("3b", 2, "roman-dice")
    page = base64.b64decode(board.class_link.value.split("base64,")[1].split("'")[0]
                            ).decode()
    slips = page.split("<div class='slip'>")[1:]
    assert len(slips) == 2 and all("<svg" in slip for slip in slips)
    address = html.unescape(re.search(r"<div class='address'>([^<]*)<", slips[1]).group(1))
    # the table server's short address, which sends the student on to the lesson's page
    # (its own address, with the server's and the code, was too long to type)
    parts = urlparse(address)
    assert (parts.netloc, parts.path) == ("server:8866", "/lesson")
    assert parse_qs(parts.query) == {"code": ["CODE1"]}
    assert "Or open http://server:8866/lesson and type the code CODE1" in slips[1]


# --- a page whose kernel is gone ------------------------------------------------------------
def test_in_voila_the_page_gets_signs_of_life_that_hide_its_warning(board, monkeypatch):
    assert board.alive.value == ""                       # JupyterLab has its own indicator
    loop = FakeLoop()
    monkeypatch.setattr(dashboard_module, "kernel_loop", lambda: loop)
    monkeypatch.setenv("SERVER_SOFTWARE", "voila/0.5.8")
    voila_board = Dashboard("http://server:8866", "token", lessons={})
    first = voila_board.alive.value
    assert "lost its kernel" in first and "visibility:hidden" in first
    assert f"{dashboard_module.STALE_AFTER:g}s forwards" in first   # shown only if stale
    assert len(loop.calls) == 1                          # the next sign is on its way
    loop.run_due()
    assert voila_board.alive.value != first and len(loop.calls) == 1   # a new element


def test_a_slip_never_sends_a_student_to_the_teachers_own_machine_address():
    import socket
    students_address = dashboard_module.students_address
    # the classroom command: the dashboard talks to 127.0.0.1, the pages are on the LAN
    assert students_address("http://127.0.0.1:8866", "http://192.168.1.10:8867") == \
        "http://192.168.1.10:8866"
    lan = dashboard_module._lan_host()
    if lan in ("", "127.0.0.1"):
        pytest.skip("this machine has no address on a network")
    for bound, host in (("0.0.0.0", lan),               # a server the class can reach
                        ("127.0.0.1", "127.0.0.1")):    # one for this machine only
        listener = socket.socket()
        listener.bind((bound, 0))
        listener.listen()
        port = listener.getsockname()[1]
        try:
            assert students_address(f"http://127.0.0.1:{port}") == f"http://{host}:{port}"
        finally:
            listener.close()


def test_a_server_back_with_another_token_is_said_so(board):
    board.watch.connected = False
    news(board, {"type": "connection", "connected": False})
    assert "Lost the table server" in board.link.value
    assert "start it again" in board.link.value
    news(board, {"type": "error", "code": "bad_credential", "error": "<unknown> token"})
    said = visible_text(board.link.value)
    assert "refuses your token (<unknown> token)" in said and "<unknown>" not in \
        board.link.value
    board.watch.connected = True
    news(board, {"type": "welcome", "tables": []})
    assert "Reconnected" in board.link.value and "refuses" not in board.link.value


def test_the_table_menu_always_names_a_table_once_there_is_one(board):
    assert board.table_menu.value is None
    board.watch.tables = {"t1": summary("t1"), "t2": summary("t2")}
    news(board, {"type": "table"})
    assert board.table_menu.value == "t1"                 # not a blank menu
    board.table_menu.value = "t2"
    board.watch.tables["t3"] = summary("t3")
    news(board, {"type": "table"})
    assert board.table_menu.value == "t2"                 # the teacher's choice stays


# --- End asks first ---------------------------------------------------------------------------
def button(widget: Any, description: str) -> Any:
    """The button under ``widget`` that says ``description``."""
    return next(w for w in every_widget(widget)
                if isinstance(w, dashboard_module.W.Button) and w.description == description)


def test_end_asks_first_and_only_yes_ends_the_table(board):
    """A newcomer's one click on End ended a table for good: End asks, as Show
    secrets does; Keep playing, or another table chosen, ends nothing and leaves no
    question behind."""
    client = FakeClient.instances[-1]
    board.watch.tables = {"t1": summary("t1"), "t2": summary("t2")}
    news(board, {"type": "table"})
    board.message.value = ""
    board.end_button.click()                              # t1, the menu's choice
    assert client.status_calls == []                      # asked, nothing ended
    asked = on_screen(board.end_question)
    assert "End t1?" in asked and "join codes stop working" in asked
    assert "cannot go on" in asked and "its record stays" in asked
    button(board.end_question, "Keep playing").click()
    assert client.status_calls == [] and board.end_question.children == ()
    assert "Table t1 was not ended." in visible_text(board.message.value)
    board.end_button.click()
    board.table_menu.value = "t2"                         # the question was t1's
    assert board.end_question.children == () and client.status_calls == []
    board.end_button.click()
    assert "End t2?" in on_screen(board.end_question)
    button(board.end_question, "Yes, end t2").click()
    assert client.status_calls == [("end", "t2")] and board.end_question.children == ()
    said = visible_text(board.message.value)
    assert "Table t2 has ended" in said and "End t2?" not in said
    board.pause_button.click()                            # the other buttons act at once
    assert client.status_calls[-1] == ("pause", "t2")


# --- the tally as the worksheet shows the questions -------------------------------------------
def test_the_tally_shows_each_question_as_its_lesson_does_in_the_lessons_order(board):
    """The tally said "double", "moon", "sides", "two-suns" (the ids, alphabetically);
    the worksheet says "1. How many sides show the sun?" … "6. Two suns in view"."""
    for question in ("two-suns", "moon", "sides", "double"):
        news(board, {"type": "answer", "answer": answer(question, lesson="what-can-i-know")})
    news(board, {"type": "answer", "answer": answer("<b>q9</b>", lesson="what-can-i-know")})
    page = board.answers_html.value
    headings = ["1. How many sides show the sun?", "2. The other side of a sun",
                "3. The other side is a moon", "6. Two suns in view", "&lt;b&gt;q9"]
    places = [page.find(h) for h in headings]
    assert -1 not in places and places == sorted(places), places   # the lesson's order
    assert "title='question id: moon'" in page                     # the id at hand
    assert "title='question id: &lt;b&gt;q9&lt;/b&gt;'" in page and "<b>q9" not in page
    assert [r["heading"] for r in dashboard_module.tally(board.answers)][:2] == \
        headings[:2]


# --- downloads look like downloads ----------------------------------------------------------
def test_every_download_is_a_button_that_says_download(board):
    """The slips' links looked like bold headings, and the records' button only made a
    second link, "records.zip", with nothing saying it must be clicked too."""
    import base64
    import io
    import types
    import zipfile
    client = FakeClient.instances[-1]
    client.create_class = lambda name, n, lesson="": {f"student-{k + 1}": f"CODE{k}"
                                                      for k in range(n)}
    client.record = lambda table_id: types.SimpleNamespace(to_json=lambda: "{}")
    assert "Download link here saves it" in visible_text(board.records_link.value)
    board.create_tables("jactus", 2, 3)
    board.create_class("3b", 2, "roman-dice")
    board.records_button.click()
    links = {"slips": board.slips_link.value, "lesson": board.class_link.value,
             "records": board.records_link.value}
    for what, link in links.items():
        assert link.startswith("<a class='janus-download' download=") and \
            dashboard_module.DOWNLOAD_STYLE in link, what                # a button
        assert "\u2b07 Download " in visible_text(link), what            # it says so
    assert "\u2b07 Download the join slips (3, to print)" in visible_text(links["slips"])
    assert "\u2b07 Download the lesson slips (2, to print)" in visible_text(links["lesson"])
    assert re.search(r"\u2b07 Download records\.zip \(2 tables, as at \d\d:\d\d:\d\d\)",
                     visible_text(links["records"]))
    said = visible_text(board.message.value)
    assert "click \u2b07 Download records.zip beside the button to save it" in said
    data = base64.b64decode(links["records"].split("base64,")[1].split("'")[0])
    assert zipfile.ZipFile(io.BytesIO(data)).namelist() == ["t1-jactus.json",
                                                            "t2-jactus.json"]


# --- every check, per student ------------------------------------------------------------------
def saved_csv(board: Dashboard) -> list[list[str]]:
    """The rows of the Answers tab's CSV, as a spreadsheet reads the file saved."""
    import base64
    import csv
    import io
    link = board.answers_csv_link.value
    assert link.startswith("<a class='janus-download' download='answers-per-student.csv'")
    data = base64.b64decode(link.split("base64,")[1].split("'")[0])
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))


def test_every_check_per_student_downloads_as_csv_with_no_formula_in_it(board):
    """The Answers tab had only totals per question: no way to get each student's
    results out. A student's text that a spreadsheet would run as a formula stays
    text."""
    assert board.answers_csv_link.value == ""                    # nothing to save yet
    evil = ["=HYPERLINK(\"http://x\",\"y\")", "+1+1", "-2+3", "@SUM(A1)", "\t=1", "\r=1"]
    for k, text in enumerate(evil):
        news(board, {"type": "answer", "answer": {
            **answer("q1", mistake=text, student=f"3b/s{k}", lesson="roman-dice"),
            "answer": text}})
    news(board, {"type": "answer", "answer": {**answer("moon", student="3b/ada",
                                                     lesson="what-can-i-know"), "tries": 2}})
    news(board, {"type": "answer", "answer": {**answer("sides", student="3b/ada",
                                                     lesson="what-can-i-know"),
                                             "answer": "1/2", "verdict": "right"}})
    assert "\u2b07 Download every check, per student (CSV)" in visible_text(
        board.answers_csv_link.value)
    header, *rows = saved_csv(board)
    assert header == ["student", "lesson", "question", "question id", "answer", "verdict",
                      "mistake", "tries", "first sent"]
    assert len(rows) == len(board.answers) == len(evil) + 2      # one per kept row
    ada = [r for r in rows if r[0] == "3b/ada"]
    assert [r[2:4] for r in ada] == [["1. How many sides show the sun?", "sides"],
                                     ["3. The other side is a moon", "moon"]]
    assert ada[0][4:6] == ["1/2", "right"] and ada[1][7] == "2"
    for row, text in zip([r for r in rows if r[0] != "3b/ada"], evil):
        assert row[4] == row[6] == "'" + text                    # answer, mistake: text
    for row in rows:
        assert not any(cell.startswith(dashboard_module.FORMULA_STARTS) for cell in row)

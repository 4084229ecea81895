"""Lessons driven in Voila as a student would, without running a cell by hand (issue 35,
items 1 and 2): the guesses typed before the result shows, a new seed typed and *Run*
pressed, and roman-dice's class experiment with three students' pages and the teacher's
dashboard page. One Voila serves the students' edition for the whole module, started in
its folder as the classroom command does (so the project's ``voila.json`` applies)."""

from __future__ import annotations

import contextlib
import shutil
import urllib.parse
from pathlib import Path

import pytest
from browser_support import cut_labels, eventually, voila_tree, widget_errors
from server_support import table_server

from janus_widgets.analysis import lessons
from janus_widgets.analysis.checking import exercise_sets
from janus_widgets.table.client import TeacherClient

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """The students' edition of every lesson and the dashboard page, served by one Voila."""
    folder = tmp_path_factory.mktemp("class") / "lessons"
    lessons.build_editions("student", folder)
    shutil.copy(ROOT / "notebooks" / "voila.json", folder / "voila.json")
    shutil.copy(ROOT / "notebooks" / "teacher.ipynb", folder / "teacher.ipynb")
    with voila_tree(folder, folder.parent / "voila.log") as base:
        yield base + "voila/render/", folder.parent


def open_lesson(page, url: str, selector: str) -> None:
    page.goto(url, wait_until="domcontentloaded", timeout=240_000)
    page.wait_for_selector(selector, timeout=240_000)


def test_janus_tolls_from_the_top_to_the_exit_question(page, pages):
    """janus-tolls on a page joined to no class: the guesses before the result, the boards
    shuffled with another seed, the toll panel for another tile under both readings, the
    exercises with the class's keys (one a named mistake), up to the exit question."""
    base, _ = pages
    open_lesson(page, base + "janus-tolls.ipynb", ".janus-exercise")
    assert "not sent to your teacher" not in page.inner_text("body")   # no classroom's
    gate = page.locator(".janus-predict")
    show = gate.locator("button", has_text="Show the result")
    assert show.is_disabled()
    assert "How many of the 100 tiles give" not in page.inner_text("body")
    boxes = gate.locator("input[type=text]")
    boxes.nth(0).fill("2")
    boxes.nth(0).press("Tab")
    assert show.is_disabled()                           # one guess is not enough
    boxes.nth(1).fill("5")
    boxes.nth(1).press("Tab")
    eventually(lambda: show.is_enabled())
    show.click()
    page.wait_for_selector("text=How many of the 100 tiles give", timeout=60_000)
    assert boxes.nth(0).is_disabled()                   # the guesses are kept
    # section 3: the boards are shuffled on Run, and again with another seed
    boards = page.locator(".janus-seed-run").nth(0)
    boards.locator("button", has_text="Run").click()
    page.wait_for_selector("text=2,000 boards shuffled from seed 1", timeout=120_000)
    seed = boards.locator("input[type=number]")
    seed.fill("2")
    seed.press("Tab")
    boards.locator("button", has_text="Run").click()
    page.wait_for_selector("text=2,000 boards shuffled from seed 2", timeout=120_000)
    assert "boards shuffled from seed 1" not in boards.inner_text()
    boards.locator("img").first.wait_for(timeout=60_000)     # the plot of the run
    # section 4's measurement ran once at the start and runs again with a new seed
    tolls = page.locator(".janus-seed-run").nth(1)
    assert "(seed 1)" in tolls.inner_text() or tolls.locator("img").count() == 1
    # the toll panel: another tile on h3, then the other reading of the toll rule
    panel = labelled(page, "dropdown", "Tile on h3:").locator("xpath=../..")
    shown = panel.inner_text()
    labelled(page, "dropdown", "Tile on h3:").locator("select").select_option("G3+")
    eventually(lambda: panel.inner_text() != shown, timeout=60)
    shown = panel.inner_text()
    panel.locator("button", has_text="tolls on every field").click()
    eventually(lambda: panel.inner_text() != shown and "expected coins" in panel.inner_text(),
               timeout=60)
    # the exercises (the class's numbers: a page joined to no class), to the exit question
    to_the_exit_question(page, exercise_sets()["janus-tolls"], decimal=2, fraction=3)


def test_roman_dice_on_a_page_joined_to_no_class_pools_its_own_throws(page, pages):
    base, _ = pages
    open_lesson(page, base + "roman-dice.ipynb", ".janus-exercise")
    gate = page.locator(".janus-predict")
    assert page.locator(".janus-experiment").count() == 0
    gate.locator("input[type=text]").nth(0).fill("12")
    gate.locator("input[type=text]").nth(1).fill("narrow sides are small")
    gate.locator("input[type=text]").nth(1).press("Tab")
    gate.locator("button", has_text="Show the result").click()
    panel = page.locator(".janus-experiment")
    panel.wait_for(timeout=60_000)
    assert "joined to no class" in panel.inner_text()
    entry = panel.locator("input[type=text]")
    entry.fill("1 3 5")
    panel.locator("button", has_text="Add my throws").click()
    page.wait_for_selector("text=a talus cannot show 5", timeout=30_000)
    entry.fill("1 3 4 6 6 3")
    panel.locator("button", has_text="Add my throws").click()
    page.wait_for_selector("text=Your throws: 6", timeout=30_000)
    assert "Share landing on a narrow side (1 or 6): 0.500" in panel.inner_text()
    # the exercises (the class's numbers), to the exit question
    to_the_exit_question(page, exercise_sets()["roman-dice"], decimal=2, fraction=4)


def every_page_shows(text: str, students: dict, teacher) -> None:
    """Wait until every student's page and the teacher's show ``text``; if one does
    not, say what each page's panel shows instead."""
    import playwright.sync_api
    for tab in [*students.values(), teacher]:
        try:
            tab.wait_for_selector(f"text={text}", timeout=30_000)
        except playwright.sync_api.TimeoutError:
            shown = {who: page.locator(".janus-experiment, .janus-teacher-experiment")
                     .first.inner_text()[:600] for who, page
                     in [*students.items(), ("teacher", teacher)]}
            raise AssertionError(f"not every page shows {text!r}: {shown}") from None


def test_roman_dice_three_students_and_the_dashboard_see_the_class_pool(browser, pages):
    base, work = pages
    (work / "server").mkdir()
    with table_server(work / "server") as server:
        codes = TeacherClient(server.url, server.token).create_class("3b", ["ada", "bo",
                                                                           "cy"])
        contexts, students = [], {}
        try:
            for name, code in codes.items():
                context = browser.new_context(viewport={"width": 1400, "height": 1200})
                contexts.append(context)
                tab = context.new_page()
                query = urllib.parse.urlencode({"server": server.url, "code": code})
                open_lesson(tab, f"{base}roman-dice.ipynb?{query}", ".janus-exercise")
                gate = tab.locator(".janus-predict")
                gate.locator("input[type=text]").nth(0).fill("20")
                gate.locator("input[type=text]").nth(1).fill("half")
                gate.locator("input[type=text]").nth(1).press("Tab")
                gate.locator("button", has_text="Show the result").click()
                tab.locator(".janus-experiment").wait_for(timeout=60_000)
                assert "the class's throws, pooled" in tab.locator(".janus-experiment").inner_text()
                students[name] = tab
            context = browser.new_context(viewport={"width": 1400, "height": 1400})
            contexts.append(context)
            teacher = context.new_page()
            query = urllib.parse.urlencode({"server": server.url, "token": server.token})
            open_lesson(teacher, f"{base}teacher.ipynb?{query}", ".janus-teacher-experiment")

            def add(name: str, throws: str) -> None:
                panel = students[name].locator(".janus-experiment")
                panel.locator("input[type=text]").fill(throws)
                panel.locator("button", has_text="Add my throws").click()

            add("ada", "1 3 4 6")
            add("bo", "3 3 4 4")
            add("bo", "6 1")
            add("cy", "2")                                   # refused on cy's page
            students["cy"].wait_for_selector("text=a talus cannot show 2", timeout=30_000)
            every_page_shows("The class: 10 throws from 2 students", students, teacher)
            board = teacher.locator(".janus-teacher-experiment")
            assert "3b/bo" in board.inner_text() and "3b/ada" in board.inner_text()
            assert board.locator("img").count() == 1            # the share, narrowing
            # the teacher clears bo's entry; every page follows
            board.locator("select").select_option("3b/bo")
            board.locator("button", has_text="Clear this student's throws").click()
            every_page_shows("The class: 4 throws from 1 student", students, teacher)
            for tab in [*students.values(), teacher]:
                assert widget_errors(tab) == []
        finally:
            for context in contexts:
                context.close()


def test_solving_jactus_from_the_top_to_the_exit_question(browser, pages):
    """solving-jactus as a student of a class works it (issue 35 item 8): predictions
    measured, exercises checked (one wrong, the others right with the student's own
    keys), both games put into the exercises' positions with the set-up controls (a
    position the rules cannot reach refused with its rule), the solver's hint read, an
    MCTS match run; no cell run by hand."""
    from janus_widgets.analysis.solving_lesson import _holding_label, solving_jactus
    base, work = pages
    mine = solving_jactus.for_student("ada")
    (work / "server-solving").mkdir()
    with table_server(work / "server-solving") as server:
        code = TeacherClient(server.url, server.token).create_class("3c", ["ada"])["ada"]
        context = browser.new_context(viewport={"width": 1400, "height": 1400})
        try:
            page = context.new_page()
            query = urllib.parse.urlencode({"server": server.url, "code": code})
            open_lesson(page, f"{base}solving-jactus.ipynb?{query}", ".janus-exercise")
            exercises = page.locator(".janus-exercise")

            def answer(index: int, text: str, verdict: str) -> None:
                box = exercises.nth(index)
                box.locator("input").fill(text)
                box.locator("button", has_text="Check").click()
                box.locator(".janus-exercise-verdict").filter(has_text=verdict).wait_for(
                    timeout=60_000)

            # part 1: exercise 1 wrong (a common mistake), the edge predicted and measured
            answer(0, "1/2", "Not")
            assert mine.q1.question.split(":")[0] in exercises.nth(0).inner_text()
            edge = page.locator(".janus-predict").nth(0)
            edge.locator("select").select_option("A has the edge")
            edge.locator("button", has_text="Measure").click()
            edge.filter(has_text="the measurement says: B has the edge").wait_for(
                timeout=60_000)
            answer(1, str(mine.q2.answer), "Right")
            answer(2, str(mine.q3.answer), "Right")
            ends = page.locator(".janus-predict").nth(1)
            ends.locator("select").select_option(index=4)
            ends.locator("button", has_text="Measure").click()
            ends.filter(has_text="The prediction was").wait_for(timeout=60_000)
            # part 2: exercise 4's position set up on the page, after a refused one
            setups = page.locator(".janus-setup")
            assert setups.count() == 2

            def set_up(index: int, dice: str, a: str, b: str, said: str) -> None:
                form = setups.nth(index)
                boxes = form.locator("input[type=text]")
                for k, text in enumerate((dice, a, b)):
                    boxes.nth(k).fill(text)
                    boxes.nth(k).press("Tab")
                form.locator("button", has_text="Set up this position").click()
                form.locator(".janus-setup-status").filter(has_text=said).wait_for(
                    timeout=60_000)

            set_up(0, "6 6 6 6 6", "–", "–", "JA-8")
            set_up(0, "6 6 7 1 2", "V", "VD", "JA-1")
            for index, exercise in ((0, mine.q4), (1, mine.q5)):
                dice, held, pick = (exercise.params[k] for k in ("dice", "holdings", "pick"))
                set_up(index, " ".join(map(str, dice)), _holding_label(held[0]),
                       _holding_label(held[1]), "B to pick up")
                hint = page.locator(".jactus-hint-panel").nth(index)
                hint.filter(has_text="Best for B").wait_for(timeout=120_000)
                # the hint shows the key to six places: B's payoff, or the pick-up's row
                assert f"{float(exercise.answer):.6f}" in hint.text_content(), (
                    pick, hint.text_content())
                answer(3 + index, f"{float(exercise.answer):.3g}", "Right")
            # section 6: a small MCTS match
            page.locator("button", has_text="Run").last.click()
            page.wait_for_selector("text=optimal vs mcts:30", timeout=300_000)
            assert "Exit question" in page.inner_text("body")
            assert widget_errors(page) == []
        finally:
            context.close()


@contextlib.contextmanager
def class_page(browser, pages, server_dir: str, lesson: str, name: str):
    """A table server, a class with ``name`` on its list, and that student's page of
    ``lesson`` opened from the class link (``?server=…&code=…``: the numbers are the
    student's own). Yields the page."""
    base, work = pages
    (work / server_dir).mkdir()
    with table_server(work / server_dir) as server:
        code = TeacherClient(server.url, server.token).create_class(
            server_dir, [name])[name]
        context = browser.new_context(viewport={"width": 1400, "height": 1400})
        try:
            page = context.new_page()
            query = urllib.parse.urlencode({"server": server.url, "code": code})
            open_lesson(page, f"{base}{lesson}.ipynb?{query}", ".janus-exercise")
            yield page
        finally:
            context.close()


def labelled(page, kind: str, label: str):
    """The ipywidgets control of ``kind`` (``text``, ``dropdown``, ``slider``) whose
    description is ``label``."""
    return page.locator(f".widget-{kind}").filter(has_text=label).first


def to_the_exit_question(page, exercises, decimal: int, fraction: int) -> None:
    """The exercises as a student works them: exercise 1 first with its first common
    mistake (named, with its reason), then right; exercise ``decimal + 1`` right as a
    decimal of three figures and exercise ``fraction + 1`` as the exact fraction; then
    the exit question is on the page and no widget failed."""
    first = list(exercises)[0]
    said = answer(page, 0, str(first.mistakes[0].resolve()), "Not quite")
    assert first.mistakes[0].why[:30] in said
    answer(page, 0, str(first.answer), "Right")
    answer(page, decimal, f"{float(list(exercises)[decimal].answer):.3g}", "Right")
    answer(page, fraction, str(list(exercises)[fraction].answer), "Right")
    assert "Exit question" in page.inner_text("body")
    assert widget_errors(page) == []


def answer(page, index: int, text: str, said: str) -> str:
    """Type ``text`` into exercise ``index``'s box, press Check, wait for ``said`` in the
    verdict; the verdict's text."""
    box = page.locator(".janus-exercise").nth(index)
    box.locator("input").fill(text)
    box.locator("button", has_text="Check").click()
    verdict = box.locator(".janus-exercise-verdict")
    verdict.filter(has_text=said).wait_for(timeout=60_000)
    return verdict.inner_text()


def test_jactus_odds_from_the_top_to_the_exit_question(browser, pages):
    """jactus-odds as a student of a class works it: the warm-up's guesses before its
    measurement, the pick-up panel, the chain panel set to the student's exercise 4 (its
    start, target, policy and n) and read, the simulation with a seed of their own, the
    exercises (one right with the student's own key, one a named mistake, one from the
    panel), up to the exit question; no cell run by hand."""
    from janus_widgets.analysis import jactus_odds as jo
    from janus_widgets.analysis.exercises import jactus_odds
    mine = jactus_odds.for_student("ada")
    with class_page(browser, pages, "3d", "jactus-odds", "ada") as page:
        body = page.inner_text("body")
        assert "Seed 1: five of a kind" not in body               # nothing before the guesses
        assert "not sent to your teacher" not in body             # a slip's page: they are
        assert mine.q1.question in body and jactus_odds.q1.question not in body
        gate = page.locator(".janus-predict").first
        show = gate.locator("button", has_text="Keep my guesses")   # the result is below
        assert show.is_disabled()
        boxes = gate.locator("input[type=text]")
        boxes.nth(0).fill("10")
        boxes.nth(0).press("Tab")
        boxes.nth(1).fill("keep them")
        boxes.nth(1).press("Tab")
        eventually(lambda: show.is_enabled())
        show.click()
        page.wait_for_selector("text=Seed 1: five of a kind within 10 throws", timeout=120_000)
        assert "Section 3 (below) has measured the first one" in gate.inner_text()
        warm = page.locator(".janus-seed-run").first
        warm.locator("input[type=number]").fill("4")
        warm.locator("input[type=number]").press("Tab")
        warm.locator("button", has_text="Run").click()
        page.wait_for_selector("text=Seed 4: five of a kind within 10 throws", timeout=120_000)
        # section 1: the pick-up panel, for dice typed in
        labelled(page, "text", "Dice:").locator("input").fill("44442")
        page.locator("button", has_text="Show the chances").click()
        page.wait_for_selector("text=★ r2", timeout=60_000)
        # section 2: the chain panel set as exercise 4 says (a student's q4 needs it)
        q4 = mine.q4.params
        assert "chain panel" in mine.q4.computer
        assert "Needs the computer" in page.locator(".janus-exercise").nth(3).inner_text()
        page.locator(".widget-dropdown").filter(has_text="Target:").nth(1).locator(
            "select").select_option(label=jo.TARGETS[q4["target"]].title)
        labelled(page, "dropdown", "Policy:").locator("select").select_option(
            label=q4["policy"])
        readout = labelled(page, "slider", "n throws:").locator(".widget-readout")
        readout.fill(str(q4["within"]))
        readout.press("Enter")
        start = labelled(page, "text", "Start:").locator("input")
        start.fill("".join(map(str, q4["start"] or ())))
        start.press("Tab")
        page.locator("button", has_text="Show the chain").click()
        shown = f"{float(mine.q4.answer):.4g}"
        page.wait_for_selector(f"text=chance within {q4['within']} throws", timeout=120_000)
        eventually(lambda: shown in page.inner_text("body"), timeout=60)
        # section 3: the simulation of that chain, with another seed
        seed = page.locator(".widget-text").filter(has_text="Seed:").last.locator("input")
        seed.fill("3")
        seed.press("Tab")
        page.locator("button", has_text="Run simulation").click()
        page.wait_for_selector("text=Seed 3: simulated", timeout=180_000)
        # the exercises: q1 right with ada's own key, q2 a named mistake, q4 from the panel
        said = answer(page, 0, str(mine.q1.answer), "Right")
        assert str(mine.q1.answer) in said
        mistake = mine.q2.mistakes[0]
        said = answer(page, 1, str(mistake.resolve()), "common mistake")
        assert mistake.why[:40] in said
        answer(page, 3, shown, "Right")
        answer(page, 4, str(mine.q5.answer), "Right")
        assert "Exit question" in page.inner_text("body")
        assert widget_errors(page) == []


def test_jactus_strategy_from_the_top_to_the_exit_question(browser, pages):
    """jactus-strategy as a student of a class works it: the pick-up panel asked for the
    prediction's dice and for four 4s and a 2, the six seats measured once both guesses are
    typed (then another seed), the seats panel with the best reply, the exercises (one a
    named mistake, two right with the student's own keys), up to the exit question; no
    cell run by hand."""
    from janus_widgets.analysis.exercises import jactus_strategy
    mine = jactus_strategy.for_student("ada")
    with class_page(browser, pages, "3e", "jactus-strategy", "ada") as page:
        body = page.inner_text("body")
        assert mine.q1.question in body and "scored the most rounds" not in body
        # section 1: the table waits to be asked (predict first), then 1 1 1 2 3
        assert "Press Show the chances" in body
        page.locator("button", has_text="Show the chances").click()
        page.wait_for_selector("text=★ r11", timeout=60_000)
        labelled(page, "text", "Dice:").locator("input").fill("44442")
        page.locator("button", has_text="Show the chances").click()
        page.wait_for_selector("text=★ r2", timeout=60_000)
        # section 3: the six seats, once both guesses are typed; then seed 8
        gate = page.locator(".janus-predict").first
        boxes = gate.locator("input[type=text]")
        boxes.nth(0).fill("E")
        boxes.nth(0).press("Tab")
        boxes.nth(1).fill("no, too close")
        boxes.nth(1).press("Tab")
        show = gate.locator("button", has_text="Show the result")
        eventually(lambda: show.is_enabled())
        show.click()
        page.wait_for_selector("text=scored the most rounds", timeout=180_000)
        seats = page.locator(".janus-seed-run").first
        measured = seats.inner_text()
        seats.locator("input[type=number]").fill("8")
        seats.locator("input[type=number]").press("Tab")
        seats.locator("button", has_text="Run").click()
        eventually(lambda: seats.inner_text() != measured
                   and "scored the most rounds" in seats.inner_text(), timeout=180)
        # any players and ways of playing: the best reply to best-next
        labelled(page, "dropdown", "The others:").locator("select").select_option(
            label="best-next")
        labelled(page, "dropdown", "Seat A:").locator("select").select_option(
            label="best reply to the others")
        page.wait_for_selector("text=best-reply-2", timeout=180_000)
        # the exercises with ada's numbers
        mistake = mine.q1.mistakes[0]
        said = answer(page, 0, str(mistake.resolve()), "common mistake")
        assert mistake.why[:30] in said
        answer(page, 1, str(mine.q2.answer), "Right")
        answer(page, 2, f"{float(mine.q3.answer):.4g}", "Right")
        assert "Exit question" in page.inner_text("body")
        assert widget_errors(page) == []


def test_what_can_i_know_from_the_top_to_the_exit_question(browser, pages):
    """what-can-i-know as a student of a class works it: the guess and its reason typed
    before the deals are measured (the two counts are nowhere on the page before), another
    seed, the two-suns guess before the engine's panel, the real game's panel for another
    card, the exercises with the student's own deck (one counted by cards, a named
    mistake; the others right as a fraction, a decimal and a percentage), up to the exit
    question; no cell run by hand."""
    mine = exercise_sets(student="ada")["what-can-i-know"]
    with class_page(browser, pages, "3f", "what-can-i-know", "ada") as page:
        body = page.inner_text("body")
        assert mine.double.question in body
        assert "The two red lines" not in body and "Seed 1: you saw a sun" not in body
        gate = page.locator(".janus-predict").nth(0)
        show = gate.locator("button", has_text="Show the result")
        assert show.is_disabled()
        boxes = gate.locator("input[type=text]")
        boxes.nth(0).fill("1/4")
        boxes.nth(0).press("Tab")
        assert show.is_disabled()                         # the reason too
        boxes.nth(1).fill("one of the four sun cards")
        boxes.nth(1).press("Tab")
        eventually(lambda: show.is_enabled())
        show.click()
        page.wait_for_selector("text=Seed 1: you saw a sun in", timeout=60_000)
        assert "The two red lines" in page.inner_text("body")
        deals = page.locator(".janus-seed-run").first
        deals.locator("input[type=number]").fill("2")
        deals.locator("input[type=number]").press("Tab")
        deals.locator("button", has_text="Run").click()
        page.wait_for_selector("text=Seed 2: you saw a sun in", timeout=60_000)
        assert "Seed 1: you saw" not in page.inner_text("body")
        # two suns in view: the guess first, then the engine's panel and the count
        assert "double in 6 of the 6 + 3 × 4 = 18 ways" not in page.inner_text("body")
        suns = page.locator(".janus-predict").nth(1)
        suns.locator("input[type=text]").fill("less likely")
        suns.locator("input[type=text]").press("Tab")
        suns.locator("button", has_text="Show the result").click()
        page.wait_for_selector("text=double in 6 of the 6 + 3 × 4 = 18 ways", timeout=60_000)
        # the real game: seat A's panel for C's first card
        panel = labelled(page, "dropdown", "Card:")
        shown = panel.locator("xpath=..").inner_html()
        panel.locator("select").select_option("C1")
        eventually(lambda: panel.locator("xpath=..").inner_html() != shown, timeout=60)
        # the exercises, in the student's own deck
        mistake = mine.double.mistakes[0]
        said = answer(page, 1, str(mistake.resolve()), "Not quite")
        assert "counts cards, not sides" in said
        answer(page, 0, str(mine.sides.answer), "Right")
        answer(page, 1, str(mine.double.answer), "Right")
        answer(page, 4, f"{float(mine.trio.answer):.3g}", "Right")
        two_suns = getattr(mine, "two-suns")
        answer(page, 5, f"{float(two_suns.answer) * 100:.3g}%", "Right")
        assert "Exit question" in page.inner_text("body")
        assert cut_labels(page, "body") == []            # every button and menu in full
        assert widget_errors(page) == []


def test_jinns_counting_from_the_top_to_the_exit_question(browser, pages):
    """jinns-counting as a student of a class works it: the moves listed, the guess typed
    before the random rings are laid (the exact count's reasoning hidden until then),
    another seed, the alliance's table, the exercises with the student's own set and
    position (one a named mistake, three right), up to the exit question; no cell run
    by hand."""
    mine = exercise_sets(student="ada")["jinns-counting"]
    with class_page(browser, pages, "3g", "jinns-counting", "ada") as page:
        body = page.inner_text("body")
        assert mine.q1.question in body and "B2R1" in body
        assert "Why 32 × the chance" not in body and "Simulated average" not in body
        gate = page.locator(".janus-predict").first
        show = gate.locator("button", has_text="Show the result")
        assert show.is_disabled()
        gate.locator("input[type=text]").fill("3")
        gate.locator("input[type=text]").press("Tab")
        eventually(lambda: show.is_enabled())
        show.click()
        page.wait_for_selector("text=Simulated average over 1,500 rings", timeout=60_000)
        assert "Why 32 × the chance" in page.inner_text("body")
        rings = page.locator(".janus-seed-run").first
        measured = rings.inner_text()
        rings.locator("input[type=number]").fill("2")
        rings.locator("input[type=number]").press("Tab")
        rings.locator("button", has_text="Run").click()
        eventually(lambda: rings.inner_text() != measured
                   and "Simulated average over 1,500 rings" in rings.inner_text(), timeout=60)
        # section 4: the alliance games, shared by the class
        page.wait_for_selector("text=C's share, random placement minus runs", timeout=120_000)
        # the exercises with ada's numbers and position
        mistake = mine.q2.mistakes[0]
        said = answer(page, 1, str(mistake.resolve()), "Not quite")
        assert mistake.why[:30] in said
        answer(page, 0, str(mine.q1.answer), "Right")
        answer(page, 3, f"{float(mine.q4.answer):.3g}", "Right")
        answer(page, 5, str(mine.q6.answer), "Right")
        assert "Exit question" in page.inner_text("body")
        assert cut_labels(page, "body") == []            # every button and menu in full
        assert widget_errors(page) == []


def test_game_design_lab_from_the_top_to_the_exit_question(browser, pages):
    """game-design-lab as a student of a class works it at 1366×768: the worked examples'
    tables (one line a row) and plots, the questions (one a named mistake, three right),
    the lab set as question 5 says and run, its table's paired difference typed as the
    answer (the key is what the lab shows), up to the exit question; no cell run by hand."""
    import re

    mine = exercise_sets(student="ada")["game-design-lab"]
    with class_page(browser, pages, "3h", "game-design-lab", "ada") as page:
        page.set_viewport_size({"width": 1366, "height": 768})
        page.wait_for_load_state("load", timeout=300_000)
        body = page.inner_text("body")
        assert "import janus_widgets" not in body and mine.q1.question in body
        assert page.locator("table.janus-table").count() >= 3
        assert page.locator(".jp-OutputArea-output img").count() >= 2
        heights = page.eval_on_selector_all(
            "table.janus-table tr:not(:first-child)",
            "rows => rows.map(r => r.getBoundingClientRect().height)")
        assert heights and max(heights) < 2 * min(heights), heights
        mistake = mine.q1.mistakes[1]
        said = answer(page, 0, str(mistake.resolve()), "Not quite")
        assert mistake.why[:30] in said
        answer(page, 0, str(mine.q1.answer), "Right")
        answer(page, 1, str(mine.q2.answer), "Right")
        answer(page, 3, f"{float(mine.q4.answer):.3g}", "Right")
        # question 5: the lab as the question says
        settings = mine.q5.params
        assert f"{settings['games']} games, seed {settings['seed']}" in mine.q5.question
        labelled(page, "dropdown", "change").locator("select").select_option(
            label="distance (JI-9)")
        page.locator("select").filter(
            has=page.locator("option", has_text="pawns moving (height)")).select_option(
            label="pawns moving (height)")
        readout = labelled(page, "slider", "games").locator(".widget-readout")
        readout.fill(str(settings["games"]))
        readout.press("Enter")
        seed = labelled(page, "text", "seed").locator("input")
        seed.fill(str(settings["seed"]))
        seed.press("Tab")
        page.locator("button", has_text="Run").last.click()
        page.locator(".jupyter-widgets .janus-flaws").nth(1).wait_for(timeout=180_000)
        table = page.locator(".jupyter-widgets table.janus-table")
        assert table.count() == 1 and "distance=height" in table.inner_text()
        row = table.locator("tr").filter(has_text=settings["metric"]).first
        shown = row.locator("td").last.inner_text()
        value = float(re.match(r"\s*([−+-]?[\d.]+)", shown).group(1).replace("−", "-"))
        assert abs(value - float(mine.q5.answer)) < 0.05, (shown, mine.q5.answer)
        answer(page, 4, f"{value:.1f}", "Right")
        assert "Exit question" in page.inner_text("body")
        assert widget_errors(page) == []

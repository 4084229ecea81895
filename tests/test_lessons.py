"""Lesson editions, worksheets and the exercises per student (issue 17, items 3–5 and 7)."""

from __future__ import annotations

import html
import json
from fractions import Fraction
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")

from janus_widgets.__main__ import main  # noqa: E402
from janus_widgets.analysis import lessons  # noqa: E402
from janus_widgets.analysis.checking import (exercise_sets,  # noqa: E402
                                             read_answer, significant_figures)
from janus_widgets.analysis.exercises import jactus_odds, roman_dice  # noqa: E402

v4 = nbformat.v4


def lesson_folder(tmp_path: Path) -> Path:
    """A folder with one lesson (roman-dice: it has exercises) and one non-lesson."""
    folder = tmp_path / "src"
    folder.mkdir()
    nb = v4.new_notebook(metadata={"janus_widgets": {"lesson": {
        "game": None, "minutes": 40, "level": "ages 14-16"}}})
    nb.cells = [
        v4.new_markdown_cell("# Roman dice\n\nLearning goals: …"),
        v4.new_code_cell("STUDENT_ID = None  # set per student by the editions",
                         metadata={"tags": ["parameters"]}),
        v4.new_markdown_cell("Teacher: the answer is 3/32.", metadata={"tags": ["teacher"]}),
        v4.new_code_cell("x = 1", outputs=[v4.new_output("stream", text="3/32\n")],
                         execution_count=4),
        v4.new_code_cell("print(ex.q1.solution())", metadata={"tags": ["answer"]}),
    ]
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {}}
    nbformat.write(nb, folder / "roman-dice.ipynb")
    nbformat.write(v4.new_notebook(cells=[v4.new_markdown_cell("# Tour")]),
                   folder / "tour.ipynb")
    (folder / "voila.json").write_text("{}")
    return folder


def test_the_student_edition_leaves_out_teacher_cells_answers_and_outputs(tmp_path):
    src = lesson_folder(tmp_path)
    written = lessons.build_editions("student", tmp_path / "out", folder=src)
    assert [p.name for p in written] == ["roman-dice.ipynb"]        # the tour is no lesson
    nb = nbformat.read(written[0], as_version=4)
    text = json.dumps(nb)
    assert "3/32" not in text and "solution()" not in text
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code")
    assert "widgets" not in nb.metadata
    assert nb.metadata["janus_widgets"]["edition"] == "student"
    assert (tmp_path / "out" / "voila.json").exists()
    assert "Roman dice" in (tmp_path / "out" / "README.md").read_text()


def test_the_teacher_edition_keeps_everything_and_takes_a_student_id(tmp_path):
    src = lesson_folder(tmp_path)
    [path] = lessons.build_editions("teacher", tmp_path / "out", folder=src, student="ada")
    nb = nbformat.read(path, as_version=4)
    tags = [t for c in nb.cells for t in c.metadata.get("tags", [])]
    assert {"teacher", "answer", "parameters"} <= set(tags)
    assert "STUDENT_ID = 'ada'" in nb.cells[1].source
    assert nb.metadata["janus_widgets"]["student"] == "ada"


@pytest.mark.parametrize("bad", ["", "  ", "a b", "x;import os", 7])
def test_a_bad_student_id_is_refused_and_nothing_is_written(tmp_path, bad):
    src = lesson_folder(tmp_path)
    with pytest.raises(ValueError, match="student id"):
        lessons.build_editions("student", tmp_path / "out", folder=src, student=bad)
    assert not (tmp_path / "out" / "roman-dice.ipynb").exists()


def test_the_command_line_builds_editions_and_reports_errors(tmp_path, capsys):
    src = lesson_folder(tmp_path)
    assert main(["lessons", "--edition", "student", "--out", str(tmp_path / "s"),
                 "--source", str(src)]) == 0
    assert "1 lessons, student edition" in capsys.readouterr().out
    assert main(["lessons", "--edition", "student", "--out", str(tmp_path / "s"),
                 "--source", str(tmp_path / "nowhere")]) == 2
    assert "no notebooks folder" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["lessons", "--edition", "pupil", "--out", str(tmp_path / "s")])


def answers_of(exercise_set) -> list[str]:
    return [form for forms in lessons.answer_texts(exercise_set).values() for form in forms]


def test_a_worksheet_holds_no_answer_and_the_key_holds_every_answer(tmp_path, capsys):
    src = lesson_folder(tmp_path)
    sheet, key = tmp_path / "sheet.html", tmp_path / "key.html"
    assert main(["worksheet", "roman-dice", "--out", str(sheet), "--source", str(src)]) == 0
    assert main(["worksheet", "roman-dice", "--out", str(key), "--answers",
                 "--source", str(src)]) == 0
    sheet_text, key_text = sheet.read_text(), key.read_text()
    for text in (sheet_text, key_text):     # on a phone at its own width, not zoomed out
        assert "<meta name='viewport' content='width=device-width, initial-scale=1'>" in text
    for exercise in roman_dice:
        assert exercise.question in sheet_text and exercise.question in key_text
        assert exercise.explanation in key_text and exercise.explanation not in sheet_text
    # the whole numbers (216 throws) are in the questions' wording too: fractions only
    for form in answers_of(roman_dice):
        if "/" in form:
            assert form not in sheet_text, form
            assert form in key_text
    assert main(["worksheet", "roman-dice", "--out", str(tmp_path / "x.txt"),
                 "--source", str(src)]) == 2
    assert "ending in .pdf" in capsys.readouterr().err
    assert main(["worksheet", "nothing", "--out", str(sheet), "--source", str(src)]) == 2
    assert "there is no lesson 'nothing'" in capsys.readouterr().err


def test_a_students_worksheet_has_their_numbers(tmp_path):
    src = lesson_folder(tmp_path)
    mine = lessons.worksheet_html("roman-dice", answers=True, student="ada", folder=src)
    theirs = lessons.worksheet_html("roman-dice", answers=True, student="bo", folder=src)
    assert "ada" in mine and "bo" in theirs
    assert roman_dice.for_student("ada").q4.question in mine
    assert roman_dice.for_student("ada").q4.question != roman_dice.for_student("bo").q4.question


def test_the_worksheet_prints_to_pdf(tmp_path):
    src = lesson_folder(tmp_path)
    files = lessons.write_worksheet("roman-dice", tmp_path / "w.html", pdf=True, folder=src)
    assert files[1].suffix == ".pdf" and files[1].read_bytes()[:5] == b"%PDF-"


# --- exercises per student ---------------------------------------------------------------
def test_every_lesson_stem_maps_to_its_exercise_set():
    sets = exercise_sets()
    assert {"jactus-odds", "jactus-strategy", "roman-dice", "what-can-i-know"} <= set(sets)
    assert all(s.student is None and len(s) for s in sets.values())


def test_each_student_gets_numbers_the_checker_accepts_for_them_only():
    ada, bo = exercise_sets("ada"), exercise_sets("bo")
    assert exercise_sets("ada")["roman-dice"].q4.answer == ada["roman-dice"].q4.answer
    for stem, lesson_set in exercise_sets().items():
        assert lesson_set.varies, stem
        mine, theirs = ada[stem], bo[stem]
        # answers judged by value: bo's check accepts ada's answer when it lies within the
        # tolerance of bo's; the numbers differ where it does not
        differ = [e.key for e in mine if not getattr(theirs, e.key).accepts(e.answer)]
        assert differ, f"{stem}: ada and bo have the same numbers"
        for key in differ:
            assert getattr(mine, key).check(getattr(mine, key).answer)
            assert not getattr(theirs, key).check(getattr(mine, key).answer)
        # a student's numbers are never the class's (so the class's page is no key)
        assert any(e.answer != getattr(lesson_set, e.key).answer for e in mine)


def test_every_students_exercises_compute_and_explain_their_mistakes():
    for who in ("ada", "bo", "cy", "17", "x@school.org"):
        for stem, lesson_set in exercise_sets(who).items():
            for exercise in lesson_set:
                right = exercise.answer
                assert exercise.check(right), (stem, exercise.key)
                for mistake in exercise.mistakes:
                    assert mistake.resolve() != right, (who, stem, exercise.key)



def test_solving_jactus_gives_every_exercise_numbers_of_its_own():
    """Issue 18's lesson: every exercise's question changes with the student (never the
    class's numbers), students differ from one another, and a student's answer is
    accepted for them only where their numbers differ."""
    from janus_widgets.analysis.solving_lesson import solving_jactus
    students = [solving_jactus.for_student(f"s{i}") for i in range(12)]
    for exercise in solving_jactus:
        asked = {getattr(s, exercise.key).question for s in students}
        assert exercise.question not in asked, exercise.key
        assert len(asked) >= 3, exercise.key
        answers = {getattr(s, exercise.key).answer for s in students}
        assert len(answers) >= 2, exercise.key
    for student in students:
        for exercise in student:
            theirs = getattr(solving_jactus, exercise.key)
            if theirs.answer != exercise.answer:
                assert not exercise.check(f"{float(theirs.answer):.4g}"), exercise.key


@pytest.mark.parametrize("spoil", [True, False])
def test_solving_jactus_solver_questions_differ_to_three_figures(spoil):
    """Issue 35 item 4: exercises 4 and 5 draw from the solver's questions, each with a
    value of its own to three significant figures (B's payoff at the position, or after
    the pick-up it names), none within three figures of the class's nor near a known
    mistake; a sample of them is played to from the start through the rules."""
    from janus_widgets.analysis.solve import cached_solution
    from janus_widgets.analysis.solving_lesson import (CLASS_QUESTIONS, NO_SPOIL_QUESTIONS,
                                                       SOLVER_QUESTIONS, _question_key,
                                                       exercise_position, reach,
                                                       solving_jactus)
    questions = SOLVER_QUESTIONS if spoil else NO_SPOIL_QUESTIONS
    assert len(questions) >= 150
    sol = cached_solution(None if spoil else {"spoil": False})
    key = _question_key(CLASS_QUESTIONS[spoil], spoil)
    exercise = solving_jactus.q4 if spoil else solving_jactus.q5
    assert exercise.answer == key
    shown = []
    for dice, holdings, pick in questions:
        state = exercise_position(dice, holdings, spoil=spoil)
        best = sol.value_for(state, 1)
        value = sol.value_for(state.play(pick), 1) if pick else best
        shown.append(f"{value:.3g}")
        assert abs(value - float(key)) > 5e-4 * max(value, float(key)), (dice, holdings, pick)
        for mistake in (0.5, 1 / 6 if spoil else 1 / 1296, 1 - value) + ((best,) if pick else ()):
            assert abs(value - mistake) > 1e-3 * value or mistake == value, (dice, pick, mistake)
    assert len(set(shown)) == len(shown)
    for dice, holdings, _ in questions[::25]:
        assert reach(dice, holdings, spoil=spoil).raw == \
            exercise_position(dice, holdings, spoil=spoil).raw


def test_solving_jactus_solver_questions_are_what_the_solution_gives():
    """The tables were made by solver_questions(); made again over a few dice, every
    question it gives is one of the table's where the table has that value."""
    from janus_widgets.analysis.solving_lesson import SOLVER_QUESTIONS, solver_questions
    table = {q for q in SOLVER_QUESTIONS}
    again = solver_questions(True, dice=[d for d, _, _ in SOLVER_QUESTIONS[:3]])
    assert again and len(again) == len(set(again))
    assert table & set(again)


# --- the checker (item 7) -------------------------------------------------------------
@pytest.mark.parametrize("text, figures", [
    ("0.046", 2), ("0.0460", 3), ("0.04603", 4), ("4.6%", 2), ("4.60 %", 3), ("11.09", 4),
    ("1,5", 2), ("2e-3", 1), ("0.000772", 3), ("1/6", None), ("12", None), ("abc", None)])
def test_significant_figures_are_counted_as_written(text, figures):
    assert significant_figures(text) == figures


def test_the_same_value_gets_the_same_verdict_whatever_its_form():
    """Issue 35 item 10: answers are judged by value. 0.0460 typed as a float is 0.046 (the
    float lost its zero); it, "0.046", "4.6%" and "4.60%" are all 0.046, within 3
    significant figures of 0.046 03…, so all are right."""
    q4 = jactus_odds.q4                            # 0.046 03…, asked to 3 figures
    assert 0.046 < q4.answer < 0.0461
    for answer in (0.0460, "0.0460", "0.046", "4.6%", "4.60%", "4.6 %", 0.04603,
                   "46/1000", "23/500"):
        assert q4.check(answer), answer
    for answer in (0.047, "4.7%", "47/1000", "0.0455"):
        assert not q4.check(answer), answer


def test_a_fraction_a_decimal_and_a_percentage_of_one_value_agree():
    from janus_widgets.analysis.solving_lesson import solving_jactus
    q5 = solving_jactus.q5                         # 0.499 98…: not exactly 1/2
    assert q5.answer != Fraction(1, 2) and abs(q5.answer - Fraction(1, 2)) < Fraction(1, 10**4)
    verdicts = {a: bool(q5.check(a)) for a in ("1/2", "0.50", "0.500", "50%", "50.0%", 0.5,
                                               "1 in 2", "2/4")}
    assert all(verdicts.values()), verdicts
    wrong = {a: bool(q5.check(a)) for a in ("0.51", "51%", "51/100", "0.49")}
    assert not any(wrong.values()), wrong


def test_an_exact_key_accepts_its_fraction_and_its_rounded_decimal_in_every_form():
    for lesson in exercise_sets().values():
        for exercise in lesson:
            key = exercise.answer
            forms = [key, f"{key.numerator}/{key.denominator}",
                     f"{2 * key.numerator}/{2 * key.denominator}"]
            if not exercise.count:
                rounded = float(f"{float(key):.4g}")
                forms += [rounded, f"{float(key):.4g}", f"{100 * float(key):.4g}%"]
            for form in forms:
                assert exercise.check(form), (lesson.name, exercise.key, form)


def test_a_count_is_right_only_when_exact():
    from janus_widgets.analysis.jinns_lesson import JINNS_LESSON
    counts = [e for e in JINNS_LESSON if e.count]
    assert counts
    for exercise in counts:
        assert exercise.check(str(exercise.answer.numerator))
        assert not exercise.check(str(exercise.answer.numerator + 1))


@pytest.mark.parametrize("text", ["1:1296", "1 : 1296", "1 in 1296", "1 in 1,296"])
def test_odds_written_with_a_colon_or_in_are_read(text):
    assert read_answer(text) == (Fraction(1, 1296), True)
    assert jactus_odds.q1.check(text)


# --- the Janus and Jinns lessons' numbers, checked by hand -------------------------------
def test_janus_expected_values_agree_with_a_count_by_hand_and_with_simulation():
    from janus_widgets.analysis import janus_lesson as jl
    from janus_widgets.games.janus.components import standard_tiles
    tiles = standard_tiles()
    # From a1 only up, right and up-right stay on the board (JB-8): a tile allows one
    # move per such direction of its rose; a falling-diagonal head allows none.
    on_board = {(1, 0), (0, 1), (1, 1)}
    by_hand = [len(on_board & set(t.directions)) for t in tiles]
    assert list(jl.moves_by_tile("a1")) == by_hand
    assert jl.expected_moves("a1") == Fraction(sum(by_hand), 100)
    assert jl.stuck_chance("a1") == Fraction(by_hand.count(0), 100) == Fraction(1, 50)
    # the other reading of JB-16 costs more: every field of the square entered pays
    assert jl.expected_tolls("c2", "c3", toll_fields="entered") > jl.expected_tolls("c2", "c3")
    measured = jl.simulate_first_moves(3000, seed=11)
    assert abs(measured["moves"] - float(jl.expected_moves("a1"))) < 0.1
    assert abs(measured["heads"] - float(jl.expected_heads_in_reach("a1"))) < 0.05
    assert jl.simulate_first_moves(50, seed=3) == jl.simulate_first_moves(50, seed=3)


def test_jinns_counts_agree_with_counting_by_hand():
    import math
    from janus_widgets.analysis import jinns_lesson as jl
    # four strengths in sequence, at most two of each: 4^4 − 4·C(4,3)·3 − 4 (JI-4)
    assert jl.first_run_ways() == 4 ** 4 - 4 * math.comb(4, 3) * 3 - 4 == 204
    assert jl.second_run_ways("Y1Y2Y3Y4") == 24 and jl.second_run_ways("Y1Y1Y2Y2") == 6
    assert jl.second_run_ways("Y1Y2Y3Y3") == 12
    for k in (1, 2, 3, 4):                                   # JI-11: colours all different
        assert jl.piles_of(k) == math.perm(4, k) * 4 ** k
    assert jl.neighbour_chance("colour") == Fraction(7, 31)
    assert jl.neighbour_chance("kind") == Fraction(1, 31)
    assert jl.neighbour_chance("neither") == Fraction(31 - 7 - 7 + 1, 31)
    assert jl.expected_neighbour_pairs("colour") == 32 * Fraction(7, 31)
    assert abs(jl.simulate_neighbour_pairs(1500, seed=2) - 224 / 31) < 0.25
    with pytest.raises(ValueError, match="1 to 4"):
        jl.piles_of(5)


def test_the_jinns_counting_question_reads_the_position_drawn():
    from janus_widgets.analysis import jinns_lesson as jl
    assert jl.JINNS_LESSON.q6.answer == len(jl.pile_moves(jl.counting_position())) == 8
    for who in ("ada", "bo"):
        state, kind = jl.counting_question(who)
        assert state is jl.counting_position(who) and len(jl.pile_moves(state)) >= 4
        q6 = jl.JINNS_LESSON.for_student(who).q6
        assert jl.MOVE_KINDS[kind] in q6.question
        assert q6.answer == jl.move_share(state, kind) and 0 < q6.answer < 1
        assert state.current_player == 0
    assert jl.counting_position("ada").raw == jl.counting_position("ada").raw


def test_jinns_q6_says_a_landing_reached_both_ways_is_one_move_and_names_the_literal_count():
    """Issue 35 item 6 (JI-12): the question itself says that a landing reached both ways
    counts once, and counting it twice is a named mistake with its reason, for the class
    (10 against the key 8) and for a student whose position has such a landing."""
    from janus_widgets.analysis import jinns_lesson as jl
    q6 = jl.JINNS_LESSON.q6
    assert "JI-12" in q6.question and "once" in q6.question
    verdict = q6.check("10")
    assert not verdict and "both ways" in verdict.message and "JI-12" in verdict.message
    assert "colour rule" not in verdict.message
    assert jl.literal_move_count(jl.counting_position()) == 10
    for who in ("s06", "s25", "ada"):
        assert "JI-12" in jl.JINNS_LESSON.for_student(who).q6.question
    # a student's question (the share of A's moves of a kind) on a position with such a
    # landing: the class's, red moves: 4 of 8, and counted literally 6 of 10
    ex = jl._share_exercise(jl.counting_position(), "red", "someone")
    assert ex.answer == Fraction(1, 2) and "JI-12" in ex.question and "once" in ex.question
    verdict = ex.check("3/5")
    assert not verdict and "both ways" in verdict.message and "JI-12" in verdict.message


def test_roman_dice_exercise_4_is_never_the_venus_the_lesson_shows():
    """The lesson's panels start on Winkelman's 1 : 4 : 4 : 1, so its Venus is on every
    page: exercise 4 uses other chances, for the class and for every student."""
    from janus_widgets.analysis import roman_dice as rd
    shown = rd.tali(weights=rd.KNUCKLEBONE_STUDY_WEIGHTS).odds()["venus"]
    class_answer = roman_dice.q4.answer
    assert class_answer != shown
    for who in [f"s{i}" for i in range(300)]:
        answer = roman_dice.for_student(who).q4.answer
        assert answer not in (shown, class_answer), who


def test_the_jinns_worksheet_draws_the_position_its_counting_question_reads():
    from janus_widgets.analysis import jinns_lesson as jl
    from janus_widgets.games.jinns.draw import draw
    for student in (None, "s1"):
        sheet = lessons.worksheet_html("jinns-counting", student=student)
        picture = jl.counting_position_svg(student)
        assert sheet.count("<svg") == 1 and picture in sheet
        # the picture comes before the question that says "drawn above"
        assert sheet.index(picture) < sheet.index("In the position drawn above")


# --- issue 26: the teacher's static key, nbgrader, Voila pages, printable sheets ----------
NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
ROOT = NOTEBOOKS.parent


def real(name: str):
    return nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)


def test_the_teacher_edition_carries_its_answers_already_run(tmp_path):
    exercises = exercise_sets("ada")["roman-dice"]
    nb = lessons.edition(real("roman-dice"), "teacher", student="ada", exercises=exercises)
    keys = [c for c in nb.cells if "answer" in c.metadata.get("tags", [])
            and c.cell_type == "code"]
    assert keys and all(c.outputs for c in keys)
    shown = keys[0].outputs[0]["data"]["text/html"]
    for ex in exercises:
        assert html.escape(ex.question) in shown and lessons._show(ex.answer) in shown
    # and the command line writes it so
    lessons.build_editions("teacher", tmp_path, student="ada")
    written = nbformat.read(tmp_path / "roman-dice.ipynb", as_version=4)
    assert any(c.get("outputs") for c in written.cells
               if "answer" in c.metadata.get("tags", []))


def test_nbgrader_source_notebooks_carry_one_graded_check_per_exercise(tmp_path, capsys):
    assert main(["lessons", "--format", "nbgrader", "--out", str(tmp_path / "src")]) == 0
    assert "nbgrader source notebooks" in capsys.readouterr().out
    for name, exercises in exercise_sets().items():
        nb = nbformat.read(tmp_path / "src" / f"{name}.ipynb", as_version=4)
        nbformat.validate(nb)
        assert not [c for c in nb.cells if {"teacher", "answer"} & set(c.metadata.get("tags", []))]
        graded = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")]
        solutions = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("solution")]
        assert len(graded) == len(solutions) == len(exercises), name
        ids = [c.metadata["nbgrader"]["grade_id"] for c in nb.cells if "nbgrader" in c.metadata]
        assert len(ids) == len(set(ids)), name
        for ex, test, solution in zip(exercises, graded, solutions):
            assert test.metadata["nbgrader"]["points"] == ex.points
            # the check is a hidden test: nbgrader leaves it out of the students' notebook
            visible, _, hidden = test.source.partition("### BEGIN HIDDEN TESTS")
            assert f"grade_exercise({name!r}, {ex.key!r}, answer_" in hidden
            assert hidden.rstrip().endswith("### END HIDDEN TESTS")
            assert "grade" not in visible.replace("graded", "")
            assert "### BEGIN SOLUTION" in solution.source and "### END SOLUTION" in solution.source
        assert not any(".widget()" in c.source for c in nb.cells if c.cell_type == "code")
        # outside the hidden tests no cell loads the exercises, whose answers they hold
        shown = "\n".join(c.source.split("### BEGIN HIDDEN TESTS")[0] for c in nb.cells)
        assert "EXERCISES" not in shown and "exercise_sets" not in shown, name
    assert main(["lessons", "--out", str(tmp_path / "x")]) == 2
    assert "--edition student" in capsys.readouterr().err


def test_a_lesson_page_for_voila_leaves_out_teacher_notes_and_answers():
    page, _ = lessons.LessonPagePreprocessor().preprocess(real("janus-tolls"), {})
    text = "\n".join(c.source for c in page.cells)
    assert "Teacher notes" not in text and "AnswerKey" not in text
    assert not [c for c in page.cells if {"teacher", "answer"} & set(c.metadata.get("tags", []))]
    # the teacher's edition, and a teacher who asks, see everything; other notebooks pass
    teacher = lessons.edition(real("janus-tolls"), "teacher")
    kept, _ = lessons.LessonPagePreprocessor().preprocess(teacher, {})
    assert any("Teacher notes" in c.source for c in kept.cells)
    asked, _ = lessons.LessonPagePreprocessor(edition="teacher").preprocess(real("janus-tolls"), {})
    assert any("Teacher notes" in c.source for c in asked.cells)
    other = real("jactus")
    assert len(lessons.LessonPagePreprocessor().preprocess(other, {})[0].cells) == len(
        real("jactus").cells)
    with pytest.raises(ValueError, match="student or teacher"):
        lessons.LessonPagePreprocessor(edition="pupil").preprocess(real("janus-tolls"), {})


@pytest.mark.parametrize("where", ["voila.json", "notebooks/voila.json"])
def test_voila_is_configured_to_show_a_lessons_student_page(where):
    config = json.loads((ROOT / where).read_text())
    from janus_widgets.classroom_cmd import PREPROCESSORS
    # the student's edition of a lesson, then the cell order of a page made ready in
    # advance: the same as the classroom command's Voila
    assert config["VoilaExporter"]["preprocessors"] == list(PREPROCESSORS) == [
        "janus_widgets.analysis.lessons.LessonPagePreprocessor",
        "janus_widgets.analysis.preheat.PreheatPreprocessor"]
    assert config["KernelManager"]["client_factory"].endswith("SlicedKernelClient")


def _pdf_size(path: Path) -> tuple[float, float]:
    import re
    box = re.search(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", path.read_bytes())
    return float(box.group(1)), float(box.group(2))


def test_a_worksheet_prints_to_a4_by_default_and_to_letter(tmp_path, capsys):
    a4, letter = tmp_path / "sheet.pdf", tmp_path / "letter.pdf"
    assert main(["worksheet", "jinns-counting", "--out", str(a4), "--student-id", "ada"]) == 0
    assert main(["worksheet", "jinns-counting", "--out", str(letter), "--paper", "letter",
                 "--answers"]) == 0
    assert a4.read_bytes()[:5] == b"%PDF-" and letter.read_bytes()[:5] == b"%PDF-"
    width, height = _pdf_size(a4)
    assert abs(width - 595.3) < 1.5 and abs(height - 841.9) < 1.5      # A4 in points
    width, height = _pdf_size(letter)
    assert abs(width - 612) < 1.5 and abs(height - 792) < 1.5          # Letter
    assert f"wrote {a4}" in capsys.readouterr().out


@pytest.mark.parametrize("name", sorted(exercise_sets()))
def test_every_sheet_is_fit_to_print(name):
    import re
    sheet = lessons.worksheet_html(name, student="ada")
    bare = lessons.worksheet_html(name, student="ada", hints=False)
    key = lessons.worksheet_html(name, answers=True, student="ada")
    exercises = exercise_sets("ada")[name]
    assert "height: 6.5cm" in sheet and "size: A4" in sheet
    assert sheet.count("class='space'") == len(exercises)
    assert "Hint:" in sheet and "Hint:" not in bare
    for ex in exercises:
        if ex.computer:
            assert html.escape(ex.computer) in sheet
        if ex.working is not None:
            assert html.escape(ex.worked()) in key
    for text in (sheet, key):
        visible = re.sub(r"<style>.*?</style>", "", text, flags=re.S)
        words = re.sub(r"<[^>]+>", " ", visible)
        for figure in re.findall(r"<div class='figure'>(.*?)</div>", visible, re.S):
            drawn = re.sub(r"<[^>]+>", " ", figure)         # a print style: no screen words
            assert not re.search(r"(?i:\bclick)|\bPass\b|•", drawn), name
        # no fraction of more than six digits on a page: long ones are printed as decimals
        assert not re.search(r"\d{7,}/\d|\d/\d{7,}", words), name
    for ex in exercises:                         # the key gives the working of each
        assert html.escape(ex.worked()) in key, (name, ex.key)


@pytest.mark.parametrize("name", sorted(exercise_sets()))
def test_no_students_texts_hold_a_fraction_of_seven_digits(name):
    """What a sheet or its key prints of a student's exercise (question, working,
    explanation, hint) holds no fraction of more than six digits: roman-dice's q1 for
    x2 printed 4200/1048576, jactus-odds' q1 for x5 1 − 390700800/1280000000."""
    import re
    stem = name
    for student in ["x2", "x5"] + [f"s{i:02d}" for i in range(1, 13)]:
        for ex in exercise_sets(student)[stem]:
            for text in (ex.question, ex.worked(), ex.explanation or "", ex.hint or ""):
                words = re.sub(r"<[^>]+>", " ", text)
                assert not re.search(r"\d{7,}/\d|\d/\d{7,}", words), (student, ex.key, words)


def test_the_jinns_key_lists_the_moves_it_counts():
    from janus_widgets.analysis import jinns_lesson as jl
    key = lessons.worksheet_html("jinns-counting", answers=True)
    moves = jl.pile_moves(jl.counting_position(None))
    assert len(moves) == exercise_sets()["jinns-counting"].q6.answer
    for move in moves:
        assert str(move) in key


def test_the_docs_say_where_assessed_work_belongs():
    docs = (ROOT / "docs" / "lessons.md").read_text()
    assert "can ask the kernel anything" in docs and "assessed work belongs in Voila" in docs
    assert "voila <lesson>.ipynb" in docs and "--format nbgrader" in docs
    for name in exercise_sets():
        notes = "\n".join(c.source for c in real(name).cells
                          if "teacher" in c.metadata.get("tags", []))
        assert "Assessed work belongs in Voila" in notes, name


# --- nbgrader: each student's own numbers (issue 35 item 5) ------------------------------
def test_the_nbgrader_student_id_is_the_graded_folder_or_the_hub_user(tmp_path, monkeypatch):
    from janus_widgets.analysis.checking import nbgrader_student
    monkeypatch.delenv("JANUS_STUDENT_ID", raising=False)
    graded = tmp_path / "autograded" / "s07" / "lessons"
    graded.mkdir(parents=True)
    monkeypatch.chdir(graded)
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    monkeypatch.setenv("JUPYTERHUB_USER", "someone-else")
    assert nbgrader_student() == "s07"            # autograde: whose submission it is
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RuntimeError, match="JANUS_STUDENT_ID"):
        nbgrader_student()                        # not nbgrader's layout: say so
    monkeypatch.delenv("NBGRADER_EXECUTION")
    assert nbgrader_student() == "someone-else"   # the student's own server
    monkeypatch.setenv("JANUS_STUDENT_ID", "s12")
    assert nbgrader_student() == "s12"


def test_an_nbgrader_notebook_shows_and_grades_the_running_students_numbers():
    from janus_widgets.analysis.checking import exercise_question, grade_exercise
    source = lessons.nbgrader_notebook(lessons._demo_notebook(), roman_dice)
    params = next(c for c in source.cells if "parameters" in c.metadata.get("tags", []))
    assert "STUDENT_ID = nbgrader_student()" in params.source
    tests = [c for c in source.cells if c.metadata.get("nbgrader", {}).get("grade")]
    assert all("student=nbgrader_student()" in c.source for c in tests)
    mine, class_ = roman_dice.for_student("s07"), roman_dice
    shown = str(exercise_question("roman-dice", "q2", "s07"))
    assert mine.q2.question in shown and class_.q2.question not in shown
    assert str(mine.q2.answer) not in shown
    assert grade_exercise("roman-dice", "q2", str(mine.q2.answer), student="s07")
    with pytest.raises(AssertionError):
        grade_exercise("roman-dice", "q2", str(class_.q2.answer), student="s07")

"""Every lesson's key, worked out a second way (issue 26).

Each exercise carries the numbers it was made from (``Exercise.params``). For the class
and for 20 students, every answer is derived again here by another route than the
package's: counting every outcome by brute force, a closed formula, an own Markov chain
by dynamic programming, an own move generator, or (the game-design tournament) the games
played again one variant at a time. Then: numbers really differ per student, hints give
no answer away, mistakes are distinct, and the student editions import no function that
returns an answer.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import math
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement, permutations, product
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")

from janus_widgets.analysis import lessons as lesson_tools  # noqa: E402
from janus_widgets.analysis.checking import exercise_sets  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
STUDENTS = [None] + [f"k{i}" for i in range(20)]        # the class and 20 students
SIXTH = Fraction(1, 6)


# --- dice, by brute force or a formula ----------------------------------------------------
def all_throws(n: int, faces: tuple[int, ...] = (1, 2, 3, 4, 5, 6)):
    """Every ordered result of ``n`` dice with its weight (1 each, of faces**n)."""
    return product(faces, repeat=n)


def share(n: int, test, faces: tuple[int, ...] = (1, 2, 3, 4, 5, 6)) -> Fraction:
    hits = sum(1 for t in all_throws(n, faces) if test(t))
    return Fraction(hits, len(faces) ** n)


@lru_cache(maxsize=None)
def group_after(kept: int, thrown: tuple[int, ...], targets: frozenset[int]) -> int:
    """The largest group of a target face after a throw, ``kept`` dice of face 0 (a target)
    staying: face 0 stands for the kept face, 1-5 for the others (targets among them)."""
    counts = Counter(thrown)
    best = kept + counts[0] if kept else 0
    for face, c in counts.items():
        if face in targets and (kept == 0 or face != 0):
            best = max(best, c)
    if kept == 0:
        best = max((c for f, c in counts.items() if f in targets), default=0)
    return best


def transitions(targets: frozenset[int]) -> dict[int, dict[int, Fraction]]:
    """Own chain for "keep the largest group of a target face": state = the size of the
    group kept (0 = nothing), counted over every result of the dice thrown."""
    out = {}
    for k in range(5):
        row: Counter = Counter()
        for thrown in product(range(6), repeat=5 - k):
            row[group_after(k, thrown, targets)] += 1
        total = 6 ** (5 - k)
        out[k] = {j: Fraction(c, total) for j, c in row.items()}
    return out


ANY = frozenset(range(6))


def within_by_dp(n: int, start: int = 0, targets: frozenset[int] = ANY) -> Fraction:
    rows = transitions(targets)
    dist = {start: Fraction(1)}
    scored = Fraction(0)
    for _ in range(n):
        nxt: Counter = Counter()
        for k, p in dist.items():
            for j, q in rows[k].items():
                if j == 5:
                    scored += p * q
                else:
                    nxt[j] += p * q
        dist = dict(nxt)
    return scored


def expected_by_elimination(start: int, targets: frozenset[int] = ANY) -> Fraction:
    """E_k = 1 + sum_j P(k -> j) E_j over the states 0..4, solved by own Gaussian
    elimination in fractions."""
    rows = transitions(targets)
    states = list(range(5))
    a = [[Fraction(int(i == j)) - rows[i].get(j, Fraction(0)) for j in states] + [Fraction(1)]
         for i in states]
    for col in range(5):
        pivot = next(r for r in range(col, 5) if a[r][col] != 0)
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(5):
            if r != col and a[r][col]:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
    return a[start][5] / a[start][start]


def venus_wait(missing: int) -> Fraction:
    """Keeping every six: the wait is the longest of ``missing`` geometric waits (p = 1/6),
    E[max] by inclusion and exclusion."""
    q = Fraction(5, 6)
    return sum((Fraction((-1) ** (j + 1) * math.comb(missing, j)) / (1 - q ** j)
                for j in range(1, missing + 1)), Fraction(0))


def best_next_chance(dice: tuple[int, ...]) -> Fraction:
    """The next player's best chance of five alike with one throw: every pick-up tried."""
    best = Fraction(0)
    for mask in range(1, 32):
        kept = [d for i, d in enumerate(dice) if not mask >> i & 1]
        thrown = 5 - len(kept)
        if len(set(kept)) > 1:
            continue
        chance = SIXTH ** thrown if kept else Fraction(6, 6 ** 5)
        best = max(best, chance)
    return best


def leaves_by_brute_force(dice: tuple[int, ...], picked: tuple[int, ...]) -> Fraction:
    kept = list(dice)
    for d in picked:
        kept.remove(d)
    total = Fraction(0)
    for thrown in all_throws(len(picked)):
        after = tuple(kept) + thrown
        if len(set(after)) == 1:
            continue                                    # you scored: the round is over
        total += best_next_chance(after) / 6 ** len(picked)
    return total


def jactus_odds_key(ex) -> Fraction:
    p = ex.params
    if ex.key == "q1":
        n = p["dice"]
        return share(n, lambda t: len(set(t)) == 1) if n <= 6 else Fraction(6, 6 ** n)
    if ex.key == "q2":
        t, event = p["thrown"], p["event"]
        test = {"all": lambda d: all(v == 4 for v in d), "at least one": lambda d: 4 in d,
                "none": lambda d: 4 not in d}[event]
        return share(t, test)
    if ex.key == "q3":
        return (1 - Fraction(5, 6) ** p["rounds"]) ** 5
    if ex.key == "q4":
        return within_by_dp(p["within"])
    if ex.key == "q5":
        start, target = p["start"], p["target"]
        if target == "five-sixes":
            return venus_wait(5 - start.count(6))
        targets = ANY if target == "five-of-a-kind" else frozenset({0, 1, 2, 3})
        if start is None:
            return expected_by_elimination(0, targets)
        groups = Counter(d for d in start if target == "five-of-a-kind" or 2 <= d <= 5)
        return expected_by_elimination(max(groups.values(), default=0), targets)
    raise KeyError(ex.key)


def jactus_strategy_key(ex) -> Fraction:
    p = ex.params
    if ex.key == "q1":
        return leaves_by_brute_force(p["dice"], p["picked"])
    if ex.key == "q2":
        return 1 - Fraction(5, 6) ** p["tries"]
    if ex.key == "q3":
        players, seat = p["players"], p["seat"]
        return Fraction(5, 6) ** seat * SIXTH / (1 - Fraction(5, 6) ** players)
    raise KeyError(ex.key)


def roman_key(ex) -> Fraction:
    p = ex.params
    tali = (1, 3, 4, 6)
    if ex.key == "q1":
        wanted = Counter(p["counts"])
        return share(p["tali"], lambda t: Counter(t) == wanted, tali)
    if ex.key == "q2":
        return share(p["tali"], lambda t: t.count(1) == p["dogs"], tali)
    if ex.key == "q3":
        n, floor = p["tesserae"], p["floor"]
        return share(n, lambda t: min(t) >= floor) if n <= 6 else \
            Fraction(7 - floor, 6) ** n
    if ex.key == "q4":
        weights = dict(zip(tali, (Fraction(t, p["scale"]) for t in p["tenths"])))
        assert sum(weights.values()) == 1
        return sum((math.prod(weights[f] for f in t) for t in all_throws(4, tali)
                    if len(set(t)) == 4), Fraction(0))
    if ex.key == "q5":
        n, total = p["dice"], p["total"]
        hit = (lambda t: sum(t) >= total) if p["at_least"] else (lambda t: sum(t) == total)
        return 1 / share(n, hit)
    raise KeyError(ex.key)


# --- the Janus cards, from an own deck ------------------------------------------------------
NAMES = ["sun", "moon", "heart", "crown", "key", "fish", "leaf", "bell", "tree", "ring",
         "wave", "star", "ship", "bird", "drum", "lamp"]


def deck(n: int) -> list[tuple[str, str]]:
    names = NAMES + [f"own{i}" for i in range(max(0, n - len(NAMES)))]
    return list(combinations_with_replacement(names[:n], 2))


def lying(cards):
    return [(up, down) for a, b in cards for up, down in ((a, b), (b, a))]


def behind(cards, shown):
    downs = [down for up, down in lying(cards) if up == shown]
    return {k: Fraction(v, len(downs)) for k, v in Counter(downs).items()}


def cards_key(ex) -> Fraction:
    n = ex.params["symbols"]
    cards = deck(n)
    if ex.key == "sides":
        return Fraction(sum(1 for up, _ in lying(cards) if up == "sun"))
    if ex.key == "double":
        return behind(cards, "sun").get("sun", Fraction(0))
    if ex.key == "moon":
        return behind(cards, "sun").get("moon", Fraction(0))
    if ex.key == "face":
        return Fraction(sum(1 for up, _ in lying(cards) if up == "sun"), 2 * len(cards))
    if ex.key == "trio":
        gone = {("sun", "sun"), ("sun", "moon"), ("sun", "heart"), ("key", "fish")}
        return behind([c for c in cards if c not in gone], "sun").get("crown", Fraction(0))
    if ex.key == "two-suns":
        left = [c for c in cards if c != ("key", "fish")]
        ways = Counter()
        suns = [(i, down) for i, card in enumerate(left) for up, down in lying([card])
                if up == "sun"]                   # every card side that can show a sun
        for i, b_down in suns:
            for j, _ in suns:
                if i != j:
                    ways[b_down] += 1
        return Fraction(ways["sun"], sum(ways.values()))
    raise KeyError(ex.key)


# --- Janus: every tile by geometry ------------------------------------------------------------
def janus_geometry():
    from janus_widgets.games.janus.components import parse_field, square_fields, square_of
    from janus_widgets.games.janus.components import standard_tiles
    return standard_tiles(), parse_field, square_fields, square_of


def janus_moves(field: str, other: str, tile) -> list[tuple[int, int, list[int]]]:
    """A's moves from ``field`` with ``tile`` under it: (row, col, path fields), never off
    the board (JB-8) nor onto B's column (JB-9)."""
    _, parse_field, _, _ = janus_geometry()
    r, c = divmod(parse_field(field), 10)
    blocked = parse_field(other)
    out = []
    for dr, dc in tile.directions:
        rr, cc = r + dr * tile.distance, c + dc * tile.distance
        if 0 <= rr < 10 and 0 <= cc < 10 and rr * 10 + cc != blocked:
            path = [(r + dr * s) * 10 + c + dc * s for s in range(1, tile.distance + 1)]
            out.append((rr, cc, path))
    return out


def janus_key(ex) -> Fraction:
    tiles, parse_field, square_fields, square_of = janus_geometry()
    p = ex.params
    if ex.key == "q1":
        return Fraction(sum(len(janus_moves(p["field"], p["other"], t)) for t in tiles), 100)
    if ex.key == "q2":
        return Fraction(sum(1 for t in tiles
                            if len(janus_moves(p["field"], p["other"], t)) == p["moves"]), 100)
    if ex.key in ("q3", "q4"):
        square = set(square_fields(square_of(parse_field(p["owned"]))))
        chosen = [t for t in tiles if t.lines == p["rose"] and not t.head]
        total = Fraction(0)
        for t in chosen:
            moves = janus_moves(p["field"], p["other"], t)
            if not moves:
                continue
            if ex.key == "q3":
                paid = [1 if path[-1] in square else 0 for _, _, path in moves]
                total += Fraction(sum(1 for x in paid if x), len(moves))
            else:
                paid = [sum(1 for f in path if f in square) for _, _, path in moves]
                total += Fraction(sum(paid), len(moves))
        return total / len(chosen)
    if ex.key == "q5":
        heads = sum(1 for t in tiles if t.head)
        return sum((Fraction(len(janus_moves(p["field"], p["other"], t)) * (heads - t.head),
                             99) for t in tiles), Fraction(0)) / 100
    raise KeyError(ex.key)


# --- Jinns: formulas and an own move generator ---------------------------------------------
def jinns_moves_by_the_rules(student) -> int:
    from janus_widgets.analysis.jinns_lesson import counting_position
    from janus_widgets.games.jinns.rules import (CELLS, PAWN_COLOUR, PAWN_STRENGTH, RED,
                                                 YELLOW, pile_pawns)
    state = counting_position(student)
    board = state.raw[2]
    piles = {c: pile_pawns(board[c]) for c in range(CELLS) if board[c]}
    landings = set()
    for cell, pawns in piles.items():
        if PAWN_COLOUR[pawns[-1]] not in (YELLOW, RED):
            continue
        n = PAWN_STRENGTH[pawns[-1]]
        others = [c for c in piles if c != cell]
        if len(others) < n:                          # JI-10: never round past the start
            continue
        for depth in range(1, len(pawns) + 1):
            moving = {PAWN_COLOUR[p] for p in pawns[-depth:]}
            for step in (1, -1):
                c, seen = cell, 0
                while seen < n:
                    c = (c + step) % CELLS
                    if c in piles and c != cell:
                        seen += 1
                if moving & {PAWN_COLOUR[p] for p in piles[c]}:
                    continue                         # JI-11
                landings.add((cell, depth, c))       # JI-12: one move per landing
    return len(landings)


def jinns_key(ex) -> Fraction:
    p = ex.params
    if ex.key == "q1":
        s, c = p["strengths"], p["copies"]
        total = 0                                  # sequences of 4 over s strengths, <= c each
        for counts in product(range(c + 1), repeat=s):
            if sum(counts) == 4:
                total += math.factorial(4) // math.prod(math.factorial(k) for k in counts)
        return Fraction(total)
    if ex.key == "q2":
        left = Counter(p["eight"]) - Counter(p["first"][1::2])
        return Fraction(math.factorial(4) // math.prod(math.factorial(k)
                                                      for k in left.values()))
    if ex.key == "q3":
        h = p["height"]
        return Fraction({"any": math.perm(4, h) * 4 ** h,
                         "different": math.perm(4, h) * math.perm(4, h),
                         "yellow-top": math.perm(3, h - 1) * 4 ** h,
                         "no-red": math.perm(3, h) * 4 ** h}[p["rule"]])
    if ex.key in ("q4", "q5"):
        jinns = [colour + str(s) for colour in "YBRG" for s in (1, 1, 2, 2, 3, 3, 4, 4)]
        test = {"colour": lambda a, b: a[0] == b[0],
                "kind": lambda a, b: a == b,
                "neither": lambda a, b: a[0] != b[0] and a[1] != b[1],
                "gap1": lambda a, b: abs(int(a[1]) - int(b[1])) == 1,
                "sum5": lambda a, b: int(a[1]) + int(b[1]) == 5,
                "yellow": lambda a, b: a[0] == b[0] == "Y",
                "colour-or-strength": lambda a, b: a[0] == b[0] or a[1] == b[1]}[p["kind"]]
        pairs = [(a, b) for i, a in enumerate(jinns) for j, b in enumerate(jinns) if i != j]
        chance = Fraction(sum(1 for a, b in pairs if test(a, b)), len(pairs))
        return chance if ex.key == "q4" else 32 * chance
    if ex.key == "q6":
        return Fraction(jinns_moves_by_the_rules(p["student"]))
    raise KeyError(ex.key)


# --- the design lab ----------------------------------------------------------------------
@lru_cache(maxsize=None)
def paired_turns(seed: int) -> float:
    """The 200 games of question 5 played again, one variant at a time, and the mean of the
    differences in turns paired by seed."""
    from janus_widgets import games
    from janus_widgets.analysis.tournament import run_tournament
    jinns = games.get("jinns")
    rule = run_tournament("jinns", jinns.variant(), bots=["greedy"], games=200, seed=seed,
                          progress=False)
    height = run_tournament("jinns", jinns.variant(distance="height"), bots=["greedy"],
                            games=200, seed=seed, progress=False)
    by_seed = {row["seed"]: row["decisions"] for row in rule.rows}
    diffs = [row["decisions"] - by_seed[row["seed"]] for row in height.rows]
    return sum(diffs) / len(diffs)


def design_key(ex) -> Fraction | float:
    p = ex.params
    if ex.key == "q1":
        return Fraction(p["a"], p["a"] + p["b"]) - Fraction(1, 2)
    if ex.key == "q2":
        rates = sorted(p["wins"])
        return 1 - Fraction(rates[-1] - rates[0], sum(rates))
    if ex.key == "q3":
        from janus_widgets.analysis.metrics import wilson
        k = p["narrower"]
        low, high = wilson(100, 200)
        low2, high2 = wilson(100 * k * k, 200 * k * k)
        assert abs((high - low) / (high2 - low2) - k) < 0.05 * k   # the law holds here
        return Fraction(k * k)
    if ex.key == "q4":
        return (1 - Fraction(5, 6) ** p["throws"]) ** (5 - p["kept"])
    if ex.key == "q5":
        return paired_turns(p["seed"])
    raise KeyError(ex.key)


# --- solving Jactus ----------------------------------------------------------------------
def solving_key(ex) -> Fraction | float:
    p = ex.params
    if ex.key == "q1":
        # A wins on throw 1, 3, 5, …: a geometric series summed by hand
        n = p["faces"]
        hit_a, hit_b = Fraction(n - p["need_a"] + 1, n), Fraction(n - p["need_b"] + 1, n)
        miss_both = (1 - hit_a) * (1 - hit_b)
        return hit_a / (1 - miss_both)
    if ex.key == "q2":
        # own exact sweeps of value iteration, from 0 and from 1, until nothing changes
        def gamble(dice, faces, need):
            return 1 - share(dice, lambda t: max(t) < need, tuple(range(1, faces + 1)))

        win_a, win_b = gamble(*p["gamble_a"]), gamble(*p["gamble_b"])
        settled = []
        for start in (Fraction(0), Fraction(1)):
            a = b = start
            while (a, b) != (max(win_a, b), min(1 - win_b, a)):
                a, b = max(win_a, b), min(1 - win_b, a)
            settled.append(a)
        return settled[1] - settled[0]
    if ex.key == "q3":
        # every result of the thrown dice, by brute force
        kept, wanted, faces = p["kept"], p["patterns"], p["faces"]
        names = {(1, 1, 1, 1, 1): "all different", (2, 1, 1, 1): "a pair",
                 (2, 2, 1): "two pairs", (3, 1, 1): "three of a kind", (3, 2): "a full house",
                 (4, 1): "four of a kind"}
        thrown = 5 - len(kept)
        hits = share(thrown, lambda t: names[tuple(sorted(Counter(kept + t).values(),
                                                          reverse=True))] in wanted,
                     tuple(range(1, faces + 1)))
        return hits
    if ex.key in ("q4", "q5"):
        # One step of backward induction by hand: B's value is the best, over B's legal
        # pick-ups read off the engine, of the average over the throw's outcomes of the
        # solution's values there (or that average for the pick-up the question names).
        from janus_widgets.analysis.solve import cached_solution
        from janus_widgets.analysis.solving_lesson import exercise_position
        sol = cached_solution(None if p["spoil"] else {"spoil": False})
        state = exercise_position(p["dice"], p["holdings"], spoil=p["spoil"])
        values = {}
        for move in state.legal_moves():
            thrown = state.play(move)
            values[str(move)] = sum(float(q) * sol.value_for(thrown.play(o), 1)
                                    for o, q in thrown.chance_outcomes())
        return values[p["pick"]] if p["pick"] else max(values.values())
    raise KeyError(ex.key)


KEYS = {"jactus-odds": jactus_odds_key, "jactus-strategy": jactus_strategy_key,
        "roman-dice": roman_key, "what-can-i-know": cards_key, "janus-tolls": janus_key,
        "jinns-counting": jinns_key, "game-design-lab": design_key,
        "solving-jactus": solving_key}
#: Answers from a simulation or a floating-point solve agree to this (absolute).
CLOSE = {("game-design-lab", "q5"): 1e-9, ("solving-jactus", "q4"): 1e-7,
         ("solving-jactus", "q5"): 1e-7}


def test_every_lesson_has_a_second_route():
    assert set(KEYS) == set(exercise_sets())


@pytest.mark.parametrize("stem", sorted(KEYS))
def test_every_key_is_right_for_the_class_and_twenty_students(stem):
    for student in STUDENTS:
        for ex in exercise_sets(student)[stem]:
            again = KEYS[stem](ex)
            if (stem, ex.key) in CLOSE:
                assert abs(float(again) - float(ex.answer)) <= CLOSE[stem, ex.key] + \
                    1e-9 * abs(float(again)), (student, ex.key, again, ex.answer)
            else:
                assert again == ex.answer, (student, stem, ex.key, again, ex.answer)
            assert ex.check(ex.answer), (student, stem, ex.key)


# --- numbers that really differ ------------------------------------------------------------
def test_the_numbers_differ_from_student_to_student():
    """At least 90% of the exercises give at least 5 different answers over 30 students; the
    others are marked shared on purpose (for a class discussion)."""
    ids = [f"d{i}" for i in range(30)]
    sets = [exercise_sets(i) for i in ids]
    few, total = [], 0
    for stem in exercise_sets():
        for ex in exercise_sets()[stem]:
            total += 1
            answers = {getattr(s[stem], ex.key).answer for s in sets}
            if len(answers) < 5:
                few.append((stem, ex.key, len(answers)))
                assert ex.shared, f"{stem} {ex.key}: {len(answers)} answers and not shared"
            else:
                assert not ex.shared, f"{stem} {ex.key} is marked shared but differs"
    assert len(few) <= total // 10, few


# --- questions, hints and mistakes --------------------------------------------------------
def _numbers(text: str) -> set[str]:
    import re
    return set(re.findall(r"(?<![\d/.])\d+(?:/\d+)?(?![\d/])", text))


@pytest.mark.parametrize("student", [None, "k1", "k2", "k3"])
def test_hints_help_without_giving_an_answer_and_mistakes_are_distinct(student):
    for stem, lesson in exercise_sets(student).items():
        exercises = list(lesson)
        for ex in exercises:
            # no hint shows an answer of the lesson, in any form, whole numbers included
            # (unless the question itself gives that number)
            for other in exercises:
                value = other.answer
                forms = {f"{value.numerator}/{value.denominator}"} if value.denominator > 1 \
                    else {str(value.numerator)}
                if value.denominator > 1:
                    forms |= {f"{float(value):.3g}", f"{float(value):.4g}"}
                leaked = forms & _numbers(ex.hint) - _numbers(ex.question)
                if value.denominator == 1 and value.numerator < 10:
                    leaked = set()                # 2, 4, 6: counting words of any hint
                assert not leaked, (student, stem, ex.key, "hint shows", other.key, leaked)
            assert lesson_tools.answers_shown(ex.hint, exercises) == [], (stem, ex.key)
            values = [m.resolve() for m in ex.mistakes]
            assert len(values) == len(set(values)), (student, stem, ex.key, values)
            assert ex.answer not in values, (student, stem, ex.key)
            for m in ex.mistakes:
                assert not ex.check(m.resolve()), (student, stem, ex.key, m.why)
                assert m.why in ex.check(m.resolve()).message


def test_each_card_question_names_its_deck():
    for student in (None, "k1", "k2"):
        lesson = exercise_sets(student)["what-can-i-know"]
        for ex in lesson:
            n = ex.params["symbols"]        # a student's questions each have a deck
            assert f"{n} symbols" in ex.question, (student, ex.key, ex.question)


def test_janus_questions_say_where_b_column_stands():
    for student in (None, "k1", "k2", "k3"):
        for ex in exercise_sets(student)["janus-tolls"]:
            if "other" in ex.params:
                assert ex.params["other"] in ex.question or ex.key == "q4", (student, ex.key)
    key = exercise_sets()["janus-tolls"].q2
    assert key.params == {"field": "e5", "other": "j10", "moves": 0}
    assert key.answer == Fraction(1, 25) and "JB-9" in key.explanation
    assert "B's column" in key.check(0).message            # 0 forgets the column in the way


# --- the student editions hand over no answer function ------------------------------------
def _answer_functions(exercises) -> set:
    """The package functions an exercise's answer is computed by (its compute calls them)."""
    found = set()
    for ex in exercises:
        if ex.computer:
            continue                       # answered with the computer by design
        code, env = ex.compute.__code__, ex.compute.__globals__
        codes = [code] + [c for c in code.co_consts if hasattr(c, "co_names")]
        for c in codes:
            for name in c.co_names:
                obj = env.get(name)
                if callable(obj) and getattr(obj, "__module__", "").startswith("janus_widgets"):
                    found.add(obj)
                if hasattr(obj, "__name__") and type(obj).__name__ == "module":
                    for attr in c.co_names:
                        sub = getattr(obj, attr, None)
                        if callable(sub):
                            found.add(sub)
    return found


def _code_trees(nb) -> list:
    """The syntax tree of each code cell of a notebook, IPython's magics and shell lines
    left out."""
    trees = []
    for cell in nb.cells:
        if cell.cell_type == "code":
            trees.append(ast.parse("\n".join(line for line in cell.source.splitlines()
                                             if not line.lstrip().startswith(("%", "!")))))
    return trees


def _imported(nb) -> set:
    """Every package function a notebook's code cells import or reach as module.name."""
    out = set()
    modules = {}             # one map for the notebook: a module imported in one cell is
    trees = _code_trees(nb)  # used in the cells after it (``rd.tali(...)``)
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("janus"):
                module = importlib.import_module(node.module)
                for alias in node.names:
                    obj = getattr(module, alias.name, None)
                    if obj is None:
                        obj = importlib.import_module(f"{node.module}.{alias.name}")
                    if type(obj).__name__ == "module":
                        modules[alias.asname or alias.name] = obj
                    elif callable(obj):
                        out.add(obj)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("janus"):
                        modules[alias.asname or alias.name] = importlib.import_module(
                            alias.name)
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id in modules:
                obj = getattr(modules[node.value.id], node.attr, None)
                if callable(obj):
                    out.add(obj)
    return out


@pytest.mark.parametrize("stem", sorted(KEYS))
def test_the_student_edition_imports_no_function_that_returns_an_answer(stem):
    nb = lesson_tools.edition(nbformat.read(NOTEBOOKS / f"{stem}.ipynb", as_version=4),
                              "student")
    answers = set()
    for student in (None, "k1", "k2"):
        answers |= _answer_functions(exercise_sets(student)[stem])
    handed = _imported(nb) & answers
    assert not handed, f"{stem} imports {sorted(f.__name__ for f in handed)}"


def test_the_check_finds_an_imported_answer_function():
    """The check above can fail: the Janus lesson of issue 17 imported expected_moves."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "from janus_widgets.analysis.janus_lesson import expected_moves, moves_by_tile")])
    answers = _answer_functions(exercise_sets()["janus-tolls"])
    assert {f.__name__ for f in _imported(nb) & answers} == {"expected_moves"}


def test_the_check_follows_a_module_from_cell_to_cell():
    """A module imported in one cell and used in a later one (``rd.tali(...)``) is seen:
    the module map is the notebook's, not each cell's."""
    from janus_widgets.analysis import roman_dice
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("from janus_widgets.analysis import roman_dice as rd"),
        nbformat.v4.new_code_cell("x = 1"),
        nbformat.v4.new_code_cell('rd.tali(weights=(2, 3, 3, 2)).odds()["venus"]')])
    assert roman_dice.tali in _imported(nb)


# --- the functions a page defines hand over no answer either -------------------------------
def _page_functions(nb) -> dict:
    """The functions a notebook's code cells define at the top level, defined for real: the
    cells' imports and ``def``s are run (nothing else: no widget, no simulation)."""
    namespace: dict = {}
    for tree in _code_trees(nb):
        tree.body = [node for node in tree.body
                     if isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef))]
        exec(compile(tree, "<lesson cell>", "exec"), namespace)
    return {name: obj for name, obj in namespace.items()
            if inspect.isfunction(obj) and obj.__module__ is None and name != "__builtins__"}


@pytest.mark.parametrize("stem", sorted(KEYS))
def test_no_function_the_student_page_defines_returns_an_answer(stem):
    """A helper the page defines for its worked examples (an average by hand) must not be
    the answer of a question when called with that question's numbers: the Janus lesson of
    issue 26 defined ``average_moves(field)``, which is exercise 1's answer."""
    nb = lesson_tools.edition(nbformat.read(NOTEBOOKS / f"{stem}.ipynb", as_version=4),
                              "student")
    functions = _page_functions(nb)
    for student in (None, "k1", "k2"):
        for ex in exercise_sets(student)[stem]:
            if ex.computer:
                continue
            for name, fn in functions.items():
                needed = [p.name for p in inspect.signature(fn).parameters.values()
                          if p.default is inspect.Parameter.empty
                          and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
                if not needed or not set(needed) <= set(ex.params):
                    continue
                try:
                    got = fn(**{k: ex.params[k] for k in needed})
                except Exception:                  # noqa: BLE001 - it answers nothing
                    continue
                values = got if isinstance(got, tuple) else (got,)
                assert ex.answer not in [v for v in values if isinstance(v, (int, Fraction))], \
                    f"{stem}: {name}({', '.join(needed)}) returns {ex.key}'s answer ({student})"


def test_the_page_function_check_finds_an_average_by_hand():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "from fractions import Fraction\n"
        "from janus_widgets.analysis.janus_lesson import moves_by_tile\n\n\n"
        "def average_moves(field):\n"
        "    return Fraction(sum(moves_by_tile(field)), 100)\n\n"
        "average_moves('a6')\n")])
    fn = _page_functions(nb)["average_moves"]
    assert fn("a1") == exercise_sets()["janus-tolls"].q1.answer


# --- the panels on the page answer no paper question ---------------------------------------
def _chain_panel_values() -> set:
    """What the chain panel of jactus-odds (section 2) shows from the opening throw for
    every target and policy: the chance within n throws for n = 2 … 40 (one throw is
    section 1's counting, which the page asks to do before looking anything up) and the
    expected number of throws."""
    from janus_widgets.analysis import jactus_odds as jo
    values = set()
    for target in jo.TARGETS:
        for policy in jo.POLICIES:
            chain = jo.chain(target, policy)
            values |= {chain.within(n) for n in range(2, 41)}
            expected = chain.expected()
            if isinstance(expected, Fraction):
                values.add(expected)
    return values


def test_no_paper_question_of_jactus_odds_is_read_off_the_chain_panel():
    """A question whose answer the chain panel shows (a chance within several throws, an
    expected wait) is marked as the panel's: a student's exercise 3 (the Venus within
    several throws, keeping the sixes) is, the class's (one throw) is counting."""
    shown = _chain_panel_values()
    for student in STUDENTS:
        for ex in exercise_sets(student)["jactus-odds"]:
            if not ex.computer:
                assert ex.answer not in shown, (student, ex.key, ex.question)
    assert not exercise_sets()["jactus-odds"].q3.computer          # one throw: counting
    assert "chain panel" in exercise_sets("k1")["jactus-odds"].q3.computer


@pytest.mark.parametrize("stem", ["jactus-odds", "jactus-strategy"])
def test_no_paper_question_is_read_off_the_pick_up_panel(stem):
    """The pick-up panel (section 1 of both Jactus lessons) shows, for any five dice typed
    in, each pick-up's "you miss, then the next player scores" and margin: a question about
    such dice and a pick-up whose answer stands there is marked as the panel's."""
    from janus_widgets.analysis import jactus_odds as jo
    for student in STUDENTS:
        for ex in exercise_sets(student)[stem]:
            dice = ex.params.get("dice")
            if ex.computer or not isinstance(dice, tuple):
                continue
            shown = {v for p in jo.pickups(dice) for v in (p.leaves, p.margin)}
            assert ex.answer not in shown, (student, stem, ex.key, ex.question)


# --- no student's answer stands in the lesson's text ---------------------------------------
@pytest.mark.parametrize("stem", sorted(KEYS))
def test_no_students_answer_stands_in_the_lessons_text(stem):
    """The prose of the student edition shows none of thirty students' answers (the executed
    pages, outputs and widgets included, are checked in test_lesson_conventions)."""
    nb = lesson_tools.edition(nbformat.read(NOTEBOOKS / f"{stem}.ipynb", as_version=4),
                              "student")
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    for i in range(30):
        lesson = exercise_sets(f"d{i}")[stem]
        assert lesson_tools.answers_shown(text, lesson) == [], (stem, f"d{i}")


@pytest.mark.parametrize("stem", sorted(KEYS))
def test_an_exercise_the_lesson_names_exists(stem):
    """Where a lesson's text names an exercise (``EXERCISES.q1.answer`` in the teacher
    notes), the name is one of its exercises: the card lesson's keys are ``sides``,
    ``double``, …, so ``EXERCISES.q1`` there would raise AttributeError."""
    import re
    nb = nbformat.read(NOTEBOOKS / f"{stem}.ipynb", as_version=4)
    keys = {ex.key for ex in exercise_sets()[stem]}
    named = set()
    for cell in nb.cells:
        named |= set(re.findall(r"\b(?:EXERCISES|exercises)\.([A-Za-z_][\w-]*)\.", cell.source))
    assert named <= keys, (stem, sorted(named - keys))

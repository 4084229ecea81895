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
import html
import importlib
import inspect
import math
from collections import Counter
from fractions import Fraction
from functools import cache, lru_cache
from itertools import combinations_with_replacement, permutations, product
from pathlib import Path

import numpy as np
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


def result_sums(n: int, values: tuple[int, ...]) -> np.ndarray:
    """For every ordered result of ``n`` dice (``len(values) ** n`` of them, in the order
    of :func:`all_throws`), the sum of the values its faces carry (``values[i]`` for the
    i-th face): the results counted one by one as :func:`share` does, in numpy."""
    sums = np.zeros(1, dtype=np.int32)
    for _ in range(n):
        sums = np.add.outer(sums, np.asarray(values, dtype=np.int32)).ravel()
    return sums


def share_of_sums(n: int, values: tuple[int, ...], wanted: int) -> Fraction:
    """The share of the ordered results of ``n`` dice whose values add up to ``wanted``."""
    return Fraction(int(np.count_nonzero(result_sums(n, values) == wanted)),
                    len(values) ** n)


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


@cache
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


def best_next_chance(dice: tuple[int, ...], faces: int = 6) -> Fraction:
    """The next player's best chance of all dice alike with one throw: every pick-up
    tried (JA-6: at least one die picked up)."""
    n, best = len(dice), Fraction(0)
    for mask in range(1, 2 ** n):
        kept = [d for i, d in enumerate(dice) if not mask >> i & 1]
        thrown = n - len(kept)
        if len(set(kept)) > 1:
            continue
        chance = Fraction(1, faces) ** thrown if kept else Fraction(faces, faces ** n)
        best = max(best, chance)
    return best


def leaves_by_brute_force(dice: tuple[int, ...], picked: tuple[int, ...],
                          faces: int = 6) -> Fraction:
    kept = list(dice)
    for d in picked:
        kept.remove(d)
    total = Fraction(0)
    for thrown in all_throws(len(picked), tuple(range(1, faces + 1))):
        after = tuple(kept) + thrown
        if len(set(after)) == 1:
            continue                                    # you scored: the round is over
        total += best_next_chance(after, faces) / faces ** len(picked)
    return total


def hits(n: int, faces: int, test) -> Fraction:
    """The chance that the number of ``n`` dice showing the face 1 passes ``test``: by
    brute force when the results are few, else by the binomial formula."""
    if faces ** n <= 20_000:
        return share(n, lambda t: test(t.count(1)), tuple(range(1, faces + 1)))
    p = Fraction(1, faces)
    return sum((math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)
                if test(k)), Fraction(0))


THROWN = {"all": lambda k, m: k == m, "at least one": lambda k, m: k >= 1,
          "none": lambda k, m: k == 0, "exactly one": lambda k, m: k == 1,
          "exactly two": lambda k, m: k == 2}


def state_of(start, target: str) -> int:
    """The group a keep policy keeps from ``start`` (0 for the opening throw)."""
    if start is None:
        return 0
    faces = range(1, 7) if target == "five-of-a-kind" else range(2, 6)
    return max((start.count(f) for f in faces), default=0)


def jactus_odds_key(ex) -> Fraction:
    p = ex.params
    if ex.key == "q1":
        n, f = p["dice"], p["faces"]
        test = {"same": lambda t: len(set(t)) == 1, "different": lambda t: len(set(t)) == n,
                "pair": lambda t: len(set(t)) < n}[p["event"]]
        if f ** n <= 20_000:
            return share(n, test, tuple(range(1, f + 1)))
        alike = Fraction(f, f ** n)
        different = Fraction(math.factorial(f) // math.factorial(f - n), f ** n) \
            if n <= f else Fraction(0)
        return {"same": alike, "different": different, "pair": 1 - different}[p["event"]]
    if ex.key == "q2":
        t, event = p["thrown"], p["event"]
        return hits(t, p["faces"], lambda k: THROWN[event](k, t))
    if ex.key == "q3":
        start = p["start"]
        assert p["missing"] == (5 if start is None else 5 - start.count(6))
        return (1 - Fraction(5, 6) ** p["rounds"]) ** p["missing"]
    if ex.key == "q4":
        targets = ANY if p["target"] == "five-of-a-kind" else frozenset({0, 1, 2, 3})
        return within_by_dp(p["within"], state_of(p["start"], p["target"]), targets)
    if ex.key == "q5" and p.get("kind") == "rethrow":
        n, k = p["dice"], p["k"]
        return 1 / hits(n, p["faces"], (lambda h: h >= k) if p["at_least"] else
                        (lambda h: h == k))
    if ex.key == "q5":
        start, target = p["start"], p["target"]
        if target == "five-sixes":
            return venus_wait(5 if start is None else 5 - start.count(6))
        targets = ANY if target == "five-of-a-kind" else frozenset({0, 1, 2, 3})
        return expected_by_elimination(state_of(start, target), targets)
    raise KeyError(ex.key)


def jactus_strategy_key(ex) -> Fraction:
    p = ex.params
    if ex.key == "q1":
        return leaves_by_brute_force(p["dice"], p["picked"], p["faces"])
    if ex.key == "q2":
        t, miss = p["tries"], Fraction(p["faces"] - 1, p["faces"])
        # every run of t throws of the fifth die, by how many miss before the first hit
        first = [miss ** (k - 1) * (1 - miss) for k in range(1, t + 1)]
        return {"within": sum(first, Fraction(0)), "first": first[-1],
                "missing": 1 - sum(first, Fraction(0))}[p["event"]]
    if ex.key == "q3":
        players, seat, turns = p["players"], p["seat"], p["turns"]
        hit = Fraction(1, p["faces"])
        if turns:               # the seat's first throws, one per lap, added one by one
            return sum(((1 - hit) ** (seat + lap * players) * hit for lap in range(turns)),
                       Fraction(0))
        return (1 - hit) ** seat * hit / (1 - (1 - hit) ** players)
    raise KeyError(ex.key)


def roman_key(ex) -> Fraction:
    p = ex.params
    tali = (1, 3, 4, 6)
    if ex.key == "q1":       # every result of up to 4^10: the faces counted in base n + 1
        n, wanted = p["tali"], Counter(p["counts"])
        return share_of_sums(n, tuple((n + 1) ** i for i in range(4)),
                             sum(wanted[f] * (n + 1) ** i for i, f in enumerate(tali)))
    if ex.key == "q2":                 # every result of up to 4^12: the 1s counted
        return share_of_sums(p["tali"], tuple(int(f == 1) for f in tali), p["dogs"])
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

    def named(t) -> bool:
        """The tiles the question names, read off each tile's own rose and distance."""
        return {"all": True, "no-head": not t.head, "near": t.distance <= 2,
                "middle": 2 <= t.distance <= 4, "far": t.distance >= 3,
                "plus": t.lines == "+", "star": t.lines == "*"}[p.get("tiles", "all")]

    if ex.key == "q1":
        chosen = [t for t in tiles if named(t)]
        return Fraction(sum(len(janus_moves(p["field"], p["other"], t)) for t in chosen),
                        len(chosen))
    if ex.key == "q2":
        chosen = [t for t in tiles if named(t)]
        return Fraction(sum(1 for t in chosen
                            if len(janus_moves(p["field"], p["other"], t)) == p["moves"]),
                        len(chosen))
    if ex.key in ("q3", "q4"):
        square = set(square_fields(square_of(parse_field(p["owned"]))))
        chosen = [t for t in tiles
                  if p["rose"] is None or (t.lines == p["rose"] and not t.head)]
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
def jinns_landings_by_the_rules(student) -> tuple[set, dict]:
    """A's moves in the student's position by an own generator: (cell, depth, landing),
    one per landing (JI-12), and the piles (bottom first)."""
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
    return landings, piles


def jinns_moves_by_the_rules(student) -> int:
    return len(jinns_landings_by_the_rules(student)[0])


def jinns_share_by_the_rules(student, kind: str) -> Fraction:
    from janus_widgets.games.jinns.rules import BLUE, GREEN, PAWN_COLOUR, RED, YELLOW
    landings, piles = jinns_landings_by_the_rules(student)
    test = {"deep": lambda cell, depth, c: depth >= 2,
            "single": lambda cell, depth, c: depth == 1,
            "red": lambda cell, depth, c: PAWN_COLOUR[piles[cell][-1]] == RED,
            "yellow": lambda cell, depth, c: PAWN_COLOUR[piles[cell][-1]] == YELLOW,
            "onto-blue-green": lambda cell, depth, c: PAWN_COLOUR[piles[c][-1]] in (BLUE,
                                                                                  GREEN),
            "onto-one": lambda cell, depth, c: len(piles[c]) == 1,
            "tall": lambda cell, depth, c: len(piles[c]) + depth >= 3}[kind]
    return Fraction(sum(1 for move in landings if test(*move)), len(landings))


def sequences_by_compositions(copies, cells) -> int:
    """Sequences of ``cells`` strengths, strength i at most copies[i] times: over how
    many cells each strength takes, the multinomial coefficient."""
    total = 0
    for counts in product(*(range(c + 1) for c in copies)):
        if sum(counts) == cells:
            total += math.factorial(cells) // math.prod(math.factorial(k) for k in counts)
    return total


def jinns_key(ex) -> Fraction:
    p = ex.params
    if ex.key in ("q1", "q2"):
        if ex.key == "q2":       # the jinns left are the set less the first run's
            assert all(f >= k for f, k in zip(p["full"], p["left"]))
            return Fraction(sequences_by_compositions(p["left"], p["cells"]))
        return Fraction(sequences_by_compositions(p["copies"], p["cells"]))
    if ex.key == "q3":
        c, s, h = p["colours"], p["strengths"], p["height"]
        return Fraction({"any": math.perm(c, h) * s ** h,
                         "different": math.perm(c, h) * math.perm(s, h),
                         "yellow-top": math.perm(c - 1, h - 1) * s ** h,
                         "no-red": math.perm(c - 1, h) * s ** h}[p["rule"]])
    if ex.key in ("q4", "q5"):
        # every jinn of the set by name, every ordered pair of two different ones
        jinns = [(colour, s) for colour in range(p["colours"])
                 for s in range(1, p["strengths"] + 1) for _ in range(p["copies"])]
        assert len(jinns) == p["cells"]
        top = p["strengths"] + 1
        test = {"colour": lambda a, b: a[0] == b[0],
                "kind": lambda a, b: a == b,
                "neither": lambda a, b: a[0] != b[0] and a[1] != b[1],
                "strength": lambda a, b: a[0] != b[0] and a[1] == b[1],
                "gap1": lambda a, b: abs(a[1] - b[1]) == 1,
                "sum": lambda a, b: a[1] + b[1] == top,
                "yellow": lambda a, b: a[0] == b[0] == 0,
                "colour-or-strength": lambda a, b: a[0] == b[0] or a[1] == b[1]}[p["kind"]]
        pairs = [(a, b) for i, a in enumerate(jinns) for j, b in enumerate(jinns) if i != j]
        chance = Fraction(sum(1 for a, b in pairs if test(a, b)), len(pairs))
        return chance if ex.key == "q4" else len(jinns) * chance
    if ex.key == "q6":
        if p["kind"] is None:
            return Fraction(jinns_moves_by_the_rules(p["student"]))
        return jinns_share_by_the_rules(p["student"], p["kind"])
    raise KeyError(ex.key)


# --- the design lab ----------------------------------------------------------------------
@lru_cache(maxsize=None)
def paired_games(seed: int, games: int) -> tuple[list, list]:
    """The games of question 5 played again, one variant at a time (the lab's first
    ``games`` games of that seed): the rows of each, paired by seed."""
    from janus_widgets import games as registry
    from janus_widgets.analysis.tournament import run_tournament
    jinns = registry.get("jinns")
    rule = run_tournament("jinns", jinns.variant(), bots=["greedy"], games=games, seed=seed,
                          progress=False)
    height = run_tournament("jinns", jinns.variant(distance="height"), bots=["greedy"],
                            games=games, seed=seed, progress=False)
    assert [r["seed"] for r in rule.rows] == [r["seed"] for r in height.rows]
    return rule.rows, height.rows


def paired_turns(seed: int, games: int = 200, metric: str = "duration") -> float:
    """The mean over the first ``games`` games of the paired differences of a game's own
    turns, mean branching or score gap (best minus worst)."""
    from janus_widgets.analysis.design_exercises import HEIGHT_STUDY
    rule, height = paired_games(seed, HEIGHT_STUDY["games"])
    per_game = {"duration": lambda r: r["decisions"], "branching_factor": lambda r: r["branching"],
                "score_difference": lambda r: max(r["scores"]) - min(r["scores"])}[metric]
    diffs = [per_game(b) - per_game(a) for a, b in zip(rule[:games], height[:games])]
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
        k, n = p["narrower"], p["games"]
        low, high = wilson(n // 2, n)
        low2, high2 = wilson(n // 2 * k * k, n * k * k)
        assert abs((high - low) / (high2 - low2) - k) < 0.05 * k   # the law holds here
        return Fraction(k * k * (n if p["total"] else 1))
    if ex.key == "q4":
        miss = 1 - Fraction(1, p["faces"])
        return (1 - miss ** p["throws"]) ** (5 - p["kept"])
    if ex.key == "q5":
        return paired_turns(p["seed"], p["games"], p["metric"])
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
    lesson = exercise_sets()[stem]          # only this lesson's sheets are built
    for student in STUDENTS:
        for ex in lesson.for_student(student):
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
    assert key.params == {"field": "e5", "other": "j10", "moves": 0, "tiles": "all"}
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


# --- a question a panel of its page answers says so (issue 35, item 9) --------------------
# Each panel of the three lessons is set as a student would set it for a question's own
# numbers (its dice, its start, its players), through the calls the page's cells make;
# every figure it then shows is collected. A question whose answer is among them must be
# marked as needing the computer (and name the panel): a printed sheet and its --no-hints
# edition then say so, and the page does not pass it off as counting on paper.
@cache
def pickup_panel(targets: tuple[str, ...]) -> frozenset:
    """Every figure the pick-up panel (section 1 of both Jactus lessons) shows for any
    five dice typed in, with each of ``targets`` (jactus-odds has a target menu,
    jactus-strategy aims for five of a kind): you score now, you miss then the next
    player scores, the margin."""
    from janus_widgets.analysis import jactus_odds as jo
    shown = set()
    for dice in combinations_with_replacement(range(1, 7), 5):
        for target in targets:
            try:
                rows = jo.pickups(dice, target)
            except ValueError:
                continue                       # five alike: the panel says so
            shown |= {v for p in rows for v in (p.chance, p.leaves, p.margin)}
    return frozenset(shown)


_CHAIN_FIGURES: dict = {}


def _chain_figures(target: str, policy: str, start) -> frozenset:
    """The chain panel's figures for one target and policy: the chance within n = 1 …
    40 throws (the n slider) and the expected number of throws. A chain depends on the
    start only through what the first throw keeps, so those figures are kept by that."""
    from janus_widgets.analysis import jactus_odds as jo
    kept = () if start is None else tuple(jo.as_policy(policy).kept(start, target))
    if (target, policy, kept) not in _CHAIN_FIGURES:
        chain = jo.chain(target, policy, start=start if kept else None)
        shown, within = set(), Fraction(0)
        for first in chain.distribution(40):
            within += first
            shown.add(within)
        expected = chain.expected()
        if isinstance(expected, Fraction):
            shown.add(expected)
        _CHAIN_FIGURES[target, policy, kept] = frozenset(shown)
    return _CHAIN_FIGURES[target, policy, kept]


def chain_panel(start) -> set:
    """What the chain panel of jactus-odds (section 2) shows with ``start`` typed in (None:
    the opening throw), for every target, policy and n (a chain depends on the start only
    through what the first throw keeps)."""
    from janus_widgets.analysis import jactus_odds as jo
    shown: set = set()
    for target in jo.TARGETS:
        for policy in jo.POLICIES:
            shown |= _chain_figures(target, policy, start)
    return shown


@cache
def seats_panel(players: int) -> frozenset:
    """jactus-strategy's seats panel for ``players`` players (every way of playing for
    seat A, the best reply included, and for the others), its fixed table of section 2
    and the six seats measured in section 3: every exact chance and expected length."""
    from janus_widgets.analysis import jactus_odds as jo
    shown = set()
    for others in jo.POLICIES:
        for seat_a in [*jo.POLICIES, jo.best_reply(players, others)]:
            chain = jo.chain("five-of-a-kind", [seat_a] + [others] * (players - 1))
            shown |= set(chain.seat_chances())
            if isinstance(chain.expected(), Fraction):
                shown.add(chain.expected())
    shown |= set(jo.chain("five-of-a-kind", ["keep-largest"] * 6).seat_chances())
    for policy in ("best-next", "best-margin", jo.best_reply(2, "best-next")):
        shown.add(jo.seat_chances([policy, "best-next"])[0])
    shown |= {r.round_chance for r in jo.round_pickups((1, 1, 1, 2, 3), players=2)}
    return frozenset(shown)


@cache
def tali_panel(weights: tuple[int, int, int, int]) -> frozenset:
    """roman-dice's tali panel with these slider weights (faces 1, 3, 4, 6): the
    chances of one talus, the Venus, the dog and all 35 kinds of throw."""
    from janus_widgets.analysis import roman_dice as rd
    game = rd.tali(weights=dict(zip(rd.TALI_FACES, weights)))
    return frozenset({*game.model.probabilities, *game.odds().values(),
                      *(p for _, p, _ in game.outcomes())})


@cache
def waiting_panel(game: str) -> frozenset:
    """roman-dice's waiting panel for four tali (equal chances or 1 : 4 : 4 : 1) or three
    tesserae: the Venus or the dog, keeping dice or not, n = 1 … 60."""
    from janus_widgets.analysis import roman_dice as rd
    games = ([rd.TALI, rd.tali(weights=rd.KNUCKLEBONE_STUDY_WEIGHTS)] if game == "tali"
             else [rd.TESSERAE])
    shown = set()
    for g in games:
        for throw in ("venus", "dog"):
            for keep in (False, True):
                chain = g.chain(throw, keep)
                shown |= {chain.within(n) for n in range(1, 61)} | {chain.expected()}
    return frozenset(shown)


TALI_SLIDER_MAX = 100          # the tali panel's weight sliders: 0 to 100 each


def panels_showing(stem: str, ex) -> list[str]:
    """The panels of ``stem``'s page that show ``ex``'s answer when set to its numbers."""
    p, found = ex.params, []

    def look(name: str, figures) -> None:
        if ex.answer in figures:
            found.append(name)

    if stem == "jactus-odds":
        faces = p.get("faces", 6)               # no faces named: ordinary dice
        kept = p.get("kept", 5 - p.get("thrown", 0))
        five = {"q1": (p.get("dice"), faces) == (5, 6),
                "q2": (kept + p.get("thrown", 0), faces) == (5, 6),
                "q5": p.get("kind", "chain") == "chain" or (p.get("dice"), faces) == (5, 6)
                }.get(ex.key, True)
        if five:                                   # a question about Jactus's five dice
            look("pick-up panel", pickup_panel(tuple(TARGETS)))
            start = p.get("start")
            if ex.key == "q2":                     # the dice kept and the others typed in
                face = p.get("face", 4)
                start = (face,) * kept + tuple(f for f in range(1, 7)
                                               if f != face)[:p["thrown"]]
            look("chain panel", chain_panel(start))
            if start is not None:
                look("chain panel", chain_panel(None))
    elif stem == "jactus-strategy":
        if p.get("faces", 6) == 6 and len(p.get("dice", (0,) * 5)) == 5:
            look("pick-up panel", pickup_panel(("five-of-a-kind",)))
            look("seats panel", seats_panel(p.get("players", 2)))
    elif stem == "roman-dice":
        if ex.key in ("q1", "q2") and p["tali"] == 4:
            look("tali panel", tali_panel((1, 1, 1, 1)))
            look("waiting panel", waiting_panel("tali"))
        if ex.key == "q4":
            shares = p["tenths"]
            scale = math.gcd(*shares)
            if max(shares) // scale <= TALI_SLIDER_MAX:
                look("tali panel", tali_panel(tuple(x // scale for x in shares)))
        if (ex.key, p.get("tesserae", p.get("dice"))) in (("q3", 3), ("q5", 3)):
            look("waiting panel", waiting_panel("tesserae"))
    return found


TARGETS = ("five-of-a-kind", "five-sixes", "five-ones", "five-2-to-5")
PANEL_LESSONS = ("jactus-odds", "jactus-strategy", "roman-dice")


def _settable(ex) -> bool:
    """Whether ``ex`` asks about dice a panel of its page takes: Jactus's five six-sided
    dice, roman dice's four tali or three tesserae."""
    p = ex.params
    n = p.get("tali") or p.get("tesserae") or p.get("dice")
    return (p.get("faces") == 6 and (n in (5, None) or len(n) == 5
                                      if isinstance(n, tuple) else n in (5, None))
            and p.get("kept", 0) + p.get("thrown", 5) == 5) or \
        ("tali" in p and n == 4) or (("tesserae" in p or "total" in p) and n == 3)


#: The questions whose numbers can be a panel's, by lesson (the others always are, or
#: never are).
SETTABLE = {"jactus-odds": ("q1", "q2"), "jactus-strategy": ("q1", "q2", "q3"),
            "roman-dice": ("q1", "q2", "q3", "q5")}


def _panel_students(stem: str) -> list:
    """The class, 12 students, and for each question the first student (of d0 … d399)
    whose numbers a panel of the page takes."""
    lesson = exercise_sets()[stem]
    chosen, missing = [None] + [f"k{i}" for i in range(12)], set(SETTABLE[stem])
    for i in range(400):
        if not missing:
            break
        found = {ex.key for ex in lesson.for_student(f"d{i}") if _settable(ex)} & missing
        if found:
            missing -= found
            chosen.append(f"d{i}")
    return chosen


@pytest.mark.parametrize("stem", PANEL_LESSONS)
def test_a_question_a_panel_of_its_page_answers_needs_the_computer(stem):
    """The class's jactus-odds q1-q3 (the pick-up panel: pick up all five, or the kept
    dice's partners), roman-dice q1-q3 (the tali panel, its table of all 35 kinds of
    throw, the waiting panel) and a student's question about four tali were marked as
    paper questions (issue 35, item 9): each must say it needs the computer."""
    lesson = exercise_sets()[stem]
    unmarked = []
    for student in _panel_students(stem):
        for ex in lesson.for_student(student):
            shown = panels_showing(stem, ex)
            if shown and not ex.computer:
                unmarked.append((student, ex.key, shown, ex.question))
            if shown and ex.computer:              # and the page says so under it
                heading = ex.widget().children[0].value
                assert "Needs the computer: " + html.escape(ex.computer) in heading
    assert unmarked == []


def test_a_question_marked_for_a_panel_can_be_set_on_it():
    """A question that names a panel can be set on it: roman-dice q4's chances on the
    tali panel's sliders (0 to 100 each), jactus-odds' n on the chain panel (1 to 40)."""
    nb = nbformat.read(NOTEBOOKS / "roman-dice.ipynb", as_version=4)
    assert f"max={TALI_SLIDER_MAX}" in "".join(c.source for c in nb.cells)
    lessons = {stem: exercise_sets()[stem] for stem in ("roman-dice", "jactus-odds")}
    for i in range(200):
        sets = {stem: lesson.for_student(f"d{i}") for stem, lesson in lessons.items()}
        shares = sets["roman-dice"].q4.params["tenths"]
        assert max(shares) // math.gcd(*shares) <= TALI_SLIDER_MAX, shares
        assert panels_showing("roman-dice", sets["roman-dice"].q4) == ["tali panel"]
        for ex in sets["jactus-odds"]:
            if "chain panel" in ex.computer:
                assert ex.params.get("within", ex.params.get("rounds", 1)) <= 40
                assert "chain panel" in panels_showing("jactus-odds", ex), (i, ex.key)


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

"""Jinns of the Lake: pawns of strength 1–4 pile up on a ring of 32 cells (rules ``JI-*``).

The rules are in ``seeds/jinns.md``; every rule ID cited here is defined there.

>>> from janus_widgets.games.jinns.rules import position
>>> state = position(piles={0: "Y3", 2: "B1", 5: "R1G2", 9: "B4Y1"})  # A to move
>>> state.legal_moves()                   # A plays yellow and red
MoveList(['0.1-', '9.1-', '9.2-'])
>>> state.legal_moves()[2].description
'Move the yellow 1 with the pawn beneath it from cell 9 anticlockwise onto the green 2 on cell 5, completing a tower of four that is taken off.'
>>> state.play("0.1+")                    # the 3rd occupied cell clockwise is cell 9
Traceback (most recent call last):
...
janus_widgets.core.errors.IllegalMoveError: Illegal Jinns of the Lake move '0.1+': JI-11: landing on cell 9 would put two yellow pawns in one pile (B4Y1 + Y3). Legal now: 0.1-, 9.1-, 9.2-.
>>> after = state.play("9.2-")
>>> after.towers[0], after.scores()
(((Pawn(colour='R', strength=1), Pawn(colour='G', strength=2), Pawn(colour='B', strength=4), Pawn(colour='Y', strength=1)),), (7.0, 1.0))
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations, product
from typing import Any, NamedTuple

from ...core.errors import InvalidMoveError
from ...core.protocol import (CHANCE, TERMINAL, Engine, Explanation, Game, Move, MoveList,
                              State, seat_name, winners_text, non_ascii)
from ...core.rng import RandomStream
from ...core.variant import Ruleset, Variant, option

__all__ = ["GAME", "RULESETS", "JinnsVariant", "JinnsEngine", "JinnsState", "Pawn", "position",
           "move_action", "place_action", "chance_action", "take_off_action",
           "PASS", "KEEP_TOP", "KEEP_BOTTOM", "LEAVE", "NUM_ACTIONS", "CELLS", "COLOURS"]

# --- components (JI-1) ---------------------------------------------------------
CELLS = 32
#: Colour letters in colour-number order (yellow 0, blue 1, red 2, green 3).
COLOURS = "YBRG"
COLOUR_NAMES = ("yellow", "blue", "red", "green")
YELLOW, BLUE, RED, GREEN = range(4)

# A pawn is a number 1…16: 4·colour + strength. A pile is the pawns' numbers packed
# five bits each, the TOP pawn in the lowest bits: pile & 31 is its top pawn, the top d
# pawns are pile & (2**(5d) - 1) and what stays is pile >> 5d; putting a part of d pawns
# on a pile T gives part | T << 5d. 0 is an empty cell.
PAWN_COLOUR = [-1] + [(p - 1) >> 2 for p in range(1, 17)]
PAWN_STRENGTH = [0] + [((p - 1) & 3) + 1 for p in range(1, 17)]
PAWN_BIT = [0] + [1 << ((p - 1) >> 2) for p in range(1, 17)]
ALL_COLOURS = 15


def pawn_code(colour: int, strength: int) -> int:
    """The number of a pawn: ``pawn_code(RED, 3)`` is a red 3."""
    return 4 * colour + strength


def pile_code(pawns: Sequence[int]) -> int:
    """Pack pawn numbers, given from the bottom up, into a pile number."""
    code = 0
    for p in pawns:
        code = (code << 5) | p
    return code


def pile_pawns(code: int) -> tuple[int, ...]:
    """The pawn numbers of a pile, from the bottom up."""
    out = []
    while code:
        out.append(code & 31)
        code >>= 5
    return tuple(reversed(out))


#: Every pile the colour rule allows (JI-11): distinct colours, 1 to 4 pawns.
HEIGHT: dict[int, int] = {0: 0}
MASK: dict[int, int] = {0: 0}
VALUE: dict[int, int] = {0: 0}
#: Colour masks of the top 1, 2, … pawns of a pile (the parts a move can take).
PART_MASKS: dict[int, tuple[int, ...]] = {0: ()}
for _h in range(1, 5):
    for _cols in permutations(range(4), _h):
        for _strs in product(range(1, 5), repeat=_h):
            _pawns = [pawn_code(c, s) for c, s in zip(_cols, _strs)]
            _code = pile_code(_pawns)
            HEIGHT[_code] = _h
            MASK[_code] = sum(1 << c for c in _cols)
            VALUE[_code] = _h * _strs[-1]
            PART_MASKS[_code] = tuple(sum(1 << c for c in _cols[_h - d:])
                                      for d in range(1, _h + 1))
PILE_COUNT = len(HEIGHT) - 1                       # 7888

# --- the action numbering (documented in seeds/jinns.md) ----------------------------
MOVE_COUNT = 8 * CELLS                  # 0 … 255: 8·cell + 2·(depth-1) + direction
PLACE_BASE = MOVE_COUNT                 # 256 … 271: place pawn kind k
PASS = PLACE_BASE + 16                  # 272
KEEP_TOP = PASS + 1                     # 273
KEEP_BOTTOM = PASS + 2                  # 274
TAKE_BASE = PASS + 3                    # 275 … 306: take off the pile of three on cell c
LEAVE = TAKE_BASE + CELLS               # 307
CHANCE_BASE = LEAVE + 1                 # 308 … 323: kind k is drawn for the next cell
NUM_ACTIONS = CHANCE_BASE + 16          # 324
PASS_ONLY = (PASS,)
HALVES = (KEEP_TOP, KEEP_BOTTOM)

SETUP, DEAL, PLAY, SPLIT, THREE, OVER = range(6)
PHASE_NAMES = ("setup", "deal", "play", "split", "three", "over")
ALL_PASSED, REPEATED = 0, 1


def move_action(cell: int, depth: int, clockwise: bool = True) -> int:
    """The action number of a move (JI-8).

    >>> move_action(5, 2), move_action(5, 2, clockwise=False)
    (42, 43)
    """
    return 8 * cell + 2 * (depth - 1) + (0 if clockwise else 1)


def place_action(colour: int, strength: int) -> int:
    """The action number of a placement (JI-4): ``place_action(YELLOW, 3)`` is ``Y3``."""
    return PLACE_BASE + pawn_code(colour, strength) - 1


def chance_action(colour: int, strength: int) -> int:
    """The chance outcome "this pawn is drawn for the next cell" (JI-6)."""
    return CHANCE_BASE + pawn_code(colour, strength) - 1


def take_off_action(cell: int) -> int:
    """The action taking off the pile of three on ``cell`` (JI-16)."""
    return TAKE_BASE + cell


# --- set-up schedules (JI-4, JI-5) -------------------------------------------------
def _runs(players: int) -> tuple[tuple[int, int], ...]:
    """(colour, placer) for each cell 0…31 under placement in runs."""
    if players == 3:
        runs = [(YELLOW, 0, 4), (GREEN, 0, 2), (BLUE, 1, 4), (GREEN, 1, 2),
                (RED, 2, 4), (GREEN, 2, 2), (YELLOW, 0, 4), (GREEN, 0, 2),
                (BLUE, 1, 4), (RED, 2, 4)]
    else:
        placer = (lambda c: c % 2) if players == 2 else (lambda c: c)
        runs = [(c, placer(c), 4) for c in (YELLOW, BLUE, RED, GREEN) * 2]
    out = tuple((c, p) for c, p, k in runs for _ in range(k))
    assert len(out) == CELLS
    return out


# --- text helpers --------------------------------------------------------------------
def pawn_text(p: int) -> str:
    """``'R3'`` for a red 3."""
    return COLOURS[PAWN_COLOUR[p]] + str(PAWN_STRENGTH[p])


def pawn_words(p: int) -> str:
    """``'red 3'``."""
    return f"{COLOUR_NAMES[PAWN_COLOUR[p]]} {PAWN_STRENGTH[p]}"


def pile_text(code: int) -> str:
    """A pile from the bottom up, e.g. ``'Y1B2R3'`` (``'.'`` for an empty cell)."""
    return "".join(pawn_text(p) for p in pile_pawns(code)) or "."


_PAWN_RE = re.compile(r"([YBRGybrg])([1-4])")


def parse_pile(text: str) -> tuple[int, ...]:
    """Read ``'Y1B2R3'`` (bottom first; spaces, commas and dashes allowed) into pawns.

    >>> [pawn_text(p) for p in parse_pile("y1 b2-R3")]
    ['Y1', 'B2', 'R3']
    """
    body = re.sub(r"[\s,\-/]", "", text)
    if body in ("", "."):
        return ()
    pawns = _PAWN_RE.findall(body)
    if "".join(c + s for c, s in pawns) != body:
        raise ValueError(f"{text!r} is not a pile: write pawns as colour letter and strength "
                         "from the bottom up, e.g. 'Y1B2R3'")
    return tuple(pawn_code(COLOURS.index(c.upper()), int(s)) for c, s in pawns)


def _number_text(digits: str) -> str:
    """A number as written, shortened when it is long.

    >>> _number_text("07"), _number_text("9" * 5000)
    ('07', '99999999… (5000 digits)')
    """
    return digits if len(digits) <= 8 else f"{digits[:8]}… ({len(digits)} digits)"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


# --- variant -------------------------------------------------------------------------
@dataclass(frozen=True)
class JinnsVariant(Variant):
    """Jinns of the Lake rule options (see ``seeds/jinns.md``)."""

    game_title = "Jinns of the Lake"

    players: int = option(2, choices=(2, 3, 4), rule="JI-2", setup=True,
                          doc="Number of players: 2 (A yellow and red, B blue and green), "
                              "3 (A yellow, B blue, C red, green shared) or 4 (A yellow, "
                              "B blue, C red, D green; yellow-red and blue-green allied).")
    placement: str = option("runs", choices=("runs", "random"), rule="JI-6",
                            labels={"runs": "runs chosen by players",
                                    "random": "random (newer edition)"},
                            doc="'runs': the players place runs of four pawns of a colour, "
                                "choosing which pawns and their order; 'random': the newer "
                                "edition's random placement, drawn cell by cell.")
    distance: str = option("strength", choices=("strength", "height"), rule="JI-9",
                           labels={"strength": "the top pawn's strength",
                                   "height": "pawns moving (height)"},
                           doc="How many occupied cells a move goes: the strength of the "
                               "moving top pawn (rulebook) or the number of pawns moving "
                               "(a game-design study).")
    take_three: str = option("on-completion", choices=("on-completion", "any-turn"),
                             rule="JI-16",
                             labels={"on-completion": "right after completing it",
                                     "any-turn": "at any turn"},
                             doc="4 players: a pile of three may be taken off right after the "
                                 "move that made it, or instead of moving at any turn.")
    shared_towers: str = option("completer", choices=("completer", "zero"), rule="JI-17",
                                labels={"completer": "scores for its completer",
                                        "zero": "scores zero"},
                                doc="3 players: a taken-off tower topped by the shared green "
                                    "scores for its completer as usual, or scores zero (newer "
                                    "edition).")
    repetition_limit: int = option(10, choices=(0, 2, 3, 4, 5, 10, 20), rule="JI-20",
                                   labels={0: "off"},
                                   doc="The game ends when the same position occurs this many "
                                       "times; 0 turns the rule off (games may then never "
                                       "end).")


class Pawn(NamedTuple):
    """A jinn: colour letter (``'Y'``, ``'B'``, ``'R'``, ``'G'``) and strength 1–4."""

    colour: str
    strength: int

    def __str__(self) -> str:
        return f"{self.colour}{self.strength}"

    @property
    def colour_name(self) -> str:
        """``'yellow'``, ``'blue'``, ``'red'`` or ``'green'``."""
        return COLOUR_NAMES[COLOURS.index(self.colour)]

    @property
    def name(self) -> str:
        """``'red 3'``."""
        return f"{self.colour_name} {self.strength}"


PAWNS: tuple[Pawn, ...] = (None,) + tuple(  # type: ignore[assignment]
    Pawn(COLOURS[PAWN_COLOUR[p]], PAWN_STRENGTH[p]) for p in range(1, 17))


def _pawns_of(code: int) -> tuple[Pawn, ...]:
    return tuple(PAWNS[p] for p in pile_pawns(code))


# --- engine ----------------------------------------------------------------------------
class JinnsEngine(Engine[JinnsVariant]):
    """Jinns of the Lake on plain tuples.

    A raw state is ``(phase, seat, board, occupied, taken, passes, seen, aux, aside)``:

    * ``board``: 32 pile numbers (0 = empty cell), ``occupied``: the occupied cells in
      increasing order (during set-up: the cells filled so far);
    * ``taken``: per seat, the pile numbers of the towers or tower parts it holds;
    * ``passes``: passes in a row since the last move;
    * ``seen``: the positions ``(board, seat to move)`` since the occupied cells last
      changed, for the repetition rule (empty when it is off);
    * ``aux``, by phase: SETUP/DEAL the 16 counts of pawns not yet placed; SPLIT the
      tower just made; THREE the cell of the pile of three just made; OVER why the game
      ended (0: everyone must pass, 1: repetition);
    * ``aside``: pawns left out of a built lesson position (never in a real game).
    """

    turn_rule = "JI-24"
    chance_rule = "JI-6"
    over_rule = "JI-25"
    num_actions = NUM_ACTIONS
    notation_help = ("Jinns moves: 5.2+ (from cell 5, the top pawn and the one beneath it, "
                     "clockwise; - anticlockwise), 5.2>9 (the same, landing on cell 9), Y3 "
                     "(place a yellow 3 on the next cell), =Y3 (chance: a yellow 3 is drawn), "
                     "top / bottom (keep a half of the tower), x9 (take off the pile of "
                     "three on cell 9), leave, pass.")

    def __init__(self, variant: JinnsVariant, game: Game | None = None) -> None:
        super().__init__(variant, game)
        n = self.num_players
        self.four = n == 4
        self.height_mode = variant.distance == "height"
        self.limit = variant.repetition_limit
        self.random_setup = variant.placement == "random"
        self.schedule = _runs(n)
        self.three_on_completion = self.four and variant.take_three == "on-completion"
        self.three_any_turn = self.four and variant.take_three == "any-turn"
        # Which colours each seat controls (JI-2, JI-17).
        if n == 2:
            colours = ((YELLOW, RED), (BLUE, GREEN))
        elif n == 3:
            colours = ((YELLOW, GREEN), (BLUE, GREEN), (RED, GREEN))
        else:
            colours = ((YELLOW,), (BLUE,), (RED,), (GREEN,))
        self.colours = colours
        #: ctrl[seat][pawn]: may the seat move a pile with this pawn on top?
        self.ctrl = tuple([False] + [PAWN_COLOUR[p] in colours[s] for p in range(1, 17)]
                          for s in range(n))
        #: owner[pawn]: the seat scoring a board pile topped by this pawn (-1: nobody).
        owner = [-1] * 17
        for s in range(n):
            for p in range(1, 17):
                if PAWN_COLOUR[p] in colours[s] and not (n == 3 and PAWN_COLOUR[p] == GREEN):
                    owner[p] = s
        self.owner = owner
        #: block[seat][pawn]: extra mask making a target topped by the ally's colour
        #: refuse every part (JI-13).
        self.allies = (2, 3, 0, 1) if self.four else (None,) * n
        self.block = tuple(
            [0] + [ALL_COLOURS if self.four and PAWN_COLOUR[p] == (s ^ 2) else 0
                   for p in range(1, 17)] for s in range(n))
        self.green_zero = n == 3 and variant.shared_towers == "zero"

    # --- lean path ---------------------------------------------------------------
    def initial(self) -> tuple:
        first = 0 if self.random_setup else self.schedule[0][1]
        return (DEAL if self.random_setup else SETUP, first, (0,) * CELLS, (), ((),) * self.num_players,
                0, (), (2,) * 16, ())

    def current(self, raw: tuple) -> int:
        phase = raw[0]
        if phase == PLAY or phase == SETUP or phase == SPLIT or phase == THREE:
            return raw[1]
        return CHANCE if phase == DEAL else TERMINAL

    def actions(self, raw: tuple) -> Sequence[int]:
        phase = raw[0]
        if phase == PLAY:
            out = self._gen(raw[2], raw[3], raw[1])
            return out if out else PASS_ONLY
        if phase == SETUP:
            colour = self.schedule[len(raw[3])][0]
            counts = raw[7]
            return tuple(PLACE_BASE + k for k in range(4 * colour, 4 * colour + 4)
                         if counts[k])
        if phase == DEAL:
            counts = raw[7]
            return tuple(CHANCE_BASE + k for k in range(16) if counts[k])
        if phase == SPLIT:
            return HALVES
        if phase == THREE:
            return (TAKE_BASE + raw[7], LEAVE)
        return ()

    def _gen(self, board: tuple, occ: tuple, seat: int) -> list[int]:
        """Every legal move (and, with take_three='any-turn', take-off) of ``seat``."""
        ctrl = self.ctrl[seat]
        block = self.block[seat]
        k = len(occ)
        out: list[int] = []
        append = out.append
        strength = PAWN_STRENGTH
        masks = MASK
        parts = PART_MASKS
        if self.height_mode:
            for i in range(k):
                c = occ[i]
                pile = board[c]
                if not ctrl[pile & 31]:
                    continue
                a = c << 3
                for n, pm in enumerate(parts[pile], 1):
                    if n >= k:
                        break
                    t = occ[(i + n) % k]
                    target = board[t]
                    if not pm & (masks[target] | block[target & 31]):
                        append(a)
                    u = occ[i - n]
                    if u != t:
                        target = board[u]
                        if not pm & (masks[target] | block[target & 31]):
                            append(a + 1)
                    a += 2
        else:
            for i in range(k):
                c = occ[i]
                pile = board[c]
                top = pile & 31
                if not ctrl[top]:
                    continue
                n = strength[top]
                if n >= k:
                    continue                                  # JI-10
                target = board[occ[(i + n) % k]]
                mt = masks[target] | block[target & 31]
                a = c << 3
                if n + n == k:                                # JI-12: one landing
                    for pm in parts[pile]:
                        if pm & mt:
                            break
                        append(a)
                        a += 2
                    continue
                target = board[occ[i - n]]
                mu = masks[target] | block[target & 31]
                for pm in parts[pile]:
                    if not pm & mt:
                        append(a)
                    if not pm & mu:
                        append(a + 1)
                    a += 2
        if self.three_any_turn:
            own = self.colours[seat][0]
            for c in occ:
                pile = board[c]
                if PAWN_COLOUR[pile & 31] == own and HEIGHT[pile] == 3:
                    append(TAKE_BASE + c)
        return out

    def apply(self, raw: tuple, action: int) -> tuple:
        phase = raw[0]
        if phase == PLAY:
            if action < MOVE_COUNT:
                return self._move(raw, action)
            if action == PASS:
                return self._pass(raw)
            return self._take_three(raw, action - TAKE_BASE)
        if phase == SETUP or phase == DEAL:
            return self._place(raw, (action - PLACE_BASE if phase == SETUP
                                     else action - CHANCE_BASE))
        if phase == SPLIT:
            seat, tower = raw[1], raw[7]
            keep, give = ((tower & 1023, tower >> 10) if action == KEEP_TOP
                          else (tower >> 10, tower & 1023))
            taken = list(raw[4])
            taken[seat] = taken[seat] + (keep,)
            ally = seat ^ 2
            taken[ally] = taken[ally] + (give,)
            return self._next_turn(seat, raw[2], raw[3], tuple(taken), (), raw[8])
        # THREE
        if action == LEAVE:
            return self._next_turn(raw[1], raw[2], raw[3], raw[4], raw[6], raw[8])
        return self._take_three(raw, action - TAKE_BASE)

    def _move(self, raw: tuple, action: int) -> tuple:
        _, seat, board, occ, taken, _, seen, _, aside = raw
        c = action >> 3
        depth = ((action >> 1) & 3) + 1
        pile = board[c]
        n = depth if self.height_mode else PAWN_STRENGTH[pile & 31]
        k = len(occ)
        i = occ.index(c)
        t = occ[(i - n) % k] if action & 1 else occ[(i + n) % k]
        shift = 5 * depth
        rest = pile >> shift
        new = (pile & ((1 << shift) - 1)) | (board[t] << shift)
        b = list(board)
        b[c] = rest
        height = HEIGHT[new]
        if height == 4:                                       # JI-14
            b[t] = 0
            occ = tuple(x for x in occ if x != t and (rest or x != c))
            if self.four:                                     # JI-15
                return (SPLIT, seat, tuple(b), occ, taken, 0, (), new, aside)
            held = list(taken)
            held[seat] = held[seat] + (new,)
            return self._next_turn(seat, tuple(b), occ, tuple(held), (), aside)
        b[t] = new
        if not rest:
            occ = occ[:i] + occ[i + 1:]
            seen = ()
        if height == 3 and self.three_on_completion:          # JI-16
            return (THREE, seat, tuple(b), occ, taken, 0, seen, t, aside)
        return self._next_turn(seat, tuple(b), occ, taken, seen, aside)

    def _next_turn(self, seat: int, board: tuple, occ: tuple, taken: tuple, seen: tuple,
                   aside: tuple, passes: int = 0) -> tuple:
        nxt = seat + 1
        if nxt == self.num_players:
            nxt = 0
        if self.limit:                                        # JI-20
            key = (board, nxt)
            if seen:
                if seen.count(key) + 1 >= self.limit:
                    return (OVER, nxt, board, occ, taken, passes, seen + (key,), REPEATED,
                            aside)
                seen = seen + (key,)
            else:
                seen = (key,)
        return (PLAY, nxt, board, occ, taken, passes, seen, None, aside)

    def _pass(self, raw: tuple) -> tuple:
        _, seat, board, occ, taken, passes, seen, _, aside = raw
        passes += 1
        if passes >= self.num_players - 1:                    # JI-19
            last = (seat + 1) % self.num_players
            if not self._gen(board, occ, last):
                return (OVER, last, board, occ, taken, passes, seen, ALL_PASSED, aside)
        return self._next_turn(seat, board, occ, taken, seen, aside, passes)

    def _take_three(self, raw: tuple, cell: int) -> tuple:
        seat, board, occ, taken, aside = raw[1], raw[2], raw[3], raw[4], raw[8]
        pile = board[cell]
        b = list(board)
        b[cell] = 0
        held = list(taken)
        held[seat] = held[seat] + (pile & 1023,)              # the two upper pawns
        held[seat ^ 2] = held[seat ^ 2] + (pile >> 10,)       # the base pawn (JI-16)
        occ = tuple(x for x in occ if x != cell)
        return self._next_turn(seat, tuple(b), occ, tuple(held), (), aside)

    def _place(self, raw: tuple, kind: int) -> tuple:
        phase, _, board, occ, taken, _, _, counts, aside = raw
        cell = len(occ)
        b = list(board)
        b[cell] = kind + 1
        left = list(counts)
        left[kind] -= 1
        occ = occ + (cell,)
        board = tuple(b)
        if cell == CELLS - 1:                                 # JI-7: A moves first
            seen = ((board, 0),) if self.limit else ()
            return (PLAY, 0, board, occ, taken, 0, seen, None, aside)
        nxt = 0 if phase == DEAL else self.schedule[cell + 1][1]
        return (phase, nxt, board, occ, taken, 0, (), tuple(left), aside)

    def sample(self, raw: tuple, stream: RandomStream) -> int:
        counts = raw[7]
        u = stream.below(CELLS - len(raw[3]))
        for k in range(16):
            u -= counts[k]
            if u < 0:
                return CHANCE_BASE + k
        raise AssertionError("no pawn left to draw")

    def chance_outcomes(self, raw: tuple) -> tuple[tuple[int, Fraction], ...]:
        if raw[0] != DEAL:
            return ()
        counts = raw[7]
        left = CELLS - len(raw[3])
        return tuple((CHANCE_BASE + k, Fraction(counts[k], left))
                     for k in range(16) if counts[k])

    def is_chance_action(self, action: int) -> bool:
        return CHANCE_BASE <= action < NUM_ACTIONS

    def scores(self, raw: tuple) -> tuple[float, ...]:
        out = [0] * self.num_players
        owner = self.owner
        for pile in raw[2]:
            if pile:
                who = owner[pile & 31]
                if who >= 0:
                    out[who] += VALUE[pile]
        for seat, parts in enumerate(raw[4]):
            for part in parts:
                out[seat] += self.part_value(part)
        return tuple(float(v) for v in out)

    def part_value(self, part: int) -> int:
        """What a taken-off tower or tower part scores (JI-21, JI-22, JI-17)."""
        if self.green_zero and PAWN_COLOUR[part & 31] == GREEN:
            return 0
        return VALUE[part]

    def position_key(self, raw: tuple) -> tuple:
        return (raw[0], raw[1], raw[2], raw[4], raw[7] if raw[0] != OVER else None)

    # --- helpers for people and canvases ---------------------------------------------
    def target(self, raw: tuple, action: int) -> int | None:
        """The landing cell of a move action here (``None`` if it cannot be made)."""
        if raw[0] != PLAY or not 0 <= action < MOVE_COUNT:
            return None
        info = self._move_facts(raw, action)
        return info["target"]

    def _move_facts(self, raw: tuple, action: int) -> dict[str, Any]:
        """Everything explain() and describe() say about a move action."""
        board, occ = raw[2], raw[3]
        c, depth, ccw = action >> 3, ((action >> 1) & 3) + 1, bool(action & 1)
        pile = board[c]
        facts: dict[str, Any] = {"cell": c, "depth": depth, "ccw": ccw, "pile": pile,
                                 "target": None, "n": None, "part": 0}
        if not pile or depth > HEIGHT[pile]:
            return facts
        part = pile & ((1 << 5 * depth) - 1)
        n = depth if self.height_mode else PAWN_STRENGTH[pile & 31]
        facts.update(part=part, n=n, rest=pile >> 5 * depth)
        k = len(occ)
        if n >= k:
            return facts
        i = occ.index(c)
        facts["target"] = occ[(i - n) % k] if ccw else occ[(i + n) % k]
        facts["same_both_ways"] = 2 * n == k
        return facts

    # --- people's path ---------------------------------------------------------------
    def notation(self, raw: Any, action: int) -> str:
        if 0 <= action < MOVE_COUNT:
            c, depth = action >> 3, ((action >> 1) & 3) + 1
            return f"{c}.{depth}{'-' if action & 1 else '+'}"
        if PLACE_BASE <= action < PASS:
            return pawn_text(action - PLACE_BASE + 1)
        if CHANCE_BASE <= action < NUM_ACTIONS:
            return "=" + pawn_text(action - CHANCE_BASE + 1)
        if action == PASS:
            return "pass"
        if action == KEEP_TOP:
            return "top"
        if action == KEEP_BOTTOM:
            return "bottom"
        if TAKE_BASE <= action < LEAVE:
            return f"x{action - TAKE_BASE}"
        if action == LEAVE:
            return "leave"
        raise ValueError(f"{action} is not a Jinns of the Lake action number "
                         f"(0 … {NUM_ACTIONS - 1})")

    def parse(self, raw: tuple, text: str) -> int:
        t = text.strip()
        low = t.lower()

        def bad(why: str, rule: str = "JI-26") -> InvalidMoveError:
            return InvalidMoveError(f"{text!r} is not a Jinns of the Lake move: {why}. "
                                    f"{self.notation_help}", text=text, rule=rule)

        if non_ascii(text):
            raise bad(non_ascii(text))
        words = {"pass": PASS, "top": KEEP_TOP, "bottom": KEEP_BOTTOM, "leave": LEAVE}
        if low in words:
            return words[low]
        m = re.fullmatch(r"(=?)([ybrg])([0-9]+)", low)
        if m:
            if len(m.group(3)) > 2 or not 1 <= int(m.group(3)) <= 4:
                raise bad(f"pawns have strength 1 to 4, not {_number_text(m.group(3))}")
            strength = int(m.group(3))
            kind = 4 * COLOURS.lower().index(m.group(2)) + strength - 1
            return (CHANCE_BASE if m.group(1) else PLACE_BASE) + kind
        m = re.fullmatch(r"x([0-9]+)", low)
        if m:
            return TAKE_BASE + self._cell(m.group(1), bad)
        m = re.fullmatch(r"([0-9]+)(?:\.([0-9]+))?\s*([+\->])\s*([0-9]*)", low, re.ASCII)
        if not m:
            raise bad("unknown notation")
        c = self._cell(m.group(1), bad)
        depth_text = m.group(2) or "1"
        if len(depth_text) > 2 or not 1 <= int(depth_text) <= 4:
            raise bad(f"a move takes 1 to 4 pawns, not {_number_text(depth_text)}")
        depth = int(depth_text)
        sign, to = m.group(3), m.group(4)
        if sign != ">":
            if to:
                raise bad("write the landing cell after '>' (5.2>9), not after the "
                          "direction")
            if sign == "-" and raw[0] == PLAY:
                facts = self._move_facts(raw, move_action(c, depth, False))
                if facts["target"] is not None and facts["same_both_ways"]:
                    return move_action(c, depth)              # JI-12: the same move
            return move_action(c, depth, sign == "+")
        if not to:
            raise bad("name the landing cell after '>' (5.2>9)")
        goal = self._cell(to, bad)
        reached = []
        for clockwise in (True, False):
            action = move_action(c, depth, clockwise)
            if self.target(raw, action) == goal:
                return action
            reached.append(self.target(raw, action))
        if raw[0] != PLAY or reached == [None, None]:
            raise bad(f"no move from cell {c} with depth {depth} can be made now", "JI-9")
        options = " or ".join(f"{x}" for x in dict.fromkeys(reached) if x is not None)
        raise bad(f"from cell {c} with depth {depth} the move lands on cell {options}, "
                  f"not on cell {goal}", "JI-9")

    @staticmethod
    def _cell(digits: str, bad: Any) -> int:
        if len(digits) > 2:           # never int() of a 5,000-digit text
            raise bad(f"the cells are numbered 0 to 31, not {_number_text(digits)}", "JI-1")
        c = int(digits)
        if not 0 <= c < CELLS:
            raise bad(f"the cells are numbered 0 to 31, not {c}", "JI-1")
        return c

    def describe(self, raw: Any, action: int) -> str:
        if 0 <= action < MOVE_COUNT:
            return self._describe_move(raw, action)
        if PLACE_BASE <= action < PASS:
            cell = len(raw[3]) if raw[0] in (SETUP, DEAL) else None
            where = f"cell {cell}" if cell is not None else "the next free cell"
            return f"Place a {pawn_words(action - PLACE_BASE + 1)} on {where}."
        if CHANCE_BASE <= action < NUM_ACTIONS:
            cell = len(raw[3]) if raw[0] in (SETUP, DEAL) else None
            where = f"cell {cell}" if cell is not None else "the next free cell"
            return f"A {pawn_words(action - CHANCE_BASE + 1)} is drawn for {where}."
        if action == PASS:
            return "Pass: there is no move to make."
        if action in HALVES:
            which = "upper" if action == KEEP_TOP else "lower"
            other = "lower" if action == KEEP_TOP else "upper"
            if raw[0] == SPLIT:
                tower = raw[7]
                keep, give = ((tower & 1023, tower >> 10) if action == KEEP_TOP
                              else (tower >> 10, tower & 1023))
                ally = seat_name(raw[1] ^ 2)
                return (f"Keep the {which} half of the tower ({pile_text(keep)}, "
                        f"{2 * PAWN_STRENGTH[keep & 31]} points) and give the {other} half "
                        f"({pile_text(give)}, {2 * PAWN_STRENGTH[give & 31]} points) to "
                        f"{ally}.")
            return f"Keep the {which} half of the tower just made; the ally gains the {other}."
        if TAKE_BASE <= action < LEAVE:
            cell = action - TAKE_BASE
            pile = raw[2][cell] if raw[0] in (PLAY, THREE) else 0
            if HEIGHT.get(pile) == 3:
                base = pile >> 10
                return (f"Take off the pile of three on cell {cell} ({pile_text(pile)}), "
                        f"keeping its upper two pawns and giving the base {pawn_words(base)} "
                        f"to {seat_name(raw[1] ^ 2)}.")
            return f"Take off the pile of three on cell {cell}, giving its base pawn to the ally."
        if action == LEAVE:
            where = f" on cell {raw[7]}" if raw[0] == THREE else ""
            return f"Leave the pile of three{where} on the board."
        raise ValueError(f"{action} is not a Jinns of the Lake action number")

    def _describe_move(self, raw: tuple, action: int) -> str:
        way = "anticlockwise" if action & 1 else "clockwise"
        c, depth = action >> 3, ((action >> 1) & 3) + 1
        if raw[0] != PLAY:
            return f"Move {_plural(depth, 'pawn')} from cell {c} {way}."
        facts = self._move_facts(raw, action)
        pile = facts["pile"]
        if not pile or depth > HEIGHT[pile]:
            return f"Move {_plural(depth, 'pawn')} from cell {c} {way}."
        top = pawn_words(pile & 31)
        under = depth - 1
        carry = "" if under == 0 else (" with the pawn beneath it" if under == 1 else
                                       f" with the {under} pawns beneath it")
        t = facts["target"]
        if t is None:
            return f"Move the {top}{carry} from cell {c} {way}."
        target = raw[2][t]
        onto = f"onto the {pawn_words(target & 31)} on cell {t}"
        height = HEIGHT[target] + depth
        if height == 4:
            end = ", completing a tower of four that is taken off"
        elif height == 3 and self.four:
            end = ", making a pile of three"
        else:
            end = ""
        return f"Move the {top}{carry} from cell {c} {way} {onto}{end}."

    def explain(self, raw: tuple, action: int) -> Explanation:
        phase, seat = raw[0], raw[1]
        text = self.notation(raw, action)
        legal = action in self.actions(raw)

        def yes(rule: str, reason: str) -> Explanation:
            assert legal, (text, rule, reason)
            return Explanation(text, True, rule, reason)

        def no(rule: str, reason: str) -> Explanation:
            assert not legal, (text, rule, reason)
            return Explanation(text, False, rule, reason)

        if phase == OVER:
            return no("JI-25", "the game is over; no more moves.")
        if CHANCE_BASE <= action < NUM_ACTIONS:
            if phase != DEAL:
                return no("JI-24", "chance outcomes come only during a random placement.")
            pawn = pawn_words(action - CHANCE_BASE + 1)
            if legal:
                return yes("JI-6", f"a {pawn} is among the pawns not yet placed.")
            return no("JI-6", f"both {pawn}s are already on the board.")
        if phase in (SETUP, DEAL):
            cell = len(raw[3])
            if phase == DEAL:
                return no("JI-6", "the pawns are being placed at random: chance acts.")
            colour, _ = self.schedule[cell]
            rule = "JI-5" if self.num_players == 3 else "JI-4"
            if PLACE_BASE <= action < PASS:
                kind = action - PLACE_BASE
                pawn = pawn_words(kind + 1)
                if legal:
                    return yes(rule, f"cell {cell} is in a {COLOUR_NAMES[colour]} run and a "
                                     f"{pawn} is still to be placed.")
                if kind >> 2 != colour:
                    return no(rule, f"cell {cell} is in a {COLOUR_NAMES[colour]} run: place "
                                    f"a {COLOUR_NAMES[colour]} pawn there, not a {pawn}.")
                return no("JI-1", f"there are only two {pawn}s and both are already placed.")
            return no(rule, f"the pawns are still being placed: place a "
                            f"{COLOUR_NAMES[colour]} pawn on cell {cell} first.")
        if PLACE_BASE <= action < PASS:
            return no("JI-4", "the placement is over; the pawns now move.")
        if phase == SPLIT:
            if legal:
                which = "upper" if action == KEEP_TOP else "lower"
                return yes("JI-15", f"you keep the {which} half of the tower and your ally "
                                    f"{seat_name(seat ^ 2)} gains the other.")
            return no("JI-15", "you have just made a tower of four: first choose which half "
                               "to keep (top or bottom).")
        if phase == THREE:
            cell = raw[7]
            if legal:
                if action == LEAVE:
                    return yes("JI-16", "taking off a pile of three is optional.")
                return yes("JI-16", f"you have just made the pile of three on cell {cell}; "
                                    f"taking it off gives its base pawn to "
                                    f"{seat_name(seat ^ 2)}.")
            if TAKE_BASE <= action < LEAVE:
                return no("JI-16", f"the pile of three you have just made is on cell {cell} "
                                   f"(x{cell}), not on cell {action - TAKE_BASE}.")
            return no("JI-16", f"you have just made a pile of three on cell {cell}: first "
                               f"take it off (x{cell}) or leave it (leave).")
        # PLAY
        if action in HALVES:
            if not self.four:
                return no("JI-14", f"with {self.num_players} players a tower goes whole to "
                                   "the player who made it; there is no half to choose.")
            return no("JI-15", "there is no tower to split: halves are chosen right after "
                               "making a tower of four.")
        if action == LEAVE:
            return no("JI-16", "there is no pile of three just made to leave.")
        if TAKE_BASE <= action < LEAVE:
            return self._explain_take(raw, action - TAKE_BASE, legal, yes, no)
        if action == PASS:
            if legal:
                return yes("JI-18", f"{seat_name(seat)} has no move, so passes.")
            count = len(self.actions(raw))
            return no("JI-18", f"only a player with no move may pass; {seat_name(seat)} "
                               f"has {_plural(count, 'legal move')}.")
        return self._explain_move(raw, action, legal, yes, no)

    def _explain_take(self, raw: tuple, cell: int, legal: bool, yes: Any, no: Any
                      ) -> Explanation:
        seat = raw[1]
        if not self.four:
            return no("JI-16", f"only the 4-player game takes off piles of three; with "
                               f"{self.num_players} players only towers of four come off.")
        if self.three_on_completion:
            return no("JI-16", "a pile of three may be taken off only right after the move "
                               "that made it (option take_three='any-turn' allows it at any "
                               "turn).")
        pile = raw[2][cell]
        if legal:
            return yes("JI-16", f"the pile of three on cell {cell} is yours; its base pawn "
                                f"goes to {seat_name(seat ^ 2)}.")
        if HEIGHT[pile] != 3:
            return no("JI-16", f"cell {cell} holds {_plural(HEIGHT[pile], 'pawn')}, not a "
                               "pile of three.")
        return no("JI-16", f"the pile of three on cell {cell} has a {pawn_words(pile & 31)} "
                           f"on top; {seat_name(seat)} controls only "
                           f"{self._colour_list(seat)}.")

    def _colour_list(self, seat: int) -> str:
        return " and ".join(COLOUR_NAMES[c] for c in self.colours[seat])

    def _explain_move(self, raw: tuple, action: int, legal: bool, yes: Any, no: Any
                      ) -> Explanation:
        seat, board, occ = raw[1], raw[2], raw[3]
        facts = self._move_facts(raw, action)
        c, depth, pile = facts["cell"], facts["depth"], facts["pile"]
        way = "anticlockwise" if facts["ccw"] else "clockwise"
        if not pile:
            return no("JI-8", f"cell {c} is empty.")
        top = pile & 31
        if not self.ctrl[seat][top]:
            return no("JI-8", f"the top pawn on cell {c} is a {pawn_words(top)}; "
                              f"{seat_name(seat)} moves only {self._colour_list(seat)}.")
        if depth > HEIGHT[pile]:
            return no("JI-8", f"cell {c} holds only {_plural(HEIGHT[pile], 'pawn')} "
                              f"({pile_text(pile)}), so at most {HEIGHT[pile]} can move.")
        n = facts["n"]
        what = ("the top pawn's strength" if not self.height_mode
                else "the number of pawns moving")
        t = facts["target"]
        if t is None:
            others = len(occ) - 1
            return no("JI-10", f"a move of {n} ({what}) needs {n} other occupied cells but "
                               f"only {others} remain: it would pass a cell twice.")
        if facts["ccw"] and facts["same_both_ways"]:
            return no("JI-12", f"with {len(occ)} occupied cells the move of {n} lands on "
                               f"cell {t} both ways; it is one move, written "
                               f"{self.notation(raw, action - 1)}.")
        target = board[t]
        if self.four and PAWN_COLOUR[target & 31] == (seat ^ 2):
            return no("JI-13", f"cell {t} is topped by a {pawn_words(target & 31)}: you may "
                               f"not cover a pile your ally {seat_name(seat ^ 2)} controls.")
        clash = MASK[facts["part"]] & MASK[target]
        if clash:
            colour = COLOUR_NAMES[(clash & -clash).bit_length() - 1]
            return no("JI-11", f"landing on cell {t} would put two {colour} pawns in one "
                               f"pile ({pile_text(target)} + {pile_text(facts['part'])}).")
        height = HEIGHT[target] + depth
        if height == 4:
            return yes("JI-14", f"the {pawn_words(top)} goes {n} occupied cells {way} onto "
                                f"cell {t} and completes a tower of four, taken off at once.")
        return yes("JI-9", f"the {pawn_words(top)} goes {n} occupied cells {way} onto cell "
                           f"{t}, making a pile of {height} with no colour twice.")

    def text(self, raw: tuple) -> str:
        phase, seat, board = raw[0], raw[1], raw[2]
        v = self.variant
        lines = [f"Jinns of the Lake, {self.num_players} players ({v.describe()})"]
        texts = [pile_text(code) for code in board]
        width = max(len(t) for t in texts)
        for row in range(4):
            cells = [f"{c:>2} {texts[c]:<{width}}" for c in range(8 * row, 8 * row + 8)]
            lines.append("  ".join(cells).rstrip())
        scores = self.scores(raw)
        cur = self.current(raw)
        for s in range(self.num_players):
            mark = ">" if cur == s else " "
            towers = " ".join(pile_text(p) for p in raw[4][s]) or "none"
            ally = (f", ally {seat_name(self.allies[s])}" if self.four else "")
            lines.append(f"{mark} {seat_name(s)} ({self._colour_list(s)}{ally}): "
                         f"taken off {towers} · score {scores[s]:g}")
        if raw[8]:
            lines.append("Set aside: " + " ".join(pawn_text(p) for p in raw[8]))
        name = seat_name(seat)
        if phase == SETUP:
            cell = len(raw[3])
            colour = COLOUR_NAMES[self.schedule[cell][0]]
            lines.append(f"{name} to place a {colour} pawn on cell {cell}.")
        elif phase == DEAL:
            lines.append(f"Chance: a pawn is drawn for cell {len(raw[3])}.")
        elif phase == PLAY:
            extra = f" ({_plural(raw[5], 'pass')} in a row)" if raw[5] else ""
            lines.append(f"{name} to move{extra}.")
        elif phase == SPLIT:
            lines.append(f"{name} made the tower {pile_text(raw[7])}: keep the top or the "
                         "bottom half.")
        elif phase == THREE:
            lines.append(f"{name} made a pile of three on cell {raw[7]}: take it off or "
                         "leave it.")
        else:
            lines.append(f"Game over: {self.outcome(raw)}.")
        return "\n".join(lines)

    def end_why(self, raw: tuple) -> str:
        """Why a finished game ended, with the rule (JI-19 or JI-20)."""
        return ("every player had to pass (JI-19)" if raw[7] == ALL_PASSED else
                f"the position came back {self.limit} times (JI-20)")

    def outcome(self, raw: tuple) -> str:
        """The winners with their points, and why the game ended (JI-19 … JI-23)."""
        if raw[0] != OVER:
            return ""
        won = self.winners(raw)
        best = self.scores(raw)[won[0]] if won else 0
        return (f"{winners_text(won)} with {best:g} point{'s' if best != 1 else ''}: "
                f"{self.end_why(raw)}")

    def log_entry(self, raw: tuple, action: int, player: int | str | None) -> str:
        """A random placement reads "drew R1 for cell 0"; a move is its notation."""
        if self.is_chance_action(action):
            return self.describe(raw, action).rstrip(".").replace(" is drawn", " drawn")
        return self.observed(raw, action, player)

    def check_transition(self, before: tuple, after: tuple) -> None:
        for s, (old, new) in enumerate(zip(before[4], after[4])):
            assert new[:len(old)] == old, (
                f"JI-14: what {seat_name(s)} has taken off stays taken off: "
                f"{old!r} became {new!r}")

    def check_invariants(self, raw: tuple) -> None:
        assert isinstance(raw, tuple) and len(raw) == 9, "a raw state has nine fields"
        phase, seat, board, occ, taken, passes, seen, aux, aside = raw
        n = self.num_players
        assert phase in range(6), f"bad phase {phase!r}"
        assert 0 <= seat < n, f"bad seat {seat!r}"
        assert len(board) == CELLS, "JI-1: the ring has 32 cells"
        assert len(taken) == n, "one row of taken-off towers per seat"
        for cell, pile in enumerate(board):
            assert pile in HEIGHT, (f"JI-11: cell {cell} holds {pile!r}, not a pile of "
                                    "distinct colours of at most four pawns")
        pawns: Counter[int] = Counter()
        for pile in board:
            pawns.update(pile_pawns(pile))
        for s, parts in enumerate(taken):
            for part in parts:
                assert part in HEIGHT and part, f"seat {seat_name(s)} holds a bad part {part!r}"
                allowed = (1, 2) if self.four else (4,)
                assert HEIGHT[part] in allowed, (
                    f"JI-14: {seat_name(s)} holds {pile_text(part)}; taken-off parts have "
                    f"{' or '.join(map(str, allowed))} pawns here")
                pawns.update(pile_pawns(part))
        pawns.update(aside)
        if phase == SPLIT:
            pawns.update(pile_pawns(aux))                     # the tower being split
        if phase in (SETUP, DEAL):
            assert not aside, "a set-up has nothing set aside"
            assert occ == tuple(range(len(occ))) and len(occ) < CELLS, occ
            assert all(board[c] for c in occ) and not any(board[len(occ):])
            assert all(HEIGHT[board[c]] == 1 for c in occ), "JI-4: one pawn per cell"
            assert len(aux) == 16 and all(0 <= x <= 2 for x in aux), aux
            for k in range(16):
                pawns[k + 1] += aux[k]
            if phase == SETUP:
                for c in occ:
                    assert PAWN_COLOUR[board[c]] == self.schedule[c][0], (
                        f"JI-4: cell {c} is in a {COLOUR_NAMES[self.schedule[c][0]]} run")
                assert seat == self.schedule[len(occ)][1], "JI-4: the run's placer places"
        else:
            assert occ == tuple(c for c in range(CELLS) if board[c]), (
                "the occupied cells must match the board")
        full = Counter({p: 2 for p in range(1, 17)})
        assert pawns == full, (f"JI-1: the 32 pawns must all be accounted for; off by "
                               f"{dict((pawns - full) + (full - pawns))}")
        if phase in (PLAY, THREE, SPLIT, OVER):
            assert all(HEIGHT[p] < 4 for p in board), "JI-14: a tower of four comes off at once"
        assert 0 <= passes < n, f"passes {passes!r}"
        if phase == PLAY:
            if self.limit:
                assert seen and seen[-1] == (board, seat), (
                    "JI-20: the current position is the last one seen")
                assert all(len(b) == CELLS and s in range(n) for b, s in seen)
            else:
                assert seen == ()
        if phase == SPLIT:
            assert self.four and aux in HEIGHT and HEIGHT[aux] == 4, (
                "JI-15: a tower of four to split")
            assert PAWN_COLOUR[aux & 31] == seat, "JI-15: the tower is topped by its maker"
        if phase == THREE:
            assert self.three_on_completion, "JI-16: only with take_three='on-completion'"
            assert HEIGHT[board[aux]] == 3, "JI-16: the pile just made has three pawns"
            assert PAWN_COLOUR[board[aux] & 31] == seat, "JI-16: topped by its maker"
        if phase == OVER:
            assert aux in (ALL_PASSED, REPEATED), aux


# --- state ------------------------------------------------------------------------------
class JinnsState(State):
    """A Jinns of the Lake position, with readable properties for people and canvases.

    >>> s = position(piles={3: "Y2", 10: "B1R1", 20: "G3", 25: "B2"}, to_move=0)
    >>> s.pile(10)
    (Pawn(colour='B', strength=1), Pawn(colour='R', strength=1))
    >>> s.controlled_colours
    (('Y', 'R'), ('B', 'G'))
    >>> sorted(s.landings(10, 1))       # the red 1 alone: one occupied cell either way
    [3, 20]
    >>> s.landings(10, 2)[20]           # the red 1 with the blue 1 beneath it
    Move('10.2+')
    """

    __slots__ = ()

    @property
    def phase(self) -> str:
        """'setup', 'deal' (random placement), 'play', 'split', 'three' or 'over'."""
        return PHASE_NAMES[self.raw[0]]

    @property
    def piles(self) -> tuple[tuple[Pawn, ...], ...]:
        """The 32 cells, each its pile from the bottom up (``()`` for an empty cell)."""
        return tuple(_pawns_of(code) for code in self.raw[2])

    def pile(self, cell: int) -> tuple[Pawn, ...]:
        """The pile on ``cell``, from the bottom up."""
        _check_cell(cell)
        return _pawns_of(self.raw[2][cell])

    def top(self, cell: int) -> Pawn | None:
        """The top pawn on ``cell`` (``None`` if it is empty)."""
        _check_cell(cell)
        code = self.raw[2][cell]
        return PAWNS[code & 31] if code else None

    @property
    def occupied(self) -> tuple[int, ...]:
        """The occupied cells, in increasing order."""
        return tuple(c for c in range(CELLS) if self.raw[2][c])

    @property
    def towers(self) -> tuple[tuple[tuple[Pawn, ...], ...], ...]:
        """Per seat, the towers and tower parts it has taken off or gained (bottom up)."""
        return tuple(tuple(_pawns_of(p) for p in parts) for parts in self.raw[4])

    @property
    def controlled_colours(self) -> tuple[tuple[str, ...], ...]:
        """Per seat, the colour letters it may move (green for everyone with 3 players)."""
        return tuple(tuple(COLOURS[c] for c in cols) for cols in self.engine.colours)

    @property
    def alliances(self) -> tuple[tuple[int, int], ...]:
        """The allied seats: ``((0, 2), (1, 3))`` with 4 players, else ``()``."""
        return ((0, 2), (1, 3)) if self.num_players == 4 else ()

    def ally(self, seat: int) -> int | None:
        """The ally of ``seat`` (4 players), else ``None``."""
        return self.engine.allies[seat]

    def controller(self, cell: int) -> int | None:
        """The seat scoring the pile on ``cell`` (``None``: empty or topped by shared green)."""
        _check_cell(cell)
        code = self.raw[2][cell]
        if not code:
            return None
        who = self.engine.owner[code & 31]
        return None if who < 0 else who

    @property
    def next_cell(self) -> int | None:
        """During placement, the cell the next pawn goes to."""
        return len(self.raw[3]) if self.raw[0] in (SETUP, DEAL) else None

    @property
    def run_colour(self) -> str | None:
        """During placement in runs, the colour letter of the next cell's run."""
        if self.raw[0] != SETUP:
            return None
        return COLOURS[self.engine.schedule[len(self.raw[3])][0]]

    @property
    def supply(self) -> tuple[Pawn, ...]:
        """During placement, the pawns not yet placed."""
        if self.raw[0] not in (SETUP, DEAL):
            return ()
        return tuple(PAWNS[k + 1] for k in range(16) for _ in range(self.raw[7][k]))

    @property
    def set_aside(self) -> tuple[Pawn, ...]:
        """Pawns left out of a built lesson position (empty in a real game)."""
        return tuple(PAWNS[p] for p in self.raw[8])

    @property
    def pending_tower(self) -> tuple[Pawn, ...] | None:
        """4 players, right after making a tower: the tower whose half is to be chosen."""
        return _pawns_of(self.raw[7]) if self.raw[0] == SPLIT else None

    @property
    def pending_cell(self) -> int | None:
        """4 players, right after making a pile of three: its cell."""
        return self.raw[7] if self.raw[0] == THREE else None

    @property
    def passes(self) -> int:
        """Passes in a row since the last move."""
        return self.raw[5]

    @property
    def repetitions(self) -> int:
        """How many times the current position has occurred (JI-20; 0 when the rule is off)."""
        seen = self.raw[6]
        if not seen or self.raw[0] not in (PLAY, OVER):
            return 0
        return seen.count(seen[-1])

    @property
    def end_reason(self) -> str | None:
        """'all-passed' or 'repetition' once the game is over, else ``None``."""
        if self.raw[0] != OVER:
            return None
        return "all-passed" if self.raw[7] == ALL_PASSED else "repetition"

    def moves_from(self, cell: int, depth: int | None = None) -> MoveList:
        """The legal moves that start from ``cell`` (with ``depth`` pawns, if given)."""
        _check_cell(cell)
        if depth is not None and not (isinstance(depth, int) and 1 <= depth <= 4):
            raise ValueError(f"depth={depth!r}: a move takes 1 to 4 pawns")
        if self.raw[0] != PLAY:
            return MoveList()
        eng = self.engine
        depths = range(1, 5) if depth is None else (depth,)
        wanted = [move_action(cell, d, cw) for d in depths for cw in (True, False)]
        legal = set(eng.actions(self.raw))
        return MoveList(self._move(a) for a in wanted if a in legal)

    def landings(self, cell: int, depth: int) -> dict[int, Move]:
        """For a pile clicked on ``cell`` taken ``depth`` deep: landing cell → move."""
        return {self.engine.target(self.raw, m.action): m
                for m in self.moves_from(cell, depth)}

    def movable_cells(self) -> tuple[int, ...]:
        """The cells from which at least one legal move starts."""
        if self.raw[0] != PLAY:
            return ()
        return tuple(sorted({a >> 3 for a in self.engine.actions(self.raw)
                             if a < MOVE_COUNT}))

    def landing(self, move: Move | str) -> int | None:
        """The cell a move lands on here (``None`` for other actions or impossible moves)."""
        return self.engine.target(self.raw, self._action_of(move))


def _check_cell(cell: object) -> None:
    if isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell < CELLS:
        raise ValueError(f"cell={cell!r}: the cells are numbered 0 to 31")


def position(variant: JinnsVariant | None = None, *,
             piles: Mapping[int, str] | Sequence[str],
             to_move: int = 0, taken: Sequence[Sequence[str]] | None = None,
             passes: int = 0, seed: int = 0) -> JinnsState:
    """Build a position in play (for lessons and tests); checked for consistency.

    ``piles`` maps cells to piles written from the bottom up (``{5: "Y1B2"}``), or
    lists all 32 cells (``""`` or ``"."`` for an empty one). ``taken`` gives, per seat,
    the towers or tower parts it holds. Pawns on neither are set aside: they take no
    further part and score for nobody.

    >>> s = position(piles={0: "Y1", 1: "B2", 7: "R3G1"}, taken=[["Y4B4R4G4"], []])
    >>> s.occupied, s.scores()          # A: 1 + 4×4; B: 2 + 2×1 (green on top)
    ((0, 1, 7), (17.0, 4.0))
    """
    variant = variant or JinnsVariant()
    eng = GAME.engine(variant)
    n = variant.players
    board = [0] * CELLS
    if isinstance(piles, Mapping):
        items = list(piles.items())
    else:
        if isinstance(piles, str) or len(piles) != CELLS:
            raise ValueError("piles: give a {cell: pile} mapping or a list of 32 piles")
        items = list(enumerate(piles))
    for cell, text in items:
        _check_cell(cell)
        pawns = parse_pile(text)
        code = pile_code(pawns)
        if code not in HEIGHT:
            raise ValueError(f"cell {cell}: {text!r} has a colour twice (JI-11)")
        if len(pawns) == 4:
            raise ValueError(f"cell {cell}: a tower of four is taken off at once (JI-14)")
        board[cell] = code
    if not 0 <= to_move < n:
        raise ValueError(f"to_move={to_move!r}: use a seat number 0 … {n - 1}")
    held: list[tuple[int, ...]] = []
    rows = taken if taken is not None else [[] for _ in range(n)]
    if len(rows) != n:
        raise ValueError(f"taken: give one list of towers per seat ({n} seats)")
    for parts in rows:
        codes = []
        for text in parts:
            code = pile_code(parse_pile(text))
            if code not in HEIGHT or not code:
                raise ValueError(f"taken: {text!r} is not a pile of distinct colours")
            codes.append(code)
        held.append(tuple(codes))
    used: Counter[int] = Counter()
    for code in board + [c for parts in held for c in parts]:
        used.update(pile_pawns(code))
    over = [pawn_text(p) for p, k in used.items() if k > 2]
    if over:
        raise ValueError(f"there are only two pawns of each kind; too many {', '.join(over)}")
    aside = tuple(sorted((Counter({p: 2 for p in range(1, 17)}) - used).elements()))
    board_t = tuple(board)
    occ = tuple(c for c in range(CELLS) if board_t[c])
    seen = ((board_t, to_move),) if eng.limit else ()
    raw = (PLAY, to_move, board_t, occ, tuple(held), passes, seen, None, aside)
    return GAME.from_raw(raw, variant, seed=seed)  # type: ignore[return-value]


def _sample_variants() -> list[JinnsVariant]:
    return [JinnsVariant(), JinnsVariant(players=3), JinnsVariant(players=4),
            JinnsVariant(placement="random"), JinnsVariant(distance="height"),
            JinnsVariant(players=4, take_three="any-turn"),
            JinnsVariant(players=3, shared_towers="zero", placement="random"),
            JinnsVariant(players=4, distance="height", placement="random"),
            JinnsVariant(repetition_limit=0), JinnsVariant(repetition_limit=20)]


#: The named rulesets (see "Rulesets" in seeds/jinns.md and ../shared/FACTS.md).
RULESETS = (
    Ruleset("rulebook", {},
            source="the French rulebook of Les Djinns du Lac (Claude Leroy, Cosmoludo), "
                   "with the publisher's 3-player variant, as seeds/jinns.md reads them",
            note="The players place runs of four pawns; with 3 players a green-topped tower "
                 "scores for its completer."),
    Ruleset("newer edition", {"placement": "random", "shared_towers": "zero"},
            source="the publisher's newer edition (seeds/jinns.md, Rulesets)",
            note="The pawns are placed at random; with 3 players a tower topped by the "
                 "shared green scores nothing."),
)


GAME: Game[JinnsVariant] = Game(
    name="jinns", title="Jinns of the Lake", rule_prefix="JI", variant_cls=JinnsVariant,
    engine_cls=JinnsEngine, state_cls=JinnsState,
    draw_module="janus_widgets.games.jinns.draw",
    summary="Jinns of strength 1 to 4 hop round a ring of 32 cells onto the n-th occupied "
            "cell, piling up into towers; score height times the strength on top.",
    sample_variants=_sample_variants, rulesets=RULESETS,
    playing_time=(10, 10))                      # the box: about 10 minutes (shared/FACTS.md)

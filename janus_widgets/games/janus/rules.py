"""Janus, the board game: columns follow the tiles they stand on (rules ``JB-*``).

The rules are in ``seeds/janus.md``; every rule ID cited here is defined there.
The components (board, square values, tile set) are data in
:mod:`janus_widgets.games.janus.components`.

>>> from janus_widgets import games
>>> janus = games.get("janus")
>>> state = janus.new(seed=3)
>>> state.is_chance, state.chance_outcomes() is None   # the shuffle: too many to list
(True, True)
>>> state = state.play_chance()                       # tiles shuffled and laid
>>> state.tile_at("a1").code, state.column_names     # red, 5 fields, + rose
('R5+', ('a1', 'j10'))
>>> [str(m) for m in state.legal_moves()]
['f1', 'a6']
>>> state = state.play("a6")
>>> state.tile_at("a1") is None, state.current_player  # the tile left is gone
(True, 1)
>>> state.play("b6", player=0)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
janus_widgets.core.errors.IllegalMoveError: Move 'b6' out of turn: JB-22: it is B's turn, ...

A position built by hand (see :func:`position`):

>>> s = position(tiles={"c3": "R2+", "d3": "B1-", "c5": "Y1*"}, columns=("c3", "j10"),
...              fill=False)
>>> [str(m) for m in s.legal_moves()]
['c1', 'a3', 'e3', 'c5']
>>> s.parse("c5").description
'A moves 2 fields up from c3 to c5, onto a yellow 1 tile (all eight directions).'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from math import factorial
from typing import Any

from ...core.errors import InvalidMoveError, VariantError
from ...core.protocol import (CHANCE, TERMINAL, Engine, Explanation, Game, State, seat_index,
                              winners_text,
                              seat_name, non_ascii)
from ...core.rng import RandomStream
from ...core.variant import Ruleset, Variant, option
from .components import (COLOURS, CORNERS, DEFAULT_SQUARES, DISTANCE_PRESETS, FIELDS, SIZE,
                         SQUARES, Tile, check_squares, check_tiles, direction_name,
                         field_name, parse_field, square_fields, square_name, square_of,
                         squares_from_json, squares_to_json, standard_tiles, tiles_from_json,
                         tiles_to_json)

__all__ = ["GAME", "RULESETS", "JanusVariant", "JanusEngine", "JanusState", "position", "PASS",
           "SHUFFLE_BASE", "NUM_ACTIONS", "shuffle_action", "shuffle_order"]

# --- the action numbering (documented in seeds/janus.md) ----------------------
#: Actions 0…99: move the column to that field (10*row + col, a1 = 0, j10 = 99).
PASS = FIELDS                          # 100: forfeit the turn / decline a second move
NUM_ACTIONS = PASS + 1                 # decision actions are 0…100
#: Chance outcomes: SHUFFLE_BASE + the rank of the tile order (a permutation of the
#: 100 tiles of the table, lexicographic rank 0 … 100! - 1).
SHUFFLE_BASE = NUM_ACTIONS             # 101
N_ORDERS = factorial(FIELDS)

SHUFFLE, MOVE, BONUS, OVER = range(4)
PHASE_NAMES = ("shuffle", "move", "bonus", "over")
TILES_GONE, NO_COINS, STUCK, IDLE = range(4)
END_NAMES = ("tiles-gone", "no-coins", "stuck", "idle")
EMPTY = -1
NOBODY = -1
PASS_ONLY = (PASS,)

# --- board geometry, precomputed ---------------------------------------------------
SQ: tuple[int, ...] = tuple(square_of(f) for f in range(FIELDS))
SQF: tuple[tuple[int, int, int, int], ...] = tuple(square_fields(s) for s in range(SQUARES))
ALL_STEPS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))


def _on_board(row: int, col: int) -> bool:
    return 0 <= row < SIZE and 0 <= col < SIZE


#: The fields one step away in any of the eight directions (JB-11), in field order.
NEIGH: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted((r + dr) * SIZE + c + dc for dr, dc in ALL_STEPS if _on_board(r + dr, c + dc)))
    for r, c in (divmod(f, SIZE) for f in range(FIELDS)))

_RAY_CACHE: dict[tuple[int, str], tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]] = {}


def _rays(tile: Tile) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]:
    """Per field: ``(destination, fields passed over)`` for each allowed direction that
    stays on the board (JB-7, JB-8), sorted by destination. Shared by equal tiles."""
    key = (tile.distance, tile.lines)
    found = _RAY_CACHE.get(key)
    if found is None:
        d = tile.distance
        per_field = []
        for f in range(FIELDS):
            r, c = divmod(f, SIZE)
            out = []
            for dr, dc in tile.directions:
                if _on_board(r + d * dr, c + d * dc):
                    between = tuple((r + k * dr) * SIZE + c + k * dc for k in range(1, d))
                    out.append(((r + d * dr) * SIZE + c + d * dc, between))
            per_field.append(tuple(sorted(out)))
        found = _RAY_CACHE[key] = tuple(per_field)
    return found


def _line_between(a: int, b: int) -> tuple[tuple[int, int], int] | None:
    """The unit step and count from field a to field b along a line, or None."""
    ra, ca = divmod(a, SIZE)
    rb, cb = divmod(b, SIZE)
    dr, dc = rb - ra, cb - ca
    if (dr == 0 and dc == 0) or not (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
        return None
    k = max(abs(dr), abs(dc))
    return (dr // k, dc // k), k


# --- ranking tile orders (the shuffle outcome) ---------------------------------
def shuffle_order(action: int) -> tuple[int, ...]:
    """The tile order of a shuffle outcome: which table tile lies on field 0, 1, … 99.

    >>> shuffle_order(SHUFFLE_BASE)[:5], shuffle_order(SHUFFLE_BASE + 1)[-3:]
    ((0, 1, 2, 3, 4), (97, 99, 98))
    """
    rank = action - SHUFFLE_BASE
    digits = [0] * FIELDS
    for i in range(FIELDS - 1, -1, -1):
        rank, digits[i] = divmod(rank, FIELDS - i)
    remaining = list(range(FIELDS))
    return tuple(remaining.pop(d) for d in digits)


def shuffle_action(order: Sequence[int]) -> int:
    """The chance outcome number of a tile order (inverse of :func:`shuffle_order`).

    >>> shuffle_action(shuffle_order(SHUFFLE_BASE + 10**150)) == SHUFFLE_BASE + 10**150
    True
    """
    remaining = list(range(FIELDS))
    rank = 0
    for i, tile in enumerate(order):
        d = remaining.index(tile)
        remaining.pop(d)
        rank = rank * (FIELDS - i) + d
    return SHUFFLE_BASE + rank


def _order_text(order: Sequence[int]) -> str:
    digits = "".join(f"{t:02d}" for t in order)
    return "=" + "/".join(digits[k:k + 2 * SIZE] for k in range(0, 2 * FIELDS, 2 * SIZE))


# --- the variant ------------------------------------------------------------------
@dataclass(frozen=True)
class JanusVariant(Variant):
    """Janus rule options (see ``seeds/janus.md``)."""

    game_title = "Janus"

    players: int = option(2, doc="Number of players, seats A, B, … in turn order.",
                          choices=(2, 3, 4), rule="JB-3", setup=True)
    corner_order: str = option(
        "clockwise", choices=("clockwise", "anticlockwise", "opposite"), rule="JB-5",
        labels={"clockwise": "clockwise (a10, j10, j1)",
                "anticlockwise": "anticlockwise (j1, j10, a10)",
                "opposite": "opposite (j10, a10, j1)"},
        doc="Starting corners of three or four players after A's marked corner a1: "
            "'clockwise' a10, j10, j1; 'anticlockwise' j1, j10, a10; 'opposite' j10, a10, "
            "j1 (two players always take a1 and j10).")
    coins: int = option(15, minimum=1, maximum=60, rule="JB-3",
                        doc="Coins each player starts with.")
    distances: str = option("1-5", choices=tuple(DISTANCE_PRESETS), rule="JB-2",
                            labels={"1-5": "1 to 5 (published)",
                                    "1-4": "1 to 4",
                                    "1-3": "1 to 3",
                                    "2-4": "2 to 4"},
                            doc="Distances on the built-in tile set, spread evenly over "
                                "the range ('1-5' is the published set).")
    tiles: Any = option(None, rule="JB-2", widget=False, check=check_tiles,
                        from_json=tiles_from_json, to_json=tiles_to_json,
                        doc="The tile set: 100 tile codes such as 'R3+' or 'Y2|J', laid "
                            "one per field; None uses the built-in set.")
    squares: Any = option(DEFAULT_SQUARES, rule="JB-1", widget=False, check=check_squares,
                          from_json=squares_from_json, to_json=squares_to_json,
                          doc="Square values, 5 rows of 5 from the bottom row (ranks "
                              "1-2) up, each row left to right.")
    pass_columns: bool = option(True, rule="JB-10",
                                doc="Whether a move may pass over a field where another "
                                    "column stands.")
    empty_fields: str = option("count", choices=("count", "block"), rule="JB-10",
                               labels={"count": "count as fields", "block": "block a move"},
                               doc="Empty fields on a move's way: 'count' like any field, "
                                   "or 'block' (a move may not cross one).")
    bonus_optional: bool = option(True, rule="JB-14",
                                  doc="Whether a player may decline the second move a "
                                      "Janus head earns.")
    chain_bonus: bool = option(False, rule="JB-14",
                               doc="Whether a second move that again reaches a tile of a "
                                   "held head's colour earns a third, and so on.")
    toll_shortfall: str = option(
        "waived", choices=("waived", "from-tolls"), rule="JB-17",
        labels={"waived": "waived if out of coins", "from-tolls": "paid from tolls taken"},
        doc="A toll due from a player with no coins left: 'waived', or paid with a toll "
            "coin that player received earlier.")
    idle_rounds: int = option(10, minimum=0, maximum=100, rule="JB-20",
                              doc="Rounds without a tile removed or a coin paid after "
                                  "which the game ends; 0 turns this end off (columns on "
                                  "empty fields may then wander for ever).")
    # --- open readings of the rulebook (issue 15) ---
    toll_fields: str = option(
        "landing", choices=("landing", "entered"), rule="JB-16",
        labels={"landing": "a toll on the landing field",
                "entered": "tolls on every field"},
        doc="Which fields of another player's square cost a toll: 'landing', the field a "
            "move ends on; 'entered', every field the column comes to on its way as well.")
    stuck: str = option(
        "forfeit", choices=("forfeit", "step"), rule="JB-12",
        labels={"forfeit": "forfeit the turn", "step": "step one field"},
        doc="A column whose tile can never take it anywhere (every direction leaves the "
            "board): 'forfeit' every turn; 'step' one field in any direction instead, as "
            "from an empty field.")

    def check(self) -> None:
        if self.tiles is not None and self.distances != "1-5":
            raise VariantError(
                "Janus options tiles and distances clash: distances chooses a preset of "
                "the built-in tile set, so give it only when tiles is None.",
                field="distances", value=self.distances,
                allowed="'1-5' when a tile set is given")

    def tile_table(self) -> tuple[Tile, ...]:
        """The 100 tiles in play (the given set, or the built-in set with ``distances``)."""
        return self.tiles if self.tiles is not None else standard_tiles(self.distances)

    def corners(self) -> tuple[int, ...]:
        """Starting fields by seat (JB-5)."""
        if self.players == 2:
            return (CORNERS[0], CORNERS[2])
        order = {"clockwise": (0, 1, 2, 3), "anticlockwise": (0, 3, 2, 1),
                 "opposite": (0, 2, 1, 3)}[self.corner_order]
        return tuple(CORNERS[k] for k in order[:self.players])


# --- the engine -------------------------------------------------------------------------
class JanusEngine(Engine[JanusVariant]):
    """Janus on plain tuples.

    A raw state is ``(phase, seat, board, columns, coins, owners, heads, tolls,
    left, idle, passes, end)``: ``board`` holds, per field, the table index of the
    tile lying there or -1; ``columns`` the field of each seat's column;
    ``coins`` each seat's own coins; ``owners`` per square the owning seat or -1;
    ``heads`` per seat the table indices of the Janus heads won; ``tolls`` per
    seat the toll coins received; ``left`` the tiles on the board; ``idle`` the
    turns in a row without a tile removed or a coin paid; ``passes`` the forced
    passes in a row; ``end`` why the game ended (phase OVER).
    """

    turn_rule = "JB-22"
    chance_rule = "JB-4"
    over_rule = "JB-23"
    num_actions = NUM_ACTIONS
    notation_help = ("Janus moves: a field name such as c4 (move your column there; "
                     "a1-c3 also works), pass (when you cannot move, or to decline a "
                     "second move), =0512…/… (chance: the tile order of the shuffle, two "
                     "digits per field from a1 to j10).")

    def __init__(self, variant: JanusVariant, game: Game | None = None) -> None:
        super().__init__(variant, game)
        self.table = variant.tile_table()
        self.colour = tuple(COLOURS.index(t.colour) for t in self.table)
        self.is_head = tuple(t.head for t in self.table)
        self.rays = tuple(_rays(t) for t in self.table)
        self.targets = tuple(tuple(tuple(d for d, _ in per) for per in rays)
                             for rays in self.rays)
        self.values = tuple(v for row in variant.squares for v in row)
        self.corners = variant.corners()
        self.free_ways = variant.pass_columns and variant.empty_fields == "count"
        self.pass_columns = variant.pass_columns
        self.block_empty = variant.empty_fields == "block"
        self.bonus_optional = variant.bonus_optional
        self.chain = variant.chain_bonus
        self.from_tolls = variant.toll_shortfall == "from-tolls"
        #: Turns without progress that end the game (JB-20; 0: never).
        self.idle_limit = variant.idle_rounds * self.num_players
        self.toll_entered = variant.toll_fields == "entered"
        self.step_stuck = variant.stuck == "step"
        self.start_coins = variant.coins
        self._owned: dict[tuple, tuple[float, ...]] = {}

    # --- lean path -------------------------------------------------------
    def initial(self) -> tuple:
        n = self.num_players
        return (SHUFFLE, 0, (EMPTY,) * FIELDS, self.corners, (self.start_coins,) * n,
                (NOBODY,) * SQUARES, ((),) * n, (0,) * n, 0, 0, 0, 0)

    def current(self, raw: tuple) -> int:
        phase = raw[0]
        if phase == MOVE or phase == BONUS:
            return raw[1]
        return CHANCE if phase == SHUFFLE else TERMINAL

    def moves(self, raw: tuple) -> tuple[int, ...]:
        """Destinations of the seat to move (no pass), in field order."""
        board = raw[2]
        cols = raw[3]
        f = cols[raw[1]]
        t = board[f]
        if t < 0 or (self.step_stuck and self._dead(board, f, t)):
            return tuple([d for d in NEIGH[f] if d not in cols])    # JB-11, JB-12
        if self.free_ways:
            return tuple([d for d in self.targets[t][f] if d not in cols])
        out = []
        for d, between in self.rays[t][f]:
            if d in cols:
                continue
            if not self.pass_columns and any(b in cols for b in between):
                continue
            if self.block_empty and any(board[b] < 0 for b in between):
                continue
            out.append(d)
        return tuple(out)

    def _dead(self, board: tuple, f: int, t: int) -> bool:
        """Whether tile ``t`` on field ``f`` can never take the column anywhere (JB-12):
        every direction leaves the board (JB-8) or, with empty_fields='block', crosses
        a field that is empty for good. Other columns only block for a while."""
        rays = self.rays[t][f]
        if not rays:
            return True
        return self.block_empty and all(any(board[b] < 0 for b in between)
                                        for _, between in rays)

    def _dead_words(self, f: int, t: int) -> str:
        """Why a tile takes its column nowhere, for explanations (see :meth:`_dead`)."""
        where = f"every direction of the {self.table[t].describe()} on {field_name(f)}"
        if not self.rays[t][f]:
            return f"{where} leads off the board (JB-8)"
        return f"{where} crosses a field that stays empty (empty_fields='block')"

    def tolls_due(self, raw: tuple, action: int) -> list[int]:
        """The owners a move to field ``action`` owes a toll, one entry per field (JB-16):
        the landing field, and with toll_fields='entered' each field crossed first."""
        seat, cols, owners = raw[1], raw[3], raw[5]
        f = cols[seat]
        due = []
        if self.toll_entered:
            line = _line_between(f, action)
            if line is not None:
                (dr, dc), k = line
                for j in range(1, k):
                    o = owners[SQ[f + j * (dr * SIZE + dc)]]
                    if o >= 0 and o != seat:
                        due.append(o)
        o = owners[SQ[action]]
        if o >= 0 and o != seat:
            due.append(o)
        return due

    def actions(self, raw: tuple) -> tuple[int, ...]:
        phase = raw[0]
        if phase == MOVE:
            return self.moves(raw) or PASS_ONLY
        if phase == BONUS:
            acts = self.moves(raw)
            if self.bonus_optional:
                return acts + PASS_ONLY
            return acts or PASS_ONLY
        return ()

    def is_legal(self, raw: tuple, action: int) -> bool:
        if raw[0] == SHUFFLE:
            return self.is_chance_action(action)
        return action in self.actions(raw)

    def is_chance_action(self, action: int) -> bool:
        return SHUFFLE_BASE <= action < SHUFFLE_BASE + N_ORDERS

    def sample(self, raw: tuple, stream: RandomStream) -> int:
        below = stream.below
        rank = 0
        for i in range(FIELDS):
            rank = rank * (FIELDS - i) + below(FIELDS - i)
        return SHUFFLE_BASE + rank

    def chance_outcomes(self, raw: tuple) -> None:
        return None  # 100! tile orders: sampled, never listed

    def apply(self, raw: tuple, action: int) -> tuple:
        phase, seat, board, cols, coins, owners, heads, tolls, left, idle, passes, _ = raw
        n = self.num_players
        if phase == SHUFFLE:
            return (MOVE, 0, shuffle_order(action), cols, coins, owners, heads, tolls,
                    FIELDS, 0, 0, 0)
        if action == PASS:
            idle += 1
            if phase == MOVE:
                passes += 1
                if passes >= n:
                    return (OVER, seat, board, cols, coins, owners, heads, tolls, left,
                            idle, passes, STUCK)
            if self.idle_limit and idle >= self.idle_limit:
                return (OVER, seat, board, cols, coins, owners, heads, tolls, left, idle,
                        passes, IDLE)
            return (MOVE, (seat + 1) % n, board, cols, coins, owners, heads, tolls, left,
                    idle, passes, 0)
        f = cols[seat]
        t = board[f]
        cols = cols[:seat] + (action,) + cols[seat + 1:]
        progress = False
        if t >= 0:                                      # JB-13: the tile left goes
            progress = True
            board = board[:f] + (EMPTY,) + board[f + 1:]
            left -= 1
            if self.is_head[t]:
                heads = heads[:seat] + (heads[seat] + (t,),) + heads[seat + 1:]
            s = SQ[f]
            a, b, c, d = SQF[s]
            if board[a] < 0 and board[b] < 0 and board[c] < 0 and board[d] < 0:
                owners = owners[:s] + (seat,) + owners[s + 1:]   # JB-15
                coins = coins[:seat] + (coins[seat] - 1,) + coins[seat + 1:]
        if self.toll_entered:
            due = self.tolls_due((phase, seat, board, raw[3], coins, owners), action)
        else:
            owner = owners[SQ[action]]
            due = (owner,) if owner >= 0 and owner != seat else ()
        for owner in due:                               # JB-16: tolls
            if coins[seat] > 0:
                progress = True
                coins = coins[:seat] + (coins[seat] - 1,) + coins[seat + 1:]
                tl = list(tolls)
                tl[owner] += 1
                tolls = tuple(tl)
            elif self.from_tolls and tolls[seat] > 0:   # JB-17
                tl = list(tolls)
                tl[seat] -= 1
                tl[owner] += 1
                tolls = tuple(tl)
        if left == 0:
            return (OVER, seat, board, cols, coins, owners, heads, tolls, left, 0, 0,
                    TILES_GONE)
        if coins[seat] <= 0:
            return (OVER, seat, board, cols, coins, owners, heads, tolls, left, 0, 0,
                    NO_COINS)
        idle = 0 if progress else idle + 1
        if self.idle_limit and idle >= self.idle_limit:
            return (OVER, seat, board, cols, coins, owners, heads, tolls, left, idle, 0,
                    IDLE)
        landed = board[action]
        if landed >= 0 and heads[seat] and (phase == MOVE or self.chain):
            colour = self.colour[landed]
            for h in heads[seat]:
                if self.colour[h] == colour:           # JB-14: a second move
                    return (BONUS, seat, board, cols, coins, owners, heads, tolls, left,
                            idle, 0, 0)
        return (MOVE, (seat + 1) % n, board, cols, coins, owners, heads, tolls, left,
                idle, 0, 0)

    def scores(self, raw: tuple) -> tuple[float, ...]:
        """Each seat's squares' values plus one point per toll coin received (JB-21)."""
        owners = raw[5]
        owned = self._owned.get(owners)
        if owned is None:                   # owners change seldom: remember their sums
            if len(self._owned) >= 4096:
                self._owned.clear()
            totals = [0.0] * self.num_players
            for s, o in enumerate(owners):
                if o >= 0:
                    totals[o] += self.values[s]
            owned = self._owned[owners] = tuple(totals)
        return tuple([v + t for v, t in zip(owned, raw[7])])

    # --- people's path ---------------------------------------------------
    def notation(self, raw: Any, action: int) -> str:
        if 0 <= action < FIELDS:
            return field_name(action)
        if action == PASS:
            return "pass"
        if self.is_chance_action(action):
            return _order_text(shuffle_order(action))
        raise ValueError(f"{action} is not a Janus action number (0 … {PASS}, or a "
                         "shuffle outcome)")

    def parse(self, raw: tuple, text: str) -> int:
        t = text.strip().lower()

        def bad(why: str, rule: str = "JB-7") -> InvalidMoveError:
            return InvalidMoveError(f"{text!r} is not a Janus move: {why}. "
                                    f"{self.notation_help}", text=text, rule=rule)

        if non_ascii(text):
            raise bad(non_ascii(text))
        if t == "pass":
            return PASS
        if t.startswith("="):
            digits = "".join(ch for ch in t[1:] if ch not in "/ ")
            if not (digits.isascii() and digits.isdigit()) or len(digits) != 2 * FIELDS:
                raise bad(f"a shuffle outcome gives {FIELDS} tiles as two digits each "
                          f"({2 * FIELDS} digits, rows may be separated by '/'); "
                          f"got {len(digits)} characters", "JB-4")
            order = [int(digits[k:k + 2]) for k in range(0, 2 * FIELDS, 2)]
            if sorted(order) != list(range(FIELDS)):
                missing = sorted(set(range(FIELDS)) - set(order))
                raise bad(f"a shuffle lays each of the {FIELDS} tiles 00–99 once; "
                          f"tile {missing[0]:02d} is missing", "JB-4")
            return shuffle_action(order)
        start, dash, dest = t.partition("-")
        if not dash:
            start, dest = "", t
            for cut in (2, 3):           # 'a1c3' or 'a10c3'
                if len(t) > cut + 1 and t[cut].isalpha() and t[0].isalpha():
                    start, dest = t[:cut], t[cut:]
                    break
        try:
            field = parse_field(dest)
            origin = parse_field(start) if start else None
        except ValueError as exc:
            raise bad(str(exc)) from None
        if origin is not None and raw[0] in (MOVE, BONUS) and origin != raw[3][raw[1]]:
            raise bad(f"{seat_name(raw[1])}'s column stands on "
                      f"{field_name(raw[3][raw[1]])}, not {field_name(origin)}", "JB-22")
        return field

    def _tile_words(self, t: int) -> str:
        tile = self.table[t]
        article = "the" if tile.head else "a"
        return f"{article} {tile.describe()}"

    def describe(self, raw: Any, action: int) -> str:
        phase, seat = raw[0], raw[1]
        if self.is_chance_action(action):
            return "The tiles are shuffled and laid from a1 to j10 in this order."
        if phase not in (MOVE, BONUS):
            if action == PASS:
                return "Pass."
            return f"Move to {field_name(action)}."
        who = seat_name(seat)
        if action == PASS:
            can_move = bool(self.moves(raw))
            if phase == BONUS:
                return (f"{who} declines the second move." if can_move else
                        f"{who} cannot move and forfeits the second move.")
            return (f"{who} passes, which is allowed only when no move is possible."
                    if can_move else f"{who} cannot move and forfeits the turn.")
        board, cols = raw[2], raw[3]
        f = cols[seat]
        line = _line_between(f, action)
        if line is None:
            way = f"from {field_name(f)} to {field_name(action)}"
        else:
            step, k = line
            way = (f"{k} field{'s' if k > 1 else ''} {direction_name(step)} from "
                   f"{field_name(f)} to {field_name(action)}")
        landed = board[action]
        onto = ("onto an empty field" if landed < 0 else "onto " + self._tile_words(landed))
        gains = []
        t = board[f]
        if t >= 0 and self.is_head[t]:
            gains.append(f"{who} takes the {self.table[t].colour} Janus head")
        if t >= 0:
            s = SQ[f]
            if all(board[x] < 0 or x == f for x in SQF[s]):
                gains.append(f"{who} wins the square {square_name(s)} "
                             f"(worth {self.values[s]})")
        due = self.tolls_due(raw, action)
        if due:
            coins = raw[4][seat] - (1 if gains and gains[-1].startswith(who + " wins") else 0)
            spare = raw[7][seat] if self.from_tolls else 0
            ways: dict[tuple[int, str], int] = {}
            for owner in due:                           # JB-16, then JB-17 per toll
                how = "coin" if coins > 0 else "toll coin" if spare > 0 else "none"
                coins -= how == "coin"
                spare -= how == "toll coin"
                ways[owner, how] = ways.get((owner, how), 0) + 1
            for (owner, how), k in ways.items():
                name = seat_name(owner)
                tolls = "a toll" if k == 1 else f"{k} tolls"
                if how == "coin":
                    gains.append(f"{who} pays {name} {tolls}")
                elif how == "toll coin":
                    gains.append(f"{who} pays {name} {tolls} with "
                                 + ("a toll coin" if k == 1 else "toll coins")
                                 + " received earlier")
                else:
                    gains.append(f"{who} has no coin left for {name}'s toll" if k == 1 else
                                 f"{who} has no coin left for {k} of {name}'s tolls")
        tail = ("; " + ", and ".join(gains)) if gains else ""
        return f"{who} moves {way}, {onto}{tail}."

    def explain(self, raw: tuple, action: int) -> Explanation:
        phase, seat, board, cols = raw[0], raw[1], raw[2], raw[3]
        text = self.notation(raw, action)

        def yes(rule: str, reason: str) -> Explanation:
            return Explanation(text, True, rule, reason)

        def no(rule: str, reason: str) -> Explanation:
            return Explanation(text, False, rule, reason)

        if phase == OVER:
            return no("JB-23", "the game is over; no more moves.")
        if phase == SHUFFLE:
            if self.is_chance_action(action):
                return yes("JB-4", "one of the 100! equally likely orders of the shuffled "
                                   "tiles.")
            return no("JB-4", "the tiles are shuffled and laid first (a chance outcome).")
        if self.is_chance_action(action):
            return no("JB-4", "the tiles were laid already; the shuffle happens only once.")
        who = seat_name(seat)
        dests = self.moves(raw)
        f = cols[seat]
        t = board[f]
        if action == PASS:
            if phase == BONUS:
                if self.bonus_optional:
                    return yes("JB-14", "the second move may be declined.")
                if not dests:
                    return yes("JB-12", "the column has no legal move, so the second move "
                                        "is forfeited.")
                return no("JB-14", "the second move must be made (bonus_optional=False): "
                                   + ", ".join(field_name(d) for d in dests) + ".")
            if not dests:
                if t >= 0 and self._dead(board, f, t):
                    return yes("JB-12", f"{who}'s column on {field_name(f)} has no legal "
                                        f"move and never will: {self._dead_words(f, t)}, so "
                                        "the turn is forfeited (stuck='forfeit').")
                return yes("JB-12", f"{who}'s column on {field_name(f)} has no legal move "
                                    "(every target is off the board (JB-8) or taken), so "
                                    "the turn is forfeited.")
            return no("JB-12", f"a turn is forfeited only when no move is possible; "
                               f"{who} can move to "
                               + ", ".join(field_name(d) for d in dests) + ".")
        dest = action
        name = field_name(dest)
        if dest == f:
            return no("JB-7", f"the column must move; it already stands on {name}.")
        line = _line_between(f, dest)
        if t < 0:
            if line is None or line[1] != 1:
                return no("JB-11", f"{who}'s column stands on an empty field "
                                   f"({field_name(f)}), so it moves exactly one field, in "
                                   f"any direction; {name} is not next to it.")
            rule_ok = ("JB-11", f"from an empty field the column steps one field in any "
                                f"direction; {name} is free.")
        elif self.step_stuck and self._dead(board, f, t):
            why = self._dead_words(f, t)
            if line is None or line[1] != 1:
                return no("JB-12", f"{why}, so the column steps exactly one field, in any "
                                   f"direction (stuck='step'); {name} is not next to it.")
            rule_ok = ("JB-12", f"{why}, so the column steps one field in any direction "
                                f"(stuck='step'); {name} is free.")
        else:
            tile = self.table[t]
            what = f"the {tile.describe()} on {field_name(f)}"
            if line is None:
                return no("JB-7", f"a move goes straight along a line, and {name} is not "
                                  f"on a straight line from {field_name(f)}.")
            step, k = line
            if step not in tile.directions:
                allowed = [direction_name(s) for s in tile.directions]
                verb = "looks only" if tile.head else "allows only"
                return no("JB-7", f"{what} {verb} {', '.join(allowed[:-1])} and "
                                  f"{allowed[-1]}; {name} is {direction_name(step)}.")
            if k != tile.distance:
                return no("JB-7", f"{what} says exactly {tile.distance} field"
                                  f"{'s' if tile.distance > 1 else ''}; {name} is {k} "
                                  f"away.")
            rule_ok = ("JB-7", f"{what} allows {tile.distance} "
                               f"field{'s' if tile.distance > 1 else ''} "
                               f"{direction_name(step)}; {name} is free.")
        if dest in cols:
            other = cols.index(dest)
            return no("JB-9", f"{seat_name(other)}'s column stands on {name}; only one "
                              "column may stand on a field.")
        if line is not None and t >= 0:
            step, k = line
            r, c = divmod(f, SIZE)
            between = [(r + j * step[0]) * SIZE + c + j * step[1] for j in range(1, k)]
            if not self.pass_columns:
                for b in between:
                    if b in cols:
                        return no("JB-10", f"{seat_name(cols.index(b))}'s column on "
                                           f"{field_name(b)} is in the way "
                                           "(pass_columns=False).")
            if self.block_empty:
                for b in between:
                    if board[b] < 0:
                        return no("JB-10", f"the empty field {field_name(b)} is in the way "
                                           "(empty_fields='block').")
        assert dest in dests, (text, dests)
        return yes(*rule_ok)

    def text(self, raw: tuple) -> str:
        phase, seat, board, cols, coins, owners, heads, tolls, left, idle, passes, end = raw
        v = self.variant
        lines = [f"Janus, {self.num_players} players ({v.describe()})",
                 "     " + "".join(f"{ch:<7}" for ch in "abcdefghij").rstrip()]
        col_at = {f: p for p, f in enumerate(cols)}
        for row in range(SIZE - 1, -1, -1):
            cells = []
            for col in range(SIZE):
                f = row * SIZE + col
                t = board[f]
                if t >= 0:
                    body = self.table[t].code
                else:
                    owner = owners[SQ[f]]
                    body = "." if owner < 0 else seat_name(owner).lower()
                mark = (seat_name(col_at[f]) + ":") if f in col_at else "  "
                cells.append(f"{mark}{body:<5}")
            lines.append(f"{row + 1:>2} " + "".join(cells).rstrip())
        lines.append("Squares (value, owner), top row first:")
        for srow in range(4, -1, -1):
            cells = []
            for scol in range(5):
                s = srow * 5 + scol
                o = owners[s]
                cells.append(f"{self.values[s]}{seat_name(o) if o >= 0 else '.'}")
            lines.append("   " + " ".join(cells))
        scores = self.scores(raw)
        for p in range(self.num_players):
            mark = ">" if self.current(raw) == p else " "
            held = " ".join(self.table[h].code for h in heads[p]) or "-"
            lines.append(f"{mark} {seat_name(p)}  column {field_name(cols[p]):<3}  coins "
                         f"{coins[p]:>2}  tolls {tolls[p]:>2}  heads {held}  score "
                         f"{scores[p]:g}")
        name = seat_name(seat)
        if phase == SHUFFLE:
            lines.append("Chance: the tiles are shuffled and laid.")
        elif phase == MOVE:
            lines.append(f"{name} to move ({left} tiles left).")
        elif phase == BONUS:
            lines.append(f"{name} to make a second move (Janus head bonus).")
        else:
            lines.append(f"Game over: {self.outcome(raw)}.")
        return "\n".join(lines)

    def outcome(self, raw: tuple) -> str:
        """Who won, with how many points, and why the game ended (JB-18 … JB-21)."""
        if raw[0] != OVER:
            return ""
        name, end = seat_name(raw[1]), raw[11]
        why = {TILES_GONE: "all tiles are gone (JB-18)",
               NO_COINS: f"{name} has run out of coins (JB-18)",
               STUCK: "no column can move (JB-19)",
               IDLE: f"{self.variant.idle_rounds} rounds passed without a tile removed or "
                     "a coin paid (JB-20)"}[end]
        best = max(self.scores(raw))
        return (f"{winners_text(self.winners(raw))} with {best:g} point"
                f"{'s' if best != 1 else ''}: {why}")

    def log_entry(self, raw: tuple, action: int, player: int | str | None) -> str:
        """A shuffle is one readable entry; a move is its field (or "pass")."""
        if self.is_chance_action(action):
            return "tiles shuffled and laid (JB-4)"
        return self.notation(raw, action)

    def check_invariants(self, raw: tuple) -> None:
        assert isinstance(raw, tuple) and len(raw) == 12, "a Janus raw state has 12 parts"
        phase, seat, board, cols, coins, owners, heads, tolls, left, idle, passes, end = raw
        n = self.num_players
        assert phase in (SHUFFLE, MOVE, BONUS, OVER), f"bad phase {phase!r}"
        assert 0 <= seat < n, f"bad seat {seat!r}"
        assert len(board) == FIELDS and len(owners) == SQUARES
        assert len(cols) == len(coins) == len(heads) == len(tolls) == n, "one entry per seat"
        on_board = [t for t in board if t >= 0]
        assert all(t < FIELDS for t in board), "JB-2: tile numbers run 0…99"
        assert len(set(on_board)) == len(on_board), "JB-2: a tile lies on one field only"
        assert left == len(on_board), f"tiles left {left} != {len(on_board)} on the board"
        held = [h for hs in heads for h in hs]
        assert len(set(held)) == len(held), "JB-13: a head is held by one player only"
        assert all(self.is_head[h] for h in held), "JB-13: only Janus heads are held"
        assert not set(held) & set(on_board), "JB-13: a held head is off the board"
        assert len(set(cols)) == n and all(0 <= f < FIELDS for f in cols), \
            "JB-9: one column per field"
        assert all(c >= 0 for c in coins) and all(t >= 0 for t in tolls)
        for s, o in enumerate(owners):
            assert -1 <= o < n, f"bad owner {o!r} of square {s}"
            if o >= 0:
                assert all(board[f] < 0 for f in SQF[s]), \
                    f"JB-15: square {square_name(s)} is owned but still holds tiles"
        owned = sum(1 for o in owners if o >= 0)
        total = sum(coins) + owned + sum(tolls)
        assert total == self.start_coins * n, (
            f"JB-3: coins not conserved: {sum(coins)} in hand + {owned} on circles + "
            f"{sum(tolls)} tolls = {total}, not {self.start_coins * n}")
        if phase == SHUFFLE:
            assert not on_board and left == 0 and not held and owned == 0
            assert cols == self.corners, "JB-5: columns wait on their corners"
        else:
            assert 0 <= idle and 0 <= passes < n or phase == OVER
        if phase == OVER:
            assert end in (TILES_GONE, NO_COINS, STUCK, IDLE), f"bad end {end!r}"
            if end == TILES_GONE:
                assert left == 0
            if end == NO_COINS:
                assert coins[seat] == 0
            if end == STUCK:
                assert passes >= n
            if end == IDLE:
                assert self.idle_limit and idle >= self.idle_limit
        elif phase != SHUFFLE:
            assert left > 0, "JB-18: the game ends when all tiles are gone"
            assert all(c > 0 for c in coins), "JB-18: the game ends when coins run out"
            assert not self.idle_limit or idle < self.idle_limit, \
                "JB-20: the idle limit ends the game"

    def check_transition(self, before: tuple, after: tuple) -> None:
        if before[0] == SHUFFLE:
            return                                   # JB-4: the tiles are being laid
        b_board, a_board = before[2], after[2]
        for f in range(FIELDS):
            if a_board[f] >= 0:
                assert a_board[f] == b_board[f], (
                    f"JB-13: tiles only ever leave the board, but {field_name(f)} now holds "
                    f"tile {a_board[f]} (before: {b_board[f]})")
        for s, owner in enumerate(before[5]):
            if owner >= 0:
                assert after[5][s] == owner, (
                    f"JB-15: square {square_name(s)} of {seat_name(owner)} changed owner")
        for p in range(self.num_players):
            assert set(before[6][p]) <= set(after[6][p]), \
                f"JB-14: {seat_name(p)} lost a Janus head"
            if not self.from_tolls:          # JB-17's option lets a toll be paid from tolls
                assert after[7][p] >= before[7][p], \
                    f"JB-16: {seat_name(p)}'s tolls went down"
        # JB-3: coins only move between hands, circles and toll piles (check_invariants).


class JanusState(State):
    """A Janus position, with the readable properties a canvas needs."""

    __slots__ = ()

    @property
    def phase(self) -> str:
        """'shuffle', 'move', 'bonus' (a second move) or 'over'."""
        return PHASE_NAMES[self.raw[0]]

    @property
    def mover(self) -> int:
        """The seat whose turn it is (also while the game is over: the last mover)."""
        return self.raw[1]

    @property
    def table(self) -> tuple[Tile, ...]:
        """The 100 tiles of the set in play (table index → :class:`Tile`)."""
        return self.engine.table

    @property
    def tile_ids(self) -> tuple[int | None, ...]:
        """Per field (0 = a1 … 99 = j10): the table index of the tile there, or None."""
        return tuple(t if t >= 0 else None for t in self.raw[2])

    @property
    def tiles(self) -> tuple[Tile | None, ...]:
        """Per field: the :class:`Tile` lying there (colour, distance, lines, head) or None."""
        table = self.engine.table
        return tuple(table[t] if t >= 0 else None for t in self.raw[2])

    def tile_at(self, field: int | str) -> Tile | None:
        """The tile on a field given as a number or a name ('c4'), or None if empty."""
        f = parse_field(field) if isinstance(field, str) else field
        if not 0 <= f < FIELDS:
            raise ValueError(f"field {field!r} is not on the board (0 … {FIELDS - 1})")
        t = self.raw[2][f]
        return self.engine.table[t] if t >= 0 else None

    @property
    def tiles_left(self) -> int:
        """Tiles still on the board."""
        return self.raw[8]

    @property
    def columns(self) -> tuple[int, ...]:
        """The field of each seat's column."""
        return self.raw[3]

    @property
    def column_names(self) -> tuple[str, ...]:
        """The field name of each seat's column."""
        return tuple(field_name(f) for f in self.raw[3])

    @property
    def coins(self) -> tuple[int, ...]:
        """Each seat's own coins still in hand."""
        return self.raw[4]

    @property
    def owners(self) -> tuple[int | None, ...]:
        """Per square (0 = a1–b2 … 24 = i9–j10, row by row): the owning seat or None."""
        return tuple(o if o >= 0 else None for o in self.raw[5])

    @property
    def square_values(self) -> tuple[int, ...]:
        """Per square: its value (printed on its payment circle)."""
        return self.engine.values

    @property
    def heads(self) -> tuple[tuple[Tile, ...], ...]:
        """Per seat: the Janus heads won, in the order won."""
        table = self.engine.table
        return tuple(tuple(table[h] for h in hs) for hs in self.raw[6])

    @property
    def tolls(self) -> tuple[int, ...]:
        """Per seat: toll coins received from other players (a point each)."""
        return self.raw[7]

    @property
    def targets(self) -> tuple[int, ...]:
        """Fields the column to move may go to now (empty if it must pass)."""
        if self.raw[0] not in (MOVE, BONUS):
            return ()
        return self.engine.moves(self.raw)

    @property
    def end_reason(self) -> str | None:
        """Why the game ended: 'tiles-gone', 'no-coins', 'stuck', 'idle'; None while on."""
        return END_NAMES[self.raw[11]] if self.raw[0] == OVER else None

    @property
    def idle_turns(self) -> int:
        """Turns in a row without a tile removed or a coin paid (JB-20)."""
        return self.raw[9]


def _seat_of(value: int | str, n: int) -> int:
    if isinstance(value, str):
        return seat_index(value, n)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        raise ValueError(f"{value!r} is not a seat here (0 … {n - 1} or a letter)")
    return value


def _field_of(value: int | str) -> int:
    if isinstance(value, str):
        return parse_field(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < FIELDS:
        raise ValueError(f"{value!r} is not a field (0 … {FIELDS - 1} or a name like 'c4')")
    return value


def position(variant: JanusVariant | None = None, *,
             tiles: Mapping[int | str, int | str | Tile] | None = None,
             fill: bool = True, empty: Iterable[int | str] = (),
             columns: Sequence[int | str] | None = None, to_move: int | str = 0,
             phase: str = "move", coins: Sequence[int] | None = None,
             owners: Mapping[int | str, int | str] | None = None,
             heads: Mapping[int | str, Sequence[int | str | Tile]] | None = None,
             tolls: Sequence[int] | None = None, idle: int = 0, passes: int = 0,
             seed: int = 0, **options: Any) -> JanusState:
    """Build a Janus position by hand (for lessons and tests); checked for consistency.

    ``tiles`` maps fields ('c4' or 33) to tiles: a code such as 'R3+', a
    :class:`Tile`, or a table index; each names an unused tile of the set.
    With ``fill`` the other fields get the remaining tiles in table order,
    except the fields listed in ``empty``; without it they stay empty.
    ``owners`` maps a field of a square (e.g. 'a1' for a1–b2) to a seat;
    ``heads`` maps seats to the heads they hold. ``coins`` (one number per
    seat) default to the starting coins less one per square owned. ``options``
    change the variant; its ``coins`` option goes in ``variant`` since the
    keyword means the coins in hand here.

    >>> s = position(tiles={"a1": "R1-"}, fill=False, columns=("a1", "j10"))
    >>> s.tiles_left, [str(m) for m in s.legal_moves()]
    (1, ['b1'])
    """
    variant = GAME.variant(variant, **options)
    eng: JanusEngine = GAME.engine(variant)  # type: ignore[assignment]
    n = variant.players
    table = eng.table
    used: set[int] = set()

    def tile_index(spec: int | str | Tile, where: str) -> int:
        if isinstance(spec, bool):
            raise ValueError(f"{where}: {spec!r} is not a tile")
        if isinstance(spec, int):
            if not 0 <= spec < FIELDS:
                raise ValueError(f"{where}: tile index {spec} is not 0 … {FIELDS - 1}")
            if spec in used:
                raise ValueError(f"{where}: tile {spec} ({table[spec].code}) is used twice")
            used.add(spec)
            return spec
        tile = Tile.from_code(spec) if isinstance(spec, str) else spec
        for k, candidate in enumerate(table):
            if candidate == tile and k not in used:
                used.add(k)
                return k
        raise ValueError(f"{where}: the tile set has no unused {tile.code} tile")

    holding: list[tuple[int, ...]] = [() for _ in range(n)]
    for who, specs in (heads or {}).items():
        p = _seat_of(who, n)
        holding[p] = tuple(tile_index(s, f"heads of {seat_name(p)}") for s in specs)
    board = [EMPTY] * FIELDS
    for where, spec in (tiles or {}).items():
        f = _field_of(where)
        board[f] = tile_index(spec, field_name(f))
    if fill:
        blank = {_field_of(e) for e in empty}
        rest = [k for k in range(FIELDS) if k not in used]
        open_fields = [f for f in range(FIELDS) if board[f] == EMPTY and f not in blank]
        if len(open_fields) > len(rest):
            raise ValueError(f"fill: {len(open_fields)} fields to fill but only "
                             f"{len(rest)} tiles left (heads held are off the board); "
                             "list the fields to leave empty in empty=")
        for f, k in zip(open_fields, rest):
            board[f] = k
    cols = tuple(_field_of(c) for c in columns) if columns is not None else eng.corners
    if len(cols) != n:
        raise ValueError(f"columns: give one field per seat ({n} seats)")
    own = [NOBODY] * SQUARES
    for where, who in (owners or {}).items():
        own[square_of(_field_of(where))] = _seat_of(who, n)
    if coins is None:
        coins = tuple(variant.coins - own.count(p) for p in range(n))
    toll_list = tuple(tolls) if tolls is not None else (0,) * n
    phases = {"move": MOVE, "bonus": BONUS}
    if phase not in phases:
        raise ValueError(f"phase={phase!r}: use 'move' or 'bonus'")
    left = sum(1 for t in board if t >= 0)
    raw = (phases[phase], _seat_of(to_move, n), tuple(board), cols, tuple(coins),
           tuple(own), tuple(holding), toll_list, left, idle, passes, 0)
    return GAME.from_raw(raw, variant, seed=seed)  # type: ignore[return-value]


def _sample_variants() -> list[JanusVariant]:
    return [JanusVariant(), JanusVariant(players=3), JanusVariant(players=4),
            JanusVariant(players=4, corner_order="anticlockwise"),
            JanusVariant(players=3, corner_order="opposite", distances="1-3"),
            JanusVariant(pass_columns=False, empty_fields="block", distances="2-4"),
            JanusVariant(players=3, chain_bonus=True, bonus_optional=False),
            JanusVariant(players=4, coins=3, toll_shortfall="from-tolls"),
            JanusVariant(idle_rounds=1, distances="1-4"),
            JanusVariant(players=3, toll_fields="entered", coins=4,
                         toll_shortfall="from-tolls"),
            JanusVariant(stuck="step"),
            JanusVariant(players=4, stuck="step", empty_fields="block")]


#: The named rulesets (JB-16; see "Rulesets" in seeds/janus.md).
RULESETS = (
    Ruleset("rulebook", {},
            source="the Janus rulebook (Rudi Hoffmann; Spear 1975, Franckh-Kosmos 1988), "
                   "as seeds/janus.md reads it",
            note="A toll is due for each field of another player's square a move lands on."),
    Ruleset("tolls on every field", {"toll_fields": "entered"},
            source="summaries of the 1988 Kosmos edition, which charge 1 coin per field "
                   "crossed",
            note="A toll is due for every field of another player's square the column "
                 "comes to, crossed or landed on."),
)


GAME: Game[JanusVariant] = Game(
    name="janus", title="Janus", rule_prefix="JB", variant_cls=JanusVariant,
    engine_cls=JanusEngine, state_cls=JanusState,
    draw_module="janus_widgets.games.janus.draw",
    summary="Move your column as the tile under it says, remove the tiles you leave, "
            "win squares by taking their last tile and collect tolls; Janus heads earn "
            "second moves.",
    sample_variants=_sample_variants, rulesets=RULESETS,
    playing_time=(20, 40))                      # the box: 20–40 minutes (shared/FACTS.md)

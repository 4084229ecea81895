"""Fixed-size observation vectors: what one seat may see, as numbers in [0, 1].

OpenSpiel's observation tensor and PettingZoo's ``"observation"`` are the same
vector, made here from nothing but ``state.view(seat)`` (in the card game the
:class:`~janus_widgets.games.janus_cards.views.CardsView`, so no hidden side
can leak into it; in the other three games the view is the state itself). The
size depends on the game and its variant (number of seats, symbols), never on
the position.

Every encoding is a concatenation of named parts, listed by
:attr:`Encoder.parts` and documented per game below and in
``docs/interop.md``. Seats are absolute (seat A first); the ``observer`` part
says which seat is looking (all zeros for the teacher's view, ``seat=None``)
and ``to_move`` which seat acts (all zeros at a chance point or at the end).
Counts are divided by their largest possible value, so every number lies in
[0, 1].

>>> from janus_widgets import games
>>> state = games.get("jactus").new(seed=1).play("r*").play("=12346")
>>> enc = encoder(state.game, state.variant)
>>> enc.size, [name for name, _ in enc.parts][:4]
(33, ['phase', 'seat', 'to_move', 'observer'])
>>> vec = enc.encode(state.view(1), 1)
>>> (5 * enc.unpack(vec)["dice"]).round(3).tolist()    # one each of 1, 2, 3, 4, 6
[1.0, 1.0, 1.0, 1.0, 0.0, 1.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["Encoder", "encoder", "JactusEncoder", "JinnsEncoder", "JanusEncoder",
           "CardsEncoder"]


class Encoder:
    """Turns a seat's view into a float32 vector of :attr:`size` numbers in [0, 1].

    Subclasses set :attr:`parts` (name, shape) in order and fill them in
    :meth:`_fill`; :meth:`unpack` gives the named, shaped pieces of a vector.
    """

    #: The registry name of the game encoded.
    game: str = ""

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.num_players: int = engine.num_players
        self.parts: tuple[tuple[str, tuple[int, ...]], ...] = tuple(self._parts())
        self._slices = []
        offset = 0
        for name, shape in self.parts:
            size = int(np.prod(shape))
            self._slices.append((name, offset, offset + size, shape))
            offset += size
        self.size = offset

    def _parts(self) -> Sequence[tuple[str, tuple[int, ...]]]:
        raise NotImplementedError

    def _fill(self, view: Any, seat: int | None, out: dict[str, np.ndarray]) -> None:
        raise NotImplementedError

    def unpack(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """The named parts of ``vector``, reshaped (views on the same memory)."""
        return {name: vector[start:stop].reshape(shape)
                for name, start, stop, shape in self._slices}

    def encode(self, view: Any, seat: int | None, out: np.ndarray | None = None
               ) -> np.ndarray:
        """The vector of ``view`` as seen by ``seat`` (``None``: the teacher's view).

        ``out``, if given, is a float32 array of :attr:`size` filled in place.
        """
        if out is None:
            out = np.zeros(self.size, np.float32)
        else:
            out.fill(0.0)
        self._fill(view, seat, self.unpack(out))
        return out

    def _seats(self, out: dict[str, np.ndarray], seat: int | None, to_move: int) -> None:
        if seat is not None:
            out["observer"][seat] = 1.0
        if to_move >= 0:
            out["to_move"][to_move] = 1.0

    def describe(self) -> str:
        """The parts as a short table (name, shape, offset)."""
        lines = []
        offset = 0
        for name, shape in self.parts:
            size = int(np.prod(shape))
            lines.append(f"{name:<16} {str(shape):<14} {offset:>6} … {offset + size - 1}")
            offset += size
        return "\n".join(lines)


# --- Jactus ----------------------------------------------------------------------------
class JactusEncoder(Encoder):
    """Jactus (n seats): ``phase`` (5: open, throw, pick, claim, over), ``seat`` (n: whose
    turn or throw it is, or the winner), ``to_move`` (n), ``observer`` (n), ``dice``
    (6: how many dice on the table show each face, /5), ``holdings`` (n×3: Venus
    cards, dogs, coins held, each / the number in play), ``supply`` (3, likewise),
    ``can_score`` (1: the coming throw can score, JA-13), ``claim_face`` (6: the face
    thrown five times while a claim is chosen)."""

    game = "jactus"

    def _parts(self) -> Sequence[tuple[str, tuple[int, ...]]]:
        n = self.num_players
        return [("phase", (5,)), ("seat", (n,)), ("to_move", (n,)), ("observer", (n,)),
                ("dice", (6,)), ("holdings", (n, 3)), ("supply", (3,)),
                ("can_score", (1,)), ("claim_face", (6,))]

    def _fill(self, view: Any, seat: int | None, out: dict[str, np.ndarray]) -> None:
        from ..games.jactus.rules import CLAIM, OPEN, PICK, THROW
        eng = self.engine
        phase, mover, dice, holds, supply, aux = view.raw
        out["phase"][phase] = 1.0
        out["seat"][mover] = 1.0
        self._seats(out, seat, eng.current(view.raw))
        for v in dice:
            out["dice"][v - 1] += 0.2
        totals = eng.totals
        for p, held in enumerate(holds):
            for k in range(3):
                out["holdings"][p, k] = held[k] / totals[k]
        for k in range(3):
            out["supply"][k] = supply[k] / totals[k]
        if phase == THROW:
            out["can_score"][0] = 1.0 if aux else 0.0
        elif phase == PICK:
            out["can_score"][0] = 1.0
        elif phase == OPEN:
            out["can_score"][0] = 1.0 if (eng.opening_scores or not aux) else 0.0
        if phase == CLAIM:
            out["claim_face"][aux - 1] = 1.0


# --- Jinns of the Lake --------------------------------------------------------------------
class JinnsEncoder(Encoder):
    """Jinns of the Lake (n seats): ``piles`` (32 cells × 4 levels from the bottom × 5:
    colour yellow/blue/red/green one-hot, strength/4), ``phase`` (6: setup, deal, play,
    split, three, over), ``to_move`` (n), ``observer`` (n), ``scores`` (n: /128, the most
    32 pawns can score), ``taken`` (n: towers or parts held, /32), ``passes`` (1: passes
    in a row / n), ``repetitions`` (1: occurrences of this position / the limit),
    ``supply`` (16: pawns of each kind not yet placed, /2), ``run_colour`` (4: the colour
    of the run being placed), ``pending_tower`` (4×5: the tower to split, 4 players),
    ``pending_cell`` (32: the pile of three just made), ``set_aside`` (1: pawns left out
    of a built position, /32)."""

    game = "jinns"

    def _parts(self) -> Sequence[tuple[str, tuple[int, ...]]]:
        n = self.num_players
        return [("piles", (32, 4, 5)), ("phase", (6,)), ("to_move", (n,)),
                ("observer", (n,)), ("scores", (n,)), ("taken", (n,)), ("passes", (1,)),
                ("repetitions", (1,)), ("supply", (16,)), ("run_colour", (4,)),
                ("pending_tower", (4, 5)), ("pending_cell", (32,)), ("set_aside", (1,))]

    def _fill(self, view: Any, seat: int | None, out: dict[str, np.ndarray]) -> None:
        from ..games.jinns.rules import (DEAL, OVER, PAWN_COLOUR, PAWN_STRENGTH, PLAY, SETUP,
                                         SPLIT, THREE, pile_pawns)
        eng = self.engine
        raw = view.raw
        phase, _, board, occ, taken, passes, seen, aux, aside = raw
        piles = out["piles"]
        for cell, code in enumerate(board):
            if code:
                for level, p in enumerate(pile_pawns(code)):
                    piles[cell, level, PAWN_COLOUR[p]] = 1.0
                    piles[cell, level, 4] = PAWN_STRENGTH[p] / 4.0
        out["phase"][phase] = 1.0
        self._seats(out, seat, eng.current(raw))
        for p, score in enumerate(eng.scores(raw)):
            out["scores"][p] = score / 128.0
        for p, parts in enumerate(taken):
            out["taken"][p] = len(parts) / 32.0
        out["passes"][0] = passes / self.num_players
        if eng.limit and seen and phase in (PLAY, OVER):
            out["repetitions"][0] = seen.count(seen[-1]) / eng.limit
        if phase in (SETUP, DEAL):
            for k, count in enumerate(aux):
                out["supply"][k] = count / 2.0
        if phase == SETUP:
            out["run_colour"][eng.schedule[len(occ)][0]] = 1.0
        if phase == SPLIT:
            for level, p in enumerate(pile_pawns(aux)):
                out["pending_tower"][level, PAWN_COLOUR[p]] = 1.0
                out["pending_tower"][level, 4] = PAWN_STRENGTH[p] / 4.0
        if phase == THREE:
            out["pending_cell"][aux] = 1.0
        out["set_aside"][0] = len(aside) / 32.0


# --- Janus (board game) -------------------------------------------------------------------
class JanusEncoder(Encoder):
    """Janus (n seats): ``tiles`` (100 fields a1…j10 × 11: a tile lies here, its colour
    red/yellow/green/blue one-hot, distance/9, the lines it allows - | / \\, Janus head),
    ``columns`` (n×100: where each seat's column stands), ``owners`` (n×25: the squares
    each seat owns), ``square_values`` (25: /9), ``coins`` (n: coins in hand / the coins
    each started with), ``tolls`` (n: toll coins received / all coins), ``heads`` (n×4:
    Janus heads held per colour / the heads of that colour in the tile set),
    ``left`` (1: tiles on the board /100), ``idle`` (1: turns without progress / the
    idle limit), ``passes`` (1: forced passes in a row / n), ``phase`` (4: shuffle, move,
    bonus, over), ``to_move`` (n), ``observer`` (n)."""

    game = "janus"

    def __init__(self, engine: Any) -> None:
        super().__init__(engine)
        from ..games.janus.components import COLOURS, LINE_ORDER, line_set
        table = engine.table
        feats = np.zeros((len(table), 11), np.float32)
        for t, tile in enumerate(table):
            feats[t, 0] = 1.0
            feats[t, 1 + COLOURS.index(tile.colour)] = 1.0
            feats[t, 5] = tile.distance / 9.0
            lines = line_set(tile.lines)
            for i, ch in enumerate(LINE_ORDER):
                feats[t, 6 + i] = 1.0 if ch in lines else 0.0
            feats[t, 10] = 1.0 if tile.head else 0.0
        self._tile_feats = feats
        self._colour_heads = [sum(1 for t in table if t.head and t.colour == c)
                              for c in COLOURS]
        self._square_values = np.array(engine.values, np.float32) / 9.0

    def _parts(self) -> Sequence[tuple[str, tuple[int, ...]]]:
        n = self.num_players
        return [("tiles", (100, 11)), ("columns", (n, 100)), ("owners", (n, 25)),
                ("square_values", (25,)), ("coins", (n,)), ("tolls", (n,)),
                ("heads", (n, 4)), ("left", (1,)), ("idle", (1,)), ("passes", (1,)),
                ("phase", (4,)), ("to_move", (n,)), ("observer", (n,))]

    def _fill(self, view: Any, seat: int | None, out: dict[str, np.ndarray]) -> None:
        eng = self.engine
        raw = view.raw
        phase, _, board, cols, coins, owners, heads, tolls, left, idle, passes, _ = raw
        n = self.num_players
        where = np.asarray(board)
        laid = where >= 0
        out["tiles"][laid] = self._tile_feats[where[laid]]
        for p, f in enumerate(cols):
            out["columns"][p, f] = 1.0
        for s, o in enumerate(owners):
            if o >= 0:
                out["owners"][o, s] = 1.0
        out["square_values"][:] = self._square_values
        start = eng.start_coins
        for p in range(n):
            out["coins"][p] = coins[p] / start
            out["tolls"][p] = tolls[p] / (n * start)
            for t in heads[p]:
                c = eng.colour[t]
                out["heads"][p, c] += 1.0 / self._colour_heads[c]
        out["left"][0] = left / 100.0
        out["idle"][0] = idle / eng.idle_limit if eng.idle_limit else 0.0
        out["passes"][0] = passes / n
        out["phase"][phase] = 1.0
        self._seats(out, seat, eng.current(raw))


# --- Janus (1993) card game ---------------------------------------------------------------
class CardsEncoder(Encoder):
    """Janus (1993) card game (n seats, S symbols, a deck of D cards), from the
    :class:`CardsView` only: ``hands`` (n seats × 4 slots × (1 + 2S + 2n): a card lies
    here, the symbol on its front (the side facing its holder) and on its back, one-hot,
    all zeros where the observer has not seen that side, then which seats have seen the
    front and which the back), ``pile`` (D places, top first × (1 + 2S): the turned-up
    pile, face-up side then the side below), ``unturned`` (1: cards nobody has seen /D),
    ``trios`` (n + 1: trios each seat owns, then trios nobody owns, /(D // 3)),
    ``trio_symbols`` (S: trios laid of each symbol / the most a symbol allows),
    ``agreed`` (n), ``stall`` (1: turns without a trio / the limit), ``phase`` (4: deal,
    reveal, play, over), ``to_move`` (n), ``turn`` (n: whose turn, also while a card
    turns up), ``observer`` (n), ``pending_draw`` (1: the second card of a two-card pile
    draw is turning up). The no-trio facts of the view are not in the vector (the
    observation string has them)."""

    game = "janus-cards"

    def __init__(self, engine: Any) -> None:
        from ..games.janus_cards.tables import SYMBOL_NAMES, deck_size
        self.symbols = engine.variant.symbols
        self.deck = deck_size(self.symbols)
        self._index = {name: i for i, name in enumerate(SYMBOL_NAMES)}
        super().__init__(engine)

    def _parts(self) -> Sequence[tuple[str, tuple[int, ...]]]:
        n, s, d = self.num_players, self.symbols, self.deck
        return [("hands", (n, 4, 1 + 2 * s + 2 * n)), ("pile", (d, 1 + 2 * s)),
                ("unturned", (1,)), ("trios", (n + 1,)), ("trio_symbols", (s,)),
                ("agreed", (n,)), ("stall", (1,)), ("phase", (4,)), ("to_move", (n,)),
                ("turn", (n,)), ("observer", (n,)), ("pending_draw", (1,))]

    def _card(self, row: np.ndarray, card: Any, seen_by: bool) -> None:
        s = self.symbols
        index = self._index
        row[0] = 1.0
        if card.front is not None:
            row[1 + index[card.front]] = 1.0
        if card.back is not None:
            row[1 + s + index[card.back]] = 1.0
        if seen_by:
            base = 1 + 2 * s
            n = self.num_players
            for w in card.front_seen_by:
                row[base + w] = 1.0
            for w in card.back_seen_by:
                row[base + n + w] = 1.0

    def _fill(self, view: Any, seat: int | None, out: dict[str, np.ndarray]) -> None:
        from ..games.janus_cards.tables import PHASE_NAMES
        for p, hand in enumerate(view.hands):
            for i, card in enumerate(hand):
                self._card(out["hands"][p, i], card, True)
        for i, card in enumerate(view.pile):
            self._card(out["pile"][i], card, False)
        out["unturned"][0] = view.unturned / self.deck
        most = self.deck // 3
        per_symbol = max(1, self.symbols // 3)
        n = self.num_players
        for trio in view.trios:
            out["trios"][n if trio.owner is None else trio.owner] += 1.0 / most
            out["trio_symbols"][self._index[trio.symbol]] += 1.0 / per_symbol
        for p in view.agreed:
            out["agreed"][p] = 1.0
        out["stall"][0] = view.stall / view.stall_limit
        out["phase"][PHASE_NAMES.index(view.phase)] = 1.0
        self._seats(out, seat, view.to_move)
        out["turn"][view.turn] = 1.0
        out["pending_draw"][0] = 1.0 if view.pending_draw else 0.0


_ENCODERS: dict[str, type[Encoder]] = {
    "jactus": JactusEncoder, "jinns": JinnsEncoder, "janus": JanusEncoder,
    "janus-cards": CardsEncoder}
_CACHE: dict[tuple[str, Any], Encoder] = {}


def encoder(game: Any, variant: Any = None) -> Encoder:
    """The encoder of a game (a :class:`Game` or its name) under a variant (made once)."""
    from .. import games as registry
    game_obj = registry.get(game) if isinstance(game, str) else game
    variant = game_obj.variant(variant)
    key = (game_obj.name, variant)
    enc = _CACHE.get(key)
    if enc is None:
        if game_obj.name not in _ENCODERS:
            raise ValueError(f"no observation encoding for {game_obj.name!r}; the encoded "
                             f"games are: {', '.join(_ENCODERS)}")
        enc = _CACHE[key] = _ENCODERS[game_obj.name](game_obj.engine(variant))
    return enc

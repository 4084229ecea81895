"""The shared protocol: variants, states, moves, chance, views, errors, records, replay."""

from .errors import (IllegalMoveError, InvalidMoveError, JanusError, RecordError,
                     VariantError)
from .protocol import (CHANCE, TERMINAL, Engine, Explanation, Game, Move, MoveList, State,
                       seat_index, seat_name)
from .record import Record
from .replay import Replay
from .rng import RandomStream, chance_rng
from .variant import CUSTOM, Ruleset, Variant, option

__all__ = [
    "CHANCE", "TERMINAL", "Engine", "Explanation", "Game", "Move", "MoveList", "State",
    "Variant", "option", "Ruleset", "CUSTOM", "Record", "Replay", "RandomStream", "chance_rng",
    "IllegalMoveError", "InvalidMoveError", "JanusError", "RecordError", "VariantError",
    "seat_name", "seat_index",
]

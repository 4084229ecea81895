"""The shared protocol: variants, states, moves, chance, views, errors, records, replay."""

from .errors import (ArgumentError, IllegalMoveError, InvalidMoveError, JanusError,
                     RecordError, VariantError)
from .protocol import (CHANCE, TABLE, TERMINAL, Engine, Explanation, Game, Move, MoveList,
                       State, seat_index, seat_name)
from .record import Record
from .replay import Replay
from .seat_record import SeatRecord, read_record
from .rng import RandomStream, chance_rng
from .variant import CUSTOM, Ruleset, Variant, option

__all__ = [
    "CHANCE", "TERMINAL", "TABLE", "Engine", "Explanation", "Game", "Move", "MoveList",
    "State", "Variant", "option", "Ruleset", "CUSTOM", "Record", "SeatRecord", "read_record",
    "Replay", "RandomStream", "chance_rng",
    "IllegalMoveError", "InvalidMoveError", "JanusError", "RecordError", "VariantError",
    "ArgumentError", "seat_name", "seat_index",
]

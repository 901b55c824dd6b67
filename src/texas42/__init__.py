"""texas42: Texas 42 dominoes, an exact rules engine under every house rule.

The package is layered, each layer importing only from those below it: the core (`texas42.core`:
the rules of 42 as plain values, pure Python with no I/O), search (the exact solver and the deal
sampler), players (the bots), services (the arena, the engine protocol, the RL environments) and
faces (the command line, the terminal game and the web table). This module re-exports the core's
public API.
"""

from texas42.core.actions import (
    Action,
    Bid,
    Declare,
    Discard,
    Pass,
    Play,
    action_from_id,
    parse_action,
)
from texas42.core.contracts import Contract
from texas42.core.errors import IllegalActionError, NotationError, RulesError, Texas42Error
from texas42.core.game import Game, Outcome
from texas42.core.hand import Hand, HandResult
from texas42.core.layout import Layout, layout_of
from texas42.core.progress import Phase
from texas42.core.record import CheckReport, Record, RecordError, check_record, record_from_game
from texas42.core.rules import Rules
from texas42.core.tiles import hand_name, parse_hand, parse_tile, tile_name
from texas42.core.view import View

__all__ = [
    "Action",
    "Bid",
    "CheckReport",
    "Contract",
    "Declare",
    "Discard",
    "Game",
    "Hand",
    "HandResult",
    "IllegalActionError",
    "Layout",
    "NotationError",
    "Outcome",
    "Pass",
    "Phase",
    "Play",
    "Record",
    "RecordError",
    "Rules",
    "RulesError",
    "Texas42Error",
    "View",
    "action_from_id",
    "check_record",
    "hand_name",
    "layout_of",
    "parse_action",
    "parse_hand",
    "parse_tile",
    "record_from_game",
    "tile_name",
]
__version__ = "0.2.0"
"""The package version; pyproject.toml reads it from here."""

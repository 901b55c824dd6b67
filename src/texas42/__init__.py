"""texas42: Texas 42 dominoes, an exact rules engine under every house rule.

The core (tiles, rules, contracts, actions, hand, game, view, notation, record, svg) is pure Python
with no I/O; the CLI and the bots are layers on top of it.
"""

from texas42.actions import Action, Bid, Declare, Discard, Pass, Play, action_from_id, parse_action
from texas42.contracts import Contract
from texas42.errors import IllegalActionError, NotationError, RulesError, Texas42Error
from texas42.game import Game, Outcome
from texas42.hand import Hand, HandResult, Phase
from texas42.layout import Layout, layout_of
from texas42.record import CheckReport, Record, RecordError, check_record, record_from_game
from texas42.rules import Rules
from texas42.tiles import hand_name, parse_hand, parse_tile, tile_name
from texas42.view import View

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
__version__ = "0.1.0"

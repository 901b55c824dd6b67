"""Game records (``record-format.md`` version 1): read, write, and check them against the rules.

`Record` is the record as data: reading accepts every alias of the format (``"42"`` for ``"1m"``,
digits and traditional names for suits, tiles written either way round) and writing emits the
canonical spellings, so ``Record.from_json(text).to_json()`` normalises a record. `check_record`
replays a record with the engine (`Game`), so a record is judged by exactly the rules play uses,
and reports what ``texas42 check`` prints. Problems are `RecordError`: status 2 when the record
cannot be read, status 1 when it breaks a rule, always with the hand, field, place and seat.

>>> import random
>>> from texas42 import Game, Record, Rules, check_record, record_from_game
>>> game, rng = Game(Rules(), seed=1), random.Random(1)
>>> while not game.is_over():
...     game.apply(rng.choice(game.legal_actions()))
>>> record = Record.from_json(record_from_game(game).to_json())
>>> report = check_record(record)
>>> report.score == game.score and report.winner == game.outcome().winner
True
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from texas42.core.actions import ACTIONS, Action, Declare, Discard, Play, parse_call
from texas42.core.contracts import SUIT_WORDS, Contract
from texas42.core.deal import check_widow
from texas42.core.errors import NotationError, Texas42Error
from texas42.core.game import Game
from texas42.core.hand import Hand, HandResult
from texas42.core.layout import Layout, layout_of
from texas42.core.numerals import MAX_DIGITS
from texas42.core.progress import Phase
from texas42.core.reasons import Reason
from texas42.core.rules import Rules
from texas42.core.tiles import hand_name, parse_tile, tile_name

FORMAT = "texas42"
VERSION = 1

BROKEN = 1
"""Exit status of a record that breaks a rule."""
UNREADABLE = 2
"""Exit status of a record that cannot be read: not JSON, a missing field, an unknown word."""

MAX_RECORD_BYTES = 1_000_000
"""The largest record read (a whole game is some kilobytes): a reader stops at one byte more."""
MAX_DEPTH = 32
"""How deep a record's lists and objects may nest (a record needs four)."""

_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[{]|[\]}]|\d{' + str(MAX_DIGITS + 1) + ",}", re.S)
"""What `_check_text` looks at in a record's text: strings (skipped whole, so their brackets and
digits do not count), brackets, and numbers too long to be a record's."""


class RecordError(Texas42Error):
    """A record that cannot be read or breaks a rule, and where: ``str()`` is the one-line report.

    ``hand`` and ``index`` count from 1 (``index`` is the place in the field's list: the call, the
    play, or the seat + 1 in ``deal``); ``seat`` is the seat that acted, when one did.
    """

    def __init__(
        self,
        message: str,
        *,
        status: int,
        field: str | None,
        hand: int | None = None,
        index: int | None = None,
        seat: int | None = None,
    ) -> None:
        self.message = message
        self.status = status
        self.field = field
        self.hand = hand
        self.index = index
        self.seat = seat
        super().__init__(self.line())

    def line(self) -> str:
        """``hand 1, play 10 (seat 1): 3-2 does not follow fives; seat 1 holds 6-5``."""
        parts = []
        if self.hand is not None:
            parts.append(f"hand {self.hand}")
        if self.field is not None and self.field != "hands":
            parts.append(self.field if self.index is None else f"{self.field} {self.index}")
        place = ", ".join(parts)
        if self.seat is not None:
            place += f" (seat {self.seat})"
        return f"{place}: {self.message}" if place else self.message

    def to_dict(self) -> dict[str, Any]:
        """The ``error`` object of ``texas42 check --json``."""
        return {
            "hand": self.hand,
            "field": self.field,
            "index": self.index,
            "seat": self.seat,
            "message": self.message,
        }


def _unreadable(
    message: str, field: str | None, hand: int | None = None, index: int | None = None
) -> RecordError:
    return RecordError(message, status=UNREADABLE, field=field, hand=hand, index=index)


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand as recorded: who shook, the deal by seat (tile masks), the calls, the contract
    (None until named, and for a reshaken hand) and the tiles in the order played. Under rules
    with a widow, ``widow`` is its mask and ``discards`` what the bid winner laid down.
    ``claims`` says where the seat on lead laid its hand down: the number of tiles played before
    each claim (`Hand.claim`). ``reasons``, when kept, has one entry per action of the hand in
    the order taken (the calls, the discards, the declaration, the plays): why the seat that
    took it did (`Reason`, as a bot explained it), or None."""

    shaker: int
    deal: tuple[int, ...]
    auction: tuple[Action, ...] = ()
    contract: Contract | None = None
    play: tuple[int, ...] = ()
    widow: int | None = None
    discards: tuple[int, ...] = ()
    claims: tuple[int, ...] = ()
    reasons: tuple[Reason | None, ...] = ()

    @property
    def action_count(self) -> int:
        """How many actions the hand records: calls, discards, the declaration, plays."""
        declared = 1 if self.contract is not None else 0
        return len(self.auction) + len(self.discards) + declared + len(self.play)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "shaker": self.shaker,
            "deal": [hand_name(mask) for mask in self.deal],
        }
        if self.widow is not None:
            out["widow"] = hand_name(self.widow)
        out["auction"] = [action.notation for action in self.auction]
        if self.discards:
            out["discards"] = [tile_name(t) for t in self.discards]
        if self.contract is not None:
            out["contract"] = str(self.contract)
        if self.contract is not None or self.play:
            out["play"] = [tile_name(t) for t in self.play]
        if self.claims:
            out["claims"] = list(self.claims)
        if any(reason is not None for reason in self.reasons):
            out["reasons"] = [None if r is None else r.to_dict() for r in self.reasons]
        return out

    @staticmethod
    def from_dict(obj: Any, number: int = 1, rules: Rules | None = None) -> HandRecord:
        """Read hand ``number`` (1-based, for error messages) of a record under ``rules``."""
        layout = layout_of(rules or Rules())
        if not isinstance(obj, dict):
            raise _unreadable("a hand is a JSON object", "hands", number)
        for name in ("shaker", "deal", "auction"):
            if name not in obj:
                raise _unreadable(f"the hand has no {name}", name, number)
        shaker = obj["shaker"]
        seats = layout.seats
        if not isinstance(shaker, int) or isinstance(shaker, bool) or not 0 <= shaker < seats:
            message = f"the shaker is a seat 0..{seats - 1}, not {json.dumps(shaker)}"
            raise _unreadable(message, "shaker", number)
        deal = _read_deal(obj["deal"], number, layout)
        widow = _read_widow(obj.get("widow"), deal, number, layout)
        auction = tuple(
            _read_call(call, number, i, rules or Rules())
            for i, call in enumerate(_list(obj, "auction", number), 1)
        )
        discards = tuple(
            _read_tile(word, number, i, "discards")
            for i, word in enumerate(_list(obj, "discards", number), 1)
        )
        contract = None
        if obj.get("contract") is not None:
            text = obj["contract"]
            if not isinstance(text, str):
                message = f"a contract is a word, not {json.dumps(text)}"
                raise _unreadable(message, "contract", number)
            try:
                contract = Contract.parse(text)
            except Texas42Error as exc:
                raise _unreadable(str(exc), "contract", number) from None
        play = tuple(
            _read_tile(word, number, i) for i, word in enumerate(_list(obj, "play", number), 1)
        )
        claims = _read_claims(_list(obj, "claims", number), number, len(play))
        hand = HandRecord(shaker, deal, auction, contract, play, widow, discards, claims)
        if "reasons" not in obj:
            return hand
        reasons = _read_reasons(_list(obj, "reasons", number), number, hand.action_count)
        return dataclasses.replace(hand, reasons=reasons)


def _read_reasons(value: list[Any], number: int, actions: int) -> tuple[Reason | None, ...]:
    """Why each action was taken: one entry per action, a reason or null."""
    if len(value) != actions:
        message = f"reasons has {len(value)} entries for the hand's {actions} actions"
        raise _unreadable(message, "reasons", number)
    out: list[Reason | None] = []
    for i, item in enumerate(value, 1):
        try:
            out.append(None if item is None else Reason.from_dict(item))
        except Texas42Error as exc:
            raise _unreadable(f"{exc} (or null)", "reasons", number, i) from None
    return tuple(out)


def _read_claims(value: list[Any], number: int, plays: int) -> tuple[int, ...]:
    """Where each claim came: a count of tiles played before it, in order, within the play."""
    out: list[int] = []
    for i, at in enumerate(value, 1):
        if not isinstance(at, int) or isinstance(at, bool) or at < 0:
            message = f"a claim is the number of tiles played before it, not {json.dumps(at)}"
            raise _unreadable(message, "claims", number, i)
        if at > plays or (out and at < out[-1]):
            message = f"claims come in order within the {plays} tiles played, not at {at}"
            raise _broken(message, "claims", number, i)
        out.append(at)
    return tuple(out)


def _list(obj: dict[str, Any], name: str, number: int) -> list[Any]:
    value = obj.get(name, [])
    if not isinstance(value, list):
        raise _unreadable(f"{name} is a list", name, number)
    return value


def _read_tiles(text: str, number: int, field: str, index: int | None) -> int:
    """The tiles of one string in a record; a tile written twice breaks a rule."""
    mask = 0
    for word in text.replace(",", " ").split():
        try:
            t = parse_tile(word)
        except Texas42Error as exc:
            raise _unreadable(str(exc), field, number, index) from None
        if mask >> t & 1:
            where = f" (first to seat {index - 1})" if field == "deal" and index else ""
            raise _broken(f"{tile_name(t)} is dealt twice{where}", field, number, index)
        mask |= 1 << t
    return mask


def _read_deal(value: Any, number: int, layout: Layout) -> tuple[int, ...]:
    """The hands as masks, one per seat; a tile dealt twice, a tile the rules take out of the
    set, or a hand of the wrong size breaks a rule."""
    seats, size = layout.seats, layout.hand_size
    if not isinstance(value, list) or len(value) != seats:
        raise _unreadable(f"a deal is a list of {seats} hands, one per seat", "deal", number)
    masks: list[int] = []
    for seat, text in enumerate(value):
        if not isinstance(text, str):
            raise _unreadable("a hand is a string of tiles", "deal", number, seat + 1)
        mask = _read_tiles(text, number, "deal", seat + 1)
        for t in range(28):
            if mask >> t & 1 and any(m >> t & 1 for m in masks):
                holder = next(s for s, m in enumerate(masks) if m >> t & 1)
                message = f"{tile_name(t)} is dealt twice (first to seat {holder})"
                raise _broken(message, "deal", number, seat + 1)
        if mask & ~layout.tiles:
            message = f"{hand_name(mask & ~layout.tiles)} is not in play under these rules"
            raise _broken(message, "deal", number, seat + 1)
        if mask.bit_count() != size:
            message = f"seat {seat} is dealt {mask.bit_count()} tiles, not {size}"
            raise _broken(message, "deal", number, seat + 1)
        masks.append(mask)
    return tuple(masks)


def _read_widow(value: Any, deal: Sequence[int], number: int, layout: Layout) -> int | None:
    """The widow's mask (None under rules without one); it may be left out when nothing is set
    aside, since it is then every tile not dealt (`check_widow`, as the hand reads it)."""
    if not layout.widow:
        if value is not None:
            raise _broken("these rules have no widow", "widow", number)
        return None
    if value is None and layout.set_aside:
        raise _unreadable("the hand has no widow", "widow", number)
    if value is not None and not isinstance(value, str):
        raise _unreadable("a widow is a string of tiles", "widow", number)
    widow = None if value is None else _read_tiles(value, number, "widow", None)
    try:
        return check_widow(widow, deal, layout)
    except NotationError as exc:
        raise _broken(str(exc), "widow", number) from None


def _read_call(value: Any, number: int, index: int, rules: Rules) -> Action:
    try:
        if isinstance(value, str):
            return parse_call(value, rules)
        if isinstance(value, int) and not isinstance(value, bool):
            return parse_call(str(value), rules)
    except Texas42Error as exc:
        raise _unreadable(str(exc), "auction", number, index) from None
    raise _unreadable(f"not a call: {json.dumps(value)}", "auction", number, index)


def _read_tile(value: Any, number: int, index: int, field: str = "play") -> int:
    if not isinstance(value, str):
        raise _unreadable(f"not a tile: {json.dumps(value)}", field, number, index)
    try:
        return parse_tile(value)
    except Texas42Error as exc:
        raise _unreadable(str(exc), field, number, index) from None


@dataclass(frozen=True, slots=True)
class Record:
    """A whole game record: the rules, the players' names by seat (optional) and the hands."""

    rules: Rules
    hands: tuple[HandRecord, ...] = ()
    players: tuple[str, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "version": VERSION, "rules": self.rules.to_dict()}
        if self.rules.seats != 4:
            out["seats"] = self.rules.seats
        if self.players is not None:
            out["players"] = list(self.players)
        out["hands"] = [hand.to_dict() for hand in self.hands]
        return out

    def to_json(self) -> str:
        """The canonical text of the record (the layout of the example records)."""
        return json.dumps(self.to_dict(), indent=1)

    @staticmethod
    def from_json(text: str) -> Record:
        """Read a record's text. Text that no record could be (larger than `MAX_RECORD_BYTES`,
        nested deeper than `MAX_DEPTH`, a number longer than `MAX_DIGITS`, a string that is not
        Unicode text) is refused before or as it is parsed, with where, as any unreadable one."""
        _check_text(text)
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise _unreadable(f"not JSON: {exc}", None) from None
        _check_strings(obj, [])
        return Record.from_dict(obj)

    @staticmethod
    def from_dict(obj: Any) -> Record:
        if not isinstance(obj, dict):
            raise _unreadable("a record is a JSON object", None)
        if obj.get("format") != FORMAT:
            found = json.dumps(obj["format"]) if "format" in obj else "nothing"
            raise _unreadable(f'expected "{FORMAT}", found {found}', "format")
        version = obj.get("version")
        if version != VERSION or isinstance(version, bool):
            found = json.dumps(version) if "version" in obj else "nothing"
            raise _unreadable(f"expected {VERSION}, found {found}", "version")
        if "rules" not in obj:
            raise _unreadable("the record has no rules", "rules")
        try:
            rules = Rules.from_dict(obj["rules"])
        except Texas42Error as exc:
            raise _unreadable(str(exc), "rules") from None
        seats = obj.get("seats", 4)
        if not isinstance(seats, int) or isinstance(seats, bool) or not 3 <= seats <= 7:
            raise _unreadable(f"seats is a number 3..7, not {json.dumps(seats)}", "seats")
        if seats != rules.seats:
            where = "" if "seats" in obj else " (a record without seats has four)"
            raise _unreadable(
                f"the record has {seats} seats{where}; its rules seat {rules.seats}", "seats"
            )
        players = obj.get("players")
        if players is not None and not (
            isinstance(players, list)
            and len(players) == seats
            and all(isinstance(name, str) for name in players)
        ):
            raise _unreadable(f"players is a list of {seats} names, by seat", "players")
        hands = obj.get("hands")
        if not isinstance(hands, list):
            raise _unreadable("the record has no list of hands", "hands")
        return Record(
            rules,
            tuple(
                HandRecord.from_dict(hand, number, rules) for number, hand in enumerate(hands, 1)
            ),
            tuple(players) if players is not None else None,
        )


def _check_text(text: str) -> None:
    """Refuse a record's text that is too large, too deeply nested or has too long a number:
    each would make the JSON parser or Python's ``int`` fail (a RecursionError, a ValueError
    past 4,300 digits) or eat memory, and none is a record."""
    if len(text) > MAX_RECORD_BYTES:
        raise _unreadable(f"a record is at most {MAX_RECORD_BYTES} bytes", None)
    depth = 0
    for token in _TOKEN.finditer(text):
        first = token.group()[0]
        if first in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                where = _line_column(text, token.start())
                message = (
                    f"not JSON: at {where}, more than {MAX_DEPTH} levels down: nested too deeply"
                )
                raise _unreadable(message, None)
        elif first in "]}":
            depth -= 1
        elif first != '"':
            where = _line_column(text, token.start())
            message = f"a number of more than {MAX_DIGITS} digits at {where}"
            raise _unreadable(message, None)


def _line_column(text: str, at: int) -> str:
    """``line 3 column 7`` (from 1), as the JSON parser's own errors say where."""
    line = text.count("\n", 0, at) + 1
    column = at - text.rfind("\n", 0, at)
    return f"line {line} column {column}"


def _check_strings(value: Any, path: list[str | int]) -> None:
    """Refuse a string (a key or a value) that is not Unicode text: JSON's ``\\ud800`` escapes
    can spell a lone surrogate, which no file, terminal or database can hold."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
            field = path[0] if path and isinstance(path[0], str) else None
            bad = ord(value[exc.start])
            place = where.lstrip(".") or "the record"
            message = f"a lone surrogate \\u{bad:04x} in {place}: not text"
            raise _unreadable(message, field) from None
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_strings(item, [*path, i])
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_strings(key, path)
            _check_strings(item, [*path, key])


def record_from_game(
    game: Game,
    players: Sequence[str] | None = None,
    reasons: Sequence[Sequence[Reason | None]] = (),
) -> Record:
    """Every hand of a game as a record, the last one possibly in progress; ``reasons``, by hand,
    why each action was taken (in the order taken; missing ones are kept as None)."""
    seats = game.layout.seats
    if players is not None and len(players) != seats:
        raise _unreadable(f"players is a list of {seats} names, by seat", "players")
    hands = []
    for k, hand in enumerate(game.hands):
        record = HandRecord(
            hand.shaker,
            hand.deal,
            tuple(ACTIONS[c] for c in hand.calls),
            hand.contract,
            tuple(hand.plays),
            hand.widow if hand.layout.widow else None,
            tuple(hand.discards),
            tuple(at for at, _ in hand.claims),
        )
        said = tuple(reasons[k]) if k < len(reasons) else ()
        if any(reason is not None for reason in said):
            count = record.action_count
            kept = (said + (None,) * count)[:count]
            record = dataclasses.replace(record, reasons=kept)
        hands.append(record)
    return Record(game.rules, tuple(hands), tuple(players) if players is not None else None)


def action_seats(rules: Rules, record: HandRecord) -> tuple[int, ...]:
    """The seat that took each action of a checked hand, in the order of ``record.reasons``
    (the calls, the discards, the declaration, the plays)."""
    trial = Hand(rules, record.shaker, record.deal, record.widow)
    actions: list[Action] = [*record.auction, *map(Discard, record.discards)]
    if record.contract is not None:
        actions.append(Declare(record.contract))
    actions.extend(map(Play, record.play))
    seats = []
    for action in actions:
        seats.append(trial.turn)
        trial.apply(action)
    return tuple(seats)


@dataclass(frozen=True, slots=True)
class CheckReport:
    """A record replayed: each hand as played and its result, the game score and the winner."""

    record: Record
    hands: tuple[Hand, ...]
    results: tuple[HandResult, ...]
    score: tuple[int, ...]
    winner: int | None

    def to_dict(self) -> dict[str, Any]:
        """What ``texas42 check --json`` prints."""
        return {
            "hands": [
                {
                    "bidder": r.bidder,
                    "bid": r.bid,
                    "contract": r.contract,
                    "tricks": r.tricks,
                    "points": list(r.points),
                    "made": r.made,
                    "score": list(r.score),
                }
                | ({} if r.claimant is None else {"claimant": r.claimant, "claimed": r.claimed})
                for r in self.results
            ],
            "score": list(self.score),
            "winner": self.winner,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict())


def check_record(record: Record) -> CheckReport:
    """Replay a record under its rules; the first action the rules forbid raises `RecordError`."""
    if not record.hands:
        return CheckReport(record, (), (), (0,) * layout_of(record.rules).sides, None)
    # The seed only shakes the hand the game deals after the record's last one, never reported.
    game = Game(
        record.rules,
        0,
        first_shaker=record.hands[0].shaker,
        deals=[h.deal for h in record.hands],
        widows=[h.widow for h in record.hands],
    )
    for k, hand_record in enumerate(record.hands):
        number = k + 1
        if k:
            _check_next_hand(game, number)
        hand = game.hands[k]
        if hand.shaker != hand_record.shaker:
            raise RecordError(
                f"seat {hand.shaker} shakes after seat {game.hands[k - 1].shaker}, "
                f"not seat {hand_record.shaker}",
                status=BROKEN,
                field="shaker",
                hand=number,
            )
        _replay_hand(game, hand, hand_record, number)
    hands = tuple(game.hands[: len(record.hands)])
    outcome = game.outcome()
    return CheckReport(
        record,
        hands,
        tuple(hand.summary() for hand in hands),
        game.score,
        outcome.winner if outcome is not None else None,
    )


def _check_next_hand(game: Game, number: int) -> None:
    """Hand ``number`` may follow only a finished hand of a game not yet won."""
    outcome = game.outcome()
    if outcome is not None:
        raise RecordError(
            f"the game was already won by team {outcome.winner} after hand {number - 1}",
            status=BROKEN,
            field="hands",
            hand=number,
        )
    if len(game.hands) < number:
        previous = game.hand
        field = {
            Phase.AUCTION: "auction",
            Phase.DISCARD: "discards",
            Phase.DECLARE: "contract",
        }.get(previous.phase, "play")
        raise RecordError(
            f"the hand is not finished, yet hand {number} follows",
            status=BROKEN,
            field=field,
            hand=number - 1,
            seat=previous.seat_to_act(),
        )


def _replay_hand(game: Game, hand: Hand, record: HandRecord, number: int) -> None:
    for i, call in enumerate(record.auction, 1):
        if hand.is_over:
            raise _broken("the auction is over: everyone passed", "auction", number, i)
        if not hand.is_legal(call):
            reason = hand.why_illegal(call) or "not legal"
            raise _broken(reason, "auction", number, i, hand.turn)
        game.apply(call)
    for i, t in enumerate(record.discards, 1):
        if hand.phase != Phase.DISCARD:
            raise _broken(
                hand.why_illegal(Discard(t)) or "no discard is due", "discards", number, i
            )
        if not hand.is_legal(Discard(t)):
            reason = hand.why_illegal(Discard(t)) or "not legal"
            raise _broken(reason, "discards", number, i, hand.turn)
        game.apply(Discard(t))
    if record.contract is None:
        if record.play:
            seat = hand.turn if hand.phase == Phase.DECLARE else None
            message = "tiles are played but no contract is named"
            raise _broken(message, "contract", number, None, seat)
        return
    declaration = Declare(record.contract)
    if hand.is_over:
        raise _broken("everyone passed and the hand was reshaken: no contract", "contract", number)
    if not hand.is_legal(declaration):
        seat = hand.turn if hand.phase == Phase.DECLARE else None
        reason = hand.why_illegal(declaration) or "not legal"
        raise _broken(reason, "contract", number, None, seat)
    game.apply(declaration)
    claims = list(enumerate(record.claims, 1))
    for i, t in enumerate(record.play, 1):
        _replay_claims(game, hand, claims, i - 1, number)
        if hand.result is not None:
            outcome = "made" if hand.result.made else "set"
            message = f"the hand was already {outcome} after trick {hand.result.tricks}"
            raise _broken(message, "play", number, i)
        if not hand.is_legal(t):
            raise _broken(_why_play_illegal(hand, t), "play", number, i, hand.turn)
        game.apply(Play(t))
    _replay_claims(game, hand, claims, len(record.play), number)


def _replay_claims(
    game: Game, hand: Hand, claims: list[tuple[int, int]], played: int, number: int
) -> None:
    """Make the claims recorded after ``played`` tiles, each by the seat to lead then."""
    while claims and claims[0][1] == played:
        index, _ = claims.pop(0)
        seat = hand.seat_to_act()
        reason = hand.why_claim_illegal(-1 if seat is None else seat)
        if seat is None or reason is not None:
            raise _broken(reason or "the hand is over", "claims", number, index, seat)
        game.claim(seat)


def _why_play_illegal(hand: Hand, t: int) -> str:
    """The reason in the record's terms (seats by number): ``3-2 does not follow fives; ...``."""
    seat = hand.turn
    if not hand.hands[seat] >> t & 1:
        return f"seat {seat} does not hold {tile_name(t)}"
    tables = hand.tables
    if hand.trick and tables is not None and not tables.sevens:
        suit = SUIT_WORDS[tables.led[hand.trick[0]]]
        holding = hand_name(hand.legal_mask())
        return f"{tile_name(t)} does not follow {suit}; seat {seat} holds {holding}"
    return hand.why_illegal(t) or "not legal"


def _broken(
    message: str, field: str, hand: int, index: int | None = None, seat: int | None = None
) -> RecordError:
    return RecordError(message, status=BROKEN, field=field, hand=hand, index=index, seat=seat)

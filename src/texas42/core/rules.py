"""House rules: one frozen `Rules` value holding every option tables differ on, with presets.

Option names and values are the canonical ones of the game record format (``record-format.md``),
plus the rest of the option catalogue of ``rules.md`` section 14. The string form is the preset
name followed by the options that differ from it, e.g. ``standard,nello=true,nello_min_marks=1``;
it round-trips and is what records, URLs and the ``--rules`` flag use.

>>> from texas42 import Rules
>>> rules = Rules.parse("standard,nello,nello_min_marks=1")
>>> str(rules)
'standard,nello=true,nello_min_marks=1'
>>> rules.nello, rules.min_bid, rules.layout.total
(True, 30, 42)
>>> Rules.parse(str(rules)) == rules
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

from texas42.core.errors import RulesError
from texas42.core.layout import (
    Layout,
    format_removed,
    hand_total,
    parse_removed,
    table_layout,
)
from texas42.core.numerals import whole_number
from texas42.core.tiles import ALL_TILES, ONE_ZERO

FirstShaker = Literal["high-draw", "random"]
DrawOrder = Literal["opponents-first", "shaker-last", "deal"]
FirstBidder = Literal["left-of-shaker", "holder-1-0", "shaker"]
AllPass = Literal["forced", "reshake"]
FollowMeDoubles = Literal["high", "low", "own"]
NelloDoubles = Literal["high", "low", "own", "own-inverted"]
SuitDoubles = Literal["high", "low"]
UndeclaredTrump = Literal["first-lead", "forbidden"]
PlungeTiming = Literal["first-bid", "jump"]
HideTricks = Literal["never", "two-marks", "mark-bids"]
GameKind = Literal["marks", "points", "moon"]
Teams = Literal["partners", "pairs", "threes", "bidder-alone", "solo"]
BidScale = Literal["points", "tricks"]
FalseClaim = Literal["play-on", "set"]

OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    "first_shaker": ("high-draw", "random"),
    "draw_order": ("opponents-first", "shaker-last", "deal"),
    "first_bidder": ("left-of-shaker", "holder-1-0", "shaker"),
    "all_pass": ("forced", "reshake"),
    "follow_me_doubles": ("high", "low", "own"),
    "nello_doubles": ("high", "low", "own", "own-inverted"),
    "suit_doubles": ("high", "low"),
    "undeclared_trump": ("first-lead", "forbidden"),
    "plunge_timing": ("first-bid", "jump"),
    "hide_tricks": ("never", "two-marks", "mark-bids"),
    "game": ("marks", "points", "moon"),
    "teams": ("partners", "pairs", "threes", "bidder-alone", "solo"),
    "bids": ("points", "tricks"),
    "false_claim": ("play-on", "set"),
}

MAX_MARKS = 7
"""The highest mark bid the engine offers: more than 7 marks can never matter in a game to 7."""


@dataclass(frozen=True, slots=True)
class Rules:
    """Every house-rule option; the defaults are the project's ``standard`` preset."""

    first_shaker: FirstShaker = "high-draw"
    draw_order: DrawOrder = "opponents-first"
    first_bidder: FirstBidder = "left-of-shaker"
    min_bid: int = 30
    max_opening_marks: int = 2
    mark_raise: int = 1
    max_bid_marks: int = MAX_MARKS
    all_pass: AllPass = "forced"
    follow_me: bool = True
    doubles_trump: bool = True
    follow_me_doubles: FollowMeDoubles = "high"
    doubles_choice: bool = True
    suit_doubles: SuitDoubles = "high"
    undeclared_trump: UndeclaredTrump = "first-lead"
    first_lead_trump: bool = False
    nello: bool = False
    nello_min_marks: int = 2
    nello_doubles: NelloDoubles = "high"
    plunge: bool = False
    plunge_marks: int = 4
    plunge_needs_66: bool = False
    splash: bool = False
    splash_marks: int = 2
    plunge_timing: PlungeTiming = "first-bid"
    sevens: bool = False
    sevens_min_marks: int = 1
    hide_tricks: HideTricks = "two-marks"
    game: GameKind = "marks"
    target: int | None = None
    cap_score: bool = False
    seats: int = 4
    teams: Teams = "partners"
    removed: str = ""
    hand_size: int = 7
    widow: int = 0
    trick_points: int = 1
    count: bool = True
    bids: BidScale = "points"
    see_partner: bool = False
    claims: bool = True
    """Whether the seat on lead may lay its hand down and claim the rest (`Hand.claim`)."""
    false_claim: FalseClaim = "play-on"
    """A claim that fails: play goes on with the hand face up, or the claimant's side loses."""
    preset_name: str = dataclasses.field(default="standard", compare=False)
    layout: Layout = dataclasses.field(init=False, repr=False, compare=False)
    """The table these rules describe (`texas42.core.layout`), derived once."""

    def __post_init__(self) -> None:
        for name, choices in OPTION_CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                raise RulesError(
                    f"rule {name} cannot be {value!r}; choose one of {', '.join(choices)}"
                )
        _check_range("max_opening_marks", self.max_opening_marks, 1, MAX_MARKS)
        _check_range("mark_raise", self.mark_raise, 1, 2)
        _check_range("max_bid_marks", self.max_bid_marks, 1, MAX_MARKS)
        _check_range("nello_min_marks", self.nello_min_marks, 1, MAX_MARKS)
        _check_range("plunge_marks", self.plunge_marks, 1, MAX_MARKS)
        _check_range("splash_marks", self.splash_marks, 1, MAX_MARKS)
        _check_range("sevens_min_marks", self.sevens_min_marks, 1, MAX_MARKS)
        if self.target is not None:
            _check_range("target", self.target, 1, 100_000)
        if not isinstance(self.removed, str):
            raise RulesError(
                f"rule removed names tiles, such as 1-0 or 6-0+5-0, not {self.removed!r}"
            )
        object.__setattr__(self, "removed", format_removed(parse_removed(self.removed)))
        _check_range("seats", self.seats, 3, 7)
        _check_range("hand_size", self.hand_size, 1, 9)
        _check_range("widow", self.widow, 0, 4)
        _check_range("trick_points", self.trick_points, 0, 5)
        _check_table(self)
        layout = table_layout(
            self.seats,
            self.teams,
            self.hand_size,
            self.widow,
            self.removed,
            self.trick_points,
            self.count,
        )
        object.__setattr__(self, "layout", layout)

    @property
    def winning_target(self) -> int:
        """Marks or points needed to win: the explicit target, else 7 marks, 250 points or 21
        in Moon."""
        if self.target is not None:
            return self.target
        return {"marks": 7, "points": 250, "moon": 21}[self.game]

    @staticmethod
    def preset(name: str) -> Rules:
        try:
            return PRESETS[name]
        except KeyError:
            raise RulesError(
                f"unknown rules preset {name!r}; presets: {', '.join(PRESETS)}"
            ) from None

    def replace(self, **options: Any) -> Rules:
        """These rules with some options changed (names and values checked)."""
        for name in options:
            if name not in OPTION_NAMES:
                raise RulesError(f"unknown rule option {name!r}")
        try:
            return dataclasses.replace(self, **options)
        except TypeError as exc:
            raise RulesError(str(exc)) from None

    def overrides(self) -> dict[str, Any]:
        """The options that differ from this value's preset, in catalogue order."""
        base = Rules.preset(self.preset_name)
        return {
            name: getattr(self, name)
            for name in OPTION_NAMES
            if getattr(self, name) != getattr(base, name)
        }

    def to_dict(self) -> dict[str, Any] | str:
        """The record-format ``rules`` value: the preset name alone, or preset plus overrides."""
        changed = self.overrides()
        if not changed:
            return self.preset_name
        return {"preset": self.preset_name, **changed}

    @staticmethod
    def from_dict(value: Any) -> Rules:
        """Read the record-format ``rules`` value: a preset name or an object of overrides."""
        if isinstance(value, str):
            return Rules.preset(value)
        if not isinstance(value, dict):
            raise RulesError("rules must be a preset name or an object of options")
        options = dict(value)
        preset_name = options.pop("preset", "standard")
        if not isinstance(preset_name, str):
            raise RulesError("rules preset must be a name")
        base = Rules.preset(preset_name)
        checked = {name: _coerce(name, raw, base) for name, raw in options.items()}
        return base.replace(**checked)

    def __str__(self) -> str:
        parts = [self.preset_name]
        for name, value in self.overrides().items():
            parts.append(f"{name}={_format_value(value)}")
        return ",".join(parts)

    @staticmethod
    def parse(text: str) -> Rules:
        """Read the string form; a bare option name means ``true``."""
        words = [w.strip() for w in text.strip().split(",")]
        if not words or not words[0]:
            raise RulesError("empty rules string; start with a preset name such as 'standard'")
        first = words[0]
        if "=" in first or first in OPTION_NAMES:
            base, rest = PRESETS["standard"], words
        else:
            base, rest = Rules.preset(first), words[1:]
        options: dict[str, Any] = {}
        for word in rest:
            name, sep, raw = word.partition("=")
            name = name.strip().replace("-", "_")
            if name not in OPTION_NAMES:
                raise RulesError(f"unknown rule option {name!r} in {text!r}")
            options[name] = _coerce(name, raw.strip() if sep else True, base)
        return base.replace(**options)

    def describe(self) -> list[str]:
        """Short lines a player reads to know which house rules are on."""
        layout = self.layout
        lines = [
            f"game to {self.winning_target} {'marks' if self.game == 'marks' else 'points'}",
        ]
        if self.seats != 4 or self.removed or self.widow:
            lines.append(layout.describe())
        if self.see_partner:
            lines.append("two-hand: each player holds both hands of a partnership and sees both")
        if self.bids == "tricks":
            lines.append(f"bids {self.min_bid} to {layout.total} tricks, or shoot the moon (21)")
        else:
            lines.append(
                f"bids from {self.min_bid}; opening mark bids up to {self.max_opening_marks}, "
                f"then {self.mark_raise} mark at a time"
            )
        lines.append(
            "all pass: the shaker must bid" if self.all_pass == "forced" else "all pass: reshake"
        )
        specials = [
            name
            for name, on in (
                (f"Nel-O from {_marks(self.nello_min_marks)}", self.nello),
                (f"Plunge ({_marks(self.plunge_marks)})", self.plunge),
                (f"Splash ({_marks(self.splash_marks)})", self.splash),
                (f"Sevens from {_marks(self.sevens_min_marks)}", self.sevens),
            )
            if on
        ]
        plain = "none (straight 42)" if self.game != "moon" else "none"
        lines.append("specials: " + (", ".join(specials) if specials else plain))
        if not self.claims:
            lines.append("no laying down: every hand is played out")
        elif self.false_claim == "set":
            lines.append("laying down: a false claim loses the hand for the claimant's side")
        return lines


OPTION_NAMES: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(Rules) if f.name not in ("preset_name", "layout")
)


def _marks(n: int) -> str:
    return f"{n} mark" if n == 1 else f"{n} marks"


def _check_range(name: str, value: object, low: int, high: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise RulesError(f"rule {name} must be a whole number from {low} to {high}, not {value!r}")


def _check_table(rules: Rules) -> None:
    """Raise `RulesError` when the table options do not fit together."""
    seats, teams = rules.seats, rules.teams
    if teams == "partners" and seats != 4:
        raise RulesError(
            "teams=partners needs 4 seats; use pairs or threes for 6, bidder-alone otherwise"
        )
    if teams in ("pairs", "threes") and seats != 6:
        raise RulesError(f"teams={teams} needs 6 seats")
    if (rules.game == "moon") != (teams == "solo"):
        raise RulesError("game=moon and teams=solo go together: in Moon each player scores alone")
    if rules.bids == "tricks" and (rules.count or rules.trick_points != 1):
        raise RulesError(
            "bids=tricks needs count=false and trick_points=1: a bid is a number of tricks"
        )
    if (rules.bids == "tricks") != (rules.game == "moon"):
        raise RulesError("bids=tricks and game=moon go together: Moon bids tricks and scores them")
    in_play = ALL_TILES & ~parse_removed(rules.removed)
    needed = seats * rules.hand_size + rules.widow
    if needed > in_play.bit_count():
        raise RulesError(
            f"{seats} hands of {rules.hand_size} and a widow of {rules.widow} need {needed} tiles; "
            f"only {in_play.bit_count()} are in play"
        )
    has_partner = teams in ("partners", "pairs")
    for name, on in (("nello", rules.nello), ("plunge", rules.plunge), ("splash", rules.splash)):
        if on and not has_partner:
            raise RulesError(f"{name} needs a partner for every seat (teams=partners or pairs)")
    if rules.see_partner and teams != "partners":
        raise RulesError("see_partner (two-hand play) needs four seats in partnerships")
    if rules.first_bidder == "holder-1-0" and (
        not in_play >> ONE_ZERO & 1 or seats * rules.hand_size < in_play.bit_count()
    ):
        raise RulesError("first_bidder=holder-1-0 needs the 1-0 dealt to a seat every hand")
    total = hand_total(in_play, rules.count, rules.trick_points, rules.hand_size)
    if rules.bids == "points" and total > 44:
        raise RulesError(f"a hand of {total} points is more than point bids reach (44 at most)")
    top = total if rules.bids == "tricks" else total - 1
    _check_range("min_bid", rules.min_bid, 1, top)
    if rules.widow and rules.bids != "tricks":
        raise RulesError("a widow is played with Moon's auction (bids=tricks)")


def seats_held(rules: Rules, seat: int) -> tuple[int, ...]:
    """The seats a person sitting at ``seat`` plays and sees: both hands of a partnership in
    two-hand play (``see_partner``), else the one seat."""
    partner = rules.layout.partner(seat)
    return (seat, partner) if rules.see_partner and partner is not None else (seat,)


def piles_face_down(rules: Rules, bid_marks: int) -> bool:
    """Whether won tricks lie face down: for bids of 2 marks or more, or any mark bid."""
    if rules.hide_tricks == "never" or not bid_marks:
        return False
    return bid_marks >= (2 if rules.hide_tricks == "two-marks" else 1)


def _format_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "default"
    return str(value)


def _coerce(name: str, raw: Any, base: Rules) -> Any:
    """Turn a string or JSON value into the type the option takes, with a clear error."""
    if name not in OPTION_NAMES:
        raise RulesError(f"unknown rule option {name!r}")
    if isinstance(raw, list | dict):
        raise RulesError(f"rule {name} is a word, a number or true/false, not a list or object")
    if isinstance(raw, int) and raw.bit_length() > 128:  # past 4,300 digits not even printable
        raise RulesError(f"rule {name} must be a whole number of at most 38 digits")
    current = getattr(base, name)
    if name == "removed":
        if not isinstance(raw, str):
            raise RulesError(f"rule removed names tiles, such as 1-0 or 6-0+5-0, not {raw!r}")
        return raw
    if name == "target":
        if raw in (None, "default"):
            return None
        return _to_int(name, raw)
    if isinstance(current, bool):
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, str) and raw.lower() in ("true", "yes", "on", "1"):
            return True
        if isinstance(raw, str) and raw.lower() in ("false", "no", "off", "0"):
            return False
        raise RulesError(f"rule {name} must be true or false, not {raw!r}")
    if isinstance(current, int):
        return _to_int(name, raw)
    if not isinstance(raw, str):
        raise RulesError(
            f"rule {name} must be one of {', '.join(OPTION_CHOICES[name])}, not {raw!r}"
        )
    return raw


def _to_int(name: str, raw: Any) -> int:
    if isinstance(raw, bool):
        raise RulesError(f"rule {name} must be a whole number, not {raw!r}")
    if isinstance(raw, int):
        return raw
    number = whole_number(raw.strip(), signed=True) if isinstance(raw, str) else None
    if number is not None:
        return number
    raise RulesError(f"rule {name} must be a whole number, not {raw!r}")


def _preset(name: str, **options: Any) -> Rules:
    return Rules(preset_name=name, **options)


PRESETS: dict[str, Rules] = {
    "standard": _preset("standard"),
    "tournament": _preset("tournament", all_pass="reshake", doubles_choice=False),
    "house": _preset("house", nello=True, plunge=True, splash=True, sevens=True),
    "two-hand": _preset("two-hand", see_partner=True),
    "three-hand": _preset("three-hand", seats=3, teams="bidder-alone", removed="1-0", hand_size=9),
    "moon": _preset(
        "moon",
        seats=3,
        teams="solo",
        removed="6-0+5-0+4-0+3-0+2-0+1-0",
        widow=1,
        count=False,
        bids="tricks",
        min_bid=4,
        game="moon",
        all_pass="reshake",
        doubles_trump=False,
        doubles_choice=False,
        undeclared_trump="forbidden",
        hide_tricks="never",
    ),
    "five-hand": _preset("five-hand", seats=5, teams="bidder-alone", hand_size=5, min_bid=29),
    "six-hand": _preset("six-hand", seats=6, teams="pairs", hand_size=4, min_bid=28),
    "seven-hand": _preset("seven-hand", seats=7, teams="bidder-alone", hand_size=4, min_bid=28),
}
"""standard: the project's defaults; tournament: straight 42, reshake when all pass, doubles
always high; house: standard plus Nel-O, Plunge, Splash and Sevens. The other presets are the
other table sizes (``docs/table-sizes.md``): two-hand (each player holds a partnership), moon and
three-hand for three players, and five-, six- and seven-hand."""

PLAYERS_PRESETS: dict[int, str] = {
    2: "two-hand",
    3: "three-hand",
    4: "standard",
    5: "five-hand",
    6: "six-hand",
    7: "seven-hand",
}
"""The preset a table of N people plays by default (``--players N``)."""

FOUR_SEATS = PRESETS["standard"].layout
"""The default table: four seats in two partnerships, the 28 tiles, 42 points a hand."""

"""The ``texas42`` command: check and replay game records, play in the terminal, show rules.

A thin face over the library: commands read their input, call `texas42.record` and friends, and
print. Rich and the terminal game are imported inside the commands that use them, so that
``texas42 check`` starts fast. Bad input never ends in a traceback: one line, exit status 2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from texas42.actions import ACTIONS
from texas42.errors import Texas42Error
from texas42.hand import SEAT_NAMES, SEATS, TEAM_NAMES, Hand, HandResult
from texas42.record import UNREADABLE, CheckReport, Record, RecordError, check_record
from texas42.rules import OPTION_NAMES, Rules
from texas42.tally import score_line
from texas42.tiles import hand_name, tile_name

if TYPE_CHECKING:
    from rich.console import Console

app = typer.Typer(
    name="texas42",
    help="Texas 42 dominoes: check and replay game records, play in the terminal.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)

Players = tuple[str, ...] | None


def _load(path: str) -> Record:
    """Read a record file (``-`` for standard input); a file that cannot be read is status 2."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(
            f"cannot read {path}: {exc.strerror or exc}", status=UNREADABLE, field=None
        ) from None
    except UnicodeDecodeError:
        raise RecordError(
            f"cannot read {path}: not UTF-8 text", status=UNREADABLE, field=None
        ) from None
    return Record.from_json(text)


def _replayed(path: str, as_json: bool = False) -> CheckReport:
    """The checked record, or the error reported (on stdout as JSON if asked) and its status."""
    try:
        return check_record(_load(path))
    except RecordError as exc:
        if as_json:
            print(json.dumps({"error": exc.to_dict()}))
        else:
            print(exc.line(), file=sys.stderr)
        raise typer.Exit(exc.status) from None


# -- words shared by check and replay ------------------------------------------------------


def _seat(seat: int, players: Players) -> str:
    """``North``, or ``North (Ann)`` when the record names the player."""
    name = players[seat] if players else ""
    if not name or name == SEAT_NAMES[seat]:
        return SEAT_NAMES[seat]
    return f"{SEAT_NAMES[seat]} ({name})"


def _auction(hand: Hand, players: Players) -> str:
    calls = [
        f"{_seat((hand.first_bidder + i) % SEATS, players)} {ACTIONS[call]}"
        for i, call in enumerate(hand.calls)
    ]
    return ", ".join(calls) if calls else "no calls yet"


def _contract(hand: Hand, result: HandResult, players: Players) -> str | None:
    """Who bid what and what was named: ``North bid 34 and named sixes``."""
    if result.bidder is None or result.declarer is None:
        return None
    bidder = _seat(result.bidder, players)
    if result.contract is None:
        return f"{bidder} bid {result.bid}; the contract is not named yet"
    if result.declarer == result.bidder:
        text = f"{bidder} bid {result.bid} and named {result.contract}"
    else:
        declarer = _seat(result.declarer, players)
        text = f"{bidder} bid {result.bid}, {declarer} named {result.contract}"
    if hand.out_seat >= 0:
        text += f"; {_seat(hand.out_seat, players)} sits out"
    trump = hand.trump_description()
    return f"{text} ({trump})" if trump else text


def _unit(rules: Rules, amount: int) -> str:
    if rules.game == "points":
        return "point" if amount == 1 else "points"
    return "mark" if amount == 1 else "marks"


def _amount(amount: int, unit: str) -> str:
    """``1 trick``, ``6 points``: a count of points or tricks as players say it."""
    return f"{amount} {unit[:-1] if amount == 1 else unit}"


def _verdict(rules: Rules, result: HandResult) -> str:
    """``made: +1 mark to North-South``, ``set: +51 points to East-West``, or what is left."""
    if result.reshaken:
        return "everyone passed: reshaken, no score"
    if result.made is None:
        return "in progress"
    awards = [
        f"+{amount} {_unit(rules, amount)} to {TEAM_NAMES[team]}"
        for team, amount in enumerate(result.score)
        if amount
    ]
    return f"{'made' if result.made else 'set'}: {', '.join(awards) or 'no score'}"


def _points(result: HandResult) -> str:
    tricks = "1 trick" if result.tricks == 1 else f"{result.tricks} tricks"
    return (
        f"{tricks}: {TEAM_NAMES[0]} {result.points[0]} points, "
        f"{TEAM_NAMES[1]} {result.points[1]}"
    )


def _winner(report: CheckReport) -> str:
    if report.winner is None:
        return "no winner yet"
    return f"{TEAM_NAMES[report.winner]} win"


# -- commands -------------------------------------------------------------------------------


@app.command()
def check(
    record: Annotated[str, typer.Argument(help="The game record (JSON); - reads standard input.")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the result (or the error) as one JSON line.")
    ] = False,
) -> None:
    """Check a game record against its rules and score it.

    Exit status 0 for a valid record, 1 when it breaks a rule, 2 when it cannot be read.
    """
    report = _replayed(record, as_json)
    if as_json:
        print(report.to_json())
        return
    rules = report.record.rules
    players = report.record.players
    print(f"rules: {rules}")
    for number, (hand, result) in enumerate(zip(report.hands, report.results), 1):
        print(f"hand {number}: {_seat(hand.shaker, players)} shakes")
        print(f"  auction: {_auction(hand, players)}")
        contract = _contract(hand, result, players)
        if contract is not None:
            print(f"  contract: {contract}")
            print(f"  {_points(result)}")
        print(f"  {_verdict(rules, result)}")
    print(f"game: {score_line(rules, report.score)}; {_winner(report)}")


@app.command()
def replay(
    record: Annotated[str, typer.Argument(help="The game record (JSON); - reads standard input.")],
) -> None:
    """Show a game record trick by trick, with the score."""
    from rich.console import Console

    report = _replayed(record)
    console = Console(highlight=False, markup=False, soft_wrap=True)
    rules = report.record.rules
    players = report.record.players
    console.print(f"Rules: {rules} ({'; '.join(rules.describe())})")
    if players:
        console.print(
            f"Seats: {_seat(0, players)} and {_seat(2, players)} against "
            f"{_seat(1, players)} and {_seat(3, players)}"
        )
    score = (0, 0)
    for number, (hand, result) in enumerate(zip(report.hands, report.results), 1):
        console.print()
        console.print(
            f"Hand {number}: {_seat(hand.shaker, players)} shakes; score {score_line(rules, score)}",
            style="bold",
        )
        _replay_hand(console, hand, result, players)
        score = (score[0] + result.score[0], score[1] + result.score[1])
        console.print(f"  {_verdict(rules, result)}")
        console.print(f"  score: {score_line(rules, score)}")
    console.print()
    console.print(f"Game: {score_line(rules, report.score)}; {_winner(report)}", style="bold")


def _replay_hand(console: Console, hand: Hand, result: HandResult, players: Players) -> None:
    """The deal, the auction, the contract and a table of the tricks, tiles by seat."""
    from rich.padding import Padding
    from rich.table import Table

    width = max(len(_seat(seat, players)) for seat in range(SEATS))
    for seat in range(SEATS):
        console.print(f"  {_seat(seat, players):<{width}}  {hand_name(hand.deal[seat])}")
    console.print(f"  auction: {_auction(hand, players)}")
    contract = _contract(hand, result, players)
    if contract is None:
        return
    console.print(f"  contract: {contract}")
    if not hand.plays:
        return
    table = Table(box=None, padding=(0, 1), header_style="bold underline")
    for title in ("trick", "led", *SEAT_NAMES, "won by", "pts", "N-S", "E-W"):
        numeric = title in ("trick", "pts", "N-S", "E-W")
        table.add_column(title, justify="right" if numeric else "left")
    taken = [0, 0]
    for number, trick in enumerate(hand.tricks, 1):
        tiles = dict(zip(trick.seats, trick.tiles))
        taken[trick.winner & 1] += trick.points
        table.add_row(
            str(number),
            SEAT_NAMES[trick.leader],
            *(tile_name(tiles[seat]) if seat in tiles else "-" for seat in range(SEATS)),
            SEAT_NAMES[trick.winner],
            str(trick.points),
            str(taken[0]),
            str(taken[1]),
        )
    if hand.trick:
        tiles = dict(zip(hand.trick_seats, hand.trick))
        table.add_row(
            str(len(hand.tricks) + 1),
            SEAT_NAMES[hand.trick_seats[0]],
            *(tile_name(tiles[seat]) if seat in tiles else "" for seat in range(SEATS)),
            "", "", "", "",
        )  # fmt: skip
    console.print(Padding.indent(table, 1))


@app.command()
def play(
    rules: Annotated[
        str, typer.Option(help="A preset or rules string, e.g. standard,nello.")
    ] = "standard",
    seed: Annotated[
        int | None, typer.Option(help="Seed for the shake, for a repeatable game.")
    ] = None,
    seat: Annotated[int, typer.Option(help="Your seat: 0 North, 1 East, 2 South, 3 West.")] = 2,
    save: Annotated[str | None, typer.Option(help="Write the game record to this file.")] = None,
    name: Annotated[str, typer.Option(help="Your name in the saved record.")] = "You",
) -> None:
    """Play a game in the terminal against three bots."""
    try:
        parsed = Rules.parse(rules)
    except Texas42Error as exc:
        print(f"--rules: {exc}", file=sys.stderr)
        raise typer.Exit(UNREADABLE) from None
    if not 0 <= seat < SEATS:
        print(f"--seat: a seat is 0..3 (0 North, 1 East, 2 South, 3 West), not {seat}",
              file=sys.stderr)  # fmt: skip
        raise typer.Exit(UNREADABLE)
    from texas42.tui.play import run_play

    raise typer.Exit(run_play(parsed, seed, seat, save, name))


@app.command()
def analyze(
    record: Annotated[str, typer.Argument(help="The game record (JSON); - reads standard input.")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the review (or the error) as one JSON line.")
    ] = False,
    samples: Annotated[
        int, typer.Option(help="Deals drawn to judge each bid (0 skips the bids).", min=0)
    ] = 64,
    seed: Annotated[int, typer.Option(help="Seed for the deals drawn for the bids.")] = 0,
) -> None:
    """Review every hand of a record double dummy: the value after each play, the mistakes
    (biggest first) and, for each bid, how often it could be made.

    A value is the total the bidding team ends with if all seven tricks are played out with best
    play by both sides (for Nel-O: the tricks the bidder takes).
    """
    from texas42.analysis import review_record

    loaded = _replayed(record, as_json).record
    review = review_record(loaded, bid_samples=samples, seed=seed)
    if as_json:
        print(json.dumps(review.to_dict()))
        return
    players = loaded.players
    for hand in review.hands:
        print(f"hand {hand.number}:", end=" ")
        if hand.bidder is None:
            print("everyone passed: reshaken")
            continue
        bidder = _seat(hand.bidder, players)
        if hand.contract is None:
            print(f"{bidder} bid {hand.bid}; no contract named")
        else:
            print(f"{bidder} bid {hand.bid} and named {hand.contract}")
        for bid in hand.bids:
            share = f"{bid.make_share:.0%}"
            others = ", ".join(f"{name} {s:.0%}" for name, s in bid.shares.items())
            print(
                f"  bid {bid.bid} by {_seat(bid.seat, players)}: made double dummy in {share} of "
                f"{bid.samples} deals it could face ({others})"
            )
        if not hand.plays:
            continue
        team = TEAM_NAMES[hand.bidder & 1]
        first = hand.plays[0]
        print(f"  best play from the start: {team} end with {_amount(first.value_before, hand.unit)}")
        mistakes = hand.mistakes
        if mistakes:
            print("  mistakes, biggest first:")
        else:
            print("  no mistakes: every play kept its side's best total")
        for p in mistakes:
            best = " ".join(tile_name(t) for t in p.best)
            print(
                f"    play {p.index:>2} {_seat(p.seat, players)} {tile_name(p.tile)} cost "
                f"{_amount(p.cost, hand.unit)} (best: {best})"
            )
        print("  plays (value after each, for the bidders):")
        for p in hand.plays:
            note = f"  -{p.cost}" if p.cost else ""
            print(
                f"    {p.index:>2} {SEAT_NAMES[p.seat]:<5} {tile_name(p.tile)}  "
                f"{p.value_before:>2} -> {p.value_after:>2}{note}"
            )


@app.command()
def solve(
    position: Annotated[str, typer.Argument(help="A full position string (see docs).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")] = False,
) -> None:
    """Solve a position double dummy: the bidders' total with best play, and every move's."""
    from texas42.analysis import solve_position
    from texas42.notation import parse_hand_position

    try:
        hand, _, _ = parse_hand_position(position)
        solution = solve_position(hand)
    except (Texas42Error, ValueError) as exc:
        print(f"texas42 solve: {exc}", file=sys.stderr)
        raise typer.Exit(UNREADABLE) from None
    if as_json:
        print(json.dumps(solution.to_dict()))
        return
    team = TEAM_NAMES[solution.bidder & 1]
    print(f"contract: {solution.contract}, bid by {SEAT_NAMES[solution.bidder]}")
    print(f"to play: {SEAT_NAMES[solution.turn]}")
    print(
        f"value: {team} end with {_amount(solution.value, solution.unit)} "
        f"({solution.taken} taken, {solution.value - solution.taken} to come)"
    )
    for move in solution.moves:
        mark = "  best" if move.best else f"  -{abs(solution.value - move.value)}"
        print(f"  {tile_name(move.tile)}  {move.value:>2}{mark}")


@app.command("rules")
def show_rules(
    preset: Annotated[
        str, typer.Argument(help="A preset (standard, tournament, house) or a rules string.")
    ] = "standard",
) -> None:
    """Show the house rules of a preset or rules string, option by option."""
    try:
        rules = Rules.parse(preset)
    except Texas42Error as exc:
        print(str(exc), file=sys.stderr)
        raise typer.Exit(UNREADABLE) from None
    print(rules)
    for line in rules.describe():
        print(f"  {line}")
    changed = rules.overrides()
    width = max(len(option) for option in OPTION_NAMES)
    for option in OPTION_NAMES:
        value = getattr(rules, option)
        if value is None:
            shown = f"default ({rules.winning_target})"
        else:
            shown = str(value).lower() if isinstance(value, bool) else str(value)
        mark = "  (changed)" if option in changed else ""
        print(f"{option:<{width}}  {shown}{mark}")


def main() -> None:
    """The console entry point: every bad input ends as one line on stderr and status 2."""
    try:
        app(prog_name="texas42")
    except (Texas42Error, OSError) as exc:
        print(f"texas42: {exc}", file=sys.stderr)
        sys.exit(UNREADABLE)

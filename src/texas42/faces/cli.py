"""The ``texas42`` command: check and replay game records, play in the terminal, show rules.

A thin face over the library: commands read their input, call `texas42.core.record` and friends, and
print. Bad input never ends in a traceback: one line, exit status 2.
"""

# Only typer, the core and texas42.extras are imported here: each command imports the other
# layers it uses (rich, the terminal tables, services, players, the server) inside itself, so
# that start-up stays light (``texas42 check`` loads no solver) and the extras stay optional.

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from texas42 import __version__
from texas42.core.errors import Texas42Error
from texas42.core.hand import Hand, HandResult
from texas42.core.layout import Layout, layout_of
from texas42.core.notation import parse_hand_position, parse_view_position
from texas42.core.record import (
    MAX_RECORD_BYTES,
    UNREADABLE,
    CheckReport,
    HandRecord,
    Record,
    RecordError,
    action_seats,
    check_record,
)
from texas42.core.rules import OPTION_NAMES, PLAYERS_PRESETS, Rules
from texas42.core.tiles import hand_name, tile_name
from texas42.core.words import (
    auction_line,
    best_play_line,
    bid_review_line,
    bid_shares_line,
    claim_line,
    claim_outcome,
    contract_line,
    hand_headline,
    hand_result_lines,
    hint_facts,
    no_costly_plays,
    play_review_line,
    printable,
    rules_text,
    score_line,
    trick_of_play,
    winner_words,
)
from texas42.extras import extra_error
from texas42.faces.bidder_commands import bidder_app
from texas42.faces.puzzle_command import HELP as PUZZLE_HELP
from texas42.faces.puzzle_command import puzzle

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from rich.console import Console
    from rich.progress import Progress

    from texas42.services.arena.match import MatchResult

app = typer.Typer(
    name="texas42",
    help="Texas 42 dominoes: play at the web or terminal table, check records, analyze hands.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(bidder_app, name="bidder")
app.command("puzzle", help=PUZZLE_HELP)(puzzle)


def _print_version(wanted: bool) -> None:
    if wanted:
        print(f"texas42 {__version__}")
        raise typer.Exit()


@app.callback()
def _texas42(
    version: Annotated[
        bool,
        typer.Option(
            "--version", "-V", callback=_print_version, is_eager=True, help="Print the version."
        ),
    ] = False,
) -> None:
    """Texas 42 dominoes: play at the web or terminal table, check records, analyze hands."""


Players = tuple[str, ...] | None

RulesOption = Annotated[str, typer.Option(help="A preset or rules string, e.g. standard,nello.")]
WorkersOption = Annotated[
    int, typer.Option(help="Processes to play in; the numbers do not depend on it.")
]
SeedOption = Annotated[int | None, typer.Option(help="Seed for the shake, for a repeatable game.")]
SeatOption = Annotated[
    int | None,
    typer.Option(help="Your seat, 0 (North) clockwise; default South at four seats, else North."),
]
PlayersOption = Annotated[
    int | None,
    typer.Option(help="Players at the table, 2 to 7: picks that size's preset instead of --rules."),
]
SaveOption = Annotated[str | None, typer.Option(help="Write the game record to this file.")]
NameOption = Annotated[str, typer.Option(help="Your name in the saved record.")]
BotsOption = Annotated[
    str, typer.Option(help="The bots' level (easy, medium, hard, expert) or a bot spec.")
]
RayOption = Annotated[
    str | None, typer.Option(help="Play on the Ray cluster at this address (local: here).")
]


def _load(path: str) -> Record:
    """Read a record file (``-`` for standard input); a file that cannot be read is status 2.

    At most one byte more than a record may have is read, so a huge or endless file (a pipe,
    ``/dev/zero``) is refused as too large instead of filling memory."""
    limit = MAX_RECORD_BYTES
    try:
        if path == "-":
            data = sys.stdin.buffer.read(limit + 1)
        else:
            with open(path, "rb") as file:
                data = file.read(limit + 1)
        if len(data) > limit:
            raise RecordError(
                f"cannot read {path}: a record is at most {limit} bytes",
                status=UNREADABLE,
                field=None,
            )
        text = data.decode("utf-8")
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
            print(printable(exc.line()), file=sys.stderr)
        raise typer.Exit(exc.status) from None


def _refused(message: str) -> typer.Exit:
    """Bad input: one line on stderr; the caller raises the returned exit (status 2)."""
    print(printable(message), file=sys.stderr)
    return typer.Exit(UNREADABLE)


# -- words shared by check and replay ------------------------------------------------------


def _seat(layout: Layout, seat: int, players: Players) -> str:
    """``North``, or ``North (Ann)`` when the record names the player (a name's control
    characters and escape codes shown, never sent to the terminal: `printable`)."""
    names = layout.seat_names
    name = printable(players[seat]) if players else ""
    if not name or name == names[seat]:
        return names[seat]
    return f"{names[seat]} ({name})"


def _names(layout: Layout, players: Players) -> list[str]:
    """Every seat's name as `_seat` writes it, for the sentences of `texas42.core.words`."""
    return [_seat(layout, seat, players) for seat in range(layout.seats)]


def _widow(hand: Hand, players: Players) -> str | None:
    """``widow 3-1; North laid down 6-6``: the widow and the tiles put down for it (Moon)."""
    if not hand.layout.widow:
        return None
    text = f"widow {hand_name(hand.widow)}"
    if hand.discards and hand.declarer is not None:
        down = " ".join(tile_name(t) for t in hand.discards)
        text += f"; {_seat(hand.layout, hand.declarer, players)} laid down {down}"
    return text


def _hand_words(hand: Hand, result: HandResult, players: Players) -> tuple[list[str], list[str]]:
    """A hand's auction, widow and contract lines, and then what it came to: the lines both
    ``check`` and ``replay`` print, as `texas42.core.words` writes them.

    A record shows every tile, so the words get the full figures a seat's view may lack: the
    contract as named (a by-lead one whose first trick lay face down) and the points (piles
    face down)."""
    view = hand.view(0)
    names = _names(hand.layout, players)
    before = [f"auction: {auction_line(view, names)}"]
    if result.bidder is not None:
        widow = _widow(hand, players)
        if widow is not None:
            before.append(widow)
        before.append(f"contract: {contract_line(view, names, hand.contract)}")
    after = [
        f"{claim_line(names[claim.seat], claim.tiles)}; {claim_outcome(view, claim, names)}"
        for _, claim in hand.claims
    ]
    after.append(hand_headline(view, result))
    if result.reshaken or hand.contract is not None:
        after += hand_result_lines(view, result, points=result.points)
    return before, after


def _short(name: str) -> str:
    """``SE`` for Southeast, ``N-S`` for North-South: names short enough for a table column."""
    for word, letter in (
        ("North", "N"),
        ("South", "S"),
        ("east", "E"),
        ("East", "E"),
        ("west", "W"),
        ("West", "W"),
    ):
        name = name.replace(word, letter)
    return name


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
    seats = layout_of(report.record.rules).seats
    if as_json and seats != 4:
        print(json.dumps({"seats": seats, **report.to_dict()}))
        return
    if as_json:
        print(report.to_json())
        return
    rules = report.record.rules
    layout = layout_of(rules)
    players = report.record.players
    print(f"rules: {rules}")
    for number, (hand, result) in enumerate(zip(report.hands, report.results), 1):
        print(f"hand {number}: {_seat(layout, hand.shaker, players)} shakes")
        before, after = _hand_words(hand, result, players)
        for line in before + after:
            print(f"  {line}")
    print(f"game: {score_line(rules, report.score)}; {winner_words(rules, report.winner)}")


@app.command()
def replay(
    record: Annotated[str, typer.Argument(help="The game record (JSON); - reads standard input.")],
    reasons: Annotated[
        bool,
        typer.Option(
            "--reasons/--no-reasons", help="Show why each bot action was taken, when recorded."
        ),
    ] = True,
) -> None:
    """Show a game record trick by trick, with the score (and the bots' reasons, if kept)."""
    from rich.console import Console

    report = _replayed(record)
    console = Console(highlight=False, markup=False, soft_wrap=True)
    rules = report.record.rules
    layout = layout_of(rules)
    players = report.record.players
    console.print(f"Rules: {rules} ({'; '.join(rules.describe())})")
    if players:
        sides = [
            " and ".join(_seat(layout, seat, players) for seat in layout.side_seats(side))
            for side in range(layout.sides)
        ]
        console.print(f"Seats: {(', ' if layout.alone else ' against ').join(sides)}")
    score = (0,) * layout.sides
    for number, (hand, result) in enumerate(zip(report.hands, report.results), 1):
        console.print()
        console.print(
            f"Hand {number}: {_seat(layout, hand.shaker, players)} shakes; "
            f"score {score_line(rules, score)}",
            style="bold",
        )
        before, after = _hand_words(hand, result, players)
        _replay_hand(console, hand, before, players)
        if reasons:
            _replay_reasons(console, rules, report.record.hands[number - 1], players)
        score = tuple(total + amount for total, amount in zip(score, result.score))
        for line in after:
            console.print(f"  {line}")
        console.print(f"  score: {score_line(rules, score)}")
    console.print()
    winner = winner_words(rules, report.winner)
    console.print(f"Game: {score_line(rules, report.score)}; {winner}", style="bold")


def _replay_reasons(console: Console, rules: Rules, hand: HandRecord, players: Players) -> None:
    """Why each action of the hand was taken, as its seat's bot said (a record's words made
    printable: `printable`)."""
    if not any(reason is not None for reason in hand.reasons):
        return
    layout = layout_of(rules)
    console.print("  Why:")
    for seat, reason in zip(action_seats(rules, hand), hand.reasons):
        if reason is not None:
            console.print(f"    {_seat(layout, seat, players)}: {printable(reason.text)}")


def _replay_hand(console: Console, hand: Hand, before: list[str], players: Players) -> None:
    """The deal, the auction and contract lines (``before``) and a table of the tricks, tiles
    by seat."""
    from rich.padding import Padding
    from rich.table import Table

    layout = hand.layout
    seats = range(layout.seats)
    width = max(len(_seat(layout, seat, players)) for seat in seats)
    for seat in seats:
        console.print(f"  {_seat(layout, seat, players):<{width}}  {hand_name(hand.deal[seat])}")
    for line in before:
        console.print(f"  {line}")
    if not hand.plays:
        return
    names = layout.seat_names if layout.seats <= 4 else tuple(map(_short, layout.seat_names))
    sides = tuple(map(_short, layout.side_names))
    table = Table(box=None, padding=(0, 1), header_style="bold underline")
    for title in ("trick", "led", *names, "won by", "pts"):
        table.add_column(title, justify="right" if title in ("trick", "pts") else "left")
    for title in sides:
        table.add_column(title, justify="right")
    taken = [0] * layout.sides
    for number, trick in enumerate(hand.tricks, 1):
        tiles = dict(zip(trick.seats, trick.tiles))
        taken[layout.side_of[trick.winner]] += trick.points
        table.add_row(
            str(number),
            names[trick.leader],
            *(tile_name(tiles[seat]) if seat in tiles else "-" for seat in seats),
            names[trick.winner],
            str(trick.points),
            *map(str, taken),
        )
    if hand.trick:
        tiles = dict(zip(hand.trick_seats, hand.trick))
        table.add_row(
            str(len(hand.tricks) + 1),
            names[hand.trick_seats[0]],
            *(tile_name(tiles[seat]) if seat in tiles else "" for seat in seats),
            "",
            "",
            *("" for _ in sides),
        )
    console.print(Padding.indent(table, 1))


@app.command()
def play(
    rules: RulesOption = "standard",
    seed: SeedOption = None,
    seat: SeatOption = None,
    save: SaveOption = None,
    name: NameOption = "You",
    bots: BotsOption = "medium",
    players: PlayersOption = None,
) -> None:
    """Play a game in the terminal against bots, a line at a time (2 to 7 players: --players;
    with two, you hold both seats of a partnership and see both hands)."""
    from texas42.faces.terminal.line_game import run_play

    parsed, chosen = _checked_table(rules, players, seat, bots)
    _check_name(name)
    raise typer.Exit(run_play(parsed, seed, chosen, save, name, bots=bots))


@app.command()
def tui(
    rules: RulesOption = "standard",
    seed: SeedOption = None,
    seat: SeatOption = None,
    save: SaveOption = None,
    name: NameOption = "You",
    bots: BotsOption = "medium",
    players: PlayersOption = None,
) -> None:
    """Play at the full-screen terminal table against bots, with mouse and keys (2 to 7 players:
    --players; with two, you hold both seats of a partnership and see both hands)."""
    from texas42.faces.terminal.full_screen import run_tui

    parsed, chosen = _checked_table(rules, players, seat, bots)
    _check_name(name)
    raise typer.Exit(run_tui(parsed, seed, chosen, bots, name, save))


@app.command()
def learn(
    lesson: Annotated[
        str | None, typer.Argument(help="The lesson's id (01-count ...); none lists them.")
    ] = None,
) -> None:
    """Take a lesson for someone who has never played, a line at a time: every hand shown,
    each move checked and explained by the engine (the web's /learn has the same lessons)."""
    from texas42.faces.terminal.learn_lessons import run_learn

    raise typer.Exit(run_learn(lesson))


def _check_name(name: str) -> None:
    """The name saved in a terminal game's record: printable text, as `check` will read it."""
    if not name.strip() or not name.isprintable():
        raise _refused(f"--name: a name is printable text, not {name!r}")


def _checked_table(
    rules: str, players: int | None, seat: int | None, bots: str
) -> tuple[Rules, int]:
    """The rules of a terminal game (``--players N`` picks that size's preset unless ``--rules``
    names rules for that many), its seat (South at four seats, North at the others) and bots,
    checked before anything starts."""
    if players is not None and players not in PLAYERS_PRESETS:
        raise _refused(f"--players: a table seats 2 to 7 players, not {players}")
    if players is not None and rules == "standard":
        rules = PLAYERS_PRESETS[players]
    try:
        parsed = Rules.parse(rules)
    except Texas42Error as exc:
        raise _refused(f"--rules: {exc}") from None
    layout = layout_of(parsed)
    people = 2 if parsed.see_partner else layout.seats
    if players is not None and players != people:
        raise _refused(f"--players {players}: the rules {rules!r} seat {people} players")
    if seat is None:
        seat = 2 if layout.seats == 4 and not parsed.see_partner else 0
    if not 0 <= seat < layout.seats:
        names = ", ".join(f"{s} {name}" for s, name in enumerate(layout.seat_names))
        raise _refused(f"--seat: a seat is 0..{layout.seats - 1} ({names}), not {seat}")
    from texas42.services.protocol import make_bot

    try:
        make_bot(bots)
    except Texas42Error as exc:
        raise _refused(f"--bots: {exc}") from None
    return parsed, seat


@app.command()
def engine(
    bot: Annotated[
        str, typer.Option(help="The bot to serve: a level (easy ... expert) or a bot spec.")
    ] = "expert",
    seed: Annotated[int, typer.Option(help="Seed for the bot's sampling.")] = 0,
) -> None:
    """Serve one of our bots over the engine protocol on standard input and output
    (docs/engine-protocol.md)."""
    from texas42.services.protocol.engine import run_engine

    try:
        status = run_engine(bot, sys.stdin, sys.stdout, seed=seed)
    except Texas42Error as exc:
        raise _refused(f"--bot: {exc}") from None
    raise typer.Exit(status)


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
    coach: Annotated[
        str | None,
        typer.Option(
            "--coach",
            metavar="SEAT",
            help="Coach one seat (a number or its name): its three costliest mistakes in words.",
        ),
    ] = None,
) -> None:
    """Review every hand of a record double dummy: the value after each play, the mistakes
    (biggest first) and, for each bid, how often it could be made.

    A value is the total the bidding team ends with if all seven tricks are played out with best
    play by both sides (for Nel-O: the tricks the bidder takes).
    """
    from texas42.players.review import review_record

    report = _replayed(record, as_json)
    if coach is not None:
        _coach(report, coach, as_json, samples, seed)
        return
    review = review_record(report.record, bid_samples=samples, seed=seed)
    if as_json:
        print(json.dumps(review.to_dict()))
        return
    layout = layout_of(report.record.rules)
    names = _names(layout, report.record.players)
    for hand, reviewed in zip(report.hands, review.hands):
        view = hand.view(0)
        print(f"hand {reviewed.number}: {contract_line(view, names, hand.contract)}")
        for bid in reviewed.bids:
            print(f"  {bid_review_line(names[bid.seat], bid.bid, bid.contract, bid.make_share)}")
            print(f"    {bid_shares_line(bid.shares, bid.samples)}")
        if not reviewed.plays:
            continue
        unit = reviewed.unit.removesuffix("s")
        print(f"  {best_play_line(view, reviewed.plays[0].value_before, unit)}")
        mistakes = reviewed.mistakes
        if mistakes:
            print("  mistakes, biggest first:")
        else:
            print(f"  {no_costly_plays(len(reviewed.plays))}")
        for p in mistakes:
            trick = trick_of_play(view, p.index)
            best = [tile_name(t) for t in p.best]
            line = play_review_line(names[p.seat], trick, tile_name(p.tile), best, p.cost, unit)
            print(f"    {line}")
        print("  plays (value after each, for the bidders):")
        for p in reviewed.plays:
            note = f"  -{p.cost}" if p.cost else ""
            print(
                f"    {p.index:>2} {layout.seat_names[p.seat]:<5} {tile_name(p.tile)}  "
                f"{p.value_before:>2} -> {p.value_after:>2}{note}"
            )


def _coach(report: CheckReport, seat_text: str, as_json: bool, samples: int, seed: int) -> None:
    """``analyze --coach SEAT``: the seat's coaching (`texas42.services.learn.coach`)."""
    from texas42.services.learn.coach import coach_record

    layout = layout_of(report.record.rules)
    names = [name.lower() for name in layout.seat_names]
    text = seat_text.strip().lower()
    seat = int(text) if text.isdigit() else names.index(text) if text in names else -1
    if not 0 <= seat < layout.seats:
        listed = ", ".join(f"{s} {name}" for s, name in enumerate(layout.seat_names))
        raise _refused(f"--coach: a seat is one of {listed}, not {seat_text!r}")
    (coaching,) = coach_record(report.record, [(seat,)], bid_samples=samples, seed=seed)
    if as_json:
        print(json.dumps(coaching.to_dict()))
        return
    print(f"coaching for {_seat(layout, seat, report.record.players)}: {coaching.summary_line}")
    if coaching.no_mistakes_line is not None:
        print(f"  {coaching.no_mistakes_line}")
    for number, mistake in enumerate(coaching.mistakes, 1):
        print(f"  {number}. {mistake.position}")
        print(f"     {mistake.advice}")


@app.command()
def solve(
    position: Annotated[str, typer.Argument(help="A full position string (see docs).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")] = False,
) -> None:
    """Solve a position double dummy: the bidders' total with best play, and every move's."""
    from texas42.players.review import solve_position

    try:
        hand, _, _ = parse_hand_position(position)
        solution = solve_position(hand)
    except (Texas42Error, ValueError) as exc:
        raise _refused(f"texas42 solve: {exc}") from None
    if as_json:
        print(json.dumps(solution.to_dict()))
        return
    view = hand.view(solution.turn)
    unit = solution.unit.removesuffix("s")
    print(f"contract: {contract_line(view)}")
    print(f"to play: {hand.layout.seat_names[solution.turn]}")
    print(best_play_line(view, solution.value, unit, taken=solution.taken))
    for move in solution.moves:
        mark = "  best" if move.best else f"  -{abs(solution.value - move.value)}"
        print(f"  {tile_name(move.tile)}  {move.value:>2}{mark}")


def _arena_checks(
    rules: str,
    bots: Sequence[tuple[str, str]],
    option: str,
    count: int,
    workers: int,
    ray: str | None,
) -> tuple[Rules, int]:
    """What arena and ladder check before playing: the rules and the number of pairs."""
    from texas42.services.arena.run import check_bot

    try:
        parsed = Rules.parse(rules)
    except Texas42Error as exc:
        raise _refused(f"--rules: {exc}") from None
    for label, spec in bots:
        try:
            check_bot(spec)
        except Texas42Error as exc:
            raise _refused(f"{label}: {exc}") from None
    if count < 1:
        raise _refused(f"{option}: at least 1, not {count}")
    _check_executors(workers, ray)
    pairs = (count + 1) // 2
    if count % 2:
        print(f"{option} {count}: playing {2 * pairs}, two on each deal", file=sys.stderr)
    return parsed, pairs


def _check_executors(workers: int, ray: str | None) -> None:
    """``--workers`` and ``--ray``, checked before anything is played."""
    from texas42.services.arena.run import import_ray

    if workers < 1:
        raise _refused(f"--workers: at least 1, not {workers}")
    if ray is not None:
        try:
            import_ray()
        except Texas42Error as exc:
            raise _refused(str(exc)) from None


def _arena_progress(
    total: int, unit: str, step: Callable[[Any], int] = lambda result: len(result.games)
) -> tuple[Progress, Callable[[Any], None]]:
    """A progress bar on stderr counting games (or hands), and the callback that moves it by
    ``step(result)`` (a match result's games); shown only on a terminal, so logs and pipes get
    the result alone."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = Console(stderr=True)
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )
    task = bar.add_task(unit, total=total)
    return bar, lambda result: bar.advance(task, step(result))


@app.command()
def arena(
    bot_a: Annotated[
        str,
        typer.Argument(
            help="Bot A: random, rules, easy, medium, hard, pimc or expert, with "
            "options as in pimc:samples=8."
        ),
    ],
    bot_b: Annotated[str, typer.Argument(help="Bot B, named the same way.")],
    games: Annotated[
        int | None, typer.Option(help="Games to play, two on each deal (default 100).")
    ] = None,
    hands: Annotated[
        int | None, typer.Option(help="Play this many single hands instead of whole games.")
    ] = None,
    seed: Annotated[
        int, typer.Option(help="Seed of the deals: the same seed, the same deals.")
    ] = 0,
    rules: RulesOption = "standard",
    workers: WorkersOption = 1,
    sprt: Annotated[
        bool, typer.Option("--sprt", help="Stop as soon as the SPRT decides whether A is stronger.")
    ] = False,
    sprt_p0: Annotated[float, typer.Option(help="SPRT: A's win chance under H0.")] = 0.5,
    sprt_p1: Annotated[float, typer.Option(help="SPRT: A's win chance under H1.")] = 0.55,
    sprt_alpha: Annotated[float, typer.Option(help="SPRT: chance of a false H1.")] = 0.05,
    sprt_beta: Annotated[float, typer.Option(help="SPRT: chance of a false H0.")] = 0.05,
    records: Annotated[
        str | None, typer.Option(help="Save every game's record (JSON) in this folder.")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the result as one JSON document.")
    ] = False,
    plot: Annotated[
        str | None, typer.Option(help="Chart the margin as pairs were played (PNG; matplotlib).")
    ] = None,
    ray: RayOption = None,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume", help="Continue the run in --records DIR: its pairs count, the rest play."
        ),
    ] = False,
) -> None:
    """Play two bots against each other on duplicate deals: every deal twice, seats swapped.

    Any table (--rules three-hand, moon, six-hand...): A holds every other side round the
    table, then the others. Shows A's margin over B per game (or per hand with --hands; each
    bot's mean over its sides) with its 95% interval over the pairs, A's win rate and each
    bot's make rate. Exit status 2 for bad input.
    """
    from texas42.services.arena.run import play_match
    from texas42.services.arena.stats import Sprt

    if games is not None and hands is not None:
        raise _refused("--games and --hands: choose one")
    option, count = ("--hands", hands) if hands is not None else ("--games", games)
    count = 100 if count is None else count
    sides = [("bot A", bot_a), ("bot B", bot_b)]
    parsed, pairs = _arena_checks(rules, sides, option, count, workers, ray)
    test = None
    if sprt:
        try:
            test = Sprt(sprt_p0, sprt_p1, sprt_alpha, sprt_beta)
        except Texas42Error as exc:
            raise _refused(f"--sprt: {exc}") from None
    folder = Path(records) if records is not None else None
    if resume and folder is None:
        raise _refused("--resume: name the run's folder with --records DIR")
    if folder is not None:
        if folder.exists() and not folder.is_dir():
            raise _refused(f"--records: {folder} is not a folder")
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise _refused(f"--records: cannot make {folder}: {exc.strerror}") from None
    if plot is not None:
        from texas42.services.arena.plot import import_pyplot

        try:
            import_pyplot()
        except Texas42Error as exc:
            raise _refused(str(exc)) from None
        if not Path(plot).parent.is_dir():
            raise _refused(f"--plot: no folder {Path(plot).parent}")
    from texas42.services.arena.ledger import Ledger, open_ledger
    from texas42.services.arena.report import match_table, print_tables, sprt_line

    ledger: Ledger | None = None
    if folder is not None:
        try:
            ledger = open_ledger(
                folder, bot_a, bot_b, parsed, pairs, seed, hands=hands is not None, resume=resume
            )
        except Texas42Error as exc:
            raise _refused(f"--records: {exc}") from None
    bar, advance = _arena_progress(2 * pairs, option[2:])
    for result in ledger.known.values() if ledger is not None else ():
        advance(result)

    def played(result: MatchResult) -> None:
        advance(result)
        if ledger is not None:
            ledger.save(result)  # as each pair ends: a stopped run keeps its games

    try:
        with bar:
            summary, results = play_match(
                bot_a,
                bot_b,
                parsed,
                pairs,
                seed,
                hands=hands is not None,
                records=folder is not None,
                workers=workers,
                ray_address=ray,
                sprt=test,
                progress=played,
                known=ledger.known if ledger is not None else None,
            )
    except Texas42Error as exc:
        raise _refused(f"texas42 arena: {exc}") from None
    except KeyboardInterrupt:
        raise typer.Exit(130) from None
    stopped = summary.pairs < summary.planned_pairs and summary.decision is None
    if plot is not None:
        from texas42.services.arena.plot import plot_match

        plot_match(summary, results, Path(plot))
    if as_json:
        print(json.dumps(summary.to_dict()))
    else:
        lines = [line for line in (sprt_line(summary),) if line]
        if stopped:
            lines.append(
                f"Stopped by Ctrl-C after {summary.pairs} of {summary.planned_pairs} pairs."
            )
        print_tables([match_table(summary)], lines)
    if stopped:
        raise typer.Exit(130)


@app.command()
def ladder(
    bots: Annotated[list[str], typer.Argument(help="Two bots or more, e.g. random rules easy.")],
    games: Annotated[int, typer.Option(help="Games per pairing, two on each deal.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the deals, the same for every pairing.")] = 0,
    rules: RulesOption = "standard",
    workers: WorkersOption = 1,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the result as one JSON document.")
    ] = False,
    ray: RayOption = None,
) -> None:
    """Play every two bots on the same duplicate deals and rate them: a Bradley-Terry fit to
    the game wins, on an Elo scale with the first bot at 0. Exit status 2 for bad input."""
    from texas42.services.arena.report import ladder_tables, print_tables
    from texas42.services.arena.run import play_ladder

    if len(bots) < 2:
        raise _refused("a ladder needs at least two bots")
    sides = [(f"bot {spec}", spec) for spec in bots]
    parsed, pairs = _arena_checks(rules, sides, "--games", games, workers, ray)
    bar, advance = _arena_progress(len(bots) * (len(bots) - 1) * pairs, "games")
    try:
        with bar:
            summary = play_ladder(
                bots, parsed, pairs, seed, workers=workers, ray_address=ray, progress=advance
            )
    except Texas42Error as exc:
        raise _refused(f"texas42 ladder: {exc}") from None
    if as_json:
        print(json.dumps(summary.to_dict()))
        return
    print_tables(ladder_tables(summary))


@app.command()
def selfplay(
    out: Annotated[str, typer.Argument(help="The run's folder: made, or resumed if it exists.")],
    games: Annotated[
        int, typer.Option(help="Games in the run; a resumed run plays only the parts missing.")
    ],
    bot: Annotated[str, typer.Option(help="The bot at every seat of the real games.")] = "expert",
    playout: Annotated[
        str | None,
        typer.Option(
            help="The bot at every seat of the play-outs of each contract (default: "
            "the expert playing for points; docs/selfplay.md)."
        ),
    ] = None,
    rules: Annotated[
        list[str] | None,
        typer.Option(
            help="Rules of the games, repeatable: game g uses the (g mod n)th (default: standard)."
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the deals: the same seed, the same run.")] = 0,
    chunk: Annotated[int, typer.Option(help="Games in each part file.")] = 5,
    bid_samples: Annotated[
        int, typer.Option(help="Deals of the double-dummy figures of each contract.")
    ] = 16,
    workers: WorkersOption = 1,
    ray: RayOption = None,
) -> None:
    """Play self-play games and store every call, every hand and, for every seat of every
    hand, each contract it could have named played out (docs/selfplay.md).

    Parts of --chunk games are written whole as they finish; the same command on the same
    folder plays only the parts missing, and Ctrl-C stops after the last whole part. Exit
    status 2 for bad input.
    """
    from texas42.services.selfplay.play import DEFAULT_PLAYOUT
    from texas42.services.selfplay.store import RunConfig, run_selfplay

    texts = rules or ["standard"]
    try:
        canonical = tuple(str(Rules.parse(text)) for text in texts)
    except Texas42Error as exc:
        raise _refused(f"--rules: {exc}") from None
    _check_executors(workers, ray)
    config = RunConfig(bot, playout or DEFAULT_PLAYOUT, canonical, seed, games, chunk, bid_samples)
    bar, advance = _arena_progress(games, "games", step=lambda data: 1)
    try:
        with bar:
            summary = run_selfplay(
                Path(out),
                config,
                workers=workers,
                ray_address=ray,
                progress=advance,
                found_games=lambda n: bar.advance(bar.task_ids[0], n),
            )
    except Texas42Error as exc:
        raise _refused(f"texas42 selfplay: {exc}") from None
    rows = ", ".join(f"{n} {table}" for table, n in summary.rows.items())
    print(
        f"{summary.folder}: wrote {summary.parts_written} parts ({summary.games_played} games; "
        f"rows: {rows}) in {summary.seconds:.1f} s; {summary.parts_found} parts "
        f"({summary.games_found} games) were there already."
    )
    if summary.stopped:
        print("Stopped by Ctrl-C after the last whole part; run the same command to go on.")
        raise typer.Exit(130)


@app.command()
def hint(
    position: Annotated[
        str, typer.Argument(help="A full or seat-view position string (see docs/rules.md).")
    ],
    seat: Annotated[
        int | None,
        typer.Option(help="The seat asking (0 North, clockwise); default: the seat to act."),
    ] = None,
    samples: Annotated[int, typer.Option(help="Deals drawn to judge each action.", min=1)] = 32,
    seed: Annotated[int, typer.Option(help="Seed for the deals drawn.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the hints as JSON.")] = False,
) -> None:
    """Rank a seat's legal actions, judged from what that seat can see: the chance to make (or,
    defending, to set) and the bidders' expected points, or for a call its expected marks."""
    from texas42.players.hints import advise

    try:
        last = position.split()[-1:]  # empty text: read as a full position, which refuses it
        if last and "@" in last[0]:
            view = parse_view_position(position)
            if seat is not None and seat != view.seat:
                raise Texas42Error(f"this seat view is seat {view.seat}'s, not seat {seat}'s")
        else:
            hand, score, number = parse_hand_position(position)
            asking = hand.seat_to_act() if seat is None else seat
            top = hand.layout.seats - 1
            if asking is None or not 0 <= asking <= top:
                raise Texas42Error(f"no seat {asking} to ask for: a seat is 0..{top}")
            view = hand.view(asking, score, number)
        advice = advise(view, samples=samples, seed=seed)
    except Texas42Error as exc:
        raise _refused(f"texas42 hint: {exc}") from None
    found, why = advice.hints, advice.reason.text  # the asking seat's own reason, whole
    if as_json:
        hinted = [h.to_dict() for h in found]
        choice = advice.choice.notation
        print(json.dumps({"seat": view.seat, "hints": hinted, "choice": choice, "reason": why}))
        return
    print(f"{view.layout.seat_names[view.seat]} to act; best first:")
    for h in found:
        print(
            f"  {h.action.notation:<10} {hint_facts(view, h.chance, h.points, h.marks, h.if_stands)}"
        )
    print(f"why {advice.choice.notation}: {why}")


@app.command()
def practice(
    rules: Annotated[str, typer.Option(help="standard, or house (with the special bids).")] = (
        "standard"
    ),
    count: Annotated[int, typer.Option(help="Questions to ask.", min=1, max=1000)] = 5,
    seed: Annotated[int, typer.Option(help="The question to start at.", min=0)] = 0,
) -> None:
    """Bidding practice: what would you bid? The same questions and numbers as /learn/bids."""
    from texas42.faces.terminal.practice import run
    from texas42.services.learn.practice import MAX_N, RULE_SETS

    if rules not in RULE_SETS or seed + count > MAX_N:
        raise _refused(
            f"texas42 practice: --rules is {' or '.join(RULE_SETS)}; --seed below {MAX_N}"
        )
    asked, agreed, given_up = run(rules, count, seed, input, print)
    from texas42.core.words import practice_summary_words

    print(practice_summary_words(asked, agreed, given_up))


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
        raise _refused(str(exc)) from None
    print(rules)
    for line in rules_text(rules):
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


@app.command()
def serve(
    host: Annotated[
        str,
        typer.Option(
            help="The address to listen on; 0.0.0.0 (or ::) lets other machines on your "
            "network join."
        ),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="The port to listen on.")] = 4242,
    db: Annotated[
        str | None,
        typer.Option(
            help="SQLite file or database URL (postgresql://...); "
            "default: texas42.sqlite in your data folder."
        ),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option(help="Seconds a bot waits before it acts, so people can follow.")
    ] = 0.7,
    allow_origin: Annotated[
        list[str] | None, typer.Option(help="Another origin allowed to open WebSockets.")
    ] = None,
    engine: Annotated[
        list[str] | None,
        typer.Option(help="NAME=CMD: offer an outside engine (docs/engine-protocol.md) as a bot."),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(
            help="The address browsers reach this server at behind a proxy or a tunnel "
            "(https://tables.example.org): invite and seat links start with it."
        ),
    ] = None,
    away_seconds: Annotated[
        float,
        typer.Option(
            help="Seconds a disconnected player the table waits on gets before a bot plays."
        ),
    ] = 60.0,
    header_seconds: Annotated[
        float,
        typer.Option(
            help="Seconds a connection may take to send a request's headers before it is closed."
        ),
    ] = 10.0,
    keep_alive_seconds: Annotated[
        int,
        typer.Option(help="Seconds an idle HTTP connection is kept open for its next request."),
    ] = 5,
    body_seconds: Annotated[
        float,
        typer.Option(help="Seconds a request's body may take to arrive before it is refused."),
    ] = 30.0,
    max_connections: Annotated[
        int,
        typer.Option(
            help="HTTP connections and WebSockets served at once; beyond them a new one is "
            "refused (503). Kept under the open-files limit, raised to its maximum at start."
        ),
    ] = 1000,
    create_per_minute: Annotated[
        float,
        typer.Option(help="Tables one client address may create a minute, after its burst."),
    ] = 6.0,
    create_burst: Annotated[
        int, typer.Option(help="Tables one client address may create at once.")
    ] = 12,
    lobby_expiry: Annotated[
        float,
        typer.Option(
            help="Seconds a table waiting in the lobby that nobody uses is kept before it "
            "expires (a game started never does)."
        ),
    ] = 86_400.0,
    snapshot_events: Annotated[
        int,
        typer.Option(help="Events between two snapshots of a table, so a long log loads fast."),
    ] = 500,
    access_log: Annotated[
        str,
        typer.Option(
            help="json: one JSON line per request on standard output (time, method, path, "
            "status, duration, client; never a token); off: none."
        ),
    ] = "off",
) -> None:
    """Serve the web table: play in the browser with bots and friends (see docs/web.md)."""
    if not 0 < port < 65536:
        raise _refused(f"--port: a port is 1..65535, not {port}")
    if not 0 <= bot_delay <= 60:
        raise _refused(f"--bot-delay: seconds from 0 to 60, not {bot_delay}")
    from texas42.faces.server.invite import check_public_url, start_message
    from texas42.faces.server.origins import bound_hosts

    public = None
    if public_url is not None:
        try:
            public = check_public_url(public_url)
        except Texas42Error as exc:
            raise _refused(f"--public-url: {exc}") from None
    origins = []
    for origin in allow_origin or ():
        try:
            origins.append(check_public_url(origin))
        except Texas42Error as exc:
            raise _refused(f"--allow-origin: {exc}") from None
    if not 0 < away_seconds <= 3600:
        raise _refused(f"--away-seconds: seconds above 0, at most 3600, not {away_seconds}")
    for option, seconds in (
        ("--header-seconds", header_seconds),
        ("--keep-alive-seconds", keep_alive_seconds),
        ("--body-seconds", body_seconds),
    ):
        if not 0 < seconds <= 3600:
            raise _refused(f"{option}: seconds above 0, at most 3600, not {seconds}")
    if max_connections < 1:
        raise _refused(f"--max-connections: at least 1, not {max_connections}")
    if not 0 < create_per_minute <= 10_000:
        raise _refused(f"--create-per-minute: above 0, at most 10000, not {create_per_minute}")
    if not 1 <= create_burst <= 100_000:
        raise _refused(f"--create-burst: 1 to 100000, not {create_burst}")
    if not 1 <= lobby_expiry <= 365 * 86_400:
        raise _refused(f"--lobby-expiry: seconds from 1 to a year, not {lobby_expiry}")
    if not 10 <= snapshot_events <= 1_000_000:
        raise _refused(f"--snapshot-events: 10 to 1000000, not {snapshot_events}")
    if access_log not in ("json", "off"):
        raise _refused(f"--access-log: json or off, not {printable(access_log)!r}")
    import uvicorn

    from texas42.faces.server import ServerSettings, create_app
    from texas42.faces.server.access_log import to_stdout
    from texas42.faces.server.file_lock import one_server
    from texas42.faces.server.guard import connection_cap, http_protocol, open_files_limit
    from texas42.faces.server.storage import (
        check_database,
        database_url,
        default_db_path,
        upgrade_schema,
    )

    engines = []
    for item in engine or ():
        label, sep, command = item.partition("=")
        if not sep or not label.strip() or not command.strip():
            raise _refused(f"--engine: give NAME=COMMAND, not {item!r}")
        engines.append((label.strip(), command.strip()))
    settings = ServerSettings(
        db=db,
        bot_delay=bot_delay,
        allowed_origins=tuple(origins),
        engines=tuple(engines),
        freeze_gc=True,
        public_url=public,
        away_seconds=away_seconds,
        hosts=bound_hosts(host, port),
        header_seconds=header_seconds,
        keep_alive_seconds=keep_alive_seconds,
        body_seconds=body_seconds,
        max_connections=max_connections,
        create_per_minute=create_per_minute,
        create_burst=create_burst,
        lobby_expiry=lobby_expiry,
        snapshot_events=snapshot_events,
        access_log=access_log == "json",
    )
    where = printable(db if db is not None else str(default_db_path()))
    held = contextlib.ExitStack()  # the SQLite file's lock, for as long as the server runs
    try:
        check_database(database_url(db))
        held.enter_context(one_server(database_url(db)))
        before, after = upgrade_schema(database_url(db))
    except Texas42Error as exc:
        raise _refused(f"--db: {exc}") from None
    # the address comes first: it is the line people (and scripts) look for
    print("\n".join(start_message(host, port, where, public)), flush=True)
    if before != after:
        print(schema_upgraded(before, after), flush=True)
    descriptors = open_files_limit()
    cap = connection_cap(max_connections, descriptors)
    if cap < max_connections:
        print(f"At most {cap} connections: {descriptors} files may be open.", flush=True)
    if settings.access_log:
        to_stdout()
    with held:
        uvicorn.run(
            create_app(settings),
            host=host,
            port=port,
            log_level="warning",
            ws_max_size=1 << 16,
            http=http_protocol(cap, header_seconds),
            timeout_keep_alive=keep_alive_seconds,
        )


db_app = typer.Typer(
    help="The server's database: its schema's revision, and upgrading it (docs/deploy.md).",
    no_args_is_help=True,
)
app.add_typer(db_app, name="db")

DB_OPTION = typer.Option(
    help="SQLite file or database URL (postgresql://...); "
    "default: texas42.sqlite in your data folder."
)


def _db_url(db: str | None) -> str:
    from texas42.faces.server.storage import check_database, database_url

    url = database_url(db)
    try:
        check_database(url)
    except Texas42Error as exc:
        raise _refused(f"--db: {exc}") from None
    return url


@db_app.command("upgrade")
def db_upgrade(db: Annotated[str | None, DB_OPTION] = None) -> None:
    """Apply the schema migrations the database lacks (run before starting a new version)."""
    from texas42.faces.server.file_lock import one_server
    from texas42.faces.server.storage import upgrade_schema

    url = _db_url(db)
    try:
        with one_server(url):  # never under a server running on the same SQLite file
            before, after = upgrade_schema(url)
    except Texas42Error as exc:
        raise _refused(f"--db: {exc}") from None
    print(schema_upgraded(before, after))


@db_app.command("current")
def db_current(db: Annotated[str | None, DB_OPTION] = None) -> None:
    """The database's schema revision, and whether this texas42 needs an upgrade of it."""
    from texas42.faces.server.storage import schema_state

    found = schema_state(_db_url(db))
    print(f"{found.current or 'none'} (this texas42: {found.head})")
    problem = found.problem()
    if problem is not None:
        print(problem)


@db_app.command("history")
def db_history() -> None:
    """The schema's revisions this texas42 knows, oldest first."""
    from texas42.faces.server.migrate import history

    for revision, doc in history():
        print(f"{revision}  {' '.join(doc.split())}")


def schema_upgraded(before: str | None, after: str) -> str:
    if before == after:
        return f"The database's schema is up to date ({after})."
    if before is None:  # a new database, or one made before migrations
        return f"The database's schema is at {after} (it had no revision recorded)."
    return f"Upgraded the database's schema from {before} to {after}."


def main() -> None:
    """The console entry point: every bad input ends as one line on stderr and status 2."""
    try:
        app(prog_name="texas42")
    except (Texas42Error, OSError) as exc:
        print(printable(f"texas42: {exc}"), file=sys.stderr)
        sys.exit(UNREADABLE)
    except ImportError as exc:  # the server, the full-screen table and the solver are extras
        command = next((word for word in sys.argv[1:] if not word.startswith("-")), "")
        missing = extra_error(exc, f"texas42 {command}".strip())
        if missing is exc:
            raise
        print(missing, file=sys.stderr)
        sys.exit(UNREADABLE)

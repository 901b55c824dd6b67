"""``texas42 puzzle``: the play puzzles in the terminal (`texas42.services.learn.puzzles`).

Without an id it lists the set by grade; with one (or ``--daily``, today on this machine's
calendar) it shows the position, every hand (a puzzle is double dummy), reads a tile and prints
the verdict and the lines of best play, trick by trick, that prove it.
"""

from __future__ import annotations

import datetime
import sys
from typing import Annotated, Any

import typer

from texas42.core.words import printable

HELP = "Solve a play puzzle found by the solver: find the one play that makes or sets the contract."


def _fail(message: str) -> typer.Exit:
    typer.echo(printable(f"texas42 puzzle: {message}"), err=True)
    return typer.Exit(2)


def _line_lines(line: dict[str, Any], names: list[str]) -> list[str]:
    out = []
    for trick in line["tricks"]:
        plays = ", ".join(
            f"{names[p['seat']]} {p['tile']}{' (on the table)' if p['before'] else ''}"
            for p in trick["plays"]
        )
        out.append(f"  {plays}: {trick['words']}")
    out.append(f"  {line['result']}")
    return out


def _position_lines(shown: dict[str, Any]) -> list[str]:
    names = shown["seat_names"]
    out = [
        f"puzzle {shown['id']} ({shown['grade_words']})",
        shown["contract_line"],
        shown["standing"],
    ]
    for k, tiles in enumerate(shown["hands"]):
        mark = "  <- to play" if k == shown["seat"] else ""
        out.append(f"  {names[k]:<6} {' '.join(tiles)}{mark}")
    if shown["trick"]:
        out.append(
            "on the table: " + ", ".join(f"{names[p['seat']]} {p['tile']}" for p in shown["trick"])
        )
    out.append(shown["task"])
    out.append("legal: " + " ".join(shown["legal"]))
    return out


def puzzle(
    puzzle_id: Annotated[
        str | None, typer.Argument(help="A puzzle's id (list them without one).")
    ] = None,
    daily: Annotated[
        bool, typer.Option("--daily", help="Today's puzzle (this machine's date).")
    ] = False,
    date: Annotated[
        str | None, typer.Option("--date", help="With --daily: that day's puzzle (YYYY-MM-DD).")
    ] = None,
    answer: Annotated[
        str | None, typer.Option("--answer", help="The tile to play, instead of asking for it.")
    ] = None,
) -> None:
    """Solve a play puzzle found by the solver: find the one play that makes or sets the
    contract; without an id, list the puzzles by grade."""
    from texas42.services.learn import puzzles

    try:
        if date is not None and not daily:
            raise puzzles.PuzzleError("date", "--date: goes with --daily")
        if daily:
            day = datetime.date.today() if date is None else puzzles.parse_date(date)
            found = puzzles.daily(day)
        elif puzzle_id is not None:
            found = puzzles.by_id(puzzle_id)
        else:
            for p in map(puzzles.summary, puzzles.load()):
                typer.echo(f"{p['id']}  {p['grade']} {p['grade_words']:<8}  {p['label']}")
            return
    except puzzles.PuzzleError as exc:
        raise _fail(str(exc)) from None
    shown = puzzles.show(found)
    for line in _position_lines(shown):
        typer.echo(line)
    while True:
        tile = answer
        if tile is None:
            typer.echo("your play: ", nl=False)
            tile = sys.stdin.readline()
            if not tile:
                raise _fail("no tile given")
        try:
            verdict = puzzles.answer(found, tile.strip())
            break
        except puzzles.PuzzleError as exc:
            if answer is not None:
                raise _fail(str(exc)) from None
            typer.echo(printable(str(exc)))
    typer.echo(verdict["verdict"])
    names = shown["seat_names"]
    for line in verdict["lines"]:
        typer.echo(line["title"] + ":")
        for text in _line_lines(line, names):
            typer.echo(text)

"""``texas42 practice``: bidding practice in the terminal, the same questions and numbers as the
web page ``/learn/bids`` (`texas42.services.learn.practice`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from texas42.core.words import printable
from texas42.services.learn.practice import Setup, parse_call, shipped


def _percent(x: float | None) -> str:
    return "-" if x is None else f"{round(100 * x)}%"


def _marks(x: float | None) -> str:
    return "-" if x is None else f"{x:+.2f}"


def question_lines(q: dict[str, Any]) -> list[str]:
    """The question as the terminal prints it."""
    lines = [q["position"], q["score"]["words"]]
    for call in q["calls"]:
        lines.append(f"  {call['name']} ({call['who']}): {call['call']}")
    lines.append(f"Your tiles: {' '.join(q['hand'])}")
    lines.append(f"Your call ({', '.join(q['legal'])}):")
    return lines


def answer_lines(a: dict[str, Any]) -> list[str]:
    """The answer as the terminal prints it: the verdict, the expert's call, every call's
    figures, the contracts on this deal and the whole deal."""
    lines = [a["verdict"], f"Expert: {a['expert']['reason']}"]
    lines.append(a["about"])
    lines.append(
        f"  {'call':<8} {'chance':>6} {'stands':>6} {'marks':>6} {'dd share':>9}  "
        "on this deal, double dummy"
    )
    for row in a["calls"]:
        share = "-" if row["share"] is None else _percent(row["share"])
        tag = " *" if row["call"] == a["call"] else ""
        lines.append(
            f"  {row['call']:<8} {_percent(row['chance']):>6} {_percent(row['if_stands']):>6} "
            f"{_marks(row['marks']):>6} "
            f"{share:>9}  {row['deal']['words']}{tag}"
        )
    values = ", ".join(f"{c['contract']} {c['value']}" for c in a["contracts"])
    lines.append(f"With you declaring, double dummy: {values}")
    for seat in a["deal"]:
        lines.append(f"  {seat['name']} ({seat['who']}): {' '.join(seat['tiles'])}")
    return lines


def run(
    rules: str,
    count: int,
    seed: int,
    read: Callable[[str], str],
    write: Callable[[str], None],
) -> tuple[int, int, float]:
    """Ask ``count`` questions from number ``seed`` of the rotation on; returns the questions
    answered, the agreements with the expert and the expected marks given up."""
    practice = shipped()
    asked = agreed = 0
    given_up = 0.0
    for n in range(seed, seed + count):
        q = practice.question(rules, n)
        legal = Setup.from_dict(practice.items[q["id"]]).view().legal
        for line in question_lines(q):
            write(printable(line))
        call = None
        while call is None:
            try:
                text = read("> ")
            except EOFError:
                return asked, agreed, given_up
            call = parse_call(text, legal)
            if call is None:
                names = ", ".join(a.notation for a in legal)
                write(printable(f"not a legal call here: choose from {names}"))
        a = practice.answer(q["id"], call)
        asked += 1
        agreed += a["agrees"]
        given_up += a["given_up"]
        for line in answer_lines(a):
            write(printable(line))
        write("")
    return asked, agreed, given_up


__all__ = ["answer_lines", "question_lines", "run"]

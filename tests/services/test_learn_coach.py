"""Coaching after a game (`texas42.services.learn.coach`): a seat's three costliest mistakes are
the review's, in words that say the review's numbers, and agree with ``texas42 analyze``."""

from __future__ import annotations

import ast
import json
from functools import cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

from texas42 import Game, Record, Rules, check_record, record_from_game
from texas42.core.tiles import tile_name
from texas42.faces.cli import app as cli
from texas42.players.random_bot import RandomBot
from texas42.players.review import review_record
from texas42.services.learn.coach import MISTAKES_SHOWN, coach_record, coach_review

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SAMPLES = 4


@cache
def random_game(target: int = 3, seed: int = 3) -> Record:
    """A short game of random play: costly plays at every seat (and, for target 2 and seed 7,
    unmakeable bids)."""
    game = Game(Rules.parse(f"standard,target={target}"), seed)
    bots = [RandomBot(seed) for seed in range(4)]
    while not game.is_over():
        seat = game.seat_to_act()
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat)))
    return record_from_game(game, ["Ann", "Bob", "Cat", "Dan"])


def test_the_mistakes_are_the_seats_costliest_plays_in_the_review() -> None:
    record = random_game()
    review = review_record(record, bid_samples=SAMPLES)
    coached = coach_record(record, bid_samples=SAMPLES)
    assert [c.seat for c in coached] == [0, 1, 2, 3]
    for coaching in coached:
        seat = coaching.seat
        own = [(h, p) for h in review.hands for p in h.plays if p.seat == seat]
        costly = sorted(
            ((p.cost, h.number, p.index) for h, p in own if p.cost > 0),
            key=lambda c: (-c[0], c[1], c[2]),
        )
        assert coaching.summary.plays == len(own)
        assert coaching.summary.mistakes == len(costly)
        assert coaching.summary.given_up == sum(c[0] for c in costly)  # points contracts only
        assert min(MISTAKES_SHOWN, len(costly)) <= len(coaching.mistakes) <= MISTAKES_SHOWN
        plays = [m for m in coaching.mistakes if m.kind == "play"]
        assert all(m.seat == seat for m in coaching.mistakes), "only the seat's own"
        # the plays shown are the costliest in order; a bid mistake may take one place
        assert [(m.cost, m.hand, m.index) for m in plays] == costly[: len(plays)]
        costs = [m.cost for m in coaching.mistakes]
        assert costs == sorted(costs, reverse=True)
        if len(coaching.mistakes) == MISTAKES_SHOWN and len(costly) > len(plays):
            assert costly[len(plays)][0] <= costs[-1], "nothing costlier left out"
        assert coaching.no_mistakes_line is None
    assert sum(c.summary.mistakes for c in coached) > 4


@pytest.mark.parametrize("game", [(3, 3), (2, 7)])
def test_the_words_say_the_numbers(game: tuple[int, int]) -> None:
    record = random_game(*game)
    report = check_record(record)
    review = review_record(record, bid_samples=SAMPLES)
    seen = 0
    for seat in range(4):
        coaching = coach_review(report, review, [seat])
        for m in coaching.mistakes:
            seen += 1
            played = report.hands[m.hand - 1]
            assert " ".join(m.hands[seat]) in m.position
            if m.kind == "bid":
                assert m.trick == 0 and m.position.startswith(f"Hand {m.hand}, the bidding. ")
                assert m.make_share == 0 and m.samples == SAMPLES
                assert f"bid {m.bid}" in m.advice and f"{m.cost} short" in m.advice
                continue
            assert m.position.startswith(f"Hand {m.hand}, trick {m.trick}. ")
            reviewed = review.hands[m.hand - 1].plays[m.index - 1]
            assert m.tile == tile_name(reviewed.tile) == tile_name(played.plays[m.index - 1])
            assert m.tile in m.hands[seat], "the tile was in the seat's hand"
            assert list(m.best) == [tile_name(t) for t in reviewed.best]
            assert (m.values, m.cost) == (
                (reviewed.value_before, reviewed.value_after),
                reviewed.cost,
            )
            assert m.advice.startswith(f"You played {m.tile}: {' or '.join(m.best)} would have ")
            assert f" {m.cost} more point" in m.advice
            assert f"end on {m.values[0]} instead of {m.values[1]}" in m.advice
            goal_made = m.made
            if goal_made[0] != goal_made[1]:
                word = "made" if goal_made[0] else "set"
                assert m.advice.endswith(f"the contract would have been {word}.")
            else:
                assert m.advice.endswith("either way.")
            # the trick so far is what the record's play had on the table
            start = sum(len(t.seats) for t in played.tricks[: m.trick - 1])
            before = played.plays[start : m.index - 1]
            assert [tile for _, tile in m.trick_so_far] == [tile_name(t) for t in before]
        s = coaching.summary
        assert coaching.summary_line.startswith(f"You made {s.plays} plays: ")
        assert f"Bids won: {s.bids}, made: {s.made}." in coaching.summary_line
        results = [r for r in report.results if r.bidder == seat and r.made is not None]
        assert (s.bids, s.made) == (len(results), sum(bool(r.made) for r in results))
    assert seen >= 5


@pytest.mark.parametrize("game", [(3, 3), (2, 7)])
def test_the_numbers_agree_with_texas42_analyze(tmp_path: Path, game: tuple[int, int]) -> None:
    path = tmp_path / "game.json"
    path.write_text(random_game(*game).to_json())
    runner = CliRunner()
    analyzed = runner.invoke(cli, ["analyze", str(path), "--json", "--samples", str(SAMPLES)])
    assert analyzed.exit_code == 0, analyzed.output
    hands = json.loads(analyzed.output)["hands"]
    for seat in range(4):
        coached = runner.invoke(
            cli, ["analyze", str(path), "--json", "--samples", str(SAMPLES), "--coach", str(seat)]
        )
        assert coached.exit_code == 0, coached.output
        coaching = json.loads(coached.output)
        assert coaching["seat"] == seat
        assert len(coaching["mistakes"]) == min(3, coaching["summary"]["mistakes"]) or any(
            m["kind"] == "bid" for m in coaching["mistakes"]
        )
        for m in coaching["mistakes"]:
            hand = hands[m["hand"] - 1]
            if m["kind"] == "bid":
                (bid,) = [b for b in hand["bids"] if b["index"] == m["index"]]
                assert bid["seat"] == seat and bid["make_share"] == 0
                assert m["value_played"] == hand["plays"][0]["value_before"]
                continue
            play = hand["plays"][m["index"] - 1]
            assert play["seat"] == seat and play["tile"] == m["tile"] and play["best"] == m["best"]
            assert (play["cost"], play["value_before"], play["value_after"]) == (
                m["cost"],
                m["value_best"],
                m["value_played"],
            )
            assert m["index"] in hand["mistakes"]


def test_a_game_without_mistakes_says_so() -> None:
    record = Record.from_json((EXAMPLES / "ex14-points.json").read_text())
    north, east, south, _ = coach_record(record, bid_samples=SAMPLES)
    for clean in (north, east):
        assert clean.mistakes == () and clean.summary.mistakes == 0
        assert clean.no_mistakes_line == (
            "No costly plays: every play of yours was as good as the best."
        )
    assert north.summary.bids == north.summary.made == 1
    (only,) = south.mistakes
    assert (
        only.cost == 6 and only.tile == "1-1" and "the contract is made either way" in only.advice
    )


def test_the_terminal_prints_the_coaching_and_refuses_a_bad_seat() -> None:
    path = str(EXAMPLES / "ex14-points.json")
    runner = CliRunner()
    shown = runner.invoke(cli, ["analyze", "--coach", "west", "--samples", "4", path])
    assert shown.exit_code == 0, shown.output
    lines = shown.output.splitlines()
    assert lines[0].startswith("coaching for West: You made 7 plays: 1 of them costly")
    assert lines[1].startswith("  1. Hand 1, trick 6. North bid 34")
    assert "You played 4-1: 5-0 would have kept 6 more points" in lines[2]
    clean = runner.invoke(cli, ["analyze", "--coach", "0", "--samples", "4", path])
    assert "No costly plays" in clean.output
    for bad in ("9", "northwest", "-1"):
        refused = runner.invoke(cli, ["analyze", "--coach", bad, path])
        assert refused.exit_code == 2 and "--coach: a seat is one of 0 North" in refused.output


@pytest.mark.parametrize("seat", [1, 2])
def test_a_nello_bid_that_could_never_be_made_is_a_mistake(seat: int) -> None:
    record = Record.from_json((EXAMPLES / "ex15-nello.json").read_text())
    (coaching,) = coach_record(record, [(seat,)], bid_samples=SAMPLES)
    (mistake,) = coaching.mistakes
    if seat == 1:  # East bid Nel-O, which best play by the defenders would have set
        assert mistake.kind == "bid" and mistake.unit == "tricks" and mistake.cost == 1
        assert "1 too many" in mistake.advice
    else:  # South's 4-3 let it make
        assert mistake.kind == "play" and mistake.made == (False, True)
        assert "given the bidder 1 more trick" in mistake.advice
        assert coaching.summary.given_up == 0, "tricks at Nel-O are not points"


def test_the_readme_shows_what_the_terminal_prints() -> None:
    readme = (EXAMPLES.parent / "README.md").read_text()
    shown = CliRunner().invoke(
        cli, ["analyze", "--coach", "west", str(EXAMPLES / "ex14-marks.json")]
    )
    assert shown.exit_code == 0, shown.output
    assert f"$ texas42 analyze --coach west examples/ex14-marks.json\n{shown.output}```" in readme


def test_the_learning_code_uses_no_other_module_s_private_names() -> None:
    """One concept, one home: a helper the learning code needs is public where it lives."""
    root = Path(__file__).parents[2] / "src" / "texas42"
    files = [
        *(root / "services" / "learn").glob("*.py"),
        *(root / "faces" / "server").glob("learn_*.py"),
        root / "faces" / "server" / "coaching.py",
    ]
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("texas42"):
                names = [a.name for a in node.names if a.name.startswith("_")]
                assert not names, (path.name, node.module, names)

"""`PimcBot.make_chance`: the chance a bot gives a call of being made, from the numbers it bids on.

The calibration benchmark (benchmarks/bench_calibration.py) asks bots only this method.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from helpers import EX14_DEAL, EX14_PLAYS
from texas42 import Hand, Rules
from texas42.core.actions import Bid, Pass
from texas42.core.reasons import Reason
from texas42.core.record import HandRecord, Record
from texas42.players import make_bot
from texas42.players.hints import hints
from texas42.players.pimc import PimcBot, PimcSettings

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))


def _hint_bot(samples: int, seed: int = 0) -> PimcBot:
    """The bot `hints` judges with."""
    options = {"samples": str(samples), "bid_samples": str(samples), "value_samples": str(samples)}
    return PimcBot(PimcSettings.expert().with_options(options), seed)


def test_make_chance_is_the_chance_hints_show_for_each_bid() -> None:
    view = Hand(Rules(), 3, EX14_DEAL).view(0)
    bot = _hint_bot(8)
    shown = {h.action: h.chance for h in hints(view, samples=8)}
    bids = [a for a in view.legal if isinstance(a, Bid)]
    assert len(bids) > 5
    for bid in bids:
        assert bot.make_chance(view, bid) == shown[bid]
    assert bot.make_chance(view, Pass()) is None
    assert shown[Pass()] is None


def test_make_chance_falls_as_the_bid_rises_and_a_special_has_one() -> None:
    view = Hand(Rules.parse("house"), 3, EX14_DEAL).view(0)
    bot = _hint_bot(8)
    by_name = {a.notation: a for a in view.legal}
    chances = [bot.make_chance(view, by_name[str(points)]) for points in range(30, 42)]
    assert all(c is not None and 0.0 <= c <= 1.0 for c in chances)
    assert chances == sorted(chances, reverse=True)  # type: ignore[type-var]
    assert chances[0] > chances[-1]
    splash = bot.make_chance(view, by_name["splash"])
    assert splash is not None and 0.0 <= splash <= 1.0
    assert splash == bot.special_chance(view, by_name["splash"])  # type: ignore[arg-type]


def test_make_chance_is_what_the_bot_chose_its_call_on() -> None:
    """The call the bot makes is the one `call_value` rated best, and `make_chance` reports the
    chance behind that rating; the answer is the same asked twice (deterministic)."""
    view = Hand(Rules(), 3, EX14_DEAL).view(0)
    bot = make_bot("pimc:samples=8,bid_samples=8", seed=5)
    assert isinstance(bot, PimcBot)
    call = bot.choose(view)
    assert isinstance(call, Bid)
    chance = bot.make_chance(view, call)
    expected = bot.call_value(bot.contract_chances(view), call, view)[0]
    assert chance == expected
    assert make_bot("pimc:samples=8,bid_samples=8", seed=5).make_chance(view, call) == chance


def test_a_bid_in_a_declaration_view_is_not_a_call() -> None:
    hand = Hand(Rules(), 3, EX14_DEAL)
    for word in ("34", "pass", "pass", "pass"):
        hand.apply(hand.parse_action(word))
    view = hand.view(0)
    bot = _hint_bot(8)
    assert all(bot.make_chance(view, action) is None for action in view.legal)


@pytest.mark.parametrize("bot", ["pimc:samples=4,bid_samples=4"])
def test_the_calibration_benchmark_runs_on_one_game(bot: str, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    chart = tmp_path / "calibration.png"
    run = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "bench_calibration.py"),
            f"--bot={bot}",
            "--games=1",
            f"--plot={chart}",
        ],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"},
    )
    assert (
        "| predicted | hands | mean predicted | made | 95% interval | gap (points) |" in run.stdout
    )
    assert "| all |" in run.stdout and "Brier score" in run.stdout
    # every bid is an opener or an overcall: the two rows count the hands of "all"
    counts = {
        row.split("|")[1].strip(): int(row.split("|")[2])
        for row in run.stdout.splitlines()
        if row.startswith("| ") and row.split("|")[2].strip().isdigit()
    }
    assert counts.get("openers", 0) + counts.get("overcalls", 0) == counts["all"] > 0
    assert chart.stat().st_size > 0


def test_the_calibration_benchmark_refuses_a_bot_without_make_chance() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_calibration.py"), "--bot=rules"],
        capture_output=True,
        check=False,
        text=True,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"},
    )
    assert run.returncode == 2
    assert "no make_chance" in run.stderr


def _ex14_record(reasons: dict[int, str]) -> Record:
    """rules.md Ex 14 bid 30 by North (made) with the calls' reasons given by call index."""
    hand = Hand(Rules(), 3, EX14_DEAL)
    for word in ("30", "pass", "pass", "pass", "sixes", *EX14_PLAYS.split()):
        if hand.result is None:  # the hand ends once 30 is made
            hand.apply(hand.parse_action(word))
    said: list[Reason | None] = [None] * (5 + len(hand.plays))
    for index, text in reasons.items():
        said[index] = Reason(text, "")
    calls = (Bid(30), Pass(), Pass(), Pass())
    record = HandRecord(
        hand.shaker, hand.deal, calls, hand.contract, tuple(hand.plays), reasons=tuple(said)
    )
    return Record(Rules(), (record,), ("N", "E", "S", "W"))


def test_calibration_from_records_reads_each_winning_bid_and_each_call(tmp_path: Path) -> None:
    """North opens 30 at a stated 60% and makes it; East and West pass over it at 20% and 35%
    (South passes over partner, which says no chance): the bid is an opener made, East-West's
    passes cost their side the mark North-South won."""
    from bench_calibration import read_records

    record = _ex14_record(
        {
            0: "bids 30: 30 makes in 60% of 48 deals that fit (in sixes)",
            1: "passes: the best bid: 31 makes in 20% of 48 deals that fit (in fives)",
            2: "passes (partner holds the bid)",
            3: "passes: the best bid: 31 makes in 35% of 48 deals that fit (in ones)",
        }
    )
    (tmp_path / "one.json").write_text(record.to_json())
    outcomes, calls = read_records([tmp_path])
    assert outcomes == {"N": [(0.6, True, False)]}
    assert calls == {
        "N": [(0.6, True, False, 1)],
        "E": [(0.2, False, True, -1)],
        "W": [(0.35, False, True, -1)],
    }


def test_calibration_from_records_prints_the_tables_and_names_a_bad_file(tmp_path: Path) -> None:
    record = _ex14_record({0: "bids 30: 30 makes in 60% of 48 deals that fit (in sixes)"})
    (tmp_path / "one.json").write_text(record.to_json())
    command = [sys.executable, str(ROOT / "benchmarks" / "bench_calibration.py")]
    env = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
    run = subprocess.run(
        [*command, f"--records={tmp_path}"], capture_output=True, text=True, env=env, check=True
    )
    assert "N: 1 winning bids with a stated chance" in run.stdout
    assert "| openers | 1 | 60.0% | 100.0% |" in run.stdout
    assert "| opening | 60-65% | 0 |  | 1 |  |" not in run.stdout  # fewer than 10 calls: no row
    (tmp_path / "two.json").write_text('{"format": "texas42-game", "hands": [')
    run = subprocess.run(
        [*command, f"--records={tmp_path}"], capture_output=True, text=True, env=env, check=False
    )
    assert run.returncode == 2
    assert f"{tmp_path / 'two.json'}:" in run.stderr
    missing = tmp_path / "nowhere"
    run = subprocess.run(
        [*command, f"--records={missing}"], capture_output=True, text=True, env=env, check=False
    )
    assert run.returncode == 2 and f"{missing}: no such folder" in run.stderr

"""`PimcBot.make_chance`: the chance a bot gives a call of being made, from the numbers it bids on.

The calibration benchmark (benchmarks/bench_calibration.py) asks bots only this method.
"""

from __future__ import annotations

import math
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import EX14_DEAL, EX14_PLAYS
from texas42 import Hand, Rules
from texas42.core.actions import Bid, Pass
from texas42.core.reasons import Reason
from texas42.core.record import HandRecord, Record
from texas42.core.words import bid_chance_said
from texas42.players import make_bot
from texas42.players.hints import hints
from texas42.players.pimc import (
    STANDS_CALIBRATION,
    PimcBot,
    PimcSettings,
    chance_if_it_stands,
    stands_chance,
    stands_features,
)

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))


def _benchmark(script: str, *args: str, check: bool = False) -> subprocess.CompletedProcess[str]:
    """``benchmarks/SCRIPT ARGS`` run as a user runs it, in a process of its own."""
    return subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), *args],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"},
        check=check,
    )


def _hint_bot(samples: int, seed: int = 0) -> PimcBot:
    """The bot `hints` judges with."""
    options = {"samples": str(samples), "bid_samples": str(samples), "value_samples": str(samples)}
    return PimcBot(PimcSettings.expert().with_options(options), seed)


def test_make_chance_is_what_the_hints_say_if_it_stands_for_each_bid() -> None:
    """Hints show the chance a call is chosen on and, for a point bid, its chance should it
    stand; `make_chance` predicts the second for a point bid, the first for a mark bid."""
    view = Hand(Rules(), 3, EX14_DEAL).view(0)
    bot = _hint_bot(8)
    shown = {h.action: h for h in hints(view, samples=8)}
    bids = [a for a in view.legal if isinstance(a, Bid)]
    assert len(bids) > 5
    for bid in bids:
        hint = shown[bid]
        assert hint.chance is not None
        assert (hint.if_stands is None) == bid.is_mark_bid
        expected = hint.chance if hint.if_stands is None else hint.if_stands
        assert bot.make_chance(view, bid) == expected
    # seat 0 opens: nobody has called, so an opening bid that stands is made more often
    assert shown[Bid(30)].if_stands > shown[Bid(30)].chance  # type: ignore[operator]
    assert bot.make_chance(view, Pass()) is None
    assert shown[Pass()].chance is None and shown[Pass()].if_stands is None


@given(
    st.floats(0.0, 1.0),
    st.floats(0.0, 1.0),
    st.booleans(),
    st.integers(0, 3),
)
def test_the_stands_chance_keeps_the_order_of_the_simulations(
    low: float, high: float, over: bool, calls_before: int
) -> None:
    """A bid the simulation rates less likely is less likely if it stands too, so a higher
    bid never reads likelier than a lower one."""
    low, high = sorted((low, high))
    assert stands_chance(low, over, calls_before) <= stands_chance(high, over, calls_before)
    assert 0.0 < stands_chance(low, over, calls_before) < 1.0


def test_an_opening_that_stands_is_likelier_the_more_seats_pass_after_it() -> None:
    """The selection `STANDS_CALIBRATION` was fitted to: an opening nobody outbids was made
    more often than the simulation said, the more so with more seats still to call; an overcall
    over an opponent's bid less often than an opening at the same chance."""
    openings = [stands_chance(0.5, False, calls_before) for calls_before in (0, 1, 2)]
    assert openings[0] > openings[1] > openings[2]
    assert openings[0] > 0.5
    assert stands_chance(0.5, True, 1) < 0.5 < stands_chance(0.5, False, 1)
    # strong hands were under-rated: 80% in the simulation is above 80% even as an overcall
    assert stands_chance(0.8, True, 1) > 0.8


def test_the_stands_chance_is_for_the_free_point_bids_it_was_fitted_on() -> None:
    """Point bids at four seats, not mark bids or other tables; not a forced bid, nor an
    opening after three passes (the fit had none: under standard rules they are forced)."""
    hand = Hand(Rules(), 3, EX14_DEAL)
    four = hand.view(0)
    assert chance_if_it_stands(four, Bid(30), 0.5) == stands_chance(0.5, False, 0)
    assert chance_if_it_stands(four, Bid("2m"), 0.5) is None
    three = Hand.random(Rules.parse("three-hand"), 0, random.Random(3)).view(1)
    assert chance_if_it_stands(three, Bid(30), 0.5) is None
    for _ in range(3):
        hand.apply(Pass())
    fourth = hand.view(hand.turn)
    assert Pass() not in fourth.legal  # standard rules: the fourth seat must bid
    assert chance_if_it_stands(fourth, Bid(30), 0.5) is None
    tournament = Hand(Rules.parse("tournament"), 3, EX14_DEAL)
    for _ in range(3):
        tournament.apply(Pass())
    free = tournament.view(tournament.turn)
    assert Pass() in free.legal and chance_if_it_stands(free, Bid(30), 0.5) is None


def test_a_margin_of_caution_does_not_move_the_chance_if_it_stands() -> None:
    """A margin makes a bot call more carefully; its bids are no likelier to fail, and the
    stands calibration was fitted on chances without one."""
    view = Hand(Rules(), 3, EX14_DEAL).view(0)  # North opens
    plain = make_bot("pimc:samples=8,bid_samples=8", seed=5)
    careful = make_bot("pimc:samples=8,bid_samples=8,bid_margin=4", seed=5)
    assert isinstance(plain, PimcBot) and isinstance(careful, PimcBot)
    for bid in (Bid(30), Bid(31), Bid(34)):
        chances = plain.contract_chances(view)
        assert careful.call_value(chances, bid, view)[0] < plain.call_value(chances, bid, view)[0]
        assert careful.make_chance(view, bid) == plain.make_chance(view, bid)


def test_a_bid_reason_says_both_chances_and_they_read_back() -> None:
    view = Hand(Rules(), 3, EX14_DEAL).view(0)
    bot = make_bot("pimc:samples=8,bid_samples=8", seed=5)
    assert isinstance(bot, PimcBot)
    decision = bot.explain(view)
    assert isinstance(decision.action, Bid) and not decision.action.marks
    said = bid_chance_said(decision.reason.text)
    assert said is not None and said.if_stands is not None
    assert said.bid == decision.action.notation
    chosen = bot.call_value(bot.contract_chances(view), decision.action, view)[0]
    assert said.chance == round(chosen, 2)
    assert said.if_stands == round(bot.make_chance(view, decision.action) or 0.0, 2)
    assert f"{round(100 * said.if_stands)}% if it stands" in decision.reason.text


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


def test_make_chance_is_the_stands_chance_of_what_the_bot_chose_its_call_on() -> None:
    """The call the bot makes is the one `call_value` rated best, and `make_chance` reports
    the chance behind that rating as it stands; the same asked twice (deterministic)."""
    view = Hand(Rules(), 3, EX14_DEAL).view(0)
    bot = make_bot("pimc:samples=8,bid_samples=8", seed=5)
    assert isinstance(bot, PimcBot)
    call = bot.choose(view)
    assert isinstance(call, Bid)
    chance = bot.make_chance(view, call)
    chosen_on = bot.call_value(bot.contract_chances(view), call, view)[0]
    assert chance == chance_if_it_stands(view, call, chosen_on)
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
    run = _benchmark(
        "bench_calibration.py", f"--bot={bot}", "--games=1", f"--plot={chart}", check=True
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
    run = _benchmark("bench_calibration.py", "--bot=rules")
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
    from bench_calibration import Outcome, read_records

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
    assert outcomes == {"N": [Outcome(0.6, True, False, 0.6, 30, 0)]}
    assert calls == {
        "N": [(0.6, True, False, 1)],
        "E": [(0.2, False, True, -1)],
        "W": [(0.35, False, True, -1)],
    }


def test_calibration_from_records_prints_the_tables_and_names_a_bad_file(tmp_path: Path) -> None:
    record = _ex14_record({0: "bids 30: 30 makes in 60% of 48 deals that fit (in sixes)"})
    (tmp_path / "one.json").write_text(record.to_json())
    run = _benchmark("bench_calibration.py", f"--records={tmp_path}", check=True)
    assert "N: 1 winning bids with a stated chance" in run.stdout
    assert "| openers | 1 | 60.0% | 100.0% |" in run.stdout
    assert "| opening | 60-65% | 0 |  | 1 |  |" not in run.stdout  # fewer than 10 calls: no row
    (tmp_path / "two.json").write_text('{"format": "texas42-game", "hands": [')
    run = _benchmark("bench_calibration.py", f"--records={tmp_path}")
    assert run.returncode == 2
    assert f"{tmp_path / 'two.json'}:" in run.stderr
    missing = tmp_path / "nowhere"
    run = _benchmark("bench_calibration.py", f"--records={missing}")
    assert run.returncode == 2 and f"{missing}: no such folder" in run.stderr


def test_restate_puts_in_the_chance_if_it_stands_of_old_records(tmp_path: Path) -> None:
    """A record made before the chance if it stands states only the simulation's; ``--restate``
    puts in what `stands_chance` gives it now (an opening at 60% in first seat)."""
    record = _ex14_record({0: "bids 30: 30 makes in 60% of 48 deals that fit (in sixes)"})
    (tmp_path / "one.json").write_text(record.to_json())
    run = _benchmark("bench_calibration.py", f"--records={tmp_path}", "--restate", check=True)
    restated = stands_chance(0.6, over=False, calls_before=0)
    assert restated > 0.6
    assert f"| openers | 1 | {restated:.1%} | 100.0% |" in run.stdout
    assert "restated by the stands calibration" in run.stdout
    run = _benchmark("bench_calibration.py", "--restate")
    assert run.returncode == 2 and "--restate reads records" in run.stderr


def test_the_stands_fit_finds_the_weights_that_made_the_outcomes() -> None:
    """Bids made with the chances `STANDS_CALIBRATION` gives: the fit that produced those
    constants (`calibrate_bidding.py --records`) finds them again."""
    from bench_calibration import Outcome
    from calibrate_bidding import fit_stands_weights

    rng = random.Random(7)
    bids = []
    for _ in range(20_000):
        simulated, over = rng.uniform(0.3, 0.95), rng.random() < 0.5
        calls_before = rng.randrange(1, 4) if over else rng.randrange(3)  # as auctions allow
        made = rng.random() < stands_chance(simulated, over, calls_before)
        bids.append(Outcome(0.0, made, over, simulated, 30, calls_before))
    weights = fit_stands_weights(bids)
    assert len(weights) == len(STANDS_CALIBRATION)
    # the curve, not each weight: the knee's weight rests on the few bids above it
    for simulated in (0.35, 0.5, 0.65, 0.8, 0.9):
        for over, calls_before in ((False, 0), (False, 2), (True, 1), (True, 3)):
            features = stands_features(simulated, over, calls_before)
            z = sum(w * x for w, x in zip(weights, features))
            found = 1 / (1 + math.exp(-z))
            assert abs(found - stands_chance(simulated, over, calls_before)) < 0.03


def test_pairs_reads_only_those_game_pairs_of_a_run(tmp_path: Path) -> None:
    """``--pairs`` keeps a fit's first pairs apart from the pairs that check it: the records
    are told by the arena's names (pair 1 bid at 60%, pair 2 at 40%)."""
    for pair, chance in ((1, 60), (2, 40)):
        said = f"bids 30: 30 makes in {chance}% of 48 deals that fit (in sixes)"
        record = _ex14_record({0: said})
        (tmp_path / f"pair{pair:05d}-A-north-south.json").write_text(record.to_json())
    run = _benchmark("bench_calibration.py", f"--records={tmp_path}", "--pairs=2-", check=True)
    assert "from records of pairs 2 on" in run.stdout
    assert "N: 1 winning bids with a stated chance" in run.stdout
    assert "| openers | 1 | 40.0% | 100.0% |" in run.stdout
    run = _benchmark("bench_calibration.py", f"--records={tmp_path}", "--pairs=1-2", check=True)
    assert "of pairs 1 to 2" in run.stdout and "N: 2 winning bids" in run.stdout
    run = _benchmark("calibrate_bidding.py", f"--records={tmp_path}", "--bot=N", "--pairs=-1")
    assert "N: 1 winning point bids state their chance, too few to fit" in run.stderr
    for script in ("bench_calibration.py", "calibrate_bidding.py"):
        run = _benchmark(script, f"--records={tmp_path}", "--pairs=3-1")
        assert run.returncode == 2 and "'3-1': no pairs (they count from 1)" in run.stderr
        run = _benchmark(script, "--pairs=2-")
        assert run.returncode == 2 and "give --records DIR" in run.stderr


def test_a_pair_window_is_first_to_last_both_included() -> None:
    import argparse

    from bench_calibration import pair_window

    assert pair_window("298-700") == range(298, 701)
    assert pair_window(" -297 ") == range(1, 298)
    assert 10**9 in pair_window("298-") and 297 not in pair_window("298-")
    assert pair_window("5-5") == range(5, 6)
    for bad in ("", "-", "5", "a-b", "0-3", "4-3", "1-2-3", "-0"):
        with pytest.raises(argparse.ArgumentTypeError, match=r"FIRST-LAST|no pairs"):
            pair_window(bad)


def test_the_stands_fit_s_ridge_leaves_the_constant_free() -> None:
    """The ridge pulls the weights on the features toward 0, never the constant: pulled all
    the way, the fit predicts the make rate of the bids (3 in 4) for every bid."""
    from calibrate_bidding import fit_logistic

    rng = random.Random(3)
    x = np.array([[1.0, rng.gauss(0, 1), rng.gauss(0, 1)] for _ in range(400)])
    y = np.array([1.0, 1.0, 1.0, 0.0] * 100)
    plain = fit_logistic(x, y)
    pulled = fit_logistic(x, y, ridge=1e9)
    assert abs(pulled[1]) < 1e-5 and abs(pulled[2]) < 1e-5
    assert pulled[0] == pytest.approx(math.log(3), abs=1e-6)
    assert not np.allclose(plain, pulled, atol=1e-3)


def test_the_stands_fit_refuses_too_few_bids(tmp_path: Path) -> None:
    record = _ex14_record({0: "bids 30: 30 makes in 60% of 48 deals that fit (in sixes)"})
    (tmp_path / "one.json").write_text(record.to_json())
    run = _benchmark("calibrate_bidding.py", f"--records={tmp_path}", "--bot=N")
    assert run.returncode == 1
    assert "N: 1 winning point bids state their chance, too few to fit" in run.stderr


def test_the_stands_fit_takes_every_expert_spec_unless_told(tmp_path: Path) -> None:
    """By default the fit reads the bids of ``expert``, ``expert@1`` and ``expert`` with options,
    which all bid by the simulation, and no other player's."""
    from calibrate_bidding import is_expert

    assert [is_expert(s) for s in ("expert", "expert@1", "expert:samples=48")] == [True] * 3
    assert is_expert(" Expert : samples=48 ") and is_expert("expert@1 ")
    others = ("eq10", "expertise", "pimc", "rules", "engine:./bot --fast", "expert:fast", "N")
    assert not any(is_expert(s) for s in others)
    north = _ex14_record({0: "bids 30: 30 makes in 60% of 48 deals that fit (in sixes)"})
    for name, north_player in (("one", "expert:samples=48"), ("two", "eq10")):
        record = Record(north.rules, north.hands, (north_player, "rules", "expert", "rules"))
        (tmp_path / f"{name}.json").write_text(record.to_json())
    run = _benchmark("calibrate_bidding.py", f"--records={tmp_path}")
    assert run.returncode == 1
    assert "expert bots: 1 winning point bids state their chance, too few to fit" in run.stderr


def _stands_bids(count: int, seed: int) -> list[Any]:
    """Bids made as often as `stands_chance` says, spread over 40 game pairs."""
    from bench_calibration import Outcome

    rng = random.Random(seed)
    bids = []
    for k in range(count):
        simulated, over = rng.uniform(0.3, 0.95), rng.random() < 0.5
        calls_before = rng.randrange(1, 4) if over else rng.randrange(3)
        made = rng.random() < stands_chance(simulated, over, calls_before)
        bids.append(Outcome(0.0, made, over, simulated, 30, calls_before, 1 + k % 40))
    return bids


def test_held_out_chances_predict_each_pair_without_its_own_outcomes() -> None:
    """``--folds``: a pair's bids are predicted by the fit on the other folds' pairs, so what
    happened in a pair moves every chance but its own fold's."""
    from calibrate_bidding import fit_stands_weights, held_out_chances

    bids = _stands_bids(4_000, seed=11)
    chances = held_out_chances(bids, 4)
    flipped = [b._replace(made=not b.made) if b.pair == 4 else b for b in bids]
    moved = held_out_chances(flipped, 4) != chances
    in_fold_0 = np.array([b.pair is not None and b.pair % 4 == 0 for b in bids])
    assert not moved[in_fold_0].any() and moved[~in_fold_0].all()
    # the fold's chances are the fit on the rest, applied to it
    rest = [b for b, inside in zip(bids, in_fold_0) if not inside]
    weights = fit_stands_weights(rest)
    first = next(k for k, inside in enumerate(in_fold_0) if inside)
    bid = bids[first]
    z = float(np.dot(weights, stands_features(bid.simulated, bid.over, bid.calls_before)))
    assert chances[first] == pytest.approx(1 / (1 + math.exp(-z)))


def test_held_out_chances_need_the_arena_s_pairs() -> None:
    from calibrate_bidding import held_out_chances

    bids = _stands_bids(200, seed=2)
    with pytest.raises(ValueError, match="only the arena's records name theirs"):
        held_out_chances([*bids, bids[0]._replace(pair=None)], 5)
    with pytest.raises(ValueError, match="fold 3 has no bids"):
        held_out_chances([b for b in bids if b.pair % 4 != 3], 4)


def test_folds_is_a_check_of_a_records_fit(tmp_path: Path) -> None:
    run = _benchmark("calibrate_bidding.py", "--folds=5")
    assert run.returncode == 2 and "give --records DIR" in run.stderr
    for bad in ("1", "two", "-3"):
        run = _benchmark("calibrate_bidding.py", f"--records={tmp_path}", f"--folds={bad}")
        assert run.returncode == 2 and f"'{bad}': say how many folds, 2 or more" in run.stderr


def test_each_bid_read_from_records_knows_its_game_pair(tmp_path: Path) -> None:
    """What ``--folds`` folds by: the pair the arena's record name gives, None for any other."""
    from bench_calibration import read_records

    record = _ex14_record({0: "bids 30: 30 makes in 60% of 48 deals that fit (in sixes)"})
    (tmp_path / "pair00003-A-north-south.json").write_text(record.to_json())
    (tmp_path / "mine.json").write_text(record.to_json())
    outcomes, _ = read_records([tmp_path])
    assert sorted((o.pair or 0) for o in outcomes["N"]) == [0, 3]

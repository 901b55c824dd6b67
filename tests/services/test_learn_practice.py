"""Bidding practice (issue 17, item 2): the questions rotate through the categories, their
numbers are the engine's (the expert's hints, ``texas42 analyze``'s bid review and the solver's
double-dummy values on the same deal), bad answers are refused, the set is reproducible for a
seed, and a question carries nothing of the other seats' tiles."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from texas42.core.actions import ACTIONS, PASS_ID, Declare
from texas42.core.auction import plain_contracts
from texas42.core.hand import Hand
from texas42.core.progress import Phase
from texas42.core.record import HandRecord, Record
from texas42.core.tiles import iter_tiles
from texas42.core.words import contract_words
from texas42.faces.terminal.practice import run
from texas42.players import make_bot
from texas42.players.hints import hints
from texas42.players.review import review_record, solve_position
from texas42.search.solver import PlayPosition, Solver
from texas42.services.learn.practice import (
    CLEAR_CHANCE,
    RULE_SETS,
    PracticeError,
    Setup,
    draw_setup,
    evaluate,
    question_of,
    shipped,
)

PRACTICE = shipped()
ITEMS = list(PRACTICE.items.values())


def item_with(test: Any) -> dict[str, Any]:
    return next(item for item in ITEMS if test(item))


def probe(setup: Setup, call: str) -> Hand:
    """The practice auction with ``call`` made and every later seat passing."""
    hand = setup.hand()
    hand.apply(next(a for a in hand.legal_actions() if a.notation == call))
    while hand.phase == Phase.AUCTION:
        hand.apply(PASS_ID)
    return hand


def test_the_questions_rotate_through_the_categories_of_each_rule_set() -> None:
    for rules, categories in RULE_SETS.items():
        assert PRACTICE.order(rules) == categories, "the shipped set lacks a category"
        seen = [PRACTICE.item_at(rules, n)["category"] for n in range(3 * len(categories))]
        assert seen == list(categories) * 3
        ids = [PRACTICE.item_at(rules, n)["id"] for n in range(3 * len(categories))]
        assert len(set(ids)) == len(ids), "a category repeats a question before its pool ends"
        assert all(PRACTICE.item_at(rules, n)["rules"] == rules for n in range(10))


def test_the_set_has_positions_other_than_first_and_scores_other_than_love() -> None:
    assert {len(item["calls"]) for item in ITEMS} >= {0, 1, 2}
    assert any(item["score"] != [0, 0] for item in ITEMS)


def test_each_category_is_what_the_expert_s_estimate_says() -> None:
    for item in ITEMS:
        answer = item["answer"]
        expert = next(a for a in ACTIONS if a.notation == answer["expert"]["call"])
        category = item["category"]
        if category == "pass":
            assert expert.notation == "pass", item["id"]
        elif category in ("clear", "mark"):
            assert expert.notation != "pass" and bool(getattr(expert, "marks", 0)) == (
                category == "mark"
            ), item["id"]
            row = next(r for r in answer["calls"] if r["call"] == expert.notation)
            assert category == "mark" or row["chance"] >= CLEAR_CHANCE, item["id"]
        elif category == "special":
            assert expert.notation != "pass", item["id"]


def test_the_chances_and_the_expert_s_call_are_the_hints_and_the_expert_s() -> None:
    item = item_with(lambda i: i["calls"] and i["category"] == "clear")
    setup = Setup.from_dict(item)
    view = setup.view()
    found = {h.action.notation: h for h in hints(view, samples=48, seed=setup.seed)}
    for row in item["answer"]["calls"]:
        hint = found[row["call"]]
        assert row["chance"] == (None if hint.chance is None else round(hint.chance, 4))
        assert row["if_stands"] == (None if hint.if_stands is None else round(hint.if_stands, 4))
        assert row["marks"] == round(hint.marks or 0.0, 4)
    expert = make_bot("expert", setup.seed)
    assert expert.choose(view).notation == item["answer"]["expert"]["call"]


@pytest.mark.parametrize("which", ["after calls", "first to call"])
def test_a_bid_s_share_is_the_one_texas42_analyze_reports_on_the_same_deal(which: str) -> None:
    item = item_with(lambda i: bool(i["calls"]) == (which == "after calls"))
    setup = Setup.from_dict(item)
    samples = item["answer"]["samples"]["review"]
    rows = [row for row in item["answer"]["calls"] if row["share"] is not None]
    for row in (rows[0], rows[-1]):
        hand = probe(setup, row["call"])
        record = Record(
            hand.rules,
            (HandRecord(hand.shaker, hand.deal, tuple(ACTIONS[c] for c in hand.calls)),),
        )
        review = review_record(record, bid_samples=samples, seed=setup.seed)
        bid = next(b for b in review.hands[0].bids if b.index == len(setup.calls) + 1)
        assert bid.bid == row["call"]
        assert round(bid.make_share, 4) == row["share"]
        assert bid.samples == samples
        assert row["share_contract"] in {contract_words(c) for c in hand_contracts(hand, bid)}


def hand_contracts(hand: Hand, bid: Any) -> list[Any]:
    """The contracts the review's share names, with the same share as the chosen one."""
    assert hand.high_id is not None
    contracts = plain_contracts(hand.rules, hand.high_id, hand.bid_marks)
    return [c for c in contracts if bid.shares[str(c)] == bid.make_share]


def test_the_deal_s_figures_are_the_solver_s() -> None:
    item = item_with(lambda i: i["rules"] == "standard" and i["category"] == "clear")
    setup = Setup.from_dict(item)
    answer = item["answer"]
    for row in [r for r in answer["calls"] if r["share"] is not None][:3]:
        hand = probe(setup, row["call"])
        assert hand.high_id is not None
        named = {
            contract_words(c): c for c in plain_contracts(hand.rules, hand.high_id, hand.bid_marks)
        }
        for entry in answer["contracts"]:
            trial = hand.copy()
            trial.apply(Declare(named[entry["contract"]]))
            assert solve_position(trial).value == entry["value"], entry
        deal = row["deal"]
        trial = hand.copy()
        trial.apply(Declare(named[deal["contract"]]))
        assert solve_position(trial).value == deal["value"]
        assert Solver().makes(PlayPosition.from_hand(trial)) == deal["made"]


def test_a_shipped_answer_is_what_the_engine_computes_now() -> None:
    """An answer whose reason states a point bid's chances, so that a change to what the
    expert says (or computes) shows up here until the set is rebuilt."""
    item = item_with(
        lambda i: (
            i["rules"] == "house" and i["calls"] and " makes in " in i["answer"]["expert"]["reason"]
        )
    )
    assert evaluate(Setup.from_dict(item)) == item["answer"]


def test_the_set_is_drawn_the_same_for_a_seed() -> None:
    one = [draw_setup(random.Random(7), "house", want) for want in ("pass", "mark", "special")]
    two = [draw_setup(random.Random(7), "house", want) for want in ("pass", "mark", "special")]
    assert one == two
    assert evaluate(one[0], samples=6, review_samples=6) == evaluate(
        two[0], samples=6, review_samples=6
    )
    assert PRACTICE.question("standard", 5) == shipped().question("standard", 5)


def test_bad_answers_are_refused_naming_the_field() -> None:
    q = PRACTICE.question("standard", 0)
    with pytest.raises(PracticeError) as caught:
        PRACTICE.answer("no-such-question", "pass")
    assert caught.value.field == "id"
    illegal = next(a.notation for a in ACTIONS[1:40] if a.notation not in q["legal"])
    for call in (illegal, "", "6-6", "pass " * 10):
        with pytest.raises(PracticeError) as caught:
            PRACTICE.answer(q["id"], call)
        assert caught.value.field == "call"
    for rules, n, field in (("moon", 0, "rules"), ("standard", -1, "n"), ("house", 10**7, "n")):
        with pytest.raises(PracticeError) as caught:
            PRACTICE.question(rules, n)
        assert caught.value.field == field


def test_the_verdict_counts_the_expected_marks_given_up() -> None:
    item = item_with(lambda i: i["category"] == "clear")
    answer = item["answer"]
    expert = answer["expert"]["call"]
    marks = {row["call"]: row["marks"] for row in answer["calls"]}
    agreed = PRACTICE.answer(item["id"], expert)
    assert agreed["agrees"] and agreed["given_up"] == 0.0
    worst = min((c for c in marks if marks[c] is not None), key=lambda c: marks[c])
    other = PRACTICE.answer(item["id"], worst)
    assert not other["agrees"]
    assert other["given_up"] == pytest.approx(marks[expert] - marks[worst], abs=1e-4)
    assert f"{other['given_up']:.2f}" in other["verdict"]
    assert len(other["deal"]) == 4


TILE = re.compile(r"\b[0-6]-[0-6]\b")


def test_a_question_shows_no_tile_but_the_seat_s_own() -> None:
    for rules in RULE_SETS:
        for n in range(len(RULE_SETS[rules])):
            q = PRACTICE.question(rules, n)
            item = PRACTICE.items[q["id"]]
            own = item["deal"][Setup.from_dict(item).hand().turn].split()
            assert set(TILE.findall(json.dumps(q))) <= set(own)
            assert "answer" not in q and "deal" not in q and "category" not in q


@settings(max_examples=25, deadline=None)
@given(st.integers(0, len(ITEMS) - 1), st.randoms(use_true_random=False))
def test_the_other_seats_tiles_do_not_change_the_question(index: int, rng: random.Random) -> None:
    item = ITEMS[index]
    setup = Setup.from_dict(item)
    seat = setup.hand().turn
    others = [t for s, m in enumerate(setup.deal) if s != seat for t in iter_tiles(m)]
    rng.shuffle(others)
    deal = []
    for s, m in enumerate(setup.deal):
        if s == seat:
            deal.append(m)
        else:
            deal.append(sum(1 << t for t in others[:7]))
            others = others[7:]
    changed = Setup(setup.rules_name, setup.shaker, tuple(deal), setup.calls, setup.score, 1)
    assert question_of(changed.view(), item["id"], 3, item["rules"]) == question_of(
        setup.view(), item["id"], 3, item["rules"]
    )


def test_the_terminal_asks_the_same_questions_with_the_same_numbers() -> None:
    q0 = PRACTICE.question("house", 4)
    q1 = PRACTICE.question("house", 5)
    first = "pass" if "pass" in q0["legal"] else q0["legal"][0]
    second = q1["legal"][-1]
    replies = iter(["not a call", first.upper(), second])
    said: list[str] = []
    asked, agreed, given_up = run("house", 2, 4, lambda _: next(replies), said.append)
    text = "\n".join(said)
    assert asked == 2
    assert "not a legal call here" in text
    one = PRACTICE.answer(q0["id"], first)
    two = PRACTICE.answer(q1["id"], second)
    assert agreed == one["agrees"] + two["agrees"]
    assert given_up == pytest.approx(one["given_up"] + two["given_up"])
    for q, a in ((q0, one), (q1, two)):
        assert q["position"] in text and " ".join(q["hand"]) in text
        assert a["verdict"] in text and a["expert"]["reason"] in text
        for row in a["calls"]:
            assert row["deal"]["words"] in text
            # the call's line: its chance, then its chance if it stands ("-" if none)
            chance, stands = (
                "-" if x is None else f"{round(100 * x)}%"
                for x in (row["chance"], row["if_stands"])
            )
            assert f"\n  {row['call']:<8} {chance:>6} {stands:>6} " in text
        for seat in a["deal"]:
            assert " ".join(seat["tiles"]) in text


def test_the_terminal_stops_at_the_end_of_input() -> None:
    def read(_: str) -> str:
        raise EOFError

    assert run("standard", 3, 0, read, lambda line: None) == (0, 0, 0.0)


def test_texas42_practice_asks_and_sums_up_in_the_terminal() -> None:
    from typer.testing import CliRunner

    from texas42.faces.cli import app

    q = PRACTICE.question("standard", 2)
    call = q["legal"][1]
    result = CliRunner().invoke(
        app, ["practice", "--rules", "standard", "--count", "1", "--seed", "2"], input=call + "\n"
    )
    assert result.exit_code == 0, result.output
    answer = PRACTICE.answer(q["id"], call)
    assert answer["verdict"] in result.output
    assert f"1 question, {int(answer['agrees'])} agreed with the expert" in result.output
    refused = CliRunner().invoke(app, ["practice", "--rules", "moon"])
    assert refused.exit_code != 0
    assert "--rules is standard or house" in refused.output

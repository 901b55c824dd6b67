"""The lessons (issue 17, item 1): each plays through with its intended moves, every word it says
matches what the engine computes now, the point of each lesson comes up on its deal, and bad
input is refused with the field named."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from texas42.core.actions import Bid, Declare, Play
from texas42.core.progress import Phase
from texas42.core.record import check_record
from texas42.core.tiles import COUNT_VALUE, TILE_NAMES, iter_tiles
from texas42.core.words import action_said
from texas42.search.solver import PlayPosition, Solver
from texas42.services.learn import find_lessons
from texas42.services.learn.lessons import (
    Lesson,
    LessonError,
    best_take,
    check,
    contract_values,
    lesson,
    lessons,
    move_notation,
    play_values,
    situation,
)
from webtest import make_client

SOLVER = Solver()
IDS = [x.id for x in lessons()]


def own(found: Lesson, hand: Any, bidders: int) -> int:
    """The learner's side's score for a bidders' total: its points, or minus the tricks the
    Nel-O bidder (the learner) takes."""
    assert hand.high_seat is not None
    if nello(hand):
        return -bidders
    same = hand.layout.side_of[hand.high_seat] == hand.layout.side_of[found.seat]
    return bidders if same else hand.layout.total - bidders


def nello(hand: Any) -> bool:
    return hand.contract is not None and hand.contract.kind == "nello"


def test_the_course_has_its_eleven_lessons_in_order() -> None:
    assert IDS == [
        "01-count",
        "02-follow",
        "03-ends",
        "04-doubles",
        "05-bid",
        "06-pull-trump",
        "07-give-count",
        "08-set",
        "09-nello",
        "10-plunge",
        "11-sevens",
    ]
    for found in lessons():
        check_record(found.record)  # a record in the format, legal under its rules
        assert found.steps and all(found.seats[s] == found.seat for s in found.steps)
        assert set(found.teach) <= set(found.steps)
        assert found.title and found.summary and found.intro


@pytest.mark.parametrize("lesson_id", IDS)
def test_each_lesson_plays_through_and_every_confirmation_is_the_solver_s(lesson_id: str) -> None:
    found = lesson(lesson_id)
    for step in found.steps:
        hand = found.hand_at(step)
        intended = found.actions[step]
        assert hand.is_legal(intended)
        verdict = check(found, step, move_notation(intended))
        assert verdict.right and verdict.legal and verdict.better is None, verdict
        assert verdict.text.startswith("Right: ")
        if isinstance(intended, Play):
            values = play_values(SOLVER, hand)
            mine = {t: own(found, hand, v) for t, v in values.items()}
            assert mine[intended.tile] == max(mine.values())  # the lesson's play is best
            if nello(hand):
                tricks = values[intended.tile]
                assert tricks == 0 and "you take no trick, so your Nel-O is made" in verdict.text
            else:
                assert f"ends the hand with {mine[intended.tile]} point" in verdict.text
                goal = PlayPosition.from_hand(hand).goal
                outcome = "is made" if values[intended.tile] >= goal else "is set"
                assert outcome in verdict.text
            also = [
                TILE_NAMES[t]
                for t, v in mine.items()
                if t != intended.tile and v == max(mine.values())
            ]
            assert ("one of the best" in verdict.text) == bool(also)
        elif isinstance(intended, Declare):
            values = contract_values(SOLVER, hand)
            assert values[str(intended.contract)] == max(values.values())
            assert f"takes {max(values.values())} points" in verdict.text
        else:
            assert isinstance(intended, Bid)
            total, _ = best_take(SOLVER, hand, intended)
            if intended.special:  # a plunge is made only with every trick
                assert total == hand.layout.total
            else:
                assert intended.points == min(total, 41)  # the most it can promise and make
            assert f"takes {total} points" in verdict.text
    end = found.hand_at(len(found.actions))
    assert end.phase == Phase.DONE and found.next_step(found.steps[-1] + 1) is None


@pytest.mark.parametrize("lesson_id", IDS)
def test_every_other_tile_is_stopped_with_the_engine_s_reason_and_the_better_play(
    lesson_id: str,
) -> None:
    found = lesson(lesson_id)
    for step in found.steps:
        hand = found.hand_at(step)
        if hand.phase != Phase.PLAY:
            continue
        intended = found.actions[step]
        assert isinstance(intended, Play)
        best = TILE_NAMES[intended.tile]
        values = play_values(SOLVER, hand)
        for t in iter_tiles(hand.hands[found.seat]):
            if t == intended.tile:
                continue
            verdict = check(found, step, TILE_NAMES[t])
            assert verdict.better == best
            assert found.hand_at(step).hands == hand.hands  # nothing changed
            why = hand.why_illegal(Play(t))
            if why is not None:
                assert not verdict.legal and not verdict.right
                assert verdict.text.startswith(f"Not allowed: {why}.")
                assert verdict.text.endswith(f"Play {best}.")
                continue
            assert verdict.legal
            gap = own(found, hand, values[intended.tile]) - own(found, hand, values[t])
            assert gap >= 0
            assert verdict.right == (gap == 0)  # as good as the lesson's move is right
            if gap == 0:
                assert verdict.text.startswith(f"Right: {TILE_NAMES[t]} is as good as {best}")
                assert verdict.text.endswith(f"the lesson goes on with {best}.")
            elif nello(hand):
                assert f"make you take {gap} trick" in verdict.text
                assert verdict.text.endswith(f"Play {best}.")
            else:
                assert f"{TILE_NAMES[t]} gives up {gap} of them" in verdict.text
                assert (
                    f"{best} keeps {own(found, hand, values[intended.tile])} point" in verdict.text
                )
                assert verdict.text.endswith(f"Play {best}.")


def test_holds_none_is_said_exactly_when_the_hand_has_no_tile_of_the_suit_led() -> None:
    """Every play step of every lesson: "you hold none" only when no tile the learner holds
    follows the led suit, even when every tile held follows it (03-ends, 10-plunge)."""
    followed_by_all = 0
    for found in lessons():
        for step in found.steps:
            hand = found.hand_at(step)
            tables = hand.tables
            if hand.phase != Phase.PLAY or not hand.trick or tables is None or tables.sevens:
                continue
            held = hand.hands[found.seat]
            follows = held & tables.follow[tables.led[hand.trick[0]]]
            said = situation(found, step)
            assert ("you hold none" in said) == (not follows), (found.id, step, said)
            if follows:
                legal = [TILE_NAMES[t] for t in iter_tiles(follows)]
                assert said.endswith(f"you must follow with {' or '.join(legal)}."), said
                followed_by_all += follows == held
    assert followed_by_all  # the case that was said wrong comes up in the course


def test_a_wrong_bid_and_a_wrong_trump_are_stopped_with_the_solver_s_figures() -> None:
    found = lesson("05-bid")
    bid_step, trump_step = sorted(found.teach)
    hand = found.hand_at(bid_step)
    intended = found.actions[bid_step]
    assert isinstance(intended, Bid)
    total, _ = best_take(SOLVER, hand, intended)
    over = check(found, bid_step, str(total + 1))
    assert not over.right and over.better == str(intended.points)
    assert f"{total + 1} would be set" in over.text
    under = check(found, bid_step, "30")
    assert "30 would be made" in under.text and f"Bid {intended.points}." in under.text
    passed = check(found, bid_step, "pass")
    assert "A pass gives up" in passed.text

    hand = found.hand_at(trump_step)
    values = contract_values(SOLVER, hand)
    best = str(found.actions[trump_step].contract)  # type: ignore[attr-defined]
    worst = min(values, key=lambda name: values[name])
    verdict = check(found, trump_step, worst)
    assert not verdict.right and verdict.better == best
    assert f"takes {values[worst]} points" in verdict.text
    assert f"takes {values[best]} points" in verdict.text
    assert "follow-me" in values  # every contract the solver rates is one the learner may name
    for name, total in values.items():
        if name == best:
            continue
        judged = check(found, trump_step, name)
        assert judged.right == (total == values[best]) and judged.better == best
        if judged.right:
            assert judged.text.startswith("Right: ") and f"as good as {name}" not in judged.text
            assert judged.text.endswith(f"the lesson goes on with {best}.")


def test_the_auction_prompts_name_the_legal_calls_and_every_rated_trump_is_offered(
    tmp_path: Path,
) -> None:
    plunge = lesson("10-plunge")
    assert move_notation(plunge.actions[0]) == "plunge"
    assert (
        situation(plunge, 0) == "Your bid: points from 30 to 41, marks (1m or 2m), plunge, or pass."
    )
    found = lesson("05-bid")
    bid_step, trump_step = sorted(found.teach)
    assert (
        situation(found, bid_step) == "Your bid: points from 30 to 41, marks (1m or 2m), or pass."
    )
    values = contract_values(SOLVER, found.hand_at(trump_step))
    said = situation(found, trump_step)
    assert said.startswith("You won the bid: name the contract: ")
    assert all(name in said for name in values)
    with make_client(tmp_path / "t.sqlite") as client:
        body = client.post(
            "/api/learn/check",
            json={
                "lesson": found.id,
                "step": bid_step,
                "move": move_notation(found.actions[bid_step]),
            },
        ).json()
    assert body["turn"]["step"] == trump_step and body["turn"]["situation"] == said
    # the learner's own move is "You ...", in the browser as in the terminal
    assert body["turn"]["frames"][0]["caption"] == action_said("You", found.actions[bid_step])
    assert body["turn"]["choices"] == list(values)  # follow-me too: the solver rates it


def test_a_tie_is_right_and_the_lesson_goes_on_with_its_own_move(tmp_path: Path) -> None:
    """Over HTTP: a tile the solver values as the lesson's is confirmed, and the next frames
    carry the lesson's own move, not the learner's."""
    for found in lessons():
        for step in found.steps:
            hand = found.hand_at(step)
            intended = found.actions[step]
            if hand.phase != Phase.PLAY or nello(hand):
                continue
            assert isinstance(intended, Play)
            values = play_values(SOLVER, hand)
            tied = [
                t for t, v in values.items() if t != intended.tile and v == values[intended.tile]
            ]
            if tied:
                break
        else:
            continue
        break
    else:
        pytest.fail("no lesson has a tie")
    with make_client(tmp_path / "t.sqlite") as client:
        body = client.post(
            "/api/learn/check",
            json={"lesson": found.id, "step": step, "move": TILE_NAMES[tied[0]]},
        ).json()
    best = TILE_NAMES[intended.tile]
    assert body["right"] and body["better"] == best and body["turn"] is not None
    assert body["turn"]["frames"][0]["hands"][found.seat] == [
        TILE_NAMES[t] for t in iter_tiles(hand.hands[found.seat]) if t != intended.tile
    ]


def test_the_point_of_each_lesson_comes_up_where_it_is_taught() -> None:
    def at(lesson_id: str) -> tuple[Lesson, int, Any, int]:
        found = lesson(lesson_id)
        step = max(found.teach)
        move = found.actions[step]
        assert isinstance(move, Play)
        return found, step, found.hand_at(step), move.tile

    found, step, hand, tile = at("01-count")
    values = {t: own(found, hand, v) for t, v in play_values(SOLVER, hand).items()}
    assert COUNT_VALUE[tile] or any(COUNT_VALUE[t] for t in hand.trick)
    assert values[tile] - min(values.values()) >= 10

    found, step, hand, tile = at("02-follow")
    legal = hand.legal_mask() & hand.hands[found.seat]
    assert hand.trick and legal == 1 << tile and hand.hands[found.seat].bit_count() >= 4
    assert situation(found, step).endswith(f"you must follow with {TILE_NAMES[tile]}.")

    found, step, hand, tile = at("03-ends")
    led = TILE_NAMES[hand.trick[0]]
    held = hand.hands[found.seat]
    assert any(led[2] in TILE_NAMES[t] for t in iter_tiles(held & ~hand.legal_mask()))

    found, step, hand, tile = at("04-doubles")
    name = TILE_NAMES[tile]
    assert name[0] == name[2] and hand.tables is not None
    assert not hand.tables.trump_mask >> tile & 1
    after = found.hand_at(step + 1 + (3 - len(hand.trick)))
    assert after.tricks[len(hand.tricks)].winner == found.seat

    found, step, hand, tile = at("06-pull-trump")
    assert hand.tables is not None and hand.tables.trump_mask >> tile & 1 and not hand.trick
    values = {t: own(found, hand, v) for t, v in play_values(SOLVER, hand).items()}
    assert max(v for t, v in values.items() if not hand.tables.trump_mask >> t & 1) < values[tile]

    found, step, hand, tile = at("07-give-count")
    after = found.hand_at(step + 1 + (3 - len(hand.trick)))
    assert after.tricks[len(hand.tricks)].winner == after.layout.partner(found.seat)
    assert COUNT_VALUE[tile] and len(hand.trick) >= 2

    found, step, hand, tile = at("08-set")
    values = play_values(SOLVER, hand)
    goal = PlayPosition.from_hand(hand).goal
    assert values[tile] < goal and any(v >= goal for v in values.values())


def test_the_specials_come_up_under_their_rules() -> None:
    found = lesson("09-nello")
    assert found.record.rules.nello
    step = max(found.teach)
    hand = found.hand_at(step)
    assert hand.contract is not None and hand.contract.kind == "nello"
    values = play_values(SOLVER, hand)
    move = found.actions[step]
    assert isinstance(move, Play)
    assert values[move.tile] == 0 and any(v > 0 for v in values.values())
    assert found.hand_at(len(found.actions)).result.made  # type: ignore[union-attr]

    found = lesson("10-plunge")
    assert found.record.rules.plunge and found.teach.keys() == {0}
    doubles = [
        t
        for t in iter_tiles(found.hand_record.deal[found.seat])
        if TILE_NAMES[t][0] == TILE_NAMES[t][2]
    ]
    assert len(doubles) >= 4
    bid = found.actions[0]
    assert isinstance(bid, Bid) and bid.special == "plunge"
    end = found.hand_at(len(found.actions))
    assert end.declarer == end.layout.partner(found.seat) and end.result.made  # type: ignore[union-attr]

    found = lesson("11-sevens")
    step = max(found.teach)
    hand = found.hand_at(step)
    assert hand.tables is not None and hand.tables.sevens
    held = hand.hands[found.seat]
    assert hand.legal_mask() & held != held
    stopped = next(t for t in iter_tiles(held & ~hand.legal_mask()))
    verdict = check(found, step, TILE_NAMES[stopped])
    pips = int(TILE_NAMES[stopped][0]) + int(TILE_NAMES[stopped][2])
    assert f"{TILE_NAMES[stopped]} has {pips} pips, {abs(7 - pips)} from 7" in verdict.text
    assert situation(found, step).startswith("Sevens: you must play a tile closest to 7 pips")
    assert found.hand_at(len(found.actions)).result.made  # type: ignore[union-attr]


def test_bad_input_is_refused_with_the_field_named() -> None:
    found = lesson("02-follow")
    first = found.steps[0]
    with pytest.raises(LessonError) as missing:
        lesson("99-nothing")
    assert missing.value.field == "lesson" and missing.value.missing
    for junk in ("../etc", "", 7, None):
        with pytest.raises(LessonError):
            lesson(junk)
    not_mine = next(k for k in range(len(found.actions)) if k not in found.steps)
    for step in (not_mine, -1, 10_000, "6", True, None):
        with pytest.raises(LessonError) as bad:
            check(found, step, "6-4")
        assert bad.value.field == "step"
    hand = found.hand_at(first)
    absent = next(t for t in range(28) if not hand.hands[found.seat] >> t & 1)
    for move in (TILE_NAMES[absent], "junk", "", "7-7", "x" * 40, 5, None):
        with pytest.raises(LessonError) as bad:
            check(found, first, move)
        assert bad.value.field == "move", move


def test_the_http_api_serves_the_course_judges_moves_and_refuses_bad_input(
    tmp_path: Path,
) -> None:
    found = lesson("02-follow")
    first = found.steps[0]
    right = move_notation(found.actions[first])
    hand = found.hand_at(first)
    wrong = next(
        TILE_NAMES[t] for t in iter_tiles(hand.hands[found.seat]) if TILE_NAMES[t] != right
    )
    with make_client(tmp_path / "t.sqlite") as client:
        listed = client.get("/api/learn/lessons").json()["lessons"]
        assert [x["id"] for x in listed] == IDS
        assert listed[1]["moves"] == len(found.steps)
        page = client.get(f"/api/learn/lessons/{found.id}").json()
        assert page["seat"] == found.seat and page["steps"] == list(found.steps)
        start = page["turn"]
        assert start["step"] == first and len(start["frames"]) == first + 1
        # nothing past the learner's next move is sent: the frames stop before it
        assert start["frames"][-1]["hands"][found.seat] == [
            TILE_NAMES[t] for t in iter_tiles(hand.hands[found.seat])
        ]
        assert start["situation"] == situation(found, first)
        assert sorted(start["choices"]) == sorted(start["frames"][-1]["hands"][found.seat])

        refused = client.post(
            "/api/learn/check", json={"lesson": found.id, "step": first, "move": wrong}
        )
        assert refused.status_code == 200
        body = refused.json()
        assert not body["right"] and body["turn"] is None and body["better"] == right
        assert body["text"] == check(found, first, wrong).text

        went = client.post(
            "/api/learn/check", json={"lesson": found.id, "step": first, "move": right}
        )
        body = went.json()
        assert body["right"] and body["turn"]["step"] == found.next_step(first + 1)
        assert body["turn"]["frames"][0]["hands"][found.seat] == [
            TILE_NAMES[t] for t in iter_tiles(hand.hands[found.seat]) if TILE_NAMES[t] != right
        ]

        bad = [
            ({"lesson": "99-none", "step": first, "move": right}, 404, "lesson"),
            ({"lesson": found.id, "step": first + 1, "move": right}, 400, "step"),
            (
                {"lesson": found.id, "step": first, "move": "0-0" if "0-0" not in right else "6-6"},
                400,
                "move",
            ),
            ({"lesson": found.id, "step": first, "move": "junk"}, 400, "move"),
            ({"lesson": found.id, "step": "x", "move": right}, 422, "step"),
            ({"lesson": found.id, "step": first}, 422, "move"),
            ({"lesson": found.id, "step": first, "move": right, "extra": 1}, 422, "extra"),
        ]
        for request, status, field in bad:
            answer = client.post("/api/learn/check", json=request)
            assert answer.status_code == status, (request, answer.text)
            assert field in answer.text, (request, answer.text)
        assert client.get("/api/learn/lessons/99-none").status_code == 404
        assert client.get("/api/learn/lessons/..%2F..%2Fetc").status_code == 404
        assert client.get("/learn").status_code == 200
        assert client.get("/learn/lesson/01-count").status_code == 200


def test_a_lesson_goes_on_from_a_step_of_the_learner_s_with_its_own_moves_replayed(
    tmp_path: Path,
) -> None:
    found = lesson("01-count")
    third = found.steps[2]
    hand = found.hand_at(third)
    with make_client(tmp_path / "t.sqlite") as client:
        page = client.get(f"/api/learn/lessons/{found.id}", params={"at": third}).json()
        assert page["steps"] == list(found.steps)
        went = page["turn"]
        assert went["step"] == third and went["situation"] == situation(found, third)
        (frame,) = went["frames"]  # the position reached: nothing past the learner's move
        assert frame["hands"][found.seat] == [
            TILE_NAMES[t] for t in iter_tiles(hand.hands[found.seat])
        ]
        assert len(frame["hand"]["tricks"]) == len(hand.tricks)
        start = client.get(f"/api/learn/lessons/{found.id}").json()
        assert client.get(f"/api/learn/lessons/{found.id}", params={"at": 0}).json() == start
        for bad in (third + 1, 10_000, -1, "x"):
            answer = client.get(f"/api/learn/lessons/{found.id}", params={"at": bad})
            assert answer.status_code in (400, 422) and "at" in answer.text, (bad, answer.text)


def test_the_finder_writes_the_shipped_lesson_again(tmp_path: Path) -> None:
    spec = find_lessons.SPECS[0]
    trial, move = find_lessons.find(spec, SOLVER)
    made = find_lessons.lesson_file(spec, trial, move)
    shipped = lesson(spec.name)
    assert made["hands"][0]["deal"] == shipped.record.to_dict()["hands"][0]["deal"]
    assert made["hands"][0]["play"] == shipped.record.to_dict()["hands"][0]["play"]
    assert made["lesson"]["teach"] == {str(k): v for k, v in shipped.teach.items()}
    assert re.fullmatch(r"\d{2}-[a-z-]+", spec.name)

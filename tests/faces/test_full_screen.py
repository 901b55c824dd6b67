"""The full-screen table (`texas42.faces.terminal.full_screen`) driven by textual's headless pilot: whole hands
played by key presses alone, refusals explained, hints, the last trick, the review, the end of a
game with its record and rematch, bots thinking in worker threads, every table size from two to
seven players (Moon's widow, two-hand's pair of hands), and never a hidden tile on the screen."""

from __future__ import annotations

import asyncio
import io
import json
import random
import re
import sys
import threading
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import RichLog, Static
from typer.testing import CliRunner

from helpers import CLAIM_FAILS, CLAIM_HOLDS, EX14_DEAL
from texas42.core import words
from texas42.core.actions import Action, Bid, Declare, Discard, Pass, Play
from texas42.core.hand import Hand
from texas42.core.layout import layout_of
from texas42.core.progress import Phase
from texas42.core.record import Record, check_record
from texas42.core.rules import Rules
from texas42.core.tiles import HI, LO, parse_hand, tile, tile_name, tiles_of
from texas42.core.view import View
from texas42.core.words import game_over_line, hand_headline, hand_result_lines
from texas42.faces.cli import app as cli_app
from texas42.faces.terminal.full_screen import (
    CallButton,
    GameOverPanel,
    HandPanel,
    HandTile,
    HintButton,
    Panel,
    Seating,
    TableApp,
    call_order,
    felt,
    hand_tiles,
    review_lines,
    run_tui,
)
from texas42.players.review import HandReview, PlayReview, review_hand
from texas42.services.protocol import EngineBot

SIZE = (120, 40)
SEAT = 2
TILE_TEXT = re.compile(r"([0-6]) ?\| ?([0-6])|\b([0-6])-([0-6])\b")
"""A tile as the screen may draw it: ``[6|4]`` on the felt, ``6 | 4`` in the hand, ``6-4`` in
words."""


def make_app(rules: str = "standard", seed: int = 1, seat: int = SEAT, **options: Any) -> TableApp:
    settings: dict[str, Any] = {
        "bots": "medium",
        "bot_delay": 0,
        "hint_samples": 4,
        "review_samples": 4,
        **options,
    }
    return TableApp(Rules.parse(rules), seed, seat, **settings)


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


# -- what the player may see ----------------------------------------------------------------------


def tiles_on_screen(text: str) -> set[int]:
    found = set()
    for match in TILE_TEXT.finditer(text):
        a, b = (int(x) for x in match.groups() if x is not None)
        found.add(tile(max(a, b), min(a, b)))
    return found


def _seen_in(view: View) -> set[int]:
    seen = set(tiles_of(view.dealt | view.widow))
    seen.update(t for _, t in view.trick)
    for trick in view.tricks:
        seen.update(trick.tiles or ())
    return seen


def visible_tiles(app: TableApp) -> set[int]:
    """Every tile the player may see now: the tiles the rules take out of the set, their own
    (both hands at two-hand, and the widow they took), the tiles face up on the table, those of the last finished hand as they saw
    it, and the public draw for the first shake."""
    view = app.player_view()
    seen = set(range(28)) - set(tiles_of(app.layout.tiles))  # out of the set: the rules say so
    for seat in app.mine:
        seen |= _seen_in(app.game.view(seat))
    number = app.last_finished()
    if number is not None:
        finished = app.game.hands[number - app.game.first_hand]
        for seat in app.mine:
            seen |= _seen_in(finished.view(seat))
    if view.hand_number == app.game.first_hand and not view.calls:
        seen.update(t for drawn in app.game.draw_rounds for _, t in drawn)
    return seen


def assert_no_hidden_tiles(app: TableApp) -> str:
    text = app.screen_text()
    hidden = tiles_on_screen(text) - visible_tiles(app)
    assert not hidden, f"hidden tiles on the screen: {[tile_name(t) for t in hidden]}\n{text}"
    return text


async def settle(pilot: Any, app: TableApp) -> None:
    """Wait until nothing moves before the player does, then check the screen for leaks."""
    for _ in range(400):
        await pilot.pause()
        if app.waiting_for_player() or app.game.is_over():
            assert_no_hidden_tiles(app)
            return
    raise AssertionError("the table never came back to the player")


# -- playing by keys ------------------------------------------------------------------------------


async def wait_for_workers(pilot: Any, app: TableApp, group: str) -> None:
    """Wait until the app's ``group`` workers (a hint, a review) have answered, however long the
    machine takes: the test's timeout bounds it, not a guess at the machine's speed."""
    await pilot.pause()
    while app.working(group):
        await pilot.pause(0.02)
    await pilot.pause()


def longest_suit(view: View) -> int:
    tiles = hand_tiles(view)
    counts = [sum(1 for t in tiles if suit in (HI[t], LO[t])) for suit in range(7)]
    return counts.index(max(counts))


async def call_by_keys(pilot: Any, app: TableApp, action: Action) -> None:
    """Walk the bidding box with the arrow keys to ``action`` and press Enter on it."""
    view = app.player_view()
    order = sorted(view.legal, key=call_order)
    await pilot.press(*["right"] * order.index(action))
    assert getattr(app.focused, "call", None) is action
    await pilot.press("enter")


async def play_hand_by_keys(
    pilot: Any,
    app: TableApp,
    bid: Callable[[View], Action | None],
    on_play: Callable[[View], Awaitable[None]] | None = None,
) -> list[str]:
    """Play the player's part of one hand by keys until its summary (or the game over) shows;
    ``bid`` picks a call (None passes with p). Returns the keys pressed."""
    pressed: list[str] = []
    while True:
        await settle(pilot, app)
        if isinstance(app.screen, HandPanel):
            return pressed
        view = app.player_view()
        before = app.game.hand.action_count
        if view.phase == Phase.AUCTION:
            action = bid(view)
            if action is None:
                await pilot.press("p")
                pressed.append("p")
            else:
                await call_by_keys(pilot, app, action)
                pressed.append(f"bid {action.notation}")
        elif view.phase == Phase.DECLARE:
            suit = longest_suit(view)
            await pilot.press(str(suit))
            pressed.append(f"declare {suit}")
        elif view.phase == Phase.DISCARD:
            tiles = hand_tiles(view)
            index = next(i for i, t in enumerate(tiles) if Discard(t) in view.legal)
            await pilot.press(str(index + 1))
            pressed.append(f"discard {tile_name(tiles[index])}")
        else:
            if on_play is not None:
                await on_play(view)
            tiles = hand_tiles(view)
            index = next(i for i, t in enumerate(tiles) if Play(t) in view.legal)
            await pilot.press(str(index + 1))
            pressed.append(f"play {tile_name(tiles[index])}")
        assert app.game.hand.action_count > before or app.game.hand_number > view.hand_number


def _has_called(view: View) -> bool:
    seats = view.layout.seats
    return any((view.first_bidder + i) % seats == view.seat for i in range(len(view.calls)))


def lowest_bid_once(view: View) -> Action | None:
    """Bid the lowest legal points on the player's first call, then pass."""
    bids = [a for a in view.legal if isinstance(a, Bid) and not a.marks and not a.special]
    return bids[0] if bids and not _has_called(view) else None


def never_bid(view: View) -> Action | None:
    return None if Pass() in view.legal else view.legal[0]


# -- the tests ------------------------------------------------------------------------------------


def test_a_whole_hand_by_keys_scores_and_reviews() -> None:
    """Bid with the arrows and Enter, name trump with a digit, play with 1-7; a tile that may
    not be played is refused with the reason and changes nothing; the score pad then shows the
    hand, and r reviews the player's plays as `review_hand` does."""

    async def test() -> None:
        app = make_app(seed=5)
        refused: list[str] = []

        async def try_an_illegal_tile(view: View) -> None:
            tiles = hand_tiles(view)
            wrong = [i for i, t in enumerate(tiles) if Play(t) not in view.legal]
            if refused or not wrong:
                return
            count = app.game.hand.action_count
            await pilot.press(str(wrong[0] + 1))
            message = str(app.query_one("#message").render())
            refused.append(message)
            assert message.startswith(f"{tile_name(tiles[wrong[0]])} is not allowed: you must")
            assert app.game.hand.action_count == count
            assert app.player_view() == view

        async with app.run_test(size=SIZE) as pilot:
            keys = await play_hand_by_keys(pilot, app, lowest_bid_once, try_an_illegal_tile)
            assert keys[0].startswith("bid ") and any(k.startswith("declare") for k in keys)
            assert sum(k.startswith("play") for k in keys) >= 4
            assert refused, "no tile was ever refused in this hand"
            hand = app.game.hands[0]
            result = hand.result
            assert result is not None and app.game.hand_number == 2
            assert app.game.score == result.score != (0, 0)
            text = assert_no_hidden_tiles(app)
            team = "North-South" if result.score[0] else "East-West"
            assert f"Scored: {team} +1 mark" in text
            assert f"You bid {result.bid} · {result.contract}" in text
            view, _ = app.finished_view(1)
            sides = app.seating.side_names()
            assert hand_headline(view, result, sides) in text
            for line in hand_result_lines(view, result, sides):
                assert line in text

            await pilot.press("r")
            review = app.screen.query_one(".review")
            await wait_for_workers(pilot, app, "review")
            reviewed = review_hand(hand, 1, bid_samples=4, rng=random.Random(1))
            expected = review_in_words(reviewed, view, SEAT)
            assert str(review.render()) == "\n".join(["Review (double dummy)", *expected])
            assert_no_hidden_tiles(app)

            await pilot.press("escape")
            await settle(pilot, app)
            assert len(app.screen_stack) == 1
            pad = app.screen_text()
            assert "hand 1" in pad and "+1 = 1" in pad
            assert app.player_view().hand_number == 2

    run(test)


def test_hint_and_last_trick_keys() -> None:
    """h ranks every legal play in a panel of hints; l shows the last trick as the view has it
    and l closes it again."""

    async def test() -> None:
        app = make_app(seed=7)
        checked: list[bool] = []

        async def look(view: View) -> None:
            if checked or not view.tricks:
                return
            await pilot.press("h")
            await wait_for_workers(pilot, app, "hint")
            text = assert_no_hidden_tiles(app)
            assert "Hints (best first)" in text
            for action in view.legal:
                assert f"play {action.notation}" in text
            found = app._hints
            assert found is not None
            rows = [row.query_one(Static).render() for row in app.query(".hint-row")]
            assert [str(row) for row in rows] == [
                words.hint_facts(view, h.chance, h.points, h.marks) for h in found.hints
            ]
            why = app.query_one(".hint-why", Static).render()
            assert str(why) == f"Why: {found.reason.text}"
            await pilot.press("l")
            assert isinstance(app.screen, Panel)
            text = assert_no_hidden_tiles(app)
            last = view.tricks[-1]
            assert last.tiles is not None
            for t in last.tiles:
                assert f"[{HI[t]}|{LO[t]}]" in text
            taken = words.trick_taken(app.seating.who(last.winner), len(view.tricks), last.points)
            assert f"{taken}." in " ".join(text.split())
            await pilot.press("l")
            assert len(app.screen_stack) == 1
            await pilot.press("escape")
            assert not app.query_one("#hints").display
            checked.append(True)

        async with app.run_test(size=SIZE) as pilot:
            await play_hand_by_keys(pilot, app, never_bid, look)
            assert checked

    run(test)


def test_face_down_piles_never_show_other_tiles() -> None:
    """After a mark bid (piles face down for every mark bid here), the piles show the player's
    own tiles only, and no screen of the hand shows a tile the view hides."""

    async def test() -> None:
        app = make_app("standard,hide_tricks=mark-bids", seed=2)

        def one_mark(view: View) -> Action | None:
            return Bid("1m") if Bid("1m") in view.legal and not _has_called(view) else None

        async with app.run_test(size=SIZE) as pilot:
            await play_hand_by_keys(pilot, app, one_mark)
            hand = app.game.hands[0]
            assert hand.tricks_hidden and hand.high_seat == SEAT
            view, _ = app.finished_view(1)
            assert all(trick.tiles is None for trick in view.tricks)
            text = assert_no_hidden_tiles(app)
            assert "Points:" not in text
            others = {
                t for trick in hand.tricks for s, t in zip(trick.seats, trick.tiles) if s != SEAT
            }
            assert not tiles_on_screen(text) & others
            assert "[░|░]" in text
            await pilot.press("escape")
            await settle(pilot, app)
            await pilot.press("l")
            text = assert_no_hidden_tiles(app)
            assert "From hand 1:" in text and "(face down)." in text

    run(test)


def test_not_your_turn_and_a_thinking_bot_keep_the_screen_live() -> None:
    """While a bot thinks in its worker thread the keys still work: ? opens the keys panel and
    a tile key says whose turn it is; a bot that fails hands its seat to the rules bot."""

    async def test() -> None:
        app = make_app(seed=1)
        release = threading.Event()
        first = app.game.seat_to_act()
        assert first == 3
        slow = app.bots[first]

        class SlowBot:
            name = "slow"

            def choose(self, view: View) -> Action:
                release.wait(10)
                return slow.choose(view)

        class BrokenBot:
            name = "broken"

            def choose(self, view: View) -> Action:
                raise RuntimeError("out of coffee")

        app.bots[first] = SlowBot()
        app.bots[0] = BrokenBot()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert app.working("bot") and app.game.hand.action_count == 0
            await pilot.press("?")
            assert isinstance(app.screen, Panel)
            assert "name that suit as trump" in app.screen_text()
            await pilot.press("escape")
            await pilot.press("1")
            tile = tile_name(hand_tiles(app.player_view())[0])
            assert str(app.query_one("#message").render()) == (
                f"{tile}: It is not your turn: Ann is to bid."
            )
            await pilot.press("h")
            assert str(app.query_one("#message").render()) == "A hint is for your turn."
            release.set()
            await settle(pilot, app)
            assert app.game.hand.action_count == 3 and app.my_turn()
            assert type(app.bots[0]).__name__ == "RulesBot"
            log = " ".join(line.text.strip() for line in app.query_one(RichLog).lines)
            assert "Bob's bot failed (it raised RuntimeError); the rules bot takes the seat." in log
            assert "coffee" not in log  # an error's own words may carry the bot's tiles

    run(test)


def test_the_mouse_makes_calls_and_plays_tiles() -> None:
    """A click on a bidding-box button calls, a click on a hint takes it, and a click on a
    tile plays it, as the keys do."""

    async def test() -> None:
        app = make_app(seed=6)
        clicked: list[str] = []
        async with app.run_test(size=SIZE) as pilot:
            while len(clicked) < 4:
                await settle(pilot, app)
                view = app.player_view()
                count = app.game.hand.action_count
                if view.phase == Phase.AUCTION:
                    call = next(b for b in app.query(CallButton) if b.call is Pass())
                    assert await pilot.click(call)
                    clicked.append("pass")
                elif view.phase == Phase.PLAY and "hint" not in clicked:
                    await pilot.press("h")
                    await wait_for_workers(pilot, app, "hint")
                    hint = app.query(HintButton).first()
                    assert hint.call in view.legal
                    assert await pilot.click(hint)
                    clicked.append("hint")
                elif view.phase == Phase.PLAY:
                    tiles = hand_tiles(view)
                    index = next(i for i, t in enumerate(tiles) if Play(t) in view.legal)
                    assert await pilot.click(app.query(HandTile)[index])
                    clicked.append(f"play {tile_name(tiles[index])}")
                    played = app.game.hand.plays
                    assert tiles[index] in played
                else:
                    await pilot.press(str(longest_suit(view)))
                    continue
                assert app.game.hand.action_count > count or app.game.hand_number > view.hand_number
        assert clicked[0] == "pass" and "hint" in clicked and clicked[-1].startswith("play")

    run(test)


def test_game_over_saves_offers_a_rematch_and_quits(tmp_path: Path) -> None:
    """In a game to one mark the first hand ends it: the record is saved, n starts a rematch
    whose record goes beside the first, and q twice leaves, saving it."""

    async def test() -> None:
        path = tmp_path / "game.json"
        app = make_app("standard,target=1", seed=4, save=str(path))
        async with app.run_test(size=SIZE) as pilot:
            await play_hand_by_keys(pilot, app, never_bid)
            assert app.game.is_over() and isinstance(app.screen, GameOverPanel)
            outcome = app.game.outcome()
            assert outcome is not None
            shown = game_over_line(app.rules, outcome, app.seating.side_names())
            assert shown.startswith("Game over after 1 hand: ")
            assert shown in assert_no_hidden_tiles(app)
            assert str(app.screen.query_one(".saved").render()) == f"Game saved to {path}."
            report = check_record(Record.from_json(path.read_text()))
            assert report.winner == app.game.outcome().winner  # type: ignore[union-attr]
            await pilot.press("n")
            await settle(pilot, app)
            assert not app.game.is_over() and app.game.score == (0, 0)
            assert len(app.screen_stack) == 1 and app.games == 2
            await pilot.press("q")
            assert app.is_running
            assert "Press q again" in str(app.query_one("#message").render())
            await pilot.press("q")
        assert app.return_code == 0
        second = tmp_path / "game-2.json"
        assert json.loads(second.read_text())["hands"]
        assert app.farewell == [f"Game saved to {second}."]

    run(test)


def test_run_tui_refuses_a_save_path_it_cannot_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = run_tui(Rules(), 1, SEAT, "medium", "You", str(tmp_path / "no" / "such" / "g.json"))
    assert code == 2
    assert "--save: cannot save to" in capsys.readouterr().out


def test_the_hand_is_numbered_highest_first_and_trumps_first_once_named() -> None:
    deal = tuple(
        parse_hand(text)
        for text in (
            "6-6 6-5 6-4 6-3 6-2 6-1 6-0",
            "4-3 4-2 4-1 4-0 3-3 3-2 3-1",
            "5-5 5-4 5-3 5-2 5-1 5-0 2-2",
            "4-4 3-0 2-1 2-0 1-1 1-0 0-0",
        )
    )
    hand = Hand(Rules(), 0, deal)
    for call in ("30", "pass", "pass", "pass"):
        hand.apply(hand.parse_action(call))
    assert [tile_name(t) for t in hand_tiles(hand.view(1))] == [
        "4-3",
        "4-2",
        "4-1",
        "4-0",
        "3-3",
        "3-2",
        "3-1",
    ]
    hand.apply(Declare("ones"))
    assert [tile_name(t) for t in hand_tiles(hand.view(1))] == [
        "4-1",
        "3-1",
        "4-3",
        "4-2",
        "4-0",
        "3-3",
        "3-2",
    ]


def review_in_words(review: HandReview, view: View, seat: int) -> list[str]:
    """What the review panel must say of ``seat``'s plays and bids, made with
    `texas42.core.words` alone."""
    unit = "trick" if review.unit == "tricks" else "point"
    plays = [p for p in review.plays if p.seat == seat]
    costly = [
        words.play_review_line(
            "You",
            words.trick_of_play(view, p.index),
            tile_name(p.tile),
            [tile_name(t) for t in p.best],
            p.cost,
            unit,
        )
        for p in plays
        if p.cost
    ]
    bids = [
        words.bid_review_line("You", b.bid, b.contract, b.make_share)
        for b in review.bids
        if b.seat == seat
    ]
    return (costly or [words.no_costly_plays(len(plays), "You")]) + bids


def test_the_review_numbers_tricks_and_keeps_to_the_players_own_plays() -> None:
    """Plays 4 to 6 of Ex 14: the 4th closes trick 1, the 5th and 6th are in trick 2."""
    hand = Hand(Rules(), 3, EX14_DEAL)
    for call in ("34", "pass", "pass", "pass", "sixes", "6-6", "6-3", "6-1", "6-0", "6-5", "0-0"):
        hand.apply(hand.parse_action(call))
    view = hand.view(1)
    review = HandReview(
        1,
        1,
        "30",
        "ones",
        "points",
        (
            PlayReview(4, 1, tile(5, 5), 30, 20, (tile(6, 6),), 10),
            PlayReview(5, 1, tile(4, 1), 20, 19, (tile(2, 1), tile(1, 0)), 1),
            PlayReview(6, 2, tile(3, 0), 19, 30, (tile(3, 0),), 0),
        ),
    )
    assert review_lines(review, view, (1,)) == [
        "Trick 1: best play here was 6-6; your 5-5 cost 10 points.",
        "Trick 2: best play here was 2-1 or 1-0; your 4-1 cost 1 point.",
    ]
    assert review_lines(review, view, (2,)) == [
        "No costly plays: every play of yours was as good as the best."
    ]
    assert review_lines(review, view, (0,)) == ["You had no plays to review."]
    assert review_lines(review, view, (1, 3)) == review_lines(review, view, (1,))
    for seat in range(4):
        assert review_lines(review, view, (seat,)) == review_in_words(review, view, seat)


# -- every table size -----------------------------------------------------------------------------

SEAT_BLOCK = re.compile(
    r"\b(You|Ann|Bob|Cat|Dan|Eve|Fay) · "
    r"(North|Northeast|East|Southeast|South|Southwest|West|Northwest)\b"
)
"""A seat's name on the felt: who sits there and the seat's name."""
FACE = re.compile(r"\[([0-6])\|([0-6])\]")


def shoot_once(view: View) -> Action | None:
    """Shoot the moon on the player's first call, then pass."""
    return Bid("moon") if Bid("moon") in view.legal and not _has_called(view) else None


def check_the_felt(app: TableApp, seen: dict[str, int]) -> Callable[[View], Awaitable[None]]:
    """Before each play: one seat on the felt per seat at the table, each under its name, and
    the trick's tiles in their seats' places (a slot per seat that has played; the last trick
    whole, a tile a seat, before the next lead)."""

    async def check(view: View) -> None:
        layout = app.layout
        text = assert_no_hidden_tiles(app)
        lines = text.splitlines()
        top = next(n for n, line in enumerate(lines) if line.lstrip().startswith("╭"))
        bottom = next(n for n, line in enumerate(lines) if line.lstrip().startswith("╰"))
        felt = "\n".join(line.split("│")[1] for line in lines[top + 1 : bottom])
        blocks = SEAT_BLOCK.findall(felt)
        assert sorted(name for _, name in blocks) == sorted(layout.seat_names)
        for who, name in blocks:
            seat = layout.seat_names.index(name)
            assert who == ("You" if seat in app.mine else app.seating.names[seat])
        faces = [tile(int(a), int(b)) for a, b in FACE.findall(felt)]
        if view.trick:
            assert sorted(faces) == sorted(t for _, t in view.trick)
        elif view.tricks:
            assert sorted(faces) == sorted(view.tricks[-1].tiles or ())
            assert len(faces) == layout.seats
        seen["tricks"] += bool(view.trick or view.tricks)

    return check


@pytest.mark.parametrize(
    ("rules", "seed", "bid", "sides"),
    [
        ("three-hand", 3, lowest_bid_once, ("You", "Ann", "Bob")),
        ("six-hand", 2, lowest_bid_once, ("Us", "Ann+Dan", "Bob+Eve")),
        ("six-hand,teams=threes", 2, lowest_bid_once, ("Us", "Them")),
        ("five-hand", 4, lowest_bid_once, ("You", "Ann", "Bob", "Cat", "Dan")),
        ("seven-hand", 5, lowest_bid_once, ("You", "Ann", "Bob", "Cat", "Dan", "Eve", "Fay")),
    ],
)
def test_a_whole_hand_at_every_table_size(
    rules: str, seed: int, bid: Callable[[View], Action | None], sides: tuple[str, ...]
) -> None:
    """At three, five, six and seven seats a seeded hand played by keys completes: the felt
    seats every player round the trick, the bidding box offers the calls the hand allows
    (three-hand up to 43), the score pad has a column a side, and no screen shows a hidden
    tile."""

    async def test() -> None:
        app = make_app(rules, seed=seed, seat=0, bots="rules")
        layout = app.layout
        seen = {"tricks": 0}
        boxes: list[list[Action]] = []

        def bid_and_look(view: View) -> Action | None:
            box = [button.call for button in app.query(CallButton)]
            assert set(box) == set(view.legal)
            boxes.append(box)
            return bid(view)

        async with app.run_test(size=SIZE) as pilot:
            await play_hand_by_keys(pilot, app, bid_and_look, check_the_felt(app, seen))
            hand = app.game.hands[0]
            assert hand.result is not None and hand.tricks
            assert all(len(trick.tiles) == layout.seats for trick in hand.tricks)
            assert seen["tricks"] > 0
            assert boxes and all(box == sorted(box, key=call_order) for box in boxes)
            for box in boxes:
                points = [a.points for a in box if isinstance(a, Bid) and not a.marks]
                assert points == sorted(points)
                if points and points[0] == layout_of(Rules.parse(rules)).total * 30 // 42:
                    assert points[-1] == layout.total - 1  # three-hand: 43
            text = assert_no_hidden_tiles(app)
            lines = text.splitlines()
            header = next(n for n, line in enumerate(lines) if "Score · game to 7 marks" in line)
            assert lines[header + 1].split("│")[-1].split() == list(sides)
            result = hand.result
            assert result.bidder is not None
            bidders = layout.side_seats(layout.side_of[result.bidder])
            name = (
                app.seating.who(bidders[0])
                if len(bidders) == 1
                else (layout.side_names[layout.side_of[result.bidder]])
            )
            assert f"{name} {'made it' if result.made else 'went set'}" in text

    run(test)


def test_moon_the_widow_is_taken_and_a_tile_laid_down_by_keys() -> None:
    """At Moon the player shoots the moon, sees the widow in hand (marked) and lays a tile down
    with its number key before naming trump; the score pad shows the 21 won or lost."""

    async def test() -> None:
        app = make_app("moon", seed=1, seat=0, bots="rules")
        async with app.run_test(size=SIZE) as pilot:
            while app.player_view().phase == Phase.AUCTION:
                await settle(pilot, app)
                view = app.player_view()
                if view.phase == Phase.AUCTION:
                    action = shoot_once(view) or Pass()
                    await call_by_keys(pilot, app, action)
            await settle(pilot, app)
            view = app.player_view()
            assert view.phase == Phase.DISCARD and view.seat == 0 and view.widow
            text = assert_no_hidden_tiles(app)
            assert "Your turn to lay a tile down  (keys 1 to 8)" in text
            (widow,) = tiles_of(view.widow)
            assert f"{words.widow_taken('You', view.widow)}. Choose a tile to lay down." in text
            marked = [w for w in app.query(HandTile) if w.has_class("widow")]
            assert [hand_tiles(view)[w.index] for w in marked] == [widow]
            contracts: list[str] = []

            async def contract(view: View) -> None:
                contracts.append(str(app.query_one("#contract").render()))

            keys = await play_hand_by_keys(pilot, app, shoot_once, contract)
            laid = tile(*map(int, keys[0].split()[1].split("-")))
            assert contracts and all(f"you laid down {tile_name(laid)}" in c for c in contracts)
            hand = app.game.hands[0]
            assert keys[0].startswith("discard") and hand.discards == [laid]
            assert keys[1].startswith("declare") and hand.declarer == 0
            result = hand.result
            assert result is not None and result.score[0] == (21 if result.made else -21)
            await pilot.press("escape")
            await settle(pilot, app)
            text = app.screen_text()
            total = next(line for line in text.splitlines() if "│ total" in line)
            assert total.split("│")[-1].split() == ["total", *map(str, result.score)]

    run(test)


def test_two_hand_plays_both_seats_of_the_partnership() -> None:
    """At two-hand the player holds North and South: both hands are shown (South's above), the
    keys play whichever of the two is to act, bots hold East and West only, and no other tile
    ever shows."""

    async def test() -> None:
        app = make_app("two-hand", seed=3, seat=0, bots="rules")
        assert app.mine == (0, 2) and set(app.bots) == {1, 3}
        seen = {"tricks": 0}
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            text = app.screen_text()
            assert text.index("Your South hand") < text.index("Your North hand")
            await play_hand_by_keys(pilot, app, lowest_bid_once, check_the_felt(app, seen))
            hand = app.game.hands[0]
            assert hand.result is not None and seen["tricks"] > 0
            played = {seat for trick in hand.tricks for seat in trick.seats}
            assert {0, 2} <= played
            log = " ".join(line.text.strip() for line in app.query_one(RichLog).lines)
            assert "You (North)" in log and "You (South)" in log

    run(test)


def test_texas42_tui_seats_every_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """``texas42 tui --players N`` (and ``--rules moon``) open the table of that size, the
    person North at every size but four, where they sit South."""
    calls: list[tuple[Any, ...]] = []

    def fake_tui(*args: Any) -> int:
        calls.append(args)
        return 0

    monkeypatch.setattr("texas42.faces.terminal.full_screen.run_tui", fake_tui)
    for args, rules, seat in (
        (["--players", "2"], "two-hand", 0),
        (["--players", "3"], "three-hand", 0),
        (["--rules", "moon"], "moon", 0),
        (["--players", "4"], "standard", 2),
        (["--players", "6", "--rules", "six-hand,teams=threes"], "six-hand,teams=threes", 0),
        (["--players", "7", "--seat", "3"], "seven-hand", 3),
    ):
        result = CliRunner().invoke(cli_app, ["tui", *args])
        assert result.exit_code == 0, result.output
        assert calls[-1] == (Rules.parse(rules), None, seat, "medium", "You", None)
    assert CliRunner().invoke(cli_app, ["tui", "--players", "8"]).exit_code == 2
    assert len(calls) == 6


def test_outside_engines_take_the_bots_seats() -> None:
    """``bots="engine:CMD"`` seats an outside engine (our random bot over the engine protocol)
    at every bot seat; they call until the player's turn, and quit when the table closes."""
    engine = f"engine:{sys.executable} -m texas42.services.protocol.engine --bot random"

    async def test() -> None:
        app = make_app(seed=4, bots=engine)
        async with app.run_test(size=SIZE) as pilot:
            while not app.waiting_for_player():
                await pilot.pause(0.02)
            assert all(isinstance(bot, EngineBot) for bot in app.bots.values())
            view = app.player_view()
            assert view.calls, "the seed has the bots call first"
            log = " ".join(line.text.strip() for line in app.query_one(RichLog).lines)
            for i, call in enumerate(view.calls):
                seat = (view.first_bidder + i) % app.layout.seats
                assert words.action_said(app.seating.who(seat), call) in log
        app.close_bots()
        assert not any(bot.engine.running for bot in app.bots.values())  # type: ignore[attr-defined]

    run(test)


def test_the_felt_tells_who_took_the_last_trick_as_core_words_does() -> None:
    """Between tricks the felt shows the last one and who took it, in `words.trick_taken`'s
    sentence, face-up points or face down."""
    for calls, worth in ((["30", "pass", "pass", "pass"], 1), (["2m", "pass", "pass", "pass"], 0)):
        hand = Hand(Rules(), 3, list(EX14_DEAL))
        for call in [*calls, "sixes", "6-6", "6-3", "6-1", "6-0"]:
            hand.apply(hand.parse_action(call))
        view = hand.view(SEAT)
        seating = Seating(SEAT, ("Bob", "Cat", "You", "Ann"), view.layout, (SEAT,))
        console = Console(width=100, record=True, file=io.StringIO())
        console.print(felt(view, seating))
        points = hand.tricks[0].points if worth else None
        assert words.trick_taken("Bob", 1, points) in console.export_text()


# -- laying down ----------------------------------------------------------------------------------


def claim_app(monkeypatch: pytest.MonkeyPatch, deal: tuple[str, ...]) -> TableApp:
    """The player at North, who bids first on ``deal`` (West shakes), rules bots elsewhere."""
    from texas42.core.game import Game
    from texas42.faces.terminal import full_screen

    def dealt(rules: Rules, seed: int | None = None) -> Game:
        return Game(rules, seed, first_shaker=3, deals=[[parse_hand(h) for h in deal]])

    monkeypatch.setattr(full_screen, "Game", dealt)
    return make_app(seat=0, bots="rules")


async def lead_in_sixes(pilot: Any, app: TableApp) -> None:
    await settle(pilot, app)
    await call_by_keys(pilot, app, Bid("2m"))
    await settle(pilot, app)
    await pilot.press("6")
    await settle(pilot, app)
    assert app.game.hand.phase == Phase.PLAY and app.game.seat_to_act() == 0


def log_text(app: TableApp) -> str:
    return " ".join(line.text.strip() for line in app.query_one(RichLog).lines)


def test_c_twice_lays_the_hand_down_and_a_claim_that_holds_ends_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def test() -> None:
        app = claim_app(monkeypatch, CLAIM_HOLDS)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("c")  # in the auction: refused with the reason
            message = str(app.query_one("#message", Static).render())
            assert "You may not lay down now: a hand is laid down during the play" in message
            await lead_in_sixes(pilot, app)
            await pilot.press("c")
            assert "Press c again" in str(app.query_one("#message", Static).render())
            assert not app.game.hand.claims
            await pilot.press("c")
            await settle(pilot, app)
            assert isinstance(app.screen, HandPanel)
            log = log_text(app)
            assert "You laid the hand down and claimed the rest: 6-6 6-5 6-4 6-3 6-2 6-1 6-0" in log
            assert "Your claim held: North-South took the last 7 tricks" in log
            assert app.game.results[0].claimant == 0 and app.game.score == (2, 0)

    run(test)


def test_a_failed_claim_at_the_full_screen_table_plays_on(monkeypatch: pytest.MonkeyPatch) -> None:
    async def test() -> None:
        app = claim_app(monkeypatch, CLAIM_FAILS)
        async with app.run_test(size=SIZE) as pilot:
            await lead_in_sixes(pilot, app)
            await pilot.press("c", "c")
            await settle(pilot, app)
            assert "Your claim failed: play goes on with that hand face up" in log_text(app)
            hand = app.game.hand
            assert hand.claims and not hand.is_over and app.game.seat_to_act() == 0
            assert app.player_view().face_up[0] == hand.hands[0]
            await pilot.press("?")
            assert "lay your hand down and claim the rest" in app.screen_text()

    run(test)

"""The bots' reasons at the terminal tables and in ``replay`` (issue 19, item 5): during a hand
only what every seat saw, once it is over the whole words; saved and replayed records keep
them."""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from pathlib import Path

from test_full_screen import SIZE, make_app, never_bid, play_hand_by_keys, settle
from test_line_game import run
from typer.testing import CliRunner

from texas42 import Game, Rules
from texas42.core import words
from texas42.core.reasons import Reason, reads_whole, reason_words
from texas42.core.record import Record, action_seats, check_record, record_from_game
from texas42.faces.cli import app as cli_app
from texas42.faces.terminal.full_screen import Panel
from texas42.players import RulesBot
from texas42.services.arena.match import MatchSpec, run_match

TILE = re.compile(r"\b[0-6]-[0-6]\b")


def _why_at_each_prompt(game: Game, seat: int) -> list[str]:
    return ["why\n"]


def test_the_line_table_shows_public_reasons_then_the_whole_ones(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    status, out, _ = run(seed=4, save=str(save), extras=_why_at_each_prompt)
    assert status == 0
    first_hand = out.split(words.WHY_HINT, 1)[0]
    # during the hand: each bot action's public reason, under the action
    publics = re.findall(r"\n    why: (.*)\n", first_hand)
    assert publics
    for said in publics:
        assert "rule of thumb" not in said and "worth" not in said
        assert len(TILE.findall(said)) <= 1  # at most the tile just played
    assert words.NO_REASONS_YET in first_hand  # why before any hand is over
    # after it: the whole reasons of the hand just finished
    later = out.split(words.WHY_HINT, 1)[1]
    assert words.why_heading(1) in later
    after = later.split(words.why_heading(1), 1)[1].split("\n")[1:]
    whole = "\n" + "\n".join(itertools.takewhile(lambda line: line.startswith("  "), after))
    assert re.search(r"\n  (Ann|Bob|Cat) \(bot\): (bids|passes|names|pulls|leads)", whole)
    # the whole words of each bot whose tiles were all shown, else the public ones
    record = Record.from_json(save.read_text())
    first = record.hands[0]
    played = check_record(record).hands[0]
    for seat, reason in zip(action_seats(record.rules, first), first.reasons, strict=True):
        if reason is None:
            continue
        shown = reason_words(reason, played, seat, (2,))  # the person sits South
        assert shown in whole
        if shown != reason.text:
            assert reason.text not in whole
    # the saved record keeps them: None for the person's actions, a reason for each bot's
    record = Record.from_json(save.read_text())
    check_record(record)
    hand = record.hands[0]
    assert len(hand.reasons) == hand.action_count
    assert None in hand.reasons
    assert any(r is not None and "rule of thumb" in r.text for r in hand.reasons)


def test_the_full_screen_why_key_shows_public_words_then_whole_ones() -> None:
    async def test() -> None:
        app = make_app(seed=3)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            acted = app._reasons.said(0)
            await pilot.press("w")
            assert isinstance(app.screen, Panel)
            text = app.screen_text()
            if acted:
                assert words.why_heading(1, finished=False) in text
                assert "rule of thumb" not in text
                for _, reason in acted:
                    assert reason.public.split(" (")[0] in " ".join(text.split())
            else:
                assert words.NO_BOT_REASONS in " ".join(text.split())
            await pilot.press("w")
            assert len(app.screen_stack) == 1
            await play_hand_by_keys(pilot, app, never_bid)
            await pilot.press("enter")  # close the hand's panel
            await settle(pilot, app)
            await pilot.press("w")
            text = " ".join(app.screen_text().split())
            assert words.why_heading(1) in text
            # the whole words of each bot whose tiles were all shown, else the public ones
            hand = app.game.hands[0]
            said = app._reasons.said(0)
            assert said
            for seat, reason in said:
                shown = reason_words(reason, hand, seat, app.mine)
                assert " ".join(shown.split())[:60] in text
                if not reads_whole(hand, seat, app.mine):
                    assert " ".join(reason.text.split())[:60] not in text
            await pilot.press("escape")

    asyncio.run(test())


def test_replay_shows_the_reasons_of_an_arena_record(tmp_path: Path) -> None:
    spec = MatchSpec("rules", "easy", Rules(), seed=1, hands=True, records=True)
    result = run_match(spec)
    text = next(game.record for game in result.games if game.record is not None)
    path = tmp_path / "game.json"
    path.write_text(text)
    hand = json.loads(text)["hands"][0]
    assert len(hand["reasons"]) == len(hand["auction"]) + 1 + len(hand["play"])
    shown = CliRunner().invoke(cli_app, ["replay", str(path)])
    assert shown.exit_code == 0, shown.output
    assert "  Why:\n" in shown.output
    assert re.search(
        r"\n    (North|East|South|West) \((Rules|Easy)\): (bids|passes) ", shown.output
    )
    hidden = CliRunner().invoke(cli_app, ["replay", str(path), "--no-reasons"])
    assert hidden.exit_code == 0
    assert "Why:" not in hidden.output


def test_replay_shows_a_records_reasons_printable(tmp_path: Path) -> None:
    game = Game(Rules(), 2)
    bot = RulesBot()
    reasons: list[Reason | None] = []
    while not game.results:
        seat = game.seat_to_act()
        assert seat is not None
        action = bot.choose(game.view(seat))
        reasons.append(Reason("sneaky \x1b[2J words", "public") if not reasons else None)
        game.apply(action)
    record = record_from_game(game, None, [reasons])
    path = tmp_path / "game.json"
    path.write_text(record.to_json())
    shown = CliRunner().invoke(cli_app, ["replay", str(path)])
    assert shown.exit_code == 0, shown.output
    assert "\x1b" not in shown.output
    assert "sneaky \\x1b[2J words" in shown.output

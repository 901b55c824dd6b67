"""The terminal game driven through its input stream: whole games to the end, every kind of bad
input refused with a reason, end of input, the saved record, and no hidden tile ever shown."""

from __future__ import annotations

import io
import json
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

from helpers import CLAIM_FAILS, CLAIM_HOLDS
from texas42 import Game, Rules
from texas42.core import words
from texas42.core.actions import Action, Bid
from texas42.core.progress import Phase
from texas42.core.record import Record, check_record
from texas42.core.tiles import TILE_NAMES, hand_name, iter_tiles, tiles_of
from texas42.faces.terminal import line_game as tui
from texas42.faces.terminal.line_game import run_play
from texas42.players import RulesBot

STANDARD = Rules.preset("standard")
HOUSE = Rules.preset("house")
TILE = re.compile(r"(?<![\d-])[0-6]-[0-6](?![\d-])")

Extras = Callable[[Game, int], list[str]]


class Human(io.TextIOBase):
    """The input of a game: it follows the same game in parallel (same rules, seed and bots, so
    the same shakes and bot plays) and answers each prompt with ``choose`` (RulesBot's choice by
    default), after the ``extras`` lines for that position; after ``stop_after`` answers it
    reports the end of input. ``check`` sees the game and the ``output`` so far at each prompt.
    """

    def __init__(
        self,
        rules: Rules,
        seed: int,
        seat: int,
        output: io.StringIO,
        *,
        extras: Extras | None = None,
        choose: Callable[[Game, int], Action] | None = None,
        stop_after: int | None = None,
        check: Callable[[Game, str], None] | None = None,
    ) -> None:
        self.game = Game(rules, seed)
        self.seat = seat
        self.mine = (seat, self.game.layout.partner(seat)) if rules.see_partner else (seat,)
        self.output = output
        self.bot = RulesBot()
        self.extras = extras
        self.choose = choose or (lambda game, seat: self.bot.choose(game.view(seat)))
        self.stop_after = stop_after
        self.check = check
        self.pending: list[str] = []
        self.answers = 0

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        if self.pending:
            return self.pending.pop(0)
        self.catch_up()
        assert not self.game.is_over(), "the game asked for input after it ended"
        if self.stop_after is not None and self.answers >= self.stop_after:
            return ""
        if self.check is not None:
            self.check(self.game, self.output.getvalue())
        lines = self.extras(self.game, self.seat) if self.extras else []
        to_act = self.game.seat_to_act()
        assert to_act in self.mine
        action = self.choose(self.game, to_act)
        self.game.apply(action)
        self.answers += 1
        self.pending = [*lines, action.notation + "\n"]
        return self.pending.pop(0)

    def isatty(self) -> bool:
        return False

    def catch_up(self) -> None:
        """Play the bots' moves up to the human's turn or the end, as the game under test does."""
        game = self.game
        while not game.is_over() and game.seat_to_act() not in self.mine:
            seat = game.seat_to_act()
            assert seat is not None
            game.apply(self.bot.choose(game.view(seat)))


def run(
    rules: Rules = STANDARD,
    seed: int = 1,
    seat: int = 2,
    save: str | None = None,
    **human_options: object,
) -> tuple[int, str, Human]:
    output = io.StringIO()
    human = Human(rules, seed, seat, output, **human_options)  # type: ignore[arg-type]
    console = Console(file=output, width=100, highlight=False, color_system=None)
    status = run_play(rules, seed, seat, save, "Dana", input_stream=human, console=console)
    human.catch_up()
    return status, output.getvalue(), human


def test_whole_game_reaches_the_end() -> None:
    status, out, human = run(seed=4)
    outcome = human.game.outcome()
    assert status == 0 and outcome is not None
    winners = ("North-South", "East-West")[outcome.winner]
    high, low = outcome.score[outcome.winner], outcome.score[1 - outcome.winner]
    assert f"Game over after {outcome.hands} hands: {winners} win, {high} to {low}." in out
    assert ("You win!" if outcome.winner == 0 else "You lose.") in out
    assert out.count("Your hand: ") == human.answers
    seats = "North: Bob (bot), East: Cat (bot), South: you, West: Ann (bot)"
    assert f"Seats, clockwise: {seats}." in out
    assert "Traceback" not in out
    # what the bots did, each hand's result and the score with its tally
    assert re.search(r"\n  (Ann|Bob|Cat) \(bot\) (bid \d\d|passed|played [0-6]-[0-6])\n", out)
    assert re.search(r"\n  (Ann|Bob|Cat) \(bot\) took trick 1 \(\d+ points?\)\n", out)
    assert re.search(r"\n(North-South|East-West)( \(your team\))? (made it|went set)\n", out)
    assert re.search(r"\nContract: .* bid (3\d|4[01]|\dm) · ", out)
    assert re.search(r"\nScored: (North-South|East-West) \+\d marks?\n", out)
    assert re.search(r"Score: North-South \d \[[/\\ALL|]+\]", out)


def test_seed_repeats_the_whole_game() -> None:
    assert run(HOUSE, seed=11)[1] == run(HOUSE, seed=11)[1]
    assert run(HOUSE, seed=11)[1] != run(HOUSE, seed=12)[1]


def bad_lines(game: Game, seat: int) -> list[str]:
    """Malformed and illegal lines for the position, each of which must be refused."""
    hand = game.hand
    lines = [
        "",
        "   ",
        "garbage",
        "x" * 5000,
        "６-４",
        "²",
        "🂡 ♠",
        "\x1b[31m6-4",
        "[bold]30[/]",
        "6—4",
        "pass pass",
        "-1",
    ]
    if hand.phase == Phase.AUCTION:
        lines += ["29", "43", "9m", "6-4", "sixes", "plunge"]
        if Bid("30") not in hand.legal_actions():
            lines.append("30")
    elif hand.phase == Phase.DECLARE:
        lines += ["hearts", "7", "nello:sideways", "pass", "31", "6-6"]
    else:
        lines += ["7-7", "pass", "sixes"]
        mine = hand.hands[seat]
        lines.append(TILE_NAMES[next(iter_tiles(~mine & ((1 << 28) - 1)))])
        wrong = mine & ~sum(1 << a.id for a in hand.legal_actions())
        if wrong:
            lines.append(TILE_NAMES[next(iter_tiles(wrong))])
    return [line + "\n" for line in lines]


def test_bad_input_is_refused_with_the_reason_and_the_game_goes_on() -> None:
    status, out, human = run(HOUSE, seed=5, extras=bad_lines)
    assert status == 0 and human.game.is_over()
    assert "Game over after" in out and "Traceback" not in out
    for reason in (
        "Type your call, or help.",
        "Type your play, or help.",
        "not a bid: 'garbage'",
        "not a tile: 'garbage'",
        "That is too long to be a play",
        "not a bid: '6-4'",
        "bids start at 30",
        "not a tile: '7-7'",
        "does not hold",
        "must follow",
    ):
        assert reason in out, reason
    assert "x" * 100 not in out


def test_every_prompt_kind_refuses_bad_input() -> None:
    # Make the human win the first auction, so that it names the contract as well.
    def bid_first(game: Game, seat: int) -> Action:
        view = game.view(seat)
        if view.phase == Phase.AUCTION and Bid("2m") in view.legal:
            return Bid("2m")
        return RulesBot().choose(view)

    status, out, _human = run(
        STANDARD, seed=2, seat=0, extras=bad_lines, choose=bid_first, stop_after=12
    )
    assert status == 0
    assert "Type your contract, or help." in out
    assert "not a contract: 'hearts'" in out
    assert "nello doubles may be high, low, own, own-inverted, not 'sideways'" in out
    assert "(end of input)" in out and "You leave the game." in out


def test_help_lists_the_legal_actions() -> None:
    def with_help(game: Game, seat: int) -> list[str]:
        return ["help\n", "show\n"]

    status, out, _ = run(STANDARD, seed=3, extras=with_help, stop_after=6)
    assert status == 0
    assert "You may: pass, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 1m, 2m" in out
    assert "You may play: " in out
    assert (
        "Commands: help; show (the table again); why (the bots' reasons); quit (leave the game)."
        in out
    )


def test_end_of_input_at_once_ends_cleanly() -> None:
    status, out, human = run(stop_after=0)
    assert status == 0 and human.answers == 0
    assert out.rstrip().endswith("You leave the game.")


def test_quit_saves_the_game_so_far(tmp_path: Path) -> None:
    path = tmp_path / "game.json"

    def quit_later(game: Game, seat: int) -> list[str]:
        return ["quit\n"] if len(game.hands) > 1 else []

    status, out, _human = run(save=str(path), extras=quit_later)
    assert status == 0 and f"Game saved to {path}." in out
    record = Record.from_json(path.read_text())
    assert record.players == ("Bob (bot)", "Cat (bot)", "Dana", "Ann (bot)")
    report = check_record(record)
    assert len(report.hands) == 2 and report.results[-1].made is None
    assert report.winner is None


def test_saved_game_checks_clean(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    status, _out, human = run(HOUSE, seed=8, save=str(path))
    assert status == 0
    report = check_record(Record.from_json(path.read_text()))
    outcome = human.game.outcome()
    assert outcome is not None
    assert report.winner == outcome.winner and report.score == outcome.score
    assert json.loads(path.read_text())["players"][2] == "Dana"


def test_unwritable_save_path_is_refused_before_play(tmp_path: Path) -> None:
    for path, reason in (
        (tmp_path / "missing" / "game.json", "there is no folder"),
        (tmp_path, "is a folder, not a file"),
    ):
        status, out, human = run(save=str(path))
        assert status == tui.BAD_SAVE_PATH and human.answers == 0
        assert reason in out and "Hand 1" not in out


def test_failed_save_prints_the_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full_disk(path: str, text: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tui, "write_record", full_disk)
    status, out, _ = run(save=str(tmp_path / "game.json"), stop_after=3)
    assert status == tui.SAVE_FAILED
    words = " ".join(out.split())
    assert f"Could not save the game to {tmp_path / 'game.json'}: No space left on device." in words
    printed = out[out.index("Here is the record, so that nothing is lost:") :].split("\n", 1)[1]
    assert check_record(Record.from_json(printed)).hands


def no_hidden_tiles(game: Game, out: str) -> None:
    """Since the current hand began, the output names no tile another seat still holds."""
    start = out.rindex(f"Hand {game.hand_number}: ")
    shown = set(TILE.findall(out[start:]))
    for seat in (0, 1, 3):
        hidden = set(hand_name(game.hand.hands[seat]).split())
        assert not shown & hidden, f"seat {seat}'s {shown & hidden} shown"
    assert f"Your hand: {hand_name(game.hand.hands[2])}" in out[start:]


@pytest.mark.parametrize("rules", [STANDARD, HOUSE])
def test_nothing_shown_names_a_tile_another_seat_holds(rules: Rules) -> None:
    status, out, human = run(rules, seed=6, check=no_hidden_tiles)
    assert status == 0 and human.answers > 20
    final = human.game.hand
    last = out[out.rindex(f"Hand {human.game.hand_number}: ") :]
    for seat in (0, 1, 3):
        assert not set(TILE.findall(last)) & set(hand_name(final.hands[seat]).split())


def test_face_down_piles_show_only_who_won() -> None:
    def two_marks(game: Game, seat: int) -> Action:
        view = game.view(seat)
        if view.phase == Phase.AUCTION and Bid("2m") in view.legal:
            return Bid("2m")
        return RulesBot().choose(view)

    _status, out, _human = run(STANDARD, seed=2, seat=0, choose=two_marks, stop_after=8)
    first_hand = out[: out.index("Hand 2: ")] if "Hand 2: " in out else out
    assert "Contract: you bid 2m · " in first_hand
    assert f"{words.trick_taken('You', 1, None)}; you played " in first_hand
    assert "point" not in first_hand[first_hand.index("Contract:") :]


class Interrupted(io.TextIOBase):
    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        raise KeyboardInterrupt


def test_ctrl_c_leaves_the_game_and_saves_it(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    output = io.StringIO()
    console = Console(file=output, width=100, highlight=False, color_system=None)
    status = run_play(
        STANDARD, 9, 1, str(path), "Dana", input_stream=Interrupted(), console=console
    )
    assert status == 0 and "You leave the game." in output.getvalue()
    assert check_record(Record.from_json(path.read_text())).results[0].made is None


TABLES = [
    "two-hand",
    "three-hand",
    "moon",
    "five-hand",
    "six-hand",
    "six-hand,teams=threes",
    "seven-hand",
]


def nothing_hidden_shown(game: Game, out: str) -> None:
    """Since the hand began, no tile another seat holds (bots' hands, with a widow a bot took),
    laid face down or set aside is named; at two-hand both the human's hands are shown."""
    hand = game.hand
    mine = (0, 2) if game.rules.see_partner else (0,)
    start = out.rindex(f"Hand {game.hand_number}: ")
    shown = set(TILE.findall(out[start:]))
    hidden = 0
    for seat in range(game.layout.seats):
        if seat not in mine:
            hidden |= hand.hands[seat]
    if hand.declarer not in mine:
        hidden |= sum(1 << t for t in hand.discards)  # a widow tile still held is in hands
    hidden |= hand.set_aside
    assert not shown & set(hand_name(hidden).split()), shown & set(hand_name(hidden).split())
    if len(mine) == 2:
        for seat in mine:
            assert hand_name(hand.hands[seat]) in out[start:]
    else:
        assert f"Your hand: {hand_name(hand.hands[0])}" in out[start:]


@pytest.mark.parametrize("preset", TABLES)
def test_whole_game_at_every_table_size(preset: str, tmp_path: Path) -> None:
    rules = Rules.parse(preset)
    path = tmp_path / "game.json"
    status, out, human = run(rules, seed=7, seat=0, save=str(path), check=nothing_hidden_shown)
    outcome = human.game.outcome()
    assert status == 0 and outcome is not None and "Traceback" not in out
    layout = human.game.layout
    names = layout.seat_names
    listed = " ".join(out[out.index("Seats, clockwise: ") :].split(".\n")[0].split())
    for s in range(layout.seats):
        who = "you" if s in human.mine else "(bot)"
        assert who in listed.split(f" {names[s]}: ")[1].split(",")[0]
    winner = layout.side_names[outcome.winner]
    said = " ".join(out.split())
    assert f"Game over after {outcome.hands} hands: {winner} win" in said
    assert ("You win!" if outcome.winner == layout.side_of[0] else "You lose.") in said
    report = check_record(Record.from_json(path.read_text()))
    assert (report.winner, report.score) == (outcome.winner, outcome.score)
    assert json.loads(path.read_text()).get("seats", 4) == layout.seats


def test_moon_asks_the_bidder_to_lay_a_tile_down() -> None:
    def shoot(game: Game, seat: int) -> Action:
        view = game.view(seat)
        if view.phase == Phase.AUCTION:
            return Bid("moon")
        return RulesBot().choose(view)

    status, out, human = run(Rules.parse("moon"), seed=4, seat=0, choose=shoot, stop_after=3)
    said = " ".join(out.split())
    assert status == 0
    hand = human.game.hands[0]
    assert hand.declarer == 0 and len(hand.discards) == 1
    assert words.widow_taken("You", hand.widow) == f"You took the widow: {hand_name(hand.widow)}"
    assert words.widow_taken("You", hand.widow) in said
    assert "Lay a tile face down (" in said
    assert f"you laid down {TILE_NAMES[hand.discards[0]]}" in said
    assert "bid 4 to 7" not in said


def test_two_hand_plays_both_seats_of_the_partnership() -> None:
    status, out, _human = run(Rules.parse("two-hand"), seed=5, seat=0, stop_after=10)
    assert status == 0
    assert (
        "Seats, clockwise: North: you (North), East: Ann (bot), South: you (South), West: "
        "Cat (bot)." in " ".join(out.split())
    )
    assert "You play both North-South hands and see both" in out
    assert re.search(r"Your (North|South) hand \(to act\): ", out)
    assert len(re.findall(r"Your (North|South) hand", out)) == 2 * out.count("(to act)")
    asked = re.findall(r"Your (call|play|contract) for (North|South)", out)
    assert asked and all(seat in ("North", "South") for _, seat in asked)


def test_each_hand_ends_with_the_sentences_of_core_words() -> None:
    """The end of every hand is `words.hand_headline` and `words.hand_result_lines` of the
    human's view of it, line for line."""
    _status, out, human = run(seed=4)
    game = human.game
    assert game.results
    for hand, result in zip(game.hands, game.results):
        view = hand.view(2)
        sides = ("North-South (your team)", "East-West")
        lines = [words.hand_headline(view, result, sides)]
        if not result.reshaken:
            names = [*(f"{n} (bot)" for n in ("Bob", "Cat")), "you", "Ann (bot)"]
            lines.append(f"Contract: {words.contract_line(view, names)}")
        lines += words.hand_result_lines(view, result, sides)
        assert "\n" + "\n".join(lines) + "\nScore: " in out


TILE_WORD = re.compile(r"(?<![\w-])([0-6]-[0-6])(?![\w-])")


class _Typist(io.StringIO):
    """Input for the line game: tile names, calls and contracts at random, then end of input."""

    WORDS = (
        *TILE_NAMES,
        "pass",
        "pass",
        *map(str, range(4, 45)),
        "moon",
        "1m",
        "sixes",
        "fives",
        "blanks",
        "follow-me",
        "doubles",
    )

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.rng = random.Random(seed)
        self.lines = 0

    def readline(self, size: int | None = -1) -> str:
        self.lines += 1
        return "" if self.lines > 3000 else self.rng.choice(self.WORDS) + "\n"


@pytest.mark.parametrize("preset, seat", [("moon", 1), ("five-hand", 3), ("three-hand", 0)])
def test_the_line_game_prints_no_tile_the_human_could_not_see(
    preset: str, seat: int, tmp_path: Path
) -> None:
    rules = Rules.parse(preset)
    out = io.StringIO()
    saved = tmp_path / "game.json"
    run_play(
        rules,
        7,
        seat,
        str(saved),
        "You",
        bots="rules",
        input_stream=_Typist(7),
        console=Console(file=out, width=300),
    )
    report = check_record(Record.from_json(saved.read_text()))
    sections = re.split(r"^─+ Hand (\d+): .*$", out.getvalue(), flags=re.M)
    checked = widows_taken_by_bots = 0
    for i in range(1, len(sections), 2):
        k = int(sections[i]) - 1
        hands = report.hands[k : k + 2]  # a section may run into the next hand's first prompt
        allowed: set[str] = set()
        for hand in hands:
            allowed |= {TILE_NAMES[t] for t in tiles_of(hand.deal[seat])}
            allowed |= {TILE_NAMES[t] for t in hand.plays}
            if hand.declarer == seat:
                allowed |= {TILE_NAMES[t] for t in tiles_of(hand.widow)}
        widows_taken_by_bots += report.hands[k].declarer not in (seat, None) and bool(
            report.hands[k].widow
        )
        for line in sections[i + 1].splitlines():
            if "is not allowed" in line or "not a " in line:
                continue  # the human's own typing echoed back
            assert set(TILE_WORD.findall(line)) <= allowed, (k + 1, line)
            checked += 1
    assert checked > 100 and len(report.hands) >= 3
    if preset == "moon":
        assert widows_taken_by_bots, "a bot should take the widow in this game"


class FromThePrompt(io.TextIOBase):
    """Input that answers each prompt from the choices it prints (pass, else the first tile),
    for games whose bots this test cannot follow in parallel; ends after ``answers`` lines."""

    def __init__(self, output: io.StringIO, answers: int) -> None:
        self.output = output
        self.left = answers

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        if not self.left:
            return ""
        self.left -= 1
        prompt = self.output.getvalue().rsplit("\n", 1)[-1]
        choices = prompt[prompt.index("(") + 1 : prompt.rindex(")")]
        if prompt.startswith("Your call"):
            return "pass\n" if "pass" in choices.split(", ") else choices.split()[0] + "\n"
        if prompt.startswith("Name the contract"):
            return "sixes\n"
        return choices.split()[0] + "\n"

    def isatty(self) -> bool:
        return False


def test_outside_engines_play_the_bots_seats(tmp_path: Path) -> None:
    """``--bots engine:CMD`` seats an outside engine (here our own random bot served over the
    engine protocol) at every bot seat, and the game it plays checks clean."""
    engine = f"engine:{sys.executable} -m texas42.services.protocol.engine --bot random"
    path = tmp_path / "game.json"
    output = io.StringIO()
    console = Console(file=output, width=100, highlight=False, color_system=None)
    stream = FromThePrompt(output, answers=12)
    status = run_play(
        STANDARD, 3, 2, str(path), "Dana", bots=engine, input_stream=stream, console=console
    )
    out = output.getvalue()
    assert status == 0 and "Traceback" not in out and not stream.left
    assert re.search(r"\n  (Ann|Bob|Cat) \(bot\) played [0-6]-[0-6]\n", out)
    report = check_record(Record.from_json(path.read_text()))
    assert report.record.players[0] == "Bob (bot)" and len(report.hands[0].plays) > 12


QUITTER = r"""
import sys

goes = 0
legal = []
for line in sys.stdin:
    command, _, rest = line.strip().partition(" ")
    if command == "texas42":
        print("id name Quitter", "protocolversion 1", "texas42ok", sep="\n", flush=True)
    elif command == "isready":
        print("readyok", flush=True)
    elif command == "legal":
        legal = rest.split(";")
    elif command == "go":
        goes += 1
        if goes > 2:
            sys.exit(3)
        print("bestaction " + legal[0], flush=True)
    elif command == "quit":
        break
"""


def test_an_engine_that_dies_mid_game_hands_its_seat_to_the_rules_bot(tmp_path: Path) -> None:
    """An outside engine that exits after two moves is replaced by the rules bot, as at the
    full-screen table: the game goes on, and the record asked for is saved and checks clean."""
    script = tmp_path / "quitter.py"
    script.write_text(QUITTER)
    path = tmp_path / "game.json"
    output = io.StringIO()
    console = Console(file=output, width=200, highlight=False, color_system=None)
    stream = FromThePrompt(output, answers=12)
    status = run_play(
        STANDARD,
        3,
        2,
        str(path),
        "Dana",
        bots=f"engine:{sys.executable} {script}",
        input_stream=stream,
        console=console,
    )
    out = output.getvalue()
    assert status == 0 and "Traceback" not in out and not stream.left
    assert out.count("'s bot failed (it stopped); the rules bot takes the seat.") == 3
    assert "exited with code" not in out  # an engine's own message may carry its tiles
    assert "Game saved to" in out
    report = check_record(Record.from_json(path.read_text()))
    assert len(report.hands[0].plays) > 12


# -- laying down ----------------------------------------------------------------------------


def claim_game(
    monkeypatch: pytest.MonkeyPatch, deal: tuple[str, ...], lines: list[str]
) -> tuple[str, list[Game]]:
    """The human at North, who bids first on ``deal`` (West shakes), typing ``lines``."""
    from texas42.core.tiles import parse_hand

    games: list[Game] = []

    def dealt(rules: Rules, seed: int | None = None) -> Game:
        games.append(Game(rules, seed, first_shaker=3, deals=[[parse_hand(h) for h in deal]]))
        return games[-1]

    monkeypatch.setattr(tui, "Game", dealt)
    output = io.StringIO()
    console = Console(file=output, width=100, highlight=False, color_system=None)
    stream = io.StringIO("".join(line + "\n" for line in lines))
    assert run_play(STANDARD, 1, 0, None, "Dana", input_stream=stream, console=console) == 0
    return output.getvalue(), games


def test_the_human_on_lead_lays_down_and_the_claim_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    out, games = claim_game(monkeypatch, CLAIM_HOLDS, ["claim", "2m", "sixes", "help", "lay down"])
    assert (
        "You may not lay down now: a hand is laid down during the play, by the seat to lead" in out
    )
    assert "When you lead a trick: claim (or lay down) shows your hand" in out
    assert "You laid the hand down and claimed the rest: 6-6 6-5 6-4 6-3 6-2 6-1 6-0." in out
    assert "Your claim held: North-South took the last 7 tricks." in out
    assert "North-South (your team) made it" in out
    game = games[0]
    assert game.results[0].claimant == 0 and game.score == (2, 0) and game.hand_number == 2


def test_a_failed_claim_plays_on_with_the_hand_face_up(monkeypatch: pytest.MonkeyPatch) -> None:
    out, games = claim_game(monkeypatch, CLAIM_FAILS, ["2m", "sixes", "claim", "6-6"])
    assert "You laid the hand down and claimed the rest: 6-6 6-5 6-4 6-3 6-2 6-1 1-0." in out
    assert "Your claim failed: play goes on with that hand face up." in out
    assert "Your hand lies face up: every seat sees it." in out
    hand = games[0].hand
    assert hand.claims and TILE_NAMES[hand.plays[0]] == "6-6"
    assert "(end of input)" in out and "Traceback" not in out

"""The terminal game: a human at one seat and a bot (`RulesBot` unless asked) at each other.

Any table from 2 to 7 players: at two-hand the human holds both seats of a partnership and sees
both hands. Everything shown comes from the human's `View` (both seats' views at two-hand) and
from public events (the calls, the contract, tiles as they are played, who took each trick),
never from a bot's hand, the widow another seat took or a tile laid face down. Input is read a
line at a time and anything that is not a legal action is refused with the reason, so no input,
end of input included, ends the game in a traceback.
"""

from __future__ import annotations

import io
import os
import sys
import tempfile
from pathlib import Path
from typing import TextIO

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from texas42.core.actions import Action, Bid, Declare, Play
from texas42.core.errors import Texas42Error
from texas42.core.game import Game
from texas42.core.hand import Hand, HandResult
from texas42.core.layout import layout_of
from texas42.core.progress import Phase
from texas42.core.reason_log import ReasonLog
from texas42.core.reasons import Reason, reason_words
from texas42.core.record import record_from_game
from texas42.core.rules import Rules, seats_held
from texas42.core.tiles import hand_name, tile_name
from texas42.core.view import View
from texas42.core.words import (
    NO_REASONS_YET,
    WHY_HINT,
    action_said,
    auction_line,
    bot_replaced,
    claim_line,
    claim_outcome,
    contract_line,
    game_over_line,
    hand_heading,
    hand_headline,
    hand_result_lines,
    rules_text,
    score_line,
    trick_taken,
    why_heading,
    why_line,
    widow_taken,
)
from texas42.players import Bot
from texas42.players.reasons import decide
from texas42.services.protocol import EngineError, close_bot, make_bot

BOT_NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")
"""The bots, clockwise from the human's left: at four seats Bob is the partner."""

LONGEST_INPUT = 40
"""Longer lines are refused without being echoed back."""

QUIT_WORDS = ("quit", "exit", "q")
HELP_WORDS = ("help", "?")
SHOW_WORDS = ("show", "table")
WHY_WORDS = ("why",)
CLAIM_WORDS = ("claim", "lay down", "laydown")
"""Lay the hand down and claim the rest (`Game.claim`), when the human leads a trick."""
CLAIMED = "claimed"
"""What `_Session.ask` answers once the human's claim is made: the game has moved on."""

BAD_SAVE_PATH = 2
"""Exit status when ``--save`` names a file that cannot be written, found before play starts."""
SAVE_FAILED = 1
"""Exit status when the record could not be written at the end (it is printed instead)."""


def run_play(
    rules: Rules,
    seed: int | None,
    seat: int,
    save: str | None,
    name: str,
    *,
    bots: str = "rules",
    input_stream: TextIO | None = None,
    console: Console | None = None,
) -> int:
    """Play one game at ``seat`` (and its partner's seat too when the rules let one person see
    both: two-hand) against bots (``bots``: a level or bot spec for
    `texas42.services.protocol.make_bot`, so ``engine:CMD`` too) in the other seats; the exit
    status is returned.

    ``seed`` makes the shakes (and so the bots' play) repeat; ``save`` names the file the game
    record is written to when the game ends or the player quits.
    """
    console = console if console is not None else Console(highlight=False)
    if input_stream is None:
        input_stream = sys.stdin
        if isinstance(input_stream, io.TextIOWrapper):
            input_stream.reconfigure(errors="replace")
    if save is not None:
        problem = save_problem(save)
        if problem is not None:
            console.print(f"--save: {problem}", markup=False, highlight=False)
            return BAD_SAVE_PATH
    session = _Session(rules, seed, seat, save, name, input_stream, console, bots)
    try:
        return session.run()
    except KeyboardInterrupt:
        session.say("Interrupted.")
        return session.finish()
    finally:
        session.close_bots()


def save_problem(path: str) -> str | None:
    """Why a record could not be written to ``path``, checked before a game is played for it."""
    target = Path(path)
    folder = target.parent
    if "\x00" in path:
        return f"cannot save to {path!r}: a file name has no NUL character"
    try:  # a name the system refuses (one too long) fails the look itself
        if target.is_dir():
            return f"{path} is a folder, not a file"
        if not folder.is_dir():
            return f"cannot save to {path}: there is no folder {folder}"
        if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
            return f"cannot save to {path}: permission denied"
    except OSError as exc:
        return f"cannot save to {path}: {exc.strerror or exc}"
    return None


def write_record(path: str, text: str) -> None:
    """Write the whole record or nothing: a half-written file never replaces a good one."""
    target = Path(path)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text + "\n")
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


_ENGINE_FAILURES = {
    "start": "it could not be started",
    "handshake": "it did not answer the greeting",
    "timeout": "it took too long",
    "illegal": "it chose an action that is not legal",
    "unreadable": "it said something that is not the protocol",
    "flood": "it said too much",
    "crashed": "it stopped",
    "closed": "it had already failed",
}


def bot_failure(error: BaseException | None) -> str:
    """Why a bot broke down (``None``: it chose an illegal action), in words the table may read.
    An error's own message can carry the bot's tiles (the legal actions an engine was offered,
    the line it sent), so only the kind of failure is said.

    >>> bot_failure(None), bot_failure(RuntimeError("holds 6-6"))
    ('it chose an action that is not legal', 'it raised RuntimeError')
    """
    if error is None:
        return _ENGINE_FAILURES["illegal"]
    if isinstance(error, EngineError) and error.kind in _ENGINE_FAILURES:
        return _ENGINE_FAILURES[error.kind]
    return f"it raised {type(error).__name__}"


def _range(numbers: list[int]) -> str:
    """``31 to 41``; written with "to" so that no range reads as a tile."""
    if len(numbers) == 1:
        return str(numbers[0])
    return f"{numbers[0]} to {numbers[-1]}"


def choices(view: View) -> str:
    """The legal actions in a few words, for the prompt."""
    legal = view.legal
    if view.phase in (Phase.PLAY, Phase.DISCARD):
        return " ".join(a.notation for a in sorted(legal, key=lambda a: -a.id))
    if view.phase == Phase.AUCTION:
        words = [a.notation for a in legal if not isinstance(a, Bid)]
        bids = [a for a in legal if isinstance(a, Bid)]
        points = [b.points for b in bids if b.special is None and not b.marks]
        if points:
            words.append(_range(points))
        words.extend(b.notation for b in bids if b.marks or b.special)
        return ", ".join(words)
    words = []
    kinds_seen: set[str] = set()
    for action in legal:
        assert isinstance(action, Declare)
        kind = action.contract.kind
        if kind == "suit":
            if "suit" not in kinds_seen:
                words.append("a suit: blanks, ones, ... sixes (or 0 to 6)")
        elif kind in kinds_seen:
            words[-1] += f", {action.notation}"
        else:
            words.append(action.notation)
        kinds_seen.add(kind)
    return "; ".join(words)


class _Session:
    """One game in progress at the terminal."""

    def __init__(
        self,
        rules: Rules,
        seed: int | None,
        seat: int,
        save: str | None,
        name: str,
        stream: TextIO,
        console: Console,
        bots: str,
    ) -> None:
        self.game = Game(rules, seed)
        self.rules = rules
        self.layout = layout = layout_of(rules)
        self.seat = seat
        self.mine = seats_held(rules, seat)
        """The seats the human plays: at two-hand both seats of a partnership."""
        self.save = save
        self.stream = stream
        self.console = console
        n = layout.seats
        self.players = [
            name if s in self.mine else f"{BOT_NAMES[(s - seat) % n - 1]} (bot)" for s in range(n)
        ]
        self.bots: dict[int, Bot] = {
            s: make_bot(bots, (seed or 0) * n + s, self.players[s])
            for s in range(n)
            if s not in self.mine
        }
        self.news: list[str] = []
        """What happened since the human last acted, as it would be seen at the table."""
        self.reasons = ReasonLog()
        """Why each action was taken: the bots' reasons, None for the human's."""
        self.shown_hand = 0

    # -- words -----------------------------------------------------------------------------

    def who(self, seat: int) -> str:
        if seat not in self.mine:
            return self.players[seat]
        return "you" if len(self.mine) == 1 else f"you ({self.layout.seat_names[seat]})"

    def names(self) -> list[str]:
        """Every seat as `who` says it, for the sentences of `texas42.core.words`."""
        return [self.who(seat) for seat in range(self.layout.seats)]

    def subject(self, seat: int) -> str:
        """``You`` or the bot's name, to start a sentence."""
        word = self.who(seat)
        return word[:1].upper() + word[1:]

    def say(self, text: str | Text | Rule = "", style: str | None = None) -> None:
        self.console.print(text, style=style, markup=False, highlight=False)

    def side_of_you(self, side: int) -> str:
        if side != self.layout.side_of[self.seat]:
            return ""
        return " (you)" if self.layout.alone else " (your team)"

    # -- the game loop -------------------------------------------------------------------

    def run(self) -> int:
        self.intro()
        game = self.game
        while not game.is_over():
            seat = game.seat_to_act()
            assert seat is not None
            if seat in self.mine:
                asked = self.ask(seat)
                if asked is None:
                    self.say("You leave the game.")
                    return self.finish()
                if not isinstance(asked, Action):  # CLAIMED: the claim moved the game on
                    continue
                action, reason = asked, None
            else:
                action, reason = self.bot_action(seat)
            self.reasons.add(game, seat, reason)
            self.apply(seat, action, reason)
        outcome = game.outcome()
        assert outcome is not None
        result = "You win!" if outcome.winner == self.layout.side_of[self.seat] else "You lose."
        self.say(Rule(style="bold"))
        self.say(f"{game_over_line(self.rules, outcome)}. {result}", style="bold")
        return self.finish()

    def intro(self) -> None:
        self.say("Texas 42", style="bold")
        for line in rules_text(self.rules):
            self.say(f"  {line}")
        layout = self.layout
        names = layout.seat_names
        seats = ", ".join(f"{names[s]}: {self.who(s)}" for s in range(layout.seats))
        self.say(f"Seats, clockwise: {seats}.")
        side = layout.side_of[self.seat]
        others = [self.players[s] for s in layout.side_seats(side) if s not in self.mine]
        if len(self.mine) > 1:
            team = f"You play both {layout.side_names[side]} hands and see both"
        elif others:
            team = f"You and {' and '.join(others)} are {layout.side_names[side]}"
        elif layout.teams == "solo":
            team = "Everyone scores their own tricks"
        else:
            team = "The bid winner plays alone against the rest"
        self.say(f"{team}; type help at any prompt.")
        for number, drawn in enumerate(self.game.draw_rounds, 1):
            again = " again" if number > 1 else ""
            tiles = ", ".join(f"{self.who(s)} {tile_name(t)}" for s, t in drawn)
            self.say(f"Drawing{again} for the first shake (highest pips shakes): {tiles}.")

    def bot_action(self, seat: int) -> tuple[Action, Reason]:
        """The bot's choice and its reason, made from its own view only. A bot that breaks down
        (an outside engine that dies or answers an illegal action) hands its seat to the rules
        bot, as at the full-screen table, so that the game goes on and its record is still
        saved."""
        view = self.game.view(seat)
        failure: Texas42Error | None
        try:
            decision = decide(self.bots[seat], view)
        except Texas42Error as exc:
            failure = exc
        else:
            if self.game.is_legal(decision.action):
                return decision.action, decision.reason
            failure = None
        self.say(bot_replaced(self.subject(seat), bot_failure(failure)), style="bold")
        close_bot(self.bots[seat])
        self.bots[seat] = make_bot("rules", 0, self.players[seat])
        decision = decide(self.bots[seat], view)
        return decision.action, decision.reason

    def apply(self, seat: int, action: Action, reason: Reason | None = None) -> None:
        game = self.game
        hand = game.hand
        tricks = len(hand.tricks)
        first_play = not hand.plays
        game.apply(action)
        if seat not in self.mine:
            self.news.append(self.describe(seat, action))
            if reason is not None and isinstance(action, Play):
                # what the tile did, as every seat saw it (the auction line tells the calls)
                self.news.append(f"  {why_line('why', reason.public)}")
        declarer = hand.declarer
        if hand.phase == Phase.DISCARD and not hand.discards and declarer not in self.mine:
            assert declarer is not None  # the bid winner discards
            self.news.append(widow_taken(self.subject(declarer)))
        if isinstance(action, Declare):
            trump = hand.trump_description()
            if trump:
                self.news.append(f"  ({trump})")
        by_lead = hand.contract is not None and hand.contract.kind == "by-lead"
        if by_lead and first_play:
            self.news.append(f"  (the first tile led names trump: {hand.trump_description()})")
        if len(hand.tricks) > tricks:
            trick = hand.tricks[-1]
            worth = None if hand.tricks_hidden else trick.points
            self.news.append(trick_taken(self.subject(trick.winner), len(hand.tricks), worth))
        if hand.result is not None:
            self.hand_over(hand, hand.result)

    def describe(self, seat: int, action: Action) -> str:
        """A bot's action as news; the tile it laid face down stays unnamed."""
        return action_said(self.subject(seat), action)

    # -- showing the table ---------------------------------------------------------------

    def header(self, hand_number: int, shaker: int, score: tuple[int, ...]) -> None:
        if hand_number == self.shown_hand:
            return
        self.shown_hand = hand_number
        self.say(Rule(hand_heading(hand_number, self.who(shaker)), style="bold"))
        self.say(f"Score: {score_line(self.rules, score)}")

    def flush_news(self) -> None:
        if self.news:
            self.say("Since your last turn:", style="dim")
            for line in self.news:
                self.say(f"  {line}")
            self.news = []

    def show(self, view: View) -> None:
        self.header(view.hand_number, view.shaker, view.score)
        self.flush_news()
        if view.calls:
            self.say(f"Auction: {auction_line(view, self.names())}")
        if view.contract is not None:
            self.say(f"Contract: {contract_line(view, self.names())}")
        self.show_piles(view)
        if view.trick:
            self.say(
                "This trick: " + ", ".join(f"{self.who(s)} {tile_name(t)}" for s, t in view.trick)
            )
        if view.widow:
            down = [tile_name(t) for t in view.discards if t is not None]
            laid = f"; you laid down {' '.join(down)}" if down else ""
            self.say(f"{widow_taken('You', view.widow)}{laid}")
        if view.face_up[view.seat]:
            self.say("Your hand lies face up: every seat sees it.")
        if len(self.mine) == 1:
            self.say(Text.assemble("Your hand: ", (hand_name(view.hand), "bold")))
            return
        for seat in self.mine:
            held = view.hand if seat == view.seat else self.game.view(seat).hand
            to_act = " (to act)" if seat == view.seat else ""
            label = f"Your {self.layout.seat_names[seat]} hand{to_act}: "
            self.say(Text.assemble(label, (hand_name(held), "bold" if to_act else "")))

    def show_piles(self, view: View) -> None:
        """The tricks taken, tile by tile when they lie face up, only who won when face down."""
        for number, trick in enumerate(view.tricks, 1):
            taker = f"  {trick_taken(self.subject(trick.winner), number, trick.points)}"
            if trick.tiles is None:
                mine = f"; you played {tile_name(trick.mine)}" if trick.mine is not None else ""
                self.say(f"{taker}{mine}")
            else:
                tiles = ", ".join(
                    f"{self.who(s)} {tile_name(t)}" for s, t in zip(trick.seats, trick.tiles)
                )
                self.say(f"{taker}: {tiles}")
        if view.tricks:
            names = self.layout.side_names
            kind, amounts = (
                ("points", view.points) if view.points is not None else ("tricks", view.tricks_won)
            )
            taken = ", ".join(f"{name} {n}" for name, n in zip(names, amounts))
            self.say(f"  so far: {kind} {taken}")

    def hand_over(self, hand: Hand, result: HandResult) -> None:
        """The news of the hand's end, then what it came to and the running score."""
        game = self.game
        before = tuple(total - amount for total, amount in zip(game.score, result.score))
        self.header(game.first_hand + len(game.results) - 1, hand.shaker, before)
        self.flush_news()
        view = hand.view(self.seat)
        sides = [name + self.side_of_you(s) for s, name in enumerate(self.layout.side_names)]
        self.say(hand_headline(view, result, sides), style="bold")
        if not result.reshaken:
            self.say(f"Contract: {contract_line(view, self.names())}")
        for line in hand_result_lines(view, result, sides):
            self.say(line)
        self.say(f"Score: {score_line(self.rules, self.game.score)}")
        if self.reasons.said(len(game.results) - 1) and not game.is_over():
            self.say(WHY_HINT, style="dim")

    # -- asking the human ----------------------------------------------------------------

    def ask(self, seat: int) -> Action | str | None:
        """The human's next action at ``seat``, asked until it is legal; None to leave,
        `CLAIMED` once the human laid the hand down."""
        game = self.game
        view = game.view(seat)
        self.show(view)
        kind, question = {
            Phase.AUCTION: ("call", "Your call"),
            Phase.DECLARE: ("contract", "Name the contract"),
            Phase.PLAY: ("play", "Your play"),
            Phase.DISCARD: ("discard", "Lay a tile face down"),
        }[Phase(view.phase)]
        if len(self.mine) > 1:
            question += f" for {self.layout.seat_names[seat]}"
        while True:
            self.console.print(
                f"{question} ({choices(view)}): ", end="", markup=False, highlight=False
            )
            line = self.read()
            if line is None:
                self.say("(end of input)")
                return None
            text = line.strip()
            word = text.lower()
            if not text:
                self.say(f"Type your {kind}, or help.")
                continue
            if len(text) > LONGEST_INPUT:
                self.say(f"That is too long to be a {kind}; type help for the choices.")
                continue
            if word in QUIT_WORDS:
                return None
            if word in HELP_WORDS:
                self.help(view)
                continue
            if word in SHOW_WORDS:
                self.show(view)
                continue
            if word in WHY_WORDS:
                self.why()
                continue
            if " ".join(word.split()) in CLAIM_WORDS:
                reason = game.why_claim_illegal(seat)
                if reason is not None:
                    self.say(f"You may not lay down now: {reason}.")
                    continue
                self.lay_down(seat)
                return CLAIMED
            try:
                action = game.parse_action(text)
            except ValueError as exc:
                self.say(f"{exc}. Type help for the choices.")
                continue
            reason = game.why_illegal(action)
            if reason is not None:
                self.say(f"{action.notation} is not allowed: {reason}.")
                continue
            return action

    def why(self) -> None:
        """The bots' reasons in the last finished hand: the whole words of each seat whose
        tiles were all shown, the public ones of a seat with tiles never shown
        (`reason_words`)."""
        index = len(self.game.results) - 1
        said = self.reasons.said(index)
        if not said:
            self.say(NO_REASONS_YET)
            return
        hand = self.game.hands[index]
        self.say(why_heading(self.game.first_hand + index), style="bold")
        for seat, reason in said:
            self.say(
                f"  {why_line(self.subject(seat), reason_words(reason, hand, seat, self.mine))}"
            )

    def lay_down(self, seat: int) -> None:
        """The human lays the hand down and claims the rest: the tiles shown, the verdict, and,
        if that ends the hand, what it came to."""
        hand = self.game.hand
        claim = self.game.claim(seat)
        self.say(claim_line(self.subject(seat), claim.tiles) + ".", style="bold")
        self.say(claim_outcome(hand.view(seat), claim, self.names()) + ".", style="bold")
        if hand.result is not None:
            self.hand_over(hand, hand.result)

    def read(self) -> str | None:
        """One line of input, or None at its end (or on Ctrl-C)."""
        try:
            line = self.stream.readline()
        except KeyboardInterrupt:
            return None
        if not getattr(self.stream, "isatty", lambda: False)():
            self.say()
        return line or None

    def help(self, view: View) -> None:
        if view.phase in (Phase.PLAY, Phase.DISCARD):
            tiles = sorted(view.legal, key=lambda action: -action.id)
            verb = "play" if view.phase == Phase.PLAY else "lay down"
            self.say(f"You may {verb}: " + " ".join(a.notation for a in tiles))
            hi, lo = tiles[0].notation.split("-")
            self.say(
                f"Write a tile with or without the dash, either way round: {hi}-{lo}, "
                f"{lo}-{hi} or {hi}{lo}."
            )
        else:
            self.say("You may: " + ", ".join(a.notation for a in view.legal))
        save = f", saving the game to {self.save}" if self.save else ""
        self.say(
            "Commands: help; show (the table again); why (the bots' reasons); "
            f"quit (leave the game{save})."
        )
        if self.rules.claims:
            self.say(
                "When you lead a trick: claim (or lay down) shows your hand and claims the rest, "
                "judged with every tile known; if it fails, play goes on with your hand face up."
            )

    # -- the end -------------------------------------------------------------------------

    def close_bots(self) -> None:
        for bot in self.bots.values():
            close_bot(bot)

    def finish(self) -> int:
        """Save the record if asked to; a failed write prints the record rather than lose it."""
        if self.save is None:
            return 0
        text = record_from_game(self.game, self.players, self.reasons.by_hand()).to_json()
        try:
            write_record(self.save, text)
        except OSError as exc:
            reason = exc.strerror or exc
            self.say(f"Could not save the game to {self.save}: {reason}.", style="bold")
            self.say("Here is the record, so that nothing is lost:")
            self.console.print(text, markup=False, highlight=False, soft_wrap=True)
            return SAVE_FAILED
        self.say(f"Game saved to {self.save}.")
        return 0

"""The full-screen terminal table (``texas42 tui``): one person and bots, 2 to 7 players.

The seats sit round the felt with the person at the bottom; at two-hand the person holds both
seats of a partnership and sees both hands, as `texas42.faces.terminal.line_game` does. Every widget is drawn from
the views of the person's seats of the hand in play and, once a hand is over, from the person's
view of that hand and its public result; so the screen never shows a tile the person could not
see at a real table. The review of a finished hand lists the person's own plays only.
The bots choose in worker threads, as do the hints and the double-dummy review, so the screen
stays live while they think.
"""

from __future__ import annotations

import datetime
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, cast

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Input, RichLog, Static
from textual.worker import Worker, WorkerState

from texas42.core.actions import Action, Bid, Declare, Discard, Pass, Play, action_words
from texas42.core.errors import Texas42Error
from texas42.core.game import Game
from texas42.core.hand import Hand, HandResult
from texas42.core.layout import Layout, layout_of
from texas42.core.progress import Phase
from texas42.core.reason_log import ReasonLog
from texas42.core.reasons import Reason, reason_words
from texas42.core.record import record_from_game
from texas42.core.rules import Rules, seats_held
from texas42.core.tiles import HI, LO, hand_name, tile_name, tiles_of
from texas42.core.view import TrickView, View
from texas42.core.words import (
    NO_BOT_REASONS,
    action_said,
    bid_review_line,
    bot_replaced,
    claim_line,
    claim_outcome,
    contract_line,
    game_over_line,
    hand_heading,
    hand_headline,
    hand_result_lines,
    hint_facts,
    marks_tally,
    no_costly_plays,
    pile_line,
    play_review_line,
    plural,
    rules_text,
    score_line,
    seat_roles,
    shaker_line,
    side_labels,
    trick_of_play,
    trick_taken,
    why_heading,
    why_line,
    widow_taken,
    winner_words,
)
from texas42.faces.terminal.line_game import (
    BAD_SAVE_PATH,
    BOT_NAMES,
    SAVE_FAILED,
    bot_failure,
    save_problem,
    write_record,
)
from texas42.players import Bot
from texas42.players.reasons import Decision, decide
from texas42.services.protocol import close_bot, make_bot

if TYPE_CHECKING:
    from texas42.players.hints import Advice
    from texas42.players.review import HandReview

BOT_DELAY = 0.6
"""Seconds a bot waits before it acts (twice that after a trick), so a person can follow play."""
HINT_SAMPLES = 24
"""Deals the hint's bot looks at, as the web table's hints do."""
REVIEW_SAMPLES = 12
"""Deals per bid in the end-of-hand review, as the web table's reviews do."""

BACK = "[░|░]"
"""A tile lying face down."""

KEYS = (
    ("0 to 6", "name that suit as trump (0 blanks ... 6 sixes)"),
    ("← → Tab", "move along the bidding box"),
    ("Enter", "make the call under the cursor"),
    ("p", "pass in the bidding"),
    ("h", "ask for a hint (on your turn)"),
    ("l", "show the last trick"),
    ("c", "lay your hand down and claim the rest, when you lead a trick (c again to confirm)"),
    ("r", "review the last hand (double dummy)"),
    ("w", "why the bots chose: this hand as every seat saw it, the last hand in full"),
    ("?", "show these keys"),
    ("Esc", "close a panel or the hints"),
    ("q", "leave the game (twice, to be sure)"),
)
KEY_BAR = (
    " 1 to {last} play · p pass · h hint · l last trick · c lay down · r review · ? keys · q quit"
)
"""The keys along the bottom; ``last`` is the most tiles a hand holds."""

_RING = ((2, 1), (2, 0), (1, 0), (0, 0), (0, 1), (0, 2), (1, 2), (2, 2))
"""The places round the felt, clockwise from the bottom middle, as (row, column) of a 3 by 3
grid whose middle is the trick."""
_RING_PLACES = {
    3: (0, 2, 6),
    4: (0, 2, 4, 6),
    5: (0, 2, 3, 5, 6),
    6: (0, 1, 3, 4, 5, 7),
    7: (0, 1, 2, 3, 5, 6, 7),
}
"""The places of `_RING` each table size uses: four seats are a cross; six a hexagon, so that
partners at six-hand (0-3, 1-4, 2-5) sit opposite."""
_TABLE_ACTIONS = frozenset(
    (
        "digit",
        "pass_turn",
        "hint",
        "last_trick",
        "claim",
        "review",
        "why",
        "help",
        "close_hints",
        "focus_previous",
        "focus_next",
    )
)
_VERBS = {
    Phase.AUCTION: "bid",
    Phase.DECLARE: "name trump",
    Phase.PLAY: "play",
    Phase.DISCARD: "lay a tile down",
}
_Failed = Callable[[BaseException], None]


# -- words and pictures, each from a View ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seating:
    """Who sits where, as the person sees the table: their seat at the bottom, "You"; ``mine``
    holds their partner's seat too at two-hand."""

    seat: int
    names: tuple[str, ...]
    layout: Layout
    mine: tuple[int, ...]

    def who(self, seat: int) -> str:
        if seat not in self.mine:
            return self.names[seat]
        return "You" if len(self.mine) == 1 else f"You ({self.layout.seat_names[seat]})"

    def labels(self) -> list[str]:
        """Every seat as `who` says it, for the sentences of `texas42.core.words`."""
        return [self.who(seat) for seat in range(self.layout.seats)]

    def side_names(self) -> list[str]:
        """Every side in words: a team's name (North-South), or the one player's."""
        return side_labels(self.layout, self.labels())

    def place(self, seat: int) -> tuple[int, int]:
        """Where a seat sits on the felt, (row, column): the next seat clockwise is on the
        person's left."""
        seats = self.layout.seats
        return _RING[_RING_PLACES[seats][(seat - self.seat) % seats]]

    def side(self, side: int) -> str:
        """A score column's head: Us and Them for two sides, else You or the side's players."""
        layout = self.layout
        mine = side == layout.side_of[self.seat]
        if layout.sides == 2:
            return "Us" if mine else "Them"
        seats = layout.side_seats(side)
        if mine:
            return "You" if len(seats) == 1 else "Us"
        return "+".join(self.names[s] for s in seats)

    def teams(self) -> tuple[int, ...]:
        """The sides, the person's first."""
        mine = self.layout.side_of[self.seat]
        return mine, *(side for side in range(self.layout.sides) if side != mine)


def tile_face(tile: int | None) -> str:
    """A tile as the felt and the piles draw it, ``[6|4]``; None for one lying face down."""
    return BACK if tile is None else f"[{HI[tile]}|{LO[tile]}]"


def _ordinal(number: int) -> str:
    """``7th``: the hand holds at most nine tiles, so the teens never come up."""
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number, 'th') }"


def hand_tiles(view: View) -> list[int]:
    """The player's tiles in the order shown and numbered for the keys 1-7: as a 42 player
    holds them once trump is named (`View.tiles_in_order`, as the web table shows them)."""
    return list(view.tiles_in_order())


def seat_of_call(view: View, index: int) -> int:
    return (view.first_bidder + index) % view.layout.seats


def call_label(action: Action) -> str:
    """A bidding-box button: the bid, ``pass``, or a contract (a suit with its key)."""
    if isinstance(action, Declare) and action.contract.kind == "suit":
        return f"{action.contract.trump} {action.notation}"
    return action.notation


def call_order(action: Action) -> tuple[int, int]:
    """The bidding box's order: pass, the point (or trick) bids upward with shooting the moon
    last, then the mark bids, plunge and splash; contracts as numbered."""
    if isinstance(action, Pass):
        return 0, 0
    if isinstance(action, Bid) and not action.marks and action.special in (None, "moon"):
        return 1, action.points
    return 2, action.id


def status_line(view: View, seating: Seating, thinking: bool) -> Text:
    """Whose turn it is, in words."""
    text = Text(f"Hand {view.hand_number} · ", style="dim")
    turn = view.turn
    if turn is None or view.phase == Phase.DONE:
        return text.append("Hand over", style="bold")
    verb = _VERBS[Phase(view.phase)]
    if turn in seating.mine:
        keys = {
            Phase.AUCTION: "← → and Enter, or p to pass",
            Phase.DECLARE: "0 to 6 for a suit, or ← → and Enter",
            Phase.PLAY: f"keys 1 to {len(tiles_of(view.hand))}",
            Phase.DISCARD: f"keys 1 to {len(tiles_of(view.hand))}",
        }[Phase(view.phase)]
        words = f"Your turn to {verb}"
        if len(seating.mine) > 1:
            words += f" ({seating.layout.seat_names[turn]})"
        return text.append(words, style="bold reverse").append(f"  ({keys})")
    words = f"{seating.who(turn)} is thinking…" if thinking else f"{seating.who(turn)} to {verb}"
    if view.out_seat == seating.seat:
        words += " · you sit out this hand"
    return text.append(words, style="bold")


def contract_bar(view: View, seating: Seating) -> str:
    """``Ann bid 31 · fives (fives are trump)``: the hand's bid and contract so far, and the
    widow's tiles the person laid down (only they saw them)."""
    line = contract_line(view, seating.labels())
    if view.contract is None:
        return line
    if view.discarded:
        line += f" · you laid down {hand_name(view.discarded)}"
    elif view.discards:
        line += " · the widow was taken"
    return line


def last_call(view: View, seat: int) -> str | None:
    for index in range(len(view.calls) - 1, -1, -1):
        if seat_of_call(view, index) == seat:
            return view.calls[index].notation
    return None


def trick_faces(trick: TrickView, seat: int) -> list[tuple[int, str]]:
    """A completed trick's tiles by seat in play order; a face-down trick shows only ``seat``'s."""
    if trick.tiles is not None:
        return [(s, tile_face(t)) for s, t in zip(trick.seats, trick.tiles)]
    return [(s, tile_face(trick.mine if s == seat else None)) for s in trick.seats]


def felt(view: View, seating: Seating, draw: Sequence[tuple[tuple[int, int], ...]] = ()) -> Table:
    """The table: the seats round the trick in the middle, the person at the bottom; each
    seat's place holds its tile of the trick.

    ``draw`` is the public draw for the first shake, shown until the first call of the game.
    """
    faces: dict[int, str] = {}
    winner: int | None = None
    center = Text(justify="center")
    if view.trick:
        faces = {s: tile_face(t) for s, t in view.trick}
        center.append(f"{seating.who(view.trick[0][0])} led", style="dim")
    elif view.tricks and view.phase in (Phase.PLAY, Phase.DONE):
        last = view.tricks[-1]
        faces = dict(trick_faces(last, seating.seat))
        winner = last.winner
        taken = trick_taken(seating.who(winner), len(view.tricks), last.points)
        center.append(taken, style="bold")
    elif view.phase == Phase.AUCTION and draw and not view.calls:
        center.append("Draw for the first shake\n", style="bold")
        for number, drawn in enumerate(draw):
            if number:
                center.append("and again\n", style="dim")
            picks = [f"{seating.who(s)} {tile_face(t)}" for s, t in drawn]
            for pair in range(0, len(picks), 2):
                center.append("  ".join(picks[pair : pair + 2]) + "\n")
        center.append(shaker_line(seating.who(view.shaker)))
    elif view.phase == Phase.AUCTION:
        center.append("Bidding", style="bold")
    elif view.phase == Phase.DECLARE and view.declarer is not None:
        center.append(f"{seating.who(view.declarer)} to name trump", style="bold")
    if view.trump and view.phase == Phase.PLAY:
        center.append(("\n" if center else "") + view.trump, style="italic")
    grid = Table.grid(expand=True)
    for _ in range(3):
        grid.add_column(ratio=1, justify="center")
    cells: list[list[RenderableType]] = [["", "", ""], ["", center, ""], ["", "", ""]]
    placed = {1}
    for seat in range(seating.layout.seats):
        row, column = seating.place(seat)
        cells[row][column] = _seat_block(view, seating, seat, faces.get(seat), winner)
        placed.add(row)
    for row in sorted(placed):
        grid.add_row(*cells[row])
    return grid


def _seat_block(
    view: View, seating: Seating, seat: int, face: str | None, winner: int | None
) -> Text:
    to_act = view.turn == seat and view.phase != Phase.DONE
    text = Text(justify="center")
    mine = "You" if seat in seating.mine else seating.who(seat)
    name = f"{mine} · {seating.layout.seat_names[seat]}"
    text.append(("▶ " + name) if to_act else name, style="bold reverse" if to_act else "bold")
    roles = seat_roles(view, seat, seating.mine)
    if seat not in seating.mine and view.phase != Phase.DONE and seat != view.out_seat:
        roles.append("▮" * view.tiles_left[seat])
    text.append("\n" + " · ".join(roles), style="dim")
    if view.phase == Phase.AUCTION:
        call = last_call(view, seat)
        text.append("\n" + (call or ""), style="bold cyan" if call and call != "pass" else "cyan")
    else:
        text.append("\n" + (face or ""), style="bold green" if seat == winner else "bold")
    return text


def calls_list(view: View, seating: Seating) -> Text:
    """The auction in order: who said what."""
    text = Text()
    text.append("Bidding\n", style="bold underline")
    if not view.calls:
        return text.append("No calls yet.", style="dim")
    for index, call in enumerate(view.calls):
        text.append(f"{seating.who(seat_of_call(view, index))} ")
        text.append(call.notation, style="dim" if isinstance(call, Pass) else "bold")
        text.append("   " if index < len(view.calls) - 1 else "")
    return text


def piles(view: View, seating: Seating) -> Text:
    """Each side's tricks in the order won; face-down tricks show only the player's own tile."""
    text = Text()
    text.append("Tricks\n", style="bold underline")
    numbered = list(enumerate(view.tricks, 1))
    layout = seating.layout
    for team in seating.teams():
        name = seating.side(team)
        if layout.sides == 2 or layout.alone:
            name += f" ({layout.side_names[team]})"
        text.append(f"{name}: {pile_line(view, team)}\n", style="bold")
        won = [(n, trick) for n, trick in numbered if layout.side_of[trick.winner] == team]
        if not won:
            text.append("  none yet\n", style="dim")
        for number, trick in won:
            text.append(f" {number}. ")
            for seat, face in trick_faces(trick, seating.seat):
                text.append(face, style="bold green" if seat == trick.winner else "")
                text.append(" ")
            text.append(f"{seating.who(trick.winner)}\n", style="dim")
    return text


def score_pad(
    rules: Rules, history: Sequence[tuple[int, ...]], seating: Seating, start: tuple[int, ...]
) -> Table:
    """The score, a column a side: marks as strokes of "ALL" (points as numbers), and each
    hand's gain; with more than two sides a hand's row shows the gains alone, to fit."""
    unit = "marks" if rules.game == "marks" else "points"
    score = history[-1] if history else start
    sides = seating.teams()
    two = len(sides) == 2
    pad = Table(
        box=None,
        expand=True,
        show_edge=False,
        pad_edge=False,
        collapse_padding=not two,
        title=f"Score · game to {plural(rules.winning_target, unit[:-1])}",
        title_style="bold",
    )
    pad.add_column("", style="dim", min_width=None if two else 6)
    for side in sides:
        pad.add_column(seating.side(side), justify="center", style="bold")
    if two:
        pad.add_row("", *(seating.layout.side_names[side] for side in sides), style="dim")
    if unit == "marks":
        pad.add_row("", *(marks_tally(score[side]) or "·" for side in sides))
    pad.add_row("total", *(str(score[side]) for side in sides))
    before = start
    for number, after in enumerate(history, 1):
        cells = []
        for side in sides:
            gain = after[side] - before[side]
            if two:
                cells.append(f"{gain:+d} = {after[side]}" if gain else f"· {after[side]}")
            else:
                cells.append(f"{gain:+d}" if gain else "·")
        pad.add_row(f"hand {number}", *cells, style="")
        before = after
    return pad


def result_words(view: View, result: HandResult, seating: Seating) -> tuple[str, list[str]]:
    """A finished hand's headline and lines, as `texas42.core.words` writes them: the contract,
    the points (if its piles lie face up), the tricks, the score.

    ``view`` is the player's view of that hand.
    """
    sides = seating.side_names()
    lines = [] if result.reshaken else [contract_line(view, seating.labels())]
    lines += hand_result_lines(view, result, sides)
    return hand_headline(view, result, sides), lines


def trick_text(trick: TrickView, number: int, seating: Seating) -> Text:
    """One completed trick (the hand's ``number``-th), seat by seat, and who took it."""
    text = Text()
    for seat, face in trick_faces(trick, seating.seat):
        text.append(f"{seating.who(seat):>6} ", style="dim")
        text.append(face + "\n", style="bold green" if seat == trick.winner else "bold")
    return text.append(f"{trick_taken(seating.who(trick.winner), number, trick.points)}.")


def review_lines(review: HandReview, view: View, mine: Sequence[int]) -> list[str]:
    """The review of the person's own plays and bids (``mine``: their seat, or seats at
    two-hand), in the words of `texas42.core.words`; ``view`` is their view of that hand, which
    numbers the tricks."""
    unit = "trick" if review.unit == "tricks" else "point"
    plays = [p for p in review.plays if p.seat in mine]
    lines = [
        play_review_line(
            "You",
            trick_of_play(view, play.index),
            tile_name(play.tile),
            [tile_name(t) for t in play.best],
            play.cost,
            unit,
        )
        for play in plays
        if play.cost > 0
    ]
    if not lines:
        lines.append(no_costly_plays(len(plays), "You"))
    lines += [
        bid_review_line("You", bid.bid, bid.contract, bid.make_share)
        for bid in review.bids
        if bid.seat in mine
    ]
    return lines


def _find_hints(view: View, samples: int, seed: int) -> Advice:
    from texas42.players.hints import advise

    return advise(view, samples=samples, seed=seed)


def _review(hand: Hand, number: int, samples: int) -> HandReview:
    import random

    from texas42.players.review import review_hand

    return review_hand(hand, number, bid_samples=samples, rng=random.Random(number))


# -- widgets --------------------------------------------------------------------------------------


class HandTile(Static, can_focus=False):
    """One tile of a hand the person holds; a click plays it (or lays it down after taking the
    widow), as its number key does."""

    class Chosen(Message):
        def __init__(self, seat: int, index: int) -> None:
            super().__init__()
            self.seat = seat
            self.index = index

    def __init__(self, seat: int, index: int) -> None:
        super().__init__(classes="tile")
        self.seat = seat
        self.index = index

    def show(self, tile: int | None, legal: bool | None, widow: bool = False) -> None:
        """``legal`` is None when it is not this hand's turn to play; ``widow`` marks a tile
        just taken from the widow."""
        self.display = tile is not None
        if tile is None:
            return
        self.update(f"{HI[tile]} | {LO[tile]}")
        self.border_subtitle = str(self.index + 1)
        self.border_title = "w" if widow else None
        self.set_class(legal is True, "legal")
        self.set_class(legal is False, "illegal")
        self.set_class(widow, "widow")

    def on_click(self) -> None:
        self.post_message(self.Chosen(self.seat, self.index))


class CallButton(Button):
    """A legal call or contract in the bidding box."""

    def __init__(self, action: Action) -> None:
        super().__init__(call_label(action), classes="call")
        self.call = action


class HintButton(Button, can_focus=False):
    """Takes the hinted action."""

    def __init__(self, action: Action) -> None:
        super().__init__(action_words(action), classes="hint-do")
        self.call = action


class ToolButton(Button, can_focus=False):
    """A tool with its own key: hint, last trick, review, keys, quit."""


class Panel(ModalScreen[None]):
    """A panel over the table; the game waits while it is open."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "close"),
        Binding("enter", "close", show=False),
    ]

    def __init__(self, title: str, body: RenderableType, close_key: str | None = None) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.close_key = close_key

    def compose(self) -> ComposeResult:
        with Vertical(classes="panel"):
            yield Static(self.title_text, classes="panel-title")
            yield Static(self.body, classes="panel-body")
            yield from self.extra()
            with Horizontal(classes="panel-buttons"):
                yield from self.buttons()

    def extra(self) -> ComposeResult:
        yield from ()

    def buttons(self) -> ComposeResult:
        yield ToolButton("Close  Esc", action="screen.close")

    def on_key(self, event: events.Key) -> None:
        if self.close_key is not None and event.key == self.close_key:
            event.stop()
            self.dismiss()

    def action_close(self) -> None:
        self.dismiss()


class HandPanel(Panel):
    """A finished hand: its result, its last trick, and the review on request."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("r", "review", "review")]

    def __init__(self, title: str, body: RenderableType, number: int) -> None:
        super().__init__(title, body)
        self.number = number

    def extra(self) -> ComposeResult:
        yield Static(
            Text("Press r for a review of your plays (double dummy).", style="dim"),
            classes="review",
        )

    def buttons(self) -> ComposeResult:
        yield ToolButton("Continue  Enter", action="screen.close")
        yield ToolButton("Review  r", action="screen.review")

    def action_review(self) -> None:
        cast(TableApp, self.app).start_review(self.number)

    def show_review(self, review: RenderableType) -> None:
        self.query_one(".review", Static).update(review)


class GameOverPanel(HandPanel):
    """The end of the game: the result, a rematch, and saving the record."""

    AUTO_FOCUS = ""
    """The keys n, s, r, q work at once; a click on the file name edits it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "ignore", show=False),
        Binding("enter", "ignore", show=False),
        Binding("n", "rematch", "rematch"),
        Binding("s", "save", "save"),
        Binding("q", "quit_game", "quit"),
    ]

    def __init__(
        self, title: str, body: RenderableType, number: int, path: str, saved: str
    ) -> None:
        super().__init__(title, body, number)
        self.path = path
        self.saved = saved

    def extra(self) -> ComposeResult:
        yield from super().extra()
        with Horizontal(classes="save-row"):
            yield Static("Record file:", classes="save-label")
            yield Input(self.path, classes="save-path")
        yield Static(self.saved, classes="saved")

    def buttons(self) -> ComposeResult:
        yield ToolButton("Rematch  n", action="screen.rematch")
        yield ToolButton("Save the record  s", action="screen.save")
        yield ToolButton("Review  r", action="screen.review")
        yield ToolButton("Quit  q", action="screen.quit_game")

    def action_ignore(self) -> None:
        """The game is over: the panel stays until a rematch or quit."""

    def action_rematch(self) -> None:
        cast(TableApp, self.app).rematch()

    def action_save(self) -> None:
        path = self.query_one(Input).value.strip()
        self.query_one(".saved", Static).update(cast(TableApp, self.app).save_record(path))

    def on_input_submitted(self) -> None:
        self.action_save()

    def action_quit_game(self) -> None:
        cast(TableApp, self.app).leave()


# -- the app --------------------------------------------------------------------------------------


class TableApp(App[int]):
    """One game (and rematches) at the table: the person at ``seat`` (and its partner's seat at
    two-hand), bots at the others."""

    CSS_PATH = "full_screen.tcss"
    TITLE = "Texas 42"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]  # noqa: RUF012 (textual declares it)
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(n), f"digit({n})", show=False) for n in range(10)),
        Binding("p", "pass_turn", "pass"),
        Binding("h", "hint", "hint"),
        Binding("l", "last_trick", "last trick"),
        Binding("c", "claim", "lay down"),
        Binding("r", "review", "review"),
        Binding("w", "why", "why"),
        Binding("question_mark", "help", "keys"),
        Binding("q", "leave", "quit"),
        Binding("escape", "close_hints", show=False),
        Binding("left", "app.focus_previous", show=False),
        Binding("right", "app.focus_next", show=False),
    ]

    def __init__(
        self,
        rules: Rules,
        seed: int | None = None,
        seat: int = 2,
        *,
        bots: str = "medium",
        name: str = "You",
        save: str | None = None,
        bot_delay: float = BOT_DELAY,
        hint_samples: int = HINT_SAMPLES,
        review_samples: int = REVIEW_SAMPLES,
    ) -> None:
        super().__init__()
        self.layout = layout = layout_of(rules)
        n = layout.seats
        if not 0 <= seat < n:
            names = ", ".join(f"{s} {name}" for s, name in enumerate(layout.seat_names))
            raise Texas42Error(f"a seat is 0..{n - 1} ({names}), not {seat}")
        self.rules = rules
        self.seed = seed
        self.seat = seat
        self.mine = seats_held(rules, seat)
        """The seats the person plays: at two-hand both seats of a partnership."""
        self.bot_spec = bots
        self.save_path = save
        self.bot_delay = bot_delay
        self.hint_samples = hint_samples
        self.review_samples = review_samples
        bot_names = [BOT_NAMES[(s - seat) % n - 1] for s in range(n)]
        seated = tuple(name if s in self.mine else bot_names[s] for s in range(n))
        self.seating = Seating(seat, seated, layout, self.mine)
        self.players = [name if s in self.mine else f"{bot_names[s]} (bot)" for s in range(n)]
        self.farewell: list[str] = []
        """What to print once the screen is gone: where the record went, or the record itself."""
        self.games = 0
        self.epoch = 0
        self._jobs: dict[Worker[Any], tuple[Callable[[Any], None], _Failed]] = {}
        self.bots: dict[int, Bot] = {}
        self._new_game()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The table's keys wait while a panel is open (the panel has its own)."""
        return action not in _TABLE_ACTIONS or len(self.screen_stack) == 1

    def _new_game(self) -> None:
        seed = None if self.seed is None else self.seed + self.games
        self.game = Game(self.rules, seed)
        n = self.layout.seats
        self.close_bots()
        self.bots = {
            s: make_bot(self.bot_spec, (seed or 0) * n + s, self.players[s])
            for s in range(n)
            if s not in self.mine
        }
        self.games += 1
        self.epoch += 1
        self._thinking = False
        self._trick_done = False
        self._hints: Advice | None = None
        self._hints_token: tuple[int, int, int] | None = None
        self._hints_shown: tuple[object, int] | None = None
        self._reviews: dict[int, Text] = {}
        self._reviewing: set[int] = set()
        self._reasons = ReasonLog()
        """Why each action was taken: the bots' reasons, None for the person's."""
        self._calls_key: tuple[int, ...] | None = None
        self._quit_armed = False
        self._claim_armed: tuple[int, int, int] | None = None
        """The position at which c was pressed once: a second c there lays the hand down."""

    # -- the state, as the player sees it ---------------------------------------------------------

    def acting_seat(self) -> int:
        """The person's seat that is to act, else their own (at the bottom)."""
        turn = self.game.seat_to_act()
        return turn if turn is not None and turn in self.mine else self.seat

    def player_view(self) -> View:
        """The view of the person's seat that is to act (their own seat while nobody of theirs
        is): what the status, the felt and the keys go by."""
        return self.game.view(self.acting_seat())

    def my_turn(self) -> bool:
        return self.game.seat_to_act() in self.mine

    def waiting_for_player(self) -> bool:
        """True when nothing moves until the player acts: their turn, or a panel open."""
        return len(self.screen_stack) > 1 or (self.my_turn() and not self.working("bot"))

    def _token(self) -> tuple[int, int, int]:
        """What a worker's answer must still match to be used."""
        return self.epoch, self.game.hand_number, self.game.hand.action_count

    def finished_view(self, number: int) -> tuple[View, HandResult]:
        """The player's view of a finished hand, and its result."""
        game = self.game
        index = number - game.first_hand
        hand = game.hands[index]
        assert hand.result is not None
        score = game.start_score
        history = game.score_history()
        if index:
            score = history[index - 1]
        return hand.view(self.seat, score, number), hand.result

    def last_finished(self) -> int | None:
        """The number of the last finished hand, if any."""
        if not self.game.results:
            return None
        return self.game.first_hand + len(self.game.results) - 1

    def current_save_path(self) -> str | None:
        """``--save`` for the first game; a rematch's record goes beside it, numbered."""
        if self.save_path is None or self.games == 1:
            return self.save_path
        path = Path(self.save_path)
        return str(path.with_name(f"{path.stem}-{self.games}{path.suffix}"))

    # -- drawing ----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Vertical(id="table"):
            yield Static(id="status")
            yield Static(id="contract")
            yield Static(id="felt")
            yield Static(id="message")
            held = self.layout.hand_size + self.layout.widow
            paired = len(self.mine) > 1
            for seat in reversed(self.mine):
                if paired:
                    yield Static(id=f"hand-label-{seat}", classes="hand-label")
                row = "hand" if seat == self.seat else f"hand-{seat}"
                with Horizontal(id=row, classes="hand paired" if paired else "hand"):
                    for index in range(held):
                        yield HandTile(seat, index)
            with Vertical(id="callbar"):
                yield Static(id="call-title")
                yield Grid(id="calls")
            yield Vertical(id="hints")
            with Horizontal(id="tools"):
                yield ToolButton("Hint h", action="app.hint")
                yield ToolButton("Last trick l", action="app.last_trick")
                yield ToolButton("Review r", action="app.review")
                yield ToolButton("Keys ?", action="app.help")
                yield ToolButton("Quit q", action="app.leave")
        with VerticalScroll(id="side"):
            yield Static(id="score")
            yield Static(id="piles")
            yield Static(id="bidding")
            yield Static("What happened", id="log-title")
            yield RichLog(id="log", wrap=True, min_width=20)
        yield Static(KEY_BAR.format(last=self.layout.hand_size + self.layout.widow), id="keys")

    def on_mount(self) -> None:
        for scroller in self.query("#side, #log"):
            scroller.can_focus = False  # the arrow keys and Tab walk the bidding box alone
        self._note(f"Texas 42: {self.rules}", style="bold")
        for line in rules_text(self.rules):
            self._note(f"  {line}", style="dim")
        self._note(f"{self._seated()} Press ? for the keys.")
        self._hand_begins()
        self._refresh()
        self._advance()

    def _seated(self) -> str:
        """Where the person sits and with whom, in a sentence."""
        layout = self.layout
        names = layout.seat_names
        if len(self.mine) > 1:
            held = " and ".join(names[s] for s in self.mine)
            return f"You play {held} and see both hands."
        mates = [
            self.seating.who(s)
            for s in layout.side_seats(layout.side_of[self.seat])
            if s != self.seat
        ]
        if mates:
            are = "is your partner" if len(mates) == 1 else "are your partners"
            return f"You sit {names[self.seat]}; {' and '.join(mates)} {are}."
        alone = (
            "everyone scores their own tricks"
            if layout.teams == "solo"
            else "the bid winner plays alone against the rest"
        )
        return f"You sit {names[self.seat]}; {alone}."

    def _note(self, line: str, style: str = "") -> None:
        self.query_one("#log", RichLog).write(Text(line, style=style))

    def _say(self, line: str) -> None:
        """A message under the felt, until the next action."""
        self.query_one("#message", Static).update(Text(line, style="bold yellow"))

    def _refresh(self) -> None:
        view = self.player_view()
        seating = self.seating
        game = self.game
        thinking = self._thinking and not self.my_turn()
        self.query_one("#status", Static).update(status_line(view, seating, thinking))
        self.query_one("#contract", Static).update(Text(contract_bar(view, seating), style="bold"))
        draw = game.draw_rounds if view.hand_number == game.first_hand else []
        self.query_one("#felt", Static).update(felt(view, seating, draw))
        self._show_hands(view)
        self._show_calls(view)
        self._show_hints(view)
        history = game.score_history()
        pad = score_pad(self.rules, history, seating, game.start_score)
        self.query_one("#score", Static).update(pad)
        self.query_one("#piles", Static).update(piles(view, seating))
        self.query_one("#bidding", Static).update(calls_list(view, seating))

    def _show_hands(self, acting: View) -> None:
        """The hands the person holds, numbered for the keys; at two-hand the one to act is
        marked."""
        views = {s: acting if s == acting.seat else self.game.view(s) for s in self.mine}
        rows = {s: hand_tiles(view) for s, view in views.items()}
        for seat, view in views.items():
            if len(self.mine) > 1:
                label = f"Your {self.layout.seat_names[seat]} hand"
                to_act = view.turn == seat and view.phase != Phase.DONE
                self.query_one(f"#hand-label-{seat}", Static).update(
                    Text(
                        "▶ " + label if to_act else label,
                        style="bold reverse" if to_act else "bold",
                    )
                )
        for widget in self.query(HandTile):
            view = views[widget.seat]
            tiles = rows[widget.seat]
            choosing = view.phase in (Phase.PLAY, Phase.DISCARD) and view.turn == widget.seat
            legal = {a.tile for a in view.legal if isinstance(a, (Play, Discard))}
            tile = tiles[widget.index] if widget.index < len(tiles) else None
            taken = tile is not None and view.phase == Phase.DISCARD and view.widow >> tile & 1
            widget.show(tile, (tile in legal) if choosing else None, bool(taken))

    def _show_calls(self, view: View) -> None:
        """The bidding box or the trump choice: one button per legal call, on the player's turn."""
        asking = view.turn in self.mine and view.phase in (Phase.AUCTION, Phase.DECLARE)
        key = tuple(a.id for a in view.legal) if asking else ()
        bar = self.query_one("#callbar")
        bar.display = asking
        if key == self._calls_key:
            return
        self._calls_key = key
        box = self.query_one("#calls", Grid)
        box.remove_children()
        if not asking:
            return
        bidding = view.phase == Phase.AUCTION
        title = (
            "Your bid (← → and Enter; p passes)"
            if bidding
            else ("Name the contract (0 to 6 name a suit; ← → and Enter)")
        )
        self.query_one("#call-title", Static).update(Text(title, style="bold"))
        box.set_class(bidding, "auction")
        box.set_class(not bidding, "declare")
        calls = sorted(view.legal, key=call_order)
        box.mount_all(CallButton(action) for action in calls)
        self.call_after_refresh(self._focus_first_call)

    def _focus_first_call(self) -> None:
        buttons = self.query(CallButton)
        if buttons:
            buttons.first().focus()

    def _show_hints(self, view: View) -> None:
        token = self._hints_token
        if token is not None and token != self._token():
            token = self._hints_token = None
        shown = (token, id(self._hints))
        if shown == self._hints_shown:
            return
        self._hints_shown = shown
        box = self.query_one("#hints", Vertical)
        box.remove_children()
        if token is None:
            box.display = False
            return
        box.display = True
        if self._hints is None:
            box.mount(Static(Text("Thinking…", style="dim")))
            return
        box.mount(Static(Text("Hints (best first) · Esc hides them", style="bold")))
        for hint in self._hints.hints:
            box.mount(
                Horizontal(
                    HintButton(hint.action),
                    Static(hint_facts(view, hint.chance, hint.points, hint.marks, hint.if_stands)),
                    classes="hint-row",
                )
            )
        # the asking seat's own reason: its player reads it whole
        box.mount(Static(Text(f"Why: {self._hints.reason.text}"), classes="hint-why"))

    # -- the flow of play -------------------------------------------------------------------------

    def working(self, group: str) -> bool:
        """Whether a worker of ``group`` (``bot``, ``hint`` or ``review``) is still running."""
        return any(worker.group == group for worker in self._jobs)

    def _run(
        self, work: Callable[[], Any], group: str, done: Callable[[Any], None], failed: _Failed
    ) -> None:
        """Run ``work`` in a thread; ``done`` or ``failed`` gets its outcome back here."""
        worker = self.run_worker(work, group=group, thread=True, exit_on_error=False)
        self._jobs[worker] = (done, failed)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        handlers = self._jobs.get(event.worker)
        if handlers is None or event.state not in (WorkerState.SUCCESS, WorkerState.ERROR):
            return
        del self._jobs[event.worker]
        done, failed = handlers
        if event.state == WorkerState.SUCCESS:
            done(event.worker.result)
        else:
            error = event.worker.error
            failed(error if error is not None else RuntimeError("the worker failed"))

    def _advance(self) -> None:
        """Let the bot whose turn it is act, after the delay; nothing moves while a panel is up."""
        game = self.game
        seat = game.seat_to_act()
        if self._thinking or seat is None or seat in self.mine or len(self.screen_stack) > 1:
            return
        self._thinking = True
        self._refresh()
        delay = self.bot_delay * (2 if self._trick_done else 1)
        token = self._token()
        if delay > 0:
            self.set_timer(delay, partial(self._bot_turn, token))
        else:
            self._bot_turn(token)

    def _bot_turn(self, token: tuple[int, int, int]) -> None:
        if token != self._token():
            return
        if len(self.screen_stack) > 1:
            self._thinking = False  # the panel's closing starts the turn again
            return
        seat = self.game.seat_to_act()
        assert seat is not None
        view = self.game.view(seat)
        self._run(
            partial(decide, self.bots[seat], view),
            "bot",
            partial(self._bot_done, token, seat),
            partial(self._bot_failed, token, seat),
        )

    def _bot_done(self, token: tuple[int, int, int], seat: int, decision: Decision) -> None:
        if token != self._token():
            return
        if not self.game.is_legal(decision.action):
            self._bot_failed(token, seat, None)
            return
        self._thinking = False
        self._act(seat, decision.action, decision.reason)

    def _bot_failed(
        self, token: tuple[int, int, int], seat: int, error: BaseException | None
    ) -> None:
        """A bot that breaks down (``error``, or None for an illegal choice) hands its seat to
        the rules bot, and the game goes on."""
        if token != self._token():
            return
        self._note(bot_replaced(self.seating.who(seat), bot_failure(error)), style="bold red")
        close_bot(self.bots[seat])
        self.bots[seat] = make_bot("rules", 0, self.players[seat])
        self._thinking = False
        self._advance()

    def _act(self, seat: int, action: Action, reason: Reason | None = None) -> None:
        """Apply an action and tell the table what happened."""
        game = self.game
        hand = game.hand
        number = game.hand_number
        tricks = len(hand.tricks)
        first_play = not hand.plays
        self._reasons.add(game, seat, reason)
        game.apply(action)
        self._quit_armed = False
        self.query_one("#message", Static).update("")
        said = action_said(self.seating.who(seat), action, own=seat in self.mine)
        if isinstance(action, Declare):
            self._note(f"{said} ({hand.trump_description()})")
        elif isinstance(action, Pass):
            self._note(said, style="dim")
        elif isinstance(action, (Bid, Discard)):
            self._note(said)
        elif first_play and hand.contract is not None and hand.contract.kind == "by-lead":
            self._note(f"The first tile led names trump: {hand.trump_description()}")
        if hand.phase == Phase.DISCARD and not hand.discards and hand.declarer is not None:
            self._took_widow(hand.declarer)
        self._trick_done = len(hand.tricks) > tricks
        if self._trick_done:
            trick = hand.tricks[-1]
            worth = None if hand.tricks_hidden else trick.points
            self._note(trick_taken(self.seating.who(trick.winner), len(hand.tricks), worth))
        if hand.result is not None:
            self._hand_over(hand.result, number)
        self._refresh()
        self._advance()

    def _took_widow(self, seat: int) -> None:
        if seat not in self.mine:
            self._note(widow_taken(self.seating.who(seat)))
            return
        taken = widow_taken(self.seating.who(seat), self.game.view(seat).widow)
        self._note(taken, style="bold")
        self._say(f"{taken}. Choose a tile to lay down.")

    def _hand_begins(self) -> None:
        game = self.game
        hand = game.hand
        self._note(hand_heading(game.hand_number, self.seating.who(hand.shaker)), style="bold")

    def _hand_over(self, result: HandResult, number: int) -> None:
        view, _ = self.finished_view(number)
        headline, _ = result_words(view, result, self.seating)
        self._note(f"Hand {number}: {headline}", style="bold")
        self._note(f"Score: {score_line(self.rules, self.game.score)}")
        body = self._hand_body(number)
        if self.game.is_over():
            self._game_over(number, body)
            return
        self._hand_begins()
        self.push_screen(HandPanel(f"Hand {number}: {headline}", body, number), self._panel_closed)

    def _hand_body(self, number: int) -> RenderableType:
        view, result = self.finished_view(number)
        _, lines = result_words(view, result, self.seating)
        parts: list[RenderableType] = [Text("\n".join(lines))]
        if view.tricks:
            last = view.tricks[-1]
            row = Text(f"\nLast trick, won by {self.seating.who(last.winner)}: ", style="dim")
            for seat, face in trick_faces(last, self.seat):
                row.append(f"{self.seating.who(seat)} ", style="dim")
                row.append(face + " ", style="bold green" if seat == last.winner else "bold")
            parts.append(row)
        return Group(*parts)

    def _game_over(self, number: int, body: RenderableType) -> None:
        outcome = self.game.outcome()
        assert outcome is not None
        sides = self.seating.side_names()
        mine = outcome.winner == self.layout.side_of[self.seat]
        won = winner_words(self.rules, outcome.winner, sides)
        title = f"{won[:1].upper()}{won[1:]}{' — well played!' if mine else ''}"
        score = Text(game_over_line(self.rules, outcome, sides) + "\n", style="bold")
        self._note(f"Game over: {title}", style="bold")
        path = self.current_save_path()
        saved = self.save_record(path) if path is not None else ""
        default = path or f"texas42-{datetime.datetime.now():%Y%m%d-%H%M%S}.json"
        self.push_screen(
            GameOverPanel(title, Group(score, body), number, default, saved), self._panel_closed
        )

    def _panel_closed(self, _: None) -> None:
        self.call_after_refresh(self._advance)

    # -- the player's actions ---------------------------------------------------------------------

    def _player_act(self, action: Action) -> None:
        view = self.player_view()
        if view.turn is None or view.turn not in self.mine or len(self.screen_stack) > 1:
            self._say(self._not_your_turn(view))
            return
        if action not in view.legal:
            self._say(f"{action.notation} is not allowed: {self._why(action)}.")
            return
        self._act(view.turn, action)

    def _not_your_turn(self, view: View) -> str:
        if view.turn is None:
            return "The hand is over."
        verb = _VERBS[Phase(view.phase)]
        return f"It is not your turn: {self.seating.who(view.turn)} is to {verb}."

    def _why(self, action: Action) -> str:
        """Why the player may not take ``action`` now; the reason names only the player's own
        tiles and the tiles on the table."""
        reason = self.game.why_illegal(action) or "it is not legal now"
        own = self.layout.seat_names[self.acting_seat()] + " "
        return "you " + reason[len(own) :] if reason.startswith(own) else reason

    def choose_tile(self, index: int, seat: int | None = None) -> None:
        """Play (or, with the widow taken, lay down) the tile in place ``index`` of the hand as
        shown: ``seat``'s hand, else the hand to act; or say why it can't be."""
        acting = self.acting_seat()
        seat = acting if seat is None else seat
        view = self.game.view(seat)
        tiles = hand_tiles(view)
        if not 0 <= index < len(tiles):
            self._say(f"You hold {plural(len(tiles), 'tile')}: keys 1 to {len(tiles)}.")
            return
        tile = tiles[index]
        if view.turn is not None and view.turn in self.mine and seat != view.turn:
            hand = self.layout.seat_names[view.turn]
            self._say(f"{tile_name(tile)}: it is your {hand} hand's turn, not this one's.")
        elif view.turn != seat:
            self._say(f"{tile_name(tile)}: {self._not_your_turn(view)}")
        elif view.phase == Phase.DISCARD:
            self._player_act(Discard(tile))
        elif view.phase != Phase.PLAY:
            self._say(f"{tile_name(tile)}: tiles are played once the bidding is over.")
        else:
            self._player_act(Play(tile))

    def action_digit(self, number: int) -> None:
        view = self.player_view()
        if view.phase == Phase.DECLARE and view.turn in self.mine:
            if number > 6:
                self._say("The suits are 0 (blanks) to 6 (sixes).")
            else:
                self._player_act(Declare(str(number)))
        elif number == 0:
            last = self.layout.hand_size + self.layout.widow
            self._say(
                f"0 names blanks as trump when you name the contract; tiles are keys 1 to {last}."
            )
        else:
            self.choose_tile(number - 1)

    def action_pass_turn(self) -> None:
        self._player_act(Pass())

    def on_hand_tile_chosen(self, message: HandTile.Chosen) -> None:
        self.choose_tile(message.index, message.seat)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        button = event.button
        if isinstance(button, (CallButton, HintButton)):
            self._player_act(button.call)

    def action_hint(self) -> None:
        view = self.player_view()
        if view.turn not in self.mine or not view.legal:
            self._say("A hint is for your turn.")
            return
        token = self._token()
        if self._hints_token == token:
            return
        self._hints_token, self._hints = token, None
        self._show_hints(view)
        seed = (self.seed or 0) + view.hand_number * 1000 + self.game.hand.action_count
        self._run(
            partial(_find_hints, view, self.hint_samples, seed),
            "hint",
            partial(self._hints_found, token),
            partial(self._hints_failed, token),
        )

    def _hints_found(self, token: tuple[int, int, int], found: Advice) -> None:
        if token == self._token():
            self._hints = found
            self._show_hints(self.player_view())

    def _hints_failed(self, token: tuple[int, int, int], error: BaseException) -> None:
        if token == self._token():
            self._hints_token = None
            self._show_hints(self.player_view())
            self._say(f"No hint this time: {error}")

    def action_close_hints(self) -> None:
        self._hints_token = None
        self._show_hints(self.player_view())

    def action_why(self) -> None:
        """The bots' reasons: in the hand being played what every seat saw (`Reason.public`),
        and in the last finished hand the whole words of each seat whose tiles were all shown
        (`reason_words`)."""
        game = self.game
        parts: list[str] = []
        index = len(game.hands) - 1
        finished = len(game.results) == len(game.hands)
        current = [] if finished else self._reasons.said(index)
        if current:
            parts.append(why_heading(game.hand_number, finished=False))
            parts += [f"  {why_line(self.seating.who(s), r.public)}" for s, r in current]
        last = len(game.results) - 1
        if self._reasons.said(last):
            if parts:
                parts.append("")
            parts.append(why_heading(game.first_hand + last))
            hand = game.hands[last]
            parts += [
                f"  {why_line(self.seating.who(s), reason_words(r, hand, s, self.mine))}"
                for s, r in self._reasons.said(last)
            ]
        body = Text("\n".join(parts) if parts else NO_BOT_REASONS)
        self.push_screen(Panel("Why the bots chose", body, close_key="w"), self._panel_closed)

    def action_last_trick(self) -> None:
        view = self.player_view()
        if view.tricks:
            body: RenderableType = trick_text(view.tricks[-1], len(view.tricks), self.seating)
        elif (number := self.last_finished()) is not None and self.finished_view(number)[0].tricks:
            tricks = self.finished_view(number)[0].tricks
            body = Text(f"From hand {number}:\n").append(
                trick_text(tricks[-1], len(tricks), self.seating)
            )
        else:
            body = Text("No trick has been played yet.")
        self.push_screen(Panel("Last trick", body, close_key="l"), self._panel_closed)

    def action_claim(self) -> None:
        """Lay the hand down and claim the rest (`Game.claim`): the first c asks, the second,
        with nothing moved meanwhile, claims; the verdict goes to the log and under the felt."""
        view = self.player_view()
        seat = view.turn
        if seat is None or seat not in self.mine or len(self.screen_stack) > 1:
            self._say(self._not_your_turn(view))
            return
        reason = self.game.why_claim_illegal(seat)
        if reason is not None:
            self._say(f"You may not lay down now: {reason}.")
            return
        token = self._token()
        if self._claim_armed != token:
            self._claim_armed = token
            self._say("Press c again to lay your hand down and claim the rest.")
            return
        self._claim_armed = None
        game = self.game
        hand, number = game.hand, game.hand_number
        claim = game.claim(seat)
        self._note(claim_line(self.seating.who(seat), claim.tiles), style="bold")
        verdict = claim_outcome(hand.view(seat), claim, self.seating.labels())
        self._note(verdict, style="bold")
        self._say(verdict)
        if hand.result is not None:
            self._hand_over(hand.result, number)
        self._refresh()
        self._advance()

    def action_help(self) -> None:
        keys = Table(box=None, show_header=False)
        keys.add_column(style="bold cyan")
        keys.add_column()
        last = self.layout.hand_size + self.layout.widow
        keys.add_row(f"1 to {last}", f"play the 1st ... {_ordinal(last)} tile of your hand")
        if self.layout.widow:
            keys.add_row(f"1 to {last}", "lay that tile down, once you have taken the widow")
        for key, words in KEYS:
            keys.add_row(key, words)
        self.push_screen(Panel("Keys", keys, close_key="question_mark"), self._panel_closed)

    def action_review(self) -> None:
        number = self.last_finished()
        if number is None:
            self._say("No hand has finished yet: the review comes at the end of a hand.")
            return
        view, result = self.finished_view(number)
        title = f"Hand {number}: {result_words(view, result, self.seating)[0]}"
        self.push_screen(HandPanel(title, self._hand_body(number), number), self._panel_closed)
        self.call_after_refresh(self.start_review, number)

    def start_review(self, number: int) -> None:
        """Review a finished hand double dummy (in a worker) and show it on its panel."""
        if number in self._reviews:
            self._show_review(number)
            return
        if number in self._reviewing:
            return
        self._reviewing.add(number)
        self._show_review(number, Text("Reviewing the hand…", style="dim"))
        hand = self.game.hands[number - self.game.first_hand].copy()
        epoch = self.epoch
        self._run(
            partial(_review, hand, number, self.review_samples),
            "review",
            partial(self._reviewed, epoch, number),
            partial(self._review_failed, epoch, number),
        )

    def _reviewed(self, epoch: int, number: int, review: HandReview) -> None:
        if epoch != self.epoch:
            return
        self._reviewing.discard(number)
        text = Text("Review (double dummy)\n", style="bold")
        lines = review_lines(review, self.finished_view(number)[0], self.mine)
        text.append("\n".join(lines), style="")
        self._reviews[number] = text
        self._show_review(number)

    def _review_failed(self, epoch: int, number: int, error: BaseException) -> None:
        if epoch == self.epoch:
            self._reviewing.discard(number)
            self._show_review(number, Text(f"The review failed: {error}", style="bold red"))

    def _show_review(self, number: int, text: Text | None = None) -> None:
        screen = self.screen
        if isinstance(screen, HandPanel) and screen.number == number:
            screen.show_review(text if text is not None else self._reviews[number])

    # -- the end ----------------------------------------------------------------------------------

    def save_record(self, path: str | None) -> str:
        """Write the game record to ``path``; the words say where it went or why it did not."""
        if not path:
            return "Type a file name for the record first."
        problem = save_problem(path)
        if problem is not None:
            return f"Not saved: {problem}."
        try:
            record = record_from_game(self.game, self.players, self._reasons.by_hand())
            write_record(path, record.to_json())
        except OSError as exc:
            return f"Not saved: {exc.strerror or exc}."
        return f"Game saved to {path}."

    def rematch(self) -> None:
        """A new game at the same table; the old record stays where it was saved."""
        self._note("Rematch!", style="bold")
        self._new_game()
        self._hand_begins()
        screen = self.screen
        if isinstance(screen, GameOverPanel):
            screen.dismiss()
        self._refresh()

    def action_leave(self) -> None:
        if self.game.is_over() or self._quit_armed:
            self.leave()
            return
        self._quit_armed = True
        path = self.current_save_path()
        saved = f"; the record is saved to {path}" if path else ""
        words = f"Press q again to leave the game{saved}."
        self._say(words)
        if len(self.screen_stack) > 1:
            self.notify(words)

    async def action_quit(self) -> None:
        self.leave()

    def close_bots(self) -> None:
        """Quit the outside engines of the game that is ending (each is a process)."""
        for bot in self.bots.values():
            close_bot(bot)

    def leave(self) -> None:
        """Save the record if asked to, and close the app; a failed save keeps the record."""
        path = self.current_save_path()
        code = 0
        if path is not None:
            text = record_from_game(self.game, self.players).to_json()
            try:
                write_record(path, text)
                self.farewell = [f"Game saved to {path}."]
            except OSError as exc:
                self.farewell = [
                    f"Could not save the game to {path}: {exc.strerror or exc}.",
                    "Here is the record, so that nothing is lost:",
                    text,
                ]
                code = SAVE_FAILED
        self.exit(code, return_code=code)

    # -- for tests and screenshots ----------------------------------------------------------------

    def screen_text(self) -> str:
        """The screen as plain text, as the terminal shows it now."""
        width, height = self.size
        console = Console(
            width=width,
            height=height,
            file=io.StringIO(),
            record=True,
            force_terminal=True,
            color_system="truecolor",
            legacy_windows=False,
        )
        update = self.screen._compositor.render_update(
            full=True, screen_stack=self._background_screens
        )
        console.print(update)
        return console.export_text()


def run_tui(
    rules: Rules,
    seed: int | None,
    seat: int,
    bots: str,
    name: str,
    save: str | None,
    *,
    bot_delay: float = BOT_DELAY,
) -> int:
    """Play at the full-screen table (``texas42 tui``); the exit status is returned.

    A ``save`` path that cannot be written is refused before the game starts; when the record
    cannot be written at the end, it is printed instead. ``bots`` is a level or bot spec for
    `texas42.services.protocol.make_bot`, so ``engine:CMD`` too (a bad one raises `Texas42Error`
    before the screen opens).
    """
    console = Console(highlight=False)
    if save is not None:
        problem = save_problem(save)
        if problem is not None:
            console.print(f"--save: {problem}", markup=False)
            return BAD_SAVE_PATH
    app = TableApp(rules, seed, seat, bots=bots, name=name, save=save, bot_delay=bot_delay)
    try:
        app.run()
    finally:
        app.close_bots()
    for line in app.farewell:
        console.print(line, markup=False, soft_wrap=True)
    return app.return_code or 0

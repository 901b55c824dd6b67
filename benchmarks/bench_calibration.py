"""How well a bidder knows its own chances: predicted make chance against what happened.

    .venv/bin/python benchmarks/bench_calibration.py [--bot SPEC] [--games N] [--seed S]
        [--workers K] [--rules RULES] [--plot FILE.png]
    .venv/bin/python benchmarks/bench_calibration.py --records DIR [--records DIR ...]
        [--bot SPEC] [--pairs FIRST-LAST] [--restate] [--plot FILE.png]

Plays ``--games`` fresh whole games (default 20) with ``--bot`` (default ``expert``) in every
seat, on seeds from ``--seed`` on (default 10,000,000, far from any seed the bidder's constants
were fitted on), and for every hand with a winning bidder records the chance the bidder gave its
winning call at the moment it made it (the bot's own `make_chance`, as `PimcBot.make_chance`
answers it) and whether the bid was made. Bots without ``make_chance`` are refused.

Prints a table per decile of predicted chance: its range, the hands in it, their mean predicted
chance, the observed make rate with its 95% Wilson interval (`texas42.services.arena.stats.wilson`)
and the gap (observed minus predicted, in percentage points), then the same for all the bids,
for the openers (the bid standing was none or partner's) and for the overcalls (an opponent's);
then the Brier score of all the predictions, next to that of always predicting the observed
overall rate. ``--plot`` draws the reliability chart (matplotlib, the ``plot`` extra).
``--workers`` plays games in a process pool; the numbers are the same for any number of workers.

``--records`` plays nothing: it reads the game records in the folders named (an arena's
``--records`` folder: thousands of fresh hands that a long strength run has already paid for)
and takes each winning bid's chance from its reason, where the bot said it
(`texas42.core.words.bid_chance_said`: the chance "if it stands" where the reason gives one, else
the one the call was chosen on; a forced bid states none and is left out). ``--restate`` puts
in, for each point bid, the chance the stands calibration in the code now gives it
(`texas42.players.pimc.stands_chance`, from the chance the call was chosen on and the auction),
for records made before it or under other constants. ``--pairs 298-`` reads only those game
pairs of each run (the arena's record names count them from 1): a fit made on a run's first
pairs is checked on the pairs played after it. It prints the
same table for each player spec found (``--bot`` keeps one), then what the calls came to: for
every call whose reason states the chance of the best bid, bid or pass, the marks the caller's
side won or lost on the hand (the other side's marks count against it), by five points of
stated chance, openings and calls over an opponent apart. Where one bot passes and another
bids at the same stated chance, the two columns say which was worth more there: what a pass is
worth, learned from the outcomes rather than assumed.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator, Sequence
from multiprocessing import Pool
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).parent))

from bench_engine import machine
from texas42 import Game, Rules
from texas42.core.actions import Bid, Pass
from texas42.core.errors import Texas42Error
from texas42.core.hand import HandResult
from texas42.core.layout import layout_of
from texas42.core.progress import Phase
from texas42.core.record import HandRecord, Record, action_seats
from texas42.core.words import BidChanceSaid, bid_chance_said
from texas42.players import make_bot
from texas42.players.pimc import calibrated_table, stands_chance
from texas42.services.arena.ledger import checked_records
from texas42.services.arena.report import record_pair
from texas42.services.arena.stats import Proportion, mean_ci, wilson

BINS = 10


class Outcome(NamedTuple):
    """One hand with a winning bid whose chance was stated."""

    chance: float
    """The chance the bidder predicted for its bid should it stand."""
    made: bool
    over: bool
    """Whether the bid was over an opponent's (an overcall) rather than an opening or over
    partner."""
    simulated: float | None
    """The chance the call was chosen on (`PimcBot.call_value`), where its reason said it; for
    a bid of a four-seat, 42-point table (what `texas42.players.pimc.STANDS_CALIBRATION`
    applies to); None when the games were played here (``make_chance`` gives the one chance)."""
    points: int
    """The bid's points (0 for a mark bid or a special)."""
    calls_before: int
    """The calls of the auction before it."""
    pair: int | None = None
    """The arena's game pair the record belongs to (`record_pair`), None for other records."""

    def restated(self) -> Outcome:
        """The outcome with the chance the stands calibration in the code gives it now (for
        records made before it, or under other constants): the function the bot calls."""
        if not self.points or self.simulated is None:
            return self
        chance = stands_chance(self.simulated, self.over, self.calls_before)
        return self._replace(chance=chance)


def play_game(bot: str, rules: Rules, seed: int) -> list[Outcome]:
    """Every hand of one game of ``bot`` in all seats: the winning call's chance and the make."""
    players = [make_bot(bot, seed * rules.seats + seat) for seat in range(rules.seats)]
    game = Game(rules, seed)
    outcomes: list[Outcome] = []
    called: dict[int, Outcome] = {}
    while not game.is_over():
        seat = game.seat_to_act()
        assert seat is not None
        view = game.view(seat)
        player = players[seat]
        action = player.choose(view)
        # a forced bid is no prediction (records state none for it either)
        if view.phase == Phase.AUCTION and isinstance(action, Bid) and Pass() in view.legal:
            chance = player.make_chance(view, action)  # type: ignore[attr-defined]
            over = view.bidder is not None and not view.layout.same_side(view.bidder, seat)
            if chance is not None:
                called[seat] = Outcome(
                    chance, False, over, None, point_bid(action), len(view.calls)
                )
        hands = len(game.results)
        game.apply(action)
        if len(game.results) > hands:  # the hand just ended
            result = game.results[-1]
            bid = called.get(result.bidder) if result.bidder is not None else None
            if bid is not None and result.made is not None:
                outcomes.append(bid._replace(made=result.made))
            called = {}
    return outcomes


def _play(job: tuple[str, str, int]) -> list[Outcome]:
    bot, rules, seed = job
    return play_game(bot, Rules.parse(rules), seed)


Call = tuple[float, bool, bool, int]
"""One call with a stated chance: the chance of the best bid, whether it was a bid (else a pass),
whether an opponent held the bid, and the marks the caller's side netted on the hand."""


def point_bid(bid: Bid) -> int:
    """A point bid's points; 0 for a mark bid or a special."""
    return bid.points if bid.is_point_bid else 0


def pair_window(text: str) -> range:
    """``--pairs``: ``FIRST-LAST``, ``FIRST-`` or ``-LAST``, game pairs counted from 1 as the
    arena names its records, both ends included.

    >>> pair_window("298-700"), pair_window("-297"), pair_window("298-")[:1]
    (range(298, 701), range(1, 298), range(298, 299))
    """
    first, dash, last = text.strip().partition("-")
    try:
        if not dash or not (first or last):
            raise ValueError
        window = range(int(first or 1), int(last) + 1 if last else sys.maxsize)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: say FIRST-LAST, FIRST- or -LAST (pairs from 1)"
        ) from None
    if window.start < 1 or not window:
        raise argparse.ArgumentTypeError(f"{text!r}: no pairs (they count from 1)")
    return window


def read_records(
    folders: Sequence[Path], pairs: range | None = None
) -> tuple[dict[str, list[Outcome]], dict[str, list[Call]]]:
    """From the records in ``folders`` (of ``pairs`` only, if given: `checked_records`), by the
    player spec that made them: each winning bid that states its chance with whether it was made
    and whether it was an overcall (`Outcome`), and each call that states the best bid's chance
    (`Call`)."""
    outcomes: dict[str, list[Outcome]] = {}
    calls: dict[str, list[Call]] = {}
    for path, record, report in checked_records(folders, pairs):
        pair = record_pair(path.name)
        calibrated = calibrated_table(layout_of(record.rules))
        for hand, result in zip(record.hands, report.results):
            if result.made is None or result.bidder is None or not hand.reasons:
                continue
            for player, call, over_partner, stated in _stated_calls(record, hand, result):
                if not over_partner:
                    calls.setdefault(player, []).append(call)
                if stated is not None:
                    said, calls_before, bid = stated
                    outcomes.setdefault(player, []).append(
                        Outcome(
                            said.predicted,
                            result.made,
                            call[2],
                            said.chance if calibrated else None,
                            point_bid(bid),
                            calls_before,
                            pair,
                        )
                    )
    return outcomes, calls


def _stated_calls(
    record: Record, hand: HandRecord, result: HandResult
) -> Iterator[tuple[str, Call, bool, tuple[BidChanceSaid, int, Bid] | None]]:
    """A played hand's calls that state the best bid's chance, each with its player, whether
    partner held the bid (the calls table leaves those out: over partner the bot always passes;
    a winning bid there counts as an opener) and, for the bid that won the auction, its chances
    as said, the calls before it and the bid."""
    layout = layout_of(record.rules)
    seats = action_seats(record.rules, hand)
    last = max(k for k, call in enumerate(hand.auction) if isinstance(call, Bid))
    standing: int | None = None
    for k, call in enumerate(hand.auction):
        seat = seats[k]
        over = standing is not None and not layout.same_side(standing, seat)
        reason = hand.reasons[k]
        said = None if reason is None else bid_chance_said(reason.text)
        if said is not None:
            side = layout.side_of[seat]
            net = result.score[side] - max(x for s, x in enumerate(result.score) if s != side)
            player = record.players[seat] if record.players else "?"
            over_partner = standing is not None and not over
            won = (said, k, call) if k == last and isinstance(call, Bid) else None
            yield player, (said.chance, isinstance(call, Bid), over, net), over_partner, won
        if isinstance(call, Bid):
            standing = seat


def calls_table(calls: Sequence[Call]) -> list[str]:
    """What the calls came to by five points of the best bid's stated chance: the marks the
    caller's side netted after a pass and after a bid, with 95% intervals."""
    lines = [
        "| call | stated chance | passes | marks after a pass | bids | marks after a bid |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for over, label in ((False, "opening"), (True, "over an opponent")):
        for low in range(0, 100, 5):
            row = [c for c in calls if c[2] == over and low <= round(100 * c[0]) < low + 5]
            cells = []
            for bid in (False, True):
                nets = [float(c[3]) for c in row if c[1] == bid]
                if len(nets) < 10:
                    cells += [str(len(nets)), ""]
                    continue
                mean = mean_ci(nets)
                cells += [str(len(nets)), f"{mean.mean:+.2f} ({mean.low:+.2f} to {mean.high:+.2f})"]
            if sum(int(cells[i]) for i in (0, 2)) >= 10:
                lines.append(f"| {label} | {low}-{low + 5}% | " + " | ".join(cells) + " |")
    return lines


def deciles(outcomes: Sequence[Outcome]) -> list[tuple[int, list[Outcome]]]:
    """The outcomes by decile of predicted chance (the last decile takes 1.0), empty ones left
    out."""
    bins: list[list[Outcome]] = [[] for _ in range(BINS)]
    for outcome in outcomes:
        bins[min(BINS - 1, int(outcome.chance * BINS))].append(outcome)
    return [(i, b) for i, b in enumerate(bins) if b]


def brier(outcomes: Sequence[Outcome]) -> float:
    return sum((o.chance - o.made) ** 2 for o in outcomes) / len(outcomes)


def rate(outcomes: Sequence[Outcome]) -> Proportion:
    return wilson(sum(o.made for o in outcomes), len(outcomes))


def table(outcomes: Sequence[Outcome]) -> list[str]:
    lines = [
        "| predicted | hands | mean predicted | made | 95% interval | gap (points) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    rows = [(f"{i / BINS:.1f}-{(i + 1) / BINS:.1f}", group) for i, group in deciles(outcomes)]
    rows.append(("all", list(outcomes)))
    # the calibration was fitted on openers: overcalls are the bids it knows least
    rows.append(("openers", [o for o in outcomes if not o.over]))
    rows.append(("overcalls", [o for o in outcomes if o.over]))
    for label, group in rows:
        if not group:
            continue
        mean = sum(o.chance for o in group) / len(group)
        made = rate(group)
        lines.append(
            f"| {label} | {len(group)} | {mean:.1%} "
            f"| {made.share:.1%} | {made.low:.1%} to {made.high:.1%} "
            f"| {100 * (made.share - mean):+.1f} |"
        )
    return lines


def plot(outcomes: Sequence[Outcome], title: str, path: Path) -> None:
    """The reliability chart: observed make rate against mean predicted chance per decile, with
    the Wilson intervals and the diagonal a calibrated bidder would follow."""
    from texas42.services.arena.plot import import_pyplot

    plt = import_pyplot()
    xs, ys, low, high, sizes = [], [], [], [], []
    for _, group in deciles(outcomes):
        made = rate(group)
        xs.append(sum(o.chance for o in group) / len(group))
        ys.append(made.share)
        low.append(made.share - made.low)
        high.append(made.high - made.share)
        sizes.append(len(group))
    figure, axes = plt.subplots(figsize=(6, 6))
    axes.plot([0, 1], [0, 1], color="grey", linestyle="--", linewidth=1, label="calibrated")
    axes.errorbar(xs, ys, yerr=[low, high], fmt="o", capsize=3, label="observed, 95% interval")
    for x, y, n in zip(xs, ys, sizes):
        axes.annotate(str(n), (x, y), textcoords="offset points", xytext=(6, -10), fontsize=8)
    axes.set_xlim(0, 1)
    axes.set_ylim(0, 1)
    axes.set_xlabel("predicted chance of making the bid (decile mean)")
    axes.set_ylabel("bids made")
    axes.set_title(title, fontsize=10)
    axes.legend(loc="upper left")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--bot", help="the bidder measured (default expert; with --records, every one found)"
    )
    parser.add_argument("--games", type=int, default=20, help="whole games to play (default 20)")
    parser.add_argument(
        "--seed", type=int, default=10_000_000, help="seed of the first game (default 10000000)"
    )
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--rules", default="standard", help="rules (default standard)")
    parser.add_argument("--plot", type=Path, help="draw the reliability chart to this PNG")
    parser.add_argument(
        "--records",
        type=Path,
        action="append",
        help="read the bids from the game records in this folder instead of playing (repeatable)",
    )
    parser.add_argument(
        "--pairs",
        type=pair_window,
        help="with --records: only these game pairs of each run (FIRST-LAST, FIRST- or -LAST)",
    )
    parser.add_argument(
        "--restate",
        action="store_true",
        help="with --records: predict each point bid with the stands calibration in the code now",
    )
    args = parser.parse_args(argv)
    for option in ("restate", "pairs"):
        if getattr(args, option) and not args.records:
            parser.error(f"--{option} reads records: give --records DIR")
    if args.records:
        from_records(parser, args)
        return
    args.bot = args.bot or "expert"
    if args.games < 1 or args.workers < 1:
        parser.error("--games and --workers must be positive")
    rules = Rules.parse(args.rules)
    if not callable(getattr(make_bot(args.bot), "make_chance", None)):
        parser.error(f"{args.bot} does not say how likely its bids are (it has no make_chance)")
    print("texas42 bidding calibration")
    for line in machine():
        print(f"  {line}")
    print(f"  command: {' '.join([Path(sys.argv[0]).name, *sys.argv[1:]])}")
    print()
    jobs = [(args.bot, str(rules), args.seed + g) for g in range(args.games)]
    outcomes: list[Outcome] = []
    start = time.perf_counter()
    with Pool(args.workers) as pool:
        for g, found in enumerate(pool.imap(_play, jobs), 1):
            outcomes.extend(found)
            took = time.perf_counter() - start
            print(
                f"\rgame {g}/{args.games}, {len(outcomes)} hands bid, {took:.0f} s",
                end="",
                file=sys.stderr,
                flush=True,
            )
    print(file=sys.stderr)
    took = time.perf_counter() - start
    if not outcomes:
        print("no hand had a winning bidder")
        return
    print(
        f"{args.bot} in every seat, {rules}: {args.games} games from seed {args.seed}, "
        f"{len(outcomes)} hands with a winning bid, {took:.0f} s"
    )
    report(outcomes)
    if args.plot is not None:
        plot(outcomes, f"{args.bot}, {rules}: {len(outcomes)} winning bids", args.plot)
        print(f"chart: {args.plot}")


def report(outcomes: Sequence[Outcome]) -> None:
    """The decile table and the Brier scores."""
    print()
    print("\n".join(table(outcomes)))
    overall = rate(outcomes).share
    base = brier([o._replace(chance=overall) for o in outcomes])
    print()
    print(
        f"Brier score {brier(outcomes):.4f} (always predicting the overall make rate "
        f"{overall:.1%}: {base:.4f}; lower is better)"
    )


def _pairs_text(pairs: range | None) -> str:
    """How the title names ``--pairs``: " of pairs 298 to 700", " of pairs 298 on"."""
    if pairs is None:
        return ""
    if pairs.stop == sys.maxsize:
        return f" of pairs {pairs.start} on"
    return f" of pairs {pairs.start} to {pairs.stop - 1}"


def from_records(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``--records``: the tables from records already played, per player spec."""
    try:
        outcomes, calls = read_records(args.records, args.pairs)
    except Texas42Error as error:
        parser.error(str(error))
    if args.restate:
        outcomes = {bot: [o.restated() for o in found] for bot, found in outcomes.items()}
    bots = sorted(outcomes) if args.bot is None else [args.bot]
    if args.plot is not None and len(bots) != 1:
        parser.error(f"--plot draws one bot's chart: choose one of {', '.join(bots)} with --bot")
    restated = ", point bids restated by the stands calibration now" if args.restate else ""
    window = _pairs_text(args.pairs)
    print(f"texas42 bidding calibration, from records{window}{restated}")
    print(f"  command: {' '.join([Path(sys.argv[0]).name, *sys.argv[1:]])}")
    for bot in bots:
        found = outcomes.get(bot, [])
        print()
        print(f"{bot}: {len(found)} winning bids with a stated chance")
        if not found:
            continue
        report(found)
        print()
        print("\n".join(calls_table(calls.get(bot, []))))
        if args.plot is not None:
            plot(found, f"{bot}: {len(found)} winning bids", args.plot)
            print(f"chart: {args.plot}")


if __name__ == "__main__":
    main()

"""Where the simulation bidder's constants come from: play deals out with ``expert`` bots and fit.

    .venv/bin/python benchmarks/calibrate_bidding.py [--deals N] [--workers W] [--data FILE]
    .venv/bin/python benchmarks/calibrate_bidding.py --fit-only --data FILE
    .venv/bin/python benchmarks/calibrate_bidding.py --records DIR [--records DIR ...]
        [--bot SPEC] [--pairs FIRST-LAST] [--folds K]

Three measurements, each on random deals with seat 0 bidding and leading:

1. **Point bids** (`texas42.players.pimc.CALIBRATION`). For each deal the opener's bidding deals are
   drawn and solved double dummy for its three best trumps, exactly as the bot does; then it bids
   30, names RulesBot's contract, and four ``expert`` bots play all seven tricks (a points game,
   so every trick is played). The fit is a probit, by maximum likelihood, of "took at least
   ``need``" for every ``need`` from 30 to 37 on the mean double-dummy total and RulesBot's
   estimate: ``chance = Phi((a + b * mean + c * estimate - need + 0.5) / sd)``.
2. **Mark bids** (`MARK_CHANCE`). The deals whose double-dummy share of all 42 is 0.4 or more are
   played again as a one-mark contract; a logistic fit of "made" on that share and RulesBot's
   losers (1 to 3; hands with none are rare and kept apart).
3. **Plunges**: deals whose opener holds four doubles or more, plunged, partner naming trump;
   the share made.

A fourth fit plays nothing: ``--records DIR`` (repeatable) reads arena records and fits
`STANDS_CALIBRATION`, a point bid's chance of being made should it stand, on the winning point
bids of ``--bot`` (repeatable; default every ``expert`` spec in the records: ``expert``,
``expert@1`` and ``expert`` with options, `is_expert`) whose reasons state the chance the call
was chosen on (``--pairs 1-297``: only those game pairs of each run, so that the pairs after
them stay fresh to check the fit on): a logistic regression of "made" on
`stands_features` (the very function the bot calls). It prints the constants and the gap per
decile, in the records fitted, and how often the mark bids were made at each stated chance
(``no_loser_marks`` is fitted on those stated 80% by the bots that took it as 0.8). ``--folds K``
checks the fit on pairs it did not see: each game pair's bids are predicted by the fit on the
pairs of the other folds (pair ``p`` is in fold ``p % K``), and the gap per decile is printed.

Prints the fitted constants next to the ones in the code. ``--data`` keeps the played deals (one
JSON line each), so a fit can be redone without playing again. About 1,000 deals took 12 minutes
on two cores when ``expert`` drew 24 play deals (it now draws 48).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Sequence
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from bench_calibration import BINS, Outcome, brier, deciles, pair_window, read_records
from texas42 import Hand, Rules
from texas42.core.actions import Bid, Declare, Pass
from texas42.core.contracts import tables_for
from texas42.core.errors import Texas42Error
from texas42.core.tiles import DOUBLES
from texas42.players import parse_spec
from texas42.players.pimc import (
    CALIBRATION,
    MARK_CHANCE,
    STANDS_CALIBRATION,
    PimcBot,
    PimcSettings,
    _opening_view,
    _trial_position,
    stands_features,
)
from texas42.players.rules_bot import best_contract, candidate_contracts, estimate, worth_in
from texas42.search.sampler import DealSampler

POINTS = Rules.parse("standard,game=points")
MARKS = Rules.parse("standard")
PLUNGE = Rules.parse("standard,plunge=true")
NEEDS = range(30, 38)
FEWEST = 30
"""Deals a fit needs before it is printed (fewer leave the fits singular or meaningless)."""


def _play_out(hand: Hand, seed: int) -> Hand:
    bots = [PimcBot(PimcSettings.expert(), seed=seed * 4 + s) for s in range(4)]
    while hand.result is None:
        seat = hand.turn
        hand.apply(bots[seat].choose(hand.view(seat)))
    return hand


def point_deal(i: int) -> dict[str, Any]:
    """One deal for the point-bid and mark-bid fits."""
    rng = random.Random(f"calibrate:{i}")
    hand = Hand.random(POINTS, 3, rng)  # shaker 3: seat 0 calls first
    deal = hand.deal
    bot = PimcBot(PimcSettings.expert(), seed=i)
    hand.apply(Bid("30"))
    view = hand.view(0)
    worlds = DealSampler(_opening_view(view)).samples(48, random.Random(f"worlds:{i}"))
    contract, _ = best_contract(view.hand, POINTS)
    totals = [bot.solver.value(_trial_position(view, w.hands, contract)) for w in worlds]
    for _ in range(3):
        hand.apply(Pass())
    hand.apply(Declare(contract))
    taken = _play_out(hand, i).summary().points[0]
    row: dict[str, Any] = {
        "deal": i,
        "contract": str(contract),
        "mean": sum(totals) / len(totals),
        "share42": sum(v == 42 for v in totals) / len(totals),
        "estimate": worth_in(view.hand, POINTS, contract),
        "taken": taken,
        "candidates": [str(c) for c in candidate_contracts(POINTS, view.hand)],
    }
    if row["share42"] >= 0.4:
        marks = Hand(MARKS, 3, deal)
        marks.apply(Bid("1m"))
        for _ in range(3):
            marks.apply(Pass())
        marks.apply(Declare(contract))
        value = estimate(deal[0], tables_for(contract, MARKS))
        row["mark_made"] = bool(_play_out(marks, i).summary().made)
        row["losers"] = value.losers
        row["sure"] = value.sure
    return row


def plunge_deal(i: int) -> dict[str, Any]:
    rng = random.Random(f"plunge:{i}")
    while True:
        hand = Hand.random(PLUNGE, 3, rng)
        if (hand.deal[0] & DOUBLES).bit_count() >= 4:
            break
    hand.apply(Bid("plunge"))
    for _ in range(3):
        hand.apply(Pass())
    made = bool(_play_out(hand, i).summary().made)
    return {"plunge": i, "doubles": (hand.deal[0] & DOUBLES).bit_count(), "made": made}


def _normal_cdf(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.vectorize(math.erf)(z / math.sqrt(2.0)))


def fit_probit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Maximum likelihood probit by Fisher scoring."""
    beta = np.zeros(x.shape[1])
    for _ in range(100):
        z = x @ beta
        p = np.clip(_normal_cdf(z), 1e-9, 1 - 1e-9)
        density = np.exp(-z * z / 2) / math.sqrt(2 * math.pi)
        w = density**2 / (p * (1 - p))
        step = np.linalg.solve(x.T @ (x * w[:, None]), x.T @ ((y - p) * density / (p * (1 - p))))
        beta += step
        if np.max(np.abs(step)) < 1e-10:
            break
    return beta


def fit_logistic(x: np.ndarray, y: np.ndarray, ridge: float = 0.0) -> np.ndarray:
    """Logistic regression by Newton's method: maximum likelihood, less ``ridge`` times half
    the sum of the squared weights but the first (the constant's)."""
    beta = np.zeros(x.shape[1])
    penalty = np.diag([0.0] + [ridge] * (x.shape[1] - 1))
    for _ in range(100):
        p = 1 / (1 + np.exp(-(x @ beta)))
        w = p * (1 - p)
        step = np.linalg.solve(x.T @ (x * w[:, None]) + penalty, x.T @ (y - p) - penalty @ beta)
        beta += step
        if np.max(np.abs(step)) < 1e-10:
            break
    return beta


def fit(rows: list[dict[str, Any]]) -> None:
    points = [r for r in rows if "deal" in r]
    if len(points) < FEWEST:
        print(f"point bids: {len(points)} deals, too few to fit (at least {FEWEST})")
    else:
        x, y = [], []
        for r in points:
            for need in NEEDS:
                x.append([1.0, r["mean"], r["estimate"], need - 0.5])
                y.append(float(r["taken"] >= need))
        beta = fit_probit(np.array(x), np.array(y))
        sd = -1 / beta[3]
        a, b, c = beta[0] * sd, beta[1] * sd, beta[2] * sd
        print(f"point bids, {len(points)} deals: a={a:.2f} b={b:.3f} c={c:.3f} sd={sd:.2f}")
        print(
            f"  in the code: a={CALIBRATION[0]} b={CALIBRATION[1]} c={CALIBRATION[2]} "
            f"sd={CALIBRATION[3]}"
        )
    marks = [r for r in points if "mark_made" in r]
    with_losers = [r for r in marks if r["losers"] >= 1 and not r["sure"]]
    if len(with_losers) < FEWEST:
        print(f"mark bids: {len(with_losers)} deals with losers, too few to fit")
    else:
        x = np.array([[1.0, r["share42"], min(r["losers"], 3)] for r in with_losers])
        y = np.array([float(r["mark_made"]) for r in with_losers])
        beta = fit_logistic(x, y)
        print(
            f"mark bids, {len(with_losers)} deals with losers: a={beta[0]:.3f} "
            f"b={beta[1]:.3f} c={beta[2]:.3f}; in the code: {MARK_CHANCE}"
        )
        clean = [r for r in marks if r["losers"] == 0 or r["sure"]]
        made = sum(r["mark_made"] for r in clean)
        print(f"  no loser or sure: {made} of {len(clean)} made")
        for low in (0.4, 0.6, 0.8):
            band = [r for r in marks if low <= r["share42"] < low + 0.2]
            if band:
                share = sum(r["mark_made"] for r in band) / len(band)
                print(f"  double-dummy share {low:.1f}-{low + 0.2:.1f}: {share:.0%} of {len(band)}")
    plunges = [r for r in rows if "plunge" in r]
    if plunges:
        made = sum(r["made"] for r in plunges)
        print(f"plunges: {made} of {len(plunges)} made ({made / len(plunges):.0%})")


def stands_matrix(bids: Sequence[Outcome]) -> tuple[np.ndarray, np.ndarray]:
    """`stands_features` of each bid (which must state the chance it was chosen on) and
    whether it was made."""
    rows = []
    for bid in bids:
        if bid.simulated is None:
            raise ValueError("a bid without the chance it was chosen on")
        rows.append(stands_features(bid.simulated, bid.over, bid.calls_before))
    return np.array(rows), np.array([float(bid.made) for bid in bids])


STANDS_RIDGE = 3.0
"""The stands fit's ridge (`fit_logistic`): the weights beyond the knees rest on the few bids
above them and swing with the pairs fitted. On the 8,521 bids of the run of 2026-12-07, with
each tenth of the pairs left out in turn, ridges of 3 and 10 predicted alike (Brier 0.21864),
but on four older runs against ``expert@1`` that the fit never saw, a ridge of 10 left the
90-100% decile 5.1 and 5.6 points low (the expert family's bids and ``expert@1``'s) and 3 left
it 1.7 and 1.4. (On the one-knee fit of 3,590 bids, 10 had beaten none: Brier 0.21645 against
0.21652.)"""


def fit_stands_weights(bids: Sequence[Outcome]) -> np.ndarray:
    """The logistic weights of `stands_features` that best predict which ``bids`` were made."""
    return fit_logistic(*stands_matrix(bids), ridge=STANDS_RIDGE)


def is_expert(spec: str) -> bool:
    """``expert``, ``expert@1`` or ``expert`` with options, as a record names its players: the
    stands calibration is fitted on their bids by default (those whose reasons state the
    simulation's chance; an expert calling by RulesBot's rules states none)."""
    try:
        return spec.strip() == "expert@1" or parse_spec(spec)[0] == "expert"
    except Texas42Error:  # a player's name, or an engine's command, that is no bot spec
        return False


def held_out_chances(bids: Sequence[Outcome], folds: int) -> np.ndarray:
    """Each bid's chance if it stands from the stands fit on the other game pairs: the pairs fall
    into ``folds`` folds by their number (pair ``p`` in fold ``p % folds``), and each fold is
    predicted by the fit on the rest. Whole pairs are left out, since a pair plays each deal twice
    and the hands of one game share its score: bids apart are not independent."""
    if any(bid.pair is None for bid in bids):
        raise ValueError("--folds leaves out game pairs: only the arena's records name theirs")
    x, y = stands_matrix(bids)
    fold = np.array([bid.pair for bid in bids]) % folds
    chances = np.zeros(len(bids))
    for k in range(folds):
        out = fold == k
        if not out.any() or out.all():
            raise ValueError(f"--folds {folds}: fold {k} has no bids, or every bid")
        weights = fit_logistic(x[~out], y[~out], ridge=STANDS_RIDGE)
        chances[out] = 1 / (1 + np.exp(-(x[out] @ weights)))
    return chances


def print_deciles(bids: Sequence[Outcome]) -> None:
    """The bids by decile of their chance (`deciles`): how many, the simulation's and the stated
    chance, the share made and the gap (made minus stated, in points)."""
    print("  decile  bids  simulated  stated  made    gap")
    for low, group in deciles(bids):
        simulated = float(np.mean([o.simulated for o in group]))
        stated = float(np.mean([o.chance for o in group]))
        share = float(np.mean([o.made for o in group]))
        print(
            f"  {low / BINS:.1f}  {len(group):6d}  {simulated:8.1%}  "
            f"{stated:6.1%}  {share:5.1%}  {100 * (share - stated):+5.1f}"
        )


def _stating(bids: Sequence[Outcome], chances: np.ndarray) -> list[Outcome]:
    """The bids, each stating its chance from ``chances`` instead."""
    return [bid._replace(chance=float(chance)) for bid, chance in zip(bids, chances)]


def fold_count(text: str) -> int:
    """``--folds``: a whole number of folds, 2 or more."""
    try:
        folds = int(text)
    except ValueError:
        folds = 0
    if folds < 2:
        raise argparse.ArgumentTypeError(f"{text!r}: say how many folds, 2 or more")
    return folds


def fit_stands(
    folders: list[Path],
    bots: list[str] | None,
    pairs: range | None = None,
    folds: int | None = None,
) -> None:
    """`STANDS_CALIBRATION` from the winning point bids of ``bots`` (every `is_expert` spec if
    None) in the records (of ``pairs`` only, if given), and what the mark bids stated and came
    to; with ``folds``, also the check of the fit on game pairs it did not see
    (`held_out_chances`)."""
    outcomes, _ = read_records(folders, pairs)
    players = bots if bots else sorted(spec for spec in outcomes if is_expert(spec))
    found = [o for bot in players for o in outcomes.get(bot, [])]
    bids = [o for o in found if o.points and o.simulated is not None]
    bot = " and ".join(players) if bots else "expert bots"
    if len(bids) < FEWEST:
        sys.exit(f"{bot}: {len(bids)} winning point bids state their chance, too few to fit")
    beta = fit_stands_weights(bids)
    x, _ = stands_matrix(bids)
    print(f"stands calibration, {len(bids)} winning point bids of {bot}:")
    print(f"  STANDS_CALIBRATION = ({', '.join(f'{w:.3f}' for w in beta)})")
    print(f"  in the code:          ({', '.join(f'{w:.3f}' for w in STANDS_CALIBRATION)})")
    print("  in the bids fitted:")
    print_deciles(_stating(bids, 1 / (1 + np.exp(-(x @ beta)))))
    if folds:
        try:
            held_out = _stating(bids, held_out_chances(bids, folds))
        except ValueError as error:
            sys.exit(str(error))
        print(
            f"  each pair predicted by the fit without its fold ({folds} folds), "
            f"Brier {brier(held_out):.5f}:"
        )
        print_deciles(held_out)
    stated: dict[float, list[bool]] = {}
    for outcome in found:
        if not outcome.points and outcome.simulated is not None:  # at four seats and 42 points
            stated.setdefault(outcome.chance, []).append(outcome.made)
    for chance, made in sorted(stated.items()):
        print(f"  mark bids and specials stated {chance:.0%}: made {sum(made)} of {len(made)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--plunges", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--data", type=Path, help="JSON lines file to keep (or read) the deals")
    parser.add_argument("--fit-only", action="store_true", help="fit the deals in --data")
    parser.add_argument(
        "--records", type=Path, action="append", help="fit the stands calibration on these records"
    )
    parser.add_argument(
        "--bot",
        action="append",
        help="whose bids --records fits (repeatable; default: every expert spec in the records)",
    )
    parser.add_argument(
        "--pairs",
        type=pair_window,
        help="with --records: fit only these game pairs of each run (FIRST-LAST, FIRST-, -LAST)",
    )
    parser.add_argument(
        "--folds",
        type=fold_count,
        metavar="K",
        help="with --records: also predict each bid by the fit on the game pairs of the other "
        "K-1 folds (pair p in fold p %% K), the check on pairs the fit did not see",
    )
    args = parser.parse_args()
    for option in ("bot", "pairs", "folds"):
        if getattr(args, option) and not args.records:
            parser.error(f"--{option} chooses the bids fitted from records: give --records DIR")
    if args.records:
        fit_stands(args.records, args.bot, args.pairs, args.folds)
        return
    if args.fit_only:
        if args.data is None or not args.data.is_file():
            sys.exit("--fit-only needs --data FILE with played deals")
        fit([json.loads(line) for line in args.data.read_text().splitlines() if line.strip()])
        return
    rows: list[dict[str, Any]] = []
    out = args.data.open("w") if args.data else None
    with Pool(args.workers) as pool:
        for job, count in ((point_deal, args.deals), (plunge_deal, args.plunges)):
            for k, row in enumerate(pool.imap_unordered(job, range(count), chunksize=4), 1):
                rows.append(row)
                if out:
                    out.write(json.dumps(row) + "\n")
                print(f"\r{job.__name__}: {k}/{count}", end="", file=sys.stderr, flush=True)
            print(file=sys.stderr)
    if out:
        out.close()
    fit(rows)


if __name__ == "__main__":
    main()

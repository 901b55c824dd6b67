"""A tiny self-play run for the learned bidder's tests, in the format of ``docs/selfplay.md``
(texas42-selfplay/1), written without the solver: real deals and real auctions (RulesBot's
calls, replayed on a `Hand`), with the play-outs' totals drawn around RulesBot's estimate of
the contract, so a model trained on it has something true to learn (a better hand takes more)
in a second, not minutes."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np

from texas42 import Hand, Phase, Rules
from texas42.core.actions import PLUNGE_ID, SPLASH_ID, Bid, Declare
from texas42.core.contracts import tables_for
from texas42.core.tiles import DOUBLES
from texas42.players.rules_bot import RulesBot, candidate_contracts, estimate, nello_risk

BID_SAMPLES = 4


def _points(rng: random.Random, dealt: int, rules: Rules, contract) -> int:  # type: ignore[no-untyped-def]
    worth = estimate(dealt, tables_for(contract, rules)).points
    return max(0, min(42, round(worth + rng.gauss(0, 6))))


def write_run(
    folder: Path, games: int = 8, seed: int = 0, rules: tuple[str, ...] = ("standard", "house")
) -> Path:
    """Write ``games`` games of three hands each into ``folder`` (two parts)."""
    folder.mkdir(parents=True, exist_ok=True)
    chunk = max(1, games // 2)
    meta = {
        "format": "texas42-selfplay/1",
        "bot": "rules",
        "playout": "fixture",
        "rules": list(rules),
        "seed": seed,
        "games": games,
        "chunk": chunk,
        "bid_samples": BID_SAMPLES,
        "texas42": "fixture",
    }
    (folder / "run.json").write_text(json.dumps(meta))
    bot = RulesBot()
    for start in range(0, games, chunk):
        cols: dict[str, list[object]] = {}

        def add(prefix: str, cols: dict[str, list[object]] = cols, **values: object) -> None:
            for key, value in values.items():
                cols.setdefault(f"{prefix}_{key}", []).append(value)

        for game in range(start, min(games, start + chunk)):
            rng = random.Random(f"{seed}:{game}")
            r_index = game % len(rules)
            table = Rules.parse(rules[r_index])
            score = [0, 0]
            for number in range(3):
                shaker = (game + number) % 4
                hand = Hand.random(table, shaker, rng)
                dealt = tuple(hand.deal)
                calls: list[int] = []
                while hand.phase == Phase.AUCTION:
                    seat = hand.seat_to_act()
                    assert seat is not None
                    action = bot.choose(hand.view(seat))
                    calls.append(action.id)
                    hand.apply(action)
                bidder = hand.high_seat
                first = hand.first_bidder
                bid_id = hand.winning_call.id if hand.winning_call is not None else -1
                marks = [0, 0]
                points = [0, 0]
                declare = -1
                made = -1
                if bidder is not None and hand.phase == Phase.DECLARE:
                    declarer = hand.seat_to_act()
                    assert declarer is not None
                    action = bot.choose(hand.view(declarer))
                    assert isinstance(action, Declare)
                    declare = action.id
                    bid = hand.winning_call
                    assert isinstance(bid, Bid)
                    side = bidder % 2
                    contract = action.contract
                    if contract.kind in ("suit", "doubles", "follow-me"):
                        taken = _points(rng, dealt[declarer], table, contract)
                    else:
                        taken = 0 if rng.random() < 0.5 else 42
                    need = 42 if bid.marks else bid.points
                    made = int(taken >= need)
                    points = [taken, 42 - taken] if side == 0 else [42 - taken, taken]
                    worth = bid.marks or 1
                    marks[side if made else 1 - side] = worth
                add(
                    "hands",
                    game=game,
                    hand=number,
                    rules=r_index,
                    shaker=shaker,
                    dealt=list(dealt),
                    score=list(score),
                    bidder=-1 if bidder is None else bidder,
                    bid=bid_id,
                    declare=declare,
                    points=list(points),
                    marks=list(marks),
                    made=made,
                )
                for i, aid in enumerate(calls):
                    seat = (first + i) % 4
                    side = seat % 2
                    before = calls[max(0, i - 3) : i][-3:]
                    add(
                        "calls",
                        game=game,
                        hand=number,
                        rules=r_index,
                        seat=seat,
                        position=i,
                        dealt=dealt[seat],
                        before=before + [-1] * (3 - len(before)),
                        score=[score[side], score[1 - side]],
                        action=aid,
                        won=bidder is not None and bidder % 2 == side,
                        marks=marks[side] - marks[1 - side],
                        points=points[side] if made >= 0 else -1,
                    )
                for seat in range(4):
                    side = seat % 2
                    mine = dealt[seat]
                    named = [(Bid(30).id, c) for c in candidate_contracts(table, mine)]
                    doubles = (mine & DOUBLES).bit_count()
                    if table.plunge and doubles >= 4:
                        named.append((PLUNGE_ID, None))
                    if table.splash and doubles >= 3:
                        named.append((SPLASH_ID, None))
                    for bid_id_, contract in named:
                        if contract is None:
                            taken = 42 if rng.random() < 0.3 + 0.1 * doubles else 20
                            made_ = taken == 42
                            decl = Declare("doubles").id
                            bid_used = bid_id_
                        elif contract.kind == "nello":
                            risk = nello_risk(mine, tables_for(contract, table))
                            made_ = rng.random() < (0.7 if risk == 0 else 0.1)
                            taken = 0 if made_ else 10
                            decl = Declare(contract).id
                            bid_used = Bid(f"{table.nello_min_marks}m").id
                        elif contract.kind == "sevens":
                            made_ = rng.random() < 0.2
                            taken = 42 if made_ else 12
                            decl = Declare(contract).id
                            bid_used = Bid(f"{table.sevens_min_marks}m").id
                        else:
                            taken = _points(rng, mine, table, contract)
                            made_ = taken >= 30
                            decl = Declare(contract).id
                            bid_used = bid_id_
                        dd = [
                            max(0, min(42, taken + 5 + rng.randint(-6, 6)))
                            for _ in range(BID_SAMPLES)
                        ]
                        add(
                            "contracts",
                            game=game,
                            hand=number,
                            rules=r_index,
                            seat=seat,
                            dealt=mine,
                            score=[score[side], score[1 - side]],
                            bid=bid_used,
                            declare=decl,
                            points=taken,
                            tricks=min(7, taken // 6),
                            made=made_,
                            dd=dd if contract is not None else [-1] * BID_SAMPLES,
                        )
                score = [score[0] + marks[0], score[1] + marks[1]]
            add(
                "games",
                game=game,
                seed=seed * 1000 + game,
                winner=int(score[1] > score[0]),
                hands=3,
            )
        types = {
            "game": np.int32,
            "hand": np.int16,
            "rules": np.int8,
            "seat": np.int8,
            "position": np.int8,
            "dealt": np.int32,
            "before": np.int16,
            "score": np.int8,
            "action": np.int16,
            "won": bool,
            "marks": np.int8,
            "points": np.int8,
            "bid": np.int16,
            "declare": np.int16,
            "tricks": np.int8,
            "made": np.int8,
            "dd": np.int8,
            "shaker": np.int8,
            "bidder": np.int8,
            "seed": np.int64,
            "winner": np.int8,
            "hands": np.int16,
        }
        arrays = {
            key: np.array(values, dtype=types[key.split("_", 1)[1]]) for key, values in cols.items()
        }
        arrays["contracts_made"] = arrays["contracts_made"].astype(bool)
        np.savez(folder / f"part-{start // chunk:05d}.npz", **arrays)  # type: ignore[arg-type]
    return folder

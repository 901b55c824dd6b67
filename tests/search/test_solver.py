"""The double-dummy solver against a plain minimax written here over the core's `Hand`.

The reference plays a points-game hand (which always runs every trick) through `Hand.apply`
and `Hand.undo`, so it shares no code with the kernel. The same positions are solved by the
jitted kernel in this process and by the pure-Python kernel in a subprocess with
``NUMBA_DISABLE_JIT=1``. Four seats are tested hardest; every other table (three to seven seats,
Moon's widow, six seats in pairs with Nel-O's out seat and in threes) gets endgames of its own.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import stat
import subprocess
import sys
import tempfile
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from helpers import EX14_DEAL, EX14_PLAYS, contract_hand, play
from texas42 import Hand, Phase, Rules
from texas42.core.contracts import SUIT_NAMES
from texas42.core.errors import RulesError
from texas42.core.notation import hand_position, parse_hand_position
from texas42.core.tiles import HI, tile_name, tiles_of
from texas42.search.solver import PlayPosition, Solver, kernel

POINTS = Rules.parse("standard,nello,sevens,game=points,undeclared_trump=first-lead")
CONTRACTS = (
    "blanks",
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "doubles",
    "follow-me:high",
    "follow-me:low",
    "follow-me:own",
    "nello:high",
    "nello:low",
    "nello:own",
    "nello:own-inverted",
    "sevens",
    "by-lead",
)
VARIANTS = (
    POINTS,
    POINTS.replace(suit_doubles="low"),
    POINTS.replace(first_lead_trump=True),
)
EX14_POSITION = (
    "standard 0-0 1 3 66.65.64.62.55.33.10/63.54.44.42.31.20.00/61.53.52.43.32.22.11/"
    "60.51.50.41.40.30.21 0:34.pass.pass.pass sixes 66.63.61.60.65 1"
)
"""The README's `texas42 solve` example: North-South end with 42 points."""


def bidders_total(hand: Hand) -> int:
    """What the bidding side ends with: points, or for Nel-O the bidder's tricks."""
    assert hand.contract is not None
    if hand.contract.kind == "nello":
        return sum(1 for trick in hand.tricks if trick.winner == hand.high_seat)
    return hand.points[hand.layout.side_of[hand.high_seat]]


def brute_force(hand: Hand) -> int:
    """Plain minimax over every legal play to the end of the hand."""
    if hand.phase == Phase.DONE:
        return bidders_total(hand)
    assert hand.contract is not None
    seat = hand.seat_to_act()
    assert seat is not None
    wants_more = hand.layout.same_side(seat, hand.high_seat) != (hand.contract.kind == "nello")
    values = []
    for action in hand.legal_actions():
        hand.apply(action)
        values.append(brute_force(hand))
        hand.undo()
    return max(values) if wants_more else min(values)


def random_position(seed: int, tricks_left: int) -> Hand:
    """A points-game hand of a random contract, played at random to ``tricks_left`` tricks left
    and a random number of tiles into the next trick."""
    rng = random.Random(seed)
    contract = CONTRACTS[seed % len(CONTRACTS)]
    rules = VARIANTS[seed // len(CONTRACTS) % len(VARIANTS)]
    order = list(range(28))
    rng.shuffle(order)
    deal = tuple(sum(1 << t for t in order[7 * s : 7 * s + 7]) for s in range(4))
    bid = "2m" if contract.startswith(("nello", "sevens")) else "30"
    hand = contract_hand(contract, deal, bidder=rng.randrange(4), bid=bid, rules=rules)
    plays_wanted = (7 - tricks_left) * hand.trick_size + rng.randrange(hand.trick_size)
    while len(hand.plays) < plays_wanted:
        hand.apply(rng.choice(hand.legal_actions()))
    return hand


TABLES = (
    "three-hand,game=points",
    "moon",
    "five-hand,game=points",
    "six-hand,nello,game=points",
    "six-hand,teams=threes,game=points",
    "seven-hand,game=points",
)
"""Every other table, each in a game that plays all its tricks (Moon always does)."""


def random_table_position(text: str, seed: int, tricks_left: int) -> Hand:
    """A hand on the table ``text``, auction, discards and contract chosen at random (redealt
    until someone bids), played at random to ``tricks_left`` tricks left and a random number of
    tiles into the next trick."""
    rules = Rules.parse(text)
    rng = random.Random(seed)
    while True:
        hand = Hand.random(rules, rng.randrange(rules.seats), rng)
        while hand.phase not in (Phase.PLAY, Phase.DONE):
            hand.apply(rng.choice(hand.legal_actions()))
        if hand.phase == Phase.PLAY:
            break
    plays_wanted = (hand.layout.tricks - tricks_left) * hand.trick_size + rng.randrange(
        hand.trick_size
    )
    while len(hand.plays) < plays_wanted:
        hand.apply(rng.choice(hand.legal_actions()))
    return hand


@cache
def table_cases() -> tuple[tuple[str, int], ...]:
    """(position string, exact total) for endgames on every other table: the last three tricks
    on three seats, the last two on more (the reference's lines grow as tiles ** seats)."""
    found = []
    for text in TABLES:
        tricks_left = 3 if Rules.parse(text).seats == 3 else 2
        for seed in range(14):
            hand = random_table_position(text, seed, tricks_left)
            found.append((hand_position(hand), brute_force(hand)))
    return tuple(found)


@cache
def cases() -> tuple[tuple[str, int], ...]:
    """(position string, exact total) for positions with up to four tricks left."""
    found = []
    for seed in range(96):
        hand = random_position(seed, 3 if seed % 8 else 4)
        found.append((hand_position(hand), brute_force(hand)))
    for seed in range(96, 112):
        hand = random_position(seed, 2)
        found.append((hand_position(hand), brute_force(hand)))
    return tuple(found)


def answers(solver: Solver, text: str) -> dict[str, object]:
    """Everything the solver says about one position, in a form JSON carries across processes."""
    hand, _, _ = parse_hand_position(text)
    position = PlayPosition.from_hand(hand)
    value = solver.value(position)
    bound = position.remaining_bound()
    return {
        "total": position.taken + value,
        "reaches": [solver.reaches(position, t) for t in range(bound + 2)],
        "moves": {tile_name(t): v for t, v in solver.move_values(position).items()},
    }


def test_values_match_brute_force() -> None:
    solver = Solver()
    for text, expected in cases():
        assert answers(solver, text)["total"] == expected, text


def test_values_match_brute_force_on_every_table() -> None:
    solver = Solver()
    for text, expected in table_cases():
        got = answers(solver, text)
        assert got["total"] == expected, text
        hand, _, _ = parse_hand_position(text)
        value = expected - PlayPosition.from_hand(hand).taken
        assert got["reaches"] == [value >= t for t in range(len(got["reaches"]))], text  # type: ignore[arg-type]


def test_move_values_match_brute_force_on_every_table() -> None:
    solver = Solver()
    for text, _ in table_cases()[::3]:
        hand, _, _ = parse_hand_position(text)
        position = PlayPosition.from_hand(hand)
        for tile, value in solver.move_values(position).items():
            hand.apply(hand.parse_action(tile_name(tile)))
            assert position.taken + value == brute_force(hand), (text, tile_name(tile))
            hand.undo()


def test_every_table_and_a_nello_out_seat_are_covered() -> None:
    """The cases really reach each table, its middle of a trick, and six seats' Nel-O."""
    hands = [parse_hand_position(text)[0] for text, _ in table_cases()]
    assert {h.rules.seats for h in hands} == {3, 5, 6, 7}
    assert any(h.layout.widow and h.discards for h in hands)
    assert any(h.out_seat is not None and h.layout.seats == 6 for h in hands)
    assert any(h.trick for h in hands) and any(not h.trick for h in hands)
    assert len({total for _, total in table_cases()}) > 5


@pytest.mark.parametrize("text", TABLES)
def test_a_whole_hand_on_every_table_follows_its_best_play(text: str) -> None:
    """From the first lead to the end along random play, each tile keeps or loses value for
    its own side, the table of one solver serves the whole hand, and the last position's total
    is what the hand itself scored for the bidding side."""
    hand = random_table_position(text, 7, Rules.parse(text).hand_size)
    position = PlayPosition.from_hand(hand)
    shared = Solver()
    rng = random.Random(7)
    while not position.is_over:
        before = position.taken + shared.value(position)
        assert before == position.taken + Solver().value(position)
        maximizing = position.maximizing(position.turn)
        tile = rng.choice(tiles_of(position.legal()))
        hand.apply(hand.parse_action(tile_name(tile)))
        position = position.play(tile)
        after = position.taken + shared.value(position)
        assert after <= before if maximizing else after >= before
    assert position.taken == bidders_total(hand)


def test_every_contract_kind_is_covered() -> None:
    kinds = {parse_hand_position(text)[0].contract for text, _ in cases()}
    assert {str(k) for k in kinds} >= set(CONTRACTS)


def test_thresholds_agree_with_exact_values() -> None:
    solver = Solver()
    for text, _ in cases():
        got = answers(solver, text)
        hand, _, _ = parse_hand_position(text)
        taken = PlayPosition.from_hand(hand).taken
        value = int(got["total"]) - taken  # type: ignore[call-overload]
        assert got["reaches"] == [value >= t for t in range(len(got["reaches"]))], text  # type: ignore[arg-type]


def test_move_values_agree_with_solving_each_child() -> None:
    solver = Solver()
    for text, expected in cases()[:40]:
        hand, _, _ = parse_hand_position(text)
        position = PlayPosition.from_hand(hand)
        moves = solver.move_values(position)
        assert set(moves) == set(tiles_of(position.legal()))
        for tile, value in moves.items():
            hand.apply(hand.parse_action(tile_name(tile)))
            assert position.taken + value == brute_force(hand), (text, tile_name(tile))
            hand.undo()
        best = max if position.maximizing(position.turn) else min
        assert position.taken + best(moves.values()) == expected


def test_pure_python_kernel_agrees_with_the_jitted_one() -> None:
    texts = [text for text, _ in cases()[::3] + table_cases()[::4]]
    script = (
        "import json, sys\n"
        "sys.path[:0] = ['tests', 'tests/search']\n"
        "from texas42.search.solver import Solver\n"
        "from test_solver import answers\n"
        "solver = Solver()\n"
        "print(json.dumps([answers(solver, t) for t in json.load(sys.stdin)]))\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    run = subprocess.run(
        [sys.executable, "-c", script],
        input=json.dumps(texts),
        capture_output=True,
        text=True,
        env=env,
        cwd=root,
        check=True,
    )
    pure = json.loads(run.stdout)
    solver = Solver()
    assert pure == [answers(solver, text) for text in texts]
    expected = dict(cases() + table_cases())
    assert [p["total"] for p in pure] == [expected[t] for t in texts]


def test_one_table_serves_a_whole_hand_and_other_deals() -> None:
    """Reusing a solver across the positions of one deal, then another deal, changes nothing."""
    shared = Solver(table_bits=10)
    for seed in (3, 4):
        hand = random_position(seed, 7)
        position = PlayPosition.from_hand(hand)
        rng = random.Random(seed)
        while not position.is_over:
            assert shared.value(position) == Solver().value(position)
            position = position.play(rng.choice(tiles_of(position.legal())))


def test_a_real_play_never_beats_best_play() -> None:
    """rules.md Ex 14 (North bids 30 in sixes): along the actual play, each tile keeps or loses
    value for its own side, and the last position's total is the points North-South took."""
    hand = contract_hand("sixes", EX14_DEAL, bid="30", rules=POINTS)
    solver = Solver()
    position = PlayPosition.from_hand(hand)
    start = position.taken + solver.value(position)
    assert solver.makes(position) == (start >= 30)
    assert solver.reaches(position, start) and not solver.reaches(position, start + 1)
    for word in EX14_PLAYS.split():
        before = position.taken + solver.value(position)
        maximizing = position.maximizing(position.turn)
        position = position.play(hand.parse_action(word).id)
        after = position.taken + solver.value(position)
        assert after <= before if maximizing else after >= before, word
    play(hand, EX14_PLAYS)
    assert position.is_over and position.taken == hand.points[0]


def test_by_lead_before_the_first_lead_takes_the_best_lead() -> None:
    deal = EX14_DEAL
    hand = contract_hand("by-lead", deal, bid="30", rules=POINTS)
    position = PlayPosition.from_hand(hand)
    assert position.tables is None
    solver = Solver()
    moves = solver.move_values(position)
    assert set(moves) == set(tiles_of(deal[0]))
    for tile, value in moves.items():
        named = PlayPosition.from_hand(
            contract_hand(SUIT_NAMES[HI[tile]], deal, bid="30", rules=POINTS)
        )
        child = named.play(tile)
        assert value == child.taken + Solver().value(child)
    assert solver.value(position) == max(moves.values())
    best = max(moves.values())
    assert solver.reaches(position, best) and not solver.reaches(position, best + 1)


def test_first_lead_trump_rule_limits_the_root() -> None:
    deal = EX14_DEAL
    free = PlayPosition.from_hand(contract_hand("ones", deal, rules=POINTS))
    forced = PlayPosition.from_hand(
        contract_hand("ones", deal, rules=POINTS.replace(first_lead_trump=True))
    )
    assert forced.legal() == free.legal() & forced.tables.trump_mask  # type: ignore[union-attr]
    solver = Solver()
    assert set(solver.move_values(forced)) == set(tiles_of(forced.legal()))
    assert solver.value(forced) == max(solver.move_values(forced).values())


def test_positions_reject_illegal_plays_and_unnamed_contracts() -> None:
    hand = Hand(POINTS, 0, EX14_DEAL)
    with pytest.raises(RulesError):
        PlayPosition.from_hand(hand)
    position = PlayPosition.from_hand(contract_hand("sixes", EX14_DEAL, bid="30"))
    with pytest.raises(RulesError):
        position.play(tiles_of(EX14_DEAL[1])[0])


@pytest.mark.parametrize(
    "text",
    ["standard", "standard,nello,sevens", "three-hand", "moon", "six-hand,nello", "seven-hand"],
)
def test_a_view_completed_by_the_true_world_is_the_hand_itself(text: str) -> None:
    """`PlayPosition.from_view` with the real hands (and face-down tiles) matches `from_hand`."""
    rules = Rules.parse(text)
    for seed in range(40):
        rng = random.Random(seed)
        hand = Hand.random(rules, seed % rules.seats, rng)
        while hand.phase != Phase.PLAY and hand.result is None:
            hand.apply(rng.choice(hand.legal_actions()))
        for _ in range(rng.randrange(0, 20)):
            if hand.result is not None:
                break
            hand.apply(rng.choice(hand.legal_actions()))
        if hand.phase != Phase.PLAY:
            continue
        hidden = tuple(trick.tiles for trick in hand.tricks) if hand.tricks_hidden else ()
        hands = tuple(hand.hands)
        whole = PlayPosition.from_hand(hand)
        for seat in range(rules.seats):
            view = hand.view(seat)
            seen = PlayPosition.from_view(view, hands, hidden)
            if view.contract != hand.contract:
                # a by-lead trump whose first trick lies face down shows as the suit it named
                assert seen.tables == whole.tables and view.contract is not None
                seen = replace(seen, contract=whole.contract)
            assert seen == whole, (seed, seat)


@pytest.mark.parametrize("text", TABLES)
def test_the_endgame_search_of_one_deal_is_the_solver(text: str) -> None:
    """`InformationSetSearch` with a single deal knows everything: each tile's total and
    whether the contract is made are the solver's, seen from either side of the contract."""
    from texas42.players.endgame import InformationSetSearch

    for seed in range(3):
        hand = random_table_position(text, seed, 2)
        position = PlayPosition.from_hand(hand)
        solver = Solver()
        search = InformationSetSearch(position.turn, [1.0], solver)
        for tile, estimate in search.estimates([position]).items():
            child = position.play(tile)
            assert estimate.total == child.taken + solver.value(child)
            assert estimate.make == float(solver.makes(child))


def test_the_solver_caches_in_a_temporary_folder_when_nothing_else_is_writable(
    tmp_path: Path,
) -> None:
    """numba caches the kernel beside its source or under HOME; with neither writable (here a
    file stands where each folder would go, which stops root too) the solver still solves, and
    the cache lands in a folder of its own under the temporary directory."""
    package = tmp_path / "site" / "texas42"
    shutil.copytree(
        Path(__file__).resolve().parents[2] / "src" / "texas42",
        package,
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    (package / "search" / "solver" / "__pycache__").write_text("not a folder")
    (tmp_path / "home").write_text("not a folder")
    (tmp_path / "tmp").mkdir()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME", "NUMBA_DISABLE_JIT")
    }
    env |= {
        "HOME": str(tmp_path / "home"),
        "TMPDIR": str(tmp_path / "tmp"),
        "PYTHONPATH": str(tmp_path / "site"),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    script = (
        "import texas42.search.solver as solver\n"
        f"assert solver.__file__.startswith({str(package)!r}), solver.__file__\n"
        "from texas42.core.notation import parse_hand_position\n"
        "from texas42.search.solver import PlayPosition, Solver\n"
        f"hand, _, _ = parse_hand_position({EX14_POSITION!r})\n"
        "position = PlayPosition.from_hand(hand)\n"
        "print(position.taken + Solver().value(position))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "42\n"
    assert list((tmp_path / "tmp").glob("texas42-numba-*/**/*.nbi"))


def test_the_temporary_cache_is_never_a_folder_others_may_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    shared = tmp_path / f"texas42-numba-{os.getuid()}"
    assert kernel._private_temp_folder() == str(shared)
    assert stat.S_IMODE(shared.stat().st_mode) == 0o700
    assert kernel._private_temp_folder() == str(shared)
    shared.chmod(0o777)
    fresh = kernel._private_temp_folder()
    assert fresh != str(shared)
    assert stat.S_IMODE(os.stat(fresh).st_mode) == 0o700

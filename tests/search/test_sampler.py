"""The deal sampler: every world it draws fits the seat's view, the true deal always fits, draws
are uniform (checked against brute-force enumeration), and face-down tricks replay legally.

Consistency is judged independently of the sampler: a world is rebuilt into a full deal, the
view's calls, contract and plays are replayed on a fresh `Hand`, and the seat's view of the
replay must equal the view the sampler was given.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import texas42.search.sampler as sampler_module
from helpers import E, N, S, W, auction, decision_point, examples, fill_deal, tiles
from texas42 import Bid, Declare, Hand, Phase, Play, Rules
from texas42.core.actions import Action
from texas42.core.contracts import tables_for
from texas42.core.errors import NotationError, Texas42Error
from texas42.core.tiles import ALL_TILES, DOUBLES, iter_tiles, mask_of
from texas42.core.view import HiddenTrick, View
from texas42.search.sampler import DealSampler, World

# -- an independent judge of consistency ----------------------------------------------------------


def replayed_view(view: View, world: World) -> View | None:
    """The seat's view after replaying the view's history on the deal the world implies, or None
    if some call or play would be illegal there."""
    deal = list(world.hands)
    plays: list[int] = []
    face_down = iter(world.hidden)
    for trick in view.tricks:
        played = trick.tiles if trick.tiles is not None else next(face_down)
        for s, t in zip(trick.seats, played):
            deal[s] |= 1 << t
        plays.extend(played)
    for s, t in view.trick:
        deal[s] |= 1 << t
        plays.append(t)
    try:
        hand = Hand(view.rules, view.shaker, deal)
    except NotationError:
        return None
    actions: list[Action] = list(view.calls)
    if view.contract is not None:
        actions.append(Declare(view.contract))
    actions.extend(Play(t) for t in plays)
    for action in actions:
        if not hand.is_legal(action):
            return None
        hand.apply(action)
    return hand.view(view.seat, view.score, view.hand_number)


def consistent(view: View, world: World) -> bool:
    return replayed_view(view, world) == view


def truth(hand: Hand) -> World:
    hidden = tuple(t.tiles for t in hand.tricks) if hand.tricks_hidden else ()
    h = hand.hands
    return World((h[0], h[1], h[2], h[3]), hidden)


def check_world(view: View, world: World) -> None:
    """The invariants every drawn world must meet, spelled out, then the full replay."""
    assert world.hands[view.seat] == view.hand
    for s in range(4):
        assert world.hands[s].bit_count() == view.tiles_left[s]
    face_up = mask_of(t for tr in view.tricks if tr.tiles is not None for t in tr.tiles)
    face_up |= mask_of(t for _, t in view.trick)
    every = [t for hand in world.hands for t in iter_tiles(hand)]
    every += [t for tr in world.hidden for t in tr]
    every += [t for tr in view.tricks if tr.tiles is not None for t in tr.tiles]
    every += [t for _, t in view.trick]
    assert sorted(every) == list(range(28)), "every tile exactly once"
    for hand in world.hands:
        assert not hand & face_up
    if view.contract is not None and any(view.voids):
        leads = [tr.tiles[0] for tr in view.tricks if tr.tiles] + [t for _, t in view.trick]
        tables = tables_for(view.contract, view.rules, first_lead=leads[0])
        for s in range(4):
            for suit in range(9):
                if view.voids[s] >> suit & 1:
                    assert not world.hands[s] & tables.follow[suit], f"seat {s} shows void"
    assert consistent(view, world)


# -- positions ------------------------------------------------------------------------------------


def position(
    rules: Rules, seed: int, bid: str, kind: str, plays: int, bidder: int | None = None
) -> Hand:
    """A random deal, ``bidder`` winning with ``bid`` and naming a contract of ``kind`` (with a
    random legal doubles treatment), then ``plays`` random legal tiles."""
    rng = random.Random(seed)
    hand = Hand.random(rules, rng.randrange(4), rng)
    auction(hand, rng.randrange(4) if bidder is None else bidder, bid)
    named = [a for a in hand.legal_actions() if isinstance(a, Declare) and a.contract.kind == kind]
    hand.apply(rng.choice(named))
    for _ in range(plays):
        if hand.is_over:
            break
        hand.apply(rng.choice(hand.legal_actions()))
    return hand


SETUPS = [
    ("standard", "30", "suit"),
    ("standard", "30", "doubles"),
    ("standard,follow_me_doubles=own", "30", "follow-me"),
    ("standard", "31", "by-lead"),
    ("standard,first_lead_trump,first_bidder=holder-1-0", "1m", "suit"),
    ("standard,first_lead_trump,hide_tricks=mark-bids", "1m", "by-lead"),
    ("standard", "2m", "suit"),
    ("standard,nello", "2m", "nello"),
    ("standard,nello,nello_doubles=own,hide_tricks=never", "2m", "nello"),
    ("standard,sevens,hide_tricks=never", "1m", "sevens"),
    ("standard,sevens", "2m", "sevens"),
    ("standard,game=points,first_lead_trump", "35", "suit"),
]
"""(rules, winning bid, contract kind): every contract kind, face up and face down."""


# -- every draw fits ------------------------------------------------------------------------------


@settings(max_examples=examples(60))
@given(
    setup=st.sampled_from(SETUPS),
    seed=st.integers(0, 2**32 - 1),
    plays=st.integers(0, 27),
    seat=st.integers(0, 3),
)
def test_every_world_fits_the_view_and_so_does_the_truth(
    setup: tuple[str, str, str], seed: int, plays: int, seat: int
) -> None:
    text, bid, kind = setup
    hand = position(Rules.parse(text), seed, bid, kind, plays)
    view = hand.view(seat)
    sampler = DealSampler(view)
    real = truth(hand)
    assert sampler.fits(real)
    assert consistent(view, real)
    assert sampler.count() >= 1
    rng = random.Random(seed)
    if view.piles_face_down and hand.tricks:
        worlds = [w for w, _ in sampler.weighted(6, rng, lambda w: 1.0)]
    else:
        worlds = sampler.samples(6, rng)
    for world in worlds:
        assert sampler.fits(world)
        check_world(view, world)


def swapped(view: View, world: World, rng: random.Random) -> World:
    """The world with two unseen tiles traded between places (hands or face-down tricks)."""
    hands = list(world.hands)
    hidden = [list(tr) for tr in world.hidden]
    places: list[tuple[int, int]] = [
        (-1 - s, t) for s in range(4) if s != view.seat for t in iter_tiles(hands[s])
    ]
    for i, trick in enumerate(view.tricks):
        if trick.tiles is None:
            places += [(i, p) for p, s in enumerate(trick.seats) if s != view.seat]
    if len(places) < 2:
        return world
    (a, x), (b, y) = rng.sample(places, 2)
    tile_a = x if a < 0 else hidden[a][x]
    tile_b = y if b < 0 else hidden[b][y]
    for where, spot, old, new in ((a, x, tile_a, tile_b), (b, y, tile_b, tile_a)):
        if where < 0:
            hands[-1 - where] ^= 1 << old | 1 << new
        else:
            hidden[where][spot] = new
    return World((hands[0], hands[1], hands[2], hands[3]), tuple(tuple(t) for t in hidden))


@settings(max_examples=examples(40))
@given(
    setup=st.sampled_from(SETUPS),
    seed=st.integers(0, 2**32 - 1),
    plays=st.integers(0, 27),
    seat=st.integers(0, 3),
)
def test_fits_agrees_with_replaying_the_history(
    setup: tuple[str, str, str], seed: int, plays: int, seat: int
) -> None:
    text, bid, kind = setup
    hand = position(Rules.parse(text), seed, bid, kind, plays)
    view = hand.view(seat)
    sampler = DealSampler(view)
    rng = random.Random(seed)
    world = truth(hand)
    for _ in range(12):
        world = swapped(view, world, rng) if rng.random() < 0.8 else truth(hand)
        assert sampler.fits(world) == consistent(view, world)


def test_before_the_play_only_hand_sizes_count() -> None:
    hand = Hand.random(Rules(), 0, random.Random(1))
    sampler = DealSampler(hand.view(E))
    assert sampler.count() == math.factorial(21) // math.factorial(7) ** 3
    for world in sampler.samples(50, random.Random(2)):
        check_world(hand.view(E), world)


def test_a_plunge_shows_the_caller_drew_four_doubles() -> None:
    rules = Rules.parse("standard,plunge,plunge_needs_66")
    deal = fill_deal({N: "6-6 5-5 4-4 3-3"}, avoid={E: DOUBLES, S: DOUBLES, W: DOUBLES})
    hand = Hand(rules, W, deal)
    auction(hand, N, "plunge")
    hand.apply(Declare("sixes"))
    view = hand.view(E)
    sampler = DealSampler(view)
    assert sampler.fits(truth(hand))
    for world in sampler.samples(200, random.Random(3)):
        assert (world.hands[N] & DOUBLES).bit_count() >= 4
        assert world.hands[N] & tiles("6-6")
    # East holds no double: North drew the 6-6 and at least 3 of the other 6 doubles among
    # its 7 of the 21 unseen tiles, then South takes any 7 of the 14 left
    ways = sum(math.comb(6, k) * math.comb(14, 6 - k) for k in range(3, 7))
    assert sampler.count() == ways * math.comb(14, 7)


def test_draws_repeat_for_a_seed() -> None:
    hand = position(Rules.parse("standard,game=points"), 4, "30", "suit", 9)
    sampler = DealSampler(hand.view(hand.turn))
    assert sampler.samples(20, random.Random(9)) == sampler.samples(20, random.Random(9))


# -- uniformity against brute force ---------------------------------------------------------------


def all_consistent(view: View) -> list[World]:
    """Every deal of the unseen tiles that replays to the same view, by brute force."""
    unseen = ALL_TILES & ~view.hand
    for trick in view.tricks:
        assert trick.tiles is not None
        unseen &= ~mask_of(trick.tiles)
    unseen &= ~mask_of(t for _, t in view.trick)
    others = [s for s in range(4) if s != view.seat]
    a, b, _ = (view.tiles_left[s] for s in others)
    pool = list(iter_tiles(unseen))
    found = []
    for first in itertools.combinations(pool, a):
        rest = [t for t in pool if t not in first]
        for second in itertools.combinations(rest, b):
            hands = [0, 0, 0, 0]
            hands[view.seat] = view.hand
            hands[others[0]] = mask_of(first)
            hands[others[1]] = mask_of(second)
            hands[others[2]] = mask_of(rest) & ~mask_of(second)
            world = World((hands[0], hands[1], hands[2], hands[3]), ())
            if consistent(view, world):
                found.append(world)
    return found


def late_view(text: str, bid: str, kind: str, *, plunge: bool = False) -> View:
    """The first late position (3 to 60 consistent deals) found from fixed seeds whose view shows
    something that rules deals out: another seat void in a suit, a Sevens play by another seat,
    or (after North's plunge) North's promise of four doubles."""
    rules = Rules.parse(text)
    for seed in range(400):
        if plunge:
            rng = random.Random(seed)
            deal = fill_deal({N: "6-6 5-5 4-4 3-3 6-5 6-4 5-4"})
            hand = Hand(rules, W, deal)
            auction(hand, N, bid)
            hand.apply(Declare(kind))
            while len(hand.plays) < 19 + seed % 3:
                hand.apply(rng.choice(hand.legal_actions()))
        else:
            hand = position(rules, seed, bid, kind, 19 + seed % 3)
        if hand.phase != Phase.PLAY:
            continue
        seat = hand.turn
        view = hand.view(seat)
        count = DealSampler(view).count()
        if not 3 <= count <= 60:
            continue
        if plunge:
            # the same view had North bid 4 marks instead: the promise must rule deals out
            calls = tuple(Bid("4m") if c == Bid("plunge") else c for c in view.calls)
            if seat != N and DealSampler(replace(view, calls=calls)).count() > count:
                return view
        elif kind == "sevens" or any(view.voids[s] for s in range(4) if s != seat):
            return view
    raise AssertionError("no small position found")


def chi_square_critical(df: int, z: float = 3.090232) -> float:
    """The chi-square value exceeded with probability 0.001 (Wilson-Hilferty)."""
    c = 2 / (9 * df)
    return df * (1 - c + z * math.sqrt(c)) ** 3


@pytest.mark.parametrize(
    ("text", "bid", "kind", "plunge"),
    [
        ("standard,game=points,hide_tricks=never", "30", "suit", False),
        ("standard,game=points,hide_tricks=never", "30", "follow-me", False),
        ("standard,game=points,sevens,hide_tricks=never", "1m", "sevens", False),
        ("standard,game=points,plunge,hide_tricks=never", "plunge", "fives", True),
    ],
)
def test_draws_are_uniform_over_the_consistent_deals(
    text: str, bid: str, kind: str, plunge: bool
) -> None:
    view = late_view(text, bid, kind, plunge=plunge)
    deals = all_consistent(view)
    sampler = DealSampler(view)
    assert sampler.count() == len(deals)
    sizes = [view.tiles_left[s] for s in range(4) if s != view.seat]
    assert len(deals) < math.factorial(sum(sizes)) // math.prod(map(math.factorial, sizes))
    assert {sampler.sample(random.Random(i)) for i in range(20)} <= set(deals)
    draws = max(2000, 150 * len(deals))
    seen = Counter(sampler.samples(draws, random.Random(42)))
    assert set(seen) <= set(deals)
    expected = draws / len(deals)
    statistic = sum((seen[d] - expected) ** 2 / expected for d in deals)
    assert statistic < chi_square_critical(len(deals) - 1)


def test_a_skewed_draw_would_fail_the_uniformity_check() -> None:
    view = late_view("standard,game=points,hide_tricks=never", "30", "suit")
    deals = all_consistent(view)
    rng = random.Random(5)
    draws = max(2000, 150 * len(deals))
    # twice as likely to draw the first deal: the statistic the test relies on must notice
    skewed = Counter(rng.choice(deals + deals[:1]) for _ in range(draws))
    expected = draws / len(deals)
    statistic = sum((skewed[d] - expected) ** 2 / expected for d in deals)
    assert statistic > chi_square_critical(len(deals) - 1)


# -- face-down tricks -----------------------------------------------------------------------------


def face_down_position(tricks: int, seed: int = 0) -> Hand:
    """A 2-mark hand (piles face down) with ``tricks`` tricks taken and one tile led."""
    for s in range(seed, seed + 500):
        hand = position(Rules.parse("standard,game=points"), s, "2m", "suit", 4 * tricks + 1)
        if len(hand.tricks) == tricks and hand.phase == Phase.PLAY:
            return hand
    raise AssertionError("no such hand")


def test_face_down_draws_replay_with_the_stated_winners() -> None:
    hand = face_down_position(1)
    view = hand.view(hand.turn)
    assert view.piles_face_down and view.tricks[0].tiles is None
    sampler = DealSampler(view)
    assert sampler.fits(truth(hand))
    for world in sampler.samples(30, random.Random(6)):
        assert sampler.fits(world)
        check_world(view, world)
        replay = replayed_view(view, world)
        assert replay is not None
        assert [e.winner for e in replay.events if isinstance(e, HiddenTrick)] == [
            t.winner for t in view.tricks
        ]


def test_face_down_particles_fit_and_agree_with_exact_draws() -> None:
    hand = face_down_position(1, seed=3)
    view = hand.view(hand.turn)
    sampler = DealSampler(view)
    exact = sampler.samples(800, random.Random(7))
    particles = sampler.weighted(800, random.Random(8), lambda w: 1.0)
    for world, _ in particles[:40]:
        check_world(view, world)
    for s in range(4):
        for t in range(28):
            p_exact = sum(w.hands[s] >> t & 1 for w in exact) / len(exact)
            p_particles = sum(x for w, x in particles if w.hands[s] >> t & 1)
            assert abs(p_exact - p_particles) < 0.12, (s, t)


def test_deep_face_down_hands_still_get_weighted_worlds() -> None:
    hand = face_down_position(4, seed=11)
    view = hand.view(hand.turn)
    sampler = DealSampler(view)
    assert sampler.fits(truth(hand))
    pairs = sampler.weighted(100, random.Random(10), lambda w: 1.0)
    assert len(pairs) == 100
    assert math.isclose(sum(x for _, x in pairs), 1.0)
    for world, _ in pairs[:30]:
        assert sampler.fits(world)
        check_world(view, world)


def test_a_view_no_deal_fits_raises_instead_of_hanging(monkeypatch: pytest.MonkeyPatch) -> None:
    deal = fill_deal({N: "6-6"})
    hand = Hand(Rules.parse("standard,game=points"), W, deal)
    auction(hand, N, "2m")
    hand.apply(Declare("sixes"))
    hand.apply(Play("6-6"))
    for _ in range(3):
        hand.apply(hand.legal_actions()[0])
    view = hand.view(N)
    assert view.tricks[0].tiles is None and view.tricks[0].winner == N
    # the 6-6 led in sixes takes any trick: a view saying East took it fits no deal
    impossible = replace(view, tricks=(replace(view.tricks[0], winner=E),))
    monkeypatch.setattr(sampler_module, "MAX_ATTEMPTS", 300)
    monkeypatch.setattr(sampler_module, "MAX_PARTICLES", 128)
    sampler = DealSampler(impossible)
    with pytest.raises(Texas42Error, match="face-down"):
        sampler.sample(random.Random(1))
    with pytest.raises(Texas42Error, match="face-down"):
        sampler.weighted(5, random.Random(1), lambda w: 1.0)
    with pytest.raises(Texas42Error, match="unseen"):
        DealSampler(replace(view, tiles_left=(7, 7, 7, 7)))


# -- weighted draws -------------------------------------------------------------------------------


def test_weights_are_normalised_and_a_zero_weight_removes_deals() -> None:
    view = late_view("standard,game=points,hide_tricks=never", "30", "suit")
    sampler = DealSampler(view)
    other = next(s for s in range(4) if s != view.seat and view.tiles_left[s])
    deals = all_consistent(view)
    held = Counter(t for w in deals for t in iter_tiles(w.hands[other]))
    t = min(held, key=lambda x: abs(held[x] - len(deals) / 2))

    def without(world: World) -> float:
        return 0.0 if world.hands[other] >> t & 1 else 2.0

    pairs = sampler.weighted(300, random.Random(11), without)
    assert len(pairs) == 300
    assert math.isclose(sum(x for _, x in pairs), 1.0)
    assert any(w.hands[other] >> t & 1 for w, _ in pairs), "some draws hold the tile"
    assert all(x == 0 for w, x in pairs if w.hands[other] >> t & 1)
    kept = [x for w, x in pairs if not w.hands[other] >> t & 1]
    assert all(math.isclose(x, 1 / len(kept)) for x in kept)
    with pytest.raises(Texas42Error, match="weight 0"):
        sampler.weighted(20, random.Random(1), lambda w: 0.0)
    with pytest.raises(Texas42Error, match="negative"):
        sampler.weighted(5, random.Random(1), lambda w: -1.0)


def test_worlds_lists_every_consistent_deal_once() -> None:
    rules = Rules()
    for seed in range(30):
        rng = random.Random(seed)
        hand = Hand.random(rules, seed % 4, rng)
        while hand.phase != Phase.PLAY and hand.result is None:
            hand.apply(rng.choice(hand.legal_actions()))
        while hand.result is None and len(hand.plays) < 18:
            hand.apply(rng.choice(hand.legal_actions()))
        if hand.result is not None:
            continue
        view = hand.view(hand.turn)
        sampler = DealSampler(view)
        worlds = sampler.worlds(5000)
        if view.piles_face_down and hand.tricks:
            assert worlds is None
            continue
        assert worlds is not None
        assert len(worlds) == len(set(worlds)) == sampler.count()
        assert all(sampler.fits(w) for w in worlds)
        assert truth(hand) in worlds
        assert sampler.worlds(sampler.count() - 1) is None


# -- every table size ------------------------------------------------------------------------------

TABLES = ["three-hand", "moon", "five-hand", "six-hand", "six-hand,teams=threes", "seven-hand"]


def true_pool(hand: Hand, seat: int) -> int:
    """What no hand holds and the seat has not seen: set aside, the widow while nobody has
    taken it, and discards laid by another seat."""
    pool = hand.set_aside | (hand.widow if hand.declarer is None else 0)
    if seat != hand.declarer:
        pool |= mask_of(hand.discards)
    return pool


@settings(max_examples=examples(60), deadline=None)
@given(
    seed=st.integers(0, 2**31),
    steps=st.integers(0, 40),
    preset=st.sampled_from(TABLES),
    hide=st.booleans(),
)
def test_deals_at_every_table_fit_the_view(seed: int, steps: int, preset: str, hide: bool) -> None:
    """Each seat's draws give every other seat its tiles left, respect the voids it showed, never
    hand out a tile seen, and leave the rest (set aside, an untaken widow, another seat's
    discards) in the unseen pool; the true deal fits too."""
    rules = Rules.parse(preset + ("" if hide else ",hide_tricks=never"))
    hand = decision_point(rules, seed, steps)
    rng = random.Random(seed)
    for seat in range(rules.seats):
        view = hand.view(seat)
        sampler = DealSampler(view)
        truth_world = World(tuple(hand.hands), (), true_pool(hand, seat))
        if not view.piles_face_down or not view.tricks:
            assert sampler.fits(truth_world)
            worlds = sampler.samples(4, rng)
        else:
            worlds = [w for w, _ in sampler.weighted(2, rng, lambda w: 1.0)]
        seen = view.discarded | mask_of(t for tr in view.tricks for t in tr.tiles or ())
        seen |= mask_of(t for _, t in view.trick)
        seen |= mask_of(t for tr in view.tricks if tr.mine is not None for t in [tr.mine])
        for world in worlds:
            assert sampler.fits(world)
            assert world.hands[seat] == view.hand
            assert [h.bit_count() for h in world.hands] == list(view.tiles_left)
            assert world.pool.bit_count() == true_pool(hand, seat).bit_count()
            every = world.pool | mask_of(t for tiles in world.hidden for t in tiles)
            for h in world.hands:
                assert not h & every
                every |= h
            assert not every & seen & ~mask_of(t for tiles in world.hidden for t in tiles)
            assert every | seen == view.layout.tiles
            if hand.tables is not None and not hand.tables.sevens:
                for s in range(rules.seats):
                    for suit in iter_tiles(view.voids[s]):
                        assert not world.hands[s] & hand.tables.follow[suit]


def test_the_seat_that_took_the_widow_knows_it_and_the_others_do_not() -> None:
    """Moon: the bid winner's draws never move its widow or discard; another seat's draws put
    the discard in the pool as often as in any hand it could be in."""
    rules = Rules.parse("moon")
    for seed in range(40):
        hand = Hand.random(rules, seed % 3, random.Random(seed))
        while hand.phase not in (Phase.DECLARE, Phase.DONE):
            hand.apply(
                hand.legal_actions()[-1] if hand.phase == Phase.AUCTION else hand.legal_actions()[0]
            )
        if hand.phase == Phase.DECLARE:
            break
    else:
        pytest.fail("no Moon auction was won")
    declarer = hand.declarer
    own = hand.view(declarer)
    assert own.widow == hand.widow and own.discarded == mask_of(hand.discards)
    for world in DealSampler(own).samples(30, random.Random(1)):
        assert world.pool == 0 and world.hands[declarer] == hand.hands[declarer]
    other = (declarer + 1) % 3
    pools = Counter(w.pool for w in DealSampler(hand.view(other)).samples(600, random.Random(2)))
    assert mask_of(hand.discards) in pools
    # the discard is one of 15 tiles the other seat cannot see: about 1 draw in 15 has it
    assert 20 <= pools[mask_of(hand.discards)] <= 70


def test_set_aside_tiles_may_be_anywhere_unseen() -> None:
    """Six-hand sets four tiles aside: a draw may put any unseen tile there, and over many draws
    each unseen tile is set aside about as often as the pool's share says."""
    rules = Rules.parse("six-hand")
    hand = Hand.random(rules, 0, random.Random(5))
    view = hand.view(0)
    sampler = DealSampler(view)
    draws = 2000
    counts: Counter[int] = Counter()
    for world in sampler.samples(draws, random.Random(3)):
        counts.update(iter_tiles(world.pool))
    unseen = view.layout.tiles & ~view.hand
    assert set(counts) == set(iter_tiles(unseen))
    share = draws * 4 / unseen.bit_count()
    assert all(abs(n - share) < 5 * math.sqrt(share) for n in counts.values())
    assert sampler.count() == math.factorial(24) // (math.factorial(4) ** 6)

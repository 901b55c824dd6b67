"""Deals that fit one seat's view, drawn uniformly by exact counting.

A `DealSampler` reads a `View` once and works out, for every tile the seat has not seen, which
other hands may hold it now: a seat that did not follow a led suit holds none of it, a Sevens
player held nothing closer to 7 than the tile it played, a first leader under ``first_lead_trump``
who led off trump held no trump. Calls tie tiles to dealt hands too: under ``holder-1-0`` the
first bidder drew the 1-0, and a plunge or splash shows the caller drew enough doubles (and the
6-6 if the rules ask for it). The unseen tiles fall into groups by the set of hands that may hold
them; a dynamic program over the groups counts the deals exactly (multinomials over each group's
split of the hands' remaining room), and a draw walks the groups taking each split in proportion
to its count, then deals each group's tiles at random, so every consistent deal is equally likely.

When the piles lie face down, the tiles of the face-down tricks are unknown and gone: they form
one more "hand", the hidden pool, laid into the tricks' unseen places in random order. Such a
proposal is uniform over everything that fits the current hands, and `DealSampler.sample` keeps
it only if every face-down trick replays legally (following suit, Sevens closeness and the
first-lead rule, judged on the hand each seat held then) with the stated winner and the calls'
promises hold. Plain rejection from a uniform proposal is exact, but only about 1 proposal in 50
survives each face-down trick, so past two or three such tricks it gives up with an error.
`DealSampler.weighted` then builds the worlds forward instead, as weighted particles: each
face-down trick is drawn among the ways to fill it that are still legal, and each world carries
the inverse of its chance of being built (sequential importance sampling), so its weighted
worlds estimate the same uniform belief.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TypeVar

from texas42.core.actions import PLUNGE_ID, SPLASH_ID
from texas42.core.contracts import SEVENS_DISTANCE_MASKS, PlayTables, legal_plays, tables_for
from texas42.core.errors import Texas42Error
from texas42.core.tiles import (
    ALL_TILES,
    DOUBLE_SIX,
    DOUBLES,
    ONE_ZERO,
    PIPS,
    TILE_COUNT,
    TILE_NAMES,
    iter_tiles,
    tiles_of,
)
from texas42.core.view import TrickView, View

MAX_ATTEMPTS = 100_000
"""Proposals tried per face-down draw before giving up: a view no deal fits must not hang."""

MIN_PARTICLES = 64
"""The fewest particles a face-down run follows, however few deals are asked for."""

MAX_PARTICLES = 4096
"""Each face-down run that finds nothing is retried with twice the particles, up to this many."""

HALL_BINS = 8
"""The most groups of places a feasibility check weighs one against another (2**8 subsets)."""

_T = TypeVar("_T")

_BIT: tuple[int, ...] = tuple(1 << t for t in range(TILE_COUNT))
_DISTANCE: tuple[int, ...] = tuple(abs(PIPS[t] - 7) for t in range(TILE_COUNT))
_CLOSER: tuple[int, ...] = tuple(
    sum(SEVENS_DISTANCE_MASKS[:d]) for d in range(len(SEVENS_DISTANCE_MASKS) + 1)
)
"""Tiles strictly closer to 7 than distance d: what a Sevens play at distance d shows absent."""


@dataclass(frozen=True, slots=True)
class World:
    """One full deal as it stands now: every seat's holding, the tiles of each face-down trick
    in play order (the viewer's own tile included), and the ``pool`` of tiles in play that no
    hand holds and nobody has seen: set aside, the widow before it is taken, another seat's
    discards."""

    hands: tuple[int, ...]
    hidden: tuple[tuple[int, ...], ...]
    pool: int = 0


@dataclass(frozen=True, slots=True)
class _Need:
    """A call's promise about another seat's dealt hand: ``tile`` (or -1) drawn, and at least
    ``doubles`` doubles."""

    seat: int
    tile: int
    doubles: int


@dataclass(frozen=True, slots=True)
class _Hidden:
    """A face-down trick as the sampler needs it.

    ``later[s]`` is what seat ``s`` is seen to play after this trick (for the viewer: everything
    it held after it), which its play here must not contradict; ``caps[p]`` is what the seat at
    position ``p`` could have played given only that; ``after[s]`` counts the unseen places of
    seat ``s`` in later face-down tricks. ``lacks[s]`` is what seat ``s`` surely held none of
    when this trick was played, whatever the unseen tiles (a Sevens trick the viewer won shows
    the others held nothing as close to 7), and ``ahead[s]`` pairs its later places with what it
    surely lacked at each.
    """

    seats: tuple[int, ...]
    win_pos: int
    view_pos: int
    mine: int
    first: bool
    later: tuple[int, ...]
    caps: tuple[int, ...]
    after: tuple[int, ...]
    lacks: tuple[int, ...]
    ahead: tuple[tuple[tuple[int, int], ...], ...]


@dataclass(frozen=True, slots=True)
class _Particle:
    """A world being built: tiles still unplaced, what each seat has shown it lacks since, what
    each seat has played, and the face-down tricks laid so far."""

    unseen: int
    commit: tuple[int, ...]
    played: tuple[int, ...]
    hidden: tuple[tuple[int, ...], ...]


_Option = tuple[int, tuple[tuple[int, int], ...], int]
"""Ways to fill a face-down trick with one lead and winner: (running count, (position, tile) of
the lead, of the winner and of each other place's choices as a mask, count)."""


_Split = tuple[tuple[int, ...], tuple[int, ...]]
"""How one group shares its tiles among its bins, and the state the deal is in after it."""


class _Deal:
    """Exact count and uniform draw of tiles into bins of fixed room, each tile allowed in some
    bins, with some bins needing at least so many doubles."""

    __slots__ = ("choices", "groups", "nbins", "start", "total")

    def __init__(
        self,
        allowed: Sequence[tuple[int, int]],
        room: tuple[int, ...],
        needs: tuple[tuple[int, int], ...],
    ) -> None:
        """``allowed`` pairs each tile with the bit mask of bins it may go to; ``needs`` pairs a
        bin with the doubles it still needs."""
        self.nbins = len(room)
        need_bins = sum(1 << b for b, n in needs if n)
        found: dict[tuple[int, bool], list[int]] = {}
        for t, bins in allowed:
            counted = bool(DOUBLES >> t & 1) and bool(bins & need_bins)
            found.setdefault((bins, counted), []).append(t)
        # the most constrained groups last: their splits are then mostly forced
        keys = sorted(found, key=lambda k: (-k[0].bit_count(), k))
        self.groups = tuple(
            (tuple(b for b in range(self.nbins) if key[0] >> b & 1), tuple(found[key]), key[1])
            for key in keys
        )
        self.start = room + tuple(n for _, n in needs)
        self.choices: dict[tuple[int, tuple[int, ...]], tuple[list[int], list[_Split]]] = {}
        self.total = self._ways(0, self.start, tuple(b for b, _ in needs))

    def _ways(self, i: int, state: tuple[int, ...], need_bins: tuple[int, ...]) -> int:
        """Ways to deal groups ``i..`` into ``state``; records each split's count for drawing."""
        if i == len(self.groups):
            return 0 if any(state) else 1
        known = self.choices.get((i, state))
        if known is not None:
            return known[0][-1] if known[0] else 0
        bins, tiles, counted = self.groups[i]
        cum: list[int] = []
        picks: list[_Split] = []
        total = 0
        for split in _splits(len(tiles), tuple(state[b] for b in bins)):
            after = list(state)
            for b, k in zip(bins, split):
                after[b] -= k
            if counted:
                for r, b in enumerate(need_bins):
                    if b in bins:
                        slot = self.nbins + r
                        after[slot] = max(0, after[slot] - split[bins.index(b)])
            rest = self._ways(i + 1, tuple(after), need_bins)
            if rest:
                total += _multinomial(len(tiles), split) * rest
                cum.append(total)
                picks.append((split, tuple(after)))
        self.choices[(i, state)] = (cum, picks)
        return total

    def every(self) -> Iterator[list[int]]:
        """Every deal once: the mask of each bin."""

        def deal(i: int, state: tuple[int, ...], masks: list[int]) -> Iterator[list[int]]:
            if i == len(self.groups):
                yield masks
                return
            bins, tiles, _ = self.groups[i]
            for split, after in self.choices[(i, state)][1]:
                for shares in _shares(tiles, split):
                    dealt = list(masks)
                    for b, share in zip(bins, shares):
                        dealt[b] |= share
                    yield from deal(i + 1, after, dealt)

        yield from deal(0, self.start, [0] * self.nbins)

    def draw(self, rng: random.Random) -> list[int]:
        """One uniform deal: the mask of each bin."""
        masks = [0] * self.nbins
        state = self.start
        choices = self.choices
        for i, (bins, tiles, _) in enumerate(self.groups):
            cum, picks = choices[(i, state)]
            pick = bisect_right(cum, rng.randrange(cum[-1])) if len(cum) > 1 else 0
            split, state = picks[pick]
            if len(bins) == 1:
                masks[bins[0]] |= sum(map(_BIT.__getitem__, tiles))
                continue
            order = list(tiles)
            rng.shuffle(order)
            pos = 0
            for b, k in zip(bins, split):
                masks[b] |= sum(map(_BIT.__getitem__, order[pos : pos + k]))
                pos += k
        return masks


class DealSampler:
    """Uniform draws of the hidden tiles among all deals consistent with one seat's view.

    ``count()`` is the exact number of consistent deals. With face-down piles it counts the
    proposals instead: worlds whose current hands fit every constraint the face-up plays, the
    calls and the viewer's own face-down winners show directly, with the hidden pool laid into
    the face-down places in every order;
    whether the face-down tricks replay legally is then checked per draw. `fits` says whether
    a world is consistent; `sample` draws only such worlds, each as likely as any other.
    """

    __slots__ = (
        "_aside",
        "_below",
        "_deal",
        "_forbidden",
        "_gone",
        "_hidden",
        "_last_lacks",
        "_needs",
        "_others",
        "_pinned",
        "_pinned_away",
        "_places",
        "_played",
        "_seats",
        "_tiles",
        "_unseen",
        "tables",
        "view",
    )

    def __init__(self, view: View) -> None:
        self.view = view
        self.tables = _tables_of(view)
        layout = view.layout
        self._seats = layout.seats
        self._tiles = layout.tiles
        self._others = tuple(s for s in range(self._seats) if s != view.seat)
        self._forbidden = [0] * self._seats
        self._played = [0] * self._seats
        self._gone = 0
        self._read_face_up()
        if view.hand & self._gone:
            raise Texas42Error("the view holds a tile it has played")
        self._needs = self._read_calls()
        self._pinned_away = [0] * self._seats
        self._pinned = 0
        for need in self._needs:
            if need.tile >= 0:
                self._pinned |= _BIT[need.tile]
                for s in range(self._seats):
                    if s != need.seat:
                        self._pinned_away[s] |= _BIT[need.tile]
        for holder, shown in enumerate(view.face_up):  # a hand laid down lies face up: pinned
            if holder != view.seat and shown:
                self._pinned |= shown
                for s in range(self._seats):
                    if s != holder:
                        self._pinned_away[s] |= shown
        self._hidden = self._read_face_down()
        self._last_lacks = self._hidden[-1].lacks if self._hidden else (0,) * self._seats
        self._places = sum(len(h.seats) - (h.view_pos >= 0) for h in self._hidden)
        self._aside = self._pool_size()
        unseen = self._unseen = self._tiles & ~view.hand & ~self._gone & ~view.discarded
        room = tuple(view.tiles_left[s] for s in self._others)
        if self._hidden:
            room += (self._places,)
        if self._aside:
            room += (self._aside,)
        if sum(room) != unseen.bit_count():
            raise Texas42Error(
                f"the view leaves {unseen.bit_count()} tiles unseen for {sum(room)} places"
            )
        pool_bit = 1 << len(self._others) if self._hidden else 0
        lacking = [self._forbidden[s] | self._last_lacks[s] for s in range(self._seats)]
        allowed = []
        for t in iter_tiles(unseen):
            bins = pool_bit | self._seats_allowed(t, lacking) | self._aside_bit(t, bool(pool_bit))
            if not bins:
                raise Texas42Error(f"no seat can hold {TILE_NAMES[t]} in this view")
            allowed.append((t, bins))
        needs = () if self._hidden else self._doubles_needed(self._played)
        self._deal = _Deal(allowed, room, needs)
        if not self._deal.total:
            raise Texas42Error("no deal of the unseen tiles fits this view")
        self._below: dict[tuple[int, int], int] = {}

    # -- reading the view ----------------------------------------------------------------

    def _read_face_up(self) -> None:
        """Note the tiles played face up and what each play shows its player no longer holds."""
        view, _tables = self.view, self.tables
        for i, trick in enumerate(view.tricks):
            if trick.tiles is not None:
                self._note_face_up(tuple(zip(trick.seats, trick.tiles)), i == 0)
            elif trick.mine is not None:
                self._note_gone(view.seat, trick.mine)
        if view.trick:
            self._note_face_up(view.trick, not view.tricks)

    def _note_face_up(self, pairs: tuple[tuple[int, int], ...], first: bool) -> None:
        assert self.tables is not None
        fol = self.tables.follow[self.tables.led[pairs[0][1]]]
        for p, (s, t) in enumerate(pairs):
            self._note_gone(s, t)
            self._forbidden[s] |= self._shown(first, p, t, fol)

    def _note_gone(self, seat: int, t: int) -> None:
        if self._gone >> t & 1:
            raise Texas42Error(f"{TILE_NAMES[t]} is played twice in the view")
        self._gone |= _BIT[t]
        self._played[seat] |= _BIT[t]

    def _shown(self, first: bool, pos: int, t: int, fol: int) -> int:
        """The tiles a play of ``t`` at position ``pos`` shows the player held none of then."""
        tables = self.tables
        assert tables is not None
        if tables.sevens:
            return _CLOSER[_DISTANCE[t]]
        if pos == 0:
            if first and self.view.rules.first_lead_trump and not tables.trump_mask >> t & 1:
                return tables.trump_mask
            return 0
        return 0 if fol >> t & 1 else fol

    def _read_calls(self) -> tuple[_Need, ...]:
        """What the calls promise about other seats' dealt hands."""
        view, rules = self.view, self.view.rules
        needs: list[_Need] = []
        if rules.first_bidder == "holder-1-0":
            needs.append(_Need(view.first_bidder, ONE_ZERO, 0))
        for i, call in enumerate(view.calls):
            caller = (view.first_bidder + i) % self._seats
            if call.id == PLUNGE_ID:
                needs.append(_Need(caller, DOUBLE_SIX if rules.plunge_needs_66 else -1, 4))
            elif call.id == SPLASH_ID:
                needs.append(_Need(caller, -1, 3))
        others = []
        for need in needs:
            if need.tile >= 0:
                owner = self._known_holder(need.tile)
                if owner != need.seat and (owner is not None or need.seat == view.seat):
                    raise Texas42Error(
                        f"the calls show seat {need.seat} drew {TILE_NAMES[need.tile]}, "
                        "which the view puts elsewhere"
                    )
            if need.seat != view.seat:
                others.append(need)
            elif (view.dealt & DOUBLES).bit_count() < need.doubles:
                raise Texas42Error(f"seat {need.seat} called without the doubles the call needs")
        return tuple(others)

    def _known_holder(self, t: int) -> int | None:
        """The seat the view shows drew tile ``t``, if any."""
        if self.view.dealt >> t & 1:
            return self.view.seat
        return next((s for s in range(self._seats) if self._played[s] >> t & 1), None)

    def _read_face_down(self) -> tuple[_Hidden, ...]:
        """The face-down tricks, each with what its players are seen to hold or play later."""
        view = self.view
        face_down = [i for i, trick in enumerate(view.tricks) if trick.tiles is None]
        if face_down and self.tables is None:
            raise Texas42Error("a face-down trick needs a known trump")
        lacks: dict[int, tuple[int, ...]] = {}
        known = [0] * self._seats
        for i in face_down:
            for s, shown in self._sure_lacks(view.tricks[i]).items():
                known[s] |= shown
            lacks[i] = tuple(known)
        later = [0] * self._seats
        later[view.seat] = view.hand
        for s, t in view.trick:
            later[s] |= _BIT[t]
        found: list[_Hidden] = []
        places = [0] * self._seats
        ahead: list[list[tuple[int, int]]] = [[] for _ in range(self._seats)]
        for i in range(len(view.tricks) - 1, -1, -1):
            trick = view.tricks[i]
            if trick.tiles is not None:
                for s, t in zip(trick.seats, trick.tiles):
                    later[s] |= _BIT[t]
                continue
            view_pos = trick.seats.index(view.seat) if view.seat in trick.seats else -1
            mine = trick.mine if trick.mine is not None else -1
            found.append(
                _Hidden(
                    seats=trick.seats,
                    win_pos=trick.seats.index(trick.winner),
                    view_pos=view_pos,
                    mine=mine,
                    first=i == 0,
                    later=tuple(later),
                    caps=tuple(self._cap(i == 0, p, later[s]) for p, s in enumerate(trick.seats)),
                    after=tuple(places),
                    lacks=lacks[i],
                    ahead=tuple(tuple(a) for a in ahead),
                )
            )
            if mine >= 0:
                later[view.seat] |= _BIT[mine]
            for s in trick.seats:
                if s != view.seat:
                    places[s] += 1
                    _add_place(ahead[s], lacks[i][s])
        return tuple(reversed(found))

    def _sure_lacks(self, trick: TrickView) -> dict[int, int]:
        """What a face-down trick shows the other players lacked, whatever their tiles: in
        Sevens, when the viewer's tile took the trick, everyone else's was farther from 7 (or as
        far, played after it), so they held nothing closer."""
        tables, seat = self.tables, self.view.seat
        assert tables is not None
        if not tables.sevens or trick.winner != seat or trick.mine is None:
            return {}
        near = _DISTANCE[trick.mine]
        before = trick.seats.index(seat)
        return {
            s: _CLOSER[near + 1 if p < before else near]
            for p, s in enumerate(trick.seats)
            if s != seat
        }

    def _cap(self, first: bool, pos: int, later: int) -> int:
        """What a seat could play at ``pos`` of a face-down trick given what it holds later."""
        tables = self.tables
        assert tables is not None
        if tables.sevens:
            return _CLOSER[min((_DISTANCE[t] for t in iter_tiles(later)), default=7) + 1]
        if pos == 0 and first and self.view.rules.first_lead_trump and later & tables.trump_mask:
            return tables.trump_mask
        return ALL_TILES

    def _seats_allowed(self, t: int, forbidden: list[int]) -> int:
        """Bit mask over ``self._others`` of the seats whose current hand may hold ``t``."""
        bins = 0
        for b, s in enumerate(self._others):
            if not (forbidden[s] | self._pinned_away[s]) >> t & 1:
                bins |= 1 << b
        return bins

    def _aside_bit(self, t: int, places: bool) -> int:
        """The bit of the unseen pool's bin (after the other seats' bins, and the face-down
        places' bin when the deal has one) if ``t`` may lie there, else 0: a tile a call shows
        was dealt may not."""
        if not self._aside or self._pinned >> t & 1:
            return 0
        return 1 << (len(self._others) + places)

    def _pool_size(self) -> int:
        """How many tiles nobody holds or has shown this seat: those set aside, the widow until
        it is taken, and the bid winner's discards when another seat laid them."""
        view, layout = self.view, self.view.layout
        if view.declarer is None or not layout.widow:
            return layout.set_aside + layout.widow
        return layout.set_aside + (0 if view.seat == view.declarer else len(view.discards))

    def _doubles_needed(self, played: list[int]) -> tuple[tuple[int, int], ...]:
        """(bin, doubles still to find in the current hand) for each call that needs doubles."""
        return tuple(
            (self._others.index(n.seat), max(0, n.doubles - (played[n.seat] & DOUBLES).bit_count()))
            for n in self._needs
            if n.doubles
        )

    # -- counting and drawing ------------------------------------------------------------

    def count(self) -> int:
        """The exact number of consistent deals (face-down piles: of proposals, see the class)."""
        return self._deal.total * math.factorial(self._places)

    def sample(self, rng: random.Random) -> World:
        """One deal drawn uniformly among those consistent with the view."""
        if not self._hidden:
            return self._propose(rng)
        for _ in range(MAX_ATTEMPTS):
            world = self._propose(rng)
            if self._replays(world):
                return world
        raise Texas42Error(
            f"no deal that replays the {len(self._hidden)} face-down tricks turned up in "
            f"{MAX_ATTEMPTS} tries; weighted() builds them trick by trick instead"
        )

    def worlds(self, limit: int) -> list[World] | None:
        """Every consistent deal, when the piles are face up and there are at most ``limit``;
        otherwise None. For an endgame, where sampling would only add noise."""
        if self._hidden or self.count() > limit:
            return None
        return [self._world(masks, ()) for masks in self._deal.every()]

    def samples(self, n: int, rng: random.Random) -> list[World]:
        """``n`` independent uniform draws."""
        return [self.sample(rng) for _ in range(n)]

    def weighted(
        self, n: int, rng: random.Random, weight: Callable[[World], float]
    ) -> list[tuple[World, float]]:
        """``n`` consistent deals with weights summing to 1 that estimate the uniform belief
        reweighted by ``weight(world)`` (for instance how likely the world makes the bids seen).

        Without face-down tricks the deals are uniform draws and the weights are ``weight``
        normalised. With them, exact draws grow too rare, so the deals are built trick by trick
        as weighted particles (see `_particles`) and ``weight`` multiplies the particles'
        weights.
        """
        if n < 1:
            raise Texas42Error(f"weighted() needs at least one deal, not {n}")
        if self._hidden:
            pairs: list[tuple[World, float]] = []
            particles = max(n, MIN_PARTICLES)
            while not pairs:
                if particles > max(n, MAX_PARTICLES):
                    raise Texas42Error(
                        f"no deal fitting the {len(self._hidden)} face-down tricks turned up "
                        f"among {particles // 2} particles"
                    )
                pairs = self._particles(particles, n, rng)
                particles *= 2
        else:
            pairs = [(self.sample(rng), 1.0) for _ in range(n)]
        raw = []
        for world, chance in pairs:
            x = float(weight(world))
            if not (math.isfinite(x) and x >= 0):
                raise Texas42Error(f"a deal weight must be finite and not negative, not {x}")
            raw.append(x * chance)
        total = math.fsum(raw)
        if total <= 0:
            raise Texas42Error(f"all {len(pairs)} sampled deals have weight 0")
        return [(world, x / total) for (world, _), x in zip(pairs, raw)]

    def _propose(self, rng: random.Random) -> World:
        """A uniform draw of the current hands and, face down, of the hidden pool's order."""
        masks = self._deal.draw(rng)
        if not self._hidden:
            return self._world(masks, ())
        pool = tiles_of(masks[len(self._others)])
        rng.shuffle(pool)
        hidden = []
        pos = 0
        for h in self._hidden:
            tiles = []
            for p in range(len(h.seats)):
                if p == h.view_pos:
                    tiles.append(h.mine)
                else:
                    tiles.append(pool[pos])
                    pos += 1
            hidden.append(tuple(tiles))
        return self._world(masks, tuple(hidden))

    def _world(self, masks: list[int], hidden: tuple[tuple[int, ...], ...]) -> World:
        """The world of a deal into the bins: the other seats' hands, then (when there are
        such) the face-down places and the unseen pool."""
        hands = [0] * self._seats
        hands[self.view.seat] = self.view.hand
        for b, s in enumerate(self._others):
            hands[s] = masks[b]
        return World(tuple(hands), hidden, masks[-1] if self._aside else 0)

    # -- face-down tricks ----------------------------------------------------------------

    def _viewer_legal(self, h: _Hidden, lead: int) -> bool:
        """Whether the viewer's own tile was a legal play to a face-down trick with this lead."""
        hand = h.later[self.view.seat] | _BIT[h.mine]
        trick = (lead,) if h.view_pos else ()
        return bool(legal_plays(self.view.rules, self.tables, hand, trick, h.first) >> h.mine & 1)

    def _replays(self, world: World) -> bool:
        """Face-down tricks legal with their winners, current hands true to them, calls kept."""
        tables = self.tables
        commit = [0] * self._seats
        dealt = [world.hands[s] | self._played[s] for s in range(self._seats)]
        for h, tiles in zip(self._hidden, world.hidden):
            assert tables is not None
            fol = tables.follow[tables.led[tiles[0]]]
            for p, s in enumerate(h.seats):
                t = tiles[p]
                if p == h.view_pos:
                    if not self._viewer_legal(h, tiles[0]):
                        return False
                    continue
                if commit[s] >> t & 1:
                    return False
                shown = self._shown(h.first, p, t, fol)
                if shown & h.later[s]:
                    return False
                commit[s] |= shown
                dealt[s] |= _BIT[t]
            if tables.trick_winner(tiles) != h.win_pos:
                return False
        for s in self._others:
            if world.hands[s] & commit[s]:
                return False
        return self._kept(dealt)

    def _kept(self, dealt: list[int]) -> bool:
        for need in self._needs:
            held = dealt[need.seat]
            if need.tile >= 0 and not held >> need.tile & 1:
                return False
            if (held & DOUBLES).bit_count() < need.doubles:
                return False
        return True

    def _particles(self, n: int, want: int, rng: random.Random) -> list[tuple[World, float]]:
        """``want`` worlds built forward from ``n`` particles by sequential importance sampling,
        with their weights (none if every particle died).

        Each particle lays the face-down tricks in order, every trick drawn uniformly among the
        ways to fill it that are legal given what it has laid so far (and what is seen later),
        leaving out plays that would leave some seat too few tiles it may hold; then it deals
        the current hands uniformly. Its weight is the product of those numbers of ways, the
        inverse of its chance up to a constant. A particle that reaches a dead end, or leaves
        tiles no seat can take, gets weight 0, and when the weights grow uneven the particles
        are resampled in proportion to them, so the population follows the histories that fit.
        """
        unseen = self._unseen
        states: list[_Particle] = [
            _Particle(unseen, (0,) * self._seats, tuple(self._played), ()) for _ in range(n)
        ]
        weights = [1.0] * n
        for h in self._hidden:
            cache: dict[tuple[int, tuple[int, ...]], tuple[list[_Option], int]] = {}
            for k, state in enumerate(states):
                if not weights[k]:
                    continue
                key = (state.unseen, state.commit)
                if key not in cache:
                    cache[key] = self._trick_options(h, state.unseen, list(state.commit))
                options, total = cache[key]
                if not total:
                    weights[k] = 0.0
                    continue
                weights[k] *= total
                states[k] = self._lay(state, h, self._draw_trick(h, options, rng))
                if not self._may_finish(states[k]):
                    weights[k] = 0.0
            weights = _normalised(weights)
            if sum(weights) ** 2 < 0.5 * n * sum(w * w for w in weights):
                states = _resample(states, weights, rng, n)
                weights = [1.0] * n
        live: list[tuple[World, float]] = []
        deals: dict[tuple[object, ...], _Deal] = {}
        for k, state in enumerate(states):
            dealt = self._deal_rest(state, rng, deals) if weights[k] else None
            if dealt is not None:
                live.append((dealt[0], weights[k] * dealt[1]))
        if not live:
            return []
        worlds = [world for world, _ in live]
        weights = _normalised([x for _, x in live])
        if len(worlds) != want:
            worlds = _resample(worlds, weights, rng, want)
            weights = [1.0 / want] * want
        return list(zip(worlds, weights))

    def _lay(self, state: _Particle, h: _Hidden, tiles: tuple[int, ...]) -> _Particle:
        """The particle after a face-down trick is filled with ``tiles``."""
        assert self.tables is not None
        fol = self.tables.follow[self.tables.led[tiles[0]]]
        unseen, commit, played = state.unseen, list(state.commit), list(state.played)
        for p, s in enumerate(h.seats):
            if p != h.view_pos:
                commit[s] |= self._shown(h.first, p, tiles[p], fol)
                played[s] |= _BIT[tiles[p]]
                unseen &= ~_BIT[tiles[p]]
        return _Particle(unseen, tuple(commit), tuple(played), state.hidden + (tiles,))

    def _may_finish(self, state: _Particle) -> bool:
        """Whether the unplaced tiles can still fill every seat's later face-down places and
        current hand, each from the tiles it has not shown it lacks."""
        h = self._hidden[len(state.hidden) - 1]
        return self._room_left(h, state.unseen, list(state.commit), ())

    def _room_left(
        self, h: _Hidden, unseen: int, commit: list[int], playing: tuple[int, ...]
    ) -> bool:
        """Hall's condition for dealing ``unseen`` to every seat's places after face-down trick
        ``h`` and its current hand (plus one place in ``h`` for each seat in ``playing``), each
        place taking only tiles its seat has not shown it lacks: a necessary condition for a
        world to fit. Past `HALL_BINS` groups of places, a seat's later places merge into one
        group that lacks only what all of them lack, and past that again (big tables) with its
        current hand too, which keeps the condition necessary. The unseen pool takes any tile a
        call does not tie to a hand."""
        for merged in range(3):
            bins: dict[int, int] = {}
            if self._aside:
                bins[unseen & ~self._pinned] = self._aside
            for s in self._others:
                lacks = commit[s] | self._pinned_away[s]
                places = list(h.ahead[s])
                if s in playing:
                    places.append((1, h.lacks[s]))
                if self.view.tiles_left[s] and merged == 2:
                    places.append(
                        (self.view.tiles_left[s], self._forbidden[s] | self._last_lacks[s])
                    )
                if merged and places:
                    common = ALL_TILES
                    for _, lacked in places:
                        common &= lacked
                    places = [(sum(c for c, _ in places), common)]
                for count, lacked in places:
                    allowed = unseen & ~(lacks | lacked)
                    bins[allowed] = bins.get(allowed, 0) + count
                if self.view.tiles_left[s] and merged < 2:
                    allowed = unseen & ~(lacks | self._forbidden[s] | self._last_lacks[s])
                    bins[allowed] = bins.get(allowed, 0) + self.view.tiles_left[s]
            if len(bins) <= HALL_BINS:
                break
        groups = list(bins.items())
        reach = [0] * (1 << len(groups))
        need = [0] * (1 << len(groups))
        for subset in range(1, 1 << len(groups)):
            low = subset & -subset
            tiles, room = groups[low.bit_length() - 1]
            reach[subset] = reach[subset ^ low] | tiles
            need[subset] = need[subset ^ low] + room
            if reach[subset].bit_count() < need[subset]:
                return False
        return True

    def _deal_rest(
        self, state: _Particle, rng: random.Random, deals: dict[tuple[object, ...], _Deal]
    ) -> tuple[World, int] | None:
        """The current hands dealt uniformly after the face-down tricks, with their count
        (``deals`` keeps the counts of particles that share their constraints)."""
        forbidden = [self._forbidden[s] | state.commit[s] for s in range(self._seats)]
        allowed = []
        for t in iter_tiles(state.unseen):
            bins = self._seats_allowed(t, forbidden) | self._aside_bit(t, False)
            if not bins:
                return None
            allowed.append((t, bins))
        needs = self._doubles_needed(list(state.played))
        key = (tuple(allowed), needs)
        deal = deals.get(key)
        if deal is None:
            room = tuple(self.view.tiles_left[s] for s in self._others)
            if self._aside:
                room += (self._aside,)
            deal = deals[key] = _Deal(allowed, room, needs)
        if not deal.total:
            return None
        return self._world(deal.draw(rng), state.hidden), deal.total

    def _below_mask(self, suit: int, power: int) -> int:
        """Tiles that play weaker than ``power`` to a trick led in ``suit``."""
        key = (suit, power)
        mask = self._below.get(key)
        if mask is None:
            assert self.tables is not None
            ranks = self.tables.power[suit]
            mask = sum(_BIT[t] for t in range(TILE_COUNT) if ranks[t] < power)
            self._below[key] = mask
        return mask

    def _trick_options(
        self, h: _Hidden, unseen: int, commit: list[int]
    ) -> tuple[list[_Option], int]:
        """Every legal way to fill a face-down trick's unseen places, grouped by the tiles that
        lead and win it: (cumulative count, the fixed tiles, each other place with its choices)."""
        tables = self.tables
        assert tables is not None
        seats, win_pos, view_pos = h.seats, h.win_pos, h.view_pos
        known: dict[tuple[int, int], bool] = {}

        def could_lack(s: int, shown: int) -> bool:
            if (s, shown) not in known:
                known[(s, shown)] = self._could_lack(h, s, shown, unseen, commit)
            return known[(s, shown)]

        base = [
            unseen & ~(commit[s] | self._pinned_away[s] | h.lacks[s]) & h.caps[p]
            for p, s in enumerate(seats)
        ]
        for p, s in enumerate(seats):
            if p == view_pos:
                continue
            if tables.sevens:
                far = max(
                    (d for d in range(8) if could_lack(s, _CLOSER[d])),
                    default=-1,
                )
                base[p] &= _CLOSER[far + 1]
            elif (
                p == 0
                and h.first
                and self.view.rules.first_lead_trump
                and not could_lack(s, tables.trump_mask)
            ):
                base[p] &= tables.trump_mask
        leads = [h.mine] if view_pos == 0 else tiles_of(base[0])
        options: list[_Option] = []
        total = 0
        for lead in leads:
            suit = tables.led[lead]
            fol = tables.follow[suit]
            ranks = tables.power[suit]
            if view_pos > 0 and not self._viewer_legal(h, lead):
                continue
            masks = [0] * len(seats)
            for p in range(1, len(seats)):
                if p != view_pos:
                    masks[p] = base[p] & ~_BIT[lead]
                    if not tables.sevens and (
                        h.later[seats[p]] & fol or not could_lack(seats[p], fol)
                    ):
                        masks[p] &= fol
            fixed = {0: lead}
            if view_pos >= 0:
                fixed[view_pos] = h.mine
            winners = [fixed[win_pos]] if win_pos in fixed else tiles_of(masks[win_pos])
            for win in winners:
                top = ranks[win]
                if any(
                    ranks[t] >= top if p < win_pos else ranks[t] > top
                    for p, t in fixed.items()
                    if p != win_pos
                ):
                    continue
                weaker = self._below_mask(suit, top)
                no_stronger = self._below_mask(suit, top + 1)
                rest = tuple(
                    (p, masks[p] & ~_BIT[win] & (weaker if p < win_pos else no_stronger))
                    for p in range(1, len(seats))
                    if p not in (view_pos, win_pos)
                )
                ways = _distinct_ways([m for _, m in rest])
                if ways:
                    total += ways
                    picks = ((0, lead), (win_pos, win))
                    options.append((total, picks + rest, ways))
        return options, total

    def _could_lack(self, h: _Hidden, s: int, shown: int, unseen: int, commit: list[int]) -> bool:
        """Whether seat ``s`` could play a tile to face-down trick ``h`` that shows it lacks
        ``shown``, with tiles still enough for every seat's places and hands."""
        lacking = list(commit)
        lacking[s] |= shown
        playing = tuple(p for p in h.seats if p != self.view.seat)
        return self._room_left(h, unseen, lacking, playing)

    def _draw_trick(
        self, h: _Hidden, options: list[_Option], rng: random.Random
    ) -> tuple[int, ...]:
        """One of the options' tuples, uniformly."""
        cum = [c for c, _, _ in options]
        _, picks, _ = options[bisect_right(cum, rng.randrange(cum[-1]))]
        tiles = [h.mine] * len(h.seats)
        tiles[picks[0][0]] = picks[0][1]
        tiles[picks[1][0]] = picks[1][1]
        rest = picks[2:]
        choices = [tiles_of(m) for _, m in rest]
        while True:
            chosen = [rng.choice(c) for c in choices]
            if len(set(chosen)) == len(chosen):
                break
        for (p, _), t in zip(rest, chosen):
            tiles[p] = t
        return tuple(tiles)

    # -- checking ------------------------------------------------------------------------

    def fits(self, world: World) -> bool:
        """Whether a full world is consistent with the view: the worlds `sample` draws from."""
        view = self.view
        if len(world.hands) != self._seats or world.hands[view.seat] != view.hand:
            return False
        seen = view.hand | self._gone | view.discarded
        for s in self._others:
            held = world.hands[s]
            if held.bit_count() != view.tiles_left[s] or held & (self._forbidden[s] | seen):
                return False
            seen |= held
        if len(world.hidden) != len(self._hidden):
            return False
        for h, tiles in zip(self._hidden, world.hidden):
            if len(tiles) != len(h.seats):
                return False
            for p, t in enumerate(tiles):
                if p == h.view_pos:
                    if t != h.mine:
                        return False
                elif not 0 <= t < TILE_COUNT or seen >> t & 1:
                    return False
                else:
                    seen |= _BIT[t]
        pool = world.pool
        if pool.bit_count() != self._aside or pool & (seen | self._pinned):
            return False
        if seen | pool != self._tiles:
            return False
        if not self._hidden:
            dealt = [world.hands[s] | self._played[s] for s in range(self._seats)]
            return self._kept(dealt)
        return self._replays(world)


def _tables_of(view: View) -> PlayTables | None:
    """The play tables in force, once they are known (``by-lead`` waits for its first lead)."""
    contract = view.contract
    if contract is None:
        return None
    if contract.kind != "by-lead":
        return tables_for(contract, view.rules)
    first = view.tricks[0].tiles if view.tricks else None
    if first is not None:
        return tables_for(contract, view.rules, first_lead=first[0])
    if view.trick:
        return tables_for(contract, view.rules, first_lead=view.trick[0][1])
    return None


def _add_place(places: list[tuple[int, int]], lacks: int) -> None:
    """Count one more place taken by a seat that lacks ``lacks`` there."""
    for k, (count, mask) in enumerate(places):
        if mask == lacks:
            places[k] = (count + 1, mask)
            return
    places.append((1, lacks))


def _normalised(weights: list[float]) -> list[float]:
    total = math.fsum(weights)
    return [w / total for w in weights] if total else weights


def _resample(states: list[_T], weights: list[float], rng: random.Random, n: int) -> list[_T]:
    """Systematic resampling to ``n`` particles: each copied about ``n * weight`` times."""
    out = []
    step = rng.random() / n
    running = 0.0
    k = 0
    for w, state in zip(weights, states):
        running += w
        while k < n and step + k / n < running:
            out.append(state)
            k += 1
    while len(out) < n:
        out.append(states[max(range(len(states)), key=weights.__getitem__)])
    return out


def _splits(size: int, room: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every way to share ``size`` tiles among bins with the given room."""
    if len(room) == 1:
        if size <= room[0]:
            yield (size,)
        return
    rest_room = sum(room[1:])
    for k in range(max(0, size - rest_room), min(size, room[0]) + 1):
        for tail in _splits(size - k, room[1:]):
            yield (k,) + tail


def _shares(tiles: tuple[int, ...], split: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every way to deal ``tiles`` into bins taking ``split[i]`` tiles each, as masks."""
    if len(split) == 1:
        yield (sum(_BIT[t] for t in tiles),)
        return
    for first in combinations(tiles, split[0]):
        rest = tuple(t for t in tiles if t not in first)
        mask = sum(_BIT[t] for t in first)
        for others in _shares(rest, split[1:]):
            yield (mask, *others)


def _multinomial(size: int, split: tuple[int, ...]) -> int:
    ways = math.factorial(size)
    for k in split:
        ways //= math.factorial(k)
    return ways


def _distinct_ways(masks: list[int]) -> int:
    """How many ways to pick one tile from each mask, no tile twice (inclusion-exclusion)."""
    if not masks:
        return 1
    if len(masks) == 1:
        return masks[0].bit_count()
    if len(masks) == 2:
        a, b = masks
        return a.bit_count() * b.bit_count() - (a & b).bit_count()
    if len(masks) > 3:
        return _partition_ways(masks)
    a, b, c = masks
    na, nb, nc = a.bit_count(), b.bit_count(), c.bit_count()
    ab, ac, bc = (a & b).bit_count(), (a & c).bit_count(), (b & c).bit_count()
    return na * nb * nc - ab * nc - ac * nb - bc * na + 2 * (a & b & c).bit_count()


def _partition_ways(masks: list[int]) -> int:
    """`_distinct_ways` for any number of places (big tables): inclusion-exclusion over the set
    partitions of the places, a block of ``k + 1`` places counting ``(-1)**k * k!`` times the
    tiles all of them may take."""
    if not masks:
        return 1
    first, rest = masks[0], masks[1:]
    total = 0
    for k in range(len(rest) + 1):
        for block in combinations(range(len(rest)), k):
            common = first
            for i in block:
                common &= rest[i]
            if common:
                others = [m for i, m in enumerate(rest) if i not in block]
                total += (
                    (-1) ** k * math.factorial(k) * common.bit_count() * _partition_ways(others)
                )
    return total


def dealt_in(view: View) -> Callable[[World, int], int]:
    """For one view, a function from a world and a seat to the tiles that world dealt the seat:
    what it holds now, what it has played, and its tiles in the face-down tricks."""
    played = [0] * view.layout.seats
    for trick in view.tricks:
        if trick.tiles is not None:
            for s, t in zip(trick.seats, trick.tiles):
                played[s] |= 1 << t
    for s, t in view.trick:
        played[s] |= 1 << t
    hidden_seats = [trick.seats for trick in view.tricks if trick.tiles is None]

    def dealt(world: World, seat: int) -> int:
        mask = world.hands[seat] | played[seat]
        for seats, tiles in zip(hidden_seats, world.hidden):
            for s, t in zip(seats, tiles):
                if s == seat:
                    mask |= 1 << t
        return mask

    return dealt

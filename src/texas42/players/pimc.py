"""PimcBot: card play by Perfect Information Monte Carlo, bids and trump by simulation.

**Play.** The bot draws deals consistent with its seat's view (`texas42.search.sampler`), solves
each one double dummy (`texas42.search.solver`) for every legal tile, and plays the tile that is
best for its side over the deals: in a marks game the chance the contract is made (the bidders
push it up, the defenders down), then the bidders' expected total; in a points game the expected
score difference. Ties, common in 42, go to the tile RulesBot would play if it is among them (it
keeps count and partner in mind), else the lowest-ranked tile (keeping the high ones as options).

**Inference** (``inference``): deals are weighted by how well they explain the calls and the
contract: a bidder's dealt hand should be worth its bid, a seat that passed when it could bid
should not have been worth the minimum, and the declarer should have named its best contract.
Hand worth is RulesBot's estimate (`texas42.players.rules_bot.best_contract`). With
``play_inference`` the plays count too: a play RulesBot would not have made, holding that deal's
tiles, halves the deal's weight.

**Endgame** (``endgame``): when few deals fit the view (at most ``endgame_worlds``), every one
of them is used instead of a sample, and in a marks game's last ``endgame_tiles`` tiles they are
searched as one information set (`texas42.players.endgame`): one plan for every deal, no strategy
fusion.

**Bidding** (``bidding="simulation"``): for each contract the bot could name, deals of the other
hands are drawn and solved double dummy from the bot's lead. Double dummy flatters a declarer
who cannot see its partner's hand (about 5.5 points on average, measured), so the chance of
making a point bid is a calibrated estimate: a normal curve around a fitted mix of the mean
double-dummy total and RulesBot's estimate for the hand (`CALIBRATION`); a mark bid's chance is
fitted on RulesBot's loser count (`MARK_CHANCE`: double dummy hardly predicts taking every
trick), Nel-O's the share of deals where the bidder takes none, a plunge's or splash's the mark
chance of partner's hand over the deals. The bot bids the level with the best expected marks,
given who holds the bid and the game score, or passes; it names the contract most likely to make
the bid. With ``bidding="rules"`` it bids and declares like RulesBot.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from texas42.core.actions import (
    ACTIONS,
    PASS_ID,
    PLUNGE_ID,
    SPLASH_ID,
    Action,
    Bid,
    Declare,
    Discard,
    Pass,
    Play,
)
from texas42.core.auction import special_bid_marks
from texas42.core.contracts import Contract, PlayTables, tables_for
from texas42.core.errors import IllegalActionError, Texas42Error
from texas42.core.hand import Hand
from texas42.core.layout import Layout, layout_of
from texas42.core.notation import view_position
from texas42.core.numerals import whole_number
from texas42.core.progress import Phase, sitting_out
from texas42.core.reasons import Reason
from texas42.core.rules import Rules
from texas42.core.tiles import iter_tiles, tiles_of
from texas42.core.view import View, build_view
from texas42.players.endgame import InformationSetSearch
from texas42.players.explain import (
    CallGrounds,
    ContractGrounds,
    PlayGrounds,
    call_reason,
    contract_reason,
    only_choice,
    play_reason,
    public_reason,
)
from texas42.players.reasons import Decision
from texas42.players.rules_bot import (
    RulesBot,
    best_contract,
    candidate_contracts,
    estimate_in,
    worth_in,
)
from texas42.search.sampler import DealSampler, World, dealt_in
from texas42.search.solver import PlayPosition, Solver, points_needed

if TYPE_CHECKING:
    from texas42.players.learned import BidderModel, LearnedBidder

Weighted = list[tuple[World, float]]

Chances = list[tuple[int, float]]
"""Double-dummy totals of one contract over deals, each with the deal's weight."""

CALIBRATION = (-8.96, 0.431, 0.832, 10.69)
"""Points a declarer takes in real play ~ a + b * (mean double-dummy total over the bidding
deals) + c * (RulesBot's estimate), with spread sd: the chance of taking ``need`` is
``Phi((a + b * mean + c * estimate - need + 0.5) / sd)``, fitted by maximum likelihood to whether
1060 random deals reached each of 30..37, the opener naming RulesBot's contract and every seat
played by ``expert`` (the earlier least-squares fit on 160 deals was 2 points too pessimistic
near 30; RulesBot's estimate alone or the double-dummy mean alone both predict worse).
``benchmarks/calibrate_bidding.py`` plays such deals and fits these constants and the next."""

MARK_CHANCE = (-0.178, 0.649, -0.570)
"""Taking all seven tricks, for a hand with losers (RulesBot's count, 1 to 3): logistic in
``a + b * (share of bidding deals double dummy takes all seven) + c * min(losers, 3)``. Fitted on
302 deals with a double-dummy share of 0.4 or more, played as a one-mark contract by ``expert``
bots: double dummy hardly predicts it (a share of 0.8 to 0.9 made 23%), the losers do."""

STANDS_CALIBRATION = (0.116, 0.862, -0.278, 0.077, 0.031, 0.854, 0.280, 0.374, 0.702)
"""A point bid's chance of being made if it stands (nobody outbids it and it is played), from
the simulation's chance (`PimcBot.point_chance`) and what the caller knew when it bid: logistic
in the weights times `stands_features`. Fitted by ``benchmarks/calibrate_bidding.py --records``
on the 8,521 winning point bids ``expert`` made in the 700 game pairs of its run against
``expert@1`` (seed 251, ``benchmarks/README.md``), with a small ridge, and checked with
``--folds 10``: each pair predicted by the fit on the pairs of the other nine folds. The
expert's own bids, not every expert's: how often a bid is made depends on who plays it, and
against whom (against ``eq10`` the same bids were made 2.5 to 3.5 points more often). A bid
that stands is a biased sample: an opening no later seat outbid is made more often than the
simulation says (those seats were weak), the more so the more seats passed after it; an
overcall less often (the opponent it outbid was strong); strong hands more often. The call is
still chosen on the simulation's chance (`call_value`): a bid's worth to the caller counts the
auctions in which it is outbid too, and at the thresholds a pass and a bid were measured to net
the same marks. (The game score, tried as a feature for the side one mark from winning,
predicted no better when each run was left out.)"""

STANDS_KNEES = (0.6, 0.75)
"""Simulated chances at which the stands calibration may bend (`stands_features`' last four
features: beyond each knee, for an overcall and for an opening apart). The simulation is too
cautious with strong hands, and the new expert's overcalls the simulation gave 40% to 60% were
made at 41% to 51%, a flatter line than above 60%. With each tenth of the game pairs left out
in turn, knees at 0.6 and 0.75 predicted better than one knee at 0.75 (Brier 0.21864 against
0.21895) and brought every decile of 100 bids or more within 1.7 points, where one knee left
50-60% 2.6 points high; three or four knees predicted no better."""

_STANDS_KNEE_LOGITS = tuple(math.log(knee / (1 - knee)) for knee in STANDS_KNEES)

SURE_MARK_CHANCE = 0.97
"""Taking all seven tricks when RulesBot counts the hand sure (top trumps and every other tile
the best left)."""

NO_LOSER_MARK_CHANCE = 0.73
"""Taking all seven with no loser counted but not sure: the default of ``no_loser_marks``.
Such mark bids of ``expert@1`` and ``expert``, which took it as 0.8 (4 of 4 such deals had made
it in `MARK_CHANCE`'s data), were made 208 times in 286 (72.7%, 67% to 78%) in the records of
eleven arena runs (``benchmarks/README.md``)."""

DOUBLE_DUMMY_FLATTERY = 5.5
"""Points of 42 by which double dummy over-states what a declarer takes in real play (measured
at four seats). Where `CALIBRATION` was not fitted (other tables), a bid's chance is the share of
bidding deals whose double-dummy total reaches the bid plus this much, scaled to the hand's
total (one trick in Moon)."""

OTHER_TABLE_BID_SAMPLES = 16
"""The most deals a bid or declaration draws away from four seats (`PimcBot.bid_samples`)."""

ROLLOUT_MIN_CHANCE = 0.25
"""With ``auction=rollout``, bids with a smaller chance of being made are not rolled out (the
lowest legal bid always is), to save their time: such a bid rarely leaves more equity than a
pass. It can when the opponents are one hand from winning and likely to bid and make: then the
lowest bid, rolled out, stands for the bids skipped."""

SPECIAL_DISCOUNT = 0.1
"""Taken off the share of deals in which Nel-O makes double dummy (no trick for the bidder)."""


@dataclass(frozen=True, slots=True)
class PimcSettings:
    """What a PIMC bot does and how much work it may spend on one decision."""

    samples: int = 24
    """Deals drawn for a play decision."""
    value_samples: int = 8
    """Of those, how many are also solved exactly for the expected total (the tie-break)."""
    bid_samples: int = 16
    """Deals drawn for a call or a declaration."""
    bid_margin: int = 0
    """Extra points of caution added to every bid when judging its chance."""
    overcall_margin: int = 0
    """Extra points of caution on a point bid over an opponent's: the calibration was fitted on
    openers, and an overcall's hand is judged against an opponent who has shown strength."""
    opponent_makes: float = 0.5
    """How often an opponent's winning bid is taken to make, when weighing a pass against an
    overcall (0.5: letting them play is even)."""
    no_loser_marks: float = NO_LOSER_MARK_CHANCE
    """The chance a hand with no loser counted, but not sure, takes every trick: what a mark
    bid (or partner's plunge) on such a hand is judged on."""
    inference: bool = False
    play_inference: bool = False
    """With ``inference``, also weigh deals by the plays: would RulesBot, holding that deal's
    tiles, have played what each other seat played?"""
    endgame: bool = False
    endgame_worlds: int = 120
    """The exact endgame solves every deal when no more than this many fit the view."""
    endgame_tiles: int = 1
    """With the exact endgame, a marks game's last this many tiles of the seat are searched over
    the information set (one plan for every deal) instead of deal by deal; 1 leaves it off (3
    measured -0.01 marks a hand, -0.01 to +0.00, against the same bot without it)."""
    bidding: str = "simulation"
    """How calls are chosen: ``simulation``, ``rules`` (RulesBot's) or ``learned``
    (`texas42.players.learned`: match equity over chances learned from self-play, where the
    model applies, else simulation)."""
    declaring: str = "simulation"
    """How the contract is chosen: ``simulation``, ``rules`` (RulesBot's) or ``learned``."""
    time_limit: float = 0.0
    """Seconds after which a decision stops drawing deals (0: no limit; a limit makes the bot's
    choices depend on the machine's speed, so the arena leaves it at 0)."""
    objective: str = "make"
    """What a play maximises in a marks game: ``make``, the chance the contract is made (or set)
    with the expected total as the tie-break, or ``points``, the expected total (of the deals
    solved exactly, ``value_samples``), as the field's published PIMC players do."""
    call_model: bool = False
    """Weigh deals by the learned model of how the other seats call given their tiles
    (`texas42.players.call_model`) instead of the hand-made model of the calls; the inference
    from the contract and the plays stays as ``inference`` and ``play_inference`` set it."""
    auction: str = "fixed"
    """How a call is weighed against the rest of the auction: ``fixed``, its expected marks as
    if it stands against a pass worth `pass_value`'s constants, or ``rollout``, the match equity
    once the other seats' calls are rolled out by the learned model of how seats call
    (`texas42.players.rollout`), which values a pass by what the others then do and a bid by
    how often it is outbid."""
    bidder_model: str = "shipped"
    """The learned bidder's model file (``learned`` bidding and declaring, ``call_model``):
    ``shipped``, the one in the package, or a path (``texas42 bidder rebuild`` plays each round
    with the round before's model)."""

    @classmethod
    def expert(cls) -> PimcSettings:
        """Inference and the exact endgame on, three times the bidding deals (measured: 16
        bidding deals lost 0.11 marks a hand to RulesBot's calls, 48 gained 0.03), twice the
        play deals, and a pass over an opponent's bid valued as letting them make it 60% of
        the time (each measured about +0.014 marks a hand against ``expert@1``;
        ``benchmarks/README.md``)."""
        return cls(inference=True, endgame=True, bid_samples=48, samples=48, opponent_makes=0.6)

    def with_options(self, options: dict[str, str]) -> PimcSettings:
        """These settings with ``key=value`` options applied, each checked."""
        changes: dict[str, object] = {}
        types = {f.name: f.type for f in fields(self)}
        for key, text in options.items():
            if key not in types:
                raise Texas42Error(f"pimc has no option {key!r}: choose from {', '.join(types)}")
            kind = types[key]
            if kind == "bool":
                if text.lower() not in ("on", "off", "true", "false", "1", "0", "yes", "no"):
                    raise Texas42Error(f"pimc option {key} is on or off, not {text!r}")
                changes[key] = text.lower() in ("on", "true", "1", "yes")
            elif kind == "int":
                signed = key in ("bid_margin", "overcall_margin")
                number = whole_number(text, signed=signed)
                if number is None or (not signed and number < 1):
                    kind_name = "a whole number" if signed else "a positive whole number"
                    raise Texas42Error(f"pimc option {key} is {kind_name}, not {text!r}")
                changes[key] = number
            elif kind == "float":
                try:
                    value = float(text)
                except ValueError:
                    value = math.nan
                if key == "time_limit":  # seconds; nan and inf fail the comparisons too
                    if not 0.0 <= value < math.inf:
                        raise Texas42Error(
                            f"pimc option {key} is a number of seconds, 0 or more, not {text!r}"
                        )
                elif not 0.0 <= value <= 1.0:
                    raise Texas42Error(f"pimc option {key} is a chance from 0 to 1, not {text!r}")
                changes[key] = value
            elif key == "bidder_model":
                changes[key] = text
            else:
                allowed = CHOICES[key]
                if text not in allowed:
                    raise Texas42Error(f"pimc option {key} is {' or '.join(allowed)}, not {text!r}")
                changes[key] = text
        return replace(self, **changes)  # type: ignore[arg-type]


CHOICES = {
    "bidding": ("simulation", "rules", "learned"),
    "declaring": ("simulation", "rules", "learned"),
    "objective": ("make", "points"),
    "auction": ("fixed", "rollout"),
}
"""The words each option of `PimcSettings` that is a word may take."""


@dataclass(frozen=True, slots=True)
class PlayEstimate:
    """What the bidders can expect after one tile, over the deals: the chance the contract is
    made, their expected total (Nel-O: the bidder's tricks), and in a points game the expected
    score difference."""

    make: float
    total: float
    difference: float


class PimcBot:
    """A search player; see the module docstring. Deterministic for a seed and a view."""

    def __init__(self, settings: PimcSettings | None = None, seed: int = 0, name: str = "PIMC"):
        self.settings = settings or PimcSettings()
        self.seed = seed
        self.name = name
        self.solver = Solver()
        self._rules_bot = RulesBot(name)
        self._chances: dict[tuple[object, ...], dict[Contract, Chances]] = {}
        self._specials: dict[tuple[object, ...], float] = {}
        self.learned: LearnedBidder | None = None
        """The learned bidder (`texas42.players.learned`), made when first needed."""
        learns = "learned" in (self.settings.bidding, self.settings.declaring)
        if self.settings.bidder_model != "shipped" and (learns or self.settings.call_model):
            self._learned()  # a model file named in the spec is read now: a bad one is refused

    def choose(self, view: View) -> Action:
        return self._decide(view)[0]

    def explain(self, view: View) -> Decision:
        """`choose`'s action with its reason, made from the numbers it was chosen on."""
        action, grounds = self.judge(view)
        return Decision(action, self.reason(view, action, grounds))

    def judge(self, view: View) -> tuple[Action, Grounds]:
        """`choose`'s action and the numbers it was chosen on, for a caller (the hints) that
        shows those numbers and the `reason` told from them without judging twice."""
        return self._decide(view)

    def reason(self, view: View, action: Action, grounds: Grounds) -> Reason:
        """The words for ``action`` from the grounds `judge` gave for it."""
        if isinstance(grounds, PlayGrounds):
            assert isinstance(action, Play)
            return play_reason(view, action.tile, grounds)
        if isinstance(grounds, CallGrounds):
            return call_reason(view, action, self._with_contract(view, grounds))
        if isinstance(grounds, ContractGrounds):
            contract = action.contract if isinstance(action, Declare) else grounds.scores[0][0]
            return contract_reason(view, action, contract, grounds)
        return grounds

    def _decide(self, view: View) -> tuple[Action, Grounds]:
        """The action and what it was chosen on: the one path of `choose` and `explain`."""
        if not view.legal:
            raise IllegalActionError(f"seat {view.seat} has nothing to do: it is not its turn")
        if len(view.legal) == 1:
            return view.legal[0], only_choice(view)
        rng = random.Random(f"{self.seed}:{view_position(view)}")
        if view.phase == Phase.PLAY:
            return self._play(view, rng)
        if view.phase == Phase.AUCTION:
            if self.settings.bidding == "rules":
                return _decided(self._rules_bot.explain(view))
            if self.settings.bidding == "learned" and self._learned().applies(view):
                return self._learned().decide_call(view)
            return self._call(view, rng)
        if self.settings.declaring == "rules":
            return _decided(self._rules_bot.explain(view))
        if self.settings.declaring == "learned" and view.phase == Phase.DECLARE:
            learned = self._learned()
            found = learned.decide_declare(view) if learned.applies(view) else None
            if found is not None:
                return found
        if view.phase == Phase.DISCARD:
            return self._discard(view)
        return self._declare(view, rng)

    def _learned(self) -> LearnedBidder:
        if self.learned is None:
            from texas42.players.learned import LearnedBidder, load_model

            path = self.settings.bidder_model
            self.learned = LearnedBidder(load_model(None if path == "shipped" else path))
        return self.learned

    # -- deals -----------------------------------------------------------------------------

    def worlds(self, view: View, n: int, rng: random.Random) -> Weighted:
        """Deals that fit the view with weights summing to 1: every deal in an endgame, else a
        sample; weighted by the inference model when it is on."""
        return self._worlds(view, n, rng)[0]

    def _worlds(self, view: View, n: int, rng: random.Random) -> tuple[Weighted, bool]:
        """`worlds`, and whether they are every deal that fits the view."""
        sampler = DealSampler(view)
        settings = self.settings
        weight = (
            _weigher(view, settings.play_inference, calls=not settings.call_model)
            if settings.inference
            else None
        )
        if settings.call_model:
            from texas42.players.call_model import call_weigher

            weight = call_weigher(view, weight, self._learned().model)
        if settings.endgame and view.phase == Phase.PLAY:
            every = sampler.worlds(settings.endgame_worlds)
            if every is not None:
                return _normalised(every, weight), True
        if view.piles_face_down and view.tricks:
            return sampler.weighted(n, rng, weight or (lambda world: 1.0)), False
        return _normalised(self._draw(sampler, n, rng), weight), False

    def estimates(self, view: View, rng: random.Random) -> tuple[dict[int, PlayEstimate], Weighted]:
        """For each legal tile what the bidders can expect, and the deals it was judged on.

        In a marks game's last ``endgame_tiles`` tiles, when every deal that fits the view is
        known, an information-set search (`texas42.players.endgame`) judges them: the seat's own
        plays form one plan for all the deals, not one per deal. Otherwise each deal is solved
        double dummy (`play_estimates`).
        """
        found, worlds, _ = self._estimates(view, rng)
        return found, worlds

    def _estimates(
        self, view: View, rng: random.Random
    ) -> tuple[dict[int, PlayEstimate], Weighted, bool]:
        """`estimates`, and whether the deals are every one that fits the view."""
        worlds, every = self._worlds(view, self.settings.samples, rng)
        if (
            every
            and view.rules.game == "marks"
            and view.hand.bit_count() <= self.settings.endgame_tiles
            and view.hand.bit_count() > 1
        ):
            positions = [PlayPosition.from_view(view, w.hands, w.hidden) for w, _ in worlds]
            search = InformationSetSearch(view.seat, [weight for _, weight in worlds], self.solver)
            found = search.estimates(positions)
            return {t: PlayEstimate(e.make, e.total, 0.0) for t, e in found.items()}, worlds, every
        return self.play_estimates(view, worlds), worlds, every

    def _draw(self, sampler: DealSampler, n: int, rng: random.Random) -> list[World]:
        limit = self.settings.time_limit
        if not limit:
            return sampler.samples(n, rng)
        deadline = time.perf_counter() + limit / 2
        drawn = [sampler.sample(rng)]
        while len(drawn) < n and time.perf_counter() < deadline:
            drawn.append(sampler.sample(rng))
        return drawn

    # -- the play --------------------------------------------------------------------------

    def _play(self, view: View, rng: random.Random) -> tuple[Action, PlayGrounds]:
        estimates, worlds, every = self._estimates(view, rng)
        scores = self.play_scores(view, estimates)
        grounds = _play_grounds(view, estimates, scores, worlds, every, self.settings)
        top, second = max(scores.values())
        tied = [t for t, (a, b) in scores.items() if a >= top - 1e-9 and b >= second - 1e-9]
        if len(tied) > 1:
            preferred = self._rules_bot.choose(view)
            if isinstance(preferred, Play) and preferred.tile in tied:
                return preferred, replace(grounds, tie="rules")
            tables = PlayPosition.from_view(view, worlds[0][0].hands, worlds[0][0].hidden).tables
            if tables is not None:
                suit = tables.led[view.trick[0][1]] if view.trick else None
                tile = min(tied, key=lambda t: (_rank(tables, suit, t), t))
                return Play(tile), replace(grounds, tie="lowest")
        return Play(tied[0]), grounds

    def play_estimates(self, view: View, worlds: Weighted) -> dict[int, PlayEstimate]:
        """For each legal tile, what the bidders can expect after it over the deals."""
        tiles = [a.tile for a in view.legal if isinstance(a, Play)]
        made = dict.fromkeys(tiles, 0.0)
        total = dict.fromkeys(tiles, 0.0)
        margin = dict.fromkeys(tiles, 0.0)
        weight_valued = 0.0
        points_game = view.rules.game == "points"
        limit = self.settings.time_limit
        deadline = time.perf_counter() + limit if limit else math.inf
        used = 0.0
        for k, (world, weight) in enumerate(worlds):
            if k and time.perf_counter() > deadline:
                break
            used += weight
            position = PlayPosition.from_view(view, world.hands, world.hidden)
            exact = points_game or k < self.settings.value_samples
            if exact:
                weight_valued += weight
            for t in tiles:
                child = position.play(t)
                if exact:
                    value = child.taken + self.solver.value(child)
                    total[t] += weight * value
                    makes = value == 0 if child.nello else value >= child.goal
                    if points_game:
                        margin[t] += weight * _score_difference(child, value, makes)
                else:
                    makes = self.solver.makes(child)
                made[t] += weight * makes
        return {
            t: PlayEstimate(
                make=made[t] / used if used else 0.0,
                total=total[t] / weight_valued if weight_valued else 0.0,
                difference=margin[t] / weight_valued if points_game and weight_valued else 0.0,
            )
            for t in tiles
        }

    def play_scores(
        self, view: View, estimates: dict[int, PlayEstimate]
    ) -> dict[int, tuple[float, float]]:
        """For each tile: (how good for this seat's side, the tie-break), higher better.

        Marks game: the chance the contract is made (the defenders' score is the chance it is
        set), then the bidders' expected total (the other way round for the defenders, and for
        Nel-O, whose total counts the bidder's tricks); with ``objective=points`` the two the
        other way round. Points game: the expected score difference, then nothing.
        """
        assert view.bidder is not None
        sign = 1.0 if view.layout.same_side(view.seat, view.bidder) else -1.0
        nello = view.contract is not None and view.contract.kind == "nello"
        if view.rules.game == "points":
            return {t: (sign * e.difference, 0.0) for t, e in estimates.items()}
        value_sign = -sign if nello else sign
        if self.settings.objective == "points":
            return {t: (value_sign * e.total, sign * e.make) for t, e in estimates.items()}
        return {t: (sign * e.make, value_sign * e.total) for t, e in estimates.items()}

    # -- the auction -----------------------------------------------------------------------

    def contract_chances(self, view: View) -> dict[Contract, Chances]:
        """Double-dummy totals (Nel-O: tricks the bidder takes), each with its deal's weight,
        for the contracts this seat could name, with this seat declaring and leading.

        The contracts are the three trumps RulesBot rates highest for the hand, and Nel-O and
        Sevens where the rules have them. Without inference the deals are drawn from the seat's
        tiles alone, so the answer depends only on the hand and the call and the declaration
        share it; with inference they are weighted by the calls so far as well.
        """
        calls = tuple(a.id for a in view.calls) if self.settings.inference else ()
        key = (view.seat, view.hand, view.rules, calls)
        known = self._chances.get(key)
        if known is not None:
            return known
        rng = random.Random(f"{self.seed}:chances:{view.seat}:{view.hand}:{calls}")
        n = self.bid_samples(view)
        if self.settings.inference or view.widow:
            worlds = self.worlds(view, n, rng)
        else:
            worlds = [(w, 1.0 / n) for w in DealSampler(_opening_view(view)).samples(n, rng)]
        contracts = candidate_contracts(view.rules, view.hand)
        found: dict[Contract, Chances] = {c: [] for c in contracts}
        for world, weight in worlds:
            held = _with_widow(view, world, rng)
            for contract in contracts:
                hands = _trial_hands(view, world.hands, held, contract)
                position = _trial_position(view, hands, contract)
                if position.nello:
                    value = 0 if self.solver.makes(position) else 1
                else:
                    value = self.solver.value(position)
                found[contract].append((value, weight))
        if len(self._chances) > 64:
            self._chances.clear()
        self._chances[key] = found
        return found

    def bid_samples(self, view: View) -> int:
        """Deals drawn for a call or a declaration: as set at four seats; elsewhere at most
        `OTHER_TABLE_BID_SAMPLES`, fewer where deals have more tricks to solve (three-hand's
        nine), since no calibration there would use the extra deals."""
        n = self.settings.bid_samples
        if _calibrated(view):
            return n
        tricks = view.layout.tricks
        cap = OTHER_TABLE_BID_SAMPLES * min(1.0, (7 / tricks) ** 3)
        return max(1, min(n, round(cap)))

    def _call(self, view: View, rng: random.Random) -> tuple[Action, Grounds]:
        legal = view.legal
        bids = [a for a in legal if isinstance(a, Bid) and not a.special]
        if Pass() not in legal:
            forced = min(bids, key=lambda bid: bid.points)
            return forced, _plain(view, forced)
        if view.bidder is not None and view.layout.same_side(view.bidder, view.seat):
            return Pass(), _plain(view, Pass())  # never outbid one's own side
        chances = self.contract_chances(view)
        if self.rolls_out(view):
            model = self._learned().model
            assert model is not None
            return self._rolled_call(view, rng, chances, model)
        pass_value = self.pass_value(view)
        best: tuple[float, Action] = (pass_value, Pass())
        options: list[tuple[Bid, float, float]] = []
        for bid in sorted(bids, key=lambda bid: bid.points):
            chance, value = self.call_value(chances, bid, view)
            options.append((bid, chance, value))
            if value > best[0] + 1e-9:
                best = (value, bid)
        for special in legal:
            if isinstance(special, Bid) and special.special:
                chance, value = self.call_value(chances, special, view)
                options.append((special, chance, value))
                if value > best[0] + 1e-9:
                    best = (value, special)
        if_stands = tuple(
            self.stands_chance(view, chances, bid, chance) for bid, chance, _ in options
        )
        return best[1], CallGrounds(
            pass_value, tuple(options), self.bid_samples(view), if_stands=if_stands
        )

    def rolls_out(self, view: View) -> bool:
        """Whether this bot's calls here are weighed by rolling the auction out
        (``auction=rollout`` where `texas42.players.rollout.rollout_applies`), in match equity,
        rather than in expected marks against `pass_value`."""
        if self.settings.auction != "rollout":
            return False
        from texas42.players.rollout import rollout_applies

        return rollout_applies(view, self._learned().model)

    def _rolled_call(
        self,
        view: View,
        rng: random.Random,
        chances: dict[Contract, Chances],
        model: BidderModel,
    ) -> tuple[Action, Grounds]:
        """The call leaving the most match equity once the rest of the auction is rolled out
        over the bidding deals (`texas42.players.rollout`): the pass, and every bid with a
        chance of at least `ROLLOUT_MIN_CHANCE` (the lowest bid always)."""
        judged: dict[int, float] = {}
        bids = [a for a in view.legal if isinstance(a, Bid)]
        bids.sort(key=lambda bid: (bid.special is not None, bid.id))
        for bid in bids:
            chance = self.call_value(chances, bid, view)[0]
            if chance >= ROLLOUT_MIN_CHANCE or not judged:
                judged[bid.id] = chance
        from texas42.players.rollout import call_equities

        calls = [PASS_ID, *judged]
        worlds = self.worlds(view, self.bid_samples(view), rng)
        outlooks = call_equities(view, calls, judged.__getitem__, worlds, model, rng)
        best = outlooks[0]
        for outlook in outlooks[1:]:
            if outlook.equity > best.equity + 1e-9:
                best = outlook
        bids_judged = [(o, ACTIONS[o.aid]) for o in outlooks if o.aid != PASS_ID]
        options = tuple((b, judged[o.aid], o.equity) for o, b in bids_judged if isinstance(b, Bid))
        grounds = CallGrounds(
            outlooks[0].equity,
            options,
            self.bid_samples(view),
            equity=True,
            stands=tuple(o.stands for o, _ in bids_judged),
            if_stands=tuple(self.stands_chance(view, chances, b, c) for b, c, _ in options),
        )
        return ACTIONS[best.aid], grounds

    def _with_contract(self, view: View, grounds: CallGrounds) -> CallGrounds:
        """The grounds with the contract the shown bid (the chosen one, or for a pass the best)
        would be played in: the one whose chance made the bid's (`bid_chance`'s best)."""
        if not grounds.options:
            return grounds
        bid = max(grounds.options, key=lambda option: option[2])[0]
        if bid.special and bid.special != "moon":
            return grounds
        chances = self.contract_chances(view)
        found = [
            (self.bid_chance({c: values}, bid, view), -k, c)
            for k, (c, values) in enumerate(chances.items())
        ]
        return replace(grounds, contract=max(found)[2]) if found else grounds

    def special_chance(self, view: View, bid: Bid) -> float:
        """The chance that a plunge or splash takes every trick, partner naming trump and
        leading: over deals of the other hands, partner names RulesBot's best contract for its
        tiles, and each deal gets the mark-bid chance of that hand (`mark_chance`'s model: sure,
        no loser, or the logistic in whether double dummy takes all seven and the losers).
        The caller's doubles are not counted in partner's losers, so it errs on the safe side."""
        key = (view.seat, view.hand, view.rules, bid.id)
        known = self._specials.get(key)
        if known is not None:
            return known
        rng = random.Random(f"{self.seed}:special:{view.seat}:{view.hand}:{bid.id}")
        n = self.bid_samples(view)
        worlds = DealSampler(_opening_view(view)).samples(n, rng)
        mate = view.layout.partner(view.seat)
        assert mate is not None  # plunge and splash are played only where seats have partners
        a, b, c = MARK_CHANCE
        total = 0.0
        for world in worlds:
            contract, value = best_contract(world.hands[mate], view.rules)
            if value.sure:
                total += SURE_MARK_CHANCE
                continue
            if value.losers == 0:
                total += self.settings.no_loser_marks
                continue
            position = _trial_position(view, world.hands, contract, declarer=mate)
            all_seven = self.solver.value(position) == view.layout.total
            total += 1.0 / (1.0 + math.exp(-(a + b * all_seven + c * min(value.losers, 3))))
        chance = total / len(worlds)
        if len(self._specials) > 64:
            self._specials.clear()
        self._specials[key] = chance
        return chance

    def call_value(
        self, chances: dict[Contract, Chances], bid: Bid, view: View
    ) -> tuple[float, float]:
        """A bid's chance of being made and its expected marks: ``marks * (2 * chance - 1)``
        (a plunge or splash by `special_chance`, at the marks it would cost)."""
        if bid.special and bid.special != "moon":
            chance = self.special_chance(view, bid)
            marks = special_bid_marks(view.rules, bid.id, _standing_bid(view))
            return chance, marks * (2 * chance - 1)
        chance = self.bid_chance(chances, bid, view)
        # Moon scores a bid's tricks (a moon 21) won or lost; elsewhere marks are at stake
        stake = bid.points if view.rules.game == "moon" else bid.marks or 1
        return chance, stake * (2 * chance - 1)

    def make_chance(self, view: View, action: Action) -> float | None:
        """The chance this bot gives a call (a point or mark bid, a special) of being made should
        it stand: `stands_chance` where that applies, else the chance `_call` chooses on
        (`call_value`); None for a pass or any other action."""
        if not isinstance(action, Bid):
            return None
        if self.settings.bidding == "learned" and self._learned().applies(view):
            return self._learned().make_chance(view, action)
        chances = self.contract_chances(view)
        chance = self.call_value(chances, action, view)[0]
        stands = self.stands_chance(view, chances, action, chance)
        return chance if stands is None else stands

    def bid_chance(
        self, chances: dict[Contract, Chances], bid: Bid, view: View, cautious: bool = True
    ) -> float:
        """The best chance over the contracts of making ``bid``: see the module docstring
        (``cautious``: with this bot's margins of caution on point bids, as calls weigh it)."""
        rules = view.rules
        best = 0.0
        for contract, values in chances.items():
            if contract.kind == "nello":
                if not bid.marks or bid.marks < rules.nello_min_marks:
                    continue
                share = _share(values, lambda v: v == 0) - SPECIAL_DISCOUNT
            elif bid.marks or bid.special == "moon":
                if contract.kind == "sevens" and bid.marks < rules.sevens_min_marks:
                    continue
                share = self.mark_chance(view, contract, values)
            elif contract.kind == "sevens":
                continue
            else:
                share = self.point_chance(view, contract, values, bid.points, cautious)
            best = max(best, share)
        return best

    def stands_chance(
        self, view: View, chances: dict[Contract, Chances], bid: Bid, chance: float
    ) -> float | None:
        """`chance_if_it_stands` for ``bid``, whose chance `call_value` gave as ``chance``: from
        the chance without this bot's margins of caution, since `STANDS_CALIBRATION` was fitted
        on chances with none (a margin makes a bot call more carefully, not its bids likelier
        to fail)."""
        if bid.is_point_bid and (self.settings.bid_margin or self.settings.overcall_margin):
            chance = self.bid_chance(chances, bid, view, cautious=False)
        return chance_if_it_stands(view, bid, chance)

    def point_chance(
        self, view: View, contract: Contract, values: Chances, need: int, cautious: bool = True
    ) -> float:
        """The calibrated chance that the viewer, naming ``contract``, takes ``need`` points
        (with ``cautious``, ``bid_margin`` more, and ``overcall_margin`` more again when it
        would outbid an opponent)."""
        margin = self.settings.bid_margin if cautious else 0
        if (
            cautious
            and view.phase == Phase.AUCTION
            and view.bidder is not None
            and not view.layout.same_side(view.bidder, view.seat)
        ):
            margin += self.settings.overcall_margin
        if not _calibrated(view):
            flattery = round(DOUBLE_DUMMY_FLATTERY * view.layout.total / 42)
            return _share(values, lambda v: v >= need + flattery + margin)
        a, b, c, spread = CALIBRATION
        mean = sum(v * w for v, w in values) / sum(w for _, w in values)
        expected = a + b * mean + c * worth_in(view.hand, view.rules, contract)
        return _normal_cdf((expected - need - margin + 0.5) / spread)

    def mark_chance(self, view: View, contract: Contract, values: Chances) -> float:
        """The chance that the viewer, naming ``contract``, takes every trick: from RulesBot's
        loser count, helped a little by the double-dummy share (`MARK_CHANCE`). Sevens, which
        RulesBot does not value, keeps the squared double-dummy share."""
        share = _share(values, lambda v: v == view.layout.total)
        if contract.kind == "sevens" or not _calibrated(view):
            return share**2
        value = estimate_in(view.hand, view.rules, contract)
        if value.sure:
            return SURE_MARK_CHANCE
        if value.losers == 0:
            return self.settings.no_loser_marks
        a, b, c = MARK_CHANCE
        return 1.0 / (1.0 + math.exp(-(a + b * share + c * min(value.losers, 3))))

    def pass_value(self, view: View) -> float:
        """The expected marks a call must beat. Passing while an opponent holds the bid lets
        them play a contract they make ``opponent_makes`` of the time; otherwise it is even.
        Near the end of a marks game the side one mark from losing bids more freely and the side
        one mark from winning less."""
        value = 0.0
        if view.bidder is not None and not view.layout.same_side(view.bidder, view.seat):
            value = -(2 * self.settings.opponent_makes - 1)
        if view.rules.game != "marks":
            return value
        target = view.rules.winning_target
        side = view.layout.side_of[view.seat]
        ours = view.score[side]
        theirs = max(x for k, x in enumerate(view.score) if k != side)
        if theirs >= target - 1:
            return value - 0.4
        if ours >= target - 1:
            return value + 0.1
        return value

    def contract_score(
        self, view: View, contract: Contract, values: Chances, need: int
    ) -> tuple[float, float]:
        """A contract's chance of making ``need`` and its expected double-dummy total (for
        Nel-O, the hand's total times its chance)."""
        if contract.kind == "nello":
            share = _share(values, lambda v: v == 0)
            return share, view.layout.total * share
        mean = sum(v * w for v, w in values) / sum(w for _, w in values)
        if need >= view.layout.total or contract.kind == "sevens":
            return self.mark_chance(view, contract, values), mean
        return self.point_chance(view, contract, values, need), mean

    def _declare(self, view: View, rng: random.Random) -> tuple[Action, Grounds]:
        named = {a.contract: a for a in view.legal if isinstance(a, Declare)}
        grounds = self._contract_scores(view, named)
        if not grounds.scores:
            return _decided(self._rules_bot.explain(view))
        return named[grounds.scores[0][0]], grounds

    def _discard(self, view: View) -> tuple[Action, Grounds]:
        """After taking the widow: the contract simulation rates best for the whole holding
        (each trial lays down by `discard_choice`), then that contract's discard."""
        grounds = self._contract_scores(view, candidate_contracts(view.rules, view.hand))
        if not grounds.scores:
            contract = candidate_contracts(view.rules, view.hand)[0]
            discard = Discard(discard_choice(view.hand, tables_for(contract, view.rules)))
            return discard, _plain(view, discard)
        contract = grounds.scores[0][0]
        return Discard(discard_choice(view.hand, tables_for(contract, view.rules))), grounds

    def _best_contract(self, view: View, allowed: Iterable[Contract]) -> Contract | None:
        """Of the contracts in ``allowed`` that simulation judged, the likeliest to make the bid,
        then the best expected total (then the lowest declaration id)."""
        scores = self._contract_scores(view, allowed).scores
        return scores[0][0] if scores else None

    def _contract_scores(self, view: View, allowed: Iterable[Contract]) -> ContractGrounds:
        """The contracts in ``allowed`` that simulation judged, best first (`_best_contract`'s
        order), each with its chance of making the bid and its expected total."""
        chances = self.contract_chances(view)
        need = points_needed(view)
        found: list[tuple[tuple[float, float, int], Contract]] = []
        for contract in allowed:
            if not chances.get(contract):
                continue
            share, mean = self.contract_score(view, contract, chances[contract], need)
            found.append(((share, mean, -Declare(contract).id), contract))
        found.sort(key=lambda pair: pair[0], reverse=True)
        return ContractGrounds(tuple((c, key[0], key[1]) for key, c in found), need)


# -- helpers --------------------------------------------------------------------------------

Grounds = PlayGrounds | CallGrounds | ContractGrounds | Reason
"""What a decision was made on: the numbers its reason is told from, or the reason itself."""


def _decided(decision: Decision) -> tuple[Action, Grounds]:
    return decision.action, decision.reason


def _plain(view: View, action: Action) -> Reason:
    """A reason that is all public: the action and the state of the table say it all."""
    public = public_reason(view, action)
    return Reason(public, public)


def _play_grounds(
    view: View,
    estimates: dict[int, PlayEstimate],
    scores: dict[int, tuple[float, float]],
    worlds: Weighted,
    every: bool,
    settings: PimcSettings,
) -> PlayGrounds:
    """The numbers a play is told from: each tile's chance for the seat's side and its points,
    best first by the scores the bot chose on, and the deals they were judged on."""
    assert view.bidder is not None
    order = tuple(sorted(scores, key=lambda t: scores[t], reverse=True))
    deals = len(worlds)
    hands = tuple((world.hands, weight) for world, weight in worlds)
    if view.rules.game == "points":
        points = {t: scores[t][0] for t in order}
        return PlayGrounds(None, points, order, deals, every, None, True, hands)
    defending = not view.layout.same_side(view.seat, view.bidder)
    chances = {t: 1.0 - e.make if defending else e.make for t, e in estimates.items()}
    valued = settings.value_samples > 0
    points = {t: e.total for t, e in estimates.items()} if valued else {}
    by_points = settings.objective == "points"
    return PlayGrounds(chances, points, order, deals, every, None, by_points, hands)


def _normalised(worlds: list[World], weight: Callable[[World], float] | None) -> Weighted:
    raw = [weight(w) if weight is not None else 1.0 for w in worlds]
    total = math.fsum(raw)
    if total <= 0:
        raw = [1.0] * len(worlds)
        total = float(len(worlds))
    return [(w, x / total) for w, x in zip(worlds, raw)]


def stands_features(chance: float, over: bool, calls_before: int) -> list[float]:
    """What `STANDS_CALIBRATION` weighs, for a point bid with the simulation's ``chance``, over
    an opponent's bid or not, made after ``calls_before`` calls of the auction: 1, the chance's
    log-odds, over, the calls still to come (for an opening and for an overcall apart), and the
    log-odds beyond each of `STANDS_KNEES` (for an overcall and for an opening apart). Every
    weight on the chance is positive, so a higher bid, less likely in the simulation, is less
    likely if it stands too. (The bid's level, tried as a feature, fitted a little better but
    could rank 31 above 30.)"""
    p = min(max(chance, 0.005), 0.995)
    logit = math.log(p / (1 - p))
    after = 3 - calls_before
    features = [
        1.0,
        logit,
        float(over),
        0.0 if over else float(after),
        float(after) if over else 0.0,
    ]
    for knee in _STANDS_KNEE_LOGITS:
        beyond = max(logit - knee, 0.0)
        features += [beyond, 0.0] if over else [0.0, beyond]
    return features


def stands_chance(chance: float, over: bool, calls_before: int) -> float:
    """The chance a point bid is made if it stands (`STANDS_CALIBRATION`), from the
    simulation's chance and the auction when it was made.

    >>> stands_chance(0.5, over=False, calls_before=0) > 0.5
    True
    >>> stands_chance(0.6, over=True, calls_before=1) < stands_chance(0.6, False, 1)
    True
    """
    features = stands_features(chance, over, calls_before)
    z = sum(w * x for w, x in zip(STANDS_CALIBRATION, features, strict=True))
    return 1.0 / (1.0 + math.exp(-z))


def chance_if_it_stands(view: View, bid: Bid, chance: float) -> float | None:
    """The chance ``bid``, called now at ``view`` with the simulation's ``chance`` (no margin
    of caution), is made if nobody outbids it, where `STANDS_CALIBRATION` was fitted: a point
    bid at four seats and 42 points, free (a pass was legal), and not an opening after three
    passes (the fit had none: under standard rules they are forced). None elsewhere."""
    if not bid.is_point_bid or not _calibrated(view) or Pass() not in view.legal:
        return None
    over = view.bidder is not None and not view.layout.same_side(view.bidder, view.seat)
    if not over and len(view.calls) >= 3:
        return None
    return stands_chance(chance, over, len(view.calls))


def _calibrated(view: View) -> bool:
    return calibrated_table(view.layout)


def calibrated_table(layout: Layout) -> bool:
    """Whether the bidding constants, fitted at four seats and 42 points, apply."""
    return layout.seats == 4 and layout.total == 42


def _normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _share(values: Chances, makes: Callable[[int], bool]) -> float:
    """The weighted share of deals whose total satisfies ``makes``."""
    total = sum(w for _, w in values)
    return sum(w for v, w in values if makes(v)) / total if total > 0 else 0.0


def _rank(tables: PlayTables, suit: int | None, t: int) -> int:
    """How high ``t`` plays: in the suit led, or in its own suit when leading."""
    return tables.power[tables.led[t] if suit is None else suit][t]


def _score_difference(position: PlayPosition, value: int, makes: bool) -> float:
    """Points game: the bidders' score minus the defenders' for a hand ending at ``value``."""
    bid = position.goal
    total = layout_of(position.rules).total
    if makes:
        return float(value - (total - value))
    return float(-(total - value + bid))


def _opening_view(view: View) -> View:
    """The seat's view before any call: its tiles and nothing else."""
    return build_view(
        view.rules,
        view.seat,
        view.hand_number,
        view.score,
        view.shaker,
        view.first_bidder,
        view.dealt,
        (),
        None,
        (),
        view.first_bidder,
    )


def _with_widow(view: View, world: World, rng: random.Random) -> int:
    """What the viewer holds after winning the auction in this world: its tiles and, until it
    has taken the widow, the widow, drawn from the world's unseen pool (all of it when nothing
    is set aside)."""
    held = world.hands[view.seat]
    widow = view.layout.widow
    if not widow or view.widow:
        return held
    unseen = tiles_of(world.pool)
    for t in unseen if len(unseen) == widow else rng.sample(unseen, widow):
        held |= 1 << t
    return held


def _trial_hands(
    view: View, hands: tuple[int, ...], held: int, contract: Contract
) -> tuple[int, ...]:
    """The hands at the first lead when the viewer, holding ``held``, names ``contract``:
    it lays the widow's worth of tiles down first (`discard_choice`)."""
    layout = view.layout
    for _ in range(held.bit_count() - layout.hand_size):
        held &= ~(1 << discard_choice(held, tables_for(contract, view.rules)))
    if held == hands[view.seat]:
        return hands
    return tuple(held if s == view.seat else h for s, h in enumerate(hands))


def discard_choice(held: int, tables: PlayTables) -> int:
    """The tile to lay down after taking the widow, for a declarer about to name ``tables``'
    contract: the lowest-ranked tile outside trump (trump only when the hand is all trump). A
    sound rule, not a search: a low off tile is the likeliest loser."""
    off = held & ~tables.trump_mask or held
    return min(iter_tiles(off), key=lambda t: (tables.power[tables.led[t]][t], t))


def _trial_position(
    view: View, hands: tuple[int, ...], contract: Contract, declarer: int | None = None
) -> PlayPosition:
    """The play from the first lead on these holdings, the viewer having won the auction and
    ``declarer`` (the viewer unless given: a plunge's partner) named ``contract`` and leading
    (the goal is left at 0: the caller judges the totals itself)."""
    leader = view.seat if declarer is None else declarer
    return PlayPosition(
        rules=view.rules,
        contract=contract,
        tables=tables_for(contract, view.rules),
        hands=hands,
        trick=(),
        leader=leader,
        bidder=view.seat,
        declarer=leader,
        out_seat=sitting_out(view.layout, contract, leader),
        taken=0,
        goal=0,
        tricks_played=0,
    )


# -- inference ------------------------------------------------------------------------------


@lru_cache(maxsize=65536)
def _worth(dealt: int, rules: Rules) -> float:
    """RulesBot's estimate of the points a dealt hand takes under its best contract."""
    return best_contract(dealt, rules)[1].points


PLAY_DISAGREEMENT = 0.5
"""Weight factor for each play by another seat that RulesBot, holding that deal's tiles, would
not have made (a play it would have made keeps factor 1)."""


def _weigher(view: View, plays: bool = False, calls: bool = True) -> Callable[[World], float]:
    """The inference model for one view: a function from a world to how well it explains the
    calls (unless ``calls`` is off: another model weighs them) and the contract, and with
    ``plays`` the tiles played (a likelihood up to a constant)."""
    rules = view.rules
    called = [a.id for a in view.calls] if calls else []
    layout = view.layout
    scale = layout.total / 42  # the model's widths were set for 42 points a hand
    first_bidder = view.first_bidder
    contract = view.contract
    declarer = view.declarer
    dealt = dealt_in(view)

    def weight(world: World) -> float:
        log = 0.0
        high, high_seat = 0, -1
        for i, aid in enumerate(called):
            seat = (first_bidder + i) % layout.seats
            if aid != PASS_ID:
                points = _call_points(aid, layout.total)
                if seat != view.seat and aid not in (PLUNGE_ID, SPLASH_ID):
                    # a bidder's hand should be worth about its bid
                    worth = _worth(dealt(world, seat), rules)
                    gap = worth + 2 * scale - min(points, layout.total)
                    log += _log_sigmoid(gap / (4 * scale))
                high, high_seat = max(high, points), seat
            elif seat != view.seat and not (high_seat >= 0 and layout.same_side(high_seat, seat)):
                # a seat that passed was not worth the next bid
                need = max(high + 1, rules.min_bid)
                worth = _worth(dealt(world, seat), rules)
                log += _log_sigmoid((need - scale - worth) / (4 * scale))
        named = contract is not None and contract.kind in ("suit", "doubles", "follow-me")
        if named and declarer is not None and declarer != view.seat:
            assert contract is not None
            # a declarer names about its best contract
            hand = dealt(world, declarer)
            log += (worth_in(hand, rules, contract) - _worth(hand, rules)) / (3 * scale)
        if replay_plays:
            deal = tuple(dealt(world, seat) for seat in range(layout.seats))
            log += _LOG_DISAGREEMENT * _disagreements(view, deal, sequence)
        return math.exp(log)

    sequence = [t for trick in view.tricks for t in (trick.tiles or ())]
    sequence.extend(t for _, t in view.trick)
    replay_plays = (
        plays
        and contract is not None
        and not view.piles_face_down
        and not layout.widow
        and bool(sequence)
    )
    return weight


_LOG_DISAGREEMENT = math.log(PLAY_DISAGREEMENT)
_MODEL = RulesBot("model")


def _disagreements(view: View, deal: tuple[int, ...], sequence: list[int]) -> int:
    """How many plays by seats other than the viewer RulesBot would not have made, replaying
    the hand on ``deal`` (plays with a single legal tile tell nothing and are skipped)."""
    assert view.contract is not None
    trial = Hand(view.rules, view.shaker, deal)
    for call in view.calls:
        trial.apply(call)
    trial.apply(Declare(view.contract))
    count = 0
    for t in sequence:
        seat = trial.turn
        if seat != view.seat and trial.legal_mask().bit_count() > 1:
            choice = _MODEL.choose(trial.view(seat))
            if not (isinstance(choice, Play) and choice.tile == t):
                count += 1
        trial.apply(Play(t))
    return count


def _standing_bid(view: View) -> int:
    """The standing bid on the auction's one scale (a mark is the hand's total; a plunge or
    splash counts its marks), 0 when there is none."""
    if view.bid_marks:
        return view.layout.total * view.bid_marks
    return view.bid.points if isinstance(view.bid, Bid) else 0


def _call_points(aid: int, total: int) -> int:
    """A bid on the auction's one scale: points, a mark (or shooting the moon) every point of
    the hand's ``total``."""
    action = ACTIONS[aid]
    assert isinstance(action, Bid)
    if action.special == "moon":
        return total
    return total * action.marks if action.marks else action.points


def _log_sigmoid(x: float) -> float:
    return -math.log1p(math.exp(-x)) if x > -30 else x

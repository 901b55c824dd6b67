"""The double-dummy search kernel: alpha-beta over one fully known deal, in numba.

The kernel is one iterative function with an explicit stack of plies (no recursion), so numba can
cache it on disk and the same source runs as plain Python under ``NUMBA_DISABLE_JIT=1``. Every rule
question is a lookup in arrays built by `texas42.search.solver.search` from the core's `PlayTables`.
It is compiled ``nogil``: searches on worker threads (the web table's bots and hints, the terminal
table's workers) run beside the event loop and each other instead of queueing for the GIL.

The table has ``seats`` seats (3 to 7), numbered clockwise; ``bid_side`` is the mask of the seats
on the bid winner's side, and every other seat plays against them (a bidder alone against all, or
one team against the other teams together). The value of a position is what the bidding side takes
from the tricks not yet complete: for each such trick it wins, ``trick_base`` plus (when
``count_on``) the trick's count. The bidding side maximises it, except in Nel-O (``minimize``),
where the value counts the bidder's tricks and the bidder tries to keep it at zero.

Search techniques, after bridge double-dummy solvers:

- a transposition table at trick boundaries keyed by (tiles left, leader), storing lower and upper
  bounds, stamped with a generation so one table serves every solve of the same deal;
- bounds from what is left: the value lies between 0 and the points still in play;
- move ordering: the table's best lead first, then cheap winners, smears onto partner's trick
  and low discards;
- equivalent tiles searched once: two tiles of one seat that follow the same suits, carry the
  same count and have no other seat's tile (or a tile on the table) ranked between them.
"""

from __future__ import annotations

import os
import stat
import tempfile

import numpy as np
from numba import njit
from numba.core import config as numba_config
from numba.misc.appdirs import AppDirs


def _writable(folder: str) -> bool:
    """Whether numba could cache in ``folder``: it makes the folder and writes a file there."""
    try:
        os.makedirs(folder, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


def _private_temp_folder() -> str:
    """``texas42-numba-<uid>`` in the temporary directory, this user's alone; a fresh folder
    when that name is someone else's or others may write in it, since a cache another user can
    write holds code they could make us run."""
    uid = os.getuid() if hasattr(os, "getuid") else None
    folder = os.path.join(
        tempfile.gettempdir(), f"texas42-numba-{uid if uid is not None else 'user'}"
    )
    try:
        os.mkdir(folder, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return tempfile.mkdtemp(prefix="texas42-numba-")
    info = os.lstat(folder)
    mine = uid is None or info.st_uid == uid
    if stat.S_ISDIR(info.st_mode) and mine and not info.st_mode & 0o022:
        return folder
    return tempfile.mkdtemp(prefix="texas42-numba-")


def _use_a_writable_cache() -> None:
    """Numba refuses to compile a ``cache=True`` function ("no locator available") when neither
    the folder of its source nor the user's cache folder (under HOME) is writable, as in a
    read-only install run by a user without a home; then, unless the user chose a folder with
    ``NUMBA_CACHE_DIR``, cache in a temporary one: the environment variable tells worker
    processes, numba's config this one (numba read the variable when it was imported)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    beside = os.path.join(os.path.dirname(os.path.abspath(__file__)), "__pycache__")
    users = AppDirs(appname="numba", appauthor=False).user_cache_dir  # type: ignore[no-untyped-call]
    if _writable(beside) or _writable(users):
        return
    folder = _private_temp_folder()
    os.environ["NUMBA_CACHE_DIR"] = folder
    numba_config.CACHE_DIR = folder  # type: ignore[attr-defined]  # set by numba at run time


_use_a_writable_cache()

MAX_PLIES = 30
"""More than the plays of any hand (at most 28: seven hands of four, or 27: three of nine), so a
stack index never runs past the end."""
MAX_SEATS = 7
"""The most seats a table has: the length of the per-seat arrays."""
MAX_HAND = 9
"""The most tiles a seat holds (three seats of nine), so the most moves a node generates."""

# indices into the ``params`` array the caller fills in
P_BID_SIDE = 0
P_MINIMIZE = 1
P_COUNT_ON = 2
P_OUT_SEAT = 3
P_FIRST_LEAD_MASK = 4
P_SEVENS = 5
P_TRICK_BASE = 6
P_FIVES = 7
P_TENS = 8
P_SEATS = 9
PARAM_COUNT = 10

# indices into the ``stats`` array the kernel updates
S_NODES = 0
S_TT_HITS = 1
S_TT_STORES = 2
STAT_COUNT = 3


@njit(cache=True, nogil=True)
def _popcount(m: int) -> int:
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


_DE_BRUIJN = np.array(
    [
        0,
        1,
        28,
        2,
        29,
        14,
        24,
        3,
        30,
        22,
        20,
        15,
        25,
        17,
        4,
        8,
        31,
        27,
        13,
        23,
        21,
        19,
        16,
        7,
        26,
        12,
        18,
        6,
        11,
        5,
        10,
        9,
    ],
    np.int64,
)


@njit(cache=True, nogil=True)
def _lowest(m: int) -> int:
    """The index of the lowest set bit of a nonzero mask of at most 32 bits."""
    return int(_DE_BRUIJN[(((m & -m) * 0x077CB531) & 0xFFFFFFFF) >> 27])


@njit(cache=True, nogil=True)
def _count(mask: int, fives: int, tens: int) -> int:
    """The count in a set of tiles."""
    return 5 * _popcount(mask & fives) + 10 * _popcount(mask & tens)


@njit(cache=True, nogil=True)
def _trick_value(
    table: int, winner: int, bid_side: int, count_on: int, trick_base: int, fives: int, tens: int
) -> int:
    """What a finished trick adds to the value: its point, and its count when counted, if the
    bidders took it."""
    if not (bid_side >> winner) & 1:
        return 0
    if count_on:
        return trick_base + _count(table, fives, tens)
    return trick_base


@njit(cache=True, nogil=True)
def _better(maximizing: int, best: int, alpha: int, beta: int, v: int) -> tuple[int, int, int]:
    """A level of the two-trick loop takes a line's value ``v``: (best, alpha, beta) after it."""
    if maximizing:
        if v > best:
            return v, max(alpha, v), beta
    elif v < best:
        return v, alpha, min(beta, v)
    return best, alpha, beta


@njit(cache=True, nogil=True)
def _playable(
    hand: int, suit: int, leading: bool, sevens: int, follow: np.ndarray, sevens_masks: np.ndarray
) -> int:
    """The tiles of ``hand`` that may be played (no first-lead rule: that is only at the root)."""
    if sevens:
        for k in range(8):
            if hand & sevens_masks[k]:
                return int(hand & sevens_masks[k])
        return hand
    if leading:
        return hand
    following = hand & follow[suit]
    return following if following else hand


@njit(cache=True, nogil=True)
def _one_trick(
    hands: np.ndarray,
    gone: int,
    leader: int,
    next_of: np.ndarray,
    trick_size: int,
    bid_side: int,
    count_on: int,
    trick_base: int,
    fives: int,
    tens: int,
    led: np.ndarray,
    power: np.ndarray,
) -> int:
    """The value of the last trick, which plays itself: every seat has one tile that is not in
    ``gone``."""
    t = _lowest(hands[leader] & ~gone)
    suit = led[t]
    winner = leader
    best = power[suit, t]
    table = 1 << t
    o = leader
    for _ in range(trick_size - 1):
        o = next_of[o]
        t = _lowest(hands[o] & ~gone)
        table |= 1 << t
        if power[suit, t] > best:
            winner = o
            best = power[suit, t]
    return _trick_value(table, winner, bid_side, count_on, trick_base, fives, tens)


@njit(cache=True, nogil=True)
def _short_trick(
    hands: np.ndarray,
    gone: int,
    leader: int,
    next_of: np.ndarray,
    four: bool,
    bid_side: int,
    count_on: int,
    trick_base: int,
    fives: int,
    tens: int,
    led: np.ndarray,
    power: np.ndarray,
) -> int:
    """`_one_trick` for a trick of three tiles, or four when ``four``. It runs at the bottom of
    `_two_tricks`, the search's busiest code, where a loop of two or three steps (which the
    compiler writes out) measured faster than `_one_trick`'s loop over any trick size."""
    t = _lowest(hands[leader] & ~gone)
    suit = led[t]
    winner = leader
    best = power[suit, t]
    table = 1 << t
    o = leader
    for _ in range(3 if four else 2):
        o = next_of[o]
        t = _lowest(hands[o] & ~gone)
        table |= 1 << t
        if power[suit, t] > best:
            winner = o
            best = power[suit, t]
    return _trick_value(table, winner, bid_side, count_on, trick_base, fives, tens)


@njit(cache=True, nogil=True)
def _two_tricks(
    hands: np.ndarray,
    leader: int,
    alpha: int,
    beta: int,
    next_of: np.ndarray,
    trick_size: int,
    bid_side: int,
    minimize: int,
    count_on: int,
    trick_base: int,
    fives: int,
    tens: int,
    led: np.ndarray,
    follow: np.ndarray,
    power: np.ndarray,
    sevens: int,
    sevens_masks: np.ndarray,
) -> int:
    """The fail-soft alpha-beta value of the last two tricks of three or four tiles, by nested
    loops over at most 16 lines: most of a search's positions have two tricks or fewer left, and
    this does their work without the stack or move ordering.
    """
    s0 = leader
    s1 = next_of[s0]
    s2 = next_of[s1]
    s3 = next_of[s2] if trick_size == 4 else -1
    max0 = ((bid_side >> s0) & 1) ^ minimize
    max1 = ((bid_side >> s1) & 1) ^ minimize
    max2 = ((bid_side >> s2) & 1) ^ minimize
    max3 = ((bid_side >> s3) & 1) ^ minimize if s3 >= 0 else 1
    best0 = -1 if max0 else 1000
    a0 = alpha
    b0 = beta
    m0 = _playable(hands[s0], 0, True, sevens, follow, sevens_masks)
    while m0 and a0 < b0:
        a = _lowest(m0)
        m0 &= m0 - 1
        suit = led[a]
        best1 = -1 if max1 else 1000
        a1 = a0
        b1 = b0
        m1 = _playable(hands[s1], suit, False, sevens, follow, sevens_masks)
        while m1 and a1 < b1:
            b = _lowest(m1)
            m1 &= m1 - 1
            best2 = -1 if max2 else 1000
            a2 = a1
            b2 = b1
            m2 = _playable(hands[s2], suit, False, sevens, follow, sevens_masks)
            while m2 and a2 < b2:
                c = _lowest(m2)
                m2 &= m2 - 1
                best3 = -1 if max3 else 1000
                a3 = a2
                b3 = b2
                m3 = (
                    _playable(hands[s3], suit, False, sevens, follow, sevens_masks)
                    if s3 >= 0
                    else 1
                )
                while m3 and a3 < b3:
                    e = _lowest(m3) if s3 >= 0 else -1
                    m3 &= m3 - 1
                    # the first trick
                    w = s0
                    wp = power[suit, a]
                    if power[suit, b] > wp:
                        w = s1
                        wp = power[suit, b]
                    if power[suit, c] > wp:
                        w = s2
                        wp = power[suit, c]
                    table = (1 << a) | (1 << b) | (1 << c)
                    if e >= 0:
                        if power[suit, e] > wp:
                            w = s3
                        table |= 1 << e
                    v = _trick_value(table, w, bid_side, count_on, trick_base, fives, tens)
                    # the last trick plays itself
                    v += _short_trick(
                        hands,
                        table,
                        w,
                        next_of,
                        s3 >= 0,
                        bid_side,
                        count_on,
                        trick_base,
                        fives,
                        tens,
                        led,
                        power,
                    )
                    best3, a3, b3 = _better(max3, best3, a3, b3, v)
                best2, a2, b2 = _better(max2, best2, a2, b2, best3)
            best1, a1, b1 = _better(max1, best1, a1, b1, best2)
        best0, a0, b0 = _better(max0, best0, a0, b0, best1)
    return best0


@njit(cache=True, nogil=True)
def _slot(key: int, mask: int) -> int:
    h = key * 2654435761
    return (h ^ (h >> 21)) & mask


@njit(cache=True, nogil=True)
def _store(
    tt_key: np.ndarray,
    tt_lo: np.ndarray,
    tt_hi: np.ndarray,
    tt_move: np.ndarray,
    tt_gen: np.ndarray,
    slot: int,
    key: int,
    generation: int,
    value: int,
    alpha: int,
    beta: int,
    move: int,
) -> None:
    """Record a fail-soft result searched with window (alpha, beta) as bounds for ``key``."""
    lo = 0
    hi = 127
    if tt_gen[slot] == generation and tt_key[slot] == key:
        lo = tt_lo[slot]
        hi = tt_hi[slot]
    if value <= alpha:
        hi = min(hi, value)
    elif value >= beta:
        lo = max(lo, value)
    else:
        lo = value
        hi = value
    tt_key[slot] = key
    tt_lo[slot] = lo
    tt_hi[slot] = hi
    tt_move[slot] = move
    tt_gen[slot] = generation


@njit(cache=True, nogil=True)
def search(
    hands0: np.ndarray,
    trick0: np.ndarray,
    trick_len: int,
    leader0: int,
    alpha0: int,
    beta0: int,
    led: np.ndarray,
    follow: np.ndarray,
    power: np.ndarray,
    higher_mates: np.ndarray,
    between: np.ndarray,
    beats: np.ndarray,
    sevens_masks: np.ndarray,
    params: np.ndarray,
    tt_key: np.ndarray,
    tt_lo: np.ndarray,
    tt_hi: np.ndarray,
    tt_move: np.ndarray,
    tt_gen: np.ndarray,
    generation: int,
    stats: np.ndarray,
) -> int:
    """Fail-soft alpha-beta value of the position: ``hands0`` to play, ``trick0[:trick_len]`` on
    the table led by ``leader0``. The result ``v`` is exact when ``alpha0 < v < beta0``, a lower
    bound when ``v >= beta0`` and an upper bound when ``v <= alpha0``.

    ``higher_mates[t]`` is the mask of tiles of ``t``'s equivalence class ranked above it,
    ``between[a, b]`` the mask of tiles that could separate ``a`` and ``b`` in a trick, and
    ``beats[t]`` the tiles that beat ``t`` when it is led.
    """
    bid_side = params[P_BID_SIDE]
    minimize = params[P_MINIMIZE]
    count_on = params[P_COUNT_ON]
    out_seat = params[P_OUT_SEAT]
    first_lead_mask = params[P_FIRST_LEAD_MASK]
    sevens = params[P_SEVENS]
    trick_base = params[P_TRICK_BASE]
    fives = params[P_FIVES]
    tens = params[P_TENS]
    seats = params[P_SEATS]
    tt_mask = tt_key.shape[0] - 1
    trick_size = seats - 1 if out_seat >= 0 else seats

    hands = np.zeros(MAX_SEATS, np.int64)
    next_of = np.zeros(MAX_SEATS, np.int64)
    # every tile still in a hand, and those of them the bidding side holds, kept up to date as
    # tiles are played and taken back
    left = 0
    bid_tiles = 0
    for s in range(seats):
        if s != out_seat:
            hands[s] = hands0[s]
            left |= hands[s]
            if (bid_side >> s) & 1:
                bid_tiles |= hands[s]
        nxt = (s + 1) % seats
        if nxt == out_seat:
            nxt = (nxt + 1) % seats
        next_of[s] = nxt

    # per-ply stack
    seat = np.zeros(MAX_PLIES, np.int64)
    pos = np.zeros(MAX_PLIES, np.int64)
    lead_suit = np.zeros(MAX_PLIES, np.int64)
    win_seat = np.zeros(MAX_PLIES, np.int64)
    win_power = np.zeros(MAX_PLIES, np.int64)
    on_table = np.zeros(MAX_PLIES, np.int64)
    alpha = np.zeros(MAX_PLIES, np.int64)
    beta = np.zeros(MAX_PLIES, np.int64)
    alpha_in = np.zeros(MAX_PLIES, np.int64)
    beta_in = np.zeros(MAX_PLIES, np.int64)
    best = np.zeros(MAX_PLIES, np.int64)
    best_tile = np.zeros(MAX_PLIES, np.int64)
    maximizing = np.zeros(MAX_PLIES, np.int64)
    tt_slot = np.zeros(MAX_PLIES, np.int64)
    shift = np.zeros(MAX_PLIES, np.int64)
    moves = np.zeros((MAX_PLIES, MAX_HAND), np.int64)
    scores = np.zeros(MAX_HAND, np.int64)
    n_moves = np.zeros(MAX_PLIES, np.int64)
    next_move = np.zeros(MAX_PLIES, np.int64)

    # the root: replay the tiles already on the table into the trick state
    s = leader0
    table = 0
    w_seat = leader0
    w_power = -1
    suit = 0
    for i in range(trick_len):
        t = trick0[i]
        if i == 0:
            suit = led[t]
        p = power[suit, t]
        if p > w_power:
            w_seat = s
            w_power = p
        table |= 1 << t
        s = next_of[s]
    d = 0
    seat[0] = s
    pos[0] = trick_len
    lead_suit[0] = suit
    win_seat[0] = w_seat
    win_power[0] = w_power
    on_table[0] = table
    alpha[0] = alpha0
    beta[0] = beta0

    entering = True
    value = 0
    while True:
        if entering:
            # set up node d, or settle its value at once
            entering = False
            stats[S_NODES] += 1
            mover = seat[d]
            maximizing[d] = ((bid_side >> mover) & 1) ^ minimize
            tt_slot[d] = -1
            hint = -1
            settled = False
            if pos[d] == 0:
                tricks_left = _popcount(hands[mover])
                if tricks_left <= 1:
                    value = 0
                    if left:
                        value = _one_trick(
                            hands,
                            0,
                            mover,
                            next_of,
                            trick_size,
                            bid_side,
                            count_on,
                            trick_base,
                            fives,
                            tens,
                            led,
                            power,
                        )
                    settled = True
                else:
                    # the value lies between 0 and all that is left, or what the table knows
                    lo = 0
                    hi = tricks_left * trick_base
                    if count_on:
                        hi += _count(left, fives, tens)
                    key = left | (mover << 28)
                    if d > 0 or first_lead_mask == 0:
                        slot = _slot(key, tt_mask)
                        tt_slot[d] = slot
                        if tt_gen[slot] == generation and tt_key[slot] == key:
                            stats[S_TT_HITS] += 1
                            lo = max(lo, tt_lo[slot])
                            hi = min(hi, tt_hi[slot])
                            hint = tt_move[slot]
                    if lo >= beta[d] or lo == hi:
                        value = lo
                        settled = True
                    elif hi <= alpha[d]:
                        value = hi
                        settled = True
                    else:
                        alpha[d] = max(alpha[d], lo)
                        beta[d] = min(beta[d], hi)
                        if tricks_left == 2 and tt_slot[d] >= 0 and trick_size <= 4:
                            value = _two_tricks(
                                hands,
                                mover,
                                alpha[d],
                                beta[d],
                                next_of,
                                trick_size,
                                bid_side,
                                minimize,
                                count_on,
                                trick_base,
                                fives,
                                tens,
                                led,
                                follow,
                                power,
                                sevens,
                                sevens_masks,
                            )
                            _store(
                                tt_key,
                                tt_lo,
                                tt_hi,
                                tt_move,
                                tt_gen,
                                tt_slot[d],
                                key,
                                generation,
                                value,
                                alpha[d],
                                beta[d],
                                -1,
                            )
                            stats[S_TT_STORES] += 1
                            settled = True
            if settled:
                if d == 0:
                    return value
                d -= 1
                undo = 1 << moves[d, next_move[d] - 1]
                hands[seat[d]] ^= undo
                left ^= undo
                if (bid_side >> seat[d]) & 1:
                    bid_tiles ^= undo
                continue
            else:
                # generate the legal tiles, one per equivalence class run, and order them
                hand = hands[mover]
                legal = hand
                if sevens:
                    for k in range(8):
                        if hand & sevens_masks[k]:
                            legal = hand & sevens_masks[k]
                            break
                elif pos[d] == 0:
                    if d == 0 and hand & first_lead_mask:
                        legal = hand & first_lead_mask
                else:
                    following = hand & follow[lead_suit[d]]
                    if following:
                        legal = following
                mine = (bid_side >> mover) & 1
                others = (left | on_table[d]) & ~hand
                opponents = left & ~bid_tiles if mine else bid_tiles
                n = 0
                rest = legal
                while rest:
                    t = _lowest(rest)
                    rest &= rest - 1
                    # skip t if a higher tile of its class in this hand has nothing between
                    mates = higher_mates[t] & legal
                    equivalent = False
                    while mates:
                        u = _lowest(mates)
                        mates &= mates - 1
                        if (others & between[u, t]) == 0:
                            equivalent = True
                            break
                    if equivalent:
                        continue
                    # a score for ordering: higher is tried first
                    cnt = 5 * ((fives >> t) & 1) + 10 * ((tens >> t) & 1)
                    if pos[d] == 0:
                        p = power[led[t], t]
                        if t == hint:
                            sc = 1 << 40
                        elif (opponents & beats[t]) == 0:
                            # a lead the opponents cannot beat: cash count with it first
                            sc = 1000 + cnt * 8 + p
                        else:
                            sc = p * 4
                    else:
                        p = power[lead_suit[d], t]
                        partner_winning = ((bid_side >> win_seat[d]) & 1) == mine
                        wins = p > win_power[d]
                        if minimize:
                            # Nel-O: everyone prefers to duck; the bidder most of all
                            sc = -p if not wins else -100 - p
                        elif partner_winning and not wins:
                            sc = 200 + cnt * 8 - p
                        elif partner_winning:
                            sc = 100 + cnt * 8 - p
                        elif wins and pos[d] == trick_size - 1:
                            sc = 300 + cnt * 8 - p
                        elif wins:
                            sc = 250 + cnt * 4 - p
                        else:
                            sc = 50 - cnt * 8 - p
                    j = n
                    while j > 0 and scores[j - 1] < sc:
                        scores[j] = scores[j - 1]
                        moves[d, j] = moves[d, j - 1]
                        j -= 1
                    scores[j] = sc
                    moves[d, j] = t
                    n += 1
                n_moves[d] = n
                next_move[d] = 0
                alpha_in[d] = alpha[d]
                beta_in[d] = beta[d]
                best[d] = -1 if maximizing[d] else 1000
                best_tile[d] = moves[d, 0]
        else:
            # node d has just received ``value`` from the child reached by its last move
            cand = value + shift[d]
            t = moves[d, next_move[d] - 1]
            if maximizing[d]:
                if cand > best[d]:
                    best[d] = cand
                    best_tile[d] = t
                    alpha[d] = max(alpha[d], cand)
            elif cand < best[d]:
                best[d] = cand
                best_tile[d] = t
                beta[d] = min(beta[d], cand)

        if next_move[d] < n_moves[d] and alpha[d] < beta[d]:
            # play the next tile and enter the child
            t = moves[d, next_move[d]]
            next_move[d] += 1
            mover = seat[d]
            hands[mover] ^= 1 << t
            left ^= 1 << t
            if (bid_side >> mover) & 1:
                bid_tiles ^= 1 << t
            c = d + 1
            if pos[d] == 0:
                suit = led[t]
                w_seat = mover
                w_power = power[suit, t]
            else:
                suit = lead_suit[d]
                w_seat = win_seat[d]
                w_power = win_power[d]
                p = power[suit, t]
                if p > w_power:
                    w_seat = mover
                    w_power = p
            table = on_table[d] | (1 << t)
            if pos[d] == trick_size - 1:
                gain = _trick_value(table, w_seat, bid_side, count_on, trick_base, fives, tens)
                shift[d] = gain
                seat[c] = w_seat
                pos[c] = 0
                lead_suit[c] = 0
                win_seat[c] = w_seat
                win_power[c] = -1
                on_table[c] = 0
                alpha[c] = alpha[d] - gain
                beta[c] = beta[d] - gain
            else:
                shift[d] = 0
                seat[c] = next_of[mover]
                pos[c] = pos[d] + 1
                lead_suit[c] = suit
                win_seat[c] = w_seat
                win_power[c] = w_power
                on_table[c] = table
                alpha[c] = alpha[d]
                beta[c] = beta[d]
            d = c
            entering = True
            continue

        # node d is finished: store it at a trick boundary and hand its value up
        value = best[d]
        if tt_slot[d] >= 0:
            _store(
                tt_key,
                tt_lo,
                tt_hi,
                tt_move,
                tt_gen,
                tt_slot[d],
                left | (seat[d] << 28),
                generation,
                value,
                alpha_in[d],
                beta_in[d],
                best_tile[d],
            )
            stats[S_TT_STORES] += 1
        if d == 0:
            return int(value)
        d -= 1
        undo = 1 << moves[d, next_move[d] - 1]
        hands[seat[d]] ^= undo
        left ^= undo
        if (bid_side >> seat[d]) & 1:
            bid_tiles ^= undo

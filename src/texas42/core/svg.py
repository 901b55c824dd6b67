"""Dominoes, hands and the table drawn as SVG strings, for notebooks, docs and the web UI.

Every drawing uses one pip geometry, `PIP_SPOTS`, so a tile looks the same everywhere. The table is
drawn from a seat's `View` only, so it can show nothing that seat could not see. The functions
return `SVG`, a ``str`` that Jupyter renders as a picture. Drawing lives in the core because it is
pure: strings in and out, no I/O and no library, so a notebook and every face use the same one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from xml.sax.saxutils import escape

from texas42.core.errors import NotationError
from texas42.core.layout import Layout
from texas42.core.progress import Phase
from texas42.core.tiles import ALL_TILES, HAND_SIZE, HI, LO, TILE_COUNT, TILE_NAMES, iter_tiles
from texas42.core.view import View
from texas42.core.words import auction_line, contract_line, pile_line, score_line, seat_roles

PIP_SPOTS: tuple[tuple[tuple[float, float], ...], ...] = (
    (),
    ((0.5, 0.5),),
    ((0.27, 0.27), (0.73, 0.73)),
    ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    ((0.27, 0.25), (0.27, 0.5), (0.27, 0.75), (0.73, 0.25), (0.73, 0.5), (0.73, 0.75)),
)
"""Where the pips of each number sit in one square end of an upright tile, as (x, y) fractions of
the square; a tile lying on its side swaps x and y, so a six shows two rows of three."""

PIP_RADIUS = 0.09
"""Pip radius as a fraction of the tile's short edge."""

_FACE = "#fbf8ef"
_EDGE = "#2b2b2b"
_PIP = "#1a1a1a"
_BACK = "#1f4e79"
_HIGHLIGHT = "#f2b705"
_HIGHLIGHT_FACE = "#fff3c4"
_FELT = "#2e6b3f"
_INK = "#f4f1e8"


class SVG(str):
    """An SVG document as a string; notebooks show it as a picture."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return self


def _num(x: float) -> str:
    """A coordinate written short: 12, 12.5, 12.33."""
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _check_tile(t: object) -> int:
    if type(t) is not int or not 0 <= t < TILE_COUNT:
        raise NotationError(f"not a tile: {t!r} (a tile is an index 0..{TILE_COUNT - 1})")
    return t


def _check_mask(mask: object, what: str) -> int:
    if type(mask) is not int or not 0 <= mask <= ALL_TILES:
        raise NotationError(f"{what} must be a set of tiles (a 28-bit mask), not {mask!r}")
    return mask


def _check_size(size: object) -> float:
    if isinstance(size, bool) or not isinstance(size, (int, float)):
        raise NotationError(f"a tile size is a positive number of pixels, not {size!r}")
    if not (math.isfinite(size) and size > 0):
        raise NotationError(f"a tile size is a positive number of pixels, not {size!r}")
    return float(size)


def _document(width: float, height: float, body: str, css_class: str, title: str) -> SVG:
    return SVG(
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{css_class}" width="{_num(width)}" '
        f'height="{_num(height)}" viewBox="0 0 {_num(width)} {_num(height)}">'
        f"<title>{escape(title)}</title>{body}</svg>"
    )


def _back(x: float, y: float, size: float, *, vertical: bool) -> str:
    """A face-down tile: a plain back that says nothing about the tile."""
    width, height = (size, 2 * size) if vertical else (2 * size, size)
    corner = _num(size * 0.12)
    inset = size * 0.12
    return (
        f'<g class="tile face-down" transform="translate({_num(x)},{_num(y)})">'
        f'<rect class="back" width="{_num(width)}" height="{_num(height)}" rx="{corner}" '
        f'fill="{_BACK}" stroke="{_EDGE}" stroke-width="1"/>'
        f'<rect x="{_num(inset)}" y="{_num(inset)}" width="{_num(width - 2 * inset)}" '
        f'height="{_num(height - 2 * inset)}" rx="{corner}" fill="none" stroke="{_INK}" '
        f'stroke-opacity="0.5" stroke-width="1"/></g>'
    )


def _tile(
    t: int, x: float, y: float, size: float, *, vertical: bool, highlight: bool = False
) -> str:
    """One tile face up as an SVG group with its top-left corner at (x, y); the high end is on top
    (upright) or on the left (lying down)."""
    width, height = (size, 2 * size) if vertical else (2 * size, size)
    corner = _num(size * 0.12)
    css = "tile legal" if highlight else "tile"
    fill = _HIGHLIGHT_FACE if highlight else _FACE
    stroke, stroke_width = (_HIGHLIGHT, 3) if highlight else (_EDGE, 1)
    parts = [
        (
            f'<g class="{css}" data-tile="{TILE_NAMES[t]}" '
            f'transform="translate({_num(x)},{_num(y)})">'
            f'<rect class="face" width="{_num(width)}" height="{_num(height)}" rx="{corner}" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="{stroke_width}"/>'
        )
    ]
    if vertical:
        parts.append(
            f'<line class="divider" x1="{_num(size * 0.1)}" y1="{_num(size)}" '
            f'x2="{_num(size * 0.9)}" y2="{_num(size)}" stroke="{_EDGE}" stroke-width="1"/>'
        )
    else:
        parts.append(
            f'<line class="divider" x1="{_num(size)}" y1="{_num(size * 0.1)}" '
            f'x2="{_num(size)}" y2="{_num(size * 0.9)}" stroke="{_EDGE}" stroke-width="1"/>'
        )
    radius = _num(size * PIP_RADIUS)
    for end, pips in enumerate((HI[t], LO[t])):
        for fx, fy in PIP_SPOTS[pips]:
            if vertical:
                cx, cy = fx * size, (end + fy) * size
            else:
                cx, cy = (end + fy) * size, fx * size
            parts.append(
                f'<circle class="pip" cx="{_num(cx)}" cy="{_num(cy)}" r="{radius}" fill="{_PIP}"/>'
            )
    parts.append("</g>")
    return "".join(parts)


def tile_svg(
    tile: int,
    *,
    size: float = 40,
    vertical: bool = False,
    highlight: bool = False,
    face_down: bool = False,
) -> SVG:
    """One domino; ``size`` is its short edge in pixels. A face-down tile shows only its back."""
    t = _check_tile(tile)
    s = _check_size(size)
    pad = 2.0
    width, height = (s, 2 * s) if vertical else (2 * s, s)
    if face_down:
        body = _back(pad, pad, s, vertical=vertical)
    else:
        body = _tile(t, pad, pad, s, vertical=vertical, highlight=highlight)
    title = "a face-down domino" if face_down else f"domino {TILE_NAMES[t]}"
    return _document(width + 2 * pad, height + 2 * pad, body, "texas42-tile", title)


def hand_svg(mask: int, *, legal: int = 0, size: float = 40) -> SVG:
    """A hand stood up in a row, highest tile first (6-6 first); tiles in ``legal`` highlighted."""
    hand = _check_mask(mask, "the hand")
    playable = _check_mask(legal, "the legal tiles")
    if playable & ~hand:
        raise NotationError("the legal tiles must be tiles of the hand")
    s = _check_size(size)
    pad, gap = 2.0, s * 0.2
    tiles = list(iter_tiles(hand))
    body = "".join(
        _tile(t, pad + i * (s + gap), pad, s, vertical=True, highlight=bool(playable >> t & 1))
        for i, t in enumerate(tiles)
    )
    width = len(tiles) * s + max(len(tiles) - 1, 0) * gap
    title = "hand: " + (" ".join(TILE_NAMES[t] for t in tiles) or "no tiles")
    return _document(width + 2 * pad, 2 * s + 2 * pad, body, "texas42-hand", title)


def _text(
    x: float,
    y: float,
    content: str,
    size: float,
    *,
    anchor: str = "start",
    bold: bool = False,
    css: str = "",
    colour: str = _INK,
) -> str:
    weight = ' font-weight="bold"' if bold else ""
    cls = f' class="{css}"' if css else ""
    return (
        f'<text{cls} x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}" '
        f'text-anchor="{anchor}" fill="{colour}"{weight}>{escape(content)}</text>'
    )


def _bid_line(view: View, names: Sequence[str]) -> str:
    if view.phase == Phase.AUCTION:
        return f"Auction: {auction_line(view, names)}"
    return contract_line(view, names)


def _roles(view: View, seat: int) -> list[str]:
    roles = seat_roles(view, seat)
    if seat == view.turn:
        roles.append("to act")
    return roles


def _check_names(names: Sequence[str] | None, layout: Layout) -> Sequence[str]:
    seats = layout.seat_names
    if names is None:
        return seats
    n = len(seats)
    if isinstance(names, str) or len(names) != n or not all(isinstance(x, str) for x in names):
        count = "four" if n == 4 else str(n)
        raise NotationError(f"names must be {count} strings, one per seat {', '.join(seats)}")
    return names


def _side_labels(layout: Layout, names: Sequence[str] | None, labels: Sequence[str]) -> list[str]:
    """Each side's name: the layout's (``North-South``), or the players' joined by ``&``."""
    if names is None:
        return list(layout.side_names)
    return [" & ".join(labels[s] for s in layout.side_seats(side)) for side in range(layout.sides)]


def table_svg(view: View, *, names: Sequence[str] | None = None, size: float = 36) -> SVG:
    """The table as ``view.seat`` sees it: its own tiles at the bottom, the others face down.

    ``names`` replaces the seat names North, East, South, West (in seat order). Only the view is
    read, so no tile hidden from the seat can appear. Tables of 3 and 5 to 7 seats put the seats
    round an oval, clockwise from this seat at the bottom, and list each side's pile on the left.
    """
    if not isinstance(view, View):
        raise NotationError(f"table_svg draws a View (hand.view(seat)), not {type(view).__name__}")
    layout = view.layout
    labels = _check_names(names, layout)
    s = _check_size(size)
    four = layout.seats == 4
    width, height = (20 if four else 24) * s, 12 * s
    cx, cy = width / 2, 6.3 * s
    small = 0.6 * s
    font = 0.36 * s
    parts = [f'<rect width="{_num(width)}" height="{_num(height)}" fill="{_FELT}"/>']

    game = view.rules.game
    teams = _side_labels(layout, names, labels)
    score = score_line(view.rules, view.score, teams)
    parts.append(_text(0.3 * s, 0.6 * s, f"Hand {view.hand_number}", font, bold=True, css="hand"))
    parts.append(
        _text(
            width - 0.3 * s,
            0.6 * s,
            f"{score} ({game} to {view.rules.winning_target})",
            font,
            anchor="end",
            css="score",
        )
    )
    parts.append(_text(0.3 * s, 1.2 * s, _bid_line(view, labels), font, css="bid"))
    bottom = view.seat

    def label(seat: int, x: float, y: float, anchor: str) -> None:
        colour = _HIGHLIGHT if seat == view.turn else _INK
        parts.append(
            _text(x, y, labels[seat], font, anchor=anchor, bold=True, css="seat", colour=colour)
        )
        roles = _roles(view, seat)
        if roles:
            parts.append(
                _text(
                    x,
                    y + 0.4 * s,
                    " · ".join(roles),
                    0.3 * s,
                    anchor=anchor,
                    css="roles",
                    colour=colour,
                )
            )

    def seat_group(seat: int, body: str) -> str:
        out = seat == view.out_seat
        fade = ' opacity="0.4"' if out else ""
        return f'<g class="seat{" out" if out else ""}" data-seat="{seat}"{fade}>{body}</g>'

    # this seat's own tiles, face up, the legal plays highlighted on its turn
    legal = sum(1 << a.id for a in view.legal if a.id < TILE_COUNT)
    mine = list(iter_tiles(view.hand))
    gap = 0.2 * s
    row = len(mine) * s + max(len(mine) - 1, 0) * gap
    own = "".join(
        _tile(
            t,
            cx - row / 2 + i * (s + gap),
            height - 2.4 * s,
            s,
            vertical=True,
            highlight=bool(legal >> t & 1),
        )
        for i, t in enumerate(mine)
    )
    parts.append(seat_group(bottom, own))
    held = max(layout.hand_size + layout.widow, len(mine))
    label(bottom, cx + (held * 1.2 - 0.2) * s / 2 + 0.2 * s, height - 2.0 * s, "start")
    if not four:
        parts.extend(_round_table(view, s, width, height, label, seat_group, teams))
        title = f"the table as {labels[bottom]} sees it"
        return _document(width, height, "".join(parts), "texas42-table", title)

    # the three other seats: tile backs, as many as they still hold
    left, top, right = ((bottom + k) % 4 for k in (1, 2, 3))
    count = view.tiles_left[top]
    row = count * small + max(count - 1, 0) * 0.2 * small
    backs = "".join(
        _back(cx - row / 2 + i * 1.2 * small, 2.2 * s, small, vertical=True) for i in range(count)
    )
    parts.append(seat_group(top, backs))
    label(top, cx + (HAND_SIZE * 1.2 - 0.2) * small / 2 + 0.3 * s, 2.6 * s, "start")
    sides = (
        (left, 0.5 * s, "start", 0.3 * s),
        (right, width - 0.5 * s - 2 * small, "end", width - 0.3 * s),
    )
    for seat, x, anchor, lx in sides:
        count = view.tiles_left[seat]
        column = count * small + max(count - 1, 0) * 0.2 * small
        backs = "".join(
            _back(x, cy - column / 2 + i * 1.2 * small, small, vertical=False) for i in range(count)
        )
        parts.append(seat_group(seat, backs))
        label(seat, lx, cy - 3 * s, anchor)

    # the trick on the table, each tile in front of the seat that played it
    played = []
    for seat, t in view.trick:
        where = (seat - bottom) % 4
        if where == 0:
            played.append(_tile(t, cx - s / 2, cy + 0.15 * s, s, vertical=True))
        elif where == 2:
            played.append(_tile(t, cx - s / 2, cy - 2.15 * s, s, vertical=True))
        elif where == 1:
            played.append(_tile(t, cx - 2.65 * s, cy - s / 2, s, vertical=False))
        else:
            played.append(_tile(t, cx + 0.65 * s, cy - s / 2, s, vertical=False))
    parts.append(f'<g class="trick">{"".join(played)}</g>')

    # the trick piles, one per team, with their count unless they lie face down
    for team, x, anchor in ((0, 0.3 * s, "start"), (1, width - 0.3 * s, "end")):
        pile = pile_line(view, team)
        parts.append(
            f'<g class="pile" data-team="{team}">'
            + _text(x, height - 1.0 * s, teams[team], font, anchor=anchor, bold=True)
            + _text(x, height - 0.55 * s, pile, font, anchor=anchor)
            + "</g>"
        )
    title = f"the table as {labels[bottom]} sees it"
    return _document(width, height, "".join(parts), "texas42-table", title)


def _round_table(
    view: View,
    s: float,
    width: float,
    height: float,
    label: Callable[[int, float, float, str], None],
    seat_group: Callable[[int, str], str],
    teams: Sequence[str],
) -> list[str]:
    """The other seats of a 3-, 5-, 6- or 7-seat table round an oval, each with its tile backs;
    the trick on a smaller oval, each tile towards the seat that played it; the piles by side."""
    n = view.layout.seats
    cx, cy = width / 2, 5.9 * s
    small = 0.6 * s
    font = 0.36 * s
    parts = []

    def angle(seat: int) -> float:
        """Clockwise from this seat at the bottom (SVG's y runs down, so +angle turns left)."""
        return math.pi / 2 + 2 * math.pi * ((seat - view.seat) % n) / n

    for seat in range(n):
        if seat == view.seat:
            continue
        a = angle(seat)
        x, y = cx + 7.5 * s * math.cos(a), cy + 3.6 * s * math.sin(a)
        count = view.tiles_left[seat]
        row = count * small + max(count - 1, 0) * 0.2 * small
        backs = "".join(
            _back(x - row / 2 + i * 1.2 * small, y - small, small, vertical=True)
            for i in range(count)
        )
        parts.append(seat_group(seat, backs))
        label(seat, x, y - small - 0.6 * s, "middle")
    trick = []
    t_size = 0.8 * s
    for seat, t in view.trick:
        a = angle(seat)
        x, y = cx + 2.6 * s * math.cos(a), cy + 1.2 * s * math.sin(a)
        trick.append(_tile(t, x - t_size / 2, y - t_size, t_size, vertical=True))
    parts.append(f'<g class="trick">{"".join(trick)}</g>')
    for side, team in enumerate(teams):
        pile = f"{team}: {pile_line(view, side)}"
        y = height - 0.5 * s - (len(teams) - 1 - side) * 0.45 * s
        parts.append(
            f'<g class="pile" data-team="{side}">' + _text(0.3 * s, y, pile, font) + "</g>"
        )
    return parts

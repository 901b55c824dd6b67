/* Dominoes and the "ALL" tally drawn as SVG.

   The pip geometry below is copied from src/texas42/core/svg.py (PIP_SPOTS and PIP_RADIUS) so a tile
   looks the same here as in notebooks and docs; tests/test_browser.py checks the copies are equal.
   PIP_SPOTS[n] lists where the pips of n sit in one square end of an upright tile, as (x, y)
   fractions of the square; a tile lying on its side swaps x and y. PIP_RADIUS is a fraction of
   the tile's short edge. */

import { s } from "./dom.js";

export const PIP_SPOTS = [
  [],
  [[0.5, 0.5]],
  [[0.27, 0.27], [0.73, 0.73]],
  [[0.27, 0.27], [0.5, 0.5], [0.73, 0.73]],
  [[0.27, 0.27], [0.73, 0.27], [0.27, 0.73], [0.73, 0.73]],
  [[0.27, 0.27], [0.73, 0.27], [0.5, 0.5], [0.27, 0.73], [0.73, 0.73]],
  [[0.27, 0.25], [0.27, 0.5], [0.27, 0.75], [0.73, 0.25], [0.73, 0.5], [0.73, 0.75]]
];

export const PIP_RADIUS = 0.09;

const UNIT = 100; // the short edge in SVG units
const PAD = 4;

/** [high, low] of a tile written "6-4", or null for anything else. */
export function parseTile(name) {
  const m = /^([0-6])-([0-6])$/.exec(String(name ?? ""));
  if (!m) return null;
  const a = Number(m[1]);
  const b = Number(m[2]);
  return a >= b ? [a, b] : [b, a];
}

function frame(vertical) {
  const w = vertical ? UNIT : 2 * UNIT;
  const hgt = vertical ? 2 * UNIT : UNIT;
  return { w, hgt, viewBox: `${-PAD} ${-PAD} ${w + 2 * PAD} ${hgt + 2 * PAD}` };
}

/**
 * One domino face up: the high end on top (upright) or on the left (lying down). The size comes
 * from CSS; the picture is decorative, the button or label around it names the tile.
 */
export function tileSvg(name, { vertical = true, cls = "" } = {}) {
  const ends = parseTile(name);
  if (!ends) return backSvg({ vertical, cls });
  const { w, hgt, viewBox } = frame(vertical);
  const radius = UNIT * PIP_RADIUS;
  const parts = [
    s("rect", { class: "tile-face", width: w, height: hgt, rx: UNIT * 0.12 }),
    vertical
      ? s("line", { class: "tile-divider", x1: UNIT * 0.1, y1: UNIT, x2: UNIT * 0.9, y2: UNIT })
      : s("line", { class: "tile-divider", x1: UNIT, y1: UNIT * 0.1, x2: UNIT, y2: UNIT * 0.9 }),
  ];
  ends.forEach((pips, end) => {
    for (const [fx, fy] of PIP_SPOTS[pips]) {
      const cx = vertical ? fx * UNIT : (end + fy) * UNIT;
      const cy = vertical ? (end + fy) * UNIT : fx * UNIT;
      parts.push(s("circle", { class: "tile-pip", cx, cy, r: radius }));
    }
  });
  return s("svg", {
    class: `tile-svg ${vertical ? "upright" : "lying"} ${cls}`.trim(), viewBox,
    "aria-hidden": "true", focusable: "false",
  }, parts);
}

/** A face-down domino: a plain back that says nothing about the tile. */
export function backSvg({ vertical = true, cls = "" } = {}) {
  const { w, hgt, viewBox } = frame(vertical);
  const inset = UNIT * 0.12;
  return s("svg", {
    class: `tile-svg back ${vertical ? "upright" : "lying"} ${cls}`.trim(), viewBox,
    "aria-hidden": "true", focusable: "false",
  },
  s("rect", { class: "tile-back", width: w, height: hgt, rx: UNIT * 0.12 }),
  s("rect", {
    class: "tile-back-line", x: inset, y: inset, width: w - 2 * inset, height: hgt - 2 * inset,
    rx: UNIT * 0.12,
  }));
}

/* The strokes of "ALL" in the order a scorekeeper draws them: A is /, \ and the bar; each L is
   the upright then the foot. One stroke per mark, a new word after seven. */
const STROKES = [
  [2, 26, 9, 2], [9, 2, 16, 26], [4.6, 17, 13.4, 17],
  [23, 2, 23, 26], [23, 26, 31, 26],
  [37, 2, 37, 26], [37, 26, 45, 26],
];

/** A team's marks drawn as strokes of "ALL", one word per seven marks. The picture is
    decorative: the score pad shows the same count as text beside it. */
export function tallySvg(marks) {
  const n = Math.max(0, Math.floor(Number(marks) || 0));
  const words = Math.max(1, Math.ceil(n / STROKES.length));
  const lines = [];
  for (let i = 0; i < n; i++) {
    const word = Math.floor(i / STROKES.length);
    const [x1, y1, x2, y2] = STROKES[i % STROKES.length];
    lines.push(s("line", { class: "tally-stroke", x1, y1: y1 + word * 32, x2, y2: y2 + word * 32 }));
  }
  return s("svg", {
    class: "tally", viewBox: `0 0 48 ${words * 32}`, "aria-hidden": "true", focusable: "false",
  }, lines);
}

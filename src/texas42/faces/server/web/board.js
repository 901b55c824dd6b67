/* Pieces of the table shared by the live table and the replay viewer: seats around the felt, the
   trick in the middle, the trick piles, the calls, the score pad and a hand's result.
   Every function reads plain state objects (the server's JSON) and returns DOM elements. The
   sentences about the game come made in that JSON (texas42.core.words, from the recipient's own
   view): they are shown as text, and nothing here writes one or works out a rule or a score. */

import { h } from "./dom.js";
import { backSvg, tallySvg, tileSvg } from "./tiles.js";

/* Four seats as in src/texas42/core/hand.py: 0..3 clockwise, sides 0 (seats 0, 2) and 1 (seats 1, 3).
   Other tables (3 to 7 seats) name their seats and sides in the server's seat list: each seat
   carries its `compass` name and the `side` it scores for (texas42.core.layout). */
export const SEAT_NAMES = ["North", "East", "South", "West"];
export const PLACES = ["bottom", "left", "top", "right"];

/** The number of seats at the table: the seats listed, four if none are. */
export function seatCount(seats) {
  return Array.isArray(seats) && seats.length ? seats.length : 4;
}

/** Seat numbers 0..n-1 of the table. */
export function seatList(seats) {
  return Array.from({ length: seatCount(seats) }, (_, k) => k);
}

/** A seat's compass name: North, East, ... as the table's layout names it. */
export function compassOf(seats, seat) {
  const info = seats && seats[seat];
  return info && typeof info.compass === "string" ? info.compass : SEAT_NAMES[seat] || `seat ${seat}`;
}

/** The side a seat scores for: its team, or itself when it plays alone. */
export function sideOf(seats, seat) {
  const info = seats && seats[seat];
  return info && Number.isInteger(info.side) ? info.side : seat & 1;
}

/** The sides of the table: 0..n-1. */
export function sideList(seats) {
  const count = Math.max(2, ...seatList(seats).map((s) => sideOf(seats, s) + 1));
  return Array.from({ length: count }, (_, k) => k);
}

/** "North-South" for a team, "East" for a player alone. */
export function sideName(seats, side) {
  return seatList(seats).filter((s) => sideOf(seats, s) === side).map((s) => compassOf(seats, s)).join("-");
}

/** Where a seat sits at a four-seat table, as seen from `bottom`: the next seat clockwise is
    on the left. */
export function placeOf(seat, bottom) {
  return PLACES[(((seat - bottom) % 4) + 4) % 4];
}

/** Where a seat sits round the oval of a table of n seats, as percentages of the felt:
    `bottom` at the foot, the next seats clockwise up the left side. */
export function ovalSpot(seat, bottom, n, rx = 42, ry = 40) {
  const k = (((seat - bottom) % n) + n) % n;
  const angle = Math.PI / 2 + (2 * Math.PI * k) / n;
  return { x: 50 + rx * Math.cos(angle), y: 50 + ry * Math.sin(angle) };
}

/** The seat's player name, or its compass name for an empty seat. */
export function seatLabel(seats, seat) {
  const nameOf = (k) => {
    const info = seats && seats[k];
    return info && typeof info.name === "string" ? info.name.trim() : "";
  };
  const name = nameOf(seat);
  if (!name) return compassOf(seats, seat);
  const shared = seatList(seats).some((k) => k !== seat && nameOf(k) === name);
  return shared ? `${name} (${compassOf(seats, seat)})` : name;
}

/** "North-South (Ann & Cat)" or "East (Bob)" labels, one a side, falling back to the compass
    names. */
export function teamLabels(seats) {
  return sideList(seats).map((side) => {
    const names = seatList(seats).filter((s) => sideOf(seats, s) === side)
      .map((seat) => seats && seats[seat] && seats[seat].name)
      .filter((n, i, all) => typeof n === "string" && n.trim() && all.indexOf(n) === i);
    return names.length ? `${sideName(seats, side)} (${names.join(" & ")})` : sideName(seats, side);
  });
}

/** The hand's phase as a word (the server may send the word or the core's number). */
export function phaseOf(hand) {
  if (!hand) return "none";
  const p = hand.phase;
  if (typeof p === "number") return ["auction", "declare", "play", "done", "discard"][p] || "none";
  return typeof p === "string" ? p.toLowerCase() : "none";
}

const isSeat = (x) => Number.isInteger(x) && x >= 0 && x < 7;

/** The short words for a seat's part in the hand, as the server sent them (`Hand.roles`). */
export function rolesOf(hand, seat) {
  const roles = hand && Array.isArray(hand.roles) ? hand.roles[seat] : null;
  return Array.isArray(roles) ? roles.map(String) : [];
}

/** The last call a seat made in the auction, if the auction is still on. */
export function lastCallOf(hand, seat) {
  if (!hand || !Array.isArray(hand.calls)) return null;
  for (let i = hand.calls.length - 1; i >= 0; i--) {
    const c = hand.calls[i];
    if (c && c.seat === seat) return String(c.call);
  }
  return null;
}

/** The auction as a list: seat name and call, in order. `why(call, i)`, if given, adds a control
    after the i-th call (the live table's "why?" of a bot's call). */
export function callsList(hand, seats, testid = "calls", why = null) {
  const calls = hand && Array.isArray(hand.calls) ? hand.calls : [];
  if (!calls.length) return h("p", { class: "calls-empty muted", "data-testid": testid }, "No calls yet.");
  return h("ol", { class: "calls", "data-testid": testid },
    calls.map((c, i) => h("li", { class: String(c.call) === "pass" ? "call pass" : "call bid" },
      h("span", { class: "call-seat" }, seatLabel(seats, c.seat)),
      h("strong", {}, String(c.call)),
      why ? why(c, i) : null)));
}

/** A played tile's label for screen readers, "Ann: 6-4" or "Ann: face down": a seat and a
    tile, not a sentence (the news of a play is the server's `Last.text`). */
function playLabel(seats, play) {
  return `${seatLabel(seats, play.seat)}: ${play.tile || "face down"}`;
}

/** A tile in a picture (not a button), labelled for screen readers. */
export function tilePicture(tile, { vertical = true, cls = "", label } = {}) {
  const known = typeof tile === "string" && tile.length === 3;
  const text = label || (known ? `tile ${tile}` : "a face-down tile");
  return h("span", { class: `tile-pic ${cls}`.trim(), role: "img", "aria-label": text,
    "data-tile": known ? tile : null, title: known ? tile : "face down" },
  known ? tileSvg(tile, { vertical }) : backSvg({ vertical }));
}

/** Tile backs for a hidden hand: one per tile still held. */
export function backsRow(count, cls = "") {
  const n = Math.max(0, Math.min(10, Number(count) || 0));
  return h("span", { class: `backs ${cls}`.trim(), role: "img",
    "aria-label": `${n} tile${n === 1 ? "" : "s"} in hand` },
  Array.from({ length: n }, () => backSvg({ vertical: true, cls: "mini" })));
}

/**
 * The trick in the middle of the felt: each tile in front of the seat that played it, the
 * leader's tile marked. `won` (a seat) marks a completed trick's winner; `why(play, i)`, if
 * given, adds a control beside the i-th tile (the live table's "why?" of a bot's play).
 */
export function trickArea(plays, bottom, seats, { won = null, note = "", why = null } = {}) {
  const list = Array.isArray(plays) ? plays : [];
  if (seatCount(seats) !== 4) return ovalTrick(list, bottom, seats, won, note, why);
  const slots = {};
  list.forEach((p, i) => {
    if (!p || !isSeat(p.seat)) return;
    const place = placeOf(p.seat, bottom);
    const vertical = place === "top" || place === "bottom";
    slots[place] = h("div", {
      class: `trick-slot slot-${place}${i === 0 ? " led" : ""}${won === p.seat ? " winner" : ""}`,
      "data-seat": p.seat, "data-testid": `trick-${p.seat}`,
    }, tilePicture(p.tile, { vertical, label: playLabel(seats, p) }), why ? why(p, i) : null);
  });
  const trick = h("div", { class: `trick${won !== null ? " done" : ""}`, "data-testid": "trick", role: "group",
    "aria-label": won !== null ? "the last trick" : list.length ? "the trick" : "no tile played yet" },
  PLACES.map((place) => slots[place] || h("div", { class: `trick-slot slot-${place} empty` })));
  return h("div", { class: "trick-box" }, trick, h("div", { class: "trick-note", "data-testid": "trick-note" }, note));
}

/** The trick at a table of 3, 5, 6 or 7 seats: each tile towards its seat round the oval. */
function ovalTrick(list, bottom, seats, won, note, why) {
  const n = seatCount(seats);
  const slots = list.filter((p) => p && isSeat(p.seat)).map((p, i) => {
    const spot = ovalSpot(p.seat, bottom, n, 36, 34);
    return h("div", {
      class: `trick-slot oval-slot${i === 0 ? " led" : ""}${won === p.seat ? " winner" : ""}`,
      style: `left: ${spot.x.toFixed(1)}%; top: ${spot.y.toFixed(1)}%`,
      "data-seat": p.seat, "data-testid": `trick-${p.seat}`,
    }, tilePicture(p.tile, { vertical: true, label: playLabel(seats, p) }), why ? why(p, i) : null);
  });
  const trick = h("div", { class: `trick oval${won !== null ? " done" : ""}`, "data-testid": "trick", role: "group",
    "aria-label": won !== null ? "the last trick" : list.length ? "the trick" : "no tile played yet" }, slots);
  return h("div", { class: "trick-box" }, trick, h("div", { class: "trick-note", "data-testid": "trick-note" }, note));
}

/** A trick as a small row of tiles, in play order, for piles and the last-trick view;
    `why(play, i)`, if given, adds a control under the i-th tile. */
export function trickRow(trick, seats, { withSeats = false, why = null } = {}) {
  const plays = Array.isArray(trick.plays) ? trick.plays : [];
  return h("div", { class: "trick-row", "data-winner": trick.winner },
    plays.map((p, i) => h("span", { class: `trick-row-play${p.seat === trick.winner ? " winner" : ""}` },
      tilePicture(p.tile, { vertical: true, cls: "small", label: playLabel(seats, p) }),
      withSeats ? h("span", { class: "trick-row-seat" }, seatLabel(seats, p.seat)) : null,
      why ? why(p, i) : null)));
}

/** Each side's trick pile in the order won; face-down tricks show backs. */
export function piles(hand, seats, labels) {
  const tricks = hand && Array.isArray(hand.tricks) ? hand.tricks : [];
  return h("div", { class: "piles", "data-testid": "piles" }, sideList(seats).map((team) => {
    const mine = tricks.filter((t) => isSeat(t.winner) && sideOf(seats, t.winner) === team);
    const summary = hand && Array.isArray(hand.piles) ? String(hand.piles[team] ?? "") : "";
    return h("section", { class: `pile team-${team}`, "data-testid": `pile-${team}` },
      h("h3", {}, labels[team], h("span", { class: "pile-count" }, summary)),
      h("div", { class: "pile-tricks" },
        mine.length ? mine.map((t) => trickRow(t, seats)) : h("span", { class: "muted" }, "none yet")));
  }));
}

function numberOr(x, fallback = 0) {
  return Number.isFinite(Number(x)) ? Number(x) : fallback;
}

/**
 * The score pad, one column a side: marks as strokes of "ALL" (points as numbers, which may be
 * negative in Moon), the target, and the score after each hand. `you` is the viewer's side (or
 * null) to head the columns "Us" and "Them" (with more than two sides, the others by name).
 */
export function scorePad(game, seats, you = null) {
  const labels = teamLabels(seats);
  const sides = sideList(seats);
  const score = Array.isArray(game && game.score) ? game.score : sides.map(() => 0);
  const unit = game && game.unit === "points" ? "points" : "marks";
  const target = game && game.target;
  const history = Array.isArray(game && game.history) ? game.history : [];
  const head = (team) => (team === you ? "Us" : you !== null && sides.length === 2 ? "Them" : sideName(seats, team));
  const columns = sides.map((team) => h("div", { class: `pad-team team-${team}`, "data-testid": `pad-team-${team}` },
    h("div", { class: "pad-head" }, head(team)),
    h("div", { class: "pad-names" }, labels[team].replace(/^[A-Za-z-]+ \((.*)\)$/, "$1")),
    h("div", { class: "pad-marks" },
      unit === "marks"
        ? tallySvg(numberOr(score[team]))
        : null,
      h("div", { class: "pad-score", "data-testid": `score-${team}` }, String(numberOr(score[team]))))));
  const zeros = sides.map(() => 0);
  const rows = history.map((entry, i) => {
    const now = Array.isArray(entry) ? entry : entry && entry.score;
    if (!Array.isArray(now)) return null;
    const before = i > 0 ? (Array.isArray(history[i - 1]) ? history[i - 1] : history[i - 1].score) || zeros : zeros;
    return h("tr", {},
      h("th", { scope: "row" }, String(i + 1)),
      sides.map((team) => {
        const gain = numberOr(now[team]) - numberOr(before[team]);
        return h("td", { class: gain > 0 ? "gain" : gain < 0 ? "loss" : "" }, gain > 0 ? `+${gain}` : gain < 0 ? `−${-gain}` : "·",
          h("span", { class: "running" }, ` ${numberOr(now[team])}`));
      }));
  });
  return h("section", { class: "score-pad", "data-testid": "score-pad", "aria-label": "score pad" },
    h("div", { class: "pad-top" },
      h("h2", {}, "Score"),
      target ? h("span", { class: "pad-target" }, `game to ${target} ${target === 1 ? unit.slice(0, -1) : unit}`) : null),
    h("div", { class: `pad-columns${sides.length > 2 ? " many" : ""}` }, columns),
    rows.filter(Boolean).length
      ? h("table", { class: "pad-history", "data-testid": "score-history" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Hand"),
          sides.map((team) => h("th", { scope: "col" }, head(team))))),
        h("tbody", {}, rows))
      : h("p", { class: "pad-empty muted" }, "No hands scored yet."));
}

/** A finished hand's result as the server put it: a headline, its lines, and whether the bid
    was made (true, false, or null when nobody bid). */
export function resultWords(hand) {
  const made = hand && hand.result ? hand.result.made : null;
  const lines = hand && Array.isArray(hand.result_lines) ? hand.result_lines.map(String) : [];
  return { headline: hand && hand.headline ? String(hand.headline) : "Hand over", lines, made };
}

/* Coaching after a game: the game-over screen's "Coaching" button and panel (your three
   costliest mistakes, each drawn as its position, in the server's words), and the player's
   page's chart of how the rates move over their games. The numbers and sentences are the
   server's (GET /api/learn/coach/{table}/{game}/{seat}); this file only draws them. */

import { h, s } from "./dom.js";
import { getJson } from "./net.js";
import { tilePicture } from "./board.js";

const asked = new Map();
/* what each coaching asked for came to: {state: "waiting" | "done" | "failed", body, error} */

const isSeat = (x) => Number.isInteger(x) && x >= 0 && x < 7;

function fetchCoaching(key, path, changed) {
  asked.set(key, { state: "waiting" });
  changed();
  getJson(path).then(
    (body) => { asked.set(key, { state: "done", body }); changed(); },
    (err) => { asked.set(key, { state: "failed", error: err.message }); changed(); },
  );
}

/** A row of tiles: the played one and the best ones marked. */
function tilesRow(tiles, { played = null, best = [] } = {}) {
  const list = Array.isArray(tiles) ? tiles : [];
  return h("span", { class: "coach-tiles" }, list.map((t) => {
    const cls = t === played ? "small coach-played" : best.includes(t) ? "small coach-best" : "small";
    const label = t === played ? `tile ${t}, the one played` : best.includes(t) ? `tile ${t}, a better play` : `tile ${t}`;
    return tilePicture(t, { vertical: true, cls, label });
  }));
}

function mistakeItem(m, names) {
  const seat = isSeat(m.seat) ? m.seat : 0;
  const hands = Array.isArray(m.hands) ? m.hands : [];
  const best = Array.isArray(m.best) ? m.best : [];
  const trick = Array.isArray(m.trick_so_far) ? m.trick_so_far : [];
  return h("li", { class: "coach-mistake", "data-testid": "coach-mistake", "data-kind": m.kind, "data-cost": m.cost },
    h("p", { class: "coach-position", "data-testid": "coach-position" }, String(m.position || "")),
    h("div", { class: "coach-board" },
      h("div", { class: "coach-hand" }, h("span", { class: "muted" }, "Your tiles: "),
        tilesRow(hands[seat], { played: m.tile, best })),
      trick.length
        ? h("div", { class: "coach-trick" }, h("span", { class: "muted" }, "The trick so far: "),
          trick.map(([who, tile]) => h("span", { class: "coach-trick-play" },
            tilePicture(tile, { vertical: true, cls: "small", label: `${names[who] || ""}: ${tile}` }),
            h("span", { class: "muted" }, names[who] || ""))))
        : null),
    h("p", { class: "coach-advice", "data-testid": "coach-advice" }, String(m.advice || "")),
    // the game is over: every hand may be shown, as the double-dummy values saw them
    h("details", { class: "coach-all", "data-testid": "coach-all-hands" },
      h("summary", {}, "Every hand at that moment"),
      hands.map((tiles, who) => h("div", { class: "coach-seat-hand", "data-seat": who },
        h("span", { class: "muted" }, `${names[who] || ""}: `),
        tilesRow(tiles, who === seat ? { played: m.tile, best } : {})))));
}

function coachingPanel(body) {
  const names = Array.isArray(body.seat_names) ? body.seat_names : [];
  const mistakes = Array.isArray(body.mistakes) ? body.mistakes : [];
  return h("div", { class: "coaching", "data-testid": "coaching" },
    h("h3", {}, "Coaching"),
    h("p", { "data-testid": "coach-summary" }, String(body.summary_line || "")),
    mistakes.length
      ? h("ol", { class: "coach-mistakes", "data-testid": "coach-mistakes" }, mistakes.map((m) => mistakeItem(m, names)))
      : h("p", { "data-testid": "coach-none" }, String(body.no_mistakes_line || "")),
    h("p", {}, h("a", { href: String(body.replay || "#"), "data-testid": "coach-replay" }, "Review the game in its replay")));
}

/**
 * The game-over screen's coaching for the seat you held: a button, then the panel once the
 * server has reviewed the game. `changed()` redraws the page (which calls this again).
 */
export function coachBlock(tableId, game, seat, changed) {
  if (!isSeat(seat)) return null;
  const path = `/api/learn/coach/${encodeURIComponent(tableId)}/${encodeURIComponent(game)}/${seat}`;
  const found = asked.get(path);
  if (!found) {
    return h("button", { type: "button", "data-testid": "coach-button", "data-focus": "coach",
      onclick: () => fetchCoaching(path, path, changed) }, "Coaching");
  }
  if (found.state === "waiting") return h("p", { class: "muted", "data-testid": "coaching" }, "Reviewing your game…");
  if (found.state === "failed") {
    return h("div", { class: "coaching", "data-testid": "coaching" },
      h("p", { class: "error" }, found.error),
      h("button", { type: "button", "data-testid": "coach-button", onclick: () => fetchCoaching(path, path, changed) }, "Try again"));
  }
  return coachingPanel(found.body);
}

/** The player's page: each coached game's mistakes per 100 plays as a line over the games,
    oldest first, with the server's sentences of how the rates move; `whose` names the player
    when the page is not this device's own. */
export function trendChart(games, lines, pending, whose = null) {
  const coached = (Array.isArray(games) ? games : []).filter((g) => g && g.coaching).reverse();
  const rates = coached.map((g) => Number(g.coaching.mistake_rate) || 0);
  const width = 320;
  const height = 90;
  const top = Math.max(10, ...rates);
  const x = (i) => (rates.length < 2 ? width / 2 : 10 + (i * (width - 20)) / (rates.length - 1));
  const y = (v) => height - 10 - (v / top) * (height - 20);
  const chart = rates.length
    ? s("svg", { viewBox: `0 0 ${width} ${height}`, class: "coach-chart", role: "img", "data-testid": "coach-chart",
      "aria-label": `mistakes per 100 plays over ${rates.length} games, oldest first` },
    s("line", { x1: 10, y1: height - 10, x2: width - 10, y2: height - 10, class: "coach-axis" }),
    s("polyline", { points: rates.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "), class: "coach-line" }),
    rates.map((v, i) => s("circle", { cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: 3, class: "coach-dot" },
      s("title", {}, `game ${i + 1}: ${v}`))))
    : null;
  const waiting = Number(pending) > 0
    ? h("p", { class: "muted", "data-testid": "coach-pending" },
      `${pending} game${Number(pending) === 1 ? " is" : "s are"} still being reviewed for coaching.`)
    : null;
  return h("section", { class: "coach-trend", "data-testid": "coach-trend" },
    h("h3", { "data-testid": "coach-trend-title" }, whose ? `Coaching over ${whose}'s games` : "Coaching over your games"),
    chart,
    h("ul", { "data-testid": "coach-trend-lines" }, (Array.isArray(lines) ? lines : []).map((l) => h("li", {}, String(l)))),
    waiting);
}

/** A game's coaching figures on the player's page, or null while it waits to be reviewed. */
export function gameFigures(g) {
  const c = g && g.coaching;
  if (!c) return null;
  return h("div", { class: "muted", "data-testid": "player-game-coaching" },
    `mistakes per 100 plays: ${c.mistake_rate} · points given up per hand: ${c.given_up_per_hand}`);
}

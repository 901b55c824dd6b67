/* A player's page (/p/{id}): their finished games with the figures the server read from each
   game's record, a replay and a record download for each; and the lobby's "My games" card. */

import { h, mount, setTitle } from "./dom.js";
import { getJson } from "./net.js";
import { playerId, setPlayerId } from "./store.js";
import { gameFigures, trendChart } from "./coach.js";

const isId = (id) => typeof id === "string" && /^[0-9a-f]{16}$/.test(id);

/** Remember this device's player id from a table's state: the one on the seat we hold. */
export function notePlayer(state) {
  const seat = state && state.you ? state.you.seat : null;
  const seats = state && state.table && Array.isArray(state.table.seats) ? state.table.seats : [];
  const mine = Number.isInteger(seat) ? seats[seat] : null;
  if (mine && isId(mine.player)) setPlayerId(mine.player);
}

/** A seat's name, a link to its player's page when the seat has a player. */
export function playerLink(info, text) {
  if (!info || !isId(info.player)) return text;
  return h("a", { href: `/p/${info.player}`, class: "player-link", "data-testid": "player-link" }, text);
}

function when(seconds) {
  const date = new Date(Number(seconds) * 1000);
  return Number.isNaN(date.getTime()) ? "" : date.toLocaleString();
}

function gameRow(g) {
  const table = encodeURIComponent(g.table);
  const with_ = Array.isArray(g.partners) && g.partners.length ? `with ${g.partners.join(", ")}` : "";
  const against = Array.isArray(g.opponents) && g.opponents.length ? `against ${g.opponents.join(", ")}` : "";
  return h("li", { class: "player-game", "data-testid": "player-game", "data-table": g.table },
    h("div", {},
      h("strong", {}, `${g.name || `Table ${g.table}`}, game ${g.game}`),
      h("span", { class: "muted" }, ` · ${when(g.finished)}`)),
    h("div", { class: "muted" }, [with_, against].filter(Boolean).join(" · ")),
    h("div", {},
      h("span", { "data-testid": "player-game-result" }, g.won ? "Won" : "Lost"),
      ` · score ${Array.isArray(g.score) ? g.score.join("–") : ""}`,
      ` · bids won: ${g.bids}, made: ${g.made}`),
    gameFigures(g),
    h("div", { class: "player-game-links" },
      h("a", { href: `/replay/${table}/${encodeURIComponent(g.game)}`, "data-testid": "player-replay" }, "Replay"),
      " · ",
      h("a", { href: `/api/tables/${table}/games/${encodeURIComponent(g.game)}/record`,
        download: `texas42-${g.table}-${g.game}.json`, "data-testid": "player-record" }, "Download the record")));
}

const COACHING_POLL_MS = 3000; // how often the page asks again while games wait for coaching

export async function showPlayer(root, id) {
  setTitle("Player", "Player");
  mount(root, h("p", { class: "loading" }, "Loading…"));
  let page;
  try {
    page = await getJson(`/api/players/${encodeURIComponent(id)}`);
  } catch (err) {
    mount(root, h("section", { class: "card narrow", "data-testid": "player-page" },
      h("h2", {}, "No games yet"), h("p", {}, err.message),
      h("p", {}, h("a", { href: "/" }, "Go to the lobby"))));
    return;
  }
  drawPlayer(root, id, page);
}

function drawPlayer(root, id, page) {
  const names = Array.isArray(page.names) ? page.names : [];
  setTitle(names[0] || "Player", names[0] || "Player");
  const mine = playerId() === page.id;
  const section = h("section", { class: "card player-page", "data-testid": "player-page" },
    h("h2", { "data-testid": "player-names" }, names.join(" · ") || "Player"),
    mine ? h("p", { class: "muted" }, "These are your games on this device.") : null,
    h("p", { "data-testid": "player-figures" },
      `Games played: ${page.played} · won: ${page.won} · bids won: ${page.bids} · bids made: ${page.made}`),
    trendChart(page.games, page.trend_lines, page.coaching_pending, mine ? null : names[0] || "this player"),
    h("ul", { class: "link-list", "data-testid": "player-games" },
      (Array.isArray(page.games) ? page.games : []).map(gameRow)),
    h("p", {}, h("a", { href: "/" }, "Back to the lobby")));
  mount(root, section);
  if (!(Number(page.coaching_pending) > 0)) return;
  // each ask lets the server coach a few more games: ask again until none waits
  setTimeout(async () => {
    if (!section.isConnected) return; // the page was left
    try {
      const later = await getJson(`/api/players/${encodeURIComponent(id)}`);
      if (section.isConnected) drawPlayer(root, id, later);
    } catch {
      /* the next visit asks again */
    }
  }, COACHING_POLL_MS);
}

/** The lobby's card linking to this device's games, once its player has finished one. */
export function myGamesCard() {
  const id = playerId();
  const card = h("section", { class: "card", "data-testid": "my-games", hidden: true },
    h("h2", {}, "My games"));
  if (!id) return card;
  getJson(`/api/players/${id}`).then((page) => {
    card.append(h("p", {}, h("a", { href: `/p/${id}`, "data-testid": "my-games-link" }, "Your games"),
      h("span", { class: "muted" }, ` · played: ${page.played}, won: ${page.won}`)));
    card.hidden = false;
  }).catch(() => { /* no finished game yet: the card stays hidden */ });
  return card;
}

/* The lobby's open tables: the public tables waiting for players or being played, kept up to
   date by the server over /ws/lobby (it sends the list whenever it changes). Every name is put
   in the page as text (dom.js `h`). */

import { h, mount } from "./dom.js";
import { backoff, PING_MS, readMessage, socketUrl } from "./net.js";

function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

function entry(t) {
  const free = Array.isArray(t.seats_free) ? t.seats_free.length : 0;
  const players = Array.isArray(t.players) ? t.players.map(String) : [];
  const bots = Array.isArray(t.bots) ? t.bots.map(String) : [];
  const rules = Array.isArray(t.rules_text) ? t.rules_text.map(String) : [];
  const url = `/t/${encodeURIComponent(t.id)}`;
  return h("li", { class: "open-table", "data-testid": "open-table", "data-table": String(t.id) },
    h("div", { class: "open-table-head" },
      h("span", { class: "open-table-name", "data-testid": "open-table-name" }, String(t.name ?? "")),
      h("span", { class: "muted", "data-testid": "open-table-status" },
        t.status === "playing" ? "playing" : "waiting for players")),
    rules.length ? h("p", { class: "open-table-facts muted", title: rules.join("\n"),
      "data-testid": "open-table-rules" }, rules[0]) : null,
    h("p", { class: "open-table-facts", "data-testid": "open-table-seats" },
      `${plural(free, "seat", "seats")} free of ${Number(t.seats) || 0}`,
      players.length ? ` · players: ${players.join(", ")}` : "",
      bots.length ? ` · ${plural(bots.length, "bot", "bots")}` : "",
      ` · ${Number(t.spectators) || 0} watching`),
    h("div", { class: "open-table-actions" },
      free && t.status !== "playing"
        ? h("a", { class: "primary", href: url, "data-testid": `join-${t.id}` }, "Join a seat") : null,
      h("a", { href: url, "data-testid": `watch-${t.id}` }, "Watch")));
}

/** The card of open tables; it connects to the lobby's socket and keeps itself current. */
export function openTablesCard() {
  const list = h("ul", { class: "open-tables", "data-testid": "open-tables" });
  const empty = h("p", { class: "muted", "data-testid": "open-tables-empty" },
    "No public tables right now. Start one and tick “List it in the lobby”.");
  const card = h("section", { class: "card", "data-testid": "open-tables-card" },
    h("h2", {}, "Open tables"), empty, list);
  let attempt = 0;

  function show(tables) {
    mount(list, tables.map(entry));
    empty.hidden = tables.length > 0;
    card.dataset.count = String(tables.length);
  }

  function connect() {
    if (!card.isConnected && attempt > 0) return; // the lobby was left
    const ws = new WebSocket(socketUrl("/ws/lobby"));
    const ping = setInterval(() => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "ping" }));
    }, PING_MS);
    ws.addEventListener("message", (event) => {
      const message = readMessage(event.data);
      if (message && message.type === "lobby" && Array.isArray(message.tables)) {
        attempt = 0;
        show(message.tables);
      }
    });
    ws.addEventListener("close", () => {
      clearInterval(ping);
      attempt += 1;
      setTimeout(connect, backoff(attempt));
    });
  }

  show([]);
  connect();
  return card;
}

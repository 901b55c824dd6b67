// Seats that change hands during a game: leaving the table, the host's menu on each seat, the
// away badge, the turn clock's countdown and the host's table settings. The sentences about who
// left or took over come from the server as notices; this module only lays out controls.
import { h } from "./dom.js";

/** Badges of a seat: its person is away (a bot plays for them), or the host opened it. */
export function seatBadges(info) {
  const badges = [];
  if (info.away) badges.push(h("span", { class: "badge away", "data-testid": `away-${info.seat}` }, "away"));
  if (info.open) badges.push(h("span", { class: "badge open", "data-testid": `open-${info.seat}` }, "open"));
  return badges;
}

/** The host's menu on another seat: replace a person with a bot, open a bot's seat, make host. */
export function hostControls(view, seat, info) {
  const { table } = view.state;
  if (view.you === null || table.host !== view.you || view.plays(seat)) return [];
  const controls = [];
  const person = info.kind === "human" && (info.holder === null || info.holder === undefined);
  if (person && table.status !== "lobby") {
    controls.push(h("button", { type: "button", class: "small quiet", "data-testid": `replace-${seat}`,
      onclick: () => { if (window.confirm("Give this seat to a bot?")) view.send({ type: "replace", seat }); } },
    "Replace with bot"));
  }
  if (info.kind === "bot" && !info.open && table.status !== "lobby") {
    controls.push(h("button", { type: "button", class: "small quiet", "data-testid": `open-seat-${seat}`,
      onclick: () => view.send({ type: "open", seat }) }, "Open seat"));
  }
  if (person) {
    controls.push(h("button", { type: "button", class: "small quiet", "data-testid": `make-host-${seat}`,
      onclick: () => view.send({ type: "host", seat }) }, "Make host"));
  }
  return controls;
}

/** A sit button on a seat the host opened during a game, for someone watching. */
export function openSeatControls(view, seat, info) {
  const { table } = view.state;
  if (!info.open || view.you !== null || table.status !== "playing") return [];
  return [h("button", { type: "button", class: "primary small", "data-testid": `sit-${seat}`,
    onclick: () => view.sit(seat) }, "Sit here")];
}

function secondsLeft(view) {
  const left = view.state && view.state.turn_left;
  if (left === null || left === undefined) return null;
  const since = (performance.now() - (view.stateAt || performance.now())) / 1000;
  return Math.max(0, left - since);
}

function clockText(seconds) {
  const whole = Math.ceil(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

let ticking = null;

/** The countdown of the turn clock, refreshed a few times a second while one runs. */
export function turnClock(view) {
  const left = secondsLeft(view);
  if (ticking === null) {
    ticking = window.setInterval(() => {
      const node = document.querySelector("[data-testid=turn-clock]");
      if (!node || !node.viewRef) return;
      const now = secondsLeft(node.viewRef);
      node.textContent = now === null ? "" : clockText(now);
      node.classList.toggle("low", now !== null && now < 10);
    }, 200);
  }
  const node = h("span", { class: "turn-clock", "data-testid": "turn-clock", hidden: left === null },
    left === null ? "" : clockText(left));
  node.viewRef = view;
  return node;
}

/** The seat's own "Leave the table" during a game and the host's table settings. */
export function seatsBar(view) {
  const { table } = view.state;
  const parts = [];
  if (view.you !== null && table.status !== "lobby") {
    parts.push(h("button", { type: "button", class: "small quiet", "data-testid": "leave-table",
      onclick: () => {
        if (!window.confirm("Leave the table? A bot takes your seat and the game goes on.")) return;
        view.send({ type: "leave", seat: view.you });
      } }, "Leave the table"));
  }
  if (view.you !== null && table.host === view.you) parts.push(settingsBox(view, table));
  return parts.length ? h("div", { class: "seats-bar", "data-testid": "seats-bar" }, parts) : null;
}

function settingsBox(view, table) {
  const level = h("select", { "data-testid": "setting-bot-level", "aria-label": "bot level" },
    view.levels.map((l) => h("option", { value: l }, l)));
  level.value = table.bot_level;
  const away = h("input", { type: "number", min: "1", max: "3600", step: "1", value: String(table.away_seconds),
    "data-testid": "setting-away", "aria-label": "seconds before an away player's bot plays" });
  const turn = h("input", { type: "number", min: "0", max: "3600", step: "1", value: String(table.turn_seconds),
    "data-testid": "setting-turn", "aria-label": "turn clock in seconds, 0 for none" });
  const save = h("button", { type: "button", class: "small", "data-testid": "setting-save", onclick: () => {
    const message = { type: "settings", bot_level: level.value };
    const a = Number(away.value);
    const t = Number(turn.value);
    if (Number.isFinite(a) && a > 0) message.away_seconds = a;
    if (Number.isFinite(t) && t >= 0) message.turn_seconds = t;
    view.send(message);
  } }, "Save");
  return h("details", { class: "table-settings", "data-testid": "table-settings" },
    h("summary", {}, "Table settings"),
    h("label", {}, "Bot level ", level),
    h("label", {}, "Away after (s) ", away),
    h("label", {}, "Turn clock (s, 0 off) ", turn),
    save);
}

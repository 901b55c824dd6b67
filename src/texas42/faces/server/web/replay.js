/* The replay viewer: a finished game (or an imported record) frame by frame, every hand face up. */

import { h, mount, setTitle, typingInField } from "./dom.js";
import { getJson } from "./net.js";
import {
  SEAT_NAMES, callsList, compassOf, ovalSpot, phaseOf, piles, placeOf, rolesOf, scorePad,
  seatCount, seatLabel, seatList, sideOf, teamLabels, tilePicture, trickArea,
} from "./board.js";
import { labHref, labPositions } from "./lab.js";

/** South at the bottom and North at the top of four seats, as on a diagram; North at the foot of
    the other tables. */
const bottomOf = (n) => (n === 4 ? 2 : 0);

/** The score after each finished hand up to frame i: the score as each new hand begins. */
function historyUpTo(frames, i) {
  const out = [];
  for (let k = 1; k <= i; k++) {
    if (frames[k].hand_number !== frames[k - 1].hand_number && Array.isArray(frames[k].score)) {
      out.push(frames[k].score);
    }
  }
  return out;
}

export async function showReplay(root, tableId, gameNumber) {
  setTitle("Replay");
  let replay;
  if (tableId) {
    mount(root, h("p", { class: "loading" }, "Loading the replay…"));
    try {
      replay = await getJson(`/api/tables/${encodeURIComponent(tableId)}/games/${encodeURIComponent(gameNumber)}/replay`);
    } catch (err) {
      mount(root, h("section", { class: "card narrow", "data-testid": "replay-error" },
        h("h2", {}, "No replay"), h("p", {}, err.message), h("p", {}, h("a", { href: "/" }, "Back to the lobby"))));
      return;
    }
  } else {
    try {
      replay = JSON.parse(sessionStorage.getItem("texas42:import") || "null");
    } catch {
      replay = null;
    }
    if (!replay) {
      mount(root, h("section", { class: "card narrow", "data-testid": "replay-error" },
        h("h2", {}, "Nothing to replay"),
        h("p", {}, "Import a game record in the lobby to watch it here."),
        h("p", {}, h("a", { href: "/" }, "Back to the lobby"))));
      return;
    }
  }
  const frames = Array.isArray(replay && replay.frames) ? replay.frames.filter((f) => f && typeof f === "object") : [];
  if (!frames.length) {
    mount(root, h("section", { class: "card narrow" }, h("h2", {}, "This game has no frames to show")));
    return;
  }
  const viewer = new ReplayViewer(root, replay.record || {}, replay.layout || {}, replay.unit, frames, tableId ? `Table ${tableId}, game ${gameNumber}` : "Imported record");
  viewer.start();
}

class ReplayViewer {
  constructor(root, record, layout, unit, frames, title) {
    this.root = root;
    this.record = record;
    this.unit = unit === "points" ? "points" : "marks";
    this.frames = frames;
    this.title = title;
    this.i = 0;
    const players = Array.isArray(record.players) ? record.players : [];
    const names = Array.isArray(layout.seat_names) ? layout.seat_names : SEAT_NAMES;
    const sides = Array.isArray(layout.side_of) ? layout.side_of : names.map((_, s) => s & 1);
    this.seats = names.map((compass, s) => ({ name: typeof players[s] === "string" ? players[s] : compass,
      kind: "human", compass, side: sides[s] }));
    this.bottom = bottomOf(this.seats.length);
  }

  start() {
    setTitle(this.title, `Replay · ${this.title}`);
    const hashFrame = Number(new URLSearchParams(location.hash.replace(/^#/, "")).get("frame"));
    if (Number.isInteger(hashFrame) && hashFrame > 0) this.i = Math.min(hashFrame, this.frames.length) - 1;
    this.el = {
      caption: h("p", { class: "caption", "data-testid": "replay-caption", "aria-live": "polite" }),
      felt: h("div", { class: "felt replay-felt", "data-testid": "replay-felt" }),
      controls: h("div", { class: "replay-controls", "data-testid": "replay-controls" }),
      side: h("aside", { class: "table-side" }),
    };
    mount(this.root, h("div", { class: "table-page replay", "data-testid": "replay" },
      h("div", { class: "table-main" }, this.el.caption, this.el.felt, this.el.controls),
      this.el.side));
    document.addEventListener("keydown", (event) => {
      if (typingInField(event)) return;
      const moves = { ArrowLeft: this.i - 1, ArrowRight: this.i + 1, Home: 0, End: this.frames.length - 1,
        ArrowUp: this.i - 1, ArrowDown: this.i + 1 };
      if (event.key in moves && !(event.target instanceof HTMLInputElement)) {
        event.preventDefault();
        this.go(moves[event.key]);
      }
    });
    this.render();
    // each hand of this finished game (or imported record) as a position for the hand laboratory
    labPositions(this.record).then((positions) => {
      this.labPositions = positions;
      this.render();
    }).catch(() => {});
  }

  go(i) {
    const next = Math.max(0, Math.min(this.frames.length - 1, i));
    if (next === this.i) return;
    this.i = next;
    history.replaceState(null, "", `${location.pathname}#frame=${this.i + 1}`);
    this.render();
  }

  seatPanel(seat, frame) {
    const hand = frame.hand || {};
    const n = seatCount(this.seats);
    const place = n === 4 ? placeOf(seat, this.bottom) : "oval";
    const spot = n === 4 ? null : ovalSpot(seat, this.bottom, n);
    const tiles = Array.isArray(frame.hands) && Array.isArray(frame.hands[seat]) ? frame.hands[seat] : [];
    const toAct = phaseOf(hand) !== "done" && hand.turn === seat;
    const roles = rolesOf(hand, seat);
    return h("section", {
      class: `seat-panel place-${place} team-${sideOf(this.seats, seat)}${toAct ? " to-act" : ""}${hand.out_seat === seat ? " out" : ""}`,
      style: spot ? `left: ${spot.x.toFixed(1)}%; top: ${spot.y.toFixed(1)}%` : null,
      "data-testid": `replay-seat-${seat}`, "data-seat": seat,
    },
    h("div", { class: "seat-head" },
      h("span", { class: "seat-name" }, this.seats[seat].name),
      h("span", { class: "seat-compass" }, compassOf(this.seats, seat))),
    roles.length ? h("div", { class: "roles" }, roles.join(" · ")) : null,
    h("div", { class: `open-hand ${place === "left" || place === "right" ? "side" : ""}`,
      "aria-label": `${seatLabel(this.seats, seat)}'s tiles` },
    tiles.map((t) => tilePicture(t, { vertical: true, cls: "small" }))));
  }

  render() {
    const frame = this.frames[this.i];
    const hand = frame.hand || {};
    const n = this.frames.length;
    this.el.caption.textContent = frame.caption || "";
    const trick = Array.isArray(hand.trick) ? hand.trick : [];
    const tricks = Array.isArray(hand.tricks) ? hand.tricks : [];
    let center;
    if (!trick.length && tricks.length) {
      const last = tricks[tricks.length - 1];
      center = trickArea(last.plays, this.bottom, this.seats, { won: last.winner, note: last.taken || "" });
    } else {
      center = trickArea(trick, this.bottom, this.seats);
    }
    this.el.felt.classList.toggle("oval", seatCount(this.seats) !== 4);
    mount(this.el.felt,
      seatList(this.seats).map((seat) => this.seatPanel(seat, frame)),
      h("div", { class: "felt-center" },
        h("div", { class: "center-stack" },
          h("div", { class: "center-note" }, `Hand ${frame.hand_number ?? ""} · ${hand.contract_line || ""}`),
          center)));
    const slider = h("input", { type: "range", min: 1, max: n, value: this.i + 1, "aria-label": "frame",
      "data-testid": "replay-slider", oninput: () => this.go(Number(slider.value) - 1) });
    const button = (label, text, to, testid) => h("button", { type: "button", "aria-label": label, "data-testid": testid,
      disabled: to < 0 || to >= n || to === this.i ? true : null, onclick: () => this.go(to) }, text);
    mount(this.el.controls,
      button("first frame", "« First", 0, "replay-first"),
      button("previous frame", "‹ Prev", this.i - 1, "replay-prev"),
      h("span", { class: "frame-count", "data-testid": "replay-position" }, `${this.i + 1} / ${n}`),
      button("next frame", "Next ›", this.i + 1, "replay-next"),
      button("last frame", "Last »", n - 1, "replay-last"),
      slider);
    const game = { score: frame.score || [], unit: this.unit, history: historyUpTo(this.frames, this.i) };
    mount(this.el.side,
      scorePad(game, this.seats, null),
      h("section", { class: "card side-card" }, h("h2", {}, "Bidding"), callsList(hand, this.seats, "replay-calls")),
      h("section", { class: "card side-card" }, h("h2", {}, "Tricks"), piles(hand, this.seats, teamLabels(this.seats))),
      h("p", { class: "side-links" }, h("a", { href: "/" }, "← Lobby"),
        this.labLink(frame)));
  }

  labLink(frame) {
    const position = Array.isArray(this.labPositions) ? this.labPositions[(frame.hand_number || 1) - 1] : null;
    return position ? [" · ", h("a", { href: labHref(position), "data-testid": "replay-lab" }, "Open in the lab")] : null;
  }
}

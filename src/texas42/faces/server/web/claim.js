/* Laying down: the "Lay down" button, with a confirm, for the player on lead (the server sends
   `can_claim`), and the tiles of a hand laid down, face up at its seat for everyone. The server
   judges the claim and says what came of it (a notice, and the last action's words). */

import { h } from "./dom.js";
import { tileSvg } from "./tiles.js";

/** The hands lying face up after a claim, by seat: `{seat: ["6-6", ...]}`. */
export function faceUpBySeat(hand) {
  const out = {};
  const list = hand && Array.isArray(hand.face_up) ? hand.face_up : [];
  for (const entry of list) {
    if (entry && Number.isInteger(entry.seat) && Array.isArray(entry.tiles)) out[entry.seat] = entry.tiles.map(String);
  }
  return out;
}

/** A seat's hand lying face up, to show in place of its backs; null when it is hidden. */
export function faceUpRow(hand, seat) {
  const tiles = faceUpBySeat(hand)[seat];
  if (!tiles || !tiles.length) return null;
  return h("span", { class: "face-up", role: "img", "data-testid": `face-up-${seat}`,
    "aria-label": `face up: ${tiles.join(" ")}` },
  tiles.map((t) => h("span", { class: "face-up-tile", "data-tile": t }, tileSvg(t, { vertical: true }))));
}

/** The lay-down control of a table page: a button, then a confirm before the claim is sent. */
export class ClaimBox {
  constructor(page) {
    this.page = page;
    this.asking = false;
    this.askedAt = null;
  }

  /** The controls for the action bar, or null when the player may not lay down now. */
  controls() {
    const page = this.page;
    const hand = page.hand;
    const seq = page.state ? page.state.seq : null;
    if (!hand || hand.can_claim !== true || !page.myTurn()) {
      this.asking = false;
      return null;
    }
    if (this.asking && this.askedAt !== seq) this.asking = false;
    if (!this.asking) {
      return h("div", { class: "claim-box", "data-testid": "claim-box" },
        h("button", { type: "button", class: "small", "data-testid": "claim-button", "data-focus": "claim",
          disabled: page.pending ? true : null,
          onclick: () => { this.asking = true; this.askedAt = seq; page.render(); } }, "Lay down"));
    }
    return h("div", { class: "claim-box asking", role: "group", "aria-label": "lay your hand down", "data-testid": "claim-box" },
      h("span", { class: "call-title" }, "Lay your hand down and claim the rest?"),
      h("button", { type: "button", class: "primary small", "data-testid": "claim-confirm", "data-focus": "claim-confirm",
        onclick: () => this.confirm() }, "Yes, lay down"),
      h("button", { type: "button", class: "small quiet", "data-testid": "claim-cancel", "data-focus": "claim-cancel",
        onclick: () => { this.asking = false; page.render(); } }, "Cancel"));
  }

  confirm() {
    const page = this.page;
    this.asking = false;
    if (page.pending || !page.state) return;
    page.pending = true;
    if (!page.send({ type: "claim", seq: page.state.seq })) return;
    page.render();
  }
}

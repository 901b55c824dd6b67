/* The table's "why?": a small button beside each action a bot took (a call, the contract, a tile
   in a trick) that opens the bot's reason in words. The reasons come in the state, with each hand
   (`Hand.reasons`, one `Why` a bot action), already in the words this reader may read: the server
   decides who reads the whole reason and who its public form (texas42.faces.server.payload), and
   nothing here judges that. This module finds a hand's reason for an action and draws its button. */

import { h } from "./dom.js";

/** The reason a hand carries for its action of `kind` ("call", "contract", "play") number
    `index` (the call's place in `calls`; the tile's among the hand's plays, 0 the first lead),
    or null when a person took it (or the hand has none). */
export function reasonFor(hand, kind, index) {
  const reasons = hand && Array.isArray(hand.reasons) ? hand.reasons : [];
  return reasons.find((r) => r && r.kind === kind && r.index === index && typeof r.text === "string") || null;
}

/** The number among the hand's plays of the first tile of trick `t` (its `tricks`), or of the
    trick on the table when `t` is the number of tricks taken: the tiles played before it. */
export function playsBefore(hand, t) {
  const tricks = hand && Array.isArray(hand.tricks) ? hand.tricks : [];
  return tricks.slice(0, t).reduce((n, trick) => n + (Array.isArray(trick.plays) ? trick.plays.length : 0), 0);
}

/** The "why?" button for a bot's action: `subject` names the action for screen readers and the
    panel's title ("Rosa: 30"), `key` tells it apart from the others on the page (and keeps the
    keyboard's focus on it across a re-render), `onOpen(reason, subject, key)` shows the reason. */
export function whyButton(reason, subject, key, onOpen) {
  if (!reason) return null;
  return h("button", {
    type: "button", class: "why-button", "data-testid": "why", "data-why": key, "data-focus": `why-${key}`,
    "data-seat": reason.seat, "aria-label": `why? ${subject}`, title: "why?", "aria-haspopup": "dialog",
    onclick: (event) => { event.stopPropagation(); onOpen(reason, subject, key); },
  }, "why?");
}

/* The bid box and the contract box: the legal calls or contracts, grouped under the headings
   the server sends (`Legal.group`: Points, Marks, Suits, Follow-me, Specials...), each button
   with its meaning on a line of its own (`Legal.meaning`), so a phone shows it without hover.
   Every word here comes from the server (texas42.core.words); this module only lays them out. */

import { h } from "./dom.js";

/** The legal choices in groups, in the order their first choice comes: [[heading, [legal]]].
    A pass comes first, under no heading. */
export function groupChoices(legal) {
  const groups = [];
  const pass = legal.filter((a) => a.action === "pass");
  if (pass.length) groups.push(["", pass]);
  for (const a of legal) {
    if (a.action === "pass") continue;
    const heading = typeof a.group === "string" ? a.group : "";
    const found = groups.find(([name]) => name === heading && name !== "");
    if (found) found[1].push(a);
    else groups.push([heading, [a]]);
  }
  return groups;
}

/** One choice's button: its label, and under it what it means. */
function choiceButton(a, { pending, onAct }) {
  const meaning = typeof a.meaning === "string" ? a.meaning : "";
  return h("button", {
    type: "button", class: `call-button${a.action === "pass" ? " pass" : ""}${meaning ? " with-meaning" : ""}`,
    "data-action": a.action, "data-focus": `action-${a.action}`, disabled: pending ? true : null,
    "aria-description": meaning || null,
    onclick: () => onAct(a.action),
  },
  h("span", { class: "call-label" }, a.label || a.action),
  meaning ? h("span", { class: "call-meaning", "data-testid": "call-meaning" }, meaning) : null);
}

/** The box of calls or contracts: a title, then each group under its heading. */
export function choiceBox(calls, { title, phase, testid, pending, onAct }) {
  return h("div", { class: `call-box ${phase}`, "data-testid": testid, role: "group", "aria-label": title },
    h("span", { class: "call-title" }, title),
    groupChoices(calls).map(([heading, items]) => h("div", {
      class: `call-group${heading ? "" : " plain"}`, "data-group": heading || null,
      role: heading ? "group" : null, "aria-label": heading || null,
    },
    heading ? h("span", { class: "call-group-head" }, heading) : null,
    h("div", { class: "call-buttons" }, items.map((a) => choiceButton(a, { pending, onAct }))))));
}

/** Under a hand's summary, what the next hand has come to beneath it (the server's
    `LastHand.next_line`), with a button that closes the summary to get to it. */
export function nextHandNote(game, number, onClose) {
  const last = game && game.last_hand;
  const line = last && (last.number === undefined || last.number === number) ? String(last.next_line || "") : "";
  if (!line) return null;
  return h("div", { class: "next-hand", "data-testid": "next-hand" },
    h("p", { class: "next-hand-line" }, line),
    h("button", { type: "button", class: "primary", "data-testid": "to-next-hand", "data-focus": "to-next-hand",
      onclick: onClose }, "Back to the table"));
}

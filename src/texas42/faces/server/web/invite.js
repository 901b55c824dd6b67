/* The invite: the table's link for friends, a button that copies it, and its QR code for phones
   at the same table. The server makes the link (on its --public-url when it has one) and draws
   the QR code of exactly that link; the page shows what it is sent. */

import { copyText, h } from "./dom.js";
import { getJson } from "./net.js";

/** Screens this narrow start with the QR code folded away: it would push the table down. */
const PHONE = "(max-width: 600px)";

/** Each table's invite box, made once: the page is rebuilt on every state, and the box moves
    into the new page whole, so the link fetched, the QR image loaded and the fold chosen stay. */
const boxes = new Map();

/** The invite box of a table: its link (with Copy) and the QR code of that link. */
export function inviteBox(tableId) {
  let box = boxes.get(tableId);
  if (!box) {
    box = makeBox(tableId);
    boxes.set(tableId, box);
  }
  return box;
}

function makeBox(tableId) {
  const api = `/api/tables/${encodeURIComponent(tableId)}`;
  // until the server answers: the link on the address this page came from
  let link = `${location.origin}/t/${encodeURIComponent(tableId)}`;
  const input = h("input", { class: "invite-input", readonly: true, value: link, "data-testid": "invite-link",
    "aria-label": "invite link", onfocus: () => input.select() });
  const image = h("img", { class: "invite-qr-image", src: `${api}/invite.svg`, width: 168, height: 168,
    alt: "QR code of the invite link", "data-testid": "invite-qr" });
  const phone = typeof matchMedia === "function" && matchMedia(PHONE).matches;
  const box = h("div", { class: "invite", "data-testid": "invite" },
    h("label", {}, "Invite link"),
    h("div", { class: "invite-row" }, input,
      h("button", { type: "button", class: "small", "data-testid": "copy-invite", "data-focus": "copy-invite",
        onclick: () => copyText(link, input) }, "Copy")),
    h("details", { class: "invite-qr", "data-testid": "invite-qr-box", open: !phone },
      h("summary", {}, "QR code for phones"),
      image,
      h("p", { class: "muted" }, "A phone's camera opens the table from it.")));
  getJson(`${api}/invite`).then((invite) => {
    if (!invite || typeof invite.url !== "string" || !invite.url) return;
    link = invite.url;
    input.value = link;
    input.setAttribute("value", link);
    // the link the QR code says, for whoever reads the page (and its tests)
    image.dataset.link = link;
  }).catch(() => {}); // the link on this page's address stays
  return box;
}

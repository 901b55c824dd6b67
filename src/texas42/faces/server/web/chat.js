/* A table's chat: the recent lines, a line to write, quick reactions, and the host's settings
   (spectators may write, listed in the lobby, a mute for each person's seat). Names and lines
   are what people typed: they are only ever put in the page as text nodes (dom.js `h`). */

import { h, mount } from "./dom.js";
import { playerName, setPlayerName } from "./store.js";

/** The quick reactions, as the server knows them (messages.REACTIONS). */
export const REACTIONS = ["good one", "sorry partner", "well played", "nice bid", "oops", "thanks"];
const CHAT_LIMIT = 200;
const KEPT = 50;

function clock(at) {
  const when = new Date(Number(at) * 1000);
  return Number.isNaN(when.getTime()) ? "" : when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

export class ChatPanel {
  /** ``send`` sends a message over the table's socket and says whether it went. */
  constructor(send) {
    this.send = send;
    this.lines = [];
    this.table = null;
    this.you = null;
    this.unread = 0;
    this.list = h("ol", { class: "chat-lines", "data-testid": "chat-lines", "aria-live": "polite" });
    this.input = h("input", { type: "text", maxlength: CHAT_LIMIT, autocomplete: "off",
      placeholder: "Say something", "aria-label": "chat message", "data-testid": "chat-input" });
    this.nameInput = h("input", { type: "text", maxlength: 24, autocomplete: "nickname",
      placeholder: "Your name", "aria-label": "your name in the chat", class: "chat-name-input",
      "data-testid": "chat-name", value: playerName() || "" });
    this.note = h("p", { class: "muted chat-note", "data-testid": "chat-note" });
    this.form = h("form", { class: "chat-form", "data-testid": "chat-form",
      onsubmit: (event) => {
        event.preventDefault();
        this.write();
      } },
    this.nameInput, this.input,
    h("button", { type: "submit", "data-testid": "chat-send" }, "Send"));
    this.reactions = h("div", { class: "chat-reactions", role: "group", "aria-label": "quick reactions" },
      REACTIONS.map((words, i) => h("button", { type: "button", class: "small quiet",
        "data-testid": `react-${i}`, "data-reaction": words,
        onclick: () => this.send({ type: "react", reaction: words, ...this.spectatorName() }) }, words)));
    this.host = h("div", { class: "chat-host", "data-testid": "chat-host" });
    this.count = h("span", { class: "chat-unread", "data-testid": "chat-unread" });
    this.toggle = h("button", { type: "button", class: "chat-toggle", "aria-expanded": "true",
      "data-testid": "chat-toggle", onclick: () => this.setOpen(this.el.dataset.open !== "true") },
    "Chat", this.count);
    this.body = h("div", { class: "chat-body" }, this.list, this.note, this.reactions, this.form, this.host);
    this.el = h("section", { class: "card side-card chat", "data-testid": "chat" }, this.toggle, this.body);
    // on a phone the chat starts folded away, and says how many lines came while it was
    this.setOpen(!window.matchMedia("(max-width: 600px)").matches);
  }

  setOpen(open) {
    this.el.dataset.open = open ? "true" : "false";
    this.toggle.setAttribute("aria-expanded", open ? "true" : "false");
    this.body.hidden = !open;
    if (open) this.unread = 0;
    this.count.textContent = this.unread ? ` (${this.unread})` : "";
  }

  spectatorName() {
    if (this.you !== null) return {};
    const name = this.nameInput.value.trim();
    if (name) setPlayerName(name);
    return name ? { name } : {};
  }

  write() {
    const text = this.input.value.trim();
    if (!text) return;
    if (this.send({ type: "chat", text, ...this.spectatorName() })) this.input.value = "";
  }

  /** A `chat` message: the recent lines on joining (they replace the list), or a new one. */
  onChat(message) {
    const lines = Array.isArray(message.lines) ? message.lines : [];
    if (message.history) {
      this.lines = lines.slice(-KEPT);
    } else {
      this.lines = [...this.lines, ...lines].slice(-KEPT);
      if (this.el.dataset.open !== "true") this.unread += lines.length;
    }
    this.renderLines();
    this.setOpen(this.el.dataset.open === "true");
  }

  renderLines() {
    const atEnd = this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 8;
    mount(this.list, this.lines.map((line) => h("li", {
      class: line.reaction ? "chat-line reaction" : "chat-line",
      "data-testid": "chat-line", "data-seat": line.seat === null ? "" : String(line.seat) },
    h("span", { class: "chat-name", "data-testid": "chat-line-name" }, String(line.name ?? "")),
    h("span", { class: "chat-text", "data-testid": "chat-line-text" }, String(line.text ?? "")),
    h("time", { class: "chat-time muted" }, clock(line.at)))));
    if (atEnd) this.list.scrollTop = this.list.scrollHeight;
  }

  /** The table's state: who may write, and the host's controls. */
  update(table, you) {
    this.table = table;
    this.you = you;
    const muted = Array.isArray(table.muted) ? table.muted : [];
    const spectator = you === null;
    const mayWrite = spectator ? Boolean(table.spectators_chat) : !muted.includes(you);
    this.form.hidden = !mayWrite;
    this.reactions.hidden = !mayWrite;
    this.nameInput.hidden = !spectator;
    this.note.textContent = mayWrite ? ""
      : spectator ? "Only the players write here; the host may let spectators join in."
        : "The host has muted your chat.";
    this.renderHost(table, you);
  }

  renderHost(table, you) {
    if (you === null || table.host !== you) {
      mount(this.host);
      return;
    }
    const muted = Array.isArray(table.muted) ? table.muted : [];
    const people = (table.seats || []).filter((seat) => seat && seat.kind === "human" &&
      seat.holder === null && seat.seat !== you);
    mount(this.host,
      h("label", { class: "check" },
        h("input", { type: "checkbox", "data-testid": "chat-spectators", checked: table.spectators_chat ? true : null,
          onchange: (event) => this.send({ type: "chat_rules", spectators: event.target.checked }) }),
        " Spectators may write"),
      table.status === "over" ? null : h("label", { class: "check" },
        h("input", { type: "checkbox", "data-testid": "listing", checked: table.public ? true : null,
          onchange: (event) => this.send({ type: "listing", public: event.target.checked }) }),
        " Listed in the lobby"),
      people.length ? h("ul", { class: "chat-mutes" }, people.map((seat) => {
        const isMuted = muted.includes(seat.seat);
        return h("li", {},
          h("span", { class: "chat-name" }, String(seat.name ?? "")),
          h("button", { type: "button", class: "small quiet", "data-testid": `mute-${seat.seat}`,
            "aria-pressed": isMuted ? "true" : "false",
            onclick: () => this.send({ type: "mute", seat: seat.seat, muted: !isMuted }) },
          isMuted ? "Unmute" : "Mute"));
      })) : null);
  }
}

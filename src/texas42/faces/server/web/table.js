/* The live table: seats around the felt, your hand, the bidding box, the trick, the score pad,
   hints and hand reviews. The server sends the whole table after every change; `render` rebuilds
   the page from the newest state alone, so a missed message can never leave it wrong. */

import { h, mount, setTitle, toast, typingInField } from "./dom.js";
import { inviteBox } from "./invite.js";
import { getJson, TableSocket } from "./net.js";
import { forgetTable, newToken, playerName, playerSecret, rememberTable, setPlayerName, setToken, tokenFor } from "./store.js";
import { notePlayer, playerLink } from "./player.js";
import {
  backsRow, callsList, compassOf, lastCallOf, ovalSpot, phaseOf, piles, placeOf, resultWords,
  rolesOf, scorePad, seatCount, seatLabel, seatList, sideOf, teamLabels, tilePicture, trickArea,
  trickRow,
} from "./board.js";
import { tileSvg } from "./tiles.js";
import { ClaimBox, faceUpRow } from "./claim.js";
import { choiceBox, nextHandNote } from "./choices.js";
import { ChatPanel } from "./chat.js";
import { hostControls, openSeatControls, seatBadges, seatsBar, turnClock } from "./seats.js";
import { playsBefore, reasonFor, whyButton } from "./why.js";
import { coachBlock } from "./coach.js";

const SHORTCUTS = [
  ["1 – 9", "play (or discard) the 1st … 9th tile of your hand"],
  ["p", "pass in the bidding"],
  ["h", "ask for a hint (on your turn)"],
  ["l", "show or hide the last trick"],
  ["?", "show these shortcuts"],
  ["Esc", "close a panel"],
];

const isSeat = (x) => Number.isInteger(x) && x >= 0 && x < 7;

/** The tile a legal action plays or discards ("6-4", "play 6-4", "discard 6-4"), or null for a
    call or a contract. */
export function playedTile(action) {
  const m = /^(?:(?:play|discard)\s+)?([0-6]-[0-6])$/.exec(String(action || "").trim());
  return m ? m[1] : null;
}

/** A play review's lines, as the server wrote them: the plays that cost something, in play order,
    what it says when none did, and how the bids stood up. With `actions`, each line also has
    the `index` of the play or call it is about (from 1) and `what` was played or bid. */
export function reviewWords(review, actions = false) {
  const plays = Array.isArray(review.plays) ? review.plays : [];
  const said = (x) => (actions
    ? { seat: x.seat, text: String(x.text || ""), index: x.index, what: String(x.tile || x.bid || "") }
    : { seat: x.seat, text: String(x.text || "") });
  const mistakes = plays.filter((p) => Number(p.cost) > 0).map(said);
  const bids = (Array.isArray(review.bids) ? review.bids : []).map(said);
  return { mistakes, noCostly: String(review.no_costly_line || ""), bids };
}

export function showTable(root, tableId) {
  const page = new TablePage(root, tableId);
  page.start();
  return page;
}

class TablePage {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.state = null;
    this.you = null;
    this.mine = [];
    this.levels = ["easy", "medium", "hard", "expert"];
    this.botLevel = {};
    this.hints = null;
    this.hintsWaiting = false;
    this.review = null;
    this.reviewWaiting = null;
    this.summary = null;
    this.lastTrickOpen = false;
    this.shortcutsOpen = false;
    this.why = null;
    this.overDismissed = null;
    this.illegal = "";
    this.pending = false;
    this.seatLink = null;
    this.sentToken = false;
    this.sitting = null;
    this.nameDraft = null;
    this.prevHand = null;
    this.prevStatus = null;
    this.claims = new ClaimBox(this);
  }

  start() {
    const fragment = new URLSearchParams(location.hash.replace(/^#/, ""));
    const given = fragment.get("token");
    if (given) {
      setToken(this.id, given);
      history.replaceState(null, "", location.pathname + location.search);
    }
    setTitle(`Table ${this.id}`);
    this.build();
    getJson(`/api/tables/${encodeURIComponent(this.id)}`).then(
      () => this.connect(),
      (err) => {
        if (err.status === 404 || err.status === 410) this.notFound(err.status === 410 ? err.message : "");
        else this.connect();
      });
    getJson("/api/options").then((api) => {
      if (api && Array.isArray(api.levels) && api.levels.length) {
        const bots = Array.isArray(api.bots) ? api.bots : [];
        this.levels = [...api.levels, ...bots].map(String);
        this.render();
      }
    }).catch(() => {});
    document.addEventListener("keydown", (event) => this.onKey(event));
  }

  /** The table is not there; ``why``, the server's words when it says more than that (a table
   * that expired). */
  notFound(why = "") {
    this.onStatus("open");
    mount(this.root, h("section", { class: "card narrow", "data-testid": "not-found" },
      h("h2", {}, "No such table"),
      h("p", {}, why ? `${why[0].toUpperCase()}${why.slice(1)}.` : `There is no table ${this.id} on this server.`),
      h("p", {}, h("a", { href: "/" }, "Back to the lobby"))));
  }

  connect() {
    this.socket = new TableSocket(this.id, {
      hello: () => {
        const token = tokenFor(this.id);
        this.sentToken = Boolean(token);
        return token ? { token } : {};
      },
      onMessage: (m) => this.onMessage(m),
      onStatus: (status) => this.onStatus(status),
    });
    this.socket.start();
  }

  onStatus(status) {
    const badge = document.getElementById("connection");
    if (!badge) return;
    badge.hidden = status === "open";
    badge.dataset.status = status;
    badge.textContent = status === "connecting" ? "connecting…" : "reconnecting…";
  }

  send(message) {
    if (this.socket && this.socket.send(message)) return true;
    toast("Not connected to the table: reconnecting…", "error");
    this.pending = false;
    this.hintsWaiting = false;
    this.reviewWaiting = null;
    return false;
  }

  onMessage(m) {
    switch (m.type) {
      case "welcome":
        this.sitting = null; // a sit asked for before a reconnection: the hello's token told
        this.you = isSeat(m.seat) ? m.seat : null;
        // the server no longer knows our token (we stood up): stop offering it
        if (this.you === null && this.sentToken) forgetTable(this.id);
        break;
      case "seated":
        this.sitting = null;
        if (typeof m.token === "string") setToken(this.id, m.token);
        if (isSeat(m.seat)) this.you = m.seat;
        this.seatLink = typeof m.link === "string" ? m.link : null;
        rememberTable({ id: this.id, name: this.state && this.state.table && this.state.table.name, seat: this.you });
        break;
      case "state":
        notePlayer(m);
        this.onState(m);
        return;
      case "hints":
        this.hintsWaiting = false;
        this.hints = m;
        if (this.state && !this.hintsFor(this.state)) this.hints = null; // for a state gone by
        break;
      case "review":
        this.reviewWaiting = null;
        this.review = m;
        break;
      case "presence":
        if (!this.onPresence(m)) return;
        break;
      case "notice":
        toast(m.message || "", "info");
        return;
      case "chat":
        this.chat.onChat(m);
        return;
      case "error":
        if (m.code === "not-found") {
          this.socket.stop();
          this.notFound(/expired/.test(m.message || "") ? m.message : "");
          return;
        }
        this.pending = false;
        this.hintsWaiting = false;
        if (this.reviewWaiting !== null) this.reviewWaiting = null;
        if (this.sitting) this.sitRefused();
        if (m.code !== "stale") toast(m.message || "The server refused that.", "error");
        break;
      default:
        return;
    }
    this.render();
  }

  onState(state) {
    this.stateAt = performance.now();
    if (!state || typeof state !== "object") return;
    const game = state.game || null;
    const handNumber = game && Number.isInteger(game.hand_number) ? game.hand_number : null;
    const status = state.table && state.table.status;
    if (state.you && "seat" in state.you) this.you = isSeat(state.you.seat) ? state.you.seat : null;
    // in two-hand a person plays their partner's seat too
    this.mine = state.you && Array.isArray(state.you.seats) ? state.you.seats.filter(isSeat)
      : this.you === null ? [] : [this.you];
    if (this.you !== null && tokenFor(this.id)) {
      rememberTable({ id: this.id, name: state.table && state.table.name, seat: this.you,
        compass: compassOf(state.table && state.table.seats, this.you) });
    }
    // a new hand began: the one just finished is summed up
    if (this.prevHand !== null && handNumber !== null && handNumber > this.prevHand && game.last_hand) {
      this.openSummary(game.last_hand, this.prevHand);
    }
    if (status === "over" && this.prevStatus !== null && this.prevStatus !== "over") {
      this.overDismissed = null;
    }
    if (this.state && this.state.seq !== state.seq) this.illegal = "";
    if (this.hints && !this.hintsFor(state)) this.hints = null;
    const hand = game && game.hand;
    if (this.summary && !this.review && hand && phaseOf(hand) === "play" && hand.trick && hand.trick.length) {
      this.summary = null; // the next hand is under way
    }
    this.prevHand = handNumber;
    this.prevStatus = status;
    this.state = state;
    this.pending = false;
    this.render();
  }

  /** Who is at the table now: the spectators and each seat's connected mark, put into the state
      shown (the rest of it has not changed); false when there is no state to put it in. */
  onPresence(m) {
    const table = this.state && this.state.table;
    if (!table || !Array.isArray(table.seats) || !Array.isArray(m.connected)) return false;
    if (Number.isInteger(m.spectators)) table.spectators = m.spectators;
    table.seats.forEach((seat, i) => {
      if (typeof m.connected[i] === "boolean") seat.connected = m.connected[i];
    });
    return true;
  }

  /** Whether the hints kept are for this state: its game and its seq (a seq starts again with
      each game, so a late answer from the last game is not taken for this one's). */
  hintsFor(state) {
    const game = state && state.table ? state.table.game_number : null;
    return Boolean(this.hints) && this.hints.seq === state.seq && this.hints.game === game;
  }

  openSummary(lastHand, number) {
    const n = lastHand.number ?? lastHand.hand_number ?? number;
    this.summary = { hand: lastHand, number: n };
    this.review = null;
    this.reviewWaiting = null;
  }

  // ---- actions -------------------------------------------------------------------------------

  get hand() {
    return this.state && this.state.game ? this.state.game.hand : null;
  }

  legal() {
    const hand = this.hand;
    return hand && Array.isArray(hand.legal) ? hand.legal : [];
  }

  /** The legal action a hint names: hints use record notation ("31", "6-4"), acts use words
      ("bid 31", "play 6-4"). */
  legalFor(notation) {
    const want = String(notation);
    return this.legal().find((a) => a.action === want || a.action.split(" ").slice(1).join(" ") === want) || null;
  }

  /** Whether this browser plays the seat: its own, or in two-hand its partner's. */
  plays(seat) {
    return this.you !== null && (seat === this.you || this.mine.includes(seat));
  }

  myTurn() {
    const hand = this.hand;
    return Boolean(hand && this.plays(hand.turn) && this.legal().length &&
      this.state.table.status === "playing");
  }

  act(action) {
    if (this.pending) return;
    this.pending = true;
    this.illegal = "";
    this.send({ type: "act", action, seq: this.state.seq });
    this.render();
  }

  clickTile(tile) {
    const legal = this.legal().find((a) => playedTile(a.action) === tile);
    if (legal && this.myTurn()) {
      this.act(legal.action);
      return;
    }
    const hand = this.hand;
    const reasons = hand && hand.illegal && typeof hand.illegal === "object" ? hand.illegal : {};
    let reason = reasons[tile] || reasons[`play ${tile}`];
    if (!reason) {
      const phase = phaseOf(hand);
      if (!this.myTurn()) reason = "It is not your turn.";
      else if (phase !== "play" && phase !== "discard") reason = "Tiles are played once the bidding is over.";
      else reason = `You cannot play ${tile} now.`;
    }
    this.illegal = `${tile}: ${reason}`;
    this.render();
  }

  askHint() {
    if (this.hintsWaiting) return;
    if (!this.myTurn()) {
      toast("A hint is for your turn.");
      return;
    }
    this.hintsWaiting = true;
    this.hints = null;
    this.send({ type: "hint" });
    this.render();
  }

  askReview(number) {
    this.reviewWaiting = number;
    this.review = null;
    this.send({ type: "review", hand: number });
    this.render();
  }

  sit(seat) {
    const input = this.root.querySelector("[data-testid=player-name]");
    const name = (input ? input.value : playerName()).trim();
    if (!name) {
      toast("Type your name first, then take a seat.");
      if (input) input.focus();
      return;
    }
    setPlayerName(name);
    // the token is kept before the seat is asked for: should the server stop before its
    // answer, the next hello gives the seat back (and a refused sit forgets it again)
    const token = newToken();
    const kept = tokenFor(this.id);
    setToken(this.id, token);
    this.sitting = { token, kept };
    if (!this.send({ type: "sit", seat, name, player: playerSecret(), token })) this.sitRefused();
  }

  /** The sit asked for was refused (or could not be sent): the token made for it is dropped. */
  sitRefused() {
    if (this.sitting && tokenFor(this.id) === this.sitting.token) setToken(this.id, this.sitting.kept);
    this.sitting = null;
  }

  onKey(event) {
    if (typingInField(event) || !this.state || event.repeat) return;
    const key = event.key;
    if (key === "Escape") {
      if (this.why) {
        this.closeWhy();
        return;
      }
      if (this.shortcutsOpen || this.lastTrickOpen || this.summary) {
        this.shortcutsOpen = false;
        this.lastTrickOpen = false;
        this.summary = null;
        this.render();
      }
      return;
    }
    if (key === "?") {
      this.shortcutsOpen = !this.shortcutsOpen;
    } else if (key === "l" || key === "L") {
      this.lastTrickOpen = !this.lastTrickOpen;
    } else if (key === "h" || key === "H") {
      this.askHint();
      event.preventDefault();
      return;
    } else if (key === "p" || key === "P") {
      const pass = this.legal().find((a) => a.action === "pass");
      if (pass && this.myTurn()) this.act(pass.action);
      else toast("You cannot pass now.");
      event.preventDefault();
      return;
    } else if (/^[1-9]$/.test(key)) {
      const tiles = this.hand && Array.isArray(this.hand.tiles) ? this.hand.tiles : [];
      const tile = tiles[Number(key) - 1];
      if (tile) this.clickTile(tile);
      event.preventDefault();
      return;
    } else {
      return;
    }
    event.preventDefault();
    this.render();
  }

  // ---- drawing -------------------------------------------------------------------------------

  build() {
    this.el = {
      info: h("div", { class: "info-bar", "data-testid": "info" }),
      felt: h("div", { class: "felt", "data-testid": "felt" }),
      hand: h("div", { class: "my-hand", role: "group", "aria-label": "your hand", "data-testid": "hand" }),
      illegal: h("p", { class: "illegal-reason", role: "alert", "data-testid": "illegal-reason" }),
      actions: h("div", { class: "action-bar", "data-testid": "action-bar" }),
      hints: h("div", { class: "hints-area" }),
      side: h("aside", { class: "table-side" }),
    };
    this.chat = new ChatPanel((message) => this.send(message));
    this.el.page = h("div", { class: "table-page", "data-testid": "table-page" },
      h("div", { class: "table-main" }, this.el.info, this.el.felt, this.el.hand, this.el.illegal,
        this.el.actions, this.el.hints),
      h("div", { class: "table-side-column" }, this.chat.el, this.el.side));
    mount(this.root, this.el.page);
    mount(this.el.felt, h("p", { class: "felt-wait" }, "Joining the table…"));
  }

  render() {
    if (!this.state || !this.el) return;
    const focusKey = document.activeElement && document.activeElement.dataset
      ? document.activeElement.dataset.focus : null;
    const { table } = this.state;
    this.el.page.dataset.seq = String(this.state.seq);
    this.el.page.dataset.status = table.status;
    this.el.page.dataset.seat = this.you === null ? "" : String(this.you);
    setTitle(table.name || `Table ${table.id}`);
    this.renderInfo();
    this.renderFelt();
    this.renderHand();
    this.el.illegal.textContent = this.illegal;
    this.renderActions();
    this.renderHints();
    this.renderSide();
    this.chat.update(table, this.you);
    if (focusKey) {
      const again = this.root.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`);
      if (again) again.focus();
    }
  }

  bottomSeat() {
    if (this.you !== null) return this.you;
    return seatCount(this.state && this.state.table.seats) === 4 ? 2 : 0;
  }

  statusLine() {
    const { table, game } = this.state;
    const seats = table.seats || [];
    if (table.status === "lobby") {
      const empty = seats.filter((x) => !x || x.kind === "empty").length;
      return empty ? `Waiting for ${empty} more player${empty === 1 ? "" : "s"}` : "All seats filled: ready to start";
    }
    if (table.status === "over") return (game && game.over_line) || "Game over";
    const hand = game && game.hand;
    if (!hand) return "";
    const phase = phaseOf(hand);
    if (phase === "done" || !isSeat(hand.turn)) return "Hand over";
    const verb = phase === "auction" ? "bid" : phase === "declare" ? "name trump"
      : phase === "discard" ? "discard" : "play";
    if (hand.turn === this.you) return `Your turn to ${verb}`;
    if (this.plays(hand.turn)) return `Your turn to ${verb} for ${compassOf(seats, hand.turn)}`;
    return `${seatLabel(seats, hand.turn)} to ${verb}`;
  }

  renderInfo() {
    const { table, game } = this.state;
    const hand = game && game.hand;
    const myTurn = this.myTurn();
    mount(this.el.info,
      h("span", { class: `turn-line${myTurn ? " mine" : ""}`, "data-testid": "status" }, this.statusLine()),
      turnClock(this),
      seatsBar(this),
      game ? h("span", { class: "hand-number", "data-testid": "hand-number" }, `Hand ${game.hand_number}`) : null,
      this.state.last && this.state.last.text
        ? h("span", { class: "last-action", "data-testid": "last-action" }, this.state.last.text) : null,
      hand ? h("span", { class: "contract-line", "data-testid": "contract" }, hand.contract_line || "") : null);
  }

  seatPanel(seat) {
    const { table, game } = this.state;
    const info = (table.seats || [])[seat] || { kind: "empty" };
    const hand = game && game.hand;
    const bottom = this.bottomSeat();
    const count = seatCount(table.seats);
    const place = count === 4 ? placeOf(seat, bottom) : "oval";
    const spot = count === 4 ? null : ovalSpot(seat, bottom, count);
    const compass = compassOf(table.seats, seat);
    const lobby = table.status === "lobby";
    const kind = info.kind || "empty";
    const toAct = hand && phaseOf(hand) !== "done" && hand.turn === seat && table.status === "playing";
    const badges = [];
    if (this.plays(seat)) badges.push(h("span", { class: "badge you" }, "you"));
    if (kind === "bot") badges.push(h("span", { class: "badge bot" }, `bot${info.level ? ` · ${info.level}` : ""}`));
    if (kind === "human" && info.connected === false && !info.away) badges.push(h("span", { class: "badge away" }, "offline"));
    badges.push(...seatBadges(info));
    const roles = rolesOf(hand, seat);
    const call = hand && phaseOf(hand) === "auction" ? lastCallOf(hand, seat) : null;
    const controls = [];
    if (lobby) {
      if (kind === "empty" && this.you === null) {
        controls.push(h("button", { type: "button", class: "primary small", "data-testid": `sit-${seat}`,
          "data-focus": `sit-${seat}`, onclick: () => this.sit(seat) }, "Sit here"));
      }
      if (kind === "empty" && this.you !== null) {
        const level = this.botLevel[seat] || (this.levels.includes("medium") ? "medium" : this.levels[0]);
        const select = h("select", { "data-testid": `bot-level-${seat}`, "data-focus": `bot-level-${seat}`,
          "aria-label": `bot level for ${compass}`,
          onchange: () => { this.botLevel[seat] = select.value; } },
        this.levels.map((l) => h("option", { value: l }, l)));
        select.value = level;
        controls.push(h("span", { class: "bot-controls" }, select,
          h("button", { type: "button", class: "small", "data-testid": `add-bot-${seat}`, "data-focus": `add-bot-${seat}`,
            onclick: () => this.send({ type: "bot", seat, level: select.value }) }, "Add bot")));
      }
      if (this.you !== null && (kind === "bot" || seat === this.you)) {
        controls.push(h("button", { type: "button", class: "small quiet", "data-testid": `remove-${seat}`,
          "data-focus": `remove-${seat}`, onclick: () => {
            if (seat === this.you) forgetTable(this.id);
            this.send({ type: "leave", seat });
          } },
        seat === this.you ? "Stand up" : "Remove"));
      }
    }
    controls.push(...hostControls(this, seat, info), ...openSeatControls(this, seat, info));
    let tiles = null;
    if (hand && !this.plays(seat) && phaseOf(hand) !== "done") {
      const left = Array.isArray(hand.tiles_left) ? hand.tiles_left[seat] : 0;
      tiles = faceUpRow(hand, seat) || backsRow(left, place === "left" || place === "right" ? "side" : "");
    }
    return h("section", {
      class: `seat-panel place-${place} team-${sideOf(table.seats, seat)}${toAct ? " to-act" : ""}${hand && hand.out_seat === seat ? " out" : ""}${kind === "empty" ? " empty" : ""}`,
      style: spot ? `left: ${spot.x.toFixed(1)}%; top: ${spot.y.toFixed(1)}%` : null,
      "data-testid": `seat-${seat}`, "data-seat": seat, "data-kind": kind,
      "aria-label": `${compass}: ${kind === "empty" ? "empty seat" : seatLabel(table.seats, seat)}${toAct ? ", to act" : ""}`,
    },
    h("div", { class: "seat-head" },
      h("span", { class: "seat-name" }, kind === "empty" ? "Empty seat" : playerLink(info, info.label || info.name || compass)),
      h("span", { class: "seat-compass" }, compass)),
    badges.length ? h("div", { class: "badges" }, badges) : null,
    roles.length ? h("div", { class: "roles" }, roles.join(" · ")) : null,
    call ? h("div", { class: `call-bubble${call === "pass" ? " pass" : ""}`, "data-testid": `call-${seat}` }, call) : null,
    tiles,
    controls.length ? h("div", { class: "seat-controls" }, controls) : null);
  }

  renderFelt() {
    const { table } = this.state;
    const bottom = this.bottomSeat();
    const n = seatCount(table.seats);
    const seats = seatList(table.seats).sort((a, b) => ((a - bottom + n) % n) - ((b - bottom + n) % n));
    mount(this.el.felt,
      seats.map((seat) => this.seatPanel(seat)),
      h("div", { class: "felt-center" }, this.centerContent()),
      this.overlay());
    this.el.felt.dataset.status = table.status;
    this.el.felt.dataset.seats = String(n);
    this.el.felt.classList.toggle("oval", n !== 4);
    this.el.felt.classList.toggle("my-turn", this.myTurn());
  }

  centerContent() {
    const { table, game } = this.state;
    if (table.status === "lobby" || !game) return this.pregame();
    const hand = game.hand;
    const bottom = this.bottomSeat();
    if (!hand) return null;
    const phase = phaseOf(hand);
    const trick = Array.isArray(hand.trick) ? hand.trick : [];
    const tricks = Array.isArray(hand.tricks) ? hand.tricks : [];
    if (trick.length || phase === "play" || phase === "done") {
      if (!trick.length && tricks.length) {
        const last = tricks[tricks.length - 1];
        return trickArea(last.plays, bottom, table.seats, { won: last.winner, note: last.taken || "",
          why: this.playWhy(hand, game.hand_number, playsBefore(hand, tricks.length - 1)) });
      }
      return trickArea(trick, bottom, table.seats,
        { why: this.playWhy(hand, game.hand_number, playsBefore(hand, tricks.length)) });
    }
    // the bidding: show the draw for the first shake before the first call
    const draw = Array.isArray(game.draw) ? game.draw : [];
    if (game.hand_number === 1 && draw.length && !(hand.calls || []).length) {
      return h("div", { class: "draw", "data-testid": "draw" },
        h("h3", {}, "Draw for the first shake"),
        draw.map((round) => h("div", { class: "draw-round" },
          (Array.isArray(round) ? round : []).map((pair) => h("span", { class: "draw-pick" },
            h("span", { class: "draw-seat" }, seatLabel(table.seats, pair[0])),
            tilePicture(pair[1], { vertical: true, cls: "small" }))))),
        hand.shaker_line ? h("p", {}, hand.shaker_line) : null);
    }
    if (phase === "discard") {
      const widow = Array.isArray(hand.widow) ? hand.widow : [];
      return h("div", { class: "center-note center-stack", "data-testid": "widow" },
        hand.contract_line || "",
        widow.length ? h("span", { class: "widow-tiles" }, widow.map((t) => tilePicture(t, { cls: "small", label: `widow tile ${t}` }))) : null);
    }
    return h("div", { class: "center-note" },
      phase === "auction" ? "Bidding" : hand.contract_line || "");
  }

  inviteBox() {
    return inviteBox(this.id);
  }

  pregame() {
    const { table } = this.state;
    const seats = table.seats || [];
    const full = seats.length >= 3 && seats.every((x) => x && x.kind !== "empty");
    // what is typed survives the re-render of every state that arrives meanwhile
    const nameInput = h("input", { class: "name-input", "data-testid": "player-name", maxlength: 24,
      placeholder: "Your name", autocomplete: "nickname", value: this.nameDraft ?? playerName(),
      "aria-label": "your name", "data-focus": "player-name",
      oninput: () => { this.nameDraft = nameInput.value; } });
    return h("div", { class: "pregame", "data-testid": "pregame" },
      h("h2", {}, table.name || `Table ${table.id}`),
      this.you === null
        ? h("div", { class: "name-row" }, h("label", {}, "Your name ", nameInput),
          h("span", { class: "muted" }, "then choose “Sit here”."))
        : h("p", {}, full ? "Everyone is here." : "Fill the empty seats with friends or bots."),
      this.you !== null
        ? h("button", { type: "button", class: "primary", "data-testid": "start", "data-focus": "start",
          disabled: !full, onclick: () => this.send({ type: "start" }) }, "Start the game")
        : null);
  }

  overlay() {
    const { table, game } = this.state;
    if (this.shortcutsOpen) return this.shortcutsPanel();
    if (this.why) return this.whyPanel();
    if (table.status === "over" && game && this.overDismissed !== table.game_number) return this.gameOverPanel();
    if (this.lastTrickOpen) return this.lastTrickPanel();
    if (this.summary) return this.summaryPanel();
    return null;
  }

  /** A panel's title with its close button beside it, so closing never needs a scroll. */
  panelHead(title, onclose, label = "Close", cls = "") {
    return h("div", { class: "panel-head" }, h("h2", { class: cls }, title), this.closeButton(onclose, label));
  }

  closeButton(onclick, label = "Close") {
    return h("button", { type: "button", class: "small quiet close", "data-focus": `close-${label}`, onclick }, label);
  }

  shortcutsPanel() {
    return h("div", { class: "panel", role: "dialog", "aria-label": "keyboard shortcuts", "data-testid": "shortcuts" },
      this.panelHead("Keyboard shortcuts", () => { this.shortcutsOpen = false; this.render(); }),
      h("dl", { class: "shortcuts" }, SHORTCUTS.map(([k, v]) => [h("dt", {}, h("kbd", {}, k)), h("dd", {}, v)])));
  }

  /** The last trick taken, with its hand, the hand's number and the plays before the trick. */
  lastTrick() {
    const { game } = this.state;
    const hand = game && game.hand;
    const tricks = hand && Array.isArray(hand.tricks) ? hand.tricks : [];
    if (tricks.length) {
      return { trick: tricks[tricks.length - 1], hand, number: game.hand_number, base: playsBefore(hand, tricks.length - 1) };
    }
    const prev = game && game.last_hand;
    const old = prev && Array.isArray(prev.tricks) ? prev.tricks : [];
    if (!old.length) return null;
    return { trick: old[old.length - 1], hand: prev, number: prev.number, base: playsBefore(prev, old.length - 1) };
  }

  lastTrickPanel() {
    const last = this.lastTrick();
    const seats = this.state.table.seats;
    return h("div", { class: "panel", role: "dialog", "aria-label": "last trick", "data-testid": "last-trick" },
      this.panelHead("Last trick", () => { this.lastTrickOpen = false; this.render(); }),
      last
        ? [trickRow(last.trick, seats, { withSeats: true, why: this.playWhy(last.hand, last.number, last.base) }),
          h("p", { "data-testid": "last-trick-taken" }, last.trick.taken || "")]
        : h("p", {}, "No trick has been played yet."));
  }

  // ---- why? ----------------------------------------------------------------------------------

  /** The hand numbered `number` that the page shows: the one in play, the last, or the summary's. */
  handNumbered(number) {
    const game = this.state && this.state.game;
    if (game && game.hand && game.hand_number === number) return game.hand;
    if (game && game.last_hand && game.last_hand.number === number) return game.last_hand;
    if (this.summary && this.summary.number === number) return this.summary.hand;
    return null;
  }

  /** The "why?" of the action of `kind` number `index` in hand `number`, if a bot took it. */
  whyOf(hand, number, kind, index, subject) {
    return whyButton(reasonFor(hand, kind, index), subject, `${number}-${kind}-${index}`,
      (reason, what, key) => this.openWhy({ number, kind, index, subject: what, key, text: reason.text }));
  }

  /** The "why?" for the i-th tile of a trick whose first tile is the hand's play `base`. */
  playWhy(hand, number, base) {
    const seats = this.state.table.seats;
    return (play, i) => this.whyOf(hand, number, "play", base + i, `${seatLabel(seats, play.seat)}: ${play.tile || "face down"}`);
  }

  /** The "why?" for the i-th call of a hand. */
  callWhy(hand, number) {
    const seats = this.state.table.seats;
    return (call, i) => this.whyOf(hand, number, "call", i, `${seatLabel(seats, call.seat)}: ${call.call}`);
  }

  /** The contract's line, with its "why?" when a bot named it; null when no bot did. */
  contractWhy(hand, number) {
    const reason = reasonFor(hand, "contract", 0);
    if (!reason) return null;
    const subject = `${seatLabel(this.state.table.seats, reason.seat)}: ${hand.trump || hand.contract || "contract"}`;
    return h("p", { class: "contract-why" }, hand.contract_line || "", " ", this.whyOf(hand, number, "contract", 0, subject));
  }

  openWhy(why) {
    this.why = why;
    this.render();
    const close = this.root.querySelector("[data-testid=why-panel] .close");
    if (close) close.focus();
  }

  closeWhy() {
    const key = this.why && this.why.key;
    this.why = null;
    this.render();
    const back = key && this.root.querySelector(`[data-focus="${CSS.escape(`why-${key}`)}"]`);
    if (back) back.focus();
  }

  /** The reason opened, in the words the server sent; taken afresh from the newest state (its
      words grow once a hand is over and the seat's tiles have all been shown). */
  whyPanel() {
    const { number, kind, index, subject } = this.why;
    const fresh = reasonFor(this.handNumbered(number), kind, index);
    return h("div", { class: "panel why-panel", role: "dialog", "aria-label": `why? ${subject}`, "data-testid": "why-panel" },
      this.panelHead(`Why? ${subject}`, () => this.closeWhy()),
      h("p", { class: "why-text", "data-testid": "why-text" }, fresh ? fresh.text : this.why.text));
  }

  reviewBlock(number) {
    if (this.reviewWaiting === number) return h("p", { class: "muted", "data-testid": "review" }, "Reviewing the hand…");
    if (!this.review || (this.review.hand !== undefined && this.review.hand !== number)) {
      return h("button", { type: "button", "data-testid": "review-button", "data-focus": "review",
        onclick: () => this.askReview(number) }, "Review this hand");
    }
    const words = reviewWords(this.review, true);
    // a reviewed action a bot took has its "why?" (the review's numbers count from 1)
    const hand = this.handNumbered(number);
    const seats = this.state.table.seats;
    const why = (x, kind) => Number.isInteger(x.index)
      ? this.whyOf(hand, number, kind, x.index - 1, `${seatLabel(seats, x.seat)}: ${x.what}`) : null;
    return h("div", { class: "review", "data-testid": "review" },
      h("h3", {}, "Review (double dummy)"),
      words.mistakes.length
        ? h("ul", {}, words.mistakes.map((m) => h("li", { class: m.seat === this.you ? "mine" : "" }, m.text, " ", why(m, "play"))))
        : h("p", {}, words.noCostly),
      words.bids.length ? h("ul", { class: "bids" }, words.bids.map((b) => h("li", {}, b.text, " ", why(b, "call")))) : null);
  }

  /** The hand's last trick, which the next hand's deal takes off the table at once. */
  finalTrick(hand, number) {
    const tricks = hand && Array.isArray(hand.tricks) ? hand.tricks : [];
    if (!tricks.length) return null;
    const last = tricks[tricks.length - 1];
    return h("div", { class: "final-trick" },
      h("span", { class: "muted" }, `Last trick: ${last.taken || ""}`),
      trickRow(last, this.state.table.seats,
        { withSeats: true, why: this.playWhy(hand, number, playsBefore(hand, tricks.length - 1)) }));
  }

  /** A finished hand's auction, each bot's call with its "why?", and its contract's. */
  handCalls(hand, number) {
    const calls = hand && Array.isArray(hand.calls) ? hand.calls : [];
    if (!calls.length) return null;
    return h("div", { class: "hand-calls", "data-testid": "summary-calls" },
      h("h3", {}, "Bidding"),
      callsList(hand, this.state.table.seats, "summary-calls-list", this.callWhy(hand, number)),
      this.contractWhy(hand, number));
  }

  summaryPanel() {
    const { hand, number } = this.summary;
    const words = resultWords(hand);
    return h("div", { class: "panel summary", role: "dialog", "aria-label": `hand ${number} summary`, "data-testid": "summary" },
      this.panelHead(`Hand ${number}: ${words.headline}`, () => { this.summary = null; this.render(); }, "Continue",
        words.made === false ? "set" : words.made ? "made" : ""),
      words.lines.map((line) => h("p", { class: "result-line" }, line)),
      this.finalTrick(hand, number),
      this.handCalls(hand, number),
      this.reviewBlock(number),
      nextHandNote(this.state.game, number, () => { this.summary = null; this.render(); }));
  }

  resultLines(hand) {
    const words = resultWords(hand);
    return [`Last hand: ${words.headline}`, ...words.lines].map((l) => h("p", { class: "muted" }, l));
  }

  gameOverPanel() {
    const { table, game } = this.state;
    const outcome = game.outcome || {};
    const n = table.game_number || 1;
    const finalHand = game.hand && phaseOf(game.hand) === "done" ? game.hand : game.last_hand;
    const handNumber = finalHand && (finalHand.number ?? finalHand.hand_number) || game.hand_number;
    const won = Number.isInteger(outcome.winner) ? outcome.winner : null;
    const mine = this.you !== null && won !== null ? sideOf(table.seats, this.you) === won : null;
    const base = `/api/tables/${encodeURIComponent(table.id)}/games/${n}`;
    return h("div", { class: "panel game-over", role: "dialog", "aria-label": "game over", "data-testid": "game-over" },
      this.panelHead(mine === true ? "Game over — well played!" : "Game over",
        () => { this.overDismissed = table.game_number; this.render(); }),
      h("p", { class: "final-score", "data-testid": "final-score" }, game.over_line || ""),
      finalHand && finalHand.result ? this.resultLines(finalHand) : null,
      this.reviewBlock(handNumber),
      this.you !== null ? coachBlock(table.id, n, this.you, () => this.render()) : null,
      h("div", { class: "panel-actions" },
        this.you !== null ? h("button", { type: "button", class: "primary", "data-testid": "rematch", "data-focus": "rematch",
          onclick: () => this.send({ type: "rematch" }) }, "Rematch") : null,
        h("a", { class: "button", href: `${base}/record`, download: `texas42-${table.id}-game${n}.json`, "data-testid": "export-record" }, "Download the record"),
        h("a", { class: "button", href: `/replay/${encodeURIComponent(table.id)}/${n}`, "data-testid": "replay-link" }, "Watch the replay")));
  }

  renderHand() {
    const hand = this.hand;
    const tiles = hand && Array.isArray(hand.tiles) ? hand.tiles : [];
    if (this.you === null || !hand || !tiles.length) {
      this.el.hand.hidden = true;
      mount(this.el.hand);
      return;
    }
    this.el.hand.hidden = false;
    const held = this.state.game && Array.isArray(this.state.game.held) ? this.state.game.held : [];
    this.el.hand.classList.toggle("rows", held.length > 1);
    if (held.length > 1) {
      // two-hand: a row for each seat played, the tiles of the seat shown (the one to act) live
      const seats = this.state.table.seats;
      mount(this.el.hand, held.map((entry) => entry.seat === hand.seat
        ? h("div", { class: "hand-row active", "data-seat": entry.seat },
          h("span", { class: "hand-row-seat" }, compassOf(seats, entry.seat)), this.tileButtons(tiles))
        : h("div", { class: "hand-row", "data-seat": entry.seat, role: "img",
          "aria-label": `${compassOf(seats, entry.seat)}'s tiles: ${(entry.tiles || []).join(" ")}` },
        h("span", { class: "hand-row-seat" }, compassOf(seats, entry.seat)),
        (entry.tiles || []).map((t) => h("span", { class: "held-tile" }, tileSvg(t, { vertical: true }))))));
      return;
    }
    mount(this.el.hand, this.tileButtons(tiles));
  }

  tileButtons(tiles) {
    const myTurn = this.myTurn();
    const playable = new Set(this.legal().map((a) => playedTile(a.action)).filter(Boolean));
    return tiles.map((tile, i) => {
      const legal = myTurn && playable.has(tile);
      return h("button", {
        type: "button", class: `tile-button${legal ? " legal" : ""}`, "data-tile": tile,
        "data-legal": legal ? "true" : "false", "data-focus": `tile-${tile}`,
        "aria-label": `tile ${tile}`, title: `${tile}${legal ? "" : " (not playable now)"} — key ${i + 1}`,
        disabled: this.pending && legal ? true : null,
        onclick: () => this.clickTile(tile),
      }, tileSvg(tile, { vertical: true }), h("span", { class: "tile-key", "aria-hidden": "true" }, String(i + 1)));
    });
  }

  renderActions() {
    const { table } = this.state;
    const hand = this.hand;
    const phase = phaseOf(hand);
    const myTurn = this.myTurn();
    const calls = this.legal().filter((a) => !playedTile(a.action));
    const parts = [];
    if (myTurn && phase === "discard") {
      parts.push(h("div", { class: "call-box discard", "data-testid": "discard-box", role: "note" },
        h("span", { class: "call-title" }, "Your discard: click a tile")));
    }
    if (myTurn && calls.length && (phase === "auction" || phase === "declare")) {
      const title = phase === "auction" ? "Your bid" : "Name the contract";
      parts.push(choiceBox(calls, { title, phase, testid: phase === "auction" ? "bidding-box" : "trump-box",
        pending: this.pending, onAct: (action) => this.act(action) }));
    }
    const claim = this.claims.controls();
    if (claim) parts.push(claim);
    const tools = [];
    if (table.status === "playing" && this.you !== null) {
      tools.push(h("button", { type: "button", class: "small", "data-testid": "hint-button", "data-focus": "hint",
        disabled: myTurn ? null : true, onclick: () => this.askHint() }, "Hint"));
    }
    if (table.status !== "lobby") {
      tools.push(h("button", { type: "button", class: "small", "data-testid": "last-trick-button", "data-focus": "last-trick",
        "aria-pressed": this.lastTrickOpen ? "true" : "false",
        onclick: () => { this.lastTrickOpen = !this.lastTrickOpen; this.render(); } }, "Last trick"));
    }
    tools.push(h("button", { type: "button", class: "small quiet", "data-testid": "shortcuts-button", "data-focus": "shortcuts",
      "aria-label": "keyboard shortcuts", onclick: () => { this.shortcutsOpen = !this.shortcutsOpen; this.render(); } }, "Keys ?"));
    parts.push(h("div", { class: "tools" }, tools));
    mount(this.el.actions, parts);
  }

  renderHints() {
    if (this.hintsWaiting) {
      mount(this.el.hints, h("div", { class: "hints", "data-testid": "hints" }, h("p", { class: "muted" }, "Thinking…")));
      return;
    }
    if (!this.hints || !this.state || !this.hintsFor(this.state) || !Array.isArray(this.hints.hints)) {
      mount(this.el.hints);
      return;
    }
    mount(this.el.hints, h("div", { class: "hints", "data-testid": "hints" },
      h("h3", {}, "Hints (best first)"),
      h("ol", {}, this.hints.hints.map((hint, i) => {
        const legal = this.legalFor(hint.action);
        return h("li", { class: i === 0 ? "best" : "" },
          h("button", { type: "button", class: "small hint-do", "data-hint": hint.action,
            disabled: this.myTurn() && legal ? null : true,
            onclick: () => legal && this.act(legal.action) }, legal ? legal.label || legal.action : hint.action),
          h("span", { class: "hint-facts" }, String(hint.text || "")));
      })),
      this.hints.reason ? h("p", { class: "hint-why", "data-testid": "hint-why" },
        h("strong", {}, "Why: "), String(this.hints.reason)) : null,
      this.closeButton(() => { this.hints = null; this.render(); }, "Hide")));
  }

  renderSide() {
    const { table, game } = this.state;
    const hand = game && game.hand;
    const labels = teamLabels(table.seats);
    const you = this.you === null ? null : sideOf(table.seats, this.you);
    const parts = [];
    if (game) parts.push(scorePad(game, table.seats, you));
    if (hand && (phaseOf(hand) === "play" || phaseOf(hand) === "done" || (hand.tricks || []).length)) {
      parts.push(h("section", { class: "card side-card" }, h("h2", {}, "Tricks"), piles(hand, table.seats, labels)));
    }
    if (hand) {
      parts.push(h("section", { class: "card side-card" }, h("h2", {}, "Bidding"),
        callsList(hand, table.seats, "calls", this.callWhy(hand, game.hand_number)),
        this.contractWhy(hand, game.hand_number)));
    }
    const rulesLines = Array.isArray(table.rules_text) ? table.rules_text : [];
    parts.push(h("details", { class: "card side-card rules", open: table.status === "lobby" ? true : null },
      h("summary", { "data-testid": "rules-summary" }, "House rules"),
      rulesLines.length ? h("ul", { "data-testid": "rules-text" }, rulesLines.map((l) => h("li", {}, l))) : null));
    // beside the felt, not on it: the QR code would cover the seats of the pregame
    const invite = h("section", { class: "card side-card" }, this.inviteBox());
    if (table.status === "lobby") parts.unshift(invite); // first, while friends are awaited
    else parts.push(invite);
    if (this.seatLink) {
      parts.push(h("details", { class: "card side-card" }, h("summary", {}, "Your seat on another device"),
        h("p", { class: "muted" }, "This link gives your seat back: keep it to yourself."),
        h("input", { class: "invite-input", readonly: true, value: new URL(this.seatLink, location.href).href,
          "aria-label": "your seat link" })));
    }
    parts.push(h("p", { class: "side-links" }, h("a", { href: "/" }, "← Lobby")));
    mount(this.el.side, parts);
  }
}

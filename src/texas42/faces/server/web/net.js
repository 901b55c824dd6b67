/* Talking to the server: JSON over HTTP, and one WebSocket per table that reconnects by itself. */

/** An HTTP error with the server's own message (its JSON "error" or "detail"), when it gave one. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function parse(response) {
  const text = await response.text();
  let body = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`.trim();
    if (body && typeof body.error === "string") message = body.error;
    else if (body && typeof body.detail === "string") message = body.detail;
    else if (body && Array.isArray(body.detail)) {
      message = body.detail.map((d) => d.msg || JSON.stringify(d)).join("; ");
    }
    throw new ApiError(response.status, message);
  }
  return body;
}

export async function getJson(path) {
  return parse(await fetch(path, { headers: { Accept: "application/json" } }));
}

export async function postJson(path, body) {
  return parse(await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  }));
}

/**
 * The table's WebSocket. Sends hello on every (re)connection, so the server answers with the
 * whole state and the page is right again; on close it waits 0.5 s, 1 s, 2 s ... up to 10 s and
 * tries again, until stop() is called.
 */
/** A WebSocket address on this server, ``path`` beginning with "/ws/". */
export function socketUrl(path) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${path}`;
}

/** How often an open socket sends a ping, under the server's and proxies' idle timeouts. */
export const PING_MS = 25000;

/** A frame's message: an object with a string type, or null for anything else. */
export function readMessage(data) {
  let message;
  try {
    message = JSON.parse(data);
  } catch {
    return null;
  }
  return message && typeof message === "object" && typeof message.type === "string"
    ? message
    : null;
}

/** Milliseconds before reconnecting after ``attempt`` failures: doubling, at most 10 s. */
export function backoff(attempt) {
  return Math.min(10000, 500 * 2 ** attempt);
}

export class TableSocket {
  constructor(tableId, { hello, onMessage, onStatus }) {
    this.tableId = tableId;
    this.hello = hello;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.stopped = false;
    this.attempt = 0;
    this.retryTimer = null;
    this.pingTimer = null;
  }

  url() {
    return socketUrl(`/ws/${encodeURIComponent(this.tableId)}`);
  }

  start() {
    this.stopped = false;
    this.connect();
    window.addEventListener("online", this.onOnline);
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    window.removeEventListener("online", this.onOnline);
    if (this.ws) this.ws.close(1000);
    this.ws = null;
  }

  onOnline = () => {
    if (!this.stopped && (!this.ws || this.ws.readyState === WebSocket.CLOSED)) {
      clearTimeout(this.retryTimer);
      this.connect();
    }
  };

  connect() {
    this.onStatus(this.attempt ? "reconnecting" : "connecting");
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ type: "hello", ...this.hello() }));
      this.onStatus("open");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), PING_MS);
    });
    ws.addEventListener("message", (event) => {
      const message = readMessage(event.data);
      if (message === null) return;
      if (message.type === "welcome") this.attempt = 0;
      try {
        this.onMessage(message);
      } catch (err) {
        console.error("texas42: could not show a message", message, err);
      }
    });
    ws.addEventListener("close", () => {
      clearInterval(this.pingTimer);
      if (this.ws === ws) this.ws = null;
      if (!this.stopped) this.retry();
    });
  }

  retry() {
    this.onStatus("closed");
    const delay = backoff(this.attempt) * (0.8 + 0.4 * Math.random());
    this.attempt += 1;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** Send a message if connected; false when it could not go (nothing is kept for later: the
      page may look different once the table's state is back). */
  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }
}

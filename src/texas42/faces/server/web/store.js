/* What the browser remembers between visits: the player's name, a seat token per table, and the
   tables where this browser holds a seat ("my tables"). Storage can be full or switched off;
   every call then quietly does nothing. */

const PREFIX = "texas42:";

function read(key) {
  try {
    return localStorage.getItem(PREFIX + key);
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, value);
  } catch {
    /* storage off or full: the seat lasts as long as the tab */
  }
}

export function playerName() {
  return read("name") || "";
}

export function setPlayerName(name) {
  write("name", name);
}

export function tokenFor(table) {
  return read(`token:${table}`);
}

export function setToken(table, token) {
  write(`token:${table}`, token);
}

/** A new seat token, made here before sitting (32 random bytes in hex), so the browser holds
    it before the server stores the seat: a crash before the answer loses no seat. */
export function newToken() {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function myTables() {
  try {
    const list = JSON.parse(read("tables") || "[]");
    return Array.isArray(list) ? list.filter((t) => t && typeof t.id === "string") : [];
  } catch {
    return [];
  }
}

/** Remember (or refresh) a table where this browser holds a seat, newest first. */
export function rememberTable(entry) {
  const rest = myTables().filter((t) => t.id !== entry.id);
  const old = myTables().find((t) => t.id === entry.id) || {};
  const list = [{ ...old, ...entry, when: Date.now() }, ...rest].slice(0, 30);
  write("tables", JSON.stringify(list));
}

export function forgetTable(id) {
  write("tables", JSON.stringify(myTables().filter((t) => t.id !== id)));
  write(`token:${id}`, null);
}

/** This device's player secret, made once (32 random bytes) and kept: it is the player. The
    server keeps only its public id; without local storage the secret lasts as long as the tab. */
let tabSecret = null;
export function playerSecret() {
  let secret = read("player-secret") || tabSecret;
  if (!secret || !/^[0-9a-f]{64}$/.test(secret)) {
    const bytes = new Uint8Array(32);
    crypto.getRandomValues(bytes);
    secret = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    write("player-secret", secret);
  }
  tabSecret = secret;
  return secret;
}

/** The public id the server gave this device's player (from its seat), or null. */
export function playerId() {
  const id = read("player-id");
  return id && /^[0-9a-f]{16}$/.test(id) ? id : null;
}

export function setPlayerId(id) {
  if (typeof id === "string" && /^[0-9a-f]{16}$/.test(id)) write("player-id", id);
}

// The public API and nothing else: /api/v1/ with the token in the Authorization header, the
// language in Accept-Language, refusals read as RFC 9457 problems (their `detail` is already in
// the chosen language). EventSource cannot send headers: a game's stream is public and takes
// ?lang=; the account stream takes a single-use ticket (POST stream/tickets/).

import { language } from "./i18n.js";

const BASE = "/api/v1/";
const TOKEN = "dice.token";
const USER = "dice.user";

export class Problem extends Error {
  constructor(status, body) {
    super(body?.detail || body?.title || `HTTP ${status}`);
    this.status = status;
    this.code = body?.code;
    this.body = body;
  }
}

export const session = {
  get token() {
    return localStorage.getItem(TOKEN);
  },
  get user() {
    return JSON.parse(localStorage.getItem(USER) || "null");
  },
  save(answer) {
    localStorage.setItem(TOKEN, answer.token);
    this.update(answer.player);
  },
  /** The account as the server last described it (GET or PATCH accounts/me/). */
  update(player) {
    localStorage.setItem(USER, JSON.stringify(player));
  },
  clear() {
    localStorage.removeItem(TOKEN);
    localStorage.removeItem(USER);
  },
};

export async function api(method, path, body) {
  const headers = { Accept: "application/json", "Accept-Language": language() };
  if (session.token) headers.Authorization = `Token ${session.token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const creates = method === "POST" && ["accounts/register/", "games/", "seeks/"].includes(path);
  // A create lost on the network is sent once more with the same key: it creates once.
  if (creates) headers["Idempotency-Key"] = crypto.randomUUID();
  const send = () =>
    fetch(BASE + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const response = await send().catch((error) => (creates ? send() : Promise.reject(error)));
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    if (response.status === 401 && session.token) session.clear();
    throw new Problem(response.status, data);
  }
  return data;
}

export const get = (path) => api("GET", path);

/** A client seed of this page's own for the fair dice (docs/api.md, "Fair dice"): 128 bits from the
 * browser's cryptographic source, as 32 hex digits. */
export function clientSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
export const post = (path, body) => api("POST", path, body ?? {});

// After a game's stream was refused: the stream tier's own `retry:`.
const REOPEN_MS = 2000;

/** A game's events as they happen, from `after` on, each once. EventSource resumes by itself
 * when a stream drops (with Last-Event-ID), but gives up for good on an answer that is not a
 * stream (the stream tier away or restarting: the proxy's 502): then a new one is opened after
 * the server's usual pause, from the last event seen. `onOpen` and `onDown` tell the page when
 * it is live and when not; `close()` ends it. */
export function gameStream(gameId, after, { onEvent, onOpen, onDown }) {
  const seen = new Set();
  let last = after;
  let source = null;
  let reopen = null;
  const handler = (message) => {
    const event = JSON.parse(message.data);
    if (seen.has(event.seq)) return;
    seen.add(event.seq);
    last = Math.max(last, event.seq);
    onEvent(event);
  };
  const open = () => {
    reopen = null;
    source = new EventSource(`${BASE}games/${gameId}/stream/?after=${last}&lang=${language()}`);
    // Every event type is an SSE event name: listen to the ones the rules can send.
    for (const type of EVENT_TYPES) source.addEventListener(type, handler);
    source.onopen = onOpen;
    source.onerror = () => {
      onDown();
      if (source.readyState === EventSource.CLOSED) reopen = setTimeout(open, REOPEN_MS);
    };
  };
  open();
  return {
    close() {
      clearTimeout(reopen);
      source.close();
    },
  };
}

export const EVENT_TYPES = [
  "game_started", "dice_rolled", "box_selected", "box_scored", "game_finished",
  "dice_set_aside", "hot_dice", "round_lost", "turn_banked", "last_round_started",
  "seat_left", "game_aborted", "turn_timed_out", "game_adjudicated", "limit_reached",
];

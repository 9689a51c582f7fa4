// The account's stream (GET stream/): `your_turn`, `game_started`, `game_finished`,
// `tournament_round_started`, `seek_paired`, `rematch_offered`, `rematch_started` notes for
// the signed-in person. EventSource cannot send the token, so each connection first asks for a
// single-use ticket (POST stream/tickets/) and opens stream/?ticket=...; when the stream drops,
// EventSource's own retry would reuse the spent ticket, so it is closed and a new one fetched.
// Nothing sent while no stream was open is replayed: each time one opens, listeners get a
// `{type: "stream_opened"}` of the page's own, and read again what they were waiting for.

import { post, session } from "./api.js";
import { language } from "./i18n.js";

const NOTES = [
  "your_turn", "game_started", "game_finished", "tournament_round_started",
  "seek_paired", "rematch_offered", "rematch_started",
];
let source = null;
let retry = null;
const listeners = new Set();

export function onNote(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export async function followAccount() {
  if (source || retry || !session.token) return;
  let ticket;
  try {
    ({ ticket } = await post("stream/tickets/"));
  } catch {
    retry = setTimeout(() => {
      retry = null;
      followAccount();
    }, 5000);
    return;
  }
  if (source || !session.token) return;
  source = new EventSource(`/api/v1/stream/?ticket=${encodeURIComponent(ticket)}&lang=${language()}`);
  const tell = (note) => {
    for (const listener of listeners) listener(note);
  };
  for (const type of NOTES) source.addEventListener(type, (message) => tell(JSON.parse(message.data)));
  source.onopen = () => {
    document.body.classList.add("following");
    tell({ type: "stream_opened" });
  };
  source.onerror = () => {
    stopFollowing();
    retry = setTimeout(() => {
      retry = null;
      followAccount();
    }, 2000);
  };
}

export function stopFollowing() {
  source?.close();
  source = null;
  clearTimeout(retry);
  retry = null;
  document.body.classList.remove("following");
}

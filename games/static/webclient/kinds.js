// The game kinds this server plays, as GET kinds/ answers: each kind's name, seats, computer
// levels and options (a JSON Schema), and the turn clocks a game or a seek may have. The forms,
// the leaderboards and the game page build from it rather than from a copy of their own, so a
// kind the server adds shows up here without a change to the client.

import { get } from "./api.js";
import { language } from "./i18n.js";

// One read per language per page load: the names come in the request's language (api.js sends
// Accept-Language), so changing the language reads the answer in the new one.
const answers = new Map();

/** The answer of GET kinds/: `{ kinds: [...], turn_clocks: [...] }`. */
export function kinds() {
  const lang = language();
  if (!answers.has(lang)) {
    // A failed read is not kept: the next view tries again.
    answers.set(lang, get("kinds/").catch((problem) => {
      answers.delete(lang);
      throw problem;
    }));
  }
  return answers.get(lang);
}

/** One kind of the answer by its code (undefined for a kind this server no longer plays). */
export async function kindOf(code) {
  return (await kinds()).kinds.find((kind) => kind.kind === code);
}

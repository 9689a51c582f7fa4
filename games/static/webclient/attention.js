// Telling a person whose tab is in the background that it is their turn: when the account's
// stream says so (`your_turn`, notes.js) and the page is hidden, the tab's title says it until
// the tab is shown again; and, if this site was already allowed to (the page never asks: a
// prompt on load is a nuisance), a system notification.

import { t } from "./i18n.js";
import { onNote } from "./notes.js";

let plain = null; // the title before it was marked; null while unmarked

function unmark() {
  if (plain === null || document.hidden) return;
  document.title = plain;
  plain = null;
}

onNote((note) => {
  if (note.type !== "your_turn" || !document.hidden) return;
  if (plain === null) plain = document.title;
  document.title = t("turnTitle", { title: plain });
  if (globalThis.Notification?.permission === "granted") {
    // One per game (`tag`): a second note for it replaces the first rather than piling up.
    // Some browsers (Chrome on Android) only notify through a service worker and throw here:
    // the title is the notice there.
    try {
      new Notification(t("yourTurn"), { tag: `turn-${note.game}`, body: plain });
    } catch {
      // the title says it
    }
  }
});
document.addEventListener("visibilitychange", unmark);

// Seeking an opponent from the lobby: the form (POST seeks/), the account's open seeks
// (GET seeks/), each with a Withdraw button (DELETE seeks/{id}/). A seek that finds its partner
// at once answers `paired` with its game; one that waits is paired later, and the account's
// stream says so (`seek_paired`: app.js goes to the game). A note sent while the stream was down
// is not replayed: when it opens again, the seeks last shown are read (GET seeks/{id}/).

import { api, get, post } from "./api.js";
import { h, notice } from "./dom.js";
import { language, t } from "./i18n.js";
import { kinds } from "./kinds.js";
import { optionFields } from "./options.js";

/** A seek in a few words; `names` are the kinds' by code (GET kinds/). */
function seekLine(seek, names) {
  const clock = seek.turn_clock_seconds ? t("perMove", { s: seek.turn_clock_seconds }) : t("noClock");
  const range = seek.rating_min !== null || seek.rating_max !== null
    ? `${seek.rating_min ?? "…"}–${seek.rating_max ?? "…"}` : null;
  return [names[seek.kind] ?? seek.kind, seek.rated ? t("rated") : t("casual"), clock, range]
    .filter(Boolean).join(" · ");
}

// The ids of the open seeks the lobby last showed, kept for the tab's life (sessionStorage): a
// seek that paired while the page was being reloaded is found as one missed while the stream was
// down would be (the lobby reads those it showed before and no longer lists).
const SHOWN = "dice.seeksShown";
let shown = JSON.parse(sessionStorage.getItem(SHOWN) || "[]");
function remember(ids) {
  shown = ids;
  sessionStorage.setItem(SHOWN, JSON.stringify(ids));
}

/** The stream has (re)opened: the game of a seek last shown that paired meanwhile, if any. The
 * ones still open are kept (and one that could not be read: read again next time); the others
 * (paired, withdrawn, expired, not found) are forgotten. */
export async function seekPairedMeanwhile() {
  const read = (id) => get(`seeks/${id}/`)
    .catch((problem) => (problem.status === 404 ? null : { id, status: "open" }));
  const seeks = await Promise.all(shown.map(read));
  remember(seeks.filter((seek) => seek?.status === "open").map((seek) => seek.id));
  return seeks.find((seek) => seek?.status === "paired")?.game ?? null;
}

/** Paired (the stream said so), or signed out: the seeks shown are over, none to read again. */
export function forgetSeeks() {
  remember([]);
}

export const seeksShown = () => shown.length > 0;

/** The lobby's card: the account's open seeks, then the form; `refresh` redraws the lobby. */
export async function seekCard(refresh) {
  const [mine, offered] = await Promise.all([get("seeks/"), kinds()]);
  const names = Object.fromEntries(offered.kinds.map((kind) => [kind.kind, kind.name]));
  const open = new Set(mine.map((seek) => seek.id));
  const gone = shown.filter((id) => !open.has(id));
  remember([...open]);
  if (gone.length) {
    // Paired unheard (the page reloaded meanwhile), or withdrawn or expired: read which.
    const read = (id) => get(`seeks/${id}/`).catch(() => null);
    Promise.all(gone.map(read)).then((seeks) => {
      const paired = seeks.find((seek) => seek?.status === "paired");
      if (paired && !location.hash.split("/")[1]) location.hash = `#/game/${paired.game}`;
    });
  }
  const withdraw = (seek) => h("button", {
    type: "button",
    testid: "withdraw-seek",
    onclick: async () => {
      try {
        await api("DELETE", `seeks/${seek.id}/`);
      } catch (problem) {
        // Paired or expired meanwhile: the redrawn lobby shows what became of it.
        if (problem.code !== "seek_not_open") notice(problem.message);
      }
      refresh();
    },
  }, t("cancelSeek"));
  const seeks = mine.length
    ? h("ul", { class: "games", testid: "my-seeks" }, mine.map((seek) =>
        h("li", { class: "game-row seek-row", "data-seek": seek.id, testid: "seek-row" },
          h("span", { class: "seats" }, seekLine(seek, names)),
          h("span", { class: "status muted" }, t("seekWaiting")),
          h("span", { class: "actions" }, withdraw(seek)))))
    : null;
  // The lobby is redrawn on every account note and after each seek: the form is kept across
  // redraws (a half-filled form survives, and the next seek starts from the last one's choices),
  // made anew only when the language changes. It goes into its slot only once the lobby is on
  // the screen (`seekFormShown`): a redraw overtaken by a newer one must not take it along.
  if (!kept || kept.language !== language()) {
    kept = { language: language(), form: seekForm(refresh, offered) };
  }
  return h("section", { class: "card" }, h("h2", {}, t("seekOpponent")), seeks,
    h("div", { class: "seek-slot" }));
}

/** The kept seek form into the lobby now on the screen (`root`), if it shows one. */
export function seekFormShown(root) {
  const slot = root.querySelector(".seek-slot");
  if (slot && kept) slot.replaceChildren(kept.form);
}

let kept = null;

/** The seek form, its kinds, options and turn clocks from GET kinds/ (`offered`). */
function seekForm(refresh, offered) {
  const kind = h("select", { name: "kind", testid: "seek-kind" },
    offered.kinds.map((k) => h("option", { value: k.kind }, k.name)));
  const option = h("div");
  const paintOption = () => option.replaceChildren(
    optionFields(offered.kinds[kind.selectedIndex].options, "seek-"));
  kind.addEventListener("change", paintOption);
  paintOption();
  const rated = h("input", { type: "checkbox", name: "rated", testid: "seek-rated" });
  const none = h("option", { value: "" }, t("noClock"));
  const clock = h("select", { name: "turn_clock_seconds", testid: "seek-clock" }, none,
    offered.turn_clocks.map((s) => h("option", { value: s }, t("perMove", { s }))));
  // A rated game needs a clock (else the losing side could stall it for ever): no "no clock".
  rated.addEventListener("change", () => {
    none.disabled = rated.checked;
    if (rated.checked && !clock.value) clock.selectedIndex = 1;
  });
  const bound = (name) => h("input", {
    name, type: "number", min: 0, max: 5000, step: 1, inputmode: "numeric", testid: `seek-${name}`,
  });
  const low = bound("rating_min");
  const high = bound("rating_max");
  const form = h("form", { class: "seek-form", testid: "seek" },
    h("label", {}, t("kind"), kind),
    option,
    h("label", { class: "check" }, rated, t("rated")),
    h("label", {}, t("clock"), clock),
    h("div", { class: "row range" },
      h("label", {}, t("ratingMin"), low), h("label", {}, t("ratingMax"), high)),
    h("button", { type: "submit", class: "primary", testid: "seek-submit" }, t("seek")));
  form.onsubmit = async (event) => {
    event.preventDefault();
    const number = (input) => (input.value === "" ? null : Number(input.value));
    const body = {
      kind: kind.value,
      options: option.firstChild.values(),
      rated: rated.checked,
      turn_clock_seconds: number(clock),
      rating_min: number(low),
      rating_max: number(high),
    };
    try {
      const seek = await post("seeks/", body);
      if (seek.status === "paired") location.hash = `#/game/${seek.game}`;
      else refresh();
    } catch (problem) {
      notice(problem.message);
    }
  };
  return form;
}

// The account's own page: its display name and language (PATCH accounts/me/), its password
// (POST accounts/password/, with the current one: this browser stays signed in, every other token
// and session ends), and the tokens it is signed in with (GET accounts/tokens/), each with a
// Revoke button (DELETE accounts/tokens/{id}/). Revoking this browser's own token signs it out.
//
// The account's language is the client's to speak: the server answers in the request's
// (Accept-Language, api.js), so signed in the page speaks the account's, adopted at sign-in and
// when the page opens; choosing one (here or in the bar's switcher) saves it to the account.

import { api, get, post, session } from "./api.js";
import { h, notice } from "./dom.js";
import { language, setLanguage, t } from "./i18n.js";

/** Speak the account's language, if it chose one (blank: keep this browser's). */
export function adoptLanguage(player) {
  if (player.language) setLanguage(player.language);
}

/** Save a change of the account (`display_name`, `language`) and keep what the server answers. */
async function accountUpdate(fields) {
  const player = await api("PATCH", "accounts/me/", fields);
  session.update(player);
  return player;
}

/** The bar's switcher chose `code`, signed in: the account's language from now on. */
export const languageSave = (code) => accountUpdate({ language: code });

/** The account as the server has it now (renamed or another language chosen on another device):
 * whether the page should be drawn again. */
export async function accountRefresh() {
  const before = session.user;
  const player = await get("accounts/me/");
  session.update(player);
  const spoken = language();
  adoptLanguage(player);
  return spoken !== language() || before?.name !== player.name;
}

const when = (iso) => (iso ? new Date(iso).toLocaleString(language()) : t("unknown"));

function passwordForm(redraw) {
  const current = h("input", {
    name: "current_password", type: "password", autocomplete: "current-password", required: true,
  });
  const fresh = h("input", {
    name: "new_password", type: "password", autocomplete: "new-password", required: true,
    minlength: 8,
  });
  const form = h("form", { class: "card", testid: "password" },
    h("h2", {}, t("changePassword")),
    h("label", {}, t("currentPassword"), current),
    h("label", {}, t("newPassword"), fresh),
    h("button", { type: "submit", class: "primary", testid: "password-submit" }, t("changePassword")));
  form.onsubmit = async (event) => {
    event.preventDefault();
    try {
      await post("accounts/password/", {
        current_password: current.value, new_password: fresh.value,
      });
      await redraw();
      notice(t("passwordChanged"));
    } catch (problem) {
      notice(problem.message);
    }
  };
  return form;
}

function tokenRow(token, redraw, signedOut) {
  const revoke = async () => {
    try {
      await api("DELETE", `accounts/tokens/${token.id}/`);
      if (token.current) signedOut();
      else await redraw();
    } catch (problem) {
      notice(problem.message);
    }
  };
  return h("tr", { testid: "token", "data-current": token.current ? "true" : "false" },
    h("td", {}, when(token.created), token.current
      ? h("span", { class: "badge", testid: "this-device" }, t("thisDevice")) : null),
    h("td", {}, when(token.last_used)),
    h("td", {}, when(token.expiry)),
    h("td", {}, h("button", { testid: "revoke", onclick: revoke }, t("revoke"))));
}

function profileForm(player, redraw) {
  const name = h("input", {
    name: "display_name", maxlength: 40, value: player.display_name, placeholder: player.username,
    autocomplete: "nickname",
  });
  // The languages by their own names, as the bar's switcher lists them.
  const offered = [...document.getElementById("language").options];
  const spoken = h("select", { name: "language", testid: "profile-language" },
    h("option", { value: "", selected: !player.language }, t("browserLanguage")),
    offered.map((option) =>
      h("option", { value: option.value, selected: option.value === player.language }, option.text)));
  const form = h("form", { class: "card", testid: "profile" },
    h("h2", {}, t("profile")),
    h("label", {}, t("displayName"), name),
    h("label", {}, t("language"), spoken),
    h("button", { type: "submit", class: "primary", testid: "profile-submit" }, t("save")));
  form.onsubmit = async (event) => {
    event.preventDefault();
    try {
      const saved = await accountUpdate({ display_name: name.value.trim(), language: spoken.value });
      setLanguage(saved.language); // blank: the browser's again
      await redraw();
      notice(t("profileSaved"));
    } catch (problem) {
      notice(problem.message);
    }
  };
  return form;
}

/** The page; `redraw` draws it again, `signedOut` forgets this browser's token. */
export async function accountView(redraw, signedOut) {
  const [player, tokens] = await Promise.all([get("accounts/me/"), get("accounts/tokens/")]);
  session.update(player);
  return h("div", { class: "lobby", testid: "account" },
    profileForm(player, redraw),
    passwordForm(redraw),
    h("section", { class: "card" }, h("h2", {}, t("tokens")),
      h("table", { class: "board", testid: "tokens" },
        h("tr", {}, h("th", {}, t("created")), h("th", {}, t("lastUsed")), h("th", {}, t("expires")),
          h("th", {}, "")),
        tokens.map((token) => tokenRow(token, redraw, signedOut)))));
}

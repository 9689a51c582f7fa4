// A few lines instead of a framework: build elements, show a notice.

export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "testid") element.dataset.testid = value;
    else if (value === true) element.setAttribute(name, "");
    else element.setAttribute(name, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

export function notice(text) {
  const box = document.getElementById("notice");
  box.textContent = text || "";
  box.hidden = !text;
}

export const PIPS = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

/** One die as a button: its face, its position, whether it is held (or set aside). */
export function die(face, index, { held = false, disabled = true, onclick, testid, scoring } = {}) {
  return h(
    "button",
    {
      class: `die${held ? " held" : ""}${scoring ? " scoring" : ""}`,
      "data-scoring": scoring ? "true" : null,
      "data-face": face,
      "data-index": index,
      "aria-pressed": held ? "true" : "false",
      disabled: disabled,
      testid,
      onclick,
    },
    h("span", { class: "pip" }, PIPS[face] || "·"),
    h("span", { class: "face" }, face),
  );
}

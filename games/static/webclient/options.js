// A kind's options as form fields, built from the JSON Schema GET kinds/ gives (kinds.js): an
// `enum` is a select, a number with a range a number input, a boolean a checkbox, each labelled
// by the schema's `title` and starting at its `default`. The server checks what is sent; the
// ranges here only spare a person a refusal.

import { h } from "./dom.js";

/** One option's field; `input.read()` gives its value as the schema types it. */
function field(name, schema, testid) {
  const numeric = schema.type === "integer" || schema.type === "number";
  let input;
  if (schema.enum) {
    // Options by index: the value sent is the schema's own (a number stays a number).
    input = h("select", { name, testid }, schema.enum.map((value, i) =>
      h("option", { value: i, selected: value === schema.default }, value)));
    input.read = () => schema.enum[Number(input.value)];
  } else if (schema.type === "boolean") {
    input = h("input", { name, type: "checkbox", testid, checked: schema.default === true });
    input.read = () => input.checked;
  } else {
    input = h("input", {
      name,
      testid,
      type: numeric ? "number" : "text",
      min: schema.minimum,
      max: schema.maximum,
      step: numeric ? (schema.type === "integer" ? 1 : "any") : null,
      value: schema.default,
    });
    input.read = () => (numeric ? Number(input.value) : input.value);
  }
  const label = schema.title ?? name;
  return schema.type === "boolean"
    ? h("label", { class: "check" }, input, label)
    : h("label", {}, label, input);
}

/** The fields of a kind's options (`kind.options`, a JSON Schema object); each field's testid is
 * `prefix` and the option's name. `fields.values()` gives the options to send. */
export function optionFields(schema, prefix = "") {
  const fields = Object.entries(schema.properties ?? {}).map(([name, property]) =>
    field(name, property, `${prefix}${name}`));
  const box = h("div", { class: "options" }, fields);
  box.values = () => Object.fromEntries([...box.querySelectorAll("input, select")]
    .map((input) => [input.name, input.read()]));
  return box;
}

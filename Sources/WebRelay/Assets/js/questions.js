import { el } from "./dom.js";
import { OnScreenKeys } from "./keys.js";

// The question step types (docs/task-format.md, "Question steps").
export const questionTypes = new Set([
  "simpleQuestion", "multipleInputQuestion", "choiceQuestion", "stringChoiceQuestion", "handSelection",
]);

const numberTypes = new Set(["integer", "year", "decimal", "number", "height", "weight", "duration", "fraction"]);
const integerTypes = new Set(["integer", "year"]);

// A question step's inputs; `answers()` gives run.forward's answers, and `showError` puts the
// daemon's refusal beside the field its coding path names.
export class QuestionForm {
  constructor(shown, ui) {
    this.shown = shown;
    this.ui = ui;
    this.fields = []; // { identifier, read(), error }
    const step = shown.step;
    const previous = shown.previousResult;
    this.general = el("p", { class: "field-error", role: "alert" });
    this.node = el("form", { class: "question", onsubmit: (event) => event.preventDefault() }, this.general);
    this.keys = null;
    const type = shown.type || step.type;
    if (type === "handSelection") {
      this.choiceField(step.identifier, [
        { value: "left", text: ui.t.handLeft }, { value: "right", text: ui.t.handRight }, { value: "both", text: ui.t.handBoth },
      ], true, step.title || ui.t.handQuestion);
    } else if (type === "choiceQuestion" || type === "stringChoiceQuestion") {
      const choices = (step.choices || []).map((choice) => (typeof choice === "object" && choice !== null
        ? { value: choice.value ?? choice.text, text: choice.text ?? String(choice.value), exclusive: choice.exclusive }
        : { value: choice, text: String(choice) }));
      this.choiceField(step.identifier, choices, step.singleChoice !== false, null, previous?.value);
    } else if (type === "simpleQuestion") {
      this.inputField(step.identifier, step.inputItem || {}, null, previous?.value);
    } else {
      for (const item of step.inputItems || []) {
        this.inputField(item.identifier, item, item.fieldLabel, previous?.value?.[item.identifier]);
      }
    }
    if (this.keys) this.node.append(this.keys.node);
  }

  choiceField(identifier, choices, single, label, previous) {
    const selected = new Set(single ? (previous !== undefined ? [previous] : []) : (previous || []));
    const error = el("p", { class: "field-error", role: "alert" });
    const group = el("div", { class: "choices", role: single ? "radiogroup" : "group", "aria-label": label || identifier });
    const buttons = choices.map((choice, index) => {
      const node = el("button", {
        type: "button", class: "choice", role: single ? "radio" : "checkbox", id: `choice-${index}`,
        "aria-checked": selected.has(choice.value) ? "true" : "false",
      }, choice.text);
      node.addEventListener("click", () => {
        if (single) {
          selected.clear();
          selected.add(choice.value);
        } else if (selected.has(choice.value)) {
          selected.delete(choice.value);
        } else {
          if (choice.exclusive) selected.clear();
          for (const other of choices) if (other.exclusive) selected.delete(other.value);
          selected.add(choice.value);
        }
        buttons.forEach((b, i) => b.setAttribute("aria-checked", selected.has(choices[i].value) ? "true" : "false"));
      });
      return node;
    });
    group.append(...buttons);
    if (label) this.node.append(el("p", { class: "field-label" }, label));
    this.node.append(group, error);
    this.fields.push({
      identifier, error,
      read: () => {
        if (single) return selected.size ? [...selected][0] : undefined;
        return choices.map((c) => c.value).filter((v) => selected.has(v));
      },
    });
  }

  inputField(identifier, item, label, previous) {
    const type = item.type || "string";
    const options = item.formatOptions || {};
    const id = `input-${identifier}`;
    // A text field even for numbers: the on-screen keys type into it character by character
    // ("-" and "4." on the way to "-4.5"), which a number field would refuse; the daemon checks
    // the answer. inputmode none: the page's own keys replace a system on-screen keyboard.
    const kind = integerTypes.has(type) ? "integer" : numberTypes.has(type) ? "decimal" : "text";
    const input = el("input", {
      id, name: identifier, type: "text", inputmode: "none", autocomplete: "off",
      "aria-valuemin": options.minimumValue, "aria-valuemax": options.maximumValue,
      placeholder: item.placeholder,
    });
    const first = !this.keys;
    if (first) this.keys = new OnScreenKeys(this.ui);
    const keys = this.keys;
    input.addEventListener("focus", () => keys.show(input, kind));
    input.addEventListener("pointerdown", () => keys.show(input, kind));
    if (previous !== undefined && previous !== null) input.value = String(previous);
    const error = el("p", { class: "field-error", role: "alert", id: `${id}-error` });
    input.setAttribute("aria-describedby", `${id}-error`);
    const unit = this.ui.t.unit[type];
    this.node.append(el("label", { class: "field", for: id },
      el("span", { class: "field-label" }, label || item.fieldLabel || ""), el("span", { class: "input-row" }, input, unit ? el("span", { class: "unit" }, unit) : null)), error);
    // The keys start on the first field, so a participant can type without tapping it first.
    if (first) keys.show(input, kind);
    this.fields.push({
      identifier, error,
      read: () => {
        const text = input.value.trim();
        if (text === "") return undefined;
        if (!numberTypes.has(type)) return text;
        const number = Number(text);
        return Number.isNaN(number) ? text : number;
      },
    });
  }

  // run.forward's answers: one per field that has a value (the daemon says when a required one
  // is missing).
  answers() {
    this.clearErrors();
    const answers = [];
    this.answerFields = [];
    for (const field of this.fields) {
      const value = field.read();
      if (value === undefined) continue;
      answers.push({ identifier: field.identifier, value });
      this.answerFields.push(field);
    }
    return answers;
  }

  clearErrors() {
    this.general.textContent = "";
    for (const field of this.fields) field.error.textContent = "";
  }

  // The daemon's -32602: `answers[i]…` names the i-th answer sent.
  showError(error) {
    const match = /^answers\[(\d+)\]/.exec(error.data?.codingPath || "");
    const field = match ? this.answerFields?.[Number(match[1])] : null;
    (field ? field.error : this.general).textContent = error.message;
  }
}

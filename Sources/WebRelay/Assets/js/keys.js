import { el } from "./dom.js";

// On-screen keys for a question's fields, so a participant answers on a touch screen with no
// keyboard (docs/kiosk.md, "Typing without a keyboard"): a number pad for number fields, letters
// for text fields. The keys write into the field they are shown for; a tap on another field
// moves them there. The fields keep accepting a real keyboard.
const numberRows = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "-", "0", "."];
const letters = "abcdefghijklmnopqrstuvwxyz".split("");

export class OnScreenKeys {
  constructor(ui) {
    this.ui = ui;
    this.target = null;
    this.kind = null;
    this.capital = false;
    this.node = el("div", { class: "keys", role: "group", "aria-label": ui.t.keys });
  }

  // Shows the keys for `input`; kind is "integer", "decimal" or "text".
  show(input, kind) {
    if (this.target === input) return;
    this.target?.closest(".field")?.classList.remove("keys-target");
    this.target = input;
    input.closest(".field")?.classList.add("keys-target");
    if (kind !== this.kind) {
      this.kind = kind;
      this.render();
    }
  }

  render() {
    const t = this.ui.t;
    const keys = [];
    if (this.kind === "text") {
      for (const letter of letters) keys.push(this.key(this.capital ? letter.toUpperCase() : letter, () => this.insert(this.capital ? letter.toUpperCase() : letter)));
      keys.push(this.key("⇧", () => { this.capital = !this.capital; this.render(); }, { label: t.keyCapital, pressed: this.capital }));
      keys.push(this.key(t.keySpace, () => this.insert(" "), { wide: true }));
    } else {
      for (const key of numberRows) {
        if (key === "." && this.kind === "integer") continue;
        if (key === "-") keys.push(this.key("−", () => this.toggleSign(), { label: t.keyMinus }));
        else keys.push(this.key(key, () => this.insert(key), { label: key === "." ? t.keyPoint : undefined }));
      }
    }
    // Numbers: delete takes the decimal point's place, or a row of its own below it.
    keys.push(this.key("⌫", () => this.erase(), { label: t.keyDelete, wide: this.kind === "text", full: this.kind === "decimal" }));
    this.node.className = `keys keys-${this.kind === "text" ? "letters" : "numbers"}`;
    this.node.replaceChildren(...keys);
  }

  key(text, action, { label, wide = false, full = false, pressed } = {}) {
    return el("button", {
      type: "button", class: full ? "key key-full" : wide ? "key key-wide" : "key", "aria-label": label,
      "aria-pressed": pressed === undefined ? undefined : String(pressed),
      // A tap on a key must not take the focus from the field it types into.
      onpointerdown: (event) => event.preventDefault(),
      onclick: action,
    }, text);
  }

  insert(text) {
    const input = this.target;
    if (!input) return;
    if (text === "." && input.value.includes(".")) return;
    input.value += text;
    if (this.capital) {
      this.capital = false;
      this.render();
    }
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  toggleSign() {
    const input = this.target;
    if (!input) return;
    input.value = input.value.startsWith("-") ? input.value.slice(1) : `-${input.value}`;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  erase() {
    const input = this.target;
    if (!input) return;
    input.value = input.value.slice(0, -1);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }
}

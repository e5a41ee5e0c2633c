import { el } from "./dom.js";

// MotorControl's tapping step: two large buttons; every touch is a sample of the step's
// `tapping` result (docs/protocol.md, "Results from the front end"), on a button or beside
// them ("none"). The first touch starts the step's timer, as MotorControl's does.
export class TappingPad {
  constructor(shown, ui) {
    this.shown = shown;
    this.ui = ui;
    this.samples = [];
    this.tapCount = 0;
    this.firstTap = null;
    this.startDate = null;
    this.down = new Map();
    this.left = el("button", { type: "button", class: "tap-button", id: "tap-left", "data-button": "left" }, ui.t.tapLeft);
    this.right = el("button", { type: "button", class: "tap-button", id: "tap-right", "data-button": "right" }, ui.t.tapRight);
    this.count = el("p", { class: "tap-count", "aria-live": "polite" }, ui.t.taps(0));
    this.pad = el("div", { class: "tap-pad" }, this.left, this.right);
    this.node = el("div", { class: "tapping" }, el("p", { class: "text" }, ui.t.tapHint), this.count, this.pad);
    this.pad.addEventListener("pointerdown", (event) => this.pointerDown(event));
    this.pad.addEventListener("pointerup", (event) => this.pointerUp(event));
    this.pad.addEventListener("pointercancel", (event) => this.pointerUp(event));
  }

  pointerDown(event) {
    event.preventDefault();
    const now = performance.now();
    if (this.firstTap === null) {
      this.firstTap = now;
      this.startDate = new Date();
      this.ui.startTimer();
    }
    const target = event.target.closest?.("[data-button]");
    const padBox = this.pad.getBoundingClientRect();
    this.down.set(event.pointerId, {
      at: now,
      button: target ? target.dataset.button : "none",
      location: [event.clientX - padBox.left, event.clientY - padBox.top],
    });
  }

  pointerUp(event) {
    const start = this.down.get(event.pointerId);
    if (!start) return;
    this.down.delete(event.pointerId);
    if (this.samples.length >= 3000) return;
    if (start.button !== "none") this.tapCount += 1;
    this.samples.push({
      stepPath: this.shown.stepPath,
      timestamp: (start.at - this.firstTap) / 1000,
      uptime: start.at / 1000,
      buttonIdentifier: start.button,
      location: start.location,
      duration: Math.max(0, (performance.now() - start.at) / 1000),
    });
    this.count.textContent = this.ui.t.taps(this.tapCount);
  }

  // The step's result, in points (CSS pixels), origin at the pad's top left.
  result() {
    const padBox = this.pad.getBoundingClientRect();
    const rect = (node) => {
      const box = node.getBoundingClientRect();
      return `{{${box.left - padBox.left}, ${box.top - padBox.top}}, {${box.width}, ${box.height}}}`;
    };
    const start = this.startDate || new Date();
    return {
      type: "tapping",
      identifier: this.shown.step.identifier,
      startDate: start.toISOString(),
      endDate: new Date().toISOString(),
      viewSize: `{${padBox.width}, ${padBox.height}}`,
      buttonRectLeft: rect(this.left),
      buttonRectRight: rect(this.right),
      tapCount: this.tapCount,
      samples: this.samples,
    };
  }
}

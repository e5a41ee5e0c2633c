import { el } from "./dom.js";

// The hand of a tapping step: the section on its path named after one (`Tapping/left/tapping`),
// as the daemon names the archive file (docs/protocol.md, "Results from the front end").
export function handOf(stepPath) {
  return (stepPath || "").split("/").find((part) => part === "left" || part === "right") || null;
}

// MotorControl's tapping step: two large round buttons at the left and right of the screen's
// lower part. Every touch of the step's view is a sample of the step's `tapping` result
// (docs/protocol.md, "Results from the front end"): on a button ("left", "right") or beside
// them ("none"), recorded when the finger goes down, its duration when it lifts. As in
// MotorControl, the first touch on a button starts the step's timer and the time origin of the
// samples; touches before it and after the timer are not recorded, and `tapCount` counts the
// hits that alternate between the buttons.
export class TappingPad {
  constructor(shown, ui) {
    this.shown = shown;
    this.ui = ui;
    this.hand = handOf(shown.stepPath);
    this.samples = [];
    this.tapCount = 0;
    this.previousButton = null; // the last button that counted, for the alternation
    this.firstTap = null; // event time (ms, the page's clock) of the first touch on a button
    this.shownAt = new Date();
    this.expired = false;
    this.down = new Map(); // pointerId -> { at, index }
    const label = (side) => ui.t.tapButtonLabel(side);
    this.left = el("button", { type: "button", class: "tap-button", id: "tap-left", "data-button": "left", "aria-label": label("left") }, ui.t.tapLeft);
    this.right = el("button", { type: "button", class: "tap-button", id: "tap-right", "data-button": "right", "aria-label": label("right") }, ui.t.tapRight);
    this.countNumber = el("span", { class: "tap-count-number" }, "0");
    this.count = el("p", { class: "tap-count", "aria-live": "polite" }, this.countNumber, " ", el("span", { class: "tap-count-unit" }, ui.t.tapCountUnit));
    this.pad = el("div", { class: "tap-pad" }, this.left, this.right);
    this.view = null;
    this.restore();
  }

  // The taps so far are kept in the browser's storage after each touch, so a reload or a
  // crashed tab that comes back to the same step of the same run (run.status) goes on with them
  // instead of losing them; the first tap's time is kept on the wall clock, as the page's own
  // clock starts again with it. Leaving the step any way forgets them (`forget`).
  get storageKey() {
    return this.ui.runUUID ? `activetask.tapping.${this.ui.runUUID}.${this.shown.stepPath}` : null;
  }

  save() {
    if (!this.storageKey) return;
    try {
      localStorage.setItem(this.storageKey, JSON.stringify({
        samples: this.samples, tapCount: this.tapCount, previousButton: this.previousButton,
        firstTapEpoch: this.firstTap === null ? null : performance.timeOrigin + this.firstTap,
        shownAt: this.shownAt.getTime(),
      }));
    } catch {
      // Storage full or refused: the taps stay in the page, as without it.
    }
  }

  restore() {
    let saved = null;
    try {
      // Only one step's taps are kept: those of any other showing are of no more use.
      for (const key of Object.keys(localStorage)) {
        if (key.startsWith("activetask.tapping.") && key !== this.storageKey) localStorage.removeItem(key);
      }
      saved = JSON.parse(localStorage.getItem(this.storageKey) || "null");
    } catch {
      saved = null;
    }
    if (!saved || !Array.isArray(saved.samples)) return;
    this.samples = saved.samples;
    this.tapCount = saved.tapCount || 0;
    this.previousButton = saved.previousButton ?? null;
    this.firstTap = typeof saved.firstTapEpoch === "number" ? saved.firstTapEpoch - performance.timeOrigin : null;
    if (typeof saved.shownAt === "number") this.shownAt = new Date(saved.shownAt);
    this.countNumber.textContent = String(this.tapCount);
  }

  forget() {
    if (!this.storageKey) return;
    try {
      localStorage.removeItem(this.storageKey);
    } catch {
      // Nothing kept.
    }
  }

  // Listens on the whole step view `node`, MotorControl's view: a touch beside the buttons is
  // a sample too, and the locations and frames are in its coordinates.
  attach(node) {
    this.view = node;
    node.addEventListener("pointerdown", (event) => this.pointerDown(event));
    node.addEventListener("pointerup", (event) => this.pointerUp(event));
    node.addEventListener("pointercancel", (event) => this.pointerUp(event));
  }

  buttonOf(event) {
    const target = event.target.closest?.("[data-button]");
    return target && this.pad.contains(target) ? target.dataset.button : "none";
  }

  pointerDown(event) {
    const button = this.buttonOf(event);
    // No focus ring, text selection or emulated mouse events from a tap on a button.
    if (button !== "none") event.preventDefault();
    if (this.expired) return;
    if (this.firstTap === null) {
      if (button === "none") return;
      this.firstTap = event.timeStamp;
      this.ui.startTimer();
    }
    if (this.samples.length >= 3000) return;
    const box = this.view.getBoundingClientRect();
    this.samples.push({
      stepPath: this.shown.stepPath,
      timestamp: Math.max(0, (event.timeStamp - this.firstTap) / 1000),
      uptime: event.timeStamp / 1000,
      buttonIdentifier: button,
      location: [event.clientX - box.left, event.clientY - box.top],
      duration: 0,
    });
    this.down.set(event.pointerId, { at: event.timeStamp, index: this.samples.length - 1 });
    // MotorControl's count: the first button hit, then each hit on the other button.
    if (button !== "none" && (this.previousButton === null || this.previousButton !== button)) {
      this.tapCount += 1;
      this.previousButton = button;
    }
    this.countNumber.textContent = String(this.tapCount);
    this.save();
  }

  pointerUp(event) {
    const start = this.down.get(event.pointerId);
    if (!start) return;
    this.down.delete(event.pointerId);
    if (this.expired) return;
    this.samples[start.index].duration = Math.max(0, (event.timeStamp - start.at) / 1000);
    this.save();
  }

  // The timer ended: no more samples; a finger still down is held until now.
  finish() {
    if (this.expired) return;
    this.expired = true;
    const now = performance.now();
    for (const start of this.down.values()) {
      this.samples[start.index].duration = Math.max(0, (now - start.at) / 1000);
    }
    this.down.clear();
    this.pad.classList.add("expired");
  }

  // The step's result: points (CSS pixels) in the step view, origin at its top left; the start
  // date is the first tap's (the samples' time origin, which the daemon maps to the recorder
  // files' clock), or the step's when nobody tapped.
  result() {
    this.finish();
    const viewBox = (this.view || this.pad).getBoundingClientRect();
    const round = (value) => Math.round(value * 100) / 100;
    const rect = (node) => {
      const box = node.getBoundingClientRect();
      return `{{${round(box.left - viewBox.left)}, ${round(box.top - viewBox.top)}}, {${round(box.width)}, ${round(box.height)}}}`;
    };
    const start = this.firstTap === null ? this.shownAt : new Date(performance.timeOrigin + this.firstTap);
    const end = new Date();
    return {
      type: "tapping",
      identifier: this.shown.step.identifier,
      startDate: start.toISOString(),
      endDate: (end < start ? start : end).toISOString(),
      viewSize: `{${round(viewBox.width)}, ${round(viewBox.height)}}`,
      buttonRectLeft: rect(this.left),
      buttonRectRight: rect(this.right),
      tapCount: this.tapCount,
      samples: this.samples,
    };
  }
}

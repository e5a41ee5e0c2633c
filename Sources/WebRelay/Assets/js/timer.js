import { svg, el } from "./dom.js";

// The time left as a ring and a number (SageResearch's active step view).
export class TimerRing {
  constructor(duration, label) {
    this.duration = duration || 0;
    const radius = 54;
    this.circumference = 2 * Math.PI * radius;
    this.progress = svg("circle", {
      class: "ring-progress", cx: "60", cy: "60", r: String(radius),
      "stroke-dasharray": String(this.circumference), "stroke-dashoffset": "0",
      transform: "rotate(-90 60 60)",
    });
    this.number = el("span", { class: "ring-number" }, String(Math.ceil(this.duration)));
    this.node = el("div", { class: "ring", role: "timer", "aria-label": label },
      svg("svg", { viewBox: "0 0 120 120", "aria-hidden": "true" },
        svg("circle", { class: "ring-track", cx: "60", cy: "60", r: String(radius) }), this.progress),
      el("div", { class: "ring-text" }, this.number, el("span", { class: "ring-unit" }, label)));
  }

  update(remaining) {
    if (remaining === undefined || remaining === null) return;
    const left = Math.max(0, remaining);
    this.number.textContent = String(Math.ceil(left));
    const fraction = this.duration > 0 ? 1 - left / this.duration : 1;
    this.progress.setAttribute("stroke-dashoffset", String(this.circumference * fraction));
  }
}

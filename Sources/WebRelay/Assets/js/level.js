import { el } from "./dom.js";

// The microphone's level (audioLevel, once a second while it records) under a timed step's
// caption, drawn at the first one, so that a step with no microphone shows none. -60 dBFS is
// empty, 0 full.
export function showLevel(view, event, label) {
  if (!view.level) {
    const fill = el("span", { class: "level-fill" });
    const peak = el("span", { class: "level-peak" });
    const node = el("div", { class: "audio-level", role: "meter", "aria-label": label,
      "aria-valuemin": "-60", "aria-valuemax": "0" }, fill, peak);
    view.caption.after(node);
    view.level = { node, fill, peak };
  }
  const fraction = (dbfs) => `${Math.round(Math.min(Math.max((dbfs + 60) / 60, 0), 1) * 100)}%`;
  view.level.fill.style.width = fraction(event.averageDBFS);
  view.level.peak.style.left = fraction(event.peakDBFS);
  view.level.node.setAttribute("aria-valuenow", String(Math.round(Math.max(event.averageDBFS, -60))));
}

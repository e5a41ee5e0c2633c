import { el } from "./dom.js";
import { TaskFileCache, connectionLost } from "./taskfiles.js";

// A task's images (tasks.image), shown as data: URLs, each fetched once per task and name.
export class Images {
  constructor(rpc) {
    this.rpc = rpc;
    this.cache = new TaskFileCache();
  }

  // An <img> that shows `name` once it has come; hidden until then, and for good when it cannot.
  image(name, placement, taskFile) {
    const node = el("img", { class: `image placement-${placement || "default"}`, alt: "" });
    node.hidden = true;
    if (!taskFile) return node;
    this.url(name, taskFile).then((url) => {
      if (url) {
        node.src = url;
        node.hidden = false;
      }
    });
    return node;
  }

  // The data: URL of a task's image; null when it cannot be had (asked again next time when the
  // connection was lost meanwhile).
  url(name, taskFile) {
    return this.cache
      .get(taskFile, name, () => this.rpc.call("tasks.image", { task: taskFile, name }).then(
        (found) => `data:${found.contentType};base64,${found.base64}`,
        (error) => (connectionLost(error) ? undefined : null)), (url) => url === undefined)
      .then((url) => url ?? null);
  }

  // SageResearch's animated image: `imageNames` shown in turn, all of them in
  // `animationDuration` seconds (one a second when it is missing), looping while the step is on
  // screen. The first frame stays for a reader whose system asks for reduced motion, or when a
  // frame is missing.
  animation(names, seconds, placement, taskFile) {
    const node = this.image(names[0], placement, taskFile);
    node.dataset.frame = "0";
    if (!taskFile || names.length < 2 || matchMedia("(prefers-reduced-motion: reduce)").matches) return node;
    const period = Math.max(((Number(seconds) > 0 ? Number(seconds) : names.length) * 1000) / names.length, 50);
    Promise.all(names.map((name) => this.url(name, taskFile))).then((urls) => {
      if (urls.some((url) => !url)) return;
      let index = 0;
      const timer = setInterval(() => {
        // The step has gone: the screen was redrawn without this picture.
        if (!node.isConnected) return clearInterval(timer);
        index = (index + 1) % urls.length;
        node.src = urls[index];
        node.dataset.frame = String(index);
      }, period);
    });
    return node;
  }
}

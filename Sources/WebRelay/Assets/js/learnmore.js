import { el } from "./dom.js";
import { TaskFileCache, connectionLost } from "./taskfiles.js";

// "Learn more" (SageResearch's `learnMore` action) in a dialog: the action's text, or the page
// (`webView`) or video (`videoView`) its `url` names beside the task file. The kiosk fetches
// nothing from outside: the file comes from the daemon through `tasks.resource`, a piece at a
// time, and is shown from memory (docs/kiosk.md, "Learn more").

// Whether `url` names a file beside the task (not `https:`, `mailto:`, an absolute path).
export function isTaskResource(url) {
  return typeof url === "string" && url.length > 0 && !/^[a-z][a-z0-9+.-]*:/i.test(url) && !url.startsWith("/");
}

export class LearnMore {
  // `imageURL(name, taskFile)` gives a task image as a data: URL, or null.
  constructor({ rpc, t, imageURL }) {
    this.rpc = rpc;
    this.t = t;
    this.imageURL = imageURL;
    this.files = new TaskFileCache(); // Blobs
    this.probes = new TaskFileCache(); // whether each file is there
    this.dialog = document.getElementById("learn-more");
    this.title = document.getElementById("learn-more-title");
    this.text = document.getElementById("learn-more-text");
    this.media = document.getElementById("learn-more-media");
    this.closeButton = document.getElementById("learn-more-close");
    this.closeButton.onclick = () => this.close();
    this.dialog.addEventListener("close", () => this.clear());
    this.objectURL = null;
  }

  // Opens the dialog for a step's learnMore action; `taskFile` is the run's task file.
  open(action, taskFile) {
    const t = this.t;
    this.clear();
    this.title.textContent = action.title || action.buttonTitle || t.learnMore;
    this.closeButton.textContent = action.closeButtonTitle || t.close;
    const shown = (this.shown = {});
    if (isTaskResource(action.url) && taskFile) {
      this.text.textContent = t.working;
      this.load(action.url, taskFile).then(
        (blob) => this.shown === shown && this.present(blob, action, taskFile),
        (error) => {
          if (this.shown === shown) this.text.textContent = t.learnMoreFailed(error.message);
        });
    } else {
      this.text.textContent = action.text || action.detail || "";
    }
    if (!this.dialog.open) this.dialog.showModal();
  }

  close() {
    if (this.dialog.open) this.dialog.close();
    this.clear();
  }

  clear() {
    this.shown = null;
    for (const video of this.media.querySelectorAll("video")) video.pause();
    this.media.replaceChildren();
    this.media.hidden = true;
    if (this.objectURL) URL.revokeObjectURL(this.objectURL);
    this.objectURL = null;
  }

  // Whether the page or video `name` is beside the task, asked once (`length` 0: its type and
  // size, no bytes): a button that could only say "not found" is not shown.
  available(name, taskFile) {
    return this.probes
      .get(taskFile, name, () => this.rpc.call("tasks.resource", { task: taskFile, name, length: 0 }).then(
        () => true, (error) => (connectionLost(error) ? null : false)), (found) => found === null)
      .then((found) => found === true);
  }

  // The file as a Blob, asked for from the offset the last piece ended at until it is whole;
  // kept for the next time the button is pressed, forgotten when it could not be had.
  load(name, taskFile) {
    return this.files.get(taskFile, name, async () => {
      const parts = [];
      let offset = 0, type = "";
      for (;;) {
        const piece = await this.rpc.call("tasks.resource", { task: taskFile, name, offset });
        const bytes = Uint8Array.from(atob(piece.base64), (character) => character.charCodeAt(0));
        type = piece.contentType;
        parts.push(bytes);
        offset += bytes.length;
        if (offset >= piece.size || bytes.length === 0) break;
      }
      return new Blob(parts, { type });
    });
  }

  async present(blob, action, taskFile) {
    this.text.textContent = "";
    if (blob.type.startsWith("video/")) {
      this.objectURL = URL.createObjectURL(blob);
      const video = el("video", { controls: true, playsinline: true, preload: "auto", "aria-label": this.title.textContent });
      video.src = this.objectURL;
      video.addEventListener("error", () => (this.text.textContent = this.t.videoCannotPlay), { once: true });
      this.media.replaceChildren(video);
      this.media.hidden = false;
      // The button was pressed a moment ago; a browser that wants a fresh tap to play sound
      // leaves the controls to it.
      video.play().catch(() => {});
    } else {
      await this.presentPage(await blob.text(), taskFile);
    }
  }

  // A page in the kiosk's learn-more frame (/learnmore-frame.html), whose own policy lets the
  // page's styles apply but runs no script and loads nothing but `data:` images. The page is
  // parsed in the frame, so under that policy; its scripts, links to other files and links out
  // are taken out, and its pictures are the task's images (tasks.image) as data: URLs.
  async presentPage(html, taskFile) {
    const shown = this.shown;
    const frame = el("iframe", { src: "/learnmore-frame.html", sandbox: "allow-same-origin", title: this.title.textContent });
    const loaded = new Promise((resolve) => frame.addEventListener("load", resolve, { once: true }));
    this.media.replaceChildren(frame);
    this.media.hidden = false;
    await loaded;
    const inner = frame.contentDocument;
    if (this.shown !== shown || !inner) return;
    const page = new frame.contentWindow.DOMParser().parseFromString(html, "text/html");
    page.querySelectorAll("script, noscript, link, base, meta, iframe, object, embed").forEach((node) => node.remove());
    page.querySelectorAll("a[href]").forEach((link) => link.removeAttribute("href"));
    await Promise.all([...page.querySelectorAll("img")].map(async (img) => {
      const source = img.getAttribute("src");
      img.removeAttribute("srcset");
      const url = isTaskResource(source) ? await this.imageURL(source, taskFile) : null;
      if (url) img.setAttribute("src", url);
      else img.remove();
    }));
    if (this.shown !== shown) return;
    inner.replaceChild(inner.importNode(page.documentElement, true), inner.documentElement);
  }
}

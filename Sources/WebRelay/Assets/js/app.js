import { Rpc } from "./rpc.js";
import { el, button } from "./dom.js";
import { renderStep } from "./steps.js";
import { LearnMore } from "./learnmore.js";
import { TaskFileCache, connectionLost } from "./taskfiles.js";
import { chooseLanguage } from "../strings/index.js";

// The kiosk UI: a client of the control protocol through activetask-web's relay
// (docs/kiosk.md). The daemon's state is the truth: after every (re)connect the screen is
// redrawn from run.status.
const query = new URLSearchParams(location.search);
const language = chooseLanguage(query.get("lang"), navigator.languages);
const t = (await import(`../strings/${language}.js`)).default;
document.documentElement.lang = language;
const screen = document.getElementById("screen");
const statusLine = document.getElementById("status");
const notice = document.getElementById("notice");
const permissionDialog = document.getElementById("permission");

const app = {
  view: null, // the step on screen
  taskFile: null, // the task file of the run, for its images and a repeat
  tasks: [],
  images: new TaskFileCache(), // data: URLs of the tasks' images (imageURL)
  paused: false,
  denied: new Set(), // the actions whose permission this screen denied
  permissions: [], // the permission questions open, oldest first (askPermission)
  failure: null, // the daemon's last actionFailed sentence, for the end screen
  runUUID: null, // the run on screen (run.start, run.status), whose tapping steps keep their taps across a reload
};

// The token came in the URL once; the cookie set from it carries it from now on.
// The language chosen in the URL stays in it, so that a reload keeps it.
if (query.has("token")) history.replaceState(null, "", query.has("lang") ? `/?lang=${language}` : "/");

const rpc = new Rpc({
  onEvent: (event) => handleEvent(event),
  onOpen: () => attach(),
  onClose: () => showStatus(t.reconnecting),
});
showStatus(t.connecting);
const learnMore = new LearnMore({ rpc, t, imageURL });

function showStatus(text) {
  statusLine.textContent = text || "";
  statusLine.hidden = !text;
  document.body.classList.toggle("disconnected", Boolean(text));
}

function showNotice(text) {
  notice.textContent = text;
  notice.hidden = !text;
  clearTimeout(showNotice.timer);
  if (text) showNotice.timer = setTimeout(() => (notice.hidden = true), 8000);
}

async function attach() {
  showStatus("");
  try {
    await rpc.call("events.subscribe");
    const [status, list] = await Promise.all([rpc.call("run.status"), rpc.call("tasks.list").catch(() => ({ tasks: [] }))]);
    app.tasks = list.tasks || [];
    app.runUUID = status.taskRunUUID ?? null;
    if (status.foreignRun && ["running", "paused", "waitingForPermission"].includes(status.state)) {
      busy();
    } else if (["running", "paused", "waitingForPermission"].includes(status.state) && status.step) {
      const entry = app.tasks.find((task) => task.identifier === status.taskIdentifier);
      if (entry) app.taskFile = entry.file;
      show(status.step);
      if (status.timer && app.view?.timer) {
        app.view.timer.update((status.timer.duration ?? 0) - (status.timer.elapsed ?? 0));
        app.paused = status.timer.running === false;
      }
      if (status.permissionRequest) askPermission(status.permissionRequest);
    } else {
      home();
    }
  } catch (error) {
    showNotice(error.message);
  }
}

// MARK: Screens

function home() {
  app.view = null;
  closePermission();
  const items = app.tasks.map((task) => {
    if (task.error) {
      return el("li", { class: "task broken" }, el("p", { class: "task-title" }, task.file), el("p", { class: "detail" }, t.taskBroken + task.error));
    }
    return el("li", { class: "task" },
      el("button", { type: "button", class: "task-button", "data-file": task.file, onclick: () => startTask(task.file) },
        task.icon ? image(task.icon, "icon", task.file) : null,
        el("span", { class: "task-text" },
          el("span", { class: "task-title" }, task.title || task.identifier),
          task.detail ? el("span", { class: "detail" }, task.detail) : null,
          task.estimatedMinutes ? el("span", { class: "minutes" }, t.minutes(task.estimatedMinutes)) : null)));
  });
  screen.replaceChildren(el("article", { class: "home" },
    el("h1", {}, t.appTitle),
    items.length ? el("ul", { class: "tasks" }, items) : el("p", {}, t.noTasks)));
}

// A run another tab or client started is under way: the relay shows this tab nothing of it
// (run.status says only `foreignRun`), so the screen asks every 2 s until it has ended.
function busy() {
  app.view = null;
  closePermission();
  const article = el("article", { class: "home busy" }, el("h1", {}, t.busyTitle), el("p", { class: "text" }, t.busyText));
  screen.replaceChildren(article);
  setTimeout(async function poll() {
    if (!article.isConnected) return;
    try {
      const status = await rpc.call("run.status");
      if (status.foreignRun && ["running", "paused", "waitingForPermission"].includes(status.state)) return setTimeout(poll, 2000);
      if (article.isConnected) await refreshHome();
    } catch (error) {
      // A lost connection is redrawn by attach() once it is back.
      if (!connectionLost(error)) setTimeout(poll, 2000);
    }
  }, 2000);
}

function show(shown) {
  // A permission request stays open across the step change: the daemon asks for it as the
  // step that needs it shows, and waits for the answer.
  app.paused = false;
  learnMore.close();
  // A tapping step left any way (its result sent, back, skip) keeps no taps for a reload.
  if (app.view?.tapping && app.view.shown.stepPath !== shown.stepPath) app.view.tapping.forget();
  app.view = renderStep(shown, ui);
  screen.replaceChildren(app.view.node);
  const type = app.view.type;
  const commands = new Set(app.view.step.commands || []);
  // An active step whose timer does not start by itself is started as it shows (the tapping
  // step waits for the first tap).
  if (type === "active" && !commands.has("startTimerAutomatically") && !app.view.autoAdvance
      && (shown.allowedActions || []).includes("timer.start")) {
    rpc.call("timer.start").catch(() => {});
  }
  // The title first (not Stop, which a tapping step shows above it).
  (app.view.node.querySelector(".step-header h1") || app.view.node.querySelector("button, input"))?.focus({ preventScroll: true });
}

function finished(event) {
  app.view?.tapping?.forget();
  app.view = null;
  closePermission();
  const verdict = event.quality?.verdict;
  let title, lines;
  if (event.reason === "completed" || event.reason === undefined) {
    title = verdict === "failed" ? t.qualityFailed : verdict === "warning" ? t.qualityWarning : t.qualityOk;
    lines = verdict === "failed" || verdict === "warning" ? (event.quality.problems || []) : [t.qualityOkText];
  } else {
    title = event.reason === "abandoned" ? t.finishedAbandoned : t.finishedFailed;
    // Why it failed: the quality checks' reasons, which name a failed recorder, else the
    // daemon's sentence of the action that ended the run (a denied permission with
    // shouldEndOnInterrupt).
    const problems = event.quality?.problems || [];
    const failure = event.reason === "failed" && app.failure && !problems.some((line) => line.includes(app.failure)) ? app.failure : null;
    lines = [failure, ...problems].filter(Boolean);
  }
  const actions = el("footer", { class: "actions" }, button(t.home, () => refreshHome(), { secondary: true, id: "action-home" }));
  if (app.taskFile) actions.append(button(t.repeat, () => startTask(app.taskFile), { id: "action-repeat", large: true }));
  // One paragraph a reason.
  screen.replaceChildren(el("article", { class: `finished verdict-${verdict || "none"}`, "data-verdict": verdict || "" },
    el("h1", {}, title), lines.map((line) => el("p", { class: "text" }, line)), actions));
}

async function refreshHome() {
  try {
    app.tasks = (await rpc.call("tasks.list")).tasks || [];
  } catch (error) {
    showNotice(error.message);
  }
  home();
}

// MARK: Images (tasks.image, shown as data: URLs)

function image(name, placement, taskFile = app.taskFile) {
  const node = el("img", { class: `image placement-${placement || "default"}`, alt: "" });
  node.hidden = true;
  if (!taskFile) return node;
  imageURL(name, taskFile).then((url) => {
    if (url) {
      node.src = url;
      node.hidden = false;
    }
  });
  return node;
}

// The data: URL of a task's image, fetched once per task and name; null when it cannot be had
// (asked again next time when the connection was lost meanwhile).
function imageURL(name, taskFile) {
  return app.images
    .get(taskFile, name, () => rpc.call("tasks.image", { task: taskFile, name }).then(
      (found) => `data:${found.contentType};base64,${found.base64}`,
      (error) => (connectionLost(error) ? undefined : null)), (url) => url === undefined)
    .then((url) => url ?? null);
}

// SageResearch's animated image: `imageNames` shown in turn, all of them in `animationDuration`
// seconds (one a second when it is missing), looping while the step is on screen. The first
// frame stays for a reader whose system asks for reduced motion, or when a frame is missing.
function animation(names, seconds, placement, taskFile = app.taskFile) {
  const node = image(names[0], placement, taskFile);
  node.dataset.frame = "0";
  if (!taskFile || names.length < 2 || matchMedia("(prefers-reduced-motion: reduce)").matches) return node;
  const period = Math.max(((Number(seconds) > 0 ? Number(seconds) : names.length) * 1000) / names.length, 50);
  Promise.all(names.map((name) => imageURL(name, taskFile))).then((urls) => {
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

// MARK: Commands

// Commands from taps run one at a time, in the order tapped. A tap made while another command
// is under way waits for it instead of being lost: the daemon's stepShown may come before the
// answer to the forward that led there (docs/protocol.md), so the new step's buttons work at
// once. A waiting tap is dropped if, by its turn, the screen it was made on has gone.
let commandQueue = Promise.resolve();

// A command from a tap; its refusal is shown as a notice unless `shownBy` says the screen shows
// it itself (a wrong answer beside its field). A dropped tap rejects with code 0, no notice.
function command(method, params, shownBy = () => false) {
  const tappedOn = app.view;
  const turn = commandQueue.then(async () => {
    if (app.view !== tappedOn) throw Object.assign(new Error("The screen changed before the tap's turn."), { code: 0 });
    try {
      return await rpc.call(method, params);
    } catch (error) {
      if (error.code !== -1 && !shownBy(error)) showNotice(error.message);
      throw error;
    }
  });
  commandQueue = turn.catch(() => {});
  return turn;
}

async function startTask(file) {
  app.taskFile = file;
  app.denied.clear();
  app.failure = null;
  try {
    await command("task.load", { path: file });
    app.runUUID = (await command("run.start"))?.taskRunUUID ?? null;
  } catch {
    // The notice says why.
  }
}

const ui = {
  t,
  get runUUID() {
    return app.runUUID;
  },
  image: (name, placement) => image(name, placement),
  animation: (names, seconds, placement) => animation(names, seconds, placement),
  async forward(view, extra = {}) {
    const params = { stepPath: view.shown.stepPath, ...extra };
    if (view.form) {
      params.answers = view.form.answers();
    }
    if (view.tapping) params.result = view.tapping.result();
    try {
      await command("run.forward", params, (error) => Boolean(view.form) && error.code === -32602);
      view.tapping?.forget();
    } catch (error) {
      if (view.form && error.code === -32602) view.form.showError(error);
    }
  },
  back: () => command("run.back").catch(() => {}),
  skip: () => command("run.skip").catch(() => {}),
  skipTo: (identifier) => ui.forward(app.view, { skipToIdentifier: identifier }),
  cancel: () => {
    if (confirm(t.cancelConfirm)) command("run.cancel", { save: true }).then(() => refreshHome(), () => {});
  },
  startTimer: () => rpc.call("timer.start").catch(() => {}),
  learnMore: (action) => learnMore.open(action, app.taskFile),
  learnMoreAvailable: (url) => (app.taskFile ? learnMore.available(url, app.taskFile) : Promise.resolve(false)),
  togglePause: () => {
    const method = app.paused ? "timer.resume" : "timer.pause";
    command(method).then(() => {
      app.paused = !app.paused;
      if (app.view?.pause) app.view.pause.textContent = app.paused ? t.resume : t.pause;
    }, () => {});
  },
};

// MARK: Events

function handleEvent(event) {
  const view = app.view;
  const onStep = view && event.stepPath === view.shown.stepPath;
  switch (event.kind) {
    case "stepShown":
      show(event);
      break;
    case "timerStarted":
    case "timerTick":
    case "timerResumed":
    case "timerPaused":
      if (onStep && view.timer) view.timer.update(event.remaining);
      break;
    case "timerFinished":
      if (onStep) {
        view.timer?.update(0);
        view.tapping?.finish();
        // A step that does not move on by itself is left as its timer ends; a forward that
        // comes after the daemon moved on is refused by its stepPath and changes nothing.
        if (!view.autoAdvance || view.tapping) leaveAfterEndPrompt(view);
      }
      break;
    case "promptSpoken":
      // The start and finish sounds are reported as "<start sound>", "<finish sound>": no words.
      if (onStep && !event.text.startsWith("<")) {
        if (view.caption) view.caption.textContent = event.text;
        view.speaking = true;
        view.heardPrompt?.();
      }
      break;
    case "promptFinished":
      if (onStep && !event.text.startsWith("<")) {
        view.speaking = false;
        view.lastFinished = performance.now();
        view.promptEnded?.();
      }
      break;
    case "audioLevel":
      // A timed step (it has a caption) shows the level while a microphone records.
      if (view?.caption) showLevel(view, event);
      break;
    case "permissionRequest":
      askPermission(event);
      break;
    case "permissionAnswered":
      forgetPermission(event.requestID);
      break;
    case "actionFailed":
      // After a denial the daemon's own sentence says what is not recorded and why.
      showNotice(app.denied.has(event.identifier) ? t.notRecorded(event.message) : t.actionFailed(event.identifier, event.message));
      app.failure = event.message;
      break;
    case "warning":
      showNotice(t.warning(event.message));
      break;
    case "taskFinished":
      finished(event);
      break;
    case "eventsLost":
      attach();
      break;
  }
}

// SageResearch leaves a timed step once its `end` prompt has been spoken. The daemon queues
// the next step's `start` prompt behind a prompt still playing, where it would be late (and
// the run's quality check says so), so the step is left when the daemon says the end prompt
// finished (`promptFinished`). Its onset may have come just before the timer's end, or come
// up to 2 s after it; with no prompt by then (no voice, or none to speak) the step is left at
// once, and a prompt whose end never comes (playback failed) is waited for at most 15 s.
function leaveAfterEndPrompt(view) {
  let left = false;
  const timers = [];
  const leave = () => {
    if (left) return;
    left = true;
    timers.forEach(clearTimeout);
    view.promptEnded = null;
    view.heardPrompt = null;
    timers.push(setTimeout(() => {
      if (app.view === view) ui.forward(view);
    }, view.tapping ? 0 : 300));
  };
  if (!view.step.spokenInstructions?.end) return leave();
  // The end prompt finished a moment before the timer's end reached this screen.
  if (!view.speaking && view.lastFinished && performance.now() - view.lastFinished < 1000) return leave();
  view.promptEnded = leave;
  timers.push(setTimeout(leave, 15000));
  if (!view.speaking) {
    view.heardPrompt = () => {
      view.heardPrompt = null;
      clearTimeout(noPrompt);
    };
    const noPrompt = setTimeout(() => {
      if (!view.speaking) leave();
    }, 2000);
    timers.push(noPrompt);
  }
}

// The microphone's level (audioLevel, once a second while it records) under the caption, drawn
// at the first one, so that a step with no microphone shows none. -60 dBFS is empty, 0 full.
function showLevel(view, event) {
  if (!view.level) {
    const fill = el("span", { class: "level-fill" });
    const peak = el("span", { class: "level-peak" });
    const node = el("div", { class: "audio-level", role: "meter", "aria-label": t.microphoneLevel,
      "aria-valuemin": "-60", "aria-valuemax": "0" }, fill, peak);
    view.caption.after(node);
    view.level = { node, fill, peak };
  }
  const fraction = (dbfs) => `${Math.round(Math.min(Math.max((dbfs + 60) / 60, 0), 1) * 100)}%`;
  view.level.fill.style.width = fraction(event.averageDBFS);
  view.level.peak.style.left = fraction(event.peakDBFS);
  view.level.node.setAttribute("aria-valuenow", String(Math.round(Math.max(event.averageDBFS, -60))));
}

// The permission questions open, oldest first: the daemon asks one for each recorder that needs
// one (Recorder_Microphone asks for the microphone and for motion at once), and each waits for
// its own answer. The dialog shows the oldest; answering it shows the next.
function askPermission(request) {
  if (!app.permissions.some((open) => open.requestID === request.requestID)) app.permissions.push(request);
  showPermission();
}

function showPermission() {
  const request = app.permissions[0];
  if (!request) {
    if (permissionDialog.open) permissionDialog.close();
    return;
  }
  document.getElementById("permission-title").textContent = request.title || t.permissionTitle(request.permission);
  document.getElementById("permission-reason").textContent = request.reason || "";
  const answer = (granted) => {
    // Not held back by a command on its way: the run waits for this answer.
    if (!granted) for (const action of request.actions || []) app.denied.add(action);
    forgetPermission(request.requestID);
    // A question this screen has not seen (it came before a reload) is in the answer's status.
    rpc.call("permission.answer", { requestID: request.requestID, granted }).then(
      (status) => { if (status?.permissionRequest) askPermission(status.permissionRequest); },
      (error) => showNotice(error.message));
  };
  const allow = document.getElementById("permission-allow");
  const deny = document.getElementById("permission-deny");
  allow.textContent = t.allow;
  deny.textContent = t.deny;
  allow.onclick = () => answer(true);
  deny.onclick = () => answer(false);
  if (!permissionDialog.open) permissionDialog.showModal();
}

// A question answered (here or by another client) leaves the dialog; the next one shows.
function forgetPermission(requestID) {
  app.permissions = app.permissions.filter((open) => open.requestID !== requestID);
  showPermission();
}

function closePermission() {
  app.permissions = [];
  showPermission();
}

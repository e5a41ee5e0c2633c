import { renderStep } from "./steps.js";
import { LearnMore } from "./learnmore.js";
import { connectionLost } from "./taskfiles.js";
import { KioskState } from "./state.js";
import { Images } from "./images.js";
import { Commands } from "./commands.js";
import { PermissionDialog } from "./permissions.js";
import { homeScreen, busyScreen, finishedScreen } from "./screens.js";
import { showStatus, showNotice } from "./notices.js";

const screen = document.getElementById("screen");
const underWay = ["running", "paused", "waitingForPermission"];

// The kiosk UI: a client of the control protocol through activetask-web's relay
// (docs/kiosk.md). The daemon's state is the truth: after every (re)connect the screen is
// redrawn from run.status, and what a step shows (its actions, whether its timer starts and
// ends it by itself, when it is left) comes from the daemon's events. What is on screen is
// `state` (state.js), changed here only.
export class Kiosk {
  constructor({ rpc, t }) {
    this.rpc = rpc;
    this.t = t;
    this.state = new KioskState();
    this.images = new Images(rpc);
    this.commands = new Commands(rpc, () => this.state.view);
    this.permissions = new PermissionDialog({ rpc, t, onDenied: (actions) => this.state.denied(actions) });
    this.learnMore = new LearnMore({ rpc, t, imageURL: (name, taskFile) => this.images.url(name, taskFile) });
    this.ui = this.stepActions();
  }

  // MARK: Screens

  // The screen for the daemon's state as it is now: after each (re)connect, and after events
  // were lost.
  async attach() {
    showStatus("");
    try {
      await this.rpc.call("events.subscribe");
      const [status, list] = await Promise.all([this.rpc.call("run.status"), this.rpc.call("tasks.list").catch(() => ({ tasks: [] }))]);
      const tasks = list.tasks || [];
      const entry = tasks.find((task) => task.identifier === status.taskIdentifier);
      this.state.attachRun({ runUUID: status.taskRunUUID, taskFile: entry?.file }, tasks);
      if (status.foreignRun && underWay.includes(status.state)) {
        this.busy();
      } else if (underWay.includes(status.state) && status.step) {
        this.show(status.step);
        const view = this.state.view;
        if (status.timer && view?.timer) {
          view.timer.update((status.timer.duration ?? 0) - (status.timer.elapsed ?? 0));
          this.state.setPaused(status.timer.running === false);
        }
        if (status.permissionRequest) this.permissions.ask(status.permissionRequest);
      } else {
        this.home();
      }
    } catch (error) {
      showNotice(error.message);
    }
  }

  home(tasks) {
    this.state.home(tasks);
    this.permissions.close();
    screen.replaceChildren(homeScreen(this.state.tasks, {
      t: this.t, image: (name, placement, taskFile) => this.images.image(name, placement, taskFile), startTask: (file) => this.startTask(file) }));
  }

  async refreshHome() {
    let tasks;
    try {
      tasks = (await this.rpc.call("tasks.list")).tasks || [];
    } catch (error) {
      showNotice(error.message);
    }
    this.home(tasks);
  }

  // A run another tab or client started is under way: the relay shows this tab nothing of it
  // (run.status says only `foreignRun`, and no event of it comes here), so the screen asks
  // every 2 s until it has ended.
  busy() {
    this.state.busy();
    this.permissions.close();
    const article = busyScreen({ t: this.t });
    screen.replaceChildren(article);
    const poll = async () => {
      if (!article.isConnected) return;
      try {
        const status = await this.rpc.call("run.status");
        if (status.foreignRun && underWay.includes(status.state)) return setTimeout(poll, 2000);
        if (article.isConnected) await this.refreshHome();
      } catch (error) {
        // A lost connection is redrawn by attach() once it is back.
        if (!connectionLost(error)) setTimeout(poll, 2000);
      }
    };
    setTimeout(poll, 2000);
  }

  // The step of a stepShown event (or of run.status after a reconnect).
  show(shown) {
    // A permission request stays open across the step change: the daemon asks for it as the
    // step that needs it shows, and waits for the answer.
    this.learnMore.close();
    const left = this.state.view;
    // A tapping step left any way (its result sent, back, skip) keeps no taps for a reload.
    if (left?.tapping && left.shown.stepPath !== shown.stepPath) left.tapping.forget();
    const view = renderStep(shown, this.ui);
    this.state.step(view);
    screen.replaceChildren(view.node);
    // A timer the daemon does not start itself is started as the step shows; the tapping step's
    // waits for the first tap.
    if (view.timer && !view.tapping && shown.startsTimerAutomatically === false
        && (shown.allowedActions || []).includes("timer.start")) {
      this.rpc.call("timer.start").catch(() => {});
    }
    // The title first (not Stop, which a tapping step shows above it).
    (view.node.querySelector(".step-header h1") || view.node.querySelector("button, input"))?.focus({ preventScroll: true });
  }

  // The step's timer ended (timerFinished). A step the daemon does not move on by itself is
  // left now, a tapping step with its taps. Either way the daemon shows the next step once the
  // step's `end` prompt has been heard (docs/session.md, "A move"), so the screen stays until
  // that stepShown: it waits for no prompt and no time of its own. A forward that comes after
  // the daemon moved on is refused by its stepPath and changes nothing.
  timerFinished(view) {
    view.timer?.update(0);
    view.tapping?.finish();
    if (!view.autoAdvance || view.tapping) this.ui.forward(view);
  }

  finished(event) {
    this.state.view?.tapping?.forget();
    this.state.finished();
    this.permissions.close();
    screen.replaceChildren(finishedScreen(event, this.state.run, {
      t: this.t, home: () => this.refreshHome(), startTask: (file) => this.startTask(file) }));
  }

  // MARK: Commands

  async startTask(file) {
    this.state.startRun(file);
    try {
      await this.commands.run("task.load", { path: file });
      this.state.runStarted((await this.commands.run("run.start"))?.taskRunUUID);
    } catch {
      // The notice says why.
    }
  }

  // What a step's screen may do (steps.js, tapping.js, questions.js).
  stepActions() {
    const { t, state, commands, rpc } = this;
    const taskFile = () => state.run.taskFile;
    const ui = {
      t,
      get runUUID() {
        return state.run.runUUID;
      },
      image: (name, placement) => this.images.image(name, placement, taskFile()),
      animation: (names, seconds, placement) => this.images.animation(names, seconds, placement, taskFile()),
      async forward(view, extra = {}) {
        const params = { stepPath: view.shown.stepPath, ...extra };
        if (view.form) params.answers = view.form.answers();
        if (view.tapping) params.result = view.tapping.result();
        try {
          await commands.run("run.forward", params, (error) => Boolean(view.form) && error.code === -32602);
          view.tapping?.forget();
        } catch (error) {
          if (view.form && error.code === -32602) view.form.showError(error);
        }
      },
      back: () => commands.run("run.back").catch(() => {}),
      skip: () => commands.run("run.skip").catch(() => {}),
      skipTo: (identifier) => ui.forward(state.view, { skipToIdentifier: identifier }),
      cancel: () => {
        if (confirm(t.cancelConfirm)) commands.run("run.cancel", { save: true }).then(() => this.refreshHome(), () => {});
      },
      startTimer: () => rpc.call("timer.start").catch(() => {}),
      learnMore: (action) => this.learnMore.open(action, taskFile()),
      learnMoreAvailable: (url) => (taskFile() ? this.learnMore.available(url, taskFile()) : Promise.resolve(false)),
      togglePause: () => {
        const pausing = !state.paused;
        commands.run(pausing ? "timer.pause" : "timer.resume").then(() => {
          state.setPaused(pausing);
          const view = state.view;
          if (view?.pause) view.pause.textContent = pausing ? t.resume : t.pause;
        }, () => {});
      },
    };
    return ui;
  }
}

// What the kiosk shows, held in one place (docs/kiosk.md, "The kiosk's state"): a screen, one
// of the named cases below with the data it needs, and the run this tab started or came back
// to. Only the transitions change it, each from the daemon's answer or event that leads there,
// as the daemon's own state enums do; the rest of the UI reads it.
export const Screen = Object.freeze({
  connecting: "connecting", // no answer from the daemon yet (or the connection was lost)
  home: "home", // the task list
  busy: "busy", // another tab's or client's run is under way
  step: "step", // a step of the run, drawn (`view`), its timer paused or not
  finished: "finished", // the run's end and its verdict
});

export class KioskState {
  #screen = Object.freeze({ case: Screen.connecting });
  #run = emptyRun(null);
  #tasks = [];

  // MARK: Reading

  get screen() {
    return this.#screen.case;
  }

  // The step on screen; null on any other screen.
  get view() {
    return this.#screen.case === Screen.step ? this.#screen.view : null;
  }

  // Whether the step's timer was paused from here or found paused.
  get paused() {
    return this.#screen.case === Screen.step && this.#screen.paused;
  }

  // The task list the home screen shows (tasks.list).
  get tasks() {
    return this.#tasks;
  }

  // The run: its task file (its images, a repeat), its UUID (a tapping step's taps kept across
  // a reload), the actions whose permission this screen denied, the daemon's last actionFailed
  // sentence (for the end screen).
  get run() {
    return Object.freeze({ ...this.#run });
  }

  // MARK: Screens

  home(tasks = this.#tasks) {
    this.#tasks = tasks;
    this.#screen = Object.freeze({ case: Screen.home });
  }

  busy() {
    this.#screen = Object.freeze({ case: Screen.busy });
  }

  step(view, { paused = false } = {}) {
    this.#screen = Object.freeze({ case: Screen.step, view, paused });
  }

  // The step on screen paused or resumed; nothing on another screen.
  setPaused(paused) {
    if (this.#screen.case === Screen.step) this.#screen = Object.freeze({ ...this.#screen, paused });
  }

  finished() {
    this.#screen = Object.freeze({ case: Screen.finished });
  }

  // MARK: The run

  // A run this tab starts from `taskFile`: nothing denied or failed yet.
  startRun(taskFile) {
    this.#run = emptyRun(taskFile);
  }

  // run.start's answer.
  runStarted(runUUID) {
    this.#run.runUUID = runUUID ?? null;
  }

  // The run run.status reports after a (re)connect, with the task list it came with.
  attachRun({ runUUID, taskFile }, tasks) {
    this.#tasks = tasks;
    this.#run.runUUID = runUUID ?? null;
    if (taskFile) this.#run.taskFile = taskFile;
  }

  denied(actions) {
    for (const action of actions) this.#run.denied.add(action);
  }

  failed(message) {
    this.#run.failure = message;
  }
}

function emptyRun(taskFile) {
  return { taskFile, runUUID: null, denied: new Set(), failure: null };
}

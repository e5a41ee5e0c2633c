import { el, button } from "./dom.js";

// The screens around a run: the task list, another client's run under way, the run's end.
// Each returns the article to put on screen; `actions` are the app's commands.

// The task list: a button a task, a broken task file with the daemon's reason.
export function homeScreen(tasks, { t, image, startTask }) {
  const items = tasks.map((task) => {
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
  return el("article", { class: "home" },
    el("h1", {}, t.appTitle),
    items.length ? el("ul", { class: "tasks" }, items) : el("p", {}, t.noTasks));
}

export function busyScreen({ t }) {
  return el("article", { class: "home busy" }, el("h1", {}, t.busyTitle), el("p", { class: "text" }, t.busyText));
}

// The run's end (taskFinished): its verdict, and why a run failed.
export function finishedScreen(event, run, { t, home, startTask }) {
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
    const failure = event.reason === "failed" && run.failure && !problems.some((line) => line.includes(run.failure)) ? run.failure : null;
    lines = [failure, ...problems].filter(Boolean);
  }
  const actions = el("footer", { class: "actions" }, button(t.home, () => home(), { secondary: true, id: "action-home" }));
  if (run.taskFile) actions.append(button(t.repeat, () => startTask(run.taskFile), { id: "action-repeat", large: true }));
  // One paragraph a reason.
  return el("article", { class: `finished verdict-${verdict || "none"}`, "data-verdict": verdict || "" },
    el("h1", {}, title), lines.map((line) => el("p", { class: "text" }, line)), actions);
}

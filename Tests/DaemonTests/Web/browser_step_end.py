#!/usr/bin/python3
"""How the kiosk leaves a timed step, in headless Chromium through activetask-web, with the
page's own timers stopped (setTimeout and setInterval replaced by ones that never fire). StepEnd.json has an active step whose timer the kiosk must start
(the daemon's stepShown says `startsTimerAutomatically: false`) and whose long `end` prompt is
said as its timer ends, then an active step that moves on by itself
(`transitionsAutomatically`). The kiosk must take all of it from the daemon's events: the first
step shows its end prompt's words and is left without a tap once the daemon shows the next
step, and the second moves on without a tap, offering no Next. A kiosk that waited on a timer
of its own (a guess of when the prompt ends) never leaves the first step here. Before that, the
kiosk's state holder (js/state.js) is checked in the page as a table of transitions.

usage: browser_step_end.py URL SCREENSHOTS END-PROMPT

Exits 1 naming what failed. Run by WebBrowserTests with Debian's chromium and chromium-driver
(python3-selenium).
"""
import os
import sys

from browser_support import check, chromium, finish, set_viewport, wait_for
from selenium.webdriver.common.by import By

URL, SHOTS, END_PROMPT = sys.argv[1], sys.argv[2], sys.argv[3]

driver = chromium("--hide-scrollbars", logging=True)


# KioskState's transitions as a table (js/state.js): each row's transitions from a new state,
# then what the state reads. Run in the page, from the server's own module.
STATE_TABLE = """
const done = arguments[arguments.length - 1];
import("/js/state.js").then(({ KioskState }) => {
  const view = { step: "a" };
  const rows = [
    ["new", [], { screen: "connecting", view: null, paused: false }],
    ["home", [(s) => s.home([{ file: "A.json" }])], { screen: "home", view: null, paused: false, tasks: 1 }],
    ["home keeps the list", [(s) => s.home([{ file: "A.json" }]), (s) => s.busy(), (s) => s.home()], { screen: "home", tasks: 1 }],
    ["step", [(s) => s.step(view)], { screen: "step", view, paused: false }],
    ["paused", [(s) => s.step(view), (s) => s.setPaused(true)], { screen: "step", view, paused: true }],
    ["a new step is not paused", [(s) => s.step(view), (s) => s.setPaused(true), (s) => s.step(view)], { paused: false }],
    ["no pause off a step", [(s) => s.home(), (s) => s.setPaused(true)], { screen: "home", paused: false }],
    ["finished", [(s) => s.step(view), (s) => s.finished()], { screen: "finished", view: null, paused: false }],
    ["busy", [(s) => s.step(view), (s) => s.busy()], { screen: "busy", view: null }],
    ["a run", [(s) => s.startRun("A.json"), (s) => s.runStarted("U1"), (s) => s.denied(["motion"]), (s) => s.failed("gone")],
      { taskFile: "A.json", runUUID: "U1", denied: ["motion"], failure: "gone" }],
    ["a new run forgets the last", [(s) => s.startRun("A.json"), (s) => s.denied(["motion"]), (s) => s.failed("gone"), (s) => s.startRun("B.json")],
      { taskFile: "B.json", runUUID: null, denied: [], failure: null }],
    ["a run found after a reload", [(s) => s.attachRun({ runUUID: "U2", taskFile: "C.json" }, [{}, {}])],
      { taskFile: "C.json", runUUID: "U2", tasks: 2 }],
  ];
  const wrong = [];
  for (const [name, transitions, expected] of rows) {
    const state = new KioskState();
    for (const transition of transitions) transition(state);
    const run = state.run;
    const seen = { screen: state.screen, view: state.view, paused: state.paused, tasks: state.tasks.length,
      taskFile: run.taskFile, runUUID: run.runUUID, denied: [...run.denied], failure: run.failure };
    for (const [key, value] of Object.entries(expected)) {
      if (JSON.stringify(seen[key]) !== JSON.stringify(value) || (key === "view" && seen.view !== value)) {
        wrong.push(`${name}: ${key} ${JSON.stringify(seen[key])}, expected ${JSON.stringify(value)}`);
      }
    }
  }
  done(wrong);
}, (error) => done([String(error)]));
"""


def step(path):
    """The step `path` once it is on screen."""
    return wait_for(lambda: driver.find_element(By.CSS_SELECTOR, f'article[data-step-path="{path}"]'), 60, f"the step {path}")


try:
    set_viewport(driver, 800, 480)
    driver.get(URL)
    task = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, '[data-file="StepEnd.json"]'), 20, "the home screen")
    wrong = driver.execute_async_script(STATE_TABLE)
    check(not wrong, f"KioskState's transitions {wrong}")
    # From here the page's timers never fire (setTimeout and setInterval, looked up as the page
    # calls them, replaced by ones that only note the delay asked for): what moves the screen
    # on is the daemon's events.
    driver.execute_script("""
      window.timersAsked = [];
      window.setTimeout = window.setInterval = (callback, delay) => window.timersAsked.push(Number(delay) || 0);""")
    task.click()
    step("StepEnd/intro").find_element(By.ID, "action-next").click()

    speaking = step("StepEnd/speaking")
    caption = wait_for(lambda: speaking.find_element(By.CSS_SELECTOR, ".caption").text == END_PROMPT, 30,
                       "the end prompt's words under the first timed step")
    check(caption, "the first timed step shows its end prompt's words while it is said")
    driver.save_screenshot(os.path.join(SHOTS, "800x480-end-prompt.png"))

    moving = step("StepEnd/moving")
    check(not driver.find_elements(By.ID, "action-next"), "a step that moves on by itself offers no Next")
    done = step("StepEnd/done")
    done.find_element(By.ID, "action-next").click()
    end = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, ".finished h1").text, 30, "the end")
    check(bool(end), f"the run ends ({end!r})")
    print(f"     timers the page asked for (none fired): {driver.execute_script('return window.timersAsked')}", flush=True)
    errors = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
    check(not errors, f"no errors in the browser console {errors}")
except Exception as error:
    check(False, f"leaving timed steps on the daemon's events: {error}")
    driver.save_screenshot(os.path.join(SHOTS, "step-end-failure.png"))
finally:
    driver.quit()

finish()

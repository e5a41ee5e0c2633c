#!/usr/bin/python3
"""Walks a task in headless Chromium through activetask-web, as a participant would: the home
screen, each step's Next, the permission dialogs, the timed steps, to the run's verdict. At each
step and each window size it checks that nothing scrolls sideways (`scrollWidth <= innerWidth`)
and that no visible control is under 48 px, and saves a screenshot.

usage: browser_walk.py URL TASKFILE SCREENSHOTS WIDTHxHEIGHT...

One run of the task per size. Exits 1 naming what failed. Run by WebBrowserTests with
Debian's chromium and chromium-driver (python3-selenium).
"""
import os
import sys
import time

from browser_support import check, chromium, finish, wait_for
from selenium.webdriver.common.by import By
from selenium.common.exceptions import (ElementClickInterceptedException, ElementNotInteractableException,
                                        StaleElementReferenceException)

URL, TASK, SHOTS = sys.argv[1], sys.argv[2], sys.argv[3]
SIZES = [tuple(int(n) for n in size.split("x")) for size in sys.argv[4:]]


driver = chromium("--autoplay-policy=no-user-gesture-required", "--hide-scrollbars", logging=True)

LAYOUT = """
const small = [...document.querySelectorAll('button, input, [role=radio], [role=checkbox]')]
  .filter(e => e.offsetParent !== null || e.closest('dialog[open]'))
  .map(e => [e.id || e.textContent.trim().slice(0, 20), e.getBoundingClientRect()])
  .filter(([, r]) => r.width > 0 && (r.width < 48 || r.height < 48))
  .map(([name, r]) => `${name} ${Math.round(r.width)}x${Math.round(r.height)}`);
return {scroll: document.documentElement.scrollWidth, inner: window.innerWidth, small};
"""


def set_viewport(width, height):
    """The window such that the page's viewport is width × height."""
    driver.set_window_size(width, height)
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    driver.set_window_size(width * 2 - inner[0], height * 2 - inner[1])


def inspect(name, size):
    layout = driver.execute_script(LAYOUT)
    label = f"{size[0]}x{size[1]} {name}"
    check(layout["scroll"] <= layout["inner"], f"{label}: nothing scrolls sideways ({layout['scroll']} <= {layout['inner']})")
    check(not layout["small"], f"{label}: every control at least 48 px {layout['small']}")
    driver.save_screenshot(os.path.join(SHOTS, f"{size[0]}x{size[1]}-{name}.png"))


def walk(size):
    set_viewport(*size)
    driver.get(URL)
    button = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, f'[data-file="{TASK}"]'), 20, "the home screen")
    inspect("home", size)
    button.click()
    seen = set()
    deadline = time.time() + 120
    while time.time() < deadline:
        try:
            verdict = look_and_act(seen, size)
        except (StaleElementReferenceException, ElementNotInteractableException, ElementClickInterceptedException):
            # The screen changed under the look (a step replaced by the next): look again.
            continue
        if verdict is not None:
            return verdict
    raise TimeoutError("the task did not finish within 120 s")


def look_and_act(seen, size):
    """One look at the screen and the participant's action on it; the verdict at the end."""
    dialogs = driver.find_elements(By.CSS_SELECTOR, "dialog[open]")
    if dialogs:
        if "permission" not in seen:
            seen.add("permission")
            inspect("permission", size)
        driver.find_element(By.ID, "permission-allow").click()
        time.sleep(0.2)
        return None
    finished = driver.find_elements(By.CSS_SELECTOR, ".finished")
    if finished:
        inspect("finished", size)
        return finished[0].find_element(By.TAG_NAME, "h1").text
    steps = driver.find_elements(By.CSS_SELECTOR, "article.step")
    if not steps:
        time.sleep(0.1)
        return None
    step = steps[0]
    try:
        path = step.get_attribute("data-step-path")
        kind = step.get_attribute("class").split("type-")[-1]
    except Exception:
        return None
    if path not in seen:
        seen.add(path)
        time.sleep(0.4)
        inspect(f"{len(seen):02d}-{kind}", size)
        if kind in ("active", "countdown"):
            check(bool(driver.find_elements(By.CSS_SELECTOR, ".ring-number")), f"{path}: the time left is shown")
    if kind == "tapping":
        if f"taps {path}" not in seen:
            # Real pointer events on the two buttons: left, right, left, right.
            seen.add(f"taps {path}")
            for name in ["tap-left", "tap-right", "tap-left", "tap-right"]:
                driver.find_element(By.ID, name).click()
            count = driver.find_element(By.CSS_SELECTOR, ".tap-count-number").text
            check(count == "4", f"{path}: the taps are counted ({count!r})")
        time.sleep(0.2)
        return None
    if kind == "active" and "reloaded" not in seen and not driver.find_elements(By.CSS_SELECTOR, "dialog[open]"):
        # A reload in the middle of the active step comes back to the run (run.status).
        seen.add("reloaded")
        driver.refresh()
        back = wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "article.step, .finished"), 15, "the page after a reload")
        shown = back[0].get_attribute("data-step-path") or "the end"
        check(shown in (path, "ShortWalk/tapping") or "finished" in back[0].get_attribute("class"),
              f"after a reload in {path} the run goes on ({shown})")
        return None
    if kind in ("active", "countdown"):
        captions = driver.find_elements(By.CSS_SELECTOR, ".caption")
        if captions and captions[0].text and f"caption {path}" not in seen:
            seen.add(f"caption {path}")
            print(f"     caption on {path}: {captions[0].text}", flush=True)
        time.sleep(0.2)
        return None
    choices = driver.find_elements(By.CSS_SELECTOR, ".choice")
    if choices and not driver.find_elements(By.CSS_SELECTOR, '.choice[aria-checked="true"]'):
        choices[0].click()
    nexts = driver.find_elements(By.ID, "action-next")
    if nexts:
        try:
            nexts[0].click()
        except Exception:
            pass
        wait_for(lambda: not driver.find_elements(By.CSS_SELECTOR, f'article[data-step-path="{path}"]')
                 or driver.find_elements(By.CSS_SELECTOR, ".finished, dialog[open]"), 15, f"leaving {path}")
    else:
        time.sleep(0.2)


try:
    for size in SIZES:
        verdict = walk(size)
        # "Done, with a note": the quality checks' warning (e.g. a prompt spoken late on a loaded
        # machine); the run is complete and usable (docs/quality.md).
        check(verdict in ("Done", "Done, with a note"), f"{size[0]}x{size[1]}: the run ends with \"Done\" (got {verdict!r})")
        errors = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
        check(not errors, f"{size[0]}x{size[1]}: no errors in the browser console {errors}")
except Exception as error:
    check(False, f"the walk: {error}")
    driver.save_screenshot(os.path.join(SHOTS, "failure.png"))
finally:
    driver.quit()

finish()

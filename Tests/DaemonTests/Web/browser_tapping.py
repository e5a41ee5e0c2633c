#!/usr/bin/python3
"""MotorControl's Finger_Tapping in headless Chromium through activetask-web at 800×480, both
hands, tapped with real touch pointer events (W3C actions): for each hand a pattern of taps on
the left button (L), the right button (R) and beside them (N). Each hand's step is left by its
30 s timer, the UI sending the step's tapping result; the test then reads the archive.

usage: browser_tapping.py URL TASKFILE SCREENSHOTS left:PATTERN right:PATTERN

A `/` in a pattern reloads the page there, in the middle of the step: the taps made before it
must still be in the step's result (the UI keeps them across a reload).

Prints `tapped <hand> <pattern>` for each hand tapped. Exits 1 naming what failed. Run by
WebBrowserTests with Debian's chromium and chromium-driver (python3-selenium).
"""
import os
import sys
import time

from browser_support import check, chromium, finish, set_viewport, wait_for
from selenium.common.exceptions import (ElementClickInterceptedException, ElementNotInteractableException,
                                        StaleElementReferenceException)
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By

URL, TASK, SHOTS = sys.argv[1], sys.argv[2], sys.argv[3]
PATTERNS = dict(argument.split(":", 1) for argument in sys.argv[4:])

driver = chromium("--hide-scrollbars", logging=True)

CENTERS = """
const center = (id) => { const r = document.getElementById(id).getBoundingClientRect();
  return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)]; };
return {L: center('tap-left'), R: center('tap-right')};
"""


def alternating_count(pattern):
    """MotorControl's tap count: the first button hit, then each hit on the other button."""
    count, previous = 0, None
    for letter in pattern:
        if letter in "LR" and letter != previous:
            count, previous = count + 1, letter
    return count


def tap(pattern):
    """One touch per letter, down and up, as a finger would: on a button's centre or, for N,
    halfway between the buttons (beside both)."""
    centers = driver.execute_script(CENTERS)
    centers["N"] = [(centers["L"][0] + centers["R"][0]) // 2, centers["L"][1]]
    builder = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"), duration=0)
    for letter in pattern:
        x, y = centers[letter]
        builder.pointer_action.move_to_location(x, y).pointer_down().pause(0.04).pointer_up().pause(0.04)
    builder.perform()


def run():
    set_viewport(driver, 800, 480)
    driver.get(URL)
    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, f'[data-file="{TASK}"]'), 20, "the home screen").click()
    tapped = set()
    deadline = time.time() + 150
    while time.time() < deadline:
        try:
            verdict = look_and_act(tapped)
        except (StaleElementReferenceException, ElementNotInteractableException, ElementClickInterceptedException, TimeoutError):
            continue
        if verdict is not None:
            return verdict, tapped
    raise TimeoutError("the task did not finish within 150 s")


def look_and_act(tapped):
    if driver.find_elements(By.CSS_SELECTOR, "dialog[open]"):
        driver.find_element(By.ID, "permission-allow").click()
        time.sleep(0.2)
        return None
    finished = driver.find_elements(By.CSS_SELECTOR, ".finished")
    if finished:
        print(f"     the end: {finished[0].text!r}", flush=True)
        return finished[0].find_element(By.TAG_NAME, "h1").text, [p.text for p in finished[0].find_elements(By.CSS_SELECTOR, ".text")]
    steps = driver.find_elements(By.CSS_SELECTOR, "article.step")
    if not steps:
        time.sleep(0.1)
        return None
    step = steps[0]
    path = step.get_attribute("data-step-path")
    kind = step.get_attribute("class").split("type-")[-1]
    if kind == "tapping":
        hand = step.get_attribute("data-hand")
        if hand in tapped:
            time.sleep(0.2)
            return None
        tapped.add(hand)
        pattern = PATTERNS[hand]
        title = step.find_element(By.TAG_NAME, "h1").text
        check(hand in title.lower(), f"{path}: the title names the {hand} hand ({title!r})")
        buttons = driver.execute_script(CENTERS)
        check(buttons["L"][0] < 400 < buttons["R"][0] and min(buttons["L"][1], buttons["R"][1]) > 240,
              f"{path}: the buttons sit left and right in the lower half ({buttons})")
        before, _, after = pattern.partition("/")
        tap(before)
        if "/" in pattern:
            driver.refresh()
            step = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, f'article[data-step-path="{path}"]'), 15, f"{path} after the reload")
            shown = step.find_element(By.CSS_SELECTOR, ".tap-count-number").text
            check(shown == str(alternating_count(before)), f"{path}: after the reload the count still shows {alternating_count(before)} ({shown!r})")
            tap(after)
        print(f"tapped {hand} {pattern}", flush=True)
        count = step.find_element(By.CSS_SELECTOR, ".tap-count-number").text
        whole = pattern.replace("/", "")
        check(count == str(alternating_count(whole)), f"{path}: the count shows {alternating_count(whole)} ({count!r})")
        driver.save_screenshot(os.path.join(SHOTS, f"800x480-tapping-{hand}.png"))
        # The step's 30 s timer ends it; the UI sends the result and the next step shows.
        wait_for(lambda: not driver.find_elements(By.CSS_SELECTOR, f'article[data-step-path="{path}"]'), 45, f"leaving {path}")
        return None
    if kind == "handSelection":
        both = [b for b in step.find_elements(By.CSS_SELECTOR, ".choice") if b.text == "Both hands"]
        if both and both[0].get_attribute("aria-checked") != "true":
            both[0].click()
    nexts = step.find_elements(By.ID, "action-next")
    if nexts:
        nexts[0].click()
        # A tap while the previous step's command is still answered is dropped (the UI's guard
        # against double taps): the loop looks again and taps again.
        wait_for(lambda: not driver.find_elements(By.CSS_SELECTOR, f'article[data-step-path="{path}"]')
                 or driver.find_elements(By.CSS_SELECTOR, ".finished, dialog[open]"), 3, f"leaving {path}")
    else:
        time.sleep(0.2)
    return None


try:
    (verdict, reasons), tapped = run()
    check(tapped == {"left", "right"}, f"both hands tapped ({sorted(tapped)})")
    # Prompts spoken late are the test machine's sound device, not the taps: the first prompt
    # of a run waits for the playback device to open (docs/audio.md), up to 2 s on a loaded
    # machine. Any other reason to repeat the run fails the test.
    late_only = verdict == "Please do this again" and all("spoken late" in line for line in reasons)
    check(verdict in ("Done", "Done, with a note") or late_only,
          f"the run ends with \"Done\" or only late prompts to repeat it for (got {verdict!r}: {reasons!r})")
    errors = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
    check(not errors, f"no errors in the browser console {errors}")
except Exception as error:
    check(False, f"Finger_Tapping: {error}")
    driver.save_screenshot(os.path.join(SHOTS, "tapping-failure.png"))
finally:
    driver.quit()

finish()

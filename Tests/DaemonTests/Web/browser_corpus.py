#!/usr/bin/python3
"""Every task of the SageResearch corpus done on the kiosk UI by touch alone, as a participant
would: from the home screen to the end screen, at 800×480, in headless Chromium.

usage: browser_corpus.py URL SCREENSHOTS TASK_FILE...

A generic participant: it allows every permission, taps the first choice of a question (both
hands for a hand selection), types an answer on the page's own keys (trying another when the
daemon refuses one), taps the tapping buttons in turn, waits for timed steps to end and taps
Next everywhere else. Every step is checked for sideways overflow and controls under 48 px and
screenshotted. Prints one line per task with its steps, seconds and end screen; exits 1 when a
task did not reach "Done" (or "Done, with a note") or a step failed a check.
"""
import os
import sys
import time

from browser_support import check, chromium, finish, set_viewport, wait_for
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By

URL, SHOTS, TASKS = sys.argv[1], sys.argv[2], sys.argv[3:]
# Answers tried in turn until the daemon takes one: numbers, then text.
NUMBERS = ["1", "50", "1999", "0"]
TEXT = ["ab"]
SMALL_CONTROLS = """
return [...document.querySelectorAll('button, input, [role=radio], [role=checkbox]')]
  .filter((n) => n.offsetParent !== null && !n.closest('dialog:not([open])'))
  .map((n) => [n.id || n.className || n.tagName, n.getBoundingClientRect()])
  .filter(([, r]) => Math.min(r.width, r.height) < 48).map(([name, r]) => `${name} ${Math.round(r.width)}x${Math.round(r.height)}`)
"""

driver = chromium("--hide-scrollbars", "--force-device-scale-factor=1", "--autoplay-policy=no-user-gesture-required")


def touch(element):
    """A finger's tap on the element's middle (W3C touch pointer actions)."""
    actions = ActionChains(driver)
    actions.w3c_actions = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
    actions.w3c_actions.pointer_action.move_to(element).pointer_down().pause(0.03).pointer_up()
    actions.perform()


def present(selector, root=None):
    """The first element the selector finds, when it is shown; None too when the screen
    changed under the lookup."""
    try:
        found = (root or driver).find_elements(By.CSS_SELECTOR, selector)
        return found[0] if found and found[0].is_displayed() else None
    except StaleElementReferenceException:
        return None


def answer_fields(article, attempt):
    """Types the attempt-th candidate into every field of the question on the page's keys."""
    for field in article.find_elements(By.CSS_SELECTOR, "form.question input"):
        touch(field)
        keys = wait_for(lambda: present(".keys"), 5, "the on-screen keys")
        delete = keys.find_element(By.CSS_SELECTOR, 'button[aria-label="Delete"]')
        for _ in range(len(field.get_attribute("value") or "")):
            touch(delete)
        letters = "keys-letters" in keys.get_attribute("class")
        candidates = TEXT if letters else NUMBERS
        for character in candidates[attempt % len(candidates)]:
            key = next(k for k in keys.find_elements(By.CSS_SELECTOR, ".key") if k.text == character)
            touch(key)


def run_task(file):
    """Does the task; returns (step paths, seconds, end screen title, its verdict)."""
    driver.get(URL)
    touch(wait_for(lambda: driver.find_element(By.CSS_SELECTOR, f'[data-file="{file}"]'), 20, f"{file} on the home screen"))
    started, steps, handled, attempts, tapped = time.time(), [], set(), {}, 0
    deadline = started + 600
    while time.time() < deadline:
        allow = present("dialog#permission[open] #permission-allow")
        if allow:
            touch(allow)
            time.sleep(0.2)
            continue
        finished = present("article.finished")
        if finished:
            driver.save_screenshot(os.path.join(SHOTS, f"{file[:-5]}-end.png"))
            return steps, time.time() - started, finished.find_element(By.TAG_NAME, "h1").text, finished.get_attribute("data-verdict")
        article = present("article[data-step-path]")
        if not article:
            time.sleep(0.1)
            continue
        try:
            path = article.get_attribute("data-step-path")
            if not steps or steps[-1] != path:
                steps.append(path)
                time.sleep(0.3)  # its pictures and keys arrive
                name = path.replace("/", "_").replace(" ", "_")
                driver.save_screenshot(os.path.join(SHOTS, f"{name}.png"))
                check(driver.execute_script("return document.documentElement.scrollWidth <= innerWidth"), f"{path}: nothing wider than the screen")
                small = driver.execute_script(SMALL_CONTROLS)
                check(not small, f"{path}: no control under 48 px ({small})")
            classes = article.get_attribute("class")
            if "type-tapping" in classes:
                pad = present(".tap-pad:not(.expired)", article)
                if pad:
                    touch(article.find_element(By.ID, "tap-left" if tapped % 2 == 0 else "tap-right"))
                    tapped += 1
                    time.sleep(0.15)
                    continue
            timed = present(".ring", article) is not None and "type-tapping" not in classes
            form = present("form.question", article)
            if form and path not in handled:
                choices = form.find_elements(By.CSS_SELECTOR, ".choice")
                if choices:
                    both = [c for c in choices if c.text == "Both hands"]
                    touch(both[0] if both else choices[0])
                else:
                    answer_fields(article, attempts.get(path, 0))
            following = present("#action-next", article)
            if following and not timed and path not in handled:
                touch(following)
                handled.add(path)
                time.sleep(0.5)
                # A refused answer: the step stays with the daemon's sentence; try another.
                if present("article[data-step-path]") and driver.find_element(By.CSS_SELECTOR, "article[data-step-path]").get_attribute("data-step-path") == path:
                    errors = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".field-error") if e.text]
                    if errors:
                        print(f"     {path}: refused {errors}, trying another answer", flush=True)
                        attempts[path] = attempts.get(path, 0) + 1
                        handled.discard(path)
                continue
        except StaleElementReferenceException:  # the step changed under the driver
            pass
        time.sleep(0.2)
    raise TimeoutError(f"{file} did not end within 600 s (last steps {steps[-3:]})")


try:
    set_viewport(driver, 800, 480)
    for file in TASKS:
        steps, seconds, title, verdict = run_task(file)
        print(f"     {file}: {len(steps)} steps in {seconds:.0f} s, ended with {title!r} (verdict {verdict}): {' '.join(steps)}", flush=True)
        check(title in ("Done", "Done, with a note"), f"{file} ends with \"Done\" ({title!r}, verdict {verdict})")
finally:
    driver.quit()
finish()

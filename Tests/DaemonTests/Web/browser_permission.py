#!/usr/bin/python3
"""A denied permission in headless Chromium through activetask-web: two short tasks whose
motion recording asks for the motion permission; the dialog's "Don't allow" is tapped each
time. In GoesOn.json the daemon records the failure and the task goes on: the UI must show the
daemon's sentence (the permission was denied, motion does not record) and the run must reach
"Done". In EndsOnDenial.json (`shouldEndOnInterrupt`) the daemon ends the run as failed: the UI
must say the task could not be finished, and why. BothAllowed.json records motion and the
microphone, which the daemon asks for at once: the dialog must ask for one, then for the other,
both allowed, and the run must reach its end with nothing left to answer.

usage: browser_permission.py URL SCREENSHOTS

Exits 1 naming what failed. Run by WebBrowserTests with Debian's chromium and chromium-driver
(python3-selenium).
"""
import os
import sys
import time

from browser_support import check, chromium, finish, set_viewport, wait_for
from selenium.webdriver.common.by import By

URL, SHOTS = sys.argv[1], sys.argv[2]

driver = chromium("--hide-scrollbars")


def deny(task):
    """Starts `task` from the home screen and denies its permission request."""
    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, f'[data-file="{task}"]'), 20, "the home screen").click()
    dialog = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "dialog[open]"), 15, f"{task}: the permission dialog")
    title = dialog.find_element(By.ID, "permission-title").text
    reason = dialog.find_element(By.ID, "permission-reason").text
    check("motion" in (title + reason).lower(), f"{task}: the dialog asks for motion ({title!r}, {reason!r})")
    driver.find_element(By.ID, "permission-deny").click()
    wait_for(lambda: not driver.find_elements(By.CSS_SELECTOR, "dialog[open]"), 10, f"{task}: the dialog closing")


try:
    set_viewport(driver, 800, 480)
    driver.get(URL)

    deny("GoesOn.json")
    notice = wait_for(lambda: driver.find_element(By.ID, "notice").is_displayed() and driver.find_element(By.ID, "notice").text,
                      10, "GoesOn.json: the daemon's answer to the denial")
    driver.save_screenshot(os.path.join(SHOTS, "800x480-permission-denied.png"))
    check("denied" in notice and "motion" in notice, f"GoesOn.json: the UI shows the daemon's sentence ({notice!r})")
    for _ in range(3):
        # The overview, the instruction, the completion: the task goes on without motion.
        if driver.find_elements(By.CSS_SELECTOR, ".finished"):
            break
        path = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "article.step").get_attribute("data-step-path"), 10, "a step")
        driver.find_element(By.ID, "action-next").click()
        wait_for(lambda: not driver.find_elements(By.CSS_SELECTOR, f'article[data-step-path="{path}"]'), 10, f"leaving {path}")
    verdict = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, ".finished h1").text, 15, "GoesOn.json: the end")
    check(verdict.startswith("Done") or verdict == "Please do this again", f"GoesOn.json: the run completes ({verdict!r})")
    driver.find_element(By.ID, "action-home").click()

    deny("EndsOnDenial.json")
    end = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, ".finished"), 15, "EndsOnDenial.json: the end")
    driver.save_screenshot(os.path.join(SHOTS, "800x480-permission-denied-end.png"))
    text = end.text
    check("could not be finished" in text, f"EndsOnDenial.json: the UI says the run failed ({text!r})")
    check("denied" in text, f"EndsOnDenial.json: and why, in the daemon's words ({text!r})")
    driver.find_element(By.ID, "action-home").click()

    # Two questions open at once (the recording step creates both recorders): each shows in
    # turn and gets its own answer.
    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, '[data-file="BothAllowed.json"]'), 20, "the home screen").click()
    asked, deadline = [], time.time() + 30
    while not driver.find_elements(By.CSS_SELECTOR, ".finished") and time.time() < deadline:
        dialogs = driver.find_elements(By.CSS_SELECTOR, "dialog#permission[open]")
        if dialogs:
            text = (driver.find_element(By.ID, "permission-title").text + " " + driver.find_element(By.ID, "permission-reason").text).lower()
            asked.append("microphone" if "microphone" in text else "motion" if "motion" in text else text)
            driver.find_element(By.ID, "permission-allow").click()
            wait_for(lambda: not driver.find_elements(By.CSS_SELECTOR, "dialog#permission[open]")
                     or (driver.find_element(By.ID, "permission-title").text + " " + driver.find_element(By.ID, "permission-reason").text).lower() != text,
                     10, "BothAllowed.json: the answered question leaving the dialog")
        elif driver.find_elements(By.ID, "action-next"):
            path = driver.find_element(By.CSS_SELECTOR, "article.step").get_attribute("data-step-path")
            driver.find_element(By.ID, "action-next").click()
            wait_for(lambda: not driver.find_elements(By.CSS_SELECTOR, f'article[data-step-path="{path}"]'), 10, f"leaving {path}")
        time.sleep(0.1)
    check(sorted(asked) == ["microphone", "motion"], f"BothAllowed.json: the dialog asked for both, one after the other ({asked})")
    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, ".finished h1").text, 15, "BothAllowed.json: the end")
except Exception as error:
    check(False, f"the permissions: {error}")
    driver.save_screenshot(os.path.join(SHOTS, "permission-failure.png"))
finally:
    driver.quit()

finish()

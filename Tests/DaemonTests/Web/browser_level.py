#!/usr/bin/python3
"""The microphone's level in headless Chromium through activetask-web: Listen.json records the
room (the test daemon's PulseAudio source) over a 6 s active step; once the daemon's first
`audioLevel` event arrives, the step must show a level meter (role meter, a value between -60
and 0 dBFS), and the run must reach its end.

usage: browser_level.py URL SCREENSHOTS

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

try:
    set_viewport(driver, 800, 480)
    driver.get(URL)
    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, '[data-file="Listen.json"]'), 20, "the home screen").click()
    # Next on the overview until the recording step shows (a permission dialog is allowed).
    deadline = time.time() + 20
    while time.time() < deadline and not driver.find_elements(By.CSS_SELECTOR, 'article[data-step-path="Listen/listening"]'):
        try:
            if driver.find_elements(By.CSS_SELECTOR, "dialog[open]"):
                driver.find_element(By.ID, "permission-allow").click()
            else:
                driver.find_element(By.CSS_SELECTOR, 'article[data-step-path="Listen/overview"] #action-next').click()
        except Exception:
            pass  # the screen changed under the look
        time.sleep(0.3)
    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, 'article[data-step-path="Listen/listening"]'), 10, "the recording step")
    # The microphone asks for its permission as the step starts it: allowed.
    def allow_then_meter():
        if driver.find_elements(By.CSS_SELECTOR, "dialog[open]"):
            driver.find_element(By.ID, "permission-allow").click()
            return None
        return driver.find_element(By.CSS_SELECTOR, 'article[data-step-path="Listen/listening"] .audio-level[aria-valuenow]')
    meter = wait_for(allow_then_meter, 10, "the level meter")
    value = int(meter.get_attribute("aria-valuenow"))
    check(-60 <= value <= 0, f"the meter shows the level in dBFS ({value})")
    check(meter.get_attribute("role") == "meter" and meter.get_attribute("aria-label"), "it is a labelled meter for a screen reader")
    driver.save_screenshot(os.path.join(SHOTS, "800x480-audio-level.png"))
    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, 'article[data-step-path="Listen/done"] #action-next'), 15, "the last step").click()
    end = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, ".finished h1").text, 15, "the end")
    check(bool(end), f"the run ends ({end!r})")
except Exception as error:
    check(False, f"the audio level: {error}")
    driver.save_screenshot(os.path.join(SHOTS, "level-failure.png"))
finally:
    driver.quit()

finish()

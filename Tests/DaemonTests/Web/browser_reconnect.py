#!/usr/bin/python3
"""A daemon restart seen from headless Chromium through activetask-web: the home screen, then
(once the test has stopped the daemon) "Reconnecting…", then (once it runs again) the home
screen by itself, without a reload.

usage: browser_reconnect.py URL SCREENSHOTS MARKER

Writes MARKER when the home screen shows, for the test to stop the daemon. Run by
WebBrowserTests with Debian's chromium and chromium-driver (python3-selenium).
"""
import os
import sys

from browser_support import check, chromium, finish, wait_for
from selenium.webdriver.common.by import By

URL, SHOTS, MARKER = sys.argv[1], sys.argv[2], sys.argv[3]


driver = chromium("--window-size=800,600")


def status():
    line = driver.find_element(By.ID, "status")
    return line.text if line.is_displayed() else ""


try:
    driver.get(URL)
    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, ".task-button"), 20, "the home screen")
    open(MARKER, "w").close()
    text = wait_for(status, 30, "the notice of the lost connection")
    driver.save_screenshot(os.path.join(SHOTS, "reconnecting.png"))
    check(text.startswith("Reconnecting"), f"a lost daemon shows {text!r}")
    wait_for(lambda: not status() and driver.find_element(By.CSS_SELECTOR, ".task-button"), 40, "the home screen again")
    check(True, "the UI came back by itself when the daemon ran again")
except Exception as error:
    check(False, f"the reconnect: {error}")
    driver.save_screenshot(os.path.join(SHOTS, "reconnect-failure.png"))
finally:
    driver.quit()

finish()

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
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

URL, SHOTS, MARKER = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        failures.append(what)


def wait_for(condition, seconds, what):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            value = condition()
            if value:
                return value
        except Exception:
            pass
        time.sleep(0.1)
    raise TimeoutError(f"{what} did not happen within {seconds} s")


options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=800,600"]:
    options.add_argument(argument)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


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

if failures:
    print(f"{len(failures)} checks failed")
    sys.exit(1)

#!/usr/bin/python3
"""The example kiosk unit's Chromium, attached to while it runs under cage: it shows the UI
full screen with no browser controls, reached from the launch page with the token in no address
and no entry of the tab's history, and a task can be run by touch from the home screen to "Done".

usage: kiosk_check.py DEVTOOLS_PORT UI_ORIGIN SCREENSHOTS LAUNCH_PAGE

The token is not given to this script (its command line is readable by every user); it reads it
from the launch page, as the kiosk's browser did.

Run by WebBrowserTests.kioskUnit, which starts the unit's own command lines (cage on a headless
Wayland output, as the unit's user would) with `--remote-debugging-port=0` added so that this
script can attach through chromedriver.
"""
import os
import sys

from browser_support import check, finish, wait_for
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.by import By

import re

PORT, ORIGIN, SHOTS, LAUNCH_PAGE = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
with open(LAUNCH_PAGE, encoding="utf-8") as page:
    TOKEN = re.search(r'name="token" value="([0-9a-f]+)"', page.read()).group(1)

options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
options.debugger_address = f"127.0.0.1:{PORT}"
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def touch(element):
    """A finger's tap on the element's middle (W3C touch pointer actions)."""
    actions = ActionChains(driver)
    actions.w3c_actions = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
    actions.w3c_actions.pointer_action.move_to(element).pointer_down().pause(0.05).pointer_up()
    actions.perform()


try:
    # The kiosk opened the token URL; the UI took the token out of the address.
    wait_for(lambda: driver.current_url == ORIGIN + "/", 20, f"the UI at {ORIGIN}/ (at {driver.current_url})")
    check(driver.current_url == ORIGIN + "/", f"the kiosk shows the UI without the token in its address ({driver.current_url})")
    # The tab's history (its back and forward list): the UI only. Chromium lets the launch
    # page's form, sent while the page loads, replace the page's entry, and login.js replaces
    # /login's; neither the token nor the launch page is left to go back to.
    history = [entry["url"] for entry in driver.execute_cdp_cmd("Page.getNavigationHistory", {})["entries"]]
    check(not any(TOKEN in url for url in history), f"no history entry holds the token ({len(history)} entries)")
    check(history == [ORIGIN + "/"], f"the tab's history holds the UI only ({[url.replace(TOKEN, 'TOKEN') for url in history]})")
    task = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, '[data-file="Hello.json"]'), 20, "the home screen's task")
    inner = driver.execute_script("return [innerWidth, innerHeight, outerWidth, outerHeight, screen.width, screen.height]")
    check(inner[0] == inner[4] and inner[1] == inner[5] and inner[0] > 0,
          f"the page fills the whole screen with no browser controls (inner, outer, screen: {inner})")
    check(driver.execute_script("return document.documentElement.scrollWidth <= innerWidth"), "nothing is wider than the screen")
    driver.save_screenshot(os.path.join(SHOTS, "kiosk-cage-home.png"))
    touch(task)
    for path in ["Hello/welcome", "Hello/done"]:
        article = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, f'article[data-step-path="{path}"]'), 15, f"the step {path}")
        touch(article.find_element(By.ID, "action-next"))
    verdict = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "article.finished"), 20, "the end screen")
    check(verdict.find_element(By.TAG_NAME, "h1").text == "Done", f"the run ends with \"Done\" ({verdict.text!r})")
    driver.save_screenshot(os.path.join(SHOTS, "kiosk-cage-done.png"))
finally:
    # Attached, not launched: ending the session leaves the kiosk's browser to its unit.
    driver.quit()
finish()

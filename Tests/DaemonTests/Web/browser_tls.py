#!/usr/bin/python3
"""The UI over HTTPS through a TLS reverse proxy in headless Chromium: the home screen lists the
task (its WebSocket runs over TLS), and the task's first step shows when it is chosen. The
proxy's name, kiosk.test, is resolved to 127.0.0.1 by Chromium itself.

usage: browser_tls.py URL SPKI TASKFILE TITLE

SPKI is the base64 SHA-256 of the certificate's public key: Chromium trusts that key only
(`--ignore-certificate-errors-spki-list`), as a kiosk would trust its own certificate.
"""
import sys

from selenium.webdriver.common.by import By

from browser_support import check, chromium, finish, wait_for

URL, SPKI, TASK, TITLE = sys.argv[1:5]
driver = chromium(f"--ignore-certificate-errors-spki-list={SPKI}", "--host-resolver-rules=MAP kiosk.test 127.0.0.1")
try:
    driver.get(URL)
    button = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, f'[data-file="{TASK}"]'), 20, "the home screen")
    check(driver.execute_script("return location.protocol") == "https:", "the page came over HTTPS")
    check(button is not None, "the home screen lists the task, fetched over the WebSocket on TLS")
    button.click()
    shown = wait_for(lambda: TITLE in driver.find_element(By.TAG_NAME, "body").text, 20, "the task's first step")
    check(shown, f"choosing it shows its first step ({TITLE})")
finally:
    driver.quit()
finish()

#!/usr/bin/python3
"""The UI over HTTPS through a TLS reverse proxy in headless Chromium: the home screen lists the
task (its WebSocket runs over TLS), and the task's first step shows when it is chosen. The
proxy's name, kiosk.test, is resolved to 127.0.0.1 by Chromium itself.

usage: browser_tls.py URL SPKI TASKFILE TITLE [LAUNCH_PAGE]

With LAUNCH_PAGE (activetask-web's, written for the proxy's origin with --launch-origin) the
browser opens that file instead of URL, as the kiosk opens it: it must land on the proxy's `/`
over HTTPS, logged in, with a `__Host-` cookie that is Secure, and the tab's history must hold
that page only (no token, no launch page, no /login).

SPKI is the base64 SHA-256 of the certificate's public key: Chromium trusts that key only
(`--ignore-certificate-errors-spki-list`), as a kiosk would trust its own certificate.
"""
import sys

from selenium.webdriver.common.by import By

from browser_support import check, chromium, finish, wait_for

URL, SPKI, TASK, TITLE = sys.argv[1:5]
LAUNCH_PAGE = sys.argv[5] if len(sys.argv) > 5 else None
driver = chromium(f"--ignore-certificate-errors-spki-list={SPKI}", "--host-resolver-rules=MAP kiosk.test 127.0.0.1")
try:
    driver.get(f"file://{LAUNCH_PAGE}" if LAUNCH_PAGE else URL)
    button = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, f'[data-file="{TASK}"]'), 20, "the home screen")
    check(driver.execute_script("return location.protocol") == "https:", "the page came over HTTPS")
    if LAUNCH_PAGE:
        origin = URL.split("/?")[0]
        token = URL.split("token=")[1]
        history = [entry["url"] for entry in driver.execute_cdp_cmd("Page.getNavigationHistory", {})["entries"]]
        # WebDriver's own blank start page comes first (the kiosk opens the launch page directly).
        history = history[1:] if history[:1] == ["data:,"] else history
        check(history == [origin + "/"], f"from the launch page the tab's history holds the UI only ({[url.replace(token, 'TOKEN') for url in history]})")
        cookies = driver.get_cookies()
        check(any(cookie["name"] == "__Host-activetask-token" and cookie.get("secure") and cookie.get("httpOnly") for cookie in cookies),
              f"the launch page's login set the __Host- cookie, Secure and HttpOnly ({[(c['name'], c.get('secure')) for c in cookies]})")
    check(button is not None, "the home screen lists the task, fetched over the WebSocket on TLS")
    button.click()
    shown = wait_for(lambda: TITLE in driver.find_element(By.TAG_NAME, "body").text, 20, "the task's first step")
    check(shown, f"choosing it shows its first step ({TITLE})")
finally:
    driver.quit()
finish()

"""What the browser scripts share (browser_walk.py, browser_survey.py, browser_reconnect.py,
browser_tapping.py, browser_permission.py):
the checks they count, waiting for a condition, and headless Debian Chromium through
chromedriver (python3-selenium)."""
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

failures = []


def check(condition, what):
    """Prints the check; a failed one is counted for finish()."""
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        failures.append(what)


def wait_for(condition, seconds, what):
    """The first truthy value of condition() within seconds (exceptions count as not yet)."""
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


def chromium(*arguments, logging=False):
    """Headless Chromium with the script's own arguments."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", *arguments]:
        options.add_argument(argument)
    if logging:
        options.set_capability("goog:loggingPrefs", {"browser": "SEVERE"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def finish():
    """Exits 1 when a check failed."""
    if failures:
        print(f"{len(failures)} checks failed")
        sys.exit(1)


def set_viewport(driver, width, height):
    """The window such that the page's viewport is width × height."""
    driver.set_window_size(width, height)
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    driver.set_window_size(width * 2 - inner[0], height * 2 - inner[1])

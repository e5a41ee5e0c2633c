#!/usr/bin/python3
"""An animated image (SageResearch's `imageNames` with `animationDuration`) in headless
Chromium: its frames are shown in turn, each a different picture, and stay on the first frame
when the system asks for reduced motion. A second browser opened during the run shows that a
task is under way and none of its steps, and the list by itself once the run has ended.

usage: browser_animation.py URL

The task (Animated.json) shows three one-pixel frames, red, green and blue, in 0.6 s.
"""
import sys
import time

from selenium.webdriver.common.by import By

from browser_support import check, chromium, finish, wait_for

URL = sys.argv[1]


def frames_seen(driver, seconds, start):
    """The frame numbers and pictures the step's image showed over `seconds`; `start`: from the
    home screen, else the page comes back to its run already on the step."""
    driver.get(URL)
    if start:
        wait_for(lambda: driver.find_element(By.CSS_SELECTOR, '[data-file="Animated.json"]'), 20, "the home screen").click()
    picture = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, 'article[data-step-path="Animated/moving"] img[data-frame]'), 15,
                       "the animated step")
    frames, sources = set(), set()
    deadline = time.time() + seconds
    while time.time() < deadline:
        frames.add(picture.get_attribute("data-frame"))
        source = picture.get_attribute("src") or ""
        if source:
            sources.add(source)
        time.sleep(0.03)
    return frames, sources


driver = chromium()
other = None
try:
    frames, sources = frames_seen(driver, 2.0, start=True)
    check(frames == {"0", "1", "2"}, f"all three frames are shown in turn ({sorted(frames)})")
    check(len(sources) == 3, f"each frame is its own picture ({len(sources)} pictures)")
    # Another browser meanwhile (docs/kiosk.md, "A tab's own run"): the run is not its own, so
    # it shows that a task is under way, none of its steps, and the list once the run has ended.
    other = chromium("--force-prefers-reduced-motion")
    other.get(URL)
    busy = wait_for(lambda: other.find_element(By.CSS_SELECTOR, "article.busy"), 20, "the other browser's 'under way' screen")
    check("under way" in busy.text and not other.find_elements(By.CSS_SELECTOR, "article[data-step-path]"),
          f"another browser shows that a task is under way, and none of its steps ({busy.text!r})")
    for step in ("moving", "done"):
        wait_for(lambda: driver.find_element(By.CSS_SELECTOR, f'article[data-step-path="Animated/{step}"] #action-next'), 15,
                 f"the {step} step's Next").click()
    wait_for(lambda: driver.find_element(By.ID, "action-home"), 15, "the end screen")
    wait_for(lambda: other.find_element(By.CSS_SELECTOR, '[data-file="Animated.json"]'), 20,
             "the other browser's list once the run has ended")
    check(True, "once the run has ended, the other browser shows the list by itself")
    driver.quit()
    driver = None
    frames, sources = frames_seen(other, 1.5, start=True)
    check(frames == {"0"} and len(sources) == 1, f"with reduced motion, the first frame only ({sorted(frames)}, {len(sources)} pictures)")
finally:
    for browser in (driver, other):
        if browser is not None:
            browser.quit()
finish()

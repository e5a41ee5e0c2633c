#!/usr/bin/python3
"""An animated image (SageResearch's `imageNames` with `animationDuration`) in headless
Chromium: its frames are shown in turn, each a different picture, and stay on the first frame
when the system asks for reduced motion.

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
    home screen, else the page comes back to the run already on the step."""
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
try:
    frames, sources = frames_seen(driver, 2.0, start=True)
    check(frames == {"0", "1", "2"}, f"all three frames are shown in turn ({sorted(frames)})")
    check(len(sources) == 3, f"each frame is its own picture ({len(sources)} pictures)")
finally:
    driver.quit()

driver = chromium("--force-prefers-reduced-motion")
try:
    # The run goes on: this browser comes back to the same step.
    frames, sources = frames_seen(driver, 1.5, start=False)
    check(frames == {"0"} and len(sources) == 1, f"with reduced motion, the first frame only ({sorted(frames)}, {len(sources)} pictures)")
finally:
    driver.quit()
finish()

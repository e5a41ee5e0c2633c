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


def frames_seen(driver, seconds, start, enough=None):
    """The frame numbers and pictures the step's image showed, recorded in the page by a
    MutationObserver (so a frame shown briefly while the machine is busy is not missed between
    two WebDriver calls): until `enough(frames)` holds, or over `seconds` when it is None (or at
    most `seconds` when it never holds). `start`: from the home screen, else the page comes back
    to its run already on the step."""
    driver.get(URL)
    if start:
        wait_for(lambda: driver.find_element(By.CSS_SELECTOR, '[data-file="Animated.json"]'), 20, "the home screen").click()
    picture = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, 'article[data-step-path="Animated/moving"] img[data-frame]'), 15,
                       "the animated step")
    driver.execute_script("""
        const picture = arguments[0];
        window.framesSeen = new Set([picture.dataset.frame]);
        window.picturesSeen = new Set(picture.src ? [picture.src] : []);
        new MutationObserver(() => {
            window.framesSeen.add(picture.dataset.frame);
            if (picture.src) window.picturesSeen.add(picture.src);
        }).observe(picture, { attributes: true, attributeFilter: ["data-frame", "src"] });
    """, picture)
    deadline = time.time() + seconds
    while True:
        frames, sources = driver.execute_script("return [Array.from(window.framesSeen), Array.from(window.picturesSeen)]")
        frames, sources = set(frames), set(sources)
        if (enough is not None and enough(frames)) or time.time() >= deadline:
            return frames, sources
        time.sleep(0.1)


driver = chromium()
other = None
try:
    frames, sources = frames_seen(driver, 60, start=True, enough=lambda frames: frames >= {"0", "1", "2"})
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

#!/usr/bin/python3
"""SageResearch's "learn more" with a `url` in headless Chromium at 800×480: a `videoView`
action whose QuickTime file (named `.mov`, as the corpus names its videos) is larger than two
of `tasks.resource`'s pieces plays to its end from the assembled pieces; a `webView` action's
page shows in a frame with its own styles, its image (a task image) and no script run or link
kept; a missing video has no button, one removed after its button showed gets the daemon's
sentence; a page outside the task folder has no button. No Content-Security-Policy violation is logged.

usage: browser_learnmore.py URL TASK_DIRECTORY SCREENSHOTS

The videos are made here, by this Chromium's own MediaRecorder from a canvas of noise (which no
encoder can shrink), and written into the task directory before the task starts.
"""
import base64
import os
import sys
import time

from browser_support import check, chromium, finish, set_viewport, wait_for
from selenium.webdriver.common.by import By

URL, TASKS, SHOTS = sys.argv[1], sys.argv[2], sys.argv[3]
PIECE = 384 * 1024

RECORD = """
const [type, seconds, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
const canvas = Object.assign(document.createElement("canvas"), { width: 320, height: 240 });
document.body.append(canvas);
const context = canvas.getContext("2d");
const frame = context.createImageData(320, 240);
const draw = setInterval(() => {
  for (let i = 0; i < frame.data.length; i++) frame.data[i] = (i & 3) === 3 ? 255 : Math.random() * 256;
  context.putImageData(frame, 0, 0);
}, 40);
const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: type, videoBitsPerSecond: 8000000 });
const parts = [];
recorder.ondataavailable = (event) => parts.push(event.data);
recorder.onstop = () => {
  clearInterval(draw);
  const reader = new FileReader();
  reader.onload = () => done(reader.result.split(",")[1]);
  reader.readAsDataURL(new Blob(parts, { type }));
};
recorder.start(250);
setTimeout(() => recorder.stop(), seconds * 1000);
"""

driver = chromium("--hide-scrollbars", "--force-device-scale-factor=1", logging=True)
try:
    driver.get("about:blank")
    driver.set_script_timeout(30)
    video = base64.b64decode(driver.execute_async_script(RECORD, "video/mp4", 2.5))
    check(len(video) > 2 * PIECE, f"the video is larger than two pieces ({len(video)} bytes)")
    for name in ["clip.mov", "Gone.mp4"]:
        with open(os.path.join(TASKS, name), "wb") as file:
            file.write(video)

    set_viewport(driver, 800, 480)
    driver.get(URL)
    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, '[data-file="LearnMore.json"]'), 20, "the home screen").click()

    def step(path):
        return wait_for(lambda: driver.find_element(By.CSS_SELECTOR, f'article[data-step-path="{path}"]'), 15, f"the step {path}")

    def dialog_fits(name):
        """The dialog with its Close button on screen, nothing wider than the window."""
        driver.save_screenshot(os.path.join(SHOTS, f"800x480-learn-more-{name}.png"))
        close = driver.find_element(By.ID, "learn-more-close")
        bottom, height = driver.execute_script("return [arguments[0].getBoundingClientRect().bottom, innerHeight]", close)
        check(bottom <= height and close.size["height"] >= 48, f"the {name}'s Close button is on screen and at least 48 px ({bottom} of {height})")
        wide = driver.execute_script("return document.documentElement.scrollWidth <= innerWidth")
        check(wide, f"nothing is wider than the window with the {name}")

    # A video: every piece put together, played to its end.
    article = step("LearnMore/intro")
    learn = article.find_element(By.ID, "action-learn-more")
    check(learn.text == "Watch how", f"the video's button has its buttonTitle ({learn.text!r})")
    learn.click()
    player = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "dialog#learn-more[open] #learn-more-media video"), 20, "the video")
    check(player.get_attribute("src").startswith("blob:"), "the video plays from memory, not from a URL")
    wait_for(lambda: driver.execute_script("return arguments[0].readyState >= 2", player), 20, "the video's first frame")
    check(driver.execute_script("return arguments[0].videoWidth", player) == 320, "the video is the recorded one (320 wide)")
    dialog_fits("video")
    ended = wait_for(lambda: driver.execute_script("return arguments[0].ended || arguments[0].currentTime > 2.2", player), 20,
                     "the video playing to its end")
    check(ended, "the video played to its last piece")
    driver.find_element(By.ID, "learn-more-close").click()
    wait_for(lambda: not driver.find_elements(By.CSS_SELECTOR, "dialog#learn-more[open]"), 5, "the dialog closing")
    check(not driver.find_elements(By.CSS_SELECTOR, "#learn-more-media video"), "closing the dialog ends the video")
    article.find_element(By.ID, "action-next").click()

    # A page: its styles, its picture, none of its script, no link out.
    article = step("LearnMore/about")
    # Clicked once it takes a click: the step's article can be in the page before its button is
    # interactable (beside two busy loops the click once came first: "element not interactable").
    wait_for(lambda: article.find_element(By.ID, "action-learn-more").click() or True, 15, "Learn more taking a click")
    frame = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "dialog#learn-more[open] #learn-more-media iframe"), 15, "the page")
    check(driver.find_element(By.ID, "learn-more-title").text == "About walking", "the dialog has the action's title")
    check(driver.find_element(By.ID, "learn-more-close").text == "Back to the task", "Close has the action's closeButtonTitle")
    dialog_fits("page")
    driver.switch_to.frame(frame)
    heading = wait_for(lambda: driver.find_element(By.TAG_NAME, "h1"), 10, "the page's heading")
    wait_for(lambda: heading.value_of_css_property("color") == "rgba(0, 100, 0, 1)", 5, "the page's style sheet")
    check(heading.text == "Walking, explained", f"the page's script did not run ({heading.text!r})")
    note = driver.find_element(By.ID, "note")
    check(note.value_of_css_property("color") == "rgba(0, 0, 139, 1)", "an element's own style is kept")
    picture = driver.find_element(By.TAG_NAME, "img")
    check((picture.get_attribute("src") or "").startswith("data:image/png") and driver.execute_script("return arguments[0].naturalWidth", picture) == 1,
          "the page's picture is the task's image")
    check(driver.find_element(By.TAG_NAME, "a").get_attribute("href") is None, "a link on the page leads nowhere")
    driver.switch_to.default_content()
    driver.find_element(By.ID, "learn-more-close").click()
    article.find_element(By.ID, "action-next").click()

    # A video that is not there has no button: it could only say so.
    article = step("LearnMore/missing")
    time.sleep(1.5)
    learn = article.find_elements(By.ID, "action-learn-more")
    check(not learn or not learn[0].is_displayed(), "a learn-more video that is not beside the task has no button")
    article.find_element(By.ID, "action-next").click()

    # One that goes after its button showed: the daemon's sentence in the dialog.
    article = step("LearnMore/gone")
    learn = wait_for(lambda: (lambda b: b if b.is_displayed() else None)(article.find_element(By.ID, "action-learn-more")), 10,
                     "the button of a video that is there")
    os.remove(os.path.join(TASKS, "Gone.mp4"))
    learn.click()
    text = wait_for(lambda: (lambda t: t if "No page or video" in t else None)(driver.find_element(By.ID, "learn-more-text").text), 15,
                    "the gone video's message")
    check("Gone.mp4" in text, f"the message names the file that went ({text!r})")
    driver.find_element(By.ID, "learn-more-close").click()
    article.find_element(By.ID, "action-next").click()

    # A page on the web: the kiosk opens nothing outside, so there is no button.
    article = step("LearnMore/outside")
    check(not article.find_elements(By.ID, "action-learn-more"), "a learn-more page on the web has no button")
    article.find_element(By.ID, "action-next").click()
    step("LearnMore/done")

    refused = [entry["message"] for entry in driver.get_log("browser") if "Content Security Policy" in entry["message"] or "Refused" in entry["message"]]
    check(not refused, f"no Content-Security-Policy violation ({refused})")
finally:
    driver.quit()
finish()

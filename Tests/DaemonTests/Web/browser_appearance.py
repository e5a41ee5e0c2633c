#!/usr/bin/python3
"""A step's `colorMapping` and its "learn more" action in headless Chromium at 800×480: the
first step asks for the primary colour (`singleColor`) and has a learn-more action with text,
the second a green header over a white body (`placementMapping`) and a learn-more action it
hides (`shouldHideActions`). The colours are checked on the screenshot's pixels, the
learn-more text in its dialog. Then two images placed as SageResearch places them
(`topBackground` across the top above the title, `iconBefore` small above it).

usage: browser_appearance.py URL SCREENSHOTS

Exits 1 naming what failed. Run by WebBrowserTests with Debian's chromium and chromium-driver
(python3-selenium, python3-pil).
"""
import io
import os
import sys

from browser_support import check, chromium, finish, set_viewport, wait_for
from PIL import Image
from selenium.webdriver.common.by import By

URL, SHOTS = sys.argv[1], sys.argv[2]

driver = chromium("--hide-scrollbars", "--force-device-scale-factor=1")


def pixel(name, x, y):
    """The colour at (x, y) of a screenshot saved as name."""
    png = driver.get_screenshot_as_png()
    with open(os.path.join(SHOTS, name), "wb") as file:
        file.write(png)
    return Image.open(io.BytesIO(png)).convert("RGB").getpixel((x, y))


def near(color, expected):
    return all(abs(a - b) <= 3 for a, b in zip(color, expected))


def step(path):
    return wait_for(lambda: driver.find_element(By.CSS_SELECTOR, f'article[data-step-path="{path}"]'), 15, f"the step {path}")


try:
    set_viewport(driver, 800, 480)
    driver.get(URL)
    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, '[data-file="Looks.json"]'), 20, "the home screen").click()

    article = step("Looks/intro")
    # Below the text, beside no control: the step's own background.
    color = pixel("800x480-color-primary.png", 400, 240)
    check(near(color, (11, 87, 208)), f"singleColor primary: the step is blue ({color})")
    title_color = driver.execute_script("return getComputedStyle(document.querySelector('h1')).color")
    check(title_color == "rgb(255, 255, 255)", f"the title is white on it ({title_color})")
    article.find_element(By.ID, "action-learn-more").click()
    dialog = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "dialog#learn-more[open]"), 5, "the learn-more dialog")
    driver.save_screenshot(os.path.join(SHOTS, "800x480-learn-more.png"))
    check(dialog.find_element(By.ID, "learn-more-title").text == "About the colour", "the dialog has the action's title")
    check(dialog.find_element(By.ID, "learn-more-text").text == "The step asks for its primary colour.", "and its text")
    driver.find_element(By.ID, "learn-more-close").click()
    wait_for(lambda: not driver.find_elements(By.CSS_SELECTOR, "dialog[open]"), 5, "the dialog closing")
    article.find_element(By.ID, "action-next").click()

    article = step("Looks/placed")
    header = driver.execute_script("const r = document.querySelector('.step-header').getBoundingClientRect(); return [r.left, r.top, r.bottom];")
    top = pixel("800x480-color-placement.png", int(header[0]) + 4, int(header[1]) + 4)
    body = pixel("800x480-color-placement.png", 400, int(header[2]) + 60)
    check(near(top, (20, 108, 46)), f"placementMapping: the header is green ({top})")
    check(near(body, (255, 255, 255)), f"and the body white ({body})")
    check(not article.find_elements(By.ID, "action-learn-more"), "a learn-more action in shouldHideActions has no button")
    article.find_element(By.ID, "action-next").click()

    # SageResearch's image placements: topBackground across the top, above the title;
    # iconBefore small above the title.
    for path, placement in (("Looks/banner", "topBackground"), ("Looks/icon", "iconBefore")):
        article = step(path)
        image = wait_for(lambda: article.find_element(By.CSS_SELECTOR, f"img.placement-{placement}:not([hidden])"), 10, f"{path}: the image")
        box = driver.execute_script(
            "const i = arguments[0].getBoundingClientRect(), t = arguments[1].querySelector('h1').getBoundingClientRect();"
            "return [i.top, i.bottom, i.width, i.height, t.top, document.documentElement.clientWidth];", image, article)
        check(box[1] <= box[4] + 1, f"{placement}: the image is above the title ({box[:2]} over {box[4]})")
        if placement == "topBackground":
            check(box[2] >= box[5] - 2, f"topBackground: the image spans the screen ({box[2]} of {box[5]})")
        else:
            check(box[3] <= 96, f"iconBefore: the image is icon-sized ({box[3]} px high)")
        driver.save_screenshot(os.path.join(SHOTS, f"800x480-image-{placement}.png"))
        article.find_element(By.ID, "action-next").click()
    # A text field on a portrait screen: the letter keys fit 480 px, none under 48 px, and
    # tapping Shift, h, i types "Hi" (the field itself is never typed into).
    set_viewport(driver, 480, 800)
    article = step("Looks/name")
    keys = article.find_elements(By.CSS_SELECTOR, ".keys .key")
    small = [k.text for k in keys if min(k.size["width"], k.size["height"]) < 48]
    check(len(keys) == 29 and not small, f"the letter keys: 26 letters, capital, space, delete, none under 48 px ({len(keys)}, small: {small})")
    check(driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth"), "no sideways scrolling at 480 px")
    article.find_element(By.CSS_SELECTOR, '.keys button[aria-label="Capital letter"]').click()
    for letter in ("H", "i"):
        next(k for k in article.find_elements(By.CSS_SELECTOR, ".keys .key") if k.text == letter).click()
    typed = article.find_element(By.ID, "input-name").get_attribute("value")
    check(typed == "Hi", f"Shift, h, i on the letter keys type \"Hi\" ({typed!r})")
    driver.save_screenshot(os.path.join(SHOTS, "480x800-letter-keys.png"))
    article.find_element(By.ID, "action-next").click()
    step("Looks/done").find_element(By.ID, "action-next").click()
    verdict = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, ".finished h1").text, 15, "the end")
    check(verdict == "Done", f"the run ends with \"Done\" ({verdict!r})")
except Exception as error:
    check(False, f"colours and learn more: {error}")
    driver.save_screenshot(os.path.join(SHOTS, "appearance-failure.png"))
finally:
    driver.quit()

finish()

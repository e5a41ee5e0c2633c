#!/usr/bin/python3
"""SageResearch's SimpleSurvey in headless Chromium through activetask-web, without a keyboard:
each question answered by tapping, the numbers on the page's own keys (the fields are not
typed into); on "Pick a number" a wrong answer first, whose refusal by the daemon must appear
beside the field while the step stays, then a good one; to "Done".

usage: browser_survey.py URL SCREENSHOTS

Run by WebBrowserTests with Debian's chromium and chromium-driver (python3-selenium).
"""
import os
import sys

from browser_support import check, chromium, finish, wait_for
from selenium.webdriver.common.by import By

URL, SHOTS = sys.argv[1], sys.argv[2]


driver = chromium("--window-size=800,600")


def step(path):
    return wait_for(lambda: driver.find_element(By.CSS_SELECTOR, f'article[data-step-path="{path}"]'), 15, f"the step {path}")


def choose(path, *texts):
    article = step(path)
    for text in texts:
        next(b for b in article.find_elements(By.CSS_SELECTOR, ".choice") if b.text == text).click()
    article.find_element(By.ID, "action-next").click()


KEY_NAMES = {"-": "Minus sign", ".": "Decimal point"}


def tap_keys(path, values):
    """Each field tapped, emptied with the delete key and filled by tapping the on-screen keys."""
    article = step(path)
    for identifier, value in values.items():
        field = article.find_element(By.ID, f"input-{identifier}")
        field.click()
        keys = article.find_element(By.CSS_SELECTOR, ".keys")
        delete = keys.find_element(By.CSS_SELECTOR, 'button[aria-label="Delete"]')
        while field.get_attribute("value"):
            delete.click()
        for character in value:
            if character in KEY_NAMES:
                keys.find_element(By.CSS_SELECTOR, f'button[aria-label="{KEY_NAMES[character]}"]').click()
            else:
                next(k for k in keys.find_elements(By.CSS_SELECTOR, ".key") if k.text == character).click()
        check(field.get_attribute("value") == value, f"{value!r} tapped into {identifier} (it reads {field.get_attribute('value')!r})")
    article.find_element(By.ID, "action-next").click()


try:
    driver.get(URL)
    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, '[data-file="SimpleSurvey.json"]'), 20, "the home screen").click()
    choose("list/selectOne", "Charlie")
    choose("list/selectMultiple", "Alpha", "Gamma")
    # A wrong answer first: 4 is above the question's maximum 3.
    number_keys = step("list/pickANumber").find_elements(By.CSS_SELECTOR, ".keys .key")
    small = [k.text for k in number_keys if min(k.size["width"], k.size["height"]) < 48]
    check(len(number_keys) == 12 and not small, f"the number pad has 12 keys of at least 48 px (small: {small})")
    check(step("list/pickANumber").find_element(By.ID, "input-pickANumber").get_attribute("inputmode") == "none",
          "the field asks for no system keyboard")
    tap_keys("list/pickANumber", {"pickANumber": "4"})
    error = wait_for(lambda: driver.find_element(By.ID, "input-pickANumber-error").text, 10, "the refusal beside the field")
    driver.save_screenshot(os.path.join(SHOTS, "survey-wrong-answer.png"))
    check("3" in error, f"the daemon's refusal is shown beside the field: {error!r}")
    check(bool(driver.find_elements(By.CSS_SELECTOR, 'article[data-step-path="list/pickANumber"]')), "the step stays shown")
    tap_keys("list/pickANumber", {"pickANumber": "-2"})
    tap_keys("list/year", {"year": "1999"})
    tap_keys("list/heightAndWeight", {"heightAdult": "180.5", "weightInfant": "4"})
    verdict = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, ".finished h1").text, 20, "the end")
    check(verdict in ("Done", "Done, with a note"), f"the survey ends with \"Done\" (got {verdict!r})")
except Exception as error:
    check(False, f"the survey: {error}")
    driver.save_screenshot(os.path.join(SHOTS, "survey-failure.png"))
finally:
    driver.quit()

finish()

#!/usr/bin/python3
"""SageResearch's SimpleSurvey in headless Chromium through activetask-web: each question
answered by tapping and typing; on "Pick a number" a wrong answer first, whose refusal by the
daemon must appear beside the field while the step stays, then a good one; to "Done".

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


def type_in(path, values):
    article = step(path)
    for identifier, value in values.items():
        field = article.find_element(By.ID, f"input-{identifier}")
        field.clear()
        field.send_keys(value)
    article.find_element(By.ID, "action-next").click()


try:
    driver.get(URL)
    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, '[data-file="SimpleSurvey.json"]'), 20, "the home screen").click()
    choose("list/selectOne", "Charlie")
    choose("list/selectMultiple", "Alpha", "Gamma")
    # A wrong answer first: 4 is above the question's maximum 3.
    type_in("list/pickANumber", {"pickANumber": "4"})
    error = wait_for(lambda: driver.find_element(By.ID, "input-pickANumber-error").text, 10, "the refusal beside the field")
    driver.save_screenshot(os.path.join(SHOTS, "survey-wrong-answer.png"))
    check("3" in error, f"the daemon's refusal is shown beside the field: {error!r}")
    check(bool(driver.find_elements(By.CSS_SELECTOR, 'article[data-step-path="list/pickANumber"]')), "the step stays shown")
    type_in("list/pickANumber", {"pickANumber": "-2"})
    type_in("list/year", {"year": "1999"})
    type_in("list/heightAndWeight", {"heightAdult": "180.5", "weightInfant": "4"})
    verdict = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, ".finished h1").text, 20, "the end")
    check(verdict in ("Done", "Done, with a note"), f"the survey ends with \"Done\" (got {verdict!r})")
except Exception as error:
    check(False, f"the survey: {error}")
    driver.save_screenshot(os.path.join(SHOTS, "survey-failure.png"))
finally:
    driver.quit()

finish()

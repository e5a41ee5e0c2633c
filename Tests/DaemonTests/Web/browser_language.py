#!/usr/bin/python3
"""The UI's own words in another language (docs/kiosk.md, "Languages"), in headless Chromium:
`?lang=de` shows German and keeps it across a reload, the browser's own language (Chromium's
accepted languages) chooses it too, an unknown one falls back to English, and every language
file has exactly English's keys, each of the same kind (text or function).

usage: browser_language.py URL TASKFILE
"""
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from browser_support import check, chromium, finish, wait_for

URL, TASK = sys.argv[1:3]


def home(driver):
    """The home screen's title and the task's button text, once the task is listed."""
    button = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, f'[data-file="{TASK}"]'), 20, "the home screen")
    return driver.find_element(By.TAG_NAME, "h1").text, button.text


driver = chromium()
try:
    driver.get(URL + "&lang=de")
    title, task = home(driver)
    check(title == "Aufgaben", f"?lang=de: the home screen says Aufgaben ({title!r})")
    check("Etwa 1 Minute" in task, f"?lang=de: the task's length in German ({task!r})")
    check(driver.execute_script("return document.documentElement.lang") == "de", "?lang=de: the page's lang is de")
    driver.refresh()
    title, _ = home(driver)
    check(title == "Aufgaben", f"a reload keeps German ({title!r}, {driver.current_url})")
    driver.get(URL + "&lang=xx")
    title, task = home(driver)
    check(title == "Tasks" and "About 1 minute" in task, f"an unknown language falls back to English ({title!r}, {task!r})")
    mismatches = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        (async () => {
          const { languages } = await import("/strings/index.js");
          const english = (await import("/strings/en.js")).default;
          const problems = [];
          for (const language of languages) {
            const words = (await import(`/strings/${language}.js`)).default;
            for (const key of new Set([...Object.keys(english), ...Object.keys(words)])) {
              if (typeof english[key] !== typeof words[key]) problems.push(`${language}.${key}`);
            }
          }
          done(problems);
        })().catch((error) => done([String(error)]));
    """)
    check(mismatches == [], f"every language file has English's keys, of the same kind ({mismatches})")
finally:
    driver.quit()

options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]:
    options.add_argument(argument)
options.add_experimental_option("prefs", {"intl.accept_languages": "de-CH,de"})
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
try:
    driver.get(URL)
    title, _ = home(driver)
    check(title == "Aufgaben", f"a browser that prefers de-CH gets German ({title!r})")
finally:
    driver.quit()
finish()

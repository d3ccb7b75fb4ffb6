"""A real browser (Debian's headless chromium via selenium) on the three pages.

It builds a position by clicking cards and reads the advisor's verdict, plays a hand to its
end at the practice table (reloading the page in the middle), hovers a strategy chart, saves
a screenshot of each page under the test's temp dir and checks the console has no errors.
"""

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from analyzer.core.cards import parse_card
from analyzer.gin.evaluator.api import min_deadwood

webdriver = pytest.importorskip("selenium.webdriver")
pytest.importorskip("fastapi")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM and CHROMEDRIVER), reason="needs Debian's chromium and chromium-driver"
)
ROOT = Path(__file__).resolve().parents[2]
#: Generous waits: a cold JIT cache compiles the advisor on the first request.
WAIT_S = 120

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``analyzer serve`` in a subprocess, as a user starts it."""
    port = free_port()
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "analyzer",
                "serve",
                "--port",
                str(port),
                "--results",
                str(ROOT / "results"),
            ],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=os.environ | {"PYTHONPATH": str(ROOT)},
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(url + "/api/presets", timeout=2).read()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                pytest.fail(f"analyzer serve did not start: {log.read_text()}")
            time.sleep(0.1)
    assert f"http://127.0.0.1:{port}/" in log.read_text()
    # one small advisor run first: with a cold JIT cache it compiles the kernels (minutes
    # on two busy cores), which the page timings below should not include
    request = urllib.request.Request(
        url + "/api/advise",
        b'{"position": {"hand": "3c 4c 5c 2d 3d 4d 6d Ah 2h 3h 5h"}, "samples": 256}',
        {"Content-Type": "application/json"},
    )
    deadline = time.monotonic() + 900
    while True:
        try:
            urllib.request.urlopen(request, timeout=900).read()
            break
        except urllib.error.HTTPError as error:  # 503: still compiling after 120 s
            if error.code != 503 or time.monotonic() > deadline:
                raise
    yield url
    process.terminate()
    process.wait(timeout=10)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,1100",
        f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = webdriver.ChromeService(executable_path=CHROMEDRIVER)
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


def console_errors(driver):
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def wait(driver, condition, timeout=WAIT_S):
    return WebDriverWait(driver, timeout).until(lambda d: condition(d))


def ready(driver):
    return driver.execute_script("return document.body.dataset.ready") == "1"


def screenshot(driver, path):
    """The whole page (the window grows to the document's height for the shot)."""
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(1280, min(max(height + 250, 800), 4000))
    driver.save_screenshot(str(path))
    driver.set_window_size(1280, 1100)
    assert path.stat().st_size > 10_000


def click_cards(driver, mode, cards):
    driver.find_element(By.CSS_SELECTOR, f"input[name=mode][value={mode}]").click()
    for card in cards.split():
        driver.find_element(By.ID, f"card-{card}").click()


def test_advisor_page_builds_a_position_by_clicking_and_shows_the_verdict(
    server, browser, tmp_path
):
    browser.get(server + "/")
    wait(browser, ready)
    click_cards(browser, "hand", "3c 4c 5c 2d 3d 4d 6d Ah 2h 3h 5h")
    click_cards(browser, "pile", "Td Ks Jh Ts Kd Tc")
    click_cards(browser, "opp_took", "8d 9s")
    click_cards(browser, "opp_threw", "Tc Jh Ts Ks")
    for field, value in (("stock", "25"), ("turn", "5"), ("upcard", "5c")):
        browser.find_element(By.ID, field).send_keys(value)
    Select(browser.find_element(By.ID, "opponent")).select_by_value("basic")
    assert "11 cards" in browser.find_element(By.ID, "summary").text
    browser.find_element(By.ID, "advise").click()
    verdict = wait(browser, lambda d: d.find_element(By.ID, "verdict").text)
    assert re.match(r"(Knock|Play on|Go gin), discarding", verdict), verdict
    rows = browser.find_elements(By.CSS_SELECTOR, "#actions-table tbody tr")
    assert len(rows) >= 2  # knock and play on with the deadwood card, at least
    assert "Opponent model: basic" in browser.find_element(By.ID, "run").text
    screenshot(browser, tmp_path / "advisor.png")
    # the position lives in the URL: a reload (or a shared link) restores it
    assert "position=" in browser.current_url
    browser.refresh()
    wait(browser, ready)
    assert "in-hand" in browser.find_element(By.ID, "card-6d").get_attribute("class")
    assert "in-pile" in browser.find_element(By.ID, "card-Kd").get_attribute("class")
    assert browser.find_element(By.ID, "stock").get_attribute("value") == "25"
    browser.find_element(By.ID, "export").click()
    assert '"opp_took": "8d 9s"' in browser.find_element(By.ID, "json").get_attribute("value")
    assert console_errors(browser) == []


def table_state(driver):
    return driver.execute_script(
        "const b = document.body.dataset; return [b.phase, b.legal, b.busy];"
    )


def choose(driver, legal):
    """Knock or gin when legal, else draw from the stock, else the least-deadwood discard."""
    for prefix in ("big gin", "gin ", "knock "):
        move = next((m for m in legal if m.startswith(prefix)), None)
        if move:
            return move
    if "stock" in legal:
        return "stock"
    if "pass" in legal:
        return "pass"
    hand = [
        b.get_attribute("data-card") for b in driver.find_elements(By.CSS_SELECTOR, "#hand .card")
    ]
    plays = [m for m in legal if m.startswith("play ")]
    return min(
        plays, key=lambda m: min_deadwood([parse_card(c) for c in hand if c != m.split()[1]])
    )


def click_move(driver, move):
    verb, _, card = move.partition(" ")
    if card and verb != "big":
        driver.find_element(By.ID, f"hand-{card}").click()
    button = {"stock": "draw-stock", "pile": "draw-pile", "play": "discard", "big": "big-gin"}.get(
        verb, verb
    )
    driver.find_element(By.ID, button).click()


def test_practice_table_plays_a_hand_to_its_end_across_a_reload(server, browser, tmp_path):
    browser.get(server + "/table")
    wait(browser, ready)
    Select(browser.find_element(By.ID, "mode")).select_by_value("hand")
    Select(browser.find_element(By.ID, "hints")).select_by_value("before")
    browser.find_element(By.ID, "new-game").click()
    wait(browser, lambda d: table_state(d)[0] is not None and table_state(d)[2] == "0")
    moves, reloaded, hinted = 0, False, False
    while True:
        phase, legal = table_state(browser)[:2]
        if phase in ("hand over", "game over"):
            break
        assert moves < 120
        if moves == 4 and not reloaded:
            hand = browser.find_element(By.ID, "hand").text
            browser.refresh()  # the server holds the game: a reload changes nothing
            wait(browser, ready)
            assert browser.find_element(By.ID, "hand").text == hand
            assert table_state(browser)[:2] == [phase, legal]
            reloaded = True
        if phase == "discard" and not hinted:  # hints before acting: wait for one
            wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#hint-panel table"))
            assert browser.find_element(By.CSS_SELECTOR, "#hint-panel .verdict").text
            screenshot(browser, tmp_path / "table-hint.png")
            hinted = True
        log_lines = len(browser.find_elements(By.CSS_SELECTOR, "#log li"))
        click_move(browser, choose(browser, legal.split(",")))
        wait(
            browser,
            lambda d, n=log_lines: (
                table_state(d)[2] == "0" and len(d.find_elements(By.CSS_SELECTOR, "#log li")) > n
            ),
        )
        moves += 1
    assert reloaded and hinted
    result = browser.find_element(By.ID, "result-panel").text
    assert result.startswith("Hand 1:")
    wait(
        browser,
        lambda d: (
            d.find_elements(By.ID, "review")
            or "No discard decisions" in d.find_element(By.ID, "review-panel").text
        ),
    )
    assert "Review of hand 1" in browser.find_element(By.ID, "review-panel").text
    assert browser.find_element(By.ID, "next-hand").is_displayed()
    screenshot(browser, tmp_path / "table.png")
    assert console_errors(browser) == []


def test_strategy_page_draws_the_charts_with_ci_hover(server, browser, tmp_path):
    browser.get(server + "/strategy")
    wait(browser, ready)
    plots = browser.find_elements(By.CSS_SELECTOR, ".js-plotly-plot")
    assert len(plots) >= 4
    browser.execute_script(
        "Plotly.Fx.hover('knock-sweep-diff', [{curveNumber: 0, pointNumber: 3}]);"
    )
    hover = wait(
        browser,
        lambda d: d.execute_script(
            "const t = document.querySelector('#knock-sweep-diff .hovertext');"
            "return t && t.textContent;"
        ),
        timeout=10,
    )
    assert "95% CI" in hover and "n = " in hover
    # the robust knock rule is charted when results/ has it, else a note says where from
    robust_charts = browser.find_elements(By.CSS_SELECTOR, "[id^='robust-']")
    assert robust_charts or "robust" in browser.find_element(By.ID, "notes").text
    screenshot(browser, tmp_path / "strategy.png")
    assert console_errors(browser) == []

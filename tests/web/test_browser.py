"""A real browser (Debian's headless chromium via selenium) on the pages.

It builds a position by clicking cards and reads the advisor's verdict, plays a hand to its
end at the practice table (reloading the page in the middle), saves it and opens it in the
advisor, and hovers a strategy chart.  Every page is loaded, and photographed, at 1400 px
and 420 px wide (a phone) into one folder under pytest's temp dir (its path is printed),
each time checking that the page is no wider than the window, that no two labels of a
chart overlap, that no table cell's text spills out of it and, on the phone, that every
button, menu, field and checkbox label is a tap target of 40 px or more and no table
needs a sideways scroll; the labels the cards could cover must
stay clear, the practice table's move buttons must be on screen with the whole hand, and
the console must have no errors.
"""

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import suppress
from pathlib import Path

import pytest

from analyzer.core.cards import parse_card
from analyzer.gin.evaluator.api import min_deadwood

from .conftest import keep_answers, keep_charts, keep_equilibrium, keep_guide

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

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """A report folder keeping the standard rules' answers, their guide, the equilibrium,
    the knock chart and the sweep (the tests' own: :mod:`tests.web.conftest`)."""
    folder = keep_charts(tmp_path_factory.mktemp("report") / "results")
    keep_equilibrium(folder)
    keep_guide(keep_answers(folder))
    return folder


@pytest.fixture(scope="module")
def server(tmp_path_factory, results):
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
                str(results),
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
        "--hide-scrollbars",
        "--window-size=1400,1100",
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


#: The widths every page is checked and photographed at: a desktop and a phone (px).
WIDTHS = (1400, 420)


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    """The folder of the screenshots (kept with pytest's temp dirs)."""
    folder = tmp_path_factory.mktemp("screenshots")
    print(f"screenshots in {folder}")
    return folder


def screenshot(driver, folder, name):
    """The whole page at each of :data:`WIDTHS` (the window grows to the document's height
    for the shot), checking its layout at each (:func:`check_layout`)."""
    for width in WIDTHS:
        driver.set_window_size(width, 1100)
        check_layout(driver, width)
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(width, min(max(height + 250, 800), 6000))
        path = folder / f"{name}-{width}.png"
        driver.save_screenshot(str(path))
        assert path.stat().st_size > 10_000
    driver.set_window_size(WIDTHS[0], 1100)


#: The least width and height of a tap target on a phone (px).
TAP_PX = 40
PHONE = WIDTHS[-1]


def check_layout(driver, width):
    """The page fits the window's width, no two text labels of a chart overlap, no table
    cell's text spills out of it and, at the phone's width, every tap target
    (:func:`small_tap_targets`) is at least :data:`TAP_PX` wide and high and no table needs a sideways scroll either
    (waiting out plotly's redrawing after a resize)."""
    assert no_horizontal_overflow(driver, width)
    with suppress(TimeoutException):
        WebDriverWait(driver, 10).until(lambda d: not overlapping_labels(d))
    assert not overlapping_labels(driver), (width, overlapping_labels(driver))
    assert not spilling_cells(driver), spilling_cells(driver)
    if width <= PHONE:
        assert not small_tap_targets(driver), small_tap_targets(driver)
        assert not scrolling_boxes(driver), scrolling_boxes(driver)


def no_horizontal_overflow(driver, width):
    """Whether the page fits the window's width (waiting out plotly's resizing)."""
    return WebDriverWait(driver, 10).until(
        lambda d: d.execute_script("return document.documentElement.scrollWidth") <= width
    )


def overlapping_labels(driver):
    """The pairs of text labels of a plotly chart (cell numbers, ticks, titles, legend,
    colour bar; not the hover box) that overlap by more than a pixel.  A label is the
    quadrilateral its text box covers on the screen (rotated tick labels are tilted, so
    their upright bounding boxes would overlap where the text does not); two convex
    quadrilaterals overlap unless the projections on some edge's normal are apart."""
    return driver.execute_script(
        """
        const corners = t => {
          const b = t.getBBox(), m = t.getScreenCTM();
          return [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height],
            [b.x, b.y + b.height]].map(([x, y]) =>
              [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]);
        };
        const apart = (p, q) => [p, q].some(poly => poly.some((a, i) => {
          const b = poly[(i + 1) % poly.length], normal = [a[1] - b[1], b[0] - a[0]];
          const length = Math.hypot(...normal);
          if (!length) return false;
          const project = pts => pts.map(([x, y]) => (x * normal[0] + y * normal[1]) / length);
          const [s, t] = [project(p), project(q)];
          return Math.min(Math.max(...s), Math.max(...t)) -
            Math.max(Math.min(...s), Math.min(...t)) <= 1;
        }));
        const found = [];
        for (const plot of document.querySelectorAll(".js-plotly-plot")) {
          const labels = [...plot.querySelectorAll("svg text")]
            .filter(t => t.textContent.trim() && !t.closest(".hoverlayer") &&
              t.getBoundingClientRect().width > 0)
            .map(t => [t.textContent, corners(t)]);
          labels.forEach(([a, p], i) => labels.slice(i + 1).forEach(([b, q]) => {
            if (!apart(p, q)) found.push(`${plot.id}: "${a}" and "${b}"`);
          }));
        }
        return found.slice(0, 10);
        """
    )


def spilling_cells(driver):
    """The table cells whose text is wider than the cell."""
    return driver.execute_script(
        """
        return [...document.querySelectorAll("table th, table td")]
          .filter(c => c.offsetParent !== null && c.scrollWidth > c.clientWidth + 1)
          .map(c => c.textContent).slice(0, 10);
        """
    )


def scrolling_boxes(driver):
    """The first cells of the tables wider than their scrolling box."""
    return driver.execute_script(
        """
        return [...document.querySelectorAll(".scroll")]
          .filter(b => b.offsetParent !== null && b.scrollWidth > b.clientWidth + 1)
          .map(b => b.textContent.slice(0, 60));
        """
    )


def small_tap_targets(driver):
    """The shown buttons, menus and fields, and the labels of the checkboxes (a tap on
    the label ticks it), smaller than :data:`TAP_PX` either way."""
    return driver.execute_script(
        """
        const targets = "button, select, input:not([type=checkbox]):not([type=radio]), " +
          "label:has(input[type=checkbox]), label:has(input[type=radio])";
        return [...document.querySelectorAll(targets)]
          .filter(e => e.offsetParent !== null)
          .map(e => [e.id || e.textContent, e.getBoundingClientRect()])
          .filter(([, r]) => r.width < arguments[0] || r.height < arguments[0])
          .map(([name, r]) => `${name}: ${r.width.toFixed(0)} x ${r.height.toFixed(0)}`)
          .slice(0, 10);
        """,
        TAP_PX,
    )


def rectangles_apart(driver, first, second):
    """Whether the elements of the CSS selectors ``first`` and ``second`` are both shown
    and do not overlap (their bounding boxes, in pixels)."""
    return driver.execute_script(
        """
        const [a, b] = [arguments[0], arguments[1]].map(s => document.querySelector(s));
        if (!a || !b) return false;
        const [r, q] = [a.getBoundingClientRect(), b.getBoundingClientRect()];
        if (!r.width || !r.height || !q.width || !q.height) return false;
        return r.right <= q.left || q.right <= r.left || r.bottom <= q.top || q.bottom <= r.top;
        """,
        first,
        second,
    )


def click_cards(driver, mode, cards):
    driver.find_element(By.CSS_SELECTOR, f"input[name=mode][value={mode}]").click()
    for card in cards.split():
        driver.find_element(By.ID, f"card-{card}").click()


def test_advisor_page_builds_a_position_by_clicking_and_shows_the_verdict(server, browser, shots):
    browser.get(server + "/")
    wait(browser, ready)
    # the play-on model is expert by default, as analyzer advise
    assert Select(browser.find_element(By.ID, "policy")).first_selected_option.text == "expert"
    click_cards(browser, "hand", "3c 4c 5c 2d 3d 4d 6d Ah 2h 3h 5h")
    click_cards(browser, "pile", "Td Ks Jh Ts Kd Tc")
    click_cards(browser, "opp_took", "8d 9s")
    click_cards(browser, "opp_threw", "Tc Jh Ts Ks")
    for field, value in (("stock", "25"), ("turn", "5"), ("upcard", "5c")):
        browser.find_element(By.ID, field).send_keys(value)
    Select(browser.find_element(By.ID, "opponent")).select_by_value("basic")
    Select(browser.find_element(By.ID, "policy")).select_by_value("basic")
    assert "11 cards" in browser.find_element(By.ID, "summary").text
    browser.find_element(By.ID, "advise").click()
    verdict = wait(browser, lambda d: d.find_element(By.ID, "verdict").text)
    assert re.match(
        r"(Knock|Play on|Go gin|Too close to call: (knock|play on|go gin)), discarding", verdict
    ), verdict
    rows = browser.find_elements(By.CSS_SELECTOR, "#actions-table tbody tr")
    assert len(rows) >= 2  # knock and play on with the deadwood card, at least
    # actions in words and suit symbols, as the verdict
    assert re.match(r"(knock|discard|gin),? (discarding )?[A2-9TJQK][♣♦♥♠]", rows[0].text)
    run = browser.find_element(By.ID, "run").text
    assert "Opponent model: basic; you play on as basic" in run
    screenshot(browser, shots, "advisor")
    # the position lives in the URL: a reload (or a shared link) restores it
    assert "position=" in browser.current_url and "policy=basic" in browser.current_url
    browser.refresh()
    wait(browser, ready)
    assert "in-hand" in browser.find_element(By.ID, "card-6d").get_attribute("class")
    assert "in-pile" in browser.find_element(By.ID, "card-Kd").get_attribute("class")
    assert browser.find_element(By.ID, "stock").get_attribute("value") == "25"
    assert Select(browser.find_element(By.ID, "policy")).first_selected_option.text == "basic"
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


def labels_clear_of_cards(driver):
    """At every width: a raised (selected) card leaves the "Your hand" label clear, and
    the stock count the card back."""
    for width in WIDTHS:
        driver.set_window_size(width, 1100)
        assert rectangles_apart(driver, "#hand-label", "#hand .card.selected"), width
        assert rectangles_apart(driver, "#stock-count", "#stock .card"), width
        # the count is written beside the card back, not on it
        assert driver.find_element(By.CSS_SELECTOR, "#stock .card").text == ""
    driver.set_window_size(WIDTHS[0], 1100)


#: A practice-table seed whose first hand lasts past the reload at move 4 with the moves of
#: :func:`choose` (a random deal can end sooner: the opponent may knock at once).
TABLE_SEED = 1


def test_practice_table_plays_a_hand_to_its_end_across_a_reload(server, browser, shots, tmp_path):
    browser.get(server + f"/table?seed={TABLE_SEED}")
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
            card = browser.find_element(By.CSS_SELECTOR, "#hand .card").get_attribute("id")
            browser.find_element(By.ID, card).click()  # raised: the label above stays clear
            labels_clear_of_cards(browser)
            screenshot(browser, shots, "table-discard")
            browser.find_element(By.ID, card).click()  # (the hand is drawn anew on a click)
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
    log = browser.find_element(By.ID, "log").text
    assert not re.search(r"\b[A2-9TJQK][cdhs]\b", log), log  # suit symbols, in words
    assert browser.find_element(By.ID, "result-text").text.startswith("Hand 1: ")
    game = browser.execute_script("return game")
    with urllib.request.urlopen(f"{server}/api/games/{game['id']}/history", timeout=30) as reply:
        assert json.loads(reply.read())["seed"] == TABLE_SEED  # the page passed the URL's seed
    if game["last_result"]["knocker"]:  # both hands laid out
        for role in ("knocker", "defender"):
            row = browser.find_element(By.ID, f"laid-{role}")
            assert row.is_displayed() and "deadwood" in row.text
    wait(
        browser,
        lambda d: (
            d.find_elements(By.ID, "review")
            or "No discard decisions" in d.find_element(By.ID, "review-panel").text
        ),
    )
    assert "Review of hand 1" in browser.find_element(By.ID, "review-panel").text
    if browser.find_elements(By.ID, "review"):  # the cost on a phone's screen, no scroll
        browser.set_window_size(PHONE, 1100)
        cost = browser.find_element(By.CSS_SELECTOR, "#review th:nth-child(2)")
        assert cost.text == "cost (points)"
        assert browser.execute_script(
            "const r = arguments[0].getBoundingClientRect(),"
            " box = arguments[0].closest('.scroll').getBoundingClientRect();"
            "return r.right <= box.right && r.right <= innerWidth;",
            cost,
        )
        browser.set_window_size(WIDTHS[0], 1100)
    assert browser.find_element(By.ID, "next-hand").is_displayed()
    screenshot(browser, shots, "table-hand-over")
    assert console_errors(browser) == []
    # the hand saved as JSON (a download) opens in the advisor
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    browser.execute_cdp_cmd(
        "Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)}
    )
    browser.find_element(By.ID, "save-hand").click()
    saved = wait(browser, lambda d: next(downloads.glob("practice-hand-1.json"), None), 30)
    history = json.loads(saved.read_text())
    assert history["kind"] == "analyzer practice hand" and history["result"]["hand"] == 1
    first = history["decisions"][0]["position"]
    browser.get(server + "/")
    wait(browser, ready)
    browser.find_element(By.ID, "history-file").send_keys(str(saved))
    wait(browser, lambda d: d.find_element(By.ID, "history-choice").is_displayed())
    options = browser.find_elements(By.CSS_SELECTOR, "#history-decision option")
    assert len(options) == len([d for d in history["decisions"] if d["position"]])
    for card in first["hand"].split():
        assert "in-hand" in browser.find_element(By.ID, f"card-{card}").get_attribute("class")
    assert browser.find_element(By.ID, "stock").get_attribute("value") == str(first["stock"])
    screenshot(browser, shots, "advisor-saved-hand")
    assert console_errors(browser) == []


def test_strategy_page_opens_with_the_written_knock_answer(server, browser, shots):
    browser.get(server + "/strategy")
    wait(browser, ready)
    answer = browser.find_element(By.ID, "answer")
    first_chart = browser.find_element(By.CSS_SELECTOR, ".chart-block")
    assert answer.is_displayed() and answer.location["y"] < first_chart.location["y"]
    title = browser.find_element(By.ID, "answer-title").text
    assert title == "When to knock · standard rules · against an opponent you know nothing about"
    assert browser.find_element(By.ID, "answer-rule").text.startswith("Knock with 10 or less")
    chart = browser.find_element(By.ID, "answer-chart").text
    assert "cards left in the stock" in chart and "play on" in chart
    assert "Worst case:" in browser.find_element(By.ID, "answer-worst").text
    Select(browser.find_element(By.ID, "answer-opponent")).select_by_value("knocks-at-once")
    wait(
        browser, lambda d: "knocks as soon as it can" in d.find_element(By.ID, "answer-title").text
    )
    # the rules the report holds no answer for are marked (the test's report: standard only,
    # which hollywood reads: its hands play the same)
    marks = wait(
        browser,
        lambda d: {
            o.get_attribute("value"): o.text
            for o in d.find_elements(By.CSS_SELECTOR, "#answer-rules option")
            if o.text != o.get_attribute("value")
        },
    )
    assert "standard" not in marks and "hollywood" not in marks
    assert marks["classic"] == "classic (not in the report)"
    assert len(marks) == len(browser.find_elements(By.CSS_SELECTOR, "#answer-rules option")) - 2
    Select(browser.find_element(By.ID, "answer-rules")).select_by_value("classic")
    missing = wait(browser, lambda d: d.find_element(By.ID, "answer-missing").text)
    assert "No written answer" in missing and "analyzer when-to-knock --rules classic" in missing
    assert not browser.find_element(By.ID, "answer-body").is_displayed()
    Select(browser.find_element(By.ID, "answer-rules")).select_by_value("standard")
    wait(browser, lambda d: d.find_element(By.ID, "answer-body").is_displayed())
    screenshot(browser, shots, "strategy-answer")
    # the discard answer below it: the rule, its principles by worth, the share
    assert browser.find_element(By.ID, "discard-rule").text.startswith("When you do not knock")
    principles = browser.find_elements(By.CSS_SELECTOR, "#discard-principles li")
    assert len(principles) == 4 and all("Worth " in item.text for item in principles)
    assert "of the champion's edge" in browser.find_element(By.ID, "discard-share").text
    Select(browser.find_element(By.ID, "discard-opponent")).select_by_value("camper")
    wait(browser, lambda d: "(camper)" in d.find_element(By.ID, "discard-title").text)
    Select(browser.find_element(By.ID, "discard-rules")).select_by_value("classic")
    missing = wait(browser, lambda d: d.find_element(By.ID, "discard-missing").text)
    assert "analyzer how-to-discard --rules classic --out results" in missing
    assert console_errors(browser) == []


def test_strategy_page_draws_the_charts_with_ci_hover(server, browser, shots, results):
    browser.get(server + "/strategy")
    wait(browser, ready)
    plots = browser.find_elements(By.CSS_SELECTOR, ".js-plotly-plot")
    assert len(plots) >= 4
    # the sweep's points per hand: the first opponent's line (after its band's two edges)
    browser.execute_script("Plotly.Fx.hover('knock-sweep-0', [{curveNumber: 2, pointNumber: 3}]);")
    hover = wait(
        browser,
        lambda d: d.execute_script(
            "const t = document.querySelector('#knock-sweep-0 .hovertext');"
            "return t && t.textContent;"
        ),
        timeout=10,
    )
    assert "95% CI" in hover and "basic" in hover
    found = browser.find_element(By.ID, "found").text
    # the folder is named as the server was given it, never by the server's absolute path
    assert found.startswith(f"Read from {results.name} ") and str(results) not in found
    # the answers in a player's words first, the knock answer first
    titles = [h.text for h in browser.find_elements(By.CSS_SELECTOR, ".chart-block h3")]
    assert titles[0] == (
        "When to knock · standard rules · against an opponent you know nothing about"
    )
    assert titles[1].startswith("How to discard") and titles[2].startswith("When to take")
    # every title and subtitle is whole text on the page (nothing cut by the chart), and
    # together they name the rules
    for block in browser.find_elements(By.CSS_SELECTOR, ".chart-block"):
        title = block.find_element(By.CSS_SELECTOR, "h3").text
        subtitle = block.find_element(By.CSS_SELECTOR, "p.muted")
        assert subtitle.is_displayed() and "rules" in (title + subtitle.text).lower()
    screenshot(browser, shots, "strategy")
    assert console_errors(browser) == []


def rummy_state(driver):
    return driver.execute_script(
        "const b = document.body.dataset; return [b.phase, b.legal, b.busy];"
    )


def rummy_click(driver, element_id):
    """Click ``element_id`` and wait for the move it makes to be answered."""
    driver.find_element(By.ID, element_id).click()
    wait(driver, lambda d: rummy_state(d)[2] == "0")


def rummy_play(driver, move):
    """Make ``move`` (its API text) by clicking as a person does: the cards, then the
    button, or the table meld a selected card is laid off onto."""
    verb, *rest = move.split()
    before = driver.find_element(By.ID, "log").text
    if verb in ("meld", "discard", "layoff"):
        for card in rest[:-1] if verb == "layoff" else rest:
            driver.find_element(By.ID, f"hand-{card}").click()
    if verb == "layoff":
        driver.find_element(By.CSS_SELECTOR, f"#meld-{rest[-1]} .card").click()
    else:
        driver.find_element(
            By.ID, {"draw": "draw", "take": "take", "meld": "meld"}.get(verb, verb)
        ).click()
    wait(driver, lambda d: rummy_state(d)[2] == "0" and d.find_element(By.ID, "log").text != before)


def test_the_rummy_table_plays_a_hand_by_clicks(server, browser, shots):
    """A game at /rummy: three players, a hint shown before each move, every move the hint
    names made by clicking cards and buttons, to the end of the hand and its review."""
    browser.get(server + "/rummy?seed=5")
    wait(browser, ready)
    Select(browser.find_element(By.ID, "players")).select_by_value("3")
    Select(browser.find_element(By.ID, "hints")).select_by_value("before")
    browser.find_element(By.ID, "new-game").click()
    wait(browser, lambda d: rummy_state(d)[:2] == ["draw", "draw|take"])
    game = browser.execute_script("return new URL(location.href).searchParams.get('game')")
    hint = wait(browser, lambda d: d.find_element(By.ID, "hint-moves").text)
    assert hint.startswith("rummy-expert would ")
    screenshot(browser, shots, "rummy")
    moves = 0
    while rummy_state(browser)[0] != "hand over":
        with urllib.request.urlopen(f"{server}/api/rummy/games/{game}/hint") as answer:
            advice = json.load(answer)
        for move in advice["moves"]:
            rummy_play(browser, move)
            moves += 1
        assert moves < 400
    log = browser.find_element(By.ID, "log").text
    assert "You drew from the stock." in log or "You took " in log
    review = wait(browser, lambda d: d.find_element(By.ID, "review").text)
    assert review.startswith("You and rummy-expert agreed on")
    assert browser.find_element(By.ID, "result-text").text.startswith("Hand 1: ")
    screenshot(browser, shots, "rummy-over")
    rummy_click(browser, "next-hand")  # no move (the page is never busy): wait for the deal

    def dealt(driver):
        text = driver.find_element(By.ID, "log").text
        return text if "Hand 2:" in text else None

    assert "Hand 2: you play in seat 2 of 3." in wait(browser, dealt)
    assert console_errors(browser) == []


#: Every page the app serves (the practice table gets a game below).
PAGES = ("/", "/table", "/rummy", "/strategy", "/guide", "/docs")
#: A phone's screen, as the browser shows a page on it (px).
PHONE_HEIGHT = 760


def start_hand(driver):
    """A new single hand at the practice table, hints off, played to the player's first
    discard (the seed's first deal gives the player a pass or a draw first)."""
    Select(driver.find_element(By.ID, "mode")).select_by_value("hand")
    Select(driver.find_element(By.ID, "hints")).select_by_value("off")
    # a game restored from an earlier test (at its first discard, when start_hand left it
    # so) shows until the new one arrives: wait for the new one
    restored = driver.execute_script("return game && game.id")
    driver.find_element(By.ID, "new-game").click()
    wait(driver, lambda d: d.execute_script("return game && game.id") not in (None, restored))
    for _ in range(6):
        # a hand in play (a new deal is never over before the player's first move)
        wait(
            driver,
            lambda d: (
                table_state(d)[0] in ("offer", "draw", "discard") and table_state(d)[2] == "0"
            ),
        )
        phase = table_state(driver)[0]
        if phase == "discard":
            return
        driver.find_element(By.ID, {"offer": "pass", "draw": "draw-stock"}[phase]).click()
        wait(driver, lambda d, p=phase: table_state(d)[0] != p or table_state(d)[2] == "0")
    pytest.fail(f"no discard in the first moves: {table_state(driver)}")


def test_every_page_fits_a_phone_and_a_desktop(server, browser):
    """Each page loaded at each width (the charts fitted at load, not after a resize): no
    sideways scroll, no overlapping labels, big enough tap targets on the phone; at the
    practice table on the phone the whole hand and every move button are on screen at
    once, without a scroll, and apart."""
    for width in WIDTHS:
        browser.set_window_size(width, PHONE_HEIGHT if width == PHONE else 1100)
        for page in PAGES:
            browser.get(server + page + (f"?seed={TABLE_SEED}" if page == "/table" else ""))
            if page != "/docs":
                wait(browser, ready)
            if page == "/table":
                start_hand(browser)
                on_screen = browser.execute_script(
                    """
                    const inside = e => { const r = e.getBoundingClientRect();
                      return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 &&
                        r.right <= innerWidth; };
                    const cards = [...document.querySelectorAll("#hand .card")];
                    const moves = [...document.querySelectorAll(".actions button")]
                      .filter(b => b.offsetParent !== null);
                    const apart = (e, f) => { const r = e.getBoundingClientRect(),
                      q = f.getBoundingClientRect(); return r.right <= q.left ||
                      q.right <= r.left || r.bottom <= q.top || q.bottom <= r.top; };
                    return [cards.length, cards.every(inside), moves.length,
                      moves.every(inside), moves.every(m => cards.every(c => apart(m, c)))];
                    """
                )
                assert on_screen == [11, True, on_screen[2], True, True], (width, on_screen)
                assert on_screen[2] >= 2  # discard and hint at least
            if page == "/strategy":
                charts = browser.find_elements(By.CSS_SELECTOR, ".js-plotly-plot")
                assert len(charts) >= 4
                # on the phone the knock chart is on its side, with its numbers
                turned = browser.execute_script(
                    "const p = document.getElementById('knock-chart-0');"
                    "return [p.layout.xaxis.title.text, p.data[0].texttemplate];"
                )
                axis = "deadwood after the discard" if width == PHONE else "own turn"
                assert turned[0].startswith(axis) and turned[1] == "%{text}", turned
            check_layout(browser, width)
            assert console_errors(browser) == [], page
    browser.set_window_size(WIDTHS[0], 1100)

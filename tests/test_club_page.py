"""The club's page in a real browser (headless Chromium through its driver): the room with
every table, live updates as a table plays (server-sent events, no reload), the other views,
a phone-sized layout, and plain messages where something is wrong — never a traceback."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from _club_fixtures import broker, club_db, free_port, need, postgres, wait_until  # noqa: F401
from _club_helpers import play, same

from tablekit.club.publish import Publisher
from tablekit.club.service import Club
from tablekit.club.web import serve
from tablekit.club.wire import parse_broker
from tablekit.journal import Journal


@pytest.fixture
def browser():  # type: ignore[no-untyped-def]
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    driver_path = need("chromedriver", "chromium-driver")
    binary = need("chromium", "chromium")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=390,844"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_page_load_timeout(20)
    driver.set_script_timeout(20)
    try:
        yield driver
    finally:
        driver.quit()


def text_of(browser, selector: str) -> str:  # type: ignore[no-untyped-def]
    """The text of the first element ``selector`` matches, read in one step in the page (the
    live page redraws its elements, so a found element may be gone when its text is asked)."""
    text = browser.execute_script(
        "const e = document.querySelector(arguments[0]); return e ? e.innerText : ''", selector)
    return str(text)


def fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_the_room_updates_live_in_a_real_browser_on_a_phone(broker, club_db, tmp_path: Path, browser):  # noqa: F811
    club = Club(parse_broker(broker.url), club_db, ["east", "west"]).start()
    server, _ = serve("127.0.0.1", free_port(), club_db, club.hub)
    base = f"http://127.0.0.1:{server.server_port}"
    paths = {t: tmp_path / f"{t}.sqlite" for t in ("east", "west")}
    for p in paths.values():
        Journal(p).close()
    pubs = [Publisher(p, t, broker.url, poll_s=0.05).start() for t, p in paths.items()]
    shots = Path(os.environ.get("CLUB_SHOTS", tmp_path))
    try:
        play(paths["east"], 41)  # a whole game at east
        gid = play(paths["west"], 42, upto=4)  # west: dealt, a few turns
        wait_until(lambda: same(club_db, "east", paths["east"]) and same(club_db, "west", paths["west"]),
                   20, "both tables stored")
        browser.get(base + "/")
        wait_until(lambda: len(browser.find_elements("css selector", ".card")) == 2, 10, "two tables")
        east = text_of(browser, '[data-table="east"]')
        assert "game over" in east and "✓" in east and "valid" in east  # winner, last ruling
        west = text_of(browser, '[data-table="west"] [data-role="turn"]')
        assert west.endswith("to play")
        browser.save_screenshot(str(shots / "club-room-phone.png"))
        version = int(browser.execute_script("return document.body.dataset.version"))
        # west plays on; the open page follows without a reload
        marker = browser.execute_script("window.__same_page = 1; return 1")
        play(paths["west"], 42, game_id=gid)
        wait_until(lambda: "game over" in text_of(browser, '[data-table="west"]'), 20,
                   "the page shows west's end live")
        assert browser.execute_script("return window.__same_page") == marker
        assert int(browser.execute_script("return document.body.dataset.version")) > version
        # nothing wider than the phone's screen
        assert browser.execute_script(
            "return document.documentElement.scrollWidth <= window.innerWidth + 1")
        # the other views
        room = json.loads(fetch(base + "/api/room")[1])
        someone = room["tables"][0]["players"][0]
        for path, words in (("/evening", "Evening of"), ("/league", "League: indian-pool-101"),
                            (f"/player/{someone}", someone), ("/game/east/1", "Score sheet"),
                            ("/table/west", "Table west")):
            browser.get(base + path)
            wait_until(lambda words=words: words in text_of(browser, "#view"), 10,
                       f"{path} shows {words!r}")
        browser.save_screenshot(str(shots / "club-game-phone.png"))
        browser.get(base + "/league")
        wait_until(lambda: "Rating" in text_of(browser, "#view"), 10, "ratings")
        browser.save_screenshot(str(shots / "club-league-phone.png"))
        # wrong addresses: plain messages, no traceback
        browser.get(base + "/player/Nobody%20Here")
        wait_until(lambda: browser.execute_script(
            "const e = document.getElementById('msg'); return !!e && e.offsetParent !== null"),
            10, "a message")
        assert "Nothing of that name" in text_of(browser, "#msg")
        for url, code in (("/api/game/east/notanumber", 404), ("/nowhere", 404),
                          ("/api/evening/not-a-day", 200)):
            status, text = fetch(base + url)
            assert status == code and "Traceback" not in text and "File \"" not in text
        # the database gone: a plain message, the page still answers
        server.readers.dsn = club_db.replace("port=", "port=1") + " connect_timeout=1"
        server.readers.close()
        status, text = fetch(base + "/api/room")
        assert status == 500 and "results are safe" in text and "Traceback" not in text
    finally:
        for pub in pubs:
            pub.stop()
        server.shutdown()
        club.stop()

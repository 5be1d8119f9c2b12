"""A player's first game of the Bridge's Game, on a phone in Italian: a guided game, where each
of the player's turns shows a hint (a move and its reason in words, the rule it rests on a
small link to the rule book) and the player follows it; the rules are one tap from the board
and open on how the game goes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import SHOTS, manage, refusals, screenshot

PASSWORD = "prima-partita-2026"
# A member with no game played yet: every game is a first game for her.
SETUP = f"""
from django.contrib.auth import get_user_model
from ledger.clubs.models import Club, Membership, Player
club = Club.objects.get(slug="circolo-pisano")
if not get_user_model().objects.filter(username="guida.elena").exists():
    user = get_user_model().objects.create_user("guida.elena", password="{PASSWORD}")
    Membership.objects.create(club=club, player=Player.objects.create(name="Elena Gualandi",
                              user=user))
"""


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(
        locale="it-IT",
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
        extra_http_headers={"Accept-Language": "it"},
    )
    context.add_init_script("localStorage.setItem('play-no-autoplay', '1')")
    page = context.new_page()
    page.set_default_timeout(20_000)
    refused = refusals(page)
    yield page
    context.close()
    assert not refused, "the page's console complained:\n" + "\n".join(refused)


def _log_in(page: Any, server: str) -> None:
    page.goto(server + "/login/")
    page.fill("#id_username", "guida.elena")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(server + "/")


def test_a_first_game_of_the_bridges_game_on_a_phone_shows_a_hint_on_each_turn(
    phone: Any, server: str, server_env: dict[str, str]
) -> None:
    manage(server_env, "shell", "-c", SETUP)
    page = phone
    _log_in(page, server)
    page.goto(server + "/play/")
    ponte = next(
        o.get_attribute("value")
        for o in page.locator("#ruleset option").all()
        if (o.get_attribute("value") or "").startswith("ponte:2p-base")
    )
    page.select_option("#ruleset", ponte)
    page.check("input[name=others][value=heuristic]")
    page.locator("#new-table button[type=submit]").tap()
    page.wait_for_selector("#board")
    expect(page.locator("#guided")).to_contain_text("La tua prima partita")

    turns = followed = with_rule = 0
    while turns < 12:
        page.wait_for_selector("#board button.play-action:not([disabled]), #game-over")
        if page.locator("#game-over").count():
            break
        before = page.locator("#board").get_attribute("data-moves")
        if page.locator("#forced").count():  # the only move (autoplay is off here): no hint
            page.locator("#board button.play-action").first.tap()
            page.wait_for_function(
                "m => document.getElementById('board')?.dataset.moves !== m", arg=before
            )
            continue
        turns += 1
        expect(page.locator("#hint")).to_contain_text("Suggerimento:")
        why = page.locator("#hint-why")
        assert why.inner_text().strip()
        if why.locator("a.rule-ref").count():
            with_rule += 1
            assert why.locator("a.rule-ref").get_attribute("href").startswith("/rules/ponte/#")
        if SHOTS and turns == 2:
            page.locator("#hint-box").scroll_into_view_if_needed()
            screenshot(page, "C-guided-ponte-phone-it.png")
        hinted = page.locator("#hint").inner_text().split(":", 1)[1].strip()
        # a choice is a button with its words, or a card of the hand titled with them
        buttons = page.locator("#board button.play-action:not([disabled])")
        labels = [(b.get_attribute("title") or b.inner_text()).strip() for b in buttons.all()]
        match = [i for i, label in enumerate(labels) if label and label == hinted]
        pick = page.locator("#pick")
        if pick.count():
            boxes = pick.locator("input[name=item]")
            for n in range(int(pick.get_attribute("data-count") or "0")):
                boxes.nth(n).check()
        if match:
            followed += 1
            buttons.nth(match[0]).tap()
        else:
            buttons.first.tap()
        page.wait_for_function(
            "m => document.getElementById('board')?.dataset.moves !== m"
            " || document.getElementById('move-error')",
            arg=before,
        )
        assert page.locator("#move-error").count() == 0
    assert turns >= 6, f"only {turns} turns of the player's own"
    assert followed >= turns // 2, f"{followed} of {turns} hints matched a button"
    assert with_rule >= turns // 2, f"{with_rule} of {turns} reasons named their rule"

    # The rules, one tap from the board, open on how the game goes.
    page.goto(server + (page.locator("#rules-link").get_attribute("href") or ""))
    expect(page.locator("#guide-title")).to_have_text("Come si gioca")
    assert page.locator("#guide h3").count() >= 4
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    if SHOTS:
        screenshot(page, "C-rules-ponte-phone-it.png")


def test_a_first_game_of_cardchess_on_a_laptop_in_english_shows_the_hint_and_its_rule(
    browser: Any, server: str, server_env: dict[str, str]
) -> None:
    manage(server_env, "shell", "-c", SETUP)
    context = browser.new_context(
        locale="en-GB", viewport={"width": 1280, "height": 800}, extra_http_headers={}
    )
    page = context.new_page()
    page.set_default_timeout(20_000)
    refused = refusals(page)
    _log_in(page, server)
    page.goto(server + "/play/")
    cardchess = next(
        o.get_attribute("value")
        for o in page.locator("#ruleset option").all()
        if (o.get_attribute("value") or "").startswith("cardchess:")
    )
    page.select_option("#ruleset", cardchess)
    page.check("input[name=others][value=heuristic]")
    with page.expect_navigation():
        page.click("#new-table button[type=submit]")
    page.wait_for_selector("#hint-why")
    expect(page.locator("#hint")).to_contain_text("Hint:")
    ref = page.locator("#hint-why a.rule-ref")
    expect(ref).to_have_count(1)
    assert (ref.get_attribute("href") or "").startswith("/rules/cardchess/#cardchess.")
    words = page.locator("#hint-why").inner_text().replace(ref.inner_text(), "").strip()
    assert len(words) > 30 and "cardchess." not in words
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    if SHOTS:
        page.locator("#hint-box").scroll_into_view_if_needed()
        screenshot(page, "C-guided-cardchess-laptop-en.png")
        page.goto(server + "/rules/cardchess/")
        screenshot(page, "C-rules-cardchess-laptop-en.png")
    context.close()
    assert not refused, "the page's console complained:\n" + "\n".join(refused)

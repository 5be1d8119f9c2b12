"""One person across a federation's clubs, on a phone in Italian (390x844): a name pasted
without its apostrophe asks "did you mean" the person of the other club, who joins this club
instead of a new player being made; then the federation's officer finds the person entered
twice as "Niccolo" and "Niccolò", reads what the merge moves, merges them, and reads the
person's page. A laptop in English reads the same pages. Set LEDGER_SHOTS to keep screenshots."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in, manage, screenshot

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}

SETUP = """
from django.contrib.auth import get_user_model
from ledger.clubs.models import Club, Competition, Membership, Player
from ledger.federation.models import Federation, MemberClub, Officer
from ledger.formats.services import enter_player

demo = get_user_model().objects.get(username="demo")
pisa = Club.objects.get(slug="circolo-pisano")
apuano = Club.objects.create(name="Circolo Apuano", slug="circolo-apuano", city="Massa")
# The demo's Niccolò of Pisa, typed in Massa without the accent before the clubs joined one
# federation; and Lucia, of Massa only.
dup = Player.objects.create(name="Niccolo Della Gherardesca")
Membership.objects.create(club=apuano, player=dup, role="organiser")
Membership.objects.create(club=apuano, player=Player.objects.create(name="Lucia Dell'Acqua"))
fed = Federation.objects.create(name="Federazione Apuo-Pisana", slug="apuo-pisana")
Officer.objects.create(federation=fed, user=demo)
for club in (pisa, apuano):
    MemberClub.objects.create(federation=fed, club=club, status="approved", applied_by=demo)
Competition.objects.create(
    club=pisa, name="Coppa delle due città", slug="due-citta", game="tarocco", format="league"
)
massa = Competition.objects.create(
    club=apuano, name="Torneo apuano", slug="torneo-apuano", game="tarocco", format="league"
)
enter_player(user=demo, competition=massa, player=dup)
"""


def _context(browser: Any, locale: str, viewport: dict[str, int]) -> Any:
    return browser.new_context(
        locale=locale,
        viewport=viewport,
        is_mobile=viewport is PHONE,
        has_touch=viewport is PHONE,
        service_workers="block",
    )


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = _context(browser, "it-IT", PHONE)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def laptop(browser: Any) -> Iterator[Any]:
    context = _context(browser, "en-GB", LAPTOP)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def _fits(page: Any, width: int) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width + 1, scroll


def _shot(page: Any, name: str) -> None:
    screenshot(page, f"D-{name}.png", full_page=True)


def test_did_you_mean_then_a_merge_on_a_phone_in_italian(
    phone: Any, laptop: Any, server: str, server_env: dict[str, str]
) -> None:
    manage(server_env, "shell", "-c", SETUP)
    page = phone
    log_in(page, server)

    # Enrolment by paste: the name without its apostrophe is Lucia of Circolo Apuano.
    page.goto(server + "/c/circolo-pisano/due-citta/enrol/")
    page.fill("#names", "lucia dellacqua")
    with page.expect_navigation():
        page.click("#enrol-pasted")
    ask = page.locator("#ask-0")
    expect(ask).to_contain_text("Intendevi Lucia Dell'Acqua (Circolo Apuano)?")
    choice = ask.get_by_label("Intendevi Lucia Dell'Acqua (Circolo Apuano)?")
    expect(choice).to_be_checked()  # the same name is chosen already
    expect(ask.get_by_label("No: lucia dellacqua è una persona nuova")).not_to_be_checked()
    _fits(page, PHONE["width"])
    _shot(page, "did-you-mean-it")
    # By the keyboard: the chosen answer has the focus, Enter confirms.
    choice.focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(page.locator("#entrants")).to_contain_text("Lucia Dell'Acqua")
    expect(page.locator("#entrants")).not_to_contain_text("lucia dellacqua")

    # The officer: from the federation's page to its people, the duplicate and its preview.
    page.goto(server + "/federations/apuo-pisana/")
    with page.expect_navigation():
        page.click("#to-people")
    pair = page.locator("#duplicates li.pair").filter(has_text="Niccolo Della Gherardesca")
    expect(pair).to_contain_text("lo stesso nome")
    pair.locator("summary").click()
    expect(pair.locator("ul.moves")).to_contain_text("Circolo Apuano · iscrizione")
    expect(pair).to_contain_text("iscritti (1)")  # the entry in the cup moves with them
    _fits(page, PHONE["width"])
    _shot(page, "duplicates-it")
    button = pair.get_by_role("button", name="Unisci")
    expect(button).to_contain_text("Niccolo Della Gherardesca")
    with page.expect_navigation():
        button.click()
    expect(page.locator(".messages")).to_contain_text("ora sono una persona sola")
    expect(page.locator("#merges")).to_contain_text(
        "Niccolo Della Gherardesca conta come Niccolò Della Gherardesca"
    )
    expect(page.locator("#duplicates")).not_to_contain_text("Niccolo Della Gherardesca")

    # The person's page: their clubs, the other name they were entered as.
    page.fill("#person-q", "niccolo")
    with page.expect_navigation():
        page.click("#find")
    with page.expect_navigation():
        page.locator("#found a").first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Niccolò Della Gherardesca")
    expect(page.locator("#also")).to_contain_text("Niccolo Della Gherardesca")
    expect(page.locator("main")).to_contain_text("Circolo Apuano, Circolo dei Giochi Pisani")
    _fits(page, PHONE["width"])
    _shot(page, "person-it")
    person_url = page.url

    # A laptop in English reads the same pages.
    log_in(laptop, server)
    laptop.goto(server + "/federations/apuo-pisana/people/")
    expect(laptop.locator("#merges")).to_contain_text(
        "Niccolo Della Gherardesca counts as Niccolò Della Gherardesca"
    )
    _fits(laptop, LAPTOP["width"])
    _shot(laptop, "people-en")
    laptop.goto(person_url)
    expect(laptop.locator("#also")).to_contain_text("Also entered as")
    _shot(laptop, "person-en")
    laptop.goto(server + "/c/circolo-pisano/due-citta/enrol/")
    laptop.fill("#names", "Niccolo della Gherardesca\nNicolo Della Gherardesca\nZeno Nuovo")
    with laptop.expect_navigation():
        laptop.click("#enrol-pasted")
    # Niccolò is a member here: known, nothing asked about him. One letter off is asked,
    # and nothing is chosen for that one: confirming without answering is refused there.
    confirm = laptop.locator("#confirm-new")
    expect(confirm).to_contain_text("Already members: Niccolò Della Gherardesca")
    close = laptop.locator("#ask-0")
    expect(close).to_contain_text("Did you mean Niccolò Della Gherardesca?")
    with laptop.expect_navigation():
        laptop.click("#confirm-enrol")
    expect(close.locator(".error")).to_have_text("Choose one.")
    expect(laptop.locator("#names")).to_have_value(
        "Niccolo della Gherardesca\nNicolo Della Gherardesca\nZeno Nuovo"
    )
    _fits(laptop, LAPTOP["width"])
    _shot(laptop, "did-you-mean-en")

    # Undo, from the phone: two people again.
    page.goto(server + "/federations/apuo-pisana/people/")
    with page.expect_navigation():
        page.locator("#merges button").first.click()
    expect(page.locator("body")).to_contain_text("sono di nuovo due persone")

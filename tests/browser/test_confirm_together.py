"""On a phone (390x844), a second scorekeeper confirms a night's waiting results together:
from the competition page to the page of waiting results, all ticked, one tap."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import log_in, manage

# A competition where a second person confirms; a scorekeeper (a login of its own, no
# player) records two hands at two tables where the demo login does not play; the demo
# login confirms them (the demo club's own rows are left alone).
SETUP = """
from django.contrib.auth import get_user_model
from ledger.clubs.results import services
from ledger.clubs.models import Club, Competition, Player
from tests.referee import planted
club = Club.objects.get(slug="circolo-pisano")
comp, _ = Competition.objects.get_or_create(
    club=club, slug="serata-conferme", defaults={"name": "Serata da confermare",
    "game": "tarocco", "confirmation": "second_person"})
keeper = get_user_model().objects.filter(username="banco").first()
if keeper is None:
    keeper = get_user_model().objects.create_user(username="banco", password="x",
                                                  is_superuser=True)
# The demo login does not play at them: nobody confirms their own table's results.
players = list(Player.objects.filter(memberships__club=club, automated=False)
               .exclude(user__username="demo")[:4])
for n, label in enumerate(["Tavolo 1", "Tavolo 2"]):
    table = services.create_table(user=keeper, competition=comp, label=label, players=players)
    services.record_result(user=keeper, table=table, source="full_record",
                           record=planted.played("tarocco", 11 + n))
print(comp.results.filter(status="pending").count())
"""


def test_a_second_scorekeeper_confirms_the_nights_results_together_on_a_phone(
    browser: Any, server: str, server_env: dict[str, str]
) -> None:
    assert manage(server_env, "shell", "-c", SETUP).split()[-1] == "2"
    context = browser.new_context(
        locale="it-IT", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        log_in(page, server)
        page.goto(server + "/c/circolo-pisano/serata-conferme/")
        link = page.locator("#to-confirm")
        expect(link).to_have_text("Conferma 2 risultati in attesa")
        with page.expect_navigation():
            link.click()
        boxes = page.locator("input[name=results]")
        expect(boxes).to_have_count(2)
        for i in range(2):
            expect(boxes.nth(i)).to_be_checked()
        button = page.locator("#confirm-selected")
        box = button.bounding_box()
        assert box is not None and box["width"] > 300 and box["height"] >= 44
        with page.expect_navigation():
            button.click()
        expect(page.locator(".messages")).to_contain_text("2 risultati confermati")
        expect(page.locator("#to-confirm")).to_have_count(0)
    finally:
        context.close()

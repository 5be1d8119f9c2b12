"""A player at the table calls the referee from the result page of a competition where
results count at once; the case appears on the referees' queue and its state on the page."""

from __future__ import annotations

import re
from typing import Any

from tests.browser.conftest import log_in, manage

# A competition without confirmation, a player with a login seated at its one table, and an
# accepted result there (the demo club's own rows are left alone).
SETUP = """
from django.contrib.auth import get_user_model
from ledger.clubs.results import services
from ledger.clubs.models import Club, Competition, Membership, Player, Result
from tests.referee import planted
club = Club.objects.get(slug="circolo-pisano")
comp, _ = Competition.objects.get_or_create(
    club=club, slug="lampo", defaults={"name": "Torneo lampo", "game": "tarocco",
    "confirmation": "none"})
user = get_user_model().objects.filter(username="bianca").first()
if user is None:
    user = get_user_model().objects.create_user(username="bianca", password="bianca-2026")
    player = Player.objects.create(name="Bianca Sercambi", user=user)
    Membership.objects.create(club=club, player=player)
player = user.player
others = list(Player.objects.filter(memberships__club=club).exclude(pk=player.pk)[:3])
demo = get_user_model().objects.get(username="demo")
table = services.create_table(user=demo, competition=comp, label="Tavolo 9",
                              players=[player, *others])
result, _ = services.record_result(user=demo, table=table, source="full_record",
                                   record=planted.played("tarocco", 7))
assert result.status == "accepted"
print(result.pk)
"""


def test_a_seated_player_contests_an_accepted_result_and_referees_see_the_case(
    page: Any, server: str, server_env: dict[str, str]
) -> None:
    result = int(manage(server_env, "shell", "-c", SETUP).split()[-1])
    url = f"{server}/c/circolo-pisano/lampo/r/{result}/"
    page.goto(server + "/login/")
    page.fill("#id_username", "bianca")
    page.fill("#id_password", "bianca-2026")
    page.click("button[type=submit]")
    page.wait_for_url(server + "/")
    page.goto(url)
    assert "Accettato" in page.locator("h1").inner_text() or page.locator("h1 .badge").count()
    page.fill("#reason", "Alla terza presa Ranieri non ha risposto a coppe")
    with page.expect_navigation():
        page.click("#contest")
    assert "in attesa della decisione" in page.locator("#case-state").inner_text()
    assert page.locator("#contest-form").count() == 0

    page.context.clear_cookies()
    log_in(page, server)
    page.goto(server + "/referee/")
    call = page.locator("#queue .queue-case", has_text="Ranieri non ha risposto")
    assert call.count() == 1
    assert "bianca" in call.inner_text()
    with page.expect_navigation():
        call.locator("a").first.click()
    assert re.search(r"/referee/case/\d+/$", page.url)
    assert "Ranieri non ha risposto" in page.locator("#case-reason").inner_text()
    assert page.locator(f"a[href$='/r/{result}/']").count() >= 1
    # From the result page the referee reaches the same case.
    page.goto(url)
    assert page.locator("[id^=to-case-]").count() == 1

"""A finished digital game's replay checks its own deal in the browser: the seal from the
revealed number by WebCrypto, the cards dealt again by the page's script, each seat's hand
beside the replay's, all agreeing (Tarocco, Er Giò, the Bridge's Game, 3D cardChess)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import log_in, manage

FINISH = """
from django.contrib.auth import get_user_model
from ledger.clubs.models import Club
from ledger.play import services
from games.core import registry
user = get_user_model().objects.get(username="demo")
club = Club.objects.get(slug="circolo-pisano")
game = "%s"
seats = ["me"] + ["heuristic"] * (registry.get(game).ruleset().seats - 1)
table = services.create_table(user=user, club=club, game=game, seats=seats)
engine = registry.get(game)
for n in range(5000):
    table.refresh_from_db()
    if table.over:
        break
    state = services.state_of(table)
    me = services.seat_of(table, user)
    if state.to_act() != me.index:
        continue
    action = engine.encode_action(state.legal_actions(me.index)[0])
    services.act(user=user, table=table, action=action, move_id=f"m{n}")
print(table.pk, table.over)
"""


@pytest.mark.parametrize("game", ["tarocco", "ergio", "ponte", "cardchess"])
def test_check_this_deal_agrees_with_the_seal_and_the_replay(
    page: Any, server: str, server_env: dict[str, str], game: str
) -> None:
    table, over = manage(server_env, "shell", "-c", FINISH % game).split()[-2:]
    assert over == "True"
    log_in(page, server)
    page.goto(f"{server}/play/{table}/replay/")
    box = page.locator("#deal-check")
    assert "Controlla questa distribuzione" in box.inner_text()
    page.click("#deal-check-run")
    page.wait_for_selector("#deal-check-verdict")
    assert page.locator("#deal-check-seal").inner_text().startswith("✓")
    assert page.locator("#deal-check-verdict").inner_text().startswith("✓")
    rows = page.locator("#deal-check-hands tbody tr")
    assert rows.count() >= 2
    compared = [r.get_attribute("data-match") for r in rows.all()]
    assert "false" not in compared
    if game != "ponte":  # the Bridge's Game deals no hand of cards to compare
        assert "true" in compared
    assert page.locator("#deal-check-verifier").get_attribute("href") == (
        f"/play/{table}/verify_deal.py"
    )

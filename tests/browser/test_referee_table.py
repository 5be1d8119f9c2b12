"""A club referee at the table: a real Tarocco hand rebuilt by tapping cards (no JSON), the
play entered with the cards each seat held, a verdict that names the card still held, and
a split ruling that moves the standings."""

from __future__ import annotations

import json
import re
from typing import Any

from games.tarocco import tabledeal
from tests.browser.conftest import log_in, manage
from tests.referee import planted

SETUP = """
from django.contrib.auth import get_user_model
from ledger.clubs.results import services
from ledger.clubs.models import Club, Competition, Membership, Player
from tests.referee import planted
club = Club.objects.get(slug="circolo-pisano")
comp, _ = Competition.objects.get_or_create(
    club=club, slug="tarocco-arbitro", defaults={"name": "Tarocco con arbitro",
    "game": "tarocco", "confirmation": "none"})
players = []
for name in ("Bianca Arrighi", "Ranieri Gualandi", "Ugo Sismondi", "Lia Upezzinghi"):
    player = Player.objects.filter(name=name).first() or Player.objects.create(name=name)
    Membership.objects.get_or_create(club=club, player=player)
    players.append(player)
demo = get_user_model().objects.get(username="demo")
table = services.create_table(user=demo, competition=comp, label="Tavolo 3", players=players)
result, _ = services.record_result(user=demo, table=table, source="full_record",
                                   record=planted.played("tarocco", 7))
print(result.pk)
"""


def _points(page: Any, server: str) -> dict[str, float]:
    page.goto(f"{server}/c/circolo-pisano/tarocco-arbitro/")
    heads = [h.strip() for h in page.locator("table.standings thead th").all_inner_texts()]
    column = len(heads) - (2 if heads[-1] == "±" else 1)  # the points, last but the trend
    out = {}
    for row in page.locator("table.standings tbody tr").all():
        name = row.locator("td a").first.inner_text().strip()
        text = row.locator("td").nth(column).inner_text().strip()
        out[name] = float(text.replace(".", "").replace(",", ".").replace("−", "-"))
    return out


def test_a_referee_rebuilds_a_tarocco_hand_by_tapping_cards_and_splits_the_score(
    page: Any, server: str, server_env: dict[str, str]
) -> None:
    result = int(manage(server_env, "shell", "-c", SETUP).split()[-1])
    record, revoke = planted.tarocco_revoke()
    dealer, placed = tabledeal.placed_from(record["deal"])
    log_in(page, server)
    before = _points(page, server)

    # From the result page to the desk, the case opens with nothing but the result.
    page.goto(f"{server}/c/circolo-pisano/tarocco-arbitro/r/{result}/")
    with page.expect_navigation():
        page.click("#examine")
    page.check("#start-cards")
    with page.expect_navigation():
        page.click("#open")
    assert re.search(r"/referee/case/\d+/cards/", page.url)
    assert page.locator(".held-card").count() == 0

    # The deal: who dealt, then each place and its cards, tapped.
    page.select_option("#dealer", str(dealer))
    for key, cards in placed.items():
        page.click(f".place-pick[data-place='{key}']")
        for code in cards:
            page.click(f".pick-card[data-code='{code}']")
    for key, cards in placed.items():
        assert page.input_value(f"input[name=place_{key}]") == ",".join(cards)
    # A card already given cannot be given again.
    page.click(".place-pick[data-place='seat0']")
    page.click(f".pick-card[data-code='{placed['seat1'][0]}']")
    assert page.locator(f"#place-seat0 .held-card[data-code='{placed['seat1'][0]}']").count() == 0
    assert "Tutte le carte" in page.inner_text("#missing")
    with page.expect_navigation():
        page.click("#save-deal")

    # The play, step by step: the choices are words; the revoke is a card still in hand.
    # Up to the end of the trick of the revoke.
    plays = [i for i, a in enumerate(record["actions"]) if "play" in a]
    end = next(i for k, i in enumerate(plays) if k % 4 == 3 and i >= revoke)
    for n, action in enumerate(record["actions"][: end + 1]):
        if "discard" in action:
            for code in action["discard"]:
                page.check(f"#card-set input[value='{code}']")
            with page.expect_navigation():
                page.click("#put-down")
            continue
        button = page.locator(f"#builder button[value='{json.dumps(action)}']")
        assert button.count() == 1, (n, action)
        label = button.inner_text()
        assert "{" not in label and "seat" not in label
        if n == revoke:
            assert "illegal" in (button.get_attribute("class") or "")
            assert label.startswith("⚠")
        with page.expect_navigation():
            button.click()

    first = page.inner_text("#first-fault")
    assert "avendo ancora" in first and "doveva rispondere" in first, first
    assert "Bianca Arrighi" in first or "Ranieri" in first or "Ugo" in first or "Lia" in first
    assert page.locator(f"#step-{revoke}.offending").is_visible()
    assert page.locator(".timeline summary", has_text="presa da").count() >= 1

    # A split ruling: the offender's side loses 12, the others keep the table's score.
    offender = record["actions"][revoke]["seat"]
    page.check("#kind-split")
    for seat in range(4):
        page.select_option(f"#split_{seat}", "table")
    page.select_option(f"#split_{offender}", "number")
    page.fill(f"#split_number_{offender}", "-12")
    page.fill("#note", "Rifiuto: non ha risposto al seme")
    with page.expect_navigation():
        page.click("#rule")
    assert page.locator("#ruling-preview tbody tr").count() >= 2
    with page.expect_navigation():
        page.click("#confirm-ruling")
    assert page.locator("#ruled").count() == 1
    after = _points(page, server)
    names = ["Bianca Arrighi", "Ranieri Gualandi", "Ugo Sismondi", "Lia Upezzinghi"]
    assert after[names[offender]] == -12 + before[names[offender]] - _table_points(
        page, server, result, offender
    )
    for seat in range(4):
        if seat != offender:
            assert after[names[seat]] == before[names[seat]]


def _table_points(page: Any, server: str, result: int, seat: int) -> float:
    page.goto(f"{server}/c/circolo-pisano/tarocco-arbitro/r/{result}/")
    cell = page.locator("#result-scores tbody tr").nth(seat).locator("td.num")
    return float(cell.inner_text().strip().replace(",", "."))

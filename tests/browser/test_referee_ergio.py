"""An Er Giò match where a card slipped under a Magistrato decided a scontro at the table:
the desk names the fault, shows each scontro's forces and the score the rules give beside
the one recorded, and the ruling by the rules moves the standings."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.browser.conftest import log_in, manage
from tests.referee import planted

SETUP = """
from django.contrib.auth import get_user_model
from ledger.clubs.results import services
from ledger.clubs.models import Club, Competition, Membership, Player
from tests.referee import planted
club = Club.objects.get(slug="circolo-pisano")
comp, _ = Competition.objects.get_or_create(
    club=club, slug="ergio-arbitro", defaults={"name": "Er Giò con arbitro",
    "game": "ergio", "confirmation": "none"})
players = []
for name in ("Gherardo Lanfreducci", "Matilde Gaetani"):
    player = Player.objects.filter(name=name).first() or Player.objects.create(name=name)
    Membership.objects.get_or_create(club=club, player=player)
    players.append(player)
demo = get_user_model().objects.get(username="demo")
table = services.create_table(user=demo, competition=comp, label="Tavolo E", players=players)
_record, _step, summary, _n = planted.ergio_reinforcement_deciding()
result, _ = services.record_result(user=demo, table=table, source="summary", record=summary)
print(result.pk)
"""


def _points(page: Any, server: str) -> dict[str, float]:
    page.goto(f"{server}/c/circolo-pisano/ergio-arbitro/")
    heads = [h.strip() for h in page.locator("table.standings thead th").all_inner_texts()]
    column = len(heads) - (2 if heads[-1] == "±" else 1)
    out = {}
    for row in page.locator("table.standings tbody tr").all():
        name = row.locator("td a").first.inner_text().strip()
        text = row.locator("td").nth(column).inner_text().strip()
        out[name] = float(text.replace(".", "").replace(",", "."))
    return out


def test_an_invalid_reinforcement_that_decided_a_scontro_gets_the_rules_score(
    page: Any, server: str, server_env: dict[str, str]
) -> None:
    result = int(manage(server_env, "shell", "-c", SETUP).split()[-1])
    record, step, _summary, number = planted.ergio_reinforcement_deciding()
    log_in(page, server)
    before = _points(page, server)
    assert before == {"Gherardo Lanfreducci": 2.0, "Matilde Gaetani": 4.0}

    page.goto(f"{server}/c/circolo-pisano/ergio-arbitro/r/{result}/")
    with page.expect_navigation():
        page.click("#examine")
    page.click("#open-case details.advanced summary")
    page.fill("#record", json.dumps(record))
    with page.expect_navigation():
        page.click("#open")
    assert re.search(r"/referee/case/\d+/$", page.url)

    first = page.inner_text("#first-fault")
    assert "Matilde Gaetani" in first and "sotto il magistrato" in first, first
    assert "{" not in first
    assert page.locator(f"#step-{step}.offending").is_visible()
    lines = page.locator("#outcome-lines li").all_inner_texts()
    assert len(lines) >= 6 and lines[number - 1].startswith(f"Scontro {number}:")
    assert "forza" in lines[number - 1]
    assert page.locator("#rules-differ").count() == 1
    rules = [
        c.strip() for c in page.locator("#rules-score tbody tr td:nth-child(2)").all_inner_texts()
    ]
    table = [
        c.strip() for c in page.locator("#rules-score tbody tr td:nth-child(3)").all_inner_texts()
    ]
    assert rules == ["3", "3"] and [float(t) for t in table] == [2.0, 4.0]

    page.check("#kind-assigned")
    page.select_option("#assigned", "rules")
    page.fill("#note", "Terzo rinforzo sotto il Magistrato: non conta")
    with page.expect_navigation():
        page.click("#rule")
    assert page.locator("#ruling-preview tbody tr").count() >= 2
    with page.expect_navigation():
        page.click("#confirm-ruling")
    assert page.locator("#ruled").count() == 1
    assert _points(page, server) == {"Gherardo Lanfreducci": 3.0, "Matilde Gaetani": 3.0}

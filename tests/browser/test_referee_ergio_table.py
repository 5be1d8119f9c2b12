"""A club referee on the Ponte: a real Er Giò match rebuilt by tapping cards (no JSON): who
won the Corteo, each side's laid Corteo and hand, the cards drawn after each scontro as the
page asks for them, then the scontri with the cards each side held; a third card slipped
under a Magistrato that decided a scontro is found, the rules' score is shown beside the
table's, and a split ruling moves the standings."""

from __future__ import annotations

import json
import re
from typing import Any

from games.ergio import tabledeal
from tests.browser.conftest import log_in, manage
from tests.referee import planted

SETUP = """
from django.contrib.auth import get_user_model
from ledger.clubs.results import services
from ledger.clubs.models import Club, Competition, Membership, Player
from tests.referee import planted
club = Club.objects.get(slug="circolo-pisano")
comp, _ = Competition.objects.get_or_create(
    club=club, slug="ergio-ponte", defaults={"name": "Er Giò sul Ponte",
    "game": "ergio", "confirmation": "none"})
players = []
for name in ("Lotteringo Sismondi", "Gaddo Upezzinghi"):
    player = Player.objects.filter(name=name).first() or Player.objects.create(name=name)
    Membership.objects.get_or_create(club=club, player=player)
    players.append(player)
demo = get_user_model().objects.get(username="demo")
table = services.create_table(user=demo, competition=comp, label="Tavolo P", players=players)
_record, _step, summary, _n = planted.ergio_reinforcement_deciding()
result, _ = services.record_result(user=demo, table=table, source="summary", record=summary)
print(result.pk)
"""
NAMES = ("Lotteringo Sismondi", "Gaddo Upezzinghi")


def _points(page: Any, server: str) -> dict[str, float]:
    page.goto(f"{server}/c/circolo-pisano/ergio-ponte/")
    heads = [h.strip() for h in page.locator("table.standings thead th").all_inner_texts()]
    column = len(heads) - (2 if heads[-1] == "±" else 1)
    out = {}
    for row in page.locator("table.standings tbody tr").all():
        name = row.locator("td a").first.inner_text().strip()
        text = row.locator("td").nth(column).inner_text().strip()
        out[name] = float(text.replace(".", "").replace(",", "."))
    return out


def test_a_referee_rebuilds_an_ergio_match_by_tapping_cards_and_the_rules_score_moves_the_standings(
    page: Any, server: str, server_env: dict[str, str]
) -> None:
    result = int(manage(server_env, "shell", "-c", SETUP).split()[-1])
    record, step, _summary, number = planted.ergio_reinforcement_deciding()
    winner, placed = tabledeal.placed_from_record(record)
    actions = tabledeal.kept_actions(record)
    bad = step - (len(record["actions"]) - len(actions))
    drawn = {side: placed.pop(f"{side}_drawn") for side in ("tramontana", "mezzogiorno")}
    log_in(page, server)
    assert _points(page, server) == {NAMES[0]: 2.0, NAMES[1]: 4.0}

    # From the result page to the desk: the case opens with nothing but the result.
    page.goto(f"{server}/c/circolo-pisano/ergio-ponte/r/{result}/")
    with page.expect_navigation():
        page.click("#examine")
    page.check("#start-cards")
    with page.expect_navigation():
        page.click("#open")
    assert re.search(r"/referee/case/\d+/cards/", page.url)
    assert page.locator(".held-card").count() == 0
    assert page.locator(".pick-card svg.card-face").count() > 100  # the digital tables' faces

    # What is missing is said: every place is still empty.
    assert "ancora vuota" in page.inner_text("#missing")
    # Who won the Corteo, then each side's Corteo and hand, card by card.
    page.select_option("#dealer", str(winner))
    for key, cards in placed.items():
        page.click(f".place-pick[data-place='{key}']")
        side = key.split("_")[0]
        # Only the cards of that side's deck are offered.
        other = page.locator(f".pack .suit:not([data-side='{side}'])")
        assert other.count() > 0 and not other.first.is_visible()
        for code in cards:
            page.click(f".pick-card[data-code='{code}']:visible")
    for key, cards in placed.items():
        assert page.input_value(f"input[name=place_{key}]") == ",".join(cards)
    # A card already laid cannot be given again; the missing line names the empty place.
    page.click(".place-pick[data-place='tramontana_hand']")
    laid = next(c for c in placed["tramontana_corteo"] if not c.startswith("T-"))
    page.click(f".pick-card[data-code='{laid}']")
    assert page.input_value("input[name=place_tramontana_hand]") == ",".join(
        placed["tramontana_hand"]
    )
    assert "Nessun posto è vuoto" in page.inner_text("#missing")
    with page.expect_navigation():
        page.click("#save-deal")
    assert re.search(r"/referee/case/\d+/", page.url)

    # The scontri: each step tapped in words (no notation), the cards drawn as asked.
    taken = {side: 0 for side in drawn}
    for n, action in enumerate(actions):
        while page.locator("#drawn-form").count():
            side = page.get_attribute("#drawn-form input[name=side]", "value")
            assert "dopo lo scontro" in page.inner_text("#to-act").lower()
            cards = drawn[side][taken[side] : taken[side] + 2]
            taken[side] += len(cards)
            for k, code in enumerate(cards):
                boxes = page.locator(f"#drawn-form input[value='{code}']")
                boxes.nth(cards[:k].count(code)).check()  # a Celatino drawn twice: two boxes
            with page.expect_navigation():
                page.click("#record-drawn" if len(cards) == 2 else "#deck-dry")
        button = page.locator(f"#builder button[value='{json.dumps(action)}']")
        assert button.count() == 1, (n, action)
        label = button.inner_text()
        assert "{" not in label and "seat" not in label and "under" not in label, label
        if n == bad:
            assert "illegal" in (button.get_attribute("class") or "")
            assert label.startswith("⚠") and "sotto il magistrato" in label
        with page.expect_navigation():
            button.click()

    # The verdict in words, each scontro's forces, the rules' score beside the table's.
    first = page.inner_text("#first-fault")
    assert NAMES[record["actions"][step]["seat"]] in first, first
    assert "sotto il magistrato" in first and "{" not in first
    lines = page.locator("#outcome-lines li").all_inner_texts()
    assert lines[number - 1].startswith(f"Scontro {number}:") and "forza" in lines[number - 1]
    assert page.locator("#rules-differ").count() == 1
    rules = [
        c.strip() for c in page.locator("#rules-score tbody tr td:nth-child(2)").all_inner_texts()
    ]
    assert rules == ["3", "3"]

    # A split ruling: each side gets the rules' score.
    page.check("#kind-split")
    for seat in range(2):
        page.select_option(f"#split_{seat}", "rules")
    page.fill("#note", "Terzo rinforzo sotto il Magistrato: lo scontro va all'altra parte")
    with page.expect_navigation():
        page.click("#rule")
    # The journal lines the ruling adds: one per seat (the standings follow below them).
    assert page.locator("#ruling-preview .scroll").first.locator("tbody tr").count() == 2
    with page.expect_navigation():
        page.click("#confirm-ruling")
    assert page.locator("#ruled").count() == 1
    assert _points(page, server) == {NAMES[0]: 3.0, NAMES[1]: 3.0}

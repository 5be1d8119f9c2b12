"""On a phone (390x844, Italian): a San Marco board game entered at the referee desk by
tapping (the set-up rolls as districts on the drawn board, the bridges, the role draw and the
distributor's cards from lists and number fields, the divide and choose), an aristocrat then
put in a district its card does not lead to, offered marked ⚠, and the desk naming the rule
it breaks; and the deal check of a finished San Marco game and of a cardChess match
with its reshuffles, each seat's items equal to the replay's."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from games.core import RandomBot, play, registry
from games.sanmarco import tabledeal
from tests.browser.conftest import log_in, manage, refusals, screenshot
from tests.browser.test_accessibility import _axe

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
NAME = "Gran premio sul tabellone"

BOARD_COMPETITION = f"""
from ledger.clubs.models import Club, Competition
club = Club.objects.get(slug="circolo-pisano")
Competition.objects.get_or_create(
    club=club, slug="sanmarco-tabellone",
    defaults={{"name": "{NAME}", "game": "sanmarco", "ruleset": "base3"}},
)
"""

FINISH = """
from django.contrib.auth import get_user_model
from ledger.clubs.models import Club
from ledger.play import services
from games.core import registry
user = get_user_model().objects.get(username="demo")
club = Club.objects.get(slug="circolo-pisano")
game, name = "%s", "%s"
engine = registry.get(game)
seats = ["me"] + ["heuristic"] * (engine.ruleset(name).seats - 1)
table = services.create_table(user=user, club=club, game=game, seats=seats, ruleset=name)
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


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(
        locale="it-IT", viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    refused = refusals(page)
    yield page
    context.close()
    assert not refused, "the page's console complained:\n" + "\n".join(refused)


def _shot(page: Any, name: str, part: str = "") -> None:
    """A screenshot for the people reviewing the pages (when the folder is there)."""
    if part:
        screenshot(page.locator(part), name)
    else:
        screenshot(page, name, full_page=True)


def _laptop(browser: Any, server: str, path: str) -> tuple[Any, Any]:
    """The same page on a laptop in English (1280x800)."""
    context = browser.new_context(locale="en-GB", viewport=LAPTOP)
    page = context.new_page()
    page.set_default_timeout(15_000)
    log_in(page, server)
    page.goto(server + path)
    return context, page


def _no_wider_than_the_phone(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1, f"the page scrolls sideways: {width}px"


def _played(seed: int) -> dict[str, Any]:
    engine = registry.get("sanmarco")
    ruleset = engine.ruleset("base3")
    state = play(engine, engine.new_game(ruleset, seed), [RandomBot(seed + i) for i in range(3)])
    found: dict[str, Any] = json.loads(json.dumps(state.to_record()))
    return found


def _answer_chance(page: Any, chance: dict[str, Any], used: dict[str, int]) -> None:
    """Fill the desk's chance form with what the table saw, by tapping and typing."""
    for field in page.locator("#chance-form [name^='chance_']").all():
        name = str(field.get_attribute("name")).removeprefix("chance_")
        kind = {"die": "dice", "roles": "roles"}.get(name) or (
            "action_cards" if name.startswith("action") else "limit_cards"
        )
        value = chance[kind][used[kind]]
        used[kind] += 1
        if kind == "roles":
            field.select_option("-".join(map(str, value)))
        elif kind == "action_cards":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    with page.expect_navigation():
        page.locator("#record-chance").tap()


def test_a_san_marco_board_case_is_entered_by_tapping_and_the_planted_fault_named(
    phone: Any, browser: Any, server: str, server_env: dict[str, str]
) -> None:
    manage(server_env, "shell", "-c", BOARD_COMPETITION)
    played = _played(0)
    chance = played["deal"]["chance"]
    fault_at = next(i for i, a in enumerate(played["actions"]) if a["do"] == "district")
    page = phone
    log_in(page, server)
    page.goto(f"{server}/referee/")
    named = re.compile(rf"· {re.escape(NAME)}$")
    value = page.locator("#competition option", has_text=named).first.get_attribute("value")
    page.select_option("#competition", value)
    page.locator("#start-cards").tap()
    with page.expect_navigation():
        page.locator("#open").tap()
    # the set-up: each colour's four rolls, tapped as districts on the drawn board
    assert page.locator("#board-map .district-spot").count() == 6
    for c in range(3):
        page.locator(f".place-pick[data-place='colour{c}']").tap()
        for face in chance["dice"][4 * c : 4 * c + 4]:
            page.locator(
                f"#board-map .district-spot[data-code='{tabledeal.DISTRICTS[face - 1]}']"
            ).tap()
    _no_wider_than_the_phone(page)
    found: dict[str, list[str]] = {}
    _axe(page, "the board's set-up, tapped", found)
    _shot(page, "B-sanmarco-setup-390-it.png")
    with page.expect_navigation():
        page.locator("#save-deal").tap()
    used = {"dice": 12, "action_cards": 0, "limit_cards": 0, "roles": 0}
    asked = 0
    for _n in range(3 * fault_at):
        if page.locator("#chance-form").count():
            if asked == 1:
                _no_wider_than_the_phone(page)
                _axe(page, "the distributor's cards asked for", found)
                _shot(page, "B-sanmarco-cards-390-it.png", "#builder")
            _answer_chance(page, chance, used)
            asked += 1
            continue
        done = page.locator("li.step:not(.chance)").count()  # the chance fell among them
        if done == fault_at:
            break
        step = json.dumps(played["actions"][done])
        button = page.locator(f"#builder button.legal-choice[value='{step}']")
        assert button.count() == 1, f"no legal step {step}"
        button.scroll_into_view_if_needed()
        with page.expect_navigation():
            button.tap()
    assert asked >= 2  # the role draw, then the distributor's cards
    # the fault: a district card's aristocrat put in a district the card does not lead to
    steps = [
        json.loads(str(b.get_attribute("value")))
        for b in page.locator("#builder button.legal-choice").all()
    ]
    ends = {s.get("to", s.get("district")) for s in steps if s.get("do") == "district"}
    wrong = next(d for d in tabledeal.DISTRICTS if d not in ends)
    seat, card = played["actions"][fault_at]["seat"], played["actions"][fault_at]["district"]
    marked = json.dumps({"seat": seat, "do": "district", "district": card, "to": wrong})
    button = page.locator(f".held-buttons button.illegal[value='{marked}']")
    assert button.count() == 1
    why = str(button.locator(".why-not").inner_text())
    rule = registry.get("sanmarco").rules.get("sanmarco.base.district_hop")
    assert rule is not None and rule.text.as_dict()["it"] in why and why.startswith("Viola:")
    button.scroll_into_view_if_needed()
    with page.expect_navigation():
        button.tap()
    offending = page.locator(f"#step-{fault_at}")
    assert "first" in (offending.get_attribute("class") or "")
    verdict = page.locator("#verdict").inner_text()
    assert rule.text.as_dict()["it"] in verdict and "sanmarco.base.district_hop" in verdict
    assert page.locator("#violations tbody tr").count() == 1  # the play goes on from it
    assert page.locator("#builder .legal-choice").count() > 0
    _no_wider_than_the_phone(page)
    _axe(page, "the verdict on the fault", found)
    assert not found, f"axe-core found serious or critical violations: {found}"
    _shot(page, "B-sanmarco-fault-390-it.png", "#verdict")
    # the same case on a laptop in English: the set-up on the board, the verdict
    case = page.url.split("/case/")[1].split("/")[0]
    context, laptop = _laptop(browser, server, f"/referee/case/{case}/cards/")
    assert "The board's set-up" in laptop.locator("h1").inner_text()
    assert laptop.locator("#board-map .district-spot").count() == 6
    _shot(laptop, "B-sanmarco-setup-1280-en.png")
    laptop.goto(f"{server}/referee/case/{case}/")
    assert "may cross one own bridge" in laptop.locator("#verdict").inner_text()
    width = laptop.evaluate("document.documentElement.scrollWidth")
    assert width <= LAPTOP["width"] + 1
    _shot(laptop, "B-sanmarco-fault-1280-en.png", "#verdict")
    context.close()


@pytest.mark.parametrize(("game", "ruleset"), [("sanmarco", "base3"), ("cardchess", "2p")])
def test_the_deal_check_of_a_finished_game_shows_each_seats_items_equal_to_the_replay(
    phone: Any, browser: Any, server: str, server_env: dict[str, str], game: str, ruleset: str
) -> None:
    table, over = manage(server_env, "shell", "-c", FINISH % (game, ruleset)).split()[-2:]
    assert over == "True"
    page = phone
    log_in(page, server)
    page.goto(f"{server}/play/{table}/replay/")
    page.locator("#deal-check-run").scroll_into_view_if_needed()
    page.locator("#deal-check-run").tap()
    page.wait_for_selector("#deal-check-verdict")
    assert page.locator("#deal-check-seal").inner_text().startswith("✓")
    assert page.locator("#deal-check-verdict").inner_text().startswith("✓")
    rows = page.locator("#deal-check-hands tbody tr").all()
    keys = [str(r.get_attribute("data-key")) for r in rows]
    assert [r.get_attribute("data-match") for r in rows] == ["true"] * len(rows), keys
    if game == "sanmarco":
        assert {f"{c}:setup" for c in range(3)} <= set(keys)
        assert {f"{c}:hand" for c in range(3)} <= set(keys)
        assert "tiri di preparazione" in page.locator("#deal-check-hands").inner_text().lower()
    else:
        assert any(k.endswith(":reshuffle") for k in keys), keys
        assert "dopo il rimescolamento" in page.locator("#deal-check-hands").inner_text().lower()
    _no_wider_than_the_phone(page)
    _shot(page, f"B-dealcheck-{game}-390-it.png", "#deal-check")
    context, laptop = _laptop(browser, server, f"/play/{table}/replay/")
    laptop.locator("#deal-check-run").click()
    laptop.wait_for_selector("#deal-check-verdict")
    assert laptop.locator("#deal-check-verdict").inner_text().startswith("✓")
    _shot(laptop, f"B-dealcheck-{game}-1280-en.png", "#deal-check")
    context.close()

"""Every game's desk on a phone (390x844, Italian): the case entered with the game's own
picker (San Marco's set-up rolls as districts on the board, Tarocco's pack, cardChess's deal
as it comes, the Bridge's Game's power sheets), the steps tapped up to a planted fault
offered marked ⚠ with the rule it breaks, and the desk naming it in words (the rule id a
small reference) and proposing scores. One screenshot per game goes to LEDGER_SHOTS
(when it is set)."""

from __future__ import annotations

import json
import re
from typing import Any

from games.core import registry
from games.sanmarco import tabledeal as sanmarco_deal
from games.tarocco import tabledeal as tarocco_deal
from tests.browser.conftest import log_in, manage, screenshot
from tests.browser.test_referee_phone import _found_at, _no_wider_than_the_phone, phone
from tests.browser.test_sanmarco_desk_phone import BOARD_COMPETITION, NAME, _played
from tests.referee import planted

__all__ = ["phone"]  # the fixture, shared


def _shot(page: Any, game: str) -> None:
    screenshot(page.locator("#verdict"), f"desk-{game}.png")


def _open_by_picker(page: Any, server: str, competition: str) -> None:
    page.goto(f"{server}/referee/")
    named = re.compile(rf"· {re.escape(competition)}$")
    value = page.locator("#competition option", has_text=named).first.get_attribute("value")
    page.select_option("#competition", value)
    page.locator("#start-cards").tap()
    with page.expect_navigation():
        page.locator("#open").tap()
    page.wait_for_url(re.compile(r"/cards/$"))


def _tap(page: Any, selector: str) -> None:
    button = page.locator(selector)
    assert button.count() == 1, selector
    button.scroll_into_view_if_needed()
    with page.expect_navigation():
        button.tap()


def _step(page: Any, action: dict[str, Any]) -> None:
    _tap(page, f"#builder button.legal-choice[value='{json.dumps(action)}']")


def _marked(page: Any, action: dict[str, Any]) -> str:
    selector = f".held-buttons button.illegal[value='{json.dumps(action)}']"
    why = str(page.locator(selector).locator(".why-not").inner_text())
    assert why.startswith("Viola:") and "⚠" in page.locator(selector).inner_text()
    _tap(page, selector)
    return why


def _named_and_scored(page: Any, game: str, rule_id: str | None = None) -> str:
    """The desk names the fault in words, the id a small reference after them, and proposes
    scores; returns the rule id."""
    refs = page.locator("#verdict .rule-ref")
    assert refs.count() >= 1
    found = str(refs.first.inner_text()).strip()
    rule_id = rule_id or found
    assert found == rule_id
    rule = registry.get(game).rules.get(rule_id)
    assert rule is not None
    words = rule.text.as_dict()["it"]
    verdict = page.locator("#verdict").inner_text()
    assert words in verdict
    assert verdict.index(words) < verdict.index(rule_id)  # the words first, then the id
    assert page.locator("#remedy-score tbody tr").count() >= 2, "no scores proposed"
    _no_wider_than_the_phone(page)
    _shot(page, game)
    return rule_id


def test_san_marco_board_set_up_tapped_and_a_bridge_off_the_board(
    phone: Any, server: str, server_env: dict[str, str]
) -> None:
    manage(server_env, "shell", "-c", BOARD_COMPETITION)
    page = phone
    log_in(page, server)
    played = _played(0)
    _open_by_picker(page, server, NAME)
    for c in range(3):
        page.locator(f".place-pick[data-place='colour{c}']").tap()
        for face in played["deal"]["chance"]["dice"][4 * c : 4 * c + 4]:
            district = sanmarco_deal.DISTRICTS[face - 1]
            page.locator(f"#board-map .district-spot[data-code='{district}']").tap()
    with page.expect_navigation():
        page.locator("#save-deal").tap()
    steps = [
        json.loads(str(b.get_attribute("value")))
        for b in page.locator("#builder button.legal-choice").all()
    ]
    sites = {frozenset(s["between"]) for s in steps}
    seat = steps[0]["seat"]
    pair = next(
        [a, b]
        for i, a in enumerate(sanmarco_deal.DISTRICTS)
        for b in sanmarco_deal.DISTRICTS[i + 1 :]
        if frozenset((a, b)) not in sites
    )
    why = _marked(page, {"seat": seat, "do": "bridge", "between": pair})
    assert "confinare" in why
    _found_at(page, 0)
    assert page.locator("#builder .legal-choice").count() > 0  # the desk goes on
    _named_and_scored(page, "sanmarco", "sanmarco.base.bridge_site")


def test_tarocco_pack_tapped_and_a_revoke(phone: Any, server: str) -> None:
    page = phone
    log_in(page, server)
    record, revoke = planted.tarocco_revoke()
    dealer, placed = tarocco_deal.placed_from(record["deal"])
    _open_by_picker(page, server, "Campionato sociale di Tarocco")
    page.select_option("#dealer", str(dealer))
    for key, cards in placed.items():
        page.locator(f".place-pick[data-place='{key}']").tap()
        for code in cards:
            page.locator(f".pick-card[data-code='{code}']").tap()
    with page.expect_navigation():
        page.locator("#save-deal").tap()
    for action in record["actions"][:revoke]:
        if "discard" in action:
            for code in action["discard"]:
                page.locator(f"#card-set input[value='{code}']").check()
            with page.expect_navigation():
                page.locator("#put-down").tap()
            continue
        _step(page, action)
    why = _marked(page, record["actions"][revoke])
    assert "seme" in why
    _found_at(page, revoke)
    _named_and_scored(page, "tarocco")


def test_cardchess_deal_tapped_as_it_came_and_a_wrong_capture(phone: Any, server: str) -> None:
    from games.cardchess import tabledeal as cardchess_deal

    page = phone
    log_in(page, server)
    record = planted.played("cardchess", 7)
    _open_by_picker(page, server, "Serate di 3D cardChess")
    asked = cardchess_deal.pending({}, None, "it")
    assert asked is not None
    deck = record["deal"]["sfide"][0]["deck"]
    for dest, code in zip(asked["order"], deck[: asked["count"]], strict=True):
        key = "table" if dest == -1 else f"seat{dest}"
        page.locator(f".place-pick[data-place='{key}']").tap()
        page.locator(f".pick-card[data-code='{code}']:visible").first.tap()
    with page.expect_navigation():
        page.locator("#save-deal").tap()
    step = next(i for i, a in enumerate(record["actions"]) if "resolve" in a)
    for action in record["actions"][:step]:
        _step(page, action)
    right = record["actions"][step]["taker"]
    wrong = 1 if right != 1 else 0
    _marked(page, {"seat": 0, "resolve": record["actions"][step]["resolve"], "taker": wrong})
    _found_at(page, step)
    _named_and_scored(page, "cardchess")


def test_the_bridges_game_sheets_typed_and_a_fight_card_played_twice(
    phone: Any, server: str
) -> None:
    from games.ponte import tabledeal as ponte_deal
    from games.ponte.model import MAGISTRATURE

    page = phone
    log_in(page, server)
    record = planted.played("ponte", 7)
    record.pop("claimed_scores", None)
    _open_by_picker(page, server, "Sfida del Ponte")
    found = ponte_deal.from_record(record)
    page.select_option("#dealer", str(found["first"]))
    if found["quarter"] is not None and page.locator("#quarter").count():
        page.select_option("#quarter", str(found["quarter"]))
    for name, power in found["powers"].items():
        field = page.locator(f"#power_{name}")
        field.scroll_into_view_if_needed()
        field.tap()
        field.fill(f"{power:,}".replace(",", "."))  # as written on the sheet: 85.000
    for side in (0, 1):
        for i, m in enumerate(MAGISTRATURE[6 * side : 6 * side + 6]):
            select = page.locator(f"#strategy{side}_{m}")
            if select.count():
                select.select_option(str(found["perms"][side][i]))
    with page.expect_navigation():
        page.locator("#save-deal").tap()
    assigns = sum(1 for a in record["actions"] if "assign" in a)
    step = 20  # the fight phase: A20000 was played at step 15
    for action in record["actions"][assigns:step]:
        _step(page, action)
    seat = record["actions"][step]["seat"]
    why = _marked(page, {"seat": seat, "fight": "A20000", "strategy": None})
    assert "carte lotta" in why
    _found_at(page, step)
    _named_and_scored(page, "ponte")


def test_ergio_corteo_and_hands_tapped_and_a_third_card_under_a_magistrato(
    phone: Any, server: str
) -> None:
    from games.ergio import tabledeal as ergio_deal

    page = phone
    log_in(page, server)
    record, step = planted.ergio_bad_reinforcement()
    winner, placed = ergio_deal.placed_from_record(record)
    actions = ergio_deal.kept_actions(record)
    bad = step - (len(record["actions"]) - len(actions))
    drawn = {side: placed.pop(f"{side}_drawn") for side in ("tramontana", "mezzogiorno")}
    _open_by_picker(page, server, "Torneo di Er Giò")
    page.select_option("#dealer", str(winner))
    for key, cards in placed.items():
        page.locator(f".place-pick[data-place='{key}']").tap()
        for code in cards:
            page.locator(f".pick-card[data-code='{code}']:visible").first.tap()
    with page.expect_navigation():
        page.locator("#save-deal").tap()
    taken = {side: 0 for side in drawn}
    for action in actions[: bad + 1]:
        while page.locator("#drawn-form").count():
            side = str(page.get_attribute("#drawn-form input[name=side]", "value"))
            cards = drawn[side][taken[side] : taken[side] + 2]
            taken[side] += len(cards)
            for k, code in enumerate(cards):
                page.locator(f"#drawn-form input[value='{code}']").nth(
                    cards[:k].count(code)
                ).check()
            with page.expect_navigation():
                page.locator("#record-drawn" if len(cards) == 2 else "#deck-dry").tap()
        if action is actions[bad]:
            break
        _step(page, action)
    button = page.locator(f"#builder button.illegal[value='{json.dumps(actions[bad])}']")
    assert button.count() == 1 and button.inner_text().startswith("⚠")
    assert "sotto il magistrato" in button.inner_text()
    button.scroll_into_view_if_needed()
    with page.expect_navigation():
        button.tap()
    _found_at(page, bad)
    _named_and_scored(page, "ergio")

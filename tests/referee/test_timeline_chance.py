"""The desk's timeline shows the chance that fell among the steps, as each game declares it
(San Marco's dice, role draws and cards drawn; cardChess's deals; Er Giò's draws; the deal of
Tarocco; the draw of the Bridge's Game), in words, where it fell; going back to it keeps the
step that drew it."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from games.core import RandomBot, play, registry, words
from ledger.clubs.models import Competition
from ledger.referee import checking, services
from tests.referee import planted

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"]


def _board_game(seed: int) -> dict[str, Any]:
    engine = registry.get("sanmarco")
    state = play(
        engine,
        engine.new_game(engine.ruleset("base3"), seed),
        [RandomBot(seed + i) for i in range(3)],
    )
    found: dict[str, Any] = json.loads(json.dumps(state.to_record()))
    return found


def _chance(verdict: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for g in verdict["timeline"] for s in g["steps"] if s.get("chance")]


def _order(verdict: dict[str, Any]) -> list[Any]:
    """The timeline's entries in order: an action's index, or ("chance", its number)."""
    return [
        ("chance", s["number"]) if s.get("chance") else s["step"]
        for g in verdict["timeline"]
        for s in g["steps"]
    ]


def test_san_marco_dice_roles_and_cards_drawn_appear_in_words_where_they_fell() -> None:
    record = _board_game(1)
    with translation.override("en"):
        verdict = checking.check("sanmarco", record, None, names=NAMES[:3], remedy=False)
    chance = _chance(verdict)
    labels = [s["label"] for s in chance]
    assert labels[0].startswith("Set-up rolls of Red (Anna): ")
    assert chance[0]["number"] == 1  # before the first step
    assert any("roles drawn: " in x or x.startswith("Roles drawn: ") for x in labels)
    assert any(re.search(r"draws: .*; limits \d", x) for x in labels)
    assert any(re.match(r"Die: [1-6]\b", x) for x in labels)
    # every die the record wrote is on the timeline
    rolls = [
        part.split(": ", 1)[1]
        for x in labels
        for part in x.split("; ")
        if part.lower().startswith(("die:", "dice:", "set-up rolls"))
    ]
    said = [int(d) for part in rolls for d in re.findall(r"\b([1-6])\b", part)]
    assert said == record["deal"]["chance"]["dice"]
    # each chance entry sits right after the step that drew it
    order = _order(verdict)
    for k, entry in enumerate(order):
        if isinstance(entry, tuple) and entry[1] > 1:
            assert order[k - 1] in (entry[1] - 2, ("chance", entry[1]))


@pytest.mark.parametrize(
    ("game", "words"),
    [
        ("cardchess", r"^Anna is dealt .*; Bruno is dealt .*; on the table "),
        ("ergio", r"^Anna is dealt "),
        ("tarocco", r"^Anna is dealt .*; Bruno is dealt "),
        ("ponte", r"^The draw: (Tramontana|Mezzogiorno) challenges first"),
    ],
)
def test_every_game_s_chance_is_on_the_timeline_in_its_own_words(game: str, words: str) -> None:
    record = planted.played(game, 3)
    seats = registry.get(game).ruleset().seats
    with translation.override("en"):
        verdict = checking.check(game, record, None, names=NAMES[:seats], remedy=False)
    chance = _chance(verdict)
    assert chance and re.match(words, chance[0]["label"]), chance[:1]
    assert chance[0]["number"] == 1
    assert verdict["timeline"][0]["name"] == "Before the first step"
    if game in ("cardchess", "ergio"):  # cards drawn during the play, after their step
        assert any(" draws " in s["label"] and s["number"] > 1 for s in chance)
    for s in chance:  # words, not the record's codes
        assert not re.search(r"\b[bg][A-Z]\d?[ld]?\b|\bT-[A-Z]+\b|\[|\{", s["label"]), s


def test_the_desk_shows_the_chance_and_goes_back_to_where_it_fell(people: Any, club: Any) -> None:
    record = _board_game(2)
    comp = Competition.objects.create(
        club=club, name="SM", slug="sm-chance", game="sanmarco", ruleset="base3"
    )
    case = services.open_case(user=people.users["referee"], competition=comp, record=record)
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    client.force_login(people.users["referee"])
    page = client.get(f"/referee/case/{case.pk}/").content.decode()
    timeline = page.split('id="timeline"')[1].split("</ul>")[0]
    assert 'id="chance-0"' in timeline and "Tiri di preparazione di Rosso" in timeline
    entry = r'<li id="chance-\d+" value="(\d+)" class="step chance">(<span[^>]*>[^<]*</span> )?'
    found = re.findall(entry + r"([^<]*)", timeline)
    drawn = next((int(n), said) for n, _mark, said in found if " pesca: " in said and int(n) > 1)
    number, said = drawn
    assert f'name="step" value="{number}"' in timeline
    client.post(f"/referee/case/{case.pk}/goto/", {"step": [str(number), ""]})
    case.refresh_from_db()
    assert len(case.record["actions"]) == number - 1  # the step that drew it is kept
    page = client.get(f"/referee/case/{case.pk}/").content.decode()
    assert said.strip() in page.split('id="timeline"')[1].split("</ul>")[0]


def test_each_cardchess_sfida_is_dealt_and_only_cards_between_deals_are_drawn() -> None:
    engine = registry.get("cardchess")
    state = play(engine, engine.new_game(engine.ruleset(), 1), [RandomBot(1), RandomBot(2)])
    record = state.to_record()
    steps = engine.chance_steps(record, "en", NAMES[:2])
    replay = engine.start(record)
    sfida = [replay.view(None)["sfida"]]  # the sfida after each number of actions
    for raw in record["actions"]:
        replay.apply_unchecked(*engine.decode_step(raw, "a"))
        sfida.append(replay.view(None)["sfida"])
    new_deals = {n for n in range(1, len(sfida)) if sfida[n] != sfida[n - 1]}
    assert len(new_deals) >= 2  # a whole game: several sfide
    for step in steps:
        dealt = step["label"].startswith("Anna is dealt") or " is dealt " in step["label"]
        assert dealt == (step["after"] == 0 or step["after"] in new_deals), step
    assert {s["after"] for s in steps if " is dealt " in s["label"]} >= new_deals
    italian = engine.chance_steps(record, "it", NAMES[:2])
    assert sum(" riceve " in s["label"] for s in italian) == len(new_deals) + 1


def test_a_card_an_er_gio_special_picks_is_said_as_taken_not_drawn() -> None:
    engine = registry.get("ergio")
    state = play(
        engine, engine.new_game(engine.ruleset("advanced"), 1), [RandomBot(7), RandomBot(8)]
    )
    record = state.to_record()
    picked = {
        n + 1: raw["card"]
        for n, raw in enumerate(record["actions"])
        if "special" in raw and "card" in raw
    }
    assert picked  # the Trombettiere, Tamburino or Luogotenente picked a card
    said = {s["after"]: s["label"] for s in engine.chance_steps(record, "en", NAMES[:2])}
    cards = words.for_game("ergio")
    assert cards is not None
    for after, code in picked.items():
        name = str(cards.card(code, "en"))
        assert f"takes {name}" in said[after], (after, said.get(after))
        assert f"draws {name}" not in said[after]

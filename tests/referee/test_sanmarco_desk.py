"""The referee desk rebuilds a San Marco board game from the table, with no JSON: the set-up
rolls tapped as districts on the drawn board, then every step from the engine's choices and
the chance that fell at the table (the role draw chosen from a list, the distributor's cards
chosen from lists and typed as numbers, a die typed) asked for when the play reaches it. A
whole game entered this way is the game played; a fault on the board is offered marked with
the rule it breaks."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from games.core import RandomBot, make_bot, play, registry
from games.sanmarco import tabledeal
from ledger.clubs.models import Competition
from ledger.referee import checking, services
from ledger.referee.models import Case

pytestmark = pytest.mark.django_db


def _played(seed: int, name: str = "base3") -> dict[str, Any]:
    engine = registry.get("sanmarco")
    ruleset = engine.ruleset(name)
    state = play(engine, engine.new_game(ruleset, seed), [RandomBot(seed + i) for i in range(3)])
    found: dict[str, Any] = json.loads(json.dumps(state.to_record()))
    return found


def _open(people: Any, club: Any, name: str = "base3") -> tuple[Case, Client]:
    comp = Competition.objects.create(
        club=club, name="San Marco", slug=f"sanmarco-{name}", game="sanmarco", ruleset=name
    )
    case = services.open_case(user=people.users["referee"], competition=comp, record={})
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people.users["referee"])
    return case, client


def _set_up(client: Client, case: Case, dice: list[int]) -> Any:
    """The set-up rolls tapped as the districts they name (house board: face i is the i-th)."""
    districts = tabledeal.DISTRICTS
    post = {"dealer": "0"}
    for c in range(3):
        post[f"place_colour{c}"] = ",".join(districts[v - 1] for v in dice[4 * c : 4 * c + 4])
    return client.post(f"/referee/case/{case.pk}/cards/", post)


def _answers(chance: dict[str, Any], asked: dict[str, Any], used: dict[str, int]) -> dict[str, str]:
    """What the table saw, as the referee answers the desk's form."""
    out: dict[str, str] = {}
    for field in asked["fields"]:
        name = field["name"]
        if name == "die":
            kind = "dice"
        elif name == "roles":
            kind = "roles"
        elif name.startswith("action"):
            kind = "action_cards"
        else:
            kind = "limit_cards"
        value = chance[kind][used[kind]]
        used[kind] += 1
        out[f"chance_{name}"] = "-".join(map(str, value)) if kind == "roles" else str(value)
    return out


def test_the_set_up_is_tapped_on_the_board_and_the_play_entered_with_its_chance_is_the_game(
    people: Any, club: Any
) -> None:
    played = _played(11)
    chance = played["deal"]["chance"]
    case, client = _open(people, club)
    page = client.get(f"/referee/case/{case.pk}/").content.decode()
    assert 'id="enter-deal"' in page and "Enter the board&#x27;s set-up" in page
    picker = client.get(f"/referee/case/{case.pk}/cards/").content.decode()
    assert 'id="board-map"' in picker and picker.count("district-spot") == 6
    assert 'data-place="colour0"' in picker and "die 6" in picker
    assert _set_up(client, case, chance["dice"]).status_code == 302
    used = {"dice": 12, "action_cards": 0, "limit_cards": 0, "roles": 0}
    asked_kinds: set[str] = set()
    for _n in range(3 * len(played["actions"])):
        case.refresh_from_db()
        build = checking.builder("sanmarco", case.record, "base3")
        if build.get("chance"):
            asked = build["chance"]
            asked_kinds.add(asked["kind"])
            assert all(f["kind"] in ("select", "number") for f in asked["fields"])
            response = client.post(
                f"/referee/case/{case.pk}/chance/", _answers(chance, asked, used)
            )
            assert response.status_code == 302, response.content.decode()[:2000]
            continue
        done = len(case.record["actions"])
        if done == len(played["actions"]) or (done >= 40 and len(asked_kinds) == 3):
            break
        step = played["actions"][done]
        assert step in [c["raw"] for c in build["choices"]]
        client.post(f"/referee/case/{case.pk}/step/", {"action": json.dumps(step)})
    case.refresh_from_db()
    done = len(case.record["actions"])
    assert case.record["actions"] == played["actions"][:done]
    said = case.record["deal"]["chance"]
    assert all(said[k] == chance[k][: len(said[k])] for k in chance)
    assert asked_kinds == {"roles", "cards", "dice"}
    assert case.verdict["violations"] == []
    # the rest of the game as the table wrote it: the same game, scored as it was played
    services.set_record(user=people.users["referee"], case=case, record=played)
    case.refresh_from_db()
    engine = registry.get("sanmarco")
    assert case.verdict["valid"] is True
    assert (
        case.verdict["outcome"]["scores"] == engine.validate(played).to_json()["outcome"]["scores"]
    )


def test_an_answer_the_table_cannot_have_seen_is_refused_at_its_field_and_kept(
    people: Any, club: Any
) -> None:
    played = _played(11)
    case, client = _open(people, club)
    _set_up(client, case, played["deal"]["chance"]["dice"])
    case.refresh_from_db()
    for step in played["actions"][:6]:  # the set-up bridges, then the first round's draw
        client.post(f"/referee/case/{case.pk}/step/", {"action": json.dumps(step)})
    page = client.get(f"/referee/case/{case.pk}/").content.decode()
    assert 'id="chance-form"' in page and "The roles drawn for the round" in page
    refused = client.post(f"/referee/case/{case.pk}/chance/", {"chance_roles": "9-9-9"})
    assert refused.status_code == 400
    assert "Choose one of the draws the rules allow." in refused.content.decode()
    roles = "-".join(map(str, played["deal"]["chance"]["roles"][0]))
    client.post(f"/referee/case/{case.pk}/chance/", {"chance_roles": roles})
    page = client.get(f"/referee/case/{case.pk}/").content.decode()
    assert "The cards" in page and 'name="chance_action0"' in page
    assert 'name="chance_limit0"' in page and 'type="number"' in page
    drawn = played["deal"]["chance"]["action_cards"][:6]  # a lone distributor: 6 + 4
    answers = {f"chance_action{i}": card for i, card in enumerate(drawn)}
    bad = client.post(f"/referee/case/{case.pk}/chance/", {**answers, "chance_limit0": "7"})
    assert bad.status_code == 400
    text = bad.content.decode()
    assert 'value="7"' in text and "A limit card is worth 1, 2 or 3" in text
    form = text.split('id="chance-form"')[1].split("</form>")[0]
    assert f'<option value="{drawn[0]}" selected>' in form  # what was chosen stays chosen


def test_an_aristocrat_put_in_a_district_its_card_does_not_lead_to_is_offered_marked(
    people: Any, club: Any
) -> None:
    engine = registry.get("sanmarco")
    played = _played(0)
    i = next(k for k, a in enumerate(played["actions"]) if a["do"] == "district")
    seat, card = played["actions"][i]["seat"], played["actions"][i]["district"]
    comp = Competition.objects.create(
        club=club, name="SM", slug="sm-fault", game="sanmarco", ruleset="base3"
    )
    record = {**played, "actions": played["actions"][:i]}
    case = services.open_case(user=people.users["referee"], competition=comp, record=record)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people.users["referee"])
    page = client.get(f"/referee/case/{case.pk}/").content.decode()
    held = page.split('class="choices-groups held-buttons"')[1].split("</form>")[0]
    legal = checking.builder("sanmarco", record, "base3")["choices"]
    ends = {
        c["raw"].get("to", c["raw"].get("district")) for c in legal if c["raw"]["do"] == "district"
    }
    wrong = next(d for d in tabledeal.DISTRICTS if d not in ends)
    step = {"seat": seat, "do": "district", "district": card, "to": wrong}
    assert json.dumps(step).replace('"', "&quot;") in held and "Breaks:" in held
    client.post(f"/referee/case/{case.pk}/step/", {"action": json.dumps(step), "as_played": "1"})
    case.refresh_from_db()
    first = case.verdict["violations"][0]
    assert first["step"] == i and first["rule"] == "sanmarco.base.district_hop"
    assert len(case.verdict["violations"]) == 1  # the play goes on from it

    # the aristocrat stands where it was put, and the desk offers the next step
    def cubes(found: dict[str, Any]) -> int:
        state = engine.start(found)
        for raw in found["actions"]:
            state.apply_unchecked(*engine.decode_step(raw, "a"))
        return int(state.view(None)["cubes"][wrong][seat])

    assert cubes(case.record) == cubes(record) + 1
    assert checking.builder("sanmarco", case.record, "base3")["error"] == ""


@pytest.mark.parametrize(
    "name", ["base3", "base4", "variant1-board", "variant2-board", "variant3-board"]
)
def test_every_board_preset_s_set_up_tapped_as_districts_is_the_board_the_dice_made(
    name: str,
) -> None:
    """Each colour's four rolls (V1's ghosts too, V2's neutral colour its six) read back as
    districts and tapped again give the same dice and the same aristocrats on the board."""
    engine = registry.get("sanmarco")
    ruleset = engine.ruleset(name)
    record = json.loads(json.dumps(engine.new_game(ruleset, 42).to_record()))
    _dealer, placed = tabledeal.placed_from_record(record)
    sizes = {p["key"]: p["size"] for p in tabledeal.places("it", None, ruleset)}
    assert {k: len(v) for k, v in placed.items()} == sizes
    deal = tabledeal.deal(-1, placed, ruleset)
    dice = deal["chance"]["dice"]
    assert dice == record["deal"]["chance"]["dice"][: len(dice)]
    tapped = engine.start({"ruleset": record["ruleset"], "deal": deal}).view(None)["cubes"]
    assert tapped == engine.start(record).view(None)["cubes"]


def _with_a_bridge_off_the_board(seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A base game whose first starting bridge is laid between two districts the board
    joins by no site, then played to its end by the heuristic bots: the step, and the whole
    game with the chance it drew (written, as a table's record has it)."""
    engine = registry.get("sanmarco")
    state = engine.new_game(engine.ruleset("base3"), seed)
    seat = state.to_act()
    sites = {frozenset(engine.encode_action(a)["between"]) for a in state.legal_actions(seat)}
    pair = next(
        [a, b]
        for i, a in enumerate(tabledeal.DISTRICTS)
        for b in tabledeal.DISTRICTS[i + 1 :]
        if frozenset((a, b)) not in sites
    )
    fault = {"seat": seat, "do": "bridge", "between": pair}
    state.apply_unchecked(*engine.decode_step(fault, "fault"))
    actions = [fault]
    bots = [make_bot(engine, "heuristic", seed + i) for i in range(3)]
    while not state.is_over():
        seat = state.to_act()
        action = bots[seat].choose(state, seat)
        state.apply_unchecked(seat, action)
        actions.append({"seat": seat, **engine.encode_action(action)})
    chance = json.loads(json.dumps(state.chance.used))
    return fault, {"ruleset": "base3", "deal": {"chance": chance}, "actions": actions}


def test_a_bridge_laid_where_the_board_has_no_site_is_recorded_marked_and_the_game_goes_on(
    people: Any, club: Any
) -> None:
    fault, table = _with_a_bridge_off_the_board(3)
    chance = table["deal"]["chance"]
    case, client = _open(people, club)
    _set_up(client, case, chance["dice"])
    page = client.get(f"/referee/case/{case.pk}/").content.decode()
    held = page.split('class="choices-groups held-buttons"')[1].split("</form>")[0]
    assert json.dumps(fault).replace('"', "&quot;") in held and "⚠" in held
    tapped = client.post(
        f"/referee/case/{case.pk}/step/", {"action": json.dumps(fault), "as_played": "1"}
    )
    assert tapped.status_code == 302
    case.refresh_from_db()
    assert case.record["actions"] == [fault]
    first = case.verdict["violations"][0]
    assert first["step"] == 0 and first["rule"] == "sanmarco.base.bridge_site"
    assert len(case.verdict["violations"]) == 1
    # scores proposed already: the game played on without the fault, the chance the table
    # has not said yet drawn from the desk's fixed seed
    assert len(case.verdict["remedy"]["scores"]) == 3
    assert case.verdict["remedy"]["played"] is None
    # the bridge stands where it was put, and the desk goes on with the next step
    build = checking.builder("sanmarco", case.record, "base3")
    assert build["error"] == "" and build["choices"]
    # the rest of the game as the table played it, each step offered by the desk and the
    # chance said when the desk asks for it
    record = case.record
    used = {"dice": 12, "action_cards": 0, "limit_cards": 0, "roles": 0}
    while True:
        build = checking.builder("sanmarco", record, "base3")
        assert build["error"] == ""
        if build.get("chance"):
            said = _answers(chance, build["chance"], used)
            values = {k.removeprefix("chance_"): v for k, v in said.items()}
            record = tabledeal.chance_apply(record, values)
            continue
        if len(record["actions"]) == len(table["actions"]):
            break
        step = table["actions"][len(record["actions"])]
        assert step in [c["raw"] for c in build["choices"]], step
        record = {**record, "actions": [*record["actions"], step]}
    assert build["over"] is True
    services.set_record(user=people.users["referee"], case=case, record=record)
    case.refresh_from_db()
    verdict = case.verdict
    assert verdict["complete"] is True
    assert [v["rule"] for v in verdict["violations"]] == ["sanmarco.base.bridge_site"]
    assert verdict["remedy"]["offenders"] == [fault["seat"]]
    assert len(verdict["remedy"]["scores"]) == 3
    # the page names the fault in words, the rule id a small reference beside them
    page = client.get(f"/referee/case/{case.pk}/").content.decode()
    violations = page.split('id="violations"')[1].split("</table>")[0]
    rule = registry.get("sanmarco").rules.get("sanmarco.base.bridge_site")
    assert rule is not None and rule.text.as_dict()["en"] in violations
    words = violations.split(rule.text.as_dict()["en"])[0]
    assert "sanmarco.base.bridge_site" not in words  # the id is not the main text
    assert 'id="remedy-score"' in page

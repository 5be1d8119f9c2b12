"""A result's full record is typed in the API's schema per game, from the game's own
declaration of its notation (``Game.record_shape()``): every record the engines write takes
it, and what a replay refuses as unreadable (a card that is no card, an action without its
seat, a kind of action the game does not have) the schema refuses too."""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonschema
import pytest
from rest_framework.test import APIClient

from games.core import RandomBot, RecordError, play, registry
from ledger.api.summaries import record_name

GAMES = registry.available()


def schema(language: str = "en") -> dict[str, Any]:
    response = APIClient().get("/api/schema/?format=json", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return dict(response.json())


@pytest.fixture(scope="module")
def english() -> dict[str, Any]:
    return schema()


def plain_json_schema(node: Any) -> Any:
    """OpenAPI 3.0's ``nullable`` as JSON Schema says it (``null`` one of the forms)."""
    if isinstance(node, list):
        return [plain_json_schema(v) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: plain_json_schema(v) for k, v in node.items() if k != "nullable"}
    if node.get("nullable"):
        return {"anyOf": [out, {"type": "null"}]}
    return out


def record_schema(raw: dict[str, Any], slug: str) -> dict[str, Any]:
    return dict(plain_json_schema(raw["components"]["schemas"][record_name(slug)]))


def played(slug: str, ruleset_name: str, seed: int) -> dict[str, Any]:
    game = registry.get(slug)
    ruleset = game.ruleset(ruleset_name)
    state = game.new_game(ruleset, seed)
    play(game, state, [RandomBot(seed * 11 + i) for i in range(ruleset.seats)])
    return dict(json.loads(json.dumps(state.to_record())))


@pytest.mark.parametrize("slug", GAMES)
def test_every_game_declares_its_records_json(slug):
    assert registry.get(slug).record_shape() is not None


@pytest.mark.parametrize(
    ("slug", "ruleset_name"),
    [(slug, name) for slug in GAMES for name in registry.get(slug).rulesets],
)
def test_every_record_the_engine_writes_takes_its_games_record_schema(english, slug, ruleset_name):
    typed = record_schema(english, slug)
    for seed in (1, 2):
        record = played(slug, ruleset_name, seed)
        assert registry.get(slug).validate(record).valid
        jsonschema.validate(record, typed)


def _first_action_with(record: dict[str, Any], kind: type) -> dict[str, Any] | None:
    for act in record["actions"]:
        for key, value in act.items():
            if key != "seat" and isinstance(value, kind) and not isinstance(value, bool):
                return dict(act)
    return None


@pytest.mark.parametrize("slug", GAMES)
def test_what_a_replay_cannot_read_the_schema_refuses_too(english, slug):
    typed = record_schema(english, slug)
    game = registry.get(slug)
    record = played(slug, game.default_ruleset, 3)

    def refused_by_both(changed: dict[str, Any]) -> None:
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(changed, typed)
        with pytest.raises(RecordError):
            game.validate(changed)

    no_seat = copy.deepcopy(record)
    no_seat["actions"][0] = {**no_seat["actions"][0], "seat": "first"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(no_seat, typed)
    unknown_kind = copy.deepcopy(record)
    unknown_kind["actions"][0] = {"seat": 0, "dance": True}
    refused_by_both(unknown_kind)
    another_game = copy.deepcopy(record)
    another_game["game"] = "briscola"
    refused_by_both(another_game)
    later_version = copy.deepcopy(record)
    later_version["version"] = 2
    refused_by_both(later_version)


def test_a_card_that_is_no_card_is_refused_by_the_schema_as_by_the_replay(english):
    typed = record_schema(english, "tarocco")
    record = played("tarocco", "dummett-mcleod", 4)
    record["deal"] = {"dealer": 3, "deck": ["XX", *record["deal"]["deck"][1:]]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(record, typed)
    with pytest.raises(RecordError):
        registry.get("tarocco").validate(record)


def test_each_kind_of_action_is_told_in_words_in_both_languages(english):
    italian = schema("it")
    for slug in GAMES:
        shape = registry.get(slug).record_shape()
        assert shape is not None
        actions = next(k for k in shape.keys if k.name == "actions").shape.items
        assert actions is not None and actions.kind == "either"
        for lang, raw in (("en", english), ("it", italian)):
            kinds = raw["components"]["schemas"][record_name(slug)]["properties"]["actions"]
            described = [form["description"] for form in kinds["items"]["anyOf"]]
            assert described == [a.label.get(lang) for a in actions.alternatives if a.label]
            for form in kinds["items"]["anyOf"]:
                assert form["properties"]["seat"]["minimum"] == 0
        assert [a.label.it for a in actions.alternatives if a.label] != [
            a.label.en for a in actions.alternatives if a.label
        ]


def test_a_results_record_is_its_games_summary_or_its_games_full_record(english):
    for slug in GAMES:
        body = english["components"]["schemas"][
            record_name(slug).removesuffix("Record") + "ResultCreateRequest"
        ]
        assert {"$ref": f"#/components/schemas/{record_name(slug)}"} in body["properties"][
            "record"
        ]["anyOf"]

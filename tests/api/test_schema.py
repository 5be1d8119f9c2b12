"""What /api/schema/ tells a program's author (docs/api.md): one JSON body per operation,
the documented filters, the error answers, stable operationIds, each game's summary typed
from the game's own declaration, and words in English or, asked for, Italian."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from rest_framework.test import APIClient

from games.core import registry
from ledger.api.summaries import component_name

LISTS_AND_FILTERS = {
    "/api/v1/players/": {"club"},
    "/api/v1/competitions/": {"club", "season"},
    "/api/v1/tables/": {"competition", "round"},
    "/api/v1/results/": {"club", "competition", "table"},
    "/api/v1/entries/": {"competition", "player", "result"},
    "/api/v1/ratings/": {"club", "player", "game"},
    "/api/v1/imports/": {"club"},
}
ERRORS = {"400", "401", "403", "404", "409", "429", "503"}


def schema(language: str | None = None) -> dict[str, Any]:
    client = APIClient()
    headers = {"HTTP_ACCEPT_LANGUAGE": language} if language else {}
    response = client.get("/api/schema/?format=json", **headers)
    assert response.status_code == 200
    return dict(response.json())


@pytest.fixture(scope="module")
def english() -> dict[str, Any]:
    return schema()


def operations(raw: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, op)
        for path, ops in raw["paths"].items()
        for method, op in ops.items()
        if method in ("get", "post", "put", "patch", "delete")
    ]


def test_every_request_body_is_json_alone_but_the_imports_file_upload(english):
    for path, method, op in operations(english):
        if "requestBody" not in op:
            continue
        kinds = list(op["requestBody"]["content"])
        wanted = ["multipart/form-data"] if path == "/api/v1/imports/" else ["application/json"]
        assert kinds == wanted, f"{method} {path}: {kinds}"


def test_every_list_documents_its_filters_and_its_pages(english):
    for path, filters in LISTS_AND_FILTERS.items():
        op = english["paths"][path]["get"]
        names = {p["name"] for p in op.get("parameters", []) if p["in"] == "query"}
        assert filters | {"limit", "offset"} <= names, f"{path}: {names}"
        assert all(p.get("description") for p in op["parameters"] if p["name"] in filters)


def test_every_operation_declares_its_errors_in_the_one_error_shape(english):
    error = english["components"]["schemas"]["ApiError"]
    assert error["required"] == ["error"]
    assert set(error["properties"]["error"]["required"]) == {"code", "message"}
    for path, method, op in operations(english):
        codes = set(op["responses"])
        assert codes >= ERRORS, f"{method} {path}: {sorted(ERRORS - codes)}"
        if "requestBody" in op and path != "/api/v1/imports/":
            assert "413" in codes, f"{method} {path}"
        for code in ERRORS:
            body = op["responses"][code]["content"]["application/json"]["schema"]
            assert body == {"$ref": "#/components/schemas/ApiError"}, f"{method} {path} {code}"
        assert "Retry-After" in op["responses"]["503"]["headers"]


def test_operation_ids_are_unique_and_named_after_the_path(english):
    ids = [op["operationId"] for _path, _method, op in operations(english)]
    assert len(ids) == len(set(ids))
    # The names a program calls; renaming one breaks every client generated before.
    assert {
        "competitions_list",
        "competitions_create",
        "competitions_standings_retrieve",
        "players_list",
        "players_create",
        "players_retrieve",
        "tables_create",
        "results_create",
        "results_list",
        "results_void_create",
        "ratings_list",
        "ratings_retrieve",
        "entries_list",
    } <= set(ids)


def test_a_rating_has_an_id(english):
    rating = english["components"]["schemas"]["Rating"]
    assert "id" in rating["required"]
    assert rating["properties"]["id"]["type"] == "integer"


def test_a_results_body_is_one_per_game_told_apart_by_game(english):
    body = english["paths"]["/api/v1/results/"]["post"]["requestBody"]["content"]
    chosen = body["application/json"]["schema"]
    assert chosen["discriminator"]["propertyName"] == "game"
    mapping = chosen["discriminator"]["mapping"]
    assert set(mapping) == set(registry.available())
    assert [one["$ref"] for one in chosen["oneOf"]] == list(mapping.values())
    for slug, ref in mapping.items():
        member = english["components"]["schemas"][ref.rsplit("/", 1)[1]]
        assert member["properties"]["game"]["enum"] == [slug]
        assert {"game", "table"} <= set(member["required"])
        kinds = member["properties"]["record"]["anyOf"]
        assert {"$ref": f"#/components/schemas/{component_name(slug)}"} in kinds


@pytest.mark.parametrize("slug", registry.available())
def test_each_games_summary_schema_takes_its_examples_and_refuses_what_it_declares_wrong(
    english, slug
):
    game = registry.get(slug)
    summary = english["components"]["schemas"][component_name(slug)]
    shape = game.summary_shape()
    assert shape is not None, f"{slug} does not declare its summary's JSON"
    assert summary["type"] == "object"
    assert set(summary["properties"]) == {k.name for k in shape.keys}
    for example in game.summary_examples:
        jsonschema.validate(dict(example), summary)
    # A required key missing is refused by the schema, as by the game.
    required = summary.get("required", [])
    assert required, f"{slug}: no key is required"
    example = dict(game.summary_examples[0])
    example.pop(required[0], None)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(example, summary)


def test_a_summarys_keys_carry_their_words_ranges_and_values(english):
    for slug in registry.available():
        summary = english["components"]["schemas"][component_name(slug)]
        shape = registry.get(slug).summary_shape()
        assert shape is not None
        for key in shape.keys:
            described = summary["properties"][key.name]
            if key.shape.label is not None:
                assert key.shape.label.en in described["description"], (slug, key.name)
            if key.shape.kind == "choice":
                assert described["enum"] == [c.value for c in key.shape.choices]
            if key.shape.kind == "integer" and key.shape.maximum is not None:
                assert described["maximum"] == key.shape.maximum


def test_the_schema_speaks_english_unless_accept_language_asks_for_italian(english, db):
    italian = schema("it")
    assert schema("en-GB,en;q=0.8") == english
    for slug in registry.available():
        shape = registry.get(slug).summary_shape()
        assert shape is not None and shape.label is not None
        name = component_name(slug)
        assert shape.label.en in english["components"]["schemas"][name]["description"]
        assert shape.label.it in italian["components"]["schemas"][name]["description"]
    scores = italian["components"]["schemas"]["VoidRequest"]["properties"]["reason"]
    assert scores["description"].startswith("Perché")
    assert english["components"]["schemas"]["VoidRequest"]["properties"]["reason"][
        "description"
    ].startswith("Why")
    club = next(
        p for p in italian["paths"]["/api/v1/players/"]["get"]["parameters"] if p["name"] == "club"
    )
    assert club["description"] == "Solo quelli di questo circolo (il suo id)."
    unauthorised = italian["paths"]["/api/v1/results/"]["post"]["responses"]["401"]
    assert unauthorised["description"].startswith("La chiave è sconosciuta")
    assert english["paths"]["/api/v1/results/"]["post"]["responses"]["401"][
        "description"
    ].startswith("The token is unknown")


def test_a_game_installed_beside_the_others_gets_its_own_body_from_the_registry(tmp_path):
    from tests.toygame.test_plays_everywhere import installed

    with installed(tmp_path) as slug:
        raw = schema()
    body = raw["paths"]["/api/v1/results/"]["post"]["requestBody"]["content"]
    mapping = body["application/json"]["schema"]["discriminator"]["mapping"]
    assert slug in mapping
    summary = raw["components"]["schemas"][component_name(slug)]
    assert summary["type"] == "object"  # a game that does not describe its summary: any object

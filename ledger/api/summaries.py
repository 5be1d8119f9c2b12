"""Each game's summary as a JSON Schema, built from what the game declares of it
(``Game.summary_shape()``, games/core/declare.py), for the API's schema: a client generated
from it knows, per game, which keys a summary has, their ranges and the values they take,
in words. The games are those of the registry; nothing here names one."""

from __future__ import annotations

from typing import Any

from games.core import registry
from games.core.declare import Shape
from games.core.text import Text


def component_name(slug: str) -> str:
    """A game's slug as a component's name: ``carta_alta`` -> ``CartaAltaSummary``."""
    words = slug.replace("-", "_").split("_")
    return "".join(w[:1].upper() + w[1:] for w in words if w) + "Summary"


def _words(text: Text | None, lang: str) -> dict[str, str]:
    return {"description": text.get(lang)} if text is not None and text.get(lang) else {}


def _choice_values(shape: Shape, lang: str) -> dict[str, Any]:
    lines = "; ".join(f"{c.value}: {c.label.get(lang)}" for c in shape.choices)
    return {"type": "string", "enum": [c.value for c in shape.choices], "x-labels": lines}


def json_schema(shape: Shape, lang: str, seats: int) -> dict[str, Any]:
    """The JSON Schema of one value ``shape`` declares, its words in ``lang``; a seat is a
    whole number from 0 to ``seats`` - 1."""
    out: dict[str, Any]
    if shape.kind == "integer":
        out = {"type": "integer"}
        if shape.minimum is not None:
            out["minimum"] = shape.minimum
        if shape.maximum is not None:
            out["maximum"] = shape.maximum
    elif shape.kind == "seat":
        out = {"type": "integer", "minimum": 0, "maximum": seats - 1}
    elif shape.kind == "choice":
        out = _choice_values(shape, lang)
    elif shape.kind == "choices":
        out = {"type": "array", "items": _choice_values(shape, lang)}
    elif shape.kind == "text":
        out = {"type": "string"}
        if shape.pattern:
            out["pattern"] = shape.pattern
    elif shape.kind == "flag":
        out = {"type": "boolean"}
    elif shape.kind == "either":
        out = {"anyOf": [json_schema(a, lang, seats) for a in shape.alternatives]}
    elif shape.kind == "object":
        out = {
            "type": "object",
            "properties": {k.name: json_schema(k.shape, lang, seats) for k in shape.keys},
        }
        required = [k.name for k in shape.keys if k.required]
        if required:
            out["required"] = required
    elif shape.kind == "list":
        out = {"type": "array"}
        if shape.items is not None:
            out["items"] = json_schema(shape.items, lang, seats)
        if shape.least:
            out["minItems"] = shape.least
        if shape.most is not None:
            out["maxItems"] = shape.most
    else:  # "any": whatever JSON the game reads
        out = {}
    if shape.kind in ("choice", "choices"):
        labels = out.pop("x-labels") if shape.kind == "choice" else out["items"].pop("x-labels")
        words = _words(shape.label, lang).get("description", "")
        out["description"] = f"{words} ({labels})" if words else labels
    else:
        out.update(_words(shape.label, lang))
    if shape.alternatives and shape.kind != "either":
        forms = [out] + [json_schema(a, lang, seats) for a in shape.alternatives]
        described = {"description": out.pop("description")} if "description" in out else {}
        out = {"anyOf": forms, **described}
    if shape.nullable:
        out["nullable"] = True
    return out


def record_name(slug: str) -> str:
    """A game's full record as a component's name: ``carta_alta`` -> ``CartaAltaRecord``."""
    return component_name(slug).removesuffix("Summary") + "Record"


def record_schemas(lang: str) -> dict[str, dict[str, Any]]:
    """Every registered game's full record schema by its slug, in ``lang``
    (``Game.record_shape()``); a game that does not describe its record gets any JSON object
    with its actions."""
    schemas: dict[str, dict[str, Any]] = {}
    for slug in registry.available():
        game = registry.get(slug)
        shape = game.record_shape()
        if shape is None:
            schemas[slug] = {
                "type": "object",
                "additionalProperties": True,
                "description": f"{game.info.name.get(lang)}: "
                + (
                    "ogni azione della partita, come la scrive la notazione del gioco."
                    if lang == "it"
                    else "every action of the game, as the game's notation writes it."
                ),
            }
        else:
            schemas[slug] = json_schema(shape, lang, max(game.info.seat_counts))
    return schemas


def summary_schemas(lang: str) -> dict[str, dict[str, Any]]:
    """Every registered game's summary schema by its slug, in ``lang``; a game that does not
    describe its summary gets any JSON object."""
    schemas: dict[str, dict[str, Any]] = {}
    for slug in registry.available():
        game = registry.get(slug)
        shape = game.summary_shape()
        seats = max(game.info.seat_counts)
        name = game.info.name.get(lang)
        if shape is None:
            schema: dict[str, Any] = {
                "type": "object",
                "additionalProperties": True,
                "description": f"{name}: any JSON object the game reads.",
            }
        else:
            schema = json_schema(shape, lang, seats)
            schema["description"] = f"{name}: {schema.get('description', '')}".rstrip(": ")
        schemas[slug] = schema
    return schemas

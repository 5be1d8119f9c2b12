"""The San Marco summary form (docs/notation/sanmarco.md): the points of each colour, as the
competition's two-player variant writes them (1 ghosts, 2 a neutral colour and the passages,
3 two colours each)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.declare import (
    RULESET,
    Choice,
    Field,
    Group,
    Key,
    Note,
    Rows,
    Shape,
    SummaryForm,
    Together,
    Values,
)
from games.core.text import Text
from games.sanmarco.scoring import PASSAGES
from games.sanmarco.words import COLOURS


def _label(colour: str) -> Text:
    """``{name}: <colour>``, the colour in the reader's language (a club's own colour names
    stay as they were written)."""
    it, en = COLOURS.get(colour, (colour, colour))
    return Text(f"{{name}}: {it}", f"{{name}}: {en}")


def summary_form(variant: int, colours: tuple[Choice, ...], seats: int) -> SummaryForm:
    """``colours``: the game's declared colours under the ruleset, each with its seat."""
    own = [[c.value for c in colours if c.seat == seat] for seat in range(seats)]
    fields: list[Field] = []
    for i in range(seats):
        if variant == 3:
            fields += [
                Field(
                    f"p{i}_{c}",
                    _label(colour),
                    seat=i,
                    required=True,
                )
                for c, colour in enumerate(own[i])
            ]
        else:
            colour = own[i][0]
            fields.append(
                Field(
                    f"p{i}",
                    _label(colour),
                    seat=i,
                    required=True,
                )
            )
    together: list[Together] = []
    if variant == 1:
        for i in range(seats):
            ghost = own[i][1].removeprefix("fantasma ")
            ghost_it, ghost_en = COLOURS.get(ghost, (ghost, ghost))
            fields.append(
                Field(
                    f"ghost{i}",
                    Text(
                        f"Colore fantasma letto da {{name}}: {ghost_it}",
                        f"Ghost colour read out by {{name}}: {ghost_en}",
                    ),
                    seat=i,
                )
            )
        together.append(
            Together(
                tuple(f"ghost{i}" for i in range(seats)),
                Text(
                    "Indica entrambi i colori fantasma, o nessuno.",
                    "Give both ghost colours, or neither.",
                ),
            )
        )
    parts: list[Any] = [
        Note(
            Text(
                f"Variante {variant}: i punti prestigio di ogni colore.",
                f"Variant {variant}: the prestige points of each colour.",
            )
        )
    ]
    if variant == 2:
        fields.append(
            Field("neutral", Text("Colore neutro (facoltativo)", "Neutral colour (optional)"))
        )
    parts.append(Group(tuple(fields), css="cells"))
    if variant == 2:
        limits = [
            Field(
                f"limit_{i}",
                Text("Punti limite: {name}", "Limit points: {name}"),
                seat=i,
                required=True,
            )
            for i in range(seats)
        ]
        bonuses = [
            Field(f"bonus_{i}", Text("Bonus scritto: {name}", "Bonus written: {name}"), seat=i)
            for i in range(seats)
        ]
        passages = Rows(
            "passage",
            Text("Passaggio {n}", "Passage {n}"),
            (Group((*limits, *bonuses), css="cells"),),
            count=PASSAGES,
            most=PASSAGES,
            css="passage",
            together=(
                Together(
                    tuple(f.name for f in bonuses),
                    Text("Indica entrambi i bonus, o nessuno.", "Give both bonuses, or neither."),
                ),
            ),
        )
        parts.append(
            Group(
                (passages,),
                "details",
                Text(
                    "Passaggi (facoltativi): i punti limite alla chiusura di ogni passaggio",
                    "Passages (optional): limit points when each passage closed",
                ),
                css="passages",
            )
        )

    def build(values: Values) -> dict[str, Any]:
        summary: dict[str, Any] = {"variant": variant}
        if variant == 3:
            summary["points"] = [
                [values[f"p{i}_{c}"] for c in range(len(own[i]))] for i in range(seats)
            ]
            return summary
        summary["points"] = [values[f"p{i}"] for i in range(seats)]
        if variant == 1:
            if values["ghost0"] is not None:
                summary["ghosts"] = [values[f"ghost{i}"] for i in range(seats)]
            return summary
        if values["neutral"] is not None:
            summary["neutral"] = values["neutral"]
        passages = []
        for row in values["passage"]:
            passage: dict[str, Any] = {"limits": [row[f"limit_{i}"] for i in range(seats)]}
            if row["bonus_0"] is not None:
                passage["bonus"] = [row[f"bonus_{i}"] for i in range(seats)]
            passages.append(passage)
        if passages:
            summary["passages"] = passages
        return summary

    def read(summary: Mapping[str, Any]) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for i, value in enumerate(summary.get("points") or []):
            if isinstance(value, list):
                for c, points in enumerate(value):
                    values[f"p{i}_{c}"] = points
            else:
                values[f"p{i}"] = value
        for i, ghost in enumerate(summary.get("ghosts") or []):
            values[f"ghost{i}"] = ghost
        if variant == 2:
            values["neutral"] = summary.get("neutral")
            rows = []
            for passage in summary.get("passages") or []:
                row = {f"limit_{i}": v for i, v in enumerate(passage.get("limits") or [])}
                row.update({f"bonus_{i}": v for i, v in enumerate(passage.get("bonus") or [])})
                rows.append(row)
            values["passage"] = rows
        return values

    return SummaryForm(tuple(parts), build, read, together=tuple(together))


# --- the summary as JSON (the API's schema): every variant's, and the base game's

_POINTS = Shape("integer", Text("Punti", "Points"), minimum=0, maximum=200)
_PAIR = Shape("list", items=_POINTS, least=2, most=2)
SHAPE = Shape(
    "object",
    Text("Il riepilogo di una partita", "The summary of one game"),
    keys=(
        Key(
            "variant",
            Shape(
                "integer",
                Text(
                    "Variante per due (1, 2 o 3); la decide il regolamento della competizione",
                    "Two-player variant (1, 2 or 3); the competition's ruleset decides it",
                ),
                minimum=1,
                maximum=3,
            ),
        ),
        Key(
            "players",
            Shape("integer", Text("Giocatori (gioco base)", "Players (base game)"), minimum=2),
        ),
        Key(
            "points",
            Shape(
                "list",
                Text(
                    "I punti per giocatore: un numero ciascuno, o i due colori nella variante 3",
                    "Points per player: one number each, or the two colours in variant 3",
                ),
                items=Shape("integer", minimum=0, maximum=200, alternatives=(_PAIR,)),
                least=2,
                per_seat=True,
            ),
            required=True,
        ),
        Key(
            "ghosts",
            Shape(
                "list",
                Text("Variante 1: i colori fantasma", "Variant 1: the ghost colours"),
                items=_POINTS,
            ),
        ),
        Key(
            "neutral",
            Shape(
                "integer",
                Text("Variante 2: il colore neutro", "Variant 2: the neutral colour"),
                minimum=0,
                maximum=200,
            ),
        ),
        Key(
            "passages",
            Shape(
                "list",
                Text("Variante 2: i passaggi", "Variant 2: the passages"),
                items=Shape(
                    "object",
                    keys=(
                        Key(
                            "limits",
                            Shape(
                                "list", Text("Limiti", "Limits"), items=Shape("integer", minimum=0)
                            ),
                            required=True,
                        ),
                        Key(
                            "bonus",
                            Shape(
                                "list", Text("Premi", "Bonus"), items=Shape("integer", minimum=0)
                            ),
                        ),
                    ),
                ),
                most=PASSAGES,
            ),
        ),
        Key(
            "final",
            Shape(
                "list",
                Text("Variante 3: i due finali", "Variant 3: the two finals"),
                items=Shape("integer"),
            ),
        ),
        Key(
            "winner",
            Shape(
                "integer",
                Text(
                    "Variante 3: chi vince (0 o 1, null se pari)",
                    "Variant 3: who wins (0 or 1, null at a tie)",
                ),
                minimum=0,
                maximum=1,
                nullable=True,
            ),
        ),
        Key("ruleset", RULESET),
    ),
)

"""The Er Giò summary form (docs/notation/ergio.md): who won the Corteo Storico, then each
scontro fought (its challenger and, for each side, the magistratura, its force and the figures
laid; the force of the laid cards too when the ruleset's Bella Nazionale sums them)."""

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
    Values,
)
from games.core.text import Text
from games.ergio import cards as C
from games.ergio.ruleset import ErGioRuleset
from games.ergio.scoring import SCONTRI

SIDE_NAMES = ("Tramontana", "Mezzogiorno")
SIDES = tuple(
    Choice(slug, Text(name, name), side=i)
    for i, (slug, name) in enumerate(zip(C.SIDES, SIDE_NAMES, strict=True))
)
# The figures keep their Italian names in both languages, as the game's own terms.
FIGURES = tuple(
    Choice(slug, Text(name, name))
    for slug, name in (
        ("magistrato", "Magistrato"),
        ("capitano", "Capitano"),
        ("caposchiera", "Caposchiera"),
    )
)
PREFIXES = ("t", "m")


def magistrature(side: int) -> tuple[Choice, ...]:
    return tuple(
        Choice(slug, Text(label, label), side=i // 6)
        for i, (slug, label, _code) in enumerate(C.MAGISTRATURE)
        if i // 6 == side
    )


def _side(side: int, laid: bool) -> Group:
    p = PREFIXES[side]
    fields: list[Field] = [
        Field(
            f"{p}_mag",
            Text("Magistratura", "Magistratura"),
            "choice",
            required=True,
            choices=magistrature(side),
            side=side,
        ),
        Field(f"{p}_force", Text("Forza", "Force"), required=True, side=side),
        Field(
            f"{p}_figures",
            Text("Figure calate", "Figures laid"),
            "choices",
            choices=FIGURES,
            side=side,
        ),
    ]
    if laid:
        # Only a Bella Nazionale that sums the laid cards needs them.
        fields.append(
            Field(
                f"{p}_laid_force",
                Text("Forza delle carte calate", "Force of the laid cards"),
                side=side,
            )
        )
    name = SIDE_NAMES[side]
    return Group(tuple(fields), "fieldset", Text(name, name), css=f"side {C.SIDES[side]}")


def summary_form(ruleset: ErGioRuleset) -> SummaryForm:
    laid = ruleset.bella_sums == "laid"
    seats = range(ruleset.seats)
    scontri = Rows(
        "scontro",
        Text("Scontro {n}", "Scontro {n}"),
        (
            Field(
                "challenger", Text("Sfidante", "Challenger"), "choice", required=True, choices=SIDES
            ),
            Group((_side(0, laid), _side(1, laid)), css="sides"),
        ),
        count=SCONTRI,
        most=SCONTRI,
        least=1,
        least_message=Text("Scrivi almeno il primo scontro.", "Write at least the first scontro."),
        first=1,  # the engine numbers its scontri from 1
        css="scontro",
    )
    parts = (
        Field(
            "corteo_winner",
            Text("Corteo Storico vinto da", "Corteo Storico won by"),
            "choice",
            required=True,
            choices=SIDES,
            help=Text("Quella parte sfida per prima.", "That side challenges first."),
        ),
        Note(
            Text(
                "Tramontana: {seats0} · Mezzogiorno: {seats1}",
                "Tramontana: {seats0} · Mezzogiorno: {seats1}",
            ),
            css="sides-who",
            seat_lists=tuple(tuple(s for s in seats if s % 2 == side) for side in (0, 1)),
        ),
        scontri,
        Note(
            Text(
                "Lascia vuoti gli scontri non combattuti. Sul tre pari dopo sei scontri, la "
                "Bella Nazionale si ricava da quanto hai scritto.",
                "Leave the scontri not fought blank. At three all after six, the Bella "
                "Nazionale is worked out from what you wrote.",
            )
        ),
    )
    return SummaryForm(parts, build, read)


def build(values: Values) -> dict[str, Any]:
    scontri = []
    for row in values["scontro"]:
        sides: dict[str, Any] = {}
        for prefix, side in zip(PREFIXES, C.SIDES, strict=True):
            facts: dict[str, Any] = {
                "magistratura": row[f"{prefix}_mag"],
                "force": row[f"{prefix}_force"],
                "figures": list(row[f"{prefix}_figures"] or []),
            }
            if row.get(f"{prefix}_laid_force") is not None:
                facts["laid_force"] = row[f"{prefix}_laid_force"]
            sides[side] = facts
        scontri.append({"challenger": row["challenger"], **sides})
    return {"corteo_winner": values["corteo_winner"], "scontri": scontri}


def read(summary: Mapping[str, Any]) -> dict[str, Any]:
    rows = []
    for scontro in summary.get("scontri") or []:
        row: dict[str, Any] = {"challenger": scontro.get("challenger")}
        for prefix, side in zip(PREFIXES, C.SIDES, strict=True):
            facts = scontro.get(side) or {}
            row[f"{prefix}_mag"] = facts.get("magistratura")
            row[f"{prefix}_force"] = facts.get("force")
            row[f"{prefix}_figures"] = list(facts.get("figures") or [])
            row[f"{prefix}_laid_force"] = facts.get("laid_force")
        rows.append(row)
    return {"corteo_winner": summary.get("corteo_winner"), "scontro": rows}


# --- the summary as JSON (the API's schema): what build() writes, and the cards instead of
# the force (docs/notation/ergio.md)

_CARDS = Text("Carte (codici, come SAT-CAP)", "Cards (codes, like SAT-CAP)")


def _side_shape(side: int) -> Shape:
    name = SIDE_NAMES[side]
    cards = Shape("list", _CARDS, items=Shape("text"))
    return Shape(
        "object",
        Text(
            f"{name}: la magistratura, la forza e le figure",
            f"{name}: magistratura, force, figures",
        ),
        keys=(
            Key(
                "magistratura",
                Shape("choice", Text("Magistratura", "Magistratura"), choices=magistrature(side)),
                required=True,
            ),
            Key(
                "force",
                Shape("integer", Text("Forza dello scontro", "Force in the scontro"), minimum=0),
            ),
            Key(
                "figures", Shape("choices", Text("Figure calate", "Figures laid"), choices=FIGURES)
            ),
            Key(
                "laid_force",
                Shape(
                    "integer",
                    Text("Forza delle carte calate", "Force of the laid cards"),
                    minimum=0,
                ),
            ),
            Key("laid", cards),
            Key("magistrato", cards),
            Key("caposchiera", cards),
            Key("spot", cards),
        ),
    )


SHAPE = Shape(
    "object",
    Text("Il riepilogo di una partita", "The summary of one game"),
    keys=(
        Key(
            "corteo_winner",
            Shape(
                "choice", Text("Corteo Storico vinto da", "Corteo Storico won by"), choices=SIDES
            ),
            required=True,
        ),
        Key(
            "scontri",
            Shape(
                "list",
                Text("Gli scontri combattuti, in ordine", "The scontri fought, in order"),
                items=Shape(
                    "object",
                    keys=(
                        Key(
                            "challenger",
                            Shape("choice", Text("Sfidante", "Challenger"), choices=SIDES),
                            required=True,
                        ),
                        Key(C.SIDES[0], _side_shape(0), required=True),
                        Key(C.SIDES[1], _side_shape(1), required=True),
                    ),
                ),
                least=1,
                most=SCONTRI,
            ),
            required=True,
        ),
        Key("ruleset", RULESET),
    ),
)

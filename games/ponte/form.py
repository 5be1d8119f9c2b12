"""The Bridge's Game summary form (docs/notation/ponte.md): each challenge (the two
magistrature, who won, the power left), the tie breaker at three all, and the power sheets
if the scorekeeper has them."""

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
from games.ponte.model import SIDES, PonteRuleset

SIDE_NAMES = ("Tramontana", "Mezzogiorno")
WINNERS = tuple(
    Choice(s, Text(n, n), side=i) for i, (s, n) in enumerate(zip(SIDES, SIDE_NAMES, strict=True))
)
TIE = ("tb_tramontana", "tb_mezzogiorno", "tb_winner")


def summary_form(ruleset: PonteRuleset, magistrature: tuple[Choice, ...]) -> SummaryForm:
    """``magistrature``: the game's declared choices under this ruleset (each with its seat)."""
    owners = ruleset.seats > 2  # each magistratura then names the player commanding it

    def pick(name: str, side: int, required: bool = True) -> Field:
        label = SIDE_NAMES[side]
        return Field(
            name,
            Text(label, label),
            "choice",
            required=required,
            choices=tuple(c for c in magistrature if c.side == side),
            side=side,
            choices_name_seats=owners,
        )

    challenge = Rows(
        "challenge",
        Text("Sfida {n}", "Challenge {n}"),
        (
            Group(
                (
                    pick("tramontana", 0),
                    pick("mezzogiorno", 1),
                    Field("winner", Text("Vinta da", "Won by"), "choice", True, WINNERS),
                    Field(
                        "left_t",
                        Text("Potenza rimasta, Tramontana", "Power left, Tramontana"),
                        any_step=True,
                        side=0,
                    ),
                    Field(
                        "left_m",
                        Text("Potenza rimasta, Mezzogiorno", "Power left, Mezzogiorno"),
                        any_step=True,
                        side=1,
                    ),
                ),
                css="cells",
            ),
        ),
        count=ruleset.challenges,
        most=ruleset.challenges,
        least=1,
        least_message=Text("Scrivi almeno la prima sfida.", "Write at least the first challenge."),
        css="challenge",
    )
    chip = ruleset.chip
    tie = Group(
        (
            Group(
                (
                    pick("tb_tramontana", 0, required=False),
                    pick("tb_mezzogiorno", 1, required=False),
                    Field(
                        "tb_winner",
                        Text("Spareggio vinto da", "Tie breaker won by"),
                        "choice",
                        choices=WINNERS,
                    ),
                ),
                css="cells",
            ),
        ),
        "fieldset",
        Text("Spareggio (solo sul tre pari)", "Tie breaker (only at three all)"),
        css="row tie-breaker",
        id="tie-breaker",
    )
    # The power sheet (optional): checked against the mode's rules and the power left.
    sheet = Group(
        (
            Group(
                tuple(
                    Field(f"power_{c.value}", c.label, any_step=True, side=c.side, seat=c.seat)
                    for c in magistrature
                ),
                css="cells",
            ),
        ),
        "details",
        Text(
            "Schede della potenza (facoltative): la potenza assegnata a ogni magistratura",
            "Power sheets (optional): the power given to each magistratura",
        ),
        css="sheet",
    )
    note = Note(
        Text(
            f"La potenza rimasta va nella cassetta di riserva: un multiplo di {chip}, vuoto se "
            "nulla.",
            f"Power left goes to the back-up box: a multiple of {chip}, blank for none.",
        )
    )
    return SummaryForm(
        (challenge, note, tie, sheet),
        build,
        read,
        together=(
            Together(
                TIE,
                Text("Serve per lo spareggio.", "Needed for the tie breaker."),
                Text(
                    "Indica le due magistrature dello spareggio e chi l'ha vinto.",
                    "Give both magistrature of the tie breaker and its winner.",
                ),
            ),
        ),
        focus="challenge.tramontana",
    )


def build(values: Values) -> dict[str, Any]:
    challenges = [
        {
            "tramontana": row["tramontana"],
            "mezzogiorno": row["mezzogiorno"],
            "winner": row["winner"],
            "left": [row["left_t"] or 0, row["left_m"] or 0],
        }
        for row in values["challenge"]
    ]
    summary: dict[str, Any] = {"challenges": challenges}
    if values["tb_winner"]:
        summary["tie_breaker"] = {
            "tramontana": values["tb_tramontana"],
            "mezzogiorno": values["tb_mezzogiorno"],
            "winner": values["tb_winner"],
        }
    sheet = {
        name.removeprefix("power_"): value
        for name, value in values.items()
        if name.startswith("power_") and value is not None
    }
    if sheet:
        summary["assignments"] = sheet
    return summary


def read(summary: Mapping[str, Any]) -> dict[str, Any]:
    rows = []
    for challenge in summary.get("challenges") or []:
        left = challenge.get("left") or [None, None]
        rows.append(
            {
                "tramontana": challenge.get("tramontana"),
                "mezzogiorno": challenge.get("mezzogiorno"),
                "winner": challenge.get("winner"),
                "left_t": left[0],
                "left_m": left[1],
            }
        )
    values: dict[str, Any] = {"challenge": rows}
    tie = summary.get("tie_breaker") or {}
    for side in SIDES:
        values[f"tb_{side}"] = tie.get(side)
    values["tb_winner"] = tie.get("winner")
    for value, power in (summary.get("assignments") or {}).items():
        values[f"power_{value}"] = power
    return values


def summary_shape(magistrature: tuple[Choice, ...]) -> Shape:
    """The summary's JSON (the API's schema): what build() writes; ``magistrature``: the
    game's declared twelve, each with its side."""

    def pick(side: int) -> Shape:
        label = SIDE_NAMES[side]
        mine = tuple(c for c in magistrature if c.side == side)
        return Shape("choice", Text(label, label), choices=mine)

    winner = Shape("choice", Text("Vinta da", "Won by"), choices=WINNERS)
    meeting = (
        Key("tramontana", pick(0), required=True),
        Key("mezzogiorno", pick(1), required=True),
        Key("winner", winner, required=True),
    )
    left = Shape(
        "list",
        Text(
            "Potenza rimasta a fine sfida: prima Tramontana, poi Mezzogiorno (facoltativa)",
            "Power left at the end of the challenge: Tramontana's first, then Mezzogiorno's "
            "(optional)",
        ),
        items=Shape("integer", minimum=0),
        least=2,
        most=2,
    )
    return Shape(
        "object",
        Text("Il riepilogo di una partita", "The summary of one game"),
        keys=(
            Key(
                "challenges",
                Shape(
                    "list",
                    Text("Le sfide, in ordine", "The challenges, in order"),
                    items=Shape("object", keys=(*meeting, Key("left", left))),
                    least=1,
                    most=6,
                ),
                required=True,
            ),
            Key(
                "tie_breaker",
                Shape(
                    "object",
                    Text("Lo spareggio, solo sul tre pari", "The tie breaker, only at three all"),
                    keys=meeting,
                ),
            ),
            Key(
                "assignments",
                Shape(
                    "object",
                    Text(
                        "La potenza assegnata a ogni magistratura (facoltativa, controllata)",
                        "The power given to each magistratura (optional, checked)",
                    ),
                    keys=tuple(
                        Key(c.value, Shape("integer", c.label, minimum=0)) for c in magistrature
                    ),
                ),
            ),
            Key("ruleset", RULESET),
        ),
    )

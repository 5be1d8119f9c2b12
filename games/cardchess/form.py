"""The 3D cardChess summary form (docs/notation/cardchess.md): a whole game from the points
of each sfida (the gold cards follow), or a single sfida from the cards each player
captured."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.declare import (
    RULESET,
    Choice,
    Field,
    FormProblem,
    Group,
    Key,
    Rows,
    Shape,
    SummaryForm,
    Together,
    Values,
)
from games.core.text import Text

MOST_SFIDE = 24
KINDS = (
    Choice(
        "game",
        Text("Una partita intera: i punti di ogni sfida", "A whole game: points of each sfida"),
    ),
    Choice(
        "sfida",
        Text(
            "Una sfida: le carte catturate da ogni giocatore",
            "One sfida: the cards each player captured",
        ),
    ),
)


def summary_form(players: int, cards: tuple[Choice, ...]) -> SummaryForm:
    """``cards``: the card codes the game declares."""
    seats = range(players)
    # Fewest sfide a game can take: four gold cards with two, three gold to win with more.
    shown = 4 if players == 2 else 3
    sfide = Rows(
        "sfida",
        Text("Sfida {n}", "Sfida {n}"),
        tuple(
            Field(f"p{i}", Text("{name}", "{name}"), required=True, seat=i, label_hidden=True)
            for i in seats
        ),
        count=shown,
        most=MOST_SFIDE,
        least=1,
        least_message=Text(
            "Scrivi i punti almeno della prima sfida.",
            "Write the points of at least the first sfida.",
        ),
        style="table",
        css="sfide",
        caption=Text("Punti di ogni sfida", "Points of each sfida"),
        corner=Text("Sfida", "Sfida"),
        add=Text("Un'altra sfida", "One more sfida"),
        when=("game",),
    )
    gold = tuple(
        Field(
            f"gold_{i}",
            Text("Carte d'oro scritte: {name}", "Gold cards written: {name}"),
            seat=i,
            when=("game",),
        )
        for i in seats
    )
    captured = tuple(
        Field(
            f"captured_{i}",
            Text("Carte catturate: {name}", "Cards captured: {name}"),
            "text",
            help=Text(
                "Codici delle carte separati da spazi, per esempio bK gQ bP3d.",
                "Card codes separated by spaces, e.g. bK gQ bP3d.",
            ),
            seat=i,
            when=("sfida",),
        )
        for i in seats
    )
    parts = (
        Field(
            "kind",
            Text("Che cosa registri", "What you are recording"),
            "choice",
            required=True,
            choices=KINDS,
            blank=False,
            switch=True,
            widget="radio",
            initial="game",
        ),
        Group((sfide, Group(gold, css="cells")), css="when", when=("game",)),
        Group(captured, css="when", when=("sfida",)),
    )
    known = {c.value for c in cards}

    def build(values: Values) -> dict[str, Any]:
        summary: dict[str, Any] = {"players": players}
        if values["kind"] == "sfida":
            captured: list[list[str]] = []
            wrong: dict[str, Text] = {}
            for i in seats:
                codes = (values[f"captured_{i}"] or "").replace(",", " ").split()
                unknown = ", ".join(c for c in codes if c not in known)
                if unknown:
                    wrong[f"captured_{i}"] = Text(
                        f"Codice di carta sconosciuto {unknown}: i codici sono come bK, gQ, "
                        "bP3d, gNl.",
                        f"Unknown card code {unknown}: codes look like bK, gQ, bP3d, gNl.",
                    )
                captured.append(codes)
            if wrong:
                raise FormProblem(
                    Text("Correggi i codici delle carte.", "Fix the card codes."), wrong
                )
            if not any(captured):
                raise FormProblem(
                    Text(
                        "Scrivi le carte catturate da almeno un giocatore.",
                        "Write the cards captured by at least one player.",
                    )
                )
            summary["captured"] = captured
            return summary
        summary["sfide"] = [[row[f"p{i}"] for i in seats] for row in values["sfida"]]
        if values["gold_0"] is not None:
            summary["gold"] = [values[f"gold_{i}"] for i in seats]
        return summary

    return SummaryForm(
        parts,
        build,
        read,
        together=(
            Together(
                tuple(f.name for f in gold),
                Text(
                    "Indica le carte d'oro di tutti i giocatori, o di nessuno.",
                    "Give every player's gold cards, or none.",
                ),
            ),
        ),
        focus="sfida.p0",
    )


def read(summary: Mapping[str, Any]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    if "captured" in summary:
        values["kind"] = "sfida"
        for i, codes in enumerate(summary["captured"] or []):
            values[f"captured_{i}"] = " ".join(codes)
        values["sfida"] = []
    else:
        values["kind"] = "game"
        values["sfida"] = [
            {f"p{i}": v for i, v in enumerate(row)} for row in summary.get("sfide") or []
        ]
        for i, gold in enumerate(summary.get("gold") or []):
            values[f"gold_{i}"] = gold
    return values


def summary_shape(cards: tuple[Choice, ...]) -> Shape:
    """The summary's JSON (the API's schema): a whole game's points per sfida, or one
    sfida's captured cards; ``cards``: the game's declared card codes."""
    per_player = Text("Uno per giocatore", "One per player")
    return Shape(
        "object",
        Text(
            "Il riepilogo di una partita (sfide) o di una sfida (captured)",
            "The summary of a whole game (sfide) or of one sfida (captured)",
        ),
        keys=(
            Key(
                "players",
                Shape("integer", Text("Giocatori", "Players"), minimum=2, maximum=4),
                required=True,
            ),
            Key(
                "sfide",
                Shape(
                    "list",
                    Text(
                        "I punti di ogni sfida, uno per giocatore",
                        "Each sfida's points, one per player",
                    ),
                    items=Shape(
                        "list",
                        per_player,
                        items=Shape("integer", minimum=0),
                        least=2,
                        most=4,
                        per_seat=True,
                    ),
                    least=1,
                    most=MOST_SFIDE,
                ),
            ),
            Key(
                "gold",
                Shape(
                    "list",
                    Text(
                        "Le carte d'oro per giocatore (facoltativo, controllato)",
                        "Gold cards per player (optional, checked)",
                    ),
                    items=Shape("integer", minimum=0),
                    least=2,
                    most=4,
                    per_seat=True,
                ),
            ),
            Key(
                "captured",
                Shape(
                    "list",
                    Text(
                        "Una sfida: le carte catturate da ogni giocatore",
                        "One sfida: the cards each player captured",
                    ),
                    items=Shape("choices", per_player, choices=cards),
                    least=2,
                    most=4,
                    per_seat=True,
                ),
            ),
            Key("ruleset", RULESET),
        ),
    )

"""A real San Marco scoring round rebuilt at the referee desk (see games/core/tabledeal.py):
which colours each player answers for, tapped like cards, then each colour's prestige points
typed in a number field, one entry at a time.

The points are a number, not a choice among 201 buttons: ``number_entry`` says what the desk
asks (whose colour, how many points) and ``number_step`` reads the answer into a step. What
was really written is taken as written (a colour out of turn, a number beyond the table's
cap): the verdict names the rule it breaks. The board game is entered from its own steps (its
choices are few at each point), so it has no picker here (``offers_deal``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core import RecordError, registry
from games.core.words import pick, seat_name
from games.sanmarco import words as W
from games.sanmarco.board import DISTRICTS
from games.sanmarco.state import DEFAULT_COLOURS, SLOTS, BoardRuleset

KIND = "cards"


def _ruleset(ruleset: Any) -> Any:
    if ruleset is not None and hasattr(ruleset, "seats"):
        return ruleset
    return registry.get("sanmarco").ruleset(ruleset or None)


def offers_deal(ruleset: Any) -> bool:
    """Only the two-player scoring round has a deal to tap: its colours."""
    return not isinstance(_ruleset(ruleset), BoardRuleset)


def titles(lang: str) -> dict[str, str]:
    return {
        "title": pick(lang, "I colori di ciascun giocatore", "Each player's colours"),
        "enter": pick(
            lang, "Inserisci i colori di ciascun giocatore", "Enter each player's colours"
        ),
        "change": pick(lang, "Vedi o cambia i colori", "See or change the colours"),
        "done": pick(lang, "Ogni colore è assegnato.", "Every colour is given."),
        "intro": pick(
            lang,
            "Scegli un giocatore, poi tocca i suoi colori nell'ordine in cui li scrive.",
            "Choose a player, then tap their colours in the order they write them.",
        ),
    }


def opener(lang: str, names: Sequence[str] | None = None) -> None:
    """Nothing to ask first: the first player writes first."""
    return None


def _variant(ruleset: Any) -> int:
    return int(getattr(_ruleset(ruleset), "variant", 3))


def pack(lang: str, ruleset: Any = None) -> list[dict[str, Any]]:
    """The variant's colours, in the order the table writes them."""
    colours = [c for seat in DEFAULT_COLOURS[_variant(ruleset)] for c in seat]
    return [
        {
            "name": pick(lang, "Colori", "Colours"),
            "cards": [{"code": c, "name": W.card(c, lang)} for c in colours],
        }
    ]


def places(
    lang: str, names: Sequence[str] | None = None, ruleset: Any = None
) -> list[dict[str, Any]]:
    """Each player's colours, in the order that player writes them."""
    slots = SLOTS[_variant(ruleset)]
    return [
        {
            "key": f"seat{seat}",
            "name": _who(seat, names, lang),
            "size": slots,
            "hint": pick(lang, "Nell'ordine in cui li scrive.", "In the order they are written.")
            if slots > 1
            else "",
        }
        for seat in range(2)
    ]


def deal(opener: int, placed: Mapping[str, Sequence[str]], ruleset: Any = None) -> dict[str, Any]:
    """The record's deal from the colours placed, or an error at the place at fault."""
    variant = _variant(ruleset)
    slots = SLOTS[variant]
    known = {c for seat in DEFAULT_COLOURS[variant] for c in seat}
    seen: set[str] = set()
    colours = []
    for seat in range(2):
        key = f"seat{seat}"
        given = list(placed.get(key, []))
        if len(given) != slots:
            raise RecordError(f"expected {slots} colours, got {len(given)}", path=key)
        for c in given:
            if c not in known or c in seen:
                raise RecordError(f"{c} cannot be given here", path=key)
            seen.add(c)
        colours.append(given)
    return {"colours": colours}


def placed_from(found: Mapping[str, Any]) -> tuple[int, dict[str, list[str]]]:
    colours = found.get("colours")
    if not isinstance(colours, list):
        return -1, {}
    return -1, {f"seat{i}": [str(c) for c in row] for i, row in enumerate(colours)}


def _who(seat: int, names: Sequence[str] | None, lang: str) -> str:
    said = seat_name(seat, lang, names)
    return said[:1].upper() + said[1:]


# --- the entries, typed -------------------------------------------------------------------
def number_entry(
    seat: int, view: Mapping[str, Any], lang: str, names: Sequence[str] | None = None
) -> dict[str, Any] | None:
    """What the desk asks for the next entry: whose colour (the one due first; any other to
    record one written out of turn) and its points in a number field."""
    colours = view.get("colours")
    if "entries" not in view or not isinstance(colours, list):
        return None  # the board game: its own choices
    options = []
    for s, row in enumerate(colours):
        for i, name in enumerate(row):
            options.append((f"{s}:{i}", f"{_who(s, names, lang)}: {W.card(str(name), lang)}"))
    due = ""
    for s, row in enumerate(view.get("entries") or []):
        if isinstance(row, list):
            missing = [i for i, v in enumerate(row) if v is None]
            if missing:
                due = f"{s}:{missing[0]}"
                break
    return {
        "legend": pick(lang, "Punti prestigio scritti", "Prestige points written"),
        "select": {
            "name": "colour",
            "label": pick(lang, "Il colore", "The colour"),
            "options": options,
            "value": due,
        },
        "number": {
            "name": "points",
            "label": pick(lang, "Punti prestigio", "Prestige points"),
            "hint": pick(
                lang,
                "Un numero intero, come scritto sul foglio.",
                "A whole number, as written on the sheet.",
            ),
        },
    }


def number_step(values: Mapping[str, str]) -> dict[str, Any]:
    """The step from the answers of ``number_entry``, or an error naming the field."""
    chosen = str(values.get("colour", ""))
    seat_s, _sep, colour_s = chosen.partition(":")
    if not (seat_s.isdigit() and colour_s.isdigit()):
        raise RecordError("choose the colour", path="colour")
    text = str(values.get("points", "")).strip()
    body = text[1:] if text.startswith("-") else text
    if not body.isdigit():
        raise RecordError("write a whole number", path="points")
    return {"seat": int(seat_s), "colour": int(colour_s), "points": int(text)}


# --- the board: what could physically be done, legal or not --------------------------------
def illegal_steps(
    seat: int, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """When a bridge is laid, a bridge between any two districts (the desk offers those the
    rules do not allow marked, with the rule they break, so a bridge laid where no site is
    is entered by tapping)."""
    if "board" not in view or not any(s.get("do") == "bridge" for s in legal):
        return []
    laid = {frozenset(s.get("between") or []) for s in legal if s.get("do") == "bridge"}
    out = []
    for i, a in enumerate(DISTRICTS):
        for b in DISTRICTS[i + 1 :]:
            if frozenset((a, b)) not in laid:
                out.append({"seat": seat, "do": "bridge", "between": [a, b]})
    return out

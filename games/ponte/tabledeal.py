"""A real Bridge's Game table rebuilt from its paper: who challenges first, the strategy
cards each magistratura (or each player of a split side) holds, and the power sheets as
written, one number per magistratura (see games/core/tabledeal.py).

Nothing here is a card to tap: the game declares ``KIND = "sheets"`` and the desk shows a
form of sheets instead of a pack. A sheet is taken as written (a total that is wrong is
exactly what a referee may have to rule on): the verdict names what breaks a rule.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from typing import Any

from games.core import RecordError, read, registry
from games.core.words import pick
from games.ponte import words as W
from games.ponte.model import MAGISTRATURE, QUARTERS, SIDES, mag_label, parse_strategy
from games.ponte.state import PonteState

KIND = "sheets"
SIDE_WORDS = ("Tramontana", "Mezzogiorno")
QUARTER_WORDS = {"east": ("Est", "East"), "west": ("Ovest", "West")}
STRATEGY_WORDS = {
    "add": ("aggiunge {n}", "adds {n}"),
    "subtract": ("toglie {n}", "takes off {n}"),
    "cancel": ("annulla", "cancels"),
    "move": ("sposta il carrello di {n}", "moves the carrello by {n}"),
    "recover": ("recupera {n}", "recovers {n}"),
}


def titles(lang: str) -> dict[str, str]:
    return {
        "title": pick(lang, "I fogli della potenza", "The power sheets"),
        "enter": pick(
            lang,
            "Inserisci i fogli della potenza e le carte strategia",
            "Enter the power sheets and the strategy cards",
        ),
        "change": pick(
            lang,
            "Vedi o cambia i fogli della potenza",
            "See or change the power sheets",
        ),
    }


def _state(ruleset: Any) -> PonteState:
    engine: Any = registry.get("ponte")
    state: PonteState = engine.start({"ruleset": ruleset.to_json() if ruleset else None})
    return state


def strategy_name(ruleset: Any, i: int, lang: str) -> str:
    card = parse_strategy(ruleset.strategy_cards[i])
    it, en = STRATEGY_WORDS.get(card.kind, (card.kind, card.kind))
    amount = W.kg(card.amount, lang) if card.kind != "move" else str(card.amount)
    return pick(lang, "n. {k}: ", "no. {k}: ").format(k=i + 1) + pick(lang, it, en).format(n=amount)


def _who(state: PonteState, seat: int, names: Sequence[str] | None, lang: str) -> str:
    if names and seat < len(names):
        return names[seat]
    return pick(lang, f"posto {seat + 1}", f"seat {seat + 1}")


def opener(lang: str, names: Sequence[str] | None = None) -> dict[str, Any]:
    return {
        "label": pick(
            lang, "Chi sfida per primo (il sorteggio)", "Who challenges first (the draw)"
        ),
        "options": [(0, SIDE_WORDS[0]), (1, SIDE_WORDS[1])],
        "missing": pick(lang, "Dite chi sfida per primo.", "Say who challenges first."),
    }


def sheets(lang: str, names: Sequence[str] | None, ruleset: Any) -> dict[str, Any]:
    """The form: the power sheets (one number per magistratura), and what the table decided
    about the strategy cards."""
    state = _state(ruleset)
    rs = state.ruleset
    out_sheets = []
    for k, (seat, mags) in enumerate(state.pools()):
        side = 0 if mags[0] < 6 else 1
        quarter = ""
        if len(mags) == 3:
            quarter = pick(lang, *QUARTER_WORDS[QUARTERS[(mags[0] % 6) // 3]])
        fixed = list(state.pool_values(mags)) if not rs.free_assignment else []
        out_sheets.append(
            {
                "key": f"sheet{k}",
                "seat": seat,
                "name": pick(lang, "Foglio di ", "Sheet of ")
                + SIDE_WORDS[side]
                + (f" {quarter}" if quarter else "")
                + f" ({_who(state, seat, names, lang)})",
                "mags": [
                    {"key": MAGISTRATURE[m], "name": mag_label(MAGISTRATURE[m])} for m in mags
                ],
                "total": W.kg(state.pool_total(mags), lang),
                "fixed": ", ".join(W.kg(v, lang) for v in fixed),
                "ranked": rs.hidden_values,
            }
        )
    cards = [(i, strategy_name(rs, i, lang)) for i in range(6)]
    strategy: list[dict[str, Any]] = []
    if rs.mode == "base":
        for side in (0, 1):
            strategy.append(
                {
                    "key": f"strategy{side}",
                    "kind": "each",
                    "name": pick(
                        lang,
                        f"Carte strategia di {SIDE_WORDS[side]}: quale tiene ogni magistratura",
                        f"{SIDE_WORDS[side]}'s strategy cards: which one each magistratura holds",
                    ),
                    "mags": [
                        {"key": MAGISTRATURE[m], "name": mag_label(MAGISTRATURE[m])}
                        for m in range(6 * side, 6 * side + 6)
                    ],
                }
            )
    else:
        for side in (0, 1):
            if state.layout.split(side):
                strategy.append(
                    {
                        "key": f"strategy{side}",
                        "kind": "east",
                        "name": pick(
                            lang,
                            f"Carte strategia di {SIDE_WORDS[side]}: le tre tenute da Est "
                            f"({_who(state, state.layout.owners[2 * side], names, lang)})",
                            f"{SIDE_WORDS[side]}'s strategy cards: the three East holds "
                            f"({_who(state, state.layout.owners[2 * side], names, lang)})",
                        ),
                    }
                )
    return {
        "sheets": out_sheets,
        "strategy": strategy,
        "cards": cards,
        "quarter": any(state.layout.split(s) for s in (0, 1)),
        "quarters": [(q, pick(lang, *QUARTER_WORDS[q])) for q in QUARTERS],
    }


NUMBER = re.compile(r"^\d{1,3}([.,' ]?\d{3})*$")


def power(text: str) -> int | None:
    """A power as written on a sheet: "85000", "85.000", "85 000", "85,000" or "85k"."""
    text = text.strip().lower().replace("kg", "").strip()
    if text.endswith("k") and text[:-1].strip().isdigit():
        return int(text[:-1].strip()) * 1000
    if NUMBER.match(text):
        return int(re.sub(r"[.,' ]", "", text))
    return None


def record(
    first: int,
    quarter: str | None,
    powers: Mapping[str, int],
    strategy: Mapping[str, Any],
    ruleset: Any,
) -> dict[str, Any]:
    """The record's deal and its power sheets as steps, from the form (already read).
    ``strategy``: per side key ``strategy0``/``1``, a list of six card numbers (base, in
    magistratura order) or the three East holds."""
    if first not in (0, 1):
        raise RecordError(read.SIDES_WORDING, path="dealer")
    state = _state(ruleset)
    rs = state.ruleset
    perms: list[list[int]] = []
    for side in (0, 1):
        chosen = strategy.get(f"strategy{side}")
        if rs.mode == "base" and chosen is not None:
            perm = [int(x) for x in chosen]
            if sorted(perm) != list(range(6)):
                raise RecordError("each strategy card once", path=f"strategy{side}")
        elif chosen is not None:
            east = sorted(int(x) for x in chosen)
            if len(east) != 3 or len(set(east)) != 3 or not all(0 <= x < 6 for x in east):
                raise RecordError("three strategy cards", path=f"strategy{side}")
            perm = east + [x for x in range(6) if x not in east]
        else:
            perm = list(range(6))
        perms.append(perm)
    deal: dict[str, Any] = {"first": SIDES[first], "strategy": perms}
    if quarter in QUARTERS and state.layout.split(first):
        deal["first_quarter"] = quarter
    actions: list[dict[str, Any]] = []
    for k, (seat, mags) in enumerate(state.pools()):
        entries: list[dict[str, Any]] = []
        for m in mags:
            name = MAGISTRATURE[m]
            if name not in powers:
                raise RecordError(f"no power for {mag_label(name)}", path=f"sheet{k}")
            entries.append({"seat": seat, "assign": name, "power": int(powers[name])})
        if rs.hidden_values:  # the order of a sheet is its ranking, strongest first
            entries.sort(key=lambda e: -int(e["power"]))
        actions += entries
    return {"deal": deal, "actions": actions}


def from_record(record_: Mapping[str, Any]) -> dict[str, Any]:
    """What the form shows for a record: the deal's answers and the powers written."""
    deal = record_.get("deal") if isinstance(record_.get("deal"), Mapping) else {}
    assert isinstance(deal, Mapping)
    first = SIDES.index(deal["first"]) if deal.get("first") in SIDES else -1
    powers = {
        str(a["assign"]): a.get("power")
        for a in record_.get("actions", [])
        if isinstance(a, Mapping) and "assign" in a
    }
    perms = deal.get("strategy") or [list(range(6)), list(range(6))]
    return {
        "first": first,
        "quarter": deal.get("first_quarter") or "",
        "powers": powers,
        "perms": perms,
    }


def kept_actions(record_: Mapping[str, Any]) -> list[Any]:
    """The steps after the sheets stay when the sheets are entered again."""
    return [a for a in record_.get("actions", []) if not (isinstance(a, Mapping) and "assign" in a)]


def with_sheets(earlier: Mapping[str, Any], made: Mapping[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(dict(earlier))
    out["deal"] = made["deal"]
    out["actions"] = [*made["actions"], *kept_actions(earlier)]
    return out


def real_steps(seat: int, view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """What a side could really put on the bridge in a fight, legal or not: besides the
    fight cards left in its pack, each one already spent (the desk offers those marked, so a
    card played twice is entered by tapping)."""
    if view.get("phase") != "fight" or not any("fight" in a for a in view.get("legal") or []):
        return []
    said = view.get("seat_side")
    side = SIDES.index(said) if said in SIDES else said
    packs = view.get("packs")
    if not isinstance(side, int) or not isinstance(packs, list) or not 0 <= side < len(packs):
        return []
    every = sorted(set(_state(None).ruleset.fight_cards))
    left = set(packs[side])
    return [{"seat": seat, "fight": code, "strategy": None} for code in every if code not in left]

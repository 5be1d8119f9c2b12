"""A real Er Giò table rebuilt card by card from the start of its battle: who won the
Corteo, each side's laid Corteo and hand, then the scontri, with the cards each side drew
after a scontro asked for as they come (see games/core/tabledeal.py and "From the battle"
in docs/notation/ergio.md).

The Corteo itself is not replayed: a referee called to the bridge finds the magistrature
laid and the hands held, and that is what decides a scontro.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from games.core import RecordError, read, registry
from games.core.words import pick
from games.ergio import cards as C
from games.ergio import words as W
from games.ergio.ruleset import ErGioRuleset
from games.ergio.state import ErGioState

PLACES = ("corteo", "hand", "drawn")
SIDE_WORDS = ("Tramontana", "Mezzogiorno")
UNDER_WORDS = {
    "magistrato": ("Sotto il Magistrato", "Under the Magistrato"),
    "caposchiera": ("Sotto il Caposchiera", "Under the Caposchiera"),
    "spot": ("Allo spot (magistratura mai schierata)", "On the spot (a magistratura never laid)"),
}


def titles(lang: str) -> dict[str, str]:
    """The picker's title and the words of the links to it."""
    return {
        "title": pick(lang, "La partita al Ponte, carta per carta", "The match, card by card"),
        "enter": pick(
            lang,
            "Inserisci i Cortei e le mani, carta per carta",
            "Enter the Cortei and the hands, card by card",
        ),
        "change": pick(
            lang,
            "Vedi o cambia i Cortei e le mani, carta per carta",
            "See or change the Cortei and the hands, card by card",
        ),
        "done": pick(
            lang,
            "Nessun posto è vuoto e ogni magistratura schierata ha almeno tre carte: "
            "ricontate le mani prima di salvare.",
            "No place is empty and every magistratura laid has three cards or more: count "
            "the hands again before saving.",
        ),
    }


def _ruleset(ruleset: Any) -> ErGioRuleset:
    if isinstance(ruleset, ErGioRuleset):
        return ruleset
    found: ErGioRuleset = registry.get("ergio").ruleset(ruleset or None)
    return found


def _unit_key(card: int) -> str:
    unit = C.UNIT_OF[card]
    return C.unit_name(unit) if unit >= 0 else "specials"


def _unit_words(card: int, lang: str) -> str:
    unit = C.UNIT_OF[card]
    if unit < 0:
        return pick(lang, "Speciali", "Specials")
    if unit < C.UNIT_CEL:
        return W.magistratura(C.unit_name(unit))
    it, en = W.GROUPS[C.GROUP_CODES[unit - C.UNIT_CEL]]
    return pick(lang, f"{it} (gruppo)", f"{en} (group)")


def short(card: int) -> str:
    """A card's mark on a small face: a figure's initials, a fighter's force."""
    tail = C.CODES[card].partition("-")[2]
    return {"MAG": "Mg", "CAP": "Cp", "CSC": "Cs"}.get(tail, tail)


def pack(lang: str, ruleset: Any = None) -> list[dict[str, Any]]:
    """Both decks as a person sorts them: each side's six magistrature (Magistrato,
    Capitano, Caposchiera, fighters 2 to 7), its armed groups (six copies of each) and, in
    the advanced game, its five specials."""
    rs = _ruleset(ruleset)
    groups: list[dict[str, Any]] = []
    for side, name in enumerate(C.SIDES):
        deck = Counter(C.deck(side, rs.advanced))
        by_unit: dict[str, list[int]] = {}
        for card in sorted(deck):
            by_unit.setdefault(_unit_key(card), []).append(card)
        for key, cards in by_unit.items():
            groups.append(
                {
                    "name": f"{SIDE_WORDS[side]} · {_unit_words(cards[0], lang)}",
                    "side": name,
                    "key": key,
                    "cards": [
                        {
                            "code": C.CODES[c],
                            "name": W.card(C.CODES[c], lang),
                            "short": short(c),
                            "copies": deck[c],
                            "unit": _unit_words(c, lang),
                        }
                        for c in cards
                    ],
                }
            )
    return groups


def opener(lang: str, names: Sequence[str] | None = None) -> dict[str, Any]:
    """What the picker asks first: who won the Corteo (that side challenges first)."""
    options = []
    for side in range(2):
        who = [names[s] for s in range(side, len(names or []), 2)] if names else []
        label = SIDE_WORDS[side] + (f" ({', '.join(who)})" if who else "")
        options.append((side, label))
    return {
        "label": pick(lang, "Chi ha vinto il Corteo", "Who won the Corteo"),
        "options": options,
        "missing": pick(lang, "Dite chi ha vinto il Corteo.", "Say who won the Corteo."),
    }


def places(
    lang: str, names: Sequence[str] | None = None, ruleset: Any = None
) -> list[dict[str, Any]]:
    rs = _ruleset(ruleset)
    per_side = rs.seats // 2
    limit = rs.hand_limit * per_side if rs.hand_limit > 0 else None
    out: list[dict[str, Any]] = []
    for side, name in enumerate(C.SIDES):
        who = SIDE_WORDS[side]
        players = [names[s] for s in range(side, len(names or []), 2)] if names else []
        if players:
            who += f" ({', '.join(players)})"
        out += [
            {
                "key": f"{name}_corteo",
                "name": pick(lang, f"Corteo di {who}", f"{who}'s Corteo"),
                "size": None,
                "side": name,
                "grouped": True,
                "hint": pick(
                    lang,
                    "Le carte schierate a terra, magistratura per magistratura.",
                    "The cards laid on the table, magistratura by magistratura.",
                ),
            },
            {
                "key": f"{name}_hand",
                "name": pick(lang, f"Mano di {who}", f"{who}'s hand"),
                "size": None,
                "max": limit,
                "side": name,
                "hint": pick(
                    lang,
                    "Le carte in mano quando comincia la battaglia.",
                    "The cards in hand when the battle begins.",
                ),
            },
            {
                "key": f"{name}_drawn",
                "name": pick(
                    lang, f"Pescate da {SIDE_WORDS[side]} dopo gli scontri", f"Drawn by {who}"
                ),
                "size": None,
                "side": name,
                "ordered": True,
                "optional": True,
                "hint": pick(
                    lang,
                    "Facoltativo: dopo ogni scontro la pagina chiede le carte pescate.",
                    "Optional: after each scontro the page asks for the cards drawn.",
                ),
            },
        ]
    return out


def deal(corteo_winner: int, placed: Mapping[str, Sequence[str]], ruleset: Any = None) -> Any:
    """The record's deal: the position at the start of the battle. An error names the
    place at fault (its key, as ``places`` gives it)."""
    if corteo_winner not in (0, 1):
        raise RecordError(read.SIDES_WORDING, path="dealer")
    position: dict[str, Any] = {"corteo_winner": C.SIDES[corteo_winner]}
    for name in C.SIDES:
        position[name] = {p: list(placed.get(f"{name}_{p}", [])) for p in PLACES}
    for side, name in enumerate(C.SIDES):
        for p in PLACES:
            for code in position[name][p]:
                if code not in C.BY_CODE:
                    raise C.DECK.unknown(code, f"{name}_{p}")
                if C.SIDE_OF[C.BY_CODE[code]] != side:
                    raise RecordError(f"{code} belongs to the other side", path=f"{name}_{p}")
        laid = Counter(C.UNIT_OF[C.BY_CODE[c]] for c in position[name]["corteo"])
        for unit, n in laid.items():
            if 0 <= unit < C.UNIT_CEL and n > 4:
                raise RecordError(
                    f"{C.unit_name(unit)} has {n} cards laid: four at most", path=f"{name}_corteo"
                )
    engine: Any = registry.get("ergio")
    try:
        engine.position(_ruleset(ruleset), position)
    except RecordError as exc:
        where = str(exc.path or "")
        parts = where.split(".")
        raise RecordError(
            str(exc), path=f"{parts[2]}_{parts[3].split('[')[0]}" if len(parts) > 3 else where
        ) from exc
    return {"battle": position}


def _battle_start(record: Mapping[str, Any]) -> tuple[ErGioState, int] | None:
    """The state when the battle begins, and the index of its first action."""
    engine = registry.get("ergio")
    try:
        state = engine.start(record)
        actions = list(record.get("actions", []))
        i = 0
        while state.phase.value == "corteo" or state.phase.value == "sabotage":
            if i >= len(actions):
                return None
            seat, action = engine.decode_step(actions[i], f"actions[{i}]")
            state.apply_unchecked(seat, action)
            i += 1
    except (RecordError, ValueError, KeyError, IndexError):
        return None
    return state, i


def placed_from_record(record: Mapping[str, Any]) -> tuple[int, dict[str, list[str]]]:
    """The places of a recorded match (a position, or a whole record replayed to its
    battle), to show it or change it; the cards drawn are those the battle drew."""
    deal_ = record.get("deal")
    if isinstance(deal_, Mapping) and isinstance(deal_.get("battle"), Mapping):
        position = deal_["battle"]
        winner = position.get("corteo_winner")
        out = {
            f"{name}_{p}": list((position.get(name) or {}).get(p, []))
            for name in C.SIDES
            for p in PLACES
        }
        return (C.SIDES.index(winner) if winner in C.SIDES else -1), out
    found = _battle_start(record)
    if found is None:
        return -1, {}
    state, _i = found
    tops = [list(reversed(d)) for d in state.decks]
    before = [len(d) for d in state.decks]
    end = _replayed(record)
    out = {}
    for side, name in enumerate(C.SIDES):
        corteo = [c for _u, cards in sorted(state.field[side].items()) for c in cards]
        hand = [c for s in state.seats_of(side) for c in state.hands[s]]
        drawn = before[side] - (len(end.decks[side]) if end is not None else before[side])
        out[f"{name}_corteo"] = C.describe(corteo + state.specials[side])
        out[f"{name}_hand"] = C.describe(sorted(hand))
        out[f"{name}_drawn"] = C.describe(tops[side][:drawn])
    return state.corteo_winner, out


def _replayed(record: Mapping[str, Any]) -> ErGioState | None:
    engine = registry.get("ergio")
    try:
        state: ErGioState = engine.start(record)
        for i, raw in enumerate(record.get("actions", [])):
            seat, action = engine.decode_step(raw, f"actions[{i}]")
            state.apply_unchecked(seat, action)
    except (RecordError, ValueError, KeyError, IndexError):
        return None
    return state


def kept_actions(record: Mapping[str, Any]) -> list[Any]:
    """The steps that stay when the deal is entered again: the battle's (a whole record's
    Corteo is now the position)."""
    actions = list(record.get("actions", []))
    deal_ = record.get("deal")
    if isinstance(deal_, Mapping) and "battle" in deal_:
        return actions
    found = _battle_start(record)
    return actions[found[1] :] if found is not None else []


# --- the play, scontro by scontro ---------------------------------------------------------
def real_steps(seat: int, view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """What a side could really do on the bridge now, legal or not: each card it holds,
    slipped under each place of the magistratura it sent (the verdict marks a fourth card
    under a Magistrato, a second under a Caposchiera)."""
    battle = view.get("battle")
    if view.get("phase") != "battle" or not isinstance(battle, Mapping):
        return []
    side = seat % 2
    sent = (battle.get("sent") or [None, None])[side]
    if not sent:
        return []
    field = (view.get("field") or [{}, {}])[side]
    laid = [C.BY_CODE[c] for c in field.get(sent, []) if c in C.BY_CODE]
    mask = C.figures_mask(laid)
    under = []
    if mask & 1:
        under.append("magistrato")
    if mask & 4:
        under.append("caposchiera")
    if not laid:
        under.append("spot")
    hand = sorted(set(view.get("hand") or []), key=lambda c: C.BY_CODE.get(c, 0))
    return [{"seat": seat, "reinforce": c, "under": u} for u in under for c in hand]


def choice_group(step: Mapping[str, Any], lang: str) -> str:
    """The heading a choice is shown under."""
    if "send" in step:
        return pick(lang, "Manda una magistratura sul Ponte", "Send a magistratura to the Bridge")
    if "reinforce" in step:
        it, en = UNDER_WORDS.get(str(step.get("under")), ("Rinforzo", "Reinforcement"))
        return pick(lang, f"Rinforzo coperto · {it}", f"Face-down reinforcement · {en}")
    return ""


def pending(record: Mapping[str, Any], view: Mapping[str, Any], lang: str) -> dict[str, Any] | None:
    """The cards a side drew after the last scontro, when the referee has not said them yet:
    which side, how many, and the cards of its deck still unaccounted for."""
    deal_ = record.get("deal")
    if not (isinstance(deal_, Mapping) and isinstance(deal_.get("battle"), Mapping)):
        return None
    battle = view.get("battle")
    if view.get("phase") != "battle" or not isinstance(battle, Mapping):
        return None
    fought = len(battle.get("fought") or [])
    if fought == 0:
        return None
    rs = _ruleset(record.get("ruleset"))
    per = rs.battle_draw * (rs.seats // 2)
    position = deal_["battle"]
    for side, name in enumerate(C.SIDES):
        mine = position.get(name) or {}
        drawn = list(mine.get("drawn", []))
        if mine.get("dry") or len(drawn) >= fought * per:
            continue
        listed = Counter(c for p in PLACES for c in mine.get(p, []))
        rest = Counter(C.CODES[c] for c in C.deck(side, rs.advanced)) - listed
        if not rest:
            continue
        after = len(drawn) // per + 1 if per else fought
        return {
            "side": name,
            "count": min(per, sum(rest.values())),
            "after": after,
            "who": SIDE_WORDS[side],
            "cards": sorted(rest, key=lambda c: C.BY_CODE[c]),
            "copies": dict(rest),
        }
    return None


def with_drawn(
    record: Mapping[str, Any], side: str, codes: Sequence[str], dry: bool = False
) -> dict[str, Any]:
    """The record with the cards a side drew after a scontro (or with its deck run out)."""
    out = copy.deepcopy(dict(record))
    position = out["deal"]["battle"]
    read.side(side, "side")
    mine = position[side]
    if dry:
        mine["dry"] = True
    mine["drawn"] = [*mine.get("drawn", []), *codes]
    return out

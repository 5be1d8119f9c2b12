"""What a deal check of a San Marco board game needs beside its record (games/core/
verify_deal.py, the replay page's "check this deal").

The board draws its chance as the play asks for it, from one stream of the seed: a die for
each set-up roll, the distributor's action and limit cards, the role draws, a banishment's
die. Which draw comes when follows from the play, so the record's chance alone cannot be
drawn again without the rules. ``chance_order`` replays the game with the engine and says, in
order, what each draw was taken from (a die, the action deck, the limit deck, the role draws
the rules allowed, a deck made again from its discards) and whose set-up or hand it was; the
checker draws the stream again from the seed along that order, with nothing of the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import RecordError, registry, verify_deal
from games.core.words import pick


class _Traced(dict[str, Any]):
    """The record's written chance, carrying the list the engine writes its order into."""

    trace: list[Any]

    def __bool__(self) -> bool:
        return True


def chance_order(record: Mapping[str, Any]) -> list[Any]:
    """The order of the record's chance (see the module), or [] when the record is not a
    board game drawn from a seed or cannot be replayed."""
    deal = record.get("deal")
    if not isinstance(deal, Mapping) or not isinstance(deal.get("seed"), int):
        return []
    traced = _Traced(deal.get("chance") or {})
    traced.trace = []
    engine: Any = registry.get("sanmarco")
    try:
        state = engine.start({**record, "deal": {**deal, "chance": traced}})
        if not hasattr(state, "board"):
            return []
        for i, raw in enumerate(record.get("actions") or []):
            seat, action = engine.decode_step(raw, f"actions[{i}]")
            state.apply_unchecked(seat, action)
    except (RecordError, ValueError, KeyError, IndexError):
        pass  # the order as far as the play went
    return list(traced.trace)


def items(order: list[Any], chance: Mapping[str, Any]) -> dict[str, list[str]]:
    """Each colour's chance as the replay has it (the record's written chance read along
    ``order``), by the keys the checkers give theirs (verify_deal.sanmarco_items)."""
    return verify_deal.sanmarco_items(order, dict(chance))


def record_extra(record: Mapping[str, Any]) -> dict[str, Any]:
    """What a checker needs beside the record: the order of its chance."""
    order = chance_order(record)
    return {"chance_order": order} if order else {}


def replay_items(record: Mapping[str, Any]) -> dict[str, list[str]]:
    """Each colour's chance as the replay has it, by the checkers' keys."""
    deal = record.get("deal")
    chance = deal.get("chance") if isinstance(deal, Mapping) else None
    order = record.get("chance_order")
    if not isinstance(order, list):
        order = chance_order(record)
    return items(order, chance) if isinstance(chance, Mapping) and order else {}


def labels(record: Mapping[str, Any], lang: str, names: list[str]) -> dict[str, str]:
    """The rows of a deal check in words: whose colour, and what was drawn for it."""
    from games.sanmarco.faces import HUES

    engine: Any = registry.get("sanmarco")
    try:
        view = engine.start(record).view(None)
    except RecordError:
        return {}
    out = {
        "table:other": pick(lang, "Ruoli sorteggiati e altri dadi", "Roles drawn and other dice")
    }
    for c, row in enumerate(view.get("colours") or []):
        hue = HUES[c % len(HUES)]
        seat = row.get("seat") if isinstance(row, dict) else None
        colour = pick(lang, hue[1], hue[2])
        who = (
            names[seat] if isinstance(seat, int) and 0 <= seat < len(names) and names[seat] else ""
        )
        said = f"{colour} ({who})" if who else colour
        out[f"{c}:setup"] = pick(lang, f"{said}: tiri di preparazione", f"{said}: set-up rolls")
        out[f"{c}:hand"] = pick(lang, f"{said}: carte pescate", f"{said}: cards drawn")
    return out


def card_names(lang: str) -> dict[str, str]:
    """The items a deal check shows, in words: the action cards and the limit cards."""
    from games.sanmarco.faces import card_name

    codes = [*verify_deal.SANMARCO_CARDS, *(f"limit:{v}" for v in (1, 2, 3))]
    return {c: card_name(c, lang) for c in codes}

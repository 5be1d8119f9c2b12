"""What the replay page's "check this deal" needs: the revealed number, the seal shown
before the game, the record's deal and ruleset, the packs in order, the names of the cards
and each seat's hand as the replay has it. The page's own script (static/play/dealcheck.js)
deals again from the number and compares; games/core/verify_deal.py does the same in Python
for anyone to run (docs/play.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.utils.translation import gettext as _

from games.core import registry, verify_deal
from games.core import words as game_words
from ledger.play.models import GameTable

VERIFIER = Path(verify_deal.__file__)


def _card_names(game: str, codes: set[str], lang: str) -> dict[str, str]:
    """Each item a check shows, in words (a game's own names when its fairdeal gives them:
    San Marco's districts, action and limit cards)."""
    own = getattr(registry.module(game, "fairdeal"), "card_names", None)
    if own is not None:
        return dict(own(lang))
    words = game_words.for_game(game)
    return {c: str(words.card(c, lang)) for c in codes} if words is not None else {}


def replay_hands(game: str, record: dict[str, Any]) -> dict[str, list[str]]:
    """Each seat's hand (and the table's cards) at the start of the replay, by the key the
    page's script gives its own: "<sfida>:<seat index>" or "<sfida>:table"."""
    engine = registry.get(game)
    try:
        state = engine.start({k: v for k, v in record.items() if k != "actions"})
    except Exception:  # a record the engine cannot start shows no hands
        return {}
    out: dict[str, list[str]] = {}
    seats = int(engine.ruleset(record.get("ruleset") or None).seats)
    for seat in range(seats):
        hand = state.view(seat).get("hand")
        if isinstance(hand, list) and hand:
            out[f"1:{seat}"] = [str(c) for c in hand]
    table = state.view(None).get("table")
    if isinstance(table, list) and table and all(isinstance(c, str) for c in table):
        out["1:table"] = list(table)
    return out


def checked_record(game: str, record: dict[str, Any]) -> dict[str, Any]:
    """The record with what a checker needs beside it (San Marco: the order of its chance),
    as the page's script and the downloaded record give it to the checkers."""
    fair = registry.module(game, "fairdeal")
    extra = getattr(fair, "record_extra", None)
    return {**record, **extra(record)} if extra is not None else record


def data(table: GameTable, record: dict[str, Any], names: list[str], lang: str) -> dict[str, Any]:
    """The page's data for the check, or {} for a game whose deal is not checked."""
    if table.game not in verify_deal.GAMES or table.seed is None:
        return {}
    record = checked_record(table.game, record)
    fair = registry.module(table.game, "fairdeal")
    replay = replay_hands(table.game, record)
    more = getattr(fair, "replay_items", None)
    if more is not None:
        replay.update(more(record))
    said = getattr(fair, "labels", None)
    packs = verify_deal.packs()
    codes: set[str] = set()
    for value in packs.values():
        stack = [value]
        while stack:
            item = stack.pop()
            if isinstance(item, list):
                stack.extend(item)
            elif isinstance(item, dict):
                stack.extend(item.values())
            else:
                codes.add(str(item))
    return {
        "game": table.game,
        "seed": str(table.seed),
        "table": table.pk,
        "commitment": table.commitment,
        "ruleset": record.get("ruleset") or {},
        "deal": record.get("deal"),
        "packs": packs,
        "names": names,
        "card_names": _card_names(table.game, codes, lang),
        "replay": replay,
        "record": {k: record[k] for k in ("deal", "actions", "chance_order") if k in record},
        "labels": said(record, lang, names) if said is not None else {},
        "words": {
            "seal_ok": _("The seal of this number is the one shown before the first card."),
            "seal_bad": _("The seal of this number is NOT the one shown before the game."),
            "deal_ok": _("This number deals exactly the deal the game was played with."),
            "deal_bad": _("This number does NOT deal the deal the game was played with."),
            "no_deal": _("This game draws its chance as it goes: only the seal is checked."),
            "who": _("Who"),
            "computed": _("Dealt by this page from the number"),
            "replay": _("In the replay"),
            "seat": _("Seat"),
            "sfida": _("Sfida"),
            "monte": _("Monte"),
            "table": _("Table"),
            "after_reshuffle": _("after the reshuffle"),
        },
    }

"""Reads of the digital tables, shared by the pages and the API.

A seat's payload is built from the engine's ``view(seat)`` and that seat's legal actions
only; the move log itself is never shown while a game is on (it holds the other hands and
every secret choice), and the full record is public once the game is over.
"""

from __future__ import annotations

import json
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext, gettext_noop, pgettext_lazy

from games.core.hints import hint as game_hint
from games.core.hints import rule_of
from ledger.play.models import GameTable, PlaySeat
from ledger.play.replay import bot_seed, engine
from ledger.play.services import replayed, secrets_of, state_of

# A bot seat's name in the page's language ("Bot euristico 1", "Heuristic bot 1").
BOT_NAMES = {
    "random": gettext_noop("Random bot"),
    "heuristic": gettext_noop("Heuristic bot"),
    "strong": gettext_noop("Strong bot"),
}


# A seat's presence in words, for the mark beside its name ("presente", "assente", "bot").
PRESENCE_WORDS = {
    "here": pgettext_lazy("seat presence", "here"),
    "away": pgettext_lazy("seat presence", "away"),
    "bot": pgettext_lazy("seat presence", "bot"),
}


def seat_rows(table: GameTable, presence_for: Any = None) -> list[dict[str, Any]]:
    """Who sits where. ``presence_for``: the login a live page is drawn for (one that may
    watch the table, ``live.may_watch``); each seat's ``presence`` then says "here" (its
    person has the table's page open now, as this login has), "away" (a person whose page is
    not open) or "bot", and "" for a seat nobody took yet. Without it, presence is ""."""
    rows = []
    numbers: dict[str, int] = {}
    present: set[int] = set()
    if presence_for is not None:
        from ledger.play import live

        present = set(live.here(table.pk))
    viewer = getattr(presence_for, "pk", None)
    for s in table.seats.select_related("player").order_by("index"):
        presence = ""
        if presence_for is not None:
            if s.is_bot:
                presence = "bot"
            elif s.user_id is not None:
                presence = "here" if s.index in present or s.user_id == viewer else "away"
        name = s.player.name if s.player else ""
        if s.is_bot:
            numbers[s.kind] = numbers.get(s.kind, 0) + 1
            label = BOT_NAMES.get(s.kind)
            name = f"{gettext(label)} {numbers[s.kind]}" if label else name or "Bot"
        rows.append(
            {
                "index": s.index,
                "number": s.index + 1,  # seats are counted from 1 where people read them
                "kind": s.kind,
                "kind_label": str(s.get_kind_display()),
                "name": name,
                "bot": s.is_bot,
                "presence": presence,
            }
        )
    return rows


def fairness(table: GameTable) -> dict[str, Any]:
    """The deal's commitment, from the start; its seed and the command that replays it,
    once the game is over (finished or abandoned)."""
    out: dict[str, Any] = {"commitment": table.commitment, "seed": None, "command": ""}
    if table.over:
        out["seed"] = table.seed
        name = table.ruleset.get("name") if isinstance(table.ruleset, dict) else None
        preset = engine(table.game).rulesets.get(name or "")
        ruleset = f" --ruleset {name}" if preset is not None else ""
        if preset is not None and engine(table.game).ruleset(table.ruleset) != preset:
            ruleset = " --ruleset '" + json.dumps(table.ruleset, separators=(",", ":")) + "'"
        out["command"] = (
            f"python -m games {table.game} deal --seed {table.seed} --table {table.pk}{ruleset}"
        )
    return out


def invite_path(table: GameTable) -> str:
    return reverse("play-join", args=[table.pk, table.invite])


def table_summary(table: GameTable, user: Any = None) -> dict[str, Any]:
    """What anyone may know of a table: who sits where, how far it got, how it ended."""
    mine = (
        table.seats.filter(user=user).first() if getattr(user, "is_authenticated", False) else None
    )
    out: dict[str, Any] = {
        "id": table.pk,
        "club": table.club_id,
        "game": table.game,
        "ruleset": table.ruleset,
        "competition": table.competition_id,
        "ledger_table": table.ledger_table_id,
        "label": table.label,
        "status": table.status,
        "practice": table.practice,
        "named_deal": table.named_deal,
        "commitment": table.commitment,
        "seed": table.seed if table.over else None,
        "seats": seat_rows(table),
        "moves": table.moves_count,
        "your_seat": mine.index if mine else None,
        "result": table.result_id,
        "created_at": table.created_at,
        "last_move_at": table.last_move_at,
    }
    if mine is not None or table.created_by_id == getattr(user, "pk", None):
        out["invite"] = invite_path(table)
    return out


def seat_payload(table: GameTable, seat: PlaySeat) -> dict[str, Any]:
    """Everything one seat may see now: its own view and, on its turn, its legal actions."""
    game = engine(table.game)
    state, moves = replayed(table)
    to_act = state.to_act()
    your_turn = table.status == GameTable.Status.PLAYING and to_act == seat.index
    legal = [game.encode_action(a) for a in state.legal_actions(seat.index)] if your_turn else []
    out: dict[str, Any] = {
        "table": table.pk,
        "game": table.game,
        "status": table.status,
        "seat": seat.index,
        "to_act": to_act if table.status == GameTable.Status.PLAYING else None,
        "your_turn": your_turn,
        # The moves of the state shown, which a move sent from this view answers.
        "moves": moves,
        "view": state.view(seat.index),
        "legal_actions": legal,
        "outcome": state.outcome().to_json() if state.is_over() else None,
        "result": table.result_id,
    }
    return out


def full_record(table: GameTable) -> dict[str, Any]:
    return state_of(table).to_record()


def hint(table: GameTable, seat: PlaySeat, language: str) -> dict[str, Any] | None:
    """At a practice table, on this seat's turn: the move the heuristic bot would make and
    why, in the reader's language (never at a table that counts)."""
    if not table.practice or table.status != GameTable.Status.PLAYING:
        return None
    state, moves = replayed(table)
    if state.is_over() or state.to_act() != seat.index:
        return None
    game = engine(table.game)
    seed = bot_seed(secrets_of(table)[0], seat.index, moves) ^ 0x5EED
    action, why = game_hint(game, state, seat.index, seed)
    return {"action": game.encode_action(action), "why": why.get(language), "rule": rule_of(why)}


def first_game(table: GameTable, user: Any) -> bool:
    """This player has finished no game of this table's game yet: a guided first game."""
    return not GameTable.objects.filter(
        game=table.game, status=GameTable.Status.FINISHED, seats__user=user
    ).exists()

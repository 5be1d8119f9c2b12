"""A game's table as the board template draws it: the game's faces module says what is on
the table in its own terms (games/<slug>/faces.py), this module puts the cards' pictures
and names in, places the seats around the table as the viewer sits, and ties the legal
actions to the cards of the hand they play.

Nothing here knows a particular game: each game declares its faces, words and options.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import asdict
from typing import Any

from games.core import faces as game_faces
from games.core import words as game_words
from ledger.clubs import cards

# Around a table of four, from the viewer's seat: the next seat to act sits on the right.
AROUND = ("bottom", "right", "top", "left")


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def card(slug: str, code: str, lang: str) -> dict[str, Any]:
    return {
        "code": code,
        "name": cards.name(slug, code, lang),
        "svg": cards.svg(slug, code, lang),
    }


def hand_of(slug: str, view: dict[str, Any]) -> list[str] | None:
    """The cards a seat plays from: its hand, or what its game declares instead (a Bridge's
    Game commander's fight cards)."""
    module = game_faces.for_game(slug)
    own = getattr(module, "hand", None) if module else None
    cards = own(view) if own is not None else view.get("hand")
    if cards is None:
        return None
    return [c for c in cards if isinstance(c, str)]


def has_faces(slug: str) -> bool:
    return game_faces.for_game(slug) is not None


def _label(slug: str, action: dict[str, Any], lang: str, names: list[str] | None = None) -> str:
    words = game_words.for_game(slug)
    if words is None:
        return compact(action)
    return str(words.action(action, lang, names))


def board(
    slug: str,
    view: dict[str, Any],
    lang: str,
    names: list[str],
    viewer: int | None = None,
    to_act: int | None = None,
) -> dict[str, Any] | None:
    """The public table (and what the viewer's own seat may see) ready to draw."""
    module = game_faces.for_game(slug)
    if module is None or not isinstance(view, dict):
        return None
    b = module.board(view, lang, names)
    if b is None:
        return None
    n = len(b.seats)
    first = viewer if viewer is not None and 0 <= viewer < n else 0
    seats = []
    for s in b.seats:
        row = asdict(s)
        row["name"] = names[s.seat] if s.seat < len(names) else ""
        row["cards"] = [card(slug, c, lang) for c in s.cards]
        row["backs"] = range(min(s.hand_size or 0, 8)) if s.seat != viewer else range(0)
        row["to_act"] = to_act == s.seat
        row["you"] = viewer == s.seat
        row["pos"] = AROUND[(s.seat - first) % n] if b.around and n == 4 else ""
        seats.append(row)
    if b.around:
        seats.sort(key=lambda r: ("top", "left", "right", "bottom").index(r["pos"]))

    def groups(gs: list[Any]) -> list[dict[str, Any]]:
        out = []
        for g in gs:
            row = asdict(g)
            row["cards"] = [card(slug, c, lang) for c in g.cards]
            row["backs"] = range(g.backs)
            row["pos"] = (
                AROUND[(g.seat - first) % n]
                if b.around and n == 4 and isinstance(g.seat, int)
                else ""
            )
            out.append(row)
        return out

    panels = []
    for p in b.panels:
        row = asdict(p)
        row["groups"] = groups(p.groups)
        panels.append(row)
    return {
        "seats": seats,
        "around": b.around,
        "centre": groups(b.centre),
        "centre_title": b.centre_title,
        "notes": b.notes,
        "panels": panels,
        "back": cards.back(slug),
    }


def choices(
    slug: str,
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    lang: str,
    names: list[str] | None = None,
) -> dict[str, Any]:
    """The hand with each card's move, the options that modify a card's move, the other
    moves as buttons (drawing the cards they name), and why a rule narrows the choice."""
    module = game_faces.for_game(slug)
    hand_codes = hand_of(slug, view) or []
    options_keys: tuple[str, ...] = tuple(getattr(module, "OPTIONS", ())) if module else ()
    uses = getattr(module, "uses", None)
    by_card: dict[str, list[dict[str, Any]]] = {}
    verb = getattr(game_words.for_game(slug), "verb", None)
    option_values: dict[str, list[Any]] = {}
    others = []
    for a in legal:
        code = uses(a) if uses is not None else None
        if code is not None and code in hand_codes:
            for k in options_keys:
                if a.get(k) is not None and a[k] not in option_values.setdefault(k, []):
                    option_values[k].append(a[k])
            if all(a.get(k) is None for k in options_keys):
                by_card.setdefault(code, []).append(
                    {
                        "json": compact(a),
                        "label": _label(slug, a, lang, names),
                        "verb": str(verb(a, lang))
                        if verb is not None
                        else _label(slug, a, lang, names),
                    }
                )
            continue
        shows = getattr(module, "shows", None)
        named = shows(a) if shows is not None else [code] if code else []
        others.append(
            {
                "json": compact(a),
                "label": _label(slug, a, lang, names),
                "cards": [card(slug, c, lang) for c in named],
            }
        )
    hand = []
    seen: set[str] = set()
    for code in hand_codes:
        row = card(slug, code, lang)
        moves = by_card.get(code, []) if code not in seen else []
        # A second copy of a card (Er Giò's armed groups) moves as the first one does.
        row["dup"] = code in seen and bool(by_card.get(code))
        seen.add(code)
        row["move"] = moves[0] if len(moves) == 1 else None
        row["moves"] = moves if len(moves) > 1 else []
        hand.append(row)
    options = []
    words = game_words.for_game(slug)
    for key, values in option_values.items():
        labels = getattr(words, "option", None)
        options.append(
            {
                "key": key,
                "title": labels(key, None, lang) if labels else key,
                "values": [
                    {"value": v, "label": labels(key, v, lang) if labels else str(v)}
                    for v in values
                ],
            }
        )
    why = module.why(view, legal, lang) if module is not None and legal else ""
    return {
        "hand": hand,
        "options": options,
        "others": others,
        "why": why,
        "playable": len(by_card),
    }


def merge_options(slug: str, action: Any, post: Any) -> Any:
    """The move of a card with the options ticked beside the hand (a Tarocco signal)."""
    module = game_faces.for_game(slug)
    if not isinstance(action, dict):
        return action
    for key in getattr(module, "OPTIONS", ()) if module else ():
        value = post.get(f"opt_{key}")
        if value:
            with contextlib.suppress(ValueError):
                value = json.loads(value)  # a number stays a number
            action = {**action, key: value}
    return action


def slots(
    slug: str, view: dict[str, Any], legal: list[dict[str, Any]], lang: str
) -> dict[str, Any] | None:
    """A play of several cards of the hand in order (cardChess: one card for each face-up
    card): one choice of a card per place instead of every ordering as a button. The
    first legal play is chosen to begin with; the engine checks the play sent."""
    module = game_faces.for_game(slug)
    key = getattr(module, "SLOTS", None) if module else None
    if not key or not legal or any(set(a) != {key} for a in legal):
        return None
    plays = [a[key] for a in legal]
    if not all(isinstance(p, list) for p in plays) or len({len(p) for p in plays}) != 1:
        return None
    labels = module.slot_labels(view, lang)
    hand = [c for c in view.get("hand") or [] if isinstance(c, str)]
    first = plays[0]
    places = []
    for i in range(len(first)):
        items = [
            {**card(slug, c, lang), "index": j, "checked": c == first[i]}
            for j, c in enumerate(hand)
        ]
        # One copy of a card chosen once is enough (two identical cards in the hand).
        chosen = [it for it in items if it["checked"]]
        for extra in chosen[1:]:
            extra["checked"] = False
        places.append(
            {"n": i, "label": labels[i] if i < len(labels) else str(i + 1), "items": items}
        )
    return {"key": key, "places": places, "count": len(first)}


def compose_slots(slug: str, post: Any) -> dict[str, Any] | None:
    """The play chosen place by place, as the game's action."""
    module = game_faces.for_game(slug)
    key = getattr(module, "SLOTS", None) if module else None
    if not key or post.get("slots") != key:
        return None
    raw = str(post.get("slot_count", ""))
    count = min(int(raw), 10) if raw.isdigit() else 0
    return {key: [post.get(f"slot_{i}", "") for i in range(count)]}


def number(
    slug: str, legal: list[dict[str, Any]], view: dict[str, Any], lang: str
) -> dict[str, Any] | None:
    """A move written as a number (a San Marco colour's points): one field with its
    bounds instead of a list of every value; the move's other keys are fixed."""
    module = game_faces.for_game(slug)
    declare = getattr(module, "number", None) if module else None
    key = declare(legal) if declare is not None else None
    if key is None:
        return None
    fixed = [{k: v for k, v in a.items() if k != key} for a in legal]
    values = [a[key] for a in legal if isinstance(a.get(key), int)]
    if not values or any(f != fixed[0] for f in fixed):
        return None
    return {
        "key": key,
        "fixed": compact(fixed[0]),
        "min": min(values),
        "max": max(values),
        "label": module.number_label(fixed[0], view, lang),
    }


def compose_number(slug: str, post: Any) -> dict[str, Any] | None:
    key = post.get("number")
    if not key:
        return None
    try:
        fixed = json.loads(post.get("fixed", ""))
        value = int(post.get("value", ""))
    except ValueError:
        return None
    if not isinstance(fixed, dict):
        return None
    return {**fixed, str(key): value}

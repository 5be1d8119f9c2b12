"""A real San Marco table rebuilt at the referee desk (see games/core/tabledeal.py).

The scoring round of a two-player variant: which colours each player answers for, tapped like
cards, then each colour's prestige points typed in a number field, one entry at a time. The
points are a number, not a choice among 201 buttons: ``number_entry`` says what the desk asks
(whose colour, how many points) and ``number_step`` reads the answer into a step. What was
really written is taken as written (a colour out of turn, a number beyond the table's cap):
the verdict names the rule it breaks.

The board game: its set-up is the picker's deal, each colour's four rolls tapped as the
districts they put two aristocrats in, on the drawn board (``pack`` marks its group
``board``: the districts where the map has them). The rest of its chance is asked for when
the play reaches it (``chance_entry``, read by ``chance_apply``): the role draw among the
draws the rules allow, chosen from a list; the distributor's cards, each action card chosen
from a list of what the deck still holds and each limit card typed as a number; a die typed
as a number. Every step is then entered from the engine's choices, with the steps a table can
physically take beside them marked with the rule they break (``illegal_steps``): a bridge
where the board has no site, a district card's aristocrat put in a district it does not lead
to, a banishment that removes the wrong colour first, the Doge walked back into a district.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from games.core import RecordError, registry
from games.core.words import join, pick, seat_name
from games.sanmarco import words as W
from games.sanmarco.board import DISTRICTS
from games.sanmarco.cards import CARD_NAMES
from games.sanmarco.state import DEFAULT_COLOURS, SLOTS, BoardRuleset

KIND = "cards"


def _ruleset(ruleset: Any) -> Any:
    if ruleset is not None and hasattr(ruleset, "seats"):
        return ruleset
    return registry.get("sanmarco").ruleset(ruleset or None)


def offers_deal(ruleset: Any, record: Mapping[str, Any] | None = None) -> bool:
    """Both have a deal to tap: the scoring round its colours, the board its set-up, unless
    the record draws the board's chance from a seed (a digital table's game)."""
    deal = (record or {}).get("deal")
    return not (_board(ruleset) and isinstance(deal, Mapping) and "seed" in deal)


def _board(ruleset: Any) -> bool:
    return isinstance(_ruleset(ruleset), BoardRuleset)


def titles(lang: str, ruleset: Any = None) -> dict[str, str]:
    if ruleset is not None and _board(ruleset):
        return {
            "title": pick(lang, "La preparazione del tabellone", "The board's set-up"),
            "enter": pick(
                lang, "Inserisci la preparazione del tabellone", "Enter the board's set-up"
            ),
            "change": pick(lang, "Vedi o cambia la preparazione", "See or change the set-up"),
            "done": pick(lang, "Ogni tiro è segnato.", "Every roll is marked."),
            "save": pick(lang, "Salva la preparazione", "Save the set-up"),
            "intro": pick(
                lang,
                "Scegli un colore, poi tocca sul tabellone il quartiere di ciascuno dei suoi "
                "quattro tiri, nell'ordine in cui sono usciti: ogni tiro vi mette due "
                "aristocratici. Per togliere un tiro, toccalo sotto il nome del colore.",
                "Choose a colour, then tap on the board the district of each of its four "
                "rolls, in the order they came: each roll puts two aristocrats there. To take "
                "a roll back, tap it under the colour's name.",
            ),
        }
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


def _colours(ruleset: Any, names: Sequence[str] | None, lang: str) -> list[dict[str, Any]]:
    """The board's colours: index, kind (player, ghost, neutral), seat and name in words."""
    from games.sanmarco.faces import HUES, NEUTRAL_HUE

    engine: Any = registry.get("sanmarco")
    view = engine.new_game(_ruleset(ruleset), 0).view(None)
    out = []
    for c, row in enumerate(view.get("colours") or []):
        kind, seat = row.get("kind"), row.get("seat")
        _fill, it, en = NEUTRAL_HUE if kind == "neutral" else HUES[c % len(HUES)]
        hue = pick(lang, it, en)
        if kind == "ghost":
            who = pick(lang, "fantasma", "ghost")
        elif kind == "neutral":
            who = pick(lang, "neutro", "neutral")
        else:
            who = _who(int(seat), names, lang) if isinstance(seat, int) else ""
        out.append(
            {
                "colour": c,
                "kind": kind,
                "seat": seat,
                "name": f"{hue[:1].upper()}{hue[1:]} ({who})" if who else hue,
            }
        )
    return out


def _district_board(ruleset: Any) -> Any:
    from games.sanmarco.board import load_board

    return load_board(getattr(_ruleset(ruleset), "board", None))


def pack(lang: str, ruleset: Any = None) -> list[dict[str, Any]]:
    """The variant's colours, in the order the table writes them; for the board game the six
    districts, drawn where the map has them (a roll may name a district again and again)."""
    if _board(ruleset):
        from games.sanmarco.faces import PLACES

        board = _district_board(ruleset)
        rolls = 4 * len(_colours(ruleset, None, lang)) + 6
        sites = [
            {
                "x1": PLACES[DISTRICTS[a]][0],
                "y1": PLACES[DISTRICTS[a]][1],
                "x2": PLACES[DISTRICTS[b]][0],
                "y2": PLACES[DISTRICTS[b]][1],
            }
            for a, b in board.sites
        ]
        return [
            {
                "name": pick(lang, "I quartieri", "The districts"),
                "board": {"width": 360, "height": 312, "sites": sites},
                "cards": [
                    {
                        "code": d,
                        "name": W.district(d),
                        "short": pick(lang, f"dado {board.die[i]}", f"die {board.die[i]}"),
                        "copies": rolls,
                        "x": PLACES[d][0],
                        "y": PLACES[d][1],
                    }
                    for i, d in enumerate(DISTRICTS)
                ],
            }
        ]
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
    """Each player's colours, in the order that player writes them; for the board game each
    colour's four set-up rolls (and the neutral colour's six in variant 2)."""
    if _board(ruleset):
        out = []
        for row in _colours(ruleset, names, lang):
            if row["kind"] == "neutral":
                out.append(
                    {
                        "key": "neutral",
                        "name": row["name"],
                        "size": 6,
                        "hint": pick(
                            lang,
                            "Uno per quartiere già posato; qui i sei tiri, uno ciascuno.",
                            "One a district is already laid; here its six rolls, one each.",
                        ),
                    }
                )
                continue
            out.append(
                {
                    "key": f"colour{row['colour']}",
                    "name": row["name"],
                    "size": 4,
                    "hint": pick(
                        lang,
                        "Quattro tiri, due aristocratici ciascuno.",
                        "Four rolls, two aristocrats each.",
                    ),
                }
            )
        return out
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
    """The record's deal from the colours placed, or an error at the place at fault; for the
    board game its set-up dice, colour by colour in the order rolled."""
    if _board(ruleset):
        board = _district_board(ruleset)
        dice: list[int] = []
        for p in places("en", None, ruleset):
            given = list(placed.get(p["key"], []))
            if len(given) != p["size"]:
                raise RecordError(f"expected {p['size']} rolls, got {len(given)}", path=p["key"])
            for d in given:
                if d not in DISTRICTS:
                    raise RecordError(f"{d} is not a district", path=p["key"])
                dice.append(int(board.die[DISTRICTS.index(d)]))
        return {"chance": {"dice": dice, "action_cards": [], "limit_cards": [], "roles": []}}
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


def placed_from_record(record: Mapping[str, Any]) -> tuple[int, dict[str, list[str]]]:
    """The places of a recorded deal, to show it or change it (the board: its set-up)."""
    found = record.get("deal")
    if not isinstance(found, Mapping):
        return -1, {}
    ruleset = record.get("ruleset")
    if not _board(ruleset) or not isinstance(found.get("chance"), Mapping):
        return placed_from(found)
    board = _district_board(ruleset)
    dice = list(found["chance"].get("dice") or [])
    out: dict[str, list[str]] = {}
    for p in places("en", None, ruleset):
        taken, dice = dice[: p["size"]], dice[p["size"] :]
        out[p["key"]] = [DISTRICTS[board.die.index(v)] for v in taken if v in board.die]
    return -1, out


def kept_chance(earlier: Mapping[str, Any], deal: Mapping[str, Any]) -> dict[str, Any]:
    """A set-up entered again keeps the chance said after it (the cards, roles and dice of
    the play already entered)."""
    new = dict(deal)
    before = earlier.get("deal") if isinstance(earlier, Mapping) else None
    chance = before.get("chance") if isinstance(before, Mapping) else None
    now = new.get("chance")
    if not isinstance(chance, Mapping) or not isinstance(now, Mapping):
        return new
    merged = {k: list(v) for k, v in now.items()}
    setup = len(merged.get("dice") or [])
    merged["dice"] = list(merged.get("dice") or []) + list(chance.get("dice") or [])[setup:]
    for kind in ("action_cards", "limit_cards", "roles"):
        merged[kind] = list(chance.get(kind) or [])
    new["chance"] = merged
    return new


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
    """What a player at the board could physically do beside the steps the rules allow (the
    desk offers them marked, with the rule they break, so a fault on the board is entered by
    tapping): a bridge between any two districts when a bridge is laid; a district card's
    aristocrat put in any other district (not across one of the player's bridges); an
    aristocrat of any colour present taken off when a banishment removes them (its
    own before the others'); the Doge over any bridge of its district when it walks (back
    into a district it has passed)."""
    if "board" not in view:
        return []
    doing = {str(s.get("do")) for s in legal}
    out: list[dict[str, Any]] = []
    if "bridge" in doing:
        laid = {frozenset(s.get("between") or []) for s in legal if s.get("do") == "bridge"}
        # with every bridge on the board a bridge is laid by taking one over (the first
        # one the rules let this colour take)
        takes = [s["take"] for s in legal if s.get("do") == "bridge" and "take" in s]
        for i, a in enumerate(DISTRICTS):
            for b in DISTRICTS[i + 1 :]:
                if frozenset((a, b)) not in laid:
                    step: dict[str, Any] = {"seat": seat, "do": "bridge", "between": [a, b]}
                    if takes:
                        step["take"] = takes[0]
                    out.append(step)
    if "district" in doing:
        # a district card's aristocrat put in a district the card does not lead to
        cards = [d for d in DISTRICTS if {"seat": seat, "do": "district", "district": d} in legal]
        ends = {
            (s.get("district"), s.get("to") or s.get("district"))
            for s in legal
            if s.get("do") == "district" and "from" not in s
        }
        for card in cards:
            for d in DISTRICTS:
                if (card, d) not in ends:
                    out.append({"seat": seat, "do": "district", "district": card, "to": d})
    pending = view.get("pending")
    cubes = view.get("cubes")
    if "remove" in doing and isinstance(pending, Mapping) and isinstance(cubes, Mapping):
        at = pending.get("district")
        row = cubes.get(DISTRICTS[at]) if isinstance(at, int) and 0 <= at < 6 else None
        allowed = {s.get("colour") for s in legal if s.get("do") == "remove"}
        for c, n in enumerate(row or []):
            if n and c not in allowed:
                out.append({"seat": seat, "do": "remove", "colour": c})
    if "doge" in doing:
        # over a bridge of the district it stands in, back where it has been this move
        walked = {s.get("bridge") for s in legal if s.get("do") == "doge"}
        at = view.get("doge")
        for i, bridge in enumerate(view.get("bridges") or []):
            if i not in walked and at in (bridge.get("between") or []):
                out.append({"seat": seat, "do": "doge", "bridge": i})
    return out


# --- the board's chance, asked for when the play reaches it --------------------------------
def _wanted(record: Mapping[str, Any]) -> tuple[list[Any], Any, int] | None:
    """What chance the record lacks first: the engine's ``wanted`` (kind, and for cards how
    many and the deck, for roles the draws allowed), the state where it stopped and the
    step that asked (-1: the set-up); None when nothing is missing, the record draws from a
    seed or it is not a board game."""
    deal = record.get("deal")
    if not isinstance(deal, Mapping) or "seed" in deal or not _board(record.get("ruleset")):
        return None
    engine: Any = registry.get("sanmarco")
    try:
        state = engine.start(record)
    except RecordError:
        return None  # the set-up is the picker's
    step = -1
    try:
        for step, raw in enumerate(record.get("actions") or []):
            seat, action = engine.decode_step(raw, f"actions[{step}]")
            state.apply_unchecked(seat, action)
    except RecordError as exc:
        chance = state.chance
        wanted = list(getattr(chance, "wanted", None) or [])  # an engine built before it: []
        if not str(exc.path or "").startswith("deal.chance") or not wanted:
            return None
        if len(chance.used[wanted[0]]) < len(chance.given.get(wanted[0]) or []):
            return None  # what is written cannot be: the verdict says so
        if wanted[0] != "roles" and len(wanted) > 2 and int(wanted[1]) > len(wanted[2]):
            # the deck runs out during the draw: its discards come back into it
            discard = state.action_discard if wanted[0] == "action_cards" else state.limit_discard
            wanted[2] = [*wanted[2], *discard]
        return wanted, state, step
    return None


def _colour_word(state: Any, colour: int, names: Sequence[str] | None, lang: str) -> str:
    rows = _colours(state.ruleset, names, lang)
    return str(rows[colour]["name"]) if 0 <= colour < len(rows) else str(colour + 1)


def chance_entry(
    record: Mapping[str, Any], lang: str, names: Sequence[str] | None = None
) -> dict[str, Any] | None:
    """The chance the referee is asked for before the play goes on, as a form: ``legend``,
    ``lead`` (when it came), ``step`` (the step that asked for it, -1 for none) and
    ``fields``, each with ``name``, ``label``, ``kind`` ("select" with ``options`` as
    (value, words), or "number" with ``min`` and ``max``)."""
    found = _wanted(record)
    if found is None:
        return None
    asked = _entry(found, record, lang, names)
    asked["step"] = found[2]
    return asked


def _entry(
    found: tuple[list[Any], Any, int],
    record: Mapping[str, Any],
    lang: str,
    names: Sequence[str] | None,
) -> dict[str, Any]:
    wanted, state, step = found
    kind = wanted[0]
    after = ""
    if step >= 0:
        raw = (record.get("actions") or [])[step]
        said = W.board_action({k: v for k, v in raw.items() if k != "seat"}, lang)
        who = _who(int(raw.get("seat", 0)), names, lang)
        after = pick(
            lang,
            f"Dopo il passo {step + 1} ({who}: {said})",
            f"After step {step + 1} ({who}: {said})",
        )
    if kind == "dice":
        return {
            "kind": "dice",
            "legend": pick(lang, "Il dado tirato", "The die rolled"),
            "lead": after,
            "fields": [
                {
                    "name": "die",
                    "label": pick(lang, "Il dado mostra", "The die shows"),
                    "kind": "number",
                    "min": 1,
                    "max": 6,
                }
            ],
        }
    if kind == "roles":
        options = []
        for draw in wanted[1]:
            words = _roles_words([int(c) for c in draw], state, names, lang)
            options.append(("-".join(str(c) for c in draw), words))
        return {
            "kind": "roles",
            "legend": pick(
                lang, "I ruoli sorteggiati per il giro", "The roles drawn for the round"
            ),
            "lead": after,
            "fields": [
                {
                    "name": "roles",
                    "label": pick(
                        lang, "Chi distribuisce e chi sceglie", "Who divides and who chooses"
                    ),
                    "kind": "select",
                    "options": options,
                }
            ],
        }
    pair = state.pairs[0] if state.pairs else None
    who = _colour_word(state, int(pair.distributor), names, lang) if pair is not None else ""
    fields: list[dict[str, Any]] = []
    if kind == "action_cards":
        held = sorted(set(int(c) for c in wanted[2]))
        options = [(CARD_NAMES[c], _card_words(CARD_NAMES[c], lang)) for c in held]
        for i in range(int(wanted[1])):
            fields.append(
                {
                    "name": f"action{i}",
                    "label": pick(lang, f"Carta azione {i + 1}", f"Action card {i + 1}"),
                    "kind": "select",
                    "options": options,
                }
            )
        limits = int(pair.limits) if pair is not None else 0
    else:
        limits = int(wanted[1])
    limit_deck = len(state.limit_deck) + len(state.limit_discard)
    for i in range(min(limits, limit_deck) if kind == "action_cards" else limits):
        fields.append(
            {
                "name": f"limit{i}",
                "label": pick(lang, f"Carta limite {i + 1}: valore", f"Limit card {i + 1}: value"),
                "kind": "number",
                "min": 1,
                "max": 3,
            }
        )
    return {
        "kind": "cards",
        "legend": pick(lang, f"Le carte pescate da {who}", f"The cards {who} drew"),
        "lead": after
        or pick(lang, "Il primo giro dopo la preparazione", "The first round after the set-up"),
        "fields": fields,
    }


def _card_words(name: str, lang: str) -> str:
    from games.sanmarco.faces import card_name

    if name in DISTRICTS:
        return pick(lang, f"Quartiere: {W.district(name)}", f"District: {W.district(name)}")
    return card_name(name, lang)


def _roles_words(draw: list[int], state: Any, names: Sequence[str] | None, lang: str) -> str:
    said = [_colour_word(state, c, names, lang) for c in draw]
    if len(draw) == 4:
        return pick(
            lang,
            f"distribuiscono {said[0]} e {said[1]}; scelgono {said[2]} (da {said[0]}) e "
            f"{said[3]} (da {said[1]})",
            f"{said[0]} and {said[1]} divide; {said[2]} chooses from {said[0]}, {said[3]} "
            f"from {said[1]}",
        )
    if len(draw) == 3:
        return pick(
            lang,
            f"distribuisce {said[0]}; sceglie prima {said[1]}, poi {said[2]}",
            f"{said[0]} divides; {said[1]} chooses first, then {said[2]}",
        )
    return pick(lang, f"distribuisce {said[0]}", f"{said[0]} divides") + (
        pick(lang, f"; sceglie {said[1]}", f"; {said[1]} chooses") if len(said) > 1 else ""
    )


def chance_apply(record: Mapping[str, Any], values: Mapping[str, str]) -> dict[str, Any]:
    """The record with the chance asked for by ``chance_entry`` written in, or an error whose
    path is the field at fault."""
    found = _wanted(record)
    if found is None:
        raise RecordError("no chance is waiting to be said", path="chance")
    wanted, state, _step = found
    out = copy.deepcopy(dict(record))
    chance = out["deal"].setdefault("chance", {})
    for k in ("dice", "action_cards", "limit_cards", "roles"):
        chance.setdefault(k, [])
    kind = wanted[0]
    if kind == "dice":
        chance["dice"].append(_whole(values, "die", 1, 6))
        return out
    if kind == "roles":
        allowed = {"-".join(str(c) for c in draw): [int(c) for c in draw] for draw in wanted[1]}
        chosen = str(values.get("roles", ""))
        if chosen not in allowed:
            raise RecordError("choose one of the draws", path="roles")
        chance["roles"].append(allowed[chosen])
        return out
    entry = chance_entry(record, "en")
    assert entry is not None
    left = Counter(CARD_NAMES[int(c)] for c in wanted[2]) if kind == "action_cards" else None
    limits = Counter(int(v) for v in state.limit_deck + state.limit_discard)
    if kind == "limit_cards":
        limits = Counter(int(v) for v in wanted[2])
    for field in entry["fields"]:
        name = field["name"]
        if name.startswith("action"):
            card = str(values.get(name, ""))
            assert left is not None
            if left[card] <= 0:
                raise RecordError("not a card the deck still holds", path=name)
            left[card] -= 1
            chance["action_cards"].append(card)
        else:
            v = _whole(values, name, 1, 3)
            if limits[v] <= 0:
                raise RecordError("the limit deck holds no more of that value", path=name)
            limits[v] -= 1
            chance["limit_cards"].append(v)
    return out


def _whole(values: Mapping[str, str], name: str, low: int, high: int) -> int:
    text = str(values.get(name, "")).strip()
    if not text.isdigit() or not low <= int(text) <= high:
        raise RecordError(f"a whole number from {low} to {high}", path=name)
    return int(text)


# --- the chance on the desk's timeline ---------------------------------------------------
def chance_steps(
    record: Mapping[str, Any], lang: str, names: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """``Game.chance_steps`` for the board: the record replayed, and what chance gave
    before the first step (the set-up rolls) and after each step, in words: the dice, the
    roles drawn for a round, the cards a distributor drew. It stops where the record cannot
    be replayed (or its chance runs out: the desk asks for it)."""
    if not _board(record.get("ruleset")):
        return []
    engine: Any = registry.get("sanmarco")
    out: list[dict[str, Any]] = []
    try:
        state = engine.start(record)
    except RecordError:
        return out
    seen = {k: 0 for k in state.chance.used}
    actions = record.get("actions") or []
    for n in range(len(actions) + 1):
        used = state.chance.used
        parts: list[str] = []
        dice = [str(v) for v in used["dice"][seen["dice"] :]]
        if n == 0 and dice:
            # the set-up: four rolls per colour, colour by colour (variant 2's neutral six)
            rolled = [c for c, kind in enumerate(state.kinds) if kind != "neutral"]
            for c in rolled:
                mine, dice = dice[:4], dice[4:]
                parts.append(
                    pick(lang, "tiri di preparazione di ", "set-up rolls of ")
                    + f"{_colour_word(state, c, names, lang)}: {', '.join(mine)}"
                )
            if dice:
                neutral = pick(lang, "il neutro", "the neutral colour")
                parts.append(f"{neutral}: {', '.join(dice)}")
            dice = []
        if dice:
            parts.append(
                pick(
                    lang,
                    "dadi: " if len(dice) > 1 else "dado: ",
                    "dice: " if len(dice) > 1 else "die: ",
                )
                + join(dice, lang)
            )
        for draw in used["roles"][seen["roles"] :]:
            parts.append(
                pick(lang, "ruoli sorteggiati: ", "roles drawn: ")
                + _roles_words([int(c) for c in draw], state, names, lang)
            )
        drawn = [_card_words(str(c), lang) for c in used["action_cards"][seen["action_cards"] :]]
        limits = [str(v) for v in used["limit_cards"][seen["limit_cards"] :]]
        if drawn or limits:
            pair = state.pairs[0] if state.pairs else None
            who = _colour_word(state, int(pair.distributor), names, lang) if pair else ""
            said = ", ".join(drawn)
            if limits:
                said += pick(lang, "; limiti ", "; limits ") if said else ""
                said += ", ".join(limits)
            parts.append(pick(lang, f"{who} pesca: {said}", f"{who} draws: {said}"))
        if parts:
            label = "; ".join(parts)
            out.append({"after": n, "label": label[:1].upper() + label[1:]})
        seen = {k: len(v) for k, v in used.items()}
        if n == len(actions):
            break
        try:
            seat, action = engine.decode_step(actions[n], f"actions[{n}]")
            state.apply_unchecked(seat, action)
        except RecordError:
            break
    return out

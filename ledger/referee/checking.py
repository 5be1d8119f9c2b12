"""The engine's verdict on a record, made readable: every violation with its rule's
paraphrase in the reader's language, and the record as a timeline of tricks, turns or
scontri with the offending steps marked. Nothing here writes."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from games.core import RecordError, registry
from games.core import faces as game_faces
from games.core import tabledeal as game_tabledeal
from games.core import words as game_words
from ledger.clubs import cards as drawn
from ledger.clubs.errors import Invalid
from ledger.clubs.games import (
    chance_steps,
    engine_available,
    reader_language,
    step_groups,
    with_players,
)
from ledger.clubs.scoring import read_error_words
from ledger.referee import remedies

MAX_OFFERED = 300


def language() -> str:
    """The reader's language for the games' words (the one helper: clubs.games)."""
    return reader_language()


def engine_for(game: str) -> Any:
    if not engine_available(game):
        known = ", ".join(registry.available())
        raise Invalid(
            _("No rules engine for the game “%(game)s”; known: %(known)s.")
            % {"game": game, "known": known},
            fields={"game": [_("Unknown game.")]},
        )
    return registry.get(game)


def tabledeal_for(game: str) -> Any:
    """The game's card-by-card deal (games/<slug>/tabledeal.py), or an error in words."""
    found = game_tabledeal.for_game(game)
    if found is None:
        raise Invalid(
            _("This game's deal cannot be entered card by card yet: paste its record."),
            fields={"deal": [_("Not available for this game.")]},
        )
    return found


def step_words(game: str, raw: Mapping[str, Any], names: list[str] | None = None) -> str:
    """One step as players say it: who, and what they did (card names in words)."""
    words = game_words.for_game(game)
    seat = raw.get("seat")
    who = (
        names[seat]
        if names and isinstance(seat, int) and 0 <= seat < len(names)
        else (_("Seat %(n)s") % {"n": seat + 1 if isinstance(seat, int) else seat})
    )
    if words is None:
        return f"{who}: {_label(raw)}"
    said = str(words.action({k: v for k, v in raw.items() if k != "seat"}, language(), names))
    return f"{who}: {said}"


def with_ruleset(record: Mapping[str, Any], ruleset: Any) -> dict[str, Any]:
    """The competition's ruleset applies unless the record names its own."""
    out = dict(record)
    if ruleset and "ruleset" not in out:
        out["ruleset"] = ruleset
    return out


def _json_words(exc: ValueError) -> str:
    """What a JSON reader found wrong, in the reader's language (its place is shown apart)."""
    said = str(getattr(exc, "msg", exc))
    known = {
        "Expecting ',' delimiter": _("a comma is missing"),
        "Expecting ':' delimiter": _("a colon is missing after a name"),
        "Expecting value": _("a value is missing"),
        "Expecting property name enclosed in double quotes": _("a name must be in double quotes"),
        "Unterminated string starting at": _("a text in quotes is not closed"),
        "Extra data": _("there is more text after the end of the record"),
        "Invalid control character at": _("a line break inside a text in quotes"),
    }
    for start, words in known.items():
        if said.startswith(start):
            return str(words)
    return said


def parse_record(text: str) -> dict[str, Any]:
    """A record pasted or uploaded as JSON, or a clear error."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise Invalid(
            _("The record is not valid JSON: %(error)s") % {"error": _json_words(exc)},
            fields={"record": [_("Paste the game's record as JSON (see its notation).")]},
        ) from exc
    if not isinstance(data, dict):
        raise Invalid(
            _("A record is a JSON object with the deal and the actions."),
            fields={"record": [_("Expected a JSON object.")]},
        )
    return data


def check(
    game: str,
    record: Any,
    ruleset: Any = None,
    names: list[str] | None = None,
    remedy: bool | Mapping[str, Any] = True,
) -> dict[str, Any]:
    """Replay a record: the verdict JSON, each violation explained, and the timeline."""
    engine = engine_for(game)
    if not isinstance(record, Mapping):
        raise Invalid(
            _("A record is a JSON object with the deal and the actions."),
            fields={"record": [_("Expected a JSON object.")]},
        )
    full = with_ruleset(record, ruleset)
    # Chance that fell at the table and is not said yet (San Marco's cards, roles, dice):
    # the verdict is on the steps before the one that asked for it, not a fault of that step.
    ask = getattr(game_tabledeal.for_game(game), "chance_entry", None)
    waiting = ask(full, language(), names) if ask is not None else None
    checked = full
    if waiting is not None and int(waiting.get("step", -1)) >= 0:
        checked = {**full, "actions": list(full.get("actions", []))[: int(waiting["step"])]}
    try:
        verdict = engine.validate(checked)
    except RecordError as exc:
        said = read_error_words(game, exc, full, (lambda: names) if names else None, record=True)
        raise Invalid(
            _("The record cannot be read: %(error)s") % {"error": said},
            fields={"record": [said]},
        ) from exc
    out: dict[str, Any] = verdict.to_json()
    lang = language()
    for v in out["violations"]:
        rule = engine.rules.get(v["rule"])
        v["paraphrase"] = rule.text.as_dict() if rule else {}
        v["text"] = v["message"].get(lang) or v["message"].get("en", "")
        v["rule_text"] = v["paraphrase"].get(lang, "")
        # What happened, without the rule's own words repeated in front.
        detail = v["text"]
        if v["rule_text"] and detail.startswith(v["rule_text"]):
            detail = detail[len(v["rule_text"]) :].strip()
        # each seat the game counts from 1 followed by who sits there ("posto 2 (Bruno)")
        v["detail"] = with_players(detail, names) if names else detail
        if not v["detail"]:
            # the rule's words say it all: what happened is the step itself, in words
            v["detail"] = v["what"] = _step_said(game, full, v.get("step"), names)
        v["number"] = v["step"] + 1 if isinstance(v.get("step"), int) else None
        seat = v.get("seat")
        v["who"] = (
            names[seat]
            if names and isinstance(seat, int) and 0 <= seat < len(names)
            else (_("Seat %(n)s") % {"n": seat + 1} if isinstance(seat, int) else "")
        )
    # The remedy plays the hand on from the fault (a bot's game): worked out once per change
    # of the record and kept with the case's verdict, which a page may pass back here.
    if isinstance(remedy, Mapping):
        out["remedy"] = dict(remedy)
    else:
        out["remedy"] = remedies.propose(engine, checked, out) if remedy else {}
    out["waiting"] = (
        {"legend": waiting["legend"], "lead": waiting.get("lead", "")} if waiting else None
    )
    first = out["violations"][0] if out["violations"] else None
    if first is not None:
        seat = first.get("seat")
        offenders = out["remedy"].get("offenders") or ([seat] if isinstance(seat, int) else [])
        remedies.consequences(out["violations"], offenders)
        for v in out["violations"]:
            if "consequence" in v:
                v["is_consequence"] = True
                v["engine_detail"] = v["detail"]
                v["detail"] = _(
                    "A consequence of the fault at step %(n)d, not a new fault of %(who)s."
                ) % {"n": v["consequence"] + 1, "who": v["who"] or _("this seat")}
    out["faults"] = [v for v in out["violations"] if "consequence" not in v]
    out["consequences"] = [v for v in out["violations"] if "consequence" in v]
    out["first_violation"] = first
    words = game_words.for_game(game)
    lines = getattr(words, "outcome_lines", None) if words is not None else None
    out["outcome_lines"] = (
        lines(out["outcome"].get("detail"), lang) if lines and out["outcome"] else []
    )
    out["scores"] = out["outcome"]["scores"] if out["outcome"] else None
    out["timeline"] = timeline(game, full.get("actions", []), out, full, names)
    if waiting is not None:
        # the step that asked for the chance was legal: it waits, it is not left unread
        for group in out["timeline"]:
            for step in group["steps"]:
                if step["step"] == int(waiting.get("step", -1)) and not out["violations"]:
                    step["replayed"] = True
    return out


def _step_said(game: str, record: Mapping[str, Any], step: Any, names: list[str] | None) -> str:
    """What a step of the record did, in words, without who did it ("" when there is none)."""
    actions = record.get("actions")
    if not isinstance(step, int) or not isinstance(actions, list) or not 0 <= step < len(actions):
        return ""
    raw = actions[step]
    if not isinstance(raw, Mapping):
        return ""
    words = game_words.for_game(game)
    if words is None:
        return _label(raw)
    said = str(words.action({k: v for k, v in raw.items() if k != "seat"}, language(), names))
    return said[:1].upper() + said[1:]


def _label(raw: Mapping[str, Any]) -> str:
    parts = []
    for key, value in raw.items():
        if key == "seat":
            continue
        if value is True:
            parts.append(key)
        elif isinstance(value, list):
            parts.append(f"{key} {' '.join(str(x) for x in value)}")
        else:
            parts.append(f"{key} {value}")
    return " · ".join(parts)


def _after_each(game: str, record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The public view after each step (replayed as played), for the trick winners."""
    engine = engine_for(game)
    views: list[dict[str, Any]] = []
    try:
        state = engine.start(record)
        for step, raw in enumerate(record.get("actions", [])):
            seat, action = engine.decode_step(raw, f"actions[{step}]")
            state.apply_unchecked(seat, action)
            views.append(state.view(None))
    except (RecordError, ValueError, KeyError, IndexError):  # it shows what it has
        return views
    return views


def timeline(
    game: str,
    actions: Any,
    verdict: Mapping[str, Any],
    record: Mapping[str, Any] | None = None,
    names: list[str] | None = None,
) -> list[dict[str, Any]]:
    """The record's steps grouped into tricks / turns / scontri, offending steps marked,
    each step in words, each trick with who took it."""
    if not isinstance(actions, list):
        return []
    views = _after_each(game, record) if record is not None else []
    words = game_words.for_game(game)
    lang = language()
    by_step: dict[int, list[dict[str, Any]]] = {}
    for v in verdict["violations"]:
        if v.get("step") is not None:
            by_step.setdefault(v["step"], []).append(v)
    first = verdict["violations"][0].get("step") if verdict["violations"] else None
    groups: list[dict[str, Any]] = []
    steps = [(i, raw) for i, raw in enumerate(actions) if isinstance(raw, Mapping)]
    headings = step_groups(game, [raw for _i, raw in steps])
    # the chance that fell among the steps (dice, cards dealt or drawn, a role draw), as the
    # game says it: each shown where it fell, going back to it keeps the step that drew it
    fell: dict[int, list[dict[str, Any]]] = {}
    if record is not None:
        for k, said in enumerate(chance_steps(game, record, names)):
            fell.setdefault(int(said["after"]), []).append(
                {
                    "chance": True,
                    "step": None,
                    "anchor": f"chance-{k}",
                    "number": int(said["after"]) + 1,
                    "seat": None,
                    "label": str(said["label"]),
                    "taken": "",
                    "violations": [],
                    "first": False,
                    "replayed": True,
                }
            )
    for (i, raw), name in zip(steps, headings, strict=True):
        if i == 0 and fell.get(0):
            groups.append(
                {"name": _("Before the first step"), "steps": fell[0], "offending": False}
            )
        if not groups or groups[-1]["name"] != name:
            groups.append({"name": name, "steps": [], "offending": False})
        found = by_step.get(i, [])
        taken = ""
        if i < len(views):
            before = views[i - 1].get("tricks") if i > 0 else []
            after = views[i].get("tricks")
            if (
                isinstance(after, list)
                and after
                and len(after) > len(before or [])
                and isinstance(after[-1], dict)
            ):
                winner = after[-1].get("winner")
                if isinstance(winner, int):
                    who = names[winner] if names and winner < len(names) else str(winner)
                    groups[-1]["winner"] = who
                    cards = after[-1].get("cards") or []
                    if words is not None:
                        groups[-1]["cards"] = ", ".join(str(words.card(c, lang)) for c in cards)
                    taken = who
        groups[-1]["steps"].append(
            {
                "step": i,
                "number": i + 1,
                "seat": raw.get("seat"),
                "label": step_words(game, raw, names),
                "taken": taken,
                "violations": found,
                "first": i == first,
                "replayed": i < verdict["steps"],
            }
        )
        groups[-1]["offending"] = groups[-1]["offending"] or bool(found)
        # what chance gave right after this step, beside it
        groups[-1]["steps"].extend(fell.get(i + 1, []))
    if not steps and fell.get(0):
        groups.append({"name": _("Before the first step"), "steps": fell[0], "offending": False})
    return groups


def builder(
    game: str, record: Mapping[str, Any], ruleset: Any = None, names: list[str] | None = None
) -> dict[str, Any]:
    """Where a step-by-step entry stands: whose turn, the legal choices in words, and when a
    seat plays a card, every card it holds (a card the rules forbid is offered too, to record
    what was really played)."""
    engine = engine_for(game)
    full = with_ruleset(record, ruleset)
    ask = getattr(game_tabledeal.for_game(game), "chance_entry", None)
    chance = ask(full, language(), names) if ask is not None else None
    if chance is not None:
        # Chance that fell at the table and is not said yet (San Marco's cards, roles and
        # dice): asked for before the play goes on, in a form of the game's own terms.
        return {
            "error": "",
            "seat": None,
            "choices": [],
            "held": [],
            "chance": chance,
            "over": False,
        }
    try:
        state = engine.start(full)
        for step, raw in enumerate(full.get("actions", [])):
            seat, action = engine.decode_step(raw, f"actions[{step}]")
            state.apply_unchecked(seat, action)
    except RecordError as exc:
        said = read_error_words(game, exc, full, (lambda: names) if names else None, record=True)
        return {"error": said, "seat": None, "choices": [], "held": [], "over": False}
    if state.is_over():
        return {"error": "", "seat": None, "choices": [], "held": [], "over": True}
    seat = state.to_act()
    words = game_words.for_game(game)
    dealing = game_tabledeal.for_game(game)
    lang = language()
    asked = getattr(dealing, "pending", None)
    drawn = asked(full, state.view(None), lang) if asked is not None else None
    if drawn is not None:
        # Cards drawn at the table that the referee has not said yet: asked before the play
        # goes on (the engine cannot know them).
        says = getattr(dealing, "heading", None)
        drawn["heading"] = says(full, lang) if says is not None else ""
        drawn["faces"] = [
            {"code": c, "name": card_name(game, c, lang), "svg": face(game, c, lang)}
            for c in drawn.get("cards", [])
            # a card the deck holds several times, once for each that could be drawn
            for _copy in range(min(int(drawn.get("copies", {}).get(c, 1)), drawn["count"]))
        ]
        return {
            "error": "",
            "seat": seat,
            "who": drawn["who"],
            "choices": [],
            "held": [],
            "drawn": drawn,
            "over": False,
        }
    entry = getattr(dealing, "number_entry", None)
    number = entry(seat, state.view(seat), lang, names) if entry is not None else None
    if number is not None:
        # A number typed in a field, not one button per value (San Marco's points).
        who = names[seat] if names and seat is not None and seat < len(names) else str(seat)
        return {
            "error": "",
            "seat": seat,
            "who": who,
            "choices": [],
            "held": [],
            "groups": [],
            "held_groups": [],
            "card_set": None,
            "number": number,
            "over": False,
        }
    choices = []
    for action in list(state.legal_actions(seat))[:MAX_OFFERED]:
        encoded = {"seat": seat, **engine.encode_action(action)}
        said = (
            str(words.action(engine.encode_action(action), lang))
            if words is not None
            else _label(encoded)
        )
        choices.append({"json": json.dumps(encoded), "label": said, "raw": encoded})
    held: list[dict[str, Any]] = []
    card_set: dict[str, Any] | None = None
    every = list(state.legal_actions(seat))
    if every and dealing is not None and hasattr(dealing, "is_card_set"):
        first = {"seat": seat, **engine.encode_action(every[0])}
        if all(dealing.is_card_set({"seat": seat, **engine.encode_action(a)}) for a in every[:5]):
            # Too many combinations to offer one by one: tick the cards instead.
            hand = state.view(seat).get("hand") or []
            card_set = {
                "count": len(first.get("discard", [])),
                "hand": [
                    {"code": c, "name": str(words.card(c, lang)) if words is not None else c}
                    for c in hand
                ],
            }
            choices = []
    real = getattr(dealing, "real_steps", None)
    illegal = getattr(dealing, "illegal_steps", None)
    if real is not None or illegal is not None:
        legal_steps = [c["raw"] for c in choices]
        found = list(real(seat, state.view(seat))) if real is not None else []
        if illegal is not None:
            # the game says what could be done beside the legal steps it is shown
            found += illegal(seat, state.view(seat), legal_steps)
        for step in found:
            if step in legal_steps:
                continue
            held.append(
                {
                    "json": json.dumps(step),
                    "label": str(
                        words.action({k: v for k, v in step.items() if k != "seat"}, lang, names)
                    )
                    if words is not None
                    else _label(step),
                    "raw": step,
                    "why": why_not(engine, state, step, lang),
                }
            )
    is_play = getattr(dealing, "is_play", None)
    plays = [c for c in choices if is_play is not None and is_play(c["raw"])]
    if plays and len(plays) == len(choices):
        legal = {dealing.played_card(c["raw"]) for c in plays}
        hand = state.view(seat).get("hand") or []
        for code in hand:
            if code in legal:
                continue
            step = dealing.play_step(seat, code)
            held.append(
                {
                    "json": json.dumps(step),
                    "label": str(words.card(code, lang)) if words is not None else code,
                    "raw": step,
                    "why": why_not(engine, state, step, lang),
                }
            )
    who = names[seat] if names and seat is not None and seat < len(names) else str(seat)
    return {
        "error": "",
        "seat": seat,
        "who": who,
        "choices": choices,
        "held": held,
        "groups": _grouped(game, dealing, choices, lang),
        "held_groups": _grouped(game, dealing, held, lang),
        "card_set": card_set,
        "over": False,
    }


def why_not(engine: Any, state: Any, step: Mapping[str, Any], lang: str) -> str:
    """The rules one step would break where the record stands, in words ("" when legal)."""
    try:
        seat, action = engine.decode_step(dict(step), "action")
        found = state.check(seat, action)
    except (RecordError, ValueError, KeyError, IndexError):
        return ""
    said: list[str] = []
    for v in found:
        rule = engine.rules.get(v.rule)
        text = rule.text.as_dict().get(lang, "") if rule is not None else ""
        if text and text not in said:
            said.append(text)
    return " ".join(said)


def rules_in_words(game: str, rule_ids: list[str]) -> str:
    """Rule ids as the rules say them, in the reader's language."""
    engine = engine_for(game)
    lang = language()
    said: list[str] = []
    for rid in rule_ids:
        rule = engine.rules.get(rid)
        text = rule.text.as_dict().get(lang, "") if rule is not None else ""
        if text and text not in said:
            said.append(text)
    return " ".join(said)


def card_name(game: str, code: str, lang: str) -> str:
    words = game_words.for_game(game)
    return str(words.card(code, lang)) if words is not None else code


def face(game: str, code: str, lang: str) -> str:
    """A card as the digital tables draw it (SVG), or "" for a game without faces."""
    if game_faces.for_game(game) is None:
        return ""
    return str(drawn.svg(game, code, lang))


def _grouped(
    game: str, dealing: Any, choices: list[dict[str, Any]], lang: str
) -> list[dict[str, Any]]:
    """Choices under their headings (a game's tabledeal says which), each with the faces of
    the cards it names."""
    heading = getattr(dealing, "choice_group", None)
    faces = game_faces.for_game(game)
    shows = getattr(faces, "shows", None)
    groups: list[dict[str, Any]] = []
    for c in choices:
        title = heading(c["raw"], lang) if heading is not None else ""
        codes = shows(c["raw"]) if shows is not None else []
        # One card's face beside the words; a step naming several (a cardChess play under
        # three table cards) reads better in words alone.
        c["faces"] = [face(game, codes[0], lang)] if len(codes) == 1 else []
        if not groups or groups[-1]["title"] != title:
            groups.append({"title": title, "choices": []})
        groups[-1]["choices"].append(c)
    return groups


def breaches(game: str, record: Mapping[str, Any], ruleset: Any, raw: Any) -> list[str]:
    """The rule ids one more action would break after the record (empty: legal now)."""
    engine = engine_for(game)
    full = with_ruleset(record, ruleset)
    try:
        state = engine.start(full)
        for step, done in enumerate(full.get("actions", [])):
            seat, action = engine.decode_step(done, f"actions[{step}]")
            state.apply_unchecked(seat, action)
        seat, action = engine.decode_step(raw, "action")
    except RecordError as exc:
        raise Invalid(str(exc), fields={"record": [str(exc)]}) from exc
    if state.is_over():
        return [engine.rule_game_over]
    return [v.rule for v in state.check(seat, action)]


def decode_one(game: str, raw: Any) -> dict[str, Any]:
    """One action typed by the referee (what was really played), checked for shape only."""
    engine = engine_for(game)
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError as exc:
            raise Invalid(
                _("The action is not valid JSON: %(error)s") % {"error": exc},
                fields={"action": [_('Write it as in the notation, e.g. {"seat": 0, ...}.')]},
            ) from exc
    try:
        seat, action = engine.decode_step(raw, "action")
    except RecordError as exc:
        raise Invalid(
            _("The action cannot be read: %(error)s") % {"error": exc},
            fields={"action": [str(exc)]},
        ) from exc
    return {"seat": seat, **engine.encode_action(action)}

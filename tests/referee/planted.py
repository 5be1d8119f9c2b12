"""Records with one planted violation, built from games the engines' bots played.

Shared by the unit, API and browser tests of the referee desk.
"""

from __future__ import annotations

import copy
from typing import Any

from games.core import RecordError, registry
from games.core.engine import play


def played(game: str, seed: int) -> dict[str, Any]:
    """A whole game played by the heuristic bots: a clean record."""
    engine = registry.get(game)
    ruleset = engine.ruleset()
    bots = [engine.bots["heuristic"](seed + i) for i in range(ruleset.seats)]
    record: dict[str, Any] = play(engine, engine.new_game(ruleset, seed), bots).to_record()
    return record


def _suit(code: str) -> str:
    return code[0] if code[0] in "SBCO" else "T"


def tarocco_revoke(seed: int = 7) -> tuple[dict[str, Any], int]:
    """A Tarocco hand where a seat that could follow suit plays another suit.

    Two plays of one seat are swapped: at the earlier trick it now discards a card of
    another plain suit while still holding the suit led. Returns the record and the index
    of the revoke in its actions.
    """
    for attempt in range(seed, seed + 50):
        record = played("tarocco", attempt)
        actions = record["actions"]
        plays = [i for i, a in enumerate(actions) if "play" in a]
        tricks = [plays[k : k + 4] for k in range(0, len(plays), 4)]
        for trick in tricks:
            led = _suit(actions[trick[0]]["play"])
            if led == "T":
                continue
            for i in trick[1:]:
                seat, card = actions[i]["seat"], actions[i]["play"]
                if _suit(card) != led:
                    continue
                for j in plays:
                    other = actions[j]["play"]
                    if j > i and actions[j]["seat"] == seat and _suit(other) not in (led, "T"):
                        planted = copy.deepcopy(record)
                        planted["actions"][i]["play"] = other
                        planted["actions"][j]["play"] = card
                        planted.pop("claimed_scores", None)
                        return planted, i
    raise AssertionError("no revoke could be planted")


def ergio_bad_reinforcement(seed: int = 7) -> tuple[dict[str, Any], int]:
    """An Er Giò match where a side slips a third face-down card under its Magistrato
    (two at most). Returns the record and the index of the bad reinforcement."""
    for attempt in range(seed, seed + 50):
        record = played("ergio", attempt)
        actions = record["actions"]
        for i, a in enumerate(actions):
            if not (a.get("under") == "magistrato" and i + 1 < len(actions)):
                continue
            nxt = actions[i + 1]
            if nxt.get("under") != "magistrato" or nxt["seat"] != a["seat"]:
                continue
            # A later reinforcement of the same side gives the extra card.
            for j in range(i + 2, len(actions)):
                later = actions[j]
                if "reinforce" in later and later["seat"] == a["seat"]:
                    planted = copy.deepcopy(record)
                    extra = planted["actions"].pop(j)
                    extra["under"] = "magistrato"
                    planted["actions"].insert(i + 2, extra)
                    planted.pop("claimed_scores", None)
                    return planted, i + 2
    raise AssertionError("no reinforcement could be planted")


def ergio_reinforcement_deciding(
    seed: int = 7,
) -> tuple[dict[str, Any], int, dict[str, Any], int]:
    """An Er Giò match where a third card slipped under a Magistrato is a fighter that, had
    it counted, would have won the scontro its side lost by the rules. Returns the record,
    the index of the bad reinforcement, the summary as the table reckoned it (the card
    counted) and the number of that scontro."""
    from games.ergio import cards as ergio_cards

    codes = {slug: code for slug, _label, code in ergio_cards.MAGISTRATURE}
    engine = registry.get("ergio")
    sides = ("tramontana", "mezzogiorno")
    for attempt in range(seed, seed + 80):
        record = played("ergio", attempt)
        actions = record["actions"]
        for i, a in enumerate(actions):
            if not (a.get("under") == "magistrato" and i + 1 < len(actions)):
                continue
            nxt = actions[i + 1]
            if nxt.get("under") != "magistrato" or nxt["seat"] != a["seat"]:
                continue
            sent = next(
                (
                    x["send"]
                    for x in reversed(actions[:i])
                    if "send" in x and x["seat"] == a["seat"]
                ),
                None,
            )
            number = sum(1 for x in actions[:i] if "send" in x) // 2 + 1
            for j in range(i + 2, len(actions)):
                later = actions[j]
                if "reinforce" not in later or later["seat"] != a["seat"]:
                    continue
                head, _sep, tail = later["reinforce"].partition("-")
                if not tail.isdigit() or head == codes.get(str(sent)):
                    continue
                planted = copy.deepcopy(record)
                extra = planted["actions"].pop(j)
                extra["under"] = "magistrato"
                planted["actions"].insert(i + 2, extra)
                planted.pop("claimed_scores", None)
                state = engine.start(planted)
                try:
                    for step, raw in enumerate(planted["actions"]):
                        seat, action = engine.decode_step(raw, f"actions[{step}]")
                        state.apply_unchecked(seat, action)
                except RecordError:
                    continue  # the card was not yet in hand there
                if not state.is_over():
                    continue
                summary = state.summary()
                scontri = summary.get("scontri") or []
                if number > len(scontri):
                    continue
                fought = scontri[number - 1]
                mine, theirs = sides[a["seat"]], sides[1 - a["seat"]]
                lost_by = fought[theirs]["force"] - fought[mine]["force"]
                if 0 < lost_by < int(tail):
                    table = copy.deepcopy(summary)
                    table["scontri"][number - 1][mine]["force"] += int(tail)
                    if number < len(scontri):  # the winner challenges next
                        table["scontri"][number]["challenger"] = mine
                    report = engine.score_summary(table, engine.ruleset(planted.get("ruleset")))
                    if report.violations or report.outcome is None:
                        continue
                    return planted, i + 2, table, number
    raise AssertionError("no deciding reinforcement could be planted")

"""Records with one planted violation, built from games the engines' bots played.

Shared by the unit, API and browser tests of the referee desk.
"""

from __future__ import annotations

import copy
from typing import Any

from games.core import registry
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

#!/usr/bin/env python3
"""Check a digital table's fair deal with nothing but Python's standard library.

Usage (docs/play.md, "Check a deal yourself")::

    python3 verify_deal.py record.json --table 12 [--seed 123456] [--seal HEX]

``record.json`` is the finished game's record (the replay page's "Download the record").
The script prints the seal of the deal's number (the SHA-256 of "<number>:<table>"), deals
the cards from that number the way the server deals them (the same shuffle the page's script
runs: Python's Mersenne Twister seeded with the text "(number, 'purpose')", a Fisher-Yates
shuffle from the end) and prints each seat's hand; then it says whether the record's deal is
that one. Exit status 0 when everything agrees, 1 when something does not, 2 on bad input.

Games: Tarocco Siciliano, Er Giò, The Bridge's Game, 3D cardChess (every sfida's deck and,
with two players, every reshuffle of the discards: the discards are laid aside in the order
the record's play gives them, then shuffled from the number), San Marco's board (its dice,
action and limit cards and role draws come from one stream of the number in the order the
play asks for them: the downloaded record's ``chance_order`` says that order, and this
script draws the stream again along it, keeping each deck as the server does).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from typing import Any

TAROCCO_PACK = [
    "S5",
    "S6",
    "S7",
    "S8",
    "S9",
    "S10",
    "SD",
    "SC",
    "SQ",
    "SK",
    "B5",
    "B6",
    "B7",
    "B8",
    "B9",
    "B10",
    "BD",
    "BC",
    "BQ",
    "BK",
    "C5",
    "C6",
    "C7",
    "C8",
    "C9",
    "C10",
    "CD",
    "CC",
    "CQ",
    "CK",
    "O4",
    "O5",
    "O6",
    "O7",
    "O8",
    "O9",
    "O10",
    "OD",
    "OC",
    "OQ",
    "OK",
    "M",
    "T1",
    "T2",
    "T3",
    "T4",
    "T5",
    "T6",
    "T7",
    "T8",
    "T9",
    "T10",
    "T11",
    "T12",
    "T13",
    "T14",
    "T15",
    "T16",
    "T17",
    "T18",
    "T19",
    "T20",
    "F",
]

ERGIO_BASE_0 = [
    "SMA-MAG",
    "SMA-CAP",
    "SMA-CSC",
    "SMA-2",
    "SMA-3",
    "SMA-4",
    "SMA-5",
    "SMA-6",
    "SMA-7",
    "SFR-MAG",
    "SFR-CAP",
    "SFR-CSC",
    "SFR-2",
    "SFR-3",
    "SFR-4",
    "SFR-5",
    "SFR-6",
    "SFR-7",
    "SMI-MAG",
    "SMI-CAP",
    "SMI-CSC",
    "SMI-2",
    "SMI-3",
    "SMI-4",
    "SMI-5",
    "SMI-6",
    "SMI-7",
    "MAT-MAG",
    "MAT-CAP",
    "MAT-CSC",
    "MAT-2",
    "MAT-3",
    "MAT-4",
    "MAT-5",
    "MAT-6",
    "MAT-7",
    "CAL-MAG",
    "CAL-CAP",
    "CAL-CSC",
    "CAL-2",
    "CAL-3",
    "CAL-4",
    "CAL-5",
    "CAL-6",
    "CAL-7",
    "SAT-MAG",
    "SAT-CAP",
    "SAT-CSC",
    "SAT-2",
    "SAT-3",
    "SAT-4",
    "SAT-5",
    "SAT-6",
    "SAT-7",
    "T-CEL",
    "T-CEL",
    "T-CEL",
    "T-CEL",
    "T-CEL",
    "T-CEL",
    "T-GCCC",
    "T-GCCC",
    "T-GCCC",
    "T-GCCC",
    "T-GCCC",
    "T-GCCC",
    "T-GCSC",
    "T-GCSC",
    "T-GCSC",
    "T-GCSC",
    "T-GCSC",
    "T-GCSC",
]

ERGIO_BASE_1 = [
    "SAN-MAG",
    "SAN-CAP",
    "SAN-CSC",
    "SAN-2",
    "SAN-3",
    "SAN-4",
    "SAN-5",
    "SAN-6",
    "SAN-7",
    "SMR-MAG",
    "SMR-CAP",
    "SMR-CSC",
    "SMR-2",
    "SMR-3",
    "SMR-4",
    "SMR-5",
    "SMR-6",
    "SMR-7",
    "SMC-MAG",
    "SMC-CAP",
    "SMC-CSC",
    "SMC-2",
    "SMC-3",
    "SMC-4",
    "SMC-5",
    "SMC-6",
    "SMC-7",
    "LEO-MAG",
    "LEO-CAP",
    "LEO-CSC",
    "LEO-2",
    "LEO-3",
    "LEO-4",
    "LEO-5",
    "LEO-6",
    "LEO-7",
    "DRA-MAG",
    "DRA-CAP",
    "DRA-CSC",
    "DRA-2",
    "DRA-3",
    "DRA-4",
    "DRA-5",
    "DRA-6",
    "DRA-7",
    "DEL-MAG",
    "DEL-CAP",
    "DEL-CSC",
    "DEL-2",
    "DEL-3",
    "DEL-4",
    "DEL-5",
    "DEL-6",
    "DEL-7",
    "M-CEL",
    "M-CEL",
    "M-CEL",
    "M-CEL",
    "M-CEL",
    "M-CEL",
    "M-GCCC",
    "M-GCCC",
    "M-GCCC",
    "M-GCCC",
    "M-GCCC",
    "M-GCCC",
    "M-GCSC",
    "M-GCSC",
    "M-GCSC",
    "M-GCSC",
    "M-GCSC",
    "M-GCSC",
]

ERGIO_ADVANCED_0 = [
    "SMA-MAG",
    "SMA-CAP",
    "SMA-CSC",
    "SMA-2",
    "SMA-3",
    "SMA-4",
    "SMA-5",
    "SMA-6",
    "SMA-7",
    "SFR-MAG",
    "SFR-CAP",
    "SFR-CSC",
    "SFR-2",
    "SFR-3",
    "SFR-4",
    "SFR-5",
    "SFR-6",
    "SFR-7",
    "SMI-MAG",
    "SMI-CAP",
    "SMI-CSC",
    "SMI-2",
    "SMI-3",
    "SMI-4",
    "SMI-5",
    "SMI-6",
    "SMI-7",
    "MAT-MAG",
    "MAT-CAP",
    "MAT-CSC",
    "MAT-2",
    "MAT-3",
    "MAT-4",
    "MAT-5",
    "MAT-6",
    "MAT-7",
    "CAL-MAG",
    "CAL-CAP",
    "CAL-CSC",
    "CAL-2",
    "CAL-3",
    "CAL-4",
    "CAL-5",
    "CAL-6",
    "CAL-7",
    "SAT-MAG",
    "SAT-CAP",
    "SAT-CSC",
    "SAT-2",
    "SAT-3",
    "SAT-4",
    "SAT-5",
    "SAT-6",
    "SAT-7",
    "T-CEL",
    "T-CEL",
    "T-CEL",
    "T-CEL",
    "T-CEL",
    "T-CEL",
    "T-GCCC",
    "T-GCCC",
    "T-GCCC",
    "T-GCCC",
    "T-GCCC",
    "T-GCCC",
    "T-GCSC",
    "T-GCSC",
    "T-GCSC",
    "T-GCSC",
    "T-GCSC",
    "T-GCSC",
    "T-GEN",
    "T-MDC",
    "T-TAM",
    "T-TRO",
    "T-LUO",
]

ERGIO_ADVANCED_1 = [
    "SAN-MAG",
    "SAN-CAP",
    "SAN-CSC",
    "SAN-2",
    "SAN-3",
    "SAN-4",
    "SAN-5",
    "SAN-6",
    "SAN-7",
    "SMR-MAG",
    "SMR-CAP",
    "SMR-CSC",
    "SMR-2",
    "SMR-3",
    "SMR-4",
    "SMR-5",
    "SMR-6",
    "SMR-7",
    "SMC-MAG",
    "SMC-CAP",
    "SMC-CSC",
    "SMC-2",
    "SMC-3",
    "SMC-4",
    "SMC-5",
    "SMC-6",
    "SMC-7",
    "LEO-MAG",
    "LEO-CAP",
    "LEO-CSC",
    "LEO-2",
    "LEO-3",
    "LEO-4",
    "LEO-5",
    "LEO-6",
    "LEO-7",
    "DRA-MAG",
    "DRA-CAP",
    "DRA-CSC",
    "DRA-2",
    "DRA-3",
    "DRA-4",
    "DRA-5",
    "DRA-6",
    "DRA-7",
    "DEL-MAG",
    "DEL-CAP",
    "DEL-CSC",
    "DEL-2",
    "DEL-3",
    "DEL-4",
    "DEL-5",
    "DEL-6",
    "DEL-7",
    "M-CEL",
    "M-CEL",
    "M-CEL",
    "M-CEL",
    "M-CEL",
    "M-CEL",
    "M-GCCC",
    "M-GCCC",
    "M-GCCC",
    "M-GCCC",
    "M-GCCC",
    "M-GCCC",
    "M-GCSC",
    "M-GCSC",
    "M-GCSC",
    "M-GCSC",
    "M-GCSC",
    "M-GCSC",
    "M-GEN",
    "M-MDC",
    "M-TAM",
    "M-TRO",
    "M-LUO",
]

CARDCHESS_DECK = [
    "bP1l",
    "bP1d",
    "bP2l",
    "bP2d",
    "bP3l",
    "bP3d",
    "bP4l",
    "bP4d",
    "bC",
    "bC",
    "bG",
    "bK",
    "bNl",
    "bNd",
    "bRl",
    "bRd",
    "bBl",
    "bBd",
    "bQ",
    "gP1l",
    "gP1d",
    "gP2l",
    "gP2d",
    "gP3l",
    "gP3d",
    "gP4l",
    "gP4d",
    "gC",
    "gC",
    "gG",
    "gK",
    "gNl",
    "gNd",
    "gRl",
    "gRd",
    "gBl",
    "gBd",
    "gQ",
]


def packs() -> dict[str, Any]:
    """The packs in order, as the page's script takes them."""
    return {
        "tarocco": list(TAROCCO_PACK),
        "ergio": {
            "base": [list(ERGIO_BASE_0), list(ERGIO_BASE_1)],
            "advanced": [list(ERGIO_ADVANCED_0), list(ERGIO_ADVANCED_1)],
        },
        "cardchess": list(CARDCHESS_DECK),
    }


# San Marco's decks as the server keeps them: always in this order, a card drawn by its place
SANMARCO_DISTRICTS = ["cannaregio", "santa_croce", "san_polo", "san_marco", "dorsoduro", "castello"]
SANMARCO_CARDS = [*SANMARCO_DISTRICTS, "bridge", "transfer", "doge", "banish"]
SANMARCO_ACTIONS = [d for d in SANMARCO_DISTRICTS for _ in range(5)] + (
    ["bridge"] * 6 + ["transfer"] * 12 + ["doge"] * 10 + ["banish"] * 4
)
SANMARCO_LIMITS = [1] * 8 + [2] * 10 + [3] * 10

GAMES = ("tarocco", "ergio", "ponte", "cardchess", "sanmarco")
SIDES = ("tramontana", "mezzogiorno")
QUARTERS = ("east", "west")


def seal(seed: int, table: int) -> str:
    """The commitment shown before the first card: SHA-256 of "<seed>:<table>" in ASCII."""
    return hashlib.sha256(f"{int(seed)}:{int(table)}".encode("ascii")).hexdigest()


def stream(seed: int, *salt: int | str) -> random.Random:
    """The generator of one purpose: Mersenne Twister seeded with the text of the tuple."""
    return random.Random(repr((seed, *salt)))


def below(rand: random.Random, n: int) -> int:
    """A whole number from 0 to n - 1: draw n's bit length of bits until one is below n."""
    k = n.bit_length()
    r = rand.getrandbits(k)
    while r >= n:
        r = rand.getrandbits(k)
    return r


def shuffle(rand: random.Random, items: list[Any]) -> list[Any]:
    """Fisher-Yates from the end, each index drawn by ``below`` (random.shuffle's steps)."""
    for i in range(len(items) - 1, 0, -1):
        j = below(rand, i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def sanmarco_chance(seed: int, order: list[Any]) -> dict[str, list[Any]]:
    """San Marco's chance drawn again from the number along ``order`` (the record's
    ``chance_order``): a die is 1 + a number below 6; a card is taken from its deck by its
    place, a number below the deck's size (the deck kept in the order above, a deck made
    again from its discards in that order too); a role draw picks one of the draws the rules
    allowed by a number below their count."""
    rand = stream(seed, "sanmarco-chance")
    decks: dict[str, list[Any]] = {
        "action_cards": list(SANMARCO_ACTIONS),
        "limit_cards": list(SANMARCO_LIMITS),
    }
    out: dict[str, list[Any]] = {"dice": [], "action_cards": [], "limit_cards": [], "roles": []}
    for event in order:
        if event == "dice":
            out["dice"].append(1 + below(rand, 6))
        elif isinstance(event, str) and event in decks:
            deck = decks[event]
            out[event].append(deck.pop(below(rand, len(deck))))
        elif isinstance(event, list) and event and event[0] == "roles":
            allowed = event[1]
            out["roles"].append(list(allowed[below(rand, len(allowed))]))
        elif isinstance(event, list) and event and event[0] == "reshuffle":
            kind, cards = str(event[1]), list(event[2])
            rank = SANMARCO_CARDS.index if kind == "action_cards" else int
            decks[kind] = sorted(cards, key=rank)
    return out


def sanmarco_items(order: list[Any], chance: dict[str, Any]) -> dict[str, list[str]]:
    """Each colour's chance read along ``order``: "<colour>:setup" (its four set-up rolls),
    "<colour>:hand" (the cards it drew as distributor, limit cards as "limit:<v>") and
    "table:other" (the role draws and every other die)."""
    taken = {k: 0 for k in ("dice", "action_cards", "limit_cards", "roles")}
    out: dict[str, list[str]] = {}
    who: list[Any] = []
    rolls = 0
    for event in order:
        if isinstance(event, list) and event and event[0] == "for":
            who, rolls = [int(event[1]), str(event[2])], 4
            continue
        if isinstance(event, list) and event and event[0] == "reshuffle":
            continue
        kind = event if isinstance(event, str) else str(event[0])
        values = chance.get(kind) or []
        i = taken.get(kind, 0)
        if i >= len(values):
            break
        taken[kind] = i + 1
        value = values[i]
        if kind == "dice" and who and who[1] == "setup" and rolls > 0:
            key, rolls = f"{who[0]}:setup", rolls - 1
        elif kind in ("action_cards", "limit_cards") and who and who[1] == "hand":
            key = f"{who[0]}:hand"
        else:
            who, key = [], "table:other"
        if kind == "limit_cards":
            shown = f"limit:{value}"
        elif kind == "roles":
            shown = "-".join(str(v) for v in value)
        else:
            shown = str(value)
        out.setdefault(key, []).append(shown)
    return out


def cardchess_discards(
    theirs: dict[str, Any], actions: list[Any], seats: int
) -> dict[int, list[str]]:
    """With two players, each sfida's discards in the order they were laid aside until its
    deck ran out (a table card nobody takes, then the cards played on it, seat by seat), read
    from the record's deals and play: what the server shuffles from the number."""
    out: dict[int, list[str]] = {}
    sfide = [s for s in theirs.get("sfide", []) if isinstance(s, dict)]
    if seats != 2 or not sfide:
        return out
    k, deck = 0, list(sfide[0].get("deck") or [])
    table, at_card, pile = deck[8:11], 11, None
    discard: list[str] = []
    plays: list[Any] = [None, None]
    for raw in actions:
        if not isinstance(raw, dict):
            break
        if "play" in raw:
            seat = raw.get("seat")
            if isinstance(seat, int) and 0 <= seat < 2:
                plays[seat] = raw.get("play")
            continue
        at = raw.get("resolve")
        if not isinstance(at, int) or at >= len(table):
            break
        if raw.get("taker") is None:
            discard.append(table[at])
            for p in plays:
                if isinstance(p, list) and at < len(p) and p[at] is not None:
                    discard.append(p[at])
        if at + 1 < len(table):
            continue
        plays = [None, None]
        source = deck if pile is None else pile
        if at_card >= len(source) and pile is None and discard:
            out[k] = list(discard)  # the deck ran out: these are shuffled
            pile = list(sfide[k].get("reshuffle") or [])
            at_card, discard = 0, []
            source = pile
        if at_card >= len(source):  # the sfida is over: the next one's deck
            k += 1
            if k >= len(sfide):
                break
            deck, pile, discard = list(sfide[k].get("deck") or []), None, []
            table, at_card = deck[8:11], 11
            continue
        dealt = source[at_card : at_card + 9]
        at_card += len(dealt)
        table = dealt[::3] if pile is not None else dealt[6:9]
    return out


def deal(
    game: str,
    seed: int,
    ruleset: dict[str, Any],
    sfide: int = 1,
    record: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The record's ``deal`` a seed gives (cardChess: the first ``sfide`` decks, and each
    reshuffle of the discards the record's play makes; San Marco: its chance along the
    record's ``chance_order``)."""
    name = str(ruleset.get("name", ""))
    record = record or {}
    if game == "sanmarco":
        order = record.get("chance_order")
        if not isinstance(order, list) or not order:
            raise ValueError("no chance order in the record: only the seal is checked")
        return {"chance": sanmarco_chance(seed, order), "order": order}
    if game == "tarocco":
        return {"dealer": seed % 4, "deck": shuffle(stream(seed, "deck"), list(TAROCCO_PACK))}
    if game == "ergio":
        advanced = bool(ruleset.get("advanced", False))
        packs = (ERGIO_ADVANCED_0, ERGIO_ADVANCED_1) if advanced else (ERGIO_BASE_0, ERGIO_BASE_1)
        return {
            side: shuffle(stream(seed, "deck", n), list(packs[n])) for n, side in enumerate(SIDES)
        }
    if game == "ponte":
        rand = stream(seed, "ponte-deal")
        first = below(rand, 2)
        perms = [shuffle(rand, list(range(6))) for _side in SIDES]
        quarter = below(rand, 2)
        return {"first": SIDES[first], "strategy": perms, "first_quarter": QUARTERS[quarter]}
    if game == "cardchess":
        deck = list(CARDCHESS_DECK) * (1 if name in ("", "2p") else 2)
        if name == "4p":
            deck.remove(str(ruleset.get("removed_pawn", "bP1l")))
        out: dict[str, Any] = {
            "sfide": [{"deck": shuffle(stream(seed, "deck", k), list(deck))} for k in range(sfide)]
        }
        theirs = record.get("deal") if isinstance(record.get("deal"), dict) else {}
        laid = cardchess_discards(
            theirs or {}, list(record.get("actions") or []), 2 if name in ("", "2p") else 0
        )
        for k, cards in laid.items():
            if k < len(out["sfide"]):
                out["sfide"][k]["reshuffle"] = shuffle(stream(seed, "reshuffle", k), cards)
        return out
    raise ValueError(f"no deal to check for the game {game!r}")


def seats_of(game: str, ruleset: dict[str, Any]) -> int:
    name = str(ruleset.get("name", ""))
    if "seats" in ruleset:
        return int(ruleset["seats"])
    if game == "tarocco":
        return 4
    if game in ("ergio", "cardchess"):
        return {"3p": 3, "4p": 4, "6p": 6}.get(name, 2)
    return 2


def hands(game: str, dealt: dict[str, Any], ruleset: dict[str, Any]) -> list[dict[str, Any]]:
    """Each seat's cards as dealt (Tarocco: the first two packets of five from the dealer's
    right, then the third; Er Giò: each seat's hand from its side's deck, top first;
    cardChess: each sfida's first four cards per seat and the three on the table; the
    Bridge's Game: who challenges first and each side's strategy cards in order)."""
    seats = seats_of(game, ruleset)
    out: list[dict[str, Any]] = []
    if game == "tarocco":
        deck, dealer = dealt["deck"], dealt["dealer"]
        for i in range(4):
            seat = (dealer + 1 + i) % 4
            first = deck[i * 5 : i * 5 + 5] + deck[20 + i * 5 : 25 + i * 5]
            out.append({"seat": seat, "cards": first, "later": deck[40 + i * 5 : 45 + i * 5]})
        out.sort(key=lambda h: h["seat"])
        out.append({"seat": None, "place": "monte", "cards": deck[60:63]})
    elif game == "ergio":
        size = int(ruleset.get("hand_size", 12))
        for seat in range(seats):
            deck = dealt[SIDES[seat % 2]]
            k = seat // 2
            out.append({"seat": seat, "cards": deck[k * size : (k + 1) * size]})
    elif game == "cardchess":
        for n, sfida in enumerate(dealt["sfide"]):
            deck = sfida["deck"]
            for seat in range(seats):
                out.append({"seat": seat, "sfida": n + 1, "cards": deck[seat * 4 : seat * 4 + 4]})
            out.append({"seat": None, "place": "table", "sfida": n + 1,
                        "cards": deck[seats * 4 : seats * 4 + 3]})  # fmt: skip
            again = sfida.get("reshuffle")
            if again is not None:  # dealt one at a time: the table, then each seat
                for seat in range(seats):
                    out.append({"seat": seat, "sfida": n + 1, "after": "reshuffle",
                                "cards": again[seat + 1 :: seats + 1]})  # fmt: skip
                out.append({"seat": None, "place": "table", "sfida": n + 1,
                            "after": "reshuffle", "cards": again[:: seats + 1]})  # fmt: skip
    elif game == "sanmarco":
        found = sanmarco_items(dealt["order"], dealt["chance"])
        for key, cards in found.items():
            who, _sep, what = key.partition(":")
            seat = int(who) if who.isdigit() else None
            out.append({"seat": seat, "place": what, "key": key, "cards": cards})
    elif game == "ponte":
        for side, perm in enumerate(dealt["strategy"]):
            out.append({"seat": side, "cards": [str(x) for x in perm]})
    return out


def compared(game: str, mine: dict[str, Any], theirs: Any) -> bool:
    """Whether the record's deal is the one the seed deals (cardChess: each sfida's deck as
    first dealt; a reshuffle's order depends on the discards of the play)."""
    if not isinstance(theirs, dict):
        return False
    if game == "cardchess":
        found = [s for s in theirs.get("sfide", []) if isinstance(s, dict)]
        decks = [s.get("deck") for s in found]
        if decks != [s["deck"] for s in mine["sfide"]]:
            return False
        # every reshuffle the record holds is the one the number makes of its discards
        return all(
            s.get("reshuffle") is None or s.get("reshuffle") == m.get("reshuffle")
            for s, m in zip(found, mine["sfide"], strict=False)
        )
    if game == "sanmarco":
        chance = theirs.get("chance") or {}
        return all(list(chance.get(k) or []) == v for k, v in mine["chance"].items())
    if game == "ponte":
        return all(
            theirs.get(k) == v for k, v in mine.items() if k in theirs or k != "first_quarter"
        )
    return {k: theirs.get(k) for k in mine} == mine


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Check a digital table's fair deal.")
    parser.add_argument("record", help="the finished game's record (JSON)")
    parser.add_argument("--table", type=int, required=True, help="the table's number")
    parser.add_argument("--seed", type=int, help="the deal's number (else the record's)")
    parser.add_argument("--seal", help="the seal shown before the game, to compare")
    args = parser.parse_args(argv)
    try:
        with open(args.record, encoding="utf-8") as handle:
            record = json.load(handle)
    except (OSError, ValueError) as exc:
        print(f"Cannot read the record: {exc}", file=sys.stderr)
        return 2
    written = record.get("deal") if isinstance(record.get("deal"), dict) else {}
    seed = args.seed if args.seed is not None else record.get("seed", written.get("seed"))
    if not isinstance(seed, int) or isinstance(seed, bool):
        print("Give the deal's number with --seed (the replay page shows it).", file=sys.stderr)
        return 2
    good = True
    mine_seal = seal(seed, args.table)
    print(f"Seal of deal {seed} at table {args.table}: {mine_seal}")
    if args.seal:
        same = args.seal.strip().lower() == mine_seal
        good = good and same
        print("The seal shown before the game matches." if same else "The seal DOES NOT match.")
    game = str(record.get("game", ""))
    ruleset = record.get("ruleset") if isinstance(record.get("ruleset"), dict) else {}
    theirs = record.get("deal")
    count = len(theirs.get("sfide", [])) if isinstance(theirs, dict) else 1
    try:
        mine = deal(game, seed, ruleset, max(count, 1), record)
    except ValueError as exc:
        print(str(exc))
        return 0 if good else 1
    for hand in hands(game, mine, ruleset):
        where = f"seat {hand['seat'] + 1}" if hand.get("seat") is not None else hand["place"]
        if game == "sanmarco":
            said = {"setup": "set-up rolls", "hand": "cards drawn as distributor"}
            where = (
                f"colour {hand['seat'] + 1}, {said.get(hand['place'], hand['place'])}"
                if hand.get("seat") is not None
                else "role draws and other dice"
            )
        if "sfida" in hand:
            where = f"sfida {hand['sfida']}, {where}"
        if hand.get("after"):
            where = f"{where}, after the reshuffle"
        extra = f" (then {' '.join(hand['later'])})" if hand.get("later") else ""
        print(f"{where}: {' '.join(hand['cards'])}{extra}")
    same = compared(game, mine, theirs)
    good = good and same
    print(
        "The record's deal is the one this number deals."
        if same
        else "The record's deal is NOT the one this number deals."
    )
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())

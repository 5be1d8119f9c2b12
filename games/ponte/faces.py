"""The Bridge's Game's cards and bridge as the pages draw them (see games/core/faces.py).

Fight cards show their type (attack, push, defence) and their Kg/Push; strategy cards what
they do. The bridge is a track with the carrello's slot on it, Tramontana pushing towards
Mezzogiorno.
"""

from __future__ import annotations

from typing import Any

from games.core.faces import Board, Face, Group, Panel, Seat
from games.core.text import Text
from games.core.words import pick, seat_name
from games.ponte import model as M
from games.ponte import words as W

TYPE_COLOURS = {"A": "#b91c1c", "P": "#1d4ed8", "D": "#15803d"}
TYPE_SIGNS = {"A": "pike", "P": "push", "D": "shield"}
TYPE_WORDS = {
    "A": Text("Attacco", "Attack"),
    "P": Text("Spinta", "Push"),
    "D": Text("Difesa", "Defence"),
}
BACK_COLOUR = "#7c2d12"
STRATEGY_WORDS = {
    "add": ("aggiunge", "adds"),
    "subtract": ("toglie", "takes off"),
    "cancel": ("annulla", "cancels"),
    "move": ("sposta il carrello", "moves the carrello"),
    "recover": ("recupera", "recovers"),
}
OPTIONS = ("strategy",)
PHASES = {
    "power": ("Si assegna la forza alle magistrature", "Power is given to the magistrature"),
    "strategy": ("Si piazzano le carte strategia", "Strategy cards are placed"),
    "deploy": ("Lo sfidante schiera", "The challenger deploys"),
    "respond": ("Si risponde alla sfida", "The challenge is answered"),
    "fight": ("Sul ponte: carte di lotta", "On the bridge: fight cards"),
    "types": ("Spareggio: tipo contro tipo", "Decider: type against type"),
    "over": ("Partita finita", "Game over"),
}


def _short(n: int) -> str:
    """Thousands set apart by a thin space: read alike in Italian and English."""
    return f"{n:,}".replace(",", "\u202f")


def face(code: str) -> Face:
    if ":" in code:
        kind, _sep, amount = code.partition(":")
        it, en = STRATEGY_WORDS.get(kind, (kind, kind))
        n = int(amount) if amount.isdigit() else 0
        big = {"add": f"+{_short(n)}", "subtract": f"−{_short(n)}", "move": f"±{n}"}.get(
            kind, _short(n) if n else "×"
        )
        return Face(
            code,
            Text(f"carta strategia: {it} {_short(n)}", f"strategy card: {en} {_short(n)}")
            if n
            else Text(f"carta strategia: {it}", f"strategy card: {en}"),
            Text("S", "S"),
            colour="#6b21a8",
            sign="scroll",
            big=big,
            band=Text(it, en),
        )
    kind, value = code[0], int(code[1:])
    name = TYPE_WORDS[kind]
    return Face(
        code,
        Text(W.card(code, "it"), W.card(code, "en")),
        Text(kind if kind != "D" else "D", {"A": "A", "P": "P", "D": "D"}[kind]),
        colour=TYPE_COLOURS[kind],
        sign=TYPE_SIGNS[kind],
        big=_short(value),
        lines=(Text("Kg/Push", "Kg/Push"),),
        band=name,
    )


def all_codes() -> list[str]:
    return [*dict.fromkeys(M.DEFAULT_FIGHT_CARDS), *M.DEFAULT_STRATEGY_CARDS]


def _own(view: dict[str, Any]) -> int | None:
    side = view.get("seat_side")
    return M.SIDES.index(side) if side in M.SIDES else None


def hand(view: dict[str, Any]) -> list[str] | None:
    """A commander's fight cards still in its pack: what it plays from."""
    own = _own(view)
    packs = view.get("packs") or []
    if own is None or own >= len(packs):
        return None
    return [c for c in packs[own] if isinstance(c, str)]


def uses(action: dict[str, Any]) -> str | None:
    card = action.get("fight")
    return card if isinstance(card, str) else None


def why(view: dict[str, Any], legal: list[dict[str, Any]], lang: str) -> str:
    if view.get("phase") == "power" and any("assign" in a for a in legal):
        # ponte.power.base_values; ponte.power.minimum, .total, .step and .rank
        if view.get("mode") == "base":
            return pick(
                lang,
                "Modo base: le forze sono quelle fisse del foglio (in due 110.000, tre da "
                "90.000 e due da 60.000 Kg; per quartiere 105.000, 85.000 e 60.000 Kg); "
                "scegli tu a quale magistratura dare ciascuna.",
                "Base mode: the powers are the sheet's fixed ones (with two players 110,000, "
                "three of 90,000 and two of 60,000 Kg; a quarter 105,000, 85,000 and 60,000 "
                "Kg); you choose which magistratura gets each.",
            )
        text = pick(
            lang,
            "Dai la forza a una magistratura alla volta, a multipli di 5.000 Kg: almeno "
            "10.000 Kg ciascuna, e in tutto esattamente il totale della tua parte (500.000 "
            "Kg in due, 250.000 Kg per quartiere).",
            "Give power to one magistratura at a time, in steps of 5,000 Kg: at least "
            "10,000 Kg each, and exactly your side's total in all (500,000 Kg with two "
            "players, 250,000 Kg a quarter).",
        )
        if view.get("mode") in ("expert", "incognito"):
            text += pick(
                lang,
                " Nel modo esperto le scrivi dalla più forte: ognuna non supera la precedente.",
                " In expert mode you write them strongest first: none exceeds the one before.",
            )
        return text
    if view.get("phase") == "types":
        return pick(
            lang,
            "Spareggio: conta solo il tipo (l'attacco batte la spinta, la spinta la difesa, "
            "la difesa l'attacco).",
            "Decider: only the type counts (attack beats push, push beats defence, defence "
            "beats attack).",
        )
    own = _own(view)
    fighters = view.get("fighters") or []
    if view.get("phase") == "fight" and own is not None and own < len(fighters):
        power = fighters[own].get("power")
        packs = hand(view) or []
        playable = {a.get("fight") for a in legal}
        if isinstance(power, int) and any(c not in playable for c in packs):
            return pick(
                lang,
                f"Alla tua magistratura restano {W.kg(power, 'it')}: "
                "le carte più forti non si giocano.",
                f"Your magistratura has {W.kg(power, 'en')} left: "
                "the stronger cards cannot be played.",
            )
    return ""


def board(view: dict[str, Any], lang: str, names: list[str] | None = None) -> Board:
    n = len(names or []) or 2
    names = [seat_name(i, lang, names) for i in range(n)]
    sides = [W.NAMES["tramontana"], W.NAMES["mezzogiorno"]]
    mags = [m for m in view.get("magistrature") or [] if isinstance(m, dict)]
    seats = []
    for i in range(n):
        row = Seat(i)
        commands = [W.card(m["name"], lang) for m in mags if m.get("owner") == i]
        own_sides = {m.get("side") for m in mags if m.get("owner") == i}
        row.badges.extend(W.NAMES.get(str(x), str(x)) for x in sorted(own_sides, key=str))
        if commands and n > 2:
            row.lines.append(", ".join(commands))
        seats.append(row)
    out = Board(seats=seats)
    phase = view.get("phase")
    if phase in PHASES:
        out.notes.append(pick(lang, *PHASES[phase]))
    wins = view.get("wins") or [0, 0]
    out.notes.append(
        pick(lang, "Sfide vinte: ", "Challenges won: ")
        + f"{sides[0]} {wins[0]} – {wins[1]} {sides[1]}"
    )
    fighters = [f for f in view.get("fighters") or [] if isinstance(f, dict)]
    if phase in ("fight", "types") or fighters:
        limit = int(view.get("bridge_slots") or 5)
        here = int(view.get("carrello") or 0)
        cells = [{"label": sides[0], "mark": "T", "end": True, "here": here < -limit}]
        for k in range(-limit, limit + 1):
            cells.append(
                {"label": str(k), "mark": "·" if k else "|", "end": False, "here": k == here}
            )
        cells.append({"label": sides[1], "mark": "M", "end": True, "here": here > limit})
        if here == 0:
            caption = pick(
                lang,
                "Il carrello è al centro del ponte.",
                "The carrello is in the middle of the bridge.",
            )
        else:
            towards = sides[1] if here > 0 else sides[0]
            caption = pick(
                lang,
                f"Il carrello è spinto di {abs(here)} verso {towards}.",
                f"The carrello is pushed {abs(here)} towards {towards}.",
            )
        groups = []
        for s, f in enumerate(fighters[:2]):
            power = f.get("power")
            text = (
                W.card(str(f.get("mag", "")), lang)
                + " — "
                + (
                    pick(lang, "forza rimasta ", "power left ") + W.kg(power, lang)
                    if isinstance(power, int)
                    else pick(lang, "forza nascosta", "power hidden")
                )
            )
            if f.get("exhausted"):
                text += pick(lang, " (esaurita)", " (spent)")
            groups.append(Group(label=sides[s], text=text))
        pending = view.get("pending") or []
        for s, p in enumerate(pending[:2]):
            if isinstance(p, dict) and p.get("chosen"):
                groups.append(
                    Group(
                        label=sides[s],
                        text=pick(lang, "ha scelto la sua carta", "has chosen its card"),
                        backs=1,
                    )
                )
        out.panels.append(
            Panel(
                pick(lang, "Il ponte", "The bridge"),
                groups,
                kind="track",
                track={"cells": cells, "caption": caption, "label": caption},
                key="bridge",
            )
        )
    moves = [m for m in view.get("moves") or [] if isinstance(m, dict)]
    if moves:
        groups = []
        for k, m in enumerate(moves, start=1):
            cards = [c for c in m.get("cards") or [] if isinstance(c, str) and c[:1] in M.BEATS]
            winner = m.get("winner")
            text = (
                pick(lang, "vince ", "won by ") + W.NAMES.get(str(winner), str(winner))
                if winner
                else pick(lang, "pari", "even")
            )
            if m.get("types"):
                text = " / ".join(str(t) for t in m["types"]) + " — " + text
            groups.append(
                Group(label=pick(lang, f"Mossa {k}", f"Move {k}"), cards=cards, text=text)
            )
        out.panels.append(
            Panel(
                pick(
                    lang,
                    "Le carte giocate in questa sfida (Tramontana, Mezzogiorno)",
                    "Cards played in this challenge (Tramontana, Mezzogiorno)",
                ),
                groups,
                key="moves",
            )
        )
    own = _own(view)
    packs = view.get("packs") or []
    for s, pack in enumerate(packs[:2]):
        if s == own or not pack:
            continue
        out.panels.append(
            Panel(
                pick(
                    lang,
                    f"Carte di lotta di {sides[s]} ancora in mano",
                    f"{sides[s]}'s fight cards still in hand",
                ),
                [Group(cards=[c for c in pack if isinstance(c, str)])],
                key=f"pack-{s}",
                folded=True,
            )
        )
    if mags:
        rows = []
        for m in mags:
            power, left = m.get("power"), m.get("left")
            rows.append(
                [
                    W.card(str(m.get("name", "")), lang),
                    W.NAMES.get(str(m.get("side")), ""),
                    W.kg(power, lang) if isinstance(power, int) else "—",
                    W.kg(left, lang) if isinstance(left, int) else "—",
                    pick(lang, "sì", "yes") if m.get("fought") else "",
                ]
            )
        out.panels.append(
            Panel(
                pick(lang, "Le magistrature", "The magistrature"),
                kind="sheet",
                head=[
                    pick(lang, "Magistratura", "Magistratura"),
                    pick(lang, "Parte", "Side"),
                    pick(lang, "Forza", "Power"),
                    pick(lang, "Rimasta", "Left"),
                    pick(lang, "Ha combattuto", "Has fought"),
                ],
                rows=rows,
                key="magistrature",
                folded=phase in ("fight", "types"),
            )
        )
    results = [r for r in view.get("challenges") or [] if isinstance(r, dict)]
    if results:
        hows = {
            "conquest": ("conquista", "conquest"),
            "middle": ("oltre la metà", "past the middle"),
            "types": ("spareggio", "decider"),
        }
        rows = [
            [
                str(k),
                W.card(str(r.get("tramontana", "")), lang),
                W.card(str(r.get("mezzogiorno", "")), lang),
                W.NAMES.get(str(r.get("winner")), "—")
                + (" (" + pick(lang, *hows[r["by"]]) + ")" if r.get("by") in hows else ""),
            ]
            for k, r in enumerate(results, start=1)
        ]
        out.panels.append(
            Panel(
                pick(lang, "Sfide", "Challenges"),
                kind="sheet",
                head=["#", sides[0], sides[1], pick(lang, "Vince", "Winner")],
                rows=rows,
                key="challenges",
            )
        )
    return out

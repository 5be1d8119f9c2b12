"""Er Giò's cards and table as the pages draw them (see games/core/faces.py).

Tramontana's deck is blue, Mezzogiorno's red. A magistratura's card shows its figure
(Magistrato, Capitano, Caposchiera) or its combattente's force; armed groups and the
advanced game's specials show their emblem.
"""

from __future__ import annotations

from typing import Any

from games.core.faces import Board, Face, Group, Panel, Seat
from games.core.text import Text
from games.core.words import pick, seat_name
from games.ergio import cards as C
from games.ergio import words as W

SIDE_COLOURS = ("#1e40af", "#b91c1c")  # Tramontana blue, Mezzogiorno red
BACK_COLOUR = "#334155"
FIGURE_SIGNS = {"MAG": "scroll", "CAP": "flag", "CSC": "pike"}
FIGURE_CORNERS = {
    "MAG": Text("Mg", "Mg"),
    "CAP": Text("Cp", "Cp"),
    "CSC": Text("Cs", "Cs"),
}
GROUP_SIGNS = {
    "CEL": "mask",
    "GCCC": "shield",
    "GCSC": "pike",
    "GEN": "crown",
    "MDC": "scroll",
    "TAM": "drum",
    "TRO": "push",
    "LUO": "flag",
}
GROUP_SHORT = {
    "CEL": Text("Celatino", "Celatino"),
    "GCCC": Text("G. con Corazza", "Guard, cuirass"),
    "GCSC": Text("G. senza Corazza", "Guard, no cuirass"),
    "GEN": Text("Generale", "General"),
    "MDC": Text("Maestro di Campo", "Maestro di Campo"),
    "TAM": Text("Tamburino", "Drummer"),
    "TRO": Text("Trombettiere", "Trumpeter"),
    "LUO": Text("Luogotenente", "Lieutenant"),
}
GROUP_CORNERS = {
    "CEL": "Ce",
    "GCCC": "GC",
    "GCSC": "GS",
    "GEN": "Ge",
    "MDC": "MC",
    "TAM": "Ta",
    "TRO": "Tr",
    "LUO": "Lu",
}
UNIT_WORDS = {
    "celatini": ("Celatini", "Celatini"),
    "gccc": ("Guardie al Campo con Corazza", "Camp Guards with Cuirass"),
    "gcsc": ("Guardie al Campo senza Corazza", "Camp Guards without Cuirass"),
}
SPOTS = {
    "magistrato": ("sotto il Magistrato", "under the Magistrato"),
    "caposchiera": ("sotto il Caposchiera", "under the Caposchiera"),
    "spot": ("allo spot", "on the spot"),
}


def _name(code: str) -> Text:
    return Text(W.card(code, "it"), W.card(code, "en"))


def face(code: str) -> Face:
    c = C.BY_CODE[code]
    colour = SIDE_COLOURS[C.SIDE_OF[c]]
    head, _sep, tail = code.partition("-")
    if head in W.SIDES:
        return Face(
            code,
            _name(code),
            Text(GROUP_CORNERS[tail], GROUP_CORNERS[tail]),
            colour=colour,
            sign=GROUP_SIGNS[tail],
            band=GROUP_SHORT[tail],
            lines=(Text("speciale", "special"),) if C.IS_SPECIAL[c] else (),
        )
    mag = W.MAG_BY_CODE[head]
    if tail in FIGURE_SIGNS:
        it, en = W.FIGURES[tail]
        return Face(
            code,
            _name(code),
            FIGURE_CORNERS[tail],
            colour=colour,
            sign=FIGURE_SIGNS[tail],
            lines=(Text(it, en), Text("+5 forza", "+5 force"))
            if tail == "CAP"
            else (Text(it, en),),
            band=Text(mag, mag),
        )
    return Face(
        code,
        _name(code),
        Text(tail, tail),
        colour=colour,
        sign="shield",
        big=tail,
        lines=(Text("forza", "force"),),
        band=Text(mag, mag),
    )


def all_codes() -> list[str]:
    return list(C.CODES)


def uses(action: dict[str, Any]) -> str | None:
    for key in ("add", "arno", "pass", "reinforce", "swap", "special"):
        card = action.get(key)
        if isinstance(card, str):
            return card
    card = action.get("card") if "celatino" in action else None
    return card if isinstance(card, str) else None


def shows(action: dict[str, Any]) -> list[str]:
    """Every card an action names, to draw them on its button."""
    if isinstance(action.get("lay"), list):
        return [c for c in action["lay"] if isinstance(c, str)]
    out = []
    for key in ("add", "arno", "pass", "reinforce", "swap", "for", "special", "card"):
        card = action.get(key)
        if isinstance(card, str) and card in C.BY_CODE:
            out.append(card)
    return out


def why(view: dict[str, Any], legal: list[dict[str, Any]], lang: str) -> str:
    if view.get("phase") == "battle" and any("reinforce" in a for a in legal):
        spots = {a.get("under") for a in legal if "reinforce" in a}
        if len(spots) == 1:
            spot = str(spots.pop())
            it, en = SPOTS.get(spot, (spot, spot))
            return pick(
                lang,
                f"Ora i rinforzi vanno {it}, coperti.",
                f"Reinforcements go {en} now, face down.",
            )
    return ""


def _unit(key: str, lang: str) -> str:
    if key in UNIT_WORDS:
        return pick(lang, *UNIT_WORDS[key])
    return W.magistratura(key)


def board(view: dict[str, Any], lang: str, names: list[str] | None = None) -> Board:
    sizes = view.get("hand_sizes") or []
    n = len(sizes) or 2
    names = [seat_name(i, lang, names) for i in range(n)]
    sides = [pick(lang, "Tramontana", "Tramontana"), pick(lang, "Mezzogiorno", "Mezzogiorno")]
    seats = []
    decks = view.get("decks") or []
    for i in range(n):
        s = Seat(i, hand_size=sizes[i] if i < len(sizes) else None)
        s.badges.append(sides[i % 2])
        if i % 2 < len(decks) and i < 2:
            s.lines.append(
                pick(lang, f"mazzo: {decks[i % 2]} carte", f"deck: {decks[i % 2]} cards")
            )
        seats.append(s)
    out = Board(seats=seats)
    phase = view.get("phase")
    phases = {
        "corteo": ("Il Corteo", "The Corteo"),
        "battle": ("Gli scontri sul Ponte", "The scontri on the Bridge"),
        "over": ("Partita finita", "Game over"),
    }
    if phase in phases:
        out.notes.append(pick(lang, *phases[phase]))
    winner = view.get("corteo_winner")
    if isinstance(winner, str):
        out.notes.append(pick(lang, "Vince il Corteo: ", "Corteo won by: ") + winner.capitalize())
    battle = view.get("battle") if isinstance(view.get("battle"), dict) else None
    if battle:
        points = battle.get("points") or [0, 0]
        out.notes.append(
            pick(lang, "Scontri vinti: ", "Scontri won: ")
            + f"{sides[0]} {points[0]} – {points[1]} {sides[1]}"
        )
    field = view.get("field") or []
    specials = view.get("specials") or []
    for i, units in enumerate(field[:2]):
        groups = [
            Group(label=_unit(k, lang), cards=list(cards)) for k, cards in (units or {}).items()
        ]
        if i < len(specials) and specials[i]:
            groups.append(Group(label=pick(lang, "Speciali", "Specials"), cards=list(specials[i])))
        if not groups:
            groups.append(
                Group(text=pick(lang, "ancora nessuna carta schierata", "no card laid yet"))
            )
        out.panels.append(
            Panel(
                pick(lang, f"Corteo di {sides[i]}", f"{sides[i]}'s Corteo"),
                groups,
                key=f"corteo-{i}",
            )
        )
    if battle and phase == "battle":
        sent = battle.get("sent") or [None, None]
        down = battle.get("face_down") or [0, 0]
        groups = []
        for i in range(2):
            mag = sent[i] if i < len(sent) else None
            laid = (field[i] or {}).get(mag, []) if mag and i < len(field) else []
            label = (
                sides[i]
                + ": "
                + (W.magistratura(mag) if mag else pick(lang, "non ancora mandata", "not sent yet"))
            )
            groups.append(
                Group(label=label, cards=list(laid), backs=down[i] if i < len(down) else 0)
            )
        mine = battle.get("mine")
        if isinstance(mine, dict):
            for spot, cards in mine.items():
                if cards:
                    it, en = SPOTS.get(spot, (spot, spot))
                    groups.append(
                        Group(
                            label=pick(lang, f"I tuoi rinforzi {it}", f"Your reinforcements {en}"),
                            cards=list(cards),
                        )
                    )
        out.centre_title = pick(lang, "Scontro", "Scontro") + f" {battle.get('scontro')}"
        out.panels.insert(
            0,
            Panel(
                pick(
                    lang,
                    f"Scontro {battle.get('scontro')} in corso",
                    f"Scontro {battle.get('scontro')} in progress",
                ),
                groups,
                key="scontro",
            ),
        )
    if battle and battle.get("fought"):
        rows = []
        for k, f in enumerate(battle["fought"], start=1):
            if not isinstance(f, dict):
                continue
            cells = [str(k)]
            for side in ("tramontana", "mezzogiorno"):
                one = f.get(side) or {}
                hidden = sum(len(v) for v in (one.get("face_down") or {}).values())
                laid = one.get("laid") or []
                force = C.force_of_laid([C.BY_CODE[c] for c in laid if c in C.BY_CODE])
                down = [
                    C.BY_CODE[c]
                    for cards in (one.get("face_down") or {}).values()
                    for c in cards
                    if c in C.BY_CODE
                ]
                force += sum(C.FORCE_OF[c] for c in down)
                text = W.magistratura(one.get("magistratura") or "")
                text += pick(lang, f" · forza {force}", f" · force {force}")
                if hidden:
                    text += pick(
                        lang, f" ({hidden} rinforzi scoperti)", f" ({hidden} reinforcements shown)"
                    )
                cells.append(text)
            rows.append(cells)
        out.panels.append(
            Panel(
                pick(lang, "Scontri combattuti", "Scontri fought"),
                kind="sheet",
                head=["#", sides[0], sides[1]],
                rows=rows,
                key="fought",
            )
        )
    arno = view.get("arno") or []
    if arno:
        out.panels.append(
            Panel(
                pick(
                    lang,
                    f"L'Arno ({len(arno)} {'carta' if len(arno) == 1 else 'carte'})",
                    f"The Arno ({len(arno)} {'card' if len(arno) == 1 else 'cards'})",
                ),
                [Group(cards=list(arno[-12:]), text="…" if len(arno) > 12 else "")],
                key="arno",
                folded=len(arno) > 12,
            )
        )
    kept = view.get("kept") or []
    if any(kept):
        out.panels.append(
            Panel(
                pick(lang, "Carte guadagnate negli scontri", "Cards won in the scontri"),
                [Group(label=sides[i], text=str(len(k))) for i, k in enumerate(kept[:2])],
                key="kept",
            )
        )
    return out

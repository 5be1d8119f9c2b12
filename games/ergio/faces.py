"""Er Giò's cards and table as the pages draw them (see games/core/faces.py).

Tramontana's deck is blue, Mezzogiorno's red. A magistratura's card shows its figure
(Magistrato, Capitano, Caposchiera) or its combattente's force; armed groups and the
advanced game's specials show their emblem.
"""

from __future__ import annotations

from typing import Any

from games.core.faces import Board, Face, Group, Panel, Seat
from games.core.text import Text
from games.core.words import join, pick, seat_name
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
# Why a scontro was won, as the sheet's last column says it (ergio.battle.force, .tie.*).
WON_BY = {
    "force": ("(più forza)", "(more force)"),
    "figures": ("(pari forza: le figure)", "(equal force: the figures)"),
    "magistrato": ("(pari forza: il Magistrato)", "(equal force: the Magistrato)"),
    "challenger": ("(pari in tutto: chi ha sfidato)", "(level in all: the challenger)"),
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


def _tris_names(legal: list[dict[str, Any]], lang: str) -> list[str]:
    out: list[str] = []
    for a in legal:
        for code in a.get("lay") or []:
            c = C.BY_CODE.get(code) if isinstance(code, str) else None
            if c is None or C.UNIT_OF[c] < 0:
                continue
            name = _unit(C.unit_name(C.UNIT_OF[c]), lang)
            if name not in out:
                out.append(name)
    return out


def _guards(view: dict[str, Any], lang: str) -> str:
    """Why a Celatino cannot reach the opposing hand or field: their Guardie are shown."""
    side = view.get("side")
    field = view.get("field") or []
    if side not in C.SIDES or len(field) < 2:
        return ""
    opp = field[1 - C.SIDES.index(side)] or {}
    said = []
    if len(opp.get("gccc") or []) >= 3:
        said.append(
            pick(
                lang,
                "le Guardie con Corazza avversarie proteggono la loro mano",
                "the opponents' Guards with Cuirass protect their hand",
            )
        )
    if len(opp.get("gcsc") or []) >= 3:
        said.append(
            pick(
                lang,
                "le Guardie senza Corazza avversarie proteggono il loro Corteo",
                "the opponents' Guards without Cuirass protect their Corteo",
            )
        )
    if not said:
        return ""
    text = " e ".join(said) if lang == "it" else " and ".join(said)
    return pick(lang, "Celatino: ", "Celatino: ") + text + "."


def why(view: dict[str, Any], legal: list[dict[str, Any]], lang: str) -> str:
    """Why a rule narrows the choice now, in words, for every restricted choice of the game:
    the draw, a tris that must be laid, the hand limit, what may be added to the Corteo,
    the Celatino's targets, the sabotage, the magistratura sent and the reinforcements."""
    kinds = {next(iter(a)) for a in legal if a}
    phase = view.get("phase")
    if phase == "sabotage":
        return pick(
            lang,
            "Hai vinto il Corteo con almeno tre Celatini schierati: puoi sabotare, cioè "
            "gettare in Arno le prime tre carte del mazzo avversario, oppure no.",
            "You won the Corteo with at least three Celatini shown: you may sabotage, that "
            "is throw the top three cards of the opposing deck into the Arno, or not.",
        )
    if phase == "battle":
        return _battle_why(view, legal, kinds, lang)
    if phase != "corteo":
        return ""
    if kinds == {"draw"}:
        sources = {a.get("draw") for a in legal}
        if sources == {"pile"}:
            return pick(
                lang,
                "Il tuo mazzo è finito: peschi dal mucchio comune.",
                "Your deck has run out: you draw from the common pile.",
            )
        return pick(
            lang,
            "Il turno comincia pescando, una carta alla volta: dal tuo mazzo, o dal mucchio "
            "comune (solo la carta in cima, se è della tua parte).",
            "A turn starts with the draw, one card at a time: from your deck, or from the "
            "common pile (its top card only, when it is your side's).",
        )
    if kinds == {"lay"}:
        names = _tris_names(legal, lang)
        listed = join(names, lang)
        return pick(
            lang,
            f"Hai in mano un tris non ancora schierato ({listed}): va calato prima di ogni "
            "altra mossa.",
            f"You hold a tris your side has not shown yet ({listed}): it must be laid before "
            "any other move.",
        )
    parts = []
    if "arno" in kinds and "end" not in kinds:
        parts.append(
            pick(
                lang,
                "Hai più carte del limite di mano: prima di finire il turno getti in Arno le "
                "carte in più, una alla volta (tocca una carta della mano).",
                "You hold more cards than the hand limit: before your turn ends you throw the "
                "extra cards into the Arno, one at a time (tap a card of your hand).",
            )
        )
    hand = [c for c in view.get("hand") or [] if isinstance(c, str)]
    added = {a["add"] for a in legal if isinstance(a.get("add"), str)}
    fighters = [c for c in hand if c in C.BY_CODE and C.UNIT_OF[C.BY_CODE[c]] >= 0]
    if any(c not in added for c in fighters):
        parts.append(
            pick(
                lang,
                "Una carta si aggiunge solo a una magistratura o a un gruppo già schierato "
                "dalla tua parte (la quarta in un turno dopo il tris, mai quattro "
                "combattenti); le altre restano in mano finché non ne hai tre.",
                "A card is added only to a magistratura or group your side has shown (a "
                "fourth card on a turn after the tris, never four combattenti); the others "
                "stay in your hand until you hold three.",
            )
        )
    if "celatino" in kinds:
        guards = _guards(view, lang)
        if guards:
            parts.append(guards)
    return " ".join(parts)


def _battle_why(
    view: dict[str, Any], legal: list[dict[str, Any]], kinds: set[str], lang: str
) -> str:
    raw = view.get("battle")
    battle: dict[str, Any] = raw if isinstance(raw, dict) else {}
    side = view.get("side")
    if kinds == {"send"}:
        left = len(legal)
        sent = battle.get("sent") or [None, None]
        mine = C.SIDES.index(side) if side in C.SIDES else 0
        theirs = sent[1 - mine] if len(sent) == 2 else None
        if theirs:
            opening = pick(
                lang,
                f"Rispondi alla sfida di {W.magistratura(str(theirs))}: ",
                f"Answer the challenge of {W.magistratura(str(theirs))}: ",
            )
        else:
            opening = pick(lang, "Tocca a te sfidare: ", "You challenge: ")
        return opening + pick(
            lang,
            f"manda una tua magistratura che non ha ancora combattuto ({left} rimaste); "
            "ognuna combatte una volta sola.",
            f"send one of your magistrature that has not fought yet ({left} left); each "
            "fights only once.",
        )
    if "reinforce" in kinds:
        spots = {a.get("under") for a in legal if "reinforce" in a}
        words = {
            "magistrato": (
                "sotto il Magistrato (fino a due: contano come combattenti delle altre tue "
                "magistrature)",
                "under the Magistrato (up to two: they count as combattenti of your other "
                "magistrature)",
            ),
            "caposchiera": (
                "sotto il Caposchiera (uno: conta come combattente della stessa magistratura)",
                "under the Caposchiera (one: it counts as a combattente of the same magistratura)",
            ),
            "spot": (
                "sul posto, perché questa magistratura non è mai stata schierata (fino a due: "
                "contano solo i suoi combattenti)",
                "on the spot, as this magistratura was never laid (up to two: only its own "
                "combattenti count)",
            ),
        }
        places = [pick(lang, *words.get(str(u), (str(u), str(u)))) for u in sorted(spots, key=str)]
        joined = (" o " if lang == "it" else " or ").join(places)
        return pick(
            lang,
            f"Rinforzi coperti: vanno {joined}. Una carta che non conta vale zero ma si può "
            "giocare per bluff. Quando hai finito, scegli «pronto allo scontro».",
            f"Face-down reinforcements go {joined}. A card that does not count is worth zero "
            "but may be played as a bluff. When you are done, choose «ready for the scontro».",
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
                if isinstance(one.get("force"), int):
                    # The engine's count: a bluff or a card that does not count is zero.
                    text = W.magistratura(one.get("magistratura") or "")
                    text += pick(lang, f" · forza {one['force']}", f" · force {one['force']}")
                    cells.append(text)
                    continue
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
            winner = f.get("winner")
            if isinstance(winner, str) and winner in C.SIDES:
                why = WON_BY.get(str(f.get("reason")), ("", ""))
                cells.append(
                    sides[C.SIDES.index(winner)] + (" " + pick(lang, *why) if why[0] else "")
                )
            rows.append(cells)
        out.panels.append(
            Panel(
                pick(lang, "Scontri combattuti", "Scontri fought"),
                kind="sheet",
                head=["#", sides[0], sides[1], pick(lang, "Vince", "Won by")],
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

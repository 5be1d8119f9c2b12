"""San Marco on the digital table (see games/core/faces.py): its scoring round as a score
sheet; the board game as a drawn map (``drawing``): the six districts with their values and
each colour's aristocrats, the bridges, the Doge, the points and the offers, all read from
the public view a seat is given (a hand hidden there is never drawn); its action and limit
cards as cards."""

from __future__ import annotations

from typing import Any

from games.core.faces import Board, Drawing, Face, Link, Offer, Panel, Seat, Spot
from games.core.text import Text
from games.core.words import pick, seat_name
from games.sanmarco import words as W
from games.sanmarco.board import DISTRICTS

# The board game's action cards, in words (district cards are named by their district).
CARDS = {
    "bridge": ("Ponte", "Bridge", "#0e7490"),
    "transfer": ("Trasferimento", "Transfer", "#7c3aed"),
    "doge": ("Doge", "Doge", "#b45309"),
    "banish": ("Bando", "Banishment", "#991b1b"),
}

# Each colour of the board game as drawn: its fill and its name (by colour index).
HUES = (
    ("#dc2626", "rosso", "red"),
    ("#2563eb", "blu", "blue"),
    ("#ca8a04", "giallo", "yellow"),
    ("#16a34a", "verde", "green"),
)
NEUTRAL_HUE = ("#6b7280", "grigio", "grey")

# Where each district sits on the drawn map (a 360 x 312 box): a ring around the lagoon,
# so that every bridge is a straight line between two boxes.
PLACES = {
    "cannaregio": (110, 50),
    "castello": (250, 50),
    "san_marco": (306, 156),
    "san_polo": (250, 262),
    "dorsoduro": (110, 262),
    "santa_croce": (54, 156),
}


def card_name(code: str, lang: str) -> str:
    """An action or limit card of the board game in words."""
    if code.startswith("limit:"):
        v = code.split(":", 1)[1]
        return pick(lang, f"Limite {v}", f"Limit {v}")
    if code in CARDS:
        it, en, _c = CARDS[code]
        return pick(lang, it, en)
    return W.district(code)


def face(code: str) -> Face:
    if code.startswith("limit:"):
        v = code.split(":", 1)[1]
        return Face(code, Text(f"Limite {v}", f"Limit {v}"), Text(v, v), "#334155", big=v)
    if code in CARDS:
        it, en, colour = CARDS[code]
        words = Text(it, en)
        return Face(code, words, Text(it[:1], en[:1]), colour, big=words, band=words)
    if code in W.DISTRICTS:
        name = W.district(code)
        return Face(code, Text(name, name), Text(name[:2], name[:2]), "#1e3a8a", big=name)
    it, en = W.COLOURS.get(code, (code, code))
    return Face(code, Text(it, en), Text(it[:1].upper(), en[:1].upper()), big=Text(it, en))


def hand(view: dict[str, Any]) -> list[str] | None:
    """The cards a distributor divides (limit cards as ``limit:<value>``); None elsewhere."""
    cards = view.get("hand")
    if cards is None:
        return None
    return [f"limit:{c}" if isinstance(c, int) else str(c) for c in cards]


def all_codes() -> list[str]:
    """The board game's cards: the six district cards, the four other action cards and the
    limit cards (the scoring round has no cards)."""
    return [*DISTRICTS, *CARDS, "limit:1", "limit:2", "limit:3"]


def uses(action: dict[str, Any]) -> str | None:
    return None


def why(view: dict[str, Any], legal: list[dict[str, Any]], lang: str) -> str:
    return ""


def number(legal: list[dict[str, Any]]) -> str | None:
    """The key of a move written as a number (a colour's points), the rest being fixed."""
    if legal and all(set(a) == {"colour", "points"} for a in legal):
        return "points"
    return None


def number_label(fixed: dict[str, Any], view: dict[str, Any], lang: str) -> str:
    """What the number written is: the points of one of the seat's colours."""
    colour = fixed.get("colour")
    seat = view.get("to_act")
    colours = view.get("colours") or []
    mine = colours[seat] if isinstance(seat, int) and seat < len(colours) else []
    if isinstance(colour, int) and colour < len(mine):
        name = W.card(mine[colour], lang)
        return pick(lang, f"Punti del tuo colore {name}", f"Points of your colour {name}")
    return pick(lang, "Punti", "Points")


def board(view: dict[str, Any], lang: str, names: list[str] | None = None) -> Board | None:
    if "entries" not in view:
        return None  # the board game: read in words
    colours = view.get("colours") or []
    entries = view.get("entries") or []
    n = len(colours)
    names = [seat_name(i, lang, names) for i in range(n)]
    result = view.get("result") if isinstance(view.get("result"), dict) else None
    players = (result or {}).get("players") or []
    out = Board(seats=[Seat(i) for i in range(n)])
    variant = view.get("variant")
    if variant:
        out.notes.append(
            pick(lang, f"Variante {variant}: conteggio", f"Variant {variant}: scoring")
        )
    rows = []
    for i, mine in enumerate(colours):
        written = entries[i] if i < len(entries) else []
        who = names[i] if i < len(names) else ""
        if isinstance(written, dict):
            done, of = written.get("written", 0), written.get("of", 0)
            hidden = pick(lang, f"scritti {done} su {of}", f"{done} of {of} written")
            cells = [who, hidden, *[""] * (len(mine) - 1)]
        else:
            cells = [who]
            for j, c in enumerate(mine):
                points = written[j] if j < len(written) and written[j] is not None else "—"
                cells.append(f"{W.card(c, lang)}: {points}")
        p = players[i] if i < len(players) and isinstance(players[i], dict) else {}
        cells += [
            str(p.get("mean", "")),
            str(p.get("deduction", "")) if p else "",
            str(p.get("final", "")),
        ]
        rows.append(cells)
    width = max((len(c) for c in colours), default=2)
    head = [pick(lang, "Giocatore", "Player")]
    head += [pick(lang, f"Colore {j + 1}", f"Colour {j + 1}") for j in range(width)]
    head += [pick(lang, "Media", "Mean"), pick(lang, "Detrazione", "Deduction")]
    head += [pick(lang, "Finale", "Final")]
    out.panels.append(
        Panel(
            pick(lang, "Foglio segnapunti", "Score sheet"),
            kind="sheet",
            head=head,
            rows=rows,
            key="sheet",
        )
    )
    return out


def _colour_names(view: dict[str, Any], lang: str, names: list[str]) -> dict[str, tuple[str, str]]:
    """Each colour's fill and name: its hue and whose it is (a seat, a ghost, the neutral)."""
    out = {}
    for c, row in enumerate(view.get("colours") or []):
        row = row if isinstance(row, dict) else {}
        kind, seat = row.get("kind"), row.get("seat")
        fill, it, en = NEUTRAL_HUE if kind == "neutral" else HUES[c % len(HUES)]
        hue = pick(lang, it, en)
        if kind == "ghost":
            who = pick(lang, "fantasma", "ghost")
        elif kind == "neutral":
            who = pick(lang, "neutro", "neutral")
        elif isinstance(seat, int):
            who = names[seat] if seat < len(names) and names[seat] else seat_label(seat, lang)
        else:
            who = ""
        out[f"c{c}"] = (fill, f"{hue} ({who})" if who else hue)
    return out


def seat_label(seat: int, lang: str) -> str:
    return seat_name(seat, lang)


def _district_name(value: Any) -> str:
    if isinstance(value, int) and 0 <= value < len(DISTRICTS):
        return W.district(DISTRICTS[value])
    return W.district(value)


def _status(view: dict[str, Any], lang: str, who: str) -> list[str]:
    """Which passage and round it is, whose turn and what they are deciding."""
    phase = view.get("phase")
    passage, rnd = view.get("passage", 1), view.get("round", 0)
    lines = []
    if view.get("result") or phase == "over":
        return [pick(lang, "Partita finita: punteggio finale", "Game over: final scoring")]
    head = pick(lang, f"Passaggio {passage} di 3", f"Passage {passage} of 3")
    if rnd:
        head += pick(lang, f", giro {rnd}", f", round {rnd}")
    if view.get("final_round"):
        head += pick(lang, " (giro finale)", " (final round)")
    lines.append(head)
    pending = view.get("pending") if isinstance(view.get("pending"), dict) else None
    where = _district_name(pending.get("district")) if pending else ""
    if phase == "setup":
        doing = pick(lang, f"{who} posa un ponte iniziale", f"{who} lays a starting bridge")
    elif phase == "divide":
        doing = pick(
            lang, f"{who} divide le carte in mazzetti", f"{who} divides the cards into piles"
        )
    elif phase == "choose":
        doing = pick(lang, f"{who} sceglie un mazzetto", f"{who} chooses a pile")
    elif pending and pending.get("kind") == "remove":
        left = pending.get("left", 0)
        doing = pick(
            lang,
            f"{who} bandisce da {where}: ancora {left} da togliere",
            f"{who} banishes from {where}: {left} still to remove",
        )
    elif pending and pending.get("kind") == "doge":
        doing = pick(
            lang, f"{who} muove il Doge sui ponti", f"{who} moves the Doge over the bridges"
        )
    elif pending and pending.get("kind") == "score":
        doing = pick(
            lang,
            f"{who} sceglie quale suo colore conta a {where}",
            f"{who} chooses which of their colours scores in {where}",
        )
    elif phase == "resolve":
        held = ", ".join(card_name(str(c), lang) for c in view.get("holding") or [])
        doing = pick(lang, f"{who} gioca le sue carte: {held}", f"{who} plays their cards: {held}")
    elif phase == "free_banish":
        doing = pick(lang, f"{who} bandisce un aristocratico", f"{who} banishes an aristocrat")
    elif phase == "neutral":
        doing = pick(lang, f"{who} piazza il colore neutro", f"{who} places the neutral colour")
    else:
        doing = ""
    if doing:
        lines.append(doing)
    return lines


def _offers(view: dict[str, Any], lang: str, colours: dict[str, tuple[str, str]]) -> list[Offer]:
    out = []
    if isinstance(view.get("hand"), list):
        # The distributor's own hand while dividing: the piles as they are being formed.
        cards = hand(view) or []
        assigned = [a for a in view.get("assigned") or [] if isinstance(a, int)]
        piles: dict[int, list[str]] = {}
        for code, q in zip(cards, assigned, strict=False):
            piles.setdefault(q, []).append(card_name(code, lang))
        for q in sorted(piles):
            out.append(Offer(pick(lang, f"Mazzetto {q + 1}", f"Pile {q + 1}"), piles[q]))
        rest = [card_name(c, lang) for c in cards[len(assigned) :]]
        if rest:
            out.append(Offer(pick(lang, "Da dividere", "Still to divide"), rest))
        return out
    hidden = view.get("hand_hidden")
    if isinstance(hidden, dict):
        n, done = hidden.get("cards", 0), hidden.get("assigned", 0)
        out.append(
            Offer(
                pick(
                    lang,
                    f"Carte del distributore ({done} su {n} divise)",
                    f"The distributor's cards ({done} of {n} divided)",
                ),
                hidden=int(n),
            )
        )
        return out
    for q, pile in enumerate(view.get("offers") or []):
        if not isinstance(pile, dict):
            continue
        taken = pile.get("taken_by")
        by = colours.get(f"c{taken}", ("", ""))[1] if isinstance(taken, int) and taken >= 0 else ""
        label = pick(lang, f"Mazzetto {q + 1}", f"Pile {q + 1}")
        got = pick(lang, f"preso da {by}", f"taken by {by}") if by else ""
        dealt = pile.get("cards")
        if isinstance(dealt, list):
            names = [card_name(f"limit:{c}" if isinstance(c, int) else str(c), lang) for c in dealt]
            out.append(Offer(label, names, taken=got))
        else:
            out.append(Offer(label, hidden=int(dealt or 0), taken=got))
    return out


def drawing(view: dict[str, Any], lang: str, names: list[str] | None = None) -> Drawing | None:
    """The board game's table as a map, from the view of one seat (or of no seat)."""
    board = view.get("board")
    if not isinstance(board, dict) or not isinstance(view.get("cubes"), dict):
        return None  # the scoring round: a score sheet, no map
    names = names or []
    colours = _colour_names(view, lang, names)
    out = Drawing(
        pick(lang, "La plancia di San Marco", "The San Marco board"),
        360,
        312,
        colours=colours,
        marker_name="Doge",
        track_title=pick(lang, "Punti di prestigio", "Prestige points"),
        offers_title=pick(lang, "Mazzetti", "Piles"),
    )
    doge = view.get("doge")
    cubes = view.get("cubes") or {}
    for row in board.get("districts") or []:
        key = str(row.get("name"))
        x, y = PLACES.get(key, (180, 156))
        first, second = [*(row.get("values") or []), "", ""][:2]
        counts = cubes.get(key) or []
        pieces = [(f"c{c}", int(n)) for c, n in enumerate(counts) if n]
        out.spots.append(
            Spot(
                key,
                W.district(key),
                x,
                y,
                lines=[
                    pick(lang, f"{first} / {second} punti", f"{first} / {second} points"),
                    pick(lang, f"dado {row.get('die')}", f"die {row.get('die')}"),
                ],
                pieces=pieces,
                marker="Doge" if key == doge else "",
            )
        )
        where = W.district(key)
        if pieces:
            held = ", ".join(f"{colours[k][1]} {n}" for k, n in pieces if k in colours)
            out.summary.append(
                pick(lang, f"{where}: aristocratici {held}", f"{where}: aristocrats {held}")
            )
        else:
            out.summary.append(
                pick(lang, f"{where}: nessun aristocratico", f"{where}: no aristocrats")
            )
    sites: dict[tuple[str, str], Link] = {}
    room = int(board.get("bridges_per_site") or 3)
    for a, b in board.get("bridge_sites") or []:
        sites[(a, b)] = Link(a, b, room=room)
    for n, bridge in enumerate(view.get("bridges") or [], start=1):
        a, b = [*(bridge.get("between") or []), "", ""][:2]
        link = sites.get((a, b)) or sites.get((b, a))
        if link is None:
            link = sites[(a, b)] = Link(a, b, room=room)
        link.pieces.append((f"c{bridge.get('owner')}", n))
        owner = colours.get(f"c{bridge.get('owner')}", ("", "?"))[1]
        out.summary.append(
            pick(
                lang,
                f"Ponte {n} tra {W.district(a)} e {W.district(b)}: {owner}",
                f"Bridge {n} between {W.district(a)} and {W.district(b)}: {owner}",
            )
        )
    out.links = list(sites.values())
    out.summary.append(
        pick(lang, f"Il Doge è a {W.district(doge)}", f"The Doge is in {W.district(doge)}")
    )
    for c, row in enumerate(view.get("colours") or []):
        if not isinstance(row, dict):
            continue
        key = f"c{c}"
        limit = sum(v for v in row.get("limits") or [] if isinstance(v, int))
        out.track.append(
            (
                key,
                int(row.get("score") or 0),
                pick(
                    lang,
                    f"limite {limit}, {row.get('supply', 0)} cubi in riserva",
                    f"limit {limit}, {row.get('supply', 0)} cubes in supply",
                ),
            )
        )
    acting = view.get("acting_colour")
    who = colours.get(f"c{acting}", ("", ""))[1] if isinstance(acting, int) else ""
    out.status = _status(view, lang, who)
    out.offers = _offers(view, lang, colours)
    return out

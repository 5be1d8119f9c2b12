"""A summary or a record that cannot be read, said in words (Italian and English).

An engine refuses what it cannot read with a ``RecordError``: where (a path into the JSON,
``offers[1].points``, ``actions[12].play``) and what (a short English note for a program's
author, ``expected a whole number``). A club member reads neither a path nor a seat counted
from 0, so the ledger shows this instead: the place named by the words the game declares for
its summary and its record (``Game.summary_shape()``, ``Game.record_shape()``), an action by
its number and its player, a seat's value by its player's name where the page knows the
names, and what is wrong in a sentence of its own in both languages.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from games.core.cards import UNKNOWN_CARD
from games.core.declare import Shape
from games.core.errors import RecordError
from games.core.text import Text, seat_words

_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def steps(path: str) -> list[str | int]:
    """``deal.sfide[2].deck`` -> ``["deal", "sfide", 2, "deck"]``."""
    out: list[str | int] = []
    for name, index in _STEP.findall(path):
        out.append(int(index) if index else name)
    return out


def _short(label: Text) -> Text:
    """A label as the name of a place: its words before a colon or a bracket."""

    def cut(text: str) -> str:
        for mark in (": ", " ("):
            if mark in text:
                text = text.split(mark, 1)[0]
        return text.strip().rstrip(".")

    return Text(cut(label.it), cut(label.en))


def _key_shape(shape: Shape | None, key: str) -> Shape | None:
    if shape is None:
        return None
    if shape.kind == "either":
        found = [s for s in (_key_shape(form, key) for form in shape.alternatives) if s]
        if len(found) > 1 and all(s.kind == "choice" for s in found):
            # One key several kinds share (a Tarocco bid): any of their values, unnamed.
            return Shape("choice", choices=tuple(c for s in found for c in s.choices))
        return found[0] if found else None
    for k in shape.keys:
        if k.name == key:
            return k.shape
    for form in shape.alternatives:
        inner = _key_shape(form, key)
        if inner is not None:
            return inner
    return None


def _who(seat: Any, names: Sequence[str] | None) -> Text:
    if type(seat) is int and names and 0 <= seat < len(names) and names[seat]:
        return Text(names[seat], names[seat])
    return seat_words(seat if type(seat) is int else None)


def where(
    path: str,
    shape: Shape | None,
    data: Any = None,
    names: Sequence[str] | None = None,
) -> tuple[list[Text], Shape | None]:
    """The places ``path`` goes through, each in words, and the shape it ends at."""
    places: list[Text] = []
    at: Shape | None = shape
    value: Any = data
    parts = steps(path)
    if parts[:1] == ["ruleset"]:
        places.append(Text("Le regole", "The rules"))
        if len(parts) > 1 and parts[1] != "name":
            places.append(Text("una delle loro opzioni", "one of their options"))
        return places, None
    for i, part in enumerate(parts):
        if isinstance(part, int):
            parent = parts[i - 1] if i else ""
            if parent == "actions":
                seat = value[part].get("seat") if _at(value, part, Mapping) else None
                action = Text(f"azione {part + 1}", f"action {part + 1}")
                if type(seat) is int:
                    who = _who(seat, names)
                    action = Text(f"{action.it} (di {who.it})", f"{action.en} (by {who.en})")
                places.append(action)
            elif at is not None and at.per_seat:
                places.append(_who(part, names))
            else:
                places.append(Text(f"n. {part + 1}", f"no. {part + 1}"))
            at = at.items if at is not None and at.kind == "list" else None
            value = value[part] if _at(value, part, object) else None
            continue
        inner = _key_shape(at, part)
        if part == "actions" and i + 1 < len(parts):
            pass  # the action's number says it
        elif inner is not None and inner.label is not None and "{" not in inner.label.en:
            places.append(_short(inner.label))
        elif inner is None and part not in ("actions", "seat"):
            places.append(
                Text("un campo che il gioco non legge qui", "a field the game does not read here")
            )
        elif part == "seat":
            places.append(Text("il posto di chi agisce", "the acting seat"))
        at = inner
        value = value.get(part) if isinstance(value, Mapping) else None
    return places, at


def _at(value: Any, index: int, kind: type) -> bool:
    return isinstance(value, list) and 0 <= index < len(value) and isinstance(value[index], kind)


_RANGE = re.compile(r"(?:from |)(-?\d+)(?:\.\.| to )(-?\d+)")


def what(message: str, shape: Shape | None, path: str, rulesets: Mapping[str, Text]) -> Text:
    """What is wrong, in words, from the engine's note for a program's author."""
    note = message.strip()
    low = note.lower()
    last = steps(path)[-1:] if path else []
    span = _RANGE.search(note)
    if "seat" in low and span:
        low_seat, high_seat = int(span.group(1)) + 1, int(span.group(2)) + 1
        return Text(
            f"dev'essere uno dei posti del tavolo, da {low_seat} a {high_seat}",
            f"must be one of the table's seats, {low_seat} to {high_seat}",
        )
    if (
        shape is not None
        and shape.kind == "choice"
        and shape.choices
        and (low.startswith(("unknown", "expected a", "expected one of", 'expected "')))
    ):
        return _one_of(shape)
    if shape is not None and shape.kind == "list" and low.startswith("expected"):
        items = shape.items
        if items is not None and items.kind == "choice" and items.choices:
            many = shape.most if shape.most is not None and shape.most == shape.least else None
            listed = _one_of(items)
            if many:
                return Text(
                    f"si scrive come un elenco di {many}, ognuno {listed.it[9:]}",
                    f"must be a list of {many}, each {listed.en[5:]}",
                )
    if " written, the seed gives " in low:
        return Text(
            "non è quanto ha dato il seme della partita", "is not what the game's seed gave"
        )
    if re.search(r"ruleset .* is for \d+ seats", low):
        n = re.search(r"is for (\d+) seats", low)
        seats = n.group(1) if n else "?"
        return Text(
            f"queste regole sono per {seats} posti",
            f"these rules are for {seats} seats",
        )
    if "this summary is for the ruleset" in low:
        return Text(
            "nomina regole diverse da quelle della competizione",
            "names other rules than the competition's",
        )
    if "strategy card" in low:
        return Text(
            "non è un ordine delle sei carte strategia, uno per parte",
            "is not an order of the six strategy cards, one per side",
        )
    if "multiple of" in low:
        return Text(
            "dev'essere un multiplo del valore previsto dalle regole",
            "must be a multiple of the value the rules set",
        )
    if low == "expected a string":
        return Text("si scrive come una parola", "must be written as a word")
    if "positive" in low:
        return Text("dev'essere un numero maggiore di zero", "must be a number above zero")
    if low.startswith("expected a whole number") or low.startswith("expected a seat"):
        if span:
            a, b = span.group(1), span.group(2)
            return Text(
                f"dev'essere un numero intero da {a} a {b}",
                f"must be a whole number from {a} to {b}",
            )
        return Text("dev'essere un numero intero", "must be a whole number")
    figures = re.match(r"^expected ((?:-?\d+(?:, | or ))+-?\d+)\b", low)
    if figures:
        written = figures.group(1)
        return Text(
            f"dev'essere uno di questi numeri: {written.replace(' or ', ' o ')}",
            f"must be one of these numbers: {written}",
        )
    if re.match(r"^expected -?\d+(?:\.\.| to )-?\d+$", low) and span:
        a, b = span.group(1), span.group(2)
        return Text(
            f"dev'essere un numero intero da {a} a {b}", f"must be a whole number from {a} to {b}"
        )
    if "true or false" in low:
        return Text("si scrive vero o falso", "must be true or false")
    if "every action names its seat" in low:
        return Text(
            "ogni azione dice il posto di chi la fa", "every action names the seat that takes it"
        )
    if (
        UNKNOWN_CARD in low
        or "not a fight card" in low
        or "expected a card" in low
        or "card code" in low
    ):
        return Text(
            "non è una carta di questo gioco (le carte si scrivono col loro codice)",
            "is not a card of this game (cards are written by their codes)",
        )
    if "unknown ruleset option" in low:
        return Text(
            "non è un'opzione delle regole di questo gioco", "is not an option of this game's rules"
        )
    if "unknown ruleset" in low or "a ruleset is a name" in low:
        known = [label for _name, label in sorted(rulesets.items())]
        if known:
            it = ", ".join(f"“{t.it}”" for t in known)
            en = ", ".join(f"“{t.en}”" for t in known)
            return Text(
                f"non sono regole di questo gioco; sono {it}",
                f"are not rules of this game; they are {en}",
            )
        return Text("non sono regole di questo gioco", "are not rules of this game")
    if "this record is for" in low:
        return Text("è la registrazione di un altro gioco", "is the record of another game")
    if "reads version" in low:
        return Text(
            "è in una versione della notazione che questo programma non legge",
            "is in a version of the notation this program does not read",
        )
    if "players; the competition plays with" in low:
        count = note.rsplit(" ", 1)[-1]
        return Text(
            f"il numero di giocatori non è quello della competizione ({count})",
            f"the number of players is not the competition's ({count})",
        )
    if "does not use" in low or (" holds " in low and ", not " in low) or "unknown field" in low:
        return Text(
            "non fa parte di quanto il gioco legge qui", "is not part of what the game reads here"
        )
    if "missing" in low or " needs " in low:
        return Text("manca", "is missing")
    if "deck" in low and ("not the" in low or "counted more often" in low):
        return Text(
            "non è il mazzo di queste regole: una carta manca o è di troppo",
            "is not the deck of these rules: a card is missing or one too many",
        )
    if (
        low.startswith("expected one of")
        or low.startswith('expected "')
        or (" or " in low and low.startswith("expected"))
    ):
        if last and isinstance(last[0], int):
            return Text("non è un'azione di questo gioco", "is not an action of this game")
        return Text(
            "non è uno dei valori che il gioco prevede qui",
            "is not one of the values the game takes here",
        )
    if "list" in low:
        if (
            shape is not None
            and shape.kind == "list"
            and shape.most is not None
            and shape.least == shape.most
        ):
            return Text(
                f"si scrive come un elenco di {shape.most} voci", f"must be a list of {shape.most}"
            )
        return Text("si scrive come un elenco", "must be a list")
    if low.startswith("expected {") or "json object" in low or "expected an object" in low:
        return Text(
            "non ha la forma che la notazione del gioco descrive",
            "is not in the form the game's notation describes",
        )
    return Text(
        "non si legge: controllalo con la notazione del gioco",
        "cannot be read: check it against the game's notation",
    )


def _one_of(shape: Shape) -> Text:
    it = ", ".join(f"“{c.label.it}”" for c in shape.choices)
    en = ", ".join(f"“{c.label.en}”" for c in shape.choices)
    return Text(f"dev'essere uno di questi: {it}", f"must be one of these: {en}")


def in_words(
    exc: RecordError,
    shape: Shape | None,
    *,
    data: Any = None,
    names: Sequence[str] | None = None,
    rulesets: Mapping[str, Text] | None = None,
    whole: Text = Text("Il riepilogo", "The summary"),  # noqa: B008 - Text is frozen
) -> Text:
    """``exc`` said to a club member: the place, then what is wrong there, as one sentence
    in each language (``whole`` names the place when the error is about all of it)."""
    places, at = where(exc.path, shape, data, names)
    wrong = what(exc.message, at, exc.path, rulesets or {})
    place = places or [whole]
    it = " › ".join(p.it for p in place)
    en = " › ".join(p.en for p in place)
    return Text(f"{it[:1].upper()}{it[1:]}: {wrong.it}.", f"{en[:1].upper()}{en[1:]}: {wrong.en}.")

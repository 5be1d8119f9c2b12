"""What a game declares about its summaries, for the pages and forms that are built from it.

A summary's field that takes one of a list of values (an Er Giò magistratura, a Bridge's
Game magistratura) is declared by the game as ``Choice`` values: the value the summary
carries, its words in Italian and English, and whom it concerns (the side it belongs to,
and under a ruleset the seat that commands it). The ledger builds its pickers from these and
never reads a game's internal tables.

A game's summary form (``Game.summary_form(ruleset)``) is a ``SummaryForm``: its parts in page
order (fields, groups of fields, notes, repeated rows), each field typed (a whole number with
its range, a choice among declared values, a seat, several choices, free text), labelled in
both languages and saying which seat or side it concerns; plus the game's own two functions
between the fields and the summary (``build`` and ``read``). The ledger lays any such form
out, checks what is declared here (a needed field, a group given whole or not at all, the
fewest rows), and leaves the rules to the game's ``score()``, whose violations it shows at
the field or row they name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from games.core.text import Text


@dataclass(frozen=True, slots=True)
class Choice:
    value: str
    label: Text
    side: int | None = None
    seat: int | None = None


#: What a field holds: a whole number; one of its ``choices``; one seat of the table (the
#: players' names); any of its ``choices`` (tick boxes); or a line of text.
FieldKind = Literal["integer", "choice", "seat", "choices", "text"]


@dataclass(frozen=True, slots=True)
class Field:
    """One input of a summary form.

    ``label`` and ``help`` may hold ``{name}``: the name of the player in ``seat``. A field
    of ``when`` values is shown only while the form's switch (the field declared with
    ``switch=True``) has one of them; it is ``needed`` while the switch has one of those.
    """

    name: str
    label: Text
    kind: FieldKind = "integer"
    required: bool = False
    choices: tuple[Choice, ...] = ()
    #: A choice or seat field offers "—" first (nothing chosen).
    blank: bool = True
    minimum: int | None = None
    maximum: int | None = None
    #: A whole number that the browser lets through with any step (a multiple of a chip).
    any_step: bool = False
    help: Text | None = None
    seat: int | None = None
    side: int | None = None
    when: tuple[str, ...] = ()
    needed: tuple[str, ...] = ()
    switch: bool = False
    #: How a choice field is shown: a list to open, or buttons to press (``radio``).
    widget: Literal["select", "radio"] = "select"
    initial: Any = None
    #: A seat field starts on the last seat (the dealer of the first hand, say).
    initial_last_seat: bool = False
    #: Each choice is followed by the name of the player whose seat it concerns.
    choices_name_seats: bool = False
    #: The label is said to assistive technology only (a cell under a column heading).
    label_hidden: bool = False
    #: Where in the summary this field's value goes, as a violation's ``where["field"]``
    #: names it when it differs from ``name`` (``offers[1].points``): a broken rule is shown
    #: at the field that wrote it.
    paths: tuple[str, ...] = ()
    #: A seat field that starts on the seat the game gave, under this key of its verdict,
    #: with the table's latest result (``next_dealer``: who deals the next hand).
    follows: str = ""


@dataclass(frozen=True, slots=True)
class Note:
    """A sentence shown among the fields. ``seat_lists`` fills ``{seats0}``, ``{seats1}``...
    with the names of the players in those seats."""

    text: Text
    css: str = ""
    seat_lists: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class Group:
    """Fields shown together: a plain box (``div``), a ``fieldset`` with its ``legend``, or a
    ``details`` box that opens on its ``legend`` (open by itself once something in it is
    written or wrong)."""

    parts: tuple[Part, ...]
    style: Literal["div", "fieldset", "details"] = "div"
    legend: Text | None = None
    css: str = ""
    id: str = ""
    when: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Rows:
    """Rows that repeat (Er Giò's scontri, cardChess's sfide...); a row left blank is skipped.

    ``name`` is the rows' prefix on the page and the key a violation's ``where`` uses to
    place itself at a row, counted from ``first``. ``label`` names a row (``{n}``: its number
    from 1). ``count`` rows are shown, at most ``most``; at least ``least`` must be written.
    A ``table`` lays one row per line, its fields in columns (``caption``, ``corner``: the
    heading above the rows' names), and may offer a button to ``add`` rows up to ``most``.
    """

    name: str
    label: Text
    parts: tuple[Part, ...]
    count: int
    most: int
    least: int = 0
    least_message: Text | None = None
    first: int = 0
    style: Literal["fieldsets", "table"] = "fieldsets"
    css: str = ""
    caption: Text | None = None
    corner: Text | None = None
    add: Text | None = None
    when: tuple[str, ...] = ()
    together: tuple[Together, ...] = ()

    def fields(self) -> list[Field]:
        return _fields(self.parts)


@dataclass(frozen=True, slots=True)
class Together:
    """Fields given all together or not at all: each missing one gets ``message``, the form
    ``whole``."""

    names: tuple[str, ...]
    message: Text
    whole: Text = Text(  # noqa: RUF009 - Text is frozen
        "Compila tutti i campi di un gruppo, o nessuno.",
        "Fill in every field of a group, or none of them.",
    )


Part = Field | Group | Note | Rows

#: What the fields hold once read: a value per field name (None when left blank), and for
#: each ``Rows`` a list of its written rows, each a mapping of its fields' values.
Values = Mapping[str, Any]


class FormProblem(Exception):
    """What ``build`` says when the fields cannot make a summary: a message for the whole
    form, and one for each field to blame."""

    def __init__(self, message: Text, fields: Mapping[str, Text] | None = None) -> None:
        super().__init__(message.en)
        self.message = message
        self.fields = dict(fields or {})


@dataclass(frozen=True, slots=True)
class SummaryForm:
    """A game's summary form under one ruleset (see the module docstring).

    ``build(values)`` makes the summary from what was typed (raising FormProblem when it
    cannot); ``read(summary)`` gives the values back from a summary, to start a correction
    from it (None when the form cannot show that summary). ``focus`` names the field the
    cursor starts in (``rows.field`` for a field of the first row); the first field when
    empty.
    """

    parts: tuple[Part, ...]
    build: Callable[[Values], dict[str, Any]]
    read: Callable[[Mapping[str, Any]], dict[str, Any] | None]
    together: tuple[Together, ...] = ()
    focus: str = ""
    needed_message: Text = Text(  # noqa: RUF009 - Text is frozen
        "Necessario per questo esito.", "Needed for this outcome."
    )
    needed_whole: Text = Text(  # noqa: RUF009 - Text is frozen
        "Compila i campi segnati per questo esito.",
        "Fill in the fields marked for this outcome.",
    )

    def fields(self) -> list[Field]:
        """Every field outside the rows, in page order."""
        return _fields(self.parts)

    def rows(self) -> list[Rows]:
        return _rows(self.parts)

    def switch(self) -> Field | None:
        return next((f for f in self.fields() if f.switch), None)

    def field_at(self, path: str) -> Field | None:
        """The field a violation's ``where["field"]`` names: by its name or its paths."""
        fields = self.fields()
        return next((f for f in fields if f.name == path), None) or next(
            (f for f in fields if path in f.paths), None
        )


def _fields(parts: tuple[Part, ...]) -> list[Field]:
    out: list[Field] = []
    for part in parts:
        if isinstance(part, Field):
            out.append(part)
        elif isinstance(part, Group):
            out += _fields(part.parts)
    return out


def _rows(parts: tuple[Part, ...]) -> list[Rows]:
    out: list[Rows] = []
    for part in parts:
        if isinstance(part, Rows):
            out.append(part)
        elif isinstance(part, Group):
            out += _rows(part.parts)
    return out


# --- the summary as JSON ----------------------------------------------------------------

#: What one value of a summary or a record is: a whole number (its range); one of
#: ``choices``; a seat (counted from 0); a list of any of ``choices``; a line of text (a
#: ``pattern`` may say which, a card's code say); true or false (``flag``); an object of
#: ``keys``; a list of ``items``; one of its ``alternatives`` (``either``: a record's action,
#: one of the game's kinds); or any JSON (a form the game reads but does not describe here).
ShapeKind = Literal[
    "integer", "choice", "seat", "choices", "text", "flag", "object", "list", "either", "any"
]


@dataclass(frozen=True, slots=True)
class Shape:
    """One value of a summary as its JSON is written (docs/notation/<game>.md): what a
    program that records results must send, described in words in both languages.

    An ``object`` lists its ``keys`` (the game refuses those it does not read).
    A ``list`` holds ``items``, at least ``least`` and at most ``most`` of them. ``nullable``
    values may be ``null``; ``alternatives`` are other forms the same value may take (a
    ruleset's preset name, or an object of its options)."""

    kind: ShapeKind
    label: Text | None = None
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[Choice, ...] = ()
    keys: tuple[Key, ...] = ()
    items: Shape | None = None
    least: int = 0
    most: int | None = None
    nullable: bool = False
    alternatives: tuple[Shape, ...] = ()
    pattern: str = ""
    #: A list of one value per seat, in seat order (a message names each by its player).
    per_seat: bool = False


@dataclass(frozen=True, slots=True)
class Key:
    """A key of a summary's object, its value's ``shape``, and whether it must be there."""

    name: str
    shape: Shape
    required: bool = False


def shape_of(field: Field, label: Text | None = None) -> Shape:
    """The value a form's ``field`` writes into the summary, with its words and range."""
    words = label or field.label
    if field.kind == "integer":
        return Shape("integer", words, minimum=field.minimum, maximum=field.maximum)
    if field.kind == "choices":
        return Shape("choices", words, choices=field.choices)
    return Shape(field.kind, words, choices=field.choices)


#: The competition's ruleset applies; a summary may name it too (a preset's name, or an
#: object with ``name`` and options), and must then name the same.
RULESET = Shape(
    "text",
    Text(
        "Regole: il nome di una variante, o un oggetto con name e le opzioni (facoltativo).",
        "Ruleset: a preset's name, or an object with name and options (optional).",
    ),
    alternatives=(Shape("object"),),
)
#: What the table wrote down, one whole number per seat (checked against the rules' scores).
CLAIMED_SCORES = Shape(
    "list",
    Text(
        "Punti scritti al tavolo, uno per posto (facoltativo, controllati).",
        "Points the table wrote down, one per seat (optional, checked).",
    ),
    items=Shape("integer"),
    per_seat=True,
)


# --- a full record as JSON ---------------------------------------------------------------


def codes(label: Text, values: Sequence[str], nullable: bool = False) -> Shape:
    """A line of text that is one of ``values`` (a card's code, say): told in words by
    ``label``, held to them by a pattern (a list of dozens of codes is no list of choices a
    person reads through)."""
    pattern = "^(?:" + "|".join(re.escape(v) for v in sorted(values, key=len, reverse=True))
    return Shape("text", label, pattern=pattern + ")$", nullable=nullable)


#: The seat that takes an action of a record, counted from 0 as the notation writes it.
ACTING_SEAT = Shape("seat", Text("Il posto che agisce", "The seat that acts"))


def action(label: Text, *keys: Key) -> Shape:
    """One kind of a record's actions: an object with the acting ``seat`` and ``keys``."""
    return Shape("object", label, keys=(Key("seat", ACTING_SEAT, required=True), *keys))


def record_shape(
    slug: str,
    name: Text,
    *,
    deal: Shape,
    actions: Sequence[Shape],
    more: Sequence[Key] = (),
    seed: Text | None = None,
) -> Shape:
    """The JSON of a game's full record (docs/notation/<game>.md): which game and notation
    version, its ruleset, its deal (``deal``) or the seed that dealt it, every action in order
    (each one of ``actions``), what the table wrote down, and the game's ``more`` keys."""
    return Shape(
        "object",
        Text(
            f"La registrazione completa di una partita di {name.it}: ogni azione, in ordine",
            f"The full record of a game of {name.en}: every action, in order",
        ),
        keys=(
            Key(
                "game",
                Shape("choice", Text("Il gioco", "The game"), choices=(Choice(slug, name),)),
            ),
            Key(
                "version",
                Shape(
                    "integer",
                    Text("La versione della notazione", "The notation's version"),
                    minimum=1,
                    maximum=1,
                ),
            ),
            Key("ruleset", RULESET),
            Key("deal", deal),
            Key(
                "seed",
                Shape(
                    "integer",
                    seed
                    or Text(
                        "Il seme che ha dato le carte, al posto della distribuzione",
                        "The seed that dealt, instead of the deal",
                    ),
                    nullable=True,
                ),
            ),
            Key(
                "actions",
                Shape(
                    "list",
                    Text(
                        "Le azioni, in ordine, ognuna col suo posto",
                        "The actions, in order, each with its seat",
                    ),
                    items=Shape(
                        "either",
                        Text("Un'azione", "An action"),
                        alternatives=tuple(actions),
                    ),
                ),
                required=True,
            ),
            *more,
            Key("claimed_scores", CLAIMED_SCORES),
        ),
    )


@dataclass(frozen=True)
class Figure:
    """A figure of a player's own at one game, on their statistics page: the game declares
    it (``Game.figures``) and reads each result's share of it (``Game.player_figures``).

    ``kind`` says how the results add up: ``"total"`` sums the values; ``"ratio"`` divides
    this figure's sum by the sum of the figure ``of`` (average card points per solo);
    ``"percent"`` does the same as a percentage (solos made of solos played)."""

    key: str
    label: Text
    kind: Literal["total", "ratio", "percent"] = "total"
    of: str = ""

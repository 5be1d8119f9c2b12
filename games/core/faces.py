"""What a game declares about how its cards and its table look (games/<slug>/faces.py).

A card's ``Face`` is data, never a picture: its colour, the index in its corners, the sign
or the word in its middle and a few lines of small print (a force, a weight). The ledger
draws every card as SVG from these (ledger/play/cards.py), so no image is fetched and a
new card needs no drawing.

A game's faces module offers:

* ``face(code) -> Face`` for every card code the game writes;
* ``board(view, lang) -> Board`` the public table in the game's own terms (the seats, the
  middle of the table, the panels), with cards as codes;
* ``uses(action) -> str | None`` the card an action plays from the hand, if any, and
  ``OPTIONS``: the keys of an action that modify it (a Tarocco signal) rather than make it
  another move;
* ``why(view, legal, lang) -> str`` in words, why a rule narrows the choice now ("" when
  it does not).

Pure data and functions, no Django.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.core.text import Text


@dataclass(frozen=True, slots=True)
class Face:
    """One card as the ledger draws it.

    ``sign`` names a drawn emblem (``spade``, ``bastoni``, ``coppe``, ``denari``, ``trump``,
    ``fool``, ``shield``, ``piece:<name>``, ``hash``, ``gold``) repeated ``pips`` times;
    ``big`` is a short word or number written large when there is no sign (a ``Text`` when
    the word differs between the languages).
    """

    code: str
    name: Text
    corner: Text
    colour: str = "#1f2937"
    sign: str = ""
    pips: int = 1
    big: str | Text = ""
    lines: tuple[Text, ...] = ()
    band: Text | None = None
    back: bool = False


@dataclass(slots=True)
class Seat:
    """One seat of the table: what it said, what it holds face down, what it took."""

    seat: int
    lines: list[str] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)
    badges: list[str] = field(default_factory=list)
    hand_size: int | None = None


@dataclass(slots=True)
class Group:
    label: str = ""
    cards: list[str] = field(default_factory=list)
    text: str = ""
    backs: int = 0
    seat: int | None = None
    mark: str = ""


@dataclass(slots=True)
class Panel:
    """A part of the table: a title and its groups of cards or words, or a sheet of rows."""

    title: str
    groups: list[Group] = field(default_factory=list)
    kind: str = "cards"  # cards, track, sheet
    rows: list[list[str]] = field(default_factory=list)
    head: list[str] = field(default_factory=list)
    track: dict[str, Any] = field(default_factory=dict)
    key: str = ""
    folded: bool = False  # shown on request (a Tarocco last trick)


@dataclass(slots=True)
class Board:
    seats: list[Seat] = field(default_factory=list)
    centre: list[Group] = field(default_factory=list)
    centre_title: str = ""
    notes: list[str] = field(default_factory=list)
    panels: list[Panel] = field(default_factory=list)
    around: bool = False  # seats drawn around a table (four-handed games)


def for_game(slug: str) -> Any:
    """The faces module a game declares (beside its ``GAME``: games/<slug>/faces.py), or None."""
    from games.core import registry

    return registry.module(slug, "faces")


# --- a board drawn as a map (San Marco's districts) ---------------------------------------
@dataclass(slots=True)
class Spot:
    """A place on a drawn board: a box at (x, y) with its name, a few lines of small print,
    the pieces standing in it as (colour key, count) and a marker's word (the Doge)."""

    key: str
    label: str
    x: float
    y: float
    lines: list[str] = field(default_factory=list)
    pieces: list[tuple[str, int]] = field(default_factory=list)
    marker: str = ""


@dataclass(slots=True)
class Link:
    """What joins two spots (a canal's bridge site): the pieces on it, each as (colour key,
    the number a move names it by), and how many it holds."""

    a: str
    b: str
    pieces: list[tuple[str, int]] = field(default_factory=list)
    room: int = 0


@dataclass(slots=True)
class Offer:
    """A pile on the table: its name, the cards in words (or how many lie face down) and
    who took it."""

    label: str
    cards: list[str] = field(default_factory=list)
    hidden: int = 0
    taken: str = ""


@dataclass(slots=True)
class Drawing:
    """A board drawn as a map: ``colours`` maps a colour key to (fill, name in words);
    ``track`` holds each colour's points as (colour key, points, who); ``status`` says whose
    turn it is and what is being decided; ``summary`` reads the map in words."""

    title: str
    width: int
    height: int
    colours: dict[str, tuple[str, str]] = field(default_factory=dict)
    spots: list[Spot] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    marker_name: str = ""
    track: list[tuple[str, int, str]] = field(default_factory=list)
    track_title: str = ""
    offers: list[Offer] = field(default_factory=list)
    offers_title: str = ""
    status: list[str] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)

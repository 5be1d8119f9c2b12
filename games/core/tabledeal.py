"""What a game declares so that a referee can rebuild a real table by tapping cards
(games/<slug>/tabledeal.py): the pack in the order a person sorts it, the places the cards go
to (each seat's hand, the monte, a side's laid Corteo...), how those places make the
record's deal, and the steps a seat can take with the cards it holds. Pure functions, no
Django.

A tabledeal module offers:

* ``pack(lang, ruleset)``: groups of cards, each card with its ``code``, ``name`` and, when
  the pack holds several copies of it, ``copies``; a group may belong to a ``side`` (the
  picker then shows only the side of the place being filled);
* ``opener(lang, names)``: the first question (who dealt, who won the Corteo), with its
  ``label``, ``options`` as (value, words) and the words when it is left unanswered;
* ``places(lang, names, ruleset)``: key, words and how many cards each place takes
  (``size`` exact, or ``max``, or neither), with an optional ``side``, ``hint``,
  ``grouped`` (shown by magistratura) and ``optional``;
* ``deal(opener, placed, ruleset)``: the record's ``deal`` from the cards placed, or a
  ``RecordError`` whose path is the key of the place at fault;
* ``placed_from(deal)`` or ``placed_from_record(record)``: the inverse, to show or change it;
  ``kept_actions(record)``: the steps that stay when the deal is entered again;
* for the play: ``play_step(seat, code)``, ``is_play(step)``, ``played_card(step)``,
  ``is_card_set(step)``, ``card_set_step(seat, codes)`` (Tarocco's tricks and monte), or
  ``real_steps(seat, view)`` (every step the seat could physically take, legal or not) or
  ``illegal_steps(seat, view, legal)`` (the steps beside the legal ones given: San Marco's
  bridges where the board has no site),
  ``choice_group(step, lang)`` (the heading a choice goes under), ``pending(record, view,
  lang)`` and ``with_drawn(record, side, codes, dry)`` (cards drawn that the referee is asked
  for as they come: Er Giò's draws after a scontro).

``KIND`` says how the desk shows it: ``"cards"`` (the default: a pack to tap), ``"dealt"``
(cardChess: each deal asked for when the play reaches it; ``places``, ``pack`` and
``apply(record, placed)`` work on the deal ``pending`` names) or ``"sheets"`` (The Bridge's
Game: no cards, a form of numbers, ``sheets``, ``power``, ``record``, ``from_record``,
``with_sheets``). ``titles(lang)`` gives the page's title and the words of its links.
"""

from __future__ import annotations

from typing import Any


def for_game(slug: str) -> Any:
    """The tabledeal module a game declares (beside its ``GAME``), or None."""
    from games.core import registry

    return registry.module(slug, "tabledeal")

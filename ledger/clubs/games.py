"""What the ledger knows of the games: all of it read from the games the registry finds
(games/core/registry.py), never written here. A field that stores a game stores its slug,
checked by ``validate_game``; a form or a serializer offers ``game_choices()``, read when it
is built, so an installed game needs no migration and no edit here."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.functional import lazy
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from games.core import registry
from games.core.errors import RecordError
from games.core.text import Text


@dataclass(frozen=True)
class GameMeta:
    slug: str
    label: object  # a lazy string, in the reader's language when it is read
    seat_counts: tuple[int, ...]
    # Whether each hand's points sum to zero across the table (what one player wins the
    # others pay): the penalties page checks tables against it.
    zero_sum: bool = False


def meta(slug: str) -> GameMeta:
    """A game's name and table sizes as its engine declares them (KeyError: no such game)."""
    if not engine_available(slug):
        raise KeyError(slug)
    info = registry.get(slug).info
    name = _declared_name(info.short_name or info.name)
    return GameMeta(slug, name, info.seat_counts, info.zero_sum)


def label(slug: str) -> str:
    """A game's name in the reader's language; the slug itself for a game not installed
    (a competition kept from a game since removed)."""
    return str(meta(slug).label) if engine_available(slug) else slug


def game_choices() -> list[tuple[str, object]]:
    """Every installed game as (slug, name), for a form's or a serializer's choices: read
    each time it is called, so a game found after start-up is offered too."""
    return [(slug, meta(slug).label) for slug in registry.available()]


def validate_game(value: str) -> None:
    """A model field's check that it stores an installed game's slug."""
    if not engine_available(value):
        raise ValidationError(
            _("“%(value)s” is not a game this club ledger knows."),
            code="invalid_choice",
            params={"value": value},
        )


def reader_language() -> str:
    return "en" if (get_language() or "it").startswith("en") else "it"


def say(text: Text) -> str:
    """A game's declared words in the reader's language."""
    return str(text.get(reader_language()))


def points_label(slug: str) -> str:
    """What a seat's points are at this game (the standings' column: "Scontri won")."""
    if not engine_available(slug):
        return str(_("Points"))
    return say(registry.get(slug).info.points)


def standings_defaults(slug: str) -> Mapping[str, Any] | None:
    """The standings' defaults the game declares, or None."""
    return registry.get(slug).standings_defaults if engine_available(slug) else None


def artificial_scores(slug: str) -> tuple[Decimal, Decimal, Decimal] | None:
    """Average-plus, average and average-minus as the game declares them, or None."""
    declared = registry.get(slug).artificial_scores if engine_available(slug) else None
    if declared is None:
        return None
    plus, average, minus = (Decimal(v) for v in declared)
    return plus, average, minus


def step_groups(slug: str, actions: Sequence[Mapping[str, Any]]) -> list[str]:
    """The heading of each step of a record on the referee's desk, as the game groups them."""
    return registry.get(slug).step_groups(actions, reader_language())


def chance_steps(
    slug: str, record: Mapping[str, Any], names: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """The chance that fell while a record was played (dice, cards dealt or drawn, a role
    draw), each with the number of steps applied when it fell, in words, as the game says."""
    return list(registry.get(slug).chance_steps(record, reader_language(), names))


def turn_rule(slug: str) -> str:
    """The rule a seat breaks by moving out of its turn: the game's, or its book's first."""
    game = registry.get(slug)
    declared = game.turn_rule
    return declared if declared is not None and declared in game.rules else next(iter(game.rules))


def has_strong_bot(slug: str) -> bool:
    return engine_available(slug) and "strong" in registry.get(slug).bots


def hand_words(slug: str) -> tuple[str, str]:
    """What one result of a table of this game is called, one and several, in the reader's
    language ("smazzata", "smazzate" at Tarocco; "game", "games" at most games)."""
    language = reader_language()
    if engine_available(slug):
        info = registry.get(slug).info
        return info.hand.get(language), info.hands.get(language)
    return ("partita", "partite") if language == "it" else ("game", "games")


def _declared_name(name: Any) -> object:
    """A registered game's own name, in the reader's language when it is read."""

    def read() -> str:
        return say(name)

    return lazy(read, str)()


def engine_available(slug: str) -> bool:
    return slug in registry.available()


def plain_scores(slug: str) -> bool:
    """Results of this game are typed as each seat's points: a game whose engine takes the
    points themselves as its summary (they are still scored by it, for its Outcome)."""
    return not engine_available(slug) or bool(registry.get(slug).plain_scores)


@dataclass(frozen=True)
class Preset:
    game: str
    name: str
    seats: int
    label: str


def _words(name: str, language: str) -> str:
    """A preset's name as words: its parts capitalised, "4p" read as a table size."""
    parts = []
    for part in name.replace("_", "-").split("-"):
        if part[:-1].isdigit() and part.endswith("p"):
            n = part[:-1]
            parts.append(f"{n} giocatori" if language == "it" else f"{n} players")
        elif part:
            parts.append(part[:1].upper() + part[1:])
    return " ".join(parts)


def presets(slug: str, language: str = "it") -> list[Preset]:
    """The rulesets a game's engine declares, the default first, each labelled in words.
    A game may declare its own labels (``ruleset_labels``: name -> Text); otherwise the
    preset's name is read as words with its table size."""
    if not engine_available(slug):
        return []
    game = registry.get(slug)
    declared = getattr(game, "ruleset_labels", None) or {}
    names = sorted(
        game.rulesets, key=lambda n: (n != game.default_ruleset, list(game.rulesets).index(n))
    )
    out = []
    for name in names:
        preset = game.rulesets[name]
        text = declared.get(name)
        label = text.get(language) if text is not None else _words(name, language)
        seats = int(preset.seats)
        if "giocatori" not in label and "players" not in label:
            label += f" · {seats} giocatori" if language == "it" else f" · {seats} players"
        out.append(Preset(slug, name, seats, label))
    return out


def declared_facts(slug: str, verdict: Any, names: Sequence[str]) -> list[str]:
    """What a recorded result declared, in the reader's language and as its game says it
    (``GAME.describe``), each seat by its player's name: read from the verdict's Outcome,
    which a summary and a full record both carry. Nothing for a verdict without one."""
    outcome = verdict.get("outcome") if isinstance(verdict, Mapping) else None
    if not isinstance(outcome, Mapping) or not engine_available(slug):
        return []
    language = reader_language()
    return registry.get(slug).describe(outcome, language, list(names))


def table_sizes(competition: Any) -> tuple[int, ...]:
    """The table sizes a result of ``competition`` (its ``game`` and ``ruleset``) can be
    recorded at: the seats of the ruleset it names, as a ruleset fixes them (Er Giò for six
    is played at tables of six); the game's sizes when it names none (each table is then
    scored for its own size) or no engine scores it."""
    if competition.ruleset and engine_available(competition.game):
        try:
            return (int(registry.get(competition.game).ruleset(competition.ruleset or None).seats),)
        except RecordError:
            pass
    return tuple(meta(competition.game).seat_counts) if engine_available(competition.game) else ()


def rule_book(slug: str) -> list[tuple[str, str]]:
    """Every rule a game's engine enforces, as (rule id, its words in the reader's language),
    in the book's order (KeyError: no such game)."""
    if not engine_available(slug):
        raise KeyError(slug)
    return [(rule_id, say(rule.text)) for rule_id, rule in registry.get(slug).rules.items()]


def game_guide(slug: str) -> list[dict[str, Any]]:
    """How a game goes, in the reader's language: the sections its engine declares (title,
    words, and the ids of the rules each sums up), in order (KeyError: no such game)."""
    if not engine_available(slug):
        raise KeyError(slug)
    return [
        {"title": say(s.title), "text": say(s.text), "rules": list(s.rules)}
        for s in registry.get(slug).guide
    ]


def game_of_rule(rule_id: str) -> str:
    """The game a rule id belongs to: every id starts with its game's slug and a dot."""
    return rule_id.partition(".")[0]


#: A seat as a game's message counts it from 1, where no player's name is known to the game.
SEAT_WORDS = re.compile(r"\b([Pp]osto|[Ss]eat|[Gg]iocatore|[Pp]layer) (\d+)\b")


def with_players(text: str, names: Sequence[str]) -> str:
    """A game's message with each seat it counts from 1 followed by who sits there, when the
    ledger knows it: "Tocca al posto 2 (Bruno)." """

    def named(match: re.Match[str]) -> str:
        number = int(match.group(2))
        if 1 <= number <= len(names) and names[number - 1]:
            return f"{match.group(0)} ({names[number - 1]})"
        return match.group(0)

    return SEAT_WORDS.sub(named, text)

"""What the ledger knows of the games: their names and seats come from the engines'
declarations where an engine exists, and from this table until then."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.functional import lazy
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from games.core import registry
from games.core.errors import RecordError


@dataclass(frozen=True)
class GameMeta:
    slug: str
    label: object  # a lazy translated string
    seat_counts: tuple[int, ...]
    # Whether each hand's points sum to zero across the table (what one player wins the
    # others pay): the penalties page checks tables against it.
    zero_sum: bool = False


# Seats per table by game; the engines declare the same and take precedence once present.
_KNOWN = {
    "tarocco": GameMeta("tarocco", _("Tarocco Siciliano"), (4,)),
    "ergio": GameMeta("ergio", _("Er Giò"), (2, 4, 6)),
    "ponte": GameMeta("ponte", _("The Bridge's Game"), (2, 3, 4, 6)),
    "sanmarco": GameMeta("sanmarco", _("San Marco"), (2,)),
    "cardchess": GameMeta("cardchess", _("3D cardChess"), (2, 3, 4)),
}

GAME_CHOICES = [(slug, meta.label) for slug, meta in _KNOWN.items()]


def meta(slug: str) -> GameMeta:
    known = _KNOWN.get(slug)
    if engine_available(slug):
        game = registry.get(slug)
        if known is None:
            return GameMeta(
                slug, _declared_name(game.info.name), game.info.seat_counts, game.info.zero_sum
            )
        return GameMeta(slug, known.label, game.info.seat_counts, game.info.zero_sum)
    if known is None:
        raise KeyError(slug)
    return known


def hand_words(slug: str) -> tuple[str, str]:
    """What one result of a table of this game is called, one and several, in the reader's
    language ("smazzata", "smazzate" at Tarocco; "game", "games" at most games)."""
    language = "en" if (get_language() or "it").startswith("en") else "it"
    if engine_available(slug):
        info = registry.get(slug).info
        return info.hand.get(language), info.hands.get(language)
    return ("partita", "partite") if language == "it" else ("game", "games")


def _declared_name(name: Any) -> object:
    """A registered game's own name, in the reader's language when it is read."""

    def read() -> str:
        return str(name.get("en" if (get_language() or "it").startswith("en") else "it"))

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
    language = "en" if (get_language() or "it").startswith("en") else "it"
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
    return tuple(meta(competition.game).seat_counts)

"""Who won a result, seat by seat, and how a competition turns that into its table.

Every engine entry (a summary scored, a full record validated, a digital game finished)
gives one Outcome with the winners and each seat's place; the result keeps it in its
verdict, and the standings read only that. Nobody winning, or everyone winning, is a draw
for all. Results written as plain per-seat points, with no engine's Outcome (before every
game had an engine), were counted by the highest score when written, and still are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils.translation import gettext as _

from ledger.clubs.games import points_label, standings_defaults

WIN, DRAW, LOSS = "win", "draw", "loss"
#: The standings counter each outcome adds to.
COUNTERS = {WIN: "wins", DRAW: "draws", LOSS: "losses"}

#: What the standings can be ordered by, in the competition's chosen order.
KEYS = ("match_points", "points", "wins")


def outcomes(scores: Sequence[Any], verdict: Mapping[str, Any] | None) -> list[str]:
    """``win``, ``draw`` or ``loss`` for each seat of a result. A forfeit is a loss for every
    seat that forfeited and a win for the others: a double forfeit is lost by everyone."""
    seats = len(scores)
    lost = forfeited_seats(verdict, seats)
    if lost is not None:
        return [LOSS if i in lost else WIN for i in range(seats)]
    winners = engine_winners(verdict, seats)
    if winners is None:
        winners = _plain_points_winners(scores)
    if not winners or len(winners) == seats:
        return [DRAW] * seats
    return [WIN if i in winners else LOSS for i in range(seats)]


#: The termination of a forfeit's Outcome: the table was decided without a game.
FORFEIT = "forfeit"


def forfeited_seats(verdict: Mapping[str, Any] | None, seats: int) -> set[int] | None:
    """The seats that forfeited, when the verdict is a forfeit's (None otherwise)."""
    if not isinstance(verdict, Mapping):
        return None
    forfeit = verdict.get("forfeit")
    if not isinstance(forfeit, Mapping) or not isinstance(forfeit.get("seats"), list):
        return None
    return {v for v in forfeit["seats"] if isinstance(v, int) and 0 <= v < seats}


def forfeit_verdict(game: str, seats: int, forfeited: Sequence[int], reason: str) -> dict[str, Any]:
    """The verdict of a forfeit: no engine ran, so the ledger gives the Outcome itself, in
    the engine's shape: every seat scores 0 game points; the seats that played win, those
    that forfeited lose (place 2; all of them in a double forfeit). The standings' points
    for a win and a loss then do the rest, as for any result."""
    lost = sorted(set(forfeited))
    winners = [i for i in range(seats) if i not in lost]
    return {
        "game": game,
        "valid": True,
        "forfeit": {"seats": lost, "reason": reason},
        "outcome": {
            "scores": [0] * seats,
            "termination": FORFEIT,
            "winners": winners,
            "places": [2 if i in lost else 1 for i in range(seats)],
            "detail": {"forfeited": lost, "reason": reason},
        },
        "violations": [],
    }


def engine_winners(verdict: Mapping[str, Any] | None, seats: int) -> set[int] | None:
    """The winning seats of the engine's Outcome kept in a verdict (None: no Outcome)."""
    if not isinstance(verdict, Mapping):
        return None
    outcome = verdict.get("outcome")
    if not isinstance(outcome, Mapping) or not isinstance(outcome.get("winners"), list):
        return None
    chosen = {v for v in outcome["winners"] if isinstance(v, int) and 0 <= v < seats}
    return chosen if len(chosen) == len(outcome["winners"]) else None


def standing_order(scores: Sequence[Any], verdict: Mapping[str, Any] | None) -> list[float]:
    """One number per seat for the ratings, higher for a better finish: the points, with
    the Outcome's places breaking ties between equal points where the game separates them
    (a deciding sfida won at 2-2-2-2 in gold, San Marco's tie-break)."""
    points = [_decimal(s) for s in scores]
    outcome = verdict.get("outcome") if isinstance(verdict, Mapping) else None
    places = outcome.get("places") if isinstance(outcome, Mapping) else None
    if not isinstance(places, list) or len(places) != len(points):
        return [float(p) for p in points]
    seats = range(len(points))
    if all(places[a] == places[b] for a in seats for b in seats if points[a] == points[b]):
        return [float(p) for p in points]
    keys = [(points[s], -places[s]) for s in seats]
    return [-float(1 + sum(1 for other in keys if other > key)) for key in keys]


def _plain_points_winners(scores: Sequence[Any]) -> set[int]:
    """Plain per-seat points with no Outcome: the highest score won."""
    points = [_decimal(s) for s in scores]
    top = max(points, default=Decimal(0))
    return {i for i, p in enumerate(points) if p == top}


def _decimal(value: Any) -> Decimal:
    try:
        return Decimal(str(value))
    except (InvalidOperation, ValueError):
        return Decimal(0)


@dataclass(frozen=True)
class Settings:
    """Points for a win, a draw and a loss, and the order of the standings' keys."""

    win: Decimal
    draw: Decimal
    loss: Decimal
    order: tuple[str, ...]

    def match_points(self, wins: int, draws: int, losses: int) -> Decimal:
        return self.win * wins + self.draw * draws + self.loss * losses

    def as_json(self) -> dict[str, Any]:
        return {
            "win": f"{self.win.normalize():f}",
            "draw": f"{self.draw.normalize():f}",
            "loss": f"{self.loss.normalize():f}",
            "order": list(self.order),
        }


#: The standings' defaults of a game that declares none (``Game.standings_defaults``).
FALLBACK = {"win": "2", "draw": "1", "loss": "0", "order": ["match_points", "points", "wins"]}


def defaults_of(game: str) -> Mapping[str, Any]:
    """The standings' defaults of a game: what its engine declares, else FALLBACK."""
    return standings_defaults(game) or FALLBACK


class SettingsError(ValueError):
    """Settings that cannot be used; the message says what to fix."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


def settings_for(game: str, chosen: Mapping[str, Any] | None) -> Settings:
    """The game's defaults with whatever the competition chose on top (already checked)."""
    merged = {**defaults_of(game), **(chosen or {})}
    return Settings(
        win=Decimal(str(merged["win"])),
        draw=Decimal(str(merged["draw"])),
        loss=Decimal(str(merged["loss"])),
        order=tuple(merged["order"]),
    )


def clean_settings(data: Any) -> dict[str, Any]:
    """Check an organiser's standings settings; raise SettingsError naming the bad field."""
    if not isinstance(data, Mapping):
        raise SettingsError(
            _("Send an object with win, draw, loss and order."), "standings_settings"
        )
    unknown = set(data) - {"win", "draw", "loss", "order"}
    if unknown:
        first = sorted(unknown)[0]
        raise SettingsError(_("Unknown setting “%(name)s”.") % {"name": first}, first)
    out: dict[str, Any] = {}
    for name in ("win", "draw", "loss"):
        if name not in data:
            continue
        try:
            value = Decimal(str(data[name]))
        except (InvalidOperation, ValueError):
            raise SettingsError(
                _("%(name)s must be a number, such as 2 or 0.5.") % {"name": name}, name
            ) from None
        if not value.is_finite() or abs(value) > 100 or value != value.quantize(Decimal("0.01")):
            raise SettingsError(
                _("%(name)s must be between -100 and 100, in hundredths.") % {"name": name}, name
            )
        out[name] = f"{value.normalize():f}"
    if "order" in data:
        order = data["order"]
        if (
            not isinstance(order, list)
            or not order
            or any(key not in KEYS for key in order)
            or len(set(order)) != len(order)
        ):
            raise SettingsError(
                _("The order lists each of %(keys)s at most once, and at least one of them.")
                % {"keys": ", ".join(KEYS)},
                "order",
            )
        out["order"] = list(order)
    return out


def key_label(key: str, game: str) -> str:
    """A standings key as the page names it."""
    if key == "points":
        return points_label(game).lower()
    return {"match_points": _("match points"), "wins": _("wins")}[key]

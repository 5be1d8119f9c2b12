"""A table's clock, kept by the server (docs/play.md, Clocks).

Per move, each turn of a person has the same seconds; per game, each seat has a bank of
seconds that its turns spend, plus an increment after each of its moves. The server stores
the running turn's deadline and decides when it has passed (on every board, move or socket
message, and by a periodic task); a page only draws what it is told. A bot's turn runs no
clock. What happens when a seat's time runs out is the game's own declaration
(``GameInfo.on_flag``): its turn is played for it by the heuristic bot, or the game is
abandoned there.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils.translation import gettext as _

from ledger.clubs.errors import Invalid
from ledger.play.models import GameTable

KINDS = ("move", "game")
# Bounds of what a table may choose: a turn of 5 s to 1 h, a game of 1 min to 3 h.
MOVE_SECONDS = (5, 3600)
GAME_SECONDS = (60, 3 * 3600)
MAX_INCREMENT = 120


def checked(kind: str, seconds: int, increment: int) -> dict[str, int | str]:
    """A clock's settings, refused in words at the field that is out of bounds."""
    if kind not in KINDS:
        raise Invalid(
            _("Choose a clock per move or per game, or none."), fields={"clock": [_("Unknown.")]}
        )
    low, high = MOVE_SECONDS if kind == "move" else GAME_SECONDS
    if not low <= seconds <= high:
        field = "move_seconds" if kind == "move" else "game_minutes"
        said = (
            _("A turn's time is from %(a)d to %(b)d seconds.") % {"a": low, "b": high}
            if kind == "move"
            else _("A game's time is from %(a)d to %(b)d minutes.")
            % {"a": low // 60, "b": high // 60}
        )
        raise Invalid(said, fields={field: [said]})
    if kind == "game" and not 0 <= increment <= MAX_INCREMENT:
        said = _("The increment is from 0 to %(n)d seconds.") % {"n": MAX_INCREMENT}
        raise Invalid(said, fields={"increment": [said]})
    return {"kind": kind, "seconds": seconds, "increment": increment if kind == "game" else 0}


def setup(table: GameTable, clock: dict[str, Any] | None, seats: int) -> None:
    """Give a new table its clock (not saved)."""
    if not clock:
        return
    table.clock_kind = str(clock["kind"])
    table.clock_seconds = int(clock["seconds"])
    table.clock_increment = int(clock.get("increment", 0))
    table.clock_banks = [table.clock_seconds] * seats if table.clock_kind == "game" else []


FIELDS = ["clock_banks", "clock_seat", "clock_deadline"]


def stop(table: GameTable, seat: int, now: datetime) -> None:
    """The seat moved: per game, what is left of its turn goes back to its bank, with the
    increment."""
    if table.clock_kind != "game" or table.clock_seat != seat or table.clock_deadline is None:
        return
    left = max(0.0, (table.clock_deadline - now).total_seconds())
    banks = list(table.clock_banks)
    banks[seat] = round(left + table.clock_increment, 1)
    table.clock_banks = banks


def start(table: GameTable, to_act: int | None, bots: set[int], now: datetime) -> None:
    """Run the clock of the seat now to act (none for a bot, or when the game is over)."""
    if not table.clock_kind:
        return
    if to_act is None or to_act in bots:
        table.clock_seat, table.clock_deadline = None, None
        return
    budget = table.clock_seconds if table.clock_kind == "move" else table.clock_banks[to_act]
    table.clock_seat = to_act
    table.clock_deadline = now + timedelta(seconds=float(budget))


def due(table: GameTable, now: datetime) -> bool:
    """The running turn's time has run out."""
    return (
        table.status == GameTable.Status.PLAYING
        and table.clock_deadline is not None
        and now >= table.clock_deadline
    )


def shown(table: GameTable, names: list[str], now: datetime) -> list[dict[str, Any]]:
    """Each seat's clock as the board draws it: seconds left (the running one counts down
    in the page from the server's figure, not from the browser's own time)."""
    if not table.clock_kind:
        return []
    rows = []
    for seat, name in enumerate(names):
        running = seat == table.clock_seat and table.clock_deadline is not None
        if running:
            assert table.clock_deadline is not None
            left = max(0.0, (table.clock_deadline - now).total_seconds())
        elif table.clock_kind == "game" and seat < len(table.clock_banks):
            left = float(table.clock_banks[seat])
        else:
            left = float(table.clock_seconds) if table.clock_kind == "move" else 0.0
        rows.append(
            {"seat": seat, "name": name, "running": running, "left": int(left), "text": text(left)}
        )
    return rows


def text(seconds: float) -> str:
    """Seconds as a clock shows them: 4:05, 1:02:03."""
    total = max(0, int(seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"

"""A player's statistics page per game: their numbers season by season, the game's own
figures, and their points over time drawn as a chart."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from ledger.clubs.games import engine_available, label
from ledger.clubs.models import Club, Player
from ledger.clubs.projections.playerstats import games_played, player_numbers
from ledger.web.charts import rating_band


def player_stats(request: HttpRequest, club: str, player_id: int, game: str) -> HttpResponse:
    the_club = get_object_or_404(Club, slug=club)
    person = get_object_or_404(Player, pk=player_id, memberships__club=the_club, automated=False)
    if not engine_available(game):
        raise Http404(_("No such game."))
    numbers = player_numbers(the_club, person, game, no_season=_("No season"))
    running = 0.0
    line = []
    for played in numbers.games:
        running += float(played.points)
        line.append((running, 0.0, f"{played.at:%Y-%m-%d} · {played.competition}"))
    return render(
        request,
        "web/player_stats.html",
        {
            "club": the_club,
            "player": person,
            "game": game,
            "game_name": label(game),
            "numbers": numbers,
            "columns": [numbers.overall, *numbers.seasons]
            if len(numbers.seasons) > 1
            else [numbers.overall],
            "chart": rating_band(line),
            "other_games": [(g, label(g)) for g in games_played(the_club, person) if g != game],
        },
    )

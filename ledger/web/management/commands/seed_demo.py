"""Load a demo club once: a Pisan club with players, a season, one competition per game
and some recorded results. The leagues' results are at tables of their own; the round
robin, the knockout and the Swiss are drawn, published and played round by round through
the formats, as a club would, so their tables, bracket and tie-breaks show. Running it
again changes nothing."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from games.core import make_bot, play, registry
from ledger.clubs.games import engine_available, meta
from ledger.clubs.models import Club, Competition, Membership, Player, Result, Role, Season, Table
from ledger.clubs.results import services
from ledger.formats import services as formats

DEMO_USER = "demo"

PLAYERS = [
    ("Lucia Gambacorti", Role.ORGANISER),
    ("Ranieri Sismondi", Role.REFEREE),
    ("Bianca Lanfranchi", Role.SCOREKEEPER),
    ("Gherardo Upezzinghi", Role.MEMBER),
    ("Caterina Gualandi", Role.MEMBER),
    ("Bonaccorso Dell'Agnello", Role.MEMBER),
    ("Simonetta Orlandi", Role.MEMBER),
    ("Pietro Buonconti", Role.MEMBER),
    ("Giovanna Vernagalli", Role.MEMBER),
    ("Tommaso Roncioni", Role.MEMBER),
    ("Ilaria Casapieri", Role.MEMBER),
    ("Federigo Lanfreducci", Role.MEMBER),
    ("Marta Agostini Venerosi", Role.MEMBER),
    ("Niccolò Della Gherardesca", Role.MEMBER),
]

COMPETITIONS = [
    ("tarocco", "Campionato sociale di Tarocco", "tarocco-2026", Competition.Format.LEAGUE),
    ("ergio", "Torneo di Er Giò", "ergio-2026", Competition.Format.ROUND_ROBIN),
    ("ponte", "Sfida del Ponte", "ponte-2026", Competition.Format.KNOCKOUT),
    ("sanmarco", "Coppa San Marco a due", "sanmarco-2026", Competition.Format.SWISS),
    ("cardchess", "Serate di 3D cardChess", "cardchess-2026", Competition.Format.LEAGUE),
]

TABLES_PER_COMPETITION = 3
RESULTS_PER_TABLE = 2
# Drawn formats: how many entrants, and how many rounds the demo plays (the rest are left
# for the visitor to draw): the round robin's first two of five, the knockout's quarter and
# semi-finals (the final is drawn, not played), the Swiss's first two of four.
DRAWN = {
    Competition.Format.ROUND_ROBIN: (6, 2),
    Competition.Format.KNOCKOUT: (8, 2),
    Competition.Format.SWISS: (7, 2),
}


class Command(BaseCommand):
    help = (
        "Load the demo club (idempotent: a second run changes nothing). The login 'demo' is "
        "the club's organiser; only in demo mode (--demo, or LEDGER_DEMO=1) is it also the "
        "site's superuser. Its password is printed once, when it is made: --password, or a "
        "random one."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--demo", action="store_true", help="Demo mode: 'demo' is superuser.")
        parser.add_argument("--password", default="", help="The demo login's password.")

    def handle(self, *args: Any, **options: Any) -> None:
        import os
        import secrets

        demo = options["demo"] or os.environ.get("LEDGER_DEMO", "") == "1"
        password = options["password"] or secrets.token_urlsafe(12)
        created, made = self.seed(demo=demo, password=password)
        if created:
            self.stdout.write(self.style.SUCCESS(f"Demo data loaded: {created} new results."))
        else:
            self.stdout.write("Demo data already present: nothing changed.")
        if made:
            role = "superuser and organiser" if demo else "organiser of the demo club"
            self.stdout.write(f"Demo login ({role}): {DEMO_USER} / {password}")
        else:
            self.stdout.write(f"Demo login: {DEMO_USER} (its password was printed when made)")

    @transaction.atomic
    def seed(self, *, demo: bool, password: str) -> tuple[int, bool]:
        User = get_user_model()
        user, made = User.objects.get_or_create(
            username=DEMO_USER, defaults={"is_staff": demo, "is_superuser": demo}
        )
        if made:
            user.set_password(password)
            user.save()
        elif demo and not (user.is_superuser and user.is_staff):
            # A club restored from its exports brings its logins back without site rights;
            # demo mode (`make run` on this machine) gives the demo login its own back.
            user.is_staff = user.is_superuser = True
            user.save(update_fields=["is_staff", "is_superuser"])
            self.stdout.write("Demo mode: the demo login is the site's superuser again.")
        club, _ = Club.objects.get_or_create(
            slug="circolo-pisano",
            defaults={"name": "Circolo dei Giochi Pisani", "city": "Pisa"},
        )
        players = []
        for i, (name, role) in enumerate(PLAYERS):
            player, _ = Player.objects.get_or_create(name=name)
            if i == 0 and player.user_id is None:
                player.user = user
                player.save(update_fields=["user"])
            Membership.objects.get_or_create(club=club, player=player, defaults={"role": role})
            players.append(player)
        season, _ = Season.objects.get_or_create(
            club=club,
            name="2026–27",
            defaults={"starts_on": dt.date(2026, 9, 1), "ends_on": dt.date(2027, 6, 30)},
        )
        new_results = 0
        for c_index, (game, name, slug, fmt) in enumerate(COMPETITIONS):
            competition, _ = Competition.objects.get_or_create(
                club=club,
                slug=slug,
                defaults={"name": name, "game": game, "format": fmt, "season": season},
            )
            seats = self._seats(game)
            if fmt in DRAWN:
                new_results += self._drawn(competition, players, user, c_index)
                continue
            for t in range(TABLES_PER_COMPETITION):
                label = f"Tavolo {t + 1}"
                table = Table.objects.filter(competition=competition, label=label).first()
                if table is None:
                    start = (c_index * 3 + t * seats) % len(players)
                    sitting = [players[(start + k) % len(players)] for k in range(seats)]
                    table = services.create_table(
                        user=user, competition=competition, label=label, players=sitting
                    )
                for n in range(RESULTS_PER_TABLE):
                    key = f"demo-{slug}-{t}-{n}"
                    source, record, scores = self._result(game, seats, c_index * 100 + t * 10 + n)
                    stored = services.sender_key(user.pk, source, key)
                    if Result.objects.filter(club=club, idempotency_key=stored).exists():
                        continue
                    services.record_result(
                        user=user,
                        table=table,
                        source=source,
                        record=record,
                        scores=scores,
                        idempotency_key=key,
                        fingerprint=key,
                    )
                    new_results += 1
        return new_results, made

    def _drawn(self, competition: Competition, players: list[Player], user: Any, base: int) -> int:
        """Enter players, then draw, publish and play rounds through the formats: every
        table of a played round gets one decided game of the engine's bots. Nothing when the
        competition has rounds already."""
        if competition.rounds.exists():
            return 0
        entrants, played = DRAWN[Competition.Format(competition.format)]
        if competition.format == Competition.Format.SWISS:
            formats.update_settings(user=user, competition=competition, rounds=4)
        for i, player in enumerate(players[:entrants]):
            formats.enter_player(
                user=user, competition=competition, player=player, rating=1500 - 25 * i
            )
        recorded = 0
        for number in range(1, played + 2):
            draw = formats.generate_round(user=user, competition=competition)
            formats.publish_draw(user=user, draw=draw)
            if number > played:
                break  # drawn and published, left to be played
            for t, table in enumerate(competition.tables.filter(round=draw.round).order_by("pk")):
                seats = table.seats.count()
                seed = base * 100 + number * 10 + t
                source, record = self._decided(competition.game, seats, seed)
                services.record_result(user=user, table=table, source=source, record=record)
                recorded += 1
        return recorded

    def _decided(self, game: str, seats: int, seed: int) -> tuple[str, Any]:
        """A bots' game with one winner (a knockout match needs one), from the first seed on
        that gives one."""
        engine = registry.get(game)
        for attempt in range(seed, seed + 50):
            source, record, _scores = self._result(game, seats, attempt)
            report = engine.validate(record)
            if report.outcome is not None and len(report.outcome.winners) == 1:
                return source, record
        return source, record

    def _seats(self, game: str) -> int:
        if engine_available(game):
            seats: int = registry.get(game).ruleset().seats
            return seats
        return meta(game).seat_counts[0]

    def _result(self, game: str, seats: int, seed: int) -> tuple[str, Any, Any]:
        """A plausible game: played by the engine's bots where the engine exists."""
        if engine_available(game):
            engine = registry.get(game)
            ruleset = engine.ruleset()
            kind = "heuristic" if "heuristic" in engine.bots else "random"
            bots = [make_bot(engine, kind, seed + i) for i in range(seats)]
            state = play(engine, engine.new_game(ruleset, seed), bots)
            return Result.Source.FULL_RECORD, state.to_record(), None
        points = [((seed * 7 + i * 13) % 11) - 3 for i in range(seats)]
        return Result.Source.MANUAL, {}, points

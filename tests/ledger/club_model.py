"""A model of a whole club, driven by hypothesis's stateful testing.

``ClubModel`` runs random sequences of what a club does, through the product's own services
only (competitions in every format for every game the registry lists, entries, drawn and
published rounds, results typed as summaries or entered as full records from the games' own
random playouts, confirmations, corrections, disputes and rulings, penalties, imports,
withdrawals), and after every step checks the ledger as a whole:

* the standings and the per-round totals as stored == a rebuild from the journal == a
  recomputation written here, from the stored results' Outcomes and the penalties, with
  nothing of the product's projection code;
* the ledger's invariants (tables, seats, capacity, scores, one table per round, entrants,
  journal lines against credits and reversals);
* the journal's hash chain;
* the ratings == the product's replay of the journal.

The model keeps its own account of who sat where in each hand and which results should
count: that account, not the product's, is what the recomputation reads.

tests/ledger/test_club_model.py runs it in `make test` (a bounded number of examples, from
LEDGER_MODEL_EXAMPLES and LEDGER_MODEL_STEPS); tests/hardening/test_club_model_soak.py runs
it for LEDGER_MODEL_SOAK_SECONDS (30 minutes by default) in `make soak`, on SQLite and
PostgreSQL.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import TestCase
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from games.core import RandomBot, play, registry
from ledger.clubs import ratings
from ledger.clubs.errors import Conflict, LedgerError
from ledger.clubs.journal import journal
from ledger.clubs.models import (
    Club,
    Competition,
    Dispute,
    Entry,
    Membership,
    Penalty,
    Player,
    Rating,
    Result,
    Role,
    RoundTotal,
    Seat,
    Standing,
    Table,
)
from ledger.clubs.projections import projections
from ledger.clubs.results import penalties, services
from ledger.clubs.transfer import imports
from ledger.formats import office as competition_office
from ledger.formats import selectors
from ledger.formats import services as formats
from ledger.formats.models import Entrant, FormatSettings

ACCEPTED = Result.Status.ACCEPTED
PENDING = Result.Status.PENDING
DISPUTED = Result.Status.DISPUTED
SUPERSEDED = Result.Status.SUPERSEDED
VOIDED = Result.Status.VOIDED

#: Members of the club who can be entered in competitions (besides the staff's own players).
MEMBERS = 10
FORMATS = [
    Competition.Format.LEAGUE,
    Competition.Format.ROUND_ROBIN,
    Competition.Format.SWISS,
    Competition.Format.KNOCKOUT,
]
#: Formats that seat two players a table.
TWO_SEATED = {Competition.Format.ROUND_ROBIN, Competition.Format.KNOCKOUT}
CONFIRMATIONS = [
    Competition.Confirmation.NONE,
    Competition.Confirmation.SECOND_PERSON,
    Competition.Confirmation.BLIND,
]


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    value = int(raw)  # a bad value fails loudly
    if value < 1:
        raise ValueError(f"{name} must be at least 1, not {value}")
    return value


def playout(game: str, preset: str, seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A finished game of ``game`` under ``preset`` played by the game's own random bots:
    its full record and the summary a scorekeeper would write of it."""
    engine = registry.get(game)
    ruleset = engine.ruleset(preset)
    state = engine.new_game(ruleset, seed)
    play(engine, state, [RandomBot(seed * 7 + i) for i in range(ruleset.seats)])
    # Through JSON, as a record reaches the ledger.
    return json.loads(json.dumps(state.to_record())), json.loads(json.dumps(state.summary()))


@dataclass
class Hand:
    """The model's account of one result: where, who sat in each seat, what it credits."""

    competition: int
    table: int
    players: list[int]
    status: str
    #: Seat -> points credited instead of the hand's (a substitute's nobody/fixed score).
    special: dict[int, Decimal | None] = field(default_factory=dict)
    void: bool = False


@dataclass
class Totals:
    points: Decimal = Decimal(0)
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0

    def row(self) -> tuple[Decimal, int, int, int, int]:
        return (self.points, self.played, self.wins, self.draws, self.losses)


def _d(value: Any) -> Decimal:
    return Decimal(str(value))


class ClubModel(RuleBasedStateMachine):
    """One club, from an empty database: see the module's docstring."""

    #: Examples (clubs) and service calls run by the instances of this class, for the
    #: tests' report.
    examples_run = 0
    steps_run = 0
    calls: Counter[str] = Counter()
    #: What the checks found to compare (rows, matches), so that a run says what it proved.
    compared: Counter[str] = Counter()

    def __init__(self) -> None:
        super().__init__()
        ClubModel.examples_run += 1
        # Every example starts from a clean database: everything it writes is rolled back
        # at its end (the test holds pytest-django's transaction around all examples).
        self._atomic = transaction.atomic()
        self._atomic.__enter__()
        self.games = [g for g in registry.available() if registry.get(g).rulesets]
        users = get_user_model().objects
        self.club = Club.objects.create(name="Circolo modello", slug="modello", city="Pisa")
        self.staff: dict[str, Any] = {}
        for name, role in [
            ("organiser", Role.ORGANISER),
            ("referee", Role.REFEREE),
            ("scorekeeper", Role.SCOREKEEPER),
            ("scorekeeper2", Role.SCOREKEEPER),
        ]:
            user = users.create_user(username=f"model-{name}", password="x")
            player = Player.objects.create(name=name.title(), user=user)
            Membership.objects.create(club=self.club, player=player, role=role)
            self.staff[name] = user
        self.members = []
        for i in range(MEMBERS):
            p = Player.objects.create(name=f"Socio {i}")
            Membership.objects.create(club=self.club, player=p)
            self.members.append(p)
        self.competitions: list[Competition] = []
        self.presets: dict[int, str] = {}
        self.tables: dict[int, list[int]] = {}  # table -> players by seat, as the model knows
        self.hands: dict[int, Hand] = {}
        # table -> {substitute: the entrant whose seat they took}, as the model knows it
        self.drawn_for: dict[int, dict[int, int]] = defaultdict(dict)
        self.penalties: dict[int, tuple[int, int, Decimal, int]] = {}  # comp, player, pts, round
        self.cancelled: set[int] = set()
        self.seed = 0

    def teardown(self) -> None:
        transaction.set_rollback(True)
        self._atomic.__exit__(None, None, None)

    # --- helpers ---------------------------------------------------------------------------

    def _next_seed(self, salt: int) -> int:
        self.seed += 1
        return self.seed * 1000 + salt

    def _run(self, action: Any) -> Any:
        """Run a service as one request would: in its own transaction (a savepoint here),
        with the work it leaves for after the commit (the ratings' replay) done."""
        ClubModel.steps_run += 1
        ClubModel.calls[sys._getframe(1).f_code.co_name] += 1
        with TestCase.captureOnCommitCallbacks(execute=True):
            return action()

    def _open_tables(self) -> list[Table]:
        """Tables where another hand may be recorded: fewer than the competition's hands a
        table so far (counting the ones waiting), and not a finished knockout match."""
        out = []
        for table in Table.objects.filter(competition__club=self.club).select_related(
            "competition"
        ):
            seats = (
                registry.get(table.competition.game)
                .ruleset(self.presets[table.competition_id])
                .seats
            )
            # Every table a draw seats is of the size its competition's ruleset plays.
            assert len(self.tables[table.pk]) == seats, (table.label, seats)
            # Every table takes as many games as its competition's settings give it, a
            # table of no round (an import's) as well.
            live = Result.objects.filter(
                table=table, status__in=("pending", "accepted", "disputed")
            ).count()
            if table.capacity is None or live < table.capacity:
                out.append(table)
        return sorted(out, key=lambda t: t.pk)

    @staticmethod
    def _hands_per_table(competition: Competition) -> int:
        fs = FormatSettings.objects.filter(competition=competition).first()
        return fs.hands_per_table if fs else 1

    def _learn_tables(self) -> None:
        for table_id in Table.objects.filter(competition__club=self.club).values_list(
            "pk", flat=True
        ):
            if table_id not in self.tables:
                seats = dict(
                    Seat.objects.filter(table_id=table_id).values_list("index", "player_id")
                )
                self.tables[table_id] = [seats[i] for i in sorted(seats)]

    def _waiting(self, *statuses: str) -> bool:
        return any(hand.status in statuses for hand in self.hands.values())

    def _results(self, status: str) -> list[Result]:
        return list(
            Result.objects.filter(club=self.club, status=status)
            .select_related("competition", "table")
            .order_by("pk")
        )

    def _entry(self, table: Table, source: str, seed: int) -> tuple[str, dict[str, Any]]:
        competition = table.competition
        record, summary = playout(competition.game, self.presets[competition.pk], seed)
        return source, record if source == "full_record" else summary

    # --- rules -----------------------------------------------------------------------------

    @initialize(
        game=st.integers(0, 100),
        preset=st.integers(0, 100),
        fmt=st.sampled_from(FORMATS),
        confirmation=st.sampled_from(CONFIRMATIONS),
        hands=st.integers(1, 2),
        chosen=st.sets(st.integers(0, MEMBERS - 1), min_size=4, max_size=MEMBERS),
    )
    def a_first_competition_with_its_entrants_and_round(
        self, game: int, preset: int, fmt: str, confirmation: str, hands: int, chosen: set[int]
    ) -> None:
        self.create_competition(game, preset, fmt, confirmation, hands)
        if self.competitions:
            self.enrol(0, chosen)
            self.draw_and_publish_a_round(0)
            # The first round is played: a hand at each of its tables.
            for n in range(len(self._open_tables())):
                self.record_a_result(0, ["summary", "full_record"][n % 2], game + n)

    @precondition(lambda self: len(self.competitions) < 4)
    @rule(
        game=st.integers(0, 100),
        preset=st.integers(0, 100),
        fmt=st.sampled_from(FORMATS),
        confirmation=st.sampled_from(CONFIRMATIONS),
        hands=st.integers(1, 2),
    )
    def create_competition(
        self, game: int, preset: int, fmt: str, confirmation: str, hands: int
    ) -> None:
        slug = self.games[game % len(self.games)]
        engine = registry.get(slug)
        # A Swiss of two-player tables (paired by the Dutch rules) one time in two, of
        # larger tables (grouped) otherwise.
        two_only = fmt in TWO_SEATED or (fmt == Competition.Format.SWISS and preset % 2 == 0)
        names = [n for n in engine.rulesets if not two_only or engine.ruleset(n).seats == 2]
        if not names:
            return
        name = names[preset % len(names)]
        competition = self._run(
            lambda: competition_office.create_competition(
                user=self.staff["organiser"],
                club=self.club,
                data=competition_office.CompetitionData(
                    name=f"{slug} {fmt} {len(self.competitions)}",
                    game=slug,
                    preset=name,
                    format=fmt,
                    confirmation=confirmation,
                    # The ruleset's table size, said again: left empty, a league of a game
                    # played by 2, 4 or 6 draws tables of 2 even for a ruleset of 4.
                    seats_per_table=engine.ruleset(name).seats,
                    hands_per_table=hands if fmt == Competition.Format.LEAGUE else 1,
                ),
            )
        )
        self.competitions.append(competition)
        self.presets[competition.pk] = name

    @precondition(lambda self: self.competitions)
    @rule(which=st.integers(0, 100), chosen=st.sets(st.integers(0, MEMBERS - 1), max_size=8))
    def enrol(self, which: int, chosen: set[int]) -> None:
        competition = self.competitions[which % len(self.competitions)]
        for i in sorted(chosen):
            # A late entry may be refused (a round robin or knockout under way).
            with contextlib.suppress(LedgerError):
                self._run(
                    lambda i=i: formats.enter_player(
                        user=self.staff["organiser"],
                        competition=competition,
                        player=self.members[i],
                        rating=2000 - i,
                    )
                )

    def _round_played(self, competition: Competition) -> bool:
        """Whether every table of the competition's last round has all its hands."""
        last = (
            Table.objects.filter(competition=competition, round__isnull=False)
            .order_by("-round__number")
            .values_list("round_id", flat=True)
            .first()
        )
        if last is None:
            return True
        open_ = {t.pk for t in self._open_tables()}
        return not Table.objects.filter(round_id=last, pk__in=open_).exists()

    @precondition(lambda self: self.competitions)
    @rule(which=st.integers(0, 100))
    def draw_and_publish_a_round(self, which: int) -> None:
        competition = self.competitions[which % len(self.competitions)]
        if not self._round_played(competition):
            return
        try:
            draw = self._run(
                lambda: formats.generate_round(
                    user=self.staff["organiser"], competition=competition
                )
            )
            self._run(lambda: formats.publish_draw(user=self.staff["organiser"], draw=draw))
        except LedgerError:
            return  # too few players, the schedule complete, a knockout match undecided
        self._learn_tables()

    @precondition(lambda self: self._open_tables())
    @rule(
        which=st.integers(0, 10_000),
        source=st.sampled_from(["summary", "full_record"]),
        salt=st.integers(0, 999),
    )
    def record_a_result(self, which: int, source: str, salt: int) -> None:
        tables = self._open_tables()
        if not tables:
            return
        table = tables[which % len(tables)]
        source, record = self._entry(table, source, self._next_seed(salt))
        result, created = self._run(
            lambda: services.record_result(
                user=self.staff["scorekeeper"], table=table, source=source, record=record
            )
        )
        assert created
        self.hands[result.pk] = Hand(
            competition=table.competition_id,
            table=table.pk,
            players=list(self.tables[table.pk]),
            status=ACCEPTED
            if table.competition.confirmation == Competition.Confirmation.NONE
            else PENDING,
        )

    @precondition(lambda self: self._waiting(PENDING))
    @rule(which=st.integers(0, 10_000), same=st.booleans(), salt=st.integers(0, 999))
    def confirm_a_result(self, which: int, same: bool, salt: int) -> None:
        waiting = self._results(PENDING)
        if not waiting:
            return
        result = waiting[which % len(waiting)]
        confirmer = self.staff["scorekeeper2"]
        if result.competition.confirmation != Competition.Confirmation.BLIND:
            self._run(lambda: services.confirm_result(user=confirmer, result=result))
            self.hands[result.pk].status = ACCEPTED
            return
        # Blind re-entry: the same summary again, or another game's.
        if same:
            record = result.record
            source = "full_record" if "actions" in record else "summary"
        else:
            source, record = self._entry(result.table, "summary", self._next_seed(salt))
        _result, dispute = self._run(
            lambda: services.reenter_result(
                user=confirmer, result=result, source=source, record=record
            )
        )
        again = Result.objects.get(pk=result.pk)
        expected = DISPUTED if dispute is not None else ACCEPTED
        if same:
            assert dispute is None, "the same result typed again opened a dispute"
        assert again.status == expected
        self.hands[result.pk].status = expected

    @precondition(lambda self: self._waiting(PENDING))
    @rule(which=st.integers(0, 10_000), reason=st.sampled_from(["Punti sbagliati", "Errore"]))
    def contest_a_waiting_result(self, which: int, reason: str) -> None:
        waiting = self._results(PENDING)
        if not waiting:
            return
        result = waiting[which % len(waiting)]
        self._run(
            lambda: services.dispute_result(
                user=self.staff["scorekeeper2"], result=result, reason=reason
            )
        )
        self.hands[result.pk].status = DISPUTED

    @precondition(lambda self: self._waiting(DISPUTED))
    @rule(
        which=st.integers(0, 10_000),
        ruling=st.sampled_from([Dispute.Ruling.FIRST, Dispute.Ruling.SECOND, Dispute.Ruling.NEW]),
        salt=st.integers(0, 999),
    )
    def rule_on_a_dispute(self, which: int, ruling: str, salt: int) -> None:
        open_ = list(
            Dispute.objects.filter(result__club=self.club, ruling=Dispute.Ruling.OPEN)
            .select_related("result__table__competition")
            .order_by("pk")
        )
        if not open_:
            return
        dispute = open_[which % len(open_)]
        old = dispute.result
        if ruling == Dispute.Ruling.SECOND and dispute.other_scores is None:
            ruling = Dispute.Ruling.NEW
        source, record = self._entry(old.table, "summary", self._next_seed(salt))
        counting = self._run(
            lambda: services.rule_dispute(
                user=self.staff["referee"],
                dispute=dispute,
                ruling=ruling,
                note="Deciso dall'arbitro",
                source=source,
                record=record,
            )
        )
        hand = self.hands[old.pk]
        if ruling == Dispute.Ruling.FIRST:
            assert counting.pk == old.pk
            hand.status = ACCEPTED
        else:
            hand.status = SUPERSEDED
            self.hands[counting.pk] = Hand(
                competition=hand.competition,
                table=hand.table,
                players=list(hand.players),
                status=ACCEPTED,
                special=dict(hand.special),
            )

    @precondition(lambda self: self._waiting(ACCEPTED, PENDING))
    @rule(
        which=st.integers(0, 10_000),
        source=st.sampled_from(["summary", "full_record"]),
        salt=st.integers(0, 999),
    )
    def correct_a_result(self, which: int, source: str, salt: int) -> None:
        counting = self._results(ACCEPTED) + self._results(PENDING)
        if not counting:
            return
        old = counting[which % len(counting)]
        source, record = self._entry(old.table, source, self._next_seed(salt))
        new = self._run(
            lambda: services.supersede_result(
                user=self.staff["referee"],
                result=old,
                source=source,
                record=record,
                reason="Correzione",
            )
        )
        hand = self.hands[old.pk]
        hand.status = SUPERSEDED
        # The correction is the same hand: the same people in the same seats.
        self.hands[new.pk] = Hand(
            competition=hand.competition,
            table=hand.table,
            players=list(hand.players),
            status=ACCEPTED,
            special=dict(hand.special),
        )

    @precondition(lambda self: self.competitions)
    @rule(
        which=st.integers(0, 100),
        who=st.integers(0, 1000),
        points=st.integers(1, 5),
        at_a_table=st.booleans(),
    )
    def penalise(self, which: int, who: int, points: int, at_a_table: bool) -> None:
        competition = self.competitions[which % len(self.competitions)]
        entrants = list(
            Entrant.objects.filter(competition=competition)
            .order_by("number")
            .values_list("player_id", flat=True)
        )
        if not entrants:
            return
        player = Player.objects.get(pk=entrants[who % len(entrants)])
        table = None
        if at_a_table:
            table = (
                Table.objects.filter(competition=competition, seats__player=player)
                .order_by("-pk")
                .first()
            )
        penalty = self._run(
            lambda: penalties.give_penalty(
                user=self.staff["referee"],
                competition=competition,
                player=player,
                points=points,
                reason="Ritardo",
                table=table,
            )
        )
        self.penalties[penalty.pk] = (
            competition.pk,
            player.pk,
            Decimal(-points),
            table.round_id or 0 if table is not None else 0,
        )

    @precondition(lambda self: self.penalties)
    @rule(which=st.integers(0, 1000))
    def cancel_a_penalty(self, which: int) -> None:
        standing = sorted(set(self.penalties) - self.cancelled)
        if not standing:
            return
        pk = standing[which % len(standing)]
        penalty = Penalty.objects.get(pk=pk)
        self._run(
            lambda: penalties.cancel_penalty(
                user=self.staff["referee"], penalty=penalty, reason="Annullata"
            )
        )
        self.cancelled.add(pk)

    @precondition(lambda self: self.competitions)
    @rule(which=st.integers(0, 100), who=st.integers(0, 1000))
    def withdraw(self, which: int, who: int) -> None:
        competition = self.competitions[which % len(self.competitions)]
        entrants = list(
            Entrant.objects.filter(competition=competition, withdrawn_after__isnull=True)
            .order_by("number")
            .values_list("player_id", flat=True)
        )
        if not entrants:
            return
        player = Player.objects.get(pk=entrants[who % len(entrants)])
        self._run(
            lambda: formats.withdraw_player(
                user=self.staff["organiser"], competition=competition, player=player
            )
        )

    @precondition(lambda self: self.competitions)
    @rule(
        which=st.integers(0, 100),
        rows=st.lists(
            st.tuples(st.integers(0, 10_000), st.sampled_from(["summary", "full_record"])),
            min_size=1,
            max_size=3,
        ),
        salt=st.integers(0, 999),
    )
    def import_results(self, which: int, rows: list[tuple[int, str]], salt: int) -> None:
        """A file of results for tables of no round, named by their players."""
        competition = self.competitions[which % len(self.competitions)]
        seats = registry.get(competition.game).ruleset(self.presets[competition.pk]).seats
        entrants = list(
            Entrant.objects.filter(competition=competition)
            .order_by("number")
            .values_list("player_id", flat=True)
        )
        if len(entrants) < seats:
            return
        lines, planned = [], []
        for n, (pick, source) in enumerate(rows):
            start = pick % len(entrants)
            players = [entrants[(start + k) % len(entrants)] for k in range(seats)]
            record, summary = playout(competition.game, self.presets[competition.pk], pick + salt)
            # A table of its own for each row: a table takes no more games than its
            # competition's settings give it.
            label = f"Import {pick % 3}-{self._next_seed(salt)}-{n}"
            lines.append(
                json.dumps(
                    {
                        "competition": competition.slug,
                        "table": label,
                        "players": players,
                        "source": source,
                        "record": record if source == "full_record" else summary,
                        "key": f"{self._next_seed(salt)}-{n}",
                    }
                )
            )
            planned.append(players)
        before = set(Result.objects.filter(club=self.club).values_list("pk", flat=True))
        job = self._run(
            lambda: imports.create_job(
                user=self.staff["scorekeeper"],
                club=self.club,
                filename="risultati.jsonl",
                raw="\n".join(lines).encode(),
                fmt="jsonl",
            )
        )
        job = self._run(lambda: imports.run_job(job.pk))
        assert job.errors == [], job.errors
        assert job.imported == len(rows)
        new = list(
            Result.objects.filter(club=self.club)
            .exclude(pk__in=before)
            .select_related("table")
            .order_by("pk")
        )
        assert len(new) == len(rows)
        self._learn_tables()
        for result, players in zip(new, planned, strict=True):
            assert self.tables[result.table_id] == players
            self.hands[result.pk] = Hand(
                competition=competition.pk,
                table=result.table_id,
                players=players,
                status=ACCEPTED
                if competition.confirmation == Competition.Confirmation.NONE
                else PENDING,
            )

    @rule(
        which=st.integers(0, 10_000),
        seat=st.integers(0, 5),
        who=st.integers(0, 1000),
        from_hand=st.integers(0, 3),
    )
    def replace_a_player(self, which: int, seat: int, who: int, from_hand: int) -> None:
        """A substitute takes a seat from a hand on (the next one, or one already played,
        whose hands are then written again for the substitute)."""
        tables = sorted(
            Table.objects.filter(competition__club=self.club, round__isnull=False).select_related(
                "competition"
            ),
            key=lambda t: t.pk,
        )
        if not tables:
            return
        table = tables[which % len(tables)]
        seat %= len(self.tables[table.pk])
        waiting = Result.objects.filter(table=table, status__in=[PENDING, DISPUTED]).exists()
        busy = {
            p
            for other in Table.objects.filter(round_id=table.round_id).values_list("pk", flat=True)
            for p in self.tables[other]
        } | {
            p
            for hand in self.hands.values()
            if hand.table in self.tables
            and Table.objects.filter(pk=hand.table, round_id=table.round_id).exists()
            for p in hand.players
        }
        free = [
            p
            for p in Entrant.objects.filter(competition=table.competition)
            .order_by("number")
            .values_list("player_id", flat=True)
            if p not in busy
        ]
        if not free:
            return
        substitute = Player.objects.get(pk=free[who % len(free)])
        from ledger.night import services as night

        hands = night.hands_of(table)
        start = min(from_hand, len(hands)) + 1 if from_hand else len(hands) + 1
        if waiting:
            # A hand waiting for confirmation or a ruling would be credited to whoever sits
            # in its seat when it comes to count: the replacement waits for it.
            try:
                night.replace_player(
                    user=self.staff["organiser"],
                    table=table,
                    seat=seat,
                    substitute=substitute,
                    from_hand=start,
                )
            except Conflict:
                return
            raise AssertionError("a replacement went through while a hand of the table waited")
        self._run(
            lambda: night.replace_player(
                user=self.staff["organiser"],
                table=table,
                seat=seat,
                substitute=substitute,
                from_hand=start,
            )
        )
        replaced = self.tables[table.pk][seat]
        drawn = self.drawn_for[table.pk]
        drawn[substitute.pk] = drawn.get(replaced, replaced)
        self.tables[table.pk][seat] = substitute.pk
        for old in hands[start - 1 :]:
            hand = self.hands[old.pk]
            hand.status = SUPERSEDED
            new = Result.objects.get(supersedes=old)
            players = list(hand.players)
            players[seat] = substitute.pk
            self.hands[new.pk] = Hand(
                competition=hand.competition,
                table=hand.table,
                players=players,
                status=ACCEPTED,
                special=dict(hand.special),
            )

    @precondition(lambda self: self._waiting(ACCEPTED, PENDING, DISPUTED))
    @rule(which=st.integers(0, 10_000))
    def void_a_result(self, which: int) -> None:
        """Entered twice, at the wrong table: the result is taken back, nothing replaces it."""
        voidable = sorted(
            pk for pk, h in self.hands.items() if h.status in (ACCEPTED, PENDING, DISPUTED)
        )
        result = Result.objects.get(pk=voidable[which % len(voidable)])
        self._run(
            lambda: services.void_result(
                user=self.staff["referee"], result=result, reason="Registrato due volte"
            )
        )
        self.hands[result.pk].status = VOIDED

    @precondition(lambda self: self._waiting(ACCEPTED, PENDING))
    @rule(
        which=st.integers(0, 10_000),
        kind=st.sampled_from(["upheld", "void"]),
    )
    def contest_and_rule_at_the_referee_desk(self, which: int, kind: str) -> None:
        """A scorekeeper calls the referee on a result; the referee's ruling closes the case."""
        from ledger.referee import services as desk

        standing = sorted(pk for pk, h in self.hands.items() if h.status in (ACCEPTED, PENDING))
        result = Result.objects.get(pk=standing[which % len(standing)])
        case = self._run(
            lambda: desk.contest(
                user=self.staff["scorekeeper2"], result=result, reason="Chiamata all'arbitro"
            )
        )
        hand = self.hands[result.pk]
        if hand.status == PENDING:
            hand.status = DISPUTED
        new = self._run(
            lambda: desk.rule(user=self.staff["referee"], case=case, kind=kind, note="Deciso")
        )
        if kind == "void":
            assert new.pk == result.pk
            hand.status = VOIDED
            return
        hand.status = SUPERSEDED
        self.hands[new.pk] = Hand(
            competition=hand.competition,
            table=hand.table,
            players=list(hand.players),
            status=ACCEPTED,
            special=dict(hand.special),
        )

    # --- checks ----------------------------------------------------------------------------

    def recomputed(
        self, competition: Competition, penalties: bool = True
    ) -> tuple[dict[int, Totals], dict[Any, Totals]]:
        """Each player's totals, and each (round key, player)'s, from the results that
        count as the model knows them (their Outcome's scores and winners) and the
        penalties that stand: the standings' rules written once more, independently."""
        overall: dict[int, Totals] = defaultdict(Totals)
        by_round: dict[tuple[int, int], Totals] = defaultdict(Totals)
        rounds = dict(Table.objects.filter(competition=competition).values_list("pk", "round_id"))
        for result in Result.objects.filter(competition=competition, status=ACCEPTED):
            hand = self.hands[result.pk]
            if hand.void:
                continue
            outcome = (result.verdict or {}).get("outcome")
            assert outcome is not None, f"result {result.pk} counts with no Outcome"
            scores, winners = outcome["scores"], set(outcome["winners"])
            seats = len(hand.players)
            for seat, player in enumerate(hand.players):
                if seat in hand.special:
                    fixed = hand.special[seat]
                    points = fixed if fixed is not None else Decimal(0)
                else:
                    points = _d(scores[seat])
                if not winners or len(winners) == seats:
                    kind = "draws"
                elif seat in winners:
                    kind = "wins"
                else:
                    kind = "losses"
                for t in (overall[player], by_round[(rounds[result.table_id] or 0, player)]):
                    t.points += points
                    t.played += 1
                    setattr(t, kind, getattr(t, kind) + 1)
        for pk, (comp, player, points, round_key) in self.penalties.items():
            if not penalties or comp != competition.pk or pk in self.cancelled:
                continue
            overall[player].points += points
            by_round[(round_key, player)].points += points
        return overall, by_round

    @staticmethod
    def _nonzero(rows: dict[Any, Totals]) -> dict[Any, tuple[Any, ...]]:
        return {k: t.row() for k, t in rows.items() if t != Totals()}

    @staticmethod
    def _stored(competition: Competition) -> tuple[dict[int, Any], dict[Any, Any]]:
        standings = {
            s.player_id: (s.points, s.played, s.wins, s.draws, s.losses)
            for s in Standing.objects.filter(competition=competition)
        }
        totals = {
            (t.round_key, t.player_id): (t.points, t.played, t.wins, t.draws, t.losses)
            for t in RoundTotal.objects.filter(competition=competition)
        }
        zero = (Decimal(0), 0, 0, 0, 0)
        return (
            {k: v for k, v in standings.items() if v != zero},
            {k: v for k, v in totals.items() if v != zero},
        )

    @invariant()
    def the_model_knows_every_result_as_the_ledger_does(self) -> None:
        stored = dict(Result.objects.filter(club=self.club).values_list("pk", "status"))
        assert stored == {pk: hand.status for pk, hand in self.hands.items()}

    @invariant()
    def standings_equal_their_rebuild_and_the_recomputation(self) -> None:
        for competition in self.competitions:
            standings, totals = self._stored(competition)
            overall, by_round = self.recomputed(competition)
            ClubModel.compared["standings rows"] += len(standings)
            assert standings == self._nonzero(overall), competition.name
            assert totals == self._nonzero(by_round), competition.name
            # The product's rebuild from the journal, in a savepoint rolled back after.
            sid = transaction.savepoint()
            try:
                projections.rebuild_standings(competition)
                rebuilt = self._stored(competition)
            finally:
                transaction.savepoint_rollback(sid)
            assert rebuilt == (standings, totals), competition.name

    @invariant()
    def the_ledger_holds_its_invariants(self) -> None:
        results = list(
            Result.objects.filter(club=self.club).select_related("table__round", "competition")
        )
        seats_of = defaultdict(dict)
        for table_id, index, player_id in Seat.objects.filter(
            table__competition__club=self.club
        ).values_list("table_id", "index", "player_id"):
            seats_of[table_id][index] = player_id
        lines: dict[int, list[tuple[str, int, int, Decimal]]] = defaultdict(list)
        for result_id, kind, seat, player_id, points in Entry.objects.filter(
            club=self.club, result__isnull=False
        ).values_list("result_id", "kind", "seat", "player_id", "points"):
            lines[result_id].append((kind, seat, player_id, points))
        counted: Counter[int] = Counter()
        for result in results:
            table = result.table
            hand = self.hands[result.pk]
            # Its table belongs to its competition, and the table's round too.
            assert table.competition_id == result.competition_id
            if table.round is not None:
                assert table.round.competition_id == result.competition_id
            # Stored scores are the Outcome's.
            outcome = result.verdict.get("outcome") if result.verdict else None
            if outcome is not None:
                assert [_d(s) for s in result.scores] == [_d(s) for s in outcome["scores"]]
            assert len(result.scores) == len(seats_of[table.pk])
            credits = Counter(
                (seat, player, points)
                for kind, seat, player, points in lines[result.pk]
                if kind == Entry.Kind.CREDIT
            )
            reversals = Counter(
                (seat, player, -points)
                for kind, seat, player, points in lines[result.pk]
                if kind == Entry.Kind.REVERSAL
            )
            assert all(
                kind in (Entry.Kind.CREDIT, Entry.Kind.REVERSAL)
                for kind, *_rest in lines[result.pk]
            )
            counts = result.status == ACCEPTED and not hand.void
            if counts:
                counted[table.pk] += 1
                # The journal credits exactly the hand's seats and players, once.
                assert sorted(s for s, _p, _x in credits) == list(range(len(result.scores)))
                assert [p for (_s, p, _x) in sorted(credits)] == hand.players
                assert reversals == Counter()
            elif credits:
                # A result that counted once and no more: each credit reversed once.
                assert result.status in (SUPERSEDED, VOIDED)
                assert reversals == credits
            else:
                assert reversals == Counter()
        # No table holds more counted games than its competition allows.
        for table_id, n in counted.items():
            table = next(r.table for r in results if r.table_id == table_id)
            assert table.capacity is None or n <= table.capacity, table.label
        # Each player at one table per round.
        per_round: dict[int, Counter[int]] = defaultdict(Counter)
        for table in Table.objects.filter(competition__club=self.club, round__isnull=False):
            for player in seats_of[table.pk].values():
                per_round[table.round_id][player] += 1
        for round_id, players in per_round.items():
            assert max(players.values()) == 1, f"round {round_id}: {players}"
        # No standing row for anyone not entered where the competition has entrants.
        for competition in self.competitions:
            entered = set(
                Entrant.objects.filter(competition=competition).values_list("player_id", flat=True)
            )
            ranked = set(
                Standing.objects.filter(competition=competition).values_list("player_id", flat=True)
            )
            # Those who take part: entered, or seated at one of its tables by a draw or a
            # replacement, as the model knows them.
            seated = {
                p
                for table_id, players in self.tables.items()
                if table_id in seats_of
                and Table.objects.filter(pk=table_id, competition=competition).exists()
                for p in players
            } | {
                p for h in self.hands.values() if h.competition == competition.pk for p in h.players
            }
            assert ranked <= entered | seated, competition.name
        # Each player credited at one table per round by the hands that count.
        credited: dict[int, dict[int, set[int]]] = defaultdict(lambda: defaultdict(set))
        for result in results:
            hand = self.hands[result.pk]
            if result.status == ACCEPTED and not hand.void and result.table.round_id:
                for p in hand.players:
                    credited[result.table.round_id][p].add(result.table_id)
        for round_id, where in credited.items():
            assert all(len(t) == 1 for t in where.values()), f"round {round_id}: {dict(where)}"

    @invariant()
    def the_swiss_table_and_the_bracket_read_the_outcomes(self) -> None:
        """A Swiss of two-player tables counts each player's wins, draws and losses at the
        tables of its rounds as the Outcomes say (a bye apart); a knockout match is won by
        the Outcome's winner."""
        from ledger.formats.models import Bye, KnockoutMatch

        for competition in self.competitions:
            seats = registry.get(competition.game).ruleset(self.presets[competition.pk]).seats
            if seats != 2:
                continue
            if competition.format == Competition.Format.SWISS:
                # Each hand of a round counts for the entrants its seats were drawn for:
                # a substitute plays for the player they replaced.
                expected: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
                for result in Result.objects.filter(
                    competition=competition, status=ACCEPTED, table__round__isnull=False
                ):
                    hand = self.hands[result.pk]
                    if hand.void:
                        continue
                    winners = set(result.verdict["outcome"]["winners"])
                    drawn = self.drawn_for[result.table_id]
                    for seat, player in enumerate(hand.players):
                        kind = (
                            1
                            if not winners or len(winners) == len(hand.players)
                            else 0
                            if seat in winners
                            else 2
                        )
                        expected[drawn.get(player, player)][kind] += 1
                byes = Counter(
                    Bye.objects.filter(competition=competition).values_list("player_id", flat=True)
                )
                for row in selectors.swiss_standings(competition):
                    ClubModel.compared["Swiss table rows"] += 1
                    got = [row["wins"], row["draws"], row["losses"]]
                    want = expected[row["player"]]
                    # A bye is counted as a win or a draw by the table, never as a loss.
                    assert got[2] == want[2], (competition.name, row)
                    assert (
                        want[0] + want[1]
                        <= got[0] + got[1]
                        <= want[0] + want[1] + byes[row["player"]]
                    ), (competition.name, row, want)
            elif competition.format == Competition.Format.KNOCKOUT:
                for match in KnockoutMatch.objects.filter(competition=competition):
                    tables = list(match.tables.values_list("pk", flat=True))
                    counting = [
                        r
                        for r in Result.objects.filter(table_id__in=tables, status=ACCEPTED)
                        if not self.hands[r.pk].void
                    ]
                    if len(counting) != 1 or match.winner_id:
                        continue
                    result = counting[0]
                    ClubModel.compared["knockout matches"] += 1
                    winners = result.verdict["outcome"]["winners"]
                    players = self.hands[result.pk].players
                    drawn = self.drawn_for[result.table_id]
                    want = (
                        drawn.get(players[winners[0]], players[winners[0]])
                        if len(winners) == 1
                        else None
                    )
                    assert selectors.match_winner(competition, match) == want, match.pk

    @invariant()
    def the_journal_chain_verifies(self) -> None:
        assert journal.verify_chain(self.club) == []

    @invariant()
    def ratings_equal_a_replay_of_the_journal(self) -> None:
        def rows() -> dict[tuple[str, int], tuple[float, float, int]]:
            return {
                (r.game, r.player_id): (r.mu, r.sigma, r.results)
                for r in Rating.objects.filter(club=self.club)
            }

        folded = rows()
        sid = transaction.savepoint()
        try:
            for game in {c.game for c in self.competitions}:
                ratings.recompute(self.club.pk, game)
            replayed = rows()
        finally:
            transaction.savepoint_rollback(sid)
        assert folded.keys() == replayed.keys()
        for key, (mu, sigma, n) in folded.items():
            rmu, rsigma, rn = replayed[key]
            assert n == rn, key
            assert abs(mu - rmu) < 1e-6 and abs(sigma - rsigma) < 1e-6, (key, folded[key])

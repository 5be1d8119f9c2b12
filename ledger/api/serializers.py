from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ledger.clubs.game_fields import GameSerializerField
from ledger.clubs.models import (
    Club,
    Competition,
    Entry,
    ImportJob,
    Player,
    Rating,
    Result,
    Role,
    Season,
    Table,
)
from ledger.clubs.office.visibility import viewer_of
from ledger.clubs.outcomes import KEYS, SettingsError, clean_settings
from ledger.clubs.scoring import check_ruleset
from ledger.clubs.transfer.selectors import in_words


class ClubSerializer(serializers.ModelSerializer[Club]):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "city", "created_at", "journal_length"]
        read_only_fields = ["created_at", "journal_length"]


class PlayerSerializer(serializers.ModelSerializer[Player]):
    clubs: serializers.PrimaryKeyRelatedField[Club] = serializers.PrimaryKeyRelatedField(
        many=True, read_only=True
    )

    class Meta:
        model = Player
        fields = ["id", "name", "clubs"]


class PlayerCreateSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=120)
    club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.all())
    role = serializers.ChoiceField(choices=Role.choices, default=Role.MEMBER)


class CompetitionSerializer(serializers.ModelSerializer[Competition]):
    game = GameSerializerField(help_text="An installed game's slug.")

    class Meta:
        model = Competition
        fields = [
            "id",
            "club",
            "season",
            "name",
            "slug",
            "game",
            "ruleset",
            "format",
            "confirmation",
            "standings_settings",
            "created_at",
        ]
        read_only_fields = ["created_at"]

    def validate_standings_settings(self, value: Any) -> dict[str, Any]:
        try:
            return clean_settings(value)
        except SettingsError as exc:
            raise serializers.ValidationError(str(exc)) from exc

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        season: Season | None = attrs.get("season")
        if season is not None and season.club_id != attrs["club"].pk:
            raise serializers.ValidationError(
                {"season": [_("The season belongs to another club.")]}
            )
        problem = check_ruleset(attrs["game"], attrs.get("ruleset") or {})
        if problem:
            raise serializers.ValidationError({"ruleset": [problem]})
        return attrs


class SeatSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    player_name = serializers.CharField(source="player.name")


class TableSerializer(serializers.ModelSerializer[Table]):
    seats = SeatSerializer(many=True, read_only=True)

    class Meta:
        model = Table
        fields = ["id", "competition", "round", "label", "seats", "created_at"]


class TableCreateSerializer(serializers.Serializer[Any]):
    competition = serializers.PrimaryKeyRelatedField(queryset=Competition.objects.all())
    # A field named label: DRF's metaclass takes it off the class, where stubs see Field.label.
    label = serializers.CharField(max_length=40)  # type: ignore[assignment]  # a field named like a Field attribute
    players = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all(), many=True)


class EntrySerializer(serializers.ModelSerializer[Entry]):
    class Meta:
        model = Entry
        fields = [
            "id",
            "competition",
            "result",
            "table",
            "player",
            "seat",
            "points",
            "kind",
            "source",
            "entered_by",
            "created_at",
            "sequence",
            "prev_hash",
            "hash",
        ]


class ResultSerializer(serializers.ModelSerializer[Result]):
    entries = EntrySerializer(many=True, read_only=True)
    superseded_by: serializers.PrimaryKeyRelatedField[Result] = serializers.PrimaryKeyRelatedField(
        read_only=True, allow_null=True
    )
    sealed = serializers.BooleanField(
        read_only=True,
        default=False,
        help_text=_(
            "True when the result awaits confirmation (or a ruling) and this caller may not "
            "read it yet: record and scores are then empty. The person who entered it, the "
            "club's referees and organisers and, except with blind re-entry, those asked to "
            "confirm it read it whole."
        ),
    )

    def to_representation(self, instance: Any) -> Any:
        data = super().to_representation(instance)
        request = self.context.get("request")
        data["sealed"] = request is not None and not viewer_of(request).may_see(instance)
        if data["sealed"]:
            data["record"], data["scores"], data["verdict"] = {}, [], None
        return data

    class Meta:
        model = Result
        fields = [
            "id",
            "club",
            "competition",
            "table",
            "source",
            "status",
            "record",
            "scores",
            "verdict",
            "entered_by",
            "entered_at",
            "confirmed_by",
            "confirmed_at",
            "supersedes",
            "superseded_by",
            "voided_by",
            "voided_at",
            "void_reason",
            "entries",
            "sealed",
        ]


class VoidSerializer(serializers.Serializer[Any]):
    reason = serializers.CharField(
        max_length=2000,
        allow_blank=True,
        help_text=_(
            "Why the result is voided (entered twice, the wrong table, a game never played); "
            "kept with the result."
        ),
    )


class ResultCreateSerializer(serializers.Serializer[Any]):
    # The competition's game, as a client generated from the schema sends it (the schema has
    # one body per game, told apart by it); checked against the table's by the view.
    game = serializers.CharField(max_length=40, required=False)
    # An id, looked up by the view with its competition and club in one query.
    table = serializers.IntegerField(min_value=1, max_value=2**63 - 1)
    # A field named source: DRF's metaclass takes it off the class; stubs see Field.source.
    source = serializers.ChoiceField(  # type: ignore[assignment]  # a field named like a Field attribute
        choices=Result.Source.choices, default=Result.Source.SUMMARY
    )
    record = serializers.JSONField(required=False, default=dict)
    scores = serializers.ListField(
        child=serializers.DecimalField(max_digits=12, decimal_places=2),
        required=False,
        allow_null=True,
        default=None,
        help_text=_("Points per seat, seat 0 first. Required for games without an engine."),
    )
    players = serializers.ListField(
        child=serializers.IntegerField(allow_null=True),
        required=False,
        allow_null=True,
        default=None,
        help_text=_("Optional check: the player id in each seat, seat 0 first."),
    )


class StandingRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.DecimalField(max_digits=14, decimal_places=2)
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    match_points = serializers.DecimalField(
        max_digits=14,
        decimal_places=2,
        help_text="Wins, draws and losses at the competition's points for each.",
    )
    movement = serializers.IntegerField(
        allow_null=True, help_text="Places gained since the previous round."
    )
    pending = serializers.DecimalField(
        max_digits=14,
        decimal_places=2,
        help_text="Points from results awaiting confirmation (not yet counted).",
    )


class StandingsSerializer(serializers.Serializer[Any]):
    competition = serializers.IntegerField()
    as_of_round = serializers.IntegerField(allow_null=True)
    last_round = serializers.IntegerField(allow_null=True)
    rows = StandingRowSerializer(many=True)


class RatingSerializer(serializers.ModelSerializer[Rating]):
    player_name = serializers.CharField(source="player.name", read_only=True)
    conservative = serializers.FloatField(
        read_only=True, help_text="mu - 3 sigma: the rating the player is very likely above."
    )

    class Meta:
        model = Rating
        fields = [
            "id",
            "club",
            "game",
            "player",
            "player_name",
            "mu",
            "sigma",
            "conservative",
            "results",
            "updated_at",
        ]


_SEPARATORS = {",": "comma", ";": "semicolon", "\t": "tab"}
# The kinds of file an import reads: one choice set, named FileKind in the schema.
FILE_KINDS = ["csv", "jsonl", "xlsx", "ods"]


class UnderstoodSerializer(serializers.Serializer[Any]):
    """What was read of an import's file, as the import page says it before confirming."""

    kind = serializers.ChoiceField(choices=FILE_KINDS, help_text=_("The kind of file read."))
    separator = serializers.ChoiceField(
        choices=list(_SEPARATORS.values()),
        allow_null=True,
        help_text=_("A CSV file's separator (null for the other kinds)."),
    )
    encoding = serializers.ChoiceField(
        choices=["utf-8", "utf-8-sig", "cp1252"],
        allow_null=True,
        help_text=_(
            "A text file's encoding: UTF-8, UTF-8 with a byte-order mark, or Windows-1252 "
            "(null for a workbook)."
        ),
    )
    sheet = serializers.CharField(
        allow_null=True, help_text=_("The workbook's sheet read (null for a text file).")
    )
    rows = serializers.IntegerField(help_text=_("The rows of results found (the header aside)."))
    columns = serializers.ListField(
        child=serializers.CharField(), help_text=_("The header's columns, in the file's order.")
    )
    in_words = serializers.CharField(
        help_text=_("All of it in one sentence, in the request's language.")
    )


def understood_of(job: ImportJob) -> dict[str, Any]:
    seen = job.understood or {}
    return {
        "kind": seen.get("kind") or job.format,
        "separator": _SEPARATORS.get(seen["separator"]) if seen.get("separator") else None,
        "encoding": seen.get("encoding"),
        "sheet": seen.get("sheet"),
        "rows": int(seen.get("rows") or 0),
        "columns": list(seen.get("columns") or []),
        "in_words": in_words(seen),
    }


class ImportJobSerializer(serializers.ModelSerializer[ImportJob]):
    percent = serializers.IntegerField(read_only=True)
    understood = serializers.SerializerMethodField(
        help_text=_(
            "What was read of the file. A job sent with preview waits, in status preview, "
            "until it is confirmed (POST its confirm) or put aside (DELETE it)."
        )
    )

    @extend_schema_field(UnderstoodSerializer)
    def get_understood(self, job: ImportJob) -> dict[str, Any]:
        return understood_of(job)

    class Meta:
        model = ImportJob
        fields = [
            "id",
            "club",
            "filename",
            "format",
            "status",
            "understood",
            "total",
            "processed",
            "percent",
            "imported",
            "replayed",
            "errors",
            "created_at",
            "finished_at",
        ]
        read_only_fields = fields


class ImportCreateSerializer(serializers.Serializer[Any]):
    club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.all())
    file = serializers.FileField(
        help_text="CSV (comma, semicolon or tab; UTF-8 or Windows-1252), .xlsx, .ods or JSONL "
        "(docs/imports.md)."
    )
    format = serializers.ChoiceField(choices=FILE_KINDS, required=False)
    preview = serializers.BooleanField(
        required=False,
        default=False,
        help_text=_(
            "True: read the file and say what was understood of it (separator, rows, "
            "columns), then wait for POST /imports/{id}/confirm/ before importing anything."
        ),
    )


class StandingsSettingsSerializer(serializers.Serializer[Any]):
    win = serializers.DecimalField(max_digits=5, decimal_places=2, required=False)
    draw = serializers.DecimalField(max_digits=5, decimal_places=2, required=False)
    loss = serializers.DecimalField(max_digits=5, decimal_places=2, required=False)
    order = serializers.ListField(
        child=serializers.ChoiceField(choices=list(KEYS)), required=False, min_length=1
    )


_DATETIME = serializers.DateTimeField()
_POINTS = serializers.DecimalField(max_digits=12, decimal_places=2)


def _when(value: Any) -> Any:
    return None if value is None else _DATETIME.to_representation(value)


def result_as_written(result: Result, entries: list[Any]) -> dict[str, Any]:
    """What ResultSerializer gives for a result this request has just written (no successor,
    exactly these journal lines), built directly: the serializer's field machinery costs
    more than the write itself. A test holds the two equal."""
    # The lines share one moment: it is written out once.
    moments: dict[Any, Any] = {}

    def when(value: Any) -> Any:
        if value not in moments:
            moments[value] = _when(value)
        return moments[value]

    return {
        "id": result.pk,
        "club": result.club_id,
        "competition": result.competition_id,
        "table": result.table_id,
        "source": result.source,
        "status": result.status,
        "record": result.record,
        "scores": result.scores,
        "verdict": result.verdict,
        "entered_by": result.entered_by_id,
        "entered_at": _when(result.entered_at),
        "confirmed_by": result.confirmed_by_id,
        "confirmed_at": _when(result.confirmed_at),
        "supersedes": result.supersedes_id,
        "superseded_by": None,
        "voided_by": None,
        "voided_at": None,
        "void_reason": "",
        "sealed": False,  # the answer goes to the one who entered it
        "entries": [
            {
                "id": e.pk,
                "competition": e.competition_id,
                "result": e.result_id,
                "table": e.table_id,
                "player": e.player_id,
                "seat": e.seat,
                "points": _POINTS.to_representation(e.points),
                "kind": e.kind,
                "source": e.source,
                "entered_by": e.entered_by_id,
                "created_at": when(e.created_at),
                "sequence": e.sequence,
                "prev_hash": e.prev_hash,
                "hash": e.hash,
            }
            for e in entries
        ],
    }

"""API v1. Views check the shape of what arrives and call the services; nothing more."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import orjson
from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import exceptions, mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.parsers import JSONParser, MultiPartParser
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from ledger.api import auth, errors
from ledger.api import serializers as s
from ledger.clubs import jobs
from ledger.clubs.errors import Conflict, Invalid
from ledger.clubs.models import (
    Club,
    Competition,
    Entry,
    ImportJob,
    Membership,
    Player,
    Rating,
    Result,
    Role,
    Table,
)
from ledger.clubs.office.roles import require_role
from ledger.clubs.office.visibility import viewer_of
from ledger.clubs.projections.standings import last_round, settings_of, standings
from ledger.clubs.results import services
from ledger.clubs.transfer import imports


def _filter(queryset: Any, request: Request, **params: str) -> Any:
    """Apply ?club=, ?competition=... filters, refusing values that are not ids."""
    for param, lookup in params.items():
        value = request.query_params.get(param)
        if value is None:
            continue
        if not value.isdigit():
            raise Invalid(f"?{param}= takes a numeric id, not {value!r}.", fields={param: ["?"]})
        queryset = queryset.filter(**{lookup: int(value)})
    return queryset


_BY = {
    "club": gettext_lazy("Only those of this club (its id)."),
    "season": gettext_lazy("Only those of this season (its id)."),
    "competition": gettext_lazy("Only those of this competition (its id)."),
    "round": gettext_lazy("Only those of this round (its id)."),
    "table": gettext_lazy("Only those of this table (its id)."),
    "player": gettext_lazy("Only those of this player (its id)."),
    "result": gettext_lazy("Only the journal lines of this result (its id)."),
}


def _by(*names: str) -> Any:
    """The list operation's ?name= filters, in the schema (the view reads them with
    ``_filter``)."""
    return extend_schema_view(
        list=extend_schema(
            parameters=[OpenApiParameter(n, OpenApiTypes.INT, description=_BY[n]) for n in names]
        )
    )


class ClubViewSet(viewsets.ReadOnlyModelViewSet[Club]):
    queryset = Club.objects.all()
    serializer_class = s.ClubSerializer


@_by("club")
class PlayerViewSet(
    mixins.CreateModelMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet[Player],
):
    serializer_class = s.PlayerSerializer

    def get_queryset(self) -> Any:
        # Bots and the digital referee are not members anyone lists.
        qs = Player.objects.filter(automated=False).prefetch_related("clubs")
        return _filter(qs, self.request, club="memberships__club_id").distinct()

    def get_serializer_class(self) -> Any:
        return s.PlayerCreateSerializer if self.action == "create" else s.PlayerSerializer

    @extend_schema(request=s.PlayerCreateSerializer, responses={201: s.PlayerSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = s.PlayerCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        club = data.validated_data["club"]
        require_role(request.user, club, Role.ORGANISER)
        with transaction.atomic():
            player = Player.objects.create(name=data.validated_data["name"])
            Membership.objects.create(club=club, player=player, role=data.validated_data["role"])
        return Response(s.PlayerSerializer(player).data, status=status.HTTP_201_CREATED)


@_by("club", "season")
class CompetitionViewSet(
    mixins.CreateModelMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet[Competition],
):
    serializer_class = s.CompetitionSerializer

    def get_queryset(self) -> Any:
        return _filter(Competition.objects.all(), self.request, club="club_id", season="season_id")

    def perform_create(self, serializer: Any) -> None:
        require_role(self.request.user, serializer.validated_data["club"], Role.ORGANISER)
        serializer.save()

    @extend_schema(
        request=s.StandingsSettingsSerializer,
        responses={200: s.StandingsSettingsSerializer},
        description="Points for a win, a draw and a loss and the order of the standings' "
        "keys. PUT (organisers) replaces the competition's choices; an empty object goes "
        "back to the game's defaults. GET shows what applies.",
    )
    @action(detail=True, methods=["get", "put"], url_path="standings-settings")
    def standings_settings(self, request: Request, pk: str | None = None) -> Response:
        competition = self.get_object()
        if request.method == "PUT":
            if not isinstance(request.data, dict):
                raise Invalid("Send one JSON object with win, draw, loss and order.")
            competition = services.update_standings_settings(
                user=request.user, competition=competition, settings=dict(request.data)
            )
        return Response(settings_of(competition).as_json())

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "round", OpenApiTypes.INT, description="Standings as they stood after this round."
            )
        ],
        responses={200: s.StandingsSerializer},
    )
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, pk: str | None = None) -> Response:
        """The standings now (from the projection) or after round N (from the journal)."""
        competition = self.get_object()
        latest = last_round(competition)
        value = request.query_params.get("round")
        as_of = None
        if value:
            if not value.isdigit() or latest is None or not 1 <= int(value) <= latest:
                raise Invalid(
                    f"?round= takes a round number from 1 to {latest or 0}, not {value!r}.",
                    fields={"round": ["No such round."]},
                )
            as_of = int(value)
        rows = standings(
            competition,
            as_of_round=as_of,
            with_pending=viewer_of(request).sees_pending_of(competition),
        )
        return Response(
            {
                "competition": competition.pk,
                "as_of_round": as_of,
                "last_round": latest,
                "rows": [r.as_json() for r in rows],
            }
        )


@_by("competition", "round")
class TableViewSet(
    mixins.CreateModelMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet[Table],
):
    serializer_class = s.TableSerializer

    def get_queryset(self) -> Any:
        qs = Table.objects.prefetch_related("seats__player")
        return _filter(qs, self.request, competition="competition_id", round="round_id")

    @extend_schema(request=s.TableCreateSerializer, responses={201: s.TableSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = s.TableCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        table = services.create_table(
            user=request.user,
            competition=data.validated_data["competition"],
            label=data.validated_data["label"],
            players=data.validated_data["players"],
        )
        return Response(s.TableSerializer(table).data, status=status.HTTP_201_CREATED)


def fingerprint(data: Any) -> str:
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


_FAST_FIELDS = frozenset({"game", "table", "source", "record"})
# Result.Source.values builds its list anew on every read.
_SOURCES = frozenset(Result.Source.values)
_JSON = JSONRenderer()


def check_game(table: Table, game: str | None) -> None:
    """A body that names its game (as a generated client's does) names the table's."""
    if game is not None and game != table.competition.game:
        raise Invalid(
            _("Table %(id)d plays %(game)s, not %(sent)s.")
            % {"id": table.pk, "game": table.competition.game, "sent": game},
            fields={"game": [_("Not the game of this table's competition.")]},
        )


def fast_create(request: HttpRequest) -> HttpResponse | None:
    """The common case of POST /api/v1/results/, answered without the framework's request,
    parser, serializer and renderer objects, which cost more than the write itself: a
    token-authenticated JSON object of table, source and record. Anything else (another
    shape, per-seat scores, a session login, a bad token) returns None and takes the full
    path, which gives the same answers and every error message."""
    header = request.META.get("HTTP_AUTHORIZATION", "")
    if (
        not header.startswith("Token ")
        or settings.SESSION_COOKIE_NAME in request.COOKIES
        or request.content_type != "application/json"
    ):
        return None
    try:
        data = json.loads(request.body)
    except ValueError:
        return None
    if not isinstance(data, dict) or not data.keys() <= _FAST_FIELDS:
        return None
    table_id, source = data.get("table"), data.get("source", Result.Source.SUMMARY)
    record = data.get("record", {})
    # From META, as request.headers reads it, without building every header's title first.
    key = request.META.get("HTTP_IDEMPOTENCY_KEY") or None
    if (
        type(table_id) is not int
        or not 1 <= table_id < 2**63
        # A list or an object is not a source, and could not even be looked up in a set.
        or type(source) is not str
        or source not in _SOURCES
        or not isinstance(record, dict)
        or type(data.get("game", "")) is not str
        or (key is not None and len(key) > 128)
    ):
        return None
    try:
        user, table = auth.user_and_table(header[6:].strip(), table_id)
    except exceptions.AuthenticationFailed:
        return None
    except (OperationalError, InterfaceError) as exc:
        # The database went away while the token was read: the same 503 as a write's.
        return _error_answer(exc, request)
    request.user = user
    try:
        if table is None:
            raise Invalid(
                _("There is no table %(id)d.") % {"id": table_id},
                fields={"table": [_("No table with this id.")]},
            )
        check_game(table, data.get("game"))
        result, created = services.record_result(
            user=user,
            table=table,
            source=source,
            record=record,
            idempotency_key=key,
            fingerprint=fingerprint(data),
        )
    except Exception as exc:
        answer = _error_answer(exc, request)
        if answer is None:
            raise
        return answer
    body, headers = _recorded(result, created)
    try:
        # The same compact UTF-8 text as the framework's renderer gives, several times faster.
        text = orjson.dumps(body)
    except TypeError:  # an integer beyond 64 bits in the record
        text = _JSON.render(body)
    response = HttpResponse(text, status=201, content_type="application/json")
    for name, value in headers.items():
        response[name] = value
    response["Vary"] = "Accept"
    return response


def _error_answer(exc: Exception, request: HttpRequest) -> HttpResponse | None:
    """The API's answer to ``exc`` (the framework's exception handler's), without the
    framework's renderer; None for an exception it does not map."""
    answer = errors.exception_handler(exc, {"request": request, "view": None})
    if answer is None:
        return None
    response = HttpResponse(
        _JSON.render(answer.data), status=answer.status_code, content_type="application/json"
    )
    for name, value in answer.items():
        if name.lower() != "content-type":  # Retry-After, say
            response[name] = value
    if getattr(answer, "_has_been_logged", False):
        # Django's private flag (not in the stubs): the refusal is logged once, not twice.
        response._has_been_logged = True  # type: ignore[attr-defined]  # private, unstubbed
    return response


def _results() -> Any:
    return Result.objects.prefetch_related("entries").select_related("superseded_by")


def _recorded(result: Result, created: bool) -> tuple[Any, dict[str, str]]:
    """The answer to a recorded result: the result as just written, or, for a retry, the
    first result as stored, marked as replayed."""
    if created:
        return s.result_as_written(result, getattr(result, "written_entries", [])), {}
    stored = _results().get(pk=result.pk)
    return s.ResultSerializer(stored).data, {"Idempotent-Replayed": "true"}


@_by("club", "competition", "table")
class ResultViewSet(
    mixins.CreateModelMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet[Result],
):
    serializer_class = s.ResultSerializer

    def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        if request.method == "POST" and self.action_map.get("post") == "create":
            answer = fast_create(request)
            if answer is not None:
                return answer
        return super().dispatch(request, *args, **kwargs)

    def get_queryset(self) -> Any:
        return _filter(
            _results(), self.request, club="club_id", competition="competition_id", table="table_id"
        )

    @extend_schema(
        request=s.ResultCreateSerializer,
        responses={201: s.ResultSerializer},
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                description="Send the same key when retrying: the first answer comes back and "
                "nothing is recorded twice. Reusing a key with another body is a 409.",
            )
        ],
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        if not isinstance(request.data, dict):
            raise Invalid("Send one JSON object with table, source and record or scores.")
        data = s.ResultCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        key = request.headers.get("Idempotency-Key") or None
        if key is not None and len(key) > 128:
            raise Invalid(
                "An Idempotency-Key has at most 128 characters.",
                fields={"Idempotency-Key": ["Too long."]},
            )
        v = data.validated_data
        table = services.table_for_write(v["table"], request.user)
        if table is None:
            raise Invalid(
                _("There is no table %(id)d.") % {"id": v["table"]},
                fields={"table": [_("No table with this id.")]},
            )
        check_game(table, v.get("game"))
        result, created = services.record_result(
            user=request.user,
            table=table,
            source=v["source"],
            record=v["record"],
            scores=v["scores"],
            players=v["players"],
            idempotency_key=key,
            fingerprint=fingerprint(request.data),
        )
        body, headers = _recorded(result, created)
        return Response(body, status=status.HTTP_201_CREATED, headers=headers)

    @extend_schema(
        request=s.VoidSerializer,
        responses={200: s.ResultSerializer},
        description="Void the result (an organiser or a referee of its club), with a reason: "
        "a result that counted has its journal credits reversed, and nothing replaces it; a "
        "pending or disputed one is only marked (an open dispute is closed). The result "
        'stays readable, with status "voided", who voided it, when and why. Voiding it '
        "again is a 409.",
    )
    @action(detail=True, methods=["post"])
    def void(self, request: Request, pk: str | None = None) -> Response:
        result = self.get_object()
        data = s.VoidSerializer(data=request.data if isinstance(request.data, dict) else {})
        data.is_valid(raise_exception=True)
        services.void_result(user=request.user, result=result, reason=data.validated_data["reason"])
        stored = _results().get(pk=result.pk)
        return Response(s.ResultSerializer(stored, context={"request": request}).data)


class RatingViewSet(viewsets.ReadOnlyModelViewSet[Rating]):
    """Ratings per club and game (openskill), best cautious rating first."""

    serializer_class = s.RatingSerializer

    @extend_schema(
        parameters=[
            OpenApiParameter("club", OpenApiTypes.INT, description=_BY["club"]),
            OpenApiParameter("player", OpenApiTypes.INT, description=_BY["player"]),
            OpenApiParameter(
                "game", OpenApiTypes.STR, description=gettext_lazy("Only this game's.")
            ),
        ]
    )
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)

    def get_queryset(self) -> Any:
        qs = _filter(
            Rating.objects.filter(player__automated=False).select_related("player"),
            self.request,
            club="club_id",
            player="player_id",
        )
        game = self.request.query_params.get("game")
        if game:
            qs = qs.filter(game=game)
        return qs.order_by("club", "game", "-mu", "player__name")


@_by("club")
class ImportViewSet(
    mixins.CreateModelMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet[ImportJob],
):
    """Bulk imports of results: upload a file (with ``preview``, read what was understood of
    it and confirm), then poll the job for its progress."""

    serializer_class = s.ImportJobSerializer
    # The one body that is not JSON: the file, uploaded as a browser form would.
    parser_classes = [MultiPartParser]

    def get_queryset(self) -> Any:
        user = self.request.user
        if not user.is_authenticated:
            return ImportJob.objects.none()
        # Scorekeepers and up read their clubs' imports; members do not (the refused
        # rows quote the file).
        viewer = viewer_of(self.request)
        clubs = [
            m.club_id
            for m in Membership.objects.filter(player__user=user)
            if viewer.at_least(m.club_id, Role.SCOREKEEPER)
        ]
        qs = ImportJob.objects.defer("content")
        if not user.is_superuser:
            qs = qs.filter(club_id__in=clubs)
        return _filter(qs, self.request, club="club_id")

    @extend_schema(request=s.ImportCreateSerializer, responses={202: s.ImportJobSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = s.ImportCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        upload = data.validated_data["file"]
        job = imports.create_job(
            user=request.user,
            club=data.validated_data["club"],
            filename=upload.name or "upload",
            raw=upload.read(),
            fmt=data.validated_data.get("format"),
            preview=data.validated_data["preview"],
        )
        if not data.validated_data["preview"]:
            transaction.on_commit(lambda: jobs.delay(jobs.RUN_IMPORT, job.pk))
        return Response(
            s.ImportJobSerializer(job).data,
            status=status.HTTP_202_ACCEPTED,
            headers={"Location": f"/api/v1/imports/{job.pk}/"},
        )

    @extend_schema(
        request=None,
        responses={202: s.ImportJobSerializer},
        description=gettext_lazy(
            "Import a file sent with preview, once what was understood of it (its understood) "
            "is right: the job is queued. A job no longer waiting (confirmed already, running "
            "or done) is a 409."
        ),
    )
    @action(detail=True, methods=["post"], parser_classes=[JSONParser])
    def confirm(self, request: Request, pk: str | None = None) -> Response:
        job = self.get_object()
        if not imports.confirm_job(user=request.user, job=job):
            raise Conflict(
                _("This import is not waiting for a confirmation: it is %(status)s.")
                % {"status": job.get_status_display().lower()}
            )
        job.refresh_from_db()
        return Response(s.ImportJobSerializer(job).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(
        responses={204: None},
        description=gettext_lazy(
            "Put aside a file sent with preview: nothing of it is imported and the job is "
            "gone. A job no longer waiting is a 409 (an import is undone by voiding its "
            "results)."
        ),
    )
    def destroy(self, request: Request, pk: str | None = None) -> Response:
        job = self.get_object()
        if not imports.discard_job(user=request.user, job=job):
            raise Conflict(
                _("This import is not waiting for a confirmation: it is %(status)s.")
                % {"status": job.get_status_display().lower()}
            )
        return Response(status=status.HTTP_204_NO_CONTENT)


@_by("competition", "player", "result")
class EntryViewSet(viewsets.ReadOnlyModelViewSet[Entry]):
    serializer_class = s.EntrySerializer

    def get_queryset(self) -> Any:
        return _filter(
            Entry.objects.all(),
            self.request,
            competition="competition_id",
            player="player_id",
            result="result_id",
        )

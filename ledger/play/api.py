"""API of the digital tables, under /api/v1/play/: make a table, join a seat, read your view,
act. Views check the shape of what arrives and call ledger.play.services."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger.clubs.errors import Conflict, NotAllowed
from ledger.clubs.game_fields import GameSerializerField
from ledger.clubs.models import Club, Competition, Table
from ledger.play import selectors, services
from ledger.play.models import GameTable, PlaySeat

STATUS_HELP = "waiting (seats open), playing, finished or abandoned (timed out)."


class PlaySeatSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=PlaySeat.Kind.choices)
    kind_label = serializers.CharField()
    name = serializers.CharField(help_text="The player or bot in the seat; empty while open.")


class PlayTableSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    club = serializers.IntegerField()
    game = GameSerializerField()
    ruleset = serializers.JSONField()
    competition = serializers.IntegerField(allow_null=True)
    ledger_table = serializers.IntegerField(
        allow_null=True, help_text="The ledger's table (a sitting) the game is recorded at."
    )
    # A field named label: DRF's metaclass takes it off the class, where stubs see Field.label.
    label = serializers.CharField()  # type: ignore[assignment]  # a field named like a Field attribute
    status = serializers.CharField(help_text=STATUS_HELP)
    practice = serializers.BooleanField(
        help_text="Counts in no competition (bots, or a named deal)."
    )
    named_deal = serializers.BooleanField(help_text="A practice table replaying a chosen seed.")
    commitment = serializers.CharField(
        help_text='SHA-256 of "<seed>:<table id>", shown from the start (see docs/play.md).'
    )
    seed = serializers.IntegerField(allow_null=True, help_text="Revealed once the game is over.")
    seats = PlaySeatSerializer(many=True)
    moves = serializers.IntegerField()
    your_seat = serializers.IntegerField(allow_null=True)
    result = serializers.IntegerField(
        allow_null=True, help_text="The ledger result, once the game is over."
    )
    created_at = serializers.DateTimeField()
    last_move_at = serializers.DateTimeField()
    invite = serializers.CharField(
        required=False,
        help_text="The invitation path (only for the creator and the seated players).",
    )


class PlayClockSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(
        choices=["move", "game"], help_text='"move": seconds a turn; "game": a bank a seat.'
    )
    seconds = serializers.IntegerField(
        min_value=1, help_text="A turn's seconds (5-3600), or each seat's bank (60-10800)."
    )
    increment = serializers.IntegerField(
        required=False, default=0, min_value=0, help_text="Per game: seconds added a move."
    )


class PlayCreateSerializer(serializers.Serializer[Any]):
    club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.all())
    ruleset = serializers.JSONField(
        required=False,
        help_text='A ruleset name or {"name": ..., option: value}; the default when left out.',
    )
    competition = serializers.PrimaryKeyRelatedField(
        queryset=Competition.objects.all(),
        required=False,
        allow_null=True,
        help_text="Record the game in this competition (needs the scorekeeper role).",
    )
    ledger_table = serializers.PrimaryKeyRelatedField(
        queryset=Table.objects.select_related("competition"),
        required=False,
        allow_null=True,
        help_text="A scheduled table of a competition you sit at: its players keep their "
        "seats (game, ruleset and seats come from it).",
    )
    seats = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text='One per seat: "me" (once), "open" (for an invited player), "random", '
        '"heuristic" or "strong" (a bot; "strong" for the games with hidden cards). Not '
        "needed with ledger_table.",
    )
    game = GameSerializerField(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("ledger_table") is None:
            missing = [f for f in ("game", "seats") if f not in attrs]
            if missing:
                raise serializers.ValidationError(
                    {f: [_("This field is required without ledger_table.")] for f in missing}
                )
        return attrs

    # A field named label (DRF's metaclass takes it off the class; stubs see Field.label).
    label = serializers.CharField(  # type: ignore[assignment]  # a field named like a Field attribute
        required=False, allow_blank=True, max_length=40
    )
    practice = serializers.BooleanField(
        required=False,
        default=False,
        help_text="A practice table counts nowhere; only a practice table takes a seed.",
    )
    seed = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=2**62 - 1,
        help_text="Replay a named deal: practice tables only (refused otherwise). The server "
        "deals every other table from a secure random source.",
    )
    clock = PlayClockSerializer(
        required=False,
        allow_null=True,
        help_text="An optional clock kept by the server (docs/play.md, Clocks).",
    )


class PlayJoinSerializer(serializers.Serializer[Any]):
    invite = serializers.CharField(help_text="The token from the invitation link.")
    seat = serializers.IntegerField(required=False, min_value=0)


class PlayBotsSerializer(serializers.Serializer[Any]):
    kind = serializers.CharField(
        default="heuristic",
        help_text='"random", "heuristic" or "strong" (the games with hidden cards).',
    )


class PlayActSerializer(serializers.Serializer[Any]):
    action = serializers.JSONField(
        help_text="One action in the game's notation, without the seat (see docs/notation/)."
    )
    move_id = serializers.CharField(
        required=False,
        max_length=64,
        help_text="Your id for this move: sent again, the move is applied once.",
    )


class PlayViewSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField()
    game = serializers.CharField()
    status = serializers.CharField(help_text=STATUS_HELP)
    seat = serializers.IntegerField()
    to_act = serializers.IntegerField(allow_null=True)
    your_turn = serializers.BooleanField()
    moves = serializers.IntegerField()
    view = serializers.JSONField(help_text="What this seat may see: its hand, the public table.")
    legal_actions = serializers.ListField(
        child=serializers.JSONField(), help_text="On your turn, every action you may take."
    )
    outcome = serializers.JSONField(allow_null=True)
    result = serializers.IntegerField(allow_null=True)


def _table(pk: int) -> GameTable:
    return get_object_or_404(GameTable.objects.select_related("club"), pk=pk)


def _seat(table: GameTable, user: Any) -> PlaySeat:
    seat = services.seat_of(table, user)
    if seat is None:
        raise NotAllowed(_("You do not sit at this table."))
    return seat


class TablesView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="play_tables_list",
        responses={200: PlayTableSerializer(many=True)},
        summary="Your digital tables (made by you or with you in a seat), newest first.",
    )
    def get(self, request: Request) -> Response:
        tables = (
            GameTable.objects.filter(seats__user=request.user.pk).distinct().order_by("-created_at")
        )[:50]
        return Response([selectors.table_summary(t, request.user) for t in tables])

    @extend_schema(
        operation_id="play_tables_create",
        request=PlayCreateSerializer,
        responses={201: PlayTableSerializer},
        summary="Make a digital table; it starts at once when no seat is left open.",
    )
    def post(self, request: Request) -> Response:
        data = PlayCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        table = services.create_table(
            user=request.user,
            club=v["club"],
            game=v.get("game", ""),
            seats=v.get("seats", []),
            ruleset=v.get("ruleset"),
            competition=v.get("competition"),
            ledger_table=v.get("ledger_table"),
            label=v.get("label", ""),
            seed=v.get("seed"),
            practice=v.get("practice", False),
            clock=v.get("clock"),
        )
        table.refresh_from_db()
        return Response(
            selectors.table_summary(table, request.user), status=status.HTTP_201_CREATED
        )


class TableView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="play_tables_retrieve",
        responses={200: PlayTableSerializer},
        summary="A table as anyone may see it (no hand, no move of a game in progress).",
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(selectors.table_summary(_table(pk), request.user))


class JoinView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="play_tables_join",
        request=PlayJoinSerializer,
        responses={200: PlayTableSerializer},
        summary="Take an open seat with the table's invitation.",
    )
    def post(self, request: Request, pk: int) -> Response:
        data = PlayJoinSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        table = _table(pk)
        services.join(
            user=request.user,
            table=table,
            invite=data.validated_data["invite"],
            seat=data.validated_data.get("seat"),
        )
        table.refresh_from_db()
        return Response(selectors.table_summary(table, request.user))


class BotsView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="play_tables_bots",
        request=PlayBotsSerializer,
        responses={200: PlayTableSerializer},
        summary="The creator seats bots in every open seat; the game starts.",
    )
    def post(self, request: Request, pk: int) -> Response:
        data = PlayBotsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        table = _table(pk)
        services.fill_with_bots(user=request.user, table=table, kind=data.validated_data["kind"])
        table.refresh_from_db()
        return Response(selectors.table_summary(table, request.user))


class SeatView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="play_tables_view",
        responses={200: PlayViewSerializer},
        summary="Your seat's view: your hand, the public table, and your legal actions.",
    )
    def get(self, request: Request, pk: int) -> Response:
        table = _table(pk)
        return Response(selectors.seat_payload(table, _seat(table, request.user)))


class ActView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="play_tables_act",
        request=PlayActSerializer,
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                description="Same as move_id, for clients that prefer a header.",
            )
        ],
        responses={201: PlayViewSerializer, 200: PlayViewSerializer},
        summary="Make a move. 201 when applied, 200 when this move id was already applied; "
        "a move out of turn or against the rules is refused with the rule's id.",
    )
    def post(self, request: Request, pk: int) -> Response:
        data = PlayActSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        table = _table(pk)
        move_id = data.validated_data.get("move_id") or request.headers.get("Idempotency-Key")
        _move, created = services.act(
            user=request.user,
            table=table,
            action=data.validated_data["action"],
            move_id=move_id,
        )
        table.refresh_from_db()
        return Response(
            selectors.seat_payload(table, _seat(table, request.user)),
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class RecordView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="play_tables_record",
        responses={200: OpenApiTypes.OBJECT},
        summary="The game's full record in its notation, once the game is over.",
    )
    def get(self, request: Request, pk: int) -> Response:
        table = _table(pk)
        if not table.over:
            raise Conflict(_("The record is shown once the game is over: it holds every hand."))
        return Response(selectors.full_record(table))

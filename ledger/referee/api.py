"""API of the referee desk: check a record (open to anyone, rate limited, records nothing)
and rule on a result (referees)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _
from django_ratelimit.core import is_ratelimited
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger.clubs.errors import error_body
from ledger.clubs.game_fields import GameSerializerField
from ledger.clubs.models import Competition, Result
from ledger.referee import checking, services
from ledger.referee.models import Case

CHECK_RATE = getattr(settings, "REFEREE_CHECK_RATE", "30/m")


class CheckRequest(serializers.Serializer[Any]):
    game = GameSerializerField(required=False)
    competition = serializers.IntegerField(
        required=False, help_text="Use this competition's game and ruleset."
    )
    record = serializers.JSONField(help_text="The full record in the game's notation.")


class ViolationOut(serializers.Serializer[Any]):
    rule = serializers.CharField()
    step = serializers.IntegerField(required=False)
    seat = serializers.IntegerField(required=False)
    where = serializers.DictField(required=False)
    message = serializers.DictField(child=serializers.CharField(), help_text="it and en")
    paraphrase = serializers.DictField(
        child=serializers.CharField(), help_text="The rule itself, in it and en"
    )
    text = serializers.CharField(help_text="The message in the request's language")
    rule_text = serializers.CharField(help_text="The rule in the request's language")
    detail = serializers.CharField(help_text="What happened, in the request's language")


class StepOut(serializers.Serializer[Any]):
    step = serializers.IntegerField(
        allow_null=True, help_text="The action's index in the record; null for chance"
    )
    chance = serializers.BooleanField(
        required=False,
        help_text="Chance that fell here (dice, cards dealt or drawn), said in the label",
    )
    seat = serializers.IntegerField(allow_null=True)
    # A field named label: DRF's metaclass takes it off the class, where stubs see Field.label.
    label = serializers.CharField()  # type: ignore[assignment]  # a field named like a Field attribute
    violations = ViolationOut(many=True)
    first = serializers.BooleanField()
    replayed = serializers.BooleanField()


class GroupOut(serializers.Serializer[Any]):
    name = serializers.CharField(help_text="A trick, a turn, a scontro...")
    offending = serializers.BooleanField()
    steps = StepOut(many=True)


class VerdictOut(serializers.Serializer[Any]):
    game = serializers.CharField()
    valid = serializers.BooleanField()
    complete = serializers.BooleanField()
    steps = serializers.IntegerField(help_text="Steps replayed")
    violations = ViolationOut(many=True)
    first_violation = ViolationOut(allow_null=True)
    outcome = serializers.DictField(allow_null=True)
    scores = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    timeline = GroupOut(many=True)


class ErrorOut(serializers.Serializer[Any]):
    error = serializers.DictField()


class CheckView(APIView):
    """Replay a record with the game's engine and return the verdict. Nothing is stored."""

    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []

    @extend_schema(
        operation_id="referee_check",
        request=CheckRequest,
        responses={
            200: VerdictOut,
            400: OpenApiResponse(ErrorOut, description="Unreadable record or unknown game"),
            429: OpenApiResponse(ErrorOut, description="Too many checks; wait a minute"),
        },
        auth=[],
    )
    def post(self, request: Request) -> Response:
        if is_ratelimited(
            request._request, group="referee-check", key="ip", rate=CHECK_RATE, increment=True
        ):
            return Response(
                error_body(
                    "rate_limited",
                    _("Too many checks from this address; wait a minute and try again."),
                ),
                status=status.HTTP_429_TOO_MANY_REQUESTS,
            )
        data = CheckRequest(data=request.data)
        data.is_valid(raise_exception=True)
        ruleset = None
        game = data.validated_data.get("game")
        if "competition" in data.validated_data:
            competition = Competition.objects.filter(pk=data.validated_data["competition"]).first()
            if competition is None:
                return Response(
                    error_body("not_found", _("No such competition.")),
                    status=status.HTTP_404_NOT_FOUND,
                )
            game, ruleset = competition.game, competition.ruleset
        if not game:
            record = data.validated_data["record"]
            game = record.get("game") if isinstance(record, dict) else None
        if not game:
            return Response(
                error_body(
                    "invalid",
                    _("Say which game: 'game', 'competition', or a 'game' in the record."),
                    {"game": [_("Required.")]},
                ),
                status=status.HTTP_400_BAD_REQUEST,
            )
        return Response(checking.check(game, data.validated_data["record"], ruleset))


class RulingRequest(serializers.Serializer[Any]):
    result = serializers.IntegerField(help_text="The result ruled on (its newest version)")
    kind = serializers.ChoiceField(choices=Case.Kind.choices)
    record = serializers.JSONField(
        required=False, help_text="The hand's record; default: the result's own"
    )
    scores = serializers.JSONField(
        required=False, help_text="assigned: 'rules', 'table' or one number per seat"
    )
    seats = serializers.ListField(
        required=False,
        help_text="artificial: plus|average|minus per seat; split: table|rules|level|number",
    )
    outcomes = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="weighted: [{'weight': 0.6, 'scores': 'rules' or [...]}, ...]",
    )
    note = serializers.CharField(required=False, allow_blank=True, default="")


class RulingOut(serializers.Serializer[Any]):
    case = serializers.IntegerField()
    kind = serializers.CharField()
    result = serializers.IntegerField(help_text="The new version that now counts")
    supersedes = serializers.IntegerField()
    scores = serializers.ListField(child=serializers.CharField())
    verdict = serializers.DictField()


class RulingView(APIView):
    """A referee's ruling on a result: written to the ledger as a correction with the
    engine's verdict attached; an open dispute on the result is closed."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="referee_rule",
        request=RulingRequest,
        responses={
            201: RulingOut,
            400: OpenApiResponse(ErrorOut),
            403: OpenApiResponse(ErrorOut),
            404: OpenApiResponse(ErrorOut),
            409: OpenApiResponse(ErrorOut),
        },
    )
    def post(self, request: Request) -> Response:
        data = RulingRequest(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        services.check_numbers({k: v[k] for k in ("scores", "seats", "outcomes") if k in v})
        result = Result.objects.select_related("competition__club").filter(pk=v["result"]).first()
        if result is None:
            return Response(
                error_body("not_found", _("No result #%(n)d.") % {"n": v["result"]}),
                status=status.HTTP_404_NOT_FOUND,
            )
        params = {k: v[k] for k in ("scores", "seats", "outcomes") if k in v}
        # One transaction, one commit: the case is opened and ruled on together.
        with transaction.atomic():
            case = services.open_case(
                user=request.user,
                competition=result.competition,
                result=result,
                record=v.get("record"),
            )
            if "record" in v and case.record != v["record"]:
                case = services.set_record(user=request.user, case=case, record=v["record"])
            new = services.rule(
                user=request.user, case=case, kind=v["kind"], params=params, note=v["note"]
            )
        return Response(
            {
                "case": case.pk,
                "kind": v["kind"],
                "result": new.pk,
                # A void ruling replaces nothing: the answer names the voided result itself.
                "supersedes": None if new.pk == result.pk else result.pk,
                "status": new.status,
                "scores": new.scores,
                "verdict": new.verdict,
            },
            status=status.HTTP_201_CREATED,
        )

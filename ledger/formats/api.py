"""API of competition formats, under /api/v1/formats/competitions/<id>/: settings, entrants,
absences, forbidden pairs, teams, rounds (draft, adjust, publish), tiebreaks and TRF.
Views check the shape of what arrives, read through ledger.formats.selectors and write
through ledger.formats.services."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger.clubs.errors import Invalid, NotAllowed
from ledger.clubs.models import Competition, Player, Role, Table
from ledger.formats import selectors, services
from ledger.formats.models import Draw, Entrant, ForbiddenPair, KnockoutMatch
from ledger.formats.templatetags.draws import drawn_by

TAG = ["formats"]


class SettingsSerializer(serializers.Serializer[Any]):
    format = serializers.CharField(read_only=True)
    seats_per_table = serializers.IntegerField(
        min_value=0, max_value=6, required=False, help_text="0: the game's usual table size."
    )
    hands_per_table = serializers.IntegerField(min_value=1, max_value=99, required=False)
    rounds = serializers.IntegerField(
        min_value=0, max_value=99, required=False, help_text="Swiss rounds planned."
    )
    cycles = serializers.IntegerField(min_value=1, max_value=2, required=False)
    bye_points = serializers.DecimalField(
        max_digits=4,
        decimal_places=2,
        min_value=0,
        required=False,
        allow_null=True,
        help_text="On the standings' points scale; null: a bye is worth a win.",
    )
    best_of = serializers.IntegerField(min_value=1, max_value=9, required=False)
    third_place = serializers.BooleanField(
        required=False,
        help_text="Knockout: the semi-finals' losers play for third place beside the final.",
    )
    exact_limit = serializers.IntegerField(
        min_value=0,
        max_value=200,
        required=False,
        help_text="Swiss fields up to this size use the exact FIDE Dutch engine.",
    )
    initial_side = serializers.ChoiceField(
        choices=[0, 1],
        required=False,
        help_text="Swiss: the side of the first seed in round 1 (0 Tramontana, 1 Mezzogiorno).",
    )
    table_size = serializers.IntegerField(read_only=True)
    planned_rounds = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="Rounds planned; null when open-ended."
    )
    published_rounds = serializers.IntegerField(read_only=True)
    concluded = serializers.BooleanField(
        read_only=True,
        help_text="Every planned round is played (a knockout: its final is won). Drawing "
        "further needs rounds added (rounds/extend/).",
    )


class ExtendIn(serializers.Serializer[Any]):
    rounds = serializers.IntegerField(
        min_value=1,
        max_value=20,
        required=False,
        default=1,
        help_text="Rounds to add (Swiss, team, league); a round robin adds its return cycle.",
    )


class StandingsRow(serializers.Serializer[Any]):
    place = serializers.IntegerField(help_text="Shared by rows the format cannot separate.")
    player = serializers.IntegerField()
    name = serializers.CharField()


class StandingsOut(serializers.Serializer[Any]):
    format = serializers.CharField()
    concluded = serializers.BooleanField()
    champion = StandingsRow(allow_null=True, help_text="A knockout's, once its final is won.")
    rows = serializers.ListField(
        child=serializers.DictField(),
        help_text="Ranked rows with place, player and name, and the format's own columns: "
        "the Swiss table's points and tiebreaks, a knockout's round reached, or the "
        "journal's standings.",
    )


class EntrantSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    name = serializers.CharField(read_only=True)
    number = serializers.IntegerField(read_only=True)
    rating = serializers.IntegerField(required=False, default=0)
    joined_round = serializers.IntegerField(read_only=True)
    withdrawn_after = serializers.IntegerField(read_only=True, allow_null=True)


class AbsenceSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField(min_value=1)
    player = serializers.IntegerField()
    absent = serializers.BooleanField(default=True)


class ForbiddenSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(read_only=True)
    first = serializers.IntegerField()
    second = serializers.IntegerField()
    hard = serializers.BooleanField(
        default=False, help_text="true: never paired; false: avoided when possible."
    )
    reason = serializers.CharField(required=False, allow_blank=True, max_length=120)


class TeamSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=80)
    members = serializers.ListField(child=serializers.IntegerField(), min_length=1, max_length=3)


class SeatOut(serializers.Serializer[Any]):
    index = serializers.IntegerField(help_text="0 is Tramontana in two-sided games.")
    player = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.CharField(allow_null=True, help_text="Accepted points so far.")


class TableOut(serializers.Serializer[Any]):
    id = serializers.IntegerField(allow_null=True, help_text="The ledger table, once published.")
    # A field named label: DRF's metaclass takes it off the class, where stubs see Field.label.
    label = serializers.CharField()  # type: ignore[assignment]  # a field named like a Field attribute
    seats = SeatOut(many=True)
    hands = serializers.IntegerField(help_text="Accepted results so far.")
    pending = serializers.IntegerField(help_text="Results awaiting confirmation.")
    totals = serializers.ListField(
        child=serializers.CharField(), allow_null=True, help_text="Accepted points per seat."
    )


class PlayerRef(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    name = serializers.CharField()


class WarningOut(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="repeat, forbidden, avoid, sides, seats, bye, unseated")
    message = serializers.CharField()
    table = serializers.CharField(allow_null=True)


class RoundOut(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    status = serializers.CharField(help_text="draft or published")
    engine = serializers.CharField(
        help_text="The pairing engine's code name (dutch, casual, berger, groups, knockout, "
        "movement, search; 'team ', ' (repaired)', ' + by hand' added as it went)."
    )
    engine_label = serializers.CharField(
        help_text="How the round was drawn, in words, in the request's language."
    )
    tables = TableOut(many=True)
    byes = PlayerRef(many=True)
    sitting_out = PlayerRef(many=True)
    warnings = WarningOut(many=True, required=False)


class DrawIn(serializers.Serializer[Any]):
    tables = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=1),
        help_text="Player ids per table in seat order.",
    )
    byes = serializers.ListField(child=serializers.IntegerField(), required=False, default=list)
    sitting_out = serializers.ListField(
        child=serializers.IntegerField(), required=False, default=list
    )


class TiebreakRow(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    score = serializers.FloatField()
    buchholz = serializers.FloatField()
    median_buchholz = serializers.FloatField()
    sonneborn_berger = serializers.FloatField()
    byes = serializers.IntegerField()
    forfeit_wins = serializers.IntegerField(help_text="Games won by the opponent's forfeit.")
    forfeit_losses = serializers.IntegerField(help_text="Games lost by not playing.")


def _competition(pk: int) -> Competition:
    return get_object_or_404(Competition.objects.select_related("club"), pk=pk)


def _valid(serializer_class: Any, data: Any) -> dict[str, Any]:
    ser = serializer_class(data=data)
    ser.is_valid(raise_exception=True)
    return dict(ser.validated_data)


def _player(competition: Competition, pk: int, field: str = "player") -> Player:
    player = Player.objects.filter(pk=pk, memberships__club=competition.club).first()
    if player is None:
        raise Invalid(
            _("No member of %(club)s has id %(id)s.") % {"club": competition.club.name, "id": pk},
            fields={field: [_("Not a member of this club.")]},
        )
    return player


def _settings_body(competition: Competition) -> dict[str, Any]:
    fs = selectors.settings_for(competition)
    body = {
        "format": competition.format,
        **{name: getattr(fs, name) for name in services.SETTING_FIELDS},
        "table_size": selectors.table_size(competition, fs),
    }
    progress = selectors.progress(competition)
    body.update(
        planned_rounds=progress.planned,
        published_rounds=progress.published,
        concluded=progress.concluded,
    )
    # Through the serializer, so bye_points is the decimal string the schema documents.
    return dict(SettingsSerializer(body).data)


def _round_body(competition: Competition, number: int, user: Any) -> dict[str, Any]:
    view = selectors.round_view(competition, number)
    if view is None or (
        view["status"] == Draw.Status.DRAFT and not competition.club.allows(user, Role.ORGANISER)
    ):
        raise Invalid(_("Round %(n)d has no published draw.") % {"n": number})
    body = {k: view[k] for k in ("number", "status", "engine", "tables", "byes", "sitting_out")}
    body["engine_label"] = drawn_by(view["engine"])
    if view["status"] == Draw.Status.DRAFT:
        body["warnings"] = [w.__dict__ for w in services.check_draw(competition, view["draw"])]
    return body


class SettingsView(APIView):
    @extend_schema(
        tags=TAG, responses=SettingsSerializer, summary="A competition's format settings"
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(_settings_body(_competition(pk)))

    @extend_schema(
        tags=TAG,
        request=SettingsSerializer,
        responses=SettingsSerializer,
        summary="Change format settings (organiser)",
    )
    def patch(self, request: Request, pk: int) -> Response:
        competition = _competition(pk)
        values = _valid(SettingsSerializer, request.data)
        services.update_settings(user=request.user, competition=competition, **values)
        return Response(_settings_body(competition))


class EntrantsView(APIView):
    @extend_schema(tags=TAG, responses=EntrantSerializer(many=True), summary="Entrants")
    def get(self, request: Request, pk: int) -> Response:
        rows = Entrant.objects.filter(competition_id=pk).select_related("player")
        return Response(
            [
                {
                    "player": e.player_id,
                    "name": e.player.name,
                    "number": e.number,
                    "rating": e.rating,
                    "joined_round": e.joined_round,
                    "withdrawn_after": e.withdrawn_after,
                }
                for e in rows
            ]
        )

    @extend_schema(
        tags=TAG,
        request=EntrantSerializer,
        responses={201: EntrantSerializer},
        summary="Enter a player (a late entry once play has started)",
    )
    def post(self, request: Request, pk: int) -> Response:
        competition = _competition(pk)
        data = _valid(EntrantSerializer, request.data)
        e = services.enter_player(
            user=request.user,
            competition=competition,
            player=_player(competition, data["player"]),
            rating=data.get("rating", 0),
        )
        body = {
            "player": e.player_id,
            "name": e.player.name,
            "number": e.number,
            "rating": e.rating,
            "joined_round": e.joined_round,
            "withdrawn_after": e.withdrawn_after,
        }
        return Response(body, status=status.HTTP_201_CREATED)


class WithdrawView(APIView):
    @extend_schema(
        tags=TAG,
        request=None,
        responses=EntrantSerializer,
        summary="Withdraw a player after the last published round",
    )
    def post(self, request: Request, pk: int, player: int) -> Response:
        competition = _competition(pk)
        e = services.withdraw_player(
            user=request.user, competition=competition, player=_player(competition, player)
        )
        return Response(
            {
                "player": e.player_id,
                "name": e.player.name,
                "number": e.number,
                "rating": e.rating,
                "joined_round": e.joined_round,
                "withdrawn_after": e.withdrawn_after,
            }
        )


class AbsenceView(APIView):
    @extend_schema(
        tags=TAG,
        request=AbsenceSerializer,
        responses=AbsenceSerializer,
        summary="Mark a player absent (or present again) for a round not yet published",
    )
    def post(self, request: Request, pk: int) -> Response:
        competition = _competition(pk)
        data = _valid(AbsenceSerializer, request.data)
        services.mark_absent(
            user=request.user,
            competition=competition,
            round_number=data["round"],
            player=_player(competition, data["player"]),
            absent=data["absent"],
        )
        return Response(data)


class ForbiddenView(APIView):
    @extend_schema(tags=TAG, responses=ForbiddenSerializer(many=True), summary="Forbidden pairs")
    def get(self, request: Request, pk: int) -> Response:
        competition = _competition(pk)
        if not competition.club.allows(request.user, Role.ORGANISER):
            raise NotAllowed(_("Only organisers see the forbidden pairings."))
        rows = ForbiddenPair.objects.filter(competition=competition)
        return Response(
            [
                {
                    "id": f.pk,
                    "first": f.first_id,
                    "second": f.second_id,
                    "hard": f.hard,
                    "reason": f.reason,
                }
                for f in rows
            ]
        )

    @extend_schema(
        tags=TAG,
        request=ForbiddenSerializer,
        responses={201: ForbiddenSerializer},
        summary="Forbid a pairing (clubmates, family): hard never, soft when possible",
    )
    def post(self, request: Request, pk: int) -> Response:
        competition = _competition(pk)
        data = _valid(ForbiddenSerializer, request.data)
        f = services.forbid_pair(
            user=request.user,
            competition=competition,
            first=_player(competition, data["first"], "first"),
            second=_player(competition, data["second"], "second"),
            hard=data["hard"],
            reason=data.get("reason", ""),
        )
        body = {
            "id": f.pk,
            "first": f.first_id,
            "second": f.second_id,
            "hard": f.hard,
            "reason": f.reason,
        }
        return Response(body, status=status.HTTP_201_CREATED)


class TeamsView(APIView):
    @extend_schema(
        tags=TAG,
        request=TeamSerializer,
        responses={201: TeamSerializer},
        summary="Create a team (team events)",
    )
    def post(self, request: Request, pk: int) -> Response:
        competition = _competition(pk)
        data = _valid(TeamSerializer, request.data)
        members = [_player(competition, m, "members") for m in data["members"]]
        team = services.create_team(
            user=request.user, competition=competition, name=data["name"], members=members
        )
        return Response(
            {"name": team.name, "members": [m.pk for m in members]},
            status=status.HTTP_201_CREATED,
        )


class GenerateView(APIView):
    @extend_schema(
        tags=TAG,
        request=None,
        responses={201: RoundOut},
        summary="Draft the next round's pairings or seatings (organiser)",
    )
    def post(self, request: Request, pk: int) -> Response:
        competition = _competition(pk)
        draw = services.generate_round(user=request.user, competition=competition)
        return Response(
            _round_body(competition, draw.round.number, request.user),
            status=status.HTTP_201_CREATED,
        )


class RoundView(APIView):
    @extend_schema(
        tags=TAG,
        responses=RoundOut,
        summary="A round: tables, seats, byes and results so far (drafts for organisers)",
    )
    def get(self, request: Request, pk: int, number: int) -> Response:
        return Response(_round_body(_competition(pk), number, request.user))

    @extend_schema(
        tags=TAG,
        request=DrawIn,
        responses=RoundOut,
        summary="Replace a draft by hand; the answer carries the warnings",
    )
    def put(self, request: Request, pk: int, number: int) -> Response:
        competition = _competition(pk)
        draw = get_object_or_404(Draw, round__competition=competition, round__number=number)
        data = _valid(DrawIn, request.data)
        services.adjust_draw(
            user=request.user,
            draw=draw,
            tables=data["tables"],
            byes=data["byes"],
            sitting_out=data["sitting_out"],
        )
        return Response(_round_body(competition, number, request.user))


class PublishView(APIView):
    @extend_schema(
        tags=TAG,
        request=None,
        responses=RoundOut,
        summary="Publish a draft: its tables are created in the ledger",
    )
    def post(self, request: Request, pk: int, number: int) -> Response:
        competition = _competition(pk)
        draw = get_object_or_404(Draw, round__competition=competition, round__number=number)
        services.publish_draw(user=request.user, draw=draw)
        return Response(_round_body(competition, number, request.user))


class ExtendView(APIView):
    @extend_schema(
        tags=TAG,
        request=ExtendIn,
        responses=SettingsSerializer,
        summary="Go on past the planned rounds: add rounds, or a round robin's return cycle "
        "(organiser)",
    )
    def post(self, request: Request, pk: int) -> Response:
        competition = _competition(pk)
        data = _valid(ExtendIn, request.data)
        services.extend_rounds(user=request.user, competition=competition, rounds=data["rounds"])
        return Response(_settings_body(competition))


class StandingsView(APIView):
    @extend_schema(
        tags=TAG,
        responses=StandingsOut,
        summary="The standings as the format ranks them (Swiss table, knockout by round "
        "reached, or the journal's), with the champion and whether the competition is over",
    )
    def get(self, request: Request, pk: int) -> Response:
        competition = _competition(pk)
        rows = selectors.standings_for(competition)
        champion = next((r for r in rows if r.get("champion")), None)
        return Response(
            {
                "format": competition.format,
                "concluded": selectors.progress(competition).concluded,
                "champion": champion,
                "rows": rows,
            }
        )


class TiebreaksView(APIView):
    @extend_schema(
        tags=TAG,
        responses=TiebreakRow(many=True),
        summary="Match points with Buchholz, median Buchholz and Sonneborn-Berger",
    )
    def get(self, request: Request, pk: int) -> Response:
        competition = _competition(pk)
        # Only a table of pairs has tiebreaks; a Swiss seated at tables of three or more
        # ranks by points (standings/).
        if not selectors.has_swiss_table(competition):
            return Response([])
        return Response(selectors.swiss_standings(competition))


class TrfView(APIView):
    @extend_schema(
        tags=TAG,
        responses={(200, "text/plain"): OpenApiTypes.STR},
        summary="The event as a FIDE TRF16 file, for other pairing programs to check",
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        competition = _competition(pk)
        response = HttpResponse(
            selectors.trf_export(competition), content_type="text/plain; charset=utf-8"
        )
        response["Content-Disposition"] = f'attachment; filename="{competition.slug}.trf"'
        return response


class MatchOut(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    stage = serializers.IntegerField(help_text="1 is the first round.")
    slot = serializers.IntegerField()
    first = serializers.IntegerField(allow_null=True)
    second = serializers.IntegerField(allow_null=True, help_text="null: a bye.")
    winner = serializers.IntegerField(
        allow_null=True, help_text="From the results (best of N) or a referee's decision."
    )
    tables = serializers.ListField(child=serializers.IntegerField())


class WinnerIn(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    reason = serializers.CharField(
        required=False, allow_blank=True, max_length=500, help_text="Why the referee decided."
    )


class ForfeitIn(serializers.Serializer[Any]):
    forfeited = serializers.ListField(
        child=serializers.IntegerField(min_value=0),
        min_length=1,
        help_text="The seats (from 0) whose players did not play; every seat: a double forfeit.",
    )
    reason = serializers.CharField(max_length=500, help_text="Why the table was not played.")


class ForfeitOut(serializers.Serializer[Any]):
    result = serializers.IntegerField(help_text="The forfeit's result, accepted at once.")
    table = serializers.IntegerField()
    forfeited = serializers.ListField(child=serializers.IntegerField())
    winners = serializers.ListField(child=serializers.IntegerField(), help_text="Seats, from 0.")
    reason = serializers.CharField()


def _match_body(competition: Competition, m: KnockoutMatch) -> dict[str, Any]:
    return {
        "id": m.pk,
        "stage": m.stage,
        "slot": m.slot,
        "first": m.first_id,
        "second": m.second_id,
        "winner": selectors.match_winner(competition, m),
        "tables": [t.pk for t in m.tables.all()],
    }


class BracketView(APIView):
    @extend_schema(tags=TAG, responses=MatchOut(many=True), summary="The knockout bracket")
    def get(self, request: Request, pk: int) -> Response:
        competition = _competition(pk)
        matches = KnockoutMatch.objects.filter(competition=competition).prefetch_related("tables")
        return Response([_match_body(competition, m) for m in matches])


class MatchWinnerView(APIView):
    @extend_schema(
        tags=TAG,
        request=WinnerIn,
        responses=MatchOut,
        summary="A referee names a match's winner (a play-off off the books), with the reason",
    )
    def post(self, request: Request, pk: int, match: int) -> Response:
        competition = _competition(pk)
        found = get_object_or_404(KnockoutMatch, pk=match, competition=competition)
        data = _valid(WinnerIn, request.data)
        services.set_match_winner(
            user=request.user,
            match=found,
            winner=_player(competition, data["player"]),
            reason=data.get("reason", ""),
        )
        return Response(_match_body(competition, found))


class ForfeitView(APIView):
    @extend_schema(
        tags=TAG,
        request=ForfeitIn,
        responses={201: ForfeitOut},
        summary="A referee records a table nobody played as a forfeit (docs/formats.md)",
    )
    def post(self, request: Request, pk: int, table: int) -> Response:
        competition = _competition(pk)
        found = get_object_or_404(Table, pk=table, competition=competition)
        data = _valid(ForfeitIn, request.data)
        result = services.record_forfeit(
            user=request.user, table=found, forfeited=data["forfeited"], reason=data["reason"]
        )
        verdict = result.verdict or {}
        return Response(
            {
                "result": result.pk,
                "table": found.pk,
                "forfeited": verdict["forfeit"]["seats"],
                "winners": verdict["outcome"]["winners"],
                "reason": verdict["forfeit"]["reason"],
            },
            status=201,
        )

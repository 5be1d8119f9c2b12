"""The club's back office pages (organisers only): the club's hub, a competition's form,
enrolment, members and roles, and the invitation a person accepts. The writes are in
ledger/clubs/office/office.py (members, roles, invitations) and ledger/formats/office.py
(competitions, enrolment); these pages read the form, call one service, and show its errors
at the field with what was typed kept."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib import messages
from django.contrib.auth import login as auth_login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache

from ledger.clubs.errors import LedgerError
from ledger.clubs.game_fields import GameFormField
from ledger.clubs.games import game_choices, meta, presets, reader_language
from ledger.clubs.models import (
    Club,
    Competition,
    Invitation,
    Player,
    Role,
    Season,
)
from ledger.clubs.office import office
from ledger.clubs.office import selectors as office_reads
from ledger.clubs.outcomes import settings_for
from ledger.federation import cards as federation_cards
from ledger.federation import people as federation_people
from ledger.formats import office as competitions
from ledger.formats.models import Entrant, FormatSettings
from ledger.formats.names import name_key


def _organised(request: HttpRequest, slug: str) -> Club:
    club = get_object_or_404(Club, slug=slug)
    if not club.allows(request.user, Role.ORGANISER):
        raise PermissionDenied(_("Only the club's organisers use its back office."))
    return club


def _attach(form: forms.Form, error: LedgerError, fallback: str) -> None:
    """A service's error at its field (or at the top of the form when it names none)."""
    placed = False
    for name, problems in error.fields.items():
        if name in form.fields:
            items = problems if isinstance(problems, list) else [error.message]
            text = [str(p) for p in items if str(p) not in ("?", "")] or [error.message]
            form.add_error(name, text)
            placed = True
    if not placed:
        form.add_error(None, error.message)


# --- the club's hub --------------------------------------------------------------------


@login_required
def hub(request: HttpRequest, club: str) -> HttpResponse:
    the_club = _organised(request, club)
    competitions = the_club.competitions.annotate(
        entrants_count=Count("entrants", distinct=True)
    ).order_by("-created_at", "name")
    return render(
        request,
        "web/office/hub.html",
        {
            "club": the_club,
            "competitions": competitions,
            "members": the_club.memberships.filter(player__automated=False).count(),
        },
    )


# --- a competition's form -----------------------------------------------------------------


class CompetitionForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=120)
    game = GameFormField(label=gettext_lazy("Game"))
    preset = forms.ChoiceField(
        label=gettext_lazy("Rules"),
        required=False,
        help_text=gettext_lazy("The variant the club plays, as the game's rules name it."),
    )
    format = forms.ChoiceField(label=gettext_lazy("Format"), choices=Competition.Format.choices)
    season = forms.TypedChoiceField(
        label=gettext_lazy("Season"),
        required=False,
        coerce=int,
        empty_value=None,
        help_text=gettext_lazy("The club's season whose championship table counts it."),
    )
    confirmation = forms.ChoiceField(
        label=gettext_lazy("Results confirmed by"), choices=Competition.Confirmation.choices
    )
    bot_tables_count = forms.BooleanField(
        label=gettext_lazy("Games against bots count for the people who play them"),
        required=False,
        help_text=gettext_lazy(
            "At a digital table of this competition, bots may fill the seats nobody takes "
            "and the people's results count here. The bots are never ranked. Off: only "
            "games among people count, and games with bots are practice."
        ),
    )
    seats_per_table = forms.TypedChoiceField(
        label=gettext_lazy("Players per table"),
        coerce=int,
        empty_value=0,  # type: ignore[arg-type]  # any value will do (the stubs say a string)
        required=False,
    )
    hands_per_table = forms.IntegerField(
        label=gettext_lazy("Hands per table in a round"), min_value=1, max_value=50, initial=1
    )
    rounds = forms.IntegerField(
        label=gettext_lazy("Rounds planned"),
        min_value=0,
        max_value=99,
        initial=0,
        required=False,
        help_text=gettext_lazy("Swiss: how many rounds; 0 when open-ended."),
    )
    win = forms.CharField(label=gettext_lazy("Points for a win"), required=False, max_length=8)
    draw = forms.CharField(label=gettext_lazy("Points for a draw"), required=False, max_length=8)
    loss = forms.CharField(label=gettext_lazy("Points for a loss"), required=False, max_length=8)

    def __init__(self, *args: Any, club: Club | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        seasons = Season.objects.filter(club=club) if club is not None else Season.objects.none()
        cast(forms.ChoiceField, self.fields["season"]).choices = [
            ("", "—"),
            *[(str(s.pk), s.name) for s in seasons],
        ]
        language = reader_language()
        groups: list[tuple[Any, list[tuple[str, str]]]] = []
        installed = game_choices()
        for slug, label in installed:
            found = presets(slug, language)
            if found:
                groups.append((label, [(f"{slug}:{p.name}", p.label) for p in found]))
        # Both are ChoiceFields (above); self.fields holds them as Field.
        cast(forms.ChoiceField, self.fields["preset"]).choices = [("", "—"), *groups]
        sizes = sorted({n for slug, _label in installed for n in meta(slug).seat_counts})
        cast(forms.ChoiceField, self.fields["seats_per_table"]).choices = [
            ("0", _("the game's usual table")),
            *[(str(n), str(n)) for n in sizes],
        ]
        for name in ("win", "draw", "loss"):
            self.fields[name].widget.attrs.update({"inputmode": "decimal", "size": 5})
        self.fields["preset"].widget.attrs["data-presets"] = "1"

    def data_for_service(self) -> competitions.CompetitionData:
        d = self.cleaned_data
        game, _sep, preset = (d.get("preset") or "").partition(":")
        if game and game != d["game"]:
            preset = "-"  # a ruleset of another game: the service says which to choose
        return competitions.CompetitionData(
            name=d["name"],
            game=d["game"],
            preset=preset,
            format=d["format"],
            confirmation=d["confirmation"],
            seats_per_table=int(d.get("seats_per_table") or 0),
            hands_per_table=int(d.get("hands_per_table") or 1),
            rounds=int(d.get("rounds") or 0),
            points={k: d.get(k) or "" for k in ("win", "draw", "loss")},
            bot_tables_count=bool(d.get("bot_tables_count")),
            season=d.get("season"),
        )


def _initial(competition: Competition) -> dict[str, Any]:
    fs = FormatSettings.objects.filter(competition=competition).first()
    chosen = competition.standings_settings or {}
    preset = (competition.ruleset or {}).get("name", "")
    return {
        "name": competition.name,
        "game": competition.game,
        "preset": f"{competition.game}:{preset}" if preset else "",
        "format": competition.format,
        "confirmation": competition.confirmation,
        "bot_tables_count": competition.bot_tables_count,
        "season": str(competition.season_id or ""),
        "seats_per_table": str(fs.seats_per_table) if fs else "0",
        "hands_per_table": fs.hands_per_table if fs else 1,
        "rounds": fs.rounds if fs else 0,
        **{k: chosen.get(k, "") for k in ("win", "draw", "loss")},
    }


def _competition_page(
    request: HttpRequest, club: Club, competition: Competition | None
) -> HttpResponse:
    if competition is None:
        form = CompetitionForm(
            request.POST or None, initial={"hands_per_table": 1, "rounds": 0}, club=club
        )
    else:
        form = CompetitionForm(request.POST or None, initial=_initial(competition), club=club)
    if request.method == "POST" and form.is_valid():
        data = form.data_for_service()
        try:
            if competition is None:
                made = competitions.create_competition(user=request.user, club=club, data=data)
                messages.success(
                    request,
                    _("%(name)s is created: now enrol its players.") % {"name": made.name},
                )
                return redirect("office-enrol", club.slug, made.slug)
            made = competitions.update_competition(
                user=request.user, competition=competition, data=data
            )
            messages.success(request, _("%(name)s is saved.") % {"name": made.name})
            return redirect("competition", club.slug, made.slug)
        except LedgerError as error:
            _attach(form, error, "name")
    defaults = {
        slug: settings_for(slug, None) for slug, _label in game_choices()
    }  # the points each game counts when left empty
    return render(
        request,
        "web/office/competition_form.html",
        {
            "club": club,
            "competition": competition,
            "form": form,
            "defaults": [
                {"game": slug, "win": d.win, "draw": d.draw, "loss": d.loss}
                for slug, d in defaults.items()
            ],
        },
        status=400 if request.method == "POST" else 200,
    )


@login_required
@never_cache
def competition_new(request: HttpRequest, club: str) -> HttpResponse:
    return _competition_page(request, _organised(request, club), None)


@login_required
@never_cache
def competition_edit(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    the_club = _organised(request, club)
    competition = get_object_or_404(Competition, club=the_club, slug=slug)
    return _competition_page(request, the_club, competition)


# --- enrolment ---------------------------------------------------------------------------


def _asked(
    matched: competitions.Matched, post: Any
) -> list[tuple[int, str, list[competitions.Suggestion], str]]:
    """Each new name with the people it may mean and the choice made (the one typed, or the
    person of the same name when nothing was chosen yet): "did you mean", as radio buttons."""
    out = []
    for i, (name, suggestions) in enumerate(matched.offered):
        value = post.get(f"choice-{i}", "")
        if not value and suggestions and name_key(suggestions[0].player.name) == name_key(name):
            value = str(suggestions[0].player.pk)
        out.append((i, name, suggestions, value))
    return out


@login_required
@never_cache
def enrol(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    the_club = _organised(request, club)
    competition = get_object_or_404(Competition, club=the_club, slug=slug)
    entrants = list(
        Entrant.objects.filter(competition=competition).select_related("player").order_by("number")
    )
    entered = {e.player_id for e in entrants}
    members = list(
        Player.objects.filter(memberships__club=the_club, automated=False)
        .exclude(pk__in=entered)
        .order_by("name")
    )
    pasted = request.POST.get("names", "")
    problem = ""
    # A refusal of one of the players (no valid card, already entered...): said at the
    # field of the form that sent them too, the list pasted or the members ticked.
    refused_at = ""
    confirm: competitions.Matched | None = None
    picked: set[int] = set()
    asked: list[tuple[int, str, list[competitions.Suggestion], str]] = []
    if request.method == "POST":
        try:
            if request.POST.get("how") == "pick":
                picked = {int(v) for v in request.POST.getlist("player") if v.isdigit()}
                chosen = [m for m in members if m.pk in picked]
                if not chosen:
                    raise LedgerError(_("Tick at least one member."))
                enrolled = competitions.enrol(
                    user=request.user, competition=competition, players=chosen
                )
                count = len(chosen)
            else:
                names = competitions.pasted_names(pasted)
                if not names:
                    raise LedgerError(_("Paste one name a line."))
                elsewhere = [
                    competitions.Suggestion(k.player, ", ".join(k.clubs))
                    for k in federation_people.nearby(the_club, names)
                ]
                matched = competitions.match_names(the_club, names, elsewhere)
                asked = _asked(matched, request.POST)
                if matched.new and request.POST.get("confirm") != "1":
                    confirm = matched
                    raise LedgerError("")
                joining, new_names = [], []
                for _i, name, suggestions, value in asked:
                    picked_one = next(
                        (x.player for x in suggestions if str(x.player.pk) == value), None
                    )
                    if picked_one is not None:
                        joining.append(picked_one)
                    elif value == "new" or not suggestions:
                        new_names.append(name)
                    else:
                        confirm = matched
                        raise LedgerError(
                            _(
                                "Choose, for each name asked about, the person it means or "
                                "someone new."
                            )
                        )
                enrolled = competitions.enrol(
                    user=request.user,
                    competition=competition,
                    players=matched.known,
                    new_names=new_names,
                    joining=joining,
                )
                count = len(names)
        except LedgerError as error:
            problem = error.message
            if problem and "player" in (error.fields or {}):
                refused_at = "pick" if request.POST.get("how") == "pick" else "paste"
        else:
            messages.success(
                request,
                _("%(n)d players entered in %(name)s.") % {"n": count, "name": competition.name},
            )
            # A competition sanctioned at a tier that warns: who entered without a card.
            for warning in federation_cards.entry_warnings(
                competition, [e.player for e in enrolled]
            ):
                messages.warning(request, warning)
            return redirect("office-enrol", the_club.slug, competition.slug)
    return render(
        request,
        "web/office/enrol.html",
        {
            "club": the_club,
            "competition": competition,
            "entrants": entrants,
            "members": members,
            "picked": picked,
            "pasted": pasted,
            "problem": problem,
            "refused_at": refused_at,
            "confirm": confirm,
            "asked": asked if confirm else [],
            "started": competition.rounds.exists(),
        },
        status=400 if problem else 200,
    )


# --- members -----------------------------------------------------------------------------


class MemberForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name and surname"), max_length=120)
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=Role.choices, initial=Role.MEMBER)


class InviteForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name and surname"), max_length=120)
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=Role.choices, initial=Role.MEMBER)


def _member_suggestions(club: Club, name: str) -> list[federation_people.Known]:
    """Whom a name typed on the members' page may mean: a member here with a close name,
    or a person of the other clubs of the club's federations with the same or a close one."""
    here = [
        federation_people.Known(p)
        for p in Player.objects.filter(memberships__club=club, automated=False).order_by("pk")
    ]
    same_here = [k for k in here if name_key(k.player.name) == name_key(name) and name_key(name)]
    if same_here:
        message = _("%(name)s is already a member.") % {"name": same_here[0].player.name}
        raise LedgerError(message, fields={"name": [message]})
    return federation_people.suggestions_for(name, here + federation_people.nearby(club, [name]))


@login_required
@never_cache
def members(request: HttpRequest, club: str) -> HttpResponse:
    the_club = _organised(request, club)
    action = request.POST.get("action", "") if request.method == "POST" else ""
    add_form = MemberForm(request.POST if action == "add" else None, prefix="add")
    invite_form = InviteForm(request.POST if action == "invite" else None, prefix="invite")
    made: tuple[Invitation, str] | None = None
    asked: list[federation_people.Known] = []
    role_error: tuple[int, str] | None = None
    status = 200
    if action:
        try:
            if action == "add" and add_form.is_valid():
                data = add_form.cleaned_data
                asked = _member_suggestions(the_club, data["name"])
                choice = request.POST.get("choice", "")
                known = next((k for k in asked if str(k.player.pk) == choice), None)
                if asked and known is None and choice != "new":
                    # "Did you mean": asked before anyone new is made.
                    if choice:
                        raise LedgerError(_("Choose the person you mean, or someone new."))
                    status = 200
                elif known is not None:
                    player = office.add_existing_member(
                        user=request.user, club=the_club, player=known.player, role=data["role"]
                    )
                    messages.success(request, _("%(name)s is a member.") % {"name": player.name})
                    return redirect("office-members", the_club.slug)
                else:
                    player = office.add_member(user=request.user, club=the_club, **data)
                    messages.success(request, _("%(name)s is a member.") % {"name": player.name})
                    return redirect("office-members", the_club.slug)
            if action == "role":
                pk = int(request.POST.get("membership", "0") or 0)
                try:
                    done = office.set_role(
                        user=request.user,
                        club=the_club,
                        membership_id=pk,
                        role=request.POST.get("role", ""),
                    )
                except LedgerError as error:
                    role_error = (pk, error.message)
                    raise
                messages.success(
                    request,
                    _("%(name)s: %(role)s.")
                    % {"name": done.player.name, "role": done.get_role_display()},
                )
                return redirect(reverse("office-members", args=[the_club.slug]) + f"#m{done.pk}")
            if action == "invite-member":
                pk = int(request.POST.get("player", "0") or 0)
                player = get_object_or_404(Player, pk=pk, memberships__club=the_club)
                made = office.invite(user=request.user, club=the_club, player=player)
            if action == "invite" and invite_form.is_valid():
                made = office.invite(user=request.user, club=the_club, **invite_form.cleaned_data)
                invite_form = InviteForm(prefix="invite")
        except LedgerError as error:
            status = 400
            if role_error is None:
                _attach(add_form if action == "add" else invite_form, error, "name")
        if action in ("add", "invite") and (add_form.errors or invite_form.errors):
            status = 400
    rows = office_reads.members(the_club)
    return render(
        request,
        "web/office/members.html",
        {
            "club": the_club,
            "rows": rows,
            "roles": Role.choices,
            "add_form": add_form,
            "invite_form": invite_form,
            "made": made[0] if made else None,
            "link": request.build_absolute_uri(reverse("invitation", args=[made[1]]))
            if made
            else "",
            "role_error": role_error,
            "asked": asked,
            "choice": request.POST.get("choice", "") if action == "add" else "",
            "invitations": the_club.invitations.filter(accepted_at__isnull=True).order_by(
                "-created_at"
            )[:20],
        },
        status=201 if made else status,
    )


# --- accepting an invitation --------------------------------------------------------------


class AcceptForm(forms.Form):
    username = forms.CharField(
        label=gettext_lazy("Login name"),
        max_length=150,
        help_text=gettext_lazy("What you type to log in: letters, digits, no spaces."),
    )
    password = forms.CharField(
        label=gettext_lazy("Password"),
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        strip=False,
    )
    again = forms.CharField(
        label=gettext_lazy("Password again"),
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        strip=False,
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("password") and data.get("again") and data["password"] != data["again"]:
            self.add_error("again", _("The two passwords differ."))
        return data


@never_cache
def invitation(request: HttpRequest, key: str) -> HttpResponse:
    found = office_reads.find_invitation(key)
    if found is None:
        return render(request, "web/office/invitation.html", {"gone": True}, status=410)
    signed_in = request.user.is_authenticated
    form = AcceptForm(request.POST or None) if not signed_in else None
    if request.method == "POST" and (signed_in or (form is not None and form.is_valid())):
        try:
            if signed_in:
                office.accept_invitation(key=key, user=request.user)
            else:
                assert form is not None
                user = office.accept_invitation(
                    key=key,
                    username=form.cleaned_data["username"],
                    password=form.cleaned_data["password"],
                )
                auth_login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        except LedgerError as error:
            if form is not None:
                _attach(form, error, "username")
            else:
                messages.error(request, error.message)
        else:
            messages.success(request, _("Welcome to %(club)s.") % {"club": found.club.name})
            return redirect("home")
    return render(
        request,
        "web/office/invitation.html",
        {"invitation": found, "form": form, "signed_in": signed_in},
        status=400 if form is not None and form.errors else 200,
    )

"""A season's pages: its championship table (anyone reads it, as of any night, with the
movement since the night before, as CSV, an .xlsx or .ods workbook, a PDF or printed), and
its office form, where the organiser declares how the table is made (ledger/formats/
seasons.py does the sums and the writes)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any, cast

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache

from ledger.clubs.errors import Invalid, LedgerError
from ledger.clubs.game_fields import GameFormField
from ledger.clubs.games import label as game_label
from ledger.clubs.models import Club, Competition, Role, Season
from ledger.clubs.transfer import sheets
from ledger.formats import seasons
from ledger.formats.models import Championship
from ledger.night import printing
from ledger.web.views import csv_cell


def _season(club: str, pk: int) -> Season:
    return get_object_or_404(Season.objects.select_related("club"), club__slug=club, pk=pk)


def _table(request: HttpRequest, season: Season) -> seasons.SeasonTable:
    value = request.GET.get("night", "")
    if value and not value.isdigit():
        raise Http404(_("No such night."))
    try:
        return seasons.season_table(season, int(value) if value else None)
    except Invalid:
        raise Http404(_("No such night.")) from None


def _rules(table: seasons.SeasonTable) -> list[str]:
    """The championship's rules in words, as the page and the PDF state them."""
    c = table.championship
    out = []
    if c.scoring == Championship.Scoring.POINTS:
        out.append(_("Each night gives its own points."))
    else:
        out.append(
            _("Points for each place in a night: %(points)s.")
            % {"points": "-".join(c.place_points or [])}
        )
    if c.best_of:
        out.append(
            _("The best %(n)d nights of %(m)d count.") % {"n": c.best_of, "m": len(table.nights)}
        )
    else:
        out.append(_("Every night counts."))
    if c.min_nights and c.min_nights > 1:
        out.append(_("Ranked from %(n)d nights played.") % {"n": c.min_nights})
    if c.tiebreaks:
        labels = dict(Championship.Tiebreak.choices)
        out.append(_("Ties: %(keys)s.") % {"keys": "; ".join(str(labels[t]) for t in c.tiebreaks)})
    if c.qualifiers:
        out.append(_("The top %(n)d go to the final.") % {"n": c.qualifiers})
    return out


def season_page(request: HttpRequest, club: str, pk: int) -> HttpResponse:
    season = _season(club, pk)
    table = _table(request, season)
    c = table.championship
    last_qualifier = None
    if c.qualifiers:
        inside = [r for r in table.rows if r.qualified]
        last_qualifier = inside[-1].player_id if inside else None
    return render(
        request,
        "web/season.html",
        {
            "club": season.club,
            "season": season,
            "table": table,
            "rules": _rules(table),
            "last_qualifier": last_qualifier,
            "can_organise": season.club.allows(request.user, Role.ORGANISER),
            "game": game_label(table.championship.game) if table.championship.game else "",
            "query": f"?night={table.as_of}" if table.as_of else "",
            # The stages that take their players from this season's table (its final).
            "finals": list(season.stages.select_related("competition")),
        },
    )


def _export_rows(table: seasons.SeasonTable) -> tuple[list[str], list[list[Any]]]:
    header = [
        _("Place"),
        _("Player"),
        *[n.competition.name for n in table.shown],
        _("Nights"),
        _("Points"),
        _("Places gained"),
        _("Qualified"),
    ]
    rows: list[list[Any]] = []
    for r in table.rows:
        rows.append(
            [
                r.rank if r.rank is not None else "",
                r.name,
                *[s if s is not None else "" for s in r.scores],
                r.nights,
                r.total,
                r.movement if r.movement is not None else "",
                _("yes") if r.qualified else "",
            ]
        )
    return header, rows


def season_file(request: HttpRequest, club: str, pk: int, kind: str = "csv") -> HttpResponse:
    """The season's table (as of ``?night=``) as CSV, .xlsx, .ods or PDF."""
    season = _season(club, pk)
    table = _table(request, season)
    header, rows = _export_rows(table)
    suffix = f"-night-{table.as_of}" if table.as_of else ""
    filename = f"{season.club.slug}-season-{season.pk}{suffix}"
    title = (
        season.name
        if table.as_of is None
        else _("%(season)s, after night %(n)d")
        % {
            "season": season.name,
            "n": table.as_of,
        }
    )
    if kind == "pdf":
        body = printing.table_pdf(
            f"{season.club.name} - {title}",
            header,
            [[_plain(v) for v in r] for r in rows],
            notes=_rules(table),
        )
        response = HttpResponse(body, content_type="application/pdf")
    elif kind == "csv":
        text = sheets.write_csv(header, [[csv_cell(v) for v in r] for r in rows])
        response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    elif kind in sheets.CONTENT_TYPES:
        body = sheets.write([sheets.Sheet(title, header, rows)], kind)
        response = HttpResponse(body, content_type=sheets.CONTENT_TYPES[kind])
    else:
        raise Http404(_("No such kind of file."))
    response["Content-Disposition"] = f'attachment; filename="{filename}.{kind}"'
    return response


def _plain(value: Any) -> str:
    if isinstance(value, Decimal):
        return f"{value.normalize():f}"
    return str(value)


# --- the organiser's form ------------------------------------------------------------------


class SeasonForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=80)
    starts_on = forms.DateField(
        label=gettext_lazy("Starts"), widget=forms.DateInput(attrs={"type": "date"})
    )
    ends_on = forms.DateField(
        label=gettext_lazy("Ends"), widget=forms.DateInput(attrs={"type": "date"})
    )
    game = GameFormField(label=gettext_lazy("Game"))
    nights = forms.MultipleChoiceField(
        label=gettext_lazy("The season's nights"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=gettext_lazy("The club's competitions of the season's game that count."),
    )
    scoring = forms.ChoiceField(
        label=gettext_lazy("Each night gives"),
        choices=Championship.Scoring.choices,
        widget=forms.RadioSelect,
    )
    place_points = forms.CharField(
        label=gettext_lazy("Points for each place"),
        required=False,
        max_length=400,
        help_text=gettext_lazy(
            "Best first, separated by dashes or spaces: 10-8-6-5-4-3-2-1. A place beyond "
            "the list scores nothing; players sharing a place each take its points."
        ),
    )
    best_of = forms.IntegerField(
        label=gettext_lazy("Best nights counted"),
        required=False,
        min_value=1,
        max_value=999,
        help_text=gettext_lazy("Empty: every night counts."),
    )
    min_nights = forms.IntegerField(
        label=gettext_lazy("Nights played to be ranked"), min_value=0, max_value=999, initial=1
    )
    tiebreak_1 = forms.ChoiceField(label=gettext_lazy("First tie-break"), required=False)
    tiebreak_2 = forms.ChoiceField(label=gettext_lazy("Then"), required=False)
    tiebreak_3 = forms.ChoiceField(label=gettext_lazy("Then"), required=False)
    qualifiers = forms.IntegerField(
        label=gettext_lazy("Qualify for the final"),
        required=False,
        min_value=1,
        max_value=999,
        help_text=gettext_lazy("How many players at the top go to a final; empty: none."),
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        options = [("", "—"), *Championship.Tiebreak.choices]
        for n in (1, 2, 3):
            cast(forms.ChoiceField, self.fields[f"tiebreak_{n}"]).choices = options
        cast(forms.MultipleChoiceField, self.fields["nights"]).choices = [
            (str(c.pk), f"{c.name} · {c.get_game_display()}")
            for c in Competition.objects.filter(club=club).order_by("created_at", "name")
        ]
        self.fields["place_points"].widget.attrs.update({"inputmode": "decimal"})
        for name in ("best_of", "min_nights", "qualifiers"):
            self.fields[name].widget.attrs.update({"inputmode": "numeric", "size": 4})

    def data_for_service(self) -> seasons.SeasonData:
        d = self.cleaned_data
        return seasons.SeasonData(
            name=d["name"],
            starts_on=d["starts_on"],
            ends_on=d["ends_on"],
            game=d["game"],
            scoring=d["scoring"],
            place_points=d.get("place_points") or "",
            best_of=d.get("best_of"),
            min_nights=d.get("min_nights") or 0,
            tiebreaks=[d.get(f"tiebreak_{n}") or "" for n in (1, 2, 3)],
            qualifiers=d.get("qualifiers"),
            nights=[int(v) for v in d.get("nights") or []],
        )


def _initial(season: Season) -> dict[str, Any]:
    c = seasons.championship_of(season)
    tiebreaks = [*(c.tiebreaks or []), "", "", ""]
    return {
        "name": season.name,
        "starts_on": season.starts_on,
        "ends_on": season.ends_on,
        "game": c.game,
        "nights": [str(pk) for pk in season.competitions.values_list("pk", flat=True)],
        "scoring": c.scoring,
        "place_points": "-".join(c.place_points or []),
        "best_of": c.best_of,
        "min_nights": c.min_nights,
        "tiebreak_1": tiebreaks[0],
        "tiebreak_2": tiebreaks[1],
        "tiebreak_3": tiebreaks[2],
        "qualifiers": c.qualifiers,
    }


def _attach(form: forms.Form, error: LedgerError) -> None:
    placed = False
    for name, problems in error.fields.items():
        target = "tiebreak_1" if name == "tiebreaks" else name
        if target in form.fields:
            items = problems if isinstance(problems, list) else [error.message]
            form.add_error(target, [str(p) for p in items] or [error.message])
            placed = True
    if not placed:
        form.add_error(None, error.message)


@login_required
@never_cache
def season_office(request: HttpRequest, club: str, pk: int | None = None) -> HttpResponse:
    the_club = get_object_or_404(Club, slug=club)
    if not the_club.allows(request.user, Role.ORGANISER):
        raise PermissionDenied(_("Only the club's organisers use its back office."))
    season = get_object_or_404(Season, club=the_club, pk=pk) if pk is not None else None
    initial = (
        _initial(season)
        if season is not None
        else {
            "scoring": Championship.Scoring.PLACES,
            "min_nights": 1,
            "place_points": "-".join(seasons.DEFAULT_PLACES),
        }
    )
    form = SeasonForm(request.POST or None, initial=initial, club=the_club)
    if request.method == "POST" and form.is_valid():
        try:
            saved = seasons.save_season(
                user=request.user, club=the_club, data=form.data_for_service(), season=season
            )
        except LedgerError as error:
            _attach(form, error)
        else:
            messages.success(request, _("%(name)s is saved.") % {"name": saved.name})
            return redirect("season", the_club.slug, saved.pk)
    return render(
        request,
        "web/office/season_form.html",
        {"club": the_club, "season": season, "form": form},
        status=400 if request.method == "POST" else 200,
    )

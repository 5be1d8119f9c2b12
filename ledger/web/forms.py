"""Score-entry forms: one per game, each turning what the scorekeeper typed into the game's
summary (docs/notation/<game>.md), which the engine then scores; nothing here computes points.

Every entry form offers the same small surface to the views: ``source`` (what kind of result
it makes), ``is_valid()``, ``problems()`` (each error with the label of its field, for the
live preview), ``record()`` (the summary or record to send to the engine) and
``entry_template`` (how the page lays it out). Rows that repeat (Er Giò's scontri, the
Bridge's Game's challenges, cardChess's sfide, San Marco's passages) are Django formsets.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, NoReturn

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from ledger.clubs.models import Player

Seats = list[tuple[int, str]]
SIDES = [("tramontana", "Tramontana"), ("mezzogiorno", "Mezzogiorno")]
MAX_RECORD_BYTES = 2_000_000


# Where a repeated row is named: on the page, in its errors and in the engine's violations.
ROW_NAMES = {
    "scontro": _("Scontro %(n)s"),
    "challenge": _("Challenge %(n)s"),
    "passage": _("Passage %(n)s"),
    "sfida": _("Sfida %(n)s"),
}


def number(label: Any, *, required: bool = True, **attrs: Any) -> forms.IntegerField:
    """A whole number; a phone opens its numeric keypad for it."""
    return forms.IntegerField(
        label=label,
        required=required,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", **attrs}),
    )


def when(field: forms.Field, *values: str) -> None:
    """Show the field only while the form's switch (``data-switch``) has one of these values
    (static/web/score-entry.js); without JavaScript every field stays visible."""
    field.widget.attrs["data-when"] = " ".join(values)


class EntryForm(forms.Form):
    """What every score-entry form offers the views (see the module docstring)."""

    source = "summary"
    entry_template = "web/score/forms/fields.html"
    row_sets: tuple[str, ...] = ()  # names of the formset attributes, in page order

    def __init__(
        self, data: Any = None, files: Any = None, *, seats: Seats, ruleset: Any = None, **kw: Any
    ) -> None:
        super().__init__(data, files, **kw)
        self.seats = seats
        self.ruleset = ruleset

    def focus_first(self) -> None:
        for field in self.fields.values():
            if not isinstance(field.widget, forms.HiddenInput):
                field.widget.attrs["autofocus"] = True
                return

    def formsets(self) -> Iterator[forms.BaseFormSet]:
        for name in self.row_sets:
            yield getattr(self, name)

    def is_valid(self) -> bool:
        valid = super().is_valid()
        for formset in self.formsets():
            valid = formset.is_valid() and valid
        return valid

    def problems(self) -> list[tuple[str, str]]:
        """Every error as (where, what), the field named by its label."""
        out: list[tuple[str, str]] = []
        for name, errors in self.errors.items():
            where = "" if name == "__all__" else str(self.fields[name].label)
            out += [(where, str(e)) for e in errors]
        for formset in self.formsets():
            out += [("", str(e)) for e in formset.non_form_errors()]
            for form in formset.forms:
                row = formset.row_label(form)
                for name, errors in form.errors.items():
                    field = form.fields.get(name)
                    where = f"{row} · {field.label}" if field is not None else row
                    out += [(where, str(e)) for e in errors]
        return out

    def fail(self, message: Any) -> NoReturn:
        """Stop building the summary with a message for the whole form."""
        raise forms.ValidationError(message)

    def record(self) -> dict[str, Any]:
        """The summary (or record) for the engine, read from the cleaned fields; each form
        writes its own. Raises ValidationError, with field errors added, when the fields
        cannot make one."""
        raise NotImplementedError(f"{type(self).__name__} must build its record")

    def data_for(self, record: dict[str, Any], scores: list[Any]) -> dict[str, Any] | None:
        """The fields as the scorekeeper would have typed them for this record (the reverse
        of ``record()``), to start a correction from the result being corrected; None when
        this form cannot show it. The caller checks that the fields give the record back."""
        return None


def _rows_data(prefix: str, rows: list[dict[str, Any]], total: int, most: int) -> dict[str, Any]:
    """A formset's posted fields: its management form and one row per entry."""
    data: dict[str, Any] = {
        f"{prefix}-TOTAL_FORMS": max(total, len(rows)),
        f"{prefix}-INITIAL_FORMS": 0,
        f"{prefix}-MIN_NUM_FORMS": 0,
        f"{prefix}-MAX_NUM_FORMS": most,
    }
    for n, row in enumerate(rows):
        for name, value in row.items():
            if value is not None:
                data[f"{prefix}-{n}-{name}"] = value
    return data


class Rows(forms.BaseFormSet):  # type: ignore[type-arg]
    """Repeated rows of a summary; a row left blank is skipped."""

    row_name: Any = _("Row %(n)s")

    def row_label(self, form: forms.Form) -> str:
        return str(self.row_name) % {"n": self.forms.index(form) + 1}

    def labelled(self) -> list[tuple[str, forms.Form]]:
        return [(self.row_label(f), f) for f in self.forms]

    def empty_label(self) -> str:
        """The title of a row added in the browser (static/web/score-entry.js numbers it)."""
        return str(self.row_name) % {"n": "__n__"}

    def filled(self) -> list[dict[str, Any]]:
        return [f.cleaned_data for f in self.forms if f.has_changed() and f.cleaned_data]


def rows(form: type[forms.Form], base: type[Rows], count: int, most: int) -> type[Rows]:
    built: type[Rows] = forms.formset_factory(
        form, formset=base, extra=count, max_num=most, validate_max=True, absolute_max=most
    )
    return built


def _pairs(form: forms.Form, names: list[str], message: Any) -> list[int] | None:
    """All of these fields, or none of them (a seat 0 counts as given)."""
    values = [form.cleaned_data.get(n) for n in names]
    if all(v is None for v in values):
        return None
    missing = [n for n, v in zip(names, values, strict=True) if v is None]
    for name in missing:
        form.add_error(name, message)
    if missing:
        raise forms.ValidationError(_("Fill in every field of a group, or none of them."))
    return [int(v) for v in values if v is not None]


# --- Tarocco Siciliano ---------------------------------------------------------------------


class TaroccoSummaryForm(EntryForm):
    OUTCOMES = [
        ("solo", _("Solo: one against three")),
        ("pairs", _("Pairs: two against two")),
        ("offer", _("Offer accepted")),
        ("abandoned", _("Abandoned: nobody played")),
    ]
    outcome = forms.ChoiceField(
        label=_("Outcome of the bidding"),
        choices=OUTCOMES,
        widget=forms.Select(attrs={"data-switch": "outcome"}),
    )
    dealer = forms.TypedChoiceField(label=_("Dealer"), coerce=int)
    declarer = forms.TypedChoiceField(
        label=_("Soloist"), coerce=int, required=False, empty_value=None
    )
    partner_a = forms.TypedChoiceField(
        label=_("Pair: first player"), coerce=int, required=False, empty_value=None
    )
    partner_b = forms.TypedChoiceField(
        label=_("Pair: second player"), coerce=int, required=False, empty_value=None
    )
    card_points = number(_("Card points of the soloist or of the pair"), required=False)
    offerer = forms.TypedChoiceField(
        label=_("Who offered"), coerce=int, required=False, empty_value=None
    )
    taker = forms.TypedChoiceField(
        label=_("Who took the offer"), coerce=int, required=False, empty_value=None
    )
    points = number(_("Points offered"), required=False)
    # A second offer taken in the same bargaining (rare, but the rules allow it).
    offerer_2 = forms.TypedChoiceField(
        label=_("Second offer: who offered"), coerce=int, required=False, empty_value=None
    )
    taker_2 = forms.TypedChoiceField(
        label=_("Second offer: who took it"), coerce=int, required=False, empty_value=None
    )
    points_2 = number(_("Second offer: points"), required=False)

    NEEDED: dict[str, list[str]] = {
        "solo": ["declarer", "card_points"],
        "pairs": ["partner_a", "partner_b", "card_points"],
        "offer": ["offerer", "taker", "points"],
        "abandoned": [],
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—"), *self.seats]
        for name in (
            "declarer",
            "partner_a",
            "partner_b",
            "offerer",
            "taker",
            "offerer_2",
            "taker_2",
        ):
            self.fields[name].choices = choices  # type: ignore[attr-defined]
        self.fields["dealer"].choices = self.seats  # type: ignore[attr-defined]
        self.fields["dealer"].initial = self.seats[-1][0]
        for name in self.fields:
            outcomes = [o for o, needed in self.NEEDED.items() if name in needed]
            if name.endswith("_2"):
                outcomes = ["offer"]
            if outcomes:
                when(self.fields[name], *outcomes)
        self.focus_first()

    def record(self) -> dict[str, Any]:
        data = self.cleaned_data
        outcome = data["outcome"]
        summary: dict[str, Any] = {"outcome": outcome, "dealer": data["dealer"]}
        missing = [n for n in self.NEEDED[outcome] if data.get(n) is None]
        if missing:
            for name in missing:
                self.add_error(name, _("Needed for this outcome."))
            self.fail(_("Fill in the fields marked for this outcome."))
        if outcome == "solo":
            summary.update(declarer=data["declarer"], card_points=data["card_points"])
        elif outcome == "pairs":
            summary.update(
                pair=[data["partner_a"], data["partner_b"]], card_points=data["card_points"]
            )
        elif outcome == "offer":
            first = {"offerer": data["offerer"], "taker": data["taker"], "points": data["points"]}
            second = _pairs(
                self,
                ["offerer_2", "taker_2", "points_2"],
                _("Needed for the second offer."),
            )
            if second is None:
                summary.update(first)
            else:
                offerer, taker, points = second
                summary["offers"] = [first, {"offerer": offerer, "taker": taker, "points": points}]
        return summary

    def data_for(self, record: dict[str, Any], scores: list[Any]) -> dict[str, Any] | None:
        data: dict[str, Any] = {"outcome": record.get("outcome"), "dealer": record.get("dealer")}
        if "declarer" in record:
            data["declarer"] = record["declarer"]
        pair = record.get("pair")
        if isinstance(pair, list) and len(pair) == 2:
            data["partner_a"], data["partner_b"] = pair
        if "card_points" in record:
            data["card_points"] = record["card_points"]
        offers = record.get("offers") or [
            {k: record[k] for k in ("offerer", "taker", "points") if k in record}
        ]
        for n, offer in enumerate(offers[:2]):
            end = "_2" if n else ""
            for key in ("offerer", "taker", "points"):
                if isinstance(offer, dict) and key in offer:
                    data[key + end] = offer[key]
        return data


# --- Er Giò --------------------------------------------------------------------------------


def _declared(game: str, field: str, ruleset: Any = None) -> tuple[Any, ...]:
    """The choices a game declares for a summary's field (games/core/declare.py)."""
    from games.core import registry

    return registry.get(game).choices(field, ruleset)


def _ergio_mags(side: int) -> list[tuple[str, str]]:
    lang = "en" if (get_language() or "it").startswith("en") else "it"
    return [
        (c.value, c.label.get(lang)) for c in _declared("ergio", "magistratura") if c.side == side
    ]


# The figures keep their Italian names in both languages, as the game's own terms.
FIGURES = [("magistrato", "Magistrato"), ("capitano", "Capitano"), ("caposchiera", "Caposchiera")]


class ErGioScontroForm(forms.Form):
    challenger = forms.ChoiceField(label=_("Challenger"), choices=[("", "—"), *SIDES])
    t_mag = forms.ChoiceField(label=_("Magistratura"))
    t_force = number(_("Force"))
    t_figures = forms.MultipleChoiceField(
        label=_("Figures laid"),
        choices=FIGURES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    t_laid_force = number(_("Force of the laid cards"), required=False)
    m_mag = forms.ChoiceField(label=_("Magistratura"))
    m_force = number(_("Force"))
    m_figures = forms.MultipleChoiceField(
        label=_("Figures laid"),
        choices=FIGURES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    m_laid_force = number(_("Force of the laid cards"), required=False)

    def __init__(self, *args: Any, laid: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for side, prefix in enumerate("tm"):
            field = self.fields[f"{prefix}_mag"]
            field.choices = [("", "—"), *_ergio_mags(side)]  # type: ignore[attr-defined]
            if not laid:
                # Only a Bella Nazionale that sums the laid cards needs them.
                del self.fields[f"{prefix}_laid_force"]

    def side(self, prefix: str) -> list[forms.BoundField]:
        return [self[n] for n in self.fields if n.startswith(prefix + "_")]

    def tramontana(self) -> list[forms.BoundField]:
        return self.side("t")

    def mezzogiorno(self) -> list[forms.BoundField]:
        return self.side("m")


class ErGioScontri(Rows):
    row_name = ROW_NAMES["scontro"]


class ErGioSummaryForm(EntryForm):
    entry_template = "web/score/forms/ergio.html"
    row_sets = ("scontri",)

    corteo_winner = forms.ChoiceField(
        label=_("Corteo Storico won by"),
        choices=[("", "—"), *SIDES],
        help_text=_("That side challenges first."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        from games.core import registry

        most = registry.get("ergio").summary_rows["scontri"]
        self.laid = getattr(self.ruleset, "bella_sums", "scontro") == "laid"
        formset = rows(ErGioScontroForm, ErGioScontri, most, most)
        self.scontri = formset(
            self.data if self.is_bound else None,
            prefix="scontro",
            form_kwargs={"laid": self.laid},
        )
        self.focus_first()
        names = dict(self.seats)
        self.side_players = [
            ", ".join(names[s] for s in sorted(names) if s % 2 == side) for side in (0, 1)
        ]

    def record(self) -> dict[str, Any]:
        scontri = []
        for row in self.scontri.filled():
            sides = {}
            for prefix, (side, _label) in zip("tm", SIDES, strict=True):
                facts: dict[str, Any] = {
                    "magistratura": row[f"{prefix}_mag"],
                    "force": row[f"{prefix}_force"],
                    "figures": list(row[f"{prefix}_figures"]),
                }
                if row.get(f"{prefix}_laid_force") is not None:
                    facts["laid_force"] = row[f"{prefix}_laid_force"]
                sides[side] = facts
            scontri.append({"challenger": row["challenger"], **sides})
        if not scontri:
            self.fail(_("Write at least the first scontro."))
        return {"corteo_winner": self.cleaned_data["corteo_winner"], "scontri": scontri}

    def data_for(self, record: dict[str, Any], scores: list[Any]) -> dict[str, Any] | None:
        rows_ = []
        for scontro in record.get("scontri") or []:
            row: dict[str, Any] = {"challenger": scontro.get("challenger")}
            for prefix, (side, _label) in zip("tm", SIDES, strict=True):
                facts = scontro.get(side) or {}
                row[f"{prefix}_mag"] = facts.get("magistratura")
                row[f"{prefix}_force"] = facts.get("force")
                row[f"{prefix}_figures"] = list(facts.get("figures") or [])
                row[f"{prefix}_laid_force"] = facts.get("laid_force")
            rows_.append(row)
        most = self.scontri.max_num
        return {
            "corteo_winner": record.get("corteo_winner"),
            **_rows_data("scontro", rows_, most, most),
        }


# --- The Bridge's Game (ponte) -------------------------------------------------------------


def _ponte_mags(
    side: int, choices: tuple[Any, ...], owners: dict[int, str] | None
) -> list[tuple[str, str]]:
    lang = "en" if (get_language() or "it").startswith("en") else "it"
    out = []
    for c in choices:
        if c.side != side:
            continue
        label = c.label.get(lang)
        if owners:
            label = f"{label} ({owners[c.seat]})"
        out.append((c.value, label))
    return out


class PonteChallengeForm(forms.Form):
    tramontana = forms.ChoiceField(label="Tramontana")
    mezzogiorno = forms.ChoiceField(label="Mezzogiorno")
    winner = forms.ChoiceField(label=_("Won by"), choices=[("", "—"), *SIDES])
    left_t = number(_("Power left, Tramontana"), required=False, step="any")
    left_m = number(_("Power left, Mezzogiorno"), required=False, step="any")

    def __init__(self, *args: Any, mags: list[list[tuple[str, str]]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for side, (name, _label) in enumerate(SIDES):
            self.fields[name].choices = [("", "—"), *mags[side]]  # type: ignore[attr-defined]


class PonteChallenges(Rows):
    row_name = ROW_NAMES["challenge"]


class PonteSummaryForm(EntryForm):
    entry_template = "web/score/forms/ponte.html"
    row_sets = ("challenges",)

    tb_tramontana = forms.ChoiceField(label="Tramontana", required=False)
    tb_mezzogiorno = forms.ChoiceField(label="Mezzogiorno", required=False)
    tb_winner = forms.ChoiceField(
        label=_("Tie breaker won by"), choices=[("", "—"), *SIDES], required=False
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        ruleset = self.ruleset
        names = dict(self.seats)
        choices = _declared("ponte", "magistratura", ruleset)
        owners = None
        if ruleset.seats > 2:
            owners = {c.seat: names.get(c.seat, str(c.seat)) for c in choices}
        mags = [_ponte_mags(side, choices, owners) for side in (0, 1)]
        for side, (name, _label) in enumerate(SIDES):
            self.fields[f"tb_{name}"].choices = [("", "—"), *mags[side]]  # type: ignore[attr-defined]
        # The power sheet (optional): checked against the mode's rules and the power left.
        self.sheet_names = []
        lang = "en" if (get_language() or "it").startswith("en") else "it"
        for c in choices:
            name = f"power_{c.value}"
            self.fields[name] = number(c.label.get(lang), required=False, step="any")
            self.sheet_names.append(name)
        count = ruleset.challenges
        formset = rows(PonteChallengeForm, PonteChallenges, count, count)
        self.challenges = formset(
            self.data if self.is_bound else None, prefix="challenge", form_kwargs={"mags": mags}
        )
        self.chip = ruleset.chip
        # The challenges come first on the page.
        self.challenges.forms[0].fields["tramontana"].widget.attrs["autofocus"] = True

    def tie_fields(self) -> list[forms.BoundField]:
        return [self[n] for n in ("tb_tramontana", "tb_mezzogiorno", "tb_winner")]

    def sheet_fields(self) -> list[forms.BoundField]:
        return [self[n] for n in self.sheet_names]

    def record(self) -> dict[str, Any]:
        challenges = []
        for row in self.challenges.filled():
            challenges.append(
                {
                    "tramontana": row["tramontana"],
                    "mezzogiorno": row["mezzogiorno"],
                    "winner": row["winner"],
                    "left": [row["left_t"] or 0, row["left_m"] or 0],
                }
            )
        if not challenges:
            self.fail(_("Write at least the first challenge."))
        summary: dict[str, Any] = {"challenges": challenges}
        tie = [self.cleaned_data.get(n) or None for n in ("tb_tramontana", "tb_mezzogiorno")]
        tb_winner = self.cleaned_data.get("tb_winner") or None
        if any(tie) or tb_winner:
            for name, value in zip(
                ("tb_tramontana", "tb_mezzogiorno", "tb_winner"), [*tie, tb_winner], strict=True
            ):
                if not value:
                    self.add_error(name, _("Needed for the tie breaker."))
            if not all(tie) or not tb_winner:
                self.fail(_("Give both magistrature of the tie breaker and its winner."))
            summary["tie_breaker"] = {
                "tramontana": tie[0],
                "mezzogiorno": tie[1],
                "winner": tb_winner,
            }
        sheet = {
            name.removeprefix("power_"): self.cleaned_data[name]
            for name in self.sheet_names
            if self.cleaned_data.get(name) is not None
        }
        if sheet:
            summary["assignments"] = sheet
        return summary

    def data_for(self, record: dict[str, Any], scores: list[Any]) -> dict[str, Any] | None:
        rows_ = []
        for challenge in record.get("challenges") or []:
            left = challenge.get("left") or [None, None]
            rows_.append(
                {
                    "tramontana": challenge.get("tramontana"),
                    "mezzogiorno": challenge.get("mezzogiorno"),
                    "winner": challenge.get("winner"),
                    "left_t": left[0],
                    "left_m": left[1],
                }
            )
        count = self.challenges.max_num
        data: dict[str, Any] = _rows_data("challenge", rows_, count, count)
        tie = record.get("tie_breaker") or {}
        for side, _label in SIDES:
            data[f"tb_{side}"] = tie.get(side)
        data["tb_winner"] = tie.get("winner")
        for value, power in (record.get("assignments") or {}).items():
            data[f"power_{value}"] = power
        return data


# --- San Marco -----------------------------------------------------------------------------


class SanMarcoPassageForm(forms.Form):
    def __init__(self, *args: Any, names: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for i, name in enumerate(names):
            self.fields[f"limit_{i}"] = number(_("Limit points: %(name)s") % {"name": name})
        for i, name in enumerate(names):
            self.fields[f"bonus_{i}"] = number(
                _("Bonus written: %(name)s") % {"name": name}, required=False
            )


class SanMarcoPassages(Rows):
    row_name = ROW_NAMES["passage"]


class SanMarcoSummaryForm(EntryForm):
    """Points per colour, as the competition's variant writes them (1 ghosts, 2 a neutral
    colour, 3 two colours each)."""

    entry_template = "web/score/forms/sanmarco.html"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        from games.core import registry

        self.variant = int(getattr(self.ruleset, "variant", 3))
        names = [name for _index, name in self.seats]
        declared = _declared("sanmarco", "colour", self.ruleset)
        colours = [[c.value for c in declared if c.seat == seat] for seat in range(len(names))]
        passages = registry.get("sanmarco").summary_rows["passages"]
        for i, name in enumerate(names):
            if self.variant == 3:
                for c, colour in enumerate(colours[i]):
                    self.fields[f"p{i}_{c}"] = number(
                        _("%(name)s: %(colour)s") % {"name": name, "colour": colour}
                    )
            else:
                self.fields[f"p{i}"] = number(
                    _("%(name)s: %(colour)s") % {"name": name, "colour": colours[i][0]}
                )
        if self.variant == 1:
            for i, name in enumerate(names):
                self.fields[f"ghost{i}"] = number(
                    _("Ghost colour read out by %(name)s: %(colour)s")
                    % {"name": name, "colour": colours[i][1].removeprefix("fantasma ")},
                    required=False,
                )
        if self.variant == 2:
            self.fields["neutral"] = number(_("Neutral colour (optional)"), required=False)
            formset = rows(SanMarcoPassageForm, SanMarcoPassages, passages, passages)
            self.passages = formset(
                self.data if self.is_bound else None,
                prefix="passage",
                form_kwargs={"names": names},
            )
            self.row_sets = ("passages",)
        self.focus_first()

    def record(self) -> dict[str, Any]:
        data = self.cleaned_data
        summary: dict[str, Any] = {"variant": self.variant}
        if self.variant == 3:
            summary["points"] = [[data[f"p{i}_0"], data[f"p{i}_1"]] for i in range(2)]
            return summary
        summary["points"] = [data["p0"], data["p1"]]
        if self.variant == 1:
            ghosts = _pairs(self, ["ghost0", "ghost1"], _("Give both ghost colours, or neither."))
            if ghosts is not None:
                summary["ghosts"] = ghosts
            return summary
        if data.get("neutral") is not None:
            summary["neutral"] = data["neutral"]
        passages = []
        for form in self.passages.forms:
            if not (form.has_changed() and form.cleaned_data):
                continue
            row = form.cleaned_data
            passage: dict[str, Any] = {"limits": [row["limit_0"], row["limit_1"]]}
            bonus = _pairs(form, ["bonus_0", "bonus_1"], _("Give both bonuses, or neither."))
            if bonus is not None:
                passage["bonus"] = bonus
            passages.append(passage)
        if passages:
            summary["passages"] = passages
        return summary

    def data_for(self, record: dict[str, Any], scores: list[Any]) -> dict[str, Any] | None:
        points = record.get("points") or []
        data: dict[str, Any] = {}
        for i, value in enumerate(points):
            if isinstance(value, list):
                for c, colour in enumerate(value):
                    data[f"p{i}_{c}"] = colour
            else:
                data[f"p{i}"] = value
        for i, ghost in enumerate(record.get("ghosts") or []):
            data[f"ghost{i}"] = ghost
        if self.variant == 2:
            data["neutral"] = record.get("neutral")
            rows_ = []
            for passage in record.get("passages") or []:
                limits = passage.get("limits") or []
                bonus = passage.get("bonus") or []
                row = {f"limit_{i}": v for i, v in enumerate(limits)}
                row.update({f"bonus_{i}": v for i, v in enumerate(bonus)})
                rows_.append(row)
            most = self.passages.max_num
            data.update(_rows_data("passage", rows_, most, most))
        return data


# --- 3D cardChess --------------------------------------------------------------------------


class CardChessSfidaForm(forms.Form):
    def __init__(self, *args: Any, names: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for i, name in enumerate(names):
            self.fields[f"p{i}"] = number(name, **{"aria-label": name})


class CardChessSfide(Rows):
    row_name = ROW_NAMES["sfida"]


class CardChessSummaryForm(EntryForm):
    """A whole game from the points of each sfida (the gold cards follow), or a single sfida
    from the cards each player captured."""

    entry_template = "web/score/forms/cardchess.html"
    row_sets = ("sfide",)
    MOST_SFIDE = 24

    kind = forms.ChoiceField(
        label=_("What you are recording"),
        choices=[
            ("game", _("A whole game: points of each sfida")),
            ("sfida", _("One sfida: the cards each player captured")),
        ],
        initial="game",
        widget=forms.RadioSelect(attrs={"data-switch": "kind"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        names = [name for _index, name in self.seats]
        self.players = len(names)
        for i, name in enumerate(names):
            self.fields[f"gold_{i}"] = number(
                _("Gold cards written: %(name)s") % {"name": name}, required=False
            )
            when(self.fields[f"gold_{i}"], "game")
        for i, name in enumerate(names):
            self.fields[f"captured_{i}"] = forms.CharField(
                label=_("Cards captured: %(name)s") % {"name": name},
                required=False,
                help_text=_("Card codes separated by spaces, e.g. bK gQ bP3d."),
                widget=forms.TextInput(
                    attrs={"autocapitalize": "off", "autocomplete": "off", "spellcheck": "false"}
                ),
            )
            when(self.fields[f"captured_{i}"], "sfida")
        # Fewest sfide a game can take: four gold cards with two, three gold to win with more.
        shown = 4 if self.players == 2 else 3
        formset = rows(CardChessSfidaForm, CardChessSfide, shown, self.MOST_SFIDE)
        self.sfide = formset(
            self.data if self.is_bound else None, prefix="sfida", form_kwargs={"names": names}
        )
        # A whole game is the usual case: the cursor waits in the first sfida.
        self.sfide.forms[0].fields["p0"].widget.attrs["autofocus"] = True

    def gold_fields(self) -> list[forms.BoundField]:
        return [self[f"gold_{i}"] for i in range(self.players)]

    def captured_fields(self) -> list[forms.BoundField]:
        return [self[f"captured_{i}"] for i in range(self.players)]

    def formsets(self) -> Iterator[forms.BaseFormSet]:
        # The rows only matter for a whole game.
        if not (self.is_bound and self.data.get("kind") == "sfida"):
            yield from super().formsets()

    def record(self) -> dict[str, Any]:
        known = {c.value for c in _declared("cardchess", "card")}
        data = self.cleaned_data
        summary: dict[str, Any] = {"players": self.players}
        if data["kind"] == "sfida":
            captured = []
            for i in range(self.players):
                codes = data[f"captured_{i}"].replace(",", " ").split()
                unknown = [c for c in codes if c not in known]
                if unknown:
                    self.add_error(
                        f"captured_{i}",
                        _("Unknown card code %(codes)s: codes look like bK, gQ, bP3d, gNl.")
                        % {"codes": ", ".join(unknown)},
                    )
                captured.append(codes)
            if self.errors:
                self.fail(_("Fix the card codes."))
            if not any(captured):
                self.fail(_("Write the cards captured by at least one player."))
            summary["captured"] = captured
            return summary
        sfide = [[row[f"p{i}"] for i in range(self.players)] for row in self.sfide.filled()]
        if not sfide:
            self.fail(_("Write the points of at least the first sfida."))
        summary["sfide"] = sfide
        gold = _pairs(
            self,
            [f"gold_{i}" for i in range(self.players)],
            _("Give every player's gold cards, or none."),
        )
        if gold is not None:
            summary["gold"] = gold
        return summary

    def data_for(self, record: dict[str, Any], scores: list[Any]) -> dict[str, Any] | None:
        data: dict[str, Any] = {}
        if "captured" in record:
            data["kind"] = "sfida"
            for i, codes in enumerate(record["captured"] or []):
                data[f"captured_{i}"] = " ".join(codes)
            rows_: list[dict[str, Any]] = []
        else:
            data["kind"] = "game"
            rows_ = [{f"p{i}": v for i, v in enumerate(row)} for row in record.get("sfide") or []]
            for i, gold in enumerate(record.get("gold") or []):
                data[f"gold_{i}"] = gold
        data.update(_rows_data("sfida", rows_, self.sfide.total_form_count(), self.MOST_SFIDE))
        return data


# --- other ways in -------------------------------------------------------------------------


class RecordForm(EntryForm):
    """The full hand record in the game's notation, pasted or uploaded: the engine replays
    every action and scores the game."""

    source = "full_record"
    entry_template = "web/score/forms/record.html"

    record_text = forms.CharField(
        label=_("Paste the full record (JSON, as in the game's notation)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false", "class": "mono"}),
    )
    record_file = forms.FileField(label=_("…or upload the record file"), required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.focus_first()

    def record(self) -> dict[str, Any]:
        upload = self.cleaned_data.get("record_file")
        text = self.cleaned_data.get("record_text") or ""
        field = "record_text"
        if upload is not None:
            field = "record_file"
            if upload.size is not None and upload.size > MAX_RECORD_BYTES:
                self.add_error(field, _("The file is larger than 2 MB."))
                self.fail(_("Choose a smaller file."))
            try:
                text = upload.read().decode("utf-8")
            except UnicodeDecodeError:
                self.add_error(field, _("The file is not UTF-8 text."))
                self.fail(_("Choose the record's JSON file."))
        if not text.strip():
            self.fail(_("Paste the record or choose its file."))
        return _json_object(self, field, text)

    def data_for(self, record: dict[str, Any], scores: list[Any]) -> dict[str, Any] | None:
        return {"record_text": json.dumps(record, ensure_ascii=False)}


class JsonSummaryForm(EntryForm):
    """Advanced: the summary typed as JSON, exactly as the game's notation writes it."""

    summary_json = forms.CharField(
        label=_("Summary (JSON, as in the game's notation)"),
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false", "class": "mono"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.focus_first()

    def record(self) -> dict[str, Any]:
        return _json_object(self, "summary_json", self.cleaned_data["summary_json"])

    def data_for(self, record: dict[str, Any], scores: list[Any]) -> dict[str, Any] | None:
        return {"summary_json": json.dumps(record, ensure_ascii=False, indent=1)}


def _json_object(form: forms.Form, field: str, text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        form.add_error(
            field, _("Not valid JSON: %(e)s (line %(line)d)") % {"e": exc.msg, "line": exc.lineno}
        )
        raise forms.ValidationError(_("Fix the JSON.")) from exc
    if not isinstance(value, dict):
        form.add_error(field, _("Expected a JSON object: { … }."))
        raise forms.ValidationError(_("Fix the JSON."))
    return value


class ManualScoresForm(EntryForm):
    """For a game whose engine has not landed: the points of each seat."""

    source = "manual"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for index, name in self.seats:
            self.fields[f"seat_{index}"] = forms.DecimalField(
                label=name,
                max_digits=12,
                decimal_places=2,
                widget=forms.NumberInput(attrs={"inputmode": "decimal", "step": "any"}),
            )
        self.focus_first()

    def scores(self) -> list[Any]:
        return [self.cleaned_data[name] for name in self.fields]

    def record(self) -> dict[str, Any]:
        return {}

    def data_for(self, record: dict[str, Any], scores: list[Any]) -> dict[str, Any] | None:
        if len(scores) != len(self.seats):
            return None
        return {f"seat_{index}": scores[n] for n, (index, _name) in enumerate(self.seats)}


SUMMARY_FORMS: dict[str, type[EntryForm]] = {
    "tarocco": TaroccoSummaryForm,
    "ergio": ErGioSummaryForm,
    "ponte": PonteSummaryForm,
    "sanmarco": SanMarcoSummaryForm,
    "cardchess": CardChessSummaryForm,
}

# The ways in, by the ``mode`` the page offers (the summary form first).
MODES: dict[str, type[EntryForm]] = {"record": RecordForm, "json": JsonSummaryForm}


class NewTableForm(forms.Form):
    label = forms.CharField(label=_("Table name"), max_length=40)

    def __init__(self, *args: Any, members: list[Player], seats: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(p.pk, p.name) for p in members]
        for i in range(seats):
            self.fields[f"seat_{i}"] = forms.TypedChoiceField(
                label=_("Seat %(n)d") % {"n": i + 1}, choices=choices, coerce=int
            )

    def player_ids(self) -> list[int]:
        return [v for k, v in self.cleaned_data.items() if k.startswith("seat_")]

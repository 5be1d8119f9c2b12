"""Score-entry forms: each turns what the scorekeeper typed into the game's summary
(docs/notation/<game>.md), which the engine then scores; nothing here computes points.

A game's summary form is built from what the game declares (``Game.summary_form``, see
games/core/declare.py): its fields, rows, words and layout; nothing here knows a game.

Every entry form offers the same small surface to the views: ``source`` (what kind of result
it makes), ``is_valid()``, ``problems()`` (each error with the label of its field, for the
live preview), ``record()`` (the summary or record to send to the engine) and
``entry_template`` (how the page lays it out). Rows that repeat (a game's declared ``Rows``)
are Django formsets.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from typing import Any, NoReturn, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from games.core.declare import Field, FormProblem, Group, Note, Together
from games.core.declare import Rows as DeclaredRows
from games.core.text import Text
from ledger.clubs.games import reader_language
from ledger.clubs.models import Player

Seats = list[tuple[int, str]]
MAX_RECORD_BYTES = 2_000_000


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

    def formsets(self) -> Iterator[Rows]:
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


class Rows(forms.BaseFormSet[forms.Form]):
    """Repeated rows of a summary; a row left blank is skipped."""

    row_name: Any = _("Row %(n)s")
    declared: Any = None  # the game's declared Rows (games/core/declare.py)

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
    # formset_factory returns a subclass of the formset it is given (stubs: of BaseFormSet).
    built = cast(
        type[Rows],
        forms.formset_factory(
            form, formset=base, extra=count, max_num=most, validate_max=True, absolute_max=most
        ),
    )
    return built


# --- the games' own summary forms, built from what each game declares -----------------------


def _blank(value: Any) -> Any:
    """A field left empty reads as None (an unchosen choice posts "")."""
    return None if value == "" else value


class FieldMaker:
    """Django fields from a game's declared fields (games/core/declare.py), in the reader's
    language, each label naming the player of the seat it concerns."""

    def __init__(self, seats: Seats) -> None:
        self.names = dict(seats)
        self.seats = seats
        self.language = reader_language()

    def words(self, text: Text, seat: int | None = None) -> str:
        out = text.get(self.language)
        if seat is not None:
            out = out.replace("{name}", self.names.get(seat, str(seat + 1)))
        return out

    def choices(self, declared: Field) -> list[tuple[Any, str]]:
        blank = declared.blank and declared.kind != "choices"
        out: list[tuple[Any, str]] = [("", "—")] if blank else []
        if declared.kind == "seat":
            return out + list(self.seats)
        for c in declared.choices:
            label = c.label.get(self.language)
            if declared.choices_name_seats and c.seat is not None:
                label = f"{label} ({self.names.get(c.seat, str(c.seat))})"
            out.append((c.value, label))
        return out

    def field(self, declared: Field) -> forms.Field:
        label = self.words(declared.label, declared.seat)
        help_text = self.words(declared.help, declared.seat) if declared.help else ""
        made: forms.Field
        attrs: dict[str, Any] = {}
        if declared.switch:
            attrs["data-switch"] = declared.name
        if declared.kind == "integer":
            attrs["inputmode"] = "numeric"
            if declared.any_step:
                attrs["step"] = "any"
            if declared.label_hidden:
                attrs["aria-label"] = label
            made = forms.IntegerField(
                min_value=declared.minimum,
                max_value=declared.maximum,
                widget=forms.NumberInput(attrs=attrs),
            )
        elif declared.kind == "seat":
            made = forms.TypedChoiceField(
                choices=self.choices(declared), coerce=int, empty_value=None
            )
            if declared.initial_last_seat and self.seats:
                made.initial = self.seats[-1][0]
        elif declared.kind == "choice":
            widget = forms.RadioSelect if declared.widget == "radio" else forms.Select
            made = forms.ChoiceField(choices=self.choices(declared), widget=widget(attrs=attrs))
        elif declared.kind == "choices":
            made = forms.MultipleChoiceField(
                choices=self.choices(declared), widget=forms.CheckboxSelectMultiple
            )
        else:
            attrs.update(autocapitalize="off", autocomplete="off", spellcheck="false")
            made = forms.CharField(widget=forms.TextInput(attrs=attrs))
        made.label = label
        made.required = declared.required
        made.help_text = help_text
        if declared.initial is not None:
            made.initial = declared.initial
        if declared.when:
            when(made, *declared.when)
        return made


class DeclaredRow(forms.Form):
    """One row of a declared ``Rows``."""

    def __init__(self, *args: Any, declared: DeclaredRows, maker: FieldMaker, **kw: Any) -> None:
        super().__init__(*args, **kw)
        for field in declared.fields():
            self.fields[field.name] = maker.field(field)


def _missing(form: forms.Form, values: dict[str, Any], together: Together, language: str) -> bool:
    """Whether a group given in part: each missing field is told so."""
    given = [values.get(n) is not None for n in together.names]
    if all(given) or not any(given):
        return False
    for name, ok in zip(together.names, given, strict=True):
        if not ok:
            form.add_error(name, together.message.get(language))
    return True


def _value(form: forms.Form, name: str) -> Any:
    value = form.cleaned_data.get(name)
    return list(value) if isinstance(value, list) else _blank(value)


class DeclaredSummaryForm(EntryForm):
    """A game's summary form as the game declares it (``Game.summary_form``): the fields,
    their rows and layout come from the declaration; the checks it declares are made here;
    the game's ``build`` makes the summary and its ``score`` judges it."""

    entry_template = "web/score/forms/declared.html"
    game = ""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        from games.core import registry

        declaration = registry.get(self.game).summary_form(self.ruleset)
        if declaration is None:
            raise ValueError(f"{self.game} declares no summary form for this ruleset")
        self.declaration = declaration
        self.maker = FieldMaker(self.seats)
        for field in declaration.fields():
            self.fields[field.name] = self.maker.field(field)
        self.row_forms: dict[str, Rows] = {}
        for declared in declaration.rows():
            formset = rows(DeclaredRow, Rows, declared.count, declared.most)(
                self.data if self.is_bound else None,
                prefix=declared.name,
                form_kwargs={"declared": declared, "maker": self.maker},
            )
            formset.declared = declared
            formset.row_name = declared.label.get(self.maker.language).replace("{n}", "%(n)s")
            self.row_forms[declared.name] = formset
        self._focus(declaration.focus)

    def _focus(self, focus: str) -> None:
        if "." in focus:
            prefix, name = focus.split(".", 1)
            self.row_forms[prefix].forms[0].fields[name].widget.attrs["autofocus"] = True
        elif focus:
            self.fields[focus].widget.attrs["autofocus"] = True
        else:
            self.focus_first()

    def switch_value(self) -> Any:
        switch = self.declaration.switch()
        if switch is None:
            return None
        if self.is_bound:
            return self.data.get(switch.name)
        return self.fields[switch.name].initial

    def applies(self, when: tuple[str, ...]) -> bool:
        """Whether a part shown only for some values of the switch counts now."""
        return not when or not self.is_bound or self.switch_value() in when

    def formsets(self) -> Iterator[Rows]:
        for formset in self.row_forms.values():
            if self.applies(formset.declared.when):
                yield formset

    def field_at(self, where: dict[str, Any]) -> str | None:
        """The field a violation's ``where`` names (a field of the summary), if shown."""
        path = where.get("field")
        found = self.declaration.field_at(path) if isinstance(path, str) else None
        return found.name if found is not None and found.name in self.fields else None

    def row_for(self, where: dict[str, Any]) -> forms.Form | None:
        """The row a violation's ``where`` points at, if it is on the page."""
        for formset in self.formsets():
            n = where.get(formset.declared.name)
            index = n - formset.declared.first if isinstance(n, int) else -1
            if 0 <= index < len(formset.forms):
                return formset.forms[index]
        return None

    # --- the summary -------------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        declaration = self.declaration
        language = self.maker.language
        fields = declaration.fields()
        values: dict[str, Any] = {f.name: _value(self, f.name) for f in fields}
        switch = self.switch_value()
        missing = [f.name for f in fields if switch in f.needed and values[f.name] is None]
        if missing:
            for name in missing:
                self.add_error(name, declaration.needed_message.get(language))
            self.fail(declaration.needed_whole.get(language))
        by_name = {f.name: f for f in fields}
        for formset in self.row_forms.values():
            declared = formset.declared
            written: list[dict[str, Any]] = []
            if self.applies(declared.when):
                for form in formset.forms:
                    if not (form.has_changed() and form.cleaned_data):
                        continue
                    row = {f.name: _value(form, f.name) for f in declared.fields()}
                    for together in declared.together:
                        if _missing(form, row, together, language):
                            self.fail(together.whole.get(language))
                    written.append(row)
                if len(written) < declared.least and declared.least_message is not None:
                    self.fail(declared.least_message.get(language))
            values[declared.name] = written
        for together in declaration.together:
            shown = all(self.applies(by_name[n].when) for n in together.names)
            if shown and _missing(self, values, together, language):
                self.fail(together.whole.get(language))
        try:
            return declaration.build(values)
        except FormProblem as problem:
            for name, message in problem.fields.items():
                self.add_error(name, message.get(language))
            self.fail(problem.message.get(language))

    def data_for(self, record: dict[str, Any], scores: list[Any]) -> dict[str, Any] | None:
        values = self.declaration.read(record)
        if values is None:
            return None
        data: dict[str, Any] = {}
        for name, value in values.items():
            if name in self.row_forms:
                declared = self.row_forms[name].declared
                total = max(declared.count, len(value))
                data.update(_rows_data(name, value, total, declared.most))
            else:
                data[name] = value
        for name, formset in self.row_forms.items():
            if name not in values:
                declared = formset.declared
                data.update(_rows_data(name, [], declared.count, declared.most))
        return data

    # --- the page ------------------------------------------------------------------------

    def layout(self) -> list[dict[str, Any]]:
        """The declared parts with their bound fields, for web/score/forms/declared.html."""
        return [self._part(part, self) for part in self.declaration.parts]

    def _part(self, part: Any, form: forms.Form) -> dict[str, Any]:
        maker = self.maker
        if isinstance(part, Field):
            return {"type": "field", "field": form[part.name]}
        if isinstance(part, Note):
            text = part.text.get(maker.language)
            for n, seats in enumerate(part.seat_lists):
                names = ", ".join(maker.names[s] for s in seats if s in maker.names)
                text = text.replace(f"{{seats{n}}}", names)
            return {"type": "note", "text": text, "css": part.css}
        if isinstance(part, Group):
            children = [self._part(p, form) for p in part.parts]
            return {
                "type": "group",
                "style": part.style,
                "legend": part.legend.get(maker.language) if part.legend else "",
                "css": part.css,
                "id": part.id,
                "when": " ".join(part.when),
                "children": children,
                "open": part.style == "details" and _written(children),
            }
        formset = self.row_forms[part.name]
        lines = [
            {
                "title": title,
                "form": row,
                "children": [self._part(p, row) for p in part.parts],
            }
            for title, row in formset.labelled()
        ]
        empty = formset.empty_form
        return {
            "type": "rows",
            "style": part.style,
            "name": part.name,
            "css": part.css,
            "formset": formset,
            "rows": lines,
            "caption": maker.words(part.caption) if part.caption else "",
            "corner": maker.words(part.corner) if part.corner else "",
            "add": maker.words(part.add) if part.add else "",
            "headings": [str(f.label) for f in empty.fields.values()],
        }


def _written(parts: list[dict[str, Any]]) -> bool:
    """Whether anything among these parts is written or wrong (a details box then opens)."""
    for part in parts:
        if part["type"] == "field":
            bound = part["field"]
            if bound.errors or bound.value() not in (None, "", []):
                return True
        elif part["type"] == "group":
            if _written(part["children"]):
                return True
        elif part["type"] == "rows" and any(_written(r["children"]) for r in part["rows"]):
            return True
    return False


def row_place(game: str, ruleset: Any, where: dict[str, Any]) -> str:
    """The row a violation's ``where`` points at, in words ("Scontro 2"), as the game's
    summary form names its rows (whichever way the summary was typed); "" for none."""
    from games.core import Ruleset, registry

    if not isinstance(ruleset, Ruleset):
        return ""
    try:
        declaration = registry.get(game).summary_form(ruleset)
    except KeyError:
        return ""
    at = ""
    for declared in declaration.rows() if declaration is not None else []:
        n = where.get(declared.name)
        if isinstance(n, int) and not isinstance(n, bool):
            label = declared.label.get(reader_language())
            at = label.replace("{n}", str(n - declared.first + 1))
    return at


@functools.cache
def summary_form_class(game: str) -> type[EntryForm]:
    """The summary form of a game: the one it declares, or the summary as JSON."""
    name = "".join(w.capitalize() for w in game.replace("-", "_").split("_"))
    built: type[EntryForm] = type(
        f"{name}SummaryForm", (DeclaredSummaryForm,), {"game": game, "__module__": __name__}
    )
    return built


def form_for(game: str, ruleset: Any) -> type[EntryForm]:
    """The summary form class for a game under a ruleset (JSON when it declares none)."""
    from games.core import registry

    try:
        declares = registry.get(game).summary_form(ruleset) is not None
    except KeyError:
        declares = False
    return summary_form_class(game) if declares else JsonSummaryForm


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

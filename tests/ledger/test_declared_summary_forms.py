"""Every game's summary form is built from what the game declares (Game.summary_form): the
fields typed in it give a summary the game's own score() accepts, a bad value is told at its
field, and a rule the engine says is broken at a row is shown at that row."""

from __future__ import annotations

from typing import Any

import pytest
from django.http import QueryDict
from django.template.loader import render_to_string
from django.utils import translation

from games.core import registry
from games.core.declare import Field, Rows
from ledger.web.forms import DeclaredSummaryForm, summary_form_class

GAMES = registry.installed()


def _seats(ruleset: Any) -> list[tuple[int, str]]:
    return [(i, f"Giocatore {i}") for i in range(ruleset.seats)]


def _posted(data: dict[str, Any]) -> QueryDict:
    posted = QueryDict(mutable=True)
    for name, value in data.items():
        if isinstance(value, list):
            posted.setlist(name, [str(v) for v in value])
        elif value is not None:
            posted[name] = str(value)
    return posted


def _typed(slug: str, example: dict[str, Any]) -> tuple[Any, Any, dict[str, Any]]:
    """The form's fields as a scorekeeper would type this summary."""
    engine = registry.get(slug)
    ruleset = engine.ruleset(None)
    form_class = summary_form_class(slug)
    empty = form_class(None, seats=_seats(ruleset), ruleset=ruleset)
    data = empty.data_for(example, [])
    assert data is not None
    return engine, ruleset, data


@pytest.mark.parametrize("slug", GAMES)
def test_each_games_declared_form_gives_a_summary_its_engine_accepts(slug):
    engine = registry.get(slug)
    assert engine.summary_examples, f"{slug} declares no example summary"
    for example in engine.summary_examples:
        engine, ruleset, data = _typed(slug, dict(example))
        form = summary_form_class(slug)(_posted(data), seats=_seats(ruleset), ruleset=ruleset)
        assert form.is_valid(), form.problems()
        summary = form.record()
        report = engine.score(summary, ruleset.name)
        assert report.valid, report.violations
        assert report.outcome == engine.score(example, ruleset.name).outcome


def _first_number(parts: tuple[Any, ...]) -> tuple[Rows | None, Field] | None:
    """The first whole-number field of a declaration, and the rows it belongs to."""
    for part in parts:
        if isinstance(part, Field) and part.kind == "integer":
            return None, part
        if isinstance(part, Rows):
            for field in part.fields():
                if field.kind == "integer":
                    return part, field
        inner = getattr(part, "parts", None)
        if inner is not None and not isinstance(part, Rows):
            found = _first_number(inner)
            if found is not None:
                return found
    return None


@pytest.mark.parametrize("slug", GAMES)
def test_a_number_that_is_not_one_is_told_at_its_field_and_kept(slug):
    engine = registry.get(slug)
    example = dict(engine.summary_examples[0])
    engine, ruleset, data = _typed(slug, example)
    declaration = engine.summary_form(ruleset)
    found = _first_number(declaration.parts)
    assert found is not None
    rows, field = found
    name = field.name if rows is None else f"{rows.name}-0-{field.name}"
    data[name] = "dodici"
    form = summary_form_class(slug)(_posted(data), seats=_seats(ruleset), ruleset=ruleset)
    assert not form.is_valid()
    bound = form[field.name] if rows is None else form.row_forms[rows.name].forms[0][field.name]
    assert bound.errors and bound.value() == "dodici"
    label = str(bound.label)
    assert any(label in where for where, _what in form.problems())


@pytest.mark.parametrize("slug", GAMES)
def test_a_broken_rule_placed_at_a_row_is_shown_at_that_row(slug):
    engine = registry.get(slug)
    ruleset = engine.ruleset(None)
    form = summary_form_class(slug)(None, seats=_seats(ruleset), ruleset=ruleset)
    assert isinstance(form, DeclaredSummaryForm)
    for declared in engine.summary_form(ruleset).rows():
        second = form.row_forms[declared.name].forms[1]
        assert form.row_for({declared.name: declared.first + 1}) is second


@pytest.mark.parametrize("slug", GAMES)
@pytest.mark.parametrize("language", ["it", "en"])
def test_every_ruleset_of_every_game_lays_its_form_out(slug, language):
    engine = registry.get(slug)
    for name in engine.rulesets:
        ruleset = engine.ruleset(name)
        declaration = engine.summary_form(ruleset)
        if declaration is None:
            continue  # typed as JSON
        with translation.override(language):
            form = summary_form_class(slug)(None, seats=_seats(ruleset), ruleset=ruleset)
            html = render_to_string(form.entry_template, {"form": form})
        for field in declaration.fields():
            assert f'name="{field.name}"' in html, (name, field.name)
            assert "{name}" not in str(form.fields[field.name].label)
        for rows in declaration.rows():
            assert f'name="{rows.name}-TOTAL_FORMS"' in html
        assert html.count("autofocus") == 1, name

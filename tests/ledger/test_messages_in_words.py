"""What the pages say reads as words in the page's language: every field of every form in
Italian and in English, Django's own messages (passwords) in Italian on an Italian page, a
refused result's rule as a linked reference beside its words (never inside them), a draw
named in words, and the token help line's placeholder shown rather than lost as HTML."""

from __future__ import annotations

import importlib
import re
from typing import Any

import pytest
from django import forms
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.template import Context, Template
from django.test import Client
from django.utils import translation

from games.core import registry
from ledger.clubs.games import with_players
from ledger.clubs.scoring import _message
from tests.games.test_messages_in_words import faults

FORM_MODULES = [
    "ledger.web.forms",
    "ledger.web.scoring_views",
    "ledger.web.token_views",
    "ledger.web.office_views",
    "ledger.web.webhook_views",
]


def _forms() -> list[type[forms.BaseForm]]:
    found: dict[str, type[forms.BaseForm]] = {}
    for name in FORM_MODULES:
        module = importlib.import_module(name)
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, forms.BaseForm)
                and value.__module__.startswith("ledger.")
            ):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return list(found.values())


def _said(value: Any, language: str) -> str:
    with translation.override(language):
        return str(value) if value is not None else ""


def test_the_forms_are_found():
    assert len(_forms()) >= 5


@pytest.mark.parametrize("form", _forms(), ids=lambda f: f.__qualname__)
def test_every_field_of_every_form_reads_as_words_in_both_languages(form):
    bad = []
    for name, field in form.base_fields.items():
        pieces = [("label", field.label), ("help", field.help_text)]
        pieces += [(f"error {k}", v) for k, v in field.error_messages.items()]
        for key, label in getattr(field, "choices", None) or []:
            if isinstance(label, str | type(translation.gettext_lazy(""))):
                pieces.append((f"choice {key}", label))
        for what, value in pieces:
            if not value:
                continue
            it, en = _said(value, "it"), _said(value, "en")
            found = [
                f
                for f in faults(it, en)
                # one word (Password, Token, a game's name) may read the same in both
                if not f.startswith("untranslated") or " " in it.strip()
            ]
            # Django's own error messages carry %(placeholders)s filled in later (a plural
            # one is empty until its number is known)
            if what.startswith("error"):
                found = [f for f in found if "%(" not in f and not f.endswith("empty")]
            if found:
                bad.append(f"{form.__qualname__}.{name} {what}: {found}")
    assert not bad, bad


def test_django_password_messages_are_in_the_pages_language():
    for language, word in (("it", "troppo corta"), ("en", "too short")):
        with translation.override(language), pytest.raises(ValidationError) as caught:
            validate_password("123")
        assert any(word in m for m in caught.value.messages), caught.value.messages
    with translation.override("it"), pytest.raises(ValidationError) as caught:
        validate_password("123")
    assert not any("password is" in m for m in caught.value.messages), caught.value.messages


def test_a_refused_results_message_is_the_rules_words_without_its_id():
    violations = [
        {"rule": "tarocco.count.total", "message": {"it": "Parole.", "en": "Words."}},
        {"rule": "tarocco.summary.seat", "message": {"it": "Altre.", "en": "More."}},
    ]
    with translation.override("it"):
        text = _message(violations)
    assert text.startswith("Parole.") and "tarocco." not in text


@pytest.mark.parametrize("language", ["it", "en"])
def test_a_rule_reference_links_to_the_rule_in_the_games_rule_book(db, language):
    template = Template("{% load game_words %}{{ rule|rule_ref }}")
    with translation.override(language):
        html = template.render(Context({"rule": "tarocco.count.total"}))
    assert 'href="/rules/tarocco/#tarocco.count.total"' in html
    assert 'class="rule-ref">tarocco.count.total</a>' in html
    book = registry.get("tarocco").rules
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get("/rules/tarocco/").content.decode()
    assert 'id="tarocco.count.total"' in page
    assert book["tarocco.count.total"].text.get(language).split(":")[0] in page.replace(
        "&#x27;", "'"
    )


def test_a_rule_book_of_no_game_is_not_found(db):
    assert Client().get("/rules/nessuno/").status_code == 404


@pytest.mark.parametrize(
    ("engine", "it", "en"),
    [
        ("dutch", "sistema olandese FIDE", "FIDE Dutch system"),
        ("casual", "abbinamento svizzero rapido", "quick Swiss pairing"),
        ("team dutch", "a squadre, con il sistema olandese", "teams, by the FIDE Dutch"),
        ("dutch (repaired)", "coppie rifatte", "pairs then redone"),
        ("knockout + by hand", "il tabellone, poi modificato a mano", "then changed by hand"),
        ("by hand", "organizzatore, a mano", "the organiser, by hand"),
        ("search", "una ricerca di avversari", "a search for opponents"),
        ("groups", "tavoli di giocatori con punti vicini", "players close on points"),
        ("movement", "un movimento fisso", "a fixed movement"),
    ],
)
def test_a_draft_says_how_it_was_drawn_in_words(engine, it, en):
    template = Template("{% load draws %}{{ engine|drawn_by }}")
    for language, words in (("it", it), ("en", en)):
        with translation.override(language):
            said = template.render(Context({"engine": engine}))
        assert words in said and "dutch" not in said, said


@pytest.mark.parametrize(
    "engine", ["dutch", "casual", "berger", "groups", "knockout", "movement", "search", "bogus"]
)
def test_no_way_of_drawing_reaches_the_page_by_its_code_name(engine):
    template = Template("{% load draws %}{{ engine|drawn_by }}")
    for name in (engine, f"team {engine}", f"{engine} (repaired)", f"{engine} + by hand"):
        with translation.override("it"):
            said = template.render(Context({"engine": name}))
        assert not {engine, "team", "repaired", "by hand", "+"} & set(said.split()), said


def test_the_token_help_line_shows_its_placeholder(db, people):
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    client.force_login(people.users["organiser"])
    page = client.get(f"/c/{people.club.slug}/tokens/").content.decode()
    assert "Authorization: Token &lt;chiave&gt;" in page, page[:2000]


def test_a_seat_a_game_counts_from_one_is_named_by_who_sits_there():
    names = ["Anna", "Bruno", "Carla", "Dario"]
    said = with_players("Tocca al posto 2. Posto 4: scritto 3, dovuto 1.", names)
    assert said == "Tocca al posto 2 (Bruno). Posto 4 (Dario): scritto 3, dovuto 1."
    assert with_players("Seat 5 is not at this table.", names) == "Seat 5 is not at this table."


def test_no_message_of_the_ledger_quotes_a_value_as_python():
    """A value put into a message is quoted as words (“x”), never by repr ('x')."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "ledger"
    found = [
        f"{path.relative_to(root.parent)}:{n}"
        for path in root.rglob("*.py")
        if "migrations" not in path.parts
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"%\(\w+\)r", line)
    ]
    assert not found, found


def test_the_api_docs_page_asks_for_the_schema_in_its_own_english(db):
    italian = Client(HTTP_ACCEPT_LANGUAGE="it")
    # the page's script carries the schema's address, escaped for JavaScript (= is \u003D)
    script = italian.get("/api/docs/?script=").content.decode().replace("\\u003D", "=")
    assert "lang=en" in script
    asked = italian.get("/api/docs/?script=&lang=it").content.decode().replace("\\u003D", "=")
    assert "lang=it" in asked and "lang=en" not in asked
    schema = "/api/schema/?format=json"
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get(schema).content
    assert italian.get(schema + "&lang=en").content == english
    assert italian.get(schema).content != english


def test_a_missing_record_page_names_no_model(db):
    # get_object_or_404 says "No Federation matches the given query."; the page says it in words.
    for language, words in (("en", "There is no page at this address"), ("it", "nessuna pagina")):
        page = Client(HTTP_ACCEPT_LANGUAGE=language).get("/federations/nessuna/")
        assert page.status_code == 404
        text = page.content.decode()
        assert "matches the given query" not in text
        assert words in text

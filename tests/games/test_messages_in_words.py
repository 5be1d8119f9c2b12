"""Every message a game gives a person reads as words, in Italian and in English: no Python
list or dict, no field path, no rule id inside the sentence, no seat counted from 0, no card
or side by its code, and the Italian differs from the English.

Three nets: every rule of every rule book; every violation the engines give on played games
(every seat trying actions seen at the table) and on summaries with each figure changed
(negative, too high, a seat repeated, written scores that are not the rules'); and the
sentences as the sources write them, for the branches no play reaches.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games.core import RandomBot, registry
from games.core.errors import EngineError

GAMES = registry.available()
ROOT = Path(__file__).resolve().parents[2] / "games"

#: What gives a Python value, an id or an internal away in a sentence.
PYTHON = re.compile(r"[\[\]{}]|\b(None|True|False)\b(?![ :]+\w)|'[a-z_]+'")
DOTTED = re.compile(r"\b[a-z]+\.[a-z_0-9]+(\.[a-z_0-9]+)+\b")
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")
SEAT_ZERO = re.compile(r"\b(posto|seat|giocatore|player)\s+0\b", re.IGNORECASE)


def faults(it: str, en: str) -> list[str]:
    """What keeps a message (its Italian and its English) from reading as words."""
    found = []
    for lang, text in (("it", it), ("en", en)):
        if not text.strip():
            found.append(f"{lang}: empty")
        for name, pattern in (
            ("a Python value", PYTHON),
            ("a dotted id", DOTTED),
            ("an identifier", SNAKE),
            ("a seat counted from 0", SEAT_ZERO),
        ):
            hit = pattern.search(text)
            if hit:
                found.append(f"{lang}: {name} ({hit.group(0)!r}) in {text!r}")
    if it.strip() == en.strip():
        found.append(f"untranslated: {it!r}")
    return found


def test_the_check_catches_what_club_members_reported():
    assert faults("pair ripete il posto 0.", "pair repeats seat 0.")
    assert faults("Scritto [99, 1], dovuto [2, 1].", "Written [99, 1], due [2, 1].")
    assert faults("points[0][0] vale -4.", "points[0][0] is -4.")
    assert faults("Sbagliato sanmarco.entry.range", "Wrong sanmarco.entry.range")
    assert faults("san_marco non è di tramontana.", "san_marco is not of tramontana.")
    assert faults("Posto 1: scritto 3.", "Posto 1: scritto 3.")
    assert not faults("Posto 1: scritto 99, dovuto 2.", "Seat 1: written 99, due 2.")


@pytest.mark.parametrize("slug", GAMES)
def test_every_rule_of_the_book_reads_as_words_in_both_languages(slug):
    bad = {}
    for rule_id, rule in registry.get(slug).rules.items():
        found = faults(rule.text.it, rule.text.en)
        if found:
            bad[rule_id] = found
    assert not bad, bad


def _changed(summary: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Each figure of a summary changed in the ways a scorekeeper gets it wrong."""
    if isinstance(summary, dict):
        for key, value in summary.items():
            yield from _changed(value, (*path, key))
    elif isinstance(summary, list):
        if summary and all(type(x) is int for x in summary):
            yield path, [summary[0]] * len(summary)  # a seat or a figure repeated
            yield path, [x + 7 for x in summary]
        for i, value in enumerate(summary):
            yield from _changed(value, (*path, i))
    elif type(summary) is int:
        for value in (-4, -1, 0, 1, 3, 5, 99, 1000, summary + 1):
            yield path, value


def _with(summary: Any, path: tuple[Any, ...], value: Any) -> Any:
    out = copy.deepcopy(summary)
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return out


def _messages(slug: str, seeds: range) -> dict[tuple[str, str, str], None]:
    game = registry.get(slug)
    said: dict[tuple[str, str, str], None] = {}

    def keep(violations: Any) -> None:
        for v in violations:
            said[(v.rule, v.message["it"], v.message["en"])] = None

    for name in game.rulesets:
        ruleset = game.ruleset(name)
        for seed in seeds:
            state = game.new_game(ruleset, seed)
            bots = [RandomBot(seed * 7 + i) for i in range(ruleset.seats)]
            seen: list[Any] = []
            for step in range(game.info.max_actions):
                due = state.to_act()
                if due is None:
                    break
                seen = (list(state.legal_actions(due)) + seen)[:40]
                if step % 4 == 0:
                    for seat in range(ruleset.seats):
                        for action in seen[:15]:
                            with contextlib.suppress(EngineError):
                                keep(state.check(seat, action))
                state.apply_unchecked(due, bots[due].choose(state, due))
            record = json.loads(json.dumps(state.to_record()))
            wrong = [s + 3 for s in state.outcome().scores]
            keep(game.validate({**record, "claimed_scores": wrong}).violations)
            try:
                summary = json.loads(json.dumps(state.summary()))
            except NotImplementedError:
                continue
            summaries = [{**summary, "claimed_scores": wrong}]
            summaries += [_with(summary, p, v) for p, v in _changed(summary)]
            for one in summaries:
                # one that cannot be read gets the API's field errors, not a rule's words
                with contextlib.suppress(EngineError):
                    keep(game.score(one, name).violations)
    return said


@pytest.mark.parametrize("slug", GAMES)
def test_every_violation_a_game_gives_reads_as_words(slug):
    said = _messages(slug, range(2))
    assert len(said) > 10, "the net must catch messages to check"
    bad = {}
    for rule, it, en in said:
        found = faults(it, en)
        if found:
            bad.setdefault(rule, found)
    assert not bad, bad


#: What, put into a sentence, prints an internal: a card's or a side's code, a list, a
#: phase's or a class's name, a field path.
INTERNAL = re.compile(
    r"^(\w+\.)?(CODES|SIDES|MAGISTRATURE)\[[^]]*\]$|^(\w+\.)?codes\(|^type\(.*\)\.__name__$"
    r"|^list\(|^sorted\(|\.value$|\bpath\b|^self\.phase$"
)


def _sentences() -> Iterator[tuple[str, str, list[ast.expr]]]:
    """The sentences of every rule broken and every Text in the games' sources."""
    for source in sorted(ROOT.rglob("*.py")):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name == "rule_broken":
                args = node.args[2:4]
            elif name == "Text":
                args = node.args[:2]
            else:
                continue
            place = f"{source.relative_to(ROOT.parent)}:{node.lineno}"
            yield place, name, list(args)


def test_the_sources_put_no_python_value_into_a_sentence():
    bad = []
    for place, _line, args in _sentences():
        for arg in args:
            for part in ast.walk(arg):
                if isinstance(part, ast.FormattedValue):
                    expr = ast.unparse(part.value)
                    if part.conversion == ord("r") or INTERNAL.search(expr):
                        bad.append(f"{place}: {{{expr}}}")
                elif isinstance(part, ast.Constant) and isinstance(part.value, str):
                    # a template's {placeholder} (Text.format) is filled in, never shown
                    plain = re.sub(r"\{[a-z_0-9]+\}", "", part.value)
                    if re.search(r"[\[\]{}]", plain):
                        bad.append(f"{place}: {part.value!r}")
    assert not bad, bad


def test_the_sources_write_each_rule_broken_in_both_languages():
    same = []
    for place, call, args in _sentences():
        if (
            call == "rule_broken"
            and len(args) == 2
            and all(isinstance(a, ast.Constant | ast.JoinedStr) for a in args)
        ):
            it, en = (ast.unparse(a) for a in args)
            has_words = re.search(r"[A-Za-z]{3}", re.sub(r"\{[^}]*\}", "", it))
            if it == en and has_words:
                same.append(f"{place}: {it}")
    assert not same, same


def test_the_messages_club_members_reported_now_read_as_words():
    tarocco, sanmarco = registry.get("tarocco"), registry.get("sanmarco")
    pair = tarocco.score({"outcome": "pairs", "dealer": 3, "pair": [0, 0], "card_points": 60})
    assert pair.violations[0].message["it"].endswith("La coppia nomina due volte il posto 1.")
    solo = {"outcome": "solo", "dealer": 3, "declarer": 1, "card_points": 60}
    written = tarocco.score({**solo, "claimed_scores": [99, 15, -5, -5]})
    assert written.violations[0].message["it"].endswith("Posto 1: scritto 99, dovuto -5.")
    assert written.violations[0].message["en"].endswith("Seat 1: written 99, due -5.")
    negative = sanmarco.score({"variant": 3, "points": [[-4, 60], [55, 66]]}, "variant3")
    assert negative.violations[0].message["it"].endswith("Giocatore 1, colore 1: -4.")
    for report in (pair, written, negative):
        for v in report.violations:
            assert not faults(v.message["it"], v.message["en"])

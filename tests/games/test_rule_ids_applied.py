"""Every rule id of a game's rule book appears where its engine applies the rule.

An id written only in the rule book (the ``RuleBook(...)`` that paraphrases it) is a rule
nobody can find in the code: the check reads each registered game's book and looks for every
id in the engine's own sources outside that book. An id counts when it is written there (in a
violation, a constant's use, a fact or a comment beside the code that applies it) or when a
module-level constant bound to it (``RULE_IMPOSSIBLE = "tarocco.record.impossible"``) is used
outside its own definition and its imports. A longer id never stands for a shorter one
(``ergio.battle.tie.figures`` is not ``ergio.battle.tie``).
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest

from games.core import RuleBook, registry


def _engine_sources(game: Any) -> list[Path]:
    """The engine's own modules: its package under games/, or the one module declaring it."""
    module = sys.modules[type(game).__module__]
    path = Path(module.__file__ or "")
    parts = module.__name__.split(".")
    if len(parts) == 3 and parts[0] == "games":
        return sorted(path.parent.glob("*.py"))
    return [path]


def _blank(text: str, spans: Iterable[tuple[int, int, int, int]]) -> str:
    """``text`` with each (line, col, end line, end col) span (AST numbering) made blank."""
    lines = text.splitlines(keepends=True)
    for line, col, end_line, end_col in spans:
        for n in range(line - 1, end_line):
            start = col if n == line - 1 else 0
            stop = end_col if n == end_line - 1 else len(lines[n].rstrip("\n"))
            lines[n] = lines[n][:start] + " " * (stop - start) + lines[n][stop:]
    return "".join(lines)


def _span(node: ast.expr | ast.stmt) -> tuple[int, int, int, int]:
    assert node.end_lineno is not None and node.end_col_offset is not None
    return (node.lineno, node.col_offset, node.end_lineno, node.end_col_offset)


def unapplied_ids(book: Sequence[str], sources: Iterable[Path]) -> list[str]:
    """The ids of ``book`` found nowhere in ``sources`` outside the rule book, in book order."""
    ids = set(book)
    code: list[str] = []
    constants: dict[str, set[str]] = {}  # id -> module-level names bound to it
    for path in sources:
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        hidden = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RuleBook":
                hidden.append(_span(node))  # the book itself
            elif isinstance(node, ast.Import | ast.ImportFrom):
                hidden.append(_span(node))  # importing a constant is not using it
        for node in tree.body:
            if (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Constant)
                and node.value.value in ids
            ):
                constants.setdefault(node.value.value, set()).add(node.targets[0].id)
                hidden.append(_span(node))  # a definition is not a use
        code.append(_blank(text, hidden))
    everywhere = "\n".join(code)

    def named(word: str) -> bool:
        return re.search(rf"(?<![\w.]){re.escape(word)}(?!\w|\.\w)", everywhere) is not None

    return [
        rule_id
        for rule_id in book
        if not named(rule_id) and not any(named(name) for name in constants.get(rule_id, ()))
    ]


@pytest.mark.parametrize("slug", registry.available())
def test_every_rule_id_is_named_where_its_engine_applies_it(slug: str) -> None:
    game = registry.get(slug)
    assert isinstance(game.rules, RuleBook)
    assert unapplied_ids(list(game.rules), _engine_sources(game)) == []


def test_the_registered_test_game_names_its_rule_ids_too(points_game: str) -> None:
    game = registry.get(points_game)
    assert unapplied_ids(list(game.rules), _engine_sources(game)) == []


def test_an_id_only_in_the_book_a_longer_id_or_an_unused_constant_does_not_count(
    tmp_path: Path,
) -> None:
    rules = tmp_path / "rules.py"
    rules.write_text(
        "BOOK = RuleBook('x', {\n"
        "    'x.a': ('a', 'a'),\n"
        "    'x.b': ('b', 'b'),\n"
        "    'x.c': ('c', 'c'),\n"
        "    'x.d': ('d', 'd'),\n"
        "    'x.e': ('e', 'e'),\n"
        "})\n"
        'RULE_C = "x.c"\n'
        'RULE_D = "x.d"\n',
        encoding="utf-8",
    )
    state = tmp_path / "state.py"
    state.write_text(
        "from rules import RULE_C, RULE_D\n"
        "# x.a: applied here.\n"
        "raise_it('x.b.more')\n"
        "rule = RULE_D\n"
        "# ends a sentence: x.e.\n",
        encoding="utf-8",
    )
    assert unapplied_ids(["x.a", "x.b", "x.c", "x.d", "x.e"], [rules, state]) == ["x.b", "x.c"]

"""games/ never imports Django: the engines run alone, in the CLI and the benchmarks."""

import ast
import re
from pathlib import Path

from games.core import registry

GAMES_DIR = Path(__file__).resolve().parents[2] / "games"


def test_no_module_in_games_imports_django() -> None:
    offenders = []
    for path in GAMES_DIR.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            if any(n == "django" or n.startswith("django.") for n in names):
                offenders.append(str(path.relative_to(GAMES_DIR)))
    assert offenders == []


LEDGER_DIR = GAMES_DIR.parent / "ledger"
PARTICULAR = registry.installed()


def test_no_module_in_the_ledger_imports_a_particular_game() -> None:
    # The ledger reads what every game declares through games.core (the registry, the
    # Outcome, the declared choices), never a game's own modules.
    offenders = []
    for path in LEDGER_DIR.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
                if node.module == "games":
                    names += [f"games.{a.name}" for a in node.names]
            for name in names:
                parts = name.split(".")
                if parts[0] == "games" and len(parts) > 1 and parts[1] in PARTICULAR:
                    offenders.append(f"{path.relative_to(LEDGER_DIR)}: {name}")
    assert offenders == []


TEMPLATES_DIR = GAMES_DIR.parent / "templates"
#: Where a game may be named by its slug: the migrations (history) and the demo club's seed.
NAMED_ON_PURPOSE = ("migrations", "seed_demo.py", "fixtures")


def _names_a_slug(text: str) -> list[str]:
    return [slug for slug in PARTICULAR if re.search(rf"\b{slug}\b", text)]


def test_no_game_is_named_by_its_slug_in_the_ledger_or_its_templates() -> None:
    # Everything the ledger or a page needs of a game is declared by the game and read
    # through the registry: a game's slug in the ledger's code is knowledge kept in the
    # wrong place (the standings' defaults, a rule id, a branch of a template).
    offenders = []
    for path in LEDGER_DIR.rglob("*.py"):
        if any(part in NAMED_ON_PURPOSE for part in path.parts):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                for slug in _names_a_slug(node.value):
                    offenders.append(f"{path.relative_to(LEDGER_DIR)}:{node.lineno}: {slug}")
    for path in TEMPLATES_DIR.rglob("*.html"):
        for slug in _names_a_slug(path.read_text(encoding="utf-8")):
            offenders.append(f"templates/{path.relative_to(TEMPLATES_DIR)}: {slug}")
    assert offenders == []


TESTS_DIR = GAMES_DIR.parent / "tests"


def test_no_test_hides_an_engine() -> None:
    # Tests run the house production runs: every engine stays registered. A test that needs
    # free per-seat points plays Punti (tests/points_game.py), registered beside the five.
    offenders = []
    for path in TESTS_DIR.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            if node.func.attr not in ("setattr", "delattr", "setitem", "delitem"):
                continue
            target = node.args[0] if node.args else None
            named = ast.unparse(target) if target is not None else ""
            if "registry" in named or "_load" in named or "SLUGS" in named:
                offenders.append(f"{path.relative_to(TESTS_DIR)}:{node.lineno}")
    assert offenders == []

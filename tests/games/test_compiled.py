"""The engine modules compiled with mypyc (games/compiled.py): in use, built from the sources
beside them, and ``ENGINES_PURE_PYTHON=1`` importing their source instead."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys

import pytest

from games.compiled import MODULES, ROOT, built_from, is_compiled, module_name, source_hash

PURE = os.environ.get("ENGINES_PURE_PYTHON") == "1"


@pytest.mark.skipif(PURE, reason="this pass runs the engines from source")
def test_the_compiled_modules_are_in_use_and_built_from_the_sources_here() -> None:
    assert built_from() == source_hash(), (
        "the compiled engine modules are missing or older than games/: run `make install`"
    )
    for source in MODULES:
        module = importlib.import_module(module_name(source))
        assert is_compiled(module), f"{source} runs from source: run `make install`"


def test_engines_pure_python_imports_every_module_from_its_source() -> None:
    names = [module_name(m) for m in MODULES]
    code = (
        "import importlib, sys; from games.compiled import is_compiled; "
        f"mods = [importlib.import_module(n) for n in {names!r}]; "
        "print(*[f'{m.__file__} {is_compiled(m)}' for m in mods], sep='\\n')"
    )
    env = {**os.environ, "ENGINES_PURE_PYTHON": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    lines = done.stdout.split("\n")[: len(names)]
    assert lines == [f"{ROOT / m} False" for m in MODULES]

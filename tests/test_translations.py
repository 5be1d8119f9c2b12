"""Italian is the default language: every message the product shows has its translation."""

from __future__ import annotations

import gettext
import json
import re
from pathlib import Path

PO = Path(__file__).resolve().parent.parent / "locale" / "it" / "LC_MESSAGES" / "django.po"


def _entries() -> list[str]:
    return [block for block in PO.read_text(encoding="utf-8").split("\n\n") if "msgid" in block]


def test_every_message_has_an_italian_translation() -> None:
    missing = []
    for block in _entries()[1:]:  # the first is the catalogue's header
        if block.lstrip().startswith("#~"):
            continue
        msgid = re.search(r'^msgid "(.*)"', block, re.M)
        empty = re.search(r'^msgstr(\[\d\])? ""\Z', block.strip(), re.M) or re.search(
            r'^msgstr(\[\d\])? ""\n(?!")', block + "\n", re.M
        )
        if msgid and empty:
            missing.append(block.split("msgid", 1)[1][:80])
    assert not missing, f"{len(missing)} messages have no Italian: {missing[:5]}"


def test_no_translation_is_a_guess_left_fuzzy() -> None:
    fuzzy = [b for b in _entries()[1:] if "#, fuzzy" in b]
    assert not fuzzy, fuzzy[:3]


def _joined(block: str, key: str) -> str | None:
    lines = block.split("\n")
    for i, line in enumerate(lines):
        if line.startswith(key + " "):
            parts = [line[len(key) + 1 :]]
            for more in lines[i + 1 :]:
                if not more.startswith('"'):
                    break
                parts.append(more)
            return "".join(json.loads(part) for part in parts)
    return None


def test_the_compiled_catalogue_matches_its_source() -> None:
    with PO.with_suffix(".mo").open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    stale = []
    for block in _entries()[1:]:
        if "msgctxt" in block or "msgid_plural" in block or block.lstrip().startswith("#~"):
            continue
        msgid, msgstr = _joined(block, "msgid"), _joined(block, "msgstr")
        if msgid and msgstr and compiled.gettext(msgid) != msgstr:
            stale.append(msgid)
    assert not stale, f"run `make messages`: {stale[:5]}"

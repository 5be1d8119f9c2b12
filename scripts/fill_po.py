"""Fill msgstr entries of a .po file from a JSON dictionary (msgid -> translation).

Used when strings are added (the Italian of every message lives in locale/it/translations.json):
`python scripts/fill_po.py locale/it/LC_MESSAGES/django.po
locale/it/translations.json`. Entries already translated are left alone unless --force;
fuzzy ones (makemessages' guesses) are always replaced.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path


def unquote(lines: list[str]) -> str:
    return "".join(json.loads(line) for line in lines)


def quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def fill(po: Path, table: dict[str, object], force: bool = False) -> list[str]:
    blocks = po.read_text(encoding="utf-8").split("\n\n")
    missing = []
    out = []
    for block in blocks:
        lines = block.split("\n")
        try:
            start = next(i for i, ln in enumerate(lines) if ln.startswith("msgid "))
        except StopIteration:
            out.append(block)
            continue
        end = start + 1
        while end < len(lines) and lines[end].startswith('"'):
            end += 1
        msgid = unquote([lines[start][6:], *lines[start + 1 : end]])
        if not msgid:
            out.append(block)
            continue
        rest = lines[end:]
        plural = bool(rest and rest[0].startswith("msgid_plural"))
        translation = table.get(msgid)
        if translation is None:
            missing.append(msgid)
            out.append(block)
            continue
        # A fuzzy entry holds makemessages' guess from a similar string: never keep it.
        fuzzy = any(ln.startswith("#,") and "fuzzy" in ln for ln in lines[:start])
        head = [re.sub(r"^#, fuzzy, ", "#, ", ln) for ln in lines[:start]]
        head = [ln for ln in head if ln != "#, fuzzy" and not ln.startswith("#| ")]
        body = lines[start:end]
        if plural:
            forms = translation if isinstance(translation, list) else [translation, translation]
            # msgid_plural may run over several lines, as msgid does.
            stop = 1
            while stop < len(rest) and rest[stop].startswith('"'):
                stop += 1
            body += rest[:stop] + [f"msgstr[{i}] {quote(f)}" for i, f in enumerate(forms)]
        else:
            body += [f"msgstr {quote(str(translation))}"]
        if (
            not force
            and not fuzzy
            and any(ln.startswith("msgstr") and ln not in ('msgstr ""',) for ln in rest)
            and not plural
        ):
            out.append(block)
            continue
        out.append("\n".join(head + body))
    po.write_text("\n\n".join(out), encoding="utf-8")
    return missing


if __name__ == "__main__":
    force = "--force" in sys.argv
    args = [a for a in sys.argv[1:] if a != "--force"]
    table = json.loads(Path(args[1]).read_text(encoding="utf-8"))
    missing = fill(Path(args[0]), table, force)
    for m in missing:
        print("untranslated:", m)
    sys.exit(1 if missing else 0)

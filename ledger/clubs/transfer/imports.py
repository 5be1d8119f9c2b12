"""Bulk import of results (docs/imports.md).

Every row is checked by the game's engine exactly as a result typed on the page. Rows are
imported in batches, one transaction per batch, each row inside its own savepoint: a bad row
is rolled back whole and reported with its line number and reason; the good rows of the
batch are committed together. A row with an idempotency key that was already imported is a
replay, not a duplicate, so re-running an import file is safe.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.core import registry
from ledger.clubs import jobs
from ledger.clubs.errors import Invalid, LedgerError
from ledger.clubs.games import engine_available
from ledger.clubs.models import Club, Competition, ImportJob, Player, Result, Role, Table
from ledger.clubs.office.roles import require_role
from ledger.clubs.results import services
from ledger.clubs.transfer import sheets
from ledger.clubs.transfer.columns import CSV_COLUMNS, summary_field, summary_of

BATCH = 200
MAX_BYTES = 20 * 1024 * 1024
MAX_ROW_CHARS = 20_000


@dataclass
class Row:
    line: int
    data: dict[str, Any]


def parse(content: str, fmt: str) -> Iterator[Row | tuple[int, str]]:
    """Rows of the file, or (line, problem) for a line that cannot be read at all."""
    if fmt == "jsonl":
        for number, text in enumerate(content.splitlines(), start=1):
            if not text.strip():
                continue
            if len(text) > MAX_ROW_CHARS:
                yield number, _("The line is longer than %(n)d characters.") % {"n": MAX_ROW_CHARS}
                continue
            try:
                data = json.loads(text)
            except json.JSONDecodeError as exc:
                yield number, _("Not valid JSON: %(e)s") % {"e": exc.msg}
                continue
            if not isinstance(data, dict):
                yield number, _("Each line must be one JSON object.")
                continue
            yield Row(number, data)
        return
    reader = csv.DictReader(io.StringIO(content), delimiter=sheets.separator(content))
    try:
        header = [(name or "").strip() for name in (reader.fieldnames or [])]
    except csv.Error:
        header = []
    if "competition" not in header:
        yield 1, wrong_header(header)
        return
    reader.fieldnames = header
    while True:
        first_line = reader.line_num + 1  # where the next row starts
        try:
            data = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            # A cell beyond the csv module's own limit (or an unreadable line): refuse the
            # line and go on with the next one.
            yield (
                first_line,
                _(
                    "This line cannot be read as CSV (%(e)s); a cell is longer "
                    "than %(n)d characters or badly quoted."
                )
                % {
                    "e": exc,
                    "n": MAX_ROW_CHARS,
                },
            )
            continue
        line = reader.line_num
        if any(len(v or "") > MAX_ROW_CHARS for v in data.values() if isinstance(v, str)):
            yield line, _("A cell is longer than %(n)d characters.") % {"n": MAX_ROW_CHARS}
            continue
        row: dict[str, Any] = {k: v for k, v in data.items() if k and v not in (None, "")}
        try:
            if "record" in row:
                row["record"] = json.loads(row["record"])
            if "scores" in row:
                row["scores"] = [_points(s) for s in row["scores"].split("|")]
            if "players" in row:
                row["players"] = [p.strip() for p in row["players"].split("|")]
        except json.JSONDecodeError as exc:
            yield line, _("The record column is not valid JSON: %(e)s") % {"e": exc.msg}
            continue
        yield Row(line, row)


def wrong_header(header: list[str]) -> str:
    """Why a file's first row is not an import's header, and what it should be."""
    found = ", ".join(h for h in header if h)[:200]
    return _(
        'The first row must name the columns, one of them "competition" (the columns are: '
        "%(c)s); it names %(found)s. Start from a competition's template. %(expected)s"
    ) % {
        "c": ", ".join(CSV_COLUMNS),
        "found": found or _("nothing"),
        "expected": sheets.expected(),
    }


def _points(text: str) -> str:
    """A score as typed in a spreadsheet: 61,0 and 61.0 are 61, 2,5 is 2.5."""
    text = text.strip()
    if _WHOLE.match(text):
        return text.replace(",", ".").split(".")[0]
    if _DECIMAL.match(text):
        return text.replace(",", ".")
    return text


_WHOLE = re.compile(r"^-?\d+[.,]0+$")
_DECIMAL = re.compile(r"^-?\d+,\d+$")


def read(raw: bytes, filename: str, fmt: str | None) -> tuple[str, str, dict[str, Any]]:
    """The file as the text an import reads (CSV or JSONL), its format, and what was
    understood of it: the kind of file, its separator and encoding, its rows and columns."""
    if len(raw) > MAX_BYTES:
        raise Invalid(_("The file is larger than 20 MB; split it."))
    kind = sheets.kind_of(raw)
    if kind is not None:
        book = sheets.read_workbook(raw, kind, settings.LEDGER_IMPORT_MAX_ROWS)
        content = book.csv()
        understood: dict[str, Any] = {"kind": kind, "sheet": book.sheet}
        fmt = kind
    else:
        content, encoding = sheets.decode(raw)
        fmt = (
            fmt or ("jsonl" if filename.lower().endswith((".jsonl", ".ndjson")) else "csv")
        ).lower()
        if fmt in (sheets.XLSX, sheets.ODS):
            raise Invalid(
                _("The file is named like a workbook but holds text. %(expected)s")
                % {"expected": sheets.expected()}
            )
        understood = {"kind": fmt, "encoding": encoding}
        if fmt == "csv":
            understood["separator"] = sheets.separator(content)
    if fmt == "jsonl":
        understood["rows"] = sum(1 for line in content.splitlines() if line.strip())
        return content, fmt, understood
    reader = csv.reader(io.StringIO(content), delimiter=understood.get("separator", ","))
    try:
        header = [h.strip() for h in next(reader, [])]
    except csv.Error:
        header = []
    if "competition" not in header:
        raise Invalid(wrong_header(header))
    rows = 0
    try:
        rows = sum(1 for row in reader if any(c.strip() for c in row))
    except csv.Error:
        rows = content.count("\n")  # the rows will say what is wrong, line by line
    understood["rows"] = rows
    understood["columns"] = [h for h in header if h][:60]
    return content, fmt, understood


class _Importer:
    def __init__(self, job: ImportJob) -> None:
        self.job = job
        self.club: Club = job.club
        self.competitions: dict[str, Competition] = {}
        self.players: dict[str, Player] = {}
        self.tables: dict[tuple[int, str], Table] = {}

    def competition(self, value: Any) -> Competition:
        key = str(value)
        if key not in self.competitions:
            found = Competition.objects.filter(club=self.club, slug=key).first()
            if found is None and key.isdigit():
                found = Competition.objects.filter(club=self.club, pk=int(key)).first()
            if found is None:
                raise Invalid(_("No competition “%(c)s” in this club.") % {"c": key})
            self.competitions[key] = found
        return self.competitions[key]

    def player(self, value: Any) -> Player:
        key = str(value).strip()
        if key not in self.players:
            members = Player.objects.filter(memberships__club=self.club)
            found = (
                members.filter(pk=int(key)).first() if key.isdigit() else None
            ) or members.filter(name__iexact=key).first()
            if found is None:
                raise Invalid(_("No member of this club called “%(p)s”.") % {"p": key})
            self.players[key] = found
        return self.players[key]

    def table(self, competition: Competition, row: dict[str, Any], line: int) -> Table:
        if "players" in row:
            if not isinstance(row["players"], list):
                raise Invalid(_("players is a list of names or ids in seat order."))
            players = [self.player(p) for p in row["players"]]
            label = str(row.get("table") or _("Import, line %(n)d") % {"n": line})
            key = (competition.pk, label + "|" + ",".join(str(p.pk) for p in players))
            if key not in self.tables:
                existing = (
                    Table.objects.filter(competition=competition, label=label)
                    .prefetch_related("seats")
                    .order_by("-pk")
                )
                ids = [p.pk for p in players]
                match = next(
                    (
                        t
                        for t in existing
                        if [s.player_id for s in sorted(t.seats.all(), key=lambda s: s.index)]
                        == ids
                    ),
                    None,
                )
                self.tables[key] = match or services.create_table(
                    user=self.job.user, competition=competition, label=label, players=players
                )
            return self.tables[key]
        if "table" in row and str(row["table"]).isdigit():
            table = Table.objects.filter(competition=competition, pk=int(row["table"])).first()
            if table is not None:
                return table
        raise Invalid(_("Give the players in seat order, or the id of an existing table."))

    def one(self, row: Row) -> bool:
        """Import one row; True when it was new, False for a replay of an earlier import."""
        data = row.data
        if "competition" not in data:
            raise Invalid(_("The competition is missing."))
        competition = self.competition(data["competition"])
        if "void" in data:
            return self.void(competition, data)
        table = self.table(competition, data, row.line)
        cells = {k: v for k, v in data.items() if k not in CSV_COLUMNS}
        if self.job.format != "jsonl" and cells and "record" not in data:
            # Plain columns: the summary written cell by cell (ledger/clubs/transfer/columns.py).
            data = {**data, "record": plain_summary(competition, cells)}
        source = str(data.get("source") or ("summary" if "record" in data else "manual"))
        if source not in ("summary", "full_record", "manual"):
            raise Invalid(
                _("source is summary, full_record or manual, not “%(s)s”.") % {"s": source}
            )
        key = data.get("key")
        body = hashlib.sha256(
            json.dumps(
                {k: data.get(k) for k in ("record", "scores", "source")},
                sort_keys=True,
                default=str,
            ).encode()
        ).hexdigest()
        _result, created = services.record_result(
            user=self.job.user,
            table=table,
            source=source,
            origin="import",
            record=data.get("record"),
            scores=data.get("scores"),
            idempotency_key=f"import-{key}" if key else None,
            fingerprint=body,
        )
        return created

    def void(self, competition: Competition, data: dict[str, Any]) -> bool:
        """A void row: the result it names (its id, in the row's competition) is voided with
        the row's reason, as on the result's page. True when voided now, False when an
        earlier run of the file voided it already."""
        named = str(data["void"]).strip().removeprefix("#")
        found = (
            Result.objects.filter(competition=competition, pk=int(named)).first()
            if named.isdigit()
            else None
        )
        if found is None:
            raise Invalid(
                _("No result #%(n)s in %(c)s to void.") % {"n": named, "c": competition.name}
            )
        if found.status == Result.Status.VOIDED:
            return False
        services.void_result(user=self.job.user, result=found, reason=str(data.get("reason") or ""))
        return True

    def run(self) -> None:
        job = self.job
        rows = list(parse(job.content, job.format))
        job.total = len(rows)
        if len(rows) > settings.LEDGER_IMPORT_MAX_ROWS:
            self.stop(
                _(
                    "The file has %(n)s rows; an import takes at most %(max)s. Nothing was "
                    "imported: split the file into files of at most %(max)s rows and import "
                    "each."
                )
                % {"n": f"{len(rows):,}", "max": f"{settings.LEDGER_IMPORT_MAX_ROWS:,}"},
                [],
            )
            return
        job.status = ImportJob.Status.RUNNING
        job.save(update_fields=["total", "status"])
        deadline = time.monotonic() + settings.LEDGER_IMPORT_MAX_SECONDS
        errors: list[dict[str, Any]] = []
        # The last line of the batches committed so far: a stop keeps them, whole.
        kept: int | None = None
        for start in range(0, len(rows), BATCH):
            batch = rows[start : start + BATCH]
            counts = [0, 0]  # imported, already there
            first_line = _line(batch[0])
            try:
                with transaction.atomic():
                    for item in batch:
                        self.within_budget(item, deadline, errors)
                        self.row(item, errors, counts)
            except _OverBudget as over:
                self.stop(over.reason + " " + self.what_was_kept(kept, first_line), errors)
                return
            kept = _line(batch[-1])
            self.tables.clear()  # tables created in a rolled-back savepoint may be gone
            ImportJob.objects.filter(pk=job.pk).update(
                processed=start + len(batch),
                imported=job.imported + counts[0],
                replayed=job.replayed + counts[1],
                errors=errors[:1000],
            )
            job.refresh_from_db()
        job.status = ImportJob.Status.DONE
        job.finished_at = timezone.now()
        job.save(update_fields=["status", "finished_at"])

    def within_budget(
        self, item: Row | tuple[int, str], deadline: float, errors: list[dict[str, Any]]
    ) -> None:
        """Raise _OverBudget when the job has run out of time or refused too many rows: a
        file of junk costs a worker its budget at most, never an hour."""
        line = _line(item)
        if time.monotonic() > deadline:
            raise _OverBudget(
                _(
                    "The import stopped at line %(line)d: it had taken %(s)d seconds, the "
                    "time an import may take."
                )
                % {"line": line, "s": settings.LEDGER_IMPORT_MAX_SECONDS}
            )
        if len(errors) > settings.LEDGER_IMPORT_MAX_REFUSED:
            raise _OverBudget(
                _(
                    "The import stopped at line %(line)d: more than %(max)d rows were "
                    "refused, so this does not look like a file of results (check that it "
                    "is the right file, and fix the rows listed)."
                )
                % {"line": line, "max": settings.LEDGER_IMPORT_MAX_REFUSED}
            )

    @staticmethod
    def what_was_kept(kept: int | None, first_line: int) -> str:
        if kept is None:
            return _("Nothing was imported: import the file again once it is fixed or split.")
        return _(
            "The rows up to line %(kept)d were imported, each whole, and nothing after it: "
            "import the rest, from line %(next)d, as a file of its own (split it if it is "
            "long)."
        ) % {"kept": kept, "next": first_line}

    def stop(self, message: str, errors: list[dict[str, Any]]) -> None:
        job = self.job
        job.status = ImportJob.Status.FAILED
        job.finished_at = timezone.now()
        job.errors = [{"line": 0, "message": message, "stopped": True}, *errors[:1000]]
        job.save(update_fields=["total", "status", "finished_at", "errors"])

    def row(
        self, item: Row | tuple[int, str], errors: list[dict[str, Any]], counts: list[int]
    ) -> None:
        """One row in its own savepoint: counts[0] += 1 when imported, counts[1] when it
        was there already; a refused row goes to ``errors``."""
        if isinstance(item, tuple):
            errors.append({"line": item[0], "message": item[1]})
            return
        try:
            with transaction.atomic():
                counts[0 if self.one(item) else 1] += 1
        except LedgerError as exc:
            entry: dict[str, Any] = {"line": item.line, "message": exc.message}
            if exc.violations:
                entry["rules"] = [v.get("rule") for v in exc.violations]
                # In words; the rule ids follow as a small reference.
                first = f"{entry['rules'][0]}: "
                entry["message"] = exc.message.removeprefix(first)
            errors.append(entry)
        except (TypeError, ValueError, KeyError) as exc:
            errors.append({"line": item.line, "message": str(exc)})


class _OverBudget(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _line(item: Row | tuple[int, str]) -> int:
    return item[0] if isinstance(item, tuple) else item.line


def plain_summary(competition: Competition, cells: dict[str, Any]) -> dict[str, Any]:
    if not engine_available(competition.game):
        raise Invalid(_("This game takes its points in the scores column."))
    shapes = registry.get(competition.game).summary_examples
    return summary_of({summary_field(k): str(v) for k, v in cells.items()}, shapes)


def create_job(
    *,
    user: Any,
    club: Club,
    filename: str,
    raw: bytes,
    fmt: str | None,
    language: str | None = None,
    preview: bool = False,
) -> ImportJob:
    """The job for a file, queued; with ``preview``, waiting for the scorekeeper to confirm
    what was understood of it (the import page) before it is queued."""
    require_role(user, club, Role.SCOREKEEPER)
    if fmt and fmt.lower() not in ("csv", "jsonl", sheets.XLSX, sheets.ODS):
        raise Invalid(
            _("The format is csv, jsonl, xlsx or ods."),
            fields={"format": [_("csv, jsonl, xlsx or ods")]},
        )
    cap = settings.LEDGER_IMPORT_MAX_BYTES
    if len(raw) > cap:
        raise Invalid(
            _("The file is too large: %(size)s bytes, at most %(cap)s. Split it into smaller ones.")
            % {"size": f"{len(raw):,}", "cap": f"{cap:,}"},
            fields={"file": [_("Too large.")]},
        )
    content, fmt, understood = read(raw, filename, fmt)
    return ImportJob.objects.create(
        club=club,
        user=user,
        filename=filename[:200],
        format=fmt,
        content=content,
        understood=understood,
        status=ImportJob.Status.PREVIEW if preview else ImportJob.Status.QUEUED,
        language=(language or get_language() or "it")[:8],
    )


def confirm_job(*, user: Any, job: ImportJob) -> bool:
    """Queue a job that waits for its scorekeeper to confirm what was understood of its file
    (the import page's button, the API's ``confirm``). Only a job still waiting moves on, so a
    second confirmation queues nothing twice: True when this one queued it."""
    require_role(user, job.club, Role.SCOREKEEPER)
    with transaction.atomic():
        queued = ImportJob.objects.filter(pk=job.pk, status=ImportJob.Status.PREVIEW).update(
            status=ImportJob.Status.QUEUED
        )
        if queued:
            transaction.on_commit(lambda: jobs.delay(jobs.RUN_IMPORT, job.pk))
    return bool(queued)


def discard_job(*, user: Any, job: ImportJob) -> bool:
    """Put aside a job still waiting for confirmation: nothing of its file is imported. True
    when it was waiting (and is now gone)."""
    require_role(user, job.club, Role.SCOREKEEPER)
    deleted, _kinds = ImportJob.objects.filter(pk=job.pk, status=ImportJob.Status.PREVIEW).delete()
    return bool(deleted)


def run_job(job_id: int) -> ImportJob:
    job = ImportJob.objects.select_related("club", "user").get(pk=job_id)
    try:
        with translation.override(job.language):
            _Importer(job).run()
    except Exception as exc:
        ImportJob.objects.filter(pk=job.pk).update(
            status=ImportJob.Status.FAILED,
            finished_at=timezone.now(),
            errors=[*job.errors, {"line": 0, "message": f"{type(exc).__name__}: {exc}"}],
        )
        raise
    job.refresh_from_db()
    return job

"""Signed checkpoints of each club's journal, and proving the journal extends them.

A checkpoint is (club, journal length, journal head, moment), signed with the service's
Ed25519 key (clubs/storage/signing.py). They are signed once a club's journal has grown by
``LEDGER_CHECKPOINT_EVERY`` lines, when a round ends (the next round's draw is published),
and by the periodic job; they are published on the standings pages, in every webhook and
in the club's feed (``/c/<club>/checkpoints.json``; the feed and what a webhook carries
are read in ledger/clubs/journal/selectors.py). Copies kept outside the database are
what make them worth having: ``manage.py verify_ledger --checkpoints FILE|URL`` proves that
today's journal still extends every one of them.

The signer never blesses a forgery: before signing, it checks the lines written since the
club's previous checkpoint (their chain and their seals) and signs nothing when they fail.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any, NamedTuple, Protocol

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from ledger.clubs import jobs
from ledger.clubs.journal.selectors import as_json, earlier_keys, latest
from ledger.clubs.models import Checkpoint, Club, Entry, Round, line_hash
from ledger.clubs.storage import signing

log = logging.getLogger(__name__)


class _Sealed(Protocol):
    """A journal line as read for a check (an Entry or a row read without one): read only."""

    @property
    def club_id(self) -> int: ...
    @property
    def competition_id(self) -> int: ...
    @property
    def sequence(self) -> int: ...
    @property
    def result_id(self) -> int | None: ...
    @property
    def penalty_id(self) -> int | None: ...
    @property
    def table_id(self) -> int | None: ...
    @property
    def seat(self) -> int: ...
    @property
    def player_id(self) -> int: ...
    @property
    def points(self) -> Decimal: ...
    @property
    def kind(self) -> str: ...
    @property
    def seal(self) -> str: ...
    @property
    def origin(self) -> str: ...
    @property
    def seal_version(self) -> int: ...
    @property
    def prev_hash(self) -> str: ...


class _Write:
    """The write whose lines are being read: its number, where it started, its length and
    how many of its lines were read."""

    __slots__ = ("count", "found", "number", "start")

    def __init__(self, number: str, start: int, count: int) -> None:
        self.number, self.start, self.count, self.found = number, start, count, 1


def line_problems(club: Club, entries: Iterable[_Sealed], sealed_before: bool = False) -> list[str]:
    """What is wrong with these journal lines (in journal order) on their own: a missing or
    wrong seal (a line's seal binds its place: a line copied or moved here has one that
    does not hold), and lines that are not where their identities say (a write's lines
    follow each other, in order, all of them). Lines from before seals existed (an unsealed
    beginning of a journal, when ``sealed_before`` is false) pass; an unsealed line after a
    sealed one does not, nor a line without an identity after one with, nor a line sealed
    without its place after one sealed with it (copies of older lines). Repeats of an
    identity elsewhere in the journal: ``repeated_lines``."""
    problems = []
    identified = placed = False
    open_write: _Write | None = None

    def short(write: _Write) -> None:
        problems.append(
            _(
                "%(club)s#%(n)d: the write that starts at this line had %(count)d lines; "
                "%(found)d of them are here (lines were removed or moved)"
            )
            % {"club": club.slug, "n": write.start, "count": write.count, "found": write.found}
        )

    for entry in entries:
        if not entry.seal and not sealed_before:
            continue
        sealed_before = True
        n = entry.sequence
        if not entry.seal:
            problems.append(
                _("%(club)s#%(n)d: this line was not written by the service (it has no seal)")
                % {"club": club.slug, "n": n}
            )
            continue
        if not signing.line_seal_holds(entry):
            placed = placed or entry.seal_version >= 3
            if entry.seal_version >= 3:
                problems.append(
                    _(
                        "%(club)s#%(n)d: this line's seal is not the service's for this "
                        "place (the line was copied or moved here, or changed)"
                    )
                    % {"club": club.slug, "n": n}
                )
            else:
                problems.append(
                    _("%(club)s#%(n)d: this line's seal is not the service's (forged or changed)")
                    % {"club": club.slug, "n": n}
                )
            continue
        if entry.seal_version >= 3:
            placed = True
        elif placed:
            problems.append(
                _(
                    "%(club)s#%(n)d: this line's seal does not bind its place, after lines "
                    "whose seals do (a copy of an older line)"
                )
                % {"club": club.slug, "n": n}
            )
            continue
        origin = signing.read_origin(entry.origin) if entry.origin else None
        if origin is None:
            if identified:
                problems.append(
                    _(
                        "%(club)s#%(n)d: this line has no identity after lines that have one "
                        "(a copy of an older line)"
                    )
                    % {"club": club.slug, "n": n}
                )
            continue
        identified = True
        write, place, count = origin
        if open_write is not None and write == open_write.number and place == open_write.found:
            open_write.found += 1
        else:
            if open_write is not None:
                short(open_write)
                open_write = None
            if place != 0:
                problems.append(
                    _(
                        "%(club)s#%(n)d: this line is out of its place (it is line %(place)d "
                        "of a write that does not lead to it)"
                    )
                    % {"club": club.slug, "n": n, "place": place + 1}
                )
                continue
            open_write = _Write(write, n, count)
        if open_write.found >= open_write.count:
            open_write = None
    if open_write is not None:
        short(open_write)
    return problems


def repeated_lines(club: Club, origins: Sequence[str] | None = None) -> list[str]:
    """Lines whose identity an earlier line of the club already has: copies (a replay).
    With ``origins``, only repeats of those (the lines a checkpoint is about to sign)."""
    lines = Entry.objects.filter(club=club).exclude(origin="")
    if origins is not None:
        lines = lines.filter(origin__in=origins)
    repeated = (
        lines.values("origin").annotate(times=Count("id")).filter(times__gt=1).values("origin")
    )
    seen: dict[str, int] = {}
    problems = []
    for origin, n in (
        Entry.objects.filter(club=club, origin__in=repeated)
        .order_by("sequence")
        .values_list("origin", "sequence")
    ):
        if origin in seen:
            problems.append(
                _("%(club)s#%(n)d: this line repeats line #%(first)d (the same line written twice)")
                % {"club": club.slug, "n": n, "first": seen[origin]}
            )
        else:
            seen[origin] = n
    return problems


class _Line(NamedTuple):
    """One journal line as read for a check: the columns its hash and seal cover, without
    building a model object per line (a checkpoint reads hundreds of them)."""

    club_id: int
    competition_id: int
    sequence: int
    result_id: int | None
    penalty_id: int | None
    table_id: int | None
    seat: int
    player_id: int
    points: Decimal
    kind: str
    prev_hash: str
    hash: str
    seal: str
    origin: str
    seal_version: int

    def compute_hash(self) -> str:
        return line_hash(self)


def _lines(club: Club, start: int, length: int) -> list[_Line]:
    rows = (
        Entry.objects.filter(club=club, sequence__gt=start, sequence__lte=length)
        .order_by("sequence")
        .values_list(*_Line._fields)
    )
    return [_Line(*row) for row in rows]


def _segment_problems(club: Club, since: Checkpoint | None, length: int, head: str) -> list[str]:
    """Whether the journal from the last checkpoint up to (length, head) is sound: it
    starts at the checkpoint's head, each link holds, each line is sealed."""
    start = since.length if since else 0
    expected_prev = since.head if since else ""
    problems = []
    lines = _lines(club, start, length)
    n = start
    for entry in lines:
        n += 1
        if entry.sequence != n or entry.prev_hash != expected_prev:
            problems.append(
                _("%(club)s#%(n)d: the chain is broken before this entry")
                % {"club": club.slug, "n": entry.sequence}
            )
            break
        if entry.compute_hash() != entry.hash:
            problems.append(
                _("%(club)s#%(n)d: altered after it was written")
                % {"club": club.slug, "n": entry.sequence}
            )
        expected_prev = entry.hash
    if n != length or expected_prev != head:
        problems.append(
            _("%(club)s: the journal's end does not match its recorded head") % {"club": club.slug}
        )
    if since is not None:
        at = Entry.objects.filter(club=club, sequence=since.length).values_list("hash", flat=True)
        if list(at) != [since.head]:
            problems.append(
                _("%(club)s: the journal no longer extends the checkpoint at line %(n)d")
                % {"club": club.slug, "n": since.length}
            )
    earlier = Entry.objects.filter(club=club, sequence__lte=start).exclude(seal="")
    problems.extend(line_problems(club, lines, earlier.exists()))
    problems.extend(_copies(club, lines))
    return problems


def _copies(club: Club, lines: Sequence[_Line]) -> list[str]:
    """Lines among these that repeat a line of the club, here or before. A copy names the
    result (or penalty), seat and kind of its original (the seal binds them), so the
    search reads the journal through the result's and the penalty's indexes."""
    origins = [line.origin for line in lines if line.origin]
    if not origins:
        return []
    if len(set(origins)) < len(origins):
        return repeated_lines(club, origins)
    results = {line.result_id for line in lines if line.result_id is not None}
    fines = {line.penalty_id for line in lines if line.penalty_id is not None}
    elsewhere = Entry.objects.filter(
        Q(result_id__in=results) | Q(penalty_id__in=fines), club=club, origin__in=origins
    ).exclude(sequence__gt=lines[0].sequence - 1, sequence__lte=lines[-1].sequence)
    return repeated_lines(club, origins) if elsewhere.exists() else []


def sign(
    club_id: int, reason: str = Checkpoint.Reason.INTERVAL, round_id: int | None = None
) -> Checkpoint | None:
    """Sign the club's journal as it stands now. Returns the checkpoint (an existing one
    when the journal has not grown since), or None when the journal is empty or fails its
    checks since the last checkpoint (then an error is logged and nothing is signed)."""
    club = Club.objects.get(pk=club_id)
    # One row read: the length and head are committed together.
    length, head = club.journal_length, club.journal_head
    if length == 0:
        return None
    existing = Checkpoint.objects.filter(club_id=club_id, length=length).first()
    if existing is not None:
        return existing
    previous = Checkpoint.objects.filter(club_id=club_id, length__lt=length).order_by("-length")
    problems = _segment_problems(club, previous.first(), length, head)
    if problems:
        log.error(
            "Not signing a checkpoint of %s: the journal fails its checks: %s",
            club.slug,
            "; ".join(problems),
        )
        return None
    at = timezone.now()
    checkpoint = Checkpoint(
        club_id=club_id,
        length=length,
        head=head,
        signed_at=at,
        reason=reason,
        round_id=round_id,
        key_id=signing.key_id(),
    )
    checkpoint.signature = signing.sign(checkpoint.message())
    try:
        with transaction.atomic():
            checkpoint.save()
    except IntegrityError:
        # Another process signed the same length at the same moment.
        return Checkpoint.objects.filter(club_id=club_id, length=length).first()
    return checkpoint


def sign_all(reason: str = Checkpoint.Reason.INTERVAL) -> list[Checkpoint]:
    """A checkpoint for every club whose journal grew since its last one."""
    signed = []
    for club_id, length in Club.objects.filter(journal_length__gt=0).values_list(
        "pk", "journal_length"
    ):
        last = latest(club_id)
        if last is not None and last.length >= length:
            continue
        made = sign(club_id, reason)
        if made is not None:
            signed.append(made)
    return signed


# Per process: the journal length each club had when this process last asked for a
# checkpoint, and when. A write adds no query for this: the lines it wrote carry their numbers.
_asked: dict[int, tuple[int, float]] = {}
_asked_lock = threading.Lock()


def written(club_id: int, length: int) -> None:
    """Called after a write commits, with the club's journal length it reached: asks for a
    checkpoint once the journal has grown by LEDGER_CHECKPOINT_EVERY lines, and no sooner
    than LEDGER_CHECKPOINT_MIN_SECONDS after this process last asked for one."""
    every = getattr(settings, "LEDGER_CHECKPOINT_EVERY", 200)
    if every <= 0:
        return
    gap = getattr(settings, "LEDGER_CHECKPOINT_MIN_SECONDS", 10)
    now = time.monotonic()
    with _asked_lock:
        last, when = _asked.setdefault(club_id, (length - length % every, now - gap))
        if length - last < every or now - when < gap:
            return
        _asked[club_id] = (length, now)
    try:
        jobs.enqueue(jobs.SIGN_CHECKPOINT, club_id)
    except Exception:  # a lost broker must not fail a write that committed
        log.exception("could not ask for a checkpoint of club %s", club_id)


def round_ended(round_id: int) -> None:
    """After the commit: a checkpoint for the end of a round (the next one was published)."""

    def ask() -> None:
        club_id = (
            Round.objects.filter(pk=round_id).values_list("competition__club_id", flat=True).first()
        )
        if club_id is not None:
            jobs.enqueue(jobs.SIGN_CHECKPOINT, club_id, Checkpoint.Reason.ROUND, round_id)

    transaction.on_commit(ask)


def vouch(club_id: int, public_hex: str) -> dict[str, str]:
    """An entry of ``Club.earlier_keys``: another installation's public key, which this
    installation vouches for (signs) as one whose checkpoints the club keeps."""
    message = signing.key_voucher_message(club_id, public_hex)
    return {"public_key": public_hex, "voucher": signing.sign(message)}


class Published:
    """A checkpoint read from a feed (a file or an address), not from the database."""

    def __init__(self, club_id: int, slug: str, item: dict[str, Any], public_key: str) -> None:
        self.club_id, self.slug, self.public_key = club_id, slug, public_key
        self.length = int(item["length"])
        self.head = str(item["head"])
        self.signed_at = str(item["signed_at"])
        self.signature = str(item["signature"])

    def message(self) -> bytes:
        return signing.checkpoint_message(self.club_id, self.length, self.head, self.signed_at)


def parse_feeds(document: Any) -> list[Published]:
    """Checkpoints from a feed, a list of feeds, or ``{"clubs": [feeds]}``."""
    feeds: Sequence[Any]
    if isinstance(document, dict) and "clubs" in document:
        feeds = document["clubs"]
    elif isinstance(document, list):
        feeds = document
    else:
        feeds = [document]
    out = []
    for one in feeds:
        if not isinstance(one, dict) or "checkpoints" not in one:
            raise ValueError("not a checkpoint feed: expected an object with 'checkpoints'")
        earlier = {str(k["key_id"]): str(k["public_key"]) for k in one.get("earlier_keys", [])}
        for item in one["checkpoints"]:
            public = earlier.get(str(item.get("key_id", "")), str(one["public_key"]))
            out.append(Published(int(one["club_id"]), str(one.get("club", "")), item, public))
    return out


def check(published: Sequence[Published], trusted_key: str | None = None) -> list[str]:
    """Every way the database's journal fails to extend these checkpoints. ``trusted_key``:
    the public key they must be signed with (default: this service's own)."""
    key = trusted_key or signing.public_key()
    problems = []
    clubs = {c.pk: c for c in Club.objects.filter(pk__in={p.club_id for p in published})}
    # Without a key named, a club brought from elsewhere is checked with the keys it keeps
    # too (those this installation vouched for when the club arrived).
    kept = {} if trusted_key else {pk: set(earlier_keys(c)[0].values()) for pk, c in clubs.items()}
    for p in published:
        name = clubs[p.club_id].slug if p.club_id in clubs else (p.slug or str(p.club_id))
        public = p.public_key or key
        if public != key and public not in kept.get(p.club_id, ()):
            problems.append(
                _("%(club)s: the checkpoint at line %(n)d was signed by another key")
                % {"club": name, "n": p.length}
            )
            continue
        if not signing.verify(p.message(), p.signature, public):
            problems.append(
                _("%(club)s: the checkpoint at line %(n)d has a signature that does not hold")
                % {"club": name, "n": p.length}
            )
            continue
        club = clubs.get(p.club_id)
        if club is None:
            problems.append(
                _("%(club)s: the club of a signed checkpoint is missing") % {"club": name}
            )
            continue
        if club.journal_length < p.length:
            problems.append(
                _(
                    "%(club)s: the journal was cut: a checkpoint signed %(at)s has %(n)d "
                    "lines, the journal has %(m)d"
                )
                % {"club": name, "at": p.signed_at, "n": p.length, "m": club.journal_length}
            )
            continue
        at = list(Entry.objects.filter(club=club, sequence=p.length).values_list("hash", flat=True))
        if at != [p.head]:
            problems.append(
                _(
                    "%(club)s: history was rewritten: line %(n)d is not the one the checkpoint "
                    "signed %(at)s holds"
                )
                % {"club": name, "n": p.length, "at": p.signed_at}
            )
    return problems


def from_database(trusted_key: str | None = None) -> tuple[list[Published], int]:
    """The database's own checkpoints signed with the trusted key, as if read from a feed
    (their signatures still prove them: a row forged in the database has none that holds),
    and how many others there are (a club brought from another installation keeps the
    checkpoints its key signed: they are checked with the key the club keeps from there,
    or with the one named; the others are counted). Leaving
    one out can hide nothing: a checkpoint only adds to what the journal must extend."""
    key = trusted_key or signing.public_key()
    mine = signing.key_id(key)
    clubs = {c.pk: c for c in Club.objects.only("pk", "slug", "earlier_keys")}
    # Without a key named, the keys each club keeps from where it was before count too.
    kept = {} if trusted_key else {pk: earlier_keys(c)[0] for pk, c in clubs.items()}
    out, others = [], 0
    for c in Checkpoint.objects.order_by("club_id", "length"):
        public = key if c.key_id == mine else kept.get(c.club_id, {}).get(c.key_id)
        if public is None:
            others += 1
            continue
        slug = clubs[c.club_id].slug if c.club_id in clubs else ""
        out.append(Published(c.club_id, slug, as_json(c), public))
    return out, others

"""The federation officer's whole flow, in one browser test against the hub (the browser
server, with the demo club): on a phone in Italian the officer founds a federation, approves
the demo club, sets the points ranking's rules, adds a club tier and a regional tier that
refuses a player without a card, imports 50 membership cards from a CSV built here and
sanctions two events; the regional event's enrolment by paste asks "did you mean" for a name
typed without its accent and refuses the card-less player at the field with the reason; the
officer finds the person entered twice among the likely duplicates, reads the merge's preview
and merges them; then, on a laptop in English, both rankings are read and checked against
the values worked out by hand below. Last, a second club that runs on its own installation
(a laptop: another process, its own SQLite file and key, holding the club as the hub's
export gave it) is approved, given an upload token on the federation's page, plays an event
and sends it with `manage.py sync_to_hub` to this server's address; the hub's page shows the
lines synced, the officer sanctions the event and the points ranking counts it.

The people (the demo club's members): L = Lucia Gambacorti, R = Ranieri Sismondi,
N = Niccolò Della Gherardesca, and N' = "Niccolo Della Gherardesca" (no accent), the same
person typed in again at an earlier night; T = Tommaso Roncioni has no card.

Two events of 3D cardChess, one three-player table each:

    E2 "Coppa di circolo" (club tier, weight 1), played first: N' 1st, R 2nd, L 3rd
    E1 "Regionale di cardChess" (regional tier, weight 2), then: L 1st, N 2nd, R 3rd

The officer's rules: the best 1 result of the last 12 months counts; places score 10-6-3.
A result's points are its place's points times its tier's weight:

    E1 x2: L 10x2 = 20, N 6x2 = 12, R 3x2 = 6
    E2 x1: N' 10x1 = 10, R 6x1 = 6, L 3x1 = 3

Before the merge (N and N' two people), best 1 each:
    L max(20, 3) = 20; N 12; N' 10; R max(6, 6) = 6  ->  L 20, N 12, N' 10, R 6
After merging N' into N (one person, both results; best 1):
    L 20; N max(12, 10) = 12; R 6  ->  1. L 20, 2. N 12, 3. R 6 (3 people)
(with best 2 it would be L 23, N 22, R 12: the rule of the best 1 drops L's 3 and N's 10.)

The rating (openskill's Plackett-Luce, in journal order E2 then E1), after the merge:
N finished ahead of R in both games and ahead of L in the first; L ahead of R in the second
only, R ahead of L in the first only, but L's win is the later one and came against N too.
So N wins 3 of their 4 pairings, L 2 of 4, R 1 of 4: the order is N, L, R.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ROOT, log_in, manage, screenshot

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
FEDERATION = "Federazione Toscana dei Giochi"
SLUG = "federazione-toscana-dei-giochi"

# Rows of the hub's own (results are written as a club's scorekeeper writes them, not by
# the officer's flow): the two events, the person typed in twice, and the games played.
PREPARE = """
from games.core import make_bot, play as bots_play, registry
from ledger.clubs.models import Club, Competition, Membership, Player, Result, Role
from ledger.clubs.outcomes import standing_order
from ledger.clubs.results import services
from ledger.clubs.scoring import score_result

club = Club.objects.get(slug="circolo-pisano")
# The demo organiser (the first): a test before this one may have made another.
user = club.memberships.filter(role=Role.ORGANISER).order_by("pk").first().player.user


def play(slug, names):
    comp = Competition.objects.get(club=club, slug=slug)
    order = [Player.objects.get(name=n, memberships__club=club) for n in names]
    seed = 0
    while True:  # a bots' game with three different places
        engine = registry.get("cardchess")
        bots = [make_bot(engine, "heuristic", seed + i) for i in range(3)]
        game = bots_play(engine, engine.new_game(engine.ruleset("3p"), seed), bots)
        source, record, scores = Result.Source.FULL_RECORD, game.to_record(), None
        scored = score_result(game="cardchess", ruleset=comp.ruleset, seats=3, source=source,
                              record=record, explicit=scores)
        ranks = standing_order([f"{s:f}" for s in scored.scores], scored.verdict)
        if len(set(ranks)) == 3:
            break
        seed += 1
    sitting = [None] * 3
    for place, seat in enumerate(sorted(range(3), key=lambda s: -ranks[s])):
        sitting[seat] = order[place]
    table = services.create_table(user=user, competition=comp, label="Tavolo 1", players=sitting)
    services.record_result(user=user, table=table, source=source, record=record, scores=scores)
"""

SETUP = (
    PREPARE
    + """
for name, slug in (("Regionale di cardChess", "regionale-cardchess"),
                   ("Coppa di circolo", "coppa-di-circolo")):
    Competition.objects.create(club=club, name=name, slug=slug, game="cardchess",
                               format=Competition.Format.LEAGUE)
twin = Player.objects.create(name="Niccolo Della Gherardesca")
Membership.objects.create(club=club, player=twin, role=Role.MEMBER)
play("coppa-di-circolo", ["Niccolo Della Gherardesca", "Ranieri Sismondi", "Lucia Gambacorti"])
"""
)

PLAY_E1 = (
    PREPARE
    + """
play("regionale-cardchess",
     ["Lucia Gambacorti", "Niccolò Della Gherardesca", "Ranieri Sismondi"])
"""
)

# The demo club's members with a card (all of them but Tommaso Roncioni), and 37 more people
# of the federation's other clubs: 50 cards.
CARD_HOLDERS = [
    "Lucia Gambacorti",
    "Ranieri Sismondi",
    "Bianca Lanfranchi",
    "Gherardo Upezzinghi",
    "Caterina Gualandi",
    "Bonaccorso Dell'Agnello",
    "Simonetta Orlandi",
    "Pietro Buonconti",
    "Giovanna Vernagalli",
    "Ilaria Casapieri",
    "Federigo Lanfreducci",
    "Marta Agostini Venerosi",
    "Niccolò Della Gherardesca",
]
CARD_HOLDERS += [f"Socio Lucchese {n}" for n in range(1, 38)]


VENUE_KEY = "7b" * 32  # the venue laptop's own signing seed

# At the hub, before anything: Lucca's club, whose organiser is the demo login too (it will
# run its nights on a laptop of its own, holding the club as the hub numbered it).
LUCCA = """
from ledger.clubs.models import Club, Membership, Player, Role
club = Club.objects.create(slug="circolo-lucchese", name="Circolo Lucchese", city="Lucca")
Membership.objects.create(club=club, player=Player.objects.get(name="Lucia Gambacorti"),
                          role=Role.ORGANISER)
"""

# At the venue: Lucca's event and its one table, played by three people of Lucca only.
LUCCA_PLAYS = (
    PREPARE.replace('"circolo-pisano"', '"circolo-lucchese"')
    + """
for n in (1, 2, 3):
    Membership.objects.create(club=club, player=Player.objects.create(name=f"Lucchese {n}"))
Competition.objects.create(club=club, name="Torneo di Lucca", slug="torneo-di-lucca",
                           game="cardchess", format=Competition.Format.LEAGUE)
play("torneo-di-lucca", ["Lucchese 1", "Lucchese 2", "Lucchese 3"])
"""
)


def venue(db: Path, *args: str, token: str = "") -> str:
    """Run a management command at the venue: its own SQLite file and its own key."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{db}",
        "LEDGER_VAR_DIR": str(db.parent),
        "LEDGER_SIGNING_KEY": VENUE_KEY,
        "LEDGER_HUB_TOKEN": token,
    }
    for name in ("LEDGER_SIGNING_KEY_FILE", "CELERY_BROKER_URL", "DJANGO_HTTPS"):
        env.pop(name, None)
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(
        locale="it-IT", viewport=PHONE, is_mobile=True, has_touch=True, service_workers="block"
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


@pytest.fixture
def laptop(browser: Any) -> Iterator[Any]:
    context = browser.new_context(locale="en-GB", viewport=LAPTOP, service_workers="block")
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def _fits(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] + 1, width


def _shot(page: Any, name: str) -> None:
    screenshot(page, f"I-{name}.png", full_page=True)


def _table(page: Any) -> list[tuple[int, str, Decimal]]:
    """The ranking's rows as read on the page: rank, name, value."""
    rows = []
    for row in page.locator("#ranking-rows tbody tr").all():
        rank = int(row.locator("td.rank").inner_text())
        name = row.locator("td").nth(1).locator("a").inner_text()
        value = Decimal(row.locator("td.value").inner_text().replace(",", "."))
        rows.append((rank, name, value))
    return rows


def _table_once_updated(page: Any, wanted: Any, seconds: float = 60) -> list[Any]:
    """The ranking's rows once the workers have brought it up to date: the rankings are
    projections a background job rewrites after a merge, a sanction or an upload (never
    in the request), so the page is read again until it shows ``wanted`` (a list of rows,
    or a test on them), within ``seconds``; the last reading is returned either way."""
    deadline = time.monotonic() + seconds
    while True:
        rows = _table(page)
        done = wanted(rows) if callable(wanted) else rows == wanted
        if done or time.monotonic() > deadline:
            return rows
        page.wait_for_timeout(500)
        page.reload()


def _cards_csv() -> bytes:
    rows = ["Numero;Nome"] + [f"{7001 + i};{name}" for i, name in enumerate(CARD_HOLDERS)]
    return "\ufeff".encode() + "\r\n".join(rows).encode()


def test_an_officer_sets_up_a_federation_and_reads_rankings_worked_out_by_hand(
    phone: Any,
    laptop: Any,
    server: str,
    server_env: dict[str, str],
    migrated_sqlite: Path,
    tmp_path: Path,
) -> None:
    assert len(CARD_HOLDERS) == 50
    manage(server_env, "shell", "-c", SETUP + LUCCA)
    page = phone
    log_in(page, server)

    # --- the federation, its member club, its rules -------------------------------------
    page.click("#nav-federations")
    page.fill("#federation-name", FEDERATION)
    page.fill("#federation-region", "Toscana")
    with page.expect_navigation():
        page.get_by_role("button", name="Fonda").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(FEDERATION)
    page.select_option("#apply-club", label="Circolo dei Giochi Pisani")
    with page.expect_navigation():
        page.click("#apply")
    with page.expect_navigation():
        page.locator("#applications button[value=approve]").first.click()
    expect(page.locator("#member-clubs")).to_contain_text("Circolo dei Giochi Pisani")

    page.locator("#rankings summary").click()
    page.fill("#rules-best", "1")
    page.fill("#rules-months", "12")
    page.fill("#rules-places", "10-6-3")
    with page.expect_navigation():
        page.click("#save-rules")
    expect(page.locator("#ranking-rules")).to_contain_text("1")

    for name, weight, missing in (
        ("Di circolo", "1", "Iscrivilo, con un avviso"),
        ("Regionale", "2", "Rifiuta l'iscrizione"),
    ):
        page.locator("#tiers summary").click()
        page.fill("#tier-name", name)
        page.fill("#tier-weight", weight)
        page.get_by_label(missing).check()
        with page.expect_navigation():
            page.click("#add-tier")
        expect(page.locator("#tiers")).to_contain_text(name)
    _fits(page)

    # --- 50 membership cards -------------------------------------------------------------
    page.locator("#card-seasons summary").click()
    page.fill("#season-name", "Tessere 2026")
    page.fill("#season-starts", "01/01/2026")
    page.fill("#season-ends", "31/12/2026")
    with page.expect_navigation():
        page.click("#add-season")
    with page.expect_navigation():
        page.get_by_role("link", name="Tessere 2026").click()
    page.set_input_files(
        "#cards-file", {"name": "tessere.csv", "mimeType": "text/csv", "buffer": _cards_csv()}
    )
    with page.expect_navigation():
        page.click("#import")
    expect(page.locator("#card-counts")).to_contain_text("50 tessere")
    expect(page.locator("#cards")).to_contain_text("Socio Lucchese 37")
    _fits(page)
    _shot(page, "cards-phone-it")

    # --- two sanctioned events -----------------------------------------------------------
    with page.expect_navigation():
        page.get_by_role("link", name=FEDERATION).click()
    for competition, tier in (
        ("Coppa di circolo", "Di circolo"),
        ("Regionale di cardChess", "Regionale"),
    ):
        page.select_option(
            "#sanction-competition", label=f"Circolo dei Giochi Pisani · {competition}"
        )
        page.select_option("#sanction-tier", label=tier)
        with page.expect_navigation():
            page.click("#sanction")
        expect(page.locator("#sanctioned")).to_contain_text(competition)
    _fits(page)
    _shot(page, "federation-phone-it")

    # --- the regional event's enrolment: did you mean, and the card-less player refused ---
    page.goto(server + "/c/circolo-pisano/regionale-cardchess/enrol/")
    pasted = "Lucia Gambacorti\nRanieri Sismondi\nNicolo della gherardesca\nTommaso Roncioni"
    page.fill("#names", pasted)
    with page.expect_navigation():
        page.click("#enrol-pasted")
    asked = page.locator("#new-names fieldset.did-you-mean")
    # The name typed with one c is nobody's: "did you mean" offers the member.
    expect(asked).to_contain_text("Nicolo della gherardesca")
    expect(asked).to_contain_text("Niccolò Della Gherardesca")
    _shot(page, "did-you-mean-phone-it")
    asked.get_by_label(re.compile("Niccolò Della Gherardesca")).check()
    with page.expect_navigation():
        page.click("#confirm-enrol")
    # Refused at the field, with the reason; what was pasted is kept.
    refusal = page.locator("#names-error")
    expect(refusal).to_contain_text("Tommaso Roncioni non ha una tessera valida di " + FEDERATION)
    expect(refusal).to_contain_text("Regionale")
    expect(page.locator("#names")).to_have_attribute("aria-describedby", "names-error")
    _fits(page)
    _shot(page, "enrol-refused-phone-it")
    expect(page.locator("#entrants")).not_to_contain_text("Tommaso Roncioni")
    expect(page.locator("#names")).to_have_value(re.compile("Tommaso Roncioni"))

    # Tommaso's line taken out, the three others are entered.
    page.fill("#names", pasted.replace("\nTommaso Roncioni", ""))
    with page.expect_navigation():
        page.click("#enrol-pasted")
    asked.get_by_label(re.compile("Niccolò Della Gherardesca")).check()
    with page.expect_navigation():
        page.click("#confirm-enrol")
    entrants = page.locator("#entrants")
    for name in ("Lucia Gambacorti", "Ranieri Sismondi", "Niccolò Della Gherardesca"):
        expect(entrants).to_contain_text(name)
    expect(entrants).not_to_contain_text("Tommaso Roncioni")

    # The regional event is played (its scorekeeper records the table): L, N, R.
    manage(server_env, "shell", "-c", PLAY_E1)

    # --- the points ranking before the merge, on a laptop in English ---------------------
    reader = laptop
    reader.goto(f"{server}/federations/{SLUG}/")
    with reader.expect_navigation():
        reader.click("#rankings-link")
    with reader.expect_navigation():
        reader.click("#points-cardchess")
    # Worked out above: L 20, N 12, N' 10, R 6 (N and N' still two people).
    before = [
        (1, "Lucia Gambacorti", Decimal(20)),
        (2, "Niccolò Della Gherardesca", Decimal(12)),
        (3, "Niccolo Della Gherardesca", Decimal(10)),
        (4, "Ranieri Sismondi", Decimal(6)),
    ]
    assert _table_once_updated(reader, before) == before

    # --- the duplicate merged, with its preview ----------------------------------------
    with page.expect_navigation():
        page.goto(f"{server}/federations/{SLUG}/")
    with page.expect_navigation():
        page.click("#to-people")
    pair = page.locator("#duplicates li.pair").filter(has_text="Niccolo Della Gherardesca")
    expect(pair).to_have_count(1)
    pair.locator("summary").click()
    # The preview: what moves from N' to N, the one result and its journal line of the
    # demo club (E2), before anything is merged.
    # N' is a member, played one game, credited on one journal line, and has one club
    # rating of cardChess.
    moves = pair.locator("ul.moves li")
    expect(moves).to_have_count(1)
    assert " ".join(moves.inner_text().split()) == (
        "Circolo dei Giochi Pisani · iscrizione · Risultati: 1 · Righe del giornale: 1 · "
        "Valutazioni: 1"
    )
    _shot(page, "merge-preview-phone-it")
    with page.expect_navigation():
        pair.get_by_role("button").click()
    expect(page.locator("#merges")).to_contain_text("Niccolo Della Gherardesca")
    _fits(page)

    # --- both rankings after the merge ---------------------------------------------------
    # Worked out above: 1. L 20, 2. N max(12, 10) = 12, 3. R 6.
    merged = [
        (1, "Lucia Gambacorti", Decimal(20)),
        (2, "Niccolò Della Gherardesca", Decimal(12)),
        (3, "Ranieri Sismondi", Decimal(6)),
    ]
    assert _table_once_updated(reader, merged) == merged
    _fits(reader)
    _shot(reader, "points-laptop-en")
    with reader.expect_navigation():
        reader.click("#other-ranking")
    # The rating's order, worked out above: N, L, R (one line for N and N').
    order = [
        (1, "Niccolò Della Gherardesca"),
        (2, "Lucia Gambacorti"),
        (3, "Ranieri Sismondi"),
    ]
    rating = _table_once_updated(reader, lambda rows: [(r, n) for r, n, _v in rows] == order)
    assert [(rank, name) for rank, name, _value in rating] == [
        (1, "Niccolò Della Gherardesca"),
        (2, "Lucia Gambacorti"),
        (3, "Ranieri Sismondi"),
    ]
    assert rating[0][2] > rating[1][2] > rating[2][2]
    _fits(reader)
    _shot(reader, "rating-laptop-en")

    # --- the second club, on its own installation, syncs to the hub ------------------------
    # Its laptop holds the club as the hub numbered it (docs/operations.md, a venue laptop).
    export = tmp_path / "lucca.jsonl"
    manage(server_env, "export_club", "circolo-lucchese", str(export), "--with-secrets")
    hub_key = manage(
        server_env,
        "shell",
        "-c",
        "from ledger.clubs.storage import signing\nprint(signing.public_key())",
    ).split()[-1]
    laptop_db = tmp_path / "venue" / "ledger.sqlite3"
    laptop_db.parent.mkdir()
    shutil.copy(migrated_sqlite, laptop_db)
    venue(laptop_db, "import_club", str(export), "--public-key", hub_key)

    with page.expect_navigation():
        page.goto(f"{server}/federations/{SLUG}/")
    page.select_option("#apply-club", label="Circolo Lucchese")
    with page.expect_navigation():
        page.click("#apply")
    with page.expect_navigation():
        page.locator("#applications button[value=approve]").first.click()
    expect(page.locator("#member-clubs")).to_contain_text("Circolo Lucchese")
    with page.expect_navigation():
        page.locator("#sync-circolo-lucchese button:visible").click()
    token = re.search(r"hub_[A-Za-z0-9_-]+", page.content())
    assert token is not None
    said = venue(laptop_db, "sync_to_hub", "circolo-lucchese", "--url", server, token=token[0])
    assert said.splitlines()[0] == "0 / 0 lines sent, chunk 0 of 0"
    venue(laptop_db, "shell", "-c", LUCCA_PLAYS)
    said = venue(laptop_db, "sync_to_hub", "circolo-lucchese")
    assert said.splitlines()[0] == "0 / 3 lines sent, chunk 0 of 1", said
    page.reload()
    synced = page.locator("#sync-circolo-lucchese")
    expect(synced.locator("td.num")).to_have_text("3")
    _fits(page)
    _shot(page, "venue-synced-phone-it")

    page.select_option("#sanction-competition", label="Circolo Lucchese · Torneo di Lucca")
    page.select_option("#sanction-tier", label="Di circolo")
    with page.expect_navigation():
        page.click("#sanction")
    expect(page.locator("#sanctioned")).to_contain_text("Torneo di Lucca")

    # Lucca's event, club tier (x1): Lucchese 1 10, Lucchese 2 6, Lucchese 3 3. With the
    # others: L 20, N 12, Lucchese 1 10, R 6 and Lucchese 2 6 (a shared 4th place, the
    # first counted first), Lucchese 3 3.
    reader.goto(f"{server}/federations/{SLUG}/rankings/cardchess/points/")
    both = [
        (1, "Lucia Gambacorti", Decimal(20)),
        (2, "Niccolò Della Gherardesca", Decimal(12)),
        (3, "Lucchese 1", Decimal(10)),
        (4, "Ranieri Sismondi", Decimal(6)),
        (4, "Lucchese 2", Decimal(6)),
        (6, "Lucchese 3", Decimal(3)),
    ]
    table = _table_once_updated(reader, both)
    assert table == both
    _shot(reader, "points-two-clubs-laptop-en")

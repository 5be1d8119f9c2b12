from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from rest_framework.test import APIClient

from ledger.clubs.models import ApiToken, Club, Competition, Membership, Player, Role, Table

ROOT = Path(__file__).resolve().parents[1]

# Property tests judge what the code answers, never how fast: Hypothesis's default deadline
# (200 ms an example) and its "too slow" health check read the wall clock, which on a loaded
# machine (a second `make test` beside this one) also counts the time other programs hold the
# processor. A test that sets its own settings keeps these unless it says otherwise.
hypothesis_settings.register_profile(
    "suite", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.load_profile("suite")


def api_key(user: Any, club: Club | None = None, scope: str = Role.ORGANISER) -> str:
    """A key for the API acting as ``user``: one per login, club and scope, made once (the
    key is stored on the login object, as only its digest is in the database)."""
    keys = user.__dict__.setdefault("_test_api_keys", {})
    wanted = (club.pk if club else None, scope)
    if wanted not in keys:
        keys[wanted] = ApiToken.mint(user=user, club=club, scope=scope, name="test")[1]
    return keys[wanted]


def pytest_addoption(parser: Any) -> None:
    parser.addoption(
        "--all-tests",
        action="store_true",
        help="on PostgreSQL too, run the tests that never touch the database "
        "(the PostgreSQL pass of `make test` leaves them to the SQLite pass)",
    )


def on_postgresql() -> bool:
    return os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))


def uses_the_database(item: Any) -> bool:
    """Whether a test can reach the test database: pytest-django refuses database access to
    a test without the django_db mark or a fixture that asks for it (db, transactional_db,
    live_server, admin_client, ... all go through django_db_setup), so a test with neither
    runs the same on every database. A test marked postgres_only, or one that takes the
    database blocker to open its own connections, counts as using it."""
    if item.get_closest_marker("django_db") or item.get_closest_marker("postgres_only"):
        return True
    own = getattr(getattr(item, "_fixtureinfo", None), "argnames", ())
    return "django_db_setup" in item.fixturenames or "django_db_blocker" in own


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    # The PostgreSQL pass exists to test database behaviour: a test that cannot touch the
    # database (the engines under games/, pure pairing and form code, the browser tests,
    # whose server keeps its own SQLite file) was already run by the SQLite pass.
    if on_postgresql() and not config.getoption("--all-tests"):
        kept = [item for item in items if uses_the_database(item)]
        if len(kept) < len(items):
            config.hook.pytest_deselected(items=[i for i in items if not uses_the_database(i)])
            items[:] = kept
    # Long soak runs stay out of `make test` unless asked for with -m soak.
    markexpr = config.getoption("-m") or ""
    if "soak" in markexpr:
        return
    skip = pytest.mark.skip(reason="soak test: run with `make soak`")
    for item in items:
        if "soak" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    # Tests create many logins; the production hasher would spend most of the suite on them.
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.MD5PasswordHasher",
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    ]


@pytest.fixture(autouse=True)
def _signing_key(settings: Any) -> None:
    # A fixed journal signing key: tests never make the development key file in var/.
    settings.LEDGER_SIGNING_KEY = "5e" * 32
    # Background jobs run at once, so that a test sees what they did.
    settings.LEDGER_JOBS_IN_THREADS = False


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    from django.core.cache import caches

    for alias in ("default", "limits"):
        caches[alias].clear()


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite file as `manage.py migrate` leaves a fresh install's, made once a session in
    another process: the drills that start from a new install (backups, exports, the
    browser tests' server) copy it, where each ran its own migrate (8 s on 2 cores).
    Migrating holds no key or setting of the install: the copy is what migrate makes."""
    where = tmp_path_factory.mktemp("migrated")
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{where / 'ledger.sqlite3'}",
        "LEDGER_VAR_DIR": str(where / "var"),
    }
    subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        timeout=300,
    )
    return where / "ledger.sqlite3"


@pytest.fixture
def club(db: None) -> Club:
    return Club.objects.create(name="Circolo di prova", slug="prova", city="Pisa")


@pytest.fixture
def other_club(db: None) -> Club:
    return Club.objects.create(name="Altro circolo", slug="altro", city="Lucca")


class People:
    """One login per role in the club, plus a stranger."""

    def __init__(self, club: Club, django_user_model: Any) -> None:
        self.club = club
        self.users: dict[str, Any] = {}
        self.players: dict[str, Player] = {}
        for role in [Role.MEMBER, Role.SCOREKEEPER, Role.REFEREE, Role.ORGANISER, "scorekeeper2"]:
            name = str(role)
            user = django_user_model.objects.create_user(username=name, password="pw-" + name)
            player = Player.objects.create(name=name.title(), user=user)
            actual = Role.SCOREKEEPER if name == "scorekeeper2" else role
            Membership.objects.create(club=club, player=player, role=actual)
            self.users[name] = user
            self.players[name] = player
        self.users["stranger"] = django_user_model.objects.create_user(
            username="stranger", password="pw-stranger"
        )
        self.extra = [Player.objects.create(name=f"Giocatore {i}") for i in range(6)]
        for p in self.extra:
            Membership.objects.create(club=club, player=p)

    def client(self, name: str | None, language: str = "en") -> APIClient:
        client = APIClient(HTTP_ACCEPT_LANGUAGE=language)
        if name is not None:
            client.credentials(HTTP_AUTHORIZATION=f"Token {api_key(self.users[name])}")
        return client


@pytest.fixture
def people(club: Club, django_user_model: Any) -> People:
    return People(club, django_user_model)


@pytest.fixture
def points_game() -> Iterator[str]:
    """Punti, the small game registered for tests (tests/points_game.py): a result is each
    seat's points, scored by its engine like any game's. Nothing is hidden: the five
    engines stay available beside it."""
    from games.core import registry
    from tests.points_game import GAME

    registry.register(GAME)
    yield GAME.info.slug
    registry.unregister(GAME.info.slug)


@pytest.fixture
def manual_competition(club: Club, points_game: str) -> Competition:
    """A competition whose results are typed as per-seat points (the Punti game)."""
    return Competition.objects.create(
        club=club, name="Coppa", slug="coppa", game=points_game, format="league"
    )


@pytest.fixture
def manual_table(manual_competition: Competition, people: People) -> Table:
    from ledger.clubs.results.services import create_table

    return create_table(
        user=people.users["organiser"],
        competition=manual_competition,
        label="T1",
        players=people.extra[:2],
    )


@pytest.fixture
def no_sanmarco_engine(points_game: str) -> str:
    """The old name of ``points_game``, for tests written before it: it hides nothing (San
    Marco's engine stays), it registers Punti, the game the formats' and night's helpers
    make their competitions of."""
    return points_game


@pytest.fixture
def manual_cardchess(points_game: str) -> str:
    """The old name of ``points_game`` (see ``no_sanmarco_engine``)."""
    return points_game

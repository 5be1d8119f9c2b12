"""Token authentication with one plain query.

The header and answers are Django REST framework's TokenAuthentication's
(``Authorization: Token <key>``); the keys are the club's API tokens (``ApiToken``), of
which only a digest is stored, so the look-up is by the key's SHA-256. The token and the
few user fields a request needs come back in one SELECT, which costs several times less
than the ORM's query on every API call. Any other field of the user is read from the
database if something asks for it.

A token acts as the login that made it, within its club and never above its scope
(``TokenLimit``, which ``Club.role_of`` applies); a club's token is never the site's
superuser or staff, whoever made it.
"""

from __future__ import annotations

import datetime
import functools
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions

from ledger.clubs.models import ApiToken, Table, TokenLimit, token_digest
from ledger.clubs.results import services
from ledger.clubs.storage import rows

WANTED = {"id", "is_superuser", "username", "is_staff", "is_active"}
BOOLEAN = {"is_superuser", "is_staff", "is_active"}
TOKEN_COLUMNS = ["tok.club_id", "tok.scope", "tok.expires_at", "tok.revoked_at"]


@functools.cache
def _user_fields() -> tuple[str, ...]:
    # In the model's field order, as Model.from_db expects.
    return tuple(f.attname for f in get_user_model()._meta.concrete_fields if f.attname in WANTED)


def _token_query(more_columns: list[str], more_joins: str = "") -> str:
    """The user's columns, the token's (``TOKEN_COLUMNS``), then ``more_columns``, from the
    token and user tables, as ``tok`` and ``u`` (then ``more_joins``)."""
    ops = connection.ops
    columns = (
        [f"u.{ops.quote_name(f)}" for f in _user_fields()] + TOKEN_COLUMNS + list(more_columns)
    )
    return (
        f"SELECT {', '.join(columns)} FROM {ops.quote_name(ApiToken._meta.db_table)} tok "
        f"JOIN {ops.quote_name(get_user_model()._meta.db_table)} u ON u.id = tok.user_id "
        f"{more_joins}WHERE tok.digest = %s"
    )


def _user(found: list[tuple[Any, ...]]) -> Any:
    if not found:
        raise exceptions.AuthenticationFailed(_("Invalid token."))
    fields = _user_fields()
    row = found[0]
    values = [bool(v) if f in BOOLEAN else v for f, v in zip(fields, row, strict=False)]
    club_id, scope, expires_at, revoked_at = row[len(fields) : len(fields) + 4]
    if revoked_at is not None:
        raise exceptions.AuthenticationFailed(_("This token was revoked."))
    if expires_at is not None:
        if isinstance(expires_at, str):  # SQLite's text, through a plain cursor
            expires_at = connection.ops.convert_datetimefield_value(  # type: ignore[attr-defined]  # SQLite's ops alone have it
                expires_at, None, connection
            )
        if timezone.is_naive(expires_at):
            expires_at = timezone.make_aware(expires_at, datetime.UTC)
        if expires_at <= timezone.now():
            raise exceptions.AuthenticationFailed(_("This token has expired."))
    user = get_user_model().from_db(connection.alias, list(fields), values)
    if not user.is_active:
        raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
    # What the token may do, carried by this request's user (read with getattr).
    user.token_limit = TokenLimit(club_id, scope, superuser=user.is_superuser)  # type: ignore[attr-defined]  # the token's limits, read with getattr
    if club_id is not None:
        # A club's token never carries the site's powers.
        user.is_superuser = user.is_staff = False
    return user


@functools.cache
def _credentials_sql() -> str:
    return _token_query([])


@functools.cache
def _user_and_table_sql() -> str:
    columns, joins = services.table_query("u.id", outer=True)
    return _token_query(
        columns,
        f"LEFT JOIN {connection.ops.quote_name(Table._meta.db_table)} t ON t.id = %s {joins} ",
    )


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        return _user(rows.run(_credentials_sql(), [token_digest(key)])), key


def user_and_table(key: str, table_id: int) -> tuple[Any, Table | None]:
    """The user of an API token and the table a result is recorded at, with the user's role
    in its club (as ``services.table_for_write`` gives them), read in one query: recording
    a result needs both, and one round trip to the database costs less than two. The
    token's answers and errors are TokenAuthentication's; the table is None when there is
    no such table."""
    found = rows.run(_user_and_table_sql(), [table_id, token_digest(key)])
    user = _user(found)
    member = None if user.is_superuser else user
    return user, services.table_from_rows(
        found, member, at=len(_user_fields()) + len(TOKEN_COLUMNS)
    )

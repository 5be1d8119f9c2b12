"""Token authentication with one plain query.

The same tokens, header and answers as Django REST framework's TokenAuthentication; only the
look-up differs: the token and the few user fields a request needs come back in one SELECT,
which costs several times less than the ORM's query on every API call. Any other field of
the user is read from the database if something asks for it.
"""

from __future__ import annotations

import functools
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from ledger.clubs import rows, services
from ledger.clubs.models import Table

WANTED = {"id", "is_superuser", "username", "is_staff", "is_active"}
BOOLEAN = {"is_superuser", "is_staff", "is_active"}


@functools.cache
def _user_fields() -> tuple[str, ...]:
    # In the model's field order, as Model.from_db expects.
    return tuple(f.attname for f in get_user_model()._meta.concrete_fields if f.attname in WANTED)


def _token_query(more_columns: list[str], more_joins: str = "") -> str:
    """The user's columns (then ``more_columns``) from the token and user tables, as
    ``tok`` and ``u`` (then ``more_joins``)."""
    ops = connection.ops
    columns = [f"u.{ops.quote_name(f)}" for f in _user_fields()] + list(more_columns)
    return (
        f"SELECT {', '.join(columns)} FROM {ops.quote_name(Token._meta.db_table)} tok "
        f"JOIN {ops.quote_name(get_user_model()._meta.db_table)} u ON u.id = tok.user_id "
        f"{more_joins}WHERE tok.key = %s"
    )


def _user(found: list[tuple[Any, ...]]) -> Any:
    if not found:
        raise exceptions.AuthenticationFailed(_("Invalid token."))
    fields = _user_fields()
    values = [bool(v) if f in BOOLEAN else v for f, v in zip(fields, found[0], strict=False)]
    user = get_user_model().from_db(connection.alias, list(fields), values)
    if not user.is_active:
        raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
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
        return _user(rows.run(_credentials_sql(), [key])), key


def user_and_table(key: str, table_id: int) -> tuple[Any, Table | None]:
    """The user of an API token and the table a result is recorded at, with the user's role
    in its club (as ``services.table_for_write`` gives them), read in one query: recording
    a result needs both, and one round trip to the database costs less than two. The
    token's answers and errors are TokenAuthentication's; the table is None when there is
    no such table."""
    found = rows.run(_user_and_table_sql(), [table_id, key])
    user = _user(found)
    member = None if user.is_superuser else user
    return user, services.table_from_rows(found, member, at=len(_user_fields()))

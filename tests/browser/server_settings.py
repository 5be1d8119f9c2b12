"""The settings of the browser tests' server (tests/browser/conftest.py): the site's own,
with logins checked by a cheap hash. The site's hasher spends about half a second of CPU on
each login by design; the browser tests log in some sixty times, and on a machine busy with
other work a login's answer then came after the 10 s a click waits for its page. The tests
in the test process use the same fast hashers (tests/conftest.py)."""

from ledger.settings import *  # noqa: F403

PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]

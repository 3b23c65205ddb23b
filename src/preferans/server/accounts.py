"""Accounts: names, passwords and sessions.

* **Names** (:func:`check_name`): 3 to 20 letters (any alphabet: Latin, Cyrillic …) and
  digits, with ``_``, ``-`` or ``.`` between them, starting with a letter; unique
  whatever the case (``Анна`` and ``аННа`` are one name), compared after Unicode NFKC.
* **Passwords** (:func:`check_password`): 8 to 128 characters, hashed with argon2id
  (``argon2-cffi``, its RFC 9106 low-memory profile); only the hash is stored, and
  no password is ever logged or sent back.
* **Sessions**: a random session id in a cookie ``pref_session`` signed with the
  database's secret (``itsdangerous``; HttpOnly, SameSite=Lax, Secure behind HTTPS,
  30 days); only the id's SHA-256 is stored, and signing out deletes it.  Every process
  of a cluster and a restarted server read the same secret, so a session holds on
  all of them.
* **Attempts**: signing in and registering are limited per address and per account
  name (:class:`Attempts`).
"""

from __future__ import annotations

import hashlib
import itertools
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from argon2.profiles import RFC_9106_LOW_MEMORY
from itsdangerous import BadSignature, URLSafeTimedSerializer

from ..errors import AccountError
from ..i18n import Msg
from .buckets import Buckets
from .club_storage import Account, ClubStorage, name_key

__all__ = ["SESSION_COOKIE", "SESSION_MAX_AGE", "AccountError", "Accounts", "Attempts", "check_name",
           "check_password", "name_key"]  # fmt: skip

SESSION_COOKIE = "pref_session"
SESSION_MAX_AGE = 60 * 60 * 24 * 30
NAME_MIN, NAME_MAX = 3, 20
PASSWORD_MIN, PASSWORD_MAX = 8, 128
_JOINERS = "_-."


def check_name(name: object) -> str:
    """The account name as it will be kept, or :class:`AccountError` saying what is wrong.

    >>> check_name("  Анна_2 ")
    'Анна_2'
    >>> check_name("ab")
    Traceback (most recent call last):
    ...
    preferans.errors.AccountError: name: 3 to 20 characters
    >>> check_name("9lives")
    Traceback (most recent call last):
    ...
    preferans.errors.AccountError: name: letters and digits (and _ - . between them), starting with a letter
    """
    if not isinstance(name, str):
        raise AccountError("bad_name", Msg("name: 3 to 20 characters"))
    name = unicodedata.normalize("NFKC", name).strip()
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise AccountError("bad_name", Msg("name: 3 to 20 characters"))
    ok = (name[0].isalpha() and name[-1].isalnum()
          and all(ch.isalnum() or ch in _JOINERS for ch in name)
          and not any(a in _JOINERS and b in _JOINERS for a, b in itertools.pairwise(name)))  # fmt: skip
    if not ok:
        raise AccountError("bad_name", Msg("name: letters and digits (and _ - . between them), starting with a letter"))
    return name


def check_password(password: object) -> str:
    """The password, or :class:`AccountError` (never saying what it was).

    >>> check_password("short")
    Traceback (most recent call last):
    ...
    preferans.errors.AccountError: password: 8 to 128 characters
    """
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise AccountError("bad_password", Msg("password: 8 to 128 characters"))
    return password


class Attempts:
    """Sign-in and registration attempts: per address ``rate`` a second (bursts of ``burst``),
    and per account name 10 wrong passwords, then one a minute.

    The addresses are counted in this process's bounded buckets (:class:`.buckets.Buckets`: a
    flood of addresses forgets the oldest, never all).  The wrong passwords are counted in the
    database (``store``), so that every process of a cluster, and a restarted server, sees the
    same count for a name: a guesser gets ten tries whichever process answers him."""

    NAME_RATE = 1 / 60
    NAME_BURST = 10.0

    def __init__(self, store: ClubStorage, rate: float = 0.2, burst: float = 10.0,
                 clock: Callable[[], float] = time.time) -> None:  # fmt: skip
        self.store, self.rate, self.burst, self.clock = store, rate, burst, clock
        self._by_address = Buckets(rate, burst)

    def address(self, address: str) -> None:
        if not self._by_address.take(address):
            raise AccountError("rate_limited", Msg("too many attempts from your address; wait a minute"), 429)

    def name_blocked(self, key: str) -> bool:
        return self.store.sign_in_tokens(key, self.NAME_RATE, self.NAME_BURST, self.clock()) < 1

    def failed(self, key: str) -> None:
        self.store.sign_in_failed(key, self.NAME_RATE, self.NAME_BURST, self.clock())


@dataclass
class Accounts:
    """Registering, signing in and out, and reading the session cookie."""

    club: ClubStorage
    secret: str
    attempts: Attempts

    def __post_init__(self) -> None:
        self.hasher = PasswordHasher.from_parameters(RFC_9106_LOW_MEMORY)
        self.signer = URLSafeTimedSerializer(self.secret, salt="pref-session")

    # blocking (argon2 and the database): the server calls these from threads
    def register(self, name: object, password: object) -> tuple[Account, str]:
        """A new account and its session cookie's value."""
        name = check_name(name)
        password = check_password(password)
        account = self.club.create_account(name, name_key(name), self.hasher.hash(password))
        if account is None:
            raise AccountError("name_taken", Msg("name: «{name}» is taken; choose another", name=name), 409)
        return account, self.new_session(account)

    def sign_in(self, name: object, password: object) -> tuple[Account, str]:
        if not isinstance(name, str) or not isinstance(password, str) or len(password) > PASSWORD_MAX:
            raise AccountError("wrong_password", Msg("wrong name or password"), 401)
        key = name_key(name.strip())[:64]
        if self.attempts.name_blocked(key):
            raise AccountError("rate_limited", Msg("too many wrong passwords for this name; try again in a minute"),
                               429)  # fmt: skip
        found = self.club.account_by_key(key)
        if found is None:
            self.hasher.hash(password)  # as slow as a wrong password: no telling which names exist
            self.attempts.failed(key)
            raise AccountError("wrong_password", Msg("wrong name or password"), 401)
        account, stored = found
        try:
            self.hasher.verify(stored, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            self.attempts.failed(key)
            raise AccountError("wrong_password", Msg("wrong name or password"), 401) from None
        if self.hasher.check_needs_rehash(stored):
            self.club.set_password_hash(account.id, self.hasher.hash(password))
        return account, self.new_session(account)

    def new_session(self, account: Account) -> str:
        sid = secrets.token_urlsafe(24)
        self.club.add_session(_hash(sid), account.id)
        return self.signer.dumps({"s": sid})

    def _sid(self, cookie: str | None) -> str | None:
        if not cookie or len(cookie) > 512:
            return None
        try:
            data = self.signer.loads(cookie, max_age=SESSION_MAX_AGE)
        except BadSignature:
            return None
        sid = data.get("s") if isinstance(data, dict) else None
        return sid if isinstance(sid, str) else None

    def account_of(self, cookie: str | None) -> Account | None:
        """The account of a session cookie (``None``: none, forged, expired or signed out)."""
        sid = self._sid(cookie)
        return None if sid is None else self.club.session_account(_hash(sid))

    def sign_out(self, cookie: str | None) -> None:
        sid = self._sid(cookie)
        if sid is not None:
            self.club.end_session(_hash(sid))


def _hash(sid: str) -> str:
    return hashlib.sha256(sid.encode()).hexdigest()


def timing() -> float:
    """Seconds one password hash takes here (the docs quote it)."""
    h = PasswordHasher.from_parameters(RFC_9106_LOW_MEMORY)
    t = time.perf_counter()
    h.hash("correct horse battery")
    return time.perf_counter() - t

"""This PC's choice of database: its own file, or the club server; the password in the keyring.

The choice is a small file in the data folder (``server.json``: host, port, database, user; never the
password). The password lives in the operating system's keyring through the ``keyring`` package when one is
usable; otherwise the desk asks for it at start. ``libpq`` also reads ``PGPASSWORD`` and ``~/.pgpass``.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass
from pathlib import Path

from sqlalchemy.engine import URL, make_url

from clubdesk import paths

log = logging.getLogger("clubdesk.server")
KEYRING_SERVICE = "ClubDesk club server"
DEFAULT_PORT = 5432


@dataclass(frozen=True)
class ServerChoice:
    host: str
    database: str
    user: str
    port: int = DEFAULT_PORT

    def url(self, password: str | None = None) -> str:
        if self.host.startswith("/"):  # libpq: a socket folder (the desk on the server PC itself)
            u = URL.create(
                "postgresql+psycopg",
                username=self.user,
                password=password,
                database=self.database,
                query={"host": self.host, "port": str(self.port)},
            )
            return u.render_as_string(hide_password=False)
        u = URL.create(
            "postgresql+psycopg",
            username=self.user,
            password=password,
            host=self.host,
            port=self.port,
            database=self.database,
        )
        return u.render_as_string(hide_password=False)

    @property
    def key(self) -> str:
        """The keyring's user name for this login: ``user@host:port/database``."""
        return f"{self.user}@{self.host}:{self.port}/{self.database}"


def choice_file() -> Path:
    return paths.data_dir() / "server.json"


def load_choice() -> ServerChoice | None:
    """The club server this PC connects to, or None for its own file."""
    try:
        data = json.loads(choice_file().read_text(encoding="utf-8"))
        return ServerChoice(str(data["host"]), str(data["database"]), str(data["user"]), int(data["port"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def save_choice(choice: ServerChoice | None) -> None:
    """Remember the server (None: use this PC's file again)."""
    path = choice_file()
    if choice is None:
        path.unlink(missing_ok=True)
        return
    path.write_text(json.dumps(asdict(choice), indent=1), encoding="utf-8")


def keyring_password(key: str) -> str | None:
    """The stored password, or None (no keyring backend, nothing stored, or the keyring failed)."""
    try:
        import keyring

        value = keyring.get_password(KEYRING_SERVICE, key)
    except Exception as exc:  # noqa: BLE001 - any keyring backend failure means: ask the person
        log.info("no keyring password for %s: %s", key, exc)
        return None
    return str(value) if value else None


def store_password(key: str, password: str) -> bool:
    """Keep the password in the keyring; False when no usable keyring exists (then it is asked at start)."""
    try:
        import keyring
        from keyring.backends.fail import Keyring as FailKeyring

        if isinstance(keyring.get_keyring(), FailKeyring):
            return False
        keyring.set_password(KEYRING_SERVICE, key, password)
    except Exception as exc:  # noqa: BLE001
        log.info("keyring refused the password for %s: %s", key, exc)
        return False
    return True


def password_for_url(url: str) -> str | None:
    """For a URL without a password: the keyring's one for its login, if any."""
    u = make_url(url)
    if u.password is not None:
        return None
    host = u.host or str(u.query.get("host", ""))
    port = u.port or int(str(u.query.get("port", DEFAULT_PORT)))
    choice = ServerChoice(host, u.database or "", u.username or "", port)
    return keyring_password(choice.key)

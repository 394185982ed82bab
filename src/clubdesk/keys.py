"""Secrets kept outside the club's database file: the audit log's key and the club's signing key.

A key that lived in the database would be no anchor: whoever can edit the file could recompute the chain
with it. So a key lives in the operating system's keyring (``keyring``: Windows Credential Locker, macOS
Keychain, Secret Service) when one works, else in a file only its owner may read in the keys folder:

- ``CLUBDESK_KEYS=/some/folder`` wins over everything (tests, a club that keeps keys on a stick);
- with ``CLUBDESK_HOME`` or the portable folder: ``keys/`` in it (the stick carries its keys);
- otherwise the platformdirs user config dir (``~/.config/ClubDesk/keys``, ``%APPDATA%\\ClubDesk\\keys``),
  a different folder from the data dir, so copying the data folder does not copy the keys.

A key is named for the club file it serves (``audit-<club uid>``, ``sign-<club uid>``), so several club
files on one PC never share a key. Keys are bytes; the keyring holds them as base64 text.
"""

from __future__ import annotations

import base64
import contextlib
import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

from platformdirs import user_config_dir

from clubdesk.paths import APP_NAME, portable_home

KEYRING_SERVICE = "ClubDesk keys"
_NAME = re.compile(r"^[A-Za-z0-9._-]{1,120}$")


class KeyStoreError(Exception):
    """A key could not be read or kept (the message says where)."""


def keys_folder() -> Path:
    """The keys folder the settings name (nothing is created: a cheap look-up for the key cache)."""
    override = os.environ.get("CLUBDESK_KEYS")
    if override:
        return Path(override).expanduser()
    if os.environ.get("CLUBDESK_HOME"):
        return Path(os.environ["CLUBDESK_HOME"]).expanduser() / "keys"
    home = portable_home()
    config = Path(user_config_dir(APP_NAME, appauthor=False))
    return (home if home is not None else config) / "keys"


def keys_dir() -> Path:
    """The folder of key files (created on first use, readable by its owner only)."""
    path = keys_folder()
    path.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(OSError):
        path.chmod(0o700)
    return path


def _keyring_usable() -> bool:
    """The keyring is used only when a real backend answers; tests and servers without one use files
    (``CLUBDESK_KEYS`` set also means files: the caller chose the folder)."""
    if os.environ.get("CLUBDESK_KEYS"):
        return False
    try:
        # loaded on the first key asked for, not at start: importing keyring costs ~125 ms
        import keyring  # noqa: PLC0415
        from keyring.backends import fail  # noqa: PLC0415
    except ImportError:
        return False
    try:
        return not isinstance(keyring.get_keyring(), fail.Keyring)
    except Exception:  # noqa: BLE001 - a broken keyring backend means: use the file
        return False


def _check(name: str) -> None:
    if not _NAME.match(name):
        raise KeyStoreError(f"bad key name: {name!r}")


def key_file(name: str) -> Path:
    _check(name)
    return keys_dir() / f"{name}.key"


_cache: dict[tuple[str, str], bytes] = {}


def read_key(name: str) -> bytes | None:
    """The key called ``name``, or None when none is kept (keyring first, then the file).

    A key found is remembered for the process (per keys folder, found without touching the disk): an
    audited write asks for it every time."""
    _check(name)
    cached = _cache.get((str(keys_folder()), name))
    if cached is not None:
        return cached
    found = _read_key(name)
    if found is not None:
        _cache[(str(keys_folder()), name)] = found
    return found


def _read_key(name: str) -> bytes | None:
    if _keyring_usable():
        import keyring  # noqa: PLC0415

        try:
            stored = keyring.get_password(KEYRING_SERVICE, name)
        except Exception:  # noqa: BLE001 - fall back to the file
            stored = None
        if stored:
            return base64.b64decode(stored)
    path = key_file(name)
    try:
        return base64.b64decode(path.read_text(encoding="ascii").strip())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise KeyStoreError(f"{path}: {exc}") from exc


def write_key(name: str, key: bytes) -> str:
    """Keep ``key`` under ``name``; returns where it went ("keyring" or the file's path)."""
    _check(name)
    text = base64.b64encode(key).decode("ascii")
    if _keyring_usable():
        import keyring  # noqa: PLC0415

        try:
            keyring.set_password(KEYRING_SERVICE, name, text)
            return "keyring"
        except Exception:  # noqa: BLE001 - fall back to the file
            pass
    _cache.pop((str(keys_folder()), name), None)
    path = key_file(name)
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", dir=path.parent)
    try:
        if hasattr(os, "fchmod"):  # only its owner may read a key file
            os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as out:
            out.write(text + "\n")
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise KeyStoreError(f"{path}: {exc}") from exc
    return str(path)


def ensure_key(name: str, make: Callable[[], bytes]) -> bytes:
    """The key called ``name``, made with ``make()`` and kept the first time it is asked for."""
    found = read_key(name)
    if found is not None:
        return found
    key = make()
    write_key(name, key)
    return read_key(name) or key


def key_location(name: str) -> str:
    """Where ``name`` is kept, for the user: "the system keyring" or the file's path."""
    _check(name)
    if _keyring_usable():
        return "keyring"
    return str(key_file(name))

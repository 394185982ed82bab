"""Moving the club's audit key to another PC: shown as a file, and taken in from one.

The keyed audit log (rule G13: a tamper-evident trail) is signed with a key kept outside the club file,
in the system keyring when one works, so copying the file or a backup does not carry it, and no folder
shows it. :func:`export_audit_key` writes it to a file only its owner may read (0600), to be carried to
the new PC with the club file; :func:`import_audit_key` keeps a key from such a file on this PC, once it
has shown it is the key this club file's keyed rows are signed with (else nothing is written). Both are
the secretary's alone: whoever holds the key can re-sign the log.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from clubdesk import keys
from clubdesk.i18n import _
from clubdesk.services.kernel import (
    Actor,
    ServiceError,
    audit,
    key_signs,
    key_signs_file,
    require,
    require_audit_key,
    signed_key_name,
    signed_with,
)
from clubdesk.storage import Database

_MAX_KEY_FILE = 4096  # a key file is one line of base64; anything larger is not one


@dataclass(frozen=True)
class KeyMove:
    """A key written to ``path`` (export) or kept on this PC at ``kept`` (import); ``name`` the key's."""

    name: str
    path: str
    kept: str = ""
    already: bool = False


def _key_name(db: Database) -> str:
    with db.read_session() as s:
        name = signed_key_name(s)
    if name is None:
        raise ServiceError(
            "audit-not-keyed",
            _("This club file's audit log is not signed with a key yet: there is no key to move."),
        )
    return name


def export_audit_key(db: Database, actor: Actor, out: Path) -> KeyMove:
    """Write this club file's audit key to ``out`` (owner-only, 0600), in the key file's own form, and
    record that it was shown. A file already there is not overwritten."""
    require(actor, "audit.key", db)
    name = _key_name(db)
    require_audit_key(name)  # refuses, saying where it was looked for, when it is not on this PC
    key = keys.read_key(name)
    assert key is not None  # (require_audit_key found it)
    out = Path(out)
    if out.exists():
        raise ServiceError("file-exists", _("{file} already exists; nothing was written.").format(file=out))
    fd, tmp = tempfile.mkstemp(prefix=".clubdesk-key.", dir=out.parent if out.parent.is_dir() else None)
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, 0o600)  # only its owner may read it: whoever holds it can re-sign the log
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(base64.b64encode(key).decode("ascii") + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, out)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise ServiceError(
            "write-failed", _("The key could not be written to {file}: {error}").format(file=out, error=exc)
        ) from exc
    with db.session() as s:
        audit(s, actor, "audit.key-export", "club", after={"key": name, "file": str(out)})
    return KeyMove(name, str(out))


def _read_key_file(source: Path) -> bytes:
    bad = ServiceError("not-a-key", _("{file} is not a ClubDesk audit key file.").format(file=source))
    try:
        if source.stat().st_size > _MAX_KEY_FILE:
            raise bad
        raw = source.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        raise ServiceError("no-file", _("There is no file {file}.").format(file=source)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise bad from exc
    try:
        key = base64.b64decode(raw, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise bad from exc
    if len(key) < 16:
        raise bad
    return key


def import_audit_key(db: Database, actor: Actor, source: Path, *, backup: Path | None = None) -> KeyMove:
    """Keep the key in ``source`` as this club file's audit key on this PC (the keyring, else the keys
    folder), if it is the key the file's keyed rows are signed with; otherwise nothing is written.
    ``backup``: check it against that club file instead (a backup to restore onto this PC, whose key is
    not the open file's); the backup is only read."""
    require(actor, "audit.key", db)
    source = Path(source)
    key = _read_key_file(source)
    if backup is None:
        name = _key_name(db)
        with db.read_session() as s:
            signs = key_signs(s, key)
    else:
        found = signed_with(Path(backup))
        if found is None:
            raise ServiceError(
                "audit-not-keyed",
                _("{file} is not a club file whose audit log is signed with a key.").format(file=backup),
            )
        name, signs = found, key_signs_file(Path(backup), key)
    if not signs:
        raise ServiceError(
            "wrong-audit-key",
            _(
                "The key in {file} is not the one this club file's audit log is signed with; nothing "
                "was written. Export the key again on the PC that kept this club."
            ).format(file=source),
        )
    try:
        already = keys.read_key(name) == key
    except keys.KeyStoreError:
        already = False
    try:
        kept = keys.key_location(name) if already else keys.write_key(name, key)
    except keys.KeyStoreError as exc:
        raise ServiceError(
            "write-failed", _("The key could not be kept on this PC: {error}").format(error=exc)
        ) from exc
    if not already:
        with db.session() as s:
            audit(s, actor, "audit.key-import", "club", after={"key": name, "file": str(source)})
    return KeyMove(name, str(source), kept, already)

"""The signed event file: one self-contained JSON document of a finished event, signed by its club.

The file is ``{"format": "clubdesk-event", "version": 1, "payload": {...}, "signature": {...}}`` written as
canonical JSON (keys sorted, no spaces, UTF-8), so the same event always gives the same bytes. The signature
is Ed25519 over the canonical bytes of ``payload``; ``signature.public_key`` names the club's key (hex), which
the hub must already know (``federation club add``). The digest of the payload (SHA-256, hex) names one
version of an event; a corrected export names the version it supersedes (``payload.supersedes``).

Only public fields travel (rule T14): names, club, city, licence, results and ranking; never phone or e-mail.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from clubdesk.i18n import _

FORMAT = "clubdesk-event"
VERSION = 1
ALGORITHM = "ed25519"
# fields a file may never carry anywhere (rule T14: phone and e-mail stay with the organiser)
PRIVATE_FIELDS = frozenset({"phone", "email", "notes", "pin", "pin_hash"})


class FileError(ValueError):
    """An event file that cannot be taken; ``code`` is stable, ``message`` is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def canonical(value: Any) -> bytes:
    """The one byte form of a JSON value: keys sorted, no spaces, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def digest(payload: dict[str, Any]) -> str:
    """The SHA-256 of the payload's canonical bytes (hex): the name of one version of an event."""
    return hashlib.sha256(canonical(payload)).hexdigest()


def new_private_key() -> bytes:
    """A new club signing key: the raw 32 bytes of an Ed25519 private key."""
    return Ed25519PrivateKey.generate().private_bytes_raw()


def public_key_hex(private_key: bytes) -> str:
    """The public half of a raw private key, as 64 hex digits (what the hub is given)."""
    public = Ed25519PrivateKey.from_private_bytes(private_key).public_key()
    return public.public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def normal_public_key(text: str) -> str:
    """A public key as given by a secretary (hex, spaces allowed) in the one form the hub stores."""
    key = "".join(text.split()).lower()
    try:
        raw = bytes.fromhex(key)
    except ValueError:
        raw = b""
    if len(raw) != 32:
        raise FileError("bad-key", _("A club's public key is 64 hexadecimal digits."))
    return key


def private_fields(value: Any, path: str = "") -> list[str]:
    """Where ``value`` carries a field that must not leave the club (rule T14)."""
    found: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}" if path else str(key)
            if key in PRIVATE_FIELDS:
                found.append(where)
            found += private_fields(item, where)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += private_fields(item, f"{path}[{i}]")
    return found


def seal(payload: dict[str, Any], private_key: bytes) -> bytes:
    """The file's bytes: ``payload`` signed with the club's raw Ed25519 private key."""
    leaked = private_fields(payload)
    if leaked:
        raise FileError("private-field", _("A private field may not leave the club: {f}").format(f=leaked[0]))
    key = Ed25519PrivateKey.from_private_bytes(private_key)
    signature = key.sign(canonical(payload))
    document = {
        "format": FORMAT,
        "version": VERSION,
        "payload": payload,
        "signature": {
            "algorithm": ALGORITHM,
            "public_key": public_key_hex(private_key),
            "value": base64.b64encode(signature).decode("ascii"),
        },
    }
    return canonical(document) + b"\n"


@dataclass(frozen=True)
class EventFile:
    """A file whose signature holds: its payload, the signer's public key (hex) and the payload's digest."""

    payload: dict[str, Any]
    public_key: str
    digest: str

    @property
    def event_uid(self) -> str:
        return str(self.payload["event"]["uid"])

    @property
    def club_uid(self) -> str:
        return str(self.payload["club"]["uid"])

    @property
    def supersedes(self) -> str | None:
        value = self.payload.get("supersedes")
        return str(value) if value else None


def read(data: bytes) -> EventFile:
    """The file's payload once its form and signature are checked; else :class:`FileError` saying why.
    The signature proves only that the holder of that key signed it: whether the key is a known club's is
    the hub's question."""
    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise FileError("not-json", _("This is not an event file (no JSON document).")) from exc
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise FileError("not-event-file", _("This is not a ClubDesk event file."))
    if document.get("version") != VERSION:
        raise FileError(
            "unknown-version",
            _("Event file version {v} is not known here (this ClubDesk reads version {ours}).").format(
                v=document.get("version"), ours=VERSION
            ),
        )
    payload = document.get("payload")
    sig = document.get("signature")
    if not isinstance(payload, dict) or not isinstance(sig, dict) or sig.get("algorithm") != ALGORITHM:
        raise FileError("no-signature", _("The event file carries no Ed25519 signature."))
    try:
        key_hex = normal_public_key(str(sig.get("public_key", "")))
        signature = base64.b64decode(str(sig.get("value", "")), validate=True)
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(key_hex)).verify(signature, canonical(payload))
    except (FileError, InvalidSignature, binascii.Error, ValueError) as exc:
        raise FileError(
            "bad-signature", _("The signature does not match the file: it was changed after it was signed.")
        ) from exc
    for key in ("club", "event", "entrants", "tables", "placings"):
        if key not in payload:
            raise FileError("incomplete", _("The event file has no {part}.").format(part=key))
    return EventFile(payload, key_hex, digest(payload))

"""Table entry on phones, the desk's side: the address the desk serves the hall on, every table's
link, and the score sheets' QR codes that carry a table's link while table entry is on (and each side's
approval code, in its own box with its own QR).

The address is stored in the settings (``table_entry.base_url``) when the Desk's "Table entry on phones" is
switched on, and removed when it is switched off: a score sheet printed meanwhile carries its table's
address (``http://<desk>:<port>/t/<token>``), else the desk's ``CLUBDESK:TABLE:`` payload (CONTRACTS.md §4).
"""

from __future__ import annotations

import dataclasses
import fcntl
import ipaddress
import socket
import struct
from collections.abc import Sequence
from typing import Any, TypeVar
from urllib.parse import urlsplit

from clubdesk.i18n import _
from clubdesk.services import club, night
from clubdesk.services.kernel import DEFAULT_ACTOR, Actor, ServiceError, require
from clubdesk.storage import Database

BASE_URL = "table_entry.base_url"
TABLE_PATH = "/t/"  # the table page of 27a's web app: /t/<token>
HALL_PATH = "/"  # the hall pages: the round's pairings, standings, countdown, bracket

_S = TypeVar("_S")


def check_base(base: str) -> str:
    """``base`` as ``http://host:port`` (no path, no trailing slash); refused unless it is an http address."""
    text = (base or "").strip().rstrip("/")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        parts, port = None, None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname or parts.path:
        raise ServiceError(
            "bad-base-url",
            _("Not a web address of this desk: {url} (for example http://192.168.1.20:8080).").format(
                url=base
            ),
            url=base,
        )
    del port
    return text


def table_url(base: str, token: str) -> str:
    return check_base(base) + TABLE_PATH + token


def hall_url(base: str) -> str:
    return check_base(base) + HALL_PATH


def base_url(db: Database) -> str | None:
    """The address table entry is served on now, None while it is off."""
    value = club.get(db, BASE_URL)
    return str(value) if value else None


def set_base_url(db: Database, actor: Actor, base: str | None) -> None:
    """Table entry on (``base``: the address the hall reaches this desk at) or off (None); audited."""
    require(actor, "settings.edit", db)  # permission table
    club.put(db, actor, BASE_URL, check_base(base) if base else None)


def _round_no(db: Database, event_id: int, round_no: int | None) -> int:

    rv = night.get_round(db, event_id, round_no)  # refuses an unknown event or round, translated
    if rv.status == "proposed":
        raise ServiceError(
            "round-not-published",
            _("Round {r} is only proposed: publish it first.").format(r=rv.round),
            round=rv.round,
        )
    return rv.round


def table_links(db: Database, actor: Actor, event_id: int, round_no: int | None, base: str) -> dict[str, Any]:
    """``{"hall": url, "tables": [{"table": t, "url": url}, ...]}`` for a published round (the latest when
    ``round_no`` is None); the tables' tokens are made when missing (rule: ≥ 128 random bits)."""

    root = check_base(base)
    rno = _round_no(db, event_id, round_no)
    tokens = night.ensure_tokens(db, actor, event_id, rno)
    return {
        "event": event_id,
        "round": rno,
        "hall": hall_url(root),
        "tables": [{"table": t, "url": table_url(root, tokens[t])} for t in sorted(tokens)],
    }


def with_table_urls(db: Database, event_id: int, round_no: int, sheets: Sequence[_S]) -> list[_S]:
    """The score sheets with their table's address in the QR while table entry is on, else as they are."""
    base = base_url(db)
    if not base or not sheets:
        return list(sheets)

    try:
        tokens = night.round_tokens(db, event_id, round_no) or night.ensure_tokens(
            db, DEFAULT_ACTOR, event_id, round_no
        )
        codes = night.side_codes(db, event_id, round_no)
        root = check_base(base)
    except ServiceError:
        return list(sheets)
    out: list[_S] = []
    for sheet in sheets:
        table = int(getattr(sheet, "table", 0))
        token = tokens.get(table)
        if not token:
            out.append(sheet)
            continue
        url = root + TABLE_PATH + token
        pair = codes.get(table, ("", ""))
        # each side's box: its approval code, and a QR opening the table as that side with it (G13)
        side_qr = tuple(f"{url}?side={k}&code={pair[k]}" if pair[k] else "" for k in (0, 1))
        out.append(dataclasses.replace(sheet, qr=url, side_codes=pair, side_qr=side_qr))  # type: ignore[type-var]
    return out


# ------------------------------------------------------------------------------------------ addresses
def own_hosts(db: Database) -> frozenset[str]:
    """The host names and addresses the table server answers to: loopback, this machine's name (and its
    ``.local`` name on the hall's network) and addresses, and the host of the address table entry is
    served at (the QR codes' base URL, which may be a name the hall's router gives this desk). A request
    naming any other host is a page of another site reaching the server through a phone's browser (DNS
    rebinding), and is refused."""
    name = socket.gethostname().lower().rstrip(".")
    names = {"localhost", "127.0.0.1", "::1", name, *local_addresses()}
    if name and "." not in name:
        names.add(name + ".local")
    base = base_url(db)
    host = urlsplit(base).hostname if base else None
    if host:
        names.add(host.lower().rstrip("."))
    return frozenset(n for n in names if n)


def local_addresses() -> list[str]:
    """The machine's IPv4 addresses the hall's phones may reach (the Wi-Fi, the laptop's hotspot), the
    private ones first, loopback last (for a test on this PC only)."""
    found: set[str] = set()
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(str(info[4][0]))
    except OSError:
        pass
    for probe in ("192.168.1.1", "10.255.255.255", "172.16.0.1"):
        # a UDP "connect" sends nothing: it only asks the system which address would be used
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            try:
                sock.connect((probe, 9))
                found.add(str(sock.getsockname()[0]))
            except OSError:
                continue
    try:
        for _index, name in socket.if_nameindex():
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                try:
                    packed = fcntl.ioctl(
                        sock.fileno(), 0x8915, struct.pack("256s", name[:15].encode())
                    )  # SIOCGIFADDR
                    found.add(socket.inet_ntoa(packed[20:24]))
                except OSError:
                    continue
    except (ImportError, AttributeError, OSError):
        pass
    addrs = []
    for a in found:
        try:
            ip = ipaddress.IPv4Address(a)
        except ValueError:
            continue
        if not ip.is_loopback and not ip.is_unspecified and not ip.is_link_local:
            addrs.append(ip)
    addrs.sort(key=lambda ip: (not ip.is_private, ip))
    return [str(ip) for ip in addrs] + ["127.0.0.1"]

"""A table looked up by what the desk types or scans: a table number, a score sheet's QR payload
``CLUBDESK:TABLE:<event>:<round>:<table>``, or (while table entry on phones is on) the table's address on the
phones ``http://<desk>:<port>/t/<token>``."""

from __future__ import annotations

from urllib.parse import urlsplit

QR_PREFIX = "CLUBDESK:TABLE:"
TOKEN_PATH = "/t/"  # a table's address on the phones, http://<desk>:<port>/t/<token>


def parse_table_url(text: str) -> str | None:
    """The token of a table's address as the sheet's QR carries it while table entry is on
    (``http://192.168.1.20:8080/t/<token>``, a trailing slash or query allowed); None when it is not one."""
    text = text.strip()
    if not text.lower().startswith(("http://", "https://")):
        return None
    try:
        path = urlsplit(text).path
    except ValueError:
        return None
    if not path.startswith(TOKEN_PATH):
        return None
    token = path[len(TOKEN_PATH) :].strip("/")
    if not token or "/" in token or not all(c.isalnum() or c in "-_" for c in token):
        return None
    return token


def parse_table_query(text: str) -> tuple[int | None, int | None, int] | None:
    """A typed table number, or a score sheet's QR payload ``CLUBDESK:TABLE:<event>:<round>:<table>``:
    (event or None, round or None, table); None when it is neither."""
    text = text.strip()
    if text.upper().startswith(QR_PREFIX):
        parts = text[len(QR_PREFIX) :].split(":")
        if len(parts) == 3 and all(p.strip().isdigit() for p in parts):
            return int(parts[0]), int(parts[1]), int(parts[2])
        return None
    if text.isdigit():
        return None, None, int(text)
    return None

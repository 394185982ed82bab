"""Which side a phone is at its table, signed by the server (rules G13, E6, T8c: each side approves for
itself). The cookie says the side the phone shows, a random id of the phone, the sides it entered or
approved for, and the approval codes it was shown (its side's box QR scanned, or typed at a hand-over).
It is signed with the server's secret and bound to the table's token, so a hand-made or edited cookie is
no cookie at all; and it gives nothing the score sheet does not: every approval is checked against the
side's code by the service, in the approval's own transaction.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, replace

SIDE_COOKIE = "cd_side"
_NO_CODE = "x"


@dataclass(frozen=True)
class PhoneSide:
    """A phone at a table: ``side`` shown (None: not chosen), ``device`` its random id, ``acted`` the
    sides it entered or approved for, ``codes`` the approval code it holds per side ("" none)."""

    side: int | None = None
    device: str = ""
    acted: frozenset[int] = frozenset()
    codes: tuple[str, str] = ("", "")

    @property
    def code(self) -> str:
        """The approval code of the side shown ("" none)."""
        return "" if self.side is None else self.codes[self.side]

    def handed_over(self, side: int) -> bool:
        """This phone entered or approved for the other side than ``side``: it was handed over."""
        return (1 - side) in self.acted

    def needs_handover(self, side: int) -> bool:
        """Showing ``side`` needs the hand-over step (this phone acted for the other side already)."""
        return side != self.side and self.handed_over(side)

    def showing(self, side: int) -> PhoneSide:
        return replace(self, side=side, device=self.device or secrets.token_hex(8))

    def with_code(self, side: int, code: str) -> PhoneSide:
        codes = (code, self.codes[1]) if side == 0 else (self.codes[0], code)
        return replace(self, codes=codes)

    def acted_for(self, side: int) -> PhoneSide:
        return replace(self, acted=self.acted | {side})


class SideCookies:
    """Signs and reads :class:`PhoneSide` cookies with the server's secret, per table token."""

    def __init__(self, secret: bytes) -> None:
        self.secret = hashlib.sha256(b"clubdesk-side|" + secret).digest()

    def _mac(self, token: str, payload: str) -> str:
        return hmac.new(self.secret, f"{token}|{payload}".encode(), hashlib.sha256).hexdigest()[:32]

    def dump(self, token: str, phone: PhoneSide) -> str:
        acted = "".join(str(k) for k in sorted(phone.acted)) or "n"
        codes = [c if c.isdigit() else _NO_CODE for c in phone.codes]
        side = "n" if phone.side is None else str(phone.side)
        payload = "-".join((side, phone.device or "0", acted, *codes))
        return f"{payload}-{self._mac(token, payload)}"

    def load(self, token: str, raw: str | None) -> PhoneSide:
        """The phone's side from its cookie; a missing, hand-made or edited cookie is a phone with no
        side (it chooses again, and approves only with a code)."""
        parts = (raw or "").split("-")
        if len(parts) != 6 or len(raw or "") > 120:
            return PhoneSide()
        payload, mac = "-".join(parts[:5]), parts[5]
        if not hmac.compare_digest(self._mac(token, payload), mac):
            return PhoneSide()
        side, device, acted, code0, code1 = parts[:5]
        return PhoneSide(
            side=int(side) if side in ("0", "1") else None,
            device=device,
            acted=frozenset(int(k) for k in acted if k in "01"),
            codes=tuple("" if c == _NO_CODE else c for c in (code0, code1)),  # type: ignore[arg-type]
        )

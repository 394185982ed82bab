"""What public outputs show of a member (his consent): the one rule, used by every public face.

Public outputs are the share images, the static site, the hall pages on phones and the projector. A member
chooses ``"full"`` (his name as the register holds it) or ``"initials"`` (his initials and his club only:
no name, no city). Printed sheets for the table and what the organiser and the referee see keep the full
name; they are not public.
"""

from __future__ import annotations

FULL = "full"
INITIALS = "initials"
CONSENTS: tuple[str, ...] = (FULL, INITIALS)


def initials(name: str) -> str:
    """The initials of a name: "Ali Rıza Yılmaz" → "A. R. Y."; a name of signs only gives "?"."""
    letters = [word[0].upper() for word in name.replace("-", " ").split() if word[0].isalpha()]
    return " ".join(f"{letter}." for letter in letters) or "?"


def public_name(name: str, club: str, consent: str) -> str:
    """A member's name as public outputs show it: the full name, or his initials and club
    ("A. Y. (Kartal)", "A. Y." without a club). An unknown consent counts as the narrower one."""
    if consent == FULL:
        return name
    return f"{initials(name)} ({club})" if club.strip() else initials(name)


def public_side(names: list[tuple[str, str, str]], side_name: str) -> str:
    """A side's public name from its members' (name, club, consent): a single player's own, a pair's
    "A / B" when its name is its players' names joined so; a team's own name otherwise (it names no one)."""
    if not names:
        return side_name
    if len(names) == 1 and names[0][0] == side_name:
        return public_name(*names[0])
    if side_name == " / ".join(n for n, _club, _consent in names):
        return " / ".join(public_name(*n) for n in names)
    return side_name

"""An engine entry in words (CONTRACTS.md §1 shapes), as the scorer entered it: one function for every
family, without Qt or a database, so that any face can say what a sheet holds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from clubdesk.i18n import _


def seat_name(seat: object, seat_names: Sequence[str] | None) -> str:
    """A seat (0-3) by its player's name, else "seat 1" … "seat 4"."""
    if isinstance(seat, int) and seat_names is not None and 0 <= seat < len(seat_names):
        return seat_names[seat]
    return _("seat {n}").format(n=int(seat) + 1 if isinstance(seat, int) else seat)


def side_name(side: object, side_names: Sequence[str]) -> str:
    """A side (0/1) by its name."""
    if isinstance(side, int) and 0 <= side < len(side_names):
        return side_names[side]
    return str(side)


def describe_entry(
    entry: Mapping[str, object], side_names: Sequence[str], seat_names: Sequence[str] | None = None
) -> str:
    """One entry in words, as the scorer entered it."""
    kind = entry.get("type")
    if kind in ("out", "domino"):
        text = _("{who} goes out").format(who=seat_name(entry.get("seat"), seat_names))
        extras = []
        if entry.get("last_tile"):
            extras.append(_("last tile {tile}").format(tile=entry["last_tile"]))
        if entry.get("two_ends"):
            extras.append(_("two ends"))
        dead = entry.get("dead")
        if isinstance(dead, Mapping):
            for tile in ("0-0", "6-6"):
                holder = dead.get(tile)
                if holder is not None:
                    extras.append(
                        _("dead {tile} held by {who}").format(tile=tile, who=seat_name(holder, seat_names))
                    )
        return text + (" (" + ", ".join(extras) + ")" if extras else "")
    if kind == "block":
        if "seat" in entry:
            return _("blocked by {who}").format(who=seat_name(entry.get("seat"), seat_names))
        return _("blocked hand")
    if kind == "redeal":
        return _("redeal")
    if kind == "annulled":
        return _("hand annulled, lead lost") if entry.get("lead_lost") else _("hand annulled")
    if kind == "six_doubles":
        return _("six doubles: {who}").format(who=seat_name(entry.get("seat"), seat_names))
    if kind == "penalty":
        return _("penalty {points} for {side}").format(
            points=entry.get("points"), side=side_name(entry.get("side"), side_names)
        )
    if kind == "abandon":
        return _("{side} abandons").format(side=side_name(entry.get("side"), side_names))
    if kind == "game":
        kinds = {"single": _("single"), "gammon": _("gammon"), "backgammon": _("backgammon")}
        text = _("{who} wins, {kind}").format(
            who=side_name(entry.get("winner"), side_names),
            kind=kinds.get(str(entry.get("kind")), entry.get("kind")),
        )
        cube = entry.get("cube", 1)
        if entry.get("dropped"):
            text += ", " + _("refused a double to {n} (cube {c} before it)").format(
                n=int(cube) * 2 if isinstance(cube, int) else cube, c=cube
            )
        elif isinstance(cube, int) and cube > 1:
            text += ", " + _("cube {c}").format(c=cube)
        return text
    if kind == "game_loss":
        return _("game loss penalty for {side}").format(side=side_name(entry.get("loser"), side_names))
    if kind == "forfeit":
        reasons = {"absent": _("absent"), "time": _("out of time"), "penalty": _("penalty")}
        return _("forfeit won by {side} ({reason})").format(
            side=side_name(entry.get("winner"), side_names), reason=reasons.get(str(entry.get("reason")), "")
        )
    return str(kind)

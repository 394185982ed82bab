"""What a corrected export changed against the version it supersedes: the tables whose result moved and
the entrants whose place moved (for the hub's record and the secretary)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _table_key(t: Mapping[str, Any]) -> tuple[int, int]:
    return int(t["round"]), int(t["table"])


def _table_value(t: Mapping[str, Any]) -> Any:
    return (
        t.get("a"),
        t.get("b"),
        t.get("kind"),
        list(t.get("score") or []),
        list(t.get("points") or []),
        t.get("winner"),
        [(e["game"], e["seq"], e["data"]) for e in t.get("entries") or []],
    )


def difference(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """``{"tables": [[round, table], ...], "places": [{"entrant", "name", "before", "after"}, ...]}``:
    every table added, removed or changed, and every entrant whose place changed (``None``: no place)."""
    before = {_table_key(t): _table_value(t) for t in old["tables"]}
    after = {_table_key(t): _table_value(t) for t in new["tables"]}
    tables = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
    names = {str(e["id"]): e.get("name", "") for e in (*old["entrants"], *new["entrants"])}
    was = {str(p["entrant"]): [int(p["from"]), int(p["to"])] for p in old["placings"]}
    now = {str(p["entrant"]): [int(p["from"]), int(p["to"])] for p in new["placings"]}
    places = [
        {"entrant": e, "name": names.get(e, ""), "before": was.get(e), "after": now.get(e)}
        for e in sorted(set(was) | set(now), key=lambda x: (now.get(x) or [10**9], x))
        if was.get(e) != now.get(e)
    ]
    return {"tables": [list(k) for k in tables], "places": places}

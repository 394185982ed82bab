"""Editing a score sheet: append, replace entry k, delete entry k — each recomputed from the entries.

The entries are the stored source of truth; a :class:`Sheet` is immutable, so an edit that is refused
(:class:`~clubdesk.games.errors.EntryError`, naming the first impossible entry — possibly one *after* the
corrected one, e.g. an entry after a match that the correction has ended) leaves the sheet as it was. Works
for every family through :func:`clubdesk.games.replay`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from clubdesk.games.errors import EntryError
from clubdesk.i18n import _

__all__ = ["Sheet"]


@dataclass(frozen=True)
class Sheet:
    """A score sheet: a ruleset, its overrides, the entries and the result recomputed from them."""

    ruleset: str
    entries: tuple[Mapping[str, object], ...]
    params: Mapping[str, object] | None = None
    result: dict[str, Any] = field(default_factory=dict, compare=False)

    @classmethod
    def open(
        cls,
        ruleset: str,
        entries: Sequence[Mapping[str, object]] = (),
        params: Mapping[str, object] | None = None,
    ) -> Sheet:
        """Replay ``entries`` under ``ruleset``; raises EntryError at the first impossible one."""
        return cls._make(ruleset, tuple(entries), params)

    @classmethod
    def _make(
        cls, ruleset: str, entries: tuple[Mapping[str, object], ...], params: Mapping[str, object] | None
    ) -> Sheet:
        from clubdesk.games import replay

        return cls(ruleset, entries, params, replay(ruleset, entries, params))

    def _check_index(self, k: int) -> None:
        if not 0 <= k < len(self.entries):
            raise EntryError(k, "no-such-entry", _("the sheet has no entry {k}").format(k=k))

    def append(self, entry: Mapping[str, object]) -> Sheet:
        """The sheet with ``entry`` added at the end."""
        return self._make(self.ruleset, (*self.entries, entry), self.params)

    def replace(self, k: int, entry: Mapping[str, object]) -> Sheet:
        """The sheet with entry ``k`` corrected; every later entry is recomputed."""
        self._check_index(k)
        return self._make(self.ruleset, (*self.entries[:k], entry, *self.entries[k + 1 :]), self.params)

    def delete(self, k: int) -> Sheet:
        """The sheet without entry ``k``; every later entry is recomputed (and renumbered)."""
        self._check_index(k)
        return self._make(self.ruleset, (*self.entries[:k], *self.entries[k + 1 :]), self.params)

    def insert(self, k: int, entry: Mapping[str, object]) -> Sheet:
        """The sheet with ``entry`` inserted before entry ``k`` (``k == len`` appends)."""
        if not 0 <= k <= len(self.entries):
            raise EntryError(k, "no-such-entry", _("the sheet has no entry {k}").format(k=k))
        return self._make(self.ruleset, (*self.entries[:k], entry, *self.entries[k:]), self.params)

    @property
    def hands(self) -> list[dict[str, Any]]:
        """Every entry's result in sheet order (one per entry), flattened across games (dominoes)."""
        games = self.result.get("games", [])
        out: list[dict[str, Any]] = []
        for g in games:
            out.extend(g.get("hands", [g]))
        return out

"""Everything that leaves the building: published views, PDFs, images, the site, projector and hall.

The package's face: what ui/, cli/, web/ and the packages above may use. A name is imported from its module
when first used, so a screen that needs one use case does not load the whole package (the first
section paints before the engines load)."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from clubdesk.services.publishing.documents import generate
    from clubdesk.services.publishing.hall import bracket, event, events, results_key, round_view, standings
    from clubdesk.services.publishing.header import KIND_LABELS, KINDS, PLAYER_CARD, ReportRequest
    from clubdesk.services.publishing.personal import PersonalExport, export_personal
    from clubdesk.services.publishing.players import (
        PlayerRating,
        cell_text,
        crosstable,
        player_card,
        rating_points,
        tavla_ratings,
    )
    from clubdesk.services.publishing.projector import (
        HallData,
        announcement,
        change_mark,
        empty,
        hall_data,
        set_announcement,
    )
    from clubdesk.services.publishing.season_screen import (
        SeasonEventLine,
        SeasonOverview,
        season_overview,
        seasons,
    )
    from clubdesk.services.publishing.share import (
        FORMATS,
        SHARE_KIND_LABELS,
        SHARE_KINDS,
        share_images,
        share_site,
    )

_HOMES = {
    "FORMATS": "clubdesk.services.publishing.share",
    "HallData": "clubdesk.services.publishing.projector",
    "KINDS": "clubdesk.services.publishing.header",
    "KIND_LABELS": "clubdesk.services.publishing.header",
    "PLAYER_CARD": "clubdesk.services.publishing.header",
    "PlayerRating": "clubdesk.services.publishing.players",
    "ReportRequest": "clubdesk.services.publishing.header",
    "SHARE_KINDS": "clubdesk.services.publishing.share",
    "SHARE_KIND_LABELS": "clubdesk.services.publishing.share",
    "SeasonEventLine": "clubdesk.services.publishing.season_screen",
    "SeasonOverview": "clubdesk.services.publishing.season_screen",
    "announcement": "clubdesk.services.publishing.projector",
    "bracket": "clubdesk.services.publishing.hall",
    "cell_text": "clubdesk.services.publishing.players",
    "change_mark": "clubdesk.services.publishing.projector",
    "crosstable": "clubdesk.services.publishing.players",
    "empty": "clubdesk.services.publishing.projector",
    "event": "clubdesk.services.publishing.hall",
    "events": "clubdesk.services.publishing.hall",
    "generate": "clubdesk.services.publishing.documents",
    "hall_data": "clubdesk.services.publishing.projector",
    "player_card": "clubdesk.services.publishing.players",
    "rating_points": "clubdesk.services.publishing.players",
    "results_key": "clubdesk.services.publishing.hall",
    "round_view": "clubdesk.services.publishing.hall",
    "season_overview": "clubdesk.services.publishing.season_screen",
    "seasons": "clubdesk.services.publishing.season_screen",
    "set_announcement": "clubdesk.services.publishing.projector",
    "share_images": "clubdesk.services.publishing.share",
    "share_site": "clubdesk.services.publishing.share",
    "standings": "clubdesk.services.publishing.hall",
    "tavla_ratings": "clubdesk.services.publishing.players",
    "PersonalExport": "clubdesk.services.publishing.personal",
    "export_personal": "clubdesk.services.publishing.personal",
}

__all__ = [
    "FORMATS",
    "HallData",
    "KINDS",
    "KIND_LABELS",
    "PLAYER_CARD",
    "PlayerRating",
    "ReportRequest",
    "SHARE_KINDS",
    "SHARE_KIND_LABELS",
    "SeasonEventLine",
    "SeasonOverview",
    "announcement",
    "bracket",
    "cell_text",
    "change_mark",
    "crosstable",
    "empty",
    "event",
    "events",
    "generate",
    "hall_data",
    "player_card",
    "rating_points",
    "results_key",
    "round_view",
    "season_overview",
    "seasons",
    "set_announcement",
    "share_images",
    "share_site",
    "standings",
    "tavla_ratings",
    "PersonalExport",
    "export_personal",
]


def __getattr__(name: str) -> Any:
    """A public name, imported from the module that defines it on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value

"""Everything that leaves the building: published views, PDFs, images, the site, projector and hall.

The package's face: what ui/, cli/ and web/ may use. Everything else is the package's own."""

from clubdesk.services.publishing.documents import generate
from clubdesk.services.publishing.hall import bracket, event, events, round_view, standings
from clubdesk.services.publishing.header import KIND_LABELS, KINDS, PLAYER_CARD, ReportRequest
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
    "round_view",
    "season_overview",
    "seasons",
    "set_announcement",
    "share_images",
    "share_site",
    "standings",
    "tavla_ratings",
]

"""Table entry on the players' phones: posts, the table page, the desk's side.

The package's face: what ui/, cli/ and web/ may use. Everything else is the package's own."""

from clubdesk.services.phones.desk_side import (
    base_url,
    check_base,
    hall_url,
    local_addresses,
    set_base_url,
    table_links,
    with_table_urls,
)
from clubdesk.services.phones.page_cache import CachedPage, cached_page, live_key, peek
from clubdesk.services.phones.posts import (
    PostOutcome,
    call_referee,
    confirm,
    family_of,
    handle_referee_call,
    post_entry,
    posted_table,
    referee_calls,
    table_status,
    undo,
)
from clubdesk.services.phones.table_page import HandRow, TablePage, table_for_token

__all__ = [
    "CachedPage",
    "HandRow",
    "PostOutcome",
    "TablePage",
    "base_url",
    "cached_page",
    "call_referee",
    "check_base",
    "confirm",
    "family_of",
    "hall_url",
    "handle_referee_call",
    "live_key",
    "local_addresses",
    "peek",
    "post_entry",
    "posted_table",
    "referee_calls",
    "set_base_url",
    "table_for_token",
    "table_links",
    "table_status",
    "undo",
    "with_table_urls",
]

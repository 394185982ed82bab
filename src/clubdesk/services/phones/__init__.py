"""Table entry on the players' phones: posts, the table page, the desk's side.

The package's face: what ui/, cli/, web/ and the packages above may use. A name is imported from its module
when first used, so a screen that needs one use case does not load the whole package (the first
section paints before the engines load)."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from clubdesk.services.phones.desk_side import (
        base_url,
        check_base,
        hall_url,
        local_addresses,
        own_hosts,
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
        side_code_ok,
        table_status,
        undo,
    )
    from clubdesk.services.phones.table_page import HandRow, TablePage, TableRef, table_for_token

_HOMES = {
    "CachedPage": "clubdesk.services.phones.page_cache",
    "HandRow": "clubdesk.services.phones.table_page",
    "PostOutcome": "clubdesk.services.phones.posts",
    "TablePage": "clubdesk.services.phones.table_page",
    "TableRef": "clubdesk.services.phones.table_page",
    "base_url": "clubdesk.services.phones.desk_side",
    "cached_page": "clubdesk.services.phones.page_cache",
    "call_referee": "clubdesk.services.phones.posts",
    "check_base": "clubdesk.services.phones.desk_side",
    "confirm": "clubdesk.services.phones.posts",
    "family_of": "clubdesk.services.phones.posts",
    "hall_url": "clubdesk.services.phones.desk_side",
    "handle_referee_call": "clubdesk.services.phones.posts",
    "live_key": "clubdesk.services.phones.page_cache",
    "local_addresses": "clubdesk.services.phones.desk_side",
    "own_hosts": "clubdesk.services.phones.desk_side",
    "peek": "clubdesk.services.phones.page_cache",
    "post_entry": "clubdesk.services.phones.posts",
    "posted_table": "clubdesk.services.phones.posts",
    "referee_calls": "clubdesk.services.phones.posts",
    "set_base_url": "clubdesk.services.phones.desk_side",
    "side_code_ok": "clubdesk.services.phones.posts",
    "table_for_token": "clubdesk.services.phones.table_page",
    "table_links": "clubdesk.services.phones.desk_side",
    "table_status": "clubdesk.services.phones.posts",
    "undo": "clubdesk.services.phones.posts",
    "with_table_urls": "clubdesk.services.phones.desk_side",
}

__all__ = [
    "CachedPage",
    "HandRow",
    "PostOutcome",
    "TablePage",
    "TableRef",
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
    "own_hosts",
    "peek",
    "post_entry",
    "posted_table",
    "referee_calls",
    "set_base_url",
    "side_code_ok",
    "table_for_token",
    "table_links",
    "table_status",
    "undo",
    "with_table_urls",
]


def __getattr__(name: str) -> Any:
    """A public name, imported from the module that defines it on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value

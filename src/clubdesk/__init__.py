"""ClubDesk: competition desk for gaple, Spanish dominoes and tavla clubs."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("clubdesk")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0"

"""ClubDesk: competition desk for gaple, Spanish dominoes and tavla clubs."""

from typing import Any


def _version() -> str:
    """The version has one source, ``pyproject.toml``: read through the installed metadata (a pip install, the
    installer's bundle), or from the checkout's pyproject.toml when ClubDesk runs from a source tree."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("clubdesk")
    except PackageNotFoundError:  # pragma: no cover - a source tree without an install
        import tomllib
        from pathlib import Path

        pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
        try:
            return str(tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"])
        except (OSError, KeyError, ValueError):
            return "0.0.0"


def __getattr__(name: str) -> Any:
    """``clubdesk.__version__``, read when first asked for (importlib.metadata costs ~50 ms at
    every start, before the window's first paint)."""
    if name == "__version__":
        value = _version()
        globals()["__version__"] = value
        return value
    raise AttributeError(name)

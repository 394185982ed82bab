"""Rulesets as data: TOML presets in ``resources/rulesets/`` loaded into validated frozen dataclasses.

A ruleset file has top-level ``id``, ``family`` (``"gaple"``, ``"domino"``, ``"tavla"``), ``name``, an
optional ``description`` and a ``[params]`` table. The ``[params]`` table is validated generically against the
frozen parameters dataclass registered for the family (:data:`PARAMS_TYPES`, :func:`register_family`):

* every field must be present and no unknown key is accepted;
* ``bool`` / ``int`` / ``str`` / ``float`` fields are type-checked (a bool is never an int);
* ``Literal[...]`` fields accept only the listed values;
* ``field(metadata={"min": a, "max": b})`` bounds numbers;
* ``field(metadata={"optional": True})`` may be left out of a file (parameters added later).

A club variant is a preset plus overrides (``load_ruleset("gaple-club", {"target": 201})``); overrides are
checked the same way. Every refusal is a :class:`RulesetError` naming the file (or ``overrides``), the key and
the reason.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import tomllib
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from clubdesk.games.errors import RulesetError
from clubdesk.i18n import _

__all__ = [
    "PARAMS_TYPES",
    "BhUnplayed",
    "GapleParams",
    "Ruleset",
    "RulesetError",
    "load_ruleset",
    "load_ruleset_file",
    "params_as_dict",
    "register_family",
    "ruleset_dir",
    "ruleset_from_mapping",
    "with_overrides",
]

# --------------------------------------------------------------------------------------------- gaple params

CaughtDouble = Literal["count", "fine"]
OutDoubleMode = Literal["plus", "flat"]
DuelTie = Literal["blocker-loses", "replay"]
OpenOn = Literal["pure", "won"]
BhUnplayed = Literal["fide", "none"]
#: rules G15, T3b: the forfeit deadline counts from the match start (before it) or the table call (after it)
ForfeitFrom = Literal["start", "call"]


@dataclass(frozen=True, slots=True)
class GapleParams:
    """Parameters of a gaple ruleset (CONTRACTS.md §1). Defaults are the tournament preset (seed 000)."""

    target: int = field(default=250, metadata={"min": 1})  # rule GN3
    games_to_win: int = field(default=2, metadata={"min": 1})  # rule G4, B2
    warmup: bool = True  # rule G6, G7
    open_first_min: int = field(default=25, metadata={"min": 0})  # rule GN4, GN5, B8
    open_again_min: int = field(default=10, metadata={"min": 0})  # rule GN4, GN6
    # rule GN4 ("pure": the value before any x2) or B8 ("won": the points the hand actually gives)
    open_on: OpenOn = "pure"
    burn: bool = True  # rule GN6
    caught_double: CaughtDouble = "count"  # rule GS3, GS4 ("count") or B6 ("fine")
    fine_in_block: bool = (
        False  # rule B6: with caught_double = "fine", a blocked hand's caught double is fined
    )
    dead_00: int = field(default=25, metadata={"min": 0})  # rule GS3, B6
    dead_66: int = field(default=50, metadata={"min": 0})  # rule GS4, B6
    out_00: int = field(default=50, metadata={"min": 0})  # rule GS5, B6
    out_66: int = field(default=200, metadata={"min": 0})  # rule GS6, B6
    out_double_mode: OutDoubleMode = (
        "plus"  # rule GS5-GS7, B6 ("plus"); "flat": the hand is worth exactly that
    )
    two_ends_mult: int = field(default=2, metadata={"min": 1})  # rule GS1/GS2
    duel_loss_mult: int = field(default=2, metadata={"min": 1})  # rule GN2, B5
    duel_tie: DuelTie = "blocker-loses"  # rule GN7 or B5
    allow_negative: bool = False  # rule B7 (true) / G3 deduction stops at 0 (false)
    six_doubles_wins: bool = False  # rule B9: six doubles dealt wins the game (club)
    opening_tiles: bool = True  # rule G6 (0-0 opens the match), G10 (games score opens a game)
    seat_change: bool = True  # rule G19: opponents change seats after every game
    double_lead_barred: bool = False  # rule B3: 0-0 and 6-6 may not lead a hand (a hint on every hand's lead)
    bh_unplayed: BhUnplayed = "fide"  # rule T12b: Buchholz of a round without an opponent (CONTRACTS.md §1)
    # rule G15: present 10 minutes before the start, else walkover
    forfeit_from: ForfeitFrom = field(default="start", metadata={"optional": True})


# ----------------------------------------------------------------------------------------------- registry

PARAMS_TYPES: dict[str, type] = {"gaple": GapleParams}
"""family -> frozen parameters dataclass. Add a family with :func:`register_family`."""

# Modules that register a family when imported (lazily, so the loader works before they exist).
_FAMILY_MODULES: dict[str, str] = {
    "domino": "clubdesk.games.domino_es",
    "tavla": "clubdesk.games.tavla",
}


def register_family(family: str, params_type: type) -> None:
    """Register the frozen parameters dataclass of a game family (e.g. ``"domino"``)."""
    if not dataclasses.is_dataclass(params_type):
        raise TypeError(f"{params_type!r} is not a dataclass")
    PARAMS_TYPES[family] = params_type


def _params_type(family: str) -> type | None:
    if family not in PARAMS_TYPES and family in _FAMILY_MODULES:
        try:
            importlib.import_module(_FAMILY_MODULES[family])
        except ImportError:
            return None
    return PARAMS_TYPES.get(family)


# ----------------------------------------------------------------------------------------------- ruleset


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A validated ruleset: a preset, or a preset plus overrides (a club variant)."""

    id: str
    family: str
    name: str
    params: Any  # an instance of PARAMS_TYPES[family]
    description: str = ""
    source: str = ""
    overrides: tuple[tuple[str, object], ...] = ()


_TOP_KEYS = ("id", "family", "name", "params")
_OPTIONAL_TOP_KEYS = ("description",)


def ruleset_dir() -> Path:
    """The folder holding the preset TOML files."""
    return Path(__file__).resolve().parent.parent / "resources" / "rulesets"


def _type_name(tp: object) -> str:
    if typing.get_origin(tp) is Literal:
        return " / ".join(repr(v) for v in typing.get_args(tp))
    return getattr(tp, "__name__", str(tp))


def _check_value(source: str, key: str, tp: object, meta: Mapping[str, object], value: object) -> object:
    """Return ``value`` if it fits the annotated type ``tp``; else raise RulesetError."""
    origin = typing.get_origin(tp)
    if origin is Literal:
        allowed = typing.get_args(tp)
        if value not in allowed or isinstance(value, bool) != any(isinstance(a, bool) for a in allowed):
            reason = _("must be one of {allowed}, not {value!r}")
            raise RulesetError(source, key, reason.format(allowed=_type_name(tp), value=value))
        return value
    if origin in (typing.Union, types.UnionType):
        errors: list[RulesetError] = []
        for arg in typing.get_args(tp):
            if arg is type(None):
                if value is None:
                    return None
                continue
            try:
                return _check_value(source, key, arg, meta, value)
            except RulesetError as exc:
                errors.append(exc)
        raise errors[0] if errors else RulesetError(source, key, _("has no accepted type"))
    if tp is bool:
        if not isinstance(value, bool):
            raise RulesetError(source, key, _("must be true or false, not {value!r}").format(value=value))
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesetError(source, key, _("must be a whole number, not {value!r}").format(value=value))
    elif tp is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise RulesetError(source, key, _("must be a number, not {value!r}").format(value=value))
        value = float(value)
    elif tp is str:
        if not isinstance(value, str):
            raise RulesetError(source, key, _("must be text, not {value!r}").format(value=value))
        return value
    else:
        raise RulesetError(source, key, _("has an unsupported type {tp}").format(tp=_type_name(tp)))
    lo = meta.get("min")
    hi = meta.get("max")
    assert isinstance(value, int | float)
    if isinstance(lo, int | float) and value < lo:
        raise RulesetError(source, key, _("must be at least {min}, not {value}").format(min=lo, value=value))
    if isinstance(hi, int | float) and value > hi:
        raise RulesetError(source, key, _("must be at most {max}, not {value}").format(max=hi, value=value))
    return value


@functools.cache
def _field_specs(params_type: type) -> tuple[tuple[str, object, Mapping[str, object]], ...]:
    hints = typing.get_type_hints(params_type)
    return tuple((f.name, hints[f.name], f.metadata) for f in dataclasses.fields(params_type))


def _validate_params(
    source: str, params_type: type, raw: Mapping[str, object], *, partial: bool, prefix: str = "params."
) -> dict[str, object]:
    specs = {name: (tp, meta) for name, tp, meta in _field_specs(params_type)}
    for key in raw:
        if key not in specs:
            raise RulesetError(source, f"{prefix}{key}", _("unknown parameter"))
    out: dict[str, object] = {}
    for name, (tp, meta) in specs.items():
        if name not in raw:
            # a parameter added after club files were written may be left out: its default applies
            if partial or meta.get("optional"):
                continue
            raise RulesetError(source, f"{prefix}{name}", _("missing parameter"))
        out[name] = _check_value(source, f"{prefix}{name}", tp, meta, raw[name])
    return out


def _build_params(source: str, params_type: type, values: Mapping[str, object]) -> Any:
    try:
        return params_type(**values)
    except (ValueError, TypeError) as exc:  # a __post_init__ cross-check of the family
        raise RulesetError(source, "params", str(exc)) from exc


def ruleset_from_mapping(
    data: Mapping[str, object], source: str = "<ruleset>", overrides: Mapping[str, object] | None = None
) -> Ruleset:
    """Validate a parsed ruleset document (and optional overrides) into a :class:`Ruleset`."""
    for key in data:
        if key not in _TOP_KEYS and key not in _OPTIONAL_TOP_KEYS:
            raise RulesetError(source, str(key), _("unknown key"))
    for key in _TOP_KEYS:
        if key not in data:
            raise RulesetError(source, key, _("missing key"))
    text: dict[str, str] = {}
    for key in ("id", "family", "name", "description"):
        value = data.get(key, "")
        if not isinstance(value, str) or (key != "description" and not value.strip()):
            raise RulesetError(source, key, _("must be non-empty text"))
        text[key] = value
    family = text["family"]
    params_type = _params_type(family)
    if params_type is None:
        raise RulesetError(source, "family", _("unknown game family {family!r}").format(family=family))
    raw = data["params"]
    if not isinstance(raw, Mapping):
        raise RulesetError(source, "params", _("must be a table"))
    values = _validate_params(source, params_type, raw, partial=False)
    ruleset = Ruleset(
        id=text["id"],
        family=family,
        name=text["name"],
        params=_build_params(source, params_type, values),
        description=text["description"],
        source=source,
    )
    return with_overrides(ruleset, overrides) if overrides else ruleset


def with_overrides(ruleset: Ruleset, overrides: Mapping[str, object] | None) -> Ruleset:
    """A club variant: ``ruleset`` with some parameters changed (validated like the file)."""
    if not overrides:
        return ruleset
    params_type = type(ruleset.params)
    values = _validate_params("overrides", params_type, overrides, partial=True, prefix="")
    params = _build_params("overrides", params_type, {**params_as_dict(ruleset), **values})
    merged = dict(ruleset.overrides)
    merged.update(values)
    return dataclasses.replace(ruleset, params=params, overrides=tuple(sorted(merged.items())))


def params_as_dict(ruleset: Ruleset) -> dict[str, object]:
    """The ruleset's parameters by name (for storing, showing or printing)."""
    return {f.name: getattr(ruleset.params, f.name) for f in dataclasses.fields(ruleset.params)}


def load_ruleset_file(path: str | Path, overrides: Mapping[str, object] | None = None) -> Ruleset:
    """Read and validate one ruleset TOML file."""
    path = Path(path)
    source = path.name
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError as exc:
        raise RulesetError(source, "", _("file not found")) from exc
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(source, "", _("not valid TOML: {error}").format(error=exc)) from exc
    return ruleset_from_mapping(data, source, overrides)


@functools.cache
def _load_preset(ruleset_id: str) -> Ruleset:
    if not ruleset_id or "/" in ruleset_id or "\\" in ruleset_id or ruleset_id.startswith("."):
        raise RulesetError(f"{ruleset_id}.toml", "id", _("not a ruleset id"))
    path = ruleset_dir() / f"{ruleset_id}.toml"
    if not path.is_file():
        raise RulesetError(path.name, "id", _("no ruleset {id!r}").format(id=ruleset_id))
    ruleset = load_ruleset_file(path)
    if ruleset.id != ruleset_id:
        reason = _("the file's id {id!r} differs from its name")
        raise RulesetError(path.name, "id", reason.format(id=ruleset.id))
    return ruleset


def load_ruleset(ruleset_id: str, overrides: Mapping[str, object] | None = None) -> Ruleset:
    """Load the preset ``ruleset_id`` (e.g. ``"gaple-club"``) and apply ``overrides`` by parameter name."""
    return with_overrides(_load_preset(ruleset_id), overrides)

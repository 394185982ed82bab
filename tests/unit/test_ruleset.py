"""Rulesets as data: the gaple presets and the generic loader (CONTRACTS.md §1)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import pytest

import clubdesk
from clubdesk.games import RULESETS, RulesetError, load_ruleset
from clubdesk.games.ruleset import (
    PARAMS_TYPES,
    GapleParams,
    load_ruleset_file,
    params_as_dict,
    register_family,
    ruleset_from_mapping,
)

RULESET_DIR = Path(clubdesk.__file__).parent / "resources" / "rulesets"

# The CONTRACTS.md §1 table, copied by hand (column gaple-tournament / gaple-club).
TOURNAMENT = {
    "target": 250,
    "games_to_win": 2,
    "warmup": True,
    "open_first_min": 25,
    "open_again_min": 10,
    "burn": True,
    "caught_double": "count",
    "dead_00": 25,
    "dead_66": 50,
    "out_00": 50,
    "out_66": 200,
    "out_double_mode": "plus",
    "two_ends_mult": 2,
    "duel_loss_mult": 2,
    "duel_tie": "blocker-loses",
    "allow_negative": False,
    "open_on": "pure",  # rule GN4
    "fine_in_block": False,
}
CLUB = {
    "target": 250,
    "games_to_win": 2,
    "warmup": False,
    "open_first_min": 25,
    "open_again_min": 0,
    "burn": False,
    "caught_double": "fine",
    "dead_00": 25,
    "dead_66": 50,
    "out_00": 50,
    "out_66": 100,
    "out_double_mode": "plus",  # rule B6 (Reading): 50 / 100 on top of the normal count
    "two_ends_mult": 1,
    "duel_loss_mult": 2,
    "duel_tie": "replay",
    "allow_negative": True,
    "open_on": "won",  # rule B8: the points the hand gives
    "fine_in_block": True,  # rule B6: no exception for blocked hands
    "double_lead_barred": True,  # rule B3
}


def test_preset_ids_are_the_four_of_the_contract() -> None:
    assert RULESETS == ("gaple-tournament", "gaple-club", "domino-es", "tavla")


@pytest.mark.parametrize(("ruleset_id", "expected"), [("gaple-tournament", TOURNAMENT), ("gaple-club", CLUB)])
def test_gaple_presets_have_the_contract_values(ruleset_id: str, expected: dict[str, object]) -> None:
    rs = load_ruleset(ruleset_id)
    assert rs.id == ruleset_id
    assert rs.family == "gaple"
    values = params_as_dict(rs)
    for key, value in expected.items():
        assert values[key] == value, key


def test_extra_gaple_parameters_follow_the_seeds() -> None:
    # rule B9 (club only), G6/G10 opening tiles and G19 seat change (tournament only)
    t, c = load_ruleset("gaple-tournament").params, load_ruleset("gaple-club").params
    assert (t.six_doubles_wins, t.opening_tiles, t.seat_change) == (False, True, True)
    assert (c.six_doubles_wins, c.opening_tiles, c.seat_change) == (True, False, False)


def test_club_variant_is_preset_plus_overrides() -> None:
    rs = load_ruleset("gaple-club", {"target": 201, "out_66": 200})
    assert rs.params.target == 201
    assert rs.params.out_66 == 200
    assert rs.params.caught_double == "fine"  # untouched
    assert dict(rs.overrides) == {"target": 201, "out_66": 200}
    assert load_ruleset("gaple-club").params.target == 250  # the preset itself is unchanged


@pytest.mark.parametrize(
    ("overrides", "key"),
    [
        ({"target": "250"}, "target"),  # text, not a number
        ({"target": True}, "target"),  # a bool is not a number
        ({"target": 0}, "target"),  # a game needs a positive target
        ({"burn": 1}, "burn"),
        ({"caught_double": "keep"}, "caught_double"),  # not one of count / fine
        ({"duel_tie": "draw"}, "duel_tie"),
        ({"targte": 201}, "targte"),  # unknown parameter
    ],
)
def test_bad_override_is_refused_with_key(overrides: dict[str, object], key: str) -> None:
    with pytest.raises(RulesetError) as info:
        load_ruleset("gaple-tournament", overrides)
    assert info.value.source == "overrides"
    assert info.value.key == key


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "my-gaple.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _preset_text(**changes: str) -> str:
    lines = ['id = "my-gaple"', 'family = "gaple"', 'name = "Mine"', "[params]"]
    for key, value in TOURNAMENT.items():
        lines.append(
            f"{key} = {str(value).lower() if isinstance(value, bool) else repr(value)}".replace("'", '"')
        )
    lines += [
        "six_doubles_wins = false",
        "opening_tiles = true",
        "seat_change = true",
        "double_lead_barred = false",
        'bh_unplayed = "fide"',
    ]
    text = "\n".join(lines) + "\n"
    for old, new in changes.items():
        text = text.replace(old, new)
    return text


def test_a_valid_file_loads(tmp_path: Path) -> None:
    rs = load_ruleset_file(_write(tmp_path, _preset_text()))
    assert rs.params == GapleParams()  # dataclass defaults are the tournament preset


@pytest.mark.parametrize(
    ("change", "key"),
    [
        ({"target = 250": "target = 250.5"}, "params.target"),
        ({"target = 250\n": ""}, "params.target"),  # missing key
        ({"burn = true": "burn = true\nburnt = false"}, "params.burnt"),  # unknown key
        ({'"count"': '"counted"'}, "params.caught_double"),
        ({'family = "gaple"': 'family = "chess"'}, "family"),
        ({'name = "Mine"': 'name = "Mine"\ncolour = "red"'}, "colour"),
    ],
)
def test_bad_file_is_refused_with_file_key_and_reason(
    tmp_path: Path, change: dict[str, str], key: str
) -> None:
    with pytest.raises(RulesetError) as info:
        load_ruleset_file(_write(tmp_path, _preset_text(**change)))
    assert info.value.source == "my-gaple.toml"
    assert info.value.key == key
    assert info.value.reason


def test_not_toml_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as info:
        load_ruleset_file(_write(tmp_path, "id = \n"))
    assert info.value.source == "my-gaple.toml"


def test_unknown_ruleset_id_is_refused() -> None:
    with pytest.raises(RulesetError):
        load_ruleset("gaple-nonexistent")
    with pytest.raises(RulesetError):
        load_ruleset("../gaple-club")


def test_every_preset_file_is_valid() -> None:
    for path in sorted(RULESET_DIR.glob("gaple-*.toml")):
        assert load_ruleset_file(path).id == path.stem


@dataclass(frozen=True)
class _ToyParams:
    rounds: int = field(default=3, metadata={"min": 1, "max": 9})
    mode: Literal["fast", "slow"] = "fast"
    ratio: float = 0.5


def test_a_new_family_needs_no_loader_code() -> None:
    register_family("toy", _ToyParams)
    try:
        data = {
            "id": "toy",
            "family": "toy",
            "name": "Toy",
            "params": {"rounds": 4, "mode": "slow", "ratio": 1},
        }
        rs = ruleset_from_mapping(data, "toy.toml")
        assert rs.params == _ToyParams(4, "slow", 1.0)
        with pytest.raises(RulesetError) as info:
            ruleset_from_mapping({**data, "params": {"rounds": 10, "mode": "slow", "ratio": 1}}, "toy.toml")
        assert info.value.key == "params.rounds"  # above its max of 9
        with pytest.raises(RulesetError) as info:
            ruleset_from_mapping({**data, "params": {"rounds": 4, "mode": "slow"}}, "toy.toml")
        assert info.value.key == "params.ratio"  # missing
        assert dataclasses.is_dataclass(PARAMS_TYPES["toy"])
    finally:
        PARAMS_TYPES.pop("toy", None)

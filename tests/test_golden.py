"""Golden traces per preset, of deals and of whole games: any change of play shows here."""

import pytest
from golden_traces import PRESETS, game_lines, game_path_of, golden_lines, path_of


@pytest.mark.parametrize("preset", PRESETS)
def test_golden_traces_unchanged(preset):
    stored = path_of(preset).read_text(encoding="utf-8").splitlines()
    fresh = golden_lines(preset)
    assert len(stored) == len(fresh)
    for i, (a, b) in enumerate(zip(stored, fresh, strict=True)):
        assert a == b, f"{preset} line {i} differs; regenerate only for an intended change"


@pytest.mark.parametrize("preset", PRESETS)
def test_game_golden_traces_unchanged(preset):
    stored = game_path_of(preset).read_text(encoding="utf-8").splitlines()
    fresh = game_lines(preset)
    assert len(stored) == len(fresh)
    for i, (a, b) in enumerate(zip(stored, fresh, strict=True)):
        assert a == b, f"{preset} game line {i} differs; regenerate only for an intended change"

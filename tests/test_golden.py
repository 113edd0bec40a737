"""Golden traces per preset: any change in the engine's play shows up here."""

import pytest
from golden_traces import PRESETS, golden_lines, path_of


@pytest.mark.parametrize("preset", PRESETS)
def test_golden_traces_unchanged(preset):
    stored = path_of(preset).read_text(encoding="utf-8").splitlines()
    fresh = golden_lines(preset)
    assert len(stored) == len(fresh)
    for i, (a, b) in enumerate(zip(stored, fresh, strict=True)):
        assert a == b, f"{preset} line {i} differs; regenerate only for an intended change"

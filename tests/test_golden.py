"""Golden traces per preset, of deals and of whole games: any change of play shows here."""

import pytest
from golden_traces import KINDS, PRESETS, golden_lines, path_of


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("preset", PRESETS)
def test_golden_traces_unchanged(preset, kind):
    stored = path_of(preset, kind).read_text(encoding="utf-8").splitlines()
    fresh = golden_lines(preset, kind)
    assert len(stored) == len(fresh)
    for i, (a, b) in enumerate(zip(stored, fresh, strict=True)):
        assert a == b, f"{preset} {kind} line {i} differs; regenerate only for an intended change"

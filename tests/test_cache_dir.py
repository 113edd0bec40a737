"""The compiled-code caches of older sources are pruned, the most recent kept."""

import os

from sim import prune_stale_caches


def test_only_the_most_recent_stale_caches_are_kept(tmp_path):
    for k in range(6):  # numba-0 is the oldest
        d = tmp_path / f"numba-{k}"
        d.mkdir()
        (d / "index.nbi").write_text("x")
        os.utime(d, (1_000_000 + k, 1_000_000 + k))
    (tmp_path / "notes.txt").write_text("not a cache")
    current = tmp_path / "numba-1"  # old, but in use: never removed
    removed = prune_stale_caches(current, keep=3)
    assert sorted(p.name for p in removed) == ["numba-0", "numba-2"]
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == ["notes.txt", "numba-1", "numba-3", "numba-4", "numba-5"]
    assert prune_stale_caches(tmp_path / "nowhere" / "numba-x") == []

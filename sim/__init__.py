"""Simulation side of the Thousand toolkit: cards, rules, deals and engines."""

import hashlib
import os
import shutil
from pathlib import Path

__version__ = "0.1.0"
ENGINE_VERSION = "4"  # bump whenever simulated results change for the same seed


_NOT_COMPILED = frozenset(
    {
        "__main__.py",
        "advise.py",
        "bench.py",
        "cli/",
        "docs.py",
        "compare.py",
        "declarer.py",
        "duel.py",
        "games.py",
        "hands.py",
        "output.py",
        "parallel.py",
        "parquet_concat.py",
        "reference/",
        "runfolder.py",
        "runner.py",
        "schema.py",
    }
)


def _numba_cache_dir() -> str:
    """A compiled-code cache folder named after the package's own sources.

    numba invalidates a cached function only when its own file changes, not when a
    function it inlines from another file does; the engine inlines across modules,
    so a stale cache could run old rules. Naming the folder after a digest of every
    source file of the package makes any edit start from a clean cache. Modules that
    hold no compiled code and no constant compiled code reads (the command line, the
    file writers, the run drivers, the plain reference engines) are left out, so
    editing them keeps the cache.
    """
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        name = path.relative_to(root).as_posix()
        if name in _NOT_COMPILED or name.split("/")[0] + "/" in _NOT_COMPILED:
            continue
        digest.update(name.encode())
        digest.update(path.read_bytes())
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return str(base / "thousand-sim" / f"numba-{digest.hexdigest()[:16]}")


KEEP_CACHES = 3  # compiled-code caches of earlier sources kept beside the current one


def prune_stale_caches(current: Path, keep: int = KEEP_CACHES) -> list[Path]:
    """Remove the compiled-code caches of older sources beside ``current``; the removed.

    Every edit of the engine's sources starts a new cache folder (about 50 MB), so
    without pruning they pile up. The ``keep`` most recently written ones are kept
    (another checkout or version in use keeps its own), and ``current`` always.
    """
    if not current.parent.is_dir():
        return []
    others = []
    for path in current.parent.glob("numba-*"):
        try:
            if path.is_dir() and path != current:
                others.append((path.stat().st_mtime, path))
        except OSError:  # removed meanwhile by another process
            continue
    stale = [path for _, path in sorted(others, reverse=True)[keep:]]
    for path in stale:
        shutil.rmtree(path, ignore_errors=True)
    return stale


if "NUMBA_CACHE_DIR" not in os.environ:
    os.environ["NUMBA_CACHE_DIR"] = _numba_cache_dir()
    if not Path(os.environ["NUMBA_CACHE_DIR"]).exists():  # new sources: once per edit
        prune_stale_caches(Path(os.environ["NUMBA_CACHE_DIR"]))
    import sys

    if "numba" in sys.modules:  # imported before us: point its config there too
        sys.modules["numba"].config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]

"""The compiled-code cache: one folder per module and version of the sources it depends on."""

import os

from sim import cache


def test_only_the_most_recent_older_folders_of_a_module_are_kept(tmp_path):
    for k in range(6):  # sim.engine.driver-0 is the oldest
        d = tmp_path / f"sim.engine.driver-{k}"
        d.mkdir()
        (d / "index.nbi").write_text("x")
        os.utime(d, (1_000_000 + k, 1_000_000 + k))
    other = tmp_path / "sim.engine.game-0"  # another module's folder: never touched
    other.mkdir()
    (tmp_path / "notes.txt").write_text("not a cache")
    current = tmp_path / "sim.engine.driver-1"  # old, but in use: never removed
    removed = cache.prune(current, keep=3)
    assert sorted(p.name for p in removed) == ["sim.engine.driver-0", "sim.engine.driver-2"]
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == [
        "notes.txt",
        "sim.engine.driver-1",
        "sim.engine.driver-3",
        "sim.engine.driver-4",
        "sim.engine.driver-5",
        "sim.engine.game-0",
    ]
    assert cache.prune(tmp_path / "nowhere" / "sim.engine.driver-x") == []


def test_a_module_digest_covers_what_its_compiled_code_imports_and_nothing_else():
    closure = cache.closure("sim.engine.driver")
    assert {"sim.engine.choose", "sim.engine.play", "sim.rng", "sim.jit"} <= closure
    # the guide and the sampling player are compiled on their own and called through
    # addresses: an edit of one recompiles that player, never the engine's kernels (the
    # scripted heuristics are called directly, for speed: they are part of the engine)
    # (nor the open-card search the sampling player runs: the engine reserves its
    # workspace by sim.engine.arena's sizes alone)
    pimc = "sim.engine.strategies.pimc.entry"
    players = {"sim.engine.strategies.guide", pimc, "sim.engine.search"}
    for kernel_module in ("sim.engine.driver", "sim.engine.game", "sim.engine.declarer"):
        assert not players & cache.closure(kernel_module), kernel_module
    # the sampling player breaks a tie between cards by strong's fitted scores, which
    # read the heuristic's card: an edit of the heuristic recompiles it too
    assert "sim.engine.strategies.strong" in cache.closure(pimc)
    assert "sim.engine.strategies.heuristic" in cache.closure(pimc)
    assert "sim.engine.strategies.heuristic" in cache.closure("sim.engine.driver")
    # not a path: the same sources in another folder share the digest
    assert len(cache.module_digest("sim.engine.driver")) == 20


def _copy_sources(dest):
    import shutil
    from pathlib import Path

    shutil.copytree(Path(cache.PACKAGE), dest / "sim", ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def _folder_in(root, module, env):
    import subprocess
    import sys

    code = f"from sim.cache import cache_folder; print(cache_folder({module!r}))"
    r = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, env=env
    )
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


def test_two_checkouts_of_one_version_share_the_cache_and_an_edit_starts_a_new_one(tmp_path):
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop("NUMBA_CACHE_DIR", None)
    a = _copy_sources(tmp_path / "a")
    b = _copy_sources(tmp_path / "b")
    for module in ("sim.engine.driver", "sim.engine.strategies.heuristic"):
        assert _folder_in(a, module, env) == _folder_in(b, module, env)  # not the path
    # an edit of what the engine's compiled code imports: a new folder for the engine,
    # so a stale entry can never be loaded; a module that does not import it keeps its own
    play = b / "sim" / "engine" / "play.py"
    play.write_text(play.read_text() + "\n# an edit\n")
    assert _folder_in(a, "sim.engine.driver", env) != _folder_in(b, "sim.engine.driver", env)
    assert _folder_in(a, "sim.rng", env) == _folder_in(b, "sim.rng", env)
    c = _copy_sources(tmp_path / "c")  # an edit of one player: that player and those on it
    heur = c / "sim" / "engine" / "strategies" / "guide.py"
    heur.write_text(heur.read_text() + "\n# an edit\n")
    for module, moved in (
        ("sim.engine.strategies.guide", True),
        ("sim.engine.strategies.pimc.entry", False),
        ("sim.engine.strategies.heuristic", False),
        ("sim.engine.driver", False),
        ("sim.engine.game", False),
    ):
        assert (_folder_in(a, module, env) != _folder_in(c, module, env)) == moved, module


def test_an_unwritable_cache_folder_falls_back_to_the_temporary_folder(tmp_path, monkeypatch):
    import tempfile

    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker / "cache"))  # cannot be made, even as root
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    cache.folder_for.cache_clear()
    try:
        folder = cache.folder_for("sim.rng")
        assert folder == cache.cache_folder("sim.rng", cache.fallback_root())
        assert folder.is_dir() and str(folder).startswith(str(tmp_path / "tmp"))
    finally:
        cache.folder_for.cache_clear()


def test_the_compile_notice_shows_exactly_when_a_function_is_not_cached(
    tmp_path, monkeypatch, capsys
):
    from sim.cli.common import Console
    from sim.runs.folder import compile_notice

    loud, quiet = Console(quiet=False), Console(quiet=True)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    name = "sim.engine.driver.slots_kernel"
    assert compile_notice(loud, name) is True
    assert "compiling the engine" in capsys.readouterr().err
    assert compile_notice(quiet, name) is True  # --quiet: compiled all the same, not said
    assert capsys.readouterr().err == ""
    folder = cache.cache_folder("sim.engine.driver")
    folder.mkdir(parents=True)
    (folder / "driver.slots_kernel-42.py311.nbi").write_bytes(b"")
    assert compile_notice(loud, name) is False
    assert capsys.readouterr().err == ""
    # a player's callback counts: the notice names what a run needs, kernel and players
    assert compile_notice(loud, name, "sim.engine.strategies.pimc.entry.pimc_entry") is True
    folder = cache.cache_folder("sim.engine.strategies.pimc.entry")
    folder.mkdir(parents=True)
    (folder / "cf-entry.pimc_entry-9.py311.nbi").touch()
    assert compile_notice(loud, name, "sim.engine.strategies.pimc.entry.pimc_entry") is False


def test_the_notice_names_the_files_numba_writes():
    """After a run, every function the notice looks for is found in the cache."""
    import importlib

    from sim.engine.api import play_hands
    from sim.engine.game import play_games
    from sim.engine.strategies.addresses import entry_names
    from sim.rules import load_rules
    from sim.runs.declarer import declarer_functions, warm_declarer
    from sim.runs.folder import ENGINE_FUNCTIONS

    rules = load_rules("classic")
    play_hands(rules, 2, 0, ("guide", "heuristic", "heuristic_v1"))
    play_games(rules, 1, 0)
    warm_declarer(rules, ["guide", "par"])  # the safe bids' players: the par's solver too
    names = [*ENGINE_FUNCTIONS["hands"], *ENGINE_FUNCTIONS["games"], *entry_names(["guide"])]
    names += declarer_functions(["guide", "par"])
    assert "sim.engine.par.par_pick" in names
    for name in names:
        module, function = name.rsplit(".", 1)
        assert hasattr(importlib.import_module(module), function), name
        assert cache.is_cached(module, function), name


def test_the_caches_of_the_earlier_layout_are_removed(tmp_path):
    root = tmp_path / "thousand-sim" / "numba"
    root.mkdir(parents=True)
    legacy = tmp_path / "thousand-sim" / "numba-0123456789abcdef"
    legacy.mkdir()
    (legacy / "x.nbi").write_text("x")
    (tmp_path / "thousand-sim" / "notes.txt").write_text("kept")
    assert cache.prune_legacy(root) == [legacy]
    assert sorted(p.name for p in root.parent.iterdir()) == ["notes.txt", "numba"]
    assert cache.prune_legacy(tmp_path / "elsewhere") == []

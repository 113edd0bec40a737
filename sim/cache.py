"""Where the compiled code is cached, and when it is stale.

numba caches each compiled function beside a stamp of its own source file. The
engine's compiled code also holds code from the modules it imports (LLVM links and
inlines callees across modules), so a stale cache could run old rules after an edit
of an imported module; and numba's default folder is named after the absolute path
of the source folder, so a second checkout of the same version compiled everything
again. Here every compiled function of the package is cached

* in ``<root>/<module>-<digest>/``, where ``<digest>`` is a digest of the contents
  of the module and of every module of the package it imports, directly or not
  (:func:`module_digest`): an edit recompiles exactly the modules whose compiled
  code may depend on it (an edit of one player recompiles that player, not the
  engine), and any checkout, installed wheel or folder of the same sources shares
  the same cache;
* with that digest as its stamp, so a stale entry is never loaded.

``<root>`` is ``$NUMBA_CACHE_DIR`` when set, else ``$XDG_CACHE_HOME/thousand-sim/numba``
(``~/.cache/thousand-sim/numba``); when that cannot be written (a read-only home) a
folder under the system's temporary folder is used instead. When a module's new
folder is made, all but the :data:`KEEP` most recent older folders of the same
module are removed, and so are the one-folder-per-version caches of earlier releases
(``thousand-sim/numba-<digest>``).

numba's side is set up by :func:`install`, which :mod:`sim.jit` calls on import: every
module with compiled code imports that before it compiles anything. The rest of this
module does not import numba (a process that only drives workers never loads it).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

PACKAGE = Path(__file__).resolve().parent  # .../sim
T = TypeVar("T")
KEEP = 3  # older folders of a module kept beside the current one


@cache
def _sources() -> dict[str, Path]:
    """Every module of the package: dotted name -> file."""
    out = {}
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


_FROM = re.compile(r"^from\s+([\w.]+)\s+import\s+(\([^)]*\)|[^\n]*)", re.M)
_IMPORT = re.compile(r"^import\s+([\w.]+)", re.M)


@cache
def _imports(module: str) -> frozenset[str]:
    """The package's modules that ``module`` imports at its top level (and their packages).

    Read from the source's unindented ``import`` and ``from ... import`` lines (compiled
    code can only use a module's globals, which those lines bring in).
    """
    sources = _sources()
    text = sources[module].read_text(encoding="utf-8")
    names = [m.group(1) for m in _IMPORT.finditer(text)]
    for m in _FROM.finditer(text):
        names.append(m.group(1))
        for item in m.group(2).strip("()").split(","):
            item = item.split("#")[0].split(" as ")[0].strip()
            if item:
                names.append(f"{m.group(1)}.{item}")
    found: set[str] = set()
    for name in names:
        while name:  # a module imports its packages' __init__ too
            if name in sources:
                found.add(name)
            name = name.rpartition(".")[0]
    found.discard(module)
    return frozenset(found)


@cache
def closure(module: str) -> frozenset[str]:
    """``module`` and every package module it imports, directly or not."""
    seen = {module}
    todo = [module]
    while todo:
        for dep in _imports(todo.pop()):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return frozenset(seen)


@cache
def module_digest(module: str) -> str:
    """A digest of the sources of ``module``'s :func:`closure` (names and contents).

    A module's data file, the ``.npz`` of the same name beside it (the learned
    players' weights, which compiled code holds as constants), counts as its source.
    """
    sources = _sources()
    digest = hashlib.sha256()
    for name in sorted(closure(module)):
        digest.update(name.encode() + b"\0" + sources[name].read_bytes() + b"\0")
        data = sources[name].with_suffix(".npz")
        if data.is_file():
            digest.update(data.read_bytes() + b"\0")
    return digest.hexdigest()[:20]


def default_root() -> Path:
    """The folder the compiled-code caches of the package live in (see the module doc)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "thousand-sim" / "numba"


def tables_root() -> Path:
    """Where tables built once for a rule set are kept (the advisor's class tables).

    ``$THOUSAND_TABLES_DIR`` when set, else ``$XDG_CACHE_HOME/thousand-sim/tables``
    (``~/.cache/thousand-sim/tables``).
    """
    if os.environ.get("THOUSAND_TABLES_DIR"):
        return Path(os.environ["THOUSAND_TABLES_DIR"])
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "thousand-sim" / "tables"


def kept(
    name: str,
    build: Callable[[], T],
    read: Callable[[Path], T],
    write: Callable[[T, Path], None],
) -> T:
    """A table built once and kept under :func:`tables_root` as ``name``, read back later.

    ``read(path)`` loads it (an ``OSError`` or ``ValueError`` means it is not there or
    not whole: it is built again); ``build()`` makes it; ``write(value, path)`` saves it
    to a temporary name in the same folder, which then replaces ``name`` at once, so a
    reader never sees half a file and two builders never mix theirs. A folder that
    cannot be written keeps nothing: the table is built again next time.
    """
    path = tables_root() / name
    try:
        return read(path)
    except (OSError, ValueError):
        pass
    value = build()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.stem}.{os.getpid()}{path.suffix}")
        write(value, tmp)
        tmp.replace(path)
    except OSError:  # a read-only cache: built again next time
        pass
    return value


def fallback_root() -> Path:
    """The cache root used when :func:`default_root` cannot be written."""
    return Path(tempfile.gettempdir()) / f"thousand-sim-{os.getuid()}" / "numba"


def cache_folder(module: str, root: Path | None = None) -> Path:
    """The folder ``module``'s compiled functions are cached in."""
    return (root or default_root()) / f"{module}-{module_digest(module)}"


def prune(current: Path, keep: int = KEEP) -> list[Path]:
    """Remove the older folders of ``current``'s module but the ``keep`` most recent; them."""
    module = current.name.rpartition("-")[0]
    if not module or not current.parent.is_dir():
        return []
    others = []
    for path in current.parent.glob(f"{module}-*"):
        try:
            if path.is_dir() and path != current and path.name.rpartition("-")[0] == module:
                others.append((path.stat().st_mtime, path))
        except OSError:  # removed meanwhile by another process
            continue
    stale = [path for _, path in sorted(others, reverse=True)[keep:]]
    for path in stale:
        shutil.rmtree(path, ignore_errors=True)
    return stale


def prune_legacy(root: Path) -> list[Path]:
    """Remove the caches of versions before this layout (``thousand-sim/numba-<digest>``)."""
    if root.name != "numba" or not root.parent.is_dir():
        return []
    old = [p for p in root.parent.glob("numba-*") if p.is_dir()]
    for path in old:
        shutil.rmtree(path, ignore_errors=True)
    return old


def _writable_folder(folder: Path) -> bool:
    """Make ``folder`` (pruning its module's older folders when new); whether it is writable."""
    try:
        new = not folder.is_dir()
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    if new:
        prune(folder)
        prune_legacy(folder.parent)
    return True


@cache
def folder_for(module: str) -> Path | None:
    """The writable cache folder of ``module`` (the fallback root when needed); None if none."""
    for root in (default_root(), fallback_root()):
        folder = cache_folder(module, root)
        if _writable_folder(folder):
            return folder
    return None


def is_cached(module: str, function: str) -> bool:
    """Whether ``module.function`` has a cache entry for the current sources (no numba import).

    ``function`` is the function's name; a C callback's entry counts too.
    """
    short = module.rpartition(".")[2]
    for root in (default_root(), fallback_root()):
        folder = cache_folder(module, root)
        if any(folder.glob(f"{short}.{function}-*.nbi")) or any(
            folder.glob(f"*-{short}.{function}-*.nbi")
        ):
            return True
    return False


def install() -> None:
    """Put :class:`SourceDigestLocator` first among numba's cache locators (idempotent)."""
    from numba.core import caching

    impl: Any = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")  # noqa: B009
    if impl._locator_classes[0] is not _locator_class():
        impl._locator_classes = [_locator_class(), *impl._locator_classes]


@cache
def _locator_class() -> type:
    from numba.core import caching

    base: Any = caching._CacheLocator

    class SourceDigestLocator(base):
        """numba's cache locator for the package's functions (see the module doc)."""

        def __init__(self, py_func: Any, folder: Path, stamp: str) -> None:
            self._py_file = py_func.__code__.co_filename
            self._lineno = py_func.__code__.co_firstlineno
            self._folder = folder
            self._stamp = stamp

        def ensure_cache_path(self) -> None:
            if not _writable_folder(self._folder):
                raise OSError(f"cannot write the compiled-code cache {self._folder}")

        def get_cache_path(self) -> str:
            return str(self._folder)

        def get_source_stamp(self) -> str:
            return self._stamp

        def get_disambiguator(self) -> str:
            return str(self._lineno)

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            module = getattr(py_func, "__module__", "") or ""
            if module.split(".")[0] != PACKAGE.name or module not in _sources():
                return None
            folder = folder_for(module)
            if folder is None:
                return None
            return cls(py_func, folder, module_digest(module))

    return SourceDigestLocator

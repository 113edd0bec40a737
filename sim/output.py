"""Output folders that are never half-written, the ``run.json`` manifest, bad input.

Bad input is a :class:`UsageError` (one line, exit code 2 on the command line), or a
:class:`FieldError` naming the field of a job's spec it is in.
"""

from __future__ import annotations

import json
import math
import os
import platform
import shutil
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from types import TracebackType
from typing import Any

import sim
from sim.i18n import _
from sim.reading import refusal
from sim.rules import Rules


class UsageError(ValueError):
    """Bad command-line input; the message names the culprit (exit code 2).

    The message is either written already (in the current language, ``_("...")``
    formatted), or given as its English template and fields,
    ``UsageError("{path}: not found", path=path)``: then it is translated and filled
    when it is shown, in the language of that moment, so a module that speaks no
    language (:mod:`analysis`) refuses in the user's words. :func:`sim.i18n.extract`
    marks the literal templates of ``UsageError(...)`` for the catalogues.
    """

    def __init__(self, message: object = "", /, **fields: object) -> None:
        self._template, self._fields = str(message), fields
        super().__init__(message)

    def __str__(self) -> str:
        if not self._fields:
            return super().__str__()
        return _(self._template).format(**self._fields)

    def __reduce__(self) -> tuple[Any, ...]:
        # a refusal crosses processes (workers, Dask) with its template and fields
        return (_refusal, (type(self), self._template, self._fields))


def _refusal(kind: type[UsageError], template: str, fields: dict[str, object]) -> UsageError:
    """A :class:`UsageError` rebuilt from its template and fields (unpickling)."""
    return kind(template, **fields)


class FieldError(UsageError):
    """Bad input in one field of a job's spec, in words that name fields, never flags.

    The message is a template in the current language that names fields as
    ``{field:NAME}`` (``{field:talon_shown}``), or ``{field}`` for the error's own
    field where one message serves several; ``str()`` names them as the spec does
    (``talon_shown``), :meth:`worded` as its caller does (the command line: by its
    flags, ``--talon-shown``).

    Attributes:
        field: the spec's field the bad input is in (``hand``, ``auction``, ``seat``).
        why: the message's template.
        values: the template's other fields: the culprit and what it was checked against.
    """

    def __init__(self, field: str, why: str, /, **values: object) -> None:
        self.field, self.why, self.values = field, why, values
        super().__init__(self.worded())

    def worded(self, name: Callable[[str], str] = str) -> str:
        """The message with every field it names written as ``name`` writes it.

        ``name`` takes a field of the spec (``talon_shown``); by default the field
        itself is written.
        """
        return self.why.format(**self.values, field=_FieldNames(self.field, name))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_field_error, (type(self), self.field, self.why, self.values))


def _field_error(
    kind: type[FieldError], field: str, why: str, values: dict[str, object]
) -> FieldError:
    """A :class:`FieldError` rebuilt from its field, template and values (unpickling)."""
    return kind(field, why, **values)


class _FieldNames:
    """A message's ``{field}`` (the error's own field) and ``{field:NAME}``, worded."""

    def __init__(self, field: str, name: Callable[[str], str]) -> None:
        self.field, self.name = field, name

    def __format__(self, spec: str) -> str:
        return self.name(spec or self.field)


def check_writable(path: str | Path, flag: str, folder: bool) -> None:
    """Refuse a path the command could not write, before any work: one line naming it.

    ``path`` is a folder (``folder``) or a file still to be written. The nearest
    existing folder on its way must be a folder this process can create files in; a
    file there, a read-only place (``/proc``) or a missing permission is refused. The
    check creates nothing that stays (one empty file, removed at once).

    Raises:
        UsageError: naming ``flag``, the path and the reason.
    """
    target = Path(path)
    place = target.absolute() if folder else target.absolute().parent
    while not place.exists() and place != place.parent:
        place = place.parent
    if not place.is_dir():
        raise UsageError(
            _("{flag} {path}: {place} is a file, not a folder").format(
                flag=flag, path=target, place=place
            )
        )
    try:
        fd, probe = tempfile.mkstemp(prefix=".thousand-check-", dir=place)
    except OSError as exc:
        reason = os_reason(exc)
        raise UsageError(
            _("{flag} {path}: cannot write in {place} ({reason})").format(
                flag=flag, path=target, place=place, reason=reason
            )
        ) from None
    os.close(fd)
    os.unlink(probe)


def check_out_dir(path: str | Path, force: bool, flag: str = "--out") -> Path:
    """Refuse a non-empty folder (unless ``force``) or an unwritable place; return the path.

    Raises:
        UsageError: when the folder exists and is not empty, is a file, or cannot be
            written (:func:`check_writable`).
    """
    out = Path(path)
    if out.exists() and not out.is_dir():
        raise UsageError(_("{flag} {path}: exists and is not a folder").format(flag=flag, path=out))
    if out.is_dir() and any(out.iterdir()) and not force:
        raise UsageError(
            _("{flag} {path}: folder exists and is not empty (use --force)").format(
                flag=flag, path=out
            )
        )
    check_writable(out, flag, folder=True)
    return out


class StagedDir:
    """Write files into a hidden staging folder; move them into place on success.

    On an exception nothing reaches the target folder, so a failed or interrupted
    command never leaves a half-written output. Use as a context manager; write
    into :attr:`path`.
    """

    def __init__(self, target: str | Path) -> None:
        self.target = Path(target)
        self.target.parent.mkdir(parents=True, exist_ok=True)
        self.path = Path(tempfile.mkdtemp(prefix=f".{self.target.name}.", dir=self.target.parent))

    def __enter__(self) -> StagedDir:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            if exc_type is None:
                self.target.mkdir(parents=True, exist_ok=True)
                for item in sorted(self.path.rglob("*")):
                    rel = item.relative_to(self.path)
                    dest = self.target / rel
                    if item.is_dir():
                        dest.mkdir(parents=True, exist_ok=True)
                    else:
                        os.replace(item, dest)
        finally:
            shutil.rmtree(self.path, ignore_errors=True)


def package_versions() -> dict[str, str]:
    """Versions of Python and of the packages that shape results."""
    out = {"python": platform.python_version()}
    for name in ("numpy", "numba", "polars", "pyarrow"):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:  # pragma: no cover - all are dependencies
            out[name] = "missing"
    return out


def os_reason(exc: BaseException) -> str:
    """Why a file could not be read or written, in the current language.

    The common causes in words (a missing file, a folder, no permission, not UTF-8
    text, a file larger than it may be: :func:`sim.reading.read_text`), else the
    system's own words (``strerror``) without Python's ``[Errno N]``.
    """
    refused = refusal(exc)
    if refused is not None:
        return refused
    if isinstance(exc, FileNotFoundError):
        return _("no such file")
    if isinstance(exc, IsADirectoryError):
        return _("a folder, not a file")
    if isinstance(exc, PermissionError):
        return _("permission denied")
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return type(exc).__name__


def source_date() -> datetime | None:
    """``$SOURCE_DATE_EPOCH`` as a UTC time, or None when it is unset or not a number.

    The reproducible-builds convention: where it is set (``make report`` sets it to the
    last change of the sources), every time stamp a run writes is that instant and
    no duration is written, so the same sources and seeds give the same bytes.
    """
    text = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not text.isdigit():
        return None
    return datetime.fromtimestamp(int(text), UTC)


def now_iso() -> str:
    """Current UTC time, ISO 8601, seconds precision (``$SOURCE_DATE_EPOCH`` if set)."""
    return (source_date() or datetime.now(UTC)).isoformat(timespec="seconds")


def write_manifest(
    folder: Path, rules: Rules, seed: int, sizes: dict[str, int], **extra: Any
) -> dict[str, Any]:
    """Write ``folder/run.json``: the resolved rules and hash, seed, sizes, versions, extra.

    The one builder of the manifest every run folder carries; the document is checked
    against its declaration (:data:`sim.schema.RUN_JSON`) before it is written.
    ``started`` and ``ended`` default to the time of writing (a caller that did not
    time its run, such as a notebook writing tables it made).

    Returns:
        The document written.

    Raises:
        ValueError: a key that is not declared, or a value of another type.
    """
    from sim.schema import check_run_json

    doc = {
        "rules_name": rules.name,
        "rules_hash": rules.rules_hash,
        "rules": rules.to_dict(),
        "seed": seed,
        "sizes": sizes,
        "engine_version": sim.ENGINE_VERSION,
        "toolkit_version": sim.__version__,
        "versions": package_versions(),
        **extra,
    }
    doc.setdefault("ended", now_iso())
    doc.setdefault("started", doc["ended"])
    check_run_json(doc)
    write_json(folder / "run.json", doc)
    return doc


def json_safe(obj: Any) -> Any:
    """``obj`` with every float that is not finite replaced by None (for ``--json``)."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: json_safe(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [json_safe(v) for v in obj]
    return obj


def write_json(path: Path, doc: dict[str, Any]) -> None:
    """Write a JSON document (UTF-8, indented, trailing newline)."""
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

"""Reading the files a user names: as UTF-8 text, and never more than a bound.

Every file the command line reads because a user named it (a rules file, a deal
file, a run folder's ``run.json``) is read by :func:`read_text`. It reads at most
one byte more than the file's kind may hold, so a file too large (or a device such
as ``/dev/zero``, which never ends) is refused at once rather than read whole, and
it decodes the bytes as UTF-8. Both refusals are errors the callers already turn
into one line: a :class:`TooLarge` is an :class:`OSError`, a file that is not UTF-8
a :class:`UnicodeDecodeError` (:func:`refusal` words both).

The bounds are generous: a rules file or a ``run.json`` is a few kilobytes, a deal
file of the notation about 500 bytes a deal and a ``hands --trace`` file about a
kilobyte a deal, so :data:`DEALS_MOST` holds some 60,000 traced deals (``show``
replays a few thousand deals a second).
"""

from __future__ import annotations

from pathlib import Path

from sim.i18n import _

MIB = 1 << 20
TEXT_MOST = 1 * MIB
"""The most a rules file or a run folder's ``run.json`` may hold."""
DEALS_MOST = 64 * MIB
"""The most a deal file may hold (the deal notation, or the JSON lines of ``hands --trace``)."""


class TooLarge(OSError):
    """A file larger than its kind may be.

    Attributes:
        most: the most bytes the file may hold.
    """

    def __init__(self, path: str | Path, most: int) -> None:
        super().__init__(f"{path}: larger than {most // MIB} MiB")
        self.most = most


def read_text(path: str | Path, most: int) -> str:
    """The text of the file ``path``, which may hold at most ``most`` bytes (whole MiB).

    At most ``most + 1`` bytes are read, whatever the file (a device that never ends
    included).

    Raises:
        TooLarge: the file holds more than ``most`` bytes.
        OSError: the file cannot be opened or read (missing, a folder, no permission).
        UnicodeDecodeError: the bytes are not UTF-8 text.
    """
    with open(path, "rb") as fh:
        data = fh.read(most + 1)
    if len(data) > most:
        raise TooLarge(path, most)
    return data.decode("utf-8")


def refusal(exc: BaseException) -> str | None:
    """Why :func:`read_text` refused a file, in the current language; None for other errors.

    ``larger than 64 MiB`` or ``not UTF-8 text``.
    """
    if isinstance(exc, TooLarge):
        return _("larger than {size} MiB").format(size=exc.most // MIB)
    if isinstance(exc, UnicodeDecodeError):
        return _("not UTF-8 text")
    return None

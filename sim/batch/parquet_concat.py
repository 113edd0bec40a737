"""Join Parquet files of one schema into one file by copying their bytes.

A Parquet file is ``PAR1``, the row groups' column chunks, the footer (a Thrift
compact-protocol ``FileMetaData``), its length and ``PAR1`` again. The data pages
hold no absolute positions; only the footer does (the column chunks' page, dictionary
and index offsets). So files written in parallel by workers are joined by copying
each one's data region and writing one footer whose row groups are those of every
file, their offsets shifted to where the bytes now lie. Nothing is decoded or
encoded again: the join costs a copy.

Only what this needs of the Thrift compact protocol is here: a reader of any struct
into ``(field id, type, value)`` lists and a writer that gives back the same bytes.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Sequence
from pathlib import Path
from typing import Any, BinaryIO

MAGIC = b"PAR1"

# compact protocol types
(T_STOP, T_TRUE, T_FALSE, T_BYTE, T_I16, T_I32, T_I64, T_DOUBLE, T_BINARY, T_LIST, T_SET,
 T_MAP, T_STRUCT) = range(13)  # fmt: skip

Field = tuple[int, int, Any]  # (field id, compact type, value)


class Reader:
    """A reader of Thrift compact-protocol values from ``data``, from its start on."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def byte(self) -> int:
        """The next byte."""
        b = self.data[self.pos]
        self.pos += 1
        return b

    def varint(self) -> int:
        """The next unsigned LEB128 integer."""
        shift = 0
        out = 0
        while True:
            b = self.byte()
            out |= (b & 0x7F) << shift
            if not b & 0x80:
                return out
            shift += 7

    def zigzag(self) -> int:
        """The next zigzag-encoded signed integer."""
        n = self.varint()
        return (n >> 1) ^ -(n & 1)

    def value(self, t: int) -> Any:
        """The next value of compact type ``t`` (lists and maps with their element types)."""
        if t in (T_TRUE, T_FALSE):  # only inside lists: one byte each
            return self.byte() == 1
        if t == T_BYTE:
            return struct.unpack("b", bytes([self.byte()]))[0]
        if t in (T_I16, T_I32, T_I64):
            return self.zigzag()
        if t == T_DOUBLE:
            v = struct.unpack("<d", self.data[self.pos : self.pos + 8])[0]
            self.pos += 8
            return v
        if t == T_BINARY:
            n = self.varint()
            v = self.data[self.pos : self.pos + n]
            self.pos += n
            return v
        if t in (T_LIST, T_SET):
            head = self.byte()
            size, et = head >> 4, head & 0x0F
            if size == 15:
                size = self.varint()
            return (et, [self.value(et) for _ in range(size)])
        if t == T_MAP:
            size = self.varint()
            if size == 0:
                return (0, 0, [])
            kv = self.byte()
            kt, vt = kv >> 4, kv & 0x0F
            return (kt, vt, [(self.value(kt), self.value(vt)) for _ in range(size)])
        if t == T_STRUCT:
            return self.struct()
        raise ValueError(f"unknown Thrift compact type {t}")

    def struct(self) -> list[Field]:
        """The next struct, as its ``(field id, type, value)`` list."""
        fields: list[Field] = []
        last = 0
        while True:
            head = self.byte()
            t = head & 0x0F
            if t == T_STOP:
                return fields
            delta = head >> 4
            fid = last + delta if delta else self.zigzag()
            if t in (T_TRUE, T_FALSE):
                fields.append((fid, t, t == T_TRUE))
            else:
                fields.append((fid, t, self.value(t)))
            last = fid


def varint(n: int) -> bytes:
    """``n`` (not negative) as an unsigned LEB128 integer."""
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _zigzag(n: int) -> bytes:
    return varint((n << 1) ^ (n >> 63))


def _write_value(t: int, v: Any) -> bytes:
    if t in (T_TRUE, T_FALSE):
        return bytes([1 if v else 2])
    if t == T_BYTE:
        return struct.pack("b", v)
    if t in (T_I16, T_I32, T_I64):
        return _zigzag(v)
    if t == T_DOUBLE:
        return struct.pack("<d", v)
    if t == T_BINARY:
        return varint(len(v)) + v
    if t in (T_LIST, T_SET):
        et, items = v
        head = bytes([(len(items) << 4) | et]) if len(items) < 15 else bytes([0xF0 | et])
        if len(items) >= 15:
            head += varint(len(items))
        return head + b"".join(_write_value(et, x) for x in items)
    if t == T_MAP:
        kt, vt, items = v
        if not items:
            return varint(0)
        body = b"".join(_write_value(kt, k) + _write_value(vt, x) for k, x in items)
        return varint(len(items)) + bytes([(kt << 4) | vt]) + body
    if t == T_STRUCT:
        return write_struct(v)
    raise ValueError(f"unknown Thrift compact type {t}")


def write_struct(fields: Sequence[Field]) -> bytes:
    """A struct's ``(field id, type, value)`` list in the compact protocol (ids ascending)."""
    out = bytearray()
    last = 0
    for fid, t, v in fields:
        wt = (T_TRUE if v else T_FALSE) if t in (T_TRUE, T_FALSE) else t
        delta = fid - last
        if 0 < delta <= 15:
            out.append((delta << 4) | wt)
        else:
            out.append(wt)
            out += _zigzag(fid)
        if t not in (T_TRUE, T_FALSE):
            out += _write_value(t, v)
        last = fid
    out.append(T_STOP)
    return bytes(out)


def get_field(fields: list[Field], fid: int) -> Any:
    """The value of field ``fid`` of a decoded struct, or None."""
    for f, _, v in fields:
        if f == fid:
            return v
    return None


def _shift(fields: list[Field], ids: Sequence[int], by: int) -> list[Field]:
    return [(f, t, v + by if f in ids and t == T_I64 else v) for f, t, v in fields]


def footer(path: Path) -> tuple[list[Field], int]:
    """The decoded ``FileMetaData`` of a Parquet file and where its footer starts."""
    with path.open("rb") as fh:
        return read_footer(fh, str(path))


def read_footer(fh: BinaryIO, name: str) -> tuple[list[Field], int]:
    """:func:`footer` of an open binary file (``name`` for the error)."""
    fh.seek(0)
    head = fh.read(len(MAGIC))
    size = fh.seek(0, os.SEEK_END)
    if head != MAGIC or size < 12:
        raise ValueError(f"{name}: not a Parquet file")
    fh.seek(size - 8)
    tail = fh.read(8)
    n = struct.unpack("<I", tail[:4])[0]
    start = size - 8 - n
    if tail[4:] != MAGIC or start < len(MAGIC):
        raise ValueError(f"{name}: not a Parquet file")
    fh.seek(start)
    return Reader(fh.read(n)).struct(), start


# FileMetaData: 2 schema, 3 num_rows, 4 row_groups. RowGroup: 1 columns, 5 file_offset,
# 7 ordinal. ColumnChunk: 2 file_offset, 3 meta_data, 4 offset_index_offset,
# 6 column_index_offset. ColumnMetaData: 9 data_page_offset, 10 index_page_offset,
# 11 dictionary_page_offset, 14 bloom_filter_offset.
def _moved_row_group(rg: list[Field], by: int, ordinal: int) -> list[Field]:
    out: list[Field] = []
    for f, t, v in rg:
        if f == 1:  # columns
            et, chunks = v
            moved = []
            for cc in chunks:
                cc = _shift(cc, (2, 4, 6), by)
                cc = [(g, u, _shift(w, (9, 10, 11, 14), by) if g == 3 else w) for g, u, w in cc]
                moved.append(cc)
            out.append((f, t, (et, moved)))
        elif f == 5 and t == T_I64:
            out.append((f, t, v + by))
        elif f == 7:
            out.append((f, t, ordinal))
        else:
            out.append((f, t, v))
    return out


def _copy(src: BinaryIO, dst: BinaryIO, offset: int, count: int) -> None:
    """Append ``count`` bytes of ``src`` from ``offset`` to ``dst``, in the kernel if it can."""
    dst.flush()
    copy_range = getattr(os, "copy_file_range", None)
    if copy_range is not None:
        try:
            while count:
                n = copy_range(src.fileno(), dst.fileno(), count, offset)
                if n == 0:
                    break
                offset += n
                count -= n
            if not count:
                dst.seek(0, os.SEEK_END)
                return
        except OSError:  # not on this file system: copy the rest through memory
            pass
        dst.seek(0, os.SEEK_END)
    src.seek(offset)
    while count:
        block = src.read(min(count, 1 << 24))
        if not block:
            raise ValueError(f"{src.name}: shorter than its footer says")
        dst.write(block)
        count -= len(block)


class ParquetJoin:
    """Build one Parquet file from parts appended in order, as they come.

    Each :meth:`append` copies a part's data region to the end of the file being
    written (a temporary name beside ``dest``) and keeps its row groups, their
    offsets shifted; :meth:`close` writes the one footer and renames the file to
    ``dest``. Used as a context manager, a block that raises leaves no file.
    """

    def __init__(self, dest: Path) -> None:
        self.dest = dest
        self._tmp = dest.with_name(f".{dest.name}.joining")
        self._out: BinaryIO = self._tmp.open("wb")
        self._out.write(MAGIC)
        self._pos = len(MAGIC)
        self._first: list[Field] | None = None
        self._first_path: Path | None = None
        self._row_groups: list[list[Field]] = []
        self.rows = 0

    def append(self, part: Path) -> None:
        """Add the rows of ``part`` after those already joined.

        Raises:
            ValueError: ``part`` is not Parquet or has another schema than the first.
        """
        meta, start = footer(part)
        if self._first is None:
            self._first, self._first_path = meta, part
        elif get_field(meta, 2) != get_field(self._first, 2):
            raise ValueError(f"{part}: another schema than {self._first_path}")
        by = self._pos - len(MAGIC)
        for rg in get_field(meta, 4)[1]:
            self._row_groups.append(_moved_row_group(rg, by, len(self._row_groups)))
        self.rows += get_field(meta, 3)
        with part.open("rb") as fh:
            _copy(fh, self._out, len(MAGIC), start - len(MAGIC))
        self._pos += start - len(MAGIC)

    def close(self) -> int:
        """Write the footer and move the file to ``dest``; the number of rows."""
        if self._first is None:
            self.abandon()
            raise ValueError(f"{self.dest}: no parts to join")
        merged: list[Field] = []
        for f, t, v in self._first:
            if f == 3:
                merged.append((f, t, self.rows))
            elif f == 4:
                merged.append((f, t, (v[0], self._row_groups)))
            else:
                merged.append((f, t, v))
        blob = write_struct(merged)
        self._out.write(blob)
        self._out.write(struct.pack("<I", len(blob)))
        self._out.write(MAGIC)
        self._out.close()
        os.replace(self._tmp, self.dest)
        return self.rows

    def abandon(self) -> None:
        """Drop the file being written."""
        self._out.close()
        self._tmp.unlink(missing_ok=True)

    def __enter__(self) -> ParquetJoin:
        return self

    def __exit__(self, exc_type: object, *_: object) -> None:
        if exc_type is not None:
            self.abandon()
        elif not self._out.closed:
            self.close()


def concat_parquet(parts: Sequence[Path], dest: Path) -> int:
    """Write the Parquet files ``parts`` (one schema) as one file ``dest``; its rows.

    Raises:
        ValueError: for a part that is not Parquet or whose schema differs.
    """
    with ParquetJoin(dest) as join:
        for part in parts:
            join.append(part)
    return join.rows

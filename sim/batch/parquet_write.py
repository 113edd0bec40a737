"""A chunk's frame as a Parquet part, encoded by compiled code (the writer of a run).

Profiled on ``thousand hands`` (2 cores, 8 M deals), the Parquet writer took as much
processor time as playing the deals: polars spends about 4 ms per nullable integer
column of 2**17 deals (its dictionary search and its definition levels), 150 ms per
chunk. A run's columns are all alike (small integers with nulls where a deal was
redealt, flags, a few short strings), so this module encodes them itself, in one
compiled pass per column, the way Parquet lays them out:

* per row group and column a dictionary page and one data page (``RLE_DICTIONARY``)
  when the column has few distinct values, else one ``PLAIN`` data page;
* the definition levels (1 = a value, 0 = null) are Arrow's validity bitmap as it
  is, one bit-packed run (or one RLE run when nothing is null); the dictionary
  indices are in the format's RLE / bit-packed hybrid (runs of 8 or more equal
  values as a run, the rest bit-packed);
* every page compressed by zstd (pyarrow's codec), every column with its statistics
  (null count, least and greatest value);
* the schema, the column orders and the ``ARROW:schema`` metadata are those polars
  writes for the frame's schema (taken once from polars' own file of no rows), so
  every reader sees the same types as from polars' writer.

:func:`write_columns` writes the same file from columns given as their present values
and a validity, without a frame (a ``hands`` run's chunk:
:func:`sim.runs.hands.hands_part`). Frames of other column types (floats, dates, …) go
to polars' writer unchanged. Either way the parts join into one file by
:mod:`sim.batch.parquet_concat`. The values read back are the frame's
(``tests/test_parquet_write.py`` reads every kind of column back with polars and
pyarrow, and checks the two ways write the same bytes).
"""

from __future__ import annotations

import io
import struct
from functools import cache
from typing import Any, NamedTuple

import numpy as np
import polars as pl

from sim.batch.parquet_concat import (
    MAGIC,
    T_BINARY,
    T_I16,
    T_I32,
    T_I64,
    T_LIST,
    T_STRUCT,
    Field,
    get_field,
    read_footer,
    varint,
    write_struct,
)
from sim.jit import compiled

# Parquet's enums (parquet.thrift)
_BOOLEAN, _INT64, _BYTE_ARRAY = 0, 2, 6  # physical types (INT32 is 1)
_PLAIN, _RLE, _RLE_DICTIONARY = 0, 3, 8  # encodings
_ZSTD = 6  # compression codec
_DATA_PAGE, _DICTIONARY_PAGE = 0, 2  # page types
DICTIONARY_MOST = 1 << 16  # most distinct values a dictionary holds
ZSTD_LEVEL = 1
ROW_GROUP_MOST = 1 << 18  # most rows of a row group unless the caller says

_INTS = (pl.Int8, pl.Int16, pl.Int32, pl.Int64, pl.UInt8, pl.UInt16)  # stored as INT32/INT64


def supported(schema: pl.Schema) -> bool:
    """Whether every column of ``schema`` is one this writer encodes."""
    return all(dt in _INTS or dt in (pl.Boolean, pl.String) for dt in schema.dtypes())


# --- the compiled encoders ------------------------------------------------------------------


@compiled
def _varint(out: np.ndarray, pos: int, n: int) -> int:
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out[pos] = b | 0x80
            pos += 1
        else:
            out[pos] = b
            return pos + 1


@compiled
def _run_at(v: np.ndarray, i: int, n: int) -> int:
    """How many values from ``v[i]`` on equal it."""
    j = i + 1
    while j < n and v[j] == v[i]:
        j += 1
    return j - i


@compiled
def _eight_equal(v: np.ndarray, i: int, n: int) -> bool:
    """Whether ``v[i:i+8]`` are 8 equal values."""
    if i + 8 > n:
        return False
    for k in range(1, 8):
        if v[i + k] != v[i]:
            return False
    return True


@compiled
def _pack(v: np.ndarray, i: int, end: int, n: int, width: int, out: np.ndarray, pos: int) -> int:
    """``v[i:end]`` bit-packed, ``width`` bits each, lowest first (past ``n``: zeros)."""
    if width <= 8:  # a group of 8 values fits one word: ``width`` bytes
        while i + 8 <= min(end, n):
            acc = np.uint64(0)
            for k in range(8):
                acc |= np.uint64(v[i + k]) << np.uint64(k * width)
            for k in range(width):
                out[pos + k] = (acc >> np.uint64(8 * k)) & np.uint64(0xFF)
            pos += width
            i += 8
    acc = np.uint64(0)
    bits = 0
    for k in range(i, end):
        x = np.uint64(v[k]) if k < n else np.uint64(0)
        acc |= x << np.uint64(bits)
        bits += width
        while bits >= 8:
            out[pos] = acc & np.uint64(0xFF)
            pos += 1
            acc >>= np.uint64(8)
            bits -= 8
    return pos


@compiled
def hybrid(v: np.ndarray, n: int, width: int, out: np.ndarray, pos: int) -> int:
    """``v[:n]`` (each below ``2**width``) in the RLE / bit-packed hybrid at ``out[pos:]``.

    Runs of 8 or more equal values are RLE runs; the values between them bit-packed
    groups of 8 (the last group padded with zeros). The new end.
    """
    nbytes = (width + 7) // 8
    i = 0
    while i < n:
        r = _run_at(v, i, n)
        if r >= 8:
            pos = _varint(out, pos, r << 1)
            x = np.int64(v[i])
            for k in range(nbytes):
                out[pos + k] = (x >> (8 * k)) & 0xFF
            pos += nbytes
            i += r
            continue
        end = i + 8
        while end < n and not _eight_equal(v, end, n):
            end += 8
        pos = _varint(out, pos, ((end - i) // 4) | 1)  # (groups << 1) | 1
        pos = _pack(v, i, end, n, width, out, pos)
        i = end
    return pos


@compiled
def int_dictionary(
    values: np.ndarray, valid: np.ndarray, lo: int, hi: int
) -> tuple[np.ndarray, np.ndarray]:
    """The dictionary of a nullable integer column whose valid values lie in ``lo..hi``.

    ``valid[i]`` is 1 where row ``i`` holds a value, 0 where it is null; the values
    under a null are anything. Returns the sorted distinct valid values and each
    valid value's index among them, in row order. The loops compute with the
    validity (0 or 1) rather than branch on it: nulls fall anywhere, and a branch on
    them cost three times the loop.
    """
    n = values.shape[0]
    seen = np.zeros(hi - lo + 1, dtype=np.int32)
    for i in range(n):
        ok = np.int64(valid[i])
        seen[(np.int64(values[i]) - lo) * ok] = 1  # a null marks lo, itself a valid value
    distinct = 0
    for k in range(seen.shape[0]):
        if seen[k]:
            seen[k] = distinct
            distinct += 1
        else:
            seen[k] = -1
    words = np.empty(distinct, dtype=np.int64)
    for k in range(seen.shape[0]):
        if seen[k] >= 0:
            words[seen[k]] = k + lo
    index = np.empty(n, dtype=np.int32)
    m = 0
    for i in range(n):
        ok = valid[i]
        index[m] = seen[(np.int64(values[i]) - lo) * ok]
        m += ok
    return words, index[:m]


@compiled
def valid_values(values: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """The valid values of a column, in order (``valid`` as :func:`int_dictionary`)."""
    n = values.shape[0]
    out = np.empty(n, dtype=values.dtype)
    m = 0
    for i in range(n):
        out[m] = values[i]
        m += valid[i]
    return out[:m]


# --- pages and column chunks ----------------------------------------------------------------


def _codec() -> Any:
    import pyarrow as pa

    return pa.Codec("zstd", compression_level=ZSTD_LEVEL)


def _page(kind: int, body: bytes, codec: Any, header: list[Field]) -> tuple[bytes, int]:
    """A page: its header and its compressed body; and its uncompressed size with header."""
    packed = codec.compress(body, asbytes=True)
    head = write_struct([(1, T_I32, kind), (2, T_I32, len(body)), (3, T_I32, len(packed)), *header])
    return head + packed, len(head) + len(body)


def _data_header(rows: int, encoding: int) -> list[Field]:
    return [
        (5, T_STRUCT, [(1, T_I32, rows), (2, T_I32, encoding), (3, T_I32, _RLE), (4, T_I32, _RLE)])
    ]


def _arrow(series: pl.Series) -> tuple[Any, np.ndarray, bool]:
    """The column as one Arrow array, its validity bitmap (bytes) and whether it has nulls."""
    arr = series.to_arrow()
    if not hasattr(arr, "buffers"):  # several chunks
        arr = arr.combine_chunks()
    if arr.offset % 8:  # a slice within a byte of the bitmap: copied to offset 0
        import pyarrow as pa

        arr = pa.concat_arrays([arr])
    nulls = arr.null_count > 0
    validity = arr.buffers()[0]
    if nulls:
        bits = np.frombuffer(validity, np.uint8)[
            arr.offset // 8 : arr.offset // 8 + (len(arr) + 7) // 8
        ]
    else:
        bits = np.full((len(arr) + 7) // 8, 0xFF, dtype=np.uint8)
    return arr, bits, nulls


def _levels(rows: int, bits: np.ndarray, nulls: bool) -> bytes:
    """A data page's definition levels: one RLE run of 1s, or the validity bitmap bit-packed.

    The hybrid's bit-packed run of width 1 is the bitmap's bytes as they are (lowest
    bit first), one byte per group of 8 rows.
    """
    if not nulls:
        run = varint(rows << 1) + b"\x01"
    else:
        groups = (rows + 7) // 8
        body = bytearray(bits[:groups].tobytes())
        if rows % 8:  # the bits past the last row are 0 (a negated mask's may be set)
            body[-1] &= (1 << rows % 8) - 1
        run = varint((groups << 1) | 1) + bytes(body)
    return struct.pack("<I", len(run)) + run


def _indices(index: np.ndarray, words: int) -> bytes:
    """Dictionary indices as a data page's values: their bit width, then the hybrid."""
    width = max(1, int(words - 1).bit_length())
    out = np.empty(64 + index.shape[0] * (width + 8) // 8, dtype=np.uint8)
    out[0] = width
    return out[: hybrid(index, index.shape[0], width, out, 1)].tobytes()


# What a column's kind gives :func:`_column`: its dictionary page's values and how
# many (or None), the data page's body, the least and greatest value as statistics
# hold them (or None when every row is null).
_Encoded = tuple[tuple[bytes, int] | None, bytes, bytes | None, bytes | None]


class _Chunk(NamedTuple):
    """A column chunk's pages (its dictionary page first, when it has one) and statistics."""

    pages: list[bytes]
    uncompressed: int  # the pages' size before compression, with their headers
    stats: list[Field]

    @property
    def dictionary(self) -> bool:
        return len(self.pages) == 2


def _column(series: pl.Series, physical: int, codec: Any) -> _Chunk:
    """One column of a row group as Parquet lays it out."""
    arr, bits, nulls = _arrow(series)
    levels = _levels(series.len(), bits, nulls)
    if physical == _BYTE_ARRAY:
        encoded = _strings(series, levels)
    elif physical == _BOOLEAN:
        encoded = _booleans(series, levels)
    else:
        encoded = _integers(series, arr, bits, physical, levels)
    return _chunk(encoded, series.len(), series.null_count(), codec)


def _chunk(encoded: _Encoded, rows: int, nulls: int, codec: Any) -> _Chunk:
    """A column chunk's pages of its encoded values (:data:`_Encoded`), and its statistics."""
    dictionary, body, lo, hi = encoded
    pages = []
    size = 0
    if dictionary is not None:
        words, count = dictionary
        page, size = _page(
            _DICTIONARY_PAGE, words, codec, [(7, T_STRUCT, [(1, T_I32, count), (2, T_I32, _PLAIN)])]
        )
        pages.append(page)
    encoding = _PLAIN if dictionary is None else _RLE_DICTIONARY
    page, n = _page(_DATA_PAGE, body, codec, _data_header(rows, encoding))
    pages.append(page)
    stats: list[Field] = [(3, T_I64, nulls)]
    if lo is not None:
        stats += [(5, T_BINARY, hi), (6, T_BINARY, lo)]
    return _Chunk(pages, size + n, stats)


def _strings(series: pl.Series, levels: bytes) -> _Encoded:
    words = sorted(series.drop_nulls().unique().to_list())
    if not words:
        return None, levels, None, None
    raw = [w.encode() for w in words]  # UTF-8 sorts as the code points do
    plain = b"".join(struct.pack("<I", len(w)) + w for w in raw)
    index = series.cast(pl.Enum(words)).to_physical().drop_nulls().to_numpy()
    body = levels + _indices(index.astype(np.int32), len(raw))
    return (plain, len(raw)), body, raw[0], raw[-1]


def _booleans(series: pl.Series, levels: bytes) -> _Encoded:
    present = series.drop_nulls()
    if not present.len():
        return None, levels, None, None
    packed, _, _ = _arrow(present)  # its value bits, as Parquet packs them (PLAIN)
    first = packed.offset // 8
    values = bytearray(
        np.frombuffer(packed.buffers()[1], np.uint8)[first : first + (present.len() + 7) // 8]
    )
    if present.len() % 8:  # the bits past the last value are 0 (a filtered buffer's may be set)
        values[-1] &= (1 << present.len() % 8) - 1
    lo, hi = bytes([bool(present.min())]), bytes([bool(present.max())])
    return None, levels + bytes(values), lo, hi


def _integers(
    series: pl.Series, arr: Any, bits: np.ndarray, physical: int, levels: bytes
) -> _Encoded:
    rows = series.len()
    count = rows - arr.null_count
    if not count:
        return None, levels, None, None
    values = np.frombuffer(arr.buffers()[1], np.dtype(arr.type.to_pandas_dtype()))
    values = values[arr.offset : arr.offset + rows]
    valid = np.unpackbits(bits, count=rows, bitorder="little")
    lo, hi = int(series.min()), int(series.max())  # type: ignore[arg-type]
    form = "<q" if physical == _INT64 else "<i"
    stats = struct.pack(form, lo), struct.pack(form, hi)
    if hi - lo < DICTIONARY_MOST:
        words, index = int_dictionary(values, valid, lo, hi)
        if 2 * words.shape[0] <= count:  # else about as many distinct values as not: PLAIN
            plain = words.astype(form).tobytes()
            return (plain, words.shape[0]), levels + _indices(index, words.shape[0]), *stats
    return None, levels + valid_values(values, valid).astype(form).tobytes(), *stats


@cache
def _template(schema: tuple[tuple[str, Any], ...]) -> tuple[list[Field], dict[str, int]]:
    """Polars' footer for a file of ``schema`` with no rows; each column's physical type."""
    buf = io.BytesIO()
    pl.DataFrame(schema=dict(schema)).write_parquet(buf)
    meta, _ = read_footer(buf, "polars' file of no rows")
    physical = {}
    for element in get_field(meta, 2)[1][1:]:
        physical[get_field(element, 4).decode()] = get_field(element, 1)
    return meta, physical


def write_frame(frame: pl.DataFrame, row_group_size: int = ROW_GROUP_MOST) -> bytes:
    """``frame`` as one Parquet file (bytes), row groups of ``row_group_size`` rows at most.

    This module's encoders where :func:`supported` says so; else polars' writer, with
    the same row groups and compression.
    """
    if not supported(frame.schema) or frame.height == 0 or row_group_size % 8:
        buf = io.BytesIO()
        frame.write_parquet(buf, compression="zstd", row_group_size=row_group_size)
        return buf.getvalue()
    meta, physical = _template(tuple(frame.schema.items()))
    codec = _codec()
    out = bytearray(MAGIC)
    groups: list[list[Field]] = []
    for first in range(0, frame.height, row_group_size):
        part = frame.slice(first, row_group_size)
        chunks = [(name, _column(part[name], physical[name], codec)) for name in part.columns]
        groups.append(_row_group(chunks, physical, part.height, out, len(groups)))
    return _file(meta, frame.height, groups, out)


def _file(meta: list[Field], rows: int, groups: list[list[Field]], out: bytearray) -> bytes:
    """The file: ``out`` (its row groups' bytes) and the footer of ``meta`` with ``groups``."""
    fields = {f: (f, t, v) for f, t, v in meta}
    fields[3] = (3, T_I64, rows)
    fields[4] = (4, T_LIST, (T_STRUCT, groups))
    blob = write_struct([fields[f] for f in sorted(fields)])
    out += blob + struct.pack("<I", len(blob)) + MAGIC
    return bytes(out)


def _row_group(
    chunks: list[tuple[str, _Chunk]],
    physical: dict[str, int],
    rows: int,
    out: bytearray,
    ordinal: int,
) -> list[Field]:
    """Append the column chunks (by name) of a row group of ``rows`` to ``out``; its metadata."""
    begin = len(out)
    metas: list[list[Field]] = []
    total_size = 0
    for name, chunk in chunks:
        kind = physical[name]
        start = len(out)
        for page in chunk.pages:
            out += page
        total_size += chunk.uncompressed
        column_meta: list[Field] = [
            (1, T_I32, kind),
            (2, T_LIST, (T_I32, [_PLAIN, _RLE, *([_RLE_DICTIONARY] if chunk.dictionary else [])])),
            (3, T_LIST, (T_BINARY, [name.encode()])),
            (4, T_I32, _ZSTD),
            (5, T_I64, rows),
            (6, T_I64, chunk.uncompressed),
            (7, T_I64, len(out) - start),
            (9, T_I64, start + (len(chunk.pages[0]) if chunk.dictionary else 0)),
        ]
        if chunk.dictionary:
            column_meta.append((11, T_I64, start))
        column_meta.append((12, T_STRUCT, chunk.stats))
        metas.append([(2, T_I64, len(out)), (3, T_STRUCT, column_meta)])
    return [
        (1, T_LIST, (T_STRUCT, metas)),
        (2, T_I64, total_size),
        (3, T_I64, rows),
        (5, T_I64, begin),
        (6, T_I64, len(out) - begin),
        (7, T_I16, ordinal),
    ]


# --- columns without a frame ---------------------------------------------------------------


class Column(NamedTuple):
    """A column as :func:`write_columns` takes it: no frame, only what the file holds.

    Attributes:
        name: the column's name.
        dtype: its polars type (an integer type, ``pl.Boolean`` or ``pl.String``), as a
            frame of it would have it: the file's schema is polars' for that frame.
        present: the values of its rows that are not null, in row order (integers or
            flags; for strings, each value's index in ``words``).
        valid: which rows hold a value, one bool a row; None when none is null.
        words: a string column's values by index.
    """

    name: str
    dtype: Any
    present: np.ndarray
    valid: np.ndarray | None = None
    words: tuple[str, ...] = ()


def write_columns(columns: list[Column], rows: int, row_group_size: int = ROW_GROUP_MOST) -> bytes:
    """The Parquet file of ``columns`` (``rows`` rows each), without building a frame.

    Byte for byte what :func:`write_frame` writes of the frame of the same values. A
    run's writer lays a chunk's columns out straight from the engine's rows (a played
    deal's values are the rows' own, the nulls one bitmap), where a frame would first
    spread each column over every row and mask it again.
    """
    schema = tuple((c.name, c.dtype) for c in columns)
    if not supported(pl.Schema(dict(schema))) or rows == 0 or row_group_size % 8:
        return write_frame(pl.DataFrame([_series(c, rows) for c in columns]), row_group_size)
    meta, physical = _template(schema)
    codec = _codec()
    bits: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # by id(valid): the bitmap, counts
    out = bytearray(MAGIC)
    groups: list[list[Field]] = []
    for first in range(0, rows, row_group_size):
        end = min(rows, first + row_group_size)
        chunks = []
        for c in columns:
            if c.valid is None:
                present = c.present[first:end]
                levels = _levels(end - first, np.zeros(0, np.uint8), False)
                nulls = 0
            else:
                if id(c.valid) not in bits:  # the columns of a kind share one
                    counts = np.concatenate(([0], np.cumsum(c.valid, dtype=np.int64)))
                    bits[id(c.valid)] = (np.packbits(c.valid, bitorder="little"), counts)
                packed, counts = bits[id(c.valid)]
                present = c.present[counts[first] : counts[end]]
                nulls = (end - first) - present.shape[0]
                levels = _levels(end - first, packed[first // 8 :], nulls > 0)
            kind = physical[c.name]
            if kind == _BYTE_ARRAY:
                encoded = _present_strings(present, c.words, levels)
            elif kind == _BOOLEAN:
                encoded = _present_booleans(present, levels)
            else:
                encoded = _present_integers(present, kind, levels)
            chunks.append((c.name, _chunk(encoded, end - first, nulls, codec)))
        groups.append(_row_group(chunks, physical, end - first, out, len(groups)))
    return _file(meta, rows, groups, out)


def _series(c: Column, rows: int) -> pl.Series:
    """The column as a polars series (where this module's encoders do not take it)."""
    values: list[Any] = [None] * rows
    present = [c.words[i] for i in c.present.tolist()] if c.words else c.present.tolist()
    at = range(rows) if c.valid is None else np.flatnonzero(c.valid).tolist()
    for i, v in zip(at, present, strict=True):
        values[i] = v
    return pl.Series(c.name, values, dtype=c.dtype)


def _present_integers(present: np.ndarray, physical: int, levels: bytes) -> _Encoded:
    """:func:`_integers` of the values that are not null."""
    count = present.shape[0]
    if not count:
        return None, levels, None, None
    lo, hi = int(present.min()), int(present.max())
    form = "<q" if physical == _INT64 else "<i"
    stats = struct.pack(form, lo), struct.pack(form, hi)
    if hi - lo < DICTIONARY_MOST:
        words, index = int_dictionary(present, np.ones(count, np.uint8), lo, hi)
        if 2 * words.shape[0] <= count:
            plain = words.astype(form).tobytes()
            return (plain, words.shape[0]), levels + _indices(index, words.shape[0]), *stats
    return None, levels + present.astype(form).tobytes(), *stats


def _present_booleans(present: np.ndarray, levels: bytes) -> _Encoded:
    """:func:`_booleans` of the values that are not null."""
    if not present.shape[0]:
        return None, levels, None, None
    flags = present.astype(bool)
    lo, hi = bytes([bool(flags.min())]), bytes([bool(flags.max())])
    return None, levels + np.packbits(flags, bitorder="little").tobytes(), lo, hi


def _present_strings(present: np.ndarray, words: tuple[str, ...], levels: bytes) -> _Encoded:
    """:func:`_strings` of the values that are not null (indices into ``words``)."""
    used = np.unique(present)
    if not used.shape[0]:
        return None, levels, None, None
    ordered = sorted((words[i] for i in used.tolist()), key=lambda w: w.encode())
    raw = [w.encode() for w in ordered]
    plain = b"".join(struct.pack("<I", len(w)) + w for w in raw)
    rank = np.zeros(len(words), dtype=np.int32)
    for j, w in enumerate(ordered):
        rank[words.index(w)] = j
    body = levels + _indices(rank[present], len(raw))
    return (plain, len(raw)), body, raw[0], raw[-1]

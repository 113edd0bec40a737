"""The run's own Parquet writer: every reader reads back the frame that was written."""

import io

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.batch.parquet_concat import concat_parquet
from sim.batch.parquet_write import Column, hybrid, supported, write_columns, write_frame
from sim.batch.runner import frame_part
from sim.engine.api import play_hands
from sim.rules import load_rules
from sim.runs.hands import hands_frame, hands_part

KINDS = {
    "i8": (pl.Int8, st.integers(-128, 127)),
    "i16": (pl.Int16, st.integers(-(2**15), 2**15 - 1)),
    "i32": (pl.Int32, st.integers(-(2**31), 2**31 - 1)),
    "i32_small": (pl.Int32, st.integers(-3, 40)),
    "i64": (pl.Int64, st.integers(-(2**63), 2**63 - 1)),
    "u8": (pl.UInt8, st.integers(0, 255)),
    "u16": (pl.UInt16, st.integers(0, 2**16 - 1)),
    "bool": (pl.Boolean, st.booleans()),
    "str": (pl.String, st.sampled_from(["", "a", "hand_four_jacks", "ё", "z" * 40])),
}


def _read_both(data: bytes) -> tuple[pl.DataFrame, pl.DataFrame]:
    return pl.read_parquet(io.BytesIO(data)), pl.from_arrow(pq.read_table(io.BytesIO(data)))


def _stats_as_read(data: bytes) -> list[tuple]:
    meta = pq.ParquetFile(io.BytesIO(data)).metadata
    out = []
    for g in range(meta.num_row_groups):
        for c in range(meta.num_columns):
            s = meta.row_group(g).column(c).statistics
            out.append((s.null_count, (s.min, s.max) if s.has_min_max else None))
    return out


def _stats_of(frame: pl.DataFrame, rows: int) -> list[tuple]:
    out = []
    for first in range(0, frame.height, rows):
        part = frame.slice(first, rows)
        for c in part.columns:
            s = part[c].drop_nulls()
            out.append((part[c].null_count(), (s.min(), s.max()) if s.len() else None))
    return out


@st.composite
def frames(draw):
    n = draw(st.integers(1, 300))
    cols = {}
    names = draw(st.lists(st.sampled_from(sorted(KINDS)), min_size=1, max_size=5))
    for k, name in enumerate(names):
        dtype, values = KINDS[name]
        nulls = draw(st.sampled_from(["none", "some", "all"]))
        pool = draw(st.lists(values, min_size=1, max_size=6))  # few distinct or many
        many = draw(st.booleans())
        col = [
            None
            if nulls == "all" or (nulls == "some" and draw(st.integers(0, 3)) == 0)
            else (draw(values) if many else draw(st.sampled_from(pool)))
            for _ in range(n)
        ]
        cols[f"c{k}"] = pl.Series(col, dtype=dtype)
    return pl.DataFrame(cols)


@settings(max_examples=30, deadline=None)  # the frames below take every path of the encoders
@given(frame=frames(), rows=st.sampled_from([8, 16, 64, 1 << 18]), skip=st.integers(0, 9))
def test_any_frame_of_its_types_reads_back_the_same_with_its_statistics(frame, rows, skip):
    frame = frame.slice(skip)  # columns that start inside a byte of their bitmaps too
    if frame.height == 0:
        return
    data = write_frame(frame, rows)
    by_polars, by_pyarrow = _read_both(data)
    assert by_polars.equals(frame) and by_polars.schema == frame.schema
    assert by_pyarrow.equals(frame)
    assert _stats_as_read(data) == _stats_of(frame, rows)


def _columns_of(frame: pl.DataFrame) -> list[Column]:
    """The frame's columns as :func:`write_columns` takes them (values, validity, words)."""
    out = []
    for name in frame.columns:
        series = frame[name]
        valid = series.is_not_null().to_numpy()
        present = series.drop_nulls()
        words: tuple[str, ...] = ()
        if series.dtype == pl.String:
            words = tuple(sorted(set(present.to_list()), reverse=True))  # any order
            at = {w: k for k, w in enumerate(words)}
            values = np.array([at[w] for w in present.to_list()], dtype=np.int64)
        else:
            values = present.to_numpy()
        out.append(Column(name, series.dtype, values, None if valid.all() else valid, words))
    return out


@settings(max_examples=30, deadline=None)  # the frames below take every path of the encoders
@given(frame=frames(), rows=st.sampled_from([8, 16, 64, 1 << 18]), skip=st.integers(0, 9))
def test_columns_write_the_bytes_of_their_frame(frame, rows, skip):
    """:func:`write_columns` (values, a validity, no frame) writes :func:`write_frame`'s
    file of the same frame byte for byte: every type, null pattern and row group; a
    frame sliced inside a byte of its bitmaps too (the bits past the last row are 0)."""
    frame = frame.slice(skip)
    if frame.height == 0:
        return
    assert write_columns(_columns_of(frame), frame.height, rows) == write_frame(frame, rows)


def test_the_bits_past_the_last_boolean_are_zero():
    """A boolean column whose nulls are dropped: Arrow's filtered value buffer may keep
    set bits past the last value; both writers write them 0 (found by the test above)."""
    vals = [False, False, None, None, None, None, None, None, True, None, True]
    frame = pl.DataFrame([pl.Series("a", vals, dtype=pl.Boolean)]).slice(2)
    assert write_columns(_columns_of(frame), frame.height, 8) == write_frame(frame, 8)
    assert pl.read_parquet(io.BytesIO(write_frame(frame, 8))).equals(frame)


def test_a_hands_part_is_the_frames_file_on_every_kind_of_table():
    """The run's writer (:func:`hands_part`, straight from the batch's rows) writes the
    bytes of the frame's file (:func:`hands_frame`, :func:`frame_part`): two, three and
    four players, with the par's columns, and a chunk where no deal was redealt."""
    for preset, n, seed in (
        ("classic", 3000, 7), ("two_players", 2000, 7), ("four_players", 2000, 7),
        ("classic", 1, 3),
    ):  # fmt: skip
        batch = play_hands(load_rules(preset), n, seed, ["heuristic"], start=11)
        assert hands_part(batch) == frame_part(hands_frame(batch)), (preset, n)
        par = (np.arange(n, dtype=np.int32), np.full(n, 7, dtype=np.int32))
        assert hands_part(batch, par) == frame_part(hands_frame(batch, par=par)), (preset, n)


def test_with_no_deal_redealt_the_reshuffle_columns_are_null():
    """A batch whose every slot was played at once has no reshuffle seat or reason (a
    chunk of a run under rules that never reshuffle; it read seat 0, the first reason)."""
    batch = play_hands(load_rules("classic"), 1, 3, ["heuristic"], start=11)
    frame = hands_frame(batch)
    assert frame["reshuffled"].to_list() == [False]
    assert frame["reshuffle_seat"].null_count() == 1
    assert frame["reshuffle_reason"].null_count() == 1


def test_a_hands_chunk_reads_back_the_same_on_three_rule_sets():
    for preset in ("classic", "two_players", "four_players"):
        frame = hands_frame(play_hands(load_rules(preset), 3000, 7, ["heuristic"]))
        assert supported(frame.schema)
        data = write_frame(frame, 1 << 18)
        by_polars, by_pyarrow = _read_both(data)
        assert by_polars.equals(frame), preset
        assert by_pyarrow.equals(frame), preset
        # a filter on a column reads the same rows as on the frame (statistics, pages)
        lazy = pl.scan_parquet(io.BytesIO(data)).filter(pl.col("contract") >= 140)
        assert lazy.collect().equals(frame.filter(pl.col("contract") >= 140))


def test_the_encodings_are_parquets_own():
    frame = pl.DataFrame(
        {
            "few": pl.Series([None, 3, 5, 3, 3, 3, 3, 3, 3, 3, 3, 3, 9] * 9, dtype=pl.Int32),
            "many": pl.Series(range(117), dtype=pl.Int64),
            "s": pl.Series(["b", None, "a"] * 39, dtype=pl.String),
            "none": pl.Series([None] * 117, dtype=pl.Int16),
        }
    )
    meta = pq.ParquetFile(io.BytesIO(write_frame(frame))).metadata.row_group(0)
    few, many, s, none = (meta.column(k) for k in range(4))
    assert few.has_dictionary_page and "RLE_DICTIONARY" in few.encodings
    assert not many.has_dictionary_page and many.encodings == ("PLAIN", "RLE")
    assert s.has_dictionary_page and s.statistics.min == "a" and s.statistics.max == "b"
    assert none.statistics.null_count == 117 and not none.statistics.has_min_max
    assert few.compression == "ZSTD"


def test_the_hybrid_writes_runs_and_bit_packed_groups():
    out = np.zeros(64, dtype=np.uint8)
    # 10 equal values: one RLE run (header 10 << 1, the value in one byte)
    end = hybrid(np.array([5] * 10, dtype=np.int32), 10, 3, out, 0)
    assert out[:end].tolist() == [20, 5]
    # 3 values: one bit-packed group of 8 (header 1 << 1 | 1), 3 bits each, padded
    end = hybrid(np.array([1, 2, 3], dtype=np.int32), 3, 3, out, 0)
    assert out[:end].tolist() == [3, 0b11_010_001, 0b0, 0b0]
    # width 9: values cross bytes
    end = hybrid(np.array([511, 1], dtype=np.int32), 2, 9, out, 0)
    assert out[:end].tolist() == [3, 0xFF, 0b11, 0, 0, 0, 0, 0, 0, 0]


def test_other_types_go_to_polars_writer_and_parts_join(tmp_path):
    floats = pl.DataFrame({"x": [0.5, None, 2.0], "k": pl.Series([1, 2, None], dtype=pl.Int32)})
    assert not supported(floats.schema)
    assert pl.read_parquet(io.BytesIO(write_frame(floats))).equals(floats)
    # parts of one schema written here, some empty, join into one file
    parts = []
    for k, n in enumerate([100, 0, 37]):
        frame = pl.DataFrame(
            {"a": pl.Series(range(k, k + n), dtype=pl.Int32), "b": [i % 3 == 0 for i in range(n)]},
            schema={"a": pl.Int32, "b": pl.Boolean},
        )
        path = tmp_path / f"p{k}.parquet"
        path.write_bytes(write_frame(frame, 64))
        parts.append((path, frame))
    concat_parquet([p for p, _ in parts], tmp_path / "all.parquet")
    whole = pl.concat([f for _, f in parts])
    assert pl.read_parquet(tmp_path / "all.parquet").equals(whole)
    assert pq.read_table(tmp_path / "all.parquet").num_rows == whole.height


@pytest.mark.parametrize(("np_type", "pa_type"), [(np.int32, pa.int32()), (np.int64, pa.int64())])
def test_values_under_a_null_do_not_count(np_type, pa_type):
    # Arrow leaves whatever it likes under a null: a validity mask over real values
    values = np.array([7, -(2**30), 9, 2**30], dtype=np_type)
    validity = np.packbits([1, 0, 1, 0], bitorder="little")
    arr = pa.Array.from_buffers(
        pa_type, 4, [pa.py_buffer(validity), pa.py_buffer(values)], null_count=2
    )
    frame = pl.DataFrame({"v": pl.from_arrow(arr)})
    assert frame["v"].to_list() == [7, None, 9, None]
    data = write_frame(frame)
    assert pl.read_parquet(io.BytesIO(data)).equals(frame)
    assert _stats_as_read(data) == [(2, (7, 9))]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 5), max_size=40),
    st.integers(0, 10**9),
    st.lists(st.integers(0, 200), min_size=2, max_size=2),
)
def test_the_rows_of_the_slots_are_the_repeats_they_stand_for(redeals, start, skip_rows):
    """``slot_rows`` (one compiled pass) against the layout written with numpy repeats."""
    from sim.engine.columns import slot_rows, spread_columns

    r = np.array(redeals, dtype=np.int32)
    n = len(r)
    dealers = (np.arange(n, dtype=np.int32) * 7 + 1) % 4
    first, slot, attempt, deal_id, attempt_row, dealer, played = slot_rows(r, dealers, start)
    rows = r + 1
    want_first = np.cumsum(rows) - rows
    assert first.tolist() == want_first.tolist()
    assert slot.tolist() == np.repeat(np.arange(n), r).tolist()
    assert attempt.tolist() == [a for k in redeals for a in range(k)]
    assert deal_id.tolist() == np.repeat(start + np.arange(n), rows).tolist()
    assert attempt_row.dtype == np.int16 and dealer.dtype == np.int32
    assert attempt_row.tolist() == [a for k in redeals for a in range(k + 1)]
    assert dealer.tolist() == np.repeat(dealers, rows).tolist()
    want_played = np.zeros(int(rows.sum()), dtype=bool)
    want_played[want_first + r] = True
    assert played.tolist() == want_played.tolist()
    # the rows no deal lands at are zero (spread_columns no longer zeroes them all first)
    out = np.arange(n * 3, dtype=np.int32).reshape(n, 3) + 1
    at = np.arange(n, dtype=np.int64) * 2 + skip_rows[0] % 3
    total = (2 * n + 3) if n else skip_rows[1] % 5
    full = spread_columns(out, np.array([2, 0]), at, total)
    want = np.zeros((2, total), dtype=np.int32)
    want[0, at] = out[:, 2]
    want[1, at] = out[:, 0]
    assert (full == want).all()


# --- against pyarrow, on every path of the encoders ---------------------------------------
#
# The frames above hold few distinct values and short columns: their dictionary
# indices are a few bits wide and never reach 128, so an encoder that wrote a run's
# value with its top bit lost (``& 0x7F``) passed them, and two writers sharing one
# encoder agree on any bug. Below, an independent decoder of the hybrid (the format's
# own description) and pyarrow's reader check frames built to reach every path: runs
# of values of every width from 1 to 17 bits (values of 128 and more among them),
# bit-packed groups of every width, dictionaries of 2 to 65,537 words, nulls, every
# type, booleans ending inside a byte, empty frames and frames of several row groups.


def _unhybrid(data: bytes, width: int, count: int) -> list[int]:
    """The RLE / bit-packed hybrid decoded as the Parquet format describes it.

    A header (unsigned LEB128) whose lowest bit is 1 is ``header >> 1`` groups of 8
    values bit-packed, ``width`` bits each, lowest first; one whose lowest bit is 0 is
    a run of ``header >> 1`` copies of one value in ``ceil(width / 8)`` little-endian
    bytes. The values past ``count`` (the last group's padding) must be 0.
    """
    out: list[int] = []
    pos = 0
    while pos < len(data):
        header = shift = 0
        while True:
            byte = data[pos]
            pos += 1
            header |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
        if header & 1:
            size = (header >> 1) * width  # bytes of (header >> 1) * 8 values
            bits = int.from_bytes(data[pos : pos + size], "little")
            out += [(bits >> (k * width)) & ((1 << width) - 1) for k in range(size * 8 // width)]
        else:
            size = (width + 7) // 8
            out += [int.from_bytes(data[pos : pos + size], "little")] * (header >> 1)
        pos += size
    assert pos == len(data) and len(out) >= count and not any(out[count:])
    return out[:count]


def _hybrid_bytes(values: np.ndarray, width: int) -> bytes:
    out = np.zeros(64 + values.shape[0] * (width + 8) // 8, dtype=np.uint8)
    return out[: hybrid(values, values.shape[0], width, out, 0)].tobytes()


@st.composite
def _runs_and_scraps(draw):
    """Values of a width: runs (long ones too) and scraps of values between them."""
    width = draw(st.integers(1, 24))
    value = st.integers(0, (1 << width) - 1)
    parts = draw(
        st.lists(
            st.one_of(
                st.tuples(value, st.sampled_from([1, 7, 8, 9, 63, 64, 150, 1000])),
                st.tuples(value, st.integers(1, 20)),
            ),
            min_size=1,
            max_size=12,
        )
    )
    return width, np.array([v for v, n in parts for _ in range(n)], dtype=np.int32)


@settings(max_examples=40, deadline=None)
@given(_runs_and_scraps())
def test_the_hybrid_reads_back_with_the_formats_own_decoder(case):
    width, values = case
    assert _unhybrid(_hybrid_bytes(values, width), width, len(values)) == values.tolist()


def test_the_hybrid_reads_back_at_every_width_with_every_top_bit():
    """Runs of the greatest value of each width (every bit of its bytes set) and of 128
    and 255, and bit-packed groups of them: a bit lost anywhere shows."""
    for width in range(1, 25):
        top = (1 << width) - 1
        picks = [top, min(top, 128), min(top, 255), top >> 1, 1, 0]
        values = [v for v in picks for _ in range(150)] + picks * 3 + [top] * 9
        array = np.array(values, dtype=np.int32)
        assert _unhybrid(_hybrid_bytes(array, width), width, len(values)) == values, width


def _index_order(words: int, rng: np.random.Generator) -> np.ndarray:
    """Dictionary indices of ``words`` words that take every path of the hybrid.

    Every index once in random order (bit-packed groups), runs of 8 and of 150 of the
    greatest index, of 128, 255 and 0 (RLE runs, values of 128 and more), scraps of 1
    to 7 random indices between them; repeated until the column has 2.5 times as many
    values as words (an integer column is dictionary-encoded only with twice as many
    values as words; a tenth of them may be null).
    """
    top = words - 1
    parts = [rng.permutation(words)]
    for value in {top, min(top, 128), min(top, 255), top // 2, 0}:
        for length in (8, 150):
            parts.append(rng.integers(0, words, int(rng.integers(1, 8))))
            parts.append(np.full(length, value))
    one = np.concatenate(parts)
    return np.tile(one, -(-5 * words // (2 * one.shape[0])))


# an integer type for each bit width of the indices: the type's least value (a
# dictionary's words are the least and the next ones) and its polars type
_WIDE = {8: (pl.Int8, -128), 7: (pl.UInt8, 0), 6: (pl.Int16, -(2**15)), 9: (pl.Int16, 300),
         12: (pl.UInt16, 0), 16: (pl.UInt16, 0), 15: (pl.Int64, -(2**40))}  # fmt: skip


def _frame_of_width(width: int, seed: int) -> pl.DataFrame:
    """A frame whose dictionary columns' indices are ``width`` bits wide.

    ``v``: integers of ``2**(width-1) + 1`` distinct values (2 for width 1); ``n``: the
    same with nulls among them; ``s``: strings of as many words (up to width 10; the
    string frame of 17 bits is :func:`_strings_of_width`); ``plain``: integers too
    spread for a dictionary, with nulls; ``flag``: booleans with nulls.
    """
    rng = np.random.default_rng(seed)
    words = 2 if width == 1 else (1 << (width - 1)) + 1
    index = _index_order(words, rng)
    dtype, lo = _WIDE.get(width, (pl.Int32, -1000))
    rows = index.shape[0]
    nulls = rng.random(rows) < 0.1
    nulls[0] = False
    columns = {
        "v": pl.Series(index + lo, dtype=dtype),
        "n": pl.Series(np.where(nulls, None, index + lo).tolist(), dtype=dtype),
        "plain": pl.Series(
            np.where(nulls[::-1], None, rng.integers(-(2**40), 2**40, rows)).tolist(),
            dtype=pl.Int64,
        ),
        "flag": pl.Series(
            np.where(rng.random(rows) < 0.2, None, rng.random(rows) < 0.5).tolist(),
            dtype=pl.Boolean,
        ),
    }
    if width <= 10:
        columns["s"] = pl.Series([f"w{k:06d}" for k in index.tolist()], dtype=pl.String)
    return pl.DataFrame(columns)


def _read_by_pyarrow(data: bytes) -> pl.DataFrame:
    return pl.from_arrow(pq.read_table(io.BytesIO(data)))


def _check_against_pyarrow(frame: pl.DataFrame, rows: int, columns: bool = True) -> None:
    """``frame`` written by :func:`write_frame` (and :func:`write_columns`) reads back by
    pyarrow as itself, with the statistics pyarrow writes for it."""
    data = write_frame(frame, rows)
    assert _read_by_pyarrow(data).equals(frame)
    if columns:
        assert _read_by_pyarrow(write_columns(_columns_of(frame), frame.height, rows)).equals(frame)
    if frame.height:  # (polars' file of no rows has no row group, pyarrow's one)
        theirs = io.BytesIO()
        pq.write_table(frame.to_arrow(), theirs, row_group_size=rows)
        assert _stats_as_read(data) == _stats_as_read(theirs.getvalue())


@pytest.mark.parametrize("width", range(1, 17))
def test_every_index_width_reads_back_by_pyarrow(width):
    frame = _frame_of_width(width, width)
    _check_against_pyarrow(frame, 1 << 18)
    meta = pq.ParquetFile(io.BytesIO(write_frame(frame))).metadata.row_group(0)
    names = frame.columns
    for name in ("v", "n", "s"):  # the dictionary path, at this width, was taken
        if name in names:
            assert meta.column(names.index(name)).has_dictionary_page, (width, name)
    assert not meta.column(names.index("plain")).has_dictionary_page


def test_a_dictionary_of_65537_strings_reads_back_by_pyarrow():
    """Strings are dictionary-encoded however many: 65,537 words, 17-bit indices."""
    words = (1 << 16) + 1
    index = _index_order(words, np.random.default_rng(17))[: words + 2000]
    frame = pl.DataFrame({"s": pl.Series([f"w{k:06d}" for k in index.tolist()])})
    # write_columns ranks a string column's words one search each: too slow at this size
    _check_against_pyarrow(frame, 1 << 18, columns=False)


def test_row_groups_with_their_own_dictionaries_read_back_by_pyarrow():
    frame = _frame_of_width(12, 3)
    _check_against_pyarrow(frame.slice(5), 1000)  # sliced inside a byte of every bitmap


def test_empty_frames_null_columns_and_booleans_read_back_by_pyarrow():
    schema = {"i8": pl.Int8, "i16": pl.Int16, "i32": pl.Int32, "i64": pl.Int64, "u8": pl.UInt8,
              "u16": pl.UInt16, "b": pl.Boolean, "s": pl.String}  # fmt: skip
    assert supported(pl.Schema(schema))
    _check_against_pyarrow(pl.DataFrame(schema=schema), 8)
    for rows in (1, 7, 8, 9, 17, 1000):
        frame = pl.DataFrame(
            {name: pl.Series([None] * rows, dtype=t) for name, t in schema.items()}
        )
        _check_against_pyarrow(frame, 8)
    # booleans: runs, a pattern, nulls; every length around a byte; sliced inside a byte
    pattern = [True] * 20 + [False] * 20 + [True, False, None] * 7 + [None] * 9 + [True] * 3
    for skip in range(9):
        for end in (len(pattern) - 3, len(pattern)):
            frame = pl.DataFrame({"b": pl.Series(pattern[:end], dtype=pl.Boolean)}).slice(skip)
            _check_against_pyarrow(frame, 8)


def test_parts_of_this_writer_join_into_one_file_pyarrow_reads(tmp_path):
    """The run's parts (dictionary pages, several row groups, one empty) joined by
    :func:`concat_parquet` read back by pyarrow as the frames one after the other."""
    first = _frame_of_width(9, 1)
    frames = [first, _frame_of_width(9, 2).slice(3), first.clear(), first.slice(0, 77)]
    parts = []
    for k, frame in enumerate(frames):
        parts.append(tmp_path / f"p{k}.parquet")
        parts[-1].write_bytes(write_frame(frame, 512))
    concat_parquet(parts, tmp_path / "all.parquet")
    whole = pl.concat(frames)
    assert pl.from_arrow(pq.read_table(tmp_path / "all.parquet")).equals(whole)
    meta = pq.ParquetFile(tmp_path / "all.parquet").metadata
    assert meta.num_row_groups == sum(-(-f.height // 512) for f in frames)

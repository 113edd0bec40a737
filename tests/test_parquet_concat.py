"""Parquet files joined by copying their bytes under one rewritten footer."""

import struct

import polars as pl
import pyarrow.parquet as pq
import pytest

from sim.batch.parquet_concat import ParquetJoin, concat_parquet, footer, write_struct


def _part(path, frame, **kw):
    frame.write_parquet(path, compression="zstd", **kw)
    return path


def _frame(k, n):
    return pl.DataFrame(
        {
            "id": list(range(k * 1000, k * 1000 + n)),
            "x": [float(i) / 3 for i in range(n)],
            "s": [None if i % 7 == 0 else f"v{i % 5}" for i in range(n)],
            "b": [i % 2 == 0 for i in range(n)],
        },
        schema={"id": pl.Int32, "x": pl.Float64, "s": pl.String, "b": pl.Boolean},
    )


def test_a_footer_reads_back_to_the_same_bytes(tmp_path):
    path = _part(tmp_path / "a.parquet", _frame(0, 500))
    data = path.read_bytes()
    meta, start = footer(path)
    n = struct.unpack("<I", data[-8:-4])[0]
    assert write_struct(meta) == data[start : start + n]


def test_joined_file_holds_every_row_in_order_for_polars_and_pyarrow(tmp_path):
    frames = [_frame(0, 700), _frame(1, 0), _frame(2, 1500), _frame(3, 1)]
    parts = [_part(tmp_path / f"p{k}.parquet", f, row_group_size=600) for k, f in enumerate(frames)]
    rows = concat_parquet(parts, tmp_path / "all.parquet")
    whole = pl.concat(frames)
    assert rows == whole.height
    assert pl.read_parquet(tmp_path / "all.parquet").equals(whole)
    meta = pq.ParquetFile(tmp_path / "all.parquet").metadata
    assert meta.num_rows == whole.height
    # the row groups of every part, in order, each readable on its own
    groups = [pq.ParquetFile(p).metadata.num_row_groups for p in parts]
    assert meta.num_row_groups == sum(groups)
    f = pq.ParquetFile(tmp_path / "all.parquet")
    got = [f.read_row_group(i).column("id")[0].as_py() for i in range(meta.num_row_groups)]
    assert got[0] == 0 and got[2] == 2000 and got[-1] == 3000
    stats = meta.row_group(2).column(0).statistics  # statistics travel along
    assert (stats.min, stats.max) == (2000, 2599)


def test_other_schemas_and_other_files_are_refused(tmp_path):
    a = _part(tmp_path / "a.parquet", _frame(0, 10))
    b = _part(tmp_path / "b.parquet", _frame(0, 10).rename({"x": "y"}))
    with pytest.raises(ValueError, match="schema"):
        concat_parquet([a, b], tmp_path / "out.parquet")
    (tmp_path / "c.parquet").write_bytes(b"not parquet at all")
    with pytest.raises(ValueError, match="not a Parquet"):
        concat_parquet([a, tmp_path / "c.parquet"], tmp_path / "out.parquet")


def test_a_join_that_fails_leaves_no_file(tmp_path):
    a = _part(tmp_path / "a.parquet", _frame(0, 10))
    (tmp_path / "bad.parquet").write_bytes(b"PAR1 but nothing after")
    dest = tmp_path / "out.parquet"
    with pytest.raises(ValueError, match="not a Parquet"), ParquetJoin(dest) as join:
        join.append(a)
        join.append(tmp_path / "bad.parquet")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.parquet", "bad.parquet"]
    with pytest.raises(ValueError, match="no parts"):
        ParquetJoin(dest).close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.parquet", "bad.parquet"]

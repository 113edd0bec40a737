"""Batch runs: the generic machinery under every run, which knows nothing of cards.

Above the base, below the runs (``tests/test_layers.py``):

* :mod:`~sim.batch.runner` — a job cut into seeded chunks, played on local processes
  or a Dask cluster, its parts saved as they come (resumable) and joined in chunk
  order, so that the files are byte-identical whatever the workers;
* :mod:`~sim.batch.parquet_write` — a compiled Parquet writer of integer and boolean
  frames (dictionary and run-length/bit-packed pages), the runs' chunk files;
* :mod:`~sim.batch.parquet_concat` — Parquet parts joined into one file by copying
  their bytes and rewriting the footer (its Thrift compact codec).

Importing the package imports none of them; a name below is loaded when first used.
"""

from sim.lazy import face

__all__, __getattr__, __dir__ = face(
    __name__,
    {
        "Backend": "runner",
        "Chunk": "runner",
        "Destination": "runner",
        "run_chunks": "runner",
        "run_joined": "runner",
        "run_to": "runner",
        "write_frame": "parquet_write",
        "write_columns": "parquet_write",
        "concat_parquet": "parquet_concat",
        "ParquetJoin": "parquet_concat",
    },
)

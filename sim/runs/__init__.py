"""The runs: the code that plays deals and games and writes their tables, and no statistics.

Above the engine, the solver and the reference engine, below the analysis and the jobs
(``tests/test_layers.py`` reads the layers from the folders):

* :mod:`~sim.runs.runner` — chunked runs on local processes or a Dask cluster,
  resumable, byte-identical whatever the workers;
* :mod:`~sim.runs.folder` — the one writer of ``hands`` and ``games`` run folders
  (:class:`RunSpec` in, a folder out) and the report's runs;
* :mod:`~sim.runs.hands`, :mod:`~sim.runs.games` — one run of each kind, in chunks;
* :mod:`~sim.runs.odds` — the deal odds counted over deals;
* :mod:`~sim.runs.declarer` — every dealt hand played as the declarer's (the safe-bid
  tables and the advisor);
* :mod:`~sim.runs.advise` — one hand's deals sampled and played (the advisor);
* :mod:`~sim.runs.duel` — two players in duplicate;
* :mod:`~sim.runs.compare` — rule sets on the same deals;
* :mod:`~sim.runs.bench` — the machine's throughput;
* :mod:`~sim.runs.parquet_concat` — Parquet parts joined by copying their bytes.

Importing the package imports none of them; a name below is loaded when first used.
"""

from sim.lazy import face

__all__, __getattr__, __dir__ = face(
    __name__,
    {
        "Backend": "runner",
        "Feedback": "folder",
        "RunSpec": "folder",
        "RunResult": "folder",
        "play_into": "folder",
        "simulate_report": "folder",
        "Destination": "runner",
        "HandsJob": "hands",
        "GamesJob": "games",
        "run_hands": "hands",
        "run_games": "games",
        "games_frame": "games",
        "stints_frame": "games",
        "run_odds": "odds",
        "simulate_odds": "odds",
        "run_items": "declarer",
        "play_as_declarer": "declarer",
        "par_levels": "declarer",
        "sample_deals": "advise",
        "Contestant": "duel",
        "duel_hands": "duel",
        "duel_games": "duel",
        "play_rule_sets": "compare",
        "run_all": "bench",
        "concat_parquet": "parquet_concat",
    },
)

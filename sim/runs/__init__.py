"""The runs: the code that plays deals and games and writes their tables, and no statistics.

Above the engine, the solver, the reference engine and the batch machinery
(:mod:`sim.batch`: chunks, workers, Parquet), below the analysis and the jobs
(``tests/test_layers.py`` reads the layers from the folders):

* :mod:`~sim.runs.folder` — the one writer of ``hands`` and ``games`` run folders
  (:class:`RunSpec` in, a folder out) and the report's runs;
* :mod:`~sim.runs.hands`, :mod:`~sim.runs.games` — one run of each kind, in chunks;
* :mod:`~sim.runs.odds` — the deal odds counted over deals;
* :mod:`~sim.runs.declarer` — every dealt hand played as the declarer's (the safe-bid
  tables and the advisor);
* :mod:`~sim.runs.classes` — hands dealt by class on purpose (the advisor's tables);
* :mod:`~sim.runs.plans` — deals played once per choice of one seat in the auction;
* :mod:`~sim.runs.advise` — one hand's deals sampled and played (the advisor);
* :mod:`~sim.runs.duel` — two players in duplicate;
* :mod:`~sim.runs.compare` — rule sets on the same deals;
* :mod:`~sim.runs.equity` — game states before each deal, from traced games;
* :mod:`~sim.runs.teach` — the teacher's labels: decisions valued by the search;
* :mod:`~sim.runs.bench` — the machine's throughput.

Importing the package imports none of them; a name below is loaded when first used.
"""

from sim.lazy import face

__all__, __getattr__, __dir__ = face(
    __name__,
    {
        "Feedback": "folder",
        "RunSpec": "folder",
        "RunResult": "folder",
        "play_into": "folder",
        "simulate_report": "folder",
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
    },
)

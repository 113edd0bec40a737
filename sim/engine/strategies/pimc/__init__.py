"""The sampling player ``pimc``: perfect-information Monte Carlo over the open-card solver.

At a decision it deals the cards it cannot see in ``worlds`` ways consistent with
what it has seen (:mod:`.worlds`), solves each world with every card face up
(:mod:`sim.engine.search`, the engine's own play steps; :mod:`.probes`) and takes the
action that does best over the same worlds:

* **card play** (:mod:`.play`): the declarer takes the move that reaches the contract
  in the most worlds, a defender the one that lets it in the fewest (null-window
  probes at the points the declarer still needs); ties go to the best mean open-card
  total (the declarer's highest; a defender's lowest, less the value of the marriage
  the move declares when it scores for the defender), then to the lowest code. The
  means are taken over the worlds solved within ``TIE_NODES`` search nodes, each total
  probed from the nearest one known, and with none solved the tie goes to the solver's
  move ordering. With ``pimc.tie_worlds`` below ``worlds`` only the first that many
  worlds are solved exactly for the tie (the counts still come from every world).
  With ``pimc.tie_net`` 1 (the default) and three hands the tie goes instead to the
  move ``strong``'s fitted card scores rank first, at no search cost.
* **contract** (after the discard): the amount with the best expected deal score over
  the worlds' open-card totals (``+c`` made, ``-c`` failed), each world probed at the
  contracts' targets by bisection; with ``pimc.contract`` 1 that expectation comes from
  ``strong``'s network fitted on these probes (:mod:`sim.engine.strategies.learned`),
  where one is fitted for the rules;
* **concession**: conceded where conceding is expected to gain the declarer's margin
  (its deal score minus the mean of the other hands', as the duels count it) by more
  than ``concede_margin``: playing on scores ``c (2 p - 1)`` and gives the defenders the
  points of a line fitted on played deals, conceding scores ``-c`` (0 with
  ``rospis.no_subtract``) and gives each defender its share; ``p`` is the share of
  sampled worlds that make the contract, recalibrated to how often played deals make
  it (:func:`~sim.engine.strategies.learned.concession_gain`); by the contract network's
  share with ``pimc.contract`` 1;
* **discard** (:mod:`.discard`): with ``pimc.discard`` 1, of the
  ``DISCARD_CANDIDATES`` cards the heuristic would rather give away, the one whose best
  contract over the sampled worlds has the best expected deal score; 2 (the default):
  ``strong``'s line fitted on these scores (three hands; with two or four, as 1); 3:
  each card's hand left valued by the contract network, :func:`~.discard.net_discard`
  (as 1 where no network is fitted for the rules); 0: the heuristic's;
* **bidding** (:mod:`.bidding`), the heuristic's unless ``pimc.bid`` (raise when
  declaring is expected to score ``bid_margin`` over ``bid_worlds`` sampled deals) or
  ``pimc.bid_make`` (raise when the hand makes the next level in that share of them).

Reshuffle demands, the talon pick, the trump name and dark play are the heuristic's
(its record, :mod:`sim.players`, leaves them to it; its parameters in the same slots).

**What a world keeps** (the information set of the seat deciding): its own hand; the
cards played; each seat's hand size; the cards every seat has shown it lacks (voids,
and what ``play.must_trump`` and ``play.must_beat`` reveal); the unplayed partner of
every declared marriage (and the other aces of an ace marriage) in the declarer of it;
the cards given at the discard when they lie face up (or when the seat gave them); a
shown talon's cards in the declarer's hand (with the discards face down, a defender
allows the other defender one of them); with two players the set-aside talon, which
nobody has seen; and what the auction showed under ``bid.cap_by_marriages``. Cards
forced by these facts are placed first; the rest are split uniformly at random, and a
world the auction rules out is dealt again, up to ``MAX_RESAMPLE`` times: so every
world consistent with the facts is equally likely.

**Reading the auction** (``pimc.read_bids`` 1, the default): the raises of a seat whose
record says it bids by the heuristic's rule also say something of its hand short of a
marriage (:func:`~.worlds.bids_likely`), and worlds are dealt again until the defenders'
dealt hands agree; only in ordinary deals of three hands with nobody on the barrel.

**Randomness** comes from the deal's own stream: the tie-break sub-seed of the deal
mixed with a constant, drawn by the counter ``S_PIMC_CTR``; so a run is the same
whatever the chunks and workers, and the worlds of one decision are re-dealt exactly
(the counter is rewound) when ties need exact values.

How strong it plays, measured in duplicate duels, and how its settings were chosen:
``docs/players.md`` (``make docs``).
"""

from sim.lazy import face

__all__, __getattr__, __dir__ = face(
    __name__,
    {
        "bid_shown_cap": "worlds",
        "bids_agree": "worlds",
        "bids_likely": "worlds",
        "discard_scores": "discard",
        "least_total": "probes",
        "pimc_bid": "bidding",
        "pimc_bid_sampled": "bidding",
        "pimc_concede": "play",
        "pimc_contract": "play",
        "pimc_discard": "discard",
        "pimc_entry": "entry",
        "net_discard": "discard",
        "pimc_give": "discard",
        "pimc_play": "play",
        "played_by": "worlds",
        "reads_bids": "worlds",
        "sample_world": "worlds",
        "shown_cap": "worlds",
    },
)

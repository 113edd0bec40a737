"""``--aggregate-only``'s counts: packed and counted, the same rows as through the frame."""

import dataclasses

import pytest

from sim.engine.api import play_hands
from sim.engine.state import ROW
from sim.rules import load_rules
from sim.runs.hands import (
    AGG_KEYS,
    aggregate_batch,
    aggregate_columns,
    aggregate_hands,
    hands_frame,
)


def _through_the_frame(batch):
    players = batch.rules.players
    return aggregate_hands(hands_frame(batch, aggregate_columns(players)), players)


def _same(a, b):
    assert a.schema == b.schema
    assert a.sort(AGG_KEYS, nulls_last=True).equals(b.sort(AGG_KEYS, nulls_last=True))


@pytest.mark.parametrize("preset", ["classic", "two_players", "four_players", "ukraine_online"])
def test_the_packed_counts_are_the_frames_counts(preset):
    batch = play_hands(load_rules(preset), 6000, 3, ["heuristic"])
    counts = aggregate_batch(batch)
    _same(counts, _through_the_frame(batch))
    assert counts["count"].sum() == len(batch) + batch.out[:, ROW["redeals"]].sum()


def test_a_value_too_wide_for_its_field_is_counted_through_the_frame():
    batch = play_hands(load_rules("classic"), 500, 3, ["heuristic"])
    out = batch.out.copy()
    played = out[:, ROW["declarer"]] >= 0
    out[played.argmax(), ROW["contract"]] = 5000  # 12 bits hold up to 4093
    wide = dataclasses.replace(batch, out=out)
    counts = aggregate_batch(wide)
    assert 5000 in counts["contract"].to_list()
    _same(counts, _through_the_frame(wide))

"""The atlas of house-rule switches: which switches it plays, the signs it must recover, resume."""

import json
from contextlib import contextmanager

import polars as pl
import pytest

from sim.jobs.atlas import NUMBER_VALUES, ONLY_WITH_PLAYERS, AtlasSpec, atlas, switches
from sim.output import UsageError
from sim.rules import _FIELD_META, RULE_KEYS, load_rules
from sim.runs.folder import Feedback

CLASSIC = load_rules("classic")


def test_every_option_is_switched_or_said_why_not():
    played, refused = switches(CLASSIC)
    names = [s.name for s, _r in played] + [s.name for s, _w in refused]
    assert len(names) == len(set(names))
    switched = {s.key for s, _r in played} | {s.key for s, _w in refused}
    numbers = {
        k for k in RULE_KEYS if _FIELD_META[k]["type"] is int and "choices" not in _FIELD_META[k]
    }
    # every yes/no and choice option is switched; a number only where a table gives values
    # and an option of another player count not at all
    assert set(RULE_KEYS) - switched == numbers - set(NUMBER_VALUES) - {
        "bid.silence_below",
        "game.bank",
    } | set(ONLY_WITH_PLAYERS)
    by_name = {s.name: (s, r) for s, r in played}
    s, r = by_name["rospis.allowed=false"]
    assert r.rospis.allowed is False and r.to_dict() | {"rospis.allowed": True} == CLASSIC.to_dict()
    assert {n for n in by_name if n.startswith("barrel.simultaneous=")} == {
        "barrel.simultaneous=all_fall", "barrel.simultaneous=both_stay",
    }  # fmt: skip
    assert by_name["game.bank=100"][1].game.bank == 100 and "barrel.at=0" in by_name
    for s, why in refused:  # an option that needs another refuses alone, and says why
        assert why and s.key in RULE_KEYS, (s, why)
    assert by_name["score.lock_at=800"][1].score.lock_at == 800  # the Polish 800 rule


def test_the_polish_tables_switch_their_own_rules():
    """The 800 rule is switched off from the Polish presets, and each option of a player
    count is switched only at its own table."""
    names = {p: {s.name for s, _r in switches(load_rules(p))[0]} for p in ("polish", "polish_two")}
    assert "score.lock_at=off" in names["polish"] and "rospis.when=contract" in names["polish"]
    assert "talon.two_players=give" in names["polish_two"]
    assert not any(n.startswith("talon.") and "players" in n for n in names["polish"])
    four = {s.name for s, _r in switches(load_rules("polish_four"))[0]}
    assert "talon.sitter_scores=points" in four and "talon.two_players=give" not in four


class Interrupting(Feedback):
    """A caller that stops the job after ``after`` chunks (as a Ctrl-C would)."""

    def __init__(self, after):
        self.after = after

    @contextmanager
    def bar(self, total, unit, label):
        outer = self

        class Bar:
            def update(self, n=1):
                outer.after -= 1
                if outer.after < 0:
                    raise KeyboardInterrupt

        yield Bar()


def spec(**kw):
    base = dict(base=CLASSIC, games=400, seed=4, strategies="heuristic", skill_games=0,
                keys=("game.target", "players"), chunk=100, workers=1)  # fmt: skip
    return AtlasSpec(**{**base, **kw})


def test_the_atlas_recovers_known_directions_and_resumes(tmp_path):
    out = tmp_path / "a"
    with pytest.raises(KeyboardInterrupt):
        atlas(spec(), out, feedback=Interrupting(6))
    assert not out.exists() and (tmp_path / ".a.partial").is_dir()
    with pytest.raises(UsageError, match="--resume"):
        atlas(spec(), out)  # the kept chunks are neither lost nor reused silently
    result = atlas(spec(), out, resume=True)
    whole = atlas(spec(), tmp_path / "whole")
    assert result.table.equals(whole.table)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "whole"]
    t = result.table
    length = {r["switch"]: r for r in t.filter(pl.col("measure") == "length").iter_rows(named=True)}
    # a lower target ends games sooner, a higher one later: the signs must come out so
    assert length["game.target=950"]["diff"] < 0 and length["game.target=950"]["clear"]
    assert length["game.target=1050"]["diff"] > 0 and length["game.target=1050"]["clear"]
    assert length["game.target=1050"]["rank"] is not None
    # four hands have other fair shares: its fairness is the switch itself, not ranked
    fair = t.filter((pl.col("measure") == "fairness") & (pl.col("switch") == "players=4"))
    assert fair["ranked"].to_list() == [False] and fair["rank"].to_list() == [None]
    for f in ("atlas.csv", "atlas_effects.csv", "atlas.md", "atlas.json", "atlas.png", "run.json"):
        assert (out / f).is_file(), f
    doc = json.loads((out / "atlas.json").read_text(encoding="utf-8"))
    assert doc["rules"] == "classic" and len(doc["atlas"]) == t.height
    for name in ("base", "game.target=950", "players=4"):
        assert (out / "runs" / name / "games.parquet").is_file()


def test_atlas_command_and_its_bad_input(thousand, tmp_path):
    r = thousand("atlas", "--keys", "bid.jumps", "--games", "60", "--strategies", "heuristic",
                 "--skill-games", "30", "--workers", "1", "--lang", "ru")  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "рейз" in r.stdout.lower() or "повыш" in r.stdout.lower() or "шаг" in r.stdout.lower()
    for args, culprit in (
        (["--keys", "barrel.att"], "barrel.att"),
        (["--keys", "bid.jumps", "--strategies", "strong,random,random"], "--strategies"),
        (["--keys", "bid.jumps", "--skill", "nobody"], "--skill"),
        (["--keys", "bid.jumps", "--resume"], "--resume"),
    ):
        bad = thousand("atlas", "--games", "10", "--out", str(tmp_path / "o"), *args)
        lines = bad.stderr.strip().splitlines()
        assert bad.returncode == 2 and len(lines) == 1 and culprit in lines[0], bad.stderr
        assert not (tmp_path / "o").exists()


def test_a_small_atlas_on_a_dask_cluster_is_the_atlas_played_here():
    """A real cluster on loopback (one worker in this process) plays the same table."""
    from distributed import LocalCluster

    small = dict(games=100, chunk=50, keys=("bid.jumps",))
    here = atlas(spec(**small))
    with LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, protocol="tcp", host="127.0.0.1",
        dashboard_address="127.0.0.1:0",  # its HTTP endpoint on a free port, not 8787
    ) as cluster:  # fmt: skip
        assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        there = atlas(spec(**small, scheduler=cluster.scheduler_address))
        # the base and the switch, two chunks each, were the cluster's tasks
        chunks = cluster.scheduler.task_prefixes["chunk"]
        assert chunks.state_counts["memory"] == 4 and chunks.states["memory"] == 0  # released
    assert there.table.equals(here.table) and there.table.height > 0


@pytest.mark.slow
def test_the_atlas_on_a_dask_cluster_is_the_atlas_played_here(tmp_path):
    """A real LocalCluster on loopback plays the same switches to the same table."""
    here = atlas(spec(games=3000, chunk=1000, keys=("game.target", "bid.jumps")))
    there = atlas(spec(games=3000, chunk=1000, keys=("game.target", "bid.jumps"), workers=2,
                       scheduler="local"), tmp_path / "d")  # fmt: skip
    assert there.table.equals(here.table)
    manifest = json.loads((tmp_path / "d" / "run.json").read_text(encoding="utf-8"))
    assert manifest["backend"] == "dask"

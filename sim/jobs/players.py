"""The players' page, ``docs/players.md``: how every player decides and how strong it plays.

The page is written from these sources, so that it cannot go stale unnoticed:

* the players' records (:mod:`sim.players`): what each player is, which decisions it
  makes itself, its parameters, its speed class, whether it advises;
* the measured strength, ``docs/players.json``: a duplicate duel of every player against
  ``heuristic`` (classic rules, seeds set here and used for no fitting or tuning),
  written by ``python -m sim.jobs.players --measure`` (minutes: the sampling players
  play a few deals a second). Each measurement keeps the engine version
  (:data:`sim.ENGINE_VERSION`, bumped whenever results change for the same seed) and
  the player's parameter defaults it was played with; the page marks a measurement
  that no longer matches as stale, and ``tests/test_docs.py`` fails on one;
* the ladder, ``docs/ladder.json``: every player against every other
  (``--ladder``), stamped and marked stale the same way;
* the notes, ``docs/player_notes.toml`` (written by hand): how each player's settings
  were chosen, the duels and fits measured when each choice was made. Each note names
  the commit whose sources it measured, and the file keeps what those sources were as
  a duel records it (the engine version and the player's parameter defaults); the page
  marks a note measured on other code than today's with what differs
  (:func:`note_stale`), so a figure of older code never reads as today's.

``make docs`` rewrites the page from them (:func:`write_page`) without playing.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sim
from sim.players import ADVISORS, DECISIONS, FAST_HANDS_PER_S, PLAYERS, Player
from sim.rules import load_rules

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "players.md"
MEASURED = ROOT / "docs" / "players.json"
LADDER = ROOT / "docs" / "ladder.json"
NOTES = ROOT / "docs" / "player_notes.toml"
AGAINST = "heuristic"  # every player's duel is against it


@dataclass(frozen=True, kw_only=True)
class PlayersSpec:
    """What the measurement plays.

    Attributes:
        rules: the preset of every duel.
        fast_deals: deals of a fast player's duel.
        sampling_deals: deals of a sampling player's duel.
        seed: the duels' seed (used for no fitting or tuning).
        players: the players measured (all by default).
    """

    rules: str = "classic"
    fast_deals: int = 20_000
    sampling_deals: int = 1_000
    seed: int = 90_001
    players: tuple[str, ...] = tuple(PLAYERS)


@dataclass(frozen=True, kw_only=True)
class PageLadderSpec:
    """What the page's ladder plays: every player against every other.

    Attributes:
        rules: the preset of every duel.
        deals: deals of a duel between two fast players.
        sampling_deals: deals of a duel with a sampling player in it.
        seed: the duels' seed (used for no fitting or tuning).
    """

    rules: str = "classic"
    deals: int = 5_000
    sampling_deals: int = 300
    seed: int = 90_003


def play_ladder(spec: PageLadderSpec) -> dict[str, Any]:
    """Play the page's ladder; the document of ``docs/ladder.json``.

    It keeps the ladder (:func:`analysis.ladder.ladder_json`), its sizes and seed, the
    engine version and every player's parameter defaults, so that the page can tell
    when it no longer describes the players.
    """
    from sim.jobs.ladder import LadderSpec, ladder

    played = ladder(
        LadderSpec(rules=load_rules(spec.rules), players=tuple(PLAYERS), deals=spec.deals,
                   sampling_deals=spec.sampling_deals, seed=spec.seed)
    )  # fmt: skip
    return {
        "rules": spec.rules,
        "deals": spec.deals,
        "sampling_deals": spec.sampling_deals,
        "seed": spec.seed,
        "engine_version": sim.ENGINE_VERSION,
        "defaults": {name: defaults(p) for name, p in PLAYERS.items()},
        "seconds": round(played.seconds, 1),
        **played.json(),
    }


def ladder_stale(doc: Mapping[str, Any]) -> str | None:
    """Why the page's ladder no longer describes the players (None when it does)."""
    if doc["engine_version"] != sim.ENGINE_VERSION:
        return f"engine version {doc['engine_version']}, now {sim.ENGINE_VERSION}"
    if set(doc["defaults"]) != set(PLAYERS):
        return "played by other players"
    changed = [n for n, d in doc["defaults"].items() if d != defaults(PLAYERS[n])]
    if changed:
        return f"{', '.join(changed)} measured with other parameter defaults"
    return None


def _ladder_lines(doc: Mapping[str, Any] | None) -> list[str]:
    """The page's ladder section: the ratings and every duel, from ``docs/ladder.json``."""
    lines = ["", "## Ladder: every player against every other", ""]
    if not doc:
        return [*lines, "Not played yet: `make players`."]
    why = ladder_stale(doc)
    lines += [
        f"Every pair plays a duplicate duel on the same deals ({doc['rules']}, seed "
        f"{doc['seed']}): the first at each seat in turn, the second at the others; "
        f"{doc['deals']:,} deals between two fast players, {doc['sampling_deals']:,} with a "
        "sampling one. A *rating* is points per deal against "
        f"`{doc['anchor']}` (0), fitted to every duel by least squares weighted by its "
        "precision; *margin* counts the defence too. Elo-like: 1500 + 400 log10 of the odds "
        f"that a deal goes the player's way (a deal's spread {doc['spread']:.1f} points). "
        "Played by `python -m sim.jobs.players --ladder` (`make players`).",
        "",
    ]
    if why:
        lines += [f"**Stale**: {why}; run `make players`.", ""]
    from analysis.ladder import ladder_from_json
    from views.ladder import ladder_tables_markdown

    return lines + ladder_tables_markdown(ladder_from_json(dict(doc))).rstrip("\n").split("\n")


def defaults(player: Player) -> dict[str, float]:
    """The player's parameter defaults, as a measurement records them."""
    return {name: p.default for name, p in player.params.items()}


def measure(spec: PlayersSpec, say: Any = print) -> dict[str, Any]:
    """Play every player's duplicate duel against :data:`AGAINST`.

    Returns the document of ``docs/players.json``: by player, the duel's size, seed,
    engine version, parameter defaults and its two measures with their intervals.
    """
    from analysis.duel import duel_json
    from sim.jobs.duel import DuelSpec, contestant, duel

    rules = load_rules(spec.rules)
    out: dict[str, Any] = {}
    for name in spec.players:
        player = PLAYERS[name]
        deals = spec.fast_deals if player.speed == "fast" else spec.sampling_deals
        say(f"{name} against {AGAINST}: {deals} deals, seed {spec.seed}")
        a, b = contestant("a", name), contestant("b", AGAINST)
        result = duel(DuelSpec(rules=rules, a=a, b=b, deals=deals, seed=spec.seed))
        doc = duel_json(result.result)
        out[name] = {
            "against": AGAINST,
            "rules": spec.rules,
            "deals": deals,
            "seed": spec.seed,
            "engine_version": sim.ENGINE_VERSION,
            "defaults": defaults(player),
            **{k: _estimate(doc["measures"][k]) for k in ("score_diff", "margin_diff")},
        }
    return out


def _estimate(measure: Mapping[str, Any]) -> dict[str, float]:
    """A duel measure as the page keeps it: its mean and 95 % interval."""
    return {"mean": measure["value"], "low": measure["ci_low"], "high": measure["ci_high"]}


def stale(name: str, m: Mapping[str, Any]) -> str | None:
    """Why a measurement no longer describes the player (None when it does)."""
    if m["engine_version"] != sim.ENGINE_VERSION:
        return f"engine version {m['engine_version']}, now {sim.ENGINE_VERSION}"
    if m["defaults"] != defaults(PLAYERS[name]):
        return "measured with other parameter defaults"
    return None


def note_stale(note: Mapping[str, Any], codes: Mapping[str, Any]) -> str | None:
    """What differs between the sources a note measured and today's (None: nothing).

    The sources are ``codes[note["code"]]``: the engine version and the noted player's
    parameter defaults then, compared as a duel's are (:func:`stale`); the words name
    the engine versions and the first few defaults that differ.
    """
    code = codes[note["code"]]
    why = []
    if code["engine_version"] != sim.ENGINE_VERSION:
        why.append(f"engine version {code['engine_version']}, now {sim.ENGINE_VERSION}")
    then: Mapping[str, float] = code["defaults"][note["player"]]
    now = defaults(PLAYERS[note["player"]])
    changed = [
        f"`{k}` {then[k]:g}, now {now[k]:g}" if k in then else f"no `{k}` (now {now[k]:g})"
        for k in now
        if then.get(k) != now[k]
    ] + [f"`{k}` {then[k]:g} (no longer a parameter)" for k in then if k not in now]
    if changed:
        more = f"; and {len(changed) - 4} more" if len(changed) > 4 else ""
        why.append("other parameter defaults: " + "; ".join(changed[:4]) + more)
    return "; ".join(why) or None


_NUMBER = r"([+-]?\d+(?:\.\d+)?)"
INTERVAL = re.compile(rf"{_NUMBER} ?%? \[{_NUMBER}, {_NUMBER}\]")
"""A figure and its 95 % interval as the notes write them: ``+1.23 [0.45, 2.01]``, ``68.2 % [67.7,
68.7]``."""


def check_notes(doc: Mapping[str, Any]) -> list[str]:
    """What is wrong with the notes of ``docs/player_notes.toml`` (nothing: an empty list).

    Every note names a player and a code the file describes, with that player's
    defaults; every interval in its text holds its mean; every code is used.
    """
    wrong = []
    codes = doc.get("code", {})
    for i, note in enumerate(doc.get("note", [])):
        where = f"note {i + 1} ({note.get('player')}, {note.get('code')})"
        if set(note) != {"player", "code", "text"}:
            wrong.append(f"{where}: keys {sorted(note)}, not player, code and text")
            continue
        if note["player"] not in PLAYERS:
            wrong.append(f"{where}: no such player")
        code = codes.get(note["code"])
        if code is None or not re.fullmatch(r"[0-9a-f]{7,40}", note["code"]):
            wrong.append(f"{where}: no [code.{note['code']}] with its engine version")
        elif note["player"] not in code.get("defaults", {}):
            wrong.append(f"{where}: [code.{note['code']}.defaults] has no {note['player']}")
        for mean, low, high in INTERVAL.findall(note["text"]):
            if not float(low) <= float(mean) <= float(high):
                wrong.append(f"{where}: {mean} [{low}, {high}] does not hold its mean")
    used = {n.get("code") for n in doc.get("note", [])}
    wrong += [f"[code.{c}] is noted by nothing" for c in codes if c not in used]
    return wrong


def _interval(x: Mapping[str, Any]) -> str:
    return f"{x['mean']:+.2f} [{x['low']:+.2f}, {x['high']:+.2f}]"


def _decisions(player: Player) -> str:
    if player.decides is None and not player.decides_when:
        return "every decision, by its own code"
    own = ", ".join(player.decides or ())
    when = "; ".join(
        f"{d} when {' or '.join(f'`{k}`' for k in keys)} is above 0"
        for d, keys in player.decides_when.items()
    )
    return (
        f"its own code: {own}" + (f"; {when}" if when else "") + f"; the rest: `{player.rest_by}`"
    )


def _kind(p: Any) -> str:
    words = {
        "number": "number",
        "count": "whole number 1 to 200",
        "flag": "0 or 1",
        "share": "share 0 to 1",
        "mode": "0, 1, 2 or 3",
    }[p.kind]
    return f"fixed at {p.fixed:g}" if p.fixed is not None else words


def page(
    measured: Mapping[str, Any],
    board: Mapping[str, Any] | None = None,
    notes: Mapping[str, Any] | None = None,
) -> str:
    """The text of ``docs/players.md``: the records, the measurements, the ladder, the notes."""
    notes = notes or {}
    codes = notes.get("code", {})
    lines = [
        "# The players",
        "",
        "<!-- Written by `make docs` (python -m sim.jobs.players) from the players' records",
        "     (sim/players.py), docs/players.json, docs/ladder.json and docs/player_notes.toml;",
        "     edit those, not this page. -->",
        "",
        "Every player of the toolkit, how it decides and how strong it plays. A player is its",
        "compiled code under `sim/engine/strategies/` plus one record in `sim/players.py`;",
        "everything below comes from those records and from measured duels.",
        "",
        "**Strength** is a duplicate duel against `heuristic` (`thousand duel`): the same deals",
        "are played with the player at each seat in turn and `heuristic` at the others, and",
        "with `heuristic` everywhere. *Own seat* is the player's score per deal minus",
        "`heuristic`'s from the same seat; *margin* also counts the defence (each seat's score",
        "minus the mean of the others'). 95 % intervals over deals. Measured by",
        "`python -m sim.jobs.players --measure` on seeds used for no fitting or tuning.",
        "",
        "| player | speed | advises | own seat [95 %] | margin [95 %] | deals, seed |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for name, player in PLAYERS.items():
        m = measured.get(name)
        if m is None:
            cells = ["not measured", "", ""]
        else:
            why = stale(name, m)
            mark = f" (stale: {why})" if why else ""
            cells = [
                _interval(m["score_diff"]) + mark,
                _interval(m["margin_diff"]),
                f"{m['deals']:,}, {m['seed']}",
            ]
        advises = "yes" if name in ADVISORS else "no"
        lines.append(f"| `{name}` | {player.speed} | {advises} | {' | '.join(cells)} |")
    lines += [
        "",
        f"*fast*: at least {FAST_HANDS_PER_S:,} hands a second on one thread (`make bench`",
        "fails below it; the safe-bid tables play it on every deal); *sampling*: a search",
        "over sampled deals at each decision, a few deals a second (tables play it on a",
        "sample). The open-card `par` stands beside the advisors: the best play with every",
        "card face up, an upper bound on any player.",
    ]
    lines += _ladder_lines(board)
    for name, player in PLAYERS.items():
        lines += ["", f"## `{name}`", "", player.words[:1].upper() + player.words[1:] + ".", ""]
        lines += [player.how, ""]
        lines.append(f"- **Decisions**: {_decisions(player)}.")
        entry = player.entry or (f"`{player.entry_of}`'s" if player.entry_of else None)
        call = f"its callback `{entry}`" if player.entry else (
            f"through {entry} callback" if entry else "built into the engine's `choose`"
        )  # fmt: skip
        lines.append(f"- **Called**: {call} (engine id {player.id}).")
        lines.append(f"- **Speed**: {player.speed}.")
        if player.advises:
            source = player.tables_from or name
            lines.append(
                f"- **Advises**: `thousand advise --player {name}`, {player.advice_samples:,} "
                f"sampled deals by default, starting from `{source}`'s class tables."
            )
        if player.sees_all_cards:
            lines.append("- **Sees every card**: an upper bound, not a player.")
        if player.defends_weaker:
            lines.append(
                "- **Defence**: measured weaker than `pimc`'s: its safe-bid tables run a "
                "little high (they say so)."
            )
        if player.params:
            lines += ["", "| parameter | default | values | meaning |", "| --- | --- | --- | --- |"]
            for pname, p in player.params.items():
                lines.append(f"| `{pname}` | {p.default:g} | {_kind(p)} | {p.doc} |")
        own = [n for n in notes.get("note", []) if n["player"] == name]
        if own:
            lines += [
                "",
                "How its settings were chosen (`docs/player_notes.toml`: the duels and fits "
                "measured then, each on the sources of the commit named; a note measured on "
                "other code than today's says what differs):",
                "",
            ]
            for note in own:
                why = note_stale(note, codes)
                then = f"measured on other code: {why}" if why else "today's engine and defaults"
                lines.append(f"- {note['text']} *(commit {note['code']}; {then})*")
    lines += [
        "",
        "## Adding a player",
        "",
        "1. Its compiled decisions in a module (or package) under `sim/engine/strategies/`,",
        "   with an entry of the players' C signature (`sim/engine/strategies/hook.py`).",
        "2. One `Player` record in `sim/players.py`: its name and next engine id, its words,",
        "   how it decides, its parameters, its `entry`, which decisions it makes (the rest",
        "   `rest_by` the heuristic), its speed class, whether it advises.",
        "3. What decided its settings, with the figures measured then: notes in",
        "   `docs/player_notes.toml`, each naming the commit whose sources it measured (and",
        "   those sources' engine version and the player's defaults under `[code.COMMIT]`).",
        "",
        "`tests/test_players_api.py` then checks it on every preset (every move legal as the",
        "reference engine judges it, hidden cards ignored, the same bytes from the same seed),",
        "`make bench` times it if it says it is fast, and `make docs` lists it here. Decisions",
        f"not listed: {', '.join(DECISIONS)}.",
        "",
    ]
    return "\n".join(lines)


def read_measured(path: Path = MEASURED) -> dict[str, Any]:
    """The measurements of ``docs/players.json`` (none when the file is missing)."""
    if not path.exists():
        return {}
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


def read_notes(path: Path = NOTES) -> dict[str, Any]:
    """The notes of ``docs/player_notes.toml`` (none when the file is missing)."""
    if not path.exists():
        return {}
    return tomllib.loads(path.read_text(encoding="utf-8"))


def read_ladder(path: Path = LADDER) -> dict[str, Any] | None:
    """The page's ladder, ``docs/ladder.json`` (None when the file is missing)."""
    if not path.exists():
        return None
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


def write_page(
    path: Path = PAGE,
    measured_path: Path = MEASURED,
    ladder_path: Path = LADDER,
    notes_path: Path = NOTES,
) -> None:
    """Rewrite ``docs/players.md`` from the records and the three files of ``docs/``."""
    text = page(read_measured(measured_path), read_ladder(ladder_path), read_notes(notes_path))
    path.write_text(text, encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m sim.jobs.players [--measure [NAME ...]]``: measure, then write the page."""
    parser = argparse.ArgumentParser(prog="python -m sim.jobs.players", description=__doc__)
    parser.add_argument(
        "--measure", nargs="*", metavar="NAME", help="play the duels (of these players; all)"
    )
    parser.add_argument(
        "--ladder", action="store_true", help="play every player against every other"
    )
    parser.add_argument("--page", type=Path, default=PAGE)
    parser.add_argument("--measured", type=Path, default=MEASURED)
    parser.add_argument("--ladder-file", type=Path, default=LADDER)
    parser.add_argument("--notes", type=Path, default=NOTES)
    args = parser.parse_args(argv)
    if args.measure is not None:
        names = tuple(args.measure) or tuple(PLAYERS)
        unknown = [n for n in names if n not in PLAYERS]
        if unknown:
            print(f"unknown players: {', '.join(unknown)}", file=sys.stderr)
            return 2
        doc = read_measured(args.measured)
        doc.update(measure(PlayersSpec(players=names), say=lambda s: print(s, file=sys.stderr)))
        ordered = {n: doc[n] for n in PLAYERS if n in doc}
        args.measured.write_text(json.dumps(ordered, indent=2) + "\n", encoding="utf-8")
    if args.ladder:
        print("the ladder: every player against every other", file=sys.stderr)
        board = play_ladder(PageLadderSpec())
        args.ladder_file.write_text(json.dumps(board, indent=2) + "\n", encoding="utf-8")
    write_page(args.page, args.measured, args.ladder_file, args.notes)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

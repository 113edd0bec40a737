"""House rules as data: the frozen :class:`Rules` and its TOML presets.

Every option of docs/rules.md is one field of a section dataclass below, with its
default (the defaults together are the ``classic`` preset) and a one-line comment
citing the clause. Rules are loaded from a preset name (``sim/presets/*.toml``) or a
user's TOML file, which may start from another one with ``base = "classic"``.
Unknown keys, wrong types and impossible values raise :class:`RulesError` with a
message naming the key and the file.

The compiled engine never reads TOML: it receives :meth:`Rules.to_array`, a flat
``int64`` vector whose layout is :data:`RULE_KEYS`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from sim.i18n import _

OFF = "off"  # spelling of a switched-off optional threshold in TOML


class RulesError(ValueError):
    """Invalid rules: the message names the key and the file."""


def did_you_mean(name: str, choices: Iterable[str]) -> str:
    """``" (did you mean 'x'?)"`` for the closest of ``choices``, or ``""`` when none is close."""
    import difflib

    close = difflib.get_close_matches(name, list(choices), n=1, cutoff=0.6)
    return _(" (did you mean '{name}'?)").format(name=close[0]) if close else ""


def _opt(default: Any, doc: str, **meta: Any) -> Any:
    """A rule option: its default, a one-line description, and validation metadata.

    ``meta`` may hold ``choices`` (allowed values), ``lo``/``hi`` (inclusive bounds),
    ``optional`` (the value may be ``None``, spelled ``"off"`` in TOML).
    """
    return field(default=default, metadata={"doc": doc, **meta})


@dataclass(frozen=True)
class DealRules:
    """docs/rules.md §2: how cards are dealt."""

    method: str = _opt(
        "shuffle",
        "§2 shuffle: every deal from a freshly shuffled deck; cut: the next deck is the"
        " previous deal's cards gathered as they lie, cut and dealt one at a time",
        choices=("shuffle", "cut"),
    )
    nine_cut_penalty: int = _opt(
        0,
        "§2 a bottom nine after the cut makes the cutter cut again; the third nine in a row"
        " costs the cutter this many points (0: no recut at all)",
        lo=0,
    )
    jack_to_middle: bool = _opt(
        False, "§2 a jack at the bottom after the cut is moved into the middle of the deck"
    )
    cut_chain: int = _opt(
        40,
        "§2 with method cut, a hands run starts a new shuffled chain every this many deals",
        lo=1,
        hi=1_000_000,
    )


@dataclass(frozen=True)
class ReshuffleRules:
    """docs/rules.md §3: conditions under which a player may demand a new deal."""

    hand_points_below: int = _opt(13, "§3 hand card points < N (0 off)", lo=0, hi=121)
    hand_nines: int = _opt(3, "§3 at least N nines in hand (0 off)", lo=0, hi=4)
    hand_four_jacks: bool = _opt(True, "§3 four jacks in hand")
    talon_points_below: int = _opt(5, "§3 talon points < N (0 off)", lo=0, hi=121)
    talon_two_nines: bool = _opt(True, "§3 two or more nines in the talon")
    talon_three_jacks: bool = _opt(True, "§3 three jacks in the talon")
    talon_only_at_100: bool = _opt(False, "§3 talon reshuffle only when won at 100 unbid")
    after_discard_four_nines: bool = _opt(False, "§3 a player holds four nines after the discard")
    after_discard_points_below: int = _opt(
        0, "§3 a hand's points < N after the discard (0 off)", lo=0, hi=121
    )
    dealer_penalty: int = _opt(0, "§3 points charged to the dealer for a three-nines redeal", lo=0)


@dataclass(frozen=True)
class BidRules:
    """docs/rules.md §4: bidding."""

    step: int = _opt(5, "§4 every bid is a multiple of this", choices=(5, 10))
    jumps: bool = _opt(True, "§4 a raise may be any multiple of step (false: exactly +step)")
    cap_by_marriages: bool = _opt(True, "§4 no bid above 120 + own marriages")
    silence_below: int | None = _opt(
        None, "§4 a player whose score is below this always passes", optional=True
    )


@dataclass(frozen=True)
class TalonRules:
    """docs/rules.md §5: the talon and the discard."""

    hide_at_100: bool = _opt(True, "§5 talon not shown when won at 100 without bidding")
    discard_face_down: bool = _opt(False, "§5 opponents do not see each other's discard")
    two_players: str = _opt(
        "give",
        "§12 two players: take one talon blind and give the opponent a card, 11 tricks, the"
        " other talon to the last trick (give); or pick a musik, show it, lay two cards"
        " away, 10 tricks, the other musik unseen (discard: the Polish game)",
        choices=("give", "discard"),
    )
    sitter_scores: str = _opt(
        "points",
        "§12 four players: the dealer sitting out scores the talon's card points and"
        " marriages (points), or 50 for each ace and its marriages (aces: the Polish game)",
        choices=("points", "aces"),
    )


@dataclass(frozen=True)
class RospisRules:
    """docs/rules.md §5: concession (роспись)."""

    allowed: bool = _opt(True, "§5 the declarer may concede instead of playing")
    no_subtract: bool = _opt(False, "§5 a conceding declarer scores 0 instead of -contract")
    opponents_get: str = _opt(
        "half",
        "§5 each opponent gets contract/2 (rounded up to 5) or 60",
        choices=("half", "sixty"),
    )
    max_per_game: int = _opt(0, "§5 concessions allowed per player per game (0 unlimited)", lo=0)
    third_penalty: int = _opt(0, "§5 points lost on the third concession (0 none)", lo=0)
    on_barrel: bool = _opt(False, "§5 concession allowed while someone sits on the barrel")
    when: str = _opt(
        "contract",
        "§5 the declarer concedes after naming the contract (contract), or right after"
        " taking the talon, before the discard (talon: the Polish bomb)",
        choices=("contract", "talon"),
    )

    def each_opponent_gets(self, contract: Any) -> Any:
        """What each opponent scores when ``contract`` is conceded (§5): a float, or an array.

        60, or half the contract rounded up to 5 (the engine's
        ``sim.engine.scoring.concession_share`` reads the same rule from the rule row).
        """
        c = np.asarray(contract, dtype=np.float64)
        out = np.full_like(c, 60.0) if self.opponents_get == "sixty" else (c + 9) // 10 * 5
        return out if np.ndim(contract) else float(out)

    def declarer_gets(self, contract: Any) -> Any:
        """What a conceding declarer scores (§5): ``-contract``, or 0 with ``no_subtract``."""
        c = np.asarray(contract, dtype=np.float64)
        out = np.zeros_like(c) if self.no_subtract else -c
        return out if np.ndim(contract) else float(out)


@dataclass(frozen=True)
class PlayRules:
    """docs/rules.md §6: duties in play."""

    must_trump: bool = _opt(True, "§6 a void player must trump if able")
    must_beat: bool = _opt(False, "§6 head the trick whenever possible")
    no_lead_foreign_trump: bool = _opt(False, "§6 no leading another's trump while holding others")
    must_lead_trump: bool = _opt(False, "§6 the leader must lead trump when holding one")


@dataclass(frozen=True)
class MarriageRules:
    """docs/rules.md §1 and §6: marriages and the trump they set."""

    values: str = _opt(
        "standard",
        "§1 marriage value table",
        choices=("standard", "spades_high", "spades_clubs_high", "five_hundred_one"),
    )
    trump_from: str = _opt(
        "this_trick",
        "§6 a declared trump applies from this or next trick",
        choices=("this_trick", "next_trick"),
    )
    first_lead: bool = _opt(False, "§6 a marriage may be declared on the first trick")
    changes_trump: bool = _opt(True, "§6 a declared marriage makes its suit trump")
    requires_capture: bool = _opt(False, "§6 the value counts only if a marriage card is captured")
    only_declarer: bool = _opt(False, "§6 only the contract player scores marriages")
    ace: bool = _opt(False, "§6 four aces declared by leading an ace score 200")
    ace_sets_trump: bool = _opt(False, "§6 the ace marriage makes the led ace's suit trump")


@dataclass(frozen=True)
class TrumpRules:
    """docs/rules.md §6: trump named by the declarer (501)."""

    named_by_declarer: bool = _opt(False, "§6 the declarer names trump after the discard")


@dataclass(frozen=True)
class BonusRules:
    """docs/rules.md §6: bonuses."""

    four_nines: int = _opt(0, "§6 points for holding four nines after the discard (0 off)", lo=0)


@dataclass(frozen=True)
class ScoreRules:
    """docs/rules.md §7: scoring a deal."""

    round_declarer: bool = _opt(False, "§7 round the declarer's total before comparing")
    round_to: int = _opt(5, "§7 opponents' totals rounded to a multiple of this", choices=(5, 10))
    round_mode: str = _opt(
        "nearest",
        "§7 how an opponent's total is rounded: to the nearest multiple, or always up",
        choices=("nearest", "up"),
    )
    samosval: bool = _opt(True, "§7 a score of exactly 555 becomes samosval_to")
    samosval_negative: bool = _opt(True, "§7 a score of exactly -555 becomes samosval_to")
    samosval_to: int = _opt(0, "§7 the score a 555 reset lands on", lo=0, hi=554)
    lock_at: int | None = _opt(
        None,
        "§7 from this score a player scores only its own contracts (the Polish 800; off)",
        optional=True,
        lo=1,
    )


@dataclass(frozen=True)
class BoltRules:
    """docs/rules.md §7 and §9: bolts."""

    on: str = _opt("no_tricks", "§7 what earns a bolt", choices=("no_tricks", "zero_points"))
    count: int = _opt(3, "§7 every N-th bolt is penalised", lo=1, hi=100)
    penalty: int = _opt(120, "§7 points lost on every N-th bolt", lo=0)
    in_a_row: bool = _opt(False, "§7 only consecutive bolts count")
    declarer_exempt: bool = _opt(False, "§7 the declarer never gets a bolt")
    double_in_special: bool = _opt(False, "§7 a bolt in a dark or golden deal counts as two bolts")
    on_barrel: bool = _opt(False, "§9 bolts are counted for a player on the barrel")


@dataclass(frozen=True)
class GameRules:
    """docs/rules.md §8: winning the game."""

    target: int = _opt(1000, "§8 score that wins the game", lo=100, hi=100000)
    target_strict: bool = _opt(False, "§8 the score must exceed the target (the 1001 rule)")
    bank: int | None = _opt(
        None, "§8 bank the winner takes from third place (off)", optional=True, lo=1
    )


@dataclass(frozen=True)
class BarrelRules:
    """docs/rules.md §9: the barrel."""

    at: int = _opt(880, "§9 reaching this puts a player on the barrel (0: no barrel)", lo=0)
    accumulate: bool = _opt(False, "§9 points taken on the barrel are added")
    attempts: int = _opt(3, "§9 deals on the barrel before falling", lo=1, hi=100)
    fall_penalty: int = _opt(120, "§9 points lost by a fall", lo=0)
    third_fall_zero: bool = _opt(False, "§9 a third fall in a game lands at 0")
    one_at_a_time: bool = _opt(True, "§9 a new climber knocks the one there off")
    simultaneous: str = _opt(
        "one_falls",
        "§9 two or more climb on in one deal: the lower score falls, all fall, or all stay",
        choices=("all_fall", "one_falls", "both_stay"),
    )
    bid_from: int = _opt(0, "§9 the barrel player's bids start here (0 no limit)", lo=0)


@dataclass(frozen=True)
class GoldenRules:
    """docs/rules.md §10: the golden round."""

    enabled: bool = _opt(False, "§10 the first deals of a game are golden")
    blind: bool = _opt(True, "§10 golden deals are played blind")
    double_marriages: bool = _opt(True, "§10 marriages doubled in golden deals")
    reset_if_none: bool = _opt(True, "§10 all scores reset if nobody makes 120")
    repeat_if_none: bool = _opt(False, "§10 the golden round repeats if nobody makes 120")


@dataclass(frozen=True)
class DarkRules:
    """docs/rules.md §11: dark play."""

    enabled: bool = _opt(False, "§11 forehand may play 120 dark")
    cap_240: bool = _opt(True, "§11 a dark result is doubled (+240/-240)")
    undarken: bool = _opt(True, "§11 an opponent with a marriage may bid 125 to undarken")
    min_score: int = _opt(0, "§11 no dark play with a score below this")
    not_on_barrel: bool = _opt(True, "§11 no dark play while anyone sits on the barrel")


SECTIONS: dict[str, type] = {
    "deal": DealRules,
    "reshuffle": ReshuffleRules,
    "bid": BidRules,
    "talon": TalonRules,
    "rospis": RospisRules,
    "play": PlayRules,
    "marriage": MarriageRules,
    "trump": TrumpRules,
    "bonus": BonusRules,
    "score": ScoreRules,
    "bolt": BoltRules,
    "game": GameRules,
    "barrel": BarrelRules,
    "golden": GoldenRules,
    "dark": DarkRules,
}

# Marriage values by suit (S, C, D, H) for each `marriage.values` table (docs/rules.md §1).
MARRIAGE_TABLES: dict[str, tuple[int, int, int, int]] = {
    "standard": (40, 60, 80, 100),
    "spades_high": (100, 60, 40, 80),
    "spades_clubs_high": (100, 80, 40, 60),
    "five_hundred_one": (60, 20, 40, 80),
}
ACE_MARRIAGE_VALUE = 200
OPENING_BID = 100  # forehand's automatic first bid, the lowest contract
MAX_BID = 400  # 120 card points + all four marriages: the highest bid there is

LATER_OPTIONS: tuple[str, ...] = (
    "talon.two_players",
    "talon.sitter_scores",
    "rospis.when",
    "score.round_mode",
    "score.lock_at",
)
"""Options added after rules hashes were first stored (run folders, deal files, tables).

Each enters :attr:`Rules.rules_hash` only when set away from its default, so that a
hash stored before the option existed still names the same rules. Any option added
later belongs here too.
"""


@dataclass(frozen=True)
class Rules:
    """A complete, validated set of house rules (frozen and hashable).

    ``name`` and ``description`` are labels only: they take no part in equality,
    hashing or :attr:`rules_hash`.
    """

    players: int = _opt(3, "§12 number of players", choices=(2, 3, 4))
    deal: DealRules = field(default_factory=DealRules)
    reshuffle: ReshuffleRules = field(default_factory=ReshuffleRules)
    bid: BidRules = field(default_factory=BidRules)
    talon: TalonRules = field(default_factory=TalonRules)
    rospis: RospisRules = field(default_factory=RospisRules)
    play: PlayRules = field(default_factory=PlayRules)
    marriage: MarriageRules = field(default_factory=MarriageRules)
    trump: TrumpRules = field(default_factory=TrumpRules)
    bonus: BonusRules = field(default_factory=BonusRules)
    score: ScoreRules = field(default_factory=ScoreRules)
    bolt: BoltRules = field(default_factory=BoltRules)
    game: GameRules = field(default_factory=GameRules)
    barrel: BarrelRules = field(default_factory=BarrelRules)
    golden: GoldenRules = field(default_factory=GoldenRules)
    dark: DarkRules = field(default_factory=DarkRules)
    name: str = field(default="classic", compare=False)
    description: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        _validate(self)

    # --- views ---------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Flat ``{"section.key": value}`` of every option (``None`` for off)."""
        out: dict[str, Any] = {"players": self.players}
        for sec in SECTIONS:
            obj = getattr(self, sec)
            for f in dataclasses.fields(obj):
                out[f"{sec}.{f.name}"] = getattr(obj, f.name)
        return out

    @property
    def rules_hash(self) -> str:
        """Stable 16-hex-digit digest of every option (not of name or description)."""
        options = self.to_dict()
        for key in LATER_OPTIONS:
            if options[key] == _FIELD_META[key]["default"]:
                del options[key]
        blob = json.dumps(options, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def round_total(self, total: int) -> int:
        """A deal total rounded by ``score.round_to`` and ``score.round_mode``.

        Nearest: to 5, 1-2 down and 3-4 up; to 10, a 5 goes up. Up: any remainder up.
        """
        if self.score.round_mode == "up":
            m = self.score.round_to
            return (total + m - 1) // m * m
        if self.score.round_to == 10:
            return (total + 5) // 10 * 10
        return (total + 2) // 5 * 5

    def bid_levels(self) -> tuple[int, ...]:
        """Every amount a bid or contract may name: 100, 100 + ``bid.step``, … up to 400.

        400 is the highest bid there is (120 card points and all four marriages); a
        hand's own cap (``bid.cap_by_marriages``) may stop it lower.
        """
        return tuple(range(OPENING_BID, MAX_BID + 1, self.bid.step))

    def least_total_making(self, contract: int) -> int:
        """The smallest deal total that makes ``contract``, as the engine's scoring judges it.

        With ``score.round_declarer`` the total is rounded before the comparison.
        """
        if not self.score.round_declarer:
            return contract
        x = contract - 10
        while self.round_total(x) < contract:
            x += 1
        return x

    @property
    def marriage_values(self) -> tuple[int, int, int, int]:
        """Marriage value by suit id (S, C, D, H) under ``marriage.values``."""
        return MARRIAGE_TABLES[self.marriage.values]

    def to_toml(self) -> str:
        """The fully resolved rules as TOML (every key, ``"off"`` for unset options)."""
        lines = [f"# rules {self.name!r}, rules_hash {self.rules_hash}"]
        if self.description:
            lines.append(f"description = {toml_value(self.description)}")
        lines.append(f"players = {self.players}")
        for sec in SECTIONS:
            lines.append("")
            lines.append(f"[{sec}]")
            obj = getattr(self, sec)
            for f in dataclasses.fields(obj):
                assignment = f"{f.name} = {toml_value(getattr(obj, f.name))}"
                lines.append(f"{assignment:<38} # {f.metadata['doc']}")
        return "\n".join(lines) + "\n"

    def to_array(self) -> np.ndarray:
        """Flat ``int64`` vector for compiled code; layout :data:`RULE_KEYS`.

        Booleans are 0/1, enumerations their index in ``choices``, off values -1
        for ``bank`` and ``INT64_MIN`` for ``silence_below``.
        """
        d = self.to_dict()
        out = np.empty(len(RULE_KEYS), dtype=np.int64)
        for i, key in enumerate(RULE_KEYS):
            meta = _FIELD_META[key]
            v = d[key]
            if v is None:
                out[i] = np.iinfo(np.int64).min if key == "bid.silence_below" else -1
            elif "choices" in meta and isinstance(v, str):
                out[i] = meta["choices"].index(v)
            else:
                out[i] = int(v)
        return out

    def replace(self, **flat: Any) -> Rules:
        """A copy with options changed, given as ``{"section.key": value}``-style kwargs.

        Dots are written as double underscores in keyword names:
        ``rules.replace(bid__jumps=False)``.
        """
        data = {k.replace("__", "."): v for k, v in flat.items()}
        return rules_from_dict(data, source="<replace>", base=self)


def toml_value(v: Any) -> str:
    """An option value as a rules TOML file spells it (``"off"`` for an unset option)."""
    if v is None:
        return f'"{OFF}"'
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    return json.dumps(str(v), ensure_ascii=False)


def _all_fields() -> dict[str, dict[str, Any]]:
    meta: dict[str, dict[str, Any]] = {}
    for f in dataclasses.fields(Rules):
        if f.name == "players":
            meta["players"] = {**f.metadata, "type": int}
    for sec, cls in SECTIONS.items():
        hints = {f.name: f for f in dataclasses.fields(cls)}
        for name, f in hints.items():
            default = f.default
            typ = type(default) if default is not None else int
            meta[f"{sec}.{name}"] = {**f.metadata, "type": typ, "default": default}
    return meta


_FIELD_META = _all_fields()
RULE_KEYS: tuple[str, ...] = tuple(_FIELD_META)
"""Every option key, in the order of :meth:`Rules.to_array`."""
RULE_INDEX: dict[str, int] = {k: i for i, k in enumerate(RULE_KEYS)}


def rule_choices(key: str) -> tuple[str, ...]:
    """The allowed values of an enumerated option, in the order :meth:`Rules.to_array` codes."""
    return tuple(_FIELD_META[key]["choices"])


def rule_doc(key: str) -> str:
    """One-line description of an option key."""
    return str(_FIELD_META[key]["doc"])


# --- validation ---------------------------------------------------------------------
class _Invalid(RulesError):
    """A bad option value; :meth:`at` names the file or preset it came from."""

    def __init__(self, key: str, why: str) -> None:
        super().__init__(_("rules: key '{key}' {why}").format(key=key, why=why))
        self.key, self.why = key, why

    def at(self, source: str) -> RulesError:
        return RulesError(
            _("rules {source}: key '{key}' {why}").format(source=source, key=self.key, why=self.why)
        )


def _check_value(key: str, value: Any) -> Any:
    """Type- and range-check one option value; return it (``None`` for off)."""
    meta = _FIELD_META[key]
    typ = meta["type"]
    if meta.get("optional") and (value is None or value == OFF):
        return None
    if typ is bool:
        if not isinstance(value, bool):
            raise _Invalid(key, _("must be true or false, got {value}").format(value=repr(value)))
        return value
    if typ is int:
        if isinstance(value, bool) or not isinstance(value, int):
            why = (
                _('must be an integer or "off", got {value}')
                if meta.get("optional")
                else _("must be an integer, got {value}")
            )
            raise _Invalid(key, why.format(value=repr(value)))
    elif typ is str and not isinstance(value, str):
        raise _Invalid(key, _("must be a string, got {value}").format(value=repr(value)))
    if "choices" in meta and value not in meta["choices"]:
        allowed = ", ".join(repr(c) for c in meta["choices"])
        why = _("must be one of {allowed}, got {value}")
        raise _Invalid(key, why.format(allowed=allowed, value=repr(value)))
    if "lo" in meta and value < meta["lo"]:
        why = _("must be at least {low}, got {value}")
        raise _Invalid(key, why.format(low=meta["lo"], value=repr(value)))
    if "hi" in meta and value > meta["hi"]:
        why = _("must be at most {high}, got {value}")
        raise _Invalid(key, why.format(high=meta["hi"], value=repr(value)))
    return value


def _validate(r: Rules) -> None:
    """Per-field and cross-field checks; raise :class:`_Invalid` naming the key."""
    for key, value in r.to_dict().items():
        _check_value(key, value)
    if r.marriage.ace_sets_trump and not r.marriage.ace:
        why = _("needs {key} = true").format(key="marriage.ace")
        raise _Invalid("marriage.ace_sets_trump", why)
    if r.golden.reset_if_none and r.golden.repeat_if_none:
        why = _("cannot be true together with {key}").format(key="golden.reset_if_none")
        raise _Invalid("golden.repeat_if_none", why)
    if r.barrel.at >= r.game.target:  # 0 switches the barrel off
        why = _("must be below {key} ({limit}), got {value}")
        raise _Invalid(
            "barrel.at", why.format(key="game.target", limit=r.game.target, value=r.barrel.at)
        )
    if r.barrel.bid_from % r.bid.step:
        why = _("must be a multiple of {key} ({step})").format(key="bid.step", step=r.bid.step)
        raise _Invalid("barrel.bid_from", why)
    if r.bid.silence_below is not None and r.bid.silence_below > 0:
        why = _("must be 0 or negative, got {value}").format(value=r.bid.silence_below)
        raise _Invalid("bid.silence_below", why)
    if r.dark.min_score > r.game.target:
        raise _Invalid("dark.min_score", _("is above {key}").format(key="game.target"))
    if r.score.lock_at is not None and r.score.lock_at >= r.game.target:
        why = _("must be below {key} ({limit}), got {value}")
        raise _Invalid(
            "score.lock_at",
            why.format(key="game.target", limit=r.game.target, value=r.score.lock_at),
        )
    if r.score.samosval_to % 5:
        raise _Invalid("score.samosval_to", _("must be a multiple of {step}").format(step=5))


# --- loading ------------------------------------------------------------------------


def preset_names() -> list[str]:
    """Names of the shipped presets, sorted."""
    files = resources.files("sim").joinpath("presets").iterdir()
    return sorted(p.name[:-5] for p in files if p.name.endswith(".toml"))


def _read_preset(name: str) -> tuple[dict[str, Any], str]:
    res = resources.files("sim").joinpath("presets", f"{name}.toml")
    return tomllib.loads(res.read_text(encoding="utf-8")), _("preset '{name}'").format(name=name)


def _read_file(path: Path) -> tuple[dict[str, Any], str]:
    """A rules file's TOML document and its name in messages.

    At most :data:`sim.reading.TEXT_MOST` bytes of UTF-8 text are read.
    """
    # imported here: the compiled engine's cache hangs on the top-level imports of
    # this module (sim/cache.py), and reading files is none of the engine's business
    from sim.reading import TEXT_MOST, read_text, refusal

    source = _("file '{path}'").format(path=path)
    try:
        text = read_text(path, TEXT_MOST)
    except (OSError, UnicodeDecodeError) as exc:
        why = _("rules {source}: cannot read ({reason})")
        reason = getattr(exc, "strerror", None) or refusal(exc) or type(exc).__name__
        raise RulesError(why.format(source=source, reason=reason)) from None
    try:
        return tomllib.loads(text), source
    except tomllib.TOMLDecodeError as exc:
        why = _("rules {source}: not valid TOML ({error})")
        raise RulesError(why.format(source=source, error=exc)) from None


def _flatten(doc: dict[str, Any], source: str) -> dict[str, Any]:
    """``{"bid": {"step": 5}}`` → ``{"bid.step": 5}``; top-level labels kept as they are."""
    flat: dict[str, Any] = {}
    for k, v in doc.items():
        if isinstance(v, dict):
            if k not in SECTIONS:
                why = _("rules {source}: unknown section '{section}'{hint}")
                hint = did_you_mean(k, SECTIONS)
                raise RulesError(why.format(source=source, section=k, hint=hint))
            for kk, vv in v.items():
                if isinstance(vv, dict):
                    why = _("rules {source}: unknown section '{section}'{hint}")
                    raise RulesError(why.format(source=source, section=f"{k}.{kk}", hint=""))
                flat[f"{k}.{kk}"] = vv
        else:
            flat[k] = v
    return flat


def rules_from_dict(
    data: dict[str, Any], source: str = "<dict>", base: Rules | None = None
) -> Rules:
    """Build rules from flat ``{"section.key": value}`` overrides on top of ``base``.

    Raises:
        RulesError: for an unknown key, a wrong type or an impossible value.
    """
    base = base if base is not None else Rules()
    values = base.to_dict()
    name, description = base.name, base.description
    for key, value in data.items():
        if key == "description":
            if not isinstance(value, str):
                why = _("rules {source}: key '{key}' must be a string")
                raise RulesError(why.format(source=source, key="description"))
            description = value
            continue
        if key == "name":
            name = str(value)
            continue
        if key not in _FIELD_META:
            why = _("rules {source}: unknown key '{key}'{hint}")
            hint = did_you_mean(key, _FIELD_META)
            raise RulesError(why.format(source=source, key=key, hint=hint))
        try:
            values[key] = _check_value(key, value)
        except _Invalid as exc:
            raise exc.at(source) from None
    kwargs: dict[str, Any] = {
        "players": values["players"],
        "name": name,
        "description": description,
    }
    for sec, cls in SECTIONS.items():
        kwargs[sec] = {f.name: values[f"{sec}.{f.name}"] for f in dataclasses.fields(cls)}
    try:
        sections = {sec: cls(**kwargs.pop(sec)) for sec, cls in SECTIONS.items()}
        return Rules(**kwargs, **sections)
    except _Invalid as exc:
        raise exc.at(source) from None


def _load(spec: str, stack: tuple[str, ...]) -> Rules:
    path = Path(spec)
    is_file = spec.endswith(".toml") or path.exists() or "/" in spec or "\\" in spec
    if not is_file:
        if spec not in preset_names():
            why = _(
                "unknown rules preset '{name}'{hint} (presets: {presets}; "
                "or give a path to a .toml file)"
            )
            hint = did_you_mean(spec, preset_names())
            raise RulesError(why.format(name=spec, hint=hint, presets=", ".join(preset_names())))
        doc, source = _read_preset(spec)
        ident, label = f"preset:{spec}", spec
    else:
        if not path.is_file():
            raise RulesError(_("rules file '{path}' not found").format(path=spec))
        doc, source = _read_file(path)
        ident, label = f"file:{path.resolve()}", path.stem
    if ident in stack:
        why = _("rules {source}: '{key}' inheritance loops back to itself")
        raise RulesError(why.format(source=source, key="base"))
    flat = _flatten(doc, source)
    base_spec = flat.pop("base", None)
    if base_spec is None:
        base = Rules()
    else:
        if not isinstance(base_spec, str):
            why = _("rules {source}: key '{key}' must be a preset name or a path")
            raise RulesError(why.format(source=source, key="base"))
        if is_file and (base_spec.endswith(".toml") or "/" in base_spec):
            base_spec = str(path.parent / base_spec)
        base = _load(base_spec, (*stack, ident))
    rules = rules_from_dict(flat, source=source, base=base)
    object.__setattr__(rules, "name", label)
    return rules


def load_rules(spec: str | Path | Rules) -> Rules:
    """Load rules from a preset name, a TOML path, or pass :class:`Rules` through.

    Raises:
        RulesError: one line naming the unknown preset, key or file.
    """
    if isinstance(spec, Rules):
        return spec
    return _load(str(spec), ())


SEATS = ("forehand", "middle", "dealer")
"""The hand seats' names with three active players, from forehand."""


def hand_roles(players: int) -> tuple[str, ...]:
    """The roles of the hand seats from forehand, for ``players`` players at the table.

    Two: forehand, dealer; three: forehand, middle, dealer; four: forehand, middle,
    rear (the dealer sits the deal out). These are the seats' code names, as every
    table's data keeps them; every command shows a seat by these words (through
    :func:`sim.i18n.role`) and reads them back in any language.
    """
    return {2: ("forehand", "dealer"), 3: SEATS, 4: ("forehand", "middle", "rear")}[players]

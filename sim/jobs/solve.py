"""The open-card job: the value of a deal or of a play position with every card face up.

``thousand solve`` builds a :class:`SolveSpec` and calls :func:`solve`; the answer
holds the JSON document and the lines the command prints. Three ways to give the
cards:

* a deal before the talon: ``hands`` and ``talon`` (two players: two hands of 10 and
  a talon of 4 cards, the first talon's two then the second's), ``declarer`` — the
  best pick, discard and trump name, the open-card total, every contract's make/fail
  and the best line of play;
* a deal of a run: ``run`` and ``deal`` — the same for that deal of a ``hands`` run,
  with the run's own declarer, plus the value of the discard it made; or of a file in
  the deal notation (``deal_file``, :mod:`sim.notation`), whose own declarer and
  discard are used when it was played;
* a play position: ``hands`` of equal sizes (the talon gone) with ``declarer``,
  ``leader``, ``trump`` (``marriage_allowed`` once the first-trick rule no longer
  applies, ``set_aside`` for two players) — the most the declarer can still add and
  every legal move of the leader with its value.

Seats are hand seats, named by their roles (forehand, middle, dealer; with four
players the dealer sits out and the third is the rear; :func:`sim.table_text.hand_roles`)
in any language, or by number: 0 is forehand (the dealer's left), then clockwise. The
text names every seat by its role, as ``show`` does. Seats and suits are given as
text (as typed), so that a bad one is named in its error.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sim
from sim.cards import SUIT_LETTERS, card_str, cards_of, parse_cards
from sim.i18n import _, answer_cards, role, role_of
from sim.jobs.show import played, read_deals, solve_inputs
from sim.notation import from_trace
from sim.output import UsageError
from sim.reading import TEXT_MOST, read_text, refusal
from sim.rules import Rules, hand_roles, rules_from_dict
from sim.table_text import seat_choices


@dataclass(frozen=True, kw_only=True)
class SolveSpec:
    """The cards to solve: ``hands`` (with ``talon`` for a deal), or ``run`` and ``deal``.

    Attributes:
        rules: the house rules (not used with ``run``: the run's own).
        hands: each hand seat's cards as text, from forehand.
        talon: the talon's cards as text: solve the deal before the talon.
        declarer: the declarer's hand seat (default 0).
        leader: play position: who leads (default: the declarer).
        trump: play position: ``S``, ``C``, ``D``, ``H`` or ``none`` (default none).
        trump_setter: play position: who set the trump (default: the declarer).
        marriage_allowed: play position: marriages may be declared.
        set_aside: play position, two players: the talon set aside.
        run: a hands run folder, with ``deal``.
        deal: the deal id in ``run`` (or in ``deal_file``).
        deal_file: a file in the deal notation (:mod:`sim.notation`) or of
            ``hands --trace`` (whose rules are ``rules``).
    """

    rules: Rules | None = None
    hands: tuple[str, ...] = ()
    talon: str | None = None
    declarer: str | None = None
    leader: str | None = None
    trump: str | None = None
    trump_setter: str | None = None
    marriage_allowed: bool = False
    set_aside: str | None = None
    run: Path | None = None
    deal: int | None = None
    deal_file: Path | None = None


@dataclass(frozen=True)
class Solution:
    """The open-card answer: its JSON document and the lines the command prints."""

    doc: dict[str, Any]
    lines: list[str]

    def json(self) -> dict[str, Any]:
        """The answer as one JSON document (``thousand solve --json``)."""
        return self.doc

    def text(self) -> str:
        """The answer as the command prints it."""
        return "\n".join(self.lines)


def _mask(text: str, what: str, seen: dict[int, str]) -> int:
    """The mask of a card list; a card given twice is an error naming both places."""
    m = 0
    for c in parse_cards(text):
        if c in seen:
            why = _("{card} is given twice ({first} and {second})")
            raise UsageError(why.format(card=_card(c), first=seen[c], second=what))
        seen[c] = what
        m |= 1 << c
    return m


def _seat(text: str | None, names: tuple[str, ...], name: str, default: int = 0) -> int:
    """The hand seat ``text`` names: its role in any language, or its number from forehand."""
    if text is None:
        return default
    word = role_of(text)
    if word in names:
        return names.index(word)
    try:
        seat = int(text)
    except ValueError:
        seat = -1
    if seat not in range(len(names)):
        why = _("{flag} must be a hand seat ({seats}) or its number 0..{last}, got {value}")
        raise UsageError(why.format(flag=f"--{name}", seats=seat_choices(names),
                                    last=len(names) - 1, value=repr(text)))  # fmt: skip
    return seat


def _trump(text: str | None) -> int:
    if text is None or text.lower() == "none":
        return -1
    t = text.upper()
    symbols = "♠♣♦♥"
    if t in SUIT_LETTERS and len(t) == 1:
        return SUIT_LETTERS.index(t)
    if t in symbols and len(t) == 1:
        return symbols.index(t)
    raise UsageError(
        _("--trump must be a suit (S, C, D, H) or none, got {value}").format(value=repr(text))
    )


def _count(mask: int) -> int:
    return bin(mask).count("1")


def _line_doc(line: list[tuple[int, Any]], names: tuple[str, ...]) -> list[dict[str, Any]]:
    return [
        {"seat": seat, "role": names[seat], "card": card_str(m.card), "declare": m.declare}
        for seat, m in line
    ]


def _card(card: int) -> str:
    return answer_cards([card])


def _line_text(line: list[tuple[int, Any]], names: tuple[str, ...]) -> list[str]:
    """The line of play by tricks, each card after the role of the hand seat that plays it."""
    out = []
    declares = _(" (declares)")
    players = len(names)
    for k in range(0, len(line), players):
        trick = line[k : k + players]
        cards = ", ".join(
            f"{role(names[seat])}: {_card(m.card)}{declares if m.declare else ''}"
            for seat, m in trick
        )
        out.append("  " + _("trick {number}: {cards}").format(number=k // players + 1, cards=cards))
    return out


def _position(spec: SolveSpec, rules: Rules, hands: list[int]) -> Solution:
    from sim.solver.position import OpenCardSolver, Position, hand_size, play_state

    n = len(hands)
    sizes = {_count(h) for h in hands}
    if len(sizes) != 1:
        why = _("--hands must be of one size in a play position, got {sizes}")
        raise UsageError(why.format(sizes=sorted(sizes)))
    size = sizes.pop()
    if not 1 <= size <= hand_size(n):
        why = _("--hands must hold 1 to {most} cards each, got {size}")
        raise UsageError(why.format(most=hand_size(n), size=size))
    seen = {c: "--hands" for h in hands for c in cards_of(h)}
    set_aside = _mask(spec.set_aside, "--set-aside", seen) if spec.set_aside else 0
    if set_aside and n != 2:
        raise UsageError(_("--set-aside is for two players only"))
    if set_aside and _count(set_aside) != 2:
        why = _("--set-aside must be 2 cards, got {count}")
        raise UsageError(why.format(count=_count(set_aside)))
    trump = _trump(spec.trump)
    names = hand_roles(rules.players)
    declarer = _seat(spec.declarer, names, "declarer")
    pos = Position(
        tuple(hands),
        declarer=declarer,
        leader=_seat(spec.leader, names, "leader", declarer),
        trump=trump,
        trump_setter=_seat(spec.trump_setter, names, "trump-setter", declarer)
        if trump >= 0
        else -1,
        marriage_allowed=spec.marriage_allowed,
        set_aside=set_aside,
    )
    S, P = play_state(pos, rules)
    solver = OpenCardSolver()
    value = solver.value(S, P)
    moves = solver.moves(S, P)
    doc = {
        "value": value,
        "moves": [
            {"card": card_str(m.card), "declare": m.declare, "value": m.value} for m in moves
        ],
    }
    lines = [
        _("open-card value: the declarer ({seat}) still adds {value} points").format(
            seat=role(names[declarer]), value=value
        ),
        _("moves of {seat} (to lead):").format(seat=role(names[pos.leader])),
    ]
    declaring = _(" declaring")
    for m in moves:
        tag = declaring if m.declare else ""
        lines.append(f"  {_card(m.card):>3}{tag:<10} {m.value:>4}")
    lines.append(_("best line of play:"))
    lines += _line_text(solver.line(S, P), names)
    return Solution(doc, lines)


def _deal(
    rules: Rules,
    hands: list[int],
    talons: list[int],
    declarer: int,
    made: dict[str, Any] | None = None,
) -> Solution:
    from sim.solver.position import OpenCardSolver, lays_away, play_state
    from sim.solver.talon import after_discard, solve_par

    solver = OpenCardSolver()
    par = solve_par(rules, hands, talons, declarer, solver)
    best = par.best
    S, P = play_state(best.position, rules)
    line = solver.line(S, P)
    step = rules.bid.step
    contracts = []
    top = max(par.by_cap)
    c = 100
    while c <= top:
        ok = par.makes(c, rules)
        contracts.append({"contract": c, "make": ok})
        if not ok:
            break
        c += step
    doc: dict[str, Any] = {
        "declarer": declarer,
        "declarer_role": hand_roles(rules.players)[declarer],
        "best": {
            "talon": best.talon if len(talons) == 2 else None,
            "gives": [card_str(x) for x in best.gives],
            "trump": SUIT_LETTERS[best.trump] if best.trump >= 0 else None,
            "value": best.value,
        },
        "contracts": contracts,
        "line": _line_doc(line, hand_roles(rules.players)),
    }
    lay = lays_away(rules)  # two players laying two cards away: the gives are laid
    if made is not None:
        pos = after_discard(
            hands,
            talons[made["talon"]],
            declarer,
            made["gives"],
            made["trump"],
            talons[1 - made["talon"]] if len(talons) == 2 else 0,
            lay,
        )
        S2, P2 = play_state(pos, rules)
        made_value = pos.banked + solver.value(S2, P2)
        doc["played"] = {
            "gives": [card_str(x) for x in made["gives"]],
            "contract": made["contract"],
            "value": made_value,
            "makes": made_value >= rules.least_total_making(made["contract"]),
        }
    names = hand_roles(rules.players)
    gives = ", ".join(
        _("{card} to {seat}").format(card=_card(x), seat=role(names[(declarer + j) % len(hands)]))
        for j, x in enumerate(best.gives, start=1)
    )
    if lay:
        gives = _("{cards} laid away").format(cards=", ".join(_card(x) for x in best.gives))
    extra = _(", talon {number}").format(number=best.talon) if len(talons) == 2 else ""
    if best.trump >= 0:
        extra += _(", trump {suit}").format(suit=SUIT_LETTERS[best.trump])
    lines = [
        _("declarer: {seat}").format(seat=role(names[declarer])),
        _("best discard: {gives}{extra} -> open-card total {value}").format(
            gives=gives, extra=extra, value=best.value
        ),
    ]
    if made is not None:
        pl = doc["played"]
        text = _("discard played: {cards} -> open-card total {value} (contract {contract}: "
                 "makes)") if pl["makes"] else _("discard played: {cards} -> open-card total "
                 "{value} (contract {contract}: fails)")  # fmt: skip
        cards = ", ".join(_card(x) for x in made["gives"])
        lines.append(text.format(cards=cards, value=pl["value"], contract=pl["contract"]))
    made_levels = [row["contract"] for row in contracts if row["make"]]
    failed = [row["contract"] for row in contracts if not row["make"]]
    if made_levels:
        made_text = _("contracts made: {low} to {high}").format(
            low=made_levels[0], high=made_levels[-1]
        )
    else:
        made_text = _("contracts made: none")
    if failed:
        made_text += _("; from {level} on: fail").format(level=failed[0])
    else:
        made_text += _(" (every level up to the cap)")
    lines.append(made_text)
    lines.append(_("best line of play:"))
    lines += _line_text(line, names)
    return Solution(doc, lines)


def _from_run(folder: Path, deal: int | None) -> tuple[Rules, list[int], list[int], int, dict]:
    """Replay deal ``deal`` of the hands run in ``folder``: its rules, cards and discard."""
    from sim.engine.api import play_hands

    try:
        meta = json.loads(read_text(folder / "run.json", TEXT_MOST))
    except (OSError, ValueError) as exc:
        why = _("--run {folder}: no readable run.json ({reason})")
        reason = refusal(exc) or exc  # larger than it may be, not UTF-8; else Python's words
        raise UsageError(why.format(folder=folder, reason=reason)) from None
    if meta.get("command") != "hands":
        why = _("--run {folder}: not a hands run (command {command})")
        raise UsageError(why.format(folder=folder, command=repr(meta.get("command"))))
    if str(meta.get("engine_version")) != str(sim.ENGINE_VERSION):
        why = _(
            "--run {folder}: made by engine version {made}, this is version {version};"
            " the deal cannot be replayed"
        )
        raise UsageError(
            why.format(folder=folder, made=meta.get("engine_version"), version=sim.ENGINE_VERSION)
        )
    deals = int(meta["sizes"]["deals"])
    if deal is None or not 0 <= deal < deals:
        why = _("--deal must be a deal id 0..{last} of that run, got {deal}")
        raise UsageError(why.format(last=deals - 1, deal=deal))
    rules = rules_from_dict(meta["rules"], source=str(folder / "run.json"))
    batch = play_hands(
        rules,
        1,
        int(meta["seed"]),
        meta["strategies"],
        meta.get("params", []),
        start=deal,
        trace=True,
    )
    trace = batch.traces()[-1]
    if trace.get("declarer") is None or trace.get("special") == "dark":
        why = _("deal {deal} of that run has no declarer taking the talon")
        raise UsageError(why.format(deal=deal))
    hands, talons, declarer, made = solve_inputs(from_trace(trace, rules.name))
    assert made is not None
    return rules, hands, talons, declarer, made


def _from_file(spec: SolveSpec) -> tuple[Rules, list[int], list[int], int, dict | None]:
    """The deal of a file in the deal notation (or of a ``hands --trace`` file)."""
    assert spec.deal_file is not None
    rules_name = spec.rules.name if spec.rules is not None else "classic"
    deal, rules = played(read_deals(spec.deal_file, rules_name), spec.deal)
    if deal.reshuffle is not None:
        why = _("{file}: that deal was redealt; name the one played")
        raise UsageError(why.format(file=spec.deal_file))
    if deal.special == "dark":
        why = _("{file}: a dark deal: nobody takes the talon")
        raise UsageError(why.format(file=spec.deal_file))
    hands, talons, declarer, made = solve_inputs(deal)
    if made is None:  # a deal not played yet: the declarer the command names
        declarer = _seat(spec.declarer, hand_roles(rules.players), "declarer")
    return rules, hands, talons, declarer, made


def solve(spec: SolveSpec) -> Solution:
    """Solve a deal or a play position with every card face up.

    Raises:
        UsageError: cards missing, repeated or of the wrong number, a bad seat or suit,
            or a run folder whose deal cannot be replayed.
    """
    if spec.run is not None and spec.deal_file is not None:
        raise UsageError(_("give either --run or --deal-file"))
    if spec.run is not None or spec.deal_file is not None:
        if spec.hands or spec.talon:
            raise UsageError(_("give either --run or --deal-file (with --deal), or --hands"))
        source = _from_run(spec.run, spec.deal) if spec.run is not None else _from_file(spec)
        return _deal(*source)
    if not spec.hands:
        raise UsageError(_("give the cards: --hands (and --talon for a deal), or --run"))
    if spec.rules is None:
        raise UsageError(_("--rules: the rules of the cards are needed"))
    rules = spec.rules
    n = 2 if rules.players == 2 else 3
    if len(spec.hands) != n:
        why = _("--hands needs {n} hands under these rules, got {count}")
        raise UsageError(why.format(n=n, count=len(spec.hands)))
    seen: dict[int, str] = {}
    names = hand_roles(rules.players)
    hands = [
        _mask(h, _("hand {number} ({seat})").format(number=s, seat=role(names[s])), seen)
        for s, h in enumerate(spec.hands)
    ]
    if spec.talon is None:
        return _position(spec, rules, hands)
    want_hand, want_talon = (10, 4) if n == 2 else (7, 3)
    for s, h in enumerate(hands):
        if _count(h) != want_hand:
            why = _("hand {number} ({seat}) must hold {want} cards, got {count}")
            raise UsageError(why.format(number=s, seat=role(names[s]), want=want_hand,
                                        count=_count(h)))  # fmt: skip
    talon = parse_cards(spec.talon)
    _mask(spec.talon, "--talon", seen)
    if len(talon) != want_talon:
        why = _("--talon must be {want} cards, got {count}")
        raise UsageError(why.format(want=want_talon, count=len(talon)))
    talons = (
        [sum(1 << c for c in talon)]
        if n == 3
        else [sum(1 << c for c in talon[:2]), sum(1 << c for c in talon[2:])]
    )
    return _deal(rules, hands, talons, _seat(spec.declarer, names, "declarer"))

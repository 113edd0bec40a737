"""The one point where every decision is made: forced, scripted, or a strategy (PROTOCOL.md)."""

from __future__ import annotations

from dataclasses import dataclass

from sim.cards import SUIT_LETTERS, card_str
from sim.engine.actions import DECLARE, PASS, Decision, ScriptError, encode_token
from sim.reference.rng import bounded

STRATEGIES = ("random", "first")


def _describe(kind: Decision, code: int) -> str:
    """Readable form of an action code, in script-token notation."""
    if kind in (Decision.DISCARD, Decision.PLAY):
        return card_str(code - DECLARE) + "!" if code >= DECLARE else card_str(code)
    if kind == Decision.BID:
        return "pass" if code == PASS else str(code)
    if kind == Decision.NAME_TRUMP:
        return SUIT_LETTERS[code]
    if kind in (Decision.CONTRACT, Decision.TALON_PICK):
        return str(code)
    if kind == Decision.CONCEDE:
        return ("play", "concede")[code]
    if kind == Decision.DARK:
        return ("light", "dark")[code]
    if kind == Decision.UNDARKEN:
        return ("no", "undarken")[code]
    return ("keep", "demand")[code]


@dataclass
class Chooser:
    """Makes every decision of one dealt deal (PROTOCOL.md, random numbers).

    Attributes:
        strategies: strategy name of each seat of the game (``"random"`` or
            ``"first"``).
        script: tokens consumed in order at every non-forced decision.
        state: the item state of the ``random`` strategy for this dealt deal.
        counter: the next half-word of ``state``.
        used: number of script tokens consumed so far.
    """

    strategies: tuple[str, ...]
    script: list[object]
    state: int
    counter: int = 0
    used: int = 0

    def choose(self, kind: Decision, seat: int, legal: list[int], where: str = "") -> int:
        """Pick one of ``legal`` (ascending action codes) for ``seat``.

        Raises:
            ScriptError: when the next script token does not fit or is not legal.
        """
        if len(legal) == 1:  # forced: no random number, no script token
            return legal[0]
        if self.used < len(self.script):
            token = self.script[self.used]
            self.used += 1
            options = " ".join(_describe(kind, c) for c in legal)
            context = f"{kind.name} of seat {seat}{where} (script token #{self.used})"
            try:
                code = encode_token(kind, token)
            except ValueError as exc:
                raise ScriptError(f"{exc}; at {context}; legal: {options}") from None
            if code not in legal:
                raise ScriptError(
                    f"script token {token!r} is not legal at {context}; legal: {options}"
                )
            return code
        if self.strategies[seat] == "first":
            return legal[0]
        k, self.counter = bounded(self.state, self.counter, len(legal))
        return legal[k]

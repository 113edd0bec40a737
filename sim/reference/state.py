"""Who plays a hand (:class:`Table`) and what the play rules depend on (:class:`PlayState`)."""

from __future__ import annotations

from dataclasses import dataclass, field

PLAYERS = 3  # the default number of players (classic rules)
NO_TRUMP = -1
SPECIALS = ("none", "golden", "dark_allowed")  # the hand input ``special``


def place_sizes(players: int) -> tuple[int, int, int, int]:
    """Cards per place of a deal, as :func:`sim.engine.deal.place_sizes`.

    3 and 4 players: three hands of 7 and the talon of 3; 2 players: two hands of 10
    and two talons of 2.
    """
    if players in (3, 4):
        return (7, 7, 7, 3)
    if players == 2:
        return (10, 10, 2, 2)
    raise ValueError(f"players must be 2, 3 or 4, got {players!r}")


@dataclass(frozen=True)
class Table:
    """The seats of a game and who of them plays one hand.

    Attributes:
        players: seats of the game (2, 3 or 4), numbered ``0 .. players-1``.
        dealer: the dealer's seat. With 4 players the dealer sits out.
    """

    players: int
    dealer: int

    def __post_init__(self) -> None:
        if self.players not in (2, 3, 4):
            raise ValueError(f"players must be 2, 3 or 4, got {self.players!r}")
        if self.dealer not in range(self.players):
            raise ValueError(f"dealer must be a seat 0..{self.players - 1}, got {self.dealer!r}")

    @property
    def forehand(self) -> int:
        """The seat left of the dealer: it bids 100 first (and plays golden and dark)."""
        return (self.dealer + 1) % self.players

    @property
    def active(self) -> list[int]:
        """The seats that play the hand, clockwise from forehand.

        3 players: ``f, f+1, f+2``; 2 players: ``f, f+1``; 4 players: ``d+1, d+2,
        d+3`` (the dealer sits out).
        """
        count = 3 if self.players == 4 else self.players
        return [(self.dealer + 1 + k) % self.players for k in range(count)]

    @property
    def sitter(self) -> int | None:
        """The seat that sits out (the 4-player dealer), or None."""
        return self.dealer if self.players == 4 else None

    def after(self, seat: int, k: int = 1) -> int:
        """The ``k``-th active seat clockwise after the active ``seat``."""
        ring = self.active
        return ring[(ring.index(seat) + k) % len(ring)]

    def zeros(self) -> list[int]:
        """A per-seat list of zeros (one entry per seat of the game)."""
        return [0] * self.players


@dataclass
class PlayState:
    """What the play rules depend on, besides the hands (per-seat lists: every seat)."""

    declarer: int
    players: int = PLAYERS
    trump: int = NO_TRUMP
    trump_setter: int = -1
    pending: int = NO_TRUMP
    declared: list[int] = field(default_factory=list)  # bit s: marriage of suit s; ACE_BIT
    declared_value: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.declared:
            self.declared = [0] * self.players
        if not self.declared_value:
            self.declared_value = [0] * self.players

"""The page to tap a hand: a card grid, the seat, the auction bid by bid, the verdict.

One page, two sources of answers:

* ``thousand serve`` (:mod:`sim.web`) serves it with ``mode: "server"``: the class
  tables' answer comes at once from the server's quick endpoint, then the sampling
  advisor's (``thousand advise --json``) replaces it;
* the report and the guide write it as one file, ``advisor.html`` (``mode:
  "offline"``): the class tables are embedded and the page answers a tapped hand from
  them in the browser, with no server and no network, exactly as
  :func:`analysis.advise.table_answer` does; below, every class at a glance (printable).

Every word is translated through :mod:`sim.i18n` here and sent to the browser as one
JSON dictionary (:func:`page_words`); the cards are written in the language's notation
and read (pasted) in any notation :func:`sim.cards.parse_card` reads.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import polars as pl

from analysis.safebids import marriage_label, marriage_order
from sim.i18n import LANGS, N_, _, cards_text, interval_separator, language, number, rank_text, role
from views.advise import table_json

OFFLINE_CSP = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"
)
"""The offline page's content policy: its own inline script and style, nothing fetched."""
RISK = 0.75
"""The make rate the offline page's answer is at (``thousand advise``'s default)."""

LANGUAGE_NAMES = {"en": "English", "ru": "Русский", "uk": "Українська", "pl": "Polski"}
"""Each language by its own name (the page's language switch)."""

# The page's words, by the key its script reads them with. Several are the advisor's
# own (``analysis.advise``), so the page and ``thousand advise`` say the same.
WORDS = {
    "title": N_("Thousand: what to bid with this hand"),
    "hand": N_("Your hand"),
    "tap": N_("Tap {size} cards, or paste them:"),
    "count": N_("{count} of {size} cards"),
    "read": N_("Read"),
    "clear": N_("Clear"),
    "seat": N_("Your seat"),
    "auction": N_("Auction"),
    "auction_start": N_("forehand opens at {bid}"),
    "to_bid": N_("{seat} to bid:"),
    "your_turn": N_("Your turn ({seat}):"),
    "undo": N_("Undo"),
    "new_deal": N_("New deal"),
    "over": N_("The auction is over: {seat} won at {bid}."),
    "over_hint": N_("Enter the talon below for what to give, or for the declarer's chance."),
    "extras": N_("Score, barrel, talon, player"),
    "score": N_("Your game score"),
    "barrel": N_("On the barrel"),
    "talon": N_("Talon (3 cards, after the auction)"),
    "player": N_("Who plays the sampled deals"),
    "start": N_("Tap the cards of your hand."),
    "more": N_("{count} more to tap."),
    # the verdict in the advisor's own words (views.advise.verdict, table_verdict)
    "say_bid": N_("Bid up to {level}."),
    "say_raise": N_("Raise, up to {level}."),
    "say_pass": N_("Pass."),
    "say_forehand_pass": N_("Bid the forehand's automatic 100, then pass."),
    "say_forehand_100": N_("Bid the forehand's automatic 100 and no higher."),
    "why_class": N_(
        "Hands of this class ({klass}) at this seat, {n} dealt on purpose and played out by "
        "`{player}` at every seat, every declarer that goes down conceding where that costs "
        "it less: the choice of the best margin."
    ),
    "why_class_auction": N_(
        "Before any auction: the tables do not know this one; the advisor plays it out."
    ),
    "choice": N_("choice"),
    "up_to": N_("up to {level}"),
    "margin": N_("margin [95 % CI]"),
    "win_chance": N_("chance to win [95 % CI]"),
    "give": N_("give {left} to the left and {right} to the right, name {contract}"),
    "give_why": N_(
        "Made in {made} of the samples, expected {expected}: open-card play (every card "
        "face up), an upper bound on what a player makes."
    ),
    "expect": N_("{seat} makes {bid} in {p} of the deals"),
    "expect_why": N_(
        "The declarer's chance with the talon shown; unknown, it was {plain}. Your "
        "score as a defender: {defence}."
    ),
    "tables_first": N_("The class tables' answer at once; the advisor is playing sampled deals"),
    "done": N_("The advisor's answer: {samples} sampled deals, {seconds} s."),
    "before_turn": N_("Before the auction reaches you: the hand's own worth."),
    "failed": N_("The advisor did not answer: {reason}"),
    "level": N_("level"),
    "p_make": N_("P(make) [95 % CI]"),
    "expected": N_("expected score [95 % CI]"),
    "no_marriage": N_("no marriage"),
    "marriage": N_("{suits} marriage"),
    "class": N_("{marriage}, {aces} aces"),
    "bad_card": N_("not a card: {card}"),
    "twice": N_("card {card} given twice"),
    "too_many": N_("{size} cards needed, got {count}"),
    "offline_note": N_(
        "Works without a network: the answers come from the class tables carried in this "
        "page ({player} at every seat, {deals} hands of each class at each seat, seed {seed}), "
        "the tables' answer of `thousand advise`; `thousand serve` also plays deals for the "
        "hand itself."
    ),
    "glance": N_("Every class at a glance: how far to bid ({seats})"),
    "glance_note": N_(
        "Rows: the marriages held; columns: the aces. Every class is dealt {deals} times at "
        "each seat on purpose, however rare, and each choice played out: the one of the "
        "best margin (your deal score minus the others' mean)."
    ),
    "talon_error": N_("talon: {reason}"),
    "marriages": N_("marriages"),
    "aces": N_("aces"),
    "language": N_("Language"),
}


def page_words(layout: Mapping[str, Any]) -> dict[str, Any]:
    """The page's words in the current language, with the seats, ranks and number marks."""
    words: dict[str, Any] = {key: _(text) for key, text in WORDS.items()}
    words["seats"] = {seat: role(seat) for seat in layout["seats"]}
    words["pass"] = role("pass")
    words["ranks"] = [rank_text(r) for r in range(6)]
    words["decimal"] = "." if interval_separator() == ", " else ","
    words["separator"] = interval_separator()
    # an example hand in the language's notation: A♥ 10♥ K♥ Q♥ A♠ 9♣ J♦ (and more)
    example = [23, 22, 21, 20, 5, 6, 13, 19, 18, 0][: int(layout["hand_size"])]
    words["example"] = cards_text(example)
    return words


def class_entries(
    choices: pl.DataFrame, verdicts: pl.DataFrame, seats: Sequence[str]
) -> list[dict[str, Any]]:
    """The class tables as a page embeds them: one entry per class, a cell per seat.

    ``{"marriages": "♥" (or "none"), "mask", "aces", "class_hands", "share", "cells":
    [{"seat", "n", "best", "low", "high", "rows": [[level, margin, low, high, p, p_low,
    p_high], ...]}]}``; passing is level 0 with no P(make); margins to 0.1, shares to
    0.001. The page shows ``best`` (the tables' choice, :func:`analysis.advise.table_answer`).
    """

    def r1(v: float | None) -> float | None:
        return None if v is None else round(float(v), 1)

    def r3(v: float | None) -> float | None:
        return None if v is None else round(float(v), 3)

    out = []
    keys = ["marriages", "aces"]
    for (mask, aces), cells in verdicts.sort([*keys, "seat"]).group_by(keys, maintain_order=True):
        first = cells.row(0, named=True)
        entry: dict[str, Any] = {
            "marriages": marriage_label(int(mask)), "mask": int(mask), "aces": int(aces),
            "class_hands": int(first["class_hands"]), "share": float(first["share"]),
            "cells": [],
        }  # fmt: skip
        for cell in cells.iter_rows(named=True):
            rows = choices.filter(
                (pl.col("marriages") == mask) & (pl.col("aces") == aces)
                & (pl.col("seat") == cell["seat"])
            ).sort("level")  # fmt: skip
            entry["cells"].append({
                "seat": seats[int(cell["seat"])], "n": int(cell["n"]), "best": int(cell["best"]),
                "low": int(cell["low"]), "high": int(cell["high"]),
                "rows": [[int(r["level"]), r1(r["mean"]), r1(r["low"]), r1(r["high"]), r3(r["p"]),
                          r3(r["ci_low"]), r3(r["ci_high"])] for r in rows.iter_rows(named=True)],
            })  # fmt: skip
        out.append(entry)
    return out


def _marriage_words(label: str) -> str:
    return _("no marriage") if label == "none" else _("{suits} marriage").format(suits=label)


NBSP = "\u00a0"
"""Keeps a level and the ``/`` after it on one line (:func:`glance_grid`)."""


def glance_grid(levels: Mapping[tuple[str, int], Sequence[int]]) -> list[list[str]]:
    r"""Every class's choice at every seat as the rows of a table, in the current language.

    ``levels``: ``(marriage set label, aces) -> the choice at each seat, forehand first``
    (0: pass). The first row is the heading (``marriages \ aces`` and each number of
    aces), then one row per marriage set (:func:`marriage_order`): its name and one cell
    per number of aces, ``pass / 120 / 115`` (forehand / middle / dealer; the space
    before each ``/`` unbreakable, so that a narrow cell breaks after it), ``—`` where
    the class has no hand. The offline page (:func:`glance_table`), the page for players
    and the guide all show this grid, so they cannot differ.
    """
    labels = sorted({m for m, _a in levels}, key=marriage_order)
    aces = sorted({a for _m, a in levels})
    rows = [[f"{_('marriages')} \\ {_('aces')}", *(str(a) for a in aces)]]
    for label in labels:
        cells = [_marriage_words(label)]
        for a in aces:
            seats = levels.get((label, a))
            cells.append("—" if seats is None else f"{NBSP}/ ".join(
                role("pass") if level == 0 else str(level) for level in seats))  # fmt: skip
        rows.append(cells)
    return rows


def glance_html(levels: Mapping[tuple[str, int], Sequence[int]]) -> str:
    """:func:`glance_grid` as an HTML table (``class="glance"``)."""
    head, *body = glance_grid(levels)
    top = "".join(f"<th>{html.escape(c)}</th>" for c in head)
    rows = "".join(
        f"<tr><th>{html.escape(r[0])}</th>" + "".join(f"<td>{html.escape(c)}</td>" for c in r[1:])
        + "</tr>"
        for r in body
    )  # fmt: skip
    return f'<table class="glance"><tr>{top}</tr>{rows}</table>'


def glance_frame(levels: Mapping[tuple[str, int], Sequence[int]]) -> pl.DataFrame:
    """:func:`glance_grid` as a frame of strings headed by its first row (a Markdown table)."""
    head, *body = glance_grid(levels)
    return pl.DataFrame(
        {h: [r[k] for r in body] for k, h in enumerate(head)}, schema=dict.fromkeys(head, pl.String)
    )


def glance_levels(data: Mapping[str, Any]) -> dict[tuple[str, int], list[int]]:
    """The choice of every class at every seat, from the tables as a page embeds them."""
    return {
        (c["marriages"], int(c["aces"])): [int(cell["best"]) for cell in c["cells"]]
        for c in data["classes"]
    }


def glance_table(data: Mapping[str, Any]) -> str:
    """Every class's choice as an HTML table: marriages by row, aces by column.

    ``data``: :func:`sim.jobs.advice_tables.class_data`. A cell holds the choice at each
    seat in turn (forehand first), ``—`` where the class has no hand
    (:func:`glance_grid`).
    """
    return glance_html(glance_levels(data))


def _percent(risk: float) -> str:
    return f"{round(risk * 100)} %"


def page_html(config: Mapping[str, Any], extra: str = "") -> str:
    """The page (one HTML document, inline CSS and script) for ``config``.

    ``config``: ``mode`` (``server`` or ``offline``), ``layout``
    (:meth:`sim.jobs.advice_tables.Layout.json`), ``risk``, ``player`` and ``players``,
    ``langs`` (each language's address, or None) and, offline, ``tables``
    (:func:`sim.jobs.advice_tables.class_data`). ``extra``: HTML shown at the end.
    The words are the current language's.
    """
    words = page_words(config["layout"])
    full = {**config, "lang": language(), "words": words}
    data = json.dumps(full, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    title = words["title"]
    langs = config.get("langs") or {}
    links = "".join(
        f'<a href="{html.escape(href)}" lang="{code}"'
        + (' aria-current="page"' if code == language() else "")
        + f">{html.escape(LANGUAGE_NAMES[code])}</a>"
        for code, href in langs.items()
        if code in LANGS
    )
    nav = f'<nav class="langs" aria-label="{html.escape(_("Language"))}">{links}</nav>'
    csp = ""
    if config["mode"] == "offline":  # no network at all: the browser refuses any request
        csp = f'<meta http-equiv="Content-Security-Policy" content="{OFFLINE_CSP}">'
    fields = {**_escaped(words), "title": html.escape(title), "nav": nav if links else ""}
    body = PAGE_BODY.format(**fields, extra=extra)
    return (
        f'<!doctype html><html lang="{language()}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'{csp}<link rel="icon" href="data:,">'
        f"<title>{html.escape(title)}</title><style>{asset('advisor.css')}</style></head><body>"
        f"{body}"
        f'<script type="application/json" id="advisor-config">{data}</script>'
        f"<script>{asset('advisor.js')}</script></body></html>\n"
    )


def _escaped(words: Mapping[str, Any]) -> dict[str, str]:
    return {k: html.escape(v) for k, v in words.items() if isinstance(v, str)}


def offline_page(data: Mapping[str, Any], layout: Mapping[str, Any],
                 langs: Mapping[str, str] | None = None) -> str:  # fmt: skip
    """The offline page: the class tables ``data`` embedded, answered in the browser."""
    from views.pages import inline_html

    note = _(WORDS["offline_note"]).format(
        player=data["player"], deals=number(data["deals"]), seed=data["seed"]
    )
    seats = " / ".join(role(c["seat"]) for c in data["classes"][0]["cells"])
    heading = html.escape(_(WORDS["glance"]).format(seats=seats))
    glance = (
        f'<section class="glance-box"><h2>{heading}</h2>{glance_table(data)}<p class="note">'
        f"{html.escape(_(WORDS['glance_note']).format(deals=number(data['deals'])))}</p>"
        f'<p class="note">{inline_html(note)}</p></section>'
    )
    config = {
        "mode": "offline",
        "layout": dict(layout),
        "risk": RISK,
        "player": data["player"],
        "players": [data["player"]],
        "langs": dict(langs) if langs else None,
        "tables": dict(data),
    }
    return page_html(config, glance)


def write_advisor_page(
    folder: Path,
    data: Mapping[str, Any],
    layout: Mapping[str, Any],
    name: str = "advisor",
    langs: Mapping[str, str] | None = None,
) -> Path:
    """Write the offline page ``NAME.html`` into ``folder`` (in the current language)."""
    path = folder / f"{name}.html"
    path.write_text(offline_page(data, layout, langs), encoding="utf-8")
    return path


ASSETS = Path(__file__).resolve().parent / "assets"


@cache
def asset(name: str) -> str:
    """A file of ``assets/``, read once when a page is first written (not at import).

    ``advisor.css``: one column on a phone, A4 when printed (controls left out);
    ``advisor.js``: the page's script.
    """
    return (ASSETS / name).read_text(encoding="utf-8")


PAGE_BODY = """<header><h1>{title}</h1>{nav}</header>
<section id="hand-box"><h2>{hand}</h2>
<p class="hand" id="hand" aria-live="polite"></p><p class="muted" id="count"></p>
<div class="grid" id="grid" role="group" aria-label="{hand}"></div>
<p class="muted" id="tap"></p>
<div class="row paste"><input type="text" id="paste" autocomplete="off"
 autocapitalize="characters" spellcheck="false" placeholder="{example}" aria-label="{read}">
<button type="button" id="read">{read}</button>
<button type="button" id="clear">{clear}</button></div>
<p class="error" id="card-error" role="alert"></p></section>
<section id="seat-box" data-server><h2>{seat}</h2><div class="row seg" id="seats"></div></section>
<section id="auction-box" data-server><h2>{auction}</h2>
<p class="auction-line" id="auction-line"></p><p id="turn"></p>
<div class="row bids" id="bids"></div>
<div class="row"><button type="button" id="undo">{undo}</button>
<button type="button" id="new-deal">{new_deal}</button></div></section>
<section id="verdict" aria-live="polite" data-source="none"><p class="say" id="say"></p>
<p class="why" id="why"></p><p class="why" id="game"></p><p class="table-line" id="assumed"></p>
<p class="status" id="status"></p></section>
<section id="detail"></section>
<details class="extras" id="extras" data-server><summary>{extras}</summary>
<label>{score} <input type="number" id="score" inputmode="numeric" step="5"></label>
<label><input type="checkbox" id="barrel"> {barrel}</label>
<label>{talon} <input type="text" id="talon" autocomplete="off" spellcheck="false"></label>
<p class="error" id="talon-error" role="alert"></p>
<label>{player} <select id="player"></select></label></details>
{extra}
"""


__all__ = [
    "RISK",
    "WORDS",
    "asset",
    "class_entries",
    "glance_frame",
    "glance_grid",
    "glance_html",
    "glance_levels",
    "glance_table",
    "offline_page",
    "page_html",
    "page_words",
    "table_json",
    "write_advisor_page",
]

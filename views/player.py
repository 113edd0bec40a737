"""The page for players: the guide's answers on one printable page, in the player's language.

What a player asks at the table, each answered in a sentence or two with its interval
and the player that measured it: how high to bid (every class of hand, its marriages
and aces, at every seat: the choice of the best margin from the advisor's class tables,
as a picture and as the grid the offline page shows, :func:`views.advisor_page.glance_grid`),
forehand's forced 100, what the talon brings, what to give away, when to concede, the
barrel and bidding on it, bolts and the 555 reset (samosval). ``thousand
guide --player-page`` writes it as ``player.html`` (about one A4 page when printed, one
column on a phone; the picture embedded) and ``player.md`` (the picture beside it); the
report opens with it and writes it in every language. The words are translated through
:mod:`sim.i18n`; the numbers are the guide's tables (:class:`analysis.guide.GuideTables`),
so a report and a guide of the same rules, sizes and seed say the same. No parameter
settings appear on the page (``guide_params.txt`` keeps them for scripts).
"""

from __future__ import annotations

import base64
import html
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from analysis.guide import GUIDE_PLAYER, GuideTables, chart_rows, choice_levels
from sim.i18n import _, language, number, role
from sim.rules import hand_roles
from views.advisor_page import WORDS, glance_frame, glance_html
from views.guide import MIN_HANDS, keep, marriage_words, points_text, share_text, tight
from views.pages import FigureRef, Section, Text, figure_png, inline_html
from views.tables import to_markdown

PAGE_CSS = """
body{font-family:system-ui,sans-serif;max-width:52rem;margin:1.2rem auto;padding:0 .8rem;
color:#222;line-height:1.4}
h1{font-size:1.3rem;margin:.4rem 0}h2{font-size:1.05rem;margin:.9rem 0 .25rem}
p{margin:.3rem 0}.who{color:#555;font-size:.85rem}
.bids{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-start;margin:.4rem 0}
figure{margin:0;flex:0 0 18rem}figure img{width:100%;height:auto;display:block}
figcaption{font-size:.75rem;color:#555}
.chart{flex:1 1 20rem}table{border-collapse:collapse;font-size:.82rem}
td,th{border:1px solid #ccc;padding:.12rem .3rem;text-align:left;vertical-align:top}
th{background:#f3f3f3;font-weight:600}.chart caption{text-align:left;font-weight:600;
font-size:.85rem;margin:0 0 .15rem}table.glance td{text-align:center;
font-variant-numeric:tabular-nums}table.glance tr:first-child th{text-align:center}
@media (max-width:30rem){body{padding:0 .5rem}figure{flex-basis:100%;max-width:20rem}
table{font-size:.75rem}td,th{padding:.1rem .2rem}}
@media print{@page{size:A4;margin:10mm}body{margin:0;max-width:none;font-size:8.5pt;
line-height:1.25}h1{font-size:12pt;margin:0 0 .2rem}h2{font-size:9.5pt;margin:.35rem 0 .05rem}
p{margin:.1rem 0}.who,figcaption{font-size:7.5pt}table{font-size:7.5pt;line-height:1.15}
td,th{padding:.05rem .25rem}figure{flex-basis:13rem}.bids{margin:.2rem 0}}
"""


def _event(guide: GuideTables, measure: str) -> dict[str, Any]:
    """One row of the guide's events table (:func:`analysis.guide.events_table`)."""
    return guide.events.filter(pl.col("measure") == measure).row(0, named=True)


def _event_share(guide: GuideTables, measure: str) -> str:
    r = _event(guide, measure)
    return share_text(r["value"], r["ci_low"], r["ci_high"])


def _event_points(guide: GuideTables, measure: str, places: int = 1, signed: bool = False) -> str:
    r = _event(guide, measure)
    return points_text(r["value"], r["ci_low"], r["ci_high"], places, signed)


# --- the sizes and the player ------------------------------------------------------------
def measured_by(guide: GuideTables) -> str:
    """Who measured every number, and on how many deals, hands and games with which seed."""
    runs = guide.runs
    return _(
        "Measured in play by `{player}` (the toolkit's fitted player, trained to play as its "
        "card search does) at every seat; every number with its 95 % interval. Deals with "
        "every hand played as the declarer's: {deals}; hands in ordinary auctions: {hands}; "
        "whole games: {games}; random seed: {seed}."
    ).format(
        player=GUIDE_PLAYER,
        deals=number(len(np.unique(runs.items["deal"]))),
        hands=number(len(runs.deals)),
        games=number(len(runs.games)),
        seed=runs.seed,
    )


def page_title(rules_name: str) -> str:
    """The page's title, the rules' name as a name (in backticks)."""
    return _("Thousand, `{rules}` rules: the page for players").format(rules=rules_name)


# --- how high to bid ---------------------------------------------------------------------
def seat_names(guide: GuideTables) -> str:
    """The hand seats in turn, as a cell of the grid gives them: ``forehand / middle / dealer``."""
    return " / ".join(role(seat) for seat in hand_roles(guide.runs.rules.players))


def bid_answer(guide: GuideTables) -> str:
    """How high to bid: how to read the grid, where it comes from, where the make rates are."""
    runs = guide.runs
    read = _(
        "Find your hand before the talon: each cell gives the level to bid up to, or pass, "
        "at each seat in turn ({seats})."
    ).format(seats=seat_names(guide))
    note = _(WORDS["glance_note"]).format(deals=number(runs.table_hands))
    more = _(
        "Played out by `{player}` at every seat: the tables the offline page to tap a hand "
        "answers from. How often a level is made (the safe bids at {risk} %) is in the "
        "guide (`guide_bid_classes.csv`), not in this grid."
    ).format(player=GUIDE_PLAYER, risk=round(runs.risk * 100))
    return f"{read} {note} {more}"


def bid_grid(guide: GuideTables) -> pl.DataFrame:
    """Every class's choice at every seat (:func:`views.advisor_page.glance_grid`)."""
    return glance_frame(choice_levels(guide.bid_choices))


def grid_title(guide: GuideTables) -> str:
    """The grid's title, the offline page's glance's: ``... how far to bid (forehand / ...)``."""
    return _(WORDS["glance"]).format(seats=seat_names(guide))


def bid_figure_png(guide: GuideTables) -> bytes:
    """The bid grid's picture (:func:`views.plots.plot_bid_grid`) as PNG bytes."""
    from views.plots import plot_bid_grid

    return figure_png(plot_bid_grid(guide.bid_choices, hand_roles(guide.runs.rules.players)))


def figure_alt(guide: GuideTables) -> str:
    """The picture's alternative text (and caption)."""
    return tight(
        _(
            "Bid chart: the level of the best margin by marriages and aces, each cell's "
            "stripes the seats ({seats})"
        ).format(seats=seat_names(guide))
    )


# --- the other answers -------------------------------------------------------------------
def forehand_answer(guide: GuideTables) -> str:
    """Forehand's forced 100 (docs/rules.md §4): how often, how often made, what it scores."""
    made = _event(guide, "forehand_100_made")
    if not made["n"]:
        return _("Forehand never played its forced 100 in these hands.")
    return _(
        "Forehand's opening 100 is compulsory; when nobody bids over it forehand plays it, "
        "in {share} of deals. It makes it in {made} of them and scores {score} points a deal "
        "there on average (forced-100 deals: {n})."
    ).format(
        share=_event_share(guide, "forehand_100"),
        made=_event_share(guide, "forehand_100_made"),
        score=_event_points(guide, "forehand_100_score", signed=True),
        n=number(made["n"]),
    )


def talon_answer(guide: GuideTables) -> str:
    """What the talon brings: the partner of a lone king or queen, measured beside exact."""
    row = guide.completion.filter(pl.col("lone_halves") == 1)
    if row.is_empty():
        return _("The talon's odds need more hands than this guide played.")
    r = row.row(0, named=True)
    return _(
        "A lone king or queen finds its partner in the talon in {rate} of deals (exact {exact})."
    ).format(
        rate=share_text(r["measured"], r["ci_low"], r["ci_high"]),
        exact=keep(f"{number(100 * r['exact'])} %"),
    )


def give_answer(guide: GuideTables) -> str:
    """What to give away: keep marriages whole; the cost of a lone king or queen by suit."""
    d = guide.discards
    if d.is_empty():
        return _("No gives of a lone king or queen to measure in these hands.")
    costs = "; ".join(
        keep(f"{r['suit']} {points_text(r['cost'], r['cost_low'], r['cost_high'])}")
        for r in d.rows(named=True)
    )
    return _(
        "Keep your marriages whole and give away lone kings and queens of cheap suits "
        "first: the receiver holds the partner half the time and may declare it. Points a "
        "give costs on average: {costs} (gives measured: {gives})."
    ).format(costs=costs, gives=number(int(d["gives"].sum())))


def concede_answer(guide: GuideTables) -> str:
    """When to concede: the lowest contract at which conceding scores more, or never."""
    better = guide.concede.filter(pl.col("better") == "concede")
    if better.is_empty():
        return _("Do not concede: at every contract measured, playing on scores more.")
    first = better.sort("contract").row(0, named=True)
    return _(
        "Concede a contract of {contract} or more when you kept {kept}: you make it in only "
        "{rate} of deals, and conceding costs less than playing."
    ).format(
        contract=first["contract"],
        kept=marriage_words(first["kept"]),
        rate=share_text(first["p_make"], first["ci_low"], first["ci_high"]),
    )


def barrel_answer(guide: GuideTables) -> str:
    """The barrel: how climbs end, and what to bid on it (docs/rules.md §9)."""
    rules = guide.runs.rules
    if rules.barrel.at <= 0:
        return _("There is no barrel under these rules.")
    need = rules.game.target - rules.barrel.at
    if rules.game.target_strict:
        need += rules.bid.step
    b = guide.barrel.row(0, named=True) if len(guide.barrel) else None
    if b is None or not b["climbs"]:
        text = _("Nobody climbed onto the barrel in this guide's games.")
    else:
        text = _(
            "{rate} of climbs onto the barrel end in a fall (climbs: {climbs}; games: {games})."
        ).format(
            rate=share_text(b["fall_share"], b["ci_low"], b["ci_high"]),
            climbs=number(b["climbs"]),
            games=number(b["games"]),
        )
    text += " " + _(
        "On the barrel only a made contract of {need} or more wins: bid and name at least that."
    ).format(need=need)
    if rules.barrel.bid_from > 0:
        text += " " + _("Your raises there must be at least {level}.").format(
            level=rules.barrel.bid_from
        )
    reach: dict[str, list[str]] = {}  # the classes whose level reaches it, by marriage
    for r in chart_rows(guide):
        if r["n"] >= MIN_HANDS and (r["level"] or 0) >= need:
            reach.setdefault(r["marriage"], []).append("2+" if r["aces"] == 2 else str(r["aces"]))
    strong = [
        keep(_("{marriage} (aces: {aces})").format(
            marriage=marriage_words(m), aces=_(" or ").join(aces)))
        for m, aces in reach.items()
    ]  # fmt: skip
    risk = round(guide.runs.risk * 100)
    if strong:
        text += " " + _(
            "Hands that make {need} in at least {risk} % of deals (the guide's safe bids): {hands}."
        ).format(need=need, risk=risk, hands="; ".join(strong))
    else:
        text += " " + _(
            "No class of hand makes {need} in {risk} % of deals (the guide's safe bids)."
        ).format(need=need, risk=risk)
    return text


def bolt_answer(guide: GuideTables) -> str:
    """Bolts: how often a player takes nothing, and what the penalties cost a game."""
    bolt = guide.runs.rules.bolt
    what = (
        _("a deal in which you take no trick")
        if bolt.on == "no_tricks"
        else _("a deal whose total rounds to 0")
    )
    text = _("A bolt is {what}: {share} of the players of a deal get one.").format(
        what=what, share=_event_share(guide, "bolt_share")
    )
    if bolt.penalty <= 0:
        return text + " " + _("Bolts cost nothing under these rules.")
    cost = (
        _(
            "Each time a player's bolts in a row reach {count}, they lose {penalty} points: a "
            "game has {per_game} such penalties, {points} points, all players together."
        )
        if bolt.in_a_row
        else _(
            "Each time a player's bolts reach {count}, they lose {penalty} points: a game "
            "has {per_game} such penalties, {points} points, all players together."
        )
    )
    return (
        text
        + " "
        + cost.format(
            count=bolt.count,
            penalty=bolt.penalty,
            per_game=_event_points(guide, "bolt_penalties_per_game", 2),
            points=_event_points(guide, "bolt_points_per_game", 0),
        )
    )


def samosval_answer(guide: GuideTables) -> str:
    """The 555 reset (samosval): what it costs and how often it comes."""
    score = guide.runs.rules.score
    if not score.samosval:
        return _("There is no 555 reset under these rules.")
    return _(
        "A score of exactly 555 after a deal drops to {to} (the samosval): it costs {cost} "
        "points. A game has {per_game} of them, all players together; {share} of games "
        "have one."
    ).format(
        to=score.samosval_to,
        cost=555 - score.samosval_to,
        per_game=_event_points(guide, "samosvals_per_game", 2),
        share=_event_share(guide, "games_with_samosval"),
    )


def answers(guide: GuideTables) -> list[tuple[str, str]]:
    """Every answer after the bid grid, in reading order: ``(title, text)``."""
    return [
        (_("Forehand's forced 100."), forehand_answer(guide)),
        (_("What the talon brings."), talon_answer(guide)),
        (_("What to give away."), give_answer(guide)),
        (_("When to concede."), concede_answer(guide)),
        (_("The barrel."), barrel_answer(guide)),
        (_("Bolts."), bolt_answer(guide)),
        (_("The 555 reset."), samosval_answer(guide)),
    ]


# --- the page ----------------------------------------------------------------------------
def page_texts(guide: GuideTables) -> tuple[str, str, list[tuple[str, str]]]:
    """Who measured, how high to bid and the other answers, as the page shows them.

    Every number stays on one line with its per cent sign (:func:`tight`).
    """
    rest = [(title, tight(text)) for title, text in answers(guide)]
    return tight(measured_by(guide)), tight(bid_answer(guide)), rest


def player_section(guide: GuideTables) -> Section:
    """The page for players as one section (the report's first)."""
    who, bid, rest = page_texts(guide)
    sec = Section("players", _("For players"))
    sec.blocks.append(Text(who))
    sec.blocks.append(Text(f"**{_('How high to bid.')}** {bid}"))
    sec.figures["player_bids.png"] = bid_figure_png(guide)
    sec.blocks.append(FigureRef("player_bids.png", figure_alt(guide)))
    sec.add_table(grid_title(guide), "", bid_grid(guide), "guide_bid_choices.csv",
                  guide.bid_choices)  # fmt: skip
    for title, text in rest:
        sec.blocks.append(Text(f"**{title}** {text}"))
    sec.csvs["guide_events.csv"] = guide.events
    return sec


def _html_grid(guide: GuideTables) -> str:
    """The grid as HTML: the offline page's glance (:func:`views.advisor_page.glance_html`).

    Its title as the table's caption; a cell of three levels may break between them.
    """
    table = glance_html(choice_levels(guide.bid_choices))
    caption = f"<caption>{html.escape(grid_title(guide))}</caption>"
    return f'<div class="chart">{table.replace("<tr>", caption + "<tr>", 1)}</div>'


def write_player_page(
    folder: Path, guide: GuideTables, rules_name: str, name: str = "player"
) -> dict[str, Any]:
    """Write ``NAME.html`` (one printable page), ``NAME.md`` and ``NAME-bids.png`` into ``folder``.

    The HTML page embeds the picture (base64, as the report does) and stands alone; the
    Markdown page shows the PNG written beside it.

    Returns:
        The title, the answers ``(title, text)`` in order, the grid and the PNG's name.
    """
    title = page_title(rules_name)
    who, bid, rest = page_texts(guide)
    chart = bid_grid(guide)
    png = bid_figure_png(guide)
    picture = f"{name}-bids.png"
    alt = figure_alt(guide)
    data = base64.b64encode(png).decode()
    plain_title = title.replace("`", "")
    parts = [
        f"<h1>{inline_html(title)}</h1>",
        f'<p class="who">{inline_html(who)}</p>',
        f"<h2>{html.escape(_('How high to bid.'))}</h2><p>{inline_html(bid)}</p>",
        f'<div class="bids"><figure><img alt="{html.escape(alt)}" '
        f'src="data:image/png;base64,{data}"><figcaption>{html.escape(alt)}</figcaption>'
        f"</figure>{_html_grid(guide)}</div>",
    ]
    parts += [f"<h2>{html.escape(t)}</h2><p>{inline_html(text)}</p>" for t, text in rest]
    page = (
        f'<!doctype html><html lang="{language()}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(plain_title)}</title><style>{PAGE_CSS}</style></head><body>"
        + "\n".join(parts)
        + "</body></html>\n"
    )
    md = [f"# {title}", "", who, "", f"## {_('How high to bid.')}", "", bid, ""]
    md += [f"![{alt}]({picture})", "", f"**{grid_title(guide)}**", ""]
    md += [to_markdown(chart).rstrip(), ""]
    for t, text in rest:
        md += [f"## {t}", "", text, ""]
    (folder / picture).write_bytes(png)
    (folder / f"{name}.html").write_text(page, encoding="utf-8")
    (folder / f"{name}.md").write_text("\n".join(md), encoding="utf-8")
    return {"title": title, "answers": rest, "chart": chart, "picture": picture}

"""The toolkit's words: every worded view of the analysis' numbers.

The pages kit and the report (:mod:`views.pages`, :mod:`views.report` and its
sections), the page for players and the advisor's page, the plots, the glossary of
the rates, and the renderers of every command's tables (the guide, the advisor, duels,
odds, comparisons, the barrel, bids and safe bids) as Markdown, HTML and sentences in
the current language (:mod:`sim.i18n`). The numbers they show come from
:mod:`analysis`, which speaks no language.
"""

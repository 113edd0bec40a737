"""The sections of the report, one module each (:func:`views.report.write_report_folder`).

Each module has one builder that returns a :class:`views.pages.Section` from the
results of the runs (or the tables the analysis made of them): ``run``, ``odds``,
``marriages``, ``safebids``, ``bids``, ``barrel``, ``seats``, ``dealing``, ``compare``,
and ``summary`` (the short answers that open the report).
"""

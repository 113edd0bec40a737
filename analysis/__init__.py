"""Analysis side of the Thousand toolkit: exact odds, tables, plots and reports."""

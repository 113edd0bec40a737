"""The statistics of the Thousand toolkit: exact odds, tables and result records.

It reads run folders (or the runs' result objects) and computes numbers with their
intervals; it speaks no language: the words that show them (pages, reports,
sentences, plots) are :mod:`views`'.
"""

"""Fitting the learned players on the teacher's data (the optional ``train`` extra).

``python -m training.contract`` (``make weights``) reproduces the shipped weights
(``sim/engine/strategies/learned.npz``) from a seed. Nothing in ``sim`` imports this
package: the toolkit runs the fitted weights without the fitting libraries.
"""

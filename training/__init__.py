"""Fitting the learned players on the teacher's data (the optional ``train`` extra).

Every fit of the project lives here: the learned decisions (``contract``, ``bid``,
``concede``, ``cards``, ``play``, ``equity``), ``strong``'s card network and discard
line (``strong_fit``, ``strong_discard_fit``) and the heuristic's hand model
(``heuristic_fit``). ``make weights`` reproduces the shipped weights
(``sim/engine/strategies/*.npz``) from seeds. Nothing in ``sim`` imports this
package: the toolkit runs the fitted weights without the fitting libraries.
"""

"""Simulation side of the Thousand toolkit: cards, rules, deals and engines."""

__version__ = "0.1.0"
ENGINE_VERSION = "5"  # bump whenever simulated results change for the same seed

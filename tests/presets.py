"""The shipped presets as the tests refer to them (docs/rules.md §13)."""

from sim.rules import load_rules, preset_names

PRESETS = preset_names()
PRESETS_3P = [p for p in PRESETS if load_rules(p).players == 3]

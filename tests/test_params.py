"""The one rules vector: every option has a slot, every slot the kernels use exists."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np

from sim.engine import params
from sim.rules import RULE_INDEX, RULE_KEYS, load_rules, preset_names

ENGINE = Path(params.__file__).parent


def _slot_calls() -> dict[str, str]:
    """``P_NAME -> key`` for every ``P_NAME = slot("key")`` of sim/engine/params.py."""
    tree = ast.parse(Path(params.__file__).read_text(encoding="utf-8"))
    out = {}
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call)
            and getattr(node.value.func, "id", "") == "slot"
        ):
            out[node.targets[0].id] = node.value.args[0].value  # type: ignore[attr-defined]
    return out


def _used_names() -> set[str]:
    """Every ``P_*`` name the compiled engine reads."""
    used: set[str] = set()
    for path in ENGINE.rglob("*.py"):
        if path.name == "params.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Name) and node.id.startswith("P_"):
                used.add(node.id)
    return used


def test_every_option_has_a_slot_by_key():
    slots = _slot_calls()
    named = set(slots.values())
    assert named | set(params.NOT_IN_KERNELS) == set(RULE_KEYS)
    for name, key in slots.items():
        assert getattr(params, name) == RULE_INDEX[key]


def test_every_slot_the_engine_reads_exists_and_is_read():
    used = _used_names()
    defined = {n for n in dir(params) if n.startswith("P_")}
    assert used <= defined
    # every option slot is read by some kernel (the tail's per-suit values via P_MV_S)
    assert set(_slot_calls()) <= used


def test_the_vector_is_to_array_and_its_tail():
    for name in preset_names():
        r = load_rules(name)
        v = params.rules_vector(r)
        assert v.shape == (params.N_PARAMS,) and v.dtype == np.int64
        assert np.array_equal(v[: len(RULE_KEYS)], r.to_array())
        assert list(v[params.P_MV_S : params.P_MV_H + 1]) == list(r.marriage_values)
        assert v[params.P_NP] == (2 if r.players == 2 else 3)
        assert (v[params.P_DEAL_METHOD] == params.CUT) == (r.deal.method == "cut")

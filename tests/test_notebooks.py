"""The worked examples in notebooks/ run end to end on small sizes and are committed clean.

Each notebook is executed with nbclient in a python3 kernel of this interpreter, with
``THOUSAND_NB_SMALL=1`` (small sizes, seconds once the engine is compiled) and
``TMPDIR`` pointing into pytest's temporary folder, from the notebooks folder as a user
would run it. A notebook passes when every cell runs, it draws its figures and prints
its key tables (rates with their 95 % intervals), and it leaves nothing in the repo.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    import nbformat

# nbformat and nbclient are imported by the tests that use them: importing them takes
# seconds (jsonschema builds its grammars), which every test process would otherwise
# pay while collecting the suite.

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
CELL_TIMEOUT = 900  # seconds; the first run in a fresh cache compiles the engine

# Per notebook: figures it must draw and text its outputs must contain.
KEY_OUTPUTS: dict[str, tuple[int, tuple[str, ...]]] = {
    "01_deal_odds.ipynb": (
        2,
        (
            "ci_low",
            "ci_high",
            "exact",
            "hand.any_marriage",
            "deal.any_reshuffle",
            "reshuffle.hand_points_below",
            "deals_per_played",
        ),
    ),
    "02_safe_bid.ipynb": (
        2,
        (
            "ci_low",
            "ci_high",
            "rate_all",
            "level_conservative",
            "points_band",
            "marriages_dealt",
        ),
    ),
    "03_house_rules_balance.ipynb": (
        2,
        (
            "ci_low",
            "ci_high",
            "mean_deals",
            "fall_rate",
            "seat_p_value",
            "forehand",
            "deals per game",
        ),
    ),
    "04_bid_advisor.ipynb": (
        2,
        ("ci_low", "ci_high", "marriages", "share_within_2se", "bid up to", "to_left"),
    ),
    "05_report_and_guide.ipynb": (
        2,
        (
            "index.html",
            "report.md",
            "How often a marriage comes",
            "rules_hash",
            "ci_low_all",
            "a duplicate duel against `strong`",
            "safe_75",
            "score_diff",
        ),
    ),
}

# Run first in the kernel (in memory only): which Python runs it, and where tempfile writes.
PROBE = "import sys, tempfile\nprint(sys.prefix)\nprint(tempfile.gettempdir())"


def _ids(paths: list[Path]) -> list[str]:
    return [p.name for p in paths]


def _text(output: nbformat.NotebookNode) -> str:
    if output.output_type == "stream":
        return str(output.text)
    data = output.get("data", {})
    kinds = ("text/plain", "text/html", "text/markdown")
    return "\n".join(str(data.get(kind, "")) for kind in kinds)


def test_every_notebook_declares_its_key_outputs():
    assert len(NOTEBOOKS) >= 3
    assert sorted(p.name for p in NOTEBOOKS) == sorted(KEY_OUTPUTS)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_committed_notebook_is_clean(path):
    import nbformat

    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3"
    code = [c for c in nb.cells if c.cell_type == "code"]
    for i, cell in enumerate(code):
        assert cell.outputs == [], f"code cell {i} of {path.name} carries outputs"
        assert cell.execution_count is None, f"code cell {i} of {path.name} has an execution count"
    # Sizes live in one cell at the top, tagged for papermill and switched by the env var.
    params = [c for c in code if "parameters" in c.metadata.get("tags", [])]
    assert len(params) == 1 and params[0] is code[0]
    assert "THOUSAND_NB_SMALL" in params[0].source
    assert any(c.cell_type == "markdown" for c in nb.cells[:1])


# make test runs the quickest notebook and the one that builds a report and a guide
# through the jobs (seconds each once the engine is compiled); make test-all every one.
QUICK_NOTEBOOKS = {"02_safe_bid.ipynb", "05_report_and_guide.ipynb"}


@pytest.mark.parametrize(
    "path",
    [
        pytest.param(p, marks=() if p.name in QUICK_NOTEBOOKS else pytest.mark.slow)
        for p in NOTEBOOKS
    ],
    ids=_ids(NOTEBOOKS),
)
def test_notebook_runs_on_small_sizes(path, tmp_path, monkeypatch):
    import nbformat
    from nbclient import NotebookClient

    monkeypatch.setenv("THOUSAND_NB_SMALL", "1")
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    before = sorted(p.name for p in NOTEBOOK_DIR.iterdir())
    nb = nbformat.read(path, as_version=4)
    nb.cells.insert(0, nbformat.v4.new_code_cell(PROBE))
    client = NotebookClient(
        nb,
        kernel_name="python3",
        timeout=CELL_TIMEOUT,
        resources={"metadata": {"path": str(NOTEBOOK_DIR)}},
    )
    client.execute()

    probe = nb.cells.pop(0).outputs[0].text.splitlines()
    assert probe[0] == sys.prefix, "the kernel does not run this environment's Python"
    assert Path(probe[1]).resolve() == tmp_path.resolve()

    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    figures, needles = KEY_OUTPUTS[path.name]
    pngs = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(pngs) >= figures, f"{path.name} drew {len(pngs)} figures, expected {figures}"
    text = "\n".join(_text(o) for o in outputs)
    missing = [needle for needle in needles if needle not in text]
    assert not missing, f"{path.name}: outputs lack {missing}"
    # Run folders and scratch files went to the temporary folder, not into the repo,
    # and the notebook's last cell removed them.
    assert sorted(p.name for p in NOTEBOOK_DIR.iterdir()) == before
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith("thousand-nb")]


def _imports_of_cells(path: Path) -> list[tuple[str, list[str]]]:
    """Every ``from MODULE import NAMES`` of a notebook's code cells (magics left out)."""
    import ast
    import json

    found = []
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] != "code":
            continue
        lines = "".join(cell["source"]).splitlines()
        tree = ast.parse("\n".join(line for line in lines if not line.lstrip().startswith("%")))
        found += [
            (node.module, [a.name for a in node.names])
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module
        ]
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_name_a_notebook_imports_is_there(path):
    # the quick guard of the notebooks' slow runs: a name moved or renamed in the
    # library breaks a notebook at its first cell
    import importlib

    imports = _imports_of_cells(path)
    assert imports, path.name
    for module, names in imports:
        loaded = importlib.import_module(module)
        missing = [n for n in names if not hasattr(loaded, n)]
        assert not missing, f"{path.name}: from {module} import {missing}"

"""The code imports one way: base ← engine ← solver, reference ← runs ← analysis ← views ← jobs.

(The jobs are called by the command line and the web page.) Every module under ``sim/``,
``analysis/`` and ``views/`` is read with :mod:`ast` (nothing is
imported), its imports are collected wherever they stand (module level, inside
functions, under ``if TYPE_CHECKING``) and each module is placed in a layer by the folder
it lies in (:data:`FOLDERS`), never by a list of modules:

* **base**: every module directly in ``sim/`` (the package's version, cards, rules,
  random streams, compiled-code helpers, thread settings, odds keys, output folders,
  the deal notation, the languages, the house-rule options in words, the players'
  records) and the run tables' schema (``sim/schema/``);
* **engine**: the compiled engine (``sim/engine/``): the deal generator, the phases,
  the players and the compiled open-card search they sample with;
* **solver**: the open-card solver's Python face (``sim/solver/``: positions, the
  par of a deal, played deals' par columns), on the engine's compiled search;
* **reference**: the plain Python engines that check the compiled one
  (``sim/reference/``); they share the engine's action codes and nothing else of it
  but the reshuffle conditions;
* **batch**: the generic machinery under the runs (``sim/batch/``): chunked runs on
  workers or Dask, resumable, and the Parquet writer and joiner; nothing of the game;
* **runs**: the code that plays and writes Parquet files and ``run.json`` (and
  computes no statistics) (``sim/runs/``);
* **analysis**: reads run folders (or the result objects of the runs) and computes
  statistics, tables and result records; from ``sim`` it uses base modules only, and
  it speaks no language: it imports no module of words (:data:`WORD_MODULES`) and its
  code holds no HTML and no Markdown (:func:`test_the_analysis_speaks_no_language`);
* **views**: the words (``views/``): the pages kit, the report and its sections, the
  page for players, the advisor's page and its script, the plots, the glossary, and
  the renderers of every command's results (Markdown, HTML, sentences) in the current
  language, on the analysis' numbers;
* **jobs**: what a command does as a library call (``sim/jobs/``): a typed spec in, the
  runs played, the analysis computed and its views written, the result out;
* **web**: the local web page of ``thousand serve`` (``sim/web/``): like the command
  line it builds a job's spec (from a request), calls the job and answers; its page
  is a view (:mod:`views.advisor_page`);
* **cli**: the ``thousand`` command (``sim/cli/``, ``python -m sim``): it imports the
  jobs and the base only, a command module imports no other command (only
  ``sim.cli.common``), and nothing imports it; ``serve`` starts the web app.

The test fails on a module in no layer, on an import a layer may not make and on any
import cycle between modules. ``from P import name`` counts as an import of the
module ``P.name`` when that is a module, else of ``P``; importing a submodule is not
counted as importing its parent package (Python runs the package's ``__init__``
first, but that is not a dependency of the importing code).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("sim", "analysis", "views")

# The layer of every folder (package) of the project; a module directly in ``sim/`` is
# in the base. Nothing else decides a layer: a new module is placed by where it lies.
FOLDERS = {
    "sim": "base",
    "sim.schema": "base",
    "sim.engine": "engine",
    "sim.solver": "solver",
    "sim.reference": "reference",
    "sim.batch": "batch",
    "sim.runs": "runs",
    "sim.jobs": "jobs",
    "sim.cli": "cli",
    "sim.web": "web",
    "analysis": "analysis",
    "views": "views",
}
# What each layer may import (its own layer included). analysis sits above runs but
# does not use them: it reads what they wrote, and from sim only the base.
ALLOWED = {
    "base": {"base"},
    "engine": {"base", "engine"},
    "solver": {"base", "engine", "solver"},
    "reference": {"base", "engine", "reference"},
    # chunked runs on workers and their Parquet files: nothing of the game
    "batch": {"base", "batch"},
    "runs": {"base", "engine", "solver", "reference", "batch", "runs"},
    "analysis": {"base", "analysis"},
    # the words: on the analysis' numbers, in the languages of the base
    "views": {"base", "analysis", "views"},
    "jobs": {"base", "engine", "solver", "reference", "batch", "runs"}
    | {"analysis", "views", "jobs"},
    # the local web page answers requests as the command line answers its arguments:
    # builds a job's spec, calls the job, answers (its page is a view)
    "web": {"base", "analysis", "views", "jobs", "web"},
    # the command line parses, builds a job's spec, calls the job and prints (serve
    # starts the web app)
    "cli": {"base", "jobs", "web", "cli"},
}


def layer_of(module: str) -> str | None:
    """The layer of a module by the folder it lies in, or None when it is in none.

    A package is in its own folder's layer; ``sim/__main__.py`` (``python -m sim``) is
    the command line's.
    """
    if module == "sim.__main__":
        return "cli"
    folder = module if module in PACKAGE_NAMES else module.rpartition(".")[0]
    while folder:
        if folder in FOLDERS:
            return FOLDERS[folder]
        folder = folder.rpartition(".")[0]
    return None


def module_files() -> dict[str, Path]:
    """Every module of the packages by dotted name (a package by its ``__init__``)."""
    out: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


MODULES = module_files()
PACKAGE_NAMES = {m for m, path in MODULES.items() if path.name == "__init__.py"}


def _base_package(module: str, path: Path) -> str:
    """The package a relative import in ``module`` starts from."""
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def imports_of(module: str, path: Path) -> set[str]:
    """The project modules ``module`` imports, anywhere in its source."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = _base_package(module, path)
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            for alias in node.names:
                candidate = f"{source}.{alias.name}"
                found.add(candidate if candidate in MODULES else source)
    targets = set()
    for name in found:
        if name.split(".")[0] not in PACKAGES:
            continue
        # ``import sim.engine.api`` names the module; a name that is not a module
        # (``import sim.x`` of a missing file) is kept as written to fail below
        targets.add(name)
    targets.discard(module)
    return targets


@pytest.fixture(scope="module")
def project_graph() -> dict[str, set[str]]:
    """Every project module -> the project modules it imports (parsed when a test asks:
    parsing every source at import time cost each test process ~2 s of collection)."""
    return {module: imports_of(module, path) for module, path in MODULES.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_modules_are_found(project_graph):
    assert {"sim.cli", "sim.schema", "sim.engine.api", "views.report"} <= set(MODULES)
    assert "sim.cli" in project_graph["sim.__main__"]


def test_the_layer_is_the_folder():
    assert layer_of("sim.cards") == "base"  # a module directly in sim/
    assert layer_of("sim.new_module") == "base"
    assert layer_of("sim.runs") == layer_of("sim.runs.folder") == "runs"
    assert layer_of("sim.engine.strategies.pimc") == "engine"
    assert layer_of("views.sections.summary") == layer_of("views") == "views"
    assert layer_of("analysis.stats") == "analysis"
    assert layer_of("sim.__main__") == "cli"
    assert layer_of("elsewhere.module") is None


def test_the_option_words_are_base_for_the_views(project_graph):
    # the pages show options in the players' words (sim.option_words): a base module
    # that the views may import, itself on the rules and the languages only
    assert layer_of("sim.option_words") == "base" and "base" in ALLOWED["views"]
    assert project_graph["sim.option_words"] <= {"sim.rules", "sim.i18n"}


def test_no_run_module_is_left_at_the_top(project_graph):
    # a module directly in sim/ is base: one that plays (imports the engine) belongs
    # in sim/runs/
    top = [m for m, p in MODULES.items() if p.parent == ROOT / "sim" and p.stem[0] != "_"]
    assert "sim.cards" in top and "sim.cli" not in top
    playing = sorted({m for m in top for t in project_graph[m] if layer_of(t) != "base"})
    assert not playing, playing


def test_every_module_is_in_a_layer():
    lost = sorted(m for m in MODULES if layer_of(m) is None)
    assert not lost, f"modules in no layer (add them to tests/test_layers.py): {lost}"


def test_every_import_names_a_module_of_the_project(project_graph):
    unknown = sorted(
        f"{m} imports {t}"
        for m, targets in project_graph.items()
        for t in targets
        if t not in MODULES
    )
    assert not unknown, "\n".join(unknown)


def wrong_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a layer its importer may not use, as words."""
    wrong = []
    for module, targets in sorted(graph.items()):
        mine = layer_of(module)
        for target in sorted(targets):
            theirs = layer_of(target)
            if mine is None or theirs is None or theirs in ALLOWED[mine]:
                continue
            wrong.append(f"{module} ({mine}) imports {target} ({theirs})")
    return wrong


def test_no_layer_imports_a_layer_above_it(project_graph):
    wrong = wrong_imports(project_graph)
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


def test_the_layers_are_an_order():
    # no two layers may import each other: every arrow points down
    for a, below in ALLOWED.items():
        for b in below - {a}:
            assert a not in ALLOWED[b], (a, b)
    assert set(ALLOWED) == {
        "base", "engine", "solver", "reference", "batch", "runs", "analysis", "views", "jobs",
        "web", "cli",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("sim.engine.driver", "sim.solver.position"),  # the engine reaching up to the solver
        ("sim.engine.play", "sim.reference.play"),  # ... or to the reference engine
        ("sim.solver.talon", "sim.reference.solver"),  # two layers side by side
        ("sim.reference.play", "sim.solver.talon"),
        ("sim.engine.deal", "sim.runs.odds"),  # the engine reaching up to the runs
        ("sim.solver.position", "sim.runs.declarer"),
        ("sim.runs.declarer", "sim.jobs.safebids"),  # a run reaching up to a job
        ("analysis.safebids", "sim.jobs.safebids"),
        ("analysis.compare", "views.compare"),  # the numbers reaching up to their words
        ("views.safebids", "sim.jobs.safebids"),
        ("sim.jobs.safebids", "sim.cli.safebids"),  # a job reaching up to the command line
        ("sim.cli.report", "sim.runs.folder"),  # the command line reaching past the jobs
        ("sim.cli.solve", "analysis.advise"),
        ("sim.cli.duel", "sim.engine.strategies.registry"),
    ],
)
def test_an_arrow_back_up_is_caught(importer, imported):
    assert wrong_imports({importer: {imported}}) == [
        f"{importer} ({layer_of(importer)}) imports {imported} ({layer_of(imported)})"
    ]


def test_nothing_imports_the_command_line(project_graph):
    users = sorted(
        f"{m} imports {t}"
        for m, targets in project_graph.items()
        for t in targets
        if layer_of(t) == "cli" and layer_of(m) != "cli"
    )
    assert not users, "\n".join(users)


def commands_importing_commands(graph: dict[str, set[str]]) -> list[str]:
    """Every import of one command module by another (``sim.cli.common`` is shared)."""
    return sorted(
        f"{m} imports {t}"
        for m, targets in graph.items()
        if m.startswith("sim.cli.")
        for t in targets
        if t.startswith("sim.cli.") and t != "sim.cli.common"
    )


def test_no_command_imports_another(project_graph):
    found = commands_importing_commands(project_graph)
    assert not found, "\n".join(found)
    caught = {"sim.cli.report": {"sim.cli.compare", "sim.cli.common"}}
    assert commands_importing_commands(caught) == ["sim.cli.report imports sim.cli.compare"]


def test_no_import_cycles(project_graph):
    found = cycles(project_graph)
    assert not found, "import cycles:\n" + "\n".join(" ⇄ ".join(c) for c in found)


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        ({"a": {"b"}, "b": {"a"}, "c": {"a"}}, [["a", "b"]]),
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"d"}}, [["a", "b", "c"]]),
    ],
)
def test_cycle_finder(graph, expected):
    assert cycles(graph) == expected


def test_imports_are_read_everywhere(tmp_path):
    src = tmp_path / "mod.py"
    src.write_text(
        "import sim.rules\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        "    from sim.batch.runner import Backend\ndef f():\n    from analysis import stats\n"
        "    import sim.engine.api as api\n"
    )
    assert imports_of("sim.x", src) == {
        "sim.rules",
        "sim.batch.runner",
        "analysis.stats",
        "sim.engine.api",
    }


def namespace_takers(module: str, path: Path) -> list[str]:
    """Functions of a module that take the command line's arguments (``argparse.Namespace``).

    A parameter counts when its annotation names ``Namespace`` (every function of the
    project is annotated: ``make lint`` runs mypy with ``disallow_untyped_defs``).
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        a = node.args
        for arg in [*a.posonlyargs, *a.args, *a.kwonlyargs]:
            note = ast.unparse(arg.annotation) if arg.annotation is not None else ""
            if "Namespace" in note:
                found.append(f"{module}.{node.name}({arg.arg}: {note})")
    return found


def test_no_function_below_the_command_line_takes_its_arguments():
    # the jobs and everything below take typed specs, never argparse.Namespace
    found = [
        f
        for module, path in sorted(MODULES.items())
        if layer_of(module) != "cli"
        for f in namespace_takers(module, path)
    ]
    assert not found, "\n".join(found)
    # the command line's own functions do take it: the reading sees them
    cli = namespace_takers("sim.cli.report", MODULES["sim.cli.report"])
    assert "sim.cli.report.cmd_report(args: argparse.Namespace)" in cli


def test_the_report_command_only_builds_a_spec_and_calls_the_job():
    tree = ast.parse(MODULES["sim.cli.report"].read_text(encoding="utf-8"))
    (body,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "cmd_report"]
    assert body.end_lineno is not None
    assert body.end_lineno - body.lineno + 1 < 60


# The base modules of words: the languages, the options and the table in words. The
# analysis imports none of them; a view does.
WORD_MODULES = {"sim.i18n", "sim.option_words", "sim.table_text"}
# A tag of a page, a Markdown heading, table rule or bold text in a string of the code
# (docstrings are left out: they may show what a view writes).
HTML = re.compile(
    r"</?(html|body|div|p|table|tr|td|th|span|a|h[1-6]|ul|ol|li|section|figure"
    r"|img|style|script|svg|details|summary|br|nav|header|main|code|strong|em)\b"
)
MARKDOWN = re.compile(r"(^|\n)(#{1,6} |\|\s*-{3}|- \*\*)|\*\*\S[^*\n]*\*\*")  # fmt: skip


def speaking(path: Path, root: Path = ROOT) -> list[str]:
    """The strings of a module's code (not its docstrings) that are HTML or Markdown."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    docs = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        f"{path.relative_to(root)}:{node.lineno}: {node.value[:60]!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docs
        and (HTML.search(node.value) or MARKDOWN.search(node.value))
    ]


def test_the_analysis_speaks_no_language(project_graph):
    words = sorted(
        f"{m} imports {t}"
        for m, targets in project_graph.items()
        if layer_of(m) == "analysis"
        for t in targets
        if t in WORD_MODULES
    )
    assert not words, "the analysis imports words:\n" + "\n".join(words)
    written = [
        line for m, p in MODULES.items() if layer_of(m) == "analysis" for line in speaking(p)
    ]
    assert not written, "the analysis writes HTML or Markdown:\n" + "\n".join(written)


@pytest.mark.parametrize(
    "source",
    ['x = "<table>"', 'x = f"<p>{y}</p>"', 'x = "# Bids"', 'x = "| --- |"', 'x = "a **b** c"'],
)
def test_a_page_in_the_code_is_caught(tmp_path, source):
    path = tmp_path / "probe.py"
    path.write_text(source + "\n", encoding="utf-8")
    assert speaking(path, tmp_path)
    assert not speaking(ROOT / "analysis" / "stats.py")

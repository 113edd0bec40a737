"""Where the compiled code spends its time, instruction by instruction (issue 39).

numba's machine code has no symbols a sampling profiler can read: ``perf`` sees
anonymous memory. This script plays hands of one player in a child process that
compiles the engine and the player afresh (an empty compiled-code cache of its own),
keeps the object code of every compiled library and the address each function was
loaded at, and samples the child with ``perf record``. Each sample is then mapped to
its function and to its offset in that function's object code, so the hottest
functions, 256-byte regions and instructions are printed with their disassembly
(``objdump``). Every decision of a hand is inlined into one or two functions, so the
instructions (an integer division, a table load that misses the cache, a branch on
data) say where the time goes; ``benchmarks/profile_phases.py`` times the phases.

``--player par`` profiles the open-card solver instead, solving the par of classic
items (:func:`sim.runs.declarer.par_levels`).

``--lines`` compiles the child with DWARF line tables (``NUMBA_DEBUGINFO=1``: the code
is optimised as usual, but it is not byte for byte the code of a normal build) and
prints where the samples fall in the sources instead of the disassembly: the hottest
source lines (the innermost line of each sample, its inlined callers beside it) and
the hottest functions, counting every sample inside an inlined function, however deep
(``addr2line``). The engine inlines every decision of a hand into one function, so
this is the only view of which of them takes the time.

Run: ``python benchmarks/profile_compiled.py [--player heuristic|par] [--seconds 10]
[--lines] [--keep DIR]`` (Linux, with ``perf`` and ``objdump``, and ``addr2line`` for
``--lines``; about two minutes of compiling first).
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_DEFINE = re.compile(r'^define [^@]*@"?([^"( ]+)"?\(', re.M)


def _keep(library, folder: Path, tag: str) -> None:  # type: ignore[no-untyped-def]
    """Write a compiled library's object code, its functions' load addresses and the
    machine code as loaded (read from this process's memory: the object code written
    apart may differ from what was loaded, so the listing is taken from the latter)."""
    import ctypes

    obj = folder / f"{tag}.o"
    obj.write_bytes(library.serialize_using_object_code()[2][0])
    table = subprocess.run(["objdump", "-t", str(obj)], capture_output=True, text=True).stdout
    sizes = {}
    for line in table.splitlines():
        parts = line.split()
        if " F " in line and len(parts) >= 6:
            sizes[parts[-1]] = int(parts[-2], 16)
    with open(folder / f"{tag}.syms", "w") as out:
        for name in _DEFINE.findall(library.get_llvm_str()):
            try:
                address = library.get_pointer_to_function(name)
            except Exception:  # declared in the library, defined elsewhere
                continue
            out.write(f"{name} {address}\n")
            if address and sizes.get(name):
                (folder / f"{address:x}.bin").write_bytes(ctypes.string_at(address, sizes[name]))


def child(player: str, seconds: float, folder: Path) -> None:
    """Compile the engine and the player's callback afresh, keep their code, play hands."""
    import functools
    import importlib

    import numba
    from numba import cfunc, types

    import sim.engine.driver as driver
    import sim.engine.strategies.addresses as addresses
    import sim.jit
    from sim.engine import play_hands
    from sim.engine.strategies.hook import SIG
    from sim.rules import load_rules

    engine = cfunc(types.void(types.voidptr), error_model="numpy", _nrt=False)(
        driver.play_block_entry
    )
    _keep(engine._library, folder, "engine")
    sim.jit.entry_address = lambda module, name: engine.address  # type: ignore[assignment]

    @functools.cache
    def player_address(strategy: int) -> int:
        module, name = addresses.ENTRIES[addresses.SHARED.get(strategy, strategy)]
        entry = getattr(importlib.import_module(module), name)
        compiled = cfunc(SIG, error_model="numpy")(entry)
        _keep(compiled._library, folder, f"player{strategy}")
        return int(compiled.address)

    addresses.player_address = player_address  # type: ignore[assignment]
    numba.set_num_threads(1)
    rules = load_rules("classic")
    play_hands(rules, 200, 1, [player])
    (folder / "ready").write_text(str(os.getpid()))
    start, k = time.time(), 0
    while time.time() - start < seconds:
        play_hands(rules, 1 << 14, 2 + k, [player])
        k += 1


def child_par(seconds: float, folder: Path) -> None:
    """Compile the open-card solver afresh, keep its code, solve the par of classic items."""
    from sim.engine import par, search
    from sim.rules import load_rules
    from sim.runs.declarer import declarer_deals, par_levels

    rules = load_rules("classic")
    masks, decls = declarer_deals(2000, 0, 3)
    par_levels(rules, masks[:3], decls[:3])
    for module in (par, search):
        for name in dir(module):
            overloads = getattr(getattr(module, name), "overloads", None)
            for k, cres in enumerate((overloads or {}).values()):
                _keep(cres.library, folder, f"{name}{k}")
    (folder / "ready").write_text(str(os.getpid()))
    start, k = time.time(), 3
    while time.time() - start < seconds:
        par_levels(rules, masks[k : k + 30], decls[k : k + 30])
        k = (k + 30) % (masks.shape[0] - 30)


def _functions(folder: Path) -> list[tuple[str, str, int, int, int, str]]:
    """``(object, name, address, offset in its section, size, section)`` of every function
    kept."""
    out, seen = [], set()  # a function linked into several libraries: counted once
    for syms in sorted(folder.glob("*.syms")):
        obj = syms.with_suffix(".o")
        table = subprocess.run(["objdump", "-t", str(obj)], capture_output=True, text=True).stdout
        where = {}
        for line in table.splitlines():
            parts = line.split()
            if " F " in line and len(parts) >= 6:
                where[parts[-1]] = (int(parts[0], 16), int(parts[-2], 16), parts[-3])
        for line in syms.read_text().splitlines():
            name, address = line.split()
            if name in where and (name, address) not in seen:
                seen.add((name, address))
                out.append((obj.name, name, int(address), *where[name]))
    return out


Hits = dict[tuple[str, str], tuple[collections.Counter[int], int, int, str]]


def _hits(folder: Path) -> tuple[int, Hits]:
    """The samples in ``folder``: how many, and by ``(object, function)`` the sampled offsets
    in its section (counted), with its load address, its offset and its section."""
    ips = [
        int(x, 16)
        for x in subprocess.run(
            ["perf", "script", "-i", str(folder / "perf.data"), "-F", "ip"],
            capture_output=True,
            text=True,
        ).stdout.split()
    ]
    hits: Hits = {}
    for obj, name, address, offset, size, section in _functions(folder):
        inside = collections.Counter(
            i - address + offset for i in ips if address <= i < address + size
        )
        if inside:
            hits[(obj, name)] = (inside, address, offset, section)
    return len(ips), hits


def report(folder: Path, top: int) -> None:
    """Print the hottest functions, regions and instructions of the samples in ``folder``."""
    total, found = _hits(folder)
    hits = {key: c for key, (c, *_rest) in found.items()}
    print(f"{total:,} samples; in compiled code {sum(sum(c.values()) for c in hits.values()):,}")
    ranked = sorted(hits.items(), key=lambda kv: -sum(kv[1].values()))
    for (obj, name), c in ranked[:6]:
        print(f"{100 * sum(c.values()) / total:5.1f} %  {obj}  {name[:100]}")
    for (obj, name), c in ranked[:2]:
        _c, address, offset, _section = found[(obj, name)]
        loaded = folder / f"{address:x}.bin"  # the code as loaded, at its own addresses
        listing = subprocess.run(
            ["objdump", "-D", "--no-show-raw-insn", "-b", "binary", "-m", "i386:x86-64",
             f"--adjust-vma={offset:#x}", str(loaded)],
            capture_output=True,
            text=True,
        ).stdout if loaded.exists() else ""  # fmt: skip
        code = {}
        for line in listing.splitlines():
            m = re.match(r"\s+([0-9a-f]+):\s+(.*)", line)
            if m:
                code[int(m.group(1), 16)] = re.sub(r"<[^>]*\+(0x[0-9a-f]+)>", r"<\1>", m.group(2))
        regions: collections.Counter[int] = collections.Counter()
        for off, n in c.items():
            regions[off // 256 * 256] += n
        print(f"\n{name[:100]}: the hottest 256-byte regions, and their hottest instructions")
        for start, n in regions.most_common(top):
            print(f"  {start:#07x}  {100 * n / total:5.1f} %")
            inside = sorted(((c[o], o) for o in c if start <= o < start + 256), reverse=True)[:3]
            for count, off in inside:
                print(f"      {count:6d}  {off:#07x}  {code.get(off, '?')}")


def _inline_chains(obj: Path, section: str, offsets: list[int]) -> dict[int, list[tuple[str, str]]]:
    """``offset -> [(function, file:line), ...]``, innermost first, by ``addr2line -i``.

    addr2line prints one frame per line pair and no separator between addresses, so
    each address is followed by a sentinel (address 0 of an empty range) to split them.
    """
    marker = "0x0"
    text = "".join(f"{o:#x}\n{marker}\n" for o in offsets)
    out = subprocess.run(
        ["addr2line", "-i", "-f", "-j", section, "-e", str(obj)],
        input=text, capture_output=True, text=True,
    ).stdout.splitlines()  # fmt: skip
    chains: dict[int, list[tuple[str, str]]] = {}
    frames = list(zip(out[0::2], out[1::2], strict=False))
    k = 0
    sentinel = frames[-1] if frames else ("", "")  # the marker's own frame, whatever it is
    for o in offsets:
        chain = []
        while k < len(frames) and frames[k] != sentinel:
            chain.append(frames[k])
            k += 1
        k += 1  # the sentinel
        chains[o] = chain
    return chains


def _short(function: str, where: str) -> tuple[str, str]:
    """A mangled numba name as ``module.function``, and a path from the package or library."""
    m = re.search(r"_ZN((?:\d+[A-Za-z_][A-Za-z0-9_]*)+)", function)
    if m:
        parts, rest = [], m.group(1)
        while rest and rest[0].isdigit():
            n = int(re.match(r"\d+", rest).group(0))  # type: ignore[union-attr]
            digits = len(str(n))
            parts.append(rest[digits : digits + n])
            rest = rest[digits + n :]
        function = ".".join(p for p in parts if not p.startswith("B") or not p[1:].isdigit())
    where = where.split(" ")[0]
    where = re.sub(r"^.*?/site-packages/", "", re.sub(r"^.*?/(sim|benchmarks)/", r"\1/", where))
    return function, where


def report_lines(folder: Path, top: int) -> None:
    """Print the hottest source lines and inlined functions of the samples in ``folder``."""
    total, hits = _hits(folder)
    lines: collections.Counter[tuple[str, str]] = collections.Counter()  # (line, callers)
    functions: collections.Counter[str] = collections.Counter()
    placed = 0
    for (obj, name), (inside, _address, _offset, section) in hits.items():
        chains = _inline_chains(folder / obj, section, sorted(inside))
        for off, n in inside.items():
            chain = [_short(f, w) for f, w in chains.get(off, [])] or [_short(name, "?")]
            placed += n
            callers = " < ".join(w for _, w in chain[1:3])
            lines[(chain[0][1], f"{chain[0][0]}" + (f"  (< {callers})" if callers else ""))] += n
            for f in {f for f, _ in chain}:
                functions[f] += n
    print(f"{total:,} samples; placed in the sources {placed:,}")
    print("\nthe hottest source lines (innermost; the inlined callers after <)")
    for (where, what), n in lines.most_common(3 * top):
        print(f"  {100 * n / total:5.1f} %  {where:<36} {what[:110]}")
    print("\nthe hottest functions, inlined ones included (a sample counts once per function)")
    for f, n in functions.most_common(2 * top):
        print(f"  {100 * n / total:5.1f} %  {f[:110]}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--player", default="heuristic")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--top", type=int, default=12, help="regions to show")
    ap.add_argument("--keep", type=Path, help="copy the samples and the code into this folder")
    ap.add_argument("--lines", action="store_true", help="by source line (DWARF; addr2line)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        if args.player == "par":
            child_par(args.seconds + 20, Path(args.child))
        else:
            child(args.player, args.seconds + 20, Path(args.child))
        return
    for tool in ("perf", "objdump", *(("addr2line",) if args.lines else ())):
        if shutil.which(tool) is None:
            print(f"profile_compiled: {tool} is not installed", file=sys.stderr)
            sys.exit(2)
    with tempfile.TemporaryDirectory(prefix="profile-") as tmp:
        folder = Path(tmp)
        env = {**os.environ, "NUMBA_CACHE_DIR": str(folder / "cache")}
        if args.lines:
            env["NUMBA_DEBUGINFO"] = "1"
        cmd = [sys.executable, __file__, "--child", tmp, "--player", args.player,
               "--seconds", str(args.seconds)]  # fmt: skip
        proc = subprocess.Popen(cmd, env=env)
        while not (folder / "ready").exists():
            if proc.poll() is not None:
                sys.exit(f"profile_compiled: the player's process ended ({proc.returncode})")
            time.sleep(1)
        pid = (folder / "ready").read_text()
        subprocess.run(
            ["perf", "record", "-q", "-e", "cpu-clock", "-F", "4999", "-p", pid,
             "-o", str(folder / "perf.data"), "--", "sleep", str(args.seconds)],
            check=True,
        )  # fmt: skip
        proc.kill()
        proc.wait()
        what = "the par of classic items" if args.player == "par" else "classic deals"
        print(f"{args.player}, one thread, {what}")
        if args.lines:
            report_lines(folder, args.top)
        else:
            report(folder, args.top)
        if args.keep:  # the samples, the object code and the loaded code (NAME.bin)
            shutil.copytree(folder, args.keep, dirs_exist_ok=True, ignore=lambda d, n: ["cache"])


if __name__ == "__main__":
    main()

"""Files a user names that are not UTF-8 text, or larger than they may be (issue 64).

A rules file, a deal file or a run folder's ``run.json`` that is not UTF-8 text, or
holds more than its kind may (:mod:`sim.reading`: 1 MiB, a deal file 64 MiB), is
one line on stderr naming the file and exit code 2, whichever command reads it:
never a traceback, never an output folder. At most the bound and one byte more is
read, so a device that never ends (``/dev/zero``) is refused at once. The plan an
interrupted run left is refused on ``--resume`` the same way.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.batch.runner import MANIFEST, PartStore
from sim.reading import DEALS_MOST, MIB, TEXT_MOST, TooLarge, read_text

NOT_UTF8 = b'base = "classic"\n# caf\xe9\n'  # Latin-1, as an old editor saves it
HAND = "AH TH KH QH AS 9C JD"
DEAL = """\
[Rules "{rules}"]
[Dealer "0"]
[Deal "9S TS JC QC QD KD 9H / KS KC JD TD JH KH TH / QS AS TC AC 9D QH AH / JS 9C AD"]
"""


@pytest.fixture
def latin1(tmp_path: Path) -> Path:
    """A rules file that is not UTF-8 text."""
    path = tmp_path / "r.toml"
    path.write_bytes(NOT_UTF8)
    return path


def _refused(result, line: str) -> None:
    """The command refused in exactly ``line`` (stderr), exit code 2, nothing on stdout."""
    assert (result.returncode, result.stdout, result.stderr) == (2, "", line + "\n")


@pytest.mark.parametrize(
    "args",
    [
        ["rules", "show", "{rules}"],
        ["odds", "--rules", "{rules}", "--deals", "10"],
        ["hands", "--rules", "{rules}", "--deals", "10", "--out", "{out}"],
        ["games", "--rules", "{rules}", "--games", "2", "--out", "{out}"],
        ["advise", HAND, "--rules", "{rules}"],
        ["solve", "--deal-file", "{deal}"],  # the deal's own Rules tag names the file
    ],
    ids=lambda args: args[0],
)
def test_a_rules_file_not_in_utf8_is_one_line_naming_it(thousand, latin1, tmp_path, args):
    deal = tmp_path / "d.tdn"
    deal.write_text(DEAL.format(rules=latin1), encoding="utf-8")
    out = tmp_path / "out"
    filled = [a.format(rules=latin1, out=out, deal=deal) for a in args]
    why = f"rules file '{latin1}': cannot read (not UTF-8 text)"
    _refused(thousand(*filled), f"thousand {args[0]}: error: {why}")
    assert not out.exists()


def test_a_rules_file_may_hold_1_mib_and_no_more(thousand, tmp_path):
    path = tmp_path / "big.toml"
    head = b'base = "classic"\n#'
    path.write_bytes(head + b"x" * (TEXT_MOST - len(head) - 1) + b"\n")
    assert thousand("rules", "show", str(path)).returncode == 0
    with path.open("ab") as fh:
        fh.write(b"\n")
    why = f"rules file '{path}': cannot read (larger than 1 MiB)"
    _refused(thousand("rules", "show", str(path)), f"thousand rules: error: {why}")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_show_reads_no_more_of_a_file_than_a_deal_file_may_hold(thousand):
    """``show /dev/zero`` read until memory ran out; now it stops past 64 MiB."""
    _refused(
        thousand("show", "/dev/zero"),
        "thousand show: error: /dev/zero: cannot be read (larger than 64 MiB)",
    )
    ru = thousand("show", "/dev/zero", "--lang", "ru")
    assert ru.returncode == 2 and ru.stderr.endswith("(больше 64 МиБ)\n"), ru.stderr
    with pytest.raises(TooLarge):
        read_text("/dev/zero", 10)


def test_a_deal_file_too_large_is_refused_by_every_reader(thousand, tmp_path, monkeypatch):
    """The deal readers (``show``, ``solve`` and ``advise --deal-file``), with the bound
    lowered to 1 MiB here rather than a file of 64 MiB written."""
    monkeypatch.setattr("sim.jobs.show.DEALS_MOST", MIB)
    assert DEALS_MOST == 64 * MIB
    path = tmp_path / "big.tdn"
    text = DEAL.format(rules="classic")
    path.write_text(text + ";" * (MIB - len(text)), encoding="utf-8")  # a comment line
    assert thousand("show", str(path)).returncode == 0
    with path.open("a", encoding="utf-8") as fh:
        fh.write(";")
    why = f"{path}: cannot be read (larger than 1 MiB)"
    for args in (["show", str(path)], ["solve", "--deal-file", str(path)],
                 ["advise", "--deal-file", str(path)]):  # fmt: skip
        _refused(thousand(*args), f"thousand {args[0]}: error: {why}")


def test_a_deal_file_not_in_utf8_is_refused_by_every_reader(thousand, tmp_path):
    path = tmp_path / "d.tdn"
    path.write_bytes(DEAL.format(rules="classic").encode() + "; café\n".encode("latin-1"))
    why = f"{path}: cannot be read (not UTF-8 text)"
    for args in (["show", str(path)], ["solve", "--deal-file", str(path)],
                 ["advise", "--deal-file", str(path)]):  # fmt: skip
        _refused(thousand(*args), f"thousand {args[0]}: error: {why}")


def test_a_run_json_not_in_utf8_or_too_large_is_one_line(thousand, tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / "run.json").write_bytes(b'{"command": "hands", "note": "caf\xe9"}')
    _refused(
        thousand("solve", "--run", str(run), "--deal", "0"),
        f"thousand solve: error: --run {run}: no readable run.json (not UTF-8 text)",
    )
    _refused(
        thousand("bids", str(run)),
        f"thousand bids: error: {run / 'run.json'}: not a readable JSON document",
    )
    (run / "run.json").write_text(json.dumps({"pad": " " * TEXT_MOST}), encoding="utf-8")
    _refused(
        thousand("solve", "--run", str(run), "--deal", "0"),
        f"thousand solve: error: --run {run}: no readable run.json (larger than 1 MiB)",
    )
    _refused(
        thousand("barrel", str(run)),
        f"thousand barrel: error: {run / 'run.json'}: not a readable JSON document",
    )


def test_read_text_reads_up_to_its_bound(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("ё" * 8, encoding="utf-8")  # 16 bytes
    assert read_text(path, 16) == "ё" * 8
    with pytest.raises(TooLarge) as exc:
        read_text(path, 15)
    assert exc.value.most == 15 and isinstance(exc.value, OSError)
    path.write_bytes(b"\xff")
    with pytest.raises(UnicodeDecodeError):
        read_text(path, 16)


def test_a_garbled_partial_folder_is_refused_on_resume_or_its_chunks_redone(thousand, tmp_path):
    """The files an interrupted run leaves (``.OUT.partial/``): a plan that is not
    UTF-8 is refused in one line saying how to start over; manifest lines that are
    not UTF-8 or not an entry count as chunks not done."""
    out, partial = tmp_path / "res", tmp_path / ".res.partial"
    partial.mkdir()
    (partial / "plan.json").write_bytes(b'{"seed": "caf\xe9"}')
    plan = partial / "plan.json"
    _refused(
        thousand("hands", "--deals", "10", "--out", str(out), "--resume"),
        f"thousand hands: error: --resume: the plan of the interrupted run of --out {out} "
        f"cannot be read ({plan}: not UTF-8 text); --force instead of --resume starts the "
        "run over",
    )
    assert not out.exists()
    (partial / MANIFEST).write_bytes(b'\xff\xfe{"chunk": 0}\n5\n{"chunk": 1}\n{"parts": 7}\n')
    assert PartStore(partial).done() == {}

"""The game's own languages: gettext catalogues, the card notation and the game's terms.

Every user-facing string of a translated surface is written in English and marked
with :func:`_` (``_("Auction so far: {auction}")``, formatted after translation, so
a translation may reorder its fields); a message whose words must agree with the seat
it is about (a past tense: вторая рука спасовала, сдающий спасовал) is marked with
:func:`seat_` and translated once per seat (the seat is its ``msgctxt``). The
translations live in the standard gettext catalogues
``sim/locale/LANG/LC_MESSAGES/thousand.po`` (Russian ``ru``, Ukrainian ``uk``, Polish
``pl``), compiled to ``.mo`` files that ship with the package; ``python -m sim.i18n``
(``make locale``) extracts the marked strings into ``sim/locale/thousand.pot``, merges
them into every ``.po`` and compiles the ``.mo`` files. A test fails on a marked
string without a translation, on a catalogue behind the sources and on a game term
translated two ways (:data:`TERMS`). The command line's help texts are marked too and
translated as its parser is built, once the language is known (``thousand --lang ru
odds --help``).

The language is :func:`set_language`'s (the ``--lang`` flag), else ``$THOUSAND_LANG``,
else the locale's (``$LC_ALL``, ``$LC_MESSAGES``, ``$LANG``), else English. Cards are
written in the language's own notation (:func:`card_text`): ``Т♥ 10♥ К♥ Д♥ В♥ 9♥`` in
Russian and Ukrainian, ``A♥ 10♥ K♥ D♥ W♥ 9♥`` in Polish.
"""

from __future__ import annotations

import array
import ast
import gettext
import os
import re
import struct
import sys
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from sim.marks import N_ as N_  # the marker, where the languages are imported

LANGS = ("en", "ru", "uk", "pl")
"""The languages: English (the sources'), Russian, Ukrainian, Polish."""
DOMAIN = "thousand"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
ROOT = Path(__file__).resolve().parents[1]

# The modules whose user-facing strings are marked (extracted into the catalogues):
# the worded views (pages, reports, sentences), the analysis' refusals, the jobs, the
# command line and this module.
SOURCE_GLOBS = (
    "analysis/*.py", "views/*.py", "views/sections/*.py", "sim/jobs/*.py", "sim/cli/*.py",
    # the modules below the jobs whose messages users meet (bad input, the compile notice)
    "sim/cards.py", "sim/rules.py", "sim/output.py", "sim/reading.py", "sim/notation.py",
    "sim/table_text.py", "sim/reference/replay.py",
    "sim/option_words.py",  # the house-rule options in words (names and values)
    "sim/batch/*.py", "sim/runs/*.py", "sim/engine/strategies/registry.py", "sim/players.py",
    "sim/web/*.py",  # the local web page's refusals (thousand serve)
)  # fmt: skip


def sources() -> list[str]:
    """The files :func:`extract` reads, relative to the repository, in a fixed order."""
    found = sorted({str(p.relative_to(ROOT)) for g in SOURCE_GLOBS for p in ROOT.glob(g)})
    return [*found, "sim/i18n.py"]


# The game's own words, checked against the rule sources' wording (Russian and
# Ukrainian texts of the rules; the Polish of Polish tysiąc tables). A marked string
# holding the English word must hold the language's one (any ending) in translation.
TERMS: dict[str, dict[str, str]] = {
    "marriage": {"ru": "марьяж", "uk": "мар'яж", "pl": "meldun"},
    "talon": {"ru": "прикуп", "uk": "прикуп", "pl": "musik"},
    "trump": {"ru": "козыр", "uk": "козир", "pl": "atu"},
    "trick": {"ru": "взятк", "uk": "хабар", "pl": "lew"},
    "auction": {"ru": "торговл", "uk": "торг", "pl": "licytacj"},
    "dealer": {"ru": "сдающ", "uk": "роздаюч", "pl": "rozdając"},
    "declarer": {"ru": "игра", "uk": "гра", "pl": "rozgrywając"},
    "contract": {"ru": "заказ", "uk": "замовлен", "pl": "kontrak"},
    "concede": {"ru": "распис", "uk": "розпис", "pl": "bomb"},
    "pass": {"ru": "пас", "uk": "пас", "pl": "pas"},
    "barrel": {"ru": "бочк", "uk": "боч", "pl": "becz"},
    "bolt": {"ru": "болт", "uk": "болт", "pl": "zer"},
    "golden": {"ru": "золот", "uk": "золот", "pl": "złot"},
    "dark": {"ru": "тёмн", "uk": "темн", "pl": "ciemn"},
    "samosval": {"ru": "самосвал", "uk": "самоскид", "pl": "wywrot"},
}

_RANKS = {
    "en": ("9", "J", "Q", "K", "10", "A"),
    "ru": ("9", "В", "Д", "К", "10", "Т"),
    "uk": ("9", "В", "Д", "К", "10", "Т"),
    "pl": ("9", "W", "D", "K", "10", "A"),
}
_SUITS = "♠♣♦♥"
_LETTERS = ("9JQKTA", "SCDH")  # the traces' letters (sim.cards.cards_str), ranks and suits
_current: str | None = None
# a language set for one thread only (speaking_here): a server answers each request
# in its own language while another thread answers another
_thread = threading.local()


class LanguageError(ValueError):
    """A language the toolkit does not speak; the message names it and lists them."""


def _from_locale(value: str | None) -> str | None:
    """``ru`` of ``ru_RU.UTF-8``, when it is one of :data:`LANGS`."""
    if not value:
        return None
    code = value.split(".")[0].split("_")[0].lower()
    return code if code in LANGS else None


def language() -> str:
    """The language user-facing text is written in now (see the module doc).

    Inside :func:`speaking_here` the thread's own language comes first.
    """
    here: str | None = getattr(_thread, "lang", None)
    if here is not None:
        return here
    if _current is not None:
        return _current
    env = os.environ.get("THOUSAND_LANG")
    if env:
        return check_language(env, "$THOUSAND_LANG")
    for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
        found = _from_locale(os.environ.get(key))
        if found:
            return found
    return "en"


def check_language(lang: str, source: str = "--lang") -> str:
    """``lang`` if the toolkit speaks it (``source`` names where it came from).

    Raises:
        LanguageError: naming it and every language there is.
    """
    code = lang.strip().lower()
    if code not in LANGS:
        raise LanguageError(f"{source} {lang}: one of {', '.join(LANGS)}")
    return code


def set_language(lang: str | None) -> str:
    """Write user-facing text in ``lang`` from now on (None: the environment's); the code."""
    global _current
    _current = None if lang is None else check_language(lang)
    return language()


@contextmanager
def speaking(lang: str | None) -> Iterator[str]:
    """Write user-facing text in ``lang`` inside the block, then in the language spoken before it.

    In a thread speaking its own language (:func:`speaking_here`) the block changes
    that thread's language only.
    """
    global _current
    if getattr(_thread, "lang", None) is not None:
        with speaking_here(lang or language()) as code:
            yield code
        return
    before = _current
    try:
        yield set_language(lang)
    finally:
        _current = before


@contextmanager
def speaking_here(lang: str) -> Iterator[str]:
    """Write user-facing text in ``lang`` inside the block, in this thread only.

    :func:`speaking` sets the process's language: two threads answering in two
    languages at once (``thousand serve``'s request threads) would write in each
    other's. This one leaves the other threads as they were.
    """
    before = getattr(_thread, "lang", None)
    _thread.lang = check_language(lang)
    try:
        yield _thread.lang
    finally:
        _thread.lang = before


@cache
def catalogue(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``lang`` (English: the strings as written)."""
    if lang == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, os.environ.get("THOUSAND_LOCALE_DIR") or LOCALE_DIR, [lang])


def _(message: str) -> str:
    """``message`` in the current language (format its fields after this call)."""
    return catalogue(language()).gettext(message)


def n_(singular: str, plural: str, n: int) -> str:
    """``singular`` or ``plural`` in the current language, in the form its grammar gives ``n``.

    The catalogues hold every form a language has (Russian and Ukrainian three: 1, 2-4,
    5-20 ... as :data:`PLURAL_FORMS` says; Polish three; English two), so that "{n}
    deals" reads "21 раздача", "22 раздачи", "25 раздач". Format ``{n}`` after this call.
    ``n`` is a whole count: a decimal quantity takes no count's form but the genitive
    singular ("66,4 очка", "34,27 раздачи", "0,50 punktu"), which a plain message writes
    (tests/test_i18n_outputs.py checks the answers for it).
    """
    return catalogue(language()).ngettext(singular, plural, n)


def card_text(card: int, lang: str | None = None) -> str:
    """One card in the language's notation: rank then suit symbol (``Т♥``, ``10♦``)."""
    ranks = _RANKS[lang or language()]
    return ranks[card % 6] + _SUITS[card // 6]


def cards_text(cards: Iterable[int], lang: str | None = None) -> str:
    """Cards in the language's notation, space-separated."""
    return " ".join(card_text(c, lang) for c in cards)


def answer_cards(cards: Iterable[int]) -> str:
    """Cards as a text answer writes them.

    ``AH TD`` in English (the traces' letters, as the English answers always wrote
    them), the language's notation otherwise.
    """
    ids = list(cards)
    if language() == "en":
        return " ".join(_LETTERS[0][c % 6] + _LETTERS[1][c // 6] for c in ids)
    return cards_text(ids)


# (thousands separator, decimal mark, the least number grouped) of each language, as
# the Unicode CLDR writes them (and the browser's toLocaleString, thousand serve's page):
# 4,084.5 in English; 4 084,5 in Russian and Ukrainian (a no-break space); 4084,5 but
# 12 345,5 in Polish, which groups from five digits on
_SEPARATORS = {
    "en": (",", ".", 1_000),
    "ru": ("\u00a0", ",", 1_000),
    "uk": ("\u00a0", ",", 1_000),
    "pl": ("\u00a0", ",", 10_000),
}


def number(value: float, places: int = 0) -> str:
    """``value`` with ``places`` decimals as the current language writes numbers.

    ``4,084.5`` in English; ``4 084,5`` (a no-break space) in Russian and Ukrainian;
    ``4084,5`` and ``12 345,5`` in Polish, which groups only from 10 000 on.
    """
    text = f"{value:,.{places}f}"
    group, point, least = _SEPARATORS[language()]
    if point == ".":
        return text
    if abs(value) < least:
        text = text.replace(",", "")
    return text.replace(",", "\0").replace(".", point).replace("\0", group)


def interval_separator() -> str:
    """What separates an interval's ends.

    ``[0.12, 0.15]``, or ``[0,12; 0,15]`` where the decimal mark is a comma.
    """
    return ", " if _SEPARATORS[language()][1] == "." else "; "


ROLES = {
    "forehand": N_("forehand"),
    "middle": N_("middle"),
    "rear": N_("rear"),
    "dealer": N_("dealer"),
    "pass": N_("pass"),
}
"""The seats' roles (and a pass) as the commands name them, to translate."""


SEATS = ("forehand", "middle", "rear", "dealer")
"""The seats' roles: :func:`seat_` has a translation of its message for each."""

# Other names players give a role, besides the catalogues' (any case): the dealer is
# сдающий or раздающий in Russian, роздаючий, роздавач, здаючий or здавач in Ukrainian,
# rozdający or rozdawca in Polish, and дилер in both
ROLE_WORDS = {
    "dealer": ("раздающий", "сдатчик", "дилер", "роздавач", "здаючий", "здавач", "rozdawca"),
}


def role(word: str) -> str:
    """A seat's role (``forehand`` ...) or ``pass`` in the current language (else as is)."""
    return _(ROLES[word]) if word in ROLES else word


def role_of(text: str) -> str | None:
    """The role (or ``pass``) that ``text`` names in any language; None: none.

    What the commands print is what they read: ``сдающий``, ``rozdający``,
    ``первая рука`` and ``pas`` as well as ``dealer``, ``forehand`` and ``pass``
    (case and spacing aside), and the other names players give a role
    (:data:`ROLE_WORDS`: ``роздавач``, ``здаючий``, ``дилер`` ...).
    """
    key = " ".join(text.lower().split())
    for word, message in ROLES.items():
        if key == word or any(key == catalogue(lang).gettext(message).lower() for lang in LANGS):
            return word
        if key in ROLE_WORDS.get(word, ()):
            return word
    return None


def seat_(seat: str, message: str) -> str:
    """``message`` in the current language, its words agreeing with the seat ``seat``.

    A past tense or a pronoun takes the grammatical gender of the seat it is about in
    Russian, Ukrainian and Polish: вторая рука спасовала but сдающий спасовал, druga
    ręka spasowała but rozdający spasował. The catalogues hold a translation of such a
    message for each role of :data:`SEATS` (the role is its context, ``msgctxt``);
    ``seat`` is the role (``middle``). Format the fields after this call.
    """
    cat = catalogue(language())
    if seat in SEATS:
        text = cat.pgettext(seat, message)
        if text != message:
            return text
    return cat.gettext(message)


def rank_text(rank: int, lang: str | None = None) -> str:
    """A rank (0 nine .. 5 ace) in the language's notation."""
    return _RANKS[lang or language()][rank]


# --- the catalogues ----------------------------------------------------------------------
def extract(paths: Sequence[str | Path] | None = None) -> list[str]:
    r"""Every string marked ``_("...")``, ``N_("...")`` or ``n_("...", "...", n)`` in ``paths``.

    The literal template of a refusal given with its fields,
    ``UsageError("{path}: not found", path=path)``, is marked too (it is translated
    when it is shown).

    (Default: :func:`sources`.) A plural message is its two English forms joined by a
    NUL, ``"{n} deal\0{n} deals"``, as the ``.mo`` format keys it; a message of
    ``seat_(seat, "...")`` is one message for each role of :data:`SEATS`, keyed by the
    role, an EOT and the message (``"dealer\x04passed"``), as the ``.mo`` format keys a
    message with its context.
    """
    found: list[str] = []
    for path in sources() if paths is None else paths:
        tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            # the leading string constants: the message (and its plural)
            texts: list[str] = []
            for a in node.args:
                if not (isinstance(a, ast.Constant) and isinstance(a.value, str)):
                    break
                texts.append(a.value)
            keys: list[str] = []
            # a refusal's English template with its fields (sim.output.UsageError),
            # translated when shown
            deferred = node.func.id == "UsageError" and bool(node.keywords)
            if (node.func.id in ("_", "N_") or deferred) and texts:
                keys = [texts[0]]
            elif node.func.id == "n_" and len(texts) >= 2:
                keys = [f"{texts[0]}\0{texts[1]}"]
            elif node.func.id == "seat_" and len(node.args) == 2:
                said = node.args[1]
                if isinstance(said, ast.Constant) and isinstance(said.value, str):
                    keys = [f"{seat}\x04{said.value}" for seat in SEATS]
            found += [k for k in keys if k not in found]
    return found


PLURAL_FORMS = {
    "ru": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
    "(n%100<10 || n%100>=20) ? 1 : 2);",
    "uk": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
    "(n%100<10 || n%100>=20) ? 1 : 2);",
    "pl": "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
}
"""Each catalogue's plural rule (its ``Plural-Forms`` header, GNU gettext's standard ones)."""


def plural_count(lang: str) -> int:
    """How many forms a plural message has in ``lang``."""
    return int(PLURAL_FORMS[lang].split(";")[0].split("=")[1]) if lang in PLURAL_FORMS else 2


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _unquote(text: str) -> str:
    body = text.strip()[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def read_po(path: Path) -> dict[str, str]:
    r"""``{msgid: msgstr}`` of a ``.po`` file (the header entry, ``""``, included).

    A plural message is keyed ``msgid\0msgid_plural``, its forms joined by NULs
    (empty when any form is missing), a message with a context (``msgctxt``)
    ``msgctxt\x04msgid``, as :func:`extract` and the ``.mo`` format key them.
    """
    entries: dict[str, str] = {}
    parts: dict[str, str] = {}  # "ctx", "id", "plural", "0", "1", ...: the entry being read
    field = ""

    def close() -> None:
        if "id" not in parts:
            return
        context = parts["ctx"] + "\x04" if "ctx" in parts else ""
        if "plural" in parts:
            forms = [parts[k] for k in sorted((k for k in parts if k.isdigit()), key=int)]
            key = f"{context}{parts['id']}\0{parts['plural']}"
            entries[key] = "\0".join(forms) if forms and all(forms) else ""
        else:
            entries[context + parts["id"]] = parts.get("str", "")

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("msgctxt "):
            close()
            parts, field = {"ctx": _unquote(line[8:])}, "ctx"
        elif line.startswith("msgid "):
            if "id" in parts:
                close()
                parts = {}
            parts["id"], field = _unquote(line[6:]), "id"
        elif line.startswith("msgid_plural "):
            parts["plural"], field = _unquote(line[13:]), "plural"
        elif line.startswith("msgstr["):
            index, rest = line[7:].split("]", 1)
            parts[index], field = _unquote(rest.strip()), index
        elif line.startswith("msgstr "):
            parts["str"], field = _unquote(line[7:]), "str"
        elif line.startswith('"') and field:
            parts[field] += _unquote(line)
    close()
    return entries


def format_po(entries: dict[str, str], header: str, forms: int = 2) -> str:
    r"""A ``.po`` (or, with empty translations, ``.pot``) file of ``entries``.

    A plural message (keyed ``singular\0plural``) gets ``msgid_plural`` and ``forms``
    ``msgstr[k]`` lines, a message with a context (keyed ``context\x04msgid``) its
    ``msgctxt`` line.
    """
    out = ['msgid ""', f"msgstr {_quote(header)}", ""]
    for key, msgstr in entries.items():
        if not key:
            continue
        context, _eot, msgid = key.rpartition("\x04")
        if _eot:
            out.append(f"msgctxt {_quote(context)}")
        if "\0" in msgid:
            one, many = msgid.split("\0", 1)
            have = msgstr.split("\0") if msgstr else []
            out += [f"msgid {_quote(one)}", f"msgid_plural {_quote(many)}"]
            out += [f"msgstr[{k}] {_quote(have[k] if k < len(have) else '')}" for k in range(forms)]
            out.append("")
        else:
            out += [f"msgid {_quote(msgid)}", f"msgstr {_quote(msgstr)}", ""]
    return "\n".join(out)


def compile_mo(entries: dict[str, str]) -> bytes:
    """The binary ``.mo`` catalogue of ``entries`` (what GNU ``msgfmt`` writes)."""
    keys = sorted(k for k, v in entries.items() if v or not k)
    ids = strs = b""
    offsets = []
    for k in keys:
        kb, vb = k.encode("utf-8"), entries[k].encode("utf-8")
        offsets.append((len(ids), len(kb), len(strs), len(vb)))
        ids += kb + b"\0"
        strs += vb + b"\0"
    keystart = 7 * 4 + 16 * len(keys)
    valuestart = keystart + len(ids)
    table: list[int] = []
    for o1, l1, _o2, _l2 in offsets:
        table += [l1, o1 + keystart]
    for _o1, _l1, o2, l2 in offsets:
        table += [l2, o2 + valuestart]
    head = struct.pack("Iiiiiii", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + len(keys) * 8, 0, 0)
    return head + array.array("i", table).tobytes() + ids + strs


HEADER = "Content-Type: text/plain; charset=UTF-8\nLanguage: {lang}\n"


def header(lang: str) -> str:
    """The header entry of ``lang``'s catalogue, its plural rule included."""
    text = HEADER.format(lang=lang)
    return text + (f"Plural-Forms: {PLURAL_FORMS[lang]}\n" if lang in PLURAL_FORMS else "")


def update(
    write: bool = True,
    translations: Mapping[str, Mapping[str, str]] | None = None,
    locale_dir: Path = LOCALE_DIR,
) -> dict[str, list[str]]:
    """Extract the marked strings, merge them into every catalogue, compile the ``.mo`` files.

    Args:
        write: write the ``.pot``, ``.po`` and ``.mo`` files (False: only report).
        translations: ``{msgid: {lang: msgstr}}`` to merge in (a translator's JSON file);
            they replace the catalogues' translations of those strings.
        locale_dir: where to write the catalogues; the package's ``.po`` files are read
            either way (another folder previews translations: ``$THOUSAND_LOCALE_DIR``).

    Returns:
        ``{lang: [msgid, ...]}`` of the strings each catalogue has no translation of.
    """
    messages = extract()
    missing: dict[str, list[str]] = {}
    if write:
        locale_dir.mkdir(parents=True, exist_ok=True)
        pot = format_po(dict.fromkeys(messages, ""), HEADER.format(lang=""))
        (locale_dir / f"{DOMAIN}.pot").write_text(pot + "\n", encoding="utf-8")
    for lang in LANGS[1:]:
        po = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
        old = read_po(po) if po.exists() else {}
        for msgid, by_lang in (translations or {}).items():
            if by_lang.get(lang):
                old[msgid] = by_lang[lang]
        merged = {m: old.get(m, "") for m in messages}
        forms = plural_count(lang)
        for m, t in merged.items():  # a plural message needs every form of the language
            if "\0" in m and t and len(t.split("\0")) != forms:
                merged[m] = ""
        missing[lang] = [m for m, t in merged.items() if not t]
        if write:
            folder = locale_dir / lang / "LC_MESSAGES"
            folder.mkdir(parents=True, exist_ok=True)
            text = format_po(merged, header(lang), forms) + "\n"
            (folder / f"{DOMAIN}.po").write_text(text, encoding="utf-8")
            entries = {"": header(lang), **merged}
            (folder / f"{DOMAIN}.mo").write_bytes(compile_mo(entries))
    return missing


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m sim.i18n [--merge FILE.json ...] [--locale-dir DIR]``.

    Updates the catalogues and lists what is not translated yet (exit 1 if anything).
    ``--merge`` takes translators' JSON files (``{msgid: {"ru": ..., "uk": ..., "pl":
    ...}}``); ``--locale-dir`` writes the catalogues elsewhere, to preview them with
    ``THOUSAND_LOCALE_DIR=DIR`` before they replace the package's.
    """
    import argparse
    import json

    parser = argparse.ArgumentParser(prog="python -m sim.i18n", allow_abbrev=False)
    parser.add_argument("--merge", nargs="+", default=[], metavar="FILE.json")
    parser.add_argument("--locale-dir", type=Path, default=LOCALE_DIR)
    args = parser.parse_args(argv)
    translations: dict[str, dict[str, str]] = {}
    for path in args.merge:
        try:
            read = json.loads(Path(path).read_text(encoding="utf-8"))
            pairs = [(str(m), {str(k): str(v) for k, v in t.items()}) for m, t in read.items()]
        except (OSError, ValueError, AttributeError) as exc:
            print(f"python -m sim.i18n: error: --merge {path}: {exc}", file=sys.stderr)
            return 2
        for msgid, by_lang in pairs:
            translations.setdefault(msgid, {}).update(by_lang)
    missing = update(translations=translations, locale_dir=args.locale_dir)
    for lang, messages in missing.items():
        for m in messages:
            print(f"{lang}: not translated: {m!r}", file=sys.stderr)
    return 1 if any(missing.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())

"""``thousand serve``: a real uvicorn server on 127.0.0.1, asked as the page asks it.

The answers are ``thousand advise --json``'s for the same question; the quick answer
is its ``table``; bad questions get HTTP 400 and one line; no question makes the
server read a file; 50 questions at once are all answered (one worker thread, a
queue in front). The page itself is driven in Chromium by tests/test_serve_browser.py.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from serve_helpers import asgi_post, ask, get, running_server

HAND = "AH TH KH QH AS 9C JD"


@pytest.fixture(scope="module")
def url():
    with running_server() as address:
        yield address


def advise_json(thousand, *args: str) -> dict:
    r = thousand("advise", *args, "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


QUESTIONS = [
    # (the page's question, the same as advise's arguments)
    ({"hand": HAND, "samples": 300, "seed": 3}, [HAND, "--samples", "300", "--seed", "3"]),
    (
        {"hand": "KS QS AC 9C JD 9H JH", "seat": "dealer", "auction": "100 110", "samples": 200},
        ["KS QS AC 9C JD 9H JH", "--seat", "dealer", "--auction", "100 110", "--samples", "200"],
    ),
    (
        {"hand": "Т♥ 10♥ К♥ Д♥ Т♠ 9♣ В♦", "seat": "middle", "auction": "100",
         "player": "heuristic", "score": 780, "samples": 150, "lang": "ru"},
        ["Т♥ 10♥ К♥ Д♥ Т♠ 9♣ В♦", "--seat", "middle", "--auction", "100", "--player",
         "heuristic", "--score", "780", "--samples", "150", "--lang", "ru"],
    ),
    ({"hand": HAND, "barrel": True, "risk": 0.6, "samples": 100},
     [HAND, "--barrel", "--risk", "0.6", "--samples", "100"]),
    ({"hand": HAND, "talon": "KS QS 9H", "bid": 120, "samples": 3},
     [HAND, "--talon", "KS QS 9H", "--bid", "120", "--samples", "3"]),
]  # fmt: skip


@pytest.mark.parametrize(("question", "args"), QUESTIONS, ids=range(len(QUESTIONS)))
def test_a_hand_answered_equals_advise_json(url, thousand, question, args):
    status, doc = ask(url + "api/advise", question)
    assert status == 200, doc
    assert doc == advise_json(thousand, *args)


def test_the_answer_equals_the_command_run_as_a_process(url, cli):
    question, args = QUESTIONS[1]
    status, doc = ask(url + "api/advise", question)
    r = cli("advise", *args, "--json")
    assert status == 200 and r.returncode == 0, r.stderr
    assert doc == json.loads(r.stdout)


@pytest.mark.parametrize("k", [0, 1, 2])
def test_the_quick_answer_is_the_jsons_table(url, thousand, k):
    question, args = QUESTIONS[k]
    status, doc = ask(url + "api/table", question)
    assert status == 200, doc
    assert doc == {"table": advise_json(thousand, *args)["table"]}


def test_the_quick_answer_samples_nothing_and_never_waits_for_the_advisor(thousand, monkeypatch):
    # the tables, not the sampling: the app in this process, its advisor's one thread
    # held busy until the tables' answer is in; the advisor is asked for no sampling
    import sim.web.app as web
    from sim.rules import load_rules

    service = web.Service(web.Settings(load_rules("classic"), workers=1))
    service.load_tables(service.settings.player)  # read once, as the server's warm-up does
    real, asked = web.advise, []

    def recording(spec, *args, sampled=True, **kw):
        asked.append(sampled)
        return real(spec, *args, sampled=sampled, **kw)

    monkeypatch.setattr(web, "advise", recording)
    busy, release = threading.Event(), threading.Event()

    def hold() -> bool:
        busy.set()
        return release.wait(120)  # (only a broken app would keep it that long)

    held = service.advisor.pool.submit(hold)
    try:
        assert busy.wait(120)
        question, args = QUESTIONS[1]
        status, doc = asyncio.run(asgi_post(web.create_app(service), "/api/table", question))
        assert not held.done()  # answered while the advisor was still busy
    finally:
        release.set()
        service.close()
    assert held.result() is True
    assert status == 200 and asked == [False], doc
    assert doc == {"table": advise_json(thousand, *args)["table"]}


TOO_BIG = json.dumps({"hand": HAND, "seat": "x" * 5000}).encode()


@pytest.mark.parametrize(
    ("body", "raw", "kind", "field", "words"),
    [
        (None, TOO_BIG, "application/json", None, "larger than 4096 bytes"),
        (None, b'{"hand": "AH TH', "application/json", None, "malformed JSON at line 1"),
        (None, b"\xff\xfe{}", "application/json", None, "not UTF-8"),
        (None, b"hand=AH", "application/x-www-form-urlencoded", None, "as JSON"),
        ([HAND], None, "application/json", None, "one JSON object"),
        ({"hand": HAND, "params": ["pimc.worlds=1"]}, None, "application/json", "params",
         "unknown field 'params'"),
        ({"seat": "dealer"}, None, "application/json", "hand", "give the cards of the hand"),
        ({"hand": None}, None, "application/json", "hand", "text expected, got null"),
        ({"hand": "AH TH KH QH AS 9C ZZ"}, None, "application/json", "hand", "malformed card"),
        ({"hand": "AH TH KH QH AS 9C"}, None, "application/json", "hand", "7 cards needed"),
        ({"hand": "AH TH KH QH AS 9C AH"}, None, "application/json", "hand", "given twice"),
        ({"hand": HAND, "samples": "5"}, None, "application/json", "samples",
         "a whole number expected"),
        ({"hand": HAND, "barrel": 1}, None, "application/json", "barrel", "true or false"),
        ({"hand": HAND, "samples": 4001}, None, "application/json", "samples", "from 1 to 4000"),
        ({"hand": HAND, "budget": 60}, None, "application/json", "budget", "at most 7 seconds"),
        ({"hand": HAND, "risk": 1.5}, None, "application/json", "risk", "between 0 and 1"),
        ({"hand": HAND, "seat": "north"}, None, "application/json", "seat", "one of forehand"),
        ({"hand": HAND, "player": "random"}, None, "application/json", "player",
         "not an advisor"),
        ({"hand": HAND, "seat": "dealer", "auction": "100"}, None, "application/json",
         "auction", "it is middle's turn"),
        ({"hand": HAND, "lang": "de"}, None, "application/json", "lang", "one of en, ru"),
        # one validator for both endpoints: what the advisor refuses, the tables refuse
        ({"hand": HAND, "talon": "JS QS KS", "bid": 1000000000}, None, "application/json",
         "bid", "a bid level"),
        ({"hand": HAND, "bid": 1000000000}, None, "application/json", "bid", "a bid level"),
        ({"hand": HAND, "talon": "JS QS KS", "talon_shown": "9S TS 9H"}, None,
         "application/json", "talon_shown", "either yours"),
        ({"hand": HAND, "talon": "JS QS AH"}, None, "application/json", "talon",
         "already in the hand"),
        ({"hand": HAND, "barrel": True, "score": 100}, None, "application/json", "score",
         "exactly 880"),
        ({"hand": HAND, "seed": -1}, None, "application/json", "seed", "non-negative"),
    ],
)  # fmt: skip
@pytest.mark.parametrize("endpoint", ["api/advise", "api/table"])
def test_a_bad_question_gets_400_and_one_clear_line(url, endpoint, body, raw, kind, field, words):
    status, doc = ask(url + endpoint, body, raw=raw, kind=kind)
    assert status == 400, doc
    assert words in doc["error"] and "\n" not in doc["error"], doc
    assert doc["field"] == field


def test_a_refusal_speaks_the_questions_language(url):
    status, doc = ask(url + "api/advise", {"hand": "AH TH KH QH AS 9C", "lang": "uk"})
    assert status == 400 and doc["field"] == "hand"
    assert doc["error"].startswith("hand: ") and re.search("[а-яіїє]{4}", doc["error"]), doc
    status, doc = ask(url + "api/table?lang=pl", None, raw=b"{")
    assert status == 400 and "JSON" in doc["error"] and "wiersz" in doc["error"], doc


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_path_like_field_reads_no_file(url, tmp_path):
    # opening a named pipe for reading blocks until someone writes: a server that
    # opened it would not answer at all, let alone at once
    pipe = tmp_path / "deal.txt"
    os.mkfifo(pipe)
    for question in (
        {"hand": "", "deal_file": str(pipe), "seat": "forehand"},
        {"hand": str(pipe)},
        {"hand": f"file://{pipe}"},
    ):
        # answered at all: a server that opened the pipe would wait for a writer forever
        status, doc = ask(url + "api/advise", question)
        assert status == 400, doc
    # and nobody holds it open for reading now: a writer that does not wait finds no reader
    with pytest.raises(OSError):
        os.open(pipe, os.O_WRONLY | os.O_NONBLOCK)


def test_the_tables_answer_two_hundred_questions_at_once_without_waiting(url):
    # the tables' answers never queue behind the advisor, and are never refused as busy
    hands = ["AH TH KH QH AS 9C JD", "KS QS AC 9C JD 9H JH", "AS TS AC TC KD JH 9H"]

    def one(k: int) -> tuple[int, dict]:
        return ask(url + "api/table", {"hand": hands[k % 3], "seat": "dealer"})

    with ThreadPoolExecutor(200) as pool:
        answers = list(pool.map(one, range(200)))
    assert [s for s, _doc in answers] == [200] * 200, [d for s, d in answers if s != 200][:2]
    assert all(doc["table"]["seat"] == "dealer" for _s, doc in answers)


def test_fifty_questions_at_once_are_all_answered(url):
    hands = ["AH TH KH QH AS 9C JD", "KS QS AC 9C JD 9H JH", "AS TS AC TC KD JH 9H"]

    def one(k: int) -> tuple[int, dict]:
        hand = hands[k % 3]
        if k % 5 == 4:  # the page asks the tables too
            return ask(url + "api/table", {"hand": hand, "seat": "middle"})
        return ask(url + "api/advise", {"hand": hand, "samples": 16 + k, "seed": k})

    with ThreadPoolExecutor(50) as pool:
        answers = list(pool.map(one, range(50)))
    assert [s for s, _doc in answers] == [200] * 50, [d for s, d in answers if s != 200][:2]
    for k, (_s, doc) in enumerate(answers):
        if k % 5 == 4:
            assert doc["table"]["n"] > 0
        else:
            assert doc["samples"] == 16 + k and doc["seat"] == "forehand"
    status, _headers, text = get(url + "api/health")
    assert status == 200 and json.loads(text)["waiting"] == 0


@pytest.mark.parametrize("lang", ["en", "ru", "uk", "pl"])
def test_the_page_comes_in_each_language(url, lang):
    status, headers, page = get(f"{url}?lang={lang}")
    assert status == 200 and f'<html lang="{lang}">' in page
    assert "connect-src 'self'" in headers["content-security-policy"]
    start = page.index('id="advisor-config">') + len('id="advisor-config">')
    config = json.loads(page[start : page.index("</script>", start)])
    assert config["mode"] == "server" and config["lang"] == lang
    assert config["layout"]["hand_size"] == 7 and config["layout"]["seats"][2] == "dealer"
    titles = {"en": "Thousand: what", "ru": "Тысяча:", "uk": "Тисяча:", "pl": "Tysiąc:"}
    assert config["words"]["title"].startswith(titles[lang])


def test_a_full_queue_answers_busy_and_takes_no_more():
    from sim.web.app import Busy, Lane

    lane = Lane("test", 1, limit=2)
    started, release = threading.Event(), threading.Event()

    def first_work() -> int:
        started.set()
        return 1 if release.wait(120) else 0  # (only a broken lane would keep it that long)

    async def main() -> list:
        first = asyncio.ensure_future(lane.run(first_work))
        second = asyncio.ensure_future(lane.run(lambda: 2))
        # both are taken once the first runs on the lane's thread (the second waits)
        assert await asyncio.to_thread(started.wait, 120)
        assert lane.taken == 2 and not second.done()
        with pytest.raises(Busy):
            await lane.run(lambda: 3)
        release.set()
        done = await asyncio.gather(first, second)
        return [*done, await lane.run(lambda: 4), lane.taken]

    try:
        assert asyncio.run(main()) == [1, 2, 4, 0]
    finally:
        lane.close()


def test_serve_refuses_bad_flags_in_one_line(run_main):
    code, err = run_main("serve", "--port", "70000")
    assert code == 2 and "--port" in err and "65535" in err and err.count("\n") == 1
    code, err = run_main("serve", "--player", "randomm")
    assert code == 2 and "--player" in err and "not an advisor" in err and err.count("\n") == 1
    code, err = run_main("serve", "--max-budget", "0")
    assert code == 2 and "--max-budget" in err
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:
        port = str(taken.getsockname()[1])
        code, err = run_main("serve", "--port", port)
        assert code == 2 and "cannot listen there" in err and err.count("\n") == 1
    finally:
        taken.close()

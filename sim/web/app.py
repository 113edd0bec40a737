"""``thousand serve``'s app: the page, the tables' quick answer, the advisor on one thread.

Routes (docs/cli.md, "serve"):

* ``GET /`` (``?lang=ru``): the page (:func:`views.advisor_page.page_html`), its
  words in the language;
* ``POST /api/table``: the class tables' answer at once, ``{"table": ...}``: the
  ``table`` part of ``thousand advise --json`` (``advise(spec, sampled=False)``, after
  the same checks);
* ``POST /api/advise``: the sampling advisor's answer, exactly ``thousand advise
  --json`` of the same question (:func:`sim.jobs.advise.advise`);
* ``GET /api/health``: the rules, the queue and the limits.

A question is one JSON object of :data:`FIELDS` (``hand``, ``seat``, ``auction`` ...,
``lang``), at most :data:`MAX_BODY` bytes. Nothing in it names a file: the spec's
``deal_file`` is not a field, so no request makes the server read a path. An
oversize body, malformed JSON, an unknown field, a value of the wrong type, bad cards
or any other refusal of the advisor is answered with HTTP 400 and one line,
``{"error": ..., "field": ...}``, in the question's language.

The advisor's compiled code runs on **one** worker thread (numba's threading layer is
not safe under parallel calls from several threads at once): questions wait their
turn in a bounded queue (:attr:`Settings.queue`, 64 by default; beyond that HTTP 503
and ``Retry-After``), and a question whose asker left before its turn is skipped.
The tables' quick answers (a few milliseconds of polars, no compiled code) run on a
thread of their own, so they never wait behind a sampling run. Each question's work
is bounded: at most :attr:`Settings.max_samples` samples and
:attr:`Settings.max_budget` seconds of sampled play.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
import traceback
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from sim.i18n import LANGS, N_, _, speaking_here
from sim.jobs import BAD_INPUT
from sim.jobs.advice_tables import ClassTables, layout, load_tables
from sim.jobs.advise import DEFAULT_BUDGET, QUESTION, AdviseSpec, advise, check_player
from sim.jobs.runs import QUIET, Feedback
from sim.output import FieldError, json_safe
from sim.players import ADVISORS, DEFAULT, PAR, advice_samples, tables_player
from sim.rules import Rules

T = TypeVar("T")

MAX_BODY = 4096
"""The largest question in bytes (a question is a few hundred)."""
MAX_SCORE = 100_000
"""The largest game score a question may give (either sign)."""

FIELDS: dict[str, type] = {
    **{f.name: f.kind for f in QUESTION if f.web},
    "lang": str,
}
"""A question's fields and their JSON types: the advisor's question
(:data:`sim.jobs.advise.QUESTION`) less what a request may not carry (a file, the
player's parameters), plus the answer's language."""

_TYPE_WORDS = {
    str: N_("text"),
    int: N_("a whole number"),
    float: N_("a number"),
    bool: N_("true or false"),
}

PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'unsafe-inline'; "
    "style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
API_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}


@dataclass(frozen=True)
class Settings:
    """What ``thousand serve`` was started with.

    Attributes:
        rules: the house rules every question is under.
        lang: the page's language when the address names none, and the refusals'
            when the question does not say.
        player: the advisor when a question names none (one of :data:`sim.players.ADVISORS`).
        max_samples: the most samples a question may ask for (and the default's cap).
        max_budget: the most seconds of sampled play a question may ask for (the default).
        queue: the most questions waiting for the advisor at once.
        workers: the compiled code's threads (None: every core).
    """

    rules: Rules
    lang: str = "en"
    player: str = DEFAULT
    max_samples: int = 4000
    max_budget: float = DEFAULT_BUDGET
    queue: int = 64
    workers: int | None = None


class Refusal(Exception):
    """A question refused: HTTP ``status`` and one line (``field``: the culprit, if one)."""

    def __init__(self, message: str, field: str | None = None, status: int = 400) -> None:
        super().__init__(" ".join(message.splitlines()))
        self.field, self.status = field, status


class Busy(Exception):
    """The queue is full: the question is not taken."""


class Gone(Exception):
    """The asker left before the question's turn came: it was skipped."""


class Lane:
    """Threads that run questions in turn, with a queue in front (bounded by ``limit``).

    The count of questions taken is kept on the event loop's thread only. ``limit``
    None: no bound (the tables' answers, a few milliseconds each, are never refused).
    """

    def __init__(self, name: str, threads: int, limit: int | None) -> None:
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix=name)
        self.limit = limit
        self.taken = 0

    def _finished(self, future: asyncio.Future[Any]) -> None:
        self.taken -= 1
        if not future.cancelled():
            future.exception()  # retrieved: an abandoned question's error is not logged

    async def run(self, work: Callable[[], T], request: Request | None = None) -> T:
        """``work()`` on this lane's threads, once its turn comes.

        Raises:
            Busy: :attr:`limit` questions are already taken.
            Gone: the asker of ``request`` left (the work is skipped if not started).
        """
        if self.limit is not None and self.taken >= self.limit:
            raise Busy
        self.taken += 1
        left = threading.Event()

        def turn() -> T | None:
            return None if left.is_set() else work()

        future = asyncio.get_running_loop().run_in_executor(self.pool, turn)
        future.add_done_callback(self._finished)
        while True:
            done, _pending = await asyncio.wait({future}, timeout=0.25)
            if done:
                return future.result()  # type: ignore[return-value]
            if request is not None and await request.is_disconnected():
                left.set()
                raise Gone

    def close(self) -> None:
        """Drop the questions not started; the running one finishes on its thread."""
        self.pool.shutdown(wait=False, cancel_futures=True)


@dataclass
class Service:
    """The app's state: the settings, the two lanes and the class tables read so far."""

    settings: Settings
    advisor: Lane = field(init=False)
    tables_lane: Lane = field(init=False)
    tables: dict[str, ClassTables] = field(default_factory=dict)
    pages: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        limit = self.settings.queue
        self.advisor = Lane("thousand-advisor", 1, limit)
        # the tables' answers: milliseconds each, on threads of their own, never refused
        # and never behind a sampling (200 at once measured 118 refusals with a bound)
        self.tables_lane = Lane("thousand-tables", 2, None)

    def warm(self, feedback: Feedback = QUIET) -> None:
        """Read (or build) the default advisor's tables and load its compiled code, once.

        Runs on the advisor's thread, before the first question: the first answer is
        then as quick as the others.
        """

        def work() -> None:
            rules = self.settings.rules
            found = load_tables(rules, self.settings.player, feedback, self.settings.workers)
            self.tables[found.player] = found
            cards = "AH TH KH QH AS 9C JD JH 9H KS".split()[: layout(rules).hand_size]
            spec = AdviseSpec(rules=rules, hand=" ".join(cards), player=self.settings.player,
                              samples=8, budget=1.0, workers=self.settings.workers)  # fmt: skip
            advise(spec)

        self.advisor.pool.submit(work).result()

    def close(self) -> None:
        """Stop both lanes (the server is going down)."""
        self.advisor.close()
        self.tables_lane.close()

    def spec(self, doc: Mapping[str, Any]) -> AdviseSpec:
        """The advisor's spec of a question, within the server's limits.

        The question's own checks are the advisor's (:func:`sim.jobs.advise.check`, for
        either endpoint); here only what this server allows: the samples and the budget
        within its limits, and a score within reason.

        Raises:
            FieldError: a value outside them, naming its field.
        """
        s = self.settings
        if not str(doc.get("hand") or "").strip():  # (the job would offer a deal file)
            raise FieldError("hand", _("{field}: give the cards of the hand"))
        player = check_player(str(doc.get("player", s.player)))
        samples = doc.get("samples")
        if samples is not None and not 1 <= samples <= s.max_samples:
            why = _("{field}: from 1 to {most} here, got {value}")
            raise FieldError("samples", why, most=s.max_samples, value=samples)
        if samples is None:  # the advisor's own default, within the cap
            default = advice_samples(PAR if "talon" in doc else player)
            samples = None if default <= s.max_samples else s.max_samples
        budget = float(doc.get("budget", s.max_budget))
        if not 0 < budget <= s.max_budget:
            why = _("{field}: more than 0 and at most {most} seconds here, got {value}")
            raise FieldError("budget", why, most=f"{s.max_budget:g}", value=f"{budget:g}")
        score = doc.get("score")
        if score is not None and abs(score) > MAX_SCORE:
            why = _("{field}: at most {most} either way, got {value}")
            raise FieldError("score", why, most=MAX_SCORE, value=score)
        given = {k: v for k, v in doc.items() if k in FIELDS and k != "lang"}
        return AdviseSpec(**{**given, "rules": s.rules, "player": player, "samples": samples,
                             "budget": budget, "workers": s.workers})  # fmt: skip

    def load_tables(self, player: str) -> None:
        """Read (or build) the class tables of ``player``'s advice (on the advisor's thread)."""
        if self.tables_of(player) is None:
            found = load_tables(self.settings.rules, player, workers=self.settings.workers)
            self.tables[found.player] = found

    def tables_of(self, player: str) -> ClassTables | None:
        """The class tables an advice by ``player`` starts from, if read already."""
        return self.tables.get(tables_player(player))

    def page(self, lang: str) -> str:
        """The page in ``lang`` (made once per language)."""
        from views.advisor_page import page_html

        if lang not in self.pages:
            with speaking_here(lang):
                view = layout(self.settings.rules).json()
                self.pages[lang] = page_html(
                    {
                        "mode": "server",
                        "layout": view,
                        "risk": 0.75,
                        "player": self.settings.player,
                        "players": list(ADVISORS),
                        "langs": {code: f"?lang={code}" for code in LANGS},
                    }
                )
        return self.pages[lang]


def _language(asked: object, fallback: str) -> str:
    return asked if isinstance(asked, str) and asked in LANGS else fallback


def check_fields(doc: object) -> dict[str, Any]:
    """The question's fields, each of its type (an integer is a number too).

    Raises:
        Refusal: not an object, an unknown field, or a value of the wrong type.
    """
    if not isinstance(doc, dict):
        raise Refusal(_("the question must be one JSON object of fields"))
    unknown = sorted(k for k in doc if k not in FIELDS)
    if unknown:
        why = _("unknown field {name} (the fields: {fields})")
        raise Refusal(why.format(name=repr(unknown[0]), fields=", ".join(FIELDS)), unknown[0])
    out: dict[str, Any] = {}
    for name, value in doc.items():
        kind = FIELDS[name]
        if value is None and name not in ("hand", "lang"):
            continue  # as if not given
        ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            ok, value = True, float(value)
        if not ok:
            why = _("{name}: {kind} expected, got {value}")
            text = json.dumps(value, ensure_ascii=False)
            text = text if len(text) <= 40 else text[:37] + "..."
            raise Refusal(why.format(name=name, kind=_(_TYPE_WORDS[kind]), value=text), name)
        out[name] = value
    return out


async def _body(request: Request) -> bytes | None:
    """The request's body, or None when it is larger than :data:`MAX_BODY` (not read on)."""
    length = request.headers.get("content-length", "0")
    if not length.isdigit() or int(length) > MAX_BODY:
        return None
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return None
    return body


async def read_question(request: Request, lang: str) -> tuple[dict[str, Any], str]:
    """The question of a request and its language, or a :class:`Refusal` in ``lang``.

    The body is read first; the checks, which word their refusals, run after it with
    no pause in between (a thread's language must not be held across an ``await``:
    the event loop's thread serves other requests meanwhile).
    """
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    body = await _body(request) if kind == "application/json" else b""
    with speaking_here(lang):
        if kind != "application/json":
            raise Refusal(_("send the question as JSON (Content-Type: application/json)"))
        if body is None:
            raise Refusal(_("the question is larger than {most} bytes").format(most=MAX_BODY))
        try:
            doc = json.loads(body.decode("utf-8"))
        except UnicodeDecodeError:
            raise Refusal(_("the question is not UTF-8 text")) from None
        except json.JSONDecodeError as exc:
            why = _("malformed JSON at line {line}, column {column}")
            raise Refusal(why.format(line=exc.lineno, column=exc.colno)) from None
        asked = doc.get("lang") if isinstance(doc, dict) else None
        if asked is not None and asked not in LANGS:
            why = _("{name}: one of {langs}, got {value}")
            value = repr(asked)
            raise Refusal(why.format(name="lang", langs=", ".join(LANGS), value=value), "lang")
    lang = _language(asked, lang)
    with speaking_here(lang):
        return check_fields(doc), lang


def refused(exc: Refusal | BaseException, status: int = 400) -> JSONResponse:
    """One line of refusal as JSON: ``{"error": ..., "field": ...}``."""
    field_name = getattr(exc, "field", None)
    line = " ".join(str(exc).splitlines())
    return JSONResponse({"error": line, "field": field_name}, status, headers=API_HEADERS)


def create_app(service: Service) -> Starlette:
    """The Starlette app of ``service`` (its lanes stop when the app shuts down)."""
    settings = service.settings

    def request_lang(request: Request) -> str:
        return _language(request.query_params.get("lang"), settings.lang)

    async def page(request: Request) -> Response:
        return HTMLResponse(service.page(request_lang(request)), headers=PAGE_HEADERS)

    async def answer(request: Request, work: Callable[[AdviseSpec], dict[str, Any]],
                     lane: Lane) -> Response:  # fmt: skip
        lang = request_lang(request)
        try:
            doc, lang = await read_question(request, lang)
            player = doc.get("player", settings.player)
            if lane is service.tables_lane and player in ADVISORS and not service.tables_of(player):
                # tables not read yet (another advisor's): read, or built by compiled
                # code, on the advisor's thread
                await service.advisor.run(lambda: service.load_tables(player), request)

            def run() -> dict[str, Any]:
                with speaking_here(lang):
                    return work(service.spec(doc))

            return JSONResponse(await lane.run(run, request), headers=API_HEADERS)
        except Refusal as exc:
            return refused(exc, exc.status)
        except BAD_INPUT as exc:
            return refused(exc)
        except Busy:
            with speaking_here(lang):
                why = _("the advisor is busy with {count} questions: ask again in a moment")
                line = why.format(count=lane.taken)
            return JSONResponse({"error": line, "field": None}, 503,
                                headers={**API_HEADERS, "Retry-After": "2"})  # fmt: skip
        except Gone:
            return Response(status_code=204)
        except Exception as exc:  # a bug: one line to the asker, the traceback to the log
            traceback.print_exc(file=sys.stderr)
            with speaking_here(lang):
                line = _("the advisor failed: {reason}").format(reason=type(exc).__name__)
            return JSONResponse({"error": line, "field": None}, 500, headers=API_HEADERS)

    def tables_answer(spec: AdviseSpec) -> dict[str, Any]:
        found = advise(spec, sampled=False, tables=service.tables_of(spec.player))
        return {"table": json_safe(found.json())}

    def full_answer(spec: AdviseSpec) -> dict[str, Any]:
        result: dict[str, Any] = json_safe(
            advise(spec, tables=service.tables_of(spec.player)).json()
        )
        return result

    async def table(request: Request) -> Response:
        return await answer(request, tables_answer, service.tables_lane)

    async def advice(request: Request) -> Response:
        return await answer(request, full_answer, service.advisor)

    async def health(request: Request) -> Response:
        return JSONResponse(
            {
                "rules": settings.rules.name,
                "player": settings.player,
                "waiting": service.advisor.taken,
                "queue": settings.queue,
                "max_samples": settings.max_samples,
                "max_budget": settings.max_budget,
                "max_body": MAX_BODY,
            },
            headers=API_HEADERS,
        )

    routes = [
        Route("/", page, methods=["GET"]),
        Route("/api/table", table, methods=["POST"]),
        Route("/api/advise", advice, methods=["POST"]),
        Route("/api/health", health, methods=["GET"]),
    ]
    app = Starlette(routes=routes)
    app.state.service = service
    return app

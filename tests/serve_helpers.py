"""A real ``thousand serve`` for the tests: started as a user starts it, on a free port.

:func:`running_server` starts ``python -m sim serve --port 0`` on 127.0.0.1, reads the
address it prints, yields it and stops the server (SIGTERM: uvicorn's own shutdown).
:func:`ask` sends one JSON question with the standard library and returns the status
and the answer. :func:`asgi_post` asks the app in this process (no server, no
socket), for the checks that hold its threads themselves.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
START_TIMEOUT = 180  # seconds: a cold compiled-code cache compiles the advisor first


@contextmanager
def running_server(*flags: str) -> Iterator[str]:
    """A ``thousand serve`` on a free port of 127.0.0.1: its address (``http://.../``)."""
    env = {**os.environ, "THOUSAND_LANG": "en"}
    env.pop("COLUMNS", None)
    proc = subprocess.Popen(
        # one compiled-code thread: the suite's other process keeps its core (the answers
        # are the same on any number of threads)
        [sys.executable, "-m", "sim", "serve", "--port", "0", "--quiet", "--workers", "1",
         *flags],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    watchdog = threading.Timer(START_TIMEOUT, proc.kill)  # never hang the suite
    watchdog.start()
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        watchdog.cancel()
        found = re.search(r"http://127\.0\.0\.1:\d+/", line)
        if not found:
            proc.kill()
            _out, err = proc.communicate(timeout=10)
            raise AssertionError(f"thousand serve did not start: {line!r} {err[-2000:]}")
        yield found.group(0)
    finally:
        watchdog.cancel()
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def ask(
    url: str,
    body: Any,
    raw: bytes | None = None,
    kind: str = "application/json",
    timeout: float = 120,
) -> tuple[int, dict[str, Any]]:
    """POST ``body`` as JSON (or the bytes ``raw``) to ``url``: (status, answer)."""
    data = raw if raw is not None else json.dumps(body, ensure_ascii=False).encode("utf-8")
    request = urllib.request.Request(url, data=data, method="POST", headers={"Content-Type": kind})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as r:
            return r.status, json.loads(r.read().decode("utf-8"))
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read().decode("utf-8"))


def get(url: str, timeout: float = 30) -> tuple[int, dict[str, str], str]:
    """GET ``url``: (status, headers, text)."""
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.status, dict(r.headers), r.read().decode("utf-8")


async def asgi_post(app: Any, path: str, body: Any) -> tuple[int, dict[str, Any]]:
    """POST ``body`` as JSON to the ASGI ``app`` in this process: (status, answer).

    The asker stays until the answer is in (no disconnect is ever received).
    """
    data = json.dumps(body, ensure_ascii=False).encode("utf-8")
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 80),
        "headers": [(b"content-type", b"application/json"),
                    (b"content-length", str(len(data)).encode())],
    }  # fmt: skip
    asked, stays = False, asyncio.Event()
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": data, "more_body": False}
        await stays.wait()  # never set: the asker does not leave
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    answer = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, json.loads(answer.decode("utf-8"))

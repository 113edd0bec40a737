"""Check a report page in a real browser: ``make report-check`` (not part of ``make test``).

For each report folder given, headless Chromium renders ``index.html`` at 1280 px
and at 390 px (a phone), saves the top of the page as ``screenshot-1280.png`` and
``screenshot-390.png`` beside it, and the check fails on:

* a broken image (a figure that does not decode or load);
* a broken link (a ``#anchor`` with no such id on the page, or a file that is not
  in the folder; web addresses are not followed);
* a console error or an uncaught script error while the page loads;
* a table wider than its place on the page at 1280 px (it would need scrolling).

It prints one line per problem and exits 1 when there is any, 0 otherwise.

    python tests/report_check.py reports/classic [more folders]
"""

from __future__ import annotations

import base64
import json
import re
import shutil
import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path

PROBE = """
<script>
(function () {
  var errors = [];
  var err = console.error;
  console.error = function () {
    errors.push(Array.from(arguments).join(' '));
    err.apply(console, arguments);
  };
  window.addEventListener('error', function (e) {
    errors.push(String(e.message || e.type));
  }, true);
  window.addEventListener('load', function () {
    var out = {width: document.documentElement.clientWidth, tables: [], broken: [], errors: errors};
    document.querySelectorAll('table').forEach(function (t, i) {
      var box = t.parentElement;
      var room = box.clientWidth;
      if (t.scrollWidth > room + 1) {
        var head = t.querySelector('th');
        out.tables.push({table: i, width: t.scrollWidth, room: room,
                         first: head ? head.textContent : ''});
      }
    });
    Array.from(document.images).forEach(function (im) {
      if (!(im.complete && im.naturalWidth > 0)) {
        out.broken.push(im.alt || im.src.slice(0, 40));
      }
    });
    document.title = 'CHECK:' + JSON.stringify(out);
  });
})();
</script>
"""


class _Page(HTMLParser):
    """The ids, links and images of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.images: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(str(a["id"]))
        if tag == "a" and a.get("href"):
            self.links.append(str(a["href"]))
        if tag == "img" and a.get("src"):
            self.images.append(str(a["src"]))


def chromium() -> str:
    """The Chromium binary."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    sys.exit("report-check: no Chromium found (make report-check installs it)")


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    base = [chromium(), "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]
    return subprocess.run([*base, *args], capture_output=True, text=True, timeout=120, check=False)


def static_problems(folder: Path, text: str) -> list[str]:
    """Broken images and links found in the HTML itself."""
    page = _Page()
    page.feed(text)
    problems = []
    for src in page.images:
        if src.startswith("data:image/png;base64,"):
            data = base64.b64decode(src.split(",", 1)[1])
            if not data.startswith(b"\x89PNG"):
                problems.append("an embedded image is not a PNG")
        elif not (folder / src).is_file():
            problems.append(f"image {src}: no such file")
    for href in page.links:
        if href.startswith("#"):
            if href[1:] not in page.ids:
                problems.append(f"link {href}: no such anchor")
        elif re.match(r"^[a-z]+:", href):
            continue  # a web address: not followed
        elif not (folder / href.split("#")[0]).is_file():
            problems.append(f"link {href}: no such file")
    return problems


def browser_problems(folder: Path, text: str, width: int) -> list[str]:
    """What the rendered page at ``width`` px reports: errors, broken images, wide tables."""
    with tempfile.TemporaryDirectory(dir=folder, prefix=".check-") as tmp:
        probe = Path(tmp) / "index.html"
        probe.write_text(text.replace("</body>", PROBE + "</body>"), encoding="utf-8")
        for name in re.findall(r'(?:src|href)="([\w.-]+\.(?:png|csv|json|md))"', text):
            if (folder / name).is_file():
                (Path(tmp) / name).symlink_to((folder / name).resolve())
        r = _run(
            [f"--window-size={width},1000", "--virtual-time-budget=10000", "--dump-dom",
             probe.resolve().as_uri()]
        )  # fmt: skip
    found = re.search(r"<title>CHECK:(.*?)</title>", r.stdout, re.S)
    if not found:
        return [f"{width} px: the page did not finish loading ({r.stderr.strip()[-200:]})"]
    doc = json.loads(found.group(1).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"))
    problems = [f"{width} px: console error: {e}" for e in doc["errors"]]
    problems += [f"{width} px: broken image: {b}" for b in doc["broken"]]
    if width >= 1280:
        problems += [
            f"{width} px: table {t['table']} ('{t['first']}' …) is {t['width']} px wide in "
            f"{t['room']} px"
            for t in doc["tables"]
        ]
    return problems


def screenshot(folder: Path, width: int) -> Path:
    """The top of the page at ``width`` px, saved beside it."""
    out = folder / f"screenshot-{width}.png"
    height = 1400 if width >= 1000 else 1600
    _run(
        [f"--window-size={width},{height}", f"--screenshot={out}",
         (folder / "index.html").resolve().as_uri()]
    )  # fmt: skip
    return out


def check(folder: Path) -> list[str]:
    """Every problem of one report folder (screenshots saved as a side effect)."""
    index = folder / "index.html"
    if not index.is_file():
        return [f"{folder}: no index.html"]
    text = index.read_text(encoding="utf-8")
    problems = static_problems(folder, text)
    for width in (1280, 390):
        problems += browser_problems(folder, text, width)
        shot = screenshot(folder, width)
        if not shot.is_file() or shot.stat().st_size < 1000:
            problems.append(f"{width} px: no screenshot was taken")
    return [f"{folder}: {p}" for p in problems]


def main(argv: list[str]) -> int:
    folders = [Path(a) for a in argv] or [Path("reports/classic")]
    problems = [p for f in folders for p in check(f)]
    for p in problems:
        print(p)
    for f in folders:
        print(f"{f}: {'problems found' if any(p.startswith(str(f)) for p in problems) else 'ok'}"
              f" (screenshots: {f}/screenshot-1280.png, {f}/screenshot-390.png)")  # fmt: skip
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

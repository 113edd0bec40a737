"""Check a report page in a real browser: ``make report-check`` (not part of ``make test``).

For each page given (a report or guide folder's ``index.html``, or an ``.html`` file
such as a guide's ``player.html``), headless Chromium renders it at 1280 px and at
390 px (a phone), saves the top of the page as ``screenshot-1280.png`` and
``screenshot-390.png`` beside it (or, with ``--shots DIR``, as
``DIR/<name>-1280.png`` and ``DIR/<name>-390.png``, the name from the folder and the
page), and the check fails on:

* a broken image (a figure that does not decode or load);
* a broken link (a ``#anchor`` with no such id on the page, or a file that is not
  in the folder; web addresses are not followed);
* a console error or an uncaught script error while the page loads;
* a table wider than its place on the page, at 1280 px and on the 390 px phone (it
  would need scrolling sideways), and a page wider than the phone's screen;
* a figure drawn up to its edge: a title, legend or label cut off at the canvas
  leaves ink on the outermost pixels (a new figure fails earlier, when it is drawn:
  ``views.pages.figure_png`` compares its tight bounding box with its canvas).

It prints one line per problem and exits 1 when there
is any, 0 otherwise.

    python tests/report_check.py [--shots DIR] reports/classic build/guide-ru/player.html
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
    var doc = document.documentElement;
    var out = {width: doc.clientWidth, page: doc.scrollWidth, tables: [], broken: [],
               errors: errors};
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
    parent.postMessage('CHECK:' + JSON.stringify(out), '*');
  });
})();
</script>
"""


# Chromium's window is at least 500 px wide: the page is shown in a frame of the width
# checked, inside a page that takes the frame's report as its title.
FRAME = """<!doctype html><html><head><title>frame</title></head>
<body style="margin:0"><iframe src="{page}" style="border:0;width:{width}px;height:{height}px">
</iframe><script>
window.addEventListener('message', function (e) {{ document.title = e.data; }});
</script></body></html>
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


def touches_edge(png: bytes) -> bool:
    """Whether something drawn in a figure reaches its outermost pixels.

    A figure is drawn with a margin of its background colour all round; a title, a
    legend or a label that was cut off at the canvas leaves ink on the edge.
    """
    import io

    import numpy as np
    from PIL import Image

    im = np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)
    ring = np.concatenate([im[0], im[-1], im[:, 0], im[:, -1]])
    return bool((np.abs(ring - im[0, 0]).sum(axis=1) > 60).any())


def static_problems(folder: Path, text: str) -> list[str]:
    """Broken images and links found in the HTML itself, and figures cut off at an edge."""
    page = _Page()
    page.feed(text)
    problems = []
    for src in page.images:
        if src.startswith("data:image/png;base64,"):
            data = base64.b64decode(src.split(",", 1)[1])
            if not data.startswith(b"\x89PNG"):
                problems.append("an embedded image is not a PNG")
            elif touches_edge(data):
                problems.append("an embedded figure is drawn up to its edge (cut off?)")
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
        frame = Path(tmp) / "frame.html"
        frame.write_text(FRAME.format(page="index.html", width=width, height=1000))
        for name in set(re.findall(r'(?:src|href)="([\w.-]+\.(?:png|csv|json|md))"', text)):
            if (folder / name).is_file():
                (Path(tmp) / name).symlink_to((folder / name).resolve())
        r = _run(
            [f"--window-size={max(width, 500)},1000", "--virtual-time-budget=10000",
             "--dump-dom", frame.resolve().as_uri()]
        )  # fmt: skip
    found = re.search(r"<title>CHECK:(.*?)</title>", r.stdout, re.S)
    if not found:
        return [f"{width} px: the page did not finish loading ({r.stderr.strip()[-200:]})"]
    doc = json.loads(found.group(1).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"))
    problems = [f"{width} px: console error: {e}" for e in doc["errors"]]
    problems += [f"{width} px: broken image: {b}" for b in doc["broken"]]
    problems += [
        f"{width} px: table {t['table']} ('{t['first']}' …) is {t['width']} px wide in "
        f"{t['room']} px"
        for t in doc["tables"]
    ]
    if doc["page"] > doc["width"] + 1:
        problems.append(f"{width} px: the page is {doc['page']} px wide")
    return problems


def page_of(path: Path) -> Path:
    """The page to check: a folder's ``index.html``, or the ``.html`` file given."""
    return path / "index.html" if path.is_dir() else path


def shot_path(path: Path, width: int, shots: Path | None) -> Path:
    """Where the screenshot of ``path`` at ``width`` px goes."""
    if shots is None:
        return page_of(path).parent / f"screenshot-{width}.png"
    page = page_of(path)
    name = page.parent.name if page.name == "index.html" else f"{page.parent.name}-{page.stem}"
    return shots / f"{name}-{width}.png"


def screenshot(page: Path, out: Path, width: int) -> Path:
    """The top of ``page`` at ``width`` px, saved as ``out`` (a 256-colour PNG)."""
    from PIL import Image

    height = 1400 if width >= 1000 else 1600
    out.parent.mkdir(parents=True, exist_ok=True)
    frame = page.parent / f".frame-{width}.html"
    frame.write_text(FRAME.format(page=page.name, width=width, height=height))
    try:
        _run(
            [f"--window-size={max(width, 500)},{height}", f"--screenshot={out.resolve()}",
             "--virtual-time-budget=5000", frame.resolve().as_uri()]
        )  # fmt: skip
    finally:
        frame.unlink()
    if out.is_file():
        image = Image.open(out).convert("RGB").crop((0, 0, width, height))
        image.quantize(colors=256).save(out, optimize=True)
    return out


def check(path: Path, shots: Path | None = None) -> list[str]:
    """Every problem of one page (screenshots saved as a side effect)."""
    page = page_of(path)
    if not page.is_file():
        return [f"{path}: no such page ({page.name})"]
    text = page.read_text(encoding="utf-8")
    problems = static_problems(page.parent, text)
    for width in (1280, 390):
        problems += browser_problems(page.parent, text, width)
        shot = screenshot(page, shot_path(path, width, shots), width)
        if not shot.is_file() or shot.stat().st_size < 1000:
            problems.append(f"{width} px: no screenshot was taken")
    return [f"{path}: {p}" for p in problems]


def main(argv: list[str]) -> int:
    shots = None
    if argv[:1] == ["--shots"]:
        shots, argv = Path(argv[1]), argv[2:]
    paths = [Path(a) for a in argv] or [Path("reports/classic")]
    problems = [p for f in paths for p in check(f, shots)]
    for p in problems:
        print(p)
    for f in paths:
        found = any(p.startswith(f"{f}:") for p in problems)
        taken = ", ".join(str(shot_path(f, w, shots)) for w in (1280, 390))
        print(f"{f}: {'problems found' if found else 'ok'} (screenshots: {taken})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

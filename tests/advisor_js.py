"""The page's own script (views/assets/advisor.js) run in V8 without a browser.

:class:`PageScript` takes a page as :func:`views.advisor_page.page_html` writes it, and
runs the script it carries, byte for byte, in an embedded V8 (the ``mini-racer``
package of the ``dev`` extra) over a small stand-in of the page's elements: what the
script reads (its config, clicks on its buttons) and what it writes (text, attributes,
children), and nothing it does not use. Where Chromium is installed,
tests/test_serve_browser.py checks the same script in a real browser.
"""

from __future__ import annotations

import json
import re
from typing import Any

from py_mini_racer import MiniRacer

# The elements the script touches: text (with children's), attributes, children, click
# handlers. getElementById makes an element on first use, as the page has them all.
DOM = r"""
var __byId = {};
function __El(tag) {
  this.tagName = tag; this.kids = []; this.attrs = {}; this.on = {}; this.text = '';
  this.className = ''; this.hidden = false; this.disabled = false; this.value = '';
  this.checked = false; this.href = '';
}
Object.defineProperty(__El.prototype, 'textContent', {
  get: function () {
    return this.text + this.kids.map(function (k) { return k.textContent; }).join('');
  },
  set: function (t) { this.text = String(t); this.kids = []; }
});
Object.defineProperty(__El.prototype, 'children', {get: function () { return this.kids; }});
__El.prototype.setAttribute = function (k, v) { this.attrs[k] = String(v); };
__El.prototype.getAttribute = function (k) {
  return Object.prototype.hasOwnProperty.call(this.attrs, k) ? this.attrs[k] : null;
};
__El.prototype.addEventListener = function (k, f) { (this.on[k] = this.on[k] || []).push(f); };
__El.prototype.appendChild = function (c) { this.kids.push(c); return c; };
__El.prototype.click = function () {
  (this.on.click || []).forEach(function (f) { f({}); });
};
var document = {
  getElementById: function (id) { return __byId[id] || (__byId[id] = new __El('div')); },
  createElement: function (tag) { return new __El(tag); },
  createTextNode: function (t) { var e = new __El('#text'); e.text = String(t); return e; },
  querySelectorAll: function () { return []; }
};
var window = globalThis, location = {hash: ''};
var history = {replaceState: function () {}};
// tap a hand at a seat as a reader would: clear, then the cards on the grid; what shows
function __tap(cards, seat) {
  window.thousandAdvisor.state.seat = seat;
  document.getElementById('clear').click();
  var grid = document.getElementById('grid').children;
  cards.forEach(function (c) {
    grid.filter(function (b) { return b.getAttribute('data-card') === String(c); })[0].click();
  });
  var v = document.getElementById('verdict');
  return {source: v.getAttribute('data-source'), action: v.getAttribute('data-action'),
    level: v.getAttribute('data-level'), say: document.getElementById('say').textContent,
    why: document.getElementById('why').textContent,
    hand: document.getElementById('hand').textContent};
}
"""


def scripts_of(page: str) -> tuple[str, str]:
    """The page's config (JSON text) and its script, as the page carries them."""
    config = re.search(r'<script type="application/json" id="advisor-config">(.*?)</script>',
                       page, re.S)  # fmt: skip
    script = re.search(r"<script>(.*?)</script>", page, re.S)
    assert config and script, "the page carries no config or no script"
    return config.group(1), script.group(1)


class PageScript:
    """The script of ``page`` started in V8, as the page starts it.

    Close it when done (or use it in a ``with`` block): an engine that used the
    language functions (``Intl``) and is still open when Python exits keeps the
    process from ending.
    """

    def __init__(self, page: str) -> None:
        config, script = scripts_of(page)
        self.ctx = MiniRacer()
        try:
            self.ctx.eval(DOM)
            self.ctx.eval(
                f"document.getElementById('advisor-config').textContent = {json.dumps(config)};"
            )
            self.ctx.eval(script)
        except BaseException:
            self.close()
            raise

    def __call__(self, expression: str, *args: Any) -> Any:
        """``expression`` (a function of ``args``) applied in the page; its value as JSON."""
        call = f"JSON.stringify(({expression}).apply(null, {json.dumps(list(args))}))"
        return json.loads(self.ctx.eval(call))

    def close(self) -> None:
        """End the engine."""
        self.ctx.close()

    def __enter__(self) -> PageScript:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

// The page to tap a hand (views/advisor_page.py): one script for both modes, the
// server's (thousand serve: answers from /api/table, then /api/advise) and the offline
// page's (the class tables embedded, answered here). Cards are ids 0..23 (suit * 6 +
// rank, suits ♠ ♣ ♦ ♥, ranks 9 J Q K 10 A), as in sim.cards; the card reader mirrors
// sim.cards.parse_card, the tables' answer analysis.advise.table_answer and the
// auction sim.table_text.read_auction.
(function () {
'use strict';
var C = JSON.parse(document.getElementById('advisor-config').textContent);
var W = C.words, L = C.layout, SERVER = C.mode === 'server';
var SUITS = '\u2660\u2663\u2666\u2665', RANKS = '9JQKTA', SUITL = 'SCDH';
var RANK_TEXT = {'9': 0, 'J': 1, 'Q': 2, 'K': 3, '10': 4, 'T': 4, 'A': 5, 'D': 2, 'W': 1,
  '\u0422': 5, '\u041a': 3, '\u0414': 2, '\u0412': 1};
var SUIT_TEXT = {'S': 0, 'C': 1, 'D': 2, 'H': 3, '\u2660': 0, '\u2663': 1, '\u2666': 2,
  '\u2665': 3, '\u041f': 0, '\u0422': 1, '\u0425': 1, '\u0411': 2, '\u0427': 3};
var ALIASES = {'\u2664': '\u2660', '\u2667': '\u2663', '\u2662': '\u2666', '\u2661': '\u2665'};
var CARD_RE = /^(10|[9JQKTADW\u0422\u041a\u0414\u0412])([SCDH\u2660\u2663\u2666\u2665\u041f\u0422\u0425\u0411\u0427])$/;
var state = {cards: [], seat: L.seats[0], bids: [String(L.opening)], score: '', barrel: false,
  talon: '', player: C.player};
var seq = 0, quick = null, full = null, timer = null, fullDone = false;

function $(id) { return document.getElementById(id); }
function fmt(t, v) {
  return String(t).replace(/\{(\w+)\}/g, function (m, k) { return k in v ? v[k] : m; });
}
function cap1(s) { s = String(s); return s.charAt(0).toLocaleUpperCase(C.lang) + s.slice(1); }
function cardText(c) { return W.ranks[c % 6] + SUITS[Math.floor(c / 6)]; }
function cardCode(c) { return RANKS[c % 6] + SUITL[Math.floor(c / 6)]; }
function red(c) { return Math.floor(c / 6) >= 2; }
function num(v, places) {
  var s = Math.abs(v).toFixed(places);
  if (W.decimal === ',') s = s.replace('.', ',');
  return (v < 0 ? '\u2212' : '') + s;
}
function signed(v) { return (v > 0 ? '+' : '') + num(v, 1).replace('\u2212', '-'); }
function pct(p) { return Math.round(100 * p) + ' %'; }
function rate(p, lo, hi) {
  return pct(p) + ' [' + Math.round(100 * lo) + W.separator + Math.round(100 * hi) + ']';
}
function expected(v, lo, hi) {
  return signed(v) + ' [' + signed(lo) + W.separator + signed(hi) + ']';
}
function risk() { return pct(C.risk); }
function seatName(s) { return W.seats[s] || s; }
function sortCards(cs) {
  return cs.slice().sort(function (a, b) {
    var sa = Math.floor(a / 6), sb = Math.floor(b / 6);
    return sa !== sb ? sb - sa : b % 6 - a % 6;
  });
}

// --- reading pasted cards: sim.cards.parse_card's notations ---
function parseCard(text) {
  var t = String(text).trim().toUpperCase().replace(/\uFE0F/g, '');
  Object.keys(ALIASES).forEach(function (a) { t = t.split(a).join(ALIASES[a]); });
  var m = CARD_RE.exec(t);
  if (!m) throw new Error(fmt(W.bad_card, {card: '\'' + text + '\''}));
  return SUIT_TEXT[m[2]] * 6 + RANK_TEXT[m[1]];
}
function parseCards(text) {
  var ids = String(text).trim().split(/[\s,]+/).filter(function (t) { return t; }).map(parseCard);
  var seen = {};
  ids.forEach(function (c) {
    if (seen[c]) throw new Error(fmt(W.twice, {card: cardText(c)}));
    seen[c] = true;
  });
  return ids;
}

// --- the class tables' answer: analysis.advise.table_answer (a lookup: the choice is
// computed once, by analysis.choices.best_choice, when the tables are built) ---
function handClass(cards) {
  var has = {}, marr = '', mask = 0, aces = 0;
  cards.forEach(function (c) { has[c] = true; if (c % 6 === 5) aces += 1; });
  [3, 2, 1, 0].forEach(function (s) {
    if (has[s * 6 + 3] && has[s * 6 + 2]) { marr += SUITS[s]; mask |= 1 << s; }
  });
  return {marriages: marr || 'none', mask: mask, aces: aces};
}
function tableAnswer(cards, seat, T) {
  var k = handClass(cards), entry = null, cell = null, i;
  for (i = 0; i < T.classes.length; i++) {
    if (T.classes[i].mask === k.mask && T.classes[i].aces === k.aces) entry = T.classes[i];
  }
  for (i = 0; entry && i < entry.cells.length; i++) {
    if (entry.cells[i].seat === seat) cell = entry.cells[i];
  }
  var marr = k.marriages === 'none' ? 'no marriage' : k.marriages + ' marriage';
  return {player: T.player, deals: T.deals, seed: T.seed, 'class': marr + ', ' + k.aces + ' aces',
    seat: seat, n: cell ? cell.n : 0, best: cell ? cell.best : null,
    levels: (cell ? cell.rows : []).map(function (r) {
      return {level: r[0], mean: r[1], low: r[2], high: r[3], p: r[4], ci_low: r[5], ci_high: r[6]};
    })};
}
function classWords(klass) {
  var m = /^(no marriage|(\S+) marriage)(?:, (\d) aces)?$/.exec(klass);
  if (!m) return klass;
  var marr = m[2] === undefined ? W.no_marriage : fmt(W.marriage, {suits: m[2]});
  return m[3] === undefined ? marr : fmt(W['class'], {marriage: marr, aces: m[3]});
}
function handCap(cards) {
  if (!L.cap_by_marriages) return L.max_bid;
  var has = {}, cap = 120;
  cards.forEach(function (c) { has[c] = true; });
  for (var s = 0; s < 4; s++) if (has[s * 6 + 3] && has[s * 6 + 2]) cap += L.marriage_values[s];
  return cap;
}

// --- the auction: sim.table_text.read_auction ---
function auction(tokens) {
  var n = L.seats.length, out = {}, outs = 0, high = L.opening, highSeat = 0, turn = 0;
  var bids = [[0, L.opening]];
  function next(t) { t = (t + 1) % n; while (out[t]) t = (t + 1) % n; return t; }
  for (var i = 1; i < tokens.length; i++) {
    turn = next(turn);
    if (tokens[i] === 'pass') { out[turn] = true; outs += 1; bids.push([turn, null]); }
    else { high = +tokens[i]; highSeat = turn; bids.push([turn, high]); }
  }
  var over = outs >= n - 1;
  return {bids: bids, high: high, highSeat: highSeat, over: over,
    next: over ? highSeat : next(turn)};
}
function nextLevels(a, seat) {
  var out = [], limit = seat === state.seat ? handCap(state.cards) : L.max_bid;
  for (var i = 0; i < L.levels.length && out.length < 8; i++) {
    var v = L.levels[i];
    if (v <= a.high || v > limit) continue;
    if (!L.jumps && v !== a.high + L.step) continue;
    out.push(v);
  }
  return out;
}

// --- the verdict: what the page shows of an answer, in the advisor's words ---
function tablesVerdict(t, high) {
  var v, forehand = t.seat === L.seats[0];
  if (high) {  // an auction so far: the tables know none; raise to their level, or pass
    v = t.best !== null && t.best > high
      ? {action: 'raise', level: t.best, say: fmt(W.say_raise, {level: t.best})}
      : {action: 'pass', level: null, say: W.say_pass};
  } else if (t.best === null || t.best === 0) {
    v = {action: 'pass', level: null, say: forehand ? W.say_forehand_pass : W.say_pass};
  } else if (forehand && t.best === L.opening) {
    v = {action: 'bid', level: t.best, say: W.say_forehand_100};
  } else {
    v = {action: 'bid', level: t.best, say: fmt(W.say_bid, {level: t.best})};
  }
  return v;
}
function fromTables(t, high) {
  var v = tablesVerdict(t, high);
  v.why = fmt(W.why_class, {klass: classWords(t['class']), n: t.n.toLocaleString(C.lang),
    player: t.player}) + (high ? ' ' + W.why_class_auction : '');
  v.rows = t.levels.map(function (r) {
    return {level: r.level, p: r.p, mean: r.mean, cells: [choiceName(r.level),
      expected(r.mean, r.low, r.high), r.p === null ? '\u2014' : rate(r.p, r.ci_low, r.ci_high)]};
  });
  v.head = [W.choice, W.margin, W.p_make];
  v.mark = t.best;
  v.from = high ? high + L.step : 0;
  return v;
}
function choiceName(level) { return level ? fmt(W.up_to, {level: level}) : W.pass; }
function fromAdvice(doc) {
  var v = {action: '', level: null, say: '\u2014', why: ''};
  if (doc.choices) {
    var p = {};
    (doc.levels || []).forEach(function (r) { p[r.level] = r; });
    v.rows = doc.choices.map(function (r) {
      var m = p[r.level];
      return {level: r.level, p: m ? m.p : null, mean: r.mean, cells: [choiceName(r.level),
        doc.measure === 'win' ? rate(r.mean, r.low, r.high) : expected(r.mean, r.low, r.high),
        m ? rate(m.p, m.ci_low, m.ci_high) : '\u2014']};
    });
    v.head = [W.choice, doc.measure === 'win' ? W.win_chance : W.margin, W.p_make];
    v.from = doc.high_bid ? doc.high_bid + L.step : 0;
  }
  if (doc.verdict) {  // the advisor's own words
    v.action = doc.verdict.action; v.level = doc.verdict.level;
    v.say = doc.verdict.say; v.why = doc.verdict.why || '';
    v.assumed = doc.verdict.table || '';
    v.mark = doc.verdict.action === 'pass' ? 0 : doc.verdict.level;
  }
  v.game = doc.game && doc.game.say ? doc.game.say : '';
  return v;
}
// a sentence with `code` spans (the advisor's Markdown), as text and <code> elements
function putText(el, text) {
  el.textContent = '';
  String(text || '').split('`').forEach(function (part, i) {
    if (!part) return;
    if (i % 2) { var c = document.createElement('code'); c.textContent = part; el.appendChild(c); }
    else el.appendChild(document.createTextNode(part));
  });
}
function show(v, source) {
  var box = $('verdict');
  box.setAttribute('data-source', source);
  box.setAttribute('data-action', v.action || '');
  box.setAttribute('data-level', v.level === null || v.level === undefined ? '' : String(v.level));
  $('say').textContent = cap1(v.say);
  putText($('why'), v.why);
  putText($('game'), v.game);
  putText($('assumed'), v.assumed);  // the verdict's own sentence
  var detail = $('detail');
  detail.textContent = '';
  if (!v.rows || !v.rows.length) return;
  var tbl = document.createElement('table'), tr;
  tr = document.createElement('tr');
  v.head.forEach(function (h) { var th = document.createElement('th'); th.textContent = h; tr.appendChild(th); });
  tbl.appendChild(tr);
  // passing, then each level from the first raise open: a level that scores as the one
  // before it (the auction never reaches it) is left out, and so is every level past
  // the first one made in under 5 % of the deals
  var low = false, from = Math.max(v.from || 0, 0), last = null;
  v.rows.forEach(function (r) {
    if (low || (r.level && r.level < from)) return;
    if (r.level && r.level !== v.mark && last !== null && r.mean === last) return;
    last = r.mean;
    tr = document.createElement('tr');
    if (r.level === v.mark) tr.className = 'rec';
    r.cells.forEach(function (c) {
      var td = document.createElement('td'); td.textContent = c; tr.appendChild(td);
    });
    tbl.appendChild(tr);
    if (r.p !== null && r.p < 0.05 && r.level > (v.mark || 0)) low = true;
  });
  detail.appendChild(tbl);
}
function status(text, working, error) {
  var s = $('status');
  s.textContent = '';
  s.className = error ? 'status error' : 'status';
  if (working) { var sp = document.createElement('span'); sp.className = 'spinner'; s.appendChild(sp); }
  s.appendChild(document.createTextNode(text));
}
function pending(on) { $('verdict').setAttribute('data-pending', on ? 'true' : 'false'); }
function clearVerdict(text) {
  var box = $('verdict');
  pending(false);
  box.setAttribute('data-source', 'none');
  box.setAttribute('data-action', '');
  box.setAttribute('data-level', '');
  $('say').textContent = text; $('why').textContent = ''; $('assumed').textContent = '';
  $('game').textContent = '';
  $('detail').textContent = ''; $('status').textContent = '';
}

// --- asking the server ---
function post(path, body, ctl) {
  return fetch(path, {method: 'POST', headers: {'Content-Type': 'application/json'},
    body: JSON.stringify(body), signal: ctl.signal}).then(function (r) {
    return r.json().then(function (doc) {
      if (!r.ok) throw new Error(doc.error || String(r.status));
      return doc;
    });
  });
}
function talonCards() {  // the talon typed, or null; a bad card or count gets a message
  var err = $('talon-error'), text = state.talon.trim();
  if (err) err.textContent = '';
  if (!text) return null;
  try {
    var ids = parseCards(text);
    ids.forEach(function (c) {
      if (state.cards.indexOf(c) >= 0) throw new Error(fmt(W.twice, {card: cardText(c)}));
    });
    if (ids.length !== 3) throw new Error(fmt(W.too_many, {size: 3, count: ids.length}));
    return ids;
  } catch (e) {
    if (err) err.textContent = fmt(W.talon_error, {reason: e.message});
    return null;
  }
}
function question(a) {
  var q = {hand: state.cards.map(cardCode).join(' '), seat: state.seat, lang: C.lang,
    player: state.player};
  var mine = L.seats.indexOf(state.seat);
  var talon = talonCards();
  if (a.over) {
    if (!talon) return null;
    if (a.highSeat === mine) { q.talon = talon.map(cardCode).join(' '); q.bid = a.high; }
    else { q.auction = state.bids.join(' '); q.talon_shown = talon.map(cardCode).join(' '); }
  } else if (a.next === mine) {
    q.auction = state.bids.join(' ');
  }
  if (state.score !== '' && !isNaN(+state.score)) q.score = Math.round(+state.score);
  if (state.barrel) q.barrel = true;
  return q;
}
function ask() {
  seq += 1;
  var mine = seq;
  [quick, full].forEach(function (c) { if (c) c.abort(); });
  quick = full = null;
  fullDone = false;
  if (timer) clearTimeout(timer);
  if (state.cards.length !== L.hand_size) {
    clearVerdict(state.cards.length ? fmt(W.more, {count: L.hand_size - state.cards.length})
      : W.start);
    return;
  }
  if (!SERVER) {
    pending(false);
    show(fromTables(tableAnswer(state.cards, state.seat, C.tables), 0), 'tables');
    return;
  }
  var a = auction(state.bids), mineSeat = L.seats.indexOf(state.seat);
  var high = !a.over && a.next === mineSeat && state.bids.length > 1 ? a.high : 0;
  var q = question(a);
  var overText = a.over ? fmt(W.over, {seat: seatName(L.seats[a.highSeat]), bid: a.high}) : '';
  if (a.over && !q) {  // the auction is over: the bid's verdict is past, the talon is next
    clearVerdict(overText);
    $('why').textContent = W.over_hint;
    return;
  }
  var note = a.over ? overText : (a.next !== mineSeat ? W.before_turn : '');
  var base = {hand: state.cards.map(cardCode).join(' '), seat: state.seat, lang: C.lang,
    player: state.player};
  quick = new AbortController();
  post('api/table', base, quick).then(function (doc) {
    if (mine !== seq || fullDone || a.over) return;
    show(fromTables(doc.table, high), 'tables');
    if (full) status(W.tables_first, true);
  }).catch(function (e) { if (mine === seq && e.name !== 'AbortError') status(e.message, false, true); });
  if (!q) { pending(false); status(note, false); return; }
  full = new AbortController();
  var ctl = full, t0 = performance.now();
  status(W.tables_first, true);
  pending(true);
  timer = setTimeout(function () {
    post('api/advise', q, ctl).then(function (doc) {
      if (mine !== seq) return;
      fullDone = true;
      show(fromAdvice(doc), 'advisor');
      pending(false);
      var secs = num((performance.now() - t0) / 1000, 1);
      status(fmt(W.done, {samples: doc.samples.toLocaleString(C.lang), seconds: secs})
        + (note ? ' ' + note : ''), false);
    }).catch(function (e) {
      if (mine !== seq || e.name === 'AbortError') return;
      pending(false);
      status(fmt(W.failed, {reason: e.message}), false, true);
    });
  }, 250);
}

// --- drawing the controls ---
function drawHand() {
  var hand = $('hand');
  hand.textContent = '';
  sortCards(state.cards).forEach(function (c, i) {
    var s = document.createElement('span');
    s.textContent = (i ? ' ' : '') + cardText(c);
    if (red(c)) s.className = 'red';
    hand.appendChild(s);
  });
  $('count').textContent = fmt(W.count, {count: state.cards.length, size: L.hand_size});
  var isFull = state.cards.length >= L.hand_size;
  Array.prototype.forEach.call($('grid').children, function (b) {
    var on = state.cards.indexOf(+b.getAttribute('data-card')) >= 0;
    b.setAttribute('aria-pressed', on ? 'true' : 'false');
    b.disabled = isFull && !on;
  });
}
function drawGrid() {
  var grid = $('grid');
  [3, 2, 1, 0].forEach(function (s) {
    [5, 4, 3, 2, 1, 0].forEach(function (r) {
      var c = s * 6 + r, b = document.createElement('button');
      b.type = 'button';
      b.className = 'card' + (red(c) ? ' red' : '');
      b.textContent = cardText(c);
      b.setAttribute('data-card', String(c));
      b.setAttribute('data-code', cardCode(c));
      b.addEventListener('click', function () {
        var i = state.cards.indexOf(c);
        if (i >= 0) state.cards.splice(i, 1);
        else if (state.cards.length < L.hand_size) state.cards.push(c);
        changed();
      });
      grid.appendChild(b);
    });
  });
}
function drawSeats() {
  var box = $('seats');
  box.textContent = '';
  L.seats.forEach(function (s) {
    var b = document.createElement('button');
    b.type = 'button';
    b.textContent = seatName(s);
    b.setAttribute('data-seat', s);
    b.setAttribute('aria-pressed', s === state.seat ? 'true' : 'false');
    b.addEventListener('click', function () { state.seat = s; changed(); });
    box.appendChild(b);
  });
}
function drawAuction() {
  var a = auction(state.bids), parts = a.bids.map(function (b) {
    return seatName(L.seats[b[0]]) + ' ' + (b[1] === null ? W.pass : b[1]);
  });
  $('auction-line').textContent = parts.length > 1 ? parts.join(' \u00b7 ')
    : fmt(W.auction_start, {bid: L.opening});
  var bids = $('bids');
  bids.textContent = '';
  $('undo').disabled = state.bids.length < 2;
  if (a.over) {
    $('turn').textContent = fmt(W.over, {seat: seatName(L.seats[a.highSeat]), bid: a.high});
    return;
  }
  var seat = L.seats[a.next];
  $('turn').textContent = fmt(seat === state.seat ? W.your_turn : W.to_bid, {seat: seatName(seat)});
  var p = document.createElement('button');
  p.type = 'button'; p.className = 'pass'; p.textContent = W.pass; p.setAttribute('data-bid', 'pass');
  p.addEventListener('click', function () { state.bids.push('pass'); changed(); });
  bids.appendChild(p);
  nextLevels(a, seat).forEach(function (v) {
    var b = document.createElement('button');
    b.type = 'button'; b.textContent = String(v); b.setAttribute('data-bid', String(v));
    b.addEventListener('click', function () { state.bids.push(String(v)); changed(); });
    bids.appendChild(b);
  });
}
function save() {
  var h = 'h=' + state.cards.map(cardCode).join('.');
  if (SERVER) {
    h += '&s=' + state.seat + '&a=' + state.bids.join('.');
    if (state.score !== '') h += '&sc=' + encodeURIComponent(state.score);
    if (state.barrel) h += '&b=1';
    if (state.talon) h += '&t=' + encodeURIComponent(state.talon);
    if (state.player !== C.player) h += '&p=' + state.player;
  }
  try { history.replaceState(null, '', '#' + h); } catch (e) { /* a file: page may refuse */ }
  document.querySelectorAll('nav.langs a').forEach(function (l) {
    l.href = l.href.split('#')[0] + '#' + h;
  });
}
function load() {
  var h = location.hash.replace(/^#/, '');
  if (!h) return;
  h.split('&').forEach(function (kv) {
    var k = kv.split('=')[0], v = decodeURIComponent(kv.slice(k.length + 1));
    try {
      if (k === 'h' && v) state.cards = parseCards(v.split('.').join(' ')).slice(0, L.hand_size);
      if (k === 's' && L.seats.indexOf(v) >= 0) state.seat = v;
      if (k === 'a' && v) {
        var t = v.split('.');
        if (t[0] === String(L.opening) && t.every(function (x) { return x === 'pass' || /^\d+$/.test(x); })) state.bids = t;
      }
      if (k === 'sc') state.score = v;
      if (k === 'b') state.barrel = v === '1';
      if (k === 't') state.talon = v;
      if (k === 'p' && C.players.indexOf(v) >= 0) state.player = v;
    } catch (e) { /* a stale or edited address: start from what was read */ }
  });
}
function changed() {
  drawHand();
  if (SERVER) { drawSeats(); drawAuction(); }
  save();
  ask();
}
function init() {
  load();
  document.querySelectorAll('[data-server]').forEach(function (el) { el.hidden = !SERVER; });
  $('tap').textContent = fmt(W.tap, {size: L.hand_size});
  drawGrid();
  $('read').addEventListener('click', function () {
    $('card-error').textContent = '';
    try {
      var ids = parseCards($('paste').value);
      if (ids.length !== L.hand_size) throw new Error(fmt(W.too_many, {size: L.hand_size, count: ids.length}));
      state.cards = ids;
      changed();
    } catch (e) { $('card-error').textContent = e.message; }
  });
  $('paste').addEventListener('keydown', function (e) { if (e.key === 'Enter') $('read').click(); });
  $('clear').addEventListener('click', function () {
    state.cards = []; $('paste').value = ''; $('card-error').textContent = ''; changed();
  });
  if (SERVER) {
    $('undo').addEventListener('click', function () {
      if (state.bids.length > 1) { state.bids.pop(); changed(); }
    });
    $('new-deal').addEventListener('click', function () {
      state.cards = []; state.bids = [String(L.opening)]; state.talon = ''; $('talon').value = '';
      changed();
    });
    var sc = $('score'), br = $('barrel'), ta = $('talon'), pl = $('player');
    sc.value = state.score; br.checked = state.barrel; ta.value = state.talon;
    C.players.forEach(function (p) {
      var o = document.createElement('option'); o.value = p; o.textContent = p; pl.appendChild(o);
    });
    pl.value = state.player;
    // typed fields follow each keystroke (the advisor is asked once typing pauses): a
    // 'change' on leaving the field would redraw the page under the finger's next tap
    sc.addEventListener('input', function () { state.score = sc.value; changed(); });
    br.addEventListener('change', function () { state.barrel = br.checked; changed(); });
    ta.addEventListener('input', function () { state.talon = ta.value; changed(); });
    pl.addEventListener('change', function () { state.player = pl.value; changed(); });
  }
  changed();
}
window.thousandAdvisor = {parseCards: parseCards, tableAnswer: tableAnswer, handClass: handClass,
  auction: auction, state: state};
init();
})();

/* "Check this deal" on a finished game's replay: the browser recomputes the seal from the
   revealed number (WebCrypto SHA-256) and the deal itself, with the same shuffle the server
   runs written out here (Python's Mersenne Twister seeded with the text "(number,
   'purpose')" through SHA-512, a Fisher-Yates shuffle from the end), and shows each seat's
   dealt hand beside the replay's. games/core/verify_deal.py is the same in Python; a test
   holds the two and the engines equal over 1,000 numbers per game (docs/play.md). */
(function (root) {
  "use strict";

  // --- Python's random.Random(text): MT19937 seeded by init_by_array --------------------
  function MT(key) {
    const mt = new Uint32Array(624);
    mt[0] = 19650218;
    for (let i = 1; i < 624; i++) {
      const p = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = (Math.imul(1812433253, p) + i) >>> 0;
    }
    let i = 1, j = 0;
    for (let k = Math.max(624, key.length); k > 0; k--) {
      const p = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(p, 1664525)) + key[j] + j) >>> 0;
      i++; j++;
      if (i >= 624) { mt[0] = mt[623]; i = 1; }
      if (j >= key.length) j = 0;
    }
    for (let k = 623; k > 0; k--) {
      const p = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(p, 1566083941)) - i) >>> 0;
      i++;
      if (i >= 624) { mt[0] = mt[623]; i = 1; }
    }
    mt[0] = 0x80000000;
    this.mt = mt;
    this.index = 624;
  }
  MT.prototype.next32 = function () {
    const mt = this.mt;
    if (this.index >= 624) {
      for (let k = 0; k < 624; k++) {
        const y = (mt[k] & 0x80000000) | (mt[(k + 1) % 624] & 0x7fffffff);
        mt[k] = mt[(k + 397) % 624] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = mt[this.index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  };
  MT.prototype.bits = function (k) { // getrandbits(k), 1 <= k <= 32
    return this.next32() >>> (32 - k);
  };
  MT.prototype.below = function (n) { // a whole number from 0 to n - 1, by rejection
    const k = 32 - Math.clz32(n);
    let r = this.bits(k);
    while (r >= n) r = this.bits(k);
    return r;
  };
  MT.prototype.shuffle = function (items) { // Fisher-Yates from the end
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.below(i + 1);
      const t = items[i]; items[i] = items[j]; items[j] = t;
    }
    return items;
  };

  function subtle() {
    const c = root.crypto || (typeof require === "function" ? require("crypto").webcrypto : null);
    return c.subtle;
  }

  function hex(buffer) {
    return Array.from(new Uint8Array(buffer)).map((b) => b.toString(16).padStart(2, "0")).join("");
  }

  // random.Random(text): the seed is the whole number whose bytes are the text's UTF-8 then
  // its SHA-512, cut into 32-bit words from the least significant end.
  async function stream(seed, salt) {
    const text = "(" + [String(seed)].concat(salt.map((s) => typeof s === "string" ? "'" + s + "'" : String(s))).join(", ") + ")";
    const bytes = new TextEncoder().encode(text);
    const digest = new Uint8Array(await subtle().digest("SHA-512", bytes));
    const all = new Uint8Array(bytes.length + digest.length);
    all.set(bytes); all.set(digest, bytes.length);
    const key = [];
    for (let end = all.length; end > 0; end -= 4) {
      let w = 0;
      for (let b = Math.max(0, end - 4); b < end; b++) w = (w * 256 + all[b]) >>> 0;
      key.push(w);
    }
    while (key.length > 1 && key[key.length - 1] === 0) key.pop();
    return new MT(key);
  }

  async function seal(seed, table) {
    const data = new TextEncoder().encode(String(seed) + ":" + String(table));
    return hex(await subtle().digest("SHA-256", data));
  }

  const SIDES = ["tramontana", "mezzogiorno"];
  const QUARTERS = ["east", "west"];

  function seatsOf(game, ruleset) {
    if (ruleset && ruleset.seats) return Number(ruleset.seats);
    if (game === "tarocco") return 4;
    const name = (ruleset && ruleset.name) || "";
    if (game === "ergio" || game === "cardchess") return { "3p": 3, "4p": 4, "6p": 6 }[name] || 2;
    return 2;
  }

  // The record's deal a number gives (cardChess: the first `sfide` decks).
  async function deal(game, seed, ruleset, packs, sfide) {
    ruleset = ruleset || {};
    const name = ruleset.name || "";
    if (game === "tarocco") {
      return { dealer: Number(BigInt(seed) % 4n), deck: (await stream(seed, ["deck"])).shuffle(packs.tarocco.slice()) };
    }
    if (game === "ergio") {
      const decks = packs.ergio[ruleset.advanced ? "advanced" : "base"];
      const out = {};
      for (let n = 0; n < 2; n++) out[SIDES[n]] = (await stream(seed, ["deck", n])).shuffle(decks[n].slice());
      return out;
    }
    if (game === "ponte") {
      const r = await stream(seed, ["ponte-deal"]);
      const first = r.below(2);
      const perms = [0, 1].map(() => r.shuffle([0, 1, 2, 3, 4, 5]));
      const quarter = r.below(2);
      return { first: SIDES[first], strategy: perms, first_quarter: QUARTERS[quarter] };
    }
    if (game === "cardchess") {
      let deck = packs.cardchess.slice();
      if (name === "3p" || name === "4p") deck = deck.concat(packs.cardchess);
      if (name === "4p") deck.splice(deck.indexOf(ruleset.removed_pawn || "bP1l"), 1);
      const out = [];
      for (let k = 0; k < Math.max(1, sfide || 1); k++) out.push({ deck: (await stream(seed, ["deck", k])).shuffle(deck.slice()) });
      return { sfide: out };
    }
    return null;
  }

  // Each seat's cards as dealt, as games/core/verify_deal.py's `hands` gives them.
  function hands(game, dealt, ruleset) {
    ruleset = ruleset || {};
    const seats = seatsOf(game, ruleset);
    const out = [];
    if (game === "tarocco") {
      const d = dealt.deck;
      for (let i = 0; i < 4; i++) {
        const seat = (dealt.dealer + 1 + i) % 4;
        out.push({ seat: seat, cards: d.slice(i * 5, i * 5 + 5).concat(d.slice(20 + i * 5, 25 + i * 5)), later: d.slice(40 + i * 5, 45 + i * 5) });
      }
      out.sort((a, b) => a.seat - b.seat);
      out.push({ seat: null, place: "monte", cards: d.slice(60, 63) });
    } else if (game === "ergio") {
      const size = Number(ruleset.hand_size || 12);
      for (let seat = 0; seat < seats; seat++) {
        const d = dealt[SIDES[seat % 2]], k = Math.floor(seat / 2);
        out.push({ seat: seat, cards: d.slice(k * size, (k + 1) * size) });
      }
    } else if (game === "cardchess") {
      dealt.sfide.forEach((s, n) => {
        for (let seat = 0; seat < seats; seat++) out.push({ seat: seat, sfida: n + 1, cards: s.deck.slice(seat * 4, seat * 4 + 4) });
        out.push({ seat: null, place: "table", sfida: n + 1, cards: s.deck.slice(seats * 4, seats * 4 + 3) });
      });
    } else if (game === "ponte") {
      dealt.strategy.forEach((perm, side) => out.push({ seat: side, cards: perm.map(String) }));
    }
    return out;
  }

  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }
  // Whether every card dealt is in the replay's first hand (shown sorted, perhaps with the
  // first cards drawn already: Er Giò's first side starts its turn with a draw).
  function sameCards(replay, dealt) {
    const left = {};
    replay.forEach((c) => { left[c] = (left[c] || 0) + 1; });
    return dealt.every((c) => (left[c] = (left[c] || 0) - 1) >= 0);
  }

  // Whether the record's deal is the one the number deals (as verify_deal.compared).
  function compared(game, mine, theirs) {
    if (!theirs || typeof theirs !== "object") return false;
    if (game === "cardchess") return same((theirs.sfide || []).map((s) => s.deck), mine.sfide.map((s) => s.deck));
    return Object.keys(mine).every((k) => (game === "ponte" && k === "first_quarter" && !(k in theirs)) || same(theirs[k], mine[k]));
  }

  const api = { MT: MT, stream: stream, seal: seal, deal: deal, hands: hands, compared: compared };
  if (typeof module !== "undefined" && module.exports) { module.exports = api; return; }
  root.DealCheck = api; // the same functions for a test run in the browser

  // --- the page ----------------------------------------------------------------------------
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  async function run(box) {
    const data = JSON.parse(document.getElementById("deal-check-data").textContent);
    const words = data.words;
    const out = box.querySelector("#deal-check-result");
    out.textContent = "";
    const computed = await seal(data.seed, data.table);
    const sealOk = computed === data.commitment;
    const line = el("p", sealOk ? "ok" : "error", (sealOk ? "✓ " : "✗ ") + (sealOk ? words.seal_ok : words.seal_bad));
    line.id = "deal-check-seal";
    out.appendChild(line);
    out.appendChild(el("p", "mono seal", computed));
    const mine = await deal(data.game, data.seed, data.ruleset, data.packs, (data.deal && data.deal.sfide) ? data.deal.sfide.length : 1);
    if (!mine) { out.appendChild(el("p", "muted", words.no_deal)); return; }
    const dealOk = compared(data.game, mine, data.deal);
    const verdict = el("p", dealOk ? "ok" : "error", (dealOk ? "✓ " : "✗ ") + (dealOk ? words.deal_ok : words.deal_bad));
    verdict.id = "deal-check-verdict";
    out.appendChild(verdict);
    const table = el("table", "grid");
    table.id = "deal-check-hands";
    const head = el("tr");
    [words.who, words.computed, words.replay].forEach((w) => { const th = el("th", "", w); th.scope = "col"; head.appendChild(th); });
    table.appendChild(el("thead")).appendChild(head);
    const body = table.appendChild(el("tbody"));
    const names = data.names || [];
    const name = (code) => (data.card_names && data.card_names[code]) || code;
    hands(data.game, mine, data.ruleset).forEach((h) => {
      const key = (h.sfida || 1) + ":" + (h.seat !== null && h.seat !== undefined ? h.seat : h.place);
      const replay = (data.replay || {})[key] ? { cards: data.replay[key] } : null;
      const tr = el("tr");
      tr.dataset.match = replay ? String(sameCards(replay.cards, h.cards)) : "";
      let who = h.seat !== null && h.seat !== undefined ? (names[h.seat] || (words.seat + " " + (h.seat + 1))) : (words[h.place] || h.place);
      if (h.sfida) who = words.sfida + " " + h.sfida + " · " + who;
      tr.appendChild(el("th", "", who));
      tr.appendChild(el("td", "hand-words", h.cards.map(name).join(", ") + (h.later && h.later.length ? " + " + h.later.map(name).join(", ") : "")));
      tr.appendChild(el("td", "hand-words", replay ? ((sameCards(replay.cards, h.cards) ? "✓ " : "✗ ") + replay.cards.map(name).join(", ")) : "—"));
      body.appendChild(tr);
    });
    out.appendChild(table);
    out.focus();
  }

  document.addEventListener("DOMContentLoaded", function () {
    const box = document.getElementById("deal-check");
    if (!box) return;
    const button = box.querySelector("#deal-check-run");
    button.hidden = false;
    button.addEventListener("click", function () {
      button.disabled = true;
      run(box).catch(function (err) {
        box.querySelector("#deal-check-result").textContent = String(err);
      }).finally(function () { button.disabled = false; });
    });
  });
})(typeof globalThis !== "undefined" ? globalThis : this);

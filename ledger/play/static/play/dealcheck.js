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

  // San Marco's decks as the server keeps them: always in this order, a card drawn by its place.
  const SM_DISTRICTS = ["cannaregio", "santa_croce", "san_polo", "san_marco", "dorsoduro", "castello"];
  const SM_CARDS = SM_DISTRICTS.concat(["bridge", "transfer", "doge", "banish"]);
  function repeat(item, n) { return Array.from({ length: n }, () => item); }
  const SM_ACTIONS = [].concat(...SM_DISTRICTS.map((d) => repeat(d, 5)),
    repeat("bridge", 6), repeat("transfer", 12), repeat("doge", 10), repeat("banish", 4));
  const SM_LIMITS = [].concat(repeat(1, 8), repeat(2, 10), repeat(3, 10));

  // San Marco's chance drawn again from the number along the record's chance order (as
  // verify_deal.sanmarco_chance).
  async function sanmarcoChance(seed, order) {
    const r = await stream(seed, ["sanmarco-chance"]);
    const decks = { action_cards: SM_ACTIONS.slice(), limit_cards: SM_LIMITS.slice() };
    const out = { dice: [], action_cards: [], limit_cards: [], roles: [] };
    for (const e of order) {
      if (e === "dice") out.dice.push(1 + r.below(6));
      else if (typeof e === "string" && decks[e]) out[e].push(decks[e].splice(r.below(decks[e].length), 1)[0]);
      else if (Array.isArray(e) && e[0] === "roles") out.roles.push(e[1][r.below(e[1].length)].slice());
      else if (Array.isArray(e) && e[0] === "reshuffle") {
        const rank = e[1] === "action_cards" ? (c) => SM_CARDS.indexOf(c) : (c) => Number(c);
        decks[e[1]] = e[2].slice().sort((a, b) => rank(a) - rank(b));
      }
    }
    return out;
  }

  // Each colour's chance read along the order (as verify_deal.sanmarco_items).
  function sanmarcoItems(order, chance) {
    const taken = { dice: 0, action_cards: 0, limit_cards: 0, roles: 0 };
    const out = {};
    let who = null, rolls = 0;
    for (const e of order) {
      if (Array.isArray(e) && e[0] === "for") { who = [Number(e[1]), String(e[2])]; rolls = 4; continue; }
      if (Array.isArray(e) && e[0] === "reshuffle") continue;
      const kind = typeof e === "string" ? e : String(e[0]);
      const values = chance[kind] || [];
      const i = taken[kind] || 0;
      if (i >= values.length) break;
      taken[kind] = i + 1;
      const value = values[i];
      let key;
      if (kind === "dice" && who && who[1] === "setup" && rolls > 0) { key = who[0] + ":setup"; rolls--; }
      else if ((kind === "action_cards" || kind === "limit_cards") && who && who[1] === "hand") key = who[0] + ":hand";
      else { who = null; key = "table:other"; }
      const shown = kind === "limit_cards" ? "limit:" + value : kind === "roles" ? value.join("-") : String(value);
      (out[key] = out[key] || []).push(shown);
    }
    return out;
  }

  // cardChess with two: each sfida's discards in the order they were laid aside until its
  // deck ran out, from the record's deals and play (as verify_deal.cardchess_discards).
  function cardchessDiscards(theirs, actions, seats) {
    const out = {};
    const sfide = ((theirs && theirs.sfide) || []).filter((s) => s && typeof s === "object");
    if (seats !== 2 || !sfide.length) return out;
    let k = 0, deck = (sfide[0].deck || []).slice(), table = deck.slice(8, 11), at = 11, pile = null;
    let discard = [], plays = [null, null];
    for (const raw of actions || []) {
      if (!raw || typeof raw !== "object") break;
      if ("play" in raw) { if (raw.seat === 0 || raw.seat === 1) plays[raw.seat] = raw.play; continue; }
      const r = raw.resolve;
      if (typeof r !== "number" || r >= table.length) break;
      if (raw.taker === null || raw.taker === undefined) {
        discard.push(table[r]);
        for (const p of plays) if (Array.isArray(p) && r < p.length && p[r] !== null) discard.push(p[r]);
      }
      if (r + 1 < table.length) continue;
      plays = [null, null];
      let source = pile === null ? deck : pile;
      if (at >= source.length && pile === null && discard.length) {
        out[k] = discard.slice();
        pile = (sfide[k].reshuffle || []).slice();
        at = 0; discard = []; source = pile;
      }
      if (at >= source.length) {
        k++;
        if (k >= sfide.length) break;
        deck = (sfide[k].deck || []).slice(); pile = null; discard = [];
        table = deck.slice(8, 11); at = 11;
        continue;
      }
      const dealt = source.slice(at, at + 9);
      at += dealt.length;
      table = pile !== null ? dealt.filter((_c, i) => i % 3 === 0) : dealt.slice(6, 9);
    }
    return out;
  }

  // The record's deal a number gives (cardChess: the first `sfide` decks and each reshuffle
  // the record's play makes; San Marco: its chance along the record's chance order).
  async function deal(game, seed, ruleset, packs, sfide, record) {
    ruleset = ruleset || {};
    record = record || {};
    const name = ruleset.name || "";
    if (game === "sanmarco") {
      const order = record.chance_order;
      if (!Array.isArray(order) || !order.length) return null;
      return { chance: await sanmarcoChance(seed, order), order: order };
    }
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
      const laid = cardchessDiscards(record.deal, record.actions, (name === "" || name === "2p") ? 2 : 0);
      for (const k of Object.keys(laid)) {
        if (Number(k) < out.length) out[Number(k)].reshuffle = (await stream(seed, ["reshuffle", Number(k)])).shuffle(laid[k]);
      }
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
        if (s.reshuffle) { // dealt one at a time: the table, then each seat
          const again = s.reshuffle, step = seats + 1;
          for (let seat = 0; seat < seats; seat++) out.push({ seat: seat, sfida: n + 1, after: "reshuffle", cards: again.filter((_c, i) => i % step === seat + 1) });
          out.push({ seat: null, place: "table", sfida: n + 1, after: "reshuffle", cards: again.filter((_c, i) => i % step === 0) });
        }
      });
    } else if (game === "sanmarco") {
      const found = sanmarcoItems(dealt.order, dealt.chance);
      for (const key of Object.keys(found)) {
        const parts = key.split(":");
        const seat = /^[0-9]+$/.test(parts[0]) ? Number(parts[0]) : null;
        out.push({ seat: seat, place: parts[1], key: key, cards: found[key] });
      }
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
    if (game === "cardchess") {
      const found = (theirs.sfide || []).filter((s) => s && typeof s === "object");
      if (!same(found.map((s) => s.deck), mine.sfide.map((s) => s.deck))) return false;
      return found.every((s, i) => s.reshuffle === undefined || s.reshuffle === null || (i < mine.sfide.length && same(s.reshuffle, mine.sfide[i].reshuffle)));
    }
    if (game === "sanmarco") {
      const chance = theirs.chance || {};
      return Object.keys(mine.chance).every((k) => same(chance[k] || [], mine.chance[k]));
    }
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
    const mine = await deal(data.game, data.seed, data.ruleset, data.packs, (data.deal && data.deal.sfide) ? data.deal.sfide.length : 1, data.record);
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
      const key = h.key || ((h.sfida || 1) + ":" + (h.seat !== null && h.seat !== undefined ? h.seat : h.place) + (h.after ? ":" + h.after : ""));
      const replay = (data.replay || {})[key] ? { cards: data.replay[key] } : null;
      const tr = el("tr");
      // a first hand may show the first card drawn already; a reshuffle's cards and San Marco's
      // chance are compared one by one, in order
      const exact = Boolean(h.key || h.after);
      const match = replay ? (exact ? same(replay.cards, h.cards) : sameCards(replay.cards, h.cards)) : null;
      tr.dataset.match = replay ? String(match) : "";
      tr.dataset.key = key;
      let who = h.seat !== null && h.seat !== undefined ? (names[h.seat] || (words.seat + " " + (h.seat + 1))) : (words[h.place] || h.place);
      if (data.labels && data.labels[key]) who = data.labels[key];
      if (h.sfida) who = words.sfida + " " + h.sfida + " · " + who;
      if (h.after) who = who + " · " + words.after_reshuffle;
      tr.appendChild(el("th", "", who));
      tr.appendChild(el("td", "hand-words", h.cards.map(name).join(", ") + (h.later && h.later.length ? " + " + h.later.map(name).join(", ") : "")));
      tr.appendChild(el("td", "hand-words", replay ? ((match ? "✓ " : "✗ ") + replay.cards.map(name).join(", ")) : "—"));
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

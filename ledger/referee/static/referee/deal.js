// The referee's card picker: tap a place, then the cards it held. Each card goes to one
// place only (a card the pack holds several times, as often as it holds it); the hidden
// inputs carry the codes to the server, which checks them again.
(function () {
  "use strict";
  const form = document.getElementById("deal-form");
  if (!form) return;
  const names = JSON.parse(document.getElementById("card-names").textContent);
  const units = JSON.parse(document.getElementById("card-units").textContent);
  const shorts = JSON.parse(document.getElementById("card-shorts").textContent);
  const words = {};
  document.querySelectorAll("#deal-words [data-word]").forEach(function (el) {
    words[el.dataset.word] = el.textContent;
  });
  const places = Array.from(form.querySelectorAll(".place"));
  const buttons = Array.from(form.querySelectorAll(".pick-card"));
  const copies = {};
  buttons.forEach(function (b) { copies[b.dataset.code] = +(b.dataset.copies || 1); });
  const held = {};
  places.forEach(function (p) {
    const value = p.querySelector("input[type=hidden]").value;
    held[p.dataset.place] = value ? value.split(",") : [];
  });
  let active = null;

  function placeOf(key) { return places.find(function (p) { return p.dataset.place === key; }); }
  function given(code) {
    let n = 0;
    for (const key in held) n += held[key].filter(function (c) { return c === code; }).length;
    return n;
  }
  function owners(code) {
    return Object.keys(held).filter(function (key) { return held[key].includes(code); });
  }
  function placeName(key) {
    const el = form.querySelector('.place-pick[data-place="' + key + '"] .place-name');
    return el ? el.textContent.trim() : key;
  }
  function limit(p) {
    if (p.dataset.size) return +p.dataset.size;
    if (p.dataset.max) return +p.dataset.max;
    return Infinity;
  }
  function choose(key) {
    active = key;
    const place = placeOf(key);
    form.querySelectorAll(".place-pick").forEach(function (b) {
      b.setAttribute("aria-checked", b.dataset.place === key ? "true" : "false");
    });
    places.forEach(function (p) { p.classList.toggle("active", p.dataset.place === key); });
    const side = place ? place.dataset.side : "";
    form.querySelectorAll(".pack .suit").forEach(function (f) {
      f.hidden = Boolean(side && f.dataset.side && f.dataset.side !== side);
    });
    render();
  }
  function firstOpen() {
    for (const p of places) {
      if (p.dataset.size && held[p.dataset.place].length < +p.dataset.size) return p.dataset.place;
    }
    for (const p of places) {
      if (!p.dataset.size && !p.dataset.optional && !held[p.dataset.place].length) return p.dataset.place;
    }
    return active || places[0].dataset.place;
  }
  function takeBack(key, code) {
    const i = held[key].lastIndexOf(code);
    if (i >= 0) held[key].splice(i, 1);
    render();
  }
  function heldButton(key, code, brief) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "held-card" + (brief ? " brief" : "");
    b.dataset.code = code;
    // Under its magistratura's name a card needs only its mark (Mg, Cs, 7).
    b.textContent = brief ? shorts[code] || code : names[code] || code;
    // Its name said in full, beginning with the mark shown (what a voice control user says).
    if (brief) b.setAttribute("aria-label", (shorts[code] || code) + " · " + (names[code] || code));
    b.title = (brief ? (names[code] || code) + " · " : "") + (words.remove || "");
    b.addEventListener("click", function () { takeBack(key, code); });
    li.appendChild(b);
    return li;
  }
  function render() {
    let missing = 0;
    const notes = [];
    places.forEach(function (p) {
      const key = p.dataset.place;
      const cards = held[key];
      p.querySelector("input[type=hidden]").value = cards.join(",");
      p.querySelector(".count").textContent = cards.length + (p.dataset.size ? "/" + p.dataset.size : "");
      p.classList.toggle("full", p.dataset.size ? cards.length === +p.dataset.size : false);
      if (p.dataset.size) missing += Math.max(0, +p.dataset.size - cards.length);
      else if (!p.dataset.optional && !cards.length) notes.push(placeName(key) + ": " + (words.empty || ""));
      const list = p.querySelector(".held");
      list.textContent = "";
      if (p.dataset.grouped) {
        const groups = {};
        const order = [];
        cards.forEach(function (code) {
          const unit = units[code] || "";
          if (!groups[unit]) { groups[unit] = []; order.push(unit); }
          groups[unit].push(code);
        });
        order.forEach(function (unit) {
          const li = document.createElement("li");
          li.className = "unit";
          const head = document.createElement("span");
          head.className = "unit-name";
          head.textContent = unit + " · " + groups[unit].length;
          li.appendChild(head);
          const inner = document.createElement("ul");
          groups[unit].forEach(function (code) { inner.appendChild(heldButton(key, code, true)); });
          li.appendChild(inner);
          li.classList.toggle("short", groups[unit].length < 3);
          list.appendChild(li);
          if (groups[unit].length < 3) {
            notes.push(placeName(key) + ": " + unit + " " + groups[unit].length + " (" + (words.short || "") + ")");
          }
        });
      } else {
        cards.forEach(function (code) { list.appendChild(heldButton(key, code)); });
      }
    });
    buttons.forEach(function (b) {
      const code = b.dataset.code;
      const n = given(code);
      const max = copies[code];
      const out = n >= max;
      b.classList.toggle("given", out);
      b.setAttribute("aria-pressed", n > 0 ? "true" : "false");
      const who = owners(code).map(placeName);
      b.dataset.owner = who.join(", ");
      b.title = names[code] + (who.length ? " · " + (words.given || "") + " " + who.join(", ") : "");
      const badge = b.querySelector(".copies");
      if (badge) badge.textContent = max > 1 ? "×" + (max - n) : "";
    });
    const line = document.getElementById("missing");
    const place = placeOf(active);
    const now = place
      ? (words.now || "") + " " + placeName(active) + " (" + held[active].length +
        (place.dataset.size ? "/" + place.dataset.size : "") + ") · "
      : "";
    let rest = "";
    if (missing) rest = (words.missing || "") + " " + missing;
    if (notes.length) rest += (rest ? " · " : "") + notes.join(" · ");
    line.textContent = now + (rest || words.done || "");
  }
  form.querySelectorAll(".place-pick").forEach(function (b) {
    b.addEventListener("click", function () { choose(b.dataset.place); });
  });
  buttons.forEach(function (b) {
    b.addEventListener("click", function () {
      const code = b.dataset.code;
      const place = placeOf(active);
      if (given(code) >= copies[code]) {
        // All given: tapping it again in its own place takes it back.
        if (held[active].includes(code)) takeBack(active, code);
        return;
      }
      if (held[active].length >= limit(place)) {
        document.getElementById("missing").textContent = words.full || "";
        return;
      }
      held[active].push(code);
      render();
      if (place.dataset.size && held[active].length >= +place.dataset.size) choose(firstOpen());
    });
  });
  choose(firstOpen());
})();

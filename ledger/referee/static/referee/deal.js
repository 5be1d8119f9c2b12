// The referee's card picker: tap a place, then the cards it held. Each card goes to one
// place only; the hidden inputs carry the codes to the server, which checks them again.
(function () {
  "use strict";
  const form = document.getElementById("deal-form");
  if (!form) return;
  const names = JSON.parse(document.getElementById("card-names").textContent);
  const words = {};
  document.querySelectorAll("#deal-words [data-word]").forEach(function (el) {
    words[el.dataset.word] = el.textContent;
  });
  const places = Array.from(form.querySelectorAll(".place"));
  const held = {};
  places.forEach(function (p) {
    const value = p.querySelector("input[type=hidden]").value;
    held[p.dataset.place] = value ? value.split(",") : [];
  });
  let active = null;

  function owner(code) {
    for (const key in held) if (held[key].includes(code)) return key;
    return null;
  }
  function placeName(key) {
    const el = form.querySelector('.place-pick[data-place="' + key + '"]');
    return el ? el.firstChild.textContent.trim() : key;
  }
  function choose(key) {
    active = key;
    form.querySelectorAll(".place-pick").forEach(function (b) {
      b.setAttribute("aria-checked", b.dataset.place === key ? "true" : "false");
    });
    places.forEach(function (p) { p.classList.toggle("active", p.dataset.place === key); });
    render();
  }
  function firstOpen() {
    for (const p of places) if (held[p.dataset.place].length < +p.dataset.size) return p.dataset.place;
    return places[0].dataset.place;
  }
  function render() {
    let missing = 0;
    places.forEach(function (p) {
      const key = p.dataset.place;
      const size = +p.dataset.size;
      p.querySelector("input[type=hidden]").value = held[key].join(",");
      p.querySelector(".count").textContent = held[key].length + "/" + size;
      p.classList.toggle("full", held[key].length === size);
      missing += Math.max(0, size - held[key].length);
      const list = p.querySelector(".held");
      list.textContent = "";
      held[key].forEach(function (code) {
        const li = document.createElement("li");
        const b = document.createElement("button");
        b.type = "button";
        b.className = "held-card";
        b.dataset.code = code;
        b.textContent = names[code] || code;
        b.title = words.remove || "";
        b.addEventListener("click", function () {
          held[key] = held[key].filter(function (c) { return c !== code; });
          render();
        });
        li.appendChild(b);
        list.appendChild(li);
      });
    });
    form.querySelectorAll(".pick-card").forEach(function (b) {
      const who = owner(b.dataset.code);
      b.classList.toggle("given", who !== null);
      b.setAttribute("aria-pressed", who !== null ? "true" : "false");
      b.dataset.owner = who ? placeName(who) : "";
      b.title = names[b.dataset.code] + (who ? " · " + (words.given || "") + " " + placeName(who) : "");
    });
    const line = document.getElementById("missing");
    const place = places.find(function (p) { return p.dataset.place === active; });
    const now = place ? placeName(active) + " " + held[active].length + "/" + place.dataset.size + " · " : "";
    line.textContent = now + (missing ? (words.missing || "") + " " + missing : words.done || "");
  }
  form.querySelectorAll(".place-pick").forEach(function (b) {
    b.addEventListener("click", function () { choose(b.dataset.place); });
  });
  form.querySelectorAll(".pick-card").forEach(function (b) {
    b.addEventListener("click", function () {
      const code = b.dataset.code;
      const who = owner(code);
      if (who !== null) {
        if (who === active) {
          held[who] = held[who].filter(function (c) { return c !== code; });
          render();
        }
        return; // given elsewhere: it is taken back in its own place
      }
      const place = places.find(function (p) { return p.dataset.place === active; });
      if (held[active].length >= +place.dataset.size) {
        document.getElementById("missing").textContent = words.full || "";
        return;
      }
      held[active].push(code);
      render();
      if (held[active].length >= +place.dataset.size) choose(firstOpen());
    });
  });
  choose(firstOpen());
})();

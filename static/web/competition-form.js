// The competition form: the rules' presets follow the game chosen, and the hint under the
// points names that game's usual points.
(function () {
  "use strict";
  var game = document.getElementById("id_game"), preset = document.getElementById("id_preset");
  if (!game || !preset) return;
  function show() {
    var label = game.options[game.selectedIndex].text, first = null;
    Array.prototype.forEach.call(preset.querySelectorAll("optgroup"), function (g) {
      var mine = g.label === label;
      g.hidden = !mine; g.disabled = !mine;
      if (mine && !first) first = g.querySelector("option");
    });
    var current = preset.options[preset.selectedIndex];
    if (first && (!current || !current.parentNode.label || current.parentNode.disabled)) first.selected = true;
    document.querySelectorAll("#points-defaults span[data-game]").forEach(function (s) { s.hidden = s.dataset.game !== game.value; });
  }
  game.addEventListener("change", show); show();
})();

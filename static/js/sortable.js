// Click (or Enter on) a column heading of a table marked data-sortable to sort by it;
// again to reverse. Cells may carry data-value for the value to compare.
(function () {
  function value(cell, kind) {
    var raw = cell.getAttribute("data-value");
    if (raw === null) raw = cell.textContent.trim();
    if (kind === "num") {
      var n = parseFloat(raw.replace(",", "."));
      return isNaN(n) ? -Infinity : n;
    }
    return raw.toLocaleLowerCase();
  }
  document.querySelectorAll("table[data-sortable]").forEach(function (table) {
    var heads = table.querySelectorAll("thead th[data-sort]");
    heads.forEach(function (th, column) {
      th.tabIndex = 0;
      th.setAttribute("aria-sort", "none");
      function sort() {
        var kind = th.getAttribute("data-sort");
        var ascending = th.getAttribute("aria-sort") !== "ascending";
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = value(a.cells[column], kind), y = value(b.cells[column], kind);
          return (x < y ? -1 : x > y ? 1 : 0) * (ascending ? 1 : -1);
        });
        rows.forEach(function (row) { body.appendChild(row); });
        heads.forEach(function (other) { other.setAttribute("aria-sort", "none"); });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
      }
      th.addEventListener("click", sort);
      th.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sort(); }
      });
    });
  });
})();

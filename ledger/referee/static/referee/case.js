// A refused ruling: bring its message into view and put the focus there.
(function () {
  "use strict";
  const error =
    document.getElementById("ruling-error") || document.getElementById("ruling-preview");
  if (error) {
    error.scrollIntoView({ block: "center" });
    error.focus();
  }
})();

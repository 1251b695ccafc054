// Keyboard shortcuts only: every page works without this file. "/" focuses the search box (or opens search).
document.addEventListener("keydown", (event) => {
  if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return;
  event.preventDefault();
  const box = document.getElementById("q");
  if (box) { box.focus(); box.select(); } else { window.location.href = "/search"; }
});

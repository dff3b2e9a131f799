// The editor's play buttons: each plays the sound its select has chosen.

/** Shows and wires each `button[data-preview]` under `root`. */
export function enhancePreviews(root) {
  for (const button of root.querySelectorAll("button[data-preview]")) {
    const select = document.getElementById(button.dataset.preview);
    if (!select) continue;
    button.hidden = false;
    button.addEventListener("click", () => {
      const url = select.selectedOptions[0]?.dataset.sound;
      if (url) new Audio(url).play().catch(() => {});
    });
  }
}

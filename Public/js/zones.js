// The browser's time zone: sign-up sends it (the account's days are counted in it), and
// Settings offers it when the account's is another.

/** The browser's IANA time zone, or "" when it does not say. */
export function browserTimeZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch {
    return "";
  }
}

/** Fills `input[data-browser-time-zone]` and offers the zone by `select[data-suggest-time-zone]`. */
export function enhanceTimeZones(root, browserZone = browserTimeZone()) {
  for (const input of root.querySelectorAll("input[data-browser-time-zone]")) input.value = browserZone;
  for (const select of root.querySelectorAll("select[data-suggest-time-zone]")) {
    const option = Array.from(select.options).find((option) => option.value === browserZone);
    if (!option || option.selected) continue;
    const hint = document.createElement("p");
    hint.className = "field-hint";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button-secondary";
    button.textContent = select.dataset.suggestTimeZone + ", " + option.textContent;
    button.addEventListener("click", () => {
      option.selected = true;
      hint.remove();
      select.focus();
    });
    hint.append(button);
    select.after(hint);
  }
}

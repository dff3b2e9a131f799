// Forms: a form being sent shows a busy button that cannot be pressed twice; the friend form
// checks its fields as they are left, with the server's rules and messages (sending it with a
// field that breaks a rule shows every message next to its field and moves focus to the first;
// the button is never disabled: pressing it always says why); deleting asks first; a switch with
// data-submit-on-change saves at once.

export const rules = {
  // Letters in any script, spaces, hyphens and apostrophes, 1–50 characters (FriendField).
  name(value, label) {
    if (value.trim() === "") return label + " is required.";
    if ([...value].length > 50) return label + " must be at most 50 characters.";
    if (!/^[\p{L}\p{M} '\u2019-]+$/u.test(value)) {
      return label + " may contain only letters, spaces, hyphens and apostrophes.";
    }
    return null;
  },
  // 3–20 digits after an optional +, once the separators people type are removed.
  phone(value) {
    const compact = value.replace(/[\s\-.()\u00a0]/g, "");
    if (compact === "") return "Phone number is required.";
    if (!/^\+?[0-9]{3,20}$/.test(compact)) return "Phone number must be 3 to 20 digits, optionally starting with +.";
    return null;
  },
};

function messageFor(input) {
  const rule = rules[input.dataset.rule];
  return rule ? rule(input.value, input.dataset.label) : null;
}

function showMessage(input, message) {
  const id = input.id + "-error";
  let paragraph = document.getElementById(id);
  const field = input.closest(".field");
  if (message) {
    if (!paragraph) {
      paragraph = document.createElement("p");
      paragraph.className = "field-error";
      paragraph.id = id;
      input.insertAdjacentElement("afterend", paragraph);
    }
    paragraph.textContent = message;
    input.setAttribute("aria-invalid", "true");
    const described = (input.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
    if (!described.includes(id)) input.setAttribute("aria-describedby", described.concat(id).join(" "));
    if (field) field.classList.add("field-invalid");
  } else {
    if (paragraph) paragraph.remove();
    input.removeAttribute("aria-invalid");
    const described = (input.getAttribute("aria-describedby") || "").split(" ").filter((part) => part && part !== id);
    if (described.length) input.setAttribute("aria-describedby", described.join(" "));
    else input.removeAttribute("aria-describedby");
    if (field) field.classList.remove("field-invalid");
  }
}

function enhanceValidation(form) {
  if (form.dataset.enhanced) return;
  form.dataset.enhanced = "true";
  // The browser's own bubbles ("Please fill out this field") would stop the post before the
  // script could show the server's words by each field.
  form.noValidate = true;
  for (const input of form.querySelectorAll("input[data-rule]")) {
    const check = () => showMessage(input, messageFor(input));
    // A message appears once the person has left the field, or while they mend one shown.
    input.addEventListener("blur", check);
    input.addEventListener("input", () => {
      if (input.getAttribute("aria-invalid") === "true") check();
    });
  }
}

// Every field's message shown; focus on the first invalid one. True when all are valid.
function validate(form) {
  let first = null;
  for (const input of form.querySelectorAll("input[data-rule]")) {
    const message = messageFor(input);
    showMessage(input, message);
    if (message && !first) first = input;
  }
  if (first) first.focus();
  return first === null;
}

/** Listens for the page's forms being sent, shown again and switched. */
export function enhanceForms() {
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
      return;
    }
    if (form.dataset.busy === "true") {
      event.preventDefault();
      return;
    }
    if (form.dataset.validate !== undefined && !validate(form)) {
      event.preventDefault();
      return;
    }
    form.dataset.busy = "true";
    const button = event.submitter || form.querySelector("button[type=submit]");
    if (button) {
      button.setAttribute("aria-busy", "true");
      // Disabled after this event, so the button's own value is still sent.
      setTimeout(() => { button.disabled = true; }, 0);
    }
  });

  // Coming back to a page from the history must not find its buttons still busy.
  window.addEventListener("pageshow", () => {
    for (const form of document.querySelectorAll("form[data-busy]")) {
      delete form.dataset.busy;
      for (const button of form.querySelectorAll("button[aria-busy]")) {
        button.removeAttribute("aria-busy");
        button.disabled = false;
      }
    }
    for (const form of document.querySelectorAll("form[data-validate]")) enhanceValidation(form);
  });

  document.addEventListener("change", (event) => {
    const input = event.target;
    if (input.matches("input[data-submit-on-change]") && input.form) input.form.requestSubmit();
  });
}

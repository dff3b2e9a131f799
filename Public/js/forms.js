// Forms: a form being sent shows a busy button that cannot be pressed twice; the friend form
// checks its fields as they are left, with the server's rules and messages (sending it with a
// field that breaks a rule shows every message next to its field and moves focus to the first;
// the button is never disabled: pressing it always says why); deleting asks first; a switch with
// data-submit-on-change saves at once (it sends its form as the person would: a form's post,
// whose answer is the page it leads to, with its flash).

const graphemes = globalThis.Intl?.Segmenter ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;

/** Characters as Swift counts them: grapheme clusters ("é" as e + U+0301 is one). */
export function characters(text) {
  // Without Intl.Segmenter (older browsers): code points less marks, near enough; the server
  // has the last word.
  if (!graphemes) return [...text.replace(/\p{M}/gu, "")].length;
  let count = 0;
  for (const _ of graphemes.segment(text)) count++;
  return count;
}

/**
 * The message for `value` under a field's rule, or null when it keeps it. `rule` is what the
 * server wrote on the input (its `dataset`, `FieldCheckViewModel`): `removed` characters go
 * wherever they are and `trimmed` ones at either end (as the server cleans a value before it
 * checks it; both are classes of a regular expression), then an empty value is refused with
 * `requiredMessage`, one of more than `maxCharacters` characters with `tooLongMessage`, and one
 * that `pattern` (a regular expression) does not match with `notAllowedMessage`. Nothing here
 * knows what a name or a phone number is, nor any word of the messages.
 */
export function check(value, rule) {
  let text = value;
  if (rule.removed) text = text.replace(new RegExp(`[${rule.removed}]`, "gu"), "");
  if (rule.trimmed) text = text.replace(new RegExp(`^[${rule.trimmed}]+|[${rule.trimmed}]+$`, "gu"), "");
  if (text === "") return rule.requiredMessage;
  if (rule.maxCharacters !== undefined && characters(text) > Number(rule.maxCharacters)) return rule.tooLongMessage;
  if (rule.pattern !== undefined && !new RegExp(rule.pattern, "u").test(text)) return rule.notAllowedMessage;
  return null;
}

function messageFor(input) {
  return input.dataset.check === undefined ? null : check(input.value, input.dataset);
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
  for (const input of form.querySelectorAll("input[data-check]")) {
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
  for (const input of form.querySelectorAll("input[data-check]")) {
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

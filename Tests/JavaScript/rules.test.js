// The friend form's rules, as the page checks them before the server does (the same words).
import assert from "node:assert/strict";
import { test } from "node:test";

import { rules } from "../../Public/js/forms.js";

test("a name: letters of any script, spaces, hyphens and apostrophes, 1 to 50 characters", () => {
  assert.equal(rules.name("Zoë O’Brien-Smith", "First name"), null);
  assert.equal(rules.name("山田", "First name"), null);
  assert.equal(rules.name("  ", "First name"), "First name is required.");
  assert.equal(rules.name("J4ne", "First name"), "First name may contain only letters, spaces, hyphens and apostrophes.");
  assert.equal(rules.name("a".repeat(51), "Last name"), "Last name must be at most 50 characters.");
  assert.equal(rules.name("🧘".repeat(50), "Last name"), "Last name may contain only letters, spaces, hyphens and apostrophes.");
});

test("a phone number: 3 to 20 digits after an optional +, the separators people type removed", () => {
  assert.equal(rules.phone("+44 (0) 7700-900.123"), null);
  assert.equal(rules.phone(""), "Phone number is required.");
  assert.equal(rules.phone("12"), "Phone number must be 3 to 20 digits, optionally starting with +.");
  assert.equal(rules.phone("12a45"), "Phone number must be 3 to 20 digits, optionally starting with +.");
});

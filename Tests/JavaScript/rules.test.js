// The friend form's check, as the page runs it with the rules the server writes on its inputs
// (server-vectors.json holds them and many more values: vectors.test.js).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { characters, check } from "../../Public/js/forms.js";

const { friendFields } = JSON.parse(readFileSync(new URL("./server-vectors.json", import.meta.url), "utf8"));
const [first, phone] = [friendFields.firstname, friendFields.phonenumber];

test("characters are counted as Swift counts them: an accent written apart is one with its letter", () => {
  assert.equal(characters("e\u0301"), 1);
  assert.equal(characters("👨‍👩‍👧"), 1);
  assert.equal(characters("\r\n"), 1);
  assert.equal(check("e\u0301".repeat(26), first), null); // 52 code points, 26 characters
  assert.equal(check("e\u0301".repeat(51), first), first.tooLongMessage);
});

test("a name: trimmed as the server trims, then required, at most 50 characters, letters and marks", () => {
  assert.equal(check("Zoë O’Brien-Smith", first), null);
  assert.equal(check("\u3000", first), "First name is required.");
  assert.equal(check("J4ne", first), first.notAllowedMessage);
  assert.equal(check("\uFEFFAda", first), first.notAllowedMessage); // trim() would have taken it off
  assert.equal(check("Ⅻ", first), null); // Alphabetic, though not a letter
});

test("a phone number: its separators removed, then 3 to 20 digits after an optional +", () => {
  assert.equal(check("+44 (0) 7700-900.123", phone), null);
  assert.equal(check(" - ", phone), "Phone number is required.");
  assert.equal(check("12", phone), phone.notAllowedMessage);
  assert.equal(check("1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0", phone), null);
});

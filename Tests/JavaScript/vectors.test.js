// The page scripts against what the server writes: Tests/JavaScript/server-vectors.json, made
// by a Swift test (ScriptVectorSnapshotTests) from the server's own rules, words and templates.
// Every friend name and phone number gets the server's verdict from the rule the friend form
// writes on its inputs; every duration reads as DurationFormatter writes it; every timeline row
// is read from its data attributes as the server meant it.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { check } from "../../Public/js/forms.js";
import { formatTime } from "../../Public/js/time.js";
import { timelineRow } from "../../Public/js/timeline.js";

const vectors = JSON.parse(readFileSync(new URL("./server-vectors.json", import.meta.url), "utf8"));

test("the friend form's script gives the server's verdict on every name and phone number", () => {
  assert.ok(vectors.friendValues.length > 100);
  for (const { field, value, message } of vectors.friendValues) {
    const rule = vectors.friendFields[field];
    assert.ok(rule && rule.check !== undefined, `${field} has a rule on its input`);
    assert.equal(check(value, rule), message ?? null, `${field} ${JSON.stringify(value)}`);
  }
});

test("the timer writes every duration as the server does", () => {
  for (const { seconds, text } of vectors.durations) assert.equal(formatTime(seconds), text, `${seconds} s`);
});

test("every timeline row is read from its data attributes as the server wrote it", () => {
  assert.ok(vectors.timeline.some(({ row }) => row.interval > 0));
  for (const { data, row } of vectors.timeline) {
    const read = timelineRow(data);
    const defined = Object.fromEntries(Object.entries(read).filter(([, value]) => value !== undefined));
    assert.deepEqual(defined, row, JSON.stringify(data));
  }
});

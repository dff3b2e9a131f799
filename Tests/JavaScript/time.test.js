// The timer's figures, and the server's clock as a page measures it.
import assert from "node:assert/strict";
import { test } from "node:test";

import { bestOffset, formatTime } from "../../Public/js/time.js";

test("seconds as the timer shows them: rounded up, mm:ss, hh:mm:ss from an hour, never below 0", () => {
  assert.equal(formatTime(0), "00:00");
  assert.equal(formatTime(59.1), "01:00");
  assert.equal(formatTime(600), "10:00");
  assert.equal(formatTime(3600), "01:00:00");
  assert.equal(formatTime(5399.2), "01:30:00"); // what the page shows before the timer starts
  assert.equal(formatTime(86399), "23:59:59");
  assert.equal(formatTime(360000), "100:00:00");
  assert.equal(formatTime(-5), "00:00");
});

test("the clock's offset is the quickest round trip's, its answer taken as written half way", () => {
  // The page's clock began at 1,000,000 ms since 1970; the server is 4,000 ms ahead.
  const timeOrigin = 1_000_000;
  const samples = [
    { sent: 100, received: 180, server: 1_000_000 + 4_000 + 170 }, // slow, answered late in the trip
    { sent: 200, received: 210, server: 1_000_000 + 4_000 + 205 }, // quick: the one kept
    { sent: 300, received: 350, server: 1_000_000 + 4_000 + 310 },
  ];
  assert.equal(bestOffset(samples, timeOrigin), 4_000);
  assert.equal(bestOffset([], timeOrigin), null);
});

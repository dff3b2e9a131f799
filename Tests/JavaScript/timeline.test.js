// The sitting page's timeline as data: rows read from the page, how often they ring, and the
// moments of a session in time order, with a timer and without.
import assert from "node:assert/strict";
import { test } from "node:test";

import { momentCursor, moments, ringsOf, strokeCount, timelineRow } from "../../Public/js/timeline.js";

const bell = { time: "0", says: "Bell rings", sound: "/sounds/bell.mp3", strokes: "1", section: "Time" };
const gong = { time: "60", says: "Gong rings 3 times", sound: "/sounds/gong.mp3", strokes: "3", interval: "20", until: "120" };
const end = { time: "120", says: "The session ends" };
const rows = [timelineRow(bell), timelineRow(gong), timelineRow(end)];

test("a row is its data attributes alone: its numbers, and the words it says each time it happens", () => {
  assert.deepEqual(
    { ...rows[1] },
    { time: 60, says: "Gong rings 3 times", section: undefined, sound: "/sounds/gong.mp3", strokes: 3, interval: 20, until: 120 });
  assert.equal(rows[0].section, "Time");
  assert.equal(rows[2].strokes, 0);
  // Whatever the page's language: nothing is read from a sentence.
  assert.equal(timelineRow({ time: "5", says: "Gong sonne 2 fois" }).says, "Gong sonne 2 fois");
});

test("a repeating sound rings at each interval before its section ends; others once", () => {
  assert.equal(ringsOf(rows[1]), 3); // 60, 80, 100: 120 is the end
  assert.equal(ringsOf(rows[0]), 1);
  assert.equal(ringsOf({ time: 10, interval: 30, until: 10 }), 0);
  assert.equal(strokeCount(rows), 1 + 3 * 3);
});

test("with a timer: each row at its time, a repeating sound again before the next row", () => {
  const list = [...moments(rows, false)].map(({ time, row, again }) => [time, row.time, again]);
  assert.deepEqual(list, [[0, 0, false], [60, 60, false], [80, 60, true], [100, 60, true], [120, 120, false]]);
});

test("without a timer: the sounds at the start, then each repeating sound every interval, for ever", () => {
  const open = moments(
    [rows[0], timelineRow({ time: "0", sound: "/s.mp3", strokes: "1", interval: "30", until: "60" }),
      timelineRow({ time: "0", sound: "/t.mp3", strokes: "1", interval: "45", until: "60" })],
    true);
  const first = [];
  for (const moment of open) {
    first.push([moment.time, moment.row.sound]);
    if (first.length === 6) break;
  }
  assert.deepEqual(first, [
    [0, "/sounds/bell.mp3"], [30, "/s.mp3"], [45, "/t.mp3"], [60, "/s.mp3"], [90, "/s.mp3"], [90, "/t.mp3"],
  ]);
});

test("a cursor shows the next moment until it is taken, and null at the end", () => {
  const cursor = momentCursor(moments([rows[0]], false));
  assert.equal(cursor.next().time, 0);
  assert.equal(cursor.next().time, 0);
  cursor.take();
  assert.equal(cursor.next(), null);
});

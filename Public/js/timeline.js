// The sitting page's timeline, as data. Its rows (the page's list) say, in data attributes
// only: data-time (seconds from the start), data-says (what the running session says when the
// row happens: a ring's words once, however often it rings), data-section where a section
// begins, data-sound and data-strokes where a sound rings, and for a repeating sound, one row
// however often it rings, data-interval and data-until: it rings at data-time, then every
// data-interval seconds while before data-until (its section's end). The row's text is for the
// person; the script never reads it, so no word of it depends on the page's language.

/** A row of the timeline from its data attributes (an element's `dataset`). */
export function timelineRow(data) {
  return {
    time: Number(data.time),
    says: data.says ?? "",
    section: data.section,
    sound: data.sound,
    strokes: Number(data.strokes || 0),
    interval: Number(data.interval || 0),
    until: Number(data.until || 0),
  };
}

/** How often a row rings: a repeating sound at each interval before its end, others once. */
export const ringsOf = (row) =>
  row.interval > 0 ? Math.max(0, Math.floor((row.until - 1 - row.time) / row.interval) + 1) : 1;

/** Every stroke of every sound of a session with a timer. */
export const strokeCount = (rows) => rows.reduce((sum, row) => sum + (row.sound ? ringsOf(row) * row.strokes : 0), 0);

/**
 * The session's moments in time order: each row at its time, and a repeating sound's row again
 * at each later ring (all before the next row: they end with their section). Without a timer
 * (`open`): the sounds at the start, then each repeating sound every interval, for ever.
 */
export function* moments(rows, open) {
  if (open) {
    for (const row of rows) if (row.sound && row.time === 0 && !row.interval) yield { time: 0, row, again: false };
    const repeating = rows.filter((row) => row.sound && row.interval > 0);
    const next = repeating.map((row) => row.interval);
    while (repeating.length > 0) {
      const index = next.indexOf(Math.min(...next));
      yield { time: next[index], row: repeating[index], again: true };
      next[index] += repeating[index].interval;
    }
    return;
  }
  for (const row of rows) {
    yield { time: row.time, row, again: false };
    if (row.interval > 0) {
      for (let time = row.time + row.interval; time < row.until; time += row.interval) {
        yield { time, row, again: true };
      }
    }
  }
}

/** A cursor over moments: the next one, without taking it, and taking it. */
export function momentCursor(iterator) {
  let current = iterator.next();
  return {
    next: () => (current.done ? null : current.value),
    take() {
      current = iterator.next();
    },
  };
}

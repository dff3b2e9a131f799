// Time as the pages show it, and the server's clock as a page measures it.

/**
 * Seconds as the timer shows them, rounded up: as the server writes a duration
 * (`DurationFormatter`), `mm:ss` below an hour and `hh:mm:ss` from one (hours past 99 keep all
 * their digits); never below 0.
 */
export function formatTime(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const two = (n) => String(n).padStart(2, "0");
  const hours = Math.floor(s / 3600);
  const rest = two(Math.floor(s / 60) % 60) + ":" + two(s % 60);
  return hours > 0 ? two(hours) + ":" + rest : rest;
}

// How far the server's clock is ahead of this page's (performance.timeOrigin +
// performance.now(), in milliseconds): of several round trips, the one with the least delay,
// whose answer was most likely written half way through it.
export async function measureClock(url, rounds = 8) {
  const samples = [];
  for (let round = 0; round < rounds; round++) {
    const sent = performance.now();
    const response = await fetch(url, { cache: "no-store" });
    const { now } = await response.json();
    samples.push({ sent, received: performance.now(), server: now });
  }
  return bestOffset(samples, performance.timeOrigin);
}

/**
 * The offset of the round trip with the least delay: `server` (the server's clock, ms since
 * 1970) less this page's clock half way between `sent` and `received` (its performance clock,
 * whose zero is `timeOrigin`).
 */
export function bestOffset(samples, timeOrigin) {
  let best = null;
  for (const { sent, received, server } of samples) {
    const delay = received - sent;
    if (!best || delay < best.delay) best = { delay, offset: server - (timeOrigin + (sent + received) / 2) };
  }
  return best ? best.offset : null;
}

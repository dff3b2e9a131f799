import assert from "node:assert/strict";
import { test } from "node:test";
import { flush, memoryStore, newClientId, outcome, postSit, waiting, waitingText } from "../../Public/js/outbox.js";

const sit = (clientId, person, keptAt = 0) => ({
  clientId, person, url: "/sessions", fields: { profile: "1", startedAt: "2026-11-25T06:00:00Z", seconds: "600", completed: "true" }, keptAt,
});
const answer = (status, type = "basic") => ({ status, type });

test("a post is sent when recorded (its 303, or any 2xx), kept when it may go later, refused otherwise", () => {
  assert.equal(outcome(answer(0, "opaqueredirect")), "sent");
  assert.equal(outcome(answer(204)), "sent");
  for (const status of [401, 403, 408, 429, 500, 502, 503, 504]) assert.equal(outcome(answer(status)), "kept", `${status}`);
  assert.equal(outcome(null), "kept"); // no network
  for (const status of [400, 404, 413, 422]) assert.equal(outcome(answer(status)), "refused", `${status}`);
});

test("flush sends only the person's sits, oldest first, and drops those sent or refused", async () => {
  const store = memoryStore([sit("b", 1, 2), sit("a", 1, 1), sit("x", 2, 0), sit("c", 1, 3)]);
  const posted = [];
  const left = await flush(store, 1, async (kept) => {
    posted.push(kept.clientId);
    return kept.clientId === "b" ? answer(422) : answer(0, "opaqueredirect");
  });
  assert.deepEqual(posted, ["a", "b", "c"]);
  assert.equal(left, 0);
  assert.deepEqual((await store.all()).map((kept) => kept.clientId), ["x"]); // never sent as another
});

test("flush stops at the first sit that stays (no network): the rest wait too", async () => {
  const store = memoryStore([sit("a", 1, 1), sit("b", 1, 2)]);
  let posts = 0;
  assert.equal(await flush(store, 1, async () => (posts++, null)), 2);
  assert.equal(posts, 1);
  assert.equal(await waiting(store, 1), 2);
  assert.equal(await waiting(store, 2), 0);
});

test("a sit is posted with its fields, its id and the page's token, without following the redirect", async () => {
  let request;
  await postSit(sit("id-1", 1), "token", async (url, init) => ((request = { url, init }), answer(0, "opaqueredirect")));
  assert.equal(request.url, "/sessions");
  assert.equal(request.init.method, "POST");
  assert.equal(request.init.redirect, "manual");
  const body = Object.fromEntries(request.init.body);
  assert.deepEqual(body, { profile: "1", startedAt: "2026-11-25T06:00:00Z", seconds: "600", completed: "true", clientId: "id-1", _csrf: "token" });
  assert.equal(await postSit(sit("id-2", 1), "token", async () => { throw new TypeError("Failed to fetch"); }), null);
});

test("the waiting line counts in words", () => {
  assert.equal(waitingText(0), "");
  assert.equal(waitingText(1), "1 sit on this device is waiting to be sent.");
  assert.equal(waitingText(3), "3 sits on this device are waiting to be sent.");
});

test("a sit's id is a version 4 UUID, with or without crypto.randomUUID", () => {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  assert.match(newClientId(), uuid);
  const insecure = { getRandomValues: (bytes) => globalThis.crypto.getRandomValues(bytes) };
  assert.match(newClientId(insecure), uuid);
  assert.notEqual(newClientId(insecure), newClientId(insecure));
});

import assert from "node:assert/strict";
import { test } from "node:test";
import { flush, memoryStore, newClientId, outcome, postSit, waiting, waitingText } from "../../Public/js/outbox.js";

const sit = (clientId, person, keptAt = 0) => ({
  clientId, person, url: "/sessions", fields: { profile: "1", startedAt: "2026-11-25T06:00:00Z", seconds: "600", completed: "true" }, keptAt,
});
// An answer as fetch gives it: its status, its type, and its Content-Type.
const answer = (status, type = "basic", contentType = "application/json; charset=utf-8") =>
  ({ status, type, headers: new Headers(contentType ? { "Content-Type": contentType } : {}) });
const recorded = () => answer(200);

test("a post is sent when Sangha answers it as a script's post (2xx JSON), kept when it may go later, refused otherwise", () => {
  assert.equal(outcome(recorded()), "sent");
  assert.equal(outcome(answer(204, "basic", null)), "sent");
  // Not Sangha's answer to a script: a redirect (signed out, a sign-in page of a network's
  // portal), or a page of HTML from something in between. The sit waits.
  assert.equal(outcome(answer(0, "opaqueredirect", null)), "kept");
  assert.equal(outcome(answer(303, "basic", null)), "kept");
  assert.equal(outcome(answer(200, "basic", "text/html; charset=utf-8")), "kept");
  for (const status of [401, 403, 408, 425, 429, 500, 502, 503, 504]) assert.equal(outcome(answer(status)), "kept", `${status}`);
  assert.equal(outcome(null), "kept"); // no network
  for (const status of [400, 404, 409, 413, 422]) assert.equal(outcome(answer(status)), "refused", `${status}`);
});

test("what the server answers a sit is what the outbox counts on: recorded, 503 for a storage failure, 422 for a broken rule", () => {
  // The view model's outcomes as PageRenderer answers a script's post (SittingRoutes tests).
  assert.equal(outcome(answer(200)), "sent"); // .redirect: {"location": …}, no flash
  assert.equal(outcome(answer(503)), "kept"); // the profile could not be read: never a 404
  assert.equal(outcome(answer(422)), "refused"); // stopped before a minute, too old, in the future
});

test("flush sends only the person's sits, oldest first, and drops those sent or refused", async () => {
  const store = memoryStore([sit("b", 1, 2), sit("a", 1, 1), sit("x", 2, 0), sit("c", 1, 3)]);
  const posted = [];
  const left = await flush(store, 1, async (kept) => {
    posted.push(kept.clientId);
    return kept.clientId === "b" ? answer(422) : recorded();
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

test("a sit is posted as a script's post (for JSON) with its fields, its id and the page's token, following no redirect", async () => {
  let request;
  await postSit(sit("id-1", 1), "token", async (url, init) => ((request = { url, init }), recorded()));
  assert.equal(request.url, "/sessions");
  assert.equal(request.init.method, "POST");
  assert.equal(request.init.redirect, "manual");
  assert.equal(request.init.headers.Accept, "application/json");
  const body = Object.fromEntries(request.init.body);
  assert.deepEqual(body, { profile: "1", startedAt: "2026-11-25T06:00:00Z", seconds: "600", completed: "true", clientId: "id-1", _csrf: "token" });
  assert.equal(await postSit(sit("id-2", 1), "token", async () => { throw new TypeError("Failed to fetch"); }), null);
});

test("the waiting line counts in words", () => {
  assert.equal(waitingText(0), "");
  assert.equal(waitingText(1), "1 sit on this device is waiting to be sent.");
  assert.equal(waitingText(3), "3 sits on this device are waiting to be sent.");
});

test("the waiting line in the page's language: its form for the count's plural category", () => {
  const polish = { one: "{count} sesja czeka.", few: "{count} sesje czekają.", many: "{count} sesji czeka." };
  assert.equal(waitingText(0, polish, "pl"), "");
  assert.equal(waitingText(1, polish, "pl"), "1 sesja czeka.");
  assert.equal(waitingText(3, polish, "pl"), "3 sesje czekają.");
  assert.equal(waitingText(5, polish, "pl"), "5 sesji czeka.");
  assert.equal(waitingText(22, polish, "pl"), "22 sesje czekają.");
  const german = { one: "{count} Sitzung wartet.", other: "{count} Sitzungen warten." };
  assert.equal(waitingText(1200, german, "de"), "1.200 Sitzungen warten.");
});

test("a sit's id is a version 4 UUID, with or without crypto.randomUUID", () => {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  assert.match(newClientId(), uuid);
  const insecure = { getRandomValues: (bytes) => globalThis.crypto.getRandomValues(bytes) };
  assert.match(newClientId(insecure), uuid);
  assert.notEqual(newClientId(insecure), newClientId(insecure));
});

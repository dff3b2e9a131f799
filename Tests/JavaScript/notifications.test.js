import assert from "node:assert/strict";
import { test } from "node:test";
import { keyBytes, notificationOf, situation, subscriptionFields, windowFor } from "../../Public/js/notifications.js";

const iPhone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const iPad = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15";
const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const able = { pushManager: function PushManager() {}, serviceWorker: {}, permission: "default" };

test("each case the section names: an iPhone outside the Home Screen, no PushManager, a denied permission, ready", () => {
  assert.equal(situation({ ...able, userAgent: iPhone, maxTouchPoints: 5 }), "iphone");
  // Safari on an iPad says Macintosh, but has a touch screen.
  assert.equal(situation({ ...able, userAgent: iPad, maxTouchPoints: 5 }), "iphone");
  assert.equal(situation({ ...able, userAgent: iPad, maxTouchPoints: 0 }), "ready");
  // Installed on the Home Screen (iOS 16.4 and later), it can.
  assert.equal(situation({ ...able, userAgent: iPhone, maxTouchPoints: 5, standalone: true }), "ready");
  assert.equal(situation({ ...able, userAgent: iPhone, standalone: true, pushManager: undefined }), "unsupported");
  assert.equal(situation({ ...able, userAgent: firefox, pushManager: undefined }), "unsupported");
  assert.equal(situation({ ...able, userAgent: firefox, serviceWorker: undefined }), "unsupported");
  assert.equal(situation({ ...able, userAgent: firefox, permission: undefined }), "unsupported");
  assert.equal(situation({ ...able, userAgent: firefox, permission: "denied" }), "denied");
  assert.equal(situation({ ...able, userAgent: firefox, permission: "granted" }), "ready");
  assert.equal(situation({ ...able, userAgent: firefox }), "ready");
});

test("the server's key, base64url, becomes the 65 bytes applicationServerKey takes", () => {
  const bytes = Uint8Array.from({ length: 65 }, (_, index) => (index * 37 + 4) % 256);
  const text = Buffer.from(bytes).toString("base64url");
  assert.deepEqual(keyBytes(text), bytes);
  assert.deepEqual(keyBytes(`${text}\n`), bytes);
  assert.deepEqual(keyBytes(Buffer.from(bytes).toString("base64").replace(/\+/g, "-").replace(/\//g, "_")), bytes);
});

test("the subscription is posted as the form fields endpoint, p256dh, auth and _csrf", () => {
  const fields = subscriptionFields(
    { endpoint: "https://updates.push.services.mozilla.com/wpush/v2/x", keys: { p256dh: "BPk", auth: "Zm9v" } }, "t0k");
  assert.equal(fields.toString(), "endpoint=https%3A%2F%2Fupdates.push.services.mozilla.com%2Fwpush%2Fv2%2Fx&p256dh=BPk&auth=Zm9v&_csrf=t0k");
});

test("a push is shown with its title and body, tagged by its topic, and carries its page", () => {
  assert.deepEqual(notificationOf({ title: "Zazen begins at 07:00", body: "Zen", url: "/groups/1/sits/2", tag: "sit-2" }), {
    title: "Zazen begins at 07:00", options: { body: "Zen", data: { url: "/groups/1/sits/2" }, tag: "sit-2" },
  });
  // Whatever arrives, a notification shows (a push must never go unshown).
  assert.deepEqual(notificationOf(null), { title: "Sangha", options: { body: "", data: { url: "/" } } });
  assert.deepEqual(notificationOf("text"), { title: "Sangha", options: { body: "", data: { url: "/" } } });
});

test("a click goes to the window showing its page, else any Sangha window, else a new one", () => {
  const origin = "https://sangha.example";
  const at = (url) => ({ url });
  const page = `${origin}/groups/1/sits/2`;
  const windows = [at("https://other.example/"), at(`${origin}/history`), at(page)];
  assert.equal(windowFor(windows, page, origin), windows[2]);
  assert.equal(windowFor(windows.slice(0, 2), page, origin), windows[1]);
  assert.equal(windowFor([at("https://other.example/")], page, origin), null);
});

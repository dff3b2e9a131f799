// Notifications on this device (Settings, "Notifications"; DESIGN §17). The section says what it
// can: without script its <noscript> line; where the browser cannot subscribe (no PushManager),
// why; on an iPhone outside the Home Screen, to add Sangha there first; after a denied
// permission, how to allow it again; else the button "Turn on notifications on this device",
// which asks the browser's permission inside the click, subscribes with Sangha's key
// (GET /push/key, userVisibleOnly) and posts the subscription (POST /push/subscriptions, 201).
// Every word is the page's (data-push-*): the server writes them. The service worker shows
// each push (`notificationOf`) and opens its page on a click (`windowFor`).
import { SCRIPT_POST_HEADERS } from "./outbox.js";

/**
 * What the section can offer here: "iphone" (an iPhone or iPad outside the Home Screen: Safari
 * gives push to installed web apps only), "unsupported" (no service worker or PushManager),
 * "denied" (the person blocked notifications for the site), or "ready".
 */
export function situation({ userAgent = "", maxTouchPoints = 0, standalone = false, pushManager, serviceWorker, permission }) {
  const apple = /iPhone|iPad|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && maxTouchPoints > 1);
  if (apple && !standalone) return "iphone";
  if (!pushManager || !serviceWorker || permission === undefined) return "unsupported";
  if (permission === "denied") return "denied";
  return "ready";
}

/** base64url (with or without padding) as bytes: the key `applicationServerKey` takes. */
export function keyBytes(text) {
  const base64 = text.trim().replace(/-/g, "+").replace(/_/g, "/");
  const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (character) => character.charCodeAt(0));
}

/** The form Sangha takes: a subscription's `toJSON()` as `endpoint`, `p256dh`, `auth`, and the token. */
export function subscriptionFields(json, token) {
  const fields = new URLSearchParams();
  fields.set("endpoint", json.endpoint ?? "");
  fields.set("p256dh", json.keys?.p256dh ?? "");
  fields.set("auth", json.keys?.auth ?? "");
  if (token) fields.set("_csrf", token);
  return fields;
}

/**
 * What the service worker shows for a push's JSON (`{"title", "body", "url", "tag"}`): the tag
 * is the push's topic, so a newer notification replaces an older one of the same sit or group.
 * A push without JSON still shows something: a push must always show a notification.
 */
export function notificationOf(data) {
  const message = data && typeof data === "object" ? data : {};
  const options = { body: String(message.body ?? ""), data: { url: String(message.url ?? "/") } };
  if (message.tag) options.tag = String(message.tag);
  return { title: String(message.title || "Sangha"), options };
}

/**
 * The window a click on a notification for `url` goes to: one already showing it, else any
 * window of Sangha (it is then sent to `url`); null when none is open (one is opened).
 */
export function windowFor(windows, url, origin) {
  const ours = windows.filter((client) => new URL(client.url).origin === origin);
  return ours.find((client) => client.url === url) ?? ours[0] ?? null;
}

/** The page's token for the post, from the layout. */
function formToken(document) {
  return document.querySelector('meta[name="sangha-form-token"]')?.content ?? "";
}

export function enhanceNotifications(document, window = globalThis.window) {
  const section = document.querySelector("[data-push]");
  if (!section) return;
  const status = section.querySelector("[data-push-status]");
  const turnOn = section.querySelector("[data-push-turn-on]");
  const say = (message) => {
    status.textContent = message;
    status.hidden = !message;
  };
  const navigator = window.navigator;
  const found = situation({
    userAgent: navigator.userAgent,
    maxTouchPoints: navigator.maxTouchPoints,
    standalone: navigator.standalone === true || window.matchMedia?.("(display-mode: standalone)").matches === true,
    pushManager: window.PushManager,
    serviceWorker: navigator.serviceWorker,
    permission: window.Notification?.permission,
  });
  if (found === "iphone") return say(section.dataset.pushIphone);
  if (found === "unsupported") return say(section.dataset.pushUnsupported);
  if (found === "denied") say(section.dataset.pushDenied);
  turnOn.hidden = false;
  const button = turnOn.querySelector("button");
  button.addEventListener("click", async () => {
    // Asked first, inside the click: browsers grant a permission only to a person's gesture.
    const asked = window.Notification.permission === "granted" ? Promise.resolve("granted") : window.Notification.requestPermission();
    button.disabled = true;
    try {
      if ((await asked) !== "granted") return say(section.dataset.pushDenied);
      const registration = await navigator.serviceWorker.ready;
      const key = await (await window.fetch(section.dataset.pushKey, { credentials: "same-origin" })).text();
      const subscription =
        (await registration.pushManager.getSubscription()) ??
        (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) }));
      const response = await window.fetch(section.dataset.pushSubscribe, {
        method: "POST", body: subscriptionFields(subscription.toJSON(), formToken(document)),
        headers: SCRIPT_POST_HEADERS, credentials: "same-origin",
      });
      say(response.status === 201 ? section.dataset.pushOn : section.dataset.pushFailed);
    } catch {
      say(section.dataset.pushFailed);
    } finally {
      button.disabled = false;
    }
  });
}

/** This device's push subscription's endpoint, for the sign-out to end it too; null without one. */
export async function deviceEndpoint(window = globalThis.window) {
  try {
    const registration = await window.navigator.serviceWorker?.getRegistration();
    return (await registration?.pushManager?.getSubscription())?.endpoint ?? null;
  } catch {
    return null;
  }
}

/** Ends this device's subscription at its push service (after signing out). */
export async function unsubscribe(window = globalThis.window) {
  try {
    const registration = await window.navigator.serviceWorker?.getRegistration();
    await (await registration?.pushManager?.getSubscription())?.unsubscribe();
  } catch {
    // Nothing to end, or the browser would not: Sangha has forgotten it all the same.
  }
}

// Sangha in the pocket: the page registers the service worker (which keeps the static files and
// the pages opened, for use without a network), sends the sits kept on this device, says how
// many wait ("N sits on this device are waiting to be sent." where a page has
// [data-outbox-count]), and forgets every kept page once "Sign out" is done (`signOut`: not
// before, so signing out offline changes nothing and says so) and on any page that no one is
// signed in to (a shared phone shows no one's pages to the next person). Signing out also ends
// this device's notifications (its push subscription, at Sangha and at the push service).
import { deviceEndpoint, unsubscribe } from "./notifications.js";
import { deviceStore, flush, postSit, waiting, waitingText } from "./outbox.js";

/** The page's signed-in person and form token, from the layout's meta tags; null when none. */
export function signedIn(document) {
  const person = document.querySelector('meta[name="sangha-person"]')?.content;
  const token = document.querySelector('meta[name="sangha-form-token"]')?.content;
  return person ? { person: Number(person), token } : null;
}

/** A page's words for its waiting line (`data-outbox-forms`, JSON); null for none, or broken. */
export function outboxForms(element) {
  try {
    return element.dataset.outboxForms ? JSON.parse(element.dataset.outboxForms) : null;
  } catch {
    return null;
  }
}

/** The pages the service worker keeps (its cache of them: the worker names it the same). */
export const PAGES = "sangha-pages";

export function enhancePocket(document, window = globalThis.window) {
  const navigator = window.navigator;
  navigator.serviceWorker?.register("/service-worker.js", { type: "module", scope: "/" }).catch(() => {});
  const store = deviceStore(window.indexedDB);
  const who = signedIn(document);
  const offlinePage = document.querySelector("[data-offline]") !== null;
  if (!who && !offlinePage) {
    window.caches?.delete(PAGES).catch(() => {});
    store?.setSession(null).catch(() => {});
  }
  for (const form of document.querySelectorAll("form[data-sign-out]")) {
    form.addEventListener("submit", (event) => {
      if (!window.fetch) return;
      event.preventDefault();
      signOut(form, document, window, store);
    });
  }
  document.querySelector("[data-offline-retry]")?.addEventListener("click", (event) => {
    event.preventDefault();
    window.location.reload();
  });
  if (!who || !store) return;
  const counts = [...document.querySelectorAll("[data-outbox-count]")];
  const show = (count) => {
    for (const element of counts) {
      element.textContent = waitingText(count, outboxForms(element), document.documentElement.lang || "en");
      element.hidden = count === 0;
    }
  };
  const send = async () => {
    try {
      show(await flush(store, who.person, (sit) => postSit(sit, who.token)));
    } catch {
      show(await waiting(store, who.person).catch(() => 0));
    }
  };
  store.setSession({ person: who.person, token: who.token }).catch(() => {});
  window.addEventListener("online", send);
  window.addEventListener("sangha:kept", send);
  send();
}

/**
 * "Sign out" with script: the form's own post, sent by `fetch` first, so that the page can say
 * when it cannot be sent (no network: the person stays signed in, and the pages kept on the
 * device stay, as they were). Once Sangha answers with the form's redirect (an opaque answer to
 * `redirect: "manual"`), the person is signed out: the kept pages go (the answer's
 * Clear-Site-Data is "cache" only, which leaves them), so does the session the service worker
 * sends sits with, never the sits themselves (they wait in IndexedDB until the same person signs
 * in again on this device); then the page opens the sign-in page, as the form would have, and
 * the answer's "You are signed out." shows there. The form names that page and the words.
 */
export async function signOut(form, document, window = globalThis.window, store = null) {
  if (form.dataset.busy === "true") return;
  form.dataset.busy = "true";
  // This device's notifications end with its sign-in: Sangha forgets its subscription.
  const body = new URLSearchParams(new FormData(form));
  const endpoint = await deviceEndpoint(window);
  if (endpoint) body.set("pushEndpoint", endpoint);
  const response = await window
    .fetch(form.action, { method: "POST", body, redirect: "manual", credentials: "same-origin" })
    .catch(() => null);
  delete form.dataset.busy;
  if (response?.type === "opaqueredirect") {
    if (endpoint) await unsubscribe(window);
    await window.caches?.delete(PAGES).catch(() => {});
    await store?.setSession(null).catch(() => {});
    window.location.assign(form.dataset.signedOut);
    return;
  }
  say(document, response ? form.dataset.failed : form.dataset.offline);
}

/** Says `message` at the top of the page's content, as a flash does (once, replaced). */
function say(document, message) {
  document.querySelector("[data-sign-out-refusal]")?.remove();
  const box = document.createElement("div");
  box.className = "flash flash-error";
  box.setAttribute("role", "alert");
  box.dataset.signOutRefusal = "";
  const paragraph = document.createElement("p");
  paragraph.textContent = message;
  box.append(paragraph);
  (document.querySelector("main") ?? document.body).prepend(box);
}

/** Asks the service worker to send the kept sits when the network is back (Background Sync). */
export function requestSync(navigator = globalThis.navigator) {
  navigator.serviceWorker?.ready
    .then((registration) => registration.sync?.register("sangha-sits"))
    .catch(() => {});
}

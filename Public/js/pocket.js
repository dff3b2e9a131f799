// Sangha in the pocket: the page registers the service worker (which keeps the static files and
// the pages opened, for use without a network), sends the sits kept on this device, says how
// many wait ("N sits on this device are waiting to be sent." where a page has
// [data-outbox-count]), and forgets every kept page on "Sign out" and on any page that no one is
// signed in to (a shared phone shows no one's pages to the next person).
import { deviceStore, flush, postSit, waiting, waitingText } from "./outbox.js";

/** The page's signed-in person and form token, from the layout's meta tags; null when none. */
export function signedIn(document) {
  const person = document.querySelector('meta[name="sangha-person"]')?.content;
  const token = document.querySelector('meta[name="sangha-form-token"]')?.content;
  return person ? { person: Number(person), token } : null;
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
    form.addEventListener("submit", async (event) => {
      if (!window.caches) return;
      event.preventDefault();
      await window.caches.delete(PAGES).catch(() => {});
      await store?.setSession(null).catch(() => {});
      form.submit();
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
      element.textContent = waitingText(count);
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

/** Asks the service worker to send the kept sits when the network is back (Background Sync). */
export function requestSync(navigator = globalThis.navigator) {
  navigator.serviceWorker?.ready
    .then((registration) => registration.sync?.register("sangha-sits"))
    .catch(() => {});
}

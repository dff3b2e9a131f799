// Sangha's service worker (served at /service-worker.js, its scope the whole site; the server
// writes ASSETS and OFFLINE above this line for each build).
// - Installing, it keeps this build's static files (styles, scripts, sounds, icons) and the
//   page "You are offline.".
// - Static files come from what it keeps: their names change with their content, so what is
//   kept is never stale. A page kept from an earlier build asks for that build's names: it gets
//   this build's file of the same plain name.
// - Pages are network-first: with a network the live page, kept when it answered 200 (never a
//   redirect, a form's answer, JSON or an event stream); without one, the copy kept when the
//   person last opened it, with "You are offline. This page is from HH:MM.", or "You are
//   offline." for a page never opened.
// - Background Sync ("sangha-sits") sends the sits kept on the device, as the signed-in person
//   the pages last named.
// - A push (Web Push: a group sit about to start, the daily reminder, someone sitting) is shown
//   as a notification, inside waitUntil, its tag the push's topic (a newer one replaces an
//   older); a click on it focuses a Sangha window on its page, or opens one.
import { notificationOf, windowFor } from "/js/notifications.js";
import { deviceStore, flush, postSit } from "/js/outbox.js";

const STATIC = "sangha-static";
const PAGES = "sangha-pages";
const KEPT_AT = "X-Sangha-Kept-At";
const digestNames = new Set(Object.values(ASSETS));
// "/css/sangha.1a2b3c4d5e6f7a8b.css" → "/css/sangha.css"
const plainName = (path) => path.replace(/\.[0-9a-f]{16}(\.[^./]+)?$/, "$1");

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(STATIC);
      await cache.addAll([...digestNames, OFFLINE]);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      // Files of earlier builds go; the pages stay (see above).
      const cache = await caches.open(STATIC);
      for (const request of await cache.keys()) {
        const path = new URL(request.url).pathname;
        if (!digestNames.has(path) && path !== OFFLINE) await cache.delete(request);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(page(request));
  } else if (digestNames.has(url.pathname) || ASSETS[plainName(url.pathname)]) {
    event.respondWith(staticFile(request, url.pathname));
  }
  // Anything else (the clock, event streams, JSON, exports) goes to the network as it is.
});

async function staticFile(request, path) {
  const cache = await caches.open(STATIC);
  const kept = (await cache.match(path)) ?? (await cache.match(ASSETS[plainName(path)] ?? path));
  return kept ?? fetch(request);
}

async function page(request) {
  try {
    const response = await fetch(request);
    const type = response.headers.get("Content-Type") ?? "";
    if (response.status === 200 && !response.redirected && type.startsWith("text/html")) {
      const headers = new Headers(response.headers);
      headers.set(KEPT_AT, String(Date.now()));
      const copy = new Response(await response.clone().blob(), { status: 200, headers });
      const pages = await caches.open(PAGES);
      await pages.put(request.url, copy);
    }
    return response;
  } catch {
    const kept = await (await caches.open(PAGES)).match(request.url);
    if (kept) return offlineCopy(kept);
    const offline = await (await caches.open(STATIC)).match(OFFLINE);
    return offline ?? new Response("You are offline.", { status: 503, headers: { "Content-Type": "text/plain" } });
  }
}

/**
 * The kept page with "You are offline. This page is from HH:MM." at the top of its content: in
 * the page's language when the page gives its words (`<meta name="sangha-offline">`, escaped
 * as the page wrote it, `{time}` where the time goes); an English page gives none.
 */
async function offlineCopy(kept) {
  const at = new Date(Number(kept.headers.get(KEPT_AT)));
  const time = `${String(at.getHours()).padStart(2, "0")}:${String(at.getMinutes()).padStart(2, "0")}`;
  const text = await kept.text();
  const words = text.match(/<meta name="sangha-offline" content="([^"]*)">/)?.[1];
  const line = words ? words.replace("{time}", time) : `You are offline. This page is from ${time}.`;
  const notice = `<p class="offline-notice" role="status">${line}</p>`;
  const html = text.replace('<main id="main">', `<main id="main">\n${notice}`);
  const headers = new Headers(kept.headers);
  headers.delete(KEPT_AT);
  headers.delete("Content-Length");
  return new Response(html, { status: 200, headers });
}

self.addEventListener("sync", (event) => {
  if (event.tag !== "sangha-sits") return;
  event.waitUntil(
    (async () => {
      const store = deviceStore(self.indexedDB);
      const session = await store?.session();
      if (!session) return;
      const left = await flush(store, session.person, (sit) => postSit(sit, session.token));
      // The browser tries again later while sits wait.
      if (left > 0) throw new Error(`${left} sits are still waiting`);
    })(),
  );
});

self.addEventListener("push", (event) => {
  let data = null;
  try {
    data = event.data?.json() ?? null;
  } catch {
    data = { body: event.data?.text() ?? "" };
  }
  const { title, options } = notificationOf(data);
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? "/", self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const open = windowFor(windows, url, self.location.origin);
      if (!open) return self.clients.openWindow(url);
      const focused = await open.focus();
      if (focused.url !== url) await focused.navigate(url).catch(() => self.clients.openWindow(url));
    })(),
  );
});

// Sits kept on this device until Sangha has recorded them. The sitting page writes a finished
// sit here (IndexedDB) with an id of its own and the signed-in person's id before it posts it;
// a sit that could not be posted stays, and goes when any page of Sangha loads, when the browser
// is back online, or by Background Sync (the service worker). Only pages of the same person send
// it: a sit is never sent as another. POST /sessions records a sit's id once, so sending it
// twice (two tabs, a lost answer) is harmless.
//
// The store is small and injected (`memoryStore` in tests, `deviceStore` in browsers), so the
// rules here run under node --test.

export const SAVED_ON_DEVICE = "Saved on this device. It will be sent when Sangha can be reached.";

/**
 * "N sits on this device are waiting to be sent.", or "" for none. `forms`: the page's words for
 * it by CLDR plural category, `{count}` for the number (`{"one": "{count} …", "other": …}`, its
 * `data-outbox-forms`), in the language `locale`; without them (an English page), English.
 */
export function waitingText(count, forms = null, locale = "en") {
  if (count === 0) return "";
  if (forms) {
    const form = forms[new Intl.PluralRules(locale).select(count)] ?? forms.other ?? Object.values(forms).at(-1) ?? "";
    return form.replaceAll("{count}", new Intl.NumberFormat(locale).format(count));
  }
  return count === 1
    ? "1 sit on this device is waiting to be sent."
    : `${count} sits on this device are waiting to be sent.`;
}

/**
 * How a page's script says that it posts, on every `fetch` that posts: it asks for JSON. Sangha
 * answers such a post with its outcome as JSON (where a form's post would be a 303, a 200 with
 * where it would lead) and never with a flash, which would show on whichever page opens next.
 */
export const SCRIPT_POST_HEADERS = Object.freeze({ Accept: "application/json" });

/**
 * What became of a post of a sit: "sent" (recorded, or recorded before: Sangha's JSON answer,
 * a 2xx), "kept" (try again: no network, the server down or busy, signed out, an old form
 * token, or any answer that is not Sangha's to a script, such as a redirect or a page of HTML
 * from something between) or "refused" (Sangha will never record it: the sit breaks a rule).
 * `response` is null when there was no answer. A post is made with `redirect: "manual"`: a
 * redirect is an opaque answer, never taken for a recorded sit.
 */
export function outcome(response) {
  if (!response) return "kept";
  const status = response.status;
  if (status >= 200 && status < 300) {
    const type = response.headers?.get?.("Content-Type") ?? "";
    return status === 204 || type.startsWith("application/json") ? "sent" : "kept";
  }
  if (response.type === "opaqueredirect" || status < 400) return "kept";
  if ([401, 403, 408, 425, 429].includes(status) || status >= 500) return "kept";
  return "refused";
}

/** A new sit's id: a random UUID (crypto.randomUUID where the page is a secure context). */
export function newClientId(crypto = globalThis.crypto) {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A sit as kept: its id, whose it is, where it is posted, and the form's fields. */
export function keptSit(form, person, clientId, now = Date.now()) {
  const fields = {};
  for (const [name, value] of new FormData(form)) if (name !== "_csrf") fields[name] = String(value);
  return { clientId, person, url: form.getAttribute("action"), fields, keptAt: now };
}

/** Posts `sit` with the page's form token; resolves to the response, or null without one. */
export function postSit(sit, token, fetch = globalThis.fetch) {
  const body = new URLSearchParams({ ...sit.fields, clientId: sit.clientId, _csrf: token });
  return fetch(sit.url, {
    method: "POST", body, headers: SCRIPT_POST_HEADERS, redirect: "manual", credentials: "same-origin",
  }).catch(() => null);
}

/**
 * Sends `person`'s kept sits, oldest first, with `post`; drops each that was sent or refused.
 * Stops at the first that stays (the network or the server is down: the rest would fail too).
 * Resolves to how many of the person's stay.
 */
export async function flush(store, person, post) {
  const mine = (await store.all()).filter((sit) => sit.person === person).sort((a, b) => a.keptAt - b.keptAt);
  let left = mine.length;
  for (const sit of mine) {
    if (outcome(await post(sit)) === "kept") break;
    await store.remove(sit.clientId);
    left -= 1;
  }
  return left;
}

/** How many of `person`'s sits are kept. */
export async function waiting(store, person) {
  return (await store.all()).filter((sit) => sit.person === person).length;
}

/** A store in memory, with the device store's methods (for tests). */
export function memoryStore(sits = []) {
  const kept = new Map(sits.map((sit) => [sit.clientId, sit]));
  let session = null;
  return {
    put: async (sit) => void kept.set(sit.clientId, sit),
    remove: async (clientId) => void kept.delete(clientId),
    all: async () => [...kept.values()],
    session: async () => session,
    setSession: async (value) => void (session = value),
  };
}

/**
 * The device's store (IndexedDB "sangha": the sits by id, and the signed-in person with their
 * page's form token, which the service worker sends the sits with); null where there is none.
 */
export function deviceStore(indexedDB = globalThis.indexedDB) {
  if (!indexedDB) return null;
  const open = () =>
    new Promise((resolve, reject) => {
      const request = indexedDB.open("sangha", 1);
      request.onupgradeneeded = () => {
        request.result.createObjectStore("sits", { keyPath: "clientId" });
        request.result.createObjectStore("session");
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  const run = async (name, mode, use) => {
    const database = await open();
    return new Promise((resolve, reject) => {
      const transaction = database.transaction(name, mode);
      const request = use(transaction.objectStore(name));
      transaction.oncomplete = () => {
        database.close();
        resolve(request.result);
      };
      transaction.onerror = transaction.onabort = () => {
        database.close();
        reject(transaction.error);
      };
    });
  };
  return {
    put: (sit) => run("sits", "readwrite", (sits) => sits.put(sit)),
    remove: (clientId) => run("sits", "readwrite", (sits) => sits.delete(clientId)),
    all: () => run("sits", "readonly", (sits) => sits.getAll()),
    session: () => run("session", "readonly", (session) => session.get("current")),
    setSession: (value) =>
      run("session", "readwrite", (session) => (value ? session.put(value, "current") : session.delete("current"))),
  };
}

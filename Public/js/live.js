// A live part of a page: each event of the stream named by data-live carries the HTML of the
// part whose data-live-part is the event's name, rendered by the server as the page renders it.
// The browser reconnects by itself, sending the last event's id, and is answered with the part
// as it is.

/** Listens to the stream of each `[data-live]` element under `root`. */
export function enhanceLiveParts(root) {
  for (const live of root.querySelectorAll("[data-live]")) {
    if (!window.EventSource) break;
    const source = new EventSource(live.dataset.live);
    const swap = (event) => {
      const template = document.createElement("template");
      template.innerHTML = event.data;
      const next = template.content.firstElementChild;
      const part = live.querySelector('[data-live-part="' + event.type + '"]');
      if (next && part) part.replaceWith(next);
    };
    // Each part the page has is an event's name.
    for (const part of live.querySelectorAll("[data-live-part]")) source.addEventListener(part.dataset.livePart, swap);
    // Whether the part is live now (the stream open), for styles and tests.
    source.addEventListener("open", () => { live.dataset.liveOpen = "true"; });
    source.addEventListener("error", () => { delete live.dataset.liveOpen; });
  }
}

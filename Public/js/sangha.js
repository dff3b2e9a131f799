// Sangha's progressive enhancement. Every page works without it; with it:
// - a form being sent shows a busy button that cannot be pressed twice;
// - the friend form checks its fields as they are left, with the server's rules and messages;
//   sending it with a field that breaks a rule shows every message next to its field and moves
//   focus to the first (the button is never disabled: pressing it always says why);
// - deleting asks first;
// - turning Warm Up or Cool Down on or off saves at once, so the section opens or closes;
// - the editor's play buttons preview the chosen sounds;
// - the sitting page runs the session: Start, Pause, Resume, Stop, the current section, the
//   time left and a progress bar; the sounds are scheduled on the Web Audio clock (so they ring
//   on time in a background tab and pause with it), each section and sound is announced in a
//   live region, and the screen is kept awake where the browser allows it; it tells the
//   person's groups when they sit and stop ("Sitting now");
// - a group sit's page plays its timeline from the sit's start by the server's clock: it measures
//   how far this browser's clock is off (several round trips to /clock, the quickest kept, as NTP
//   does) and puts each sound on the Web Audio clock at the server's instant, so the bells ring in
//   every member's home together; who joins late hears only what is still to come;
// - a group's page stays current: its event stream sends the HTML of a part that changed, and
//   the part is swapped in.
"use strict";

(function () {
  const rules = {
    // Letters in any script, spaces, hyphens and apostrophes, 1–50 characters (FriendField).
    name(value, label) {
      if (value.trim() === "") return label + " is required.";
      if ([...value].length > 50) return label + " must be at most 50 characters.";
      if (!/^[\p{L}\p{M} '\u2019-]+$/u.test(value)) {
        return label + " may contain only letters, spaces, hyphens and apostrophes.";
      }
      return null;
    },
    // 3–20 digits after an optional +, once the separators people type are removed.
    phone(value) {
      const compact = value.replace(/[\s\-.()\u00a0]/g, "");
      if (compact === "") return "Phone number is required.";
      if (!/^\+?[0-9]{3,20}$/.test(compact)) return "Phone number must be 3 to 20 digits, optionally starting with +.";
      return null;
    },
  };

  function messageFor(input) {
    const rule = rules[input.dataset.rule];
    return rule ? rule(input.value, input.dataset.label) : null;
  }

  function showMessage(input, message) {
    const id = input.id + "-error";
    let paragraph = document.getElementById(id);
    const field = input.closest(".field");
    if (message) {
      if (!paragraph) {
        paragraph = document.createElement("p");
        paragraph.className = "field-error";
        paragraph.id = id;
        input.insertAdjacentElement("afterend", paragraph);
      }
      paragraph.textContent = message;
      input.setAttribute("aria-invalid", "true");
      const described = (input.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
      if (!described.includes(id)) input.setAttribute("aria-describedby", described.concat(id).join(" "));
      if (field) field.classList.add("field-invalid");
    } else {
      if (paragraph) paragraph.remove();
      input.removeAttribute("aria-invalid");
      const described = (input.getAttribute("aria-describedby") || "").split(" ").filter((part) => part && part !== id);
      if (described.length) input.setAttribute("aria-describedby", described.join(" "));
      else input.removeAttribute("aria-describedby");
      if (field) field.classList.remove("field-invalid");
    }
  }

  function enhanceValidation(form) {
    if (form.dataset.enhanced) return;
    form.dataset.enhanced = "true";
    // The browser's own bubbles ("Please fill out this field") would stop the post before the
    // script could show the server's words by each field.
    form.noValidate = true;
    for (const input of form.querySelectorAll("input[data-rule]")) {
      const check = () => showMessage(input, messageFor(input));
      // A message appears once the person has left the field, or while they mend one shown.
      input.addEventListener("blur", check);
      input.addEventListener("input", () => {
        if (input.getAttribute("aria-invalid") === "true") check();
      });
    }
  }

  // Every field's message shown; focus on the first invalid one. True when all are valid.
  function validate(form) {
    let first = null;
    for (const input of form.querySelectorAll("input[data-rule]")) {
      const message = messageFor(input);
      showMessage(input, message);
      if (message && !first) first = input;
    }
    if (first) first.focus();
    return first === null;
  }

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
      return;
    }
    if (form.dataset.busy === "true") {
      event.preventDefault();
      return;
    }
    if (form.dataset.validate !== undefined && !validate(form)) {
      event.preventDefault();
      return;
    }
    form.dataset.busy = "true";
    const button = event.submitter || form.querySelector("button[type=submit]");
    if (button) {
      button.setAttribute("aria-busy", "true");
      // Disabled after this event, so the button's own value is still sent.
      setTimeout(() => { button.disabled = true; }, 0);
    }
  });

  // Coming back to a page from the history must not find its buttons still busy.
  window.addEventListener("pageshow", () => {
    for (const form of document.querySelectorAll("form[data-busy]")) {
      delete form.dataset.busy;
      for (const button of form.querySelectorAll("button[aria-busy]")) {
        button.removeAttribute("aria-busy");
        button.disabled = false;
      }
    }
    for (const form of document.querySelectorAll("form[data-validate]")) enhanceValidation(form);
  });

  document.addEventListener("change", (event) => {
    const input = event.target;
    if (input.matches("input[data-submit-on-change]") && input.form) input.form.requestSubmit();
  });
  // The sitting page. The timeline's rows are the data: data-time (seconds from the start),
  // data-section where a section begins, data-sound and data-strokes where a sound rings, and
  // for a repeating sound, one row however often it rings, data-interval and data-until: it
  // rings at data-time, then every data-interval seconds while before data-until (its
  // section's end).
  const STROKE_GAP = 2.5; // seconds between the strokes of one ring
  // A session of at most this many strokes has them all put on the audio clock when it starts.
  // A longer one (a day ringing every second) keeps the next LOOKAHEAD seconds of them there,
  // topped up as it runs: far more than a hidden tab's timers are held back.
  const ALL_AT_ONCE = 5000;
  const LOOKAHEAD = 600;

  function formatTime(seconds) {
    const s = Math.max(0, Math.ceil(seconds));
    const two = (n) => String(n).padStart(2, "0");
    const hours = Math.floor(s / 3600);
    const rest = two(Math.floor(s / 60) % 60) + ":" + two(s % 60);
    return hours > 0 ? hours + ":" + rest : rest;
  }

  // How far the server's clock is ahead of this page's (performance.timeOrigin +
  // performance.now(), in milliseconds): of several round trips, the one with the least delay,
  // whose answer was most likely written half way through it.
  async function measureClock(url, rounds = 8) {
    let best = null;
    for (let round = 0; round < rounds; round++) {
      const sent = performance.now();
      const response = await fetch(url, { cache: "no-store" });
      const { now } = await response.json();
      const received = performance.now();
      const delay = received - sent;
      if (!best || delay < best.delay) best = { delay, offset: now - (performance.timeOrigin + (sent + received) / 2) };
    }
    return best.offset;
  }

  function enhanceSitting(root) {
    const sitter = root.querySelector("[data-sitter]");
    if (!sitter) return;
    const total = Number(root.dataset.total);
    // A group sit: it begins at data-starts-at by the server's clock (milliseconds since 1970),
    // and may be joined from data-joins-from.
    const together = root.dataset.startsAt !== undefined;
    const startsAt = Number(root.dataset.startsAt);
    const joinsFrom = Number(root.dataset.joinsFrom);
    let offset = null; // the server's clock minus this page's, once measured
    const serverNow = () => performance.timeOrigin + performance.now() + offset;
    const rows = [...root.querySelectorAll(".timeline li")].map((li) => {
      const text = li.textContent.split("—").slice(1).join("—").trim();
      return {
        time: Number(li.dataset.time),
        section: li.dataset.section,
        sound: li.dataset.sound,
        strokes: Number(li.dataset.strokes || 0),
        interval: Number(li.dataset.interval || 0),
        until: Number(li.dataset.until || 0),
        text,
        // What each ring of a repeating sound says: "Gong rings 3 times", without "every …".
        ringText: text.replace(/ every [\d:]+ from [\d:]+ to [\d:]+$/, ""),
      };
    });
    // How often a row rings: a repeating sound at each interval before its end, others once.
    const ringsOf = (row) =>
      row.interval > 0 ? Math.max(0, Math.floor((row.until - 1 - row.time) / row.interval) + 1) : 1;
    const strokes = rows.reduce((sum, row) => sum + (row.sound ? ringsOf(row) * row.strokes : 0), 0);

    // "Sit without a timer": the session counts up, has no end, and rings its sounds at the
    // start and its repeating sounds at their intervals, until Stop.
    let open = false;
    const length = () => (open ? Infinity : total);

    // The session's moments in time order: each row at its time, and a repeating sound's row
    // again at each later ring (all before the next row: they end with their section). Without
    // a timer: the sounds at the start, then each repeating sound every interval, for ever.
    function* moments() {
      if (open) {
        for (const row of rows) if (row.sound && row.time === 0 && !row.interval) yield { time: 0, row, again: false };
        const repeating = rows.filter((row) => row.sound && row.interval > 0);
        const next = repeating.map((row) => row.interval);
        while (repeating.length > 0) {
          const index = next.indexOf(Math.min(...next));
          yield { time: next[index], row: repeating[index], again: true };
          next[index] += repeating[index].interval;
        }
        return;
      }
      for (const row of rows) {
        yield { time: row.time, row, again: false };
        if (row.interval > 0) {
          for (let time = row.time + row.interval; time < row.until; time += row.interval) {
            yield { time, row, again: true };
          }
        }
      }
    }

    // A cursor over the moments: the next one, without taking it, and taking it.
    function cursor() {
      const iterator = moments();
      let current = iterator.next();
      return {
        next: () => (current.done ? null : current.value),
        take() {
          current = iterator.next();
        },
      };
    }
    const find = (name) => sitter.querySelector("[data-sitter-" + name + "]");
    const [sectionLabel, left, leftLabel, progress, status] =
      ["section", "left", "left-label", "progress", "status"].map(find);
    const buttons = {
      start: find("start"), open: find("open"), pause: find("pause"), resume: find("resume"), stop: find("stop"),
    };
    let audio = null; // the AudioContext of the running session
    let startedAt = 0; // its time at the session's second 0
    let clock = null; // elapsed seconds when there is no Web Audio
    let announcing = cursor(); // the moments still to announce
    let scheduling = null; // the moments still to put on the audio clock
    let buffers = new Map(); // each sound's decoded audio, by its address
    let timer = null;
    let wakeLock = null;
    let startedWall = new Date(); // when the running session began, by the wall clock
    let joinedAt = 0; // the second of the session this person began at (later in a group sit joined late)

    function show(...names) {
      for (const [name, button] of Object.entries(buttons)) if (button) button.hidden = !names.includes(name);
    }
    const running = () => timer !== null && (!buttons.pause || !buttons.pause.hidden);

    function elapsed() {
      if (audio) return audio.currentTime - startedAt;
      if (together) return (serverNow() - startsAt) / 1000;
      return clock ? clock.elapsed + (clock.running ? (performance.now() - clock.since) / 1000 : 0) : 0;
    }

    // The audio clock's reading at an instant of the server's clock, and back. The audio output's
    // own timestamp (what is heard now, and when) makes a sound heard at that instant; without
    // one, the clock's current time.
    function stamp() {
      const output = audio.getOutputTimestamp ? audio.getOutputTimestamp() : null;
      return output && output.contextTime > 0 && output.performanceTime > 0
        ? output
        : { contextTime: audio.currentTime, performanceTime: performance.now() };
    }
    function audioTimeAt(server) {
      const { contextTime, performanceTime } = stamp();
      return contextTime + (server - offset - performance.timeOrigin - performanceTime) / 1000;
    }
    function performanceTimeAt(audioTime) {
      const { contextTime, performanceTime } = stamp();
      return performanceTime + (audioTime - contextTime) * 1000;
    }

    async function keepAwake() {
      try {
        if ("wakeLock" in navigator && document.visibilityState === "visible") {
          wakeLock = await navigator.wakeLock.request("screen");
        }
      } catch (error) {
        wakeLock = null; // not allowed here: the session runs all the same
      }
    }

    function letSleep() {
      if (wakeLock) wakeLock.release().catch(() => {});
      wakeLock = null;
    }

    // Their groups' "Sitting now": said at Start and Resume (with the time still to sit, so
    // it ends by itself if the page goes quiet) and at Stop, the end, or leaving the page. The
    // posts go one after another, so a quick Start then Stop arrive in that order.
    const presence = sitter.querySelector("[data-sitter-presence]");
    let present = false;
    let saying = Promise.resolve();
    function announce(sitting, leaving = false) {
      if (!presence || (!sitting && !present)) return;
      present = sitting;
      // Without a timer, the longest a sit may say (the page says Stop, or goes quiet).
      presence.elements.seconds.value = String(open ? 86400 : Math.max(1, Math.ceil(total - elapsed())));
      const url = sitting ? presence.action : presence.dataset.stop;
      const body = new URLSearchParams(new FormData(presence));
      // keepalive: the stop is still sent when the page is being left (not waiting its turn).
      const post = () => fetch(url, { method: "POST", body, keepalive: true }).catch(() => {});
      if (leaving) post();
      else saying = saying.then(post);
    }
    window.addEventListener("pagehide", () => announce(false, true));
    // Back from the browser's page cache with the session still running: sitting again.
    window.addEventListener("pageshow", (event) => {
      if (event.persisted && running()) announce(true);
    });

    async function load(context) {
      const decoded = new Map();
      const urls = [...new Set(rows.filter((row) => row.sound).map((row) => row.sound))];
      await Promise.all(urls.map(async (url) => {
        try {
          const response = await fetch(url);
          decoded.set(url, await context.decodeAudioData(await response.arrayBuffer()));
        } catch (error) {
          status.textContent = "A sound could not be loaded; the session runs without it.";
        }
      }));
      return decoded;
    }

    // With reduced motion the bar moves in whole seconds, not four steps a second.
    const reduceMotion = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

    // Puts every stroke of the moments before `until` (seconds from the start) on the audio
    // clock. A stroke already past by more than a second (a tab whose timers were stopped
    // longer than LOOKAHEAD) is let go rather than rung late, all at once; in a group sit, any
    // stroke past (who joins late hears only what is still to come, on time). Each stroke put on
    // the clock is told as a "sangha:ring" event: its second in the session, and the instant it
    // will be heard on the page's performance clock and by the server's.
    function schedule(until) {
      const late = elapsed() - (together ? 0 : 1);
      for (let moment = scheduling.next(); moment && moment.time < until; moment = scheduling.next()) {
        scheduling.take();
        const buffer = moment.row.sound && buffers.get(moment.row.sound);
        if (!buffer) continue;
        for (let stroke = 0; stroke < moment.row.strokes; stroke++) {
          const time = moment.time + stroke * STROKE_GAP;
          if (time < late) continue;
          const source = audio.createBufferSource();
          source.buffer = buffer;
          source.connect(audio.destination);
          source.start(startedAt + time);
          if (together) {
            const heard = performanceTimeAt(startedAt + time);
            const detail = {
              time, sound: moment.row.sound, performanceTime: heard,
              serverTime: performance.timeOrigin + heard + offset,
            };
            root.dispatchEvent(new CustomEvent("sangha:ring", { detail }));
          }
        }
      }
    }

    function update() {
      if (audio && (open || strokes > ALL_AT_ONCE)) schedule(elapsed() + LOOKAHEAD);
      const now = Math.min(elapsed(), length());
      if (now < 0) {
        // Joined before the group sit begins (a session alone begins a tenth of a second on).
        if (together) sectionLabel.textContent = "Begins in " + formatTime(-now);
        return;
      }
      left.textContent = formatTime(open ? now : total - now);
      if (!open) progress.value = reduceMotion ? Math.floor(now) : now;
      const messages = [];
      for (let moment = announcing.next(); moment && moment.time <= now; moment = announcing.next()) {
        announcing.take();
        const row = moment.row;
        if (row.section) sectionLabel.textContent = row.section;
        if (moment.time >= total && row.sound) continue;
        const message = row.interval > 0 ? row.ringText : row.text;
        // Rings a throttled tab catches up on at once are said once.
        if (!(moment.again && messages[messages.length - 1] === message)) messages.push(message);
      }
      if (now >= length()) {
        finish("Session complete.", true);
      } else if (messages.length > 0) {
        status.textContent = messages.join(". ") + ".";
      }
    }

    function finish(message, completed) {
      const seconds = Math.max(0, Math.round(Math.min(elapsed(), length()) - joinedAt));
      clearInterval(timer);
      timer = null;
      const context = audio;
      audio = null;
      clock = null;
      // Let the last sound ring out before the audio is closed.
      if (context) setTimeout(() => context.close().catch(() => {}), completed ? 8000 : 0);
      letSleep();
      announce(false);
      status.textContent = message;
      buttons.start.textContent = together ? "Join again" : "Start again";
      if (together) tick(); // "Join again" while the sit lasts
      else show("start", "open");
      if (completed || seconds >= 60) record(seconds, completed, message);
    }

    // A session run to the end, or stopped after a minute, is recorded; a shorter one is not.
    async function record(seconds, completed, message) {
      const form = sitter.querySelector("[data-sitter-record]");
      if (!form) return;
      form.elements.startedAt.value = startedWall.toISOString().replace(/\.\d+Z$/, "Z");
      form.elements.seconds.value = String(seconds);
      form.elements.completed.value = String(Boolean(completed));
      try {
        const response = await fetch(form.action, { method: "POST", body: new URLSearchParams(new FormData(form)) });
        status.textContent = message + (response.ok ? " Session saved." : " The session could not be saved.");
      } catch (error) {
        status.textContent = message + " The session could not be saved.";
      }
    }

    let starting = false; // a press being answered: a second one is not another session
    buttons.start.addEventListener("click", () => begin(false));
    buttons.open?.addEventListener("click", () => begin(true));

    // Start (or Join), or "Sit without a timer" (`withoutTimer`).
    async function begin(withoutTimer) {
      if (starting || timer !== null) return;
      open = withoutTimer;
      leftLabel.textContent = open ? "Time sat" : "Time left";
      progress.hidden = open;
      if (together && serverNow() >= startsAt + total * 1000) return tick();
      starting = true;
      show();
      announcing = cursor();
      startedWall = new Date();
      joinedAt = 0;
      sectionLabel.textContent = rows.find((row) => row.section)?.section || sectionLabel.textContent;
      const Context = window.AudioContext || window.webkitAudioContext;
      if (Context) {
        const context = new Context(); // made at the press, which lets it play
        // A group sit's clock is measured again: the page may have been open for hours.
        const [decoded, measured] = await Promise.all([
          load(context), together ? measureClock(root.dataset.clock).catch(() => offset) : null,
        ]);
        buffers = decoded;
        if (together) offset = measured;
        if (context.resume) await context.resume();
        audio = context;
        startedAt = together ? audioTimeAt(startsAt) : context.currentTime + 0.1;
        if (together) join();
        scheduling = cursor();
        schedule(open || strokes > ALL_AT_ONCE ? LOOKAHEAD : Infinity);
      } else if (together) {
        join();
        status.textContent = "This browser cannot play the sounds; the sit runs without them.";
      } else {
        clock = { elapsed: 0, since: performance.now(), running: true };
        status.textContent = "This browser cannot play the sounds; the session runs without them.";
      }
      show("pause", "stop");
      keepAwake();
      timer = setInterval(update, 250);
      starting = false;
      update();
      announce(true);
    }

    // Joining a group sit under way: from the second it has reached, what came before neither
    // rung nor said (the section it is in is shown).
    function join() {
      joinedAt = Math.max(0, elapsed());
      startedWall = new Date(startsAt + joinedAt * 1000);
      for (let moment = announcing.next(); moment && moment.time < joinedAt; moment = announcing.next()) {
        announcing.take();
        if (moment.row.section) sectionLabel.textContent = moment.row.section;
      }
    }

    buttons.pause?.addEventListener("click", async () => {
      if (audio) await audio.suspend(); // the audio clock, and every sound on it, waits
      if (clock) Object.assign(clock, { elapsed: elapsed(), running: false });
      status.textContent = "Paused at " + formatTime(elapsed()) + ".";
      show("resume", "stop");
      letSleep();
    });

    buttons.resume?.addEventListener("click", async () => {
      if (audio) await audio.resume();
      if (clock) Object.assign(clock, { since: performance.now(), running: true });
      status.textContent = "Resumed.";
      show("pause", "stop");
      keepAwake();
      announce(true);
    });

    buttons.stop.addEventListener("click", () => {
      // A sit without a timer ends when the person says: it is complete then.
      if (open) return finish("Sat for " + formatTime(Math.round(elapsed())) + ".", true);
      finish((together ? "You left the sit at " : "Session stopped at ") + formatTime(elapsed()) + ".", false);
    });

    document.addEventListener("visibilitychange", () => {
      if (running() && document.visibilityState === "visible") keepAwake();
    });

    sitter.hidden = false;
    if (together) wait();

    // Before joining a group sit: the clock measured, then "Join" from ten minutes before it
    // begins until it ends, and how long until it begins.
    async function wait() {
      status.textContent = "Setting the clock…";
      try {
        offset = await measureClock(root.dataset.clock);
      } catch (error) {
        status.textContent = "The server's clock could not be read. Reload the page to try again.";
        return;
      }
      status.textContent = "";
      tick();
    }

    // While not in the group sit: how long until it begins, "Join" while it may be joined, and
    // nothing once it is over.
    function tick() {
      if (timer !== null || starting) return;
      const now = serverNow();
      if (now >= startsAt + total * 1000) {
        show();
        status.textContent = "This sit is over.";
        return;
      }
      if (now < startsAt) sectionLabel.textContent = "Begins in " + formatTime((startsAt - now) / 1000);
      show(now >= joinsFrom ? "start" : null);
      setTimeout(tick, 250);
    }
  }

  for (const root of document.querySelectorAll("[data-sitting]")) enhanceSitting(root);

  // A live part of a page: each event of the stream named by data-live carries the HTML of the
  // part whose data-live-part is the event's name, rendered by the server as the page renders it.
  // The browser reconnects by itself, sending the last event's id, and is answered with the part
  // as it is.
  for (const live of document.querySelectorAll("[data-live]")) {
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

  // The browser's time zone: sign-up sends it (the account's days are counted in it), and
  // Settings offers it when the account's is another.
  const browserZone = (() => {
    try { return Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch { return ""; }
  })();
  for (const input of document.querySelectorAll("input[data-browser-time-zone]")) input.value = browserZone;
  for (const select of document.querySelectorAll("select[data-suggest-time-zone]")) {
    const option = Array.from(select.options).find((option) => option.value === browserZone);
    if (!option || option.selected) continue;
    const hint = document.createElement("p");
    hint.className = "field-hint";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button-secondary";
    button.textContent = select.dataset.suggestTimeZone + ", " + option.textContent;
    button.addEventListener("click", () => {
      option.selected = true;
      hint.remove();
      select.focus();
    });
    hint.append(button);
    select.after(hint);
  }

  // The editor's play buttons: each plays the sound its select has chosen.
  for (const button of document.querySelectorAll("button[data-preview]")) {
    const select = document.getElementById(button.dataset.preview);
    if (!select) continue;
    button.hidden = false;
    button.addEventListener("click", () => {
      const url = select.selectedOptions[0]?.dataset.sound;
      if (url) new Audio(url).play().catch(() => {});
    });
  }
})();

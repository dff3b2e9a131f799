// The sitting page runs the session: Start, Pause, Resume, Stop, the current section, the time
// left and a progress bar; the sounds are scheduled on the Web Audio clock (so they ring on time
// in a background tab and pause with it), each section and sound is announced in a live region,
// and the screen is kept awake where the browser allows it; it tells the person's groups when
// they sit and stop ("Sitting now"). A group sit's page plays its timeline from the sit's start
// by the server's clock (measureClock), so the bells ring in every member's home together; who
// joins late hears only what is still to come.
import { deviceStore, keptSit, newClientId, outcome, postSit, SAVED_ON_DEVICE, SCRIPT_POST_HEADERS } from "./outbox.js";
import { requestSync, signedIn } from "./pocket.js";
import { formatTime, measureClock } from "./time.js";
import { momentCursor, moments, strokeCount, timelineRow } from "./timeline.js";

const STROKE_GAP = 2.5; // seconds between the strokes of one ring
// A session of at most this many strokes has them all put on the audio clock when it starts.
// A longer one (a day ringing every second) keeps the next LOOKAHEAD seconds of them there,
// topped up as it runs: far more than a hidden tab's timers are held back.
const ALL_AT_ONCE = 5000;
const LOOKAHEAD = 600;

// What the running session says, in English: a page in another language gives each in its
// words on [data-sitter] (data-paused-at…, {time} where the time goes), which take their place.
const ENGLISH = {
  soundNotLoaded: "A sound could not be loaded; the session runs without it.",
  complete: "Session complete.",
  startAgain: "Start again",
  saved: "Session saved.",
  kept: SAVED_ON_DEVICE,
  notSaved: "The session could not be saved.",
  timeSat: "Time sat",
  timeLeft: "Time left",
  noAudio: "This browser cannot play the sounds; the session runs without them.",
  pausedAt: "Paused at {time}.",
  resumed: "Resumed.",
  satFor: "Sat for {time}.",
  stoppedAt: "Session stopped at {time}.",
  // A group sit's.
  beginsIn: "Begins in {time}",
  joinAgain: "Join again",
  leftAt: "You left the sit at {time}.",
  noAudioTogether: "This browser cannot play the sounds; the sit runs without them.",
  settingClock: "Setting the clock…",
  clockFailed: "The server's clock could not be read. Reload the page to try again.",
  over: "This sit is over.",
};

/** The session's words: the page's (an element's dataset), else English. */
export function sitterWords(dataset) {
  const words = {};
  for (const [name, english] of Object.entries(ENGLISH)) words[name] = dataset[name] ?? english;
  return words;
}

/** Runs the sitting page whose timeline is under `root` (`[data-sitting]`). */
export function enhanceSitting(root) {
  const sitter = root.querySelector("[data-sitter]");
  if (!sitter) return;
  const say = sitterWords(sitter.dataset);
  const at = (text, seconds) => text.replace("{time}", formatTime(seconds));
  const total = Number(root.dataset.total);
  // A group sit: it begins at data-starts-at by the server's clock (milliseconds since 1970),
  // and may be joined from data-joins-from.
  const together = root.dataset.startsAt !== undefined;
  const startsAt = Number(root.dataset.startsAt);
  const joinsFrom = Number(root.dataset.joinsFrom);
  let offset = null; // the server's clock minus this page's, once measured
  const serverNow = () => performance.timeOrigin + performance.now() + offset;
  const rows = [...root.querySelectorAll(".timeline li")].map((li) => timelineRow(li.dataset));
  const strokes = strokeCount(rows);

  // "Sit without a timer": the session counts up, has no end, and rings its sounds at the
  // start and its repeating sounds at their intervals, until Stop.
  let open = false;
  const length = () => (open ? Infinity : total);

  // The moments still to come, from the start (`moments` in timeline.js).
  const cursor = () => momentCursor(moments(rows, open));
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
    const post = () => fetch(url, { method: "POST", body, headers: SCRIPT_POST_HEADERS, keepalive: true }).catch(() => {});
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
        status.textContent = say.soundNotLoaded;
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
      if (together) sectionLabel.textContent = at(say.beginsIn, -now);
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
      const message = row.says;
      // Rings a throttled tab catches up on at once are said once.
      if (!(moment.again && messages[messages.length - 1] === message)) messages.push(message);
    }
    if (now >= length()) {
      finish(say.complete, true);
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
    buttons.start.textContent = together ? say.joinAgain : say.startAgain;
    if (together) tick(); // "Join again" while the sit lasts
    else show("start", "open");
    if (completed || seconds >= 60) record(seconds, completed, message);
  }

  // A session run to the end, or stopped after a minute, is recorded; a shorter one is not. It
  // is kept on the device first (outbox.js), so a sit that cannot be posted now (no network, the
  // server restarting, the sign-in ended) is sent later, and is never lost.
  async function record(seconds, completed, message) {
    const form = sitter.querySelector("[data-sitter-record]");
    if (!form) return;
    form.elements.startedAt.value = startedWall.toISOString().replace(/\.\d+Z$/, "Z");
    form.elements.seconds.value = String(seconds);
    form.elements.completed.value = String(Boolean(completed));
    const who = signedIn(document);
    const sit = keptSit(form, who?.person, newClientId());
    let store = who ? deviceStore() : null;
    try {
      await store?.put(sit);
    } catch {
      store = null; // private browsing without storage: posted once, as before
    }
    const result = outcome(await postSit(sit, who?.token ?? form.elements._csrf.value));
    if (result !== "kept") await store?.remove(sit.clientId).catch(() => {});
    if (result === "sent") status.textContent = message + " " + say.saved;
    else if (result === "kept" && store) {
      status.textContent = message + " " + say.kept;
      requestSync();
    } else status.textContent = message + " " + say.notSaved;
    window.dispatchEvent(new Event("sangha:kept"));
  }

  let starting = false; // a press being answered: a second one is not another session
  buttons.start.addEventListener("click", () => begin(false));
  buttons.open?.addEventListener("click", () => begin(true));

  // Start (or Join), or "Sit without a timer" (`withoutTimer`).
  async function begin(withoutTimer) {
    if (starting || timer !== null) return;
    open = withoutTimer;
    leftLabel.textContent = open ? say.timeSat : say.timeLeft;
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
      status.textContent = say.noAudioTogether;
    } else {
      clock = { elapsed: 0, since: performance.now(), running: true };
      status.textContent = say.noAudio;
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
    status.textContent = at(say.pausedAt, elapsed());
    show("resume", "stop");
    letSleep();
  });

  buttons.resume?.addEventListener("click", async () => {
    if (audio) await audio.resume();
    if (clock) Object.assign(clock, { since: performance.now(), running: true });
    status.textContent = say.resumed;
    show("pause", "stop");
    keepAwake();
    announce(true);
  });

  buttons.stop.addEventListener("click", () => {
    // A sit without a timer ends when the person says: it is complete then.
    if (open) return finish(at(say.satFor, Math.round(elapsed())), true);
    finish(at(together ? say.leftAt : say.stoppedAt, elapsed()), false);
  });

  document.addEventListener("visibilitychange", () => {
    if (running() && document.visibilityState === "visible") keepAwake();
  });

  sitter.hidden = false;
  if (together) wait();

  // Before joining a group sit: the clock measured, then "Join" from ten minutes before it
  // begins until it ends, and how long until it begins.
  async function wait() {
    status.textContent = say.settingClock;
    try {
      offset = await measureClock(root.dataset.clock);
    } catch (error) {
      status.textContent = say.clockFailed;
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
      status.textContent = say.over;
      return;
    }
    if (now < startsAt) sectionLabel.textContent = at(say.beginsIn, (startsAt - now) / 1000);
    show(now >= joinsFrom ? "start" : null);
    setTimeout(tick, 250);
  }
}

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
//   the part is swapped in;
// - Sangha installs as an app: the service worker keeps the static files and the pages opened,
//   for use without a network; a finished sit is kept on the device until it is recorded, and
//   pages say how many wait (pocket.js, outbox.js).
//
// - Settings' "Notifications" turns notifications on for this device (notifications.js), and
//   the service worker shows each push.
//
// Each part is a module of its own; this one starts them.
import { enhanceForms } from "./forms.js";
import { enhanceLiveParts } from "./live.js";
import { enhanceNotifications } from "./notifications.js";
import { enhancePocket } from "./pocket.js";
import { enhancePreviews } from "./previews.js";
import { enhanceSitting } from "./sitting.js";
import { enhanceTimeZones } from "./zones.js";

enhanceForms();
for (const root of document.querySelectorAll("[data-sitting]")) enhanceSitting(root);
enhanceLiveParts(document);
enhanceTimeZones(document);
enhancePreviews(document);
enhancePocket(document);
enhanceNotifications(document);

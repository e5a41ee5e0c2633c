import { Rpc } from "./rpc.js";
import { Kiosk } from "./kiosk.js";
import { handleEvent } from "./events.js";
import { showStatus } from "./notices.js";
import { chooseLanguage } from "../strings/index.js";

// The kiosk UI's start (docs/kiosk.md): the language, the connection to the daemon through
// activetask-web's relay, and the kiosk (kiosk.js) that draws what the daemon says.
const query = new URLSearchParams(location.search);
const language = chooseLanguage(query.get("lang"), navigator.languages);
const t = (await import(`../strings/${language}.js`)).default;
document.documentElement.lang = language;

// The token came in the URL once; the cookie set from it carries it from now on.
// The language chosen in the URL stays in it, so that a reload keeps it.
if (query.has("token")) history.replaceState(null, "", query.has("lang") ? `/?lang=${language}` : "/");

// The connection's callbacks run once the module has run, so `kiosk` is there by then.
const rpc = new Rpc({
  onEvent: (event) => handleEvent(kiosk, event),
  onOpen: () => kiosk.attach(),
  onClose: () => showStatus(t.reconnecting),
});
const kiosk = new Kiosk({ rpc, t });
showStatus(t.connecting);

import { showNotice } from "./notices.js";
import { showLevel } from "./level.js";

// The daemon's events (docs/protocol.md, "Events") as the kiosk takes them: each changes the
// screen through the kiosk (kiosk.js), or only the step on screen when it names that step.
export function handleEvent(kiosk, event) {
  const { t, state } = kiosk;
  const view = state.view;
  const onStep = view && event.stepPath === view.shown.stepPath;
  switch (event.kind) {
    case "stepShown":
      kiosk.show(event);
      break;
    case "timerStarted":
    case "timerTick":
    case "timerResumed":
    case "timerPaused":
      if (onStep && view.timer) view.timer.update(event.remaining);
      break;
    case "timerFinished":
      if (onStep) kiosk.timerFinished(view);
      break;
    case "promptSpoken":
      // The start and finish sounds are reported as "<start sound>", "<finish sound>": no words.
      if (onStep && view.caption && !event.text.startsWith("<")) view.caption.textContent = event.text;
      break;
    case "audioLevel":
      // A timed step (it has a caption) shows the level while a microphone records.
      if (view?.caption) showLevel(view, event, t.microphoneLevel);
      break;
    case "permissionRequest":
      kiosk.permissions.ask(event);
      break;
    case "permissionAnswered":
      kiosk.permissions.forget(event.requestID);
      break;
    case "actionFailed":
      // After a denial the daemon's own sentence says what is not recorded and why.
      showNotice(state.run.denied.has(event.identifier) ? t.notRecorded(event.message) : t.actionFailed(event.identifier, event.message));
      state.failed(event.message);
      break;
    case "warning":
      showNotice(t.warning(event.message));
      break;
    case "taskFinished":
      kiosk.finished(event);
      break;
    case "eventsLost":
      kiosk.attach();
      break;
  }
}

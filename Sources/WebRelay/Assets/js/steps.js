import { el, button } from "./dom.js";
import { TimerRing } from "./timer.js";
import { TappingPad, handOf } from "./tapping.js";
import { QuestionForm, questionTypes } from "./questions.js";
import { applyColorMapping } from "./colors.js";
import { isTaskResource } from "./learnmore.js";

// Where SageResearch's image placements (RSDImagePlacementType) put the step's image:
// `iconBefore` small above the title, `iconAfter` small after the text, `topBackground` across
// the top of the step above its title (`topMarginBackground` inside the margins; the article
// takes these first), and `fullsizeBackground` or none in the body, as large as the screen
// allows without scrolling. Returns the image when it goes on top of the step.
function placeImage(image, placement, header, body) {
  if (placement === "topBackground" || placement === "topMarginBackground") return image;
  if (placement === "iconBefore") header.prepend(image);
  else if (placement === "iconAfter") header.append(image);
  else body.append(image);
  return null;
}

// Draws one step as its stepShown event describes it (docs/protocol.md, "Events"): the step's
// JSON as written (title, text, image…), the actions allowed now. `ui` is the app: its strings,
// its commands and its image loader.
export function renderStep(shown, ui) {
  const step = shown.step || {};
  const type = shown.type || step.type;
  const allowed = new Set(shown.allowedActions || []);
  const view = { type, step, shown, timer: null, caption: null, tapping: null, form: null };

  // A tapping step without a title of its own says which hand taps, as MotorControl's does.
  const hand = type === "tapping" ? handOf(shown.stepPath) : null;
  const title = step.title || (type === "tapping" ? ui.t.tapWithHand(hand) : null);
  const header = el("header", { class: "step-header" },
    title ? el("h1", {}, title) : null,
    step.subtitle ? el("p", { class: "subtitle" }, step.subtitle) : null,
    step.text ? el("p", { class: "text" }, step.text) : null,
    step.detail ? el("p", { class: "detail" }, step.detail) : null);

  const body = el("section", { class: `step-body step-${type}` });
  // An animated image (`imageNames`) plays its frames in turn; the tapping step's first frame.
  const frames = Array.isArray(step.image?.imageNames) ? step.image.imageNames : [];
  const imageName = step.image?.imageName || step.image?.imageNames?.[0] || step.imageName
    || (typeof step.image === "string" ? step.image : null);
  if (imageName && type === "tapping") {
    // MotorControl draws the hand faintly behind the buttons, mirrored for the right hand.
    const picture = ui.image(imageName, "tappingBackground");
    if (hand === "right") picture.classList.add("mirrored");
    body.append(picture);
  }
  const topImage = imageName && type !== "tapping"
    ? placeImage(frames.length > 1 ? ui.animation(frames, step.image?.animationDuration, step.image?.placementType)
      : ui.image(imageName, step.image?.placementType), step.image?.placementType, header, body)
    : null;
  if (Array.isArray(step.icons) && step.icons.length) {
    body.append(el("ul", { class: "icons" }, step.icons.map((icon) =>
      el("li", {}, icon.icon ? ui.image(icon.icon, "icon") : null, el("span", {}, icon.title || "")))));
  }

  // The timer's length as the daemon runs it (a countdown's 5 s default included); none for a
  // step without a timer.
  const timed = (type === "active" || type === "countdown" || type === "tapping") && shown.duration > 0;
  // The daemon says whether it moves on by itself when the timer ends (docs/protocol.md).
  view.autoAdvance = shown.transitionsAutomatically === true;

  if (type === "countdown") {
    view.timer = new TimerRing(shown.duration, ui.t.secondsLeft);
    body.append(el("p", { class: "big-label" }, ui.t.getReady), view.timer.node);
  } else if (type === "tapping") {
    view.tapping = new TappingPad(shown, ui);
    view.timer = new TimerRing(shown.duration, ui.t.secondsLeft);
    body.append(el("div", { class: "tap-dial" }, view.timer.node, view.tapping.count), view.tapping.pad);
  } else if (timed) {
    view.timer = new TimerRing(shown.duration, ui.t.secondsLeft);
    body.append(view.timer.node);
  }
  if (timed) {
    view.caption = el("p", { class: "caption", "aria-live": "assertive" });
    // Above the tapping buttons, which stay at the bottom.
    if (view.tapping) body.insertBefore(view.caption, view.tapping.pad);
    else body.append(view.caption);
  }
  if (questionTypes.has(type)) {
    view.form = new QuestionForm(shown, ui);
    body.append(view.form.node);
  }

  // The actions: Next (the step's own title for it), and back, skip, cancel, pause only when
  // the daemon allows them now.
  const actions = step.actions || {};
  const footer = el("footer", { class: "actions" });
  // "Learn more" (RSDUIActionType `learnMore`): its text, or the page or video its `url` names
  // beside the task (a `webView` or `videoView` action), in a dialog (js/learnmore.js).
  const learnMore = actions.learnMore;
  const hidden = new Set(step.shouldHideActions || []);
  const learnText = learnMore && (learnMore.text || learnMore.detail);
  if (learnMore && (learnText || isTaskResource(learnMore.url)) && !hidden.has("learnMore")) {
    const learn = button(learnMore.buttonTitle || ui.t.learnMore, () => ui.learnMore(learnMore), { secondary: true, id: "action-learn-more" });
    // A page or video shows its button once the daemon says it is there.
    if (!learnText) {
      learn.hidden = true;
      ui.learnMoreAvailable(learnMore.url).then((found) => { learn.hidden = !found; });
    }
    footer.append(learn);
  }
  if (allowed.has("cancel")) footer.append(button(ui.t.cancel, () => ui.cancel(), { secondary: true, id: "action-cancel" }));
  // The daemon offers back only where it has a step to return to (hasStepBefore).
  if (allowed.has("back")) {
    footer.append(button(actions.goBackward?.buttonTitle || ui.t.back, () => ui.back(), { secondary: true, id: "action-back" }));
  }
  if (allowed.has("skip")) {
    const target = actions.skip?.skipToIdentifier;
    footer.append(button(actions.skip?.buttonTitle || ui.t.skip, () => (target ? ui.skipTo(target) : ui.skip()),
      { secondary: true, id: "action-skip" }));
  }
  // No Pause while tapping (MotorControl has none): the buttons would go on recording.
  if (timed && type !== "countdown" && type !== "tapping" && allowed.has("timer.pause") && !view.autoAdvance) {
    view.pause = button(ui.t.pause, () => ui.togglePause(), { secondary: true, id: "action-pause" });
    footer.append(view.pause);
  }
  // A timed tapping step is left with its result when its timer ends; one without a duration
  // has Next.
  const showsNext = allowed.has("forward") && !(timed && (view.autoAdvance || type === "tapping"));
  if (showsNext) {
    const title = actions.goForward?.buttonTitle || (shown.hasStepAfter === false ? ui.t.done : ui.t.next);
    footer.append(button(title, () => ui.forward(view), { id: "action-next", large: true }));
  }

  view.node = el("article", { class: `step type-${type}`, "data-step-path": shown.stepPath, "data-hand": hand || undefined },
    // Stop and the like above a tapping step, away from the buttons at the bottom.
    topImage, ...(type === "tapping" ? [footer, header, body] : [header, body, footer]));
  view.tapping?.attach(view.node);
  applyColorMapping(step.colorMapping, { step: view.node, header, body, footer });
  return view;
}

import { showNotice } from "./notices.js";

// The permission questions open, oldest first: the daemon asks one for each recorder that needs
// one (Recorder_Microphone asks for the microphone and for motion at once), and each waits for
// its own answer. The dialog shows the oldest; answering it shows the next.
export class PermissionDialog {
  // `onDenied(actions)` hears of the actions a denial leaves unrecorded.
  constructor({ rpc, t, onDenied }) {
    this.rpc = rpc;
    this.t = t;
    this.onDenied = onDenied;
    this.open = [];
    this.dialog = document.getElementById("permission");
  }

  ask(request) {
    if (!this.open.some((open) => open.requestID === request.requestID)) this.open.push(request);
    this.show();
  }

  // A question answered (here or by another client) leaves the dialog; the next one shows.
  forget(requestID) {
    this.open = this.open.filter((open) => open.requestID !== requestID);
    this.show();
  }

  close() {
    this.open = [];
    this.show();
  }

  show() {
    const request = this.open[0];
    if (!request) {
      if (this.dialog.open) this.dialog.close();
      return;
    }
    const t = this.t;
    document.getElementById("permission-title").textContent = request.title || t.permissionTitle(request.permission);
    document.getElementById("permission-reason").textContent = request.reason || "";
    const answer = (granted) => {
      // Not held back by a command on its way: the run waits for this answer.
      if (!granted) this.onDenied(request.actions || []);
      this.forget(request.requestID);
      // A question this screen has not seen (it came before a reload) is in the answer's status.
      this.rpc.call("permission.answer", { requestID: request.requestID, granted }).then(
        (status) => { if (status?.permissionRequest) this.ask(status.permissionRequest); },
        (error) => showNotice(error.message));
    };
    const allow = document.getElementById("permission-allow");
    const deny = document.getElementById("permission-deny");
    allow.textContent = t.allow;
    deny.textContent = t.deny;
    allow.onclick = () => answer(true);
    deny.onclick = () => answer(false);
    if (!this.dialog.open) this.dialog.showModal();
  }
}

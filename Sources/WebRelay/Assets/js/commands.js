import { showNotice } from "./notices.js";

// Commands from taps run one at a time, in the order tapped. A tap made while another command
// is under way waits for it instead of being lost: the daemon's stepShown may come before the
// answer to the forward that led there (docs/protocol.md), so the new step's buttons work at
// once. A waiting tap is dropped if, by its turn, the screen it was made on has gone.
export class Commands {
  // `currentView()` is the step on screen now (KioskState.view).
  constructor(rpc, currentView) {
    this.rpc = rpc;
    this.currentView = currentView;
    this.queue = Promise.resolve();
  }

  // A command from a tap; its refusal is shown as a notice unless `shownBy` says the screen
  // shows it itself (a wrong answer beside its field). A dropped tap rejects with code 0, no
  // notice.
  run(method, params, shownBy = () => false) {
    const tappedOn = this.currentView();
    const turn = this.queue.then(async () => {
      if (this.currentView() !== tappedOn) throw Object.assign(new Error("The screen changed before the tap's turn."), { code: 0 });
      try {
        return await this.rpc.call(method, params);
      } catch (error) {
        if (error.code !== -1 && !shownBy(error)) showNotice(error.message);
        throw error;
      }
    });
    this.queue = turn.catch(() => {});
    return turn;
  }
}

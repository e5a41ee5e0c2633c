// What the UI has asked the daemon for about a task's files (tasks.image, tasks.resource),
// kept by task file and name so that each is asked for once: a picture shown on several
// screens, a "learn more" film opened twice. An answer that proves nothing is not kept and is
// asked for again next time: one that failed, or one `forget` says so of (a lost connection).
export class TaskFileCache {
  constructor() {
    this.entries = new Map(); // task file and name → Promise
  }

  // The kept promise for `name` beside `taskFile`, or the one `make()` starts.
  get(taskFile, name, make, forget = () => false) {
    const key = `${taskFile}\u0000${name}`;
    let entry = this.entries.get(key);
    if (!entry) {
      entry = make();
      this.entries.set(key, entry);
      const drop = () => { if (this.entries.get(key) === entry) this.entries.delete(key); };
      entry.then((value) => { if (forget(value)) drop(); }, drop);
    }
    return entry;
  }
}

// A call that failed because the connection to the daemon was lost (rpc.js): it says nothing
// about the file.
export function connectionLost(error) {
  return error?.code === -1;
}

// JSON-RPC 2.0 over the relay's WebSocket: one request per message, as on the control socket
// (docs/protocol.md). Reconnects after a lost connection; `onOpen` runs after each connect.
// The WebSocket names this tab's key (docs/kiosk.md, "A tab's own run"): made once per tab and
// kept in its sessionStorage, so that after a reload or a reconnect the relay lets the tab go on
// with the run it started, and no other tab drive or see it.
function tabKey() {
  let key = sessionStorage.getItem("activetask-tab");
  if (!key) {
    key = Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");
    sessionStorage.setItem("activetask-tab", key);
  }
  return key;
}

export class Rpc {
  constructor({ onEvent, onOpen, onClose }) {
    this.onEvent = onEvent;
    this.onOpen = onOpen;
    this.onClose = onClose;
    this.nextID = 1;
    this.pending = new Map();
    this.retry = 500;
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}/ws?tab=${tabKey()}`);
    this.socket = socket;
    socket.onopen = () => {
      this.retry = 500;
      this.onOpen();
    };
    socket.onmessage = (message) => this.receive(message.data);
    socket.onclose = () => {
      for (const { reject } of this.pending.values()) reject(new RpcError(-1, "The connection was lost."));
      this.pending.clear();
      this.onClose();
      setTimeout(() => this.connect(), this.retry);
      this.retry = Math.min(this.retry * 2, 5000);
    };
  }

  receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (message.method === "event") return this.onEvent(message.params);
    const waiting = this.pending.get(message.id);
    if (!waiting) return;
    this.pending.delete(message.id);
    if (message.error) waiting.reject(new RpcError(message.error.code, message.error.message, message.error.data));
    else waiting.resolve(message.result);
  }

  call(method, params) {
    const id = this.nextID++;
    const request = { jsonrpc: "2.0", id, method };
    if (params !== undefined) request.params = params;
    return new Promise((resolve, reject) => {
      if (this.socket.readyState !== WebSocket.OPEN) return reject(new RpcError(-1, "Not connected."));
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify(request));
    });
  }
}

export class RpcError extends Error {
  constructor(code, message, data) {
    super(message);
    this.code = code;
    this.data = data || {};
  }
}

// The connection's status line and the notice that says why a command was refused.
const statusLine = document.getElementById("status");
const notice = document.getElementById("notice");
let hideNotice = null;

// "Connecting…", "Reconnecting…"; empty once connected.
export function showStatus(text) {
  statusLine.textContent = text || "";
  statusLine.hidden = !text;
  document.body.classList.toggle("disconnected", Boolean(text));
}

// A notice stays 8 s, long enough to be read, then leaves the screen.
export function showNotice(text) {
  notice.textContent = text;
  notice.hidden = !text;
  clearTimeout(hideNotice);
  if (text) hideNotice = setTimeout(() => (notice.hidden = true), 8000);
}

// The launch page posted the token to /login, which set the cookie (docs/kiosk.md, "Security"):
// replace this page with the UI, so that history holds "/" only.
location.replace("/");

#!/usr/bin/python3
"""activetask-web's security from outside, with clients this project did not write: curl for
HTTP and Python's websockets (Debian's python3-websockets) for the WebSocket.

usage: web_security_check.py PORT TOKEN_FILE [TIMEOUT]

The token is read from TOKEN_FILE (a command line is every user's to read).

TIMEOUT (seconds, 10 by default) bounds each request and answer; the tests widen it under a
sanitizer.

Run by WebRelaySecurityTests against the real activetask-web in front of the real activetaskd;
exits 1 naming every check that failed. The asset folder it is started with holds `inside.txt`
and a symlink `outside.txt` to a file outside it.
"""
import asyncio
import json
import subprocess
import sys

import websockets

PORT = sys.argv[1]
with open(sys.argv[2], encoding="utf-8") as token_file:
    TOKEN = token_file.read().strip()
TIMEOUT = float(sys.argv[3]) if len(sys.argv) > 3 else 10.0
BASE = f"http://127.0.0.1:{PORT}"
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def curl(path, *headers, raw=False):
    """(status, headers text) of a GET; --path-as-is keeps `..` as written."""
    command = ["curl", "-s", "-o", "/dev/null", "-D", "-", "--max-time", str(TIMEOUT), "--path-as-is"]
    for header in headers:
        command += ["-H", header]
    command.append(path if raw else BASE + path)
    out = subprocess.run(command, capture_output=True, text=True).stdout
    status = int(out.split(" ", 2)[1]) if out.startswith("HTTP/") else 0
    return status, out.lower()


COOKIE = "__Host-activetask-token"
cookie = f"Cookie: {COOKIE}={TOKEN}"

status, headers = curl("/")
check(status == 401, f"no token: 401 (got {status})")
status, _ = curl("/?token=" + "0" * len(TOKEN))
check(status == 401, f"a wrong token: 401 (got {status})")
status, _ = curl("/", f"Cookie: {COOKIE}=wrong")
check(status == 401, f"a wrong cookie: 401 (got {status})")
status, headers = curl("/?token=" + TOKEN)
check(status == 200, f"the token in the URL: 200 (got {status})")
check("content-security-policy: default-src 'self'" in headers, "Content-Security-Policy default-src 'self'")
check("unsafe-inline" not in headers and "frame-ancestors 'none'" in headers, "the kiosk's pages allow no inline style or script and are framed by nobody")
status, frame = curl("/learnmore-frame.html", cookie)
policy = next((line for line in frame.splitlines() if line.startswith("content-security-policy:")), "")
check(status == 200 and "default-src 'none'" in policy and "sandbox allow-same-origin" in policy and "script" not in policy
      and "frame-ancestors 'self'" in policy,
      f"the learn-more frame runs no script, loads nothing but data: images and is framed by the kiosk only ({policy})")
check(f"set-cookie: {COOKIE.lower()}={TOKEN.lower()}; path=/; secure; httponly; samesite=strict" in headers,
      "the cookie is set from the token: __Host- prefixed, Secure, HttpOnly, SameSite=Strict")
status, _ = curl("/", f"Cookie: activetask-token={TOKEN}")
check(status == 401, f"the token in a cookie without the __Host- prefix: 401 (got {status})")


def post(path, form, *headers):
    """(status, headers text, body) of a form POST, as the launch page sends it."""
    command = ["curl", "-s", "-D", "-", "--max-time", str(TIMEOUT), "--data-binary", "@-",
               "-H", "Content-Type: application/x-www-form-urlencoded"]
    for header in headers:
        command += ["-H", header]
    out = subprocess.run(command + [BASE + path], input=form, capture_output=True, text=True).stdout
    head, _, body = out.partition("\n\n")  # text mode: curl's CRLFs read as newlines
    status = int(out.split(" ", 2)[1]) if out.startswith("HTTP/") else 0
    return status, head.lower(), body


# The launch page's form (the token in a request body, given on curl's standard input, so that
# it is in no command line): the cookie, and a page that replaces itself with "/".
status, headers, body = post("/login", f"token={TOKEN}", "Origin: null")
check(status == 200 and f"set-cookie: {COOKIE.lower()}={TOKEN.lower()}; path=/; secure; httponly; samesite=strict" in headers,
      f"POST /login with the token from a file: page (Origin null) sets the cookie (got {status})")
check('<script src="/js/login.js">' in body and "unsafe-inline" not in headers and TOKEN not in body,
      "/login answers with a page whose own script replaces it with /, without the token")
status, login_script = curl("/js/login.js", cookie)
check(status == 200, f"login.js with the new cookie: 200 (got {status})")
status, headers, _ = post("/login", "token=" + "0" * len(TOKEN))
check(status == 401 and "set-cookie" not in headers, f"POST /login with a wrong token: 401, no cookie (got {status})")
status, _, _ = post("/login", f"token={TOKEN}", f"Host: evil.example:{PORT}")
check(status == 421, f"POST /login with a foreign Host: 421 (got {status})")
status, _, _ = post("/login", f"token={TOKEN}&pad=" + "x" * 5000)
check(status == 413, f"POST /login with a body over 4 KiB: 413 (got {status})")
status, _ = curl("/login", cookie)
check(status == 404, f"GET /login: 404, only the form posts there (got {status})")
status, _ = curl("/js/app.js", cookie)
check(status == 200, f"a module with the cookie: 200 (got {status})")
status, _ = curl("/js/app.js")
check(status == 401, f"a module without the cookie: 401 (got {status})")
status, _ = curl("/", cookie, f"Host: evil.example:{PORT}")
check(status == 421, f"a foreign Host: 421 (got {status})")
status, _ = curl("/", cookie, "Origin: http://evil.example")
check(status == 403, f"a foreign Origin: 403 (got {status})")
status, _ = curl("/", cookie, f"Origin: http://127.0.0.1:{PORT}")
check(status == 200, f"the own Origin: 200 (got {status})")
status, _ = curl("/inside.txt", cookie)
check(status == 200, f"a file inside the asset folder: 200 (got {status})")
for path in ["/outside.txt", "/../Package.swift", "/js/../../Package.swift", "/%2e%2e/%2e%2e/etc/passwd",
             "//etc/passwd", "/js/", "/js", "/etc/passwd", "/.hidden.txt"]:
    status, _ = curl(path, cookie)
    check(status == 404, f"{path}: 404, no listing (got {status})")


async def websocket_checks():
    url = f"ws://127.0.0.1:{PORT}/ws"
    origin = f"http://127.0.0.1:{PORT}"

    async def refused(what, **options):
        try:
            async with websockets.connect(url, open_timeout=TIMEOUT, **options):
                check(False, what)
        except websockets.exceptions.InvalidStatusCode as error:
            check(error.status_code in (401, 403, 421), f"{what} (HTTP {error.status_code})")

    await refused("a WebSocket without the token is refused", origin=origin)
    await refused("a WebSocket with a wrong token is refused", origin=origin, extra_headers={"Cookie": f"{COOKIE}=wrong"})
    await refused("a WebSocket from a foreign Origin is refused", origin="http://evil.example", extra_headers={"Cookie": f"{COOKIE}={TOKEN}"})
    await refused("a WebSocket without an Origin is refused", extra_headers={"Cookie": f"{COOKIE}={TOKEN}"})

    async with websockets.connect(url + "?token=" + TOKEN, origin=origin, max_size=None) as keeper, \
            websockets.connect(url, origin=origin, extra_headers={"Cookie": f"{COOKIE}={TOKEN}"}, max_size=None) as big:
        await keeper.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tasks.list"}))
        answer = json.loads(await asyncio.wait_for(keeper.recv(), TIMEOUT))
        check(answer.get("id") == 1 and "result" in answer, "the relay answers tasks.list line for line")
        await big.send(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tasks.list", "params": {"x": "a" * (1 << 20)}}))
        try:
            await asyncio.wait_for(big.recv(), TIMEOUT)
            check(False, "a message over 1 MiB closes its socket")
        except websockets.exceptions.ConnectionClosed as closed:
            check(closed.rcvd is not None and closed.rcvd.code == 1009, f"a message over 1 MiB closes its socket with 1009 ({closed.rcvd})")
        await keeper.send(json.dumps({"jsonrpc": "2.0", "id": 3, "method": "run.status"}))
        answer = json.loads(await asyncio.wait_for(keeper.recv(), TIMEOUT))
        check(answer.get("id") == 3 and "result" in answer, "the other socket goes on")


asyncio.run(websocket_checks())
if failures:
    print(f"{len(failures)} checks failed")
    sys.exit(1)

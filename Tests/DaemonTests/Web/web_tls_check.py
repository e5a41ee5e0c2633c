#!/usr/bin/python3
"""activetask-web behind a TLS reverse proxy (caddy or nginx), with clients this project did
not write: curl for HTTPS and Python's websockets (Debian's python3-websockets) over Python's ssl
for the WebSocket.

usage: web_tls_check.py PROXY_PORT WEB_PORT TOKEN CERTIFICATE [TIMEOUT]

Run by WebTLSTests: the proxy listens on 127.0.0.1:PROXY_PORT as https://kiosk.test:PROXY_PORT
(a self-signed certificate for kiosk.test, 127.0.0.1 and ::1), activetask-web on
127.0.0.1:WEB_PORT with that --public-origin, in front of the real activetaskd; exits 1 naming
every check that failed.
"""
import asyncio
import json
import ssl
import subprocess
import sys

import websockets

PORT, WEB_PORT, TOKEN, CERTIFICATE = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
TIMEOUT = float(sys.argv[5]) if len(sys.argv) > 5 else 10.0
ORIGIN = f"https://kiosk.test:{PORT}"
failures = []
# What only the kiosk's page holds (a proxy's own error pages are HTML too).
KIOSK_PAGE = '<script type="module" src="/js/app.js">'


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def curl(url, *options):
    """(exit code, status, headers text, body) of a GET to kiosk.test (resolved to 127.0.0.1)
    that trusts only the test certificate."""
    command = ["curl", "-s", "-D", "-", "--max-time", str(TIMEOUT), "--cacert", CERTIFICATE,
               "--resolve", f"kiosk.test:{PORT}:127.0.0.1", *options, url]
    done = subprocess.run(command, capture_output=True, text=True)
    out = done.stdout
    status = int(out.split(" ", 2)[1]) if out.startswith("HTTP/") else 0
    headers, _, body = out.partition("\n\n")  # text mode reads "\r\n" as "\n"
    return done.returncode, status, headers.lower(), body


def http_checks():
    code, status, headers, body = curl(f"{ORIGIN}/?token={TOKEN}")
    check(code == 0 and status == 200 and KIOSK_PAGE in body,
          f"the page over HTTPS by the certificate's name, verified against it (curl {code}, HTTP {status})")
    check("content-security-policy: default-src 'self'" in headers, "its Content-Security-Policy is default-src 'self'")
    cookie = next((line for line in headers.splitlines() if line.startswith("set-cookie:")), "")
    check(cookie.strip() == f"set-cookie: __host-activetask-token={TOKEN.lower()}; path=/; secure; httponly; samesite=strict",
          f"the token's cookie is __Host- prefixed, Secure and HttpOnly through the proxy ({cookie.strip()})")
    _, status, _, _ = curl(f"{ORIGIN}/")
    check(status == 401, f"without the token: 401 (HTTP {status})")
    # caddy answers a Host of no site of its own itself (no page); nginx passes it on and
    # activetask-web refuses it (421). Either way no page.
    _, status, _, body = curl(f"{ORIGIN}/?token={TOKEN}", "-H", "Host: evil.example")
    check(status != 200 or KIOSK_PAGE not in body, f"a foreign Host gets no page (HTTP {status})")
    code, status, _, body = curl(f"http://kiosk.test:{PORT}/?token={TOKEN}")
    check(KIOSK_PAGE not in body, f"plain HTTP to the proxy's port gets no page (curl {code}, HTTP {status})")
    code, status, _, _ = curl(f"{ORIGIN}/?token={TOKEN}", "--tls-max", "1.1")
    check(status == 0, f"TLS 1.1 is refused (curl {code})")
    # activetask-web itself: plain HTTP on loopback, which browsers count as a secure context, so
    # the cookie is the same __Host- one (docs/kiosk.md, "Security").
    code, status, headers, _ = curl(f"http://127.0.0.1:{WEB_PORT}/?token={TOKEN}")
    cookie = next((line for line in headers.splitlines() if line.startswith("set-cookie:")), "")
    check(status == 200 and cookie.startswith("set-cookie: __host-activetask-token=") and "; secure" in cookie,
          f"on loopback directly: HTTP, the same __Host- Secure cookie ({status}, {cookie.strip()})")


async def websocket_checks():
    context = ssl.create_default_context(cafile=CERTIFICATE)
    # websockets connects to the URL's host: the proxy's name, on 127.0.0.1 (the name is checked
    # against the certificate through server_hostname).
    url = f"wss://kiosk.test:{PORT}/ws?token={TOKEN}"
    options = dict(ssl=context, open_timeout=TIMEOUT, host="127.0.0.1", port=int(PORT), server_hostname="kiosk.test")
    try:
        async with websockets.connect(url, origin=ORIGIN, **options) as socket:
            # run.status: a participant's method (daemon.info is not open to a tab, docs/kiosk.md).
            await socket.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "run.status"}))
            answer = json.loads(await asyncio.wait_for(socket.recv(), TIMEOUT))
            check(answer.get("id") == 1 and "result" in answer,
                  f"a WebSocket over TLS relays run.status to the daemon and back ({answer})")
    except Exception as error:
        check(False, f"a WebSocket over TLS relays run.status ({error!r})")
    try:
        async with websockets.connect(url, origin=f"http://kiosk.test:{PORT}", **options):
            check(False, "a WebSocket from the http:// origin is refused")
    except Exception as error:
        check("403" in str(error), f"a WebSocket from the http:// origin is refused ({error})")


http_checks()
asyncio.run(websocket_checks())
if failures:
    print(f"{len(failures)} checks failed")
    sys.exit(1)

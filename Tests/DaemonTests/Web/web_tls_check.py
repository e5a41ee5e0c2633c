#!/usr/bin/python3
"""activetask-web over TLS, with clients this project did not write: curl for HTTPS and
Python's websockets (Debian's python3-websockets) over Python's ssl for the WebSocket.

usage: web_tls_check.py PORT TOKEN CERTIFICATE [TIMEOUT]

Run by WebTLSTests against the real activetask-web (listening on 0.0.0.0 with a self-signed
certificate for kiosk.test, 127.0.0.1 and ::1) in front of the real activetaskd; exits 1 naming
every check that failed.
"""
import asyncio
import json
import ssl
import subprocess
import sys

import websockets

PORT, TOKEN, CERTIFICATE = sys.argv[1], sys.argv[2], sys.argv[3]
TIMEOUT = float(sys.argv[4]) if len(sys.argv) > 4 else 10.0
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def curl(url, *options):
    """(exit code, status, headers text) of a GET that trusts only the test certificate."""
    command = ["curl", "-s", "-o", "/dev/null", "-D", "-", "--max-time", str(TIMEOUT), "--cacert", CERTIFICATE, *options, url]
    done = subprocess.run(command, capture_output=True, text=True)
    out = done.stdout
    status = int(out.split(" ", 2)[1]) if out.startswith("HTTP/") else 0
    return done.returncode, status, out.lower()


def http_checks():
    code, status, headers = curl(f"https://127.0.0.1:{PORT}/?token={TOKEN}")
    check(code == 0 and status == 200, f"the page over HTTPS by address, verified against the certificate (curl {code}, HTTP {status})")
    check("content-security-policy: default-src 'self'" in headers, "its Content-Security-Policy is default-src 'self'")
    check(f"set-cookie: __host-activetask-token={TOKEN.lower()}; path=/; secure; httponly; samesite=strict" in headers,
          "the cookie is __Host- prefixed and Secure over HTTPS")
    code, status, _ = curl(f"https://kiosk.test:{PORT}/?token={TOKEN}", "--resolve", f"kiosk.test:{PORT}:127.0.0.1")
    check(code == 0 and status == 200, f"the page by the certificate's DNS name (curl {code}, HTTP {status})")
    _, status, _ = curl(f"https://127.0.0.1:{PORT}/")
    check(status == 401, f"without the token: 401 (HTTP {status})")
    _, status, _ = curl(f"https://127.0.0.1:{PORT}/?token={TOKEN}", "-H", "Host: evil.example")
    check(status == 421, f"a foreign Host: 421 (HTTP {status})")
    code, status, _ = curl(f"http://127.0.0.1:{PORT}/?token={TOKEN}")
    check(status == 0, f"plain HTTP gets no page (curl {code}, HTTP {status})")
    code, status, _ = curl(f"https://127.0.0.1:{PORT}/?token={TOKEN}", "--tls-max", "1.1")
    check(status == 0, f"TLS 1.1 is refused (curl {code})")


async def websocket_checks():
    context = ssl.create_default_context(cafile=CERTIFICATE)
    url = f"wss://127.0.0.1:{PORT}/ws?token={TOKEN}"
    try:
        async with websockets.connect(url, ssl=context, origin=f"https://127.0.0.1:{PORT}", open_timeout=TIMEOUT) as socket:
            # run.status: a participant's method (daemon.info is not open to a tab, docs/kiosk.md).
            await socket.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "run.status"}))
            answer = json.loads(await asyncio.wait_for(socket.recv(), TIMEOUT))
            check(answer.get("id") == 1 and "result" in answer,
                  f"a WebSocket over TLS relays run.status to the daemon and back ({answer})")
    except Exception as error:
        check(False, f"a WebSocket over TLS relays run.status ({error!r})")
    try:
        async with websockets.connect(url, ssl=context, origin=f"http://127.0.0.1:{PORT}", open_timeout=TIMEOUT):
            check(False, "a WebSocket from the http:// origin is refused")
    except Exception as error:
        check("403" in str(error), f"a WebSocket from the http:// origin is refused ({error})")


http_checks()
asyncio.run(websocket_checks())
if failures:
    print(f"{len(failures)} checks failed")
    sys.exit(1)

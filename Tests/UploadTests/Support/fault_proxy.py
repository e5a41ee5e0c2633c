#!/usr/bin/env python3
"""A loopback HTTP proxy of UploadTests that injects faults between activetask-upload and moto
(docs/upload.md, "Tests"; UploadAgainstS3Tests+Faults.swift).

    fault_proxy.py --port P --upstream-port U --control FILE --log FILE

activetask-upload's endpoint is http://127.0.0.1:P; every request is forwarded to moto on
127.0.0.1:U unless a rule of the control file matches it. The control file is JSON, read again
whenever it changes (counters start again with each new version):

    {"rules": [{"method": "PUT", "contains": "partNumber=2", "times": 1,
                "action": "reset", "afterBytes": 1048576}, ...],
     "downSeconds": 30}

A rule matches a request whose method is `method` (any when absent) and whose target (path and
query) contains `contains` (any when absent), for its first `times` matches (always when absent);
with `nth`, only the nth request (counting every request since this version of the file, from 1).
Actions:
  status  answer `status` with S3's XML error `code` and the header `Retry-After: retryAfter`
          (when given), after reading the whole body as a real server would;
  reset   forward the headers and `afterBytes` bytes of the body, then reset both connections
          (SO_LINGER 0: the client sees ECONNRESET in the middle of its body);
  stall   forward `afterBytes` bytes of the body, then stop reading (and forward nothing) for
          `seconds` (default 60) before closing: a stalled read, as a hung server gives.
  replace forward the request (unless `upstream` is false) and read the storage's whole answer,
          then answer `status` (default 200) with `body` (default empty) or, with `truncate`, the
          first `truncate` bytes of the storage's own body: what a connection cut after S3's early
          200 looks like (the storage did the work; the client never hears the result).
  hold    forward the request and read the storage's whole answer, log "held", and answer nothing
          for `seconds` (default 600): the call took effect, and the test kills the client now.
  skew    the storage's clock is `seconds` ahead: a request whose x-amz-date is more than 15
          minutes from it is answered 403 RequestTimeTooSkewed with that clock's `Date`; the
          others are forwarded (moto checks signatures, not times).
`downSeconds` (taken once per version of the file): the proxy resets every open connection and
stops listening for that many seconds, so new connections are refused; then it listens again on
the same port.

Every request is logged as one JSON line: {"time" (seconds, time.time()), "method", "target",
"action", "status" (the answer's status when one was sent)}; "event" lines log the outage. A
connection accepted before an outage logs nothing once the outage has begun, however late its
thread comes to it.
"""
import argparse
import calendar
import email.utils
import json
import os
import socket
import struct
import sys
import threading
import time

lock = threading.Lock()
# "outages" counts the outages begun: a connection accepted before one belongs to the past.
state = {"version": None, "rules": [], "counts": [], "pending_down": 0, "outages": 0}
open_sockets = set()


def log(args, record, accepted=None):
    """Appends `record` with its time. With `accepted` (the outage count when its connection was
    accepted), a connection an outage has reset since logs nothing and False is returned: a
    handler the load slowed must not log a request as if it came in during the outage."""
    with lock:
        if accepted is not None and state["outages"] != accepted:
            return False
        record["time"] = time.time()
        with open(args.log, "a") as handle:
            handle.write(json.dumps(record) + "\n")
    return True


def reload_control(args):
    """Reads the control file when it changed (each version is a new file renamed into place);
    an outage it asks for waits in state["pending_down"] for the main loop."""
    try:
        info = os.stat(args.control)
    except FileNotFoundError:
        return
    version = (info.st_ino, info.st_mtime_ns)
    with lock:
        if version == state["version"]:
            return
        try:
            with open(args.control) as handle:
                control = json.load(handle)
        except (OSError, ValueError):
            return  # Being replaced; read on the next look.
        state["version"] = version
        state["rules"] = control.get("rules", [])
        state["counts"] = [0] * len(state["rules"])
        state["requests"] = 0
        state["pending_down"] = float(control.get("downSeconds", 0))


def matching_rule(method, target):
    with lock:
        state["requests"] = state.get("requests", 0) + 1
        for index, rule in enumerate(state["rules"]):
            if "nth" in rule and rule["nth"] != state["requests"]:
                continue
            if rule.get("method") not in (None, method):
                continue
            if rule.get("contains") and rule["contains"] not in target:
                continue
            if "times" in rule and state["counts"][index] >= rule["times"]:
                continue
            state["counts"][index] += 1
            return rule
    return None


def read_head(connection):
    """The request's head (up to the blank line) and whatever body bytes came with it."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            return None, b""
        data += chunk
        if len(data) > 1 << 20:
            return None, b""
    head, _, rest = data.partition(b"\r\n\r\n")
    return head, rest


def reset(sock):
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    try:
        sock.close()
    except OSError:
        pass


def forward_body(source, destination, already, length):
    """Copies the body (`already` came with the head) from source to destination."""
    sent = 0
    if already:
        destination.sendall(already[:length])
        sent = min(len(already), length)
    while sent < length:
        chunk = source.recv(min(65536, length - sent))
        if not chunk:
            return False
        destination.sendall(chunk)
        sent += len(chunk)
    return True


def handle(args, client, accepted):
    upstream = None
    try:
        head, rest = read_head(client)
        if head is None:
            return
        lines = head.decode("latin-1").split("\r\n")
        method, target = lines[0].split(" ")[:2]
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0"))
        # The file may have changed since the main loop last looked (it looks every 0.1 s).
        reload_control(args)
        rule = matching_rule(method, target)
        action = rule["action"] if rule else "forward"
        record = {"method": method, "target": target, "action": action}

        if action == "status":
            drain_body(client, rest, length)
            code = rule.get("code", "InternalError")
            body = (f'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>{code}</Code>'
                    f"<Message>Injected by the tests' fault proxy.</Message></Error>").encode()
            extra = f"Retry-After: {rule['retryAfter']}\r\n" if "retryAfter" in rule else ""
            status = int(rule.get("status", 500))
            record["status"] = status
            if log(args, record, accepted):
                client.sendall((f"HTTP/1.1 {status} Fault\r\nContent-Type: application/xml\r\nContent-Length: {len(body)}\r\n"
                                f"{extra}Connection: close\r\n\r\n").encode() + body)
            return

        if action == "skew":
            offset = float(rule.get("seconds", 3600))
            server_now = time.time() + offset
            stamp = headers.get("x-amz-date", "")
            try:
                signed = calendar.timegm(time.strptime(stamp, "%Y%m%dT%H%M%SZ"))
            except ValueError:
                signed = None
            if signed is None or abs(signed - server_now) > 900:
                drain_body(client, rest, length)
                body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>RequestTimeTooSkewed</Code>"
                        "<Message>The difference between the request time and the current time is too large.</Message></Error>").encode()
                if method == "HEAD":
                    body = b""
                date = email.utils.formatdate(server_now, usegmt=True)
                record["status"] = 403
                if log(args, record, accepted):
                    client.sendall((f"HTTP/1.1 403 Forbidden\r\nDate: {date}\r\nContent-Type: application/xml\r\n"
                                    f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body)
                return
            action = record["action"] = "forward"

        if action == "replace" and not rule.get("upstream", True):
            drain_body(client, rest, length)
            answer_replaced(args, client, rule, record, accepted, b"")
            return

        if not log(args, record, accepted):
            return
        upstream = socket.create_connection(("127.0.0.1", args.upstream_port))
        with lock:
            open_sockets.add(upstream)
        # One request per connection: the answer is read until the server closes.
        kept = [line for line in lines[1:] if line.split(":")[0].strip().lower() not in ("connection", "keep-alive")]
        upstream.sendall(("\r\n".join([lines[0]] + kept + ["Connection: close"]) + "\r\n\r\n").encode("latin-1"))

        if action in ("reset", "stall"):
            after = min(int(rule.get("afterBytes", length // 2)), length)
            forward_body(client, upstream, rest, after)
            if action == "reset":
                reset(client)
                reset(upstream)
                return
            reset(upstream)
            # Stop reading: the client's sends fill the socket buffers and then nothing moves.
            time.sleep(float(rule.get("seconds", 60)))
            return

        if not forward_body(client, upstream, rest, length):
            return
        if action in ("replace", "hold"):
            answer = b""
            while True:
                chunk = upstream.recv(65536)
                if not chunk:
                    break
                answer += chunk
            status_line = answer.split(b"\r\n", 1)[0].split(b" ")
            stored = int(status_line[1]) if len(status_line) > 1 and status_line[1].isdigit() else None
            if not log(args, {"method": method, "target": target, "action": "answer", "status": stored}, accepted):
                return
            if action == "hold":
                if log(args, {"method": method, "target": target, "action": "held"}, accepted):
                    time.sleep(float(rule.get("seconds", 600)))
                return
            answer_replaced(args, client, rule, record, accepted, answer.partition(b"\r\n\r\n")[2])
            return
        answer_started = False
        while True:
            chunk = upstream.recv(65536)
            if not chunk:
                break
            if not answer_started:
                answer_started = True
                try:
                    record_status = int(chunk.split(b" ", 2)[1])
                    if not log(args, {"method": method, "target": target, "action": "answer", "status": record_status}, accepted):
                        return
                except (IndexError, ValueError):
                    pass
            client.sendall(chunk)
    except OSError:
        pass
    finally:
        for sock in (client, upstream):
            if sock is None:
                continue
            with lock:
                open_sockets.discard(sock)
            try:
                sock.close()
            except OSError:
                pass


def drain_body(client, rest, length):
    """Reads the rest of the request's body (and drops it): a server that answers before it has
    read the body would make the client fail its send, not see the answer."""
    remaining = length - len(rest)
    while remaining > 0:
        chunk = client.recv(min(65536, remaining))
        if not chunk:
            break
        remaining -= len(chunk)


def answer_replaced(args, client, rule, record, accepted, stored_body):
    """Answers a `replace` rule: its status and body (or the storage's body cut short)."""
    if "truncate" in rule:
        body = stored_body[: int(rule["truncate"])]
    else:
        body = rule.get("body", "").encode()
    status = int(rule.get("status", 200))
    if log(args, {"method": record["method"], "target": record["target"], "action": "replaced", "status": status}, accepted):
        client.sendall((f"HTTP/1.1 {status} OK\r\nContent-Type: application/xml\r\nContent-Length: {len(body)}\r\n"
                        f"Connection: close\r\n\r\n").encode() + body)


def listen(port):
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", port))
    server.listen(128)
    server.settimeout(0.1)
    return server


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--upstream-port", type=int, required=True)
    parser.add_argument("--control", required=True)
    parser.add_argument("--log", required=True)
    args = parser.parse_args()
    server = listen(args.port)
    print("listening", flush=True)
    while True:
        reload_control(args)
        with lock:
            down, state["pending_down"] = state["pending_down"], 0
        if down > 0:
            server.close()
            with lock:
                state["outages"] += 1
                doomed = list(open_sockets)
            for sock in doomed:
                # shutdown wakes the thread blocked on the socket (close alone would not); with
                # SO_LINGER 0 its close then resets the connection.
                try:
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
            log(args, {"event": "down", "seconds": down})
            time.sleep(down)
            server = listen(args.port)
            log(args, {"event": "up"})
            continue
        try:
            client, _ = server.accept()
        except socket.timeout:
            continue
        client.settimeout(None)
        # Registered before its thread starts, so an outage beginning now resets it too.
        with lock:
            open_sockets.add(client)
            accepted = state["outages"]
        threading.Thread(target=handle, args=(args, client, accepted), daemon=True).start()


if __name__ == "__main__":
    sys.exit(main())

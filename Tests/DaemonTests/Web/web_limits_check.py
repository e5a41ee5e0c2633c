#!/usr/bin/python3
"""activetask-web holds its buffers and its descriptors (docs/kiosk.md, "Limits"), tried with a
client this project did not write (Debian's python3-websockets) and plain sockets for
connections that never send a request.

usage: web_limits_check.py backpressure PORT TOKEN PID TASK RESOURCE COUNT BOUND DEADLINE
       web_limits_check.py refused PORT TOKEN PID COUNT BOUND DEADLINE
       web_limits_check.py descriptors PORT PID COUNT DEADLINE
       web_limits_check.py ping PORT TOKEN DEADLINE

backpressure: one WebSocket sends COUNT `tasks.resource` requests for RESOURCE beside TASK and
reads nothing until the other end has closed its connection (the relay closes a browser that
takes nothing, or the daemon drops a client too far behind), which must happen within DEADLINE
seconds; activetask-web's peak resident memory (VmHWM in /proc/PID/status) may grow by at most
BOUND bytes over its peak after a warm-up WebSocket. Reading then, the client gets fewer than
COUNT answers, then the end.

refused: the same with COUNT requests for a method no tab may call, its name 2,000 characters
long: the relay answers each itself (naming the method twice, about 4 KiB), so it must stop
reading a browser that does not read those answers, as it stops for the daemon's.

descriptors: COUNT connections that never finish a request head (half send nothing, half part
of a head); activetask-web's open descriptors (/proc/PID/fd) must return to their count before
them, and every one of those connections must see its end, within DEADLINE seconds while the
client keeps them all open.

ping: two WebSockets idle, one answering pings (websockets does by itself), one that reads
nothing after two answers, so reads no ping either: the silent one must be closed by the other
end within DEADLINE seconds, and the answering one must still relay a request after that.

Exits 1 naming every check that failed.
"""
import asyncio
import json
import os
import resource
import select
import socket
import sys
import time

import websockets

failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        failures.append(what)


def status_kib(pid, field):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/{pid}/status")


def descriptors(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


async def backpressure(port, token, pid, request, count, bound, deadline):
    url = f"ws://127.0.0.1:{port}/ws?token={token}"
    origin = f"http://127.0.0.1:{port}"
    refused = request["method"] != "tasks.resource"
    # A warm-up: one answer relayed, so that the baseline holds the relay's code and pools.
    async with websockets.connect(url, origin=origin, max_size=None) as warm:
        await warm.send(json.dumps({**request, "id": 0}))
        answer = json.loads(await asyncio.wait_for(warm.recv(), deadline))
        if refused:
            check(answer.get("error", {}).get("code") == -32601, f"a warm-up request for a refused method is refused ({str(answer)[:120]})")
        else:
            check("result" in answer and answer["result"].get("size", 0) > 0, f"a warm-up tasks.resource is answered ({str(answer)[:120]})")
    baseline = status_kib(pid, "VmHWM") * 1024
    # max_queue=1 and a small read_limit: once one message waits unread, the client reads no
    # more from its socket, as a tab that stopped reading.
    socket_ = await websockets.connect(url, origin=origin, max_size=None, max_queue=1, read_limit=2 ** 16)
    sent = 0
    closed_while_sending = None
    try:
        for sent in range(1, count + 1):
            await asyncio.wait_for(socket_.send(json.dumps({**request, "id": sent})), deadline)
    except websockets.ConnectionClosed as error:
        closed_while_sending = error
    except asyncio.TimeoutError:
        # The relay stopped reading this client (the daemon's side full): it is as far as it goes.
        print(f"the relay took no more after {sent - 1} requests", flush=True)
    print(f"sent {sent} requests", flush=True)
    ended = closed_while_sending is not None or await wait_for_end(socket_, deadline)
    peak = status_kib(pid, "VmHWM") * 1024
    print(f"peak resident memory {baseline / 2**20:.1f} MiB before, {peak / 2**20:.1f} MiB after; bound +{bound / 2**20:.1f} MiB", flush=True)
    check(peak - baseline <= bound, f"activetask-web's peak resident memory grew by {(peak - baseline) / 2**20:.1f} MiB, at most {bound / 2**20:.1f} MiB")
    # Now read what reached the client before the end.
    answers = 0
    try:
        while True:
            await asyncio.wait_for(socket_.recv(), deadline)
            answers += 1
    except websockets.ConnectionClosed as error:
        print(f"closed after {answers} answers read: {error}", flush=True)
    except asyncio.TimeoutError:
        ended = False
    check(ended and answers < count, f"the client that did not read was closed by the other end ({answers} of {count} answers reached it)")
    await socket_.close()


async def wait_for_end(websocket, deadline):
    """Whether the other end closes `websocket`'s connection (its FIN or RST seen on the socket,
    whatever is still unread in it) within `deadline` seconds; reads nothing."""
    raw = select.poll()
    raw.register(websocket.transport.get_extra_info("socket").fileno(), select.POLLRDHUP | select.POLLHUP | select.POLLERR)
    limit = time.monotonic() + deadline
    while time.monotonic() < limit:
        if raw.poll(0):
            return True
        await asyncio.sleep(0.1)
    return False


async def ping_checks(port, token, deadline):
    url = f"ws://127.0.0.1:{port}/ws?token={token}"
    options = dict(origin=f"http://127.0.0.1:{port}", ping_interval=None)
    answering = await websockets.connect(url, **options)
    silent = await websockets.connect(url, max_queue=1, **options)
    # Two answers unread: the first fills the silent client's queue, the second waits for room,
    # and from then on it reads no frame, pings included.
    for request in (1, 2):
        await silent.send(json.dumps({"jsonrpc": "2.0", "id": request, "method": "daemon.info"}))
    ended = await wait_for_end(silent, deadline)
    check(ended, f"a WebSocket that answers no ping is closed by activetask-web within {deadline} s")
    try:
        await answering.send(json.dumps({"jsonrpc": "2.0", "id": 3, "method": "daemon.info"}))
        answer = json.loads(await asyncio.wait_for(answering.recv(), deadline))
        check(answer.get("id") == 3, "a WebSocket that answers pings, idle as long, still relays a request")
    except Exception as error:
        check(False, f"a WebSocket that answers pings, idle as long, still relays a request ({error!r})")
    await answering.close()
    await silent.close()


def descriptor_checks(port, pid, count, deadline):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < count + 64:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, count + 64), hard))
    idle = descriptors(pid)
    clients = []
    for index in range(count):
        client = socket.create_connection(("127.0.0.1", port), timeout=deadline)
        if index % 2:
            client.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Slow: " % port)
        clients.append(client)
    print(f"{count} connections open; activetask-web had {idle} descriptors before, {descriptors(pid)} now", flush=True)
    ended = set()
    waiting = select.epoll()
    for client in clients:
        waiting.register(client.fileno(), select.EPOLLIN | select.EPOLLRDHUP)
    limit = time.monotonic() + deadline
    while time.monotonic() < limit and (len(ended) < count or descriptors(pid) > idle):
        for fileno, _ in waiting.poll(0.5):
            try:
                data = os.read(fileno, 4096)
            except ConnectionResetError:
                data = b""
            if not data:
                ended.add(fileno)
                waiting.unregister(fileno)
    now = descriptors(pid)
    check(now <= idle, f"activetask-web's descriptors are back to {idle} ({now})")
    check(len(ended) == count, f"every connection without a request was ended by activetask-web ({len(ended)} of {count})")
    for client in clients:
        client.close()


mode = sys.argv[1]
if mode == "backpressure":
    port, token, pid, task, name, count, bound, deadline = sys.argv[2:10]
    request = {"jsonrpc": "2.0", "method": "tasks.resource", "params": {"task": task, "name": name}}
    asyncio.run(backpressure(int(port), token, int(pid), request, int(count), int(bound), float(deadline)))
elif mode == "refused":
    port, token, pid, count, bound, deadline = sys.argv[2:8]
    request = {"jsonrpc": "2.0", "method": "x" * 2000}
    asyncio.run(backpressure(int(port), token, int(pid), request, int(count), int(bound), float(deadline)))
elif mode == "ping":
    port, token, deadline = sys.argv[2:5]
    asyncio.run(ping_checks(int(port), token, float(deadline)))
elif mode == "descriptors":
    port, pid, count, deadline = sys.argv[2:6]
    descriptor_checks(int(port), int(pid), int(count), float(deadline))
else:
    sys.exit(f"unknown mode {mode}")
if failures:
    print(f"{len(failures)} checks failed")
    sys.exit(1)

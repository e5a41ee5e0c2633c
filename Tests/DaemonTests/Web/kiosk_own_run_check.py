#!/usr/bin/python3
"""A kiosk tab sees and drives its own run only, through activetask-web, with a client this
project did not write (Python's websockets; docs/kiosk.md, "A tab's own run").

usage: kiosk_own_run_check.py PORT TOKEN_FILE TASK_FILE RECORDING_TASK_FILE SOCKET [TIMEOUT]

Tab A starts a run of TASK_FILE (three steps, none timed); tab B, opened then with a key of its
own, gets none of A's events, a run.status with nothing of A's run but its state and
`foreignRun`, and its run.cancel, timer.pause, run.forward, run.skip, run.back and
permission.answer refused with -32001; its task.load and run.start are refused without A's
run's UUID. A tab without a key is treated as B is. A, reconnecting on a new WebSocket with the
same key, gets its run's status and drives it to its end; B then starts a run of its own, which
A no longer sees or drives, and cancels it. Then A starts a run of RECORDING_TASK_FILE (motion
recorded) that a client of the control SOCKET abandons while another starts a run of TASK_FILE
as soon as the daemon takes one (it may, before it has published the recording run's
taskFinished): A gets its run's events and taskFinished and none of the new run's, and a run
command that names A's run, sent on the socket, is refused (-32001) naming both runs. A key that is not one is refused at the upgrade.
Every "gets none" is checked without waiting on a clock: an event would come before the answer
to a request sent after it was published. Exits 1 naming every check that failed.
"""
import asyncio
import json
import secrets
import sys

failures = []
ACTIVE = {"running", "paused", "waitingForPermission"}


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


class Tab:
    """One browser tab's WebSocket: requests answered by id, events and answers kept in order."""

    def __init__(self, socket, timeout):
        self.socket = socket
        self.timeout = timeout
        self.next_id = 0
        self.events = []

    @classmethod
    async def open(cls, port, token, key, timeout):
        import websockets
        query = f"?tab={key}" if key else ""
        socket = await websockets.connect(
            f"ws://127.0.0.1:{port}/ws{query}", origin=f"http://127.0.0.1:{port}",
            extra_headers={"Cookie": f"__Host-activetask-token={token}"}, max_size=None)
        return cls(socket, timeout)

    async def ask(self, method, params=None):
        """The answer; the events that came before it are added to `events`."""
        self.next_id += 1
        request = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            request["params"] = params
        await self.socket.send(json.dumps(request))
        while True:
            text = await asyncio.wait_for(self.socket.recv(), self.timeout)
            message = json.loads(text)
            if message.get("method") == "event":
                self.events.append((message["params"], text))
            elif message.get("id") == self.next_id:
                return message, text

    async def event(self, kind):
        """Waits for the next event of `kind` (those kept first), and returns it."""
        while True:
            for index, (event, _) in enumerate(self.events):
                if event.get("kind") == kind:
                    del self.events[index]
                    return event
            text = await asyncio.wait_for(self.socket.recv(), self.timeout)
            message = json.loads(text)
            if message.get("method") == "event":
                self.events.append((message["params"], text))

    async def sees_nothing(self, what, uuid):
        """No event so far, and none published before now: the answer to a request sent now
        comes after every event the daemon sent this tab before it."""
        answer, text = await self.ask("run.status")
        check(not self.events, f"{what}: no event reached the tab ({[event.get('kind') for event, _ in self.events][:8]})")
        check(uuid not in text, f"{what}: its run.status does not name the run ({text[:200]})")
        self.events.clear()
        return answer.get("result") or {}


class SocketClient:
    """A client of the control socket itself (an administrator's, as activetaskctl is): answers
    by id, and every event in the order it came."""

    def __init__(self, reader, writer, timeout):
        self.reader, self.writer, self.timeout = reader, writer, timeout
        self.next_id = 0
        self.events = []

    @classmethod
    async def open(cls, path, timeout):
        reader, writer = await asyncio.open_unix_connection(path, limit=16 << 20)
        return cls(reader, writer, timeout)

    async def send(self, *requests):
        """Sends every (method, params) in one write; returns their ids."""
        ids, lines = [], b""
        for method, params in requests:
            self.next_id += 1
            request = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
            if params is not None:
                request["params"] = params
            ids.append(self.next_id)
            lines += json.dumps(request).encode() + b"\n"
        self.writer.write(lines)
        await self.writer.drain()
        return ids

    async def answer(self, request_id):
        while True:
            message = json.loads(await asyncio.wait_for(self.reader.readline(), self.timeout))
            if message.get("method") == "event":
                self.events.append(message["params"])
            elif message.get("id") == request_id:
                return message

    async def ask(self, method, params=None):
        return await self.answer((await self.send((method, params)))[0])

    async def event(self, kind, run):
        """Waits for the event of `kind` of `run`; every event stays in `events`."""
        seen = 0
        while True:
            for event in self.events[seen:]:
                if event.get("kind") == kind and event.get("taskRunUUID") == run:
                    return event
            seen = len(self.events)
            message = json.loads(await asyncio.wait_for(self.reader.readline(), self.timeout))
            if message.get("method") == "event":
                self.events.append(message["params"])

    async def close(self):
        self.writer.close()
        await self.writer.wait_closed()


async def replaced_at_once(a, socket_path, recording_file, task_file, timeout):
    """A's run ends by another client's cancel, which starts a run at once: A sees none of it,
    and a command meant for A's run reaches no other."""
    a.events.clear()
    answer, _ = await a.ask("task.load", {"path": recording_file})
    answer, _ = await a.ask("run.start")
    run_c = (answer.get("result") or {}).get("taskRunUUID", "")
    check(len(run_c) == 36, f"A starts another run ({str(answer)[:200]})")
    shown = await a.event("stepShown")
    check(shown.get("taskRunUUID") == run_c, f"its events name it ({shown})")
    # A second of motion, so that ending the run writes recorder files, checks and an archive.
    answer, _ = await a.ask("run.forward", {"stepPath": "Recording/welcome"})
    check((answer.get("result") or {}).get("taskRunUUID") == run_c, f"A goes on to the recorded step ({str(answer)[:200]})")
    request = await a.event("permissionRequest")
    answer, _ = await a.ask("permission.answer", {"requestID": request.get("requestID"), "granted": True})
    check((answer.get("result") or {}).get("taskRunUUID") == run_c and request.get("taskRunUUID") == run_c,
          f"A allows its run to record motion ({str(answer)[:200]})")
    progress = await a.event("motionProgress")
    check(progress.get("taskRunUUID") == run_c, f"A's run records ({progress})")
    admin = await SocketClient.open(socket_path, timeout)
    await admin.ask("events.subscribe", {})
    starter = await SocketClient.open(socket_path, timeout)

    async def start_once_free():
        """task.load and run.start, again at once while the device is busy (-32002, or -32000 for
        a task that could not load), until the run starts: as soon as the daemon takes one."""
        for _ in range(100000):
            load, start = await starter.send(("task.load", {"path": task_file}), ("run.start", None))
            await starter.answer(load)
            answer = await starter.answer(start)
            if "result" in answer or (answer.get("error") or {}).get("code") not in (-32002, -32000):
                return answer
        return {}

    # One client ends A's run while another starts a run the moment the daemon takes it; the
    # ending client's answer waits for the taskFinished, the starter does not.
    ended, started = await asyncio.gather(admin.ask("run.abandon"), start_once_free())
    await starter.close()
    run_d = (started.get("result") or {}).get("taskRunUUID", "")
    check("result" in ended and len(run_d) == 36 and run_d != run_c,
          f"a socket client abandons A's run and another starts its own at once ({str(started)[:300]})")
    finished = await admin.event("taskFinished", run_c)
    first = await admin.event("stepShown", run_d)
    order = [(event.get("kind"), event.get("taskRunUUID")) for event in admin.events]
    # Told, not judged: whether the new run's first step came before the old run's end is the
    # daemon's timing; what A gets is judged either way.
    print(f"info the new run's first step came {'before' if order.index(('stepShown', run_d)) < order.index(('taskFinished', run_c)) else 'after'} "
          f"the abandoned run's taskFinished on the socket")
    check(finished.get("reason") == "abandoned", f"A's run ends, abandoned ({finished})")
    check(all(event.get("taskRunUUID") in (run_c, run_d) for event in admin.events), "every event on the socket names its run")
    mine = await a.event("taskFinished")
    check(mine.get("taskRunUUID") == run_c, f"A gets its run's taskFinished ({mine})")
    check(all(event.get("taskRunUUID") == run_c for event, _ in a.events),
          f"A got nothing of the new run before its own run's end ({[(e.get('kind'), e.get('taskRunUUID')) for e, _ in a.events][:8]})")
    a.events.clear()
    # A command meant for A's run, sent on the socket while the new run is under way.
    stale = await admin.ask("run.forward", {"taskRunUUID": run_c})
    error = stale.get("error") or {}
    check(error.get("code") == -32001 and (error.get("data") or {}).get("taskRunUUID") == run_d
          and run_c in error.get("message", "") and run_d in error.get("message", ""),
          f"a run command naming the ended run is refused, naming both runs ({str(stale)[:300]})")
    status = await admin.ask("run.status")
    check((status.get("result") or {}).get("step", {}).get("stepPath") == first.get("stepPath"),
          "the refused command moved the new run nowhere")
    answer, _ = await a.ask("run.forward", {"stepPath": "Three/welcome"})
    check((answer.get("error") or {}).get("code") == -32001 and run_d not in str(answer), f"A may not drive the new run ({answer})")
    answer = await admin.ask("run.cancel", {"save": False, "taskRunUUID": run_d})
    check((answer.get("result") or {}).get("taskRunUUID") == run_d, f"a command naming the current run is carried out ({str(answer)[:200]})")
    await admin.event("taskFinished", run_d)
    await admin.close()
    await a.sees_nothing("to the end of the run that replaced A's, A", run_d)


def is_foreign(status, state):
    return status == {"state": state, "foreignRun": True}


async def main(port, token_file, task_file, recording_file, socket_path, timeout):
    import websockets
    with open(token_file, encoding="utf-8") as handle:
        token = handle.read().strip()
    key_a, key_b = secrets.token_hex(16), secrets.token_hex(16)

    a = await Tab.open(port, token, key_a, timeout)
    await a.ask("events.subscribe")
    answer, _ = await a.ask("task.load", {"path": task_file})
    check("result" in answer, f"A loads the task ({answer})")
    answer, _ = await a.ask("run.start")
    status = answer.get("result") or {}
    run_a = status.get("taskRunUUID", "")
    check(status.get("state") == "running" and len(run_a) == 36, f"A starts its run ({answer})")
    shown = await a.event("stepShown")
    check(shown.get("stepPath") == "Three/welcome", f"A gets its run's first step ({shown.get('stepPath')})")

    # B: another tab, with a key of its own.
    b = await Tab.open(port, token, key_b, timeout)
    answer, text = await b.ask("events.subscribe")
    check(answer.get("result", {}).get("subscribed") is True, "B subscribes to events")
    answer, text = await b.ask("run.status")
    check(is_foreign(answer.get("result"), "running"), f"B's run.status says only that a run is under way ({text[:300]})")
    check(run_a not in text and "welcome" not in text, "B's run.status holds neither A's run nor its step")
    for method, params in [("run.cancel", {"save": False}), ("timer.pause", None), ("timer.resume", None),
                           ("run.forward", {"stepPath": "Three/welcome"}), ("run.skip", None), ("run.back", None),
                           ("timer.start", None), ("permission.answer", {"requestID": 1, "granted": True})]:
        answer, text = await b.ask(method, params)
        error = answer.get("error") or {}
        check(error.get("code") == -32001 and "this tab" in error.get("message", "") and (error.get("data") or {}).get("method") == method
              and run_a not in text, f"B's {method} is refused by the relay, saying why ({text[:240]})")
    for method, params in [("task.load", {"path": task_file}), ("run.start", None)]:
        answer, text = await b.ask(method, params)
        error = answer.get("error") or {}
        check(error.get("code") == -32002 and run_a not in text and "elsewhere" in error.get("message", ""),
              f"B's {method} is refused without A's run in it ({text[:240]})")
    # A moves on: B gets nothing of it.
    answer, _ = await a.ask("run.forward", {"stepPath": "Three/welcome"})
    check((answer.get("result") or {}).get("taskRunUUID") == run_a, f"A's forward answers with A's run ({str(answer)[:200]})")
    shown = await a.event("stepShown")
    check(shown.get("stepPath") == "Three/middle", f"A gets its next step ({shown.get('stepPath')})")
    status = await b.sees_nothing("after A's forward, B", run_a)
    check(is_foreign(status, "running"), f"B's status is still only 'a run is under way' ({status})")

    # A tab without a key is one more tab apart.
    keyless = await Tab.open(port, token, None, timeout)
    await keyless.ask("events.subscribe")
    answer, text = await keyless.ask("run.status")
    check(is_foreign(answer.get("result"), "running"), f"a tab without a key sees only that a run is under way ({text[:200]})")
    answer, _ = await keyless.ask("run.cancel", {"save": True})
    check((answer.get("error") or {}).get("code") == -32001, "a tab without a key may not cancel A's run")
    await keyless.socket.close()

    # A reconnects: a new WebSocket with the same key goes on with its run.
    await a.socket.close()
    a = await Tab.open(port, token, key_a, timeout)
    await a.ask("events.subscribe")
    answer, text = await a.ask("run.status")
    status = answer.get("result") or {}
    check(status.get("taskRunUUID") == run_a and (status.get("step") or {}).get("stepPath") == "Three/middle",
          f"A, reconnected with its key, gets its run's status and step ({text[:240]})")
    answer, _ = await a.ask("timer.pause")
    check("this tab" not in (answer.get("error") or {}).get("message", ""), f"A's own command reaches the daemon after the reconnect ({answer})")
    answer, _ = await a.ask("run.forward", {"stepPath": "Three/middle"})
    check((answer.get("result") or {}).get("taskRunUUID") == run_a, f"A drives its run after the reconnect ({str(answer)[:200]})")
    shown = await a.event("stepShown")
    check(shown.get("stepPath") == "Three/done", f"A gets its run's last step after the reconnect ({shown.get('stepPath')})")
    answer, _ = await a.ask("run.forward", {"stepPath": "Three/done"})
    check((answer.get("result") or {}).get("state") == "finished", f"A's run ends ({str(answer)[:200]})")
    finished = await a.event("taskFinished")
    check(finished.get("taskRunUUID") == run_a, "A gets its run's taskFinished")
    # What else A got is of its own run (its taskResultReady names it).
    check(all(event.get("taskRunUUID", run_a) == run_a for event, _ in a.events), "A's other events are its run's")
    a.events.clear()
    status = await b.sees_nothing("to the end of A's run, B", run_a)
    check(is_foreign(status, "finished"), f"B's status of A's finished run is its state alone ({status})")

    # Now B starts its own run; A, apart from it, sees and drives none of it.
    answer, _ = await b.ask("task.load", {"path": task_file})
    check("result" in answer, f"B loads the task once A's run has ended ({answer})")
    answer, _ = await b.ask("run.start")
    run_b = (answer.get("result") or {}).get("taskRunUUID", "")
    check(len(run_b) == 36 and run_b != run_a, f"B starts its own run ({str(answer)[:200]})")
    shown = await b.event("stepShown")
    check(shown.get("stepPath") == "Three/welcome", "B gets its own run's first step")
    status = await a.sees_nothing("during B's run, A", run_b)
    check(is_foreign(status, "running"), f"A's status of B's run is its state alone ({status})")
    answer, _ = await a.ask("run.forward", {"stepPath": "Three/welcome"})
    check((answer.get("error") or {}).get("code") == -32001, f"A may not drive B's run ({answer})")
    answer, _ = await b.ask("run.cancel", {"save": False})
    check((answer.get("result") or {}).get("taskRunUUID") == run_b, f"B cancels its own run ({str(answer)[:200]})")
    finished = await b.event("taskFinished")
    check(finished.get("taskRunUUID") == run_b, "B gets its run's taskFinished")
    await a.sees_nothing("to the end of B's run, A", run_b)
    await replaced_at_once(a, socket_path, recording_file, task_file, timeout)

    # A key that is not one is refused at the upgrade.
    try:
        bad = await Tab.open(port, token, "short", timeout)
        await bad.socket.close()
        check(False, "a WebSocket with a malformed tab key is refused")
    except websockets.exceptions.InvalidStatusCode as error:
        check(error.status_code == 400, f"a WebSocket with a malformed tab key is refused ({error.status_code})")
    for tab in (a, b):
        await tab.socket.close()


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if len(arguments) < 5:
        print(__doc__)
        sys.exit(2)
    asyncio.run(main(int(arguments[0]), arguments[1], arguments[2], arguments[3], arguments[4],
                     float(arguments[5]) if len(arguments) > 5 else 10))
    if failures:
        print(f"{len(failures)} checks failed")
        sys.exit(1)

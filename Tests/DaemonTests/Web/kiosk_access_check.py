#!/usr/bin/python3
"""What a kiosk tab and a non-administrator client may ask the daemon, from outside, with
clients this project did not write (Python's websockets; a plain Unix socket).

usage:
  kiosk_access_check.py relay PORT TOKEN_FILE OPENRPC [TIMEOUT]
      through activetask-web: every method of the OpenRPC document not on a participant's list
      is answered with an error naming it and never reaches the daemon; the listed ones reach
      it, but for the run commands, which a tab that started no run may not send; task.load of an absolute path, a `..` path or inline JSON is refused.
  kiosk_access_check.py socket SOCKET TASK_DIR TASK_NAME [TIMEOUT]
      directly on the control socket, run as a user that is not the daemon's administrator
      (root, the daemon's user, `activetask`): task.load of /etc/passwd, `../x` and a symlink
      out of the task directory (escape.json) and of the task's own absolute path is refused
      with invalidParams on `path`; a task of the directory (Including.json) or an inline task
      whose transform names a file outside (../OutsideStep beside the task directory) is
      refused on that resourceName; TASK_NAME and an inline task with its own resource load.
  kiosk_access_check.py inline SOCKET DATA_DIR COUNT [TIMEOUT]
      directly on the socket as an administrator: COUNT inline task.loads, then the data
      directory holds no more than before them (each load's folder is gone); an inline load
      beyond 16 under way and an inline task over the resource bound are refused with a clear
      error.

Run by WebRelaySecurityTests; exits 1 naming every check that failed.
"""
import asyncio
import json
import os
import socket
import sys
import time

failures = []

# A participant's screen (Sources/WebRelay/Assets/js): the only methods a tab may call.
PARTICIPANT = {
    "tasks.list", "tasks.image", "tasks.resource", "task.load", "run.start", "run.status",
    "run.forward", "run.back", "run.skip", "run.cancel", "timer.start", "timer.pause",
    "timer.resume", "permission.answer", "events.subscribe", "events.unsubscribe",
}

# Those that act on the run under way: only the tab that started it may send them.
RUN_COMMANDS = {
    "run.forward", "run.back", "run.skip", "run.cancel", "timer.start", "timer.pause", "timer.resume",
    "permission.answer",
}


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def finish():
    if failures:
        print(f"{len(failures)} checks failed")
        sys.exit(1)


def refused_as(answer, code, coding_path):
    error = answer.get("error") or {}
    data = error.get("data") or {}
    return error.get("code") == code and data.get("codingPath") == coding_path and bool(error.get("message"))


async def relay(port, token_file, openrpc, timeout):
    import websockets
    with open(token_file, encoding="utf-8") as handle:
        token = handle.read().strip()
    with open(openrpc, encoding="utf-8") as handle:
        methods = [method["name"] for method in json.load(handle)["methods"]]
    check(len(methods) > len(PARTICIPANT), f"the OpenRPC document lists {len(methods)} methods")
    origin = f"http://127.0.0.1:{port}"
    cookie = {"Cookie": f"__Host-activetask-token={token}"}
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws", origin=origin, extra_headers=cookie, max_size=None) as tab:
        next_id = 0

        async def ask(method, params=None):
            nonlocal next_id
            next_id += 1
            request = {"jsonrpc": "2.0", "id": next_id, "method": method}
            if params is not None:
                request["params"] = params
            await tab.send(json.dumps(request))
            # Events may come between (events.subscribe); the answer is the message with our id.
            while True:
                message = json.loads(await asyncio.wait_for(tab.recv(), timeout))
                if message.get("id") == next_id:
                    return message

        for method in methods:
            answer = ask(method)
            answer = await answer
            error = answer.get("error") or {}
            relay_refusal = error.get("code") == -32601 and "not open to a kiosk tab" in error.get("message", "")
            if method in RUN_COMMANDS:
                # This tab has started no run: the relay refuses its run commands (kiosk_own_run_check.py).
                check(error.get("code") == -32001 and "this tab" in error.get("message", ""),
                      f"{method} is refused by the relay without a run of this tab ({json.dumps(answer)[:160]})")
            elif method in PARTICIPANT:
                check(not relay_refusal, f"{method} reaches the daemon ({json.dumps(answer)[:160]})")
            else:
                check(relay_refusal and method in error.get("message", "") and (error.get("data") or {}).get("method") == method,
                      f"{method} is refused by the relay, naming it ({json.dumps(answer)[:160]})")
        # The shapes of a request the daemon would refuse anyway are refused the same way.
        answer = await ask("no.such.method")
        check((answer.get("error") or {}).get("code") == -32601 and "no.such.method" in answer["error"]["message"],
              "an unknown method is refused, naming it")
        for path in ["/etc/passwd", "../x", "a/../../x", "./Hello.json", ""]:
            answer = await ask("task.load", {"path": path})
            check(refused_as(answer, -32602, "path"), f"task.load {path!r} is refused on path ({json.dumps(answer)[:200]})")
        answer = await ask("task.load", {"task": {"identifier": "Inline", "steps": [{"identifier": "s", "type": "instruction"}]}})
        check(refused_as(answer, -32602, "task"), f"an inline task.load is refused on task ({json.dumps(answer)[:200]})")
        # Nothing refused reached the daemon: no task is loaded, so run.start has nothing to start.
        answer = await ask("run.start")
        check((answer.get("error") or {}).get("code") == -32000 and "no task loaded" in answer["error"].get("message", ""),
              f"after the refusals the daemon has no task loaded ({json.dumps(answer)[:200]})")
        answer = await ask("task.load", {"path": "Hello.json"})
        check("result" in answer, f"task.load of a task by its name loads ({json.dumps(answer)[:200]})")
        # A refused notification gets no answer; the tab goes on (the next answer is the next id's).
        await tab.send(json.dumps({"jsonrpc": "2.0", "method": "runs.list"}))
        answer = await ask("run.status")
        check("result" in answer, "after a refused notification the tab goes on")


class LineSocket:
    def __init__(self, path, timeout):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.buffer = b""
        self.next_id = 0

    def ask(self, method, params=None):
        return self.ask_many(method, [params])[0]

    def ask_many(self, method, params_list):
        """Sends one request per params at once, then reads their answers (in request order)."""
        ids, lines = [], []
        for params in params_list:
            self.next_id += 1
            request = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
            if params is not None:
                request["params"] = params
            ids.append(self.next_id)
            lines.append(json.dumps(request).encode() + b"\n")
        self.sock.sendall(b"".join(lines))
        answers = {}
        while len(answers) < len(ids):
            while b"\n" not in self.buffer:
                chunk = self.sock.recv(1 << 16)
                if not chunk:
                    raise ConnectionError("the daemon closed the connection")
                self.buffer += chunk
            line, self.buffer = self.buffer.split(b"\n", 1)
            message = json.loads(line)
            if message.get("id") in ids:
                answers[message["id"]] = message
        return [answers[number] for number in ids]


def direct(socket_path, task_dir, task_name, timeout):
    client = LineSocket(socket_path, timeout)
    check(os.getuid() != 0, f"run as a user other than root (uid {os.getuid()})")
    for path in ["/etc/passwd", "../x", "escape.json", os.path.join(task_dir, task_name)]:
        answer = client.ask("task.load", {"path": path})
        check(refused_as(answer, -32602, "path") and "administrator" in answer["error"]["message"],
              f"task.load {path!r} from a non-administrator is refused on path ({json.dumps(answer)[:240]})")
    answer = client.ask("task.load", {"path": task_name})
    check("result" in answer, f"task.load {task_name!r} (in the task directory, by name) loads ({json.dumps(answer)[:200]})")
    transform = {"identifier": "moved", "type": "transform", "resourceTransformer": {"resourceName": "../../../OutsideStep"}}
    answer = client.ask("task.load", {"task": {"identifier": "Out", "steps": [transform]}})
    check(refused_as(answer, -32003, "steps[0].resourceTransformer.resourceName") and "outside" in answer["error"]["message"],
          f"an inline task including a file outside is refused on its resourceName ({json.dumps(answer)[:240]})")
    answer = client.ask("task.load", {"path": "Including.json"})
    check(refused_as(answer, -32003, "steps[0].resourceTransformer.resourceName"),
          f"a task of the directory including a file outside it is refused on its resourceName ({json.dumps(answer)[:240]})")
    step = {"identifier": "welcome", "type": "instruction", "title": "Welcome"}
    inside = {"identifier": "moved", "type": "transform", "resourceTransformer": {"resourceName": "Moved"}}
    answer = client.ask("task.load", {"task": {"identifier": "In", "steps": [inside]}, "resources": {"Moved": step}})
    check("result" in answer, f"an inline task with its own resource loads ({json.dumps(answer)[:200]})")


def folder_size(path):
    count, size = 0, 0
    for root, dirs, files in os.walk(path):
        count += len(dirs) + len(files)
        size += sum(os.lstat(os.path.join(root, name)).st_size for name in files)
    return count, size


def inline(socket_path, data_dir, count, timeout):
    client = LineSocket(socket_path, timeout)
    before = folder_size(data_dir)
    step = {"identifier": "welcome", "type": "instruction", "title": "Welcome"}
    started = time.monotonic()
    transform = {"identifier": "moved", "type": "transform", "resourceTransformer": {"resourceName": "Moved"}}
    # Eight at a time on the connection (fewer than the 16 inline loads allowed at once), so
    # that the loop waits on the daemon's work rather than on each answer's trip.
    refused = []
    for first in range(0, count, 8):
        batch = [{"task": {"identifier": f"Inline{number}", "steps": [transform]}, "resources": {"Moved": step}}
                 for number in range(first, min(first + 8, count))]
        refused += [answer for answer in client.ask_many("task.load", batch) if "result" not in answer]
        if refused:
            break
    check(not refused, f"{count} inline task.loads load ({json.dumps(refused[:1])[:240]})")
    print(f"     {count} inline loads in {time.monotonic() - started:.1f} s")
    after = folder_size(data_dir)
    inline_folder = os.path.join(data_dir, "inline-tasks")
    left = os.listdir(inline_folder) if os.path.isdir(inline_folder) else []
    check(left == [], f"after {count} inline loads no inline-tasks folder is left ({len(left)} left)")
    check(after[0] <= before[0] + 1 and after[1] <= before[1],
          f"the data directory holds no more after {count} inline loads (entries, bytes: {before} before, {after} after)")
    # Sixteen loads under way (their folders made here, as sixteen clients' loads would): the
    # seventeenth is refused, saying why, and loads once they are gone.
    under_way = [os.path.join(inline_folder, f"under-way-{n}") for n in range(16)]
    for folder in under_way:
        os.makedirs(folder)
    small = {"task": {"identifier": "Small", "steps": [step]}}
    answer = client.ask("task.load", small)
    error = answer.get("error") or {}
    check(error.get("code") == -32000 and "at once" in error.get("message", ""),
          f"an inline load beyond 16 under way is refused, saying so ({json.dumps(answer)[:240]})")
    for folder in under_way:
        os.rmdir(folder)
    answer = client.ask("task.load", small)
    check("result" in answer, f"and loads once they are done ({json.dumps(answer)[:200]})")
    answer = client.ask("task.load", {"task": {"identifier": "Big", "steps": [step]},
                                      "resources": {f"r{n}": step for n in range(257)}})
    check(refused_as(answer, -32602, "resources") and "at most 256" in answer["error"]["message"],
          f"an inline task over 256 resources is refused, saying the bound ({json.dumps(answer)[:240]})")


mode = sys.argv[1]
if mode == "relay":
    asyncio.run(relay(sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]) if len(sys.argv) > 5 else 10.0))
elif mode == "socket":
    direct(sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]) if len(sys.argv) > 5 else 10.0)
elif mode == "inline":
    inline(sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5]) if len(sys.argv) > 5 else 10.0)
else:
    sys.exit(f"unknown mode {mode}")
finish()

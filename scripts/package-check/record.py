#!/usr/bin/env python3
"""One recording through the installed activetaskd, driven over its control socket with
JSON-RPC lines (docs/protocol.md), for scripts/package-check.sh:

  record.py SOCKET start TASK.json   loads the task, starts a run, goes forward to its timed
                                     recording step and returns once the motion recorder has
                                     written samples; prints the run's UUID.
  record.py SOCKET finish            leaves the recording step, goes forward to the end and
                                     returns once the run has finished; prints the taskFinished
                                     event as JSON.

Every wait is for a reply or an event; the caller bounds the whole with a timeout."""
import json
import socket
import sys


class Client:
    def __init__(self, path):
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.connect(path)
        self.stream = self.socket.makefile("rwb")
        self.last_id = 0
        self.events = []

    def call(self, method, params=None):
        self.last_id += 1
        message = {"jsonrpc": "2.0", "id": self.last_id, "method": method}
        if params is not None:
            message["params"] = params
        self.stream.write(json.dumps(message).encode() + b"\n")
        self.stream.flush()
        while True:
            reply = self.read()
            if reply.get("id") != self.last_id:
                self.events.append(reply)
                continue
            if "error" in reply:
                sys.exit(f"record.py: {method} failed: {json.dumps(reply['error'])}")
            return reply["result"]

    def read(self):
        line = self.stream.readline()
        if not line:
            sys.exit("record.py: the daemon closed the control connection")
        return json.loads(line)

    def wait_for(self, matches):
        """The first event (kept or new) for which matches(params) is true."""
        while True:
            while self.events:
                event = self.events.pop(0)
                params = event.get("params", {})
                if event.get("method") and matches(params):
                    return params
            self.events.append(self.read())


def kind(name):
    return lambda params: params.get("kind") == name or params.get("event", {}).get("kind") == name


def payload(params):
    return params.get("event", params)


def start(client, task_path):
    with open(task_path) as file:
        task = json.load(file)
    client.call("events.subscribe")
    client.call("task.load", {"task": task})
    client.call("run.start")
    status = client.call("run.status")
    while status["step"]["stepPath"].split("/")[-1] != "walk":
        status = client.call("run.forward")
    if not status.get("timer", {}).get("running", False):
        status = client.call("timer.start")
    client.wait_for(lambda p: kind("motionProgress")(p) and payload(p).get("samplesWritten", 0) > 0)
    print(status["taskRunUUID"])


def finish(client):
    client.call("events.subscribe")
    status = client.call("run.status")
    while status["state"] != "finished":
        status = client.call("run.forward")
    print(json.dumps(payload(client.wait_for(kind("taskFinished")))))


def main():
    if len(sys.argv) < 3 or sys.argv[2] not in ("start", "finish"):
        sys.exit("usage: record.py SOCKET start TASK.json | record.py SOCKET finish")
    client = Client(sys.argv[1])
    if sys.argv[2] == "start":
        start(client, sys.argv[3])
    else:
        finish(client)


if __name__ == "__main__":
    main()

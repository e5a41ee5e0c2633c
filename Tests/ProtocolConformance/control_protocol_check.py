#!/usr/bin/env python3
"""Drives a control server as a front end nobody in this project wrote would: Python's standard
socket and json modules, knowing only docs/openrpc.json. Every response and event is validated
with the `jsonschema` package against the schemas in docs/openrpc.json, and docs/openrpc.json
itself against the published OpenRPC meta-schema (docs/schemas/open-rpc-meta-schema).

usage: control_protocol_check.py --server PATH_TO_control-test-server [--root PACKAGE_ROOT]
       control_protocol_check.py --socket PATH_OF_A_RUNNING_activetaskd [--data-dir ITS_DATA_DIR] [--root PACKAGE_ROOT]
With --socket the checks run against a daemon someone else started (the DaemonTests start the
real activetaskd with a simulated IMU and paced audio), and a recording is made to go on through
every bad input: its motion file is checked for lost samples afterwards. With --data-dir (the
daemon's), uploads are then turned on there and an uploader's receipts written by hand: the
upload state runs.list and run.result give is validated too (`receiptMismatch` for a receipt of
another archive, `uploaded` for one with the archive's SHA-256 as hashlib computes it).
Exit status 0 when every check passed; each failure is printed as `FAIL: ...`.
"""
import argparse
import copy
import hashlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

try:
    import jsonschema
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT7
except ImportError:
    sys.exit("FAIL: the jsonschema package (4.18 or later, with referencing) is missing; run ./scripts/setup.sh")

# The OpenRPC specification releases, as the meta-schema's release build fills its `openrpc` enum.
OPENRPC_RELEASES = ["1.0.0-rc0", "1.0.0-rc1", "1.0.0", "1.1.0", "1.1.1", "1.1.2", "1.1.3", "1.1.4", "1.1.5",
                    "1.1.6", "1.1.7", "1.1.8", "1.1.9", "1.1.10", "1.1.11", "1.1.12", "1.2.0", "1.2.1", "1.2.2",
                    "1.2.3", "1.2.4", "1.2.5", "1.2.6", "1.3.0", "1.3.1", "1.3.2"]
# Every wait widens by the sanitizer slowdown the tests run under (Tests/TestSupport/TestTiming.swift).
SCALE = float(os.environ.get("ACTIVETASK_TEST_TIME_SCALE", "1"))
TIMEOUT = 10.0 * SCALE
failures = []
checked = {"responses": 0, "events": 0, "errors": 0}


def fail(message):
    failures.append(message)
    print("FAIL: " + message, flush=True)


def check(condition, message):
    if not condition:
        fail(message)
    return condition


# ---------------------------------------------------------------- schemas

def make_validator(schema, store):
    """A draft 7 validator for `schema` whose remote $refs resolve in `store` (no network)."""
    registry = Registry().with_resources(
        [(uri, Resource.from_contents(doc, default_specification=DRAFT7)) for uri, doc in store.items()])
    return jsonschema.Draft7Validator(schema, registry=registry)


def validate(validator, instance, what):
    errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.path))
    for error in errors[:3]:
        fail("%s does not match its schema at %s: %s" % (what, "/".join(map(str, error.path)) or "(top)", error.message))
    return not errors


class Document:
    def __init__(self, root):
        with open(os.path.join(root, "docs/openrpc.json")) as f:
            self.doc = json.load(f)
        with open(os.path.join(root, "docs/schemas/open-rpc-meta-schema/schema.json")) as f:
            meta = json.load(f)
        with open(os.path.join(root, "docs/schemas/json-schema-tools-meta-schema/schema.json")) as f:
            json_schema_meta = json.load(f)
        meta["properties"]["openrpc"]["enum"] = OPENRPC_RELEASES
        self.store = {"https://meta.json-schema.tools": json_schema_meta, "https://meta.json-schema.tools/": json_schema_meta,
                      "https://meta.open-rpc.org/": meta, "https://meta.open-rpc.org": meta}
        self.meta = make_validator(meta, self.store)
        self.methods = {m["name"]: m for m in self.doc["methods"]}
        self.params, self.results = {}, {}
        for name, method in self.methods.items():
            properties = {p["name"]: p["schema"] for p in method["params"]}
            required = [p["name"] for p in method["params"] if p.get("required")]
            self.params[name] = self.part({"type": "object", "properties": properties, "required": required,
                                           "additionalProperties": False})
            if "result" in method:
                self.results[name] = self.part(method["result"]["schema"])
        self.event = self.part(self.methods["event"]["x-params-schema"])
        self.error_data = self.part({"$ref": "#/components/schemas/ControlErrorData"})
        self.error_codes = {e["code"] for e in self.doc["components"]["errors"].values()}

    def part(self, schema):
        """A validator for a schema inside the document (its #/components refs resolve)."""
        return make_validator({"components": self.doc["components"], "allOf": [schema]}, self.store)


# ---------------------------------------------------------------- client

class Client:
    def __init__(self, path, doc):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(TIMEOUT)
        self.sock.connect(path)
        self.buffer = b""
        self.doc = doc
        self.next_id = 1
        self.events = []

    def close(self):
        self.sock.close()

    def send_raw(self, data):
        self.sock.sendall(data)

    def read_message(self):
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("the server closed the connection")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line.decode("utf-8"))

    def read_response(self):
        """The next response; events read on the way are validated and kept."""
        while True:
            message = self.read_message()
            if "id" not in message and message.get("method") == "event":
                self.on_event(message)
                continue
            check(message.get("jsonrpc") == "2.0", "response without jsonrpc 2.0: %r" % message)
            return message

    def on_event(self, message):
        checked["events"] += 1
        validate(self.doc.event, message["params"], "event %s" % message["params"].get("kind"))
        self.events.append(message["params"])

    def call(self, method, params=None, expect_error=None):
        request = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        self.next_id += 1
        if params is not None:
            request["params"] = params
            if method in self.doc.params and expect_error is None:
                validate(self.doc.params[method], params, "params of %s" % method)
        self.send_raw((json.dumps(request) + "\n").encode())
        response = self.read_response()
        check(response.get("id") == request["id"], "%s answered id %r, not %r" % (method, response.get("id"), request["id"]))
        return self.judge(method, response, expect_error)

    def judge(self, method, response, expect_error):
        if "error" in response:
            checked["errors"] += 1
            error = response["error"]
            check(isinstance(error.get("message"), str) and error["message"], "%s: error without a message" % method)
            check(error.get("code") in self.doc.error_codes, "%s: error code %r is not documented" % (method, error.get("code")))
            if "data" in error:
                validate(self.doc.error_data, error["data"], "error data of %s" % method)
            if expect_error is None:
                fail("%s failed: %s" % (method, error))
            elif error["code"] != expect_error:
                fail("%s answered %d (%s), expected %d" % (method, error["code"], error["message"], expect_error))
            return error
        if expect_error is not None:
            fail("%s succeeded, expected error %d" % (method, expect_error))
            return None
        checked["responses"] += 1
        if method in self.doc.results:
            validate(self.doc.results[method], response["result"], "result of %s" % method)
        elif method == "rpc.discover":
            validate(self.doc.meta, response["result"], "rpc.discover's document")
        return response["result"]

    def wait_event(self, kind, timeout=TIMEOUT):
        deadline = time.monotonic() + timeout
        while True:
            for index, event in enumerate(self.events):
                if event["kind"] == kind:
                    del self.events[:index + 1]
                    return event
            if time.monotonic() > deadline:
                fail("no %s event within %.0f s" % (kind, timeout))
                return None
            self.sock.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                message = self.read_message()
            except socket.timeout:
                continue
            finally:
                self.sock.settimeout(TIMEOUT)
            if message.get("method") == "event":
                self.on_event(message)


# ---------------------------------------------------------------- checks

TASK = {
    "identifier": "WalkCheck",
    "type": "assessment",
    "asyncActions": [{"identifier": "microphone", "type": "microphone"}],
    "steps": [
        {"identifier": "introduction", "type": "instruction", "title": "Walk", "text": "Walk for a moment."},
        {"identifier": "question", "type": "question", "inputFields": [{"identifier": "q1", "type": "integer"}]},
        {"identifier": "walk", "type": "active", "duration": 3, "transitionAutomatically": False,
         "spokenInstructions": {"start": "Start walking."}},
        {"identifier": "completion", "type": "completion", "title": "Done"},
    ],
}


def meta_schema_check(doc):
    print("check: docs/openrpc.json against the OpenRPC meta-schema", flush=True)
    validate(doc.meta, doc.doc, "docs/openrpc.json")
    broken = copy.deepcopy(doc.doc)
    del broken["methods"][0]["params"]
    check(list(doc.meta.iter_errors(broken)), "the meta-schema accepted a method without params (the check cannot fail)")


def start_timer_unless_running(client):
    """A step whose timer does not start by itself (no startTimerAutomatically) is started by the
    front end; `timer` in run.status says which."""
    timer = client.call("run.status").get("timer")
    if timer and not timer.get("running"):
        client.call("timer.start")


def answer_open_questions(client):
    """Grants every open permission question, one at a time as run.status shows them (a resumed
    run asks again for the actions its step creates)."""
    for _ in range(10):
        status = client.call("run.status")
        if status.get("state") != "waitingForPermission":
            return
        client.call("permission.answer", {"requestID": status["permissionRequest"]["requestID"], "granted": True})
    fail("permission questions kept coming")


def whole_task(path, doc):
    print("check: a whole task through the socket", flush=True)
    client = Client(path, doc)
    client.call("events.subscribe", {})
    check(client.call("daemon.info")["session"] in ("idle", "loaded", "finished", "saved"), "daemon.info session state")
    client.call("devices.list")
    client.call("rpc.discover")
    client.call("run.forward", {}, expect_error=-32001)
    loaded = client.call("task.load", {"task": TASK, "resources": {"walkTransform": {"steps": []}}})
    check(loaded["taskIdentifier"] == "WalkCheck", "task.load names the task")
    status = client.call("run.start")
    check(status["state"] in ("running", "waitingForPermission"), "run.start runs: %r" % status["state"])
    twice = client.call("run.start", expect_error=-32002)
    check(twice and twice.get("data", {}).get("taskRunUUID") == status.get("taskRunUUID"),
          "a second run.start names the running run: %r" % twice)
    request = client.wait_event("permissionRequest")
    if request:
        client.call("permission.answer", {"requestID": request["requestID"], "granted": True})
    shown = client.wait_event("stepShown")
    check(shown and shown["stepPath"] == "WalkCheck/introduction", "first step shown")
    run = status.get("taskRunUUID")
    check(shown.get("taskRunUUID") == run, "an event of the run names the run: %r" % shown)
    other = "00000000-0000-4000-8000-000000000000"
    stale = client.call("run.forward", {"taskRunUUID": other}, expect_error=-32001)
    check(stale and stale.get("data", {}).get("taskRunUUID") == run and run in stale.get("message", "")
          and other in stale.get("message", ""), "a command meant for another run is refused, naming both: %r" % stale)
    client.call("run.forward", {"taskRunUUID": run})
    client.wait_event("stepShown")
    client.call("run.back")
    client.wait_event("stepShown")
    client.call("run.forward")
    client.wait_event("stepShown")
    client.call("run.forward", {"answers": [{"identifier": "q1", "value": 3, "answerType": {"type": "integer"}}]})
    client.wait_event("stepShown")
    # The live run's result, validated as every result is: the task has no section open.
    live = client.call("run.result", {"taskRunUUID": run})
    check(live["state"] == "running" and live.get("openSections") == [], "run.result of the live run: %r" % live.get("openSections"))
    start_timer_unless_running(client)
    client.wait_event("timerStarted")
    client.call("timer.pause")
    client.call("timer.pause", expect_error=-32000)
    client.call("timer.resume")
    client.wait_event("timerFinished")
    client.call("run.cancel", {"save": True})
    saved = client.wait_event("taskFinished")
    uuid = saved["taskRunUUID"] if saved else ""
    client.call("run.resume", {"taskRunUUID": uuid})
    client.wait_event("stepShown")
    answer_open_questions(client)
    status = client.call("run.status")
    check(status.get("step", {}).get("stepPath") == "WalkCheck/walk", "resumed at the saved step: %r" % status.get("step"))
    client.call("run.forward")
    client.wait_event("stepShown")
    client.call("run.forward")
    finished = client.wait_event("taskFinished")
    check(finished and finished["reason"] == "completed", "the task completes")
    client.call("run.forward", expect_error=-32000)
    client.call("run.resume", {"taskRunUUID": uuid}, expect_error=-32000)
    runs = client.call("runs.list")
    check(any(r["taskRunUUID"] == uuid for r in runs["runs"]), "runs.list lists the run")
    result = client.call("run.result", {"taskRunUUID": uuid})
    check(result["taskResult"].get("taskRunUUID") == uuid, "run.result returns the task result")
    archive = client.call("run.archive", {"taskRunUUID": uuid})
    check(archive["archive"].endswith(uuid + ".zip"), "run.archive names the zip")
    client.call("run.result", {"taskRunUUID": "00000000-0000-0000-0000-000000000000"}, expect_error=-32004)
    client.call("task.load", {"task": {"identifier": "x", "steps": [{"type": "instruction"}]}}, expect_error=-32003)
    client.call("events.unsubscribe")
    client.close()
    return uuid


def upload_states(path, doc, data_dir, uuid):
    """runs.list and run.result's `upload` (docs/protocol.md, "Uploads") as the daemon judges an
    uploader's receipt: one naming another archive's SHA-256 is receiptMismatch with the reason,
    one naming the archive's (hashlib's) uploaded; every answer validated against the schemas."""
    print("check: upload states from the uploader's receipt", flush=True)
    os.makedirs(os.path.join(data_dir, "outbox"), exist_ok=True)
    uploads = os.path.join(data_dir, "uploads")
    os.makedirs(uploads, exist_ok=True)
    archive = os.path.join(data_dir, "runs", uuid, uuid + ".zip")
    with open(archive, "rb") as handle:
        digest = hashlib.sha256(handle.read()).hexdigest()

    def write_receipt(sha256):
        receipt = {"taskRunUUID": uuid, "key": "study/device/%s.zip" % uuid, "etag": '"0123abcd"',
                   "size": os.path.getsize(archive), "archiveSize": os.path.getsize(archive),
                   "archiveSHA256": sha256, "uploadedDate": "2026-11-25T12:00:00Z"}
        target = os.path.join(uploads, uuid + ".uploaded.json")
        with open(target + ".tmp", "w") as handle:
            json.dump(receipt, handle)
        os.rename(target + ".tmp", target)

    def upload_state():
        listed = [run for run in client.call("runs.list")["runs"] if run["taskRunUUID"] == uuid]
        result = client.call("run.result", {"taskRunUUID": uuid})
        check(listed and listed[0].get("upload") == result.get("upload"), "runs.list and run.result agree on upload")
        return result.get("upload") or {}

    client = Client(path, doc)
    write_receipt("0" * 64)
    mismatch = upload_state()
    check(mismatch.get("state") == "receiptMismatch" and mismatch.get("lastErrorCode") == "ReceiptMismatch"
          and "SHA-256" in mismatch.get("lastError", ""), "a receipt for another archive: %r" % mismatch)
    write_receipt(digest)
    uploaded = upload_state()
    check(uploaded.get("state") == "uploaded" and uploaded.get("etag") == '"0123abcd"', "a receipt for the archive: %r" % uploaded)
    client.close()


def bad_inputs(path, doc):
    print("check: every bad input gets its error and the connection goes on", flush=True)
    client = Client(path, doc)
    bystander = Client(path, doc)
    cases = [
        (b"x" * ((1 << 20) + 10) + b"\n", -32600),
        (b'{"jsonrpc":"2.0","id":1,"method":"daemon.info","x":"\xff\xfe"}\n', -32700),
        (b'{"jsonrpc": "2.0", "id": 1, "method": \n', -32700),
        (b'[{"jsonrpc":"2.0","id":1,"method":"daemon.info"}]\n', -32600),
        (b'{"jsonrpc":"2.0","id":1}\n', -32600),
        (b'{"jsonrpc":"2.0","id":1,"method":"no.such.method"}\n', -32601),
        (b'{"jsonrpc":"2.0","id":1,"method":"run.cancel","params":{"save":"yes"}}\n', -32602),
        (b'{"jsonrpc":"2.0","id":1,"method":"run.resume","params":{}}\n', -32602),
    ]
    for raw, code in cases:
        client.send_raw(raw)
        response = client.read_response()
        client.judge("bad input %r" % raw[:40], response, code)
        if code in (-32700,) or raw.startswith(b"x") or raw.startswith(b"["):
            check(response.get("id") is None, "a line that cannot be read is answered with id null")
        # The connection and the other client go on.
        client.call("daemon.info")
        bystander.call("run.status")
    wrong = client.call("run.cancel", {"save": "yes"}, expect_error=-32602)
    check(wrong and wrong.get("data", {}).get("codingPath") == "save", "wrong params name the coding path")
    client.close()
    bystander.close()


RECORDING = {
    "identifier": "RecordingCheck",
    "asyncActions": [{"identifier": "motion", "type": "motion", "startStepIdentifier": "walk",
                      "stopStepIdentifier": "walk", "recorderTypes": ["accelerometer"], "frequency": 100}],
    "steps": [
        {"identifier": "introduction", "type": "instruction", "title": "Walk"},
        {"identifier": "walk", "type": "active", "duration": 4,
         "commands": ["transitionAutomatically", "startTimerAutomatically"]},
        {"identifier": "completion", "type": "completion", "title": "Done"},
    ],
}


def recording_survives_bad_input(path, doc):
    """Every bad input of docs/protocol.md sent while a real recorder records; the run completes
    and its motion file has no sample missing."""
    print("check: a recording goes on through every bad input", flush=True)
    driver = Client(path, doc)
    driver.call("events.subscribe")
    driver.call("task.load", {"task": RECORDING})
    started = driver.call("run.start")
    if started and started["state"] == "waitingForPermission":
        request = driver.wait_event("permissionRequest")
        if request:
            driver.call("permission.answer", {"requestID": request["requestID"], "granted": True})
    driver.wait_event("stepShown")
    driver.call("run.forward", {"stepPath": "RecordingCheck/introduction"})
    # The motion recorder is created on entering its start step: its permission is asked then.
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        status = driver.call("run.status")
        if status.get("permissionRequest"):
            driver.call("permission.answer", {"requestID": status["permissionRequest"]["requestID"], "granted": True})
        elif status.get("timer", {}).get("running"):
            break
        time.sleep(0.05)
    check(driver.call("run.status").get("timer", {}).get("running"), "the recording step's timer runs")
    run_uuid = started["taskRunUUID"] if started else ""
    bad_inputs(path, doc)
    other = Client(path, doc)
    other.call("run.start", expect_error=-32002)
    other.call("run.resume", {"taskRunUUID": run_uuid}, expect_error=-32002)
    other.call("task.load", {"task": RECORDING}, expect_error=-32002)
    other.close()
    # The walk moves on by itself; the completion step waits for the front end.
    shown = driver.wait_event("stepShown", timeout=20 * SCALE)
    while shown and not shown["stepPath"].endswith("/completion"):
        shown = driver.wait_event("stepShown", timeout=20 * SCALE)
    driver.call("run.forward")
    finished = driver.wait_event("taskFinished", timeout=20 * SCALE)
    if not check(finished and finished["reason"] == "completed", "the recording completed: %r" % finished):
        return
    result = driver.call("run.result", {"taskRunUUID": run_uuid})
    motion = [r for r in result["taskResult"].get("asyncResults", []) if r.get("identifier") == "motion"]
    if not check(motion and motion[0].get("relativePath"), "the task result names the motion file: %r" % motion):
        return
    with open(os.path.join(result["runDirectory"], motion[0]["relativePath"])) as f:
        samples = [r["timestamp"] for r in json.load(f) if r.get("sensorType") == "accelerometer"]
    span = samples[-1] - samples[0] if samples else 0
    check(3.5 < span < 4.8, "the motion file spans the 4 s step: %.2f s" % span)
    check(abs(len(samples) - span * 100) <= 0.02 * span * 100 + 1,
          "%d samples over %.2f s at 100 Hz (none lost)" % (len(samples), span))
    gaps = [b - a for a, b in zip(samples, samples[1:])]
    check(gaps and max(gaps) < 0.05, "no gap in the motion file: longest %.3f s" % (max(gaps) if gaps else 0))
    driver.close()


def many_clients(path, doc, count=200):
    print("check: %d clients at once" % count, flush=True)
    results = []
    lock = threading.Lock()

    def one():
        try:
            c = Client(path, doc)
            info = c.call("daemon.info")
            c.close()
            with lock:
                results.append(info is not None)
        except Exception as error:  # noqa: BLE001 - reported as a failure
            with lock:
                results.append(False)
            fail("a client failed: %s" % error)

    threads = [threading.Thread(target=one) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(TIMEOUT * 2)
    check(results.count(True) == count, "%d of %d clients answered" % (results.count(True), count))


def main():
    parser = argparse.ArgumentParser()
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--server", help="control-test-server, started here on a temporary socket")
    target.add_argument("--socket", help="the socket of a running activetaskd")
    parser.add_argument("--data-dir", help="the running activetaskd's data directory: check upload states last")
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    args = parser.parse_args()
    doc = Document(args.root)
    meta_schema_check(doc)
    if args.socket:
        uuid = whole_task(args.socket, doc)
        recording_survives_bad_input(args.socket, doc)
        many_clients(args.socket, doc)
        if args.data_dir:
            upload_states(args.socket, doc, args.data_dir, uuid)
        return summary()
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "control.sock")
        # One simulated second per 250 ms, slower under a sanitizer (ACTIVETASK_TEST_TIME_SCALE):
        # the 3 s step lasts 0.75 s, long enough for a client slowed by the other suites of its
        # pass to pause the timer it saw start (at 50 ms a tick, a fresh clone's first pass missed).
        tick = 0.25 * float(os.environ.get("ACTIVETASK_TEST_TIME_SCALE", "1"))
        server = subprocess.Popen([args.server, "--socket", path, "--data-dir", directory, "--tick", str(tick)],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        try:
            ready = server.stdout.readline()
            if not check(ready.strip() == b"listening", "the server did not start: %r" % ready):
                return 1
            whole_task(path, doc)
            bad_inputs(path, doc)
            many_clients(path, doc)
        finally:
            server.terminate()
            try:
                status = server.wait(TIMEOUT)
                check(status == 0, "the server exited %d on SIGTERM" % status)
            except subprocess.TimeoutExpired:
                server.kill()
                fail("the server did not stop on SIGTERM")
    return summary()


def summary():
    print("checked %(responses)d results, %(errors)d errors, %(events)d events" % checked)
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

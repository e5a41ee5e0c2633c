#!/usr/bin/python3
"""Another local user looking for the kiosk's token: reads every /proc/*/cmdline and
/proc/*/environ it may, again and again, until STOP_FILE exists, then prints a JSON report of
where each secret was seen and how many files were read.

usage: proc_token_scan.py SECRETS_FILE STOP_FILE

SECRETS_FILE holds `name=value` lines (the token, and a canary the test puts into a process of
its own so that a scan that reads nothing cannot pass). The secrets come from a file, never
from this script's own command line, which would show them.
Run by WebBrowserTests.kioskUnit as an unprivileged user of its own.
"""
import json
import os
import sys
import time

secrets_file, stop_file = sys.argv[1], sys.argv[2]
with open(secrets_file, encoding="utf-8") as handle:
    secrets = dict(line.strip().split("=", 1) for line in handle if "=" in line)
needles = {name: value.encode() for name, value in secrets.items()}
found = {name: set() for name in needles}
read = {"cmdline": 0, "environ": 0, "refused": 0, "rounds": 0}
own = str(os.getpid())


def scan():
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or entry == own:
            continue
        for kind in ("cmdline", "environ"):
            try:
                with open(f"/proc/{entry}/{kind}", "rb") as handle:
                    data = handle.read()
            except PermissionError:
                read["refused"] += 1
                continue
            except OSError:
                continue  # the process ended
            read[kind] += 1
            for name, needle in needles.items():
                if needle in data:
                    try:
                        with open(f"/proc/{entry}/comm", encoding="utf-8") as handle:
                            command = handle.read().strip()
                    except OSError:
                        command = "?"
                    found[name].add(f"{kind} of {entry} ({command})")


while True:
    stopping = os.path.exists(stop_file)
    scan()
    read["rounds"] += 1
    if stopping:
        break
    time.sleep(0.02)  # a round of every process, many times a second, without taking a core
print(json.dumps({"found": {name: sorted(places) for name, places in found.items()}, "read": read}))

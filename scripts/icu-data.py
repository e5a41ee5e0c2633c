#!/usr/bin/env python3
"""ICU's data for activetask's static builds, trimmed to what the programs read.

    scripts/icu-data.py make    # writes Sources/ICUData/icudt<N>l.dat from the toolchain
    scripts/icu-data.py check   # fails when the committed file is not what `make` would write,
                                # or when the probe prints anything else with it than with all of ICU

Foundation's internationalization links ICU with its whole data package (`icudt76_dat`,
34 MB: every locale, collation, converter and dictionary). activetask formats and parses
dates in en_US_POSIX, reads time zones and answers' patterns, and nothing else; the static
builds link Sources/ICUData instead, the same package with only the items listed in
Sources/ICUData/keep.txt (docs/install.md, "Size"). This script reads the package out of the
toolchain's lib_FoundationICU.a and writes the kept items as an ICU common data package
(format "CmnD" 1.0: a header, a table of contents sorted by name, each item 16-byte aligned),
which ICU's own `icupkg -l` lists.
"""
import fnmatch
import os
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.path.join(ROOT, "Sources", "ICUData")
KEEP = os.path.join(TARGET, "keep.txt")
ASSEMBLY = os.path.join(TARGET, "icudata.S")
PROBE = os.path.join(ROOT, "scripts", "icu-data-probe.swift")
PROBE_SOURCES = [
    os.path.join(ROOT, "Sources", "TaskModel", "Support", "Timestamp.swift"),
    os.path.join(ROOT, "Sources", "TaskModel", "Steps", "Questions", "DateCoding.swift"),
    os.path.join(ROOT, "Sources", "Upload", "Signing", "ClockSkew.swift"),
]
# The probe runs in each of these environments (time zones with half-hour offsets, other locales).
PROBE_ENVIRONMENTS = [{}, {"TZ": "America/Chicago"}, {"TZ": "Asia/Kolkata", "LANG": "de_DE.UTF-8"},
                      {"TZ": "America/St_Johns", "LANG": "ja_JP.UTF-8", "LC_ALL": "ja_JP.UTF-8"}]


def fail(message):
    print(f"icu-data.py: {message}", file=sys.stderr)
    sys.exit(1)


def toolchain_archive():
    swift = subprocess.run(["sh", "-c", "command -v swift"], capture_output=True, text=True).stdout.strip()
    if not swift:
        fail("swift is not on PATH; install the toolchain the package builds with.")
    usr = os.path.dirname(os.path.dirname(os.path.realpath(swift)))
    path = os.path.join(usr, "lib", "swift_static", "linux", "lib_FoundationICU.a")
    if not os.path.exists(path):
        fail(f"{path} is missing; the toolchain has no static Foundation to trim ICU's data for.")
    return path


def packaged_data(archive):
    """The symbol name (icudtNN_dat) and the bytes of the toolchain's ICU data package."""
    with tempfile.TemporaryDirectory() as work:
        member = os.path.join(work, "data.o")
        with open(member, "wb") as out:
            subprocess.run(["ar", "p", archive, "icu_packaged_data.cpp.o"], stdout=out, check=True)
        symbols = subprocess.run(["nm", "--defined-only", member], capture_output=True, text=True, check=True).stdout.split()
        names = [s for s in symbols if s.startswith("icudt") and s.endswith("_dat")]
        if len(names) != 1:
            fail(f"{archive}'s icu_packaged_data.cpp.o defines {names}, not one icudtNN_dat; see docs/install.md, \"Size\".")
        raw = os.path.join(work, "data.bin")
        subprocess.run(["objcopy", "-O", "binary", "--only-section=.rodata", member, raw], check=True)
        with open(raw, "rb") as f:
            return names[0], f.read()


def read_package(data):
    """The header bytes and the (name, bytes) items of an ICU common data package."""
    header_size, magic1, magic2 = struct.unpack_from("<HBB", data, 0)
    if (magic1, magic2) != (0xDA, 0x27) or data[12:16] != b"CmnD":
        fail("the toolchain's ICU data is not a little-endian common data package (CmnD).")
    count = struct.unpack_from("<I", data, header_size)[0]
    entries = [struct.unpack_from("<II", data, header_size + 4 + 8 * i) for i in range(count)]
    items = []
    for i, (name_offset, data_offset) in enumerate(entries):
        start = header_size + name_offset
        name = data[start:data.index(b"\0", start)].decode("ascii")
        end = header_size + entries[i + 1][1] if i + 1 < count else len(data)
        items.append((name, data[header_size + data_offset:end]))
    return data[:header_size], items


def write_package(header, items):
    """A common data package of `items` (already in ICU's sorted order)."""
    names = b""
    name_offsets = []
    table = 4 + 8 * len(items)
    for name, _ in items:
        name_offsets.append(table + len(names))
        names += name.encode("ascii") + b"\0"
    body_start = table + len(names)
    body_start += -body_start % 16
    body = b""
    data_offsets = []
    for _, payload in items:
        data_offsets.append(body_start + len(body))
        body += payload + b"\0" * (-len(payload) % 16)
    toc = struct.pack("<I", len(items))
    for name_offset, data_offset in zip(name_offsets, data_offsets):
        toc += struct.pack("<II", name_offset, data_offset)
    toc += names
    toc += b"\0" * (body_start - len(toc))
    return header + toc + body


def keep_patterns():
    with open(KEEP) as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def trimmed():
    symbol, data = packaged_data(toolchain_archive())
    header, items = read_package(data)
    patterns = keep_patterns()
    prefix = items[0][0].split("/", 1)[0] + "/"
    kept = [(n, p) for n, p in items if any(fnmatch.fnmatchcase(n[len(prefix):], pat) for pat in patterns)]
    unmatched = [pat for pat in patterns if not any(fnmatch.fnmatchcase(n[len(prefix):], pat) for n, _ in kept)]
    if unmatched:
        fail(f"keep.txt names items this ICU does not have: {', '.join(unmatched)}; update Sources/ICUData/keep.txt.")
    return symbol, prefix.rstrip("/"), write_package(header, kept), len(items), len(data), len(kept)


def assembly_symbol():
    with open(ASSEMBLY) as f:
        for line in f:
            if line.strip().startswith(".globl"):
                return line.split()[1]
    fail(f"{ASSEMBLY} defines no symbol.")


def probe(data_path):
    """Compiles the probe twice (all of ICU's data, then `data_path`'s) and compares what they print."""
    with tempfile.TemporaryDirectory() as work:
        # The assembler looks for .incbin's file in its working directory first: assemble there.
        subprocess.run(["clang", "-c", ASSEMBLY, "-I", os.path.dirname(data_path), "-o", "data.o"], cwd=work, check=True)
        # Top-level code compiles beside other files only from a file called main.swift.
        main = os.path.join(work, "main.swift")
        with open(PROBE) as source, open(main, "w") as copy:
            copy.write(source.read())
        outputs = {}
        for name, extra in (("whole", []), ("trimmed", [os.path.join(work, "data.o")])):
            binary = os.path.join(work, name)
            build = subprocess.run(["swiftc", "-O", "-static-stdlib", main, *PROBE_SOURCES, *extra, "-o", binary],
                                   capture_output=True, text=True)
            if build.returncode != 0:
                fail(f"the probe did not build ({name}):\n{build.stderr}")
            outputs[name] = []
            for environment in PROBE_ENVIRONMENTS:
                run = subprocess.run([binary], capture_output=True, text=True, env={**os.environ, **environment})
                outputs[name].append((environment, run.returncode, run.stdout + run.stderr))
        for (environment, whole_status, whole), (_, status, trimmed_output) in zip(outputs["whole"], outputs["trimmed"]):
            if whole_status != 0:
                fail(f"the probe failed with all of ICU's data ({environment}):\n{whole}")
            if (status, trimmed_output) != (whole_status, whole):
                import difflib
                diff = "\n".join(difflib.unified_diff(whole.splitlines(), trimmed_output.splitlines(), "all of ICU", "trimmed", lineterm=""))
                fail(f"with the trimmed data the probe exits {status} and prints otherwise ({environment}); "
                     f"add what it reads to Sources/ICUData/keep.txt:\n{diff}")
        return len(outputs["whole"][0][2].splitlines())


def main():
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command not in ("make", "check"):
        fail("usage: scripts/icu-data.py make|check")
    symbol, package, data, all_items, all_bytes, kept = trimmed()
    path = os.path.join(TARGET, package + ".dat")
    if assembly_symbol() != symbol:
        fail(f"the toolchain's ICU is {symbol} but Sources/ICUData/icudata.S defines {assembly_symbol()}: "
             f"rename the symbol and the .incbin file there, then run scripts/icu-data.py make.")
    if command == "make":
        with open(path, "wb") as f:
            f.write(data)
        # SwiftPM rebuilds the target when its assembly changes, not the file it includes.
        os.utime(ASSEMBLY)
        print(f"icu-data.py: wrote {os.path.relpath(path, ROOT)}: {kept} of {all_items} items, "
              f"{len(data)} of {all_bytes} bytes")
        return
    try:
        with open(path, "rb") as f:
            committed = f.read()
    except FileNotFoundError:
        fail(f"{os.path.relpath(path, ROOT)} is missing; run scripts/icu-data.py make and commit it.")
    if committed != data:
        fail(f"{os.path.relpath(path, ROOT)} is not what this toolchain and keep.txt give; "
             f"run scripts/icu-data.py make and commit it.")
    print(f"icu-data.py: {os.path.relpath(path, ROOT)} matches the toolchain's {symbol} and keep.txt "
          f"({kept} of {all_items} items, {len(data)} of {all_bytes} bytes)")
    lines = probe(path)
    print(f"icu-data.py: the probe prints the same {lines} lines with it as with all of ICU's data, "
          f"in {len(PROBE_ENVIRONMENTS)} environments")


if __name__ == "__main__":
    main()

import Foundation
import Testing
import TestSupport

/// scripts/install.sh into a DESTDIR, as a packager runs it.
@Suite("install.sh")
struct InstallScriptTests {
    static let script = PackagePaths.root.appendingPathComponent("scripts/install.sh").path

    /// Every regular file under `root`, relative to it, sorted.
    static func files(under root: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        var files: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                files.append(String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count)))
            }
        }
        return files.sorted()
    }

    /// A stand-in for `.build/release` holding executables named `names` (copies of a real one).
    static func buildDirectory(with names: [String], in scratch: ScratchDirectory) throws -> URL {
        let build = scratch.url.appendingPathComponent("build")
        try FileManager.default.createDirectory(at: build, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.copyItem(atPath: ChildProcess.helper, toPath: build.appendingPathComponent(name).path)
        }
        return build
    }

    @Test("DESTDIR and PREFIX place binaries, units, udev rules, sysusers, tmpfiles, docs and the config")
    func installIntoDestdir() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        // A build directory holding an activetaskctl but no activetaskd.
        let build = try Self.buildDirectory(with: ["activetaskctl"], in: scratch)
        let destination = scratch.url.appendingPathComponent("root")
        let environment = ["DESTDIR": destination.path, "PREFIX": "/usr", "BUILDDIR": build.path]
        let output = try await ChildProcess.run("/bin/bash", [Self.script], environment: environment)
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardError.contains("activetaskd is not built"), "\(output.standardError)")

        #expect(Self.files(under: destination) == [
            "/etc/activetask/activetaskd.json",
            "/usr/bin/activetaskctl",
            "/usr/lib/systemd/system/activetaskd.service",
            "/usr/lib/systemd/system/activetaskd.socket",
            "/usr/lib/sysusers.d/activetask.conf",
            "/usr/lib/tmpfiles.d/activetask.conf",
            "/usr/lib/udev/rules.d/70-activetask.rules",
            "/usr/share/doc/activetask/activetaskd-network.conf.example",
            "/usr/share/doc/activetask/activetaskd-realtime.conf.example",
            "/usr/share/doc/activetask/activetaskd.json.sample",
            "/usr/share/doc/activetask/configuration.md",
            "/usr/share/doc/activetask/service.md",
        ])
        let service = try String(contentsOf: destination.appendingPathComponent("usr/lib/systemd/system/activetaskd.service"), encoding: .utf8)
        #expect(service.contains("ExecStart=/usr/bin/activetaskd --config /etc/activetask/activetaskd.json"))
        #expect(service.contains("file:///usr/share/doc/activetask/service.md"))
        #expect(FileManager.default.isExecutableFile(atPath: destination.appendingPathComponent("usr/bin/activetaskctl").path))

        // A second install keeps the configuration an administrator edited.
        let edited = destination.appendingPathComponent("etc/activetask/activetaskd.json")
        try Data(#"{"voice": {"rate": 150}}"#.utf8).write(to: edited)
        let again = try await ChildProcess.run("/bin/bash", [Self.script], environment: environment)
        #expect(again.status == 0)
        #expect(again.standardOutput.contains("kept /etc/activetask/activetaskd.json"))
        #expect(try String(contentsOf: edited, encoding: .utf8) == #"{"voice": {"rate": 150}}"#)
    }

    @Test("With both binaries built, both are installed under the default prefix")
    func bothBinaries() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let build = try Self.buildDirectory(with: ["activetaskd", "activetaskctl"], in: scratch)
        let destination = scratch.url.appendingPathComponent("root")
        let output = try await ChildProcess.run("/bin/bash", [Self.script], environment: ["DESTDIR": destination.path, "PREFIX": nil, "BUILDDIR": build.path])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardError.isEmpty, "\(output.standardError)")
        let files = Self.files(under: destination)
        #expect(files.contains("/usr/local/bin/activetaskd"))
        #expect(files.contains("/usr/local/bin/activetaskctl"))
        #expect(files.contains("/usr/local/lib/systemd/system/activetaskd.service"))
        #expect(files.contains("/usr/local/lib/udev/rules.d/70-activetask.rules"))
    }

    @Test("activetask-upload comes with its unit; its tmpfiles entry, which turns uploads on, only as an example")
    func uploader() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let build = try Self.buildDirectory(with: ["activetaskd", "activetaskctl", "activetask-upload"], in: scratch)
        let destination = scratch.url.appendingPathComponent("root")
        let output = try await ChildProcess.run("/bin/bash", [Self.script], environment: ["DESTDIR": destination.path, "PREFIX": "/usr", "BUILDDIR": build.path])
        #expect(output.status == 0, "\(output.standardError)")
        let files = Self.files(under: destination)
        for file in ["/usr/bin/activetask-upload", "/usr/lib/systemd/system/activetask-upload.service",
                     "/usr/share/doc/activetask/activetask-upload.tmpfiles.conf", "/usr/share/doc/activetask/upload.json.example",
                     "/usr/share/doc/activetask/upload.md"] {
            #expect(files.contains(file), "\(file) is not installed")
        }
        // The outbox must not appear by itself: the daemon would keep every run for an uploader nobody set up.
        #expect(!files.contains("/usr/lib/tmpfiles.d/activetask-upload.conf"))
        #expect(!files.contains("/etc/activetask/upload.json"))
        let unit = try String(contentsOf: destination.appendingPathComponent("usr/lib/systemd/system/activetask-upload.service"), encoding: .utf8)
        #expect(unit.contains("ExecStart=/usr/bin/activetask-upload --config /etc/activetask/upload.json"))
        #expect(unit.contains("file:///usr/share/doc/activetask/upload.md"))
    }
}

import Foundation
import Testing
import TestSupport

/// The unit files, sysusers and tmpfiles entries, checked by systemd's own tools.
@Suite("Unit files")
struct UnitFileTests {
    static let systemd = PackagePaths.root.appendingPathComponent("systemd")

    /// Copies the units to a scratch directory with ExecStart pointing at a binary that exists
    /// (`systemd-analyze verify` refuses a missing one; activetaskd is installed elsewhere).
    static func unitsWithExistingBinary(in scratch: ScratchDirectory) throws -> (service: String, socket: String) {
        let service = try String(contentsOf: systemd.appendingPathComponent("activetaskd.service"), encoding: .utf8)
        #expect(service.contains("ExecStart=/usr/local/bin/activetaskd "))
        let socket = try String(contentsOf: systemd.appendingPathComponent("activetaskd.socket"), encoding: .utf8)
        return (
            try scratch.write("activetaskd.service", service.replacingOccurrences(of: "/usr/local/bin/activetaskd", with: ChildProcess.helper)),
            try scratch.write("activetaskd.socket", socket)
        )
    }

    @Test("systemd-analyze verify accepts the service and socket")
    func verify() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let units = try Self.unitsWithExistingBinary(in: scratch)
        let analyze = try #require(ChildProcess.tool("systemd-analyze"))
        let output = try await ChildProcess.run(analyze, ["verify", "--man=no", units.socket, units.service])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardError.isEmpty, "\(output.standardError)")
    }

    @Test("systemd-analyze verify notices a broken unit (the check can fail)")
    func verifyCatchesMistakes() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let units = try Self.unitsWithExistingBinary(in: scratch)
        let broken = try String(contentsOfFile: units.service, encoding: .utf8).replacingOccurrences(of: "Type=notify", with: "Type=notifyy")
        try broken.write(toFile: units.service, atomically: true, encoding: .utf8)
        let analyze = try #require(ChildProcess.tool("systemd-analyze"))
        let output = try await ChildProcess.run(analyze, ["verify", "--man=no", units.socket, units.service])
        #expect(output.standardError.contains("Failed to parse service type"), "\(output.standardError)")
    }

    @Test("systemd-analyze security rates the service at most 1.0, and a weakened copy above it")
    func exposure() async throws {
        let analyze = try #require(ChildProcess.tool("systemd-analyze"))
        let service = Self.systemd.appendingPathComponent("activetaskd.service").path
        let output = try await ChildProcess.run(analyze, ["security", "--offline=true", "--threshold=10", "--no-pager", service])
        #expect(output.status == 0, "\(output.standardError)")
        let rating = try #require(output.standardOutput.firstMatch(of: /Overall exposure level for activetaskd.service: (\d+\.\d)/)?.1)
        #expect(Double(rating)! <= 1.0, "\(output.standardOutput)")

        // The same unit with the network opened (the ip: drop-in's settings) rates worse.
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let text = try String(contentsOfFile: service, encoding: .utf8)
            .replacingOccurrences(of: "PrivateNetwork=yes", with: "PrivateNetwork=no")
            .replacingOccurrences(of: "RestrictAddressFamilies=AF_UNIX", with: "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6")
            .replacingOccurrences(of: "IPAddressDeny=any", with: "")
        let opened = try scratch.write("activetaskd.service", text)
        let weaker = try await ChildProcess.run(analyze, ["security", "--offline=true", "--threshold=1", "--no-pager", opened])
        #expect(weaker.status != 0, "with the network open the rating exceeds 1.0: \(weaker.standardOutput.suffix(200))")
    }

    @Test("The real-time drop-in applies cleanly, allows SCHED_FIFO up to playback's priority, and keeps the rating at most 1.0")
    func realTimeDropIn() async throws {
        let dropIn = try String(contentsOf: Self.systemd.appendingPathComponent("activetaskd-realtime.conf.example"), encoding: .utf8)
        let lines = Set(dropIn.split(separator: "\n").map(String.init))
        #expect(lines.contains("RestrictRealtime=no"))
        #expect(lines.contains("SystemCallFilter=sched_setscheduler"))
        // Voice playback asks for SCHED_FIFO 10 (the default realTimePriority), capture for 9.
        let limit = lines.first { $0.hasPrefix("LimitRTPRIO=") }.flatMap { Int($0.dropFirst("LimitRTPRIO=".count)) }
        #expect(limit == 10, "LimitRTPRIO= should allow playback's priority 10 and no more")

        // Installed as the docs say: activetaskd.service.d/realtime.conf beside the unit.
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let units = try Self.unitsWithExistingBinary(in: scratch)
        try FileManager.default.createDirectory(atPath: units.service + ".d", withIntermediateDirectories: true)
        try dropIn.write(toFile: units.service + ".d/realtime.conf", atomically: true, encoding: .utf8)
        let analyze = try #require(ChildProcess.tool("systemd-analyze"))
        let verified = try await ChildProcess.run(analyze, ["verify", "--man=no", units.socket, units.service])
        #expect(verified.status == 0, "\(verified.standardError)")
        #expect(verified.standardError.isEmpty, "\(verified.standardError)")

        // Measured: 0.4 without the drop-in, 0.6 with it (RestrictRealtime 0.1, @resources 0.2).
        let output = try await ChildProcess.run(analyze, ["security", "--offline=true", "--threshold=10", "--no-pager", units.service])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("Service may acquire realtime scheduling"), "the drop-in was not applied: \(output.standardOutput)")
        #expect(output.standardOutput.contains("sched_setscheduler is allowed"), "the drop-in was not applied: \(output.standardOutput)")
        let rating = try #require(output.standardOutput.firstMatch(of: /Overall exposure level for activetaskd.service: (\d+\.\d)/)?.1)
        #expect(Double(rating)! <= 1.0, "\(output.standardOutput)")
    }

    @Test("The service keeps IIO buffers writable and allows only IIO and ALSA devices and Unix sockets")
    func hardeningKeepsWhatTheDaemonNeeds() throws {
        let text = try String(contentsOf: Self.systemd.appendingPathComponent("activetaskd.service"), encoding: .utf8)
        let lines = Set(text.split(separator: "\n").map(String.init))
        for required in [
            "Type=notify", "Restart=on-failure", "User=activetask", "RuntimeDirectory=activetask", "StateDirectory=activetask",
            "ProtectKernelTunables=yes", "DevicePolicy=closed",
            "DeviceAllow=char-iio rw", "DeviceAllow=char-alsa rw", "RestrictAddressFamilies=AF_UNIX",
        ] {
            #expect(lines.contains(required), "missing \(required)")
        }
        #expect(lines.contains { $0.hasPrefix("WatchdogSec=") })
        #expect(lines.filter { $0.hasPrefix("DeviceAllow=") }.count == 2)
        let socket = try String(contentsOf: Self.systemd.appendingPathComponent("activetaskd.socket"), encoding: .utf8)
        #expect(socket.contains("ListenStream=/run/activetask/control.sock"))
        #expect(socket.contains("SocketMode=0660"))
        #expect(socket.contains("SocketGroup=activetask-ui"))
    }

    @Test("sysusers creates the users (the daemon in the iio and audio groups, the UI server in activetask-ui, the uploader in activetask); tmpfiles creates the state directory")
    func sysusersAndTmpfiles() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("etc"), withIntermediateDirectories: true)
        let sysusers = try #require(ChildProcess.tool("systemd-sysusers"))
        let users = try await ChildProcess.run(sysusers, ["--root=\(scratch.url.path)", Self.systemd.appendingPathComponent("activetask.sysusers.conf").path])
        #expect(users.status == 0, "\(users.standardError)")
        let passwd = try String(contentsOf: scratch.url.appendingPathComponent("etc/passwd"), encoding: .utf8)
        let group = try String(contentsOf: scratch.url.appendingPathComponent("etc/group"), encoding: .utf8)
        #expect(passwd.split(separator: "\n").contains { $0.hasPrefix("activetask:") && $0.hasSuffix(":/var/lib/activetask:/usr/sbin/nologin") })
        let groups = Dictionary(group.split(separator: "\n").map { line -> (String, String) in
            let fields = line.split(separator: ":", omittingEmptySubsequences: false)
            return (String(fields[0]), String(fields[3]))
        }, uniquingKeysWith: { $1 })
        #expect(groups["iio"] == "activetask")
        #expect(groups["audio"] == "activetask")
        // The UI server is the one member of the socket's UI group; the uploader reads runs
        // through the daemon's own group.
        #expect(groups["activetask-ui"] == "activetask-web")
        #expect(groups["activetask"] == "activetask-upload")
        #expect(passwd.split(separator: "\n").contains { $0.hasPrefix("activetask-web:") })
        #expect(passwd.split(separator: "\n").contains { $0.hasPrefix("activetask-upload:") })

        let tmpfiles = try #require(ChildProcess.tool("systemd-tmpfiles"))
        let created = try await ChildProcess.run(tmpfiles, ["--root=\(scratch.url.path)", "--create", Self.systemd.appendingPathComponent("activetask.tmpfiles.conf").path])
        #expect(created.status == 0, "\(created.standardError)")
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("var/lib/activetask/runs").path, isDirectory: &isDirectory) && isDirectory.boolValue)
        let attributes = try FileManager.default.attributesOfItem(atPath: scratch.url.appendingPathComponent("var/lib/activetask").path)
        #expect((attributes[.posixPermissions] as? Int) == 0o750)
    }
}

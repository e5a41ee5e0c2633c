import Foundation
import Glibc
import Testing
import TestSupport

extension WebBrowserTests {
    /// Whether Debian's cage and Xwayland are installed (scripts/setup.sh installs them): cage
    /// 0.1.4 will not start without Xwayland.
    static var kioskAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/cage") && FileManager.default.isExecutableFile(atPath: "/usr/bin/Xwayland")
    }

    /// The unprivileged user the kiosk runs as here (the unit's own user, activetask-web, need
    /// not exist on this machine): cage refuses to run as root.
    static let kioskUser = (uid: 65534, gid: 65534)
    /// Another local user, looking for the kiosk's token in every process it may look into.
    static let otherUser = (uid: 65533, gid: 65533)

    /// The example kiosk unit's command lines and environment (docs/kiosk.md, "Setting up a
    /// kiosk tablet"), with this test's token file (the launch page beside it) and home in
    /// place of the installed ones. Each thing replaced must be in the unit as written, so a change to the
    /// unit that this test does not follow fails here.
    struct KioskUnit {
        var startPre: String
        var start: String
        var environment: [String: String]

        init(tokenFile: String, home: String) throws {
            let unit = try String(contentsOf: PackagePaths.root.appendingPathComponent("systemd/activetask-kiosk.service.example"), encoding: .utf8)
            func line(_ key: String) throws -> String {
                guard let found = unit.split(separator: "\n").first(where: { $0.hasPrefix(key + "=") }) else {
                    throw DaemonTestFailure("the kiosk unit has no \(key)=")
                }
                return String(found.dropFirst(key.count + 1))
            }
            func replacing(_ text: String, _ pairs: [(String, String)]) throws -> String {
                var text = text
                for (old, new) in pairs {
                    guard text.contains(old) else { throw DaemonTestFailure("the kiosk unit's line no longer has \(old): \(text)") }
                    text = text.replacingOccurrences(of: old, with: new)
                }
                return text
            }
            // `/bin/sh -c '…'`: the script between the outer quotes.
            func script(_ command: String) throws -> String {
                guard command.hasPrefix("/bin/sh -c '"), command.hasSuffix("'") else { throw DaemonTestFailure("not a /bin/sh -c line: \(command)") }
                return String(command.dropFirst("/bin/sh -c '".count).dropLast())
            }
            let token = ("/run/activetask-web/token", tokenFile)
            startPre = try replacing(script(try line("ExecStartPre")), [token])
            // The only addition: a DevTools port for the check to attach to.
            start = try replacing(script(try line("ExecStart")), [token, ("chromium --kiosk", "chromium --remote-debugging-port=0 --kiosk")])
            environment = [:]
            for assignment in unit.split(separator: "\n") where assignment.hasPrefix("Environment=") {
                let pair = assignment.dropFirst("Environment=".count).split(separator: "=", maxSplits: 1).map(String.init)
                if pair.count == 2 { environment[pair[0]] = pair[0] == "HOME" ? home : pair[1] }
            }
            guard environment["HOME"] == home else { throw DaemonTestFailure("the kiosk unit sets no HOME") }
        }
    }

    /// A task short enough to tap through.
    static let helloTask = """
    { "identifier": "Hello", "title": "Hello",
      "steps": [ { "identifier": "welcome", "type": "instruction", "title": "Welcome", "text": "Tap Next." },
                 { "identifier": "done", "type": "completion", "title": "Well done" } ] }
    """

    @Test("The example kiosk unit's own commands, as its user under cage on a headless Wayland output, show the UI full screen and run a task by touch, while another user finds the token in no process's command line or environment",
          .enabled(if: WebBrowserTests.kioskAvailable, "cage or Xwayland is missing: the kiosk unit is not tried (scripts/setup.sh installs them)."))
    func kioskUnit() async throws {
        let browser = try await BrowserRun("kiosk", tasks: ["Hello.json": Data(Self.helloTask.utf8)])
        let (uid, gid) = (uid_t(Self.kioskUser.uid), gid_t(Self.kioskUser.gid))
        // The unit's StateDirectory (its HOME), the runtime directory logind would make, and the
        // launch page activetask-web wrote beside its token, the kiosk's user's only, as installed
        // (there activetask-web runs as that user; here it runs as root, so the page is handed over).
        let home = browser.fixture.directory.appendingPathComponent("kiosk-home")
        let runtime = browser.fixture.directory.appendingPathComponent("kiosk-runtime")
        let tokenFile = browser.fixture.directory.appendingPathComponent("kiosk-token")
        let launchPage = tokenFile.path + ".html"
        try FileManager.default.copyItem(atPath: browser.web.launchPage, toPath: launchPage)
        for (path, mode) in [(home.path, 0o700), (runtime.path, 0o700)] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            chmod(path, mode_t(mode))
        }
        for path in [home.path, runtime.path, launchPage] { chown(path, uid, gid) }
        chmod(launchPage, 0o600)
        // The fixture's folder is root's; the kiosk's user must reach its own files in it.
        chmod(browser.fixture.directory.path, 0o711)

        let origin = "http://127.0.0.1:\(browser.web.port)"
        let unit = try KioskUnit(tokenFile: tokenFile.path, home: home.path)
        var environment = unit.environment
        environment["PATH"] = "/usr/bin:/bin"
        environment["XDG_RUNTIME_DIR"] = runtime.path
        // A headless output in memory instead of the tablet's screen and touch panel.
        environment["WLR_BACKENDS"] = "headless"
        environment["WLR_RENDERER"] = "pixman"
        environment["WLR_LIBINPUT_NO_DEVICES"] = "1"
        let asUser = ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "/bin/sh", "-c"]

        // Another user reads every /proc/*/cmdline and /proc/*/environ it may from before the
        // kiosk starts until its task is done; a canary in a process of that user's own shows the
        // scan reads both (the token is given in a file, not on the scan's command line).
        let scan = try TokenScan(in: browser.fixture, token: browser.web.token, user: Self.otherUser)
        defer { scan.end() }

        let pre = try await CommandRunner.run(URL(fileURLWithPath: asUser[0]), Array(asUser.dropFirst()) + [unit.startPre],
                                              environment: environment.mapValues { Optional($0) })
        #expect(pre.status == 0, "ExecStartPre did not find the launch page: \(pre.standardError)")
        let kiosk = try browser.fixture.spawn(asUser + [unit.start], environment: environment)
        defer { kiosk.send(SIGKILL) }
        let portFile = home.appendingPathComponent(".config/chromium/DevToolsActivePort")
        let deadline = Date().addingTimeInterval(TestTiming.tolerance(30))
        var port: String?
        while port == nil, Date() < deadline, kiosk.ended == nil {
            port = (try? String(contentsOf: portFile, encoding: .utf8))?.split(separator: "\n").first.map(String.init)
            if port == nil { try await Task.sleep(for: .milliseconds(100)) }
        }
        let devtools = try #require(port, "Chromium under cage did not start:\n\(kiosk.output)")
        let output = try await CommandRunner.run(URL(fileURLWithPath: "/usr/bin/python3"),
                                                 [BrowserRun.script("kiosk_check.py"), devtools, origin, browser.shots.path, launchPage])
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)\n\(kiosk.output)")
        let seen = try await scan.finish()
        #expect(seen.token.isEmpty, "another user found the kiosk's token: \(seen.token)")
        #expect(seen.canaryInCommandLine && seen.canaryInEnvironment,
                "the scan did not find its own canary, so it proves nothing: \(seen.report)")
        // Nor is it in a log line: activetask-web's, the daemon's or cage's and Chromium's.
        let token = browser.web.token
        for (name, log) in [("activetask-web", browser.web.process.output), ("activetaskd", browser.daemon.output), ("the kiosk", kiosk.output)] {
            #expect(!log.isEmpty && !log.contains(token), "\(name)'s log holds the token (or is empty)")
        }

        // As systemd stops the unit: SIGTERM to cage, whose end ends Chromium.
        kiosk.send(SIGTERM)
        #expect(await kiosk.waitForExit(within: TestTiming.tolerance(15)) != nil, "cage did not end on SIGTERM:\n\(kiosk.output)")
        // Chromium and its helpers carry the kiosk's HOME in their environment; none may be left.
        try await Task.sleep(for: .seconds(1))
        let left = Self.processes(withEnvironment: "HOME=\(home.path)")
        #expect(left.isEmpty, "Chromium outlived cage: processes \(left)")
        for pid in left { kill(pid, SIGKILL) }
        await browser.stop()
    }

    /// The processes whose environment holds `assignment` (the kiosk's own, by its unique HOME).
    static func processes(withEnvironment assignment: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), pid != getpid(),
                  let environ = FileManager.default.contents(atPath: "/proc/\(entry)/environ") else { return nil }
            return environ.split(separator: 0).contains { $0.elementsEqual(assignment.utf8) } ? pid : nil
        }
    }
}

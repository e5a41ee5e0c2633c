import ControlProtocol
import ControlServer
import Daemon
import Foundation
import Testing

/// Who may load which path (docs/protocol.md, "task.load"): an administrator any, everyone
/// else a task of the task directory by a plain name that stays inside, symlinks followed.
@Suite struct TaskLoadAccessTests {
    static let admin = PeerCredentials(pid: 1, uid: 1000, gid: 1000)
    static let root = PeerCredentials(pid: 1, uid: 0, gid: 0)
    static let participant = PeerCredentials(pid: 1, uid: 2000, gid: 2000)

    /// nil: refused on `path`; else the path loaded, relative to the fixture's folder.
    static let rows: [(peer: PeerCredentials, path: String, loads: String?)] = [
        (participant, "Hello.json", "tasks/Hello.json"),
        (participant, "sub/A.json", "tasks/sub/A.json"),
        (participant, "Missing.json", "tasks/Missing.json"),
        (participant, "/etc/passwd", nil),
        (participant, "../Outside.json", nil),
        (participant, "sub/../../Outside.json", nil),
        (participant, "./Hello.json", nil),
        (participant, "escape.json", nil),
        (participant, "escapes/Outside.json", nil),
        (participant, "", nil),
        (PeerCredentials.unknown, "Hello.json", "tasks/Hello.json"),
        (PeerCredentials.unknown, "../Outside.json", nil),
        (admin, "../Outside.json", "tasks/../Outside.json"),
        (admin, "escape.json", "tasks/escape.json"),
        (root, "/etc/passwd", "/etc/passwd"),
    ]

    @Test(arguments: rows.indices)
    func access(row: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("taskaccess-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let tasks = folder.appendingPathComponent("tasks")
        try FileManager.default.createDirectory(at: tasks.appendingPathComponent("sub"), withIntermediateDirectories: true)
        for file in ["tasks/Hello.json", "tasks/sub/A.json", "Outside.json"] {
            try Data("{}".utf8).write(to: folder.appendingPathComponent(file))
        }
        try FileManager.default.createSymbolicLink(at: tasks.appendingPathComponent("escape.json"), withDestinationURL: folder.appendingPathComponent("Outside.json"))
        try FileManager.default.createSymbolicLink(at: tasks.appendingPathComponent("escapes"), withDestinationURL: folder)
        let access = TaskLoadAccess(taskDirectory: tasks, administrators: [0, 1000])
        let (peer, path, loads) = Self.rows[row]
        do {
            let resolved = try access.resolve(path, for: peer)
            let expected = loads.map { $0.hasPrefix("/") ? $0 : folder.appendingPathComponent($0).path }
            #expect(resolved == expected, "\(Self.rows[row])")
        } catch {
            #expect(loads == nil, "\(Self.rows[row]): \(error.message)")
            #expect(error.code == .invalidParams && error.data?.codingPath == "path", "\(error)")
        }
    }

    @Test func includesAreConfinedForAllButAdministrators() {
        let tasks = URL(fileURLWithPath: "/srv/tasks")
        let access = TaskLoadAccess(taskDirectory: tasks, administrators: [0])
        let inline = URL(fileURLWithPath: "/data/inline-tasks/x")
        #expect(access.includeRoots(for: Self.root, inlineFolder: inline) == nil)
        #expect(access.includeRoots(for: Self.participant) == [tasks])
        #expect(access.includeRoots(for: Self.participant, inlineFolder: inline) == [tasks, inline])
    }
}

import Foundation
import Glibc
import Testing
import TestSupport

/// `tasks.list`, `tasks.image` and `tasks.resource` through the real daemon (docs/protocol.md,
/// "The task directory"): a task directory with a good task, a transform resource, a broken
/// file, an image, a page and a video, a symlink out of the directory and a hidden file.
@Suite("activetaskd: tasks.list, tasks.image and tasks.resource")
struct TaskListTests {
    /// A task directory: the example WalkAndBalance (a task and its section resource), a broken
    /// file, a PNG icon in a folder, a secret outside and a symlink to it.
    static func taskDirectory(in fixture: DaemonFixture) throws -> (tasks: URL, secret: URL) {
        let tasks = fixture.directory.appendingPathComponent("tasks")
        let images = tasks.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        let example = PackagePaths.root.appendingPathComponent("examples/WalkAndBalance")
        for name in ["WalkAndBalance.json", "WalkSection.json"] {
            try FileManager.default.copyItem(at: example.appendingPathComponent(name), to: tasks.appendingPathComponent(name))
        }
        try Data("{\"identifier\": \"broken\", \"steps\": [".utf8).write(to: tasks.appendingPathComponent("Broken.json"))
        try Data("{}".utf8).write(to: tasks.appendingPathComponent(".hidden.json"))
        try Data([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]).write(to: images.appendingPathComponent("walk.png"))
        let secret = fixture.directory.appendingPathComponent("secret.png")
        try Data("secret".utf8).write(to: secret)
        try FileManager.default.createSymbolicLink(at: tasks.appendingPathComponent("out.png"), withDestinationURL: secret)
        return (tasks, secret)
    }

    @Test("tasks.list lists the task with its title, leaves the section out and names the broken file's fault; tasks.image serves only images inside the directory")
    func listAndImages() async throws {
        let fixture = try await DaemonFixture("tasklist")
        let (tasks, _) = try Self.taskDirectory(in: fixture)
        let daemon = try await fixture.start(fixture.arguments() + ["--task-directory", tasks.path])
        let socket = fixture.socket
        try await offThread {
            let client = try LineClient(path: socket, timeout: 20)
            let list = try client.result("tasks.list")
            let entries = list["tasks"] as? [[String: Any]] ?? []
            guard entries.compactMap({ $0["file"] as? String }) == ["Broken.json", "WalkAndBalance.json"] else {
                throw DaemonTestFailure("tasks.list answered \(list)")
            }
            let broken = entries[0], walk = entries[1]
            guard broken["identifier"] == nil, let error = broken["error"] as? String, error.contains("Broken.json") else {
                throw DaemonTestFailure("the broken file is listed as \(broken)")
            }
            guard walk["identifier"] as? String == "WalkAndBalance", walk["title"] as? String == "Walk, then stand still",
                  (walk["detail"] as? String ?? "").hasPrefix("You will walk"), walk["error"] == nil else {
                throw DaemonTestFailure("WalkAndBalance is listed as \(walk)")
            }
            // The file tasks.list names loads.
            _ = try client.result("task.load", ["path": "WalkAndBalance.json"])

            let image = try client.result("tasks.image", ["task": "WalkAndBalance.json", "name": "images/walk"])
            guard image["contentType"] as? String == "image/png", image["file"] as? String == "images/walk.png",
                  Data(base64Encoded: image["base64"] as? String ?? "") == Data([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]) else {
                throw DaemonTestFailure("tasks.image answered \(image)")
            }
            // Out of the directory: a `..`, an absolute path (refused as params), a symlink out,
            // a file that is no image, a missing one (not found, alike).
            for (params, code) in [
                (["task": "WalkAndBalance.json", "name": "../secret"], -32602),
                (["task": "WalkAndBalance.json", "name": "/etc/passwd"], -32602),
                (["task": "../tasks/WalkAndBalance.json", "name": "images/walk"], -32602),
                (["task": "WalkAndBalance.json", "name": "out.png"], -32004),
                (["task": "WalkAndBalance.json", "name": "WalkSection.json"], -32004),
                (["task": "WalkAndBalance.json", "name": "missing"], -32004),
            ] {
                try Self.expectRefusal(client, "tasks.image", params, code: code)
            }
        }
        daemon.send(SIGTERM)
        _ = await daemon.waitForExit(within: 10)
    }

    @Test("tasks.resource gives a page and a video larger than a control line in pieces that add up to the file, and only those inside the directory")
    func resourcesInPieces() async throws {
        let fixture = try await DaemonFixture("taskres")
        let (tasks, secret) = try Self.taskDirectory(in: fixture)
        // Not a real video: the daemon serves bytes by extension and never looks inside.
        let video = Data((0..<(TaskResourcePiece.size * 2 + 1000)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) })
        try video.write(to: tasks.appendingPathComponent("images/about.mov"))
        try Data("<h1>About walking</h1>".utf8).write(to: tasks.appendingPathComponent("About.html"))
        try Data().write(to: tasks.appendingPathComponent("Empty.webm"))
        try FileManager.default.copyItem(at: secret, to: fixture.directory.appendingPathComponent("secret.mp4"))
        try FileManager.default.createSymbolicLink(at: tasks.appendingPathComponent("out.mp4"),
                                                   withDestinationURL: fixture.directory.appendingPathComponent("secret.mp4"))
        let daemon = try await fixture.start(fixture.arguments() + ["--task-directory", tasks.path])
        let socket = fixture.socket
        try await offThread {
            let client = try LineClient(path: socket, timeout: 20)
            // The video, piece by piece from where the last one ended.
            var assembled = Data(), offsets: [Int] = []
            while true {
                let piece = try client.result("tasks.resource", ["task": "WalkAndBalance.json", "name": "images/about.mov", "offset": assembled.count])
                guard piece["file"] as? String == "images/about.mov", piece["contentType"] as? String == "video/quicktime",
                      piece["size"] as? Int == video.count, piece["offset"] as? Int == assembled.count,
                      let bytes = Data(base64Encoded: piece["base64"] as? String ?? "") else {
                    throw DaemonTestFailure("tasks.resource answered \(piece.filter { $0.key != "base64" })")
                }
                offsets.append(assembled.count)
                assembled.append(bytes)
                if assembled.count >= video.count || bytes.isEmpty { break }
            }
            guard assembled == video, offsets == [0, TaskResourcePiece.size, TaskResourcePiece.size * 2] else {
                throw DaemonTestFailure("the pieces (from \(offsets)) add up to \(assembled.count) bytes, not the video's \(video.count)")
            }
            // A name without extension is a page first; an empty file is one empty piece.
            let page = try client.result("tasks.resource", ["task": "WalkAndBalance.json", "name": "About"])
            guard page["contentType"] as? String == "text/html", page["size"] as? Int == 22,
                  Data(base64Encoded: page["base64"] as? String ?? "") == Data("<h1>About walking</h1>".utf8) else {
                throw DaemonTestFailure("tasks.resource About answered \(page)")
            }
            // Length 0: only whether it is there, its type and size; a short length, that many bytes.
            let probe = try client.result("tasks.resource", ["task": "WalkAndBalance.json", "name": "images/about.mov", "length": 0])
            guard probe["size"] as? Int == video.count, probe["contentType"] as? String == "video/quicktime", probe["base64"] as? String == "" else {
                throw DaemonTestFailure("tasks.resource with length 0 answered \(probe)")
            }
            let start = try client.result("tasks.resource", ["task": "WalkAndBalance.json", "name": "images/about.mov", "offset": 1, "length": 5])
            guard Data(base64Encoded: start["base64"] as? String ?? "") == video[1..<6] else {
                throw DaemonTestFailure("tasks.resource with offset 1, length 5 answered \(start)")
            }
            let empty = try client.result("tasks.resource", ["task": "WalkAndBalance.json", "name": "Empty.webm"])
            guard empty["size"] as? Int == 0, empty["base64"] as? String == "" else {
                throw DaemonTestFailure("tasks.resource Empty.webm answered \(empty)")
            }
            for (params, code) in [
                (["task": "WalkAndBalance.json", "name": "images/about.mov", "offset": video.count + 1] as [String: Any], -32602),
                (["task": "WalkAndBalance.json", "name": "../secret.mp4"], -32602),
                (["task": "/tmp/WalkAndBalance.json", "name": "About"], -32602),
                (["task": "WalkAndBalance.json", "name": "out.mp4"], -32004),
                (["task": "WalkAndBalance.json", "name": "images/walk.png"], -32004),
                (["task": "WalkAndBalance.json", "name": "WalkSection.json"], -32004),
                (["task": "WalkAndBalance.json", "name": "missing"], -32004),
            ] {
                try Self.expectRefusal(client, "tasks.resource", params, code: code)
            }
        }
        daemon.send(SIGTERM)
        _ = await daemon.waitForExit(within: 10)
    }
}

extension TaskListTests {
    /// Throws unless `method` with `params` is refused with the JSON-RPC error `code`.
    static func expectRefusal(_ client: LineClient, _ method: String, _ params: [String: Any], code: Int) throws {
        let response = try client.call(method, params)
        let error = response["error"] as? [String: Any] ?? [:]
        guard error["code"] as? Int == code, response["result"] == nil else {
            throw DaemonTestFailure("\(method) \(params) answered \(response), expected \(code)")
        }
    }
}

/// The piece size `tasks.resource` answers with (docs/protocol.md): 384 KiB.
private enum TaskResourcePiece {
    static let size = 384 * 1024
}

import Foundation
import TestSupport
import Testing

/// The multi-call `activetask` the Debian packages install (docs/install.md, "Size"), run through
/// symlinks as the packages install it: it is the program its name says, and by any other name
/// it says so and exits 64.
@Suite struct MultiCallTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var arguments: [String]
        var status: Int32
        /// Text the standard output (or, for a refusal, the standard error) must hold.
        var expected: String
        var testDescription: String { "\(name) \(arguments.joined(separator: " "))" }
    }

    static let cases: [Case] = [
        Case(name: "activetaskd", arguments: ["--version"], status: 0, expected: "0.2.0\n"),
        Case(name: "activetaskctl", arguments: ["validate", "examples/WalkAndBalance/WalkSection.json"], status: 0, expected: ""),
        Case(name: "activetask-web", arguments: ["--help"], status: 0, expected: "USAGE: activetask-web"),
        Case(name: "activetask-upload", arguments: ["--help"], status: 0, expected: "USAGE: activetask-upload"),
        Case(name: "activetask", arguments: [], status: 64,
             expected: "activetask: run it as activetaskd, activetaskctl, activetask-web or activetask-upload (a symlink of that name to it); it was run as 'activetask'."),
    ]

    @Test(arguments: cases)
    func runsTheProgramItIsCalledAs(_ item: Case) async throws {
        let multiCall = try #require(PackagePaths.builtExecutable(named: "activetask"), "the executable activetask is not built")
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let link = scratch.url.appendingPathComponent(item.name)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: multiCall)
        let result = try await CommandRunner.run(link, item.arguments)
        #expect(result.status == item.status, "\(result)")
        if item.status == 0 {
            #expect(item.expected.isEmpty ? result.standardOutput.isEmpty : result.standardOutput.contains(item.expected), "\(result)")
        } else {
            #expect(result.standardError.contains(item.expected), "\(result)")
        }
    }
}

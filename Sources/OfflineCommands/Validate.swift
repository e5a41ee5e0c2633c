import ArgumentParser
import CommandOutput
import Foundation
import TaskModel

/// `activetaskctl validate FILE…`: decodes each task file (transforms included) and reports
/// one line `FILE: <coding path>: <reason>` per bad file; warnings go to standard error.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check that SageResearch task files decode; exit 1 with one line per bad file.")

    @OptionGroup var registryOptions: RegistryOptions

    @Argument(help: ArgumentHelp("Task, section or step JSON files.", valueName: "file"))
    var files: [String]

    func run() throws {
        let loader = TaskLoader(registry: try registryOptions.registry())
        var failed = false
        for file in files {
            do {
                let loaded = try loader.load(path: file)
                for warning in loaded.warnings {
                    Console.standardError("\(file): \(warning)")
                }
            } catch {
                failed = true
                print(error.description)
            }
        }
        if failed { throw ExitCode(1) }
    }
}

import Foundation

/// Replays files (a crash reproducer, a corpus directory) through a target once each: what a
/// build without FUZZING does with its arguments.
enum FuzzReplay {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs every file named, and every file directly inside each directory named; returns how many.
    static func run(paths: [String], target: (FuzzInput) -> Void) throws -> Int {
        var count = 0
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw Failure(description: "\(path) does not exist; give fuzz inputs or corpus directories.")
            }
            let files: [String]
            if isDirectory.boolValue {
                let names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
                files = names.map { "\(path)/\($0)" }
            } else {
                files = [path]
            }
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else {
                    throw Failure(description: "\(file) cannot be read; check its permissions.")
                }
                target(FuzzInput(bytes: Array(data)))
                count += 1
            }
        }
        return count
    }
}

func printToStandardError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

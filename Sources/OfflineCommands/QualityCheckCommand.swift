import ArgumentParser
import Foundation
import Quality

/// `activetaskctl qc RUN [--write]`: runs the quality checks on a run directory and prints the
/// report as JSON (docs/quality.md). No daemon needed.
struct QualityCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "qc", abstract: "Check a run's recordings and print the quality report (qc.json) as JSON.")

    @Argument(help: ArgumentHelp("The run directory (holding taskResult.json and the recorder files).", valueName: "run"))
    var runDirectory: String

    @Option(help: "A JSON file of quality thresholds (any subset of the keys in docs/quality.md).")
    var thresholds: String?

    @Option(help: "The motion sampling rate (Hz) that was requested, when the run directory does not say.")
    var frequency: Double?

    @Flag(help: "Also write qc.json into the run directory.")
    var write = false

    func run() throws {
        let directory = URL(fileURLWithPath: runDirectory).standardizedFileURL
        do {
            let limits = try QualityThresholdsFile.load(thresholds)
            let report = try RunQuality.evaluate(runDirectory: directory, thresholds: limits, requestedFrequency: frequency)
            if write { try report.write(to: directory.appendingPathComponent(QualityReport.fileName)) }
            print(String(decoding: try report.encoded(), as: UTF8.self))
        } catch {
            FileHandle.standardError.write(Data("activetaskctl qc: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}

/// Reads `--thresholds FILE`: a JSON object of `QualityThresholds` keys; absent keys keep their defaults.
enum QualityThresholdsFile {
    static func load(_ path: String?) throws -> QualityThresholds {
        guard let path else { return QualityThresholds() }
        do {
            return try JSONDecoder().decode(QualityThresholds.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw QualityError(path: path, reason: "The thresholds file is not a JSON object of quality thresholds (\(error)); see docs/quality.md.")
        }
    }
}

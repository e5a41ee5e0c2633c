import ArgumentParser
import Foundation
import Quality
import RunReport

/// `activetaskctl report RUN [--output FILE.html]`: writes a run's report, one self-contained
/// HTML file a coordinator opens in a browser (docs/quality.md). No daemon needed.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a run's report (HTML with plots, timeline and quality checks) and print its path.")

    @Argument(help: ArgumentHelp("The run directory (holding taskResult.json and the recorder files).", valueName: "run"))
    var runDirectory: String

    @Option(help: "The HTML file to write (default: RUN/report.html).")
    var output: String?

    @Option(help: "A JSON file of quality thresholds (any subset of the keys in docs/quality.md).")
    var thresholds: String?

    func run() throws {
        let directory = URL(fileURLWithPath: runDirectory).standardizedFileURL
        do {
            let limits = try QualityThresholdsFile.load(thresholds)
            let written = try RunReportWriter.write(
                runDirectory: directory, to: output.map { URL(fileURLWithPath: $0).standardizedFileURL }, thresholds: limits)
            print(written.path)
        } catch {
            FileHandle.standardError.write(Data("activetaskctl report: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}

import Foundation
import Testing
import TestSupport

extension WebBrowserTests {
    /// The folders of the corpus whose task files (and the sections and transforms they load by
    /// name) go flat into the daemon's task directory.
    static let corpusFolders = [
        Fixtures.motorControl, Fixtures.catalog, "SageResearch/RSDTest/RSDTest/", "SageResearch/Research/ResearchTests/Resources/",
        "CardiorespiratoryFitness-iOS/CardiorespiratoryFitness/CardiorespiratoryFitness/Swift/iOS/Resources/Base.lproj/",
        "CardiorespiratoryFitness-iOS/CRFHeartRate/CRFHeartRate/",
    ]

    /// `ACTIVETASK_WEB_CORPUS`: `all`, or the task files to do (comma-separated); unset, the
    /// test is skipped: the whole corpus takes about 17 minutes of real time, so it is run by
    /// hand (docs/kiosk.md, "Tests"), not in every test pass.
    static let corpusSelection = ProcessInfo.processInfo.environment["ACTIVETASK_WEB_CORPUS"]

    @Test("Every task of the SageResearch corpus is done on the kiosk UI by touch alone, from the home screen to \"Done\", at 800×480",
          .enabled(if: Fixtures.available, "The SageResearch corpus (../shared/fixtures/sage) is absent: the corpus on the kiosk is skipped."),
          .enabled(if: WebBrowserTests.corpusSelection != nil,
                   "The whole corpus on the kiosk takes about 17 minutes: set ACTIVETASK_WEB_CORPUS=all (or a list of task files) to run it."))
    func corpusByTouch() async throws {
        var tasks: [String: Data] = [:]
        for folder in Self.corpusFolders {
            let directory = URL(fileURLWithPath: Fixtures.path(folder))
            for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) where file.hasSuffix(".json") {
                tasks[file] = try Data(contentsOf: directory.appendingPathComponent(file))
            }
        }
        let all = WholeTaskTests.corpusTasks.map { ($0 as NSString).lastPathComponent }
        let files = Self.corpusSelection == "all" ? all : (Self.corpusSelection ?? "").split(separator: ",").map(String.init)
        #expect(!files.isEmpty && files.allSatisfy(all.contains), "ACTIVETASK_WEB_CORPUS names no corpus task: \(files); they are \(all)")
        let browser = try await BrowserRun("webcorpus", tasks: tasks)
        let output = try await browser.runScript("browser_corpus.py", [browser.shots.path] + files)
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)\n\(browser.web.process.output)")
        await browser.stop()
    }
}

import Foundation
import Testing
import TestSupport

extension WebBrowserTests {
    @Test("The UI's words in German with ?lang=de or a German browser, kept across a reload; English otherwise; every language file complete")
    func language() async throws {
        let browser = try await BrowserRun("weblang", tasks: ["ShortWalk.json": Data(Self.task.utf8)])
        let output = try await browser.runScript("browser_language.py", ["ShortWalk.json"])
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)\n\(browser.web.process.output)")
        await browser.stop()
    }
}

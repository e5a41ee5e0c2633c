import Foundation
import Testing
import Upload

@Suite("ObjectKeyTemplate")
struct ObjectKeyTemplateTests {
    static let entry = OutboxEntry(taskRunUUID: UUID(uuidString: "0F8E2A4C-1111-4222-8333-944455556666")!, taskIdentifier: "Tapping/Left",
                                   archive: "runs/x/x.zip", size: 10, finishReason: "completed", endDate: "2026-11-25T21:30:00Z")

    @Test("Templates fill their placeholders; a / inside a value does not add a level", arguments: [
        (ObjectKeyTemplate.defaultTemplate, "mPower/tablet-07/2026-11-25/Tapping_Left/0F8E2A4C-1111-4222-8333-944455556666.zip"),
        ("{taskRunUUID}.zip", "0F8E2A4C-1111-4222-8333-944455556666.zip"),
        ("raw/{date}/{taskRunUUID}", "raw/2026-11-25/0F8E2A4C-1111-4222-8333-944455556666"),
    ])
    func keys(_ template: String, _ expected: String) throws {
        #expect(try ObjectKeyTemplate(template).key(for: Self.entry, study: "mPower", device: "tablet-07") == expected)
    }

    @Test("Templates that would lose runs or name unknown placeholders are refused", arguments: [
        "{study}/{device}.zip", "{study}/{taskRunUUID}/{run}.zip", "{study/{taskRunUUID}", "{taskRunUUID}}", "/{taskRunUUID}.zip",
    ])
    func refused(_ template: String) {
        #expect(throws: ObjectKeyTemplate.Problem.self) { try ObjectKeyTemplate(template) }
    }
}

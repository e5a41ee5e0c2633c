import Foundation

/// Locates SageResearch's corpus at `../shared/fixtures/sage` beside the package root.
enum Fixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `../shared/fixtures/sage`; `ACTIVETASK_SHARED_FIXTURES` (a `fixtures` directory) overrides
    /// it for checkouts that do not sit beside `shared` (git worktrees).
    static let sage: URL = {
        if let override = ProcessInfo.processInfo.environment["ACTIVETASK_SHARED_FIXTURES"], !override.isEmpty {
            return URL(fileURLWithPath: override).appendingPathComponent("sage")
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures/sage")
    }()
    /// False in a clone with nothing beside it: the corpus tests then report themselves skipped.
    static let available = FileManager.default.fileExists(atPath: sage.path)

    static func path(_ relative: String) -> String {
        sage.appendingPathComponent(relative).path
    }

    static let motorControl = "MotorControl-iOS/MotorControlV1/MotorControl/MCTResources/Resources/"
    static let catalog = "SageResearch/RSDCatalog/RSDCatalog/JSON Files/"
    static let mpd = "MobilePassiveData-SDK/shared_resources/tests/Json/"
}

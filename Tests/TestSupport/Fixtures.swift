public import Foundation

/// Locates SageResearch's corpus at `../shared/fixtures/sage` beside the package root.
public enum Fixtures {
    /// The package root (see `PackagePaths.root`).
    public static let packageRoot = PackagePaths.root
    /// `../shared/fixtures/sage`; `ACTIVETASK_SHARED_FIXTURES` (a `fixtures` directory) overrides
    /// it for checkouts that do not sit beside `shared` (git worktrees).
    public static let sage: URL = {
        if let override = ProcessInfo.processInfo.environment["ACTIVETASK_SHARED_FIXTURES"], !override.isEmpty {
            return URL(fileURLWithPath: override).appendingPathComponent("sage")
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures/sage")
    }()
    /// False in a clone with nothing beside it: the corpus tests then report themselves skipped.
    public static let available = FileManager.default.fileExists(atPath: sage.path)

    /// The path of `relative` inside the corpus.
    public static func path(_ relative: String) -> String {
        sage.appendingPathComponent(relative).path
    }

    /// MotorControl's task JSON, relative to `sage`.
    public static let motorControl = "MotorControl-iOS/MotorControlV1/MotorControl/MCTResources/Resources/"
    /// RSDCatalog's task JSON, relative to `sage`.
    public static let catalog = "SageResearch/RSDCatalog/RSDCatalog/JSON Files/"
    /// MobilePassiveData's shared test JSON (recorder configurations and records), relative to `sage`.
    public static let mpd = "MobilePassiveData-SDK/shared_resources/tests/Json/"
}

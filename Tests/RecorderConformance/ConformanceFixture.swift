// Compiled only where Swift Testing is (not in the static install build): see
// AsyncActionConformance.swift.
#if canImport(Testing)
public import AsyncActions
public import Foundation

/// One controller under the conformance suite: how to make it for each device behaviour.
public struct ConformanceFixture: Sendable {
    /// What the device does.
    public enum Scenario: String, Sendable, CaseIterable {
        /// Opens, records and stops normally.
        case healthy
        /// Cannot be opened (the permission check fails).
        case failsPermission
        /// Fails by itself soon after it started.
        case failsWhileRecording
        /// Fails exactly when it is being stopped.
        case failsOnStop
        /// Never answers when opened.
        case hangsOnOpen
        /// Never returns when stopped.
        case hangsOnStop
    }

    /// A controller, with what the test does to its device at the scenario's moments: after the
    /// recording started (`afterStart`, for `failsWhileRecording` when the fault must come from
    /// outside), just before it is stopped and while the stop runs (`beforeStop`,
    /// `whileStopping`, for `failsOnStop` likewise), and what releases a device the test left
    /// hanging.
    public struct Made: Sendable {
        public var controller: any AsyncActionController
        public var afterStart: @Sendable () async -> Void
        public var beforeStop: @Sendable () async -> Void
        public var whileStopping: @Sendable () async -> Void
        public var release: @Sendable () async -> Void

        public init(
            _ controller: any AsyncActionController, afterStart: @escaping @Sendable () async -> Void = {},
            beforeStop: @escaping @Sendable () async -> Void = {}, whileStopping: @escaping @Sendable () async -> Void = {},
            release: @escaping @Sendable () async -> Void = {}
        ) {
            self.controller = controller
            self.afterStart = afterStart
            self.beforeStop = beforeStop
            self.whileStopping = whileStopping
            self.release = release
        }
    }

    /// The fixture's name in messages.
    public var name: String
    /// The scenarios this fixture can reproduce with a real component. The checks that need
    /// another one are not run on it: its tests list them as skipped, with the reason.
    public var scenarios: Set<Scenario>
    /// The files a healthy recording under `baseName` writes, relative to the run directory.
    public var fileNames: @Sendable (_ baseName: String) -> [String]
    /// How long a healthy recording runs before it is stopped.
    public var recordingTime: Duration
    /// The deadlines the fixture gives its controllers (open and stop).
    public var deadline: Duration
    /// Makes a controller for `scenario` writing to `output`.
    public var make: @Sendable (_ scenario: Scenario, _ output: RecorderOutput, _ shouldDeletePrevious: Bool) async throws -> Made

    public init(
        name: String, scenarios: Set<Scenario>, fileNames: @escaping @Sendable (String) -> [String],
        recordingTime: Duration = .milliseconds(300), deadline: Duration = .seconds(1),
        make: @escaping @Sendable (Scenario, RecorderOutput, Bool) async throws -> Made
    ) {
        self.name = name
        self.scenarios = scenarios
        self.fileNames = fileNames
        self.recordingTime = recordingTime
        self.deadline = deadline
        self.make = make
    }

    /// The checks this fixture reproduces, for a parameterized test's arguments.
    public var checks: [AsyncActionConformance.Check] {
        AsyncActionConformance.Check.allCases.filter { $0.scenarios.isSubset(of: scenarios) }
    }

    /// The checks this fixture cannot reproduce, for a disabled test that names the reason.
    public var unreproducibleChecks: [AsyncActionConformance.Check] {
        AsyncActionConformance.Check.allCases.filter { !$0.scenarios.isSubset(of: scenarios) }
    }
}
#endif

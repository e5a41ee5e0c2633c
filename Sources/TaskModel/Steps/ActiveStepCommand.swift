/// A `commands` entry of an active or countdown step, with SageResearch's names; unknown
/// commands are kept and handed to the front end.
public struct ActiveStepCommand: ExtensibleName {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static let playSoundOnStart = ActiveStepCommand(rawValue: "playSoundOnStart")
    public static let playSoundOnFinish = ActiveStepCommand(rawValue: "playSoundOnFinish")
    public static let playSound = ActiveStepCommand(rawValue: "playSound")
    public static let vibrateOnStart = ActiveStepCommand(rawValue: "vibrateOnStart")
    public static let vibrateOnFinish = ActiveStepCommand(rawValue: "vibrateOnFinish")
    public static let vibrate = ActiveStepCommand(rawValue: "vibrate")
    public static let transitionAutomatically = ActiveStepCommand(rawValue: "transitionAutomatically")
    public static let startTimerAutomatically = ActiveStepCommand(rawValue: "startTimerAutomatically")
    public static let continueOnFinish = ActiveStepCommand(rawValue: "continueOnFinish")
    public static let shouldDisableIdleTimer = ActiveStepCommand(rawValue: "shouldDisableIdleTimer")
    public static let speakWarningOnPause = ActiveStepCommand(rawValue: "speakWarningOnPause")
}

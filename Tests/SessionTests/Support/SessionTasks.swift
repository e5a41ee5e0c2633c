import Foundation
import TestSupport

/// Small tasks of the project's own, in SageResearch's format, written where a test wants them.
enum SessionTasks {
    /// A walk section (motion from its countdown to the end of its active step) and a task-level
    /// microphone kept as audio, then a completion step.
    static let shortWalk = """
    {
        "identifier": "ShortWalk",
        "type": "motionTask",
        "asyncActions": [
            { "identifier": "roomSound", "type": "microphone", "saveAudioFile": true,
              "startStepIdentifier": "walk", "stopStepIdentifier": "walk" }
        ],
        "steps": [
            { "identifier": "overview", "type": "overview", "title": "Walk a little",
              "permissions": [ { "permissionType": "motion", "title": "Motion", "reason": "To measure your walk." },
                               { "permissionType": "microphone", "title": "Microphone", "reason": "To hear the room." } ] },
            { "identifier": "walk", "type": "section",
              "asyncActions": [
                  { "identifier": "motion", "type": "motion", "stopStepIdentifier": "walking",
                    "recorderTypes": ["accelerometer", "gyro", "userAcceleration"], "frequency": 100 }
              ],
              "steps": [
                  { "identifier": "instructions", "type": "instruction", "title": "Put the device in your pocket" },
                  { "identifier": "countdown", "type": "countdown", "duration": 2, "commands": ["playSoundOnStart"],
                    "spokenInstructions": { "start": "Get ready." } },
                  { "identifier": "walking", "type": "active", "duration": 3,
                    "commands": ["transitionAutomatically", "playSoundOnFinish", "vibrate"],
                    "spokenInstructions": { "start": "Walk now.", "2": "One more second.", "end": "Stop walking." } }
              ] },
            { "identifier": "done", "type": "completion", "title": "Done" }
        ]
    }
    """

    /// Writes `json` as `name.json` in `directory` and returns its path.
    static func write(_ json: String, name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent("\(name).json")
        try json.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}

extension SessionTasks {
    /// Navigation and refusals: an instruction step with sound and vibration commands, an
    /// unsupported `distance` action and a microphone (permission asked), a section with a motion recorder, a manual-timer active step and a step that
    /// hides the back action.
    /// The navigation task's timed step: 2 s, times `TestTiming.scale` under a sanitizer, where
    /// starting the section's recorders (the timer counts from the start command) took more than
    /// 2 s beside two busy loops, and a pause sent right after the start found the timer ended.
    static let timedSeconds = Int(2 * TestTiming.scale)

    static let navigation = """
    {
        "identifier": "Nav",
        "asyncActions": [
            { "identifier": "distance", "type": "distance" },
            { "identifier": "roomSound", "type": "microphone", "startStepIdentifier": "sec" }
        ],
        "steps": [
            { "identifier": "intro", "type": "instruction", "title": "Hello", "commands": ["playSound", "vibrateOnStart"] },
            { "identifier": "sec", "type": "section",
              "asyncActions": [ { "identifier": "motion", "type": "motion", "frequency": 50 } ],
              "steps": [
                  { "identifier": "a", "type": "instruction", "title": "A" },
                  { "identifier": "timed", "type": "active", "duration": \(timedSeconds), "commands": ["speakWarningOnPause"] },
                  { "identifier": "b", "type": "instruction", "title": "B", "shouldHideActions": ["goBackward", "skip"] }
              ] },
            { "identifier": "done", "type": "completion", "title": "Done" }
        ]
    }
    """
}

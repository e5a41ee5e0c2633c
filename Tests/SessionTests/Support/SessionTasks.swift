import Foundation

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

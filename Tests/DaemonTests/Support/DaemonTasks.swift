/// Short tasks of these tests' own, in SageResearch's format.
enum DaemonTasks {
    /// An overview, a walk section (motion at 100 Hz from its 1 s countdown to the end of a
    /// `walking`-second active step that moves on by itself), a task-level microphone over the
    /// section, and a completion step.
    static func walk(_ identifier: String = "DaemonWalk", walking: Int = 2) -> String {
        """
        {
            "identifier": "\(identifier)",
            "type": "motionTask",
            "asyncActions": [
                { "identifier": "roomSound", "type": "microphone", "saveAudioFile": true,
                  "startStepIdentifier": "walk", "stopStepIdentifier": "walk" }
            ],
            "steps": [
                { "identifier": "overview", "type": "overview", "title": "Walk a little", "text": "Put the device in your pocket." },
                { "identifier": "walk", "type": "section",
                  "asyncActions": [
                      { "identifier": "motion", "type": "motion", "stopStepIdentifier": "walking",
                        "recorderTypes": ["accelerometer", "gyro", "userAcceleration"], "frequency": 100 }
                  ],
                  "steps": [
                      { "identifier": "countdown", "type": "countdown", "duration": 1 },
                      { "identifier": "walking", "type": "active", "duration": \(walking),
                        "commands": ["transitionAutomatically"], "spokenInstructions": { "start": "Walk now." } }
                  ] },
                { "identifier": "done", "type": "completion", "title": "Done" }
            ]
        }
        """
    }

    /// Motion at 100 Hz over a `walking`-second active step that waits for the front end to go
    /// forward when its timer ends, then an instruction step and a completion step.
    static func manualWalk(_ identifier: String = "ManualWalk", walking: Int) -> String {
        """
        {
            "identifier": "\(identifier)",
            "asyncActions": [
                { "identifier": "motion", "type": "motion", "startStepIdentifier": "walking", "stopStepIdentifier": "walking",
                  "recorderTypes": ["accelerometer", "gyro"], "frequency": 100 },
                { "identifier": "roomSound", "type": "microphone", "saveAudioFile": true,
                  "startStepIdentifier": "walking", "stopStepIdentifier": "walking" }
            ],
            "steps": [
                { "identifier": "intro", "type": "instruction", "title": "Hello walker", "text": "Read this first." },
                { "identifier": "walking", "type": "active", "duration": \(walking), "title": "Walking",
                  "commands": ["startTimerAutomatically"] },
                { "identifier": "rest", "type": "instruction", "title": "Rest" },
                { "identifier": "done", "type": "completion", "title": "Done" }
            ]
        }
        """
    }

    /// A section named like the CardiorespiratoryFitness heart rate section whose microphone and
    /// motion identifiers are long enough for MobilePassiveData's 24-character cut: the files are
    /// `heart_rate_microphoneRec.wav`, its levels `heart_rate_microphoneRec.json` and the motion
    /// `heart_rate_motion_record.json` (docs/async-actions.md, "File names").
    static func heartRate(_ identifier: String = "HeartRateNames") -> String {
        """
        {
            "identifier": "\(identifier)",
            "steps": [
                { "identifier": "intro", "type": "instruction", "title": "Sit still" },
                { "identifier": "heart_rate", "type": "section",
                  "asyncActions": [
                      { "identifier": "microphoneRecorder", "type": "microphone", "saveAudioFile": true },
                      { "identifier": "motion.record", "type": "motion", "recorderTypes": ["accelerometer"], "frequency": 50 }
                  ],
                  "steps": [
                      { "identifier": "capture", "type": "active", "duration": 1, "commands": ["transitionAutomatically"] }
                  ] },
                { "identifier": "done", "type": "completion", "title": "Done" }
            ]
        }
        """
    }
}

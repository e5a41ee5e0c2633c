import Session

/// The checks settings must pass, each returning the sentence that says what is allowed.
enum SettingChecks {
    static func absolutePath(_ what: String) -> (String) -> String? {
        { path in
            path.hasPrefix("/") && !path.contains("\0") ? nil
                : "The \(what) must be an absolute path (starting with /); \"\(path)\" is not."
        }
    }

    /// A Unix socket path must fit sun_path (108 bytes with its terminating zero).
    static func socketPath(_ path: String) -> String? {
        if let complaint = absolutePath("control socket")(path) { return complaint }
        let length = path.utf8.count
        return length <= 107 ? nil
            : "The control socket path is \(length) bytes long; Unix socket paths may be at most 107 bytes. Choose a shorter path."
    }

    static let iioSchemes = ["local:", "ip:", "usb:", "serial:", "sim:"]

    static func iioURI(_ uri: String) -> String? {
        iioSchemes.contains(where: uri.hasPrefix) ? nil
            : "The IIO URI \"\(uri)\" is not one activetaskd can open; use local: (this machine's sensors), ip:HOST (iiod on another board; the unit then needs the network drop-in), usb:…, serial:… or sim: (the built-in simulated IMU)."
    }

    static func alsaDevice(_ which: String) -> (String) -> String? {
        { name in
            !name.isEmpty && !name.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 32 } == true }) ? nil
                : "The ALSA \(which) device must be a PCM name such as default, plughw:CARD=Device,DEV=0 or a name from asound.conf, without spaces; \"\(name)\" is not."
        }
    }

    static func voiceName(_ name: String) -> String? {
        !name.isEmpty && name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-+_/".contains($0)) }) ? nil
            : "The voice must be an espeak-ng voice name such as en, en-us or en+f3 (espeak-ng --voices lists them); \"\(name)\" is not."
    }

    static func wordsPerMinute(_ rate: Int) -> String? {
        VoiceSettings.wordsPerMinuteRange.contains(rate) ? nil
            : "The speaking rate must be between \(VoiceSettings.wordsPerMinuteRange.lowerBound) and \(VoiceSettings.wordsPerMinuteRange.upperBound) words per minute; \(rate) is not."
    }

    static func clipDirectory(_ path: String) -> String? {
        path.isEmpty ? nil : absolutePath("recorded clip directory")(path)
    }

    static func notNegative(_ what: String) -> (Double) -> String? {
        { value in value >= 0 && value.isFinite ? nil : "The \(what) must be 0 (no limit) or more; \(value) is not." }
    }

    static let syncIntervalRange = 0.05...60.0

    static func syncInterval(_ seconds: Double) -> String? {
        syncIntervalRange.contains(seconds) ? nil
            : "The fsync interval must be between \(syncIntervalRange.lowerBound) and \(syncIntervalRange.upperBound) seconds (it bounds what a power cut loses); \(seconds) is not."
    }

    /// SCHED_FIFO's priorities, and 0 for none.
    static let realTimePriorityRange = 0...99

    static func realTimePriority(_ priority: Int) -> String? {
        realTimePriorityRange.contains(priority) ? nil
            : "The real-time priority must be between 0 (none) and 99 (the voice playback thread asks for it, the capture thread for one less, where the service allows real time); \(priority) is not."
    }

    static func gyroDelay(_ seconds: Double) -> String? {
        let range = MotionSettings.gyroDelayRange
        return range.contains(seconds) ? nil
            : "The gyro delay must be between \(range.lowerBound) and \(range.upperBound) seconds (how long this device's gyroscope lags its accelerometer, a fraction of a sample; docs/fusion.md says how to measure it); \(seconds) is not."
    }

    static func permissionPolicy(_ text: String) -> String? {
        PermissionDecision(rawValue: text) != nil ? nil
            : "The permission policy must be granted, denied or ask; \"\(text)\" is not."
    }
}

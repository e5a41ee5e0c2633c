import Foundation

/// The checks of one microphone recording (its WAV and/or levels file): duration against the
/// recording's span, overruns, level statistics, silence and clipping (docs/quality.md).
enum AudioChecks {
    /// One recorder's files.
    struct Recording {
        var identifier: String
        var wav: RecordedFile?
        var levels: RecordedFile?
        var any: RecordedFile { (wav ?? levels)! }
    }

    static func recordings(_ files: [RecordedFile]) -> [Recording] {
        var byIdentifier: [String: Recording] = [:]
        var order: [String] = []
        for file in files where file.kind == .audio || file.kind == .audioLevels {
            let identifier = file.recorderIdentifier
            if byIdentifier[identifier] == nil {
                order.append(identifier)
                byIdentifier[identifier] = Recording(identifier: identifier)
            }
            if file.kind == .audio { byIdentifier[identifier]!.wav = file } else { byIdentifier[identifier]!.levels = file }
        }
        return order.map { byIdentifier[$0]! }
    }

    static func evaluate(_ recording: Recording, contents: RunContents, thresholds: QualityThresholds) throws -> [QualityCheck] {
        let id = recording.identifier
        let levels = try recording.levels.map { try AudioLevelRecord.read(from: contents.url(of: $0)) } ?? []
        let scan = try recording.wav.map { try WAVSampleScan.scan(contents.url(of: $0)) }
        let audioSeconds = scan?.duration ?? levels.reduce(0) { $0 + $1.timeInterval }
        var checks: [QualityCheck] = []

        // Duration against the span the recorder ran.
        if let expected = (recording.wav ?? recording.levels)?.wallDuration {
            let short = max(0, expected - audioSeconds)
            let verdict = QualityVerdict.grading(short, warning: thresholds.audioDurationWarningSeconds, failed: thresholds.audioDurationFailedSeconds)
            checks.append(QualityCheck(
                identifier: id, check: "duration", verdict: verdict,
                message: verdict == .ok
                    ? "\(Format.seconds(audioSeconds)) of audio for the \(Format.seconds(expected)) the microphone ran."
                    : "Only \(Format.seconds(audioSeconds)) of audio for the \(Format.seconds(expected)) the microphone ran: \(Format.seconds(short)) are missing.",
                figures: ["audioSeconds": .number(audioSeconds), "expectedSeconds": .number(expected), "shortSeconds": .number(short)]))
        } else {
            checks.append(QualityCheck(identifier: id, check: "duration", verdict: audioSeconds > 0 ? .ok : .failed,
                                       message: "\(Format.seconds(audioSeconds)) of audio.", figures: ["audioSeconds": .number(audioSeconds)]))
        }

        // Overruns, from the notes the recorder wrote ("overrun of 0.412 s at monotonic …").
        let overruns = Self.overruns(recording.any.notes)
        let lost = overruns.reduce(0, +)
        let overrunVerdict: QualityVerdict = lost >= thresholds.overrunFailedSeconds ? .failed : lost > thresholds.overrunWarningSeconds ? .warning : .ok
        checks.append(QualityCheck(
            identifier: id, check: "overruns", verdict: overruns.isEmpty ? .ok : overrunVerdict,
            message: overruns.isEmpty
                ? "The audio stream never broke."
                : "The audio stream broke \(overruns.count) time(s); \(Format.seconds(lost)) were filled with silence.",
            figures: ["count": .number(Double(overruns.count)), "totalSeconds": .number(lost)]))

        // Level statistics and silence, from the one-second levels.
        if levels.isEmpty {
            checks.append(QualityCheck(identifier: id, check: "levels", verdict: .failed,
                                       message: "No audio levels were recorded: the microphone delivered nothing.", figures: ["seconds": 0]))
        } else {
            let power = levels.reduce(0) { $0 + pow(10, $1.average / 10) } / Double(levels.count)
            let average = power > 0 ? max(10 * log10(power), -160) : -160
            let peak = levels.map(\.peak).max() ?? -160
            let quietest = levels.map(\.average).min() ?? -160
            checks.append(QualityCheck(
                identifier: id, check: "levels", verdict: .ok,
                message: "Average level \(Format.decibels(average)), loudest peak \(Format.decibels(peak)), quietest second \(Format.decibels(quietest)).",
                figures: ["averageDBFS": .number(average), "peakDBFS": .number(peak), "quietestDBFS": .number(quietest), "seconds": .number(Double(levels.count))]))
            let silent = levels.filter { $0.average <= thresholds.silenceLevelDBFS }.reduce(0) { $0 + $1.timeInterval }
            let total = levels.reduce(0) { $0 + $1.timeInterval }
            let fraction = total > 0 ? silent / total : 0
            let verdict = QualityVerdict.grading(fraction, warning: thresholds.silenceWarningFraction, failed: thresholds.silenceFailedFraction)
            checks.append(QualityCheck(
                identifier: id, check: "silence", verdict: verdict,
                message: verdict == .failed
                    ? "The microphone recorded silence for \(Format.percent(fraction)) of the time: it is dead, muted or disconnected, so this recording must be repeated."
                    : verdict == .warning
                        ? "The microphone recorded silence for \(Format.percent(fraction)) of the time; check that it was not muted or covered."
                        : "Sound was recorded (\(Format.seconds(silent)) silent out of \(Format.seconds(total))).",
                figures: ["silentSeconds": .number(silent), "fraction": .number(fraction), "levelDBFS": .number(thresholds.silenceLevelDBFS)]))
        }

        // Clipping: from the samples when the WAV was kept, else from the peaks.
        if let scan {
            let fraction = scan.samples > 0 ? Double(scan.clippedSamples) / Double(scan.samples) : 0
            let verdict = QualityVerdict.grading(fraction, warning: thresholds.audioClippingWarningFraction, failed: thresholds.audioClippingFailedFraction)
            checks.append(QualityCheck(
                identifier: id, check: "clipping", verdict: scan.clippedSamples == 0 ? .ok : verdict,
                message: scan.clippedSamples == 0
                    ? "No audio sample reached full scale."
                    : "\(scan.clippedSamples) audio samples (\(Format.percent(fraction))) sat at full scale: the input was too loud and the sound is distorted.",
                figures: ["clippedSamples": .number(Double(scan.clippedSamples)), "fraction": .number(fraction)]))
        } else if !levels.isEmpty {
            let clippedSeconds = levels.filter { $0.peak >= -0.1 }.count
            let fraction = Double(clippedSeconds) / Double(levels.count)
            let verdict: QualityVerdict = clippedSeconds == 0 ? .ok : fraction >= 0.1 ? .failed : .warning
            checks.append(QualityCheck(
                identifier: id, check: "clipping", verdict: verdict,
                message: clippedSeconds == 0
                    ? "No second peaked at full scale."
                    : "\(clippedSeconds) second(s) peaked at full scale: the input was probably too loud.",
                figures: ["clippedSeconds": .number(Double(clippedSeconds)), "fraction": .number(fraction)]))
        }
        return checks
    }

    /// Seconds of each break the notes report (`<reason> of <seconds> s at …`).
    static func overruns(_ notes: [String]) -> [Double] {
        notes.compactMap { note in
            guard let of = note.range(of: " of "), note.contains(" s at "), note.contains("filled with silence") else { return nil }
            return Double(note[of.upperBound...].prefix { $0.isNumber || $0 == "." })
        }
    }
}

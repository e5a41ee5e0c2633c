/// Whether spoken prompts were heard when they were due (docs/quality.md).
enum PromptChecks {
    static func evaluate(_ prompts: [PromptRecord], thresholds: QualityThresholds) -> QualityCheck {
        let spoken = prompts.filter { $0.spokenUptime != nil }
        let never = prompts.count - spoken.count
        let late = spoken.filter { ($0.lateness ?? 0) >= thresholds.promptLateWarningSeconds }
        let latest = spoken.max { ($0.lateness ?? 0) < ($1.lateness ?? 0) }
        let maxLate = max(latest?.lateness ?? 0, 0)
        var figures: [String: QualityFigure] = [
            "count": .number(Double(prompts.count)), "lateCount": .number(Double(late.count)),
            "neverSpoken": .number(Double(never)), "maxLateSeconds": .number(maxLate),
        ]
        var verdict = QualityVerdict.grading(maxLate, warning: thresholds.promptLateWarningSeconds, failed: thresholds.promptLateFailedSeconds)
        if never > 0 { verdict = .failed }
        var message: String
        if let latest, maxLate >= thresholds.promptLateWarningSeconds {
            figures["latestText"] = .text(latest.text)
            figures["latestStepPath"] = .text(latest.stepPath)
            message = "\(late.count) of \(prompts.count) prompts were spoken late; the latest, \"\(latest.text)\" in \"\(latest.stepPath)\", \(Format.seconds(maxLate)) after its time, so the participant may have acted late."
        } else {
            message = "All \(spoken.count) prompts were spoken on time (at most \(Format.seconds(maxLate)) late)."
        }
        if never > 0 { message += " \(never) prompt(s) were never spoken." }
        return QualityCheck(identifier: "prompts", check: "late", verdict: verdict, message: message, figures: figures)
    }
}

/// Recorders that failed during the run: every error result fails the run, except a recorder
/// this device cannot have at all (docs/quality.md): doing the task again would not bring its
/// data, so the run is kept with a warning that says so instead of asking for a repeat.
enum ControllerChecks {
    /// The error result of a controller the device does not support: `AsyncActionError`'s
    /// `unsupported` (docs/async-actions.md, "Exactly one error result").
    static func isUnsupported(_ failure: ControllerFailure) -> Bool {
        failure.errorDomain == "AsyncActionError" && failure.errorCode == 5
    }

    static func evaluate(_ failures: [ControllerFailure]) -> [QualityCheck] {
        guard !failures.isEmpty else {
            return [QualityCheck(identifier: "controllers", check: "controllerFailure", verdict: .ok,
                                 message: "No recorder failed.", figures: ["count": 0])]
        }
        return failures.map { failure in
            var figures: [String: QualityFigure] = ["count": .number(Double(failures.count))]
            if let domain = failure.errorDomain { figures["errorDomain"] = .text(domain) }
            if let code = failure.errorCode { figures["errorCode"] = .number(Double(code)) }
            let recorder = failure.identifier.hasSuffix("_error") ? String(failure.identifier.dropLast("_error".count)) : failure.identifier
            let (verdict, message): (QualityVerdict, String) = isUnsupported(failure)
                ? (.warning, "This device cannot record \"\(recorder)\", so the run has none of its data; doing the task again will not change that: \(failure.errorDescription)")
                : (.failed, "The \"\(recorder)\" recorder failed during the run: \(failure.errorDescription)")
            return QualityCheck(identifier: failure.identifier, check: "controllerFailure", verdict: verdict, message: message, figures: figures)
        }
    }
}

/// Recorders that failed during the run: every error result fails the run (docs/quality.md).
enum ControllerChecks {
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
            return QualityCheck(identifier: failure.identifier, check: "controllerFailure", verdict: .failed,
                                message: "The \"\(recorder)\" recorder failed during the run: \(failure.errorDescription)", figures: figures)
        }
    }
}

import Clocks
import ControlProtocol
import Foundation
import TaskModel

/// `run.forward`'s `result` (docs/protocol.md, "Results from the front end"): a result the front
/// end made for the step being left, decoded, checked against that step and mapped onto the
/// recorder files' clock before the session records it.
extension DaemonHost {
    /// The result `json` for the step at `stepPath`, checked; its samples' `uptime` is the
    /// touch on the recorder files' uptime clock (the result's start date on that clock plus
    /// the sample's `timestamp`). Throws -32602 with `data.codingPath` (`result.…`) when the
    /// result does not fit.
    static func frontEndResult(_ json: JSONValue, forStep stepPath: String) throws(ControlError) -> TappingResult {
        let type = json.objectValue?["type"]?.stringValue
        guard type == ResultType.tapping.rawValue else {
            throw invalidResult("result.type", "the daemon knows results of type \"tapping\" only, not \(type.map { "\"\($0)\"" } ?? "a result without a type"); send answers for other steps.")
        }
        let result: TappingResult
        do {
            result = try ResultCoding.makeDecoder().decode(TappingResult.self, from: try JSONEncoder().encode(json))
        } catch let error as DecodingError {
            let (path, reason) = error.controlDescription
            throw invalidResult(CodingPath.join("result", path), reason)
        } catch {
            throw invalidResult("result", "\(error)")
        }
        let stepIdentifier = stepPath.split(separator: "/").last.map(String.init) ?? stepPath
        if let problem = result.problem(forStep: stepIdentifier) {
            throw invalidResult(CodingPath.join("result", problem.codingPath), problem.reason)
        }
        return mapped(result)
    }

    /// The result with each sample's `uptime` on the recorder clock: the front end shares the
    /// wall clock with the daemon (a local socket), so the start date converts, and `timestamp`
    /// (else the offset from the first sample's own uptime) adds the touch's time.
    static func mapped(_ result: TappingResult) -> TappingResult {
        var mapped = result
        let startUptime = RecordingClock.uptime() - Date().timeIntervalSince(result.startDate)
        let firstUptime = result.samples?.first?.uptime ?? 0
        mapped.samples = result.samples?.map { sample in
            var sample = sample
            let offset = sample.timestamp ?? (sample.uptime - firstUptime)
            sample.uptime = startUptime + offset
            return sample
        }
        return mapped
    }

    private static func invalidResult(_ codingPath: String, _ reason: String) -> ControlError {
        ControlError(.invalidParams, "The result of run.forward is not accepted at \(codingPath): \(reason)",
                     data: ControlErrorData(codingPath: codingPath, method: ControlMethods.runForward.name))
    }
}

import Foundation
import TaskModel

extension RunDirectory {
    /// Writes a front end's result to a file of its own, as MotorControl archives its tapping
    /// result (`left_tapping`, docs/protocol.md, "Results from the front end"), and returns its
    /// entry in the archive's metadata; a name already taken gets no second file.
    func writeFrontEndResult(_ result: TappingResult, at location: ResultTreeWalk.Location, taken: inout Set<String>) throws(RunStoreError) -> [RunMetadata.File] {
        let name = TappingResult.archiveFileName(identifier: result.identifier, stepPath: location.stepPath)
        guard taken.insert(name).inserted else { return [] }
        let file = url.appendingPathComponent(name)
        let data: Data
        do {
            data = try ResultCoding.makeEncoder().encode(result)
        } catch {
            throw RunStoreError("encode the \(result.identifier) result", path: file.path, reason: "\(error)")
        }
        try RunStoreFile.write(data, to: file, operation: "write the \(result.identifier) result")
        return [RunMetadata.File(filename: name, timestamp: result.startDate, contentType: "application/json",
                                 identifier: result.identifier, stepPath: location.stepPath)]
    }
}

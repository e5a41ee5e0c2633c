public import TaskModel
import Foundation

/// Turns a step's `spokenInstructions` table into timed prompts (docs/task-format.md, spoken instructions).
///
/// `start` is at 0 s, `halfway` at duration/2, a number string at that second, `end` at the
/// duration, and `countdown: "N"` puts the spelled number k ("ten" … "one") at duration − k for
/// k = N … 1, overriding anything else at those seconds. Nothing is scheduled past the duration
/// or before 0; a step without a duration (absent or 0) gets only its time-0 prompts. When two
/// keys land on the same second, the later one in this order wins: start, halfway, end, a
/// number string, countdown.
public enum SpokenInstructionSchedule {
    /// The prompts of `table` for a step lasting `duration` seconds, sorted by time.
    public static func entries(_ table: [String: String]?, duration: Double?) -> [SpokenInstruction] {
        guard let table, !table.isEmpty else { return [] }
        let length = duration.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        // time → (precedence, text, key)
        var chosen: [Double: (rank: Int, text: String, key: String)] = [:]
        func put(_ time: Double, _ rank: Int, _ text: String, _ key: String) {
            guard time >= 0, time.isFinite else { return }
            if let length { guard time <= length else { return } } else { guard time == 0 else { return } }
            if let existing = chosen[time], existing.rank > rank { return }
            chosen[time] = (rank, text, key)
        }
        for (key, text) in table.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "start":
                put(0, 0, text, key)
            case "halfway":
                if let length { put(length / 2, 1, text, key) }
            case "end":
                if let length { put(length, 2, text, key) }
            case "countdown":
                guard let length, let count = Int(text.trimmingCharacters(in: .whitespaces)), count > 0 else { continue }
                for k in stride(from: 1, through: min(count, Int(length.rounded(.down))), by: 1) {
                    put(length - Double(k), 4, SpelledNumber.string(k), "countdown-\(k)")
                }
            default:
                if let seconds = Double(key) { put(seconds, 3, text, key) }
            }
        }
        return chosen.map { SpokenInstruction(time: $0.key, text: $0.value.text, key: $0.value.key) }.sorted { $0.time < $1.time }
    }

    /// The prompts of `step`, using its timer length (countdowns default to 5 s).
    public static func entries(for step: Step) -> [SpokenInstruction] {
        entries(step.spokenInstructions, duration: step.effectiveDuration)
    }
}

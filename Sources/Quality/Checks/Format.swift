import Foundation

/// Numbers as the messages show them.
enum Format {
    static func seconds(_ value: Double) -> String { String(format: value < 10 ? "%.2f s" : "%.1f s", value) }
    static func hertz(_ value: Double) -> String { String(format: "%.1f Hz", value) }
    static func percent(_ fraction: Double) -> String { String(format: fraction < 0.1 ? "%.1f %%" : "%.0f %%", fraction * 100) }
    static func number(_ value: Double) -> String { String(format: "%.3g", value) }
    static func decibels(_ value: Double) -> String { String(format: "%.1f dBFS", value) }
}

/// The one line systemd shows for activetask-upload (`STATUS=`, `systemctl status`):
/// `3 waiting, uploading 1.5 of 4.0 MiB, 1 held`; with several uploads at once,
/// `2 waiting, uploading 3 (12 of 40 MiB), 0 held`.
public enum UploadStatusLine {
    /// The line for the queue's records and the bytes of the uploads under way.
    public static func text(records: [UploadQueue.Record], transfers: [UploadProgress.Transfer]) -> String {
        var waiting = 0, uploading = 0, held = 0
        for record in records {
            switch record.state {
            case .waiting: waiting += 1
            case .uploading: uploading += 1
            case .held: held += 1
            case .uploaded: break
            }
        }
        let sent = transfers.reduce(Int64(0)) { $0 + $1.sent }
        let total = transfers.reduce(Int64(0)) { $0 + $1.total }
        let bytes = amount(sent, of: total)
        let middle = switch uploading {
        case 0: "0 uploading"
        case 1 where !transfers.isEmpty: "uploading \(bytes)"
        default: transfers.isEmpty ? "\(uploading) uploading" : "uploading \(uploading) (\(bytes))"
        }
        return "\(waiting) waiting, \(middle), \(held) held"
    }

    /// `1.5 of 4.0 MiB`: both in the unit that suits the total, one decimal below ten.
    static func amount(_ sent: Int64, of total: Int64) -> String {
        let units: [(String, Double)] = [("GiB", 1_073_741_824), ("MiB", 1_048_576), ("KiB", 1024)]
        let (name, size) = units.first { Double(total) >= $0.1 } ?? ("bytes", 1)
        if size == 1 { return "\(sent) of \(total) bytes" }
        return "\(number(Double(sent) / size)) of \(number(Double(total) / size)) \(name)"
    }

    private static func number(_ value: Double) -> String {
        if value >= 10 { return String(Int(value.rounded())) }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

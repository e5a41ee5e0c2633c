import ControlChannel
import NIOCore

/// docs/protocol.md's framing, written plainly over the whole stream at once: the oracle the
/// incremental `ControlLineDecoder` is compared with, however the stream is cut into reads.
enum ReferenceFraming {
    enum Frame: Equatable {
        case line([UInt8])
        case oversized(Int)

        init(_ frame: ControlFrame) {
            switch frame {
            case .line(let buffer): self = .line(Array(buffer.readableBytesView))
            case .oversized(let length): self = .oversized(length)
            }
        }
    }

    /// One frame per `\n`-ended line (a `\r` before the `\n` removed), a line longer than
    /// `limit` as its length only, and a last line without `\n` when the stream ends in one.
    static func frames(of stream: [UInt8], limit: Int) -> [Frame] {
        var frames: [Frame] = []
        var start = 0
        for (index, byte) in stream.enumerated() where byte == UInt8(ascii: "\n") {
            var line = Array(stream[start..<index])
            if line.count > limit {
                frames.append(.oversized(line.count))
            } else {
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                frames.append(.line(line))
            }
            start = index + 1
        }
        let last = stream.count - start
        if last > limit {
            frames.append(.oversized(last))
        } else if last > 0 {
            frames.append(.line(Array(stream[start...])))
        }
        return frames
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Single key presses from standard input: the terminal in non-canonical, no-echo mode while
/// the interactive front end runs, read on a thread of its own (a blocking read never holds a
/// Swift concurrency thread). Every termios call is here.
final class TerminalKeys: Sendable {
    let keys: AsyncStream<UInt8>
    private let saved: termios?

    init() {
        var settings = termios()
        if isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &settings) == 0 {
            saved = settings
            var raw = settings
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
            tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        } else {
            saved = nil
        }
        let (keys, continuation) = AsyncStream.makeStream(of: UInt8.self)
        self.keys = keys
        let thread = Thread {
            var byte: UInt8 = 0
            while true {
                let count = read(STDIN_FILENO, &byte, 1)
                if count == 1 {
                    continuation.yield(byte)
                } else if count == 0 || (count < 0 && errno != EINTR) {
                    continuation.finish()
                    return
                }
            }
        }
        thread.start()
    }

    /// Puts the terminal back the way it was.
    func restore() {
        guard var settings = saved else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, &settings)
    }
}

extension termios: @retroactive @unchecked Sendable {}

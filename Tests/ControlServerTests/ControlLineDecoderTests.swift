import ControlChannel
import NIOCore
import NIOEmbedded
import Testing

@Suite struct ControlLineDecoderTests {
    private func frames(_ chunks: [String], maximumLength: Int = 8) throws -> [String] {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(ControlLineDecoder(maximumLength: maximumLength)))
        for chunk in chunks {
            try channel.writeInbound(NIOCore.ByteBuffer(string: chunk))
        }
        _ = try channel.finish(acceptAlreadyClosed: true)
        var result: [String] = []
        while let frame = try channel.readInbound(as: ControlFrame.self) {
            switch frame {
            case .line(let line): result.append(String(buffer: line))
            case .oversized(let length): result.append("<\(length)>")
            }
        }
        return result
    }

    static let cases: [(chunks: [String], frames: [String])] = [
        (["a\nbc\n"], ["a", "bc"]),
        (["a", "b", "c\n"], ["abc"]),
        (["ab\r\n"], ["ab"]),
        (["12345678\n"], ["12345678"]),
        (["123456789\nok\n"], ["<9>", "ok"]),
        (["12345", "67890", "123", "\nok\n"], ["<13>", "ok"]),
        (["1234567890123", "45\nnext"], ["<15>", "next"]),
        (["\n\n"], ["", ""]),
        (["last"], ["last"]),
    ]

    @Test(arguments: cases.indices)
    func splitsLinesAndDropsOverLongOnes(index: Int) throws {
        #expect(try frames(Self.cases[index].chunks) == Self.cases[index].frames)
    }
}

public import Foundation

/// JSON coders for results with SageResearch's conventions: ISO 8601 timestamps with
/// milliseconds and offset, slashes unescaped (step paths), keys sorted for stable files.
public enum ResultCoding {
    /// An encoder writing results (and anything else the run directory holds).
    public static func makeEncoder(prettyPrinted: Bool = true) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = Timestamp.encodingStrategy
        encoder.outputFormatting = prettyPrinted
            ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// A decoder reading results written by SageResearch or by `makeEncoder()`.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = Timestamp.decodingStrategy
        decoder.allowsJSON5 = true
        return decoder
    }
}

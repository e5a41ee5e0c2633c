public import Foundation

/// Names recorder files as MobilePassiveData does (docs/async-actions.md, "File names"). A
/// file is named after its logger identifier, `<section>_<identifier>` for a configuration
/// declared in a section, else `<identifier>`, plus the logger's own suffix (`_levels` for the
/// microphone's levels): `filename(for:)` of that whole identifier, then `.<extension>`. A
/// name already taken gets `-` and four characters before the extension.
public enum RecorderFileName {
    /// The longest name `filename(for:)` returns (before the extension).
    public static let maximumLength = 24

    /// Names no recorder file may take: the run's own files.
    public static let reserved: Set<String> = ["taskResult", "metadata", "answers"]

    /// MobilePassiveData's `FileUtility.filename(for:)`: every `.` and space becomes `_`; every
    /// character that is not alphanumeric (Unicode letters, marks and numbers), `-` or `_` is
    /// removed; the first 24 characters are kept; an empty result becomes a new UUID.
    public static func filename(for identifier: String) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in identifier.unicodeScalars {
            if scalar == "." || scalar == " " {
                kept.append("_")
            } else if isAlphanumeric(scalar) || scalar == "_" || scalar == "-" {
                kept.append(scalar)
            }
        }
        let name = String(String(kept).prefix(maximumLength))
        return name.isEmpty ? UUID().uuidString : name
    }

    /// The logger identifier of an action's files: `<section>_<identifier>` inside a section.
    public static func loggerIdentifier(sectionIdentifier: String?, identifier: String) -> String {
        sectionIdentifier.map { "\($0)_\(identifier)" } ?? identifier
    }

    /// The base name (no extension) for an action's main file, before clash resolution.
    public static func baseName(sectionIdentifier: String?, identifier: String) -> String {
        filename(for: loggerIdentifier(sectionIdentifier: sectionIdentifier, identifier: identifier))
    }

    /// True when `name` (no extension) is one `filename(for:)` can return, or such a name with
    /// a clash suffix `-XXXX`: what the tests check every archived recorder file against.
    public static func followsRule(_ name: String) -> Bool {
        func isFilename(_ text: Substring) -> Bool {
            !text.isEmpty && text.count <= maximumLength
                && text.unicodeScalars.allSatisfy { isAlphanumeric($0) || $0 == "_" || $0 == "-" }
        }
        if UUID(uuidString: name) != nil { return true }
        if isFilename(name[...]) { return true }
        guard let dash = name.lastIndex(of: "-") else { return false }
        let suffix = name[name.index(after: dash)...]
        return suffix.count == 4 && isFilename(name[..<dash]) && suffix.unicodeScalars.allSatisfy { isAlphanumeric($0) }
    }

    /// `name` + `.extension` when that is free; else `name-XXXX.extension` with the first free
    /// four-digit decimal counter from 0001 (docs/async-actions.md; MobilePassiveData takes the first
    /// four characters of a new UUID; a counter keeps runs reproducible).
    public static func unique(name: String, fileExtension: String, taken: Set<String>) -> String {
        let plain = "\(name).\(fileExtension)"
        if !reserved.contains(name), !taken.contains(plain) { return plain }
        var counter = 1
        while true {
            let candidate = "\(name)-\(String(format: "%04d", counter)).\(fileExtension)"
            if !taken.contains(candidate) { return candidate }
            counter += 1
        }
    }

    /// Foundation's `CharacterSet.alphanumerics`: Unicode general categories L*, M* and N*.
    static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark,
             .decimalNumber, .letterNumber, .otherNumber:
            true
        default:
            false
        }
    }
}

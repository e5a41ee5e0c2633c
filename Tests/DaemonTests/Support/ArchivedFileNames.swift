/// MobilePassiveData's `FileUtility.filename(for:)` rule, written again from its description
/// (docs/async-actions.md, "File names") so that the daemon's files are checked against an
/// oracle that is not the daemon's own code: at most 24 characters, only letters, marks,
/// numbers, `-` and `_`; or such a name with a `-XXXX` clash suffix; or an upper-case UUID.
enum ArchivedFileNames {
    static func followsFileUtility(_ stem: String) -> Bool {
        if isUUID(stem) { return true }
        if isFilename(Substring(stem)) { return true }
        guard let dash = stem.lastIndex(of: "-") else { return false }
        let suffix = stem[stem.index(after: dash)...]
        return suffix.count == 4 && suffix.unicodeScalars.allSatisfy(isAlphanumeric) && isFilename(stem[..<dash])
    }

    private static func isFilename(_ text: Substring) -> Bool {
        !text.isEmpty && text.count <= 24 && text.unicodeScalars.allSatisfy { isAlphanumeric($0) || $0 == "-" || $0 == "_" }
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber: true
        default: false
        }
    }

    private static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12]
            && groups.allSatisfy { $0.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || ("A"..."F").contains($0) } }
    }
}

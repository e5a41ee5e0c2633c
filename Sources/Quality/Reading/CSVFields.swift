/// Splits one CSV line into fields: commas separate, double quotes enclose a field that holds
/// commas, and `""` inside quotes is one quote.
enum CSVFields {
    static func split(_ line: String) -> [String] {
        var fields: [String] = []
        var current = ""
        var quoted = false
        var iterator = line.makeIterator()
        while let character = iterator.next() {
            if quoted {
                if character == "\"" {
                    // A doubled quote is a literal quote; a single one closes the field.
                    var lookahead = iterator
                    if lookahead.next() == "\"" {
                        current.append("\"")
                        iterator = lookahead
                    } else {
                        quoted = false
                    }
                } else {
                    current.append(character)
                }
            } else if character == "\"" {
                quoted = true
            } else if character == "," {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(current)
        return fields
    }
}

/// English number words for countdown prompts ("ten" … "one"), as SageResearch's
/// `NumberFormatter` with `.spellOut` gives them in English.
public enum SpelledNumber {
    private static let ones = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
    ]
    private static let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]

    /// The words for `number` (0 … 999 999); larger numbers are written in digits.
    public static func string(_ number: Int) -> String {
        guard number >= 0, number < 1_000_000 else { return String(number) }
        if number < 20 { return ones[number] }
        if number < 100 {
            let rest = number % 10
            return rest == 0 ? tens[number / 10] : "\(tens[number / 10])-\(ones[rest])"
        }
        if number < 1000 {
            let rest = number % 100
            return "\(ones[number / 100]) hundred" + (rest == 0 ? "" : " \(string(rest))")
        }
        let rest = number % 1000
        return "\(string(number / 1000)) thousand" + (rest == 0 ? "" : " \(string(rest))")
    }
}

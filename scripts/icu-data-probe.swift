// The ICU-reading calls of activetask, run by `scripts/icu-data.py check` twice: linked with
// the toolchain's whole ICU data and with Sources/ICUData's trimmed copy. Every line must be the
// same (docs/install.md, "Size"). It is compiled with the product's own Timestamp, DateCoding and
// ClockSkew; a new use of dates, time zones, locales or patterns in the product belongs here.
import Foundation
setbuf(stdout, nil)
let instants: [Double] = [0, 1_800_000_000.123, 1_700_000_000.5, -86_400 * 365 * 30]
for t in instants {
    let d = Date(timeIntervalSince1970: t)
    print("ts", Timestamp.string(from: d), Timestamp.string(from: d, timeZone: TimeZone(identifier: "Asia/Kolkata")!),
          Timestamp.string(from: d, timeZone: TimeZone(identifier: "America/St_Johns")!), Timestamp.string(from: d, timeZone: .gmt))
    print("parse", Timestamp.date(from: Timestamp.string(from: d)) as Any)
    let iso = ISO8601DateFormatter()
    print("iso", iso.string(from: d), iso.date(from: "2026-11-29T12:00:00Z") as Any)
    iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    print("isofrac", iso.date(from: "2026-11-29T12:00:00.250+02:00") as Any)
    print("style", d.formatted(.iso8601))
    print("year", Calendar(identifier: .gregorian).component(.year, from: d))
}
for text in ["2026-11-29T12:00:00.000+01:00", "2026-11-29", "12:34:56.789", "12:34:56", "2026-11-29T12:00:00.000-0230", "nonsense", "2026-02-30"] {
    print("decode", text, DateCoding.date(from: text) as Any)
    for f in DateCoding.decodingFormats { print("  ", f, DateCoding.date(from: text, format: f) as Any) }
}
for h in ["Sun, 29 Nov 2026 05:40:47 GMT", "Mon, 01 Jan 2024 00:00:00 GMT", "Sunday, 29-Nov-26 05:40:47 GMT", "garbage"] {
    print("http", h, ClockSkew.httpDate(h) as Any)
}
let df = DateFormatter(); df.locale = Locale(identifier: "en_US_POSIX"); df.calendar = Calendar(identifier: .gregorian); df.dateFormat = DateCoding.dateFormat
print("today", df.string(from: Date(timeIntervalSince1970: 1_800_000_000)))
for (p, s) in [("^[A-Z]{2}\\d+$", "AB12"), ("^\\X{3}$", "e\u{301}ab"), ("\\bword\\b", "a word here"), ("^[\\p{L}\\s]+$", "Grüße Welt"), ("(?i)^abc$", "ABC")] {
    let r = try NSRegularExpression(pattern: p)
    print("re", p, r.numberOfMatches(in: s, range: NSRange(s.startIndex..., in: s)))
}
print("tzcur", TimeZone.current.identifier, TimeZone.current.secondsFromGMT(for: Date(timeIntervalSince1970: 1_800_000_000)))
print("fmt", String(format: "%.3f %d %@ %5.1f%%", 3.14159, 42, "x", 99.5))
print("err", CocoaError(.fileNoSuchFile).localizedDescription)
print("lower", "ÄÖÜ İ".lowercased(), "straße".uppercased())

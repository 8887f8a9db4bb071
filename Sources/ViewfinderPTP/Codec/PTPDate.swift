import ViewfinderCore

#if canImport(Glibc)
import Glibc
#endif

/// PTP's dates, as DateTime and ObjectInfo carry them: `YYYYMMDDThhmmss`, read and written in UTC, as a camera's
/// clock keeps no time zone.
///
/// ```swift
/// PTPDate.string(secondsSince1970: 0)              // "19700101T000000"
/// PTPDate.secondsSince1970("20240131T154502Z")    // 1706715902
/// ```
public enum PTPDate {
    /// Seconds since 1970 for a PTP date `YYYYMMDDThhmmss`, optionally followed by `.s` and `Z` or `±hhmm`.
    public static func secondsSince1970(_ text: String) -> Int? {
        let characters = Array(text.utf8)
        guard characters.count >= 15, characters[8] == UInt8(ascii: "T") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let digit = Int(characters[index]) - Int(UInt8(ascii: "0"))
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8),
            let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        var rest = characters[15...]
        if rest.first == UInt8(ascii: "."), rest.count >= 2, (48...57).contains(rest[rest.startIndex + 1]) {
            rest = rest.dropFirst(2)
        }
        if rest.first == UInt8(ascii: "Z") {
            rest = rest.dropFirst()
        } else if let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            guard rest.count == 5, rest.dropFirst().allSatisfy({ (48...57).contains($0) }) else { return nil }
            rest = []
        }
        guard rest.isEmpty else { return nil }
        var fields = tm()
        fields.tm_year = Int32(year - 1900)
        fields.tm_mon = Int32(month - 1)
        fields.tm_mday = Int32(day)
        fields.tm_hour = Int32(hour)
        fields.tm_min = Int32(minute)
        fields.tm_sec = Int32(second)
        return timegm(&fields)
    }

    /// The PTP date for seconds since 1970.
    public static func string(secondsSince1970 seconds: Int) -> String {
        CameraClockTime(secondsSince1970: Int64(seconds)).text(separated: false)
    }
}

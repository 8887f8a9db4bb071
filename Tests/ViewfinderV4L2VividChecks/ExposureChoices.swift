#if canImport(Glibc)
import Glibc
#endif

/// Compares the ISO, f-number and shutter speed choices gphoto2 offers (`--get-config`) with the values
/// `viewfinder camera get --json` offers, in one spelling.
///
/// - Parameters:
///   - gphoto2: Runs gphoto2 on the camera with the given arguments and returns what it printed.
///   - viewfinder: Runs `viewfinder camera` on the camera with the given arguments and returns what it printed.
/// - Returns: How many values of each were compared, such as "27 iso values".
/// - Throws: `CheckFailure` when either offers none or they differ.
func compareExposureChoices(
    gphoto2: ([String]) throws -> String, viewfinder: ([String]) throws -> String
) throws -> [String] {
    var compared: [String] = []
    for (name, ours) in [("iso", "iso"), ("f-number", "aperture"), ("shutterspeed", "shutter")] {
        let choices = try gphoto2(["--get-config", name]).split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("Choice: ") else { return nil }
            return line.split(separator: " ", maxSplits: 2).dropFirst(2).first.map(String.init)
        }
        let offered = settableValues(inJSON: try viewfinder(["get", ours, "--json"]))
        let theirs = choices.compactMap { exposureSpelling(name, $0) }
        try expect(
            !theirs.isEmpty && theirs == offered.compactMap { exposureSpelling(name, $0) },
            "gphoto2 offers \(name) \(choices), viewfinder \(offered)")
        compared.append("\(theirs.count) \(name) values")
    }
    return compared
}

/// The values of a `viewfinder camera get --json` answer's settableValues, one a line as the tool prints them.
private func settableValues(inJSON json: String) -> [String] {
    var values: [String] = []
    var inList = false
    for line in json.split(separator: "\n") {
        let text = String(line.drop { $0 == " " }.reversed().drop { $0 == "," || $0 == " " }.reversed())
        if text.hasPrefix("\"settableValues\"") {
            inList = true
        } else if inList, text.hasPrefix("]") {
            break
        } else if inList, text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 {
            values.append(String(text.dropFirst().dropLast()).replacing("\\\"", with: "\""))
        }
    }
    return values
}

/// A value as gphoto2 or viewfinder spells it, in one spelling: ISO as its number, a Fujifilm's automatic ISO
/// settings as gphoto2 writes them (-1 to -3, where viewfinder writes Auto 1 to Auto 3) or Auto, f-numbers as they
/// are, shutter speeds as their third stop from one second (gphoto2 writes 1/3, 25/10 or 3s where viewfinder writes
/// 0.3", 2.5" or 3.2"); `nil` for gphoto2's Bulb, which it adds to every Sony's and Fujifilm's list.
private func exposureSpelling(_ name: String, _ value: String) -> String? {
    var plain = value.hasPrefix("ISO ") ? String(value.dropFirst(4)) : value
    if plain.hasPrefix("Auto "), Int(plain.dropFirst(5)) != nil {
        plain = "-" + plain.dropFirst(5)
    }
    guard name == "shutterspeed" else { return plain }
    guard plain.lowercased() != "bulb" else { return nil }
    var seconds = plain.replacing("\"", with: "")
    if seconds.hasSuffix("s") { seconds.removeLast() }
    let parts = seconds.split(separator: "/")
    guard let top = parts.first.flatMap({ Double($0) }), let bottom = parts.count == 2 ? Double(parts[1]) : 1 else {
        return plain
    }
    return String(Int((3 * log2(top / bottom)).rounded()))
}

import ViewfinderCore

/// An entry of an Olympus or OM System camera's folder listing (`get_imglist.cgi?DIR=…`): a file or folder, its
/// size, attributes and the date and time the camera gives it.
package struct OlympusFolderEntry: Sendable, Equatable {
    /// A date and time as the card's FAT file system holds it, to two seconds, in the camera's clock.
    package struct FATTime: Sendable, Equatable {
        /// The year, from 1980.
        package var year: Int
        /// The month, 1 to 12.
        package var month: Int
        /// The day of the month, 1 to 31.
        package var day: Int
        /// The hour, 0 to 23.
        package var hour: Int
        /// The minute, 0 to 59.
        package var minute: Int
        /// The second, even, 0 to 58.
        package var second: Int

        /// The date and time of FAT's 16-bit `date` (`(year − 1980) << 9 | month << 5 | day`) and `time`
        /// (`hour << 11 | minute << 5 | second / 2`).
        package init(date: UInt16, time: UInt16) {
            year = 1980 + Int(date >> 9)
            month = Int(date >> 5 & 15)
            day = Int(date & 31)
            hour = Int(time >> 11)
            minute = Int(time >> 5 & 63)
            second = Int(time & 31) * 2
        }
    }

    /// The path, such as `/DCIM/100OLYMP/P6060001.JPG`.
    package var path: String
    /// The size in bytes; 0 for a folder.
    package var size: Int
    /// The FAT attribute bits: 0x02 hidden, 0x04 system, 0x08 volume, 0x10 folder.
    package var attributes: Int
    /// When the camera wrote it.
    package var time: FATTime

    /// Whether the entry is a folder.
    package var isFolder: Bool { attributes & 0x10 != 0 }
    /// Whether the entry is hidden, a system file or the volume's label, which the camera's own app leaves out.
    package var isHidden: Bool { attributes & 0x0E != 0 }

    /// Reads a listing: the line `VER_100`, then one line `folder,name,size,attributes,date,time` per entry, lines
    /// ending in CRLF.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` for a listing without its version line, or a line without six
    ///   fields or with a size, attributes, date or time that is not a number in range.
    package static func list(parsing body: [UInt8]) throws(ViewfinderError) -> [Self] {
        let lines = String(decoding: body, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: true)
        guard lines.first?.hasPrefix("VER_") == true else {
            throw ViewfinderError(
                .malformedData, "the camera's folder listing starts with '\(lines.first?.prefix(40) ?? "")', not VER_")
        }
        return try lines.dropFirst().map { line throws(ViewfinderError) in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == 6, let size = Int(fields[2]), size >= 0, let attributes = Int(fields[3]),
                let date = UInt16(fields[4]), let time = UInt16(fields[5])
            else {
                throw ViewfinderError(
                    .malformedData,
                    "the camera's folder listing has a line that is not folder,name,size,attributes,date,time: "
                        + "'\(line.prefix(120))'")
            }
            return OlympusFolderEntry(
                path: fields[0] + "/" + fields[1], size: size, attributes: attributes,
                time: FATTime(date: date, time: time))
        }
    }
}

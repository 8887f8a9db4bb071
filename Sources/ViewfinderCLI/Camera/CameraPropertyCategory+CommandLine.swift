import Viewfinder

extension CameraPropertyCategory {
    /// The category's name on the command line, such as `exposure-setting`.
    var commandLineName: String {
        rawValue.reduce(into: "") { name, character in
            if character.isUppercase {
                name += "-" + character.lowercased()
            } else {
                name.append(character)
            }
        }
    }

    /// The category `text` names, by its command-line name (`exposure-setting`) or the API's (`exposureSetting`),
    /// in any case.
    ///
    /// - Throws: ``UsageError`` listing the categories when `text` names none.
    static func named(_ text: String, commandPath: String) throws -> CameraPropertyCategory {
        let key = text.lowercased().filter { $0 != "-" && $0 != "_" }
        guard let category = allCases.first(where: { $0.rawValue.lowercased() == key }) else {
            throw UsageError(
                "there is no property category '\(text)'; the categories are "
                    + allCases.map(\.commandLineName).joined(separator: ", "),
                commandPath: commandPath)
        }
        return category
    }
}

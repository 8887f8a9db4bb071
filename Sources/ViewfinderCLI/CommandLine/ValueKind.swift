/// What a value placeholder such as `DIR`, `FILE` or `bash|zsh|fish` stands for, so that a shell can offer it.
enum ValueKind: Equatable {
    /// One of these words.
    case words([String])
    /// A file or device file.
    case files
    /// A directory.
    case directories
    /// Anything else, such as a number or a host name: nothing to offer.
    case text

    /// The kind a placeholder names: alternatives in lowercase separated by `|` are words to choose from, `DIR` and
    /// `DIRECTORY` a directory, and a placeholder with `FILE`, `DEVICE` or `OUTPUT` among its alternatives a file.
    init(placeholder: String) {
        let alternatives = placeholder.split(separator: "|").map { String($0) }
        let isWord = { (text: String) in
            text.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" } && text.first?.isLetter == true
        }
        if alternatives.count > 1, alternatives.allSatisfy(isWord) {
            self = .words(alternatives)
        } else if placeholder == "DIR" || placeholder == "DIRECTORY" {
            self = .directories
        } else if alternatives.contains(where: { ["FILE", "FILE...", "DEVICE", "OUTPUT"].contains($0) }) {
            self = .files
        } else {
            self = .text
        }
    }
}

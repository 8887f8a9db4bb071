import ViewfinderCore
import ViewfinderDiscovery

/// A Lumix's answer to a `cam.cgi` command: `<camrply><result>ok</result>…</camrply>`, or the plain text some
/// commands answer with (`ok,…` for access control and the lens).
package struct LumixReply: Sendable {
    /// The document, for an XML answer.
    package let document: XMLElements?
    /// The plain text, for an answer that is not XML.
    package let text: String?

    /// Reads an answer to `command`.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` for XML out of form or without a `camrply`.
    package init(_ body: [UInt8], command: String) throws(ViewfinderError) {
        let start = body.firstIndex { $0 > 32 } ?? body.endIndex
        if body[start...].first == UInt8(ascii: "<") {
            let document = try XMLElements(body, from: "the Lumix's answer to \(command)")
            guard document.elements.first?.name == "camrply" else {
                throw ViewfinderError(
                    .malformedData, "the camera answered \(command) with <\(document.elements[0].name)>, not <camrply>")
            }
            self.document = document
            text = nil
        } else {
            document = nil
            text = String(decoding: body[start...].prefix(4096), as: UTF8.self).trimmingWhitespace
        }
    }

    /// The result: `ok`, or the camera's error word such as `err_busy`.
    package var result: String {
        if let document {
            return document.first("result")?.text ?? ""
        }
        return text.map { String($0.prefix { $0 != "," }) } ?? ""
    }

    /// The fields of a plain text answer after its result, such as the lens's `1536/256` values.
    package var fields: [String] {
        guard let text else { return [] }
        return text.split(separator: ",", omittingEmptySubsequences: false).dropFirst().map(String.init)
    }

    /// Throws unless the result is `ok`, with an error that says what the camera's word means.
    ///
    /// - Throws: `ViewfinderError/Code/deviceBusy` for `err_busy`, `ViewfinderError/Code/notAvailable` for
    ///   `err_reject` and `err_non_support`, `ViewfinderError/Code/protocolFailure` for anything else.
    package func requireOK(_ command: String) throws(ViewfinderError) {
        switch result {
        case "ok":
            return
        case "err_busy":
            throw ViewfinderError(.deviceBusy, "the camera is busy and refused \(command) (err_busy); try again")
        case "err_reject":
            throw ViewfinderError(
                .notAvailable, "the camera refused \(command) in its present mode (err_reject); check its mode dial")
        case "err_non_support":
            throw ViewfinderError(.notAvailable, "the camera does not support \(command) (err_non_support)")
        case let other:
            throw ViewfinderError(
                .protocolFailure, "the camera answered \(command) with '\(other.prefix(40))' rather than ok")
        }
    }

    /// The value of a `getsetting` answer: the first attribute of `<settingvalue>`, which must be named `type`.
    package func settingValue(_ type: String) -> String? {
        guard let setting = document?.first("settingvalue"), let first = setting.attributes.first,
            first.name == type
        else { return nil }
        return first.value
    }

    /// The texts of an element's children by name, such as `getstate`'s `<state>`: `batt` is `3/3`.
    package func childTexts(of name: String) -> [String: String] {
        guard let document, let position = document.positions(of: name).first else { return [:] }
        var texts: [String: String] = [:]
        for child in document.children(of: position) where texts[child.name] == nil {
            texts[child.name] = child.text
        }
        return texts
    }
}

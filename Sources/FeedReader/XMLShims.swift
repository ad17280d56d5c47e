import CLibXML2
import FoundationEssentials

// The only file that calls libxml2: a document is parsed and copied into Swift values at once, so
// nothing else holds a libxml2 pointer.

/// An element of a parsed XML document: its name, namespace, attributes, text and child elements.
struct XMLElement: Sendable {
    var name: String
    /// The namespace URI, if the element has one (Atom's `http://www.w3.org/2005/Atom`).
    var namespace: String?
    var attributes: [String: String]
    /// The element's own text and CDATA, concatenated (entities already replaced by libxml2).
    var text: String
    var children: [XMLElement]

    func child(_ name: String) -> XMLElement? { children.first { $0.name == name } }
    func children(_ name: String) -> [XMLElement] { children.filter { $0.name == name } }
}

/// What libxml2 refused, with its line.
struct XMLParseError: Error, Sendable {
    var message: String
    var line: Int?
}

enum XMLDocumentReader {
    /// Elements nested deeper are left out: a feed is a few levels deep.
    static let depthLimit = 64

    /// Parses `data` as XML, never touching the network nor loading external entities or DTDs.
    static func parse(_ data: [UInt8]) throws(XMLParseError) -> XMLElement {
        // libxml2 keeps the last error; the first one says what is wrong.
        let first = FirstError()
        xmlSetStructuredErrorFunc(Unmanaged.passUnretained(first).toOpaque()) { context, error in
            guard let context, let error else { return }
            let first = Unmanaged<FirstError>.fromOpaque(context).takeUnretainedValue()
            guard first.error == nil, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            let message = error.pointee.message.map { String(cString: $0) } ?? "not XML"
            first.error = XMLParseError(message: message.trimmingTrailingNewlines, line: error.pointee.line > 0 ? Int(error.pointee.line) : nil)
        }
        defer { xmlSetStructuredErrorFunc(nil, nil) }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue)
        let document = data.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { xmlReadMemory($0, Int32(clamping: buffer.count), nil, nil, options) }
            }
        }
        guard let document else { throw first.error ?? XMLParseError(message: "not XML") }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document) else { throw XMLParseError(message: "the document is empty") }
        return element(root, depth: 0)
    }

    private final class FirstError {
        var error: XMLParseError?
    }

    private static func element(_ node: xmlNodePtr, depth: Int) -> XMLElement {
        var result = XMLElement(name: string(node.pointee.name) ?? "", namespace: node.pointee.ns.flatMap { string($0.pointee.href) },
                                attributes: [:], text: "", children: [])
        var attribute = node.pointee.properties
        while let current = attribute {
            if let name = string(current.pointee.name), let value = xmlGetProp(node, current.pointee.name) {
                result.attributes[name] = String(cString: value)
                xmlFree(value)
            }
            attribute = current.pointee.next
        }
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE where depth < depthLimit: result.children.append(element(current, depth: depth + 1))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE: result.text += string(current.pointee.content.map { UnsafePointer($0) }) ?? ""
            default: break
            }
            child = current.pointee.next
        }
        return result
    }

    private static func string(_ pointer: UnsafePointer<xmlChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}

private extension String {
    var trimmingTrailingNewlines: String {
        var text = self
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }
}

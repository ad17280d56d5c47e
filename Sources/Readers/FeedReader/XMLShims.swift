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
    /// The element's own text and CDATA, concatenated (character references and the five
    /// predefined entities replaced; the document's own entities left out).
    var text: String
    var children: [XMLElement]

    func child(_ name: String) -> XMLElement? { children.first { $0.name == name } }
    func children(_ name: String) -> [XMLElement] { children.filter { $0.name == name } }
}

/// A parsed document and what was left out copying it, in words (nil when nothing was).
struct XMLDocument: Sendable {
    var root: XMLElement
    var omitted: String?
}

/// What libxml2 refused, with its line.
struct XMLParseError: Error, Sendable {
    var message: String
    var line: Int?
}

enum XMLDocumentReader {
    /// Elements nested deeper are left out: a feed is a few levels deep.
    static let depthLimit = 64
    /// Elements read, and elements and attributes copied: a feed of 200 items has a few thousand.
    static let nodeLimit = 100_000

    /// Attributes of one element: libxml2 2.9 compares each attribute with every one before it,
    /// so 20,000 on one element took 4 s and a million would take hours.
    static let attributeLimit = 1_000

    /// Parses `data` as XML, never touching the network nor loading external entities or DTDs.
    /// The work is bounded by the size of `data`: entities the document declares are never
    /// expanded (a reference to one is left out and counted), so the copy is never larger than
    /// the document; libxml2 stops after `nodeLimit` elements, and at most `nodeLimit` elements
    /// and attributes are copied.
    static func parse(_ data: [UInt8]) throws(XMLParseError) -> XMLDocument {
        if let offset = crowdedElement(data) {
            throw XMLParseError(message: "an element with more than \(attributeLimit) attributes (at byte \(offset))")
        }
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
        // No XML_PARSE_NOENT: references to the document's entities stay references, never expanded.
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
            | XML_PARSE_NOCDATA.rawValue | XML_PARSE_COMPACT.rawValue)
        guard let parser = data.withUnsafeBufferPointer({ buffer in
            buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { xmlCreateMemoryParserCtxt($0, Int32(clamping: buffer.count)) }
            }
        }) else { throw XMLParseError(message: data.isEmpty ? "the document is empty" : "libxml2 could not start") }
        defer { xmlFreeParserCtxt(parser) }
        _ = xmlCtxtUseOptions(parser, options)
        // The tree stops growing past `nodeLimit` elements: libxml2 builds all of it before the copy.
        let elements = ElementCount()
        parser.pointee._private = Unmanaged.passUnretained(elements).toOpaque()
        parser.pointee.sax.pointee.startElementNs = { context, name, prefix, uri, namespaceCount, namespaces, attributeCount, defaulted, attributes in
            xmlSAX2StartElementNs(context, name, prefix, uri, namespaceCount, namespaces, attributeCount, defaulted, attributes)
            guard let parser = context?.assumingMemoryBound(to: xmlParserCtxt.self), let counter = parser.pointee._private else { return }
            let elements = Unmanaged<ElementCount>.fromOpaque(counter).takeUnretainedValue()
            elements.count += 1
            if elements.count > XMLDocumentReader.nodeLimit, !elements.stopped {
                elements.stopped = true
                xmlStopParser(parser)
            }
        }
        _ = xmlParseDocument(parser)
        let document = parser.pointee.myDoc
        parser.pointee.myDoc = nil
        defer { if let document { xmlFreeDoc(document) } }
        guard let document, parser.pointee.wellFormed != 0 || elements.stopped else { throw first.error ?? XMLParseError(message: "not XML") }
        guard let root = xmlDocGetRootElement(document) else { throw XMLParseError(message: "the document is empty") }
        let copy = Copy()
        copy.nodesLeftOut = elements.stopped
        return XMLDocument(root: copy.element(root, depth: 0), omitted: copy.omitted)
    }

    private final class ElementCount {
        var count = 0
        var stopped = false
    }

    /// Where a tag has more than `attributeLimit` attributes (`=` outside quotes between `<` and
    /// `>`), if one does. A quoted value cannot hold `<`, so every `<` starts afresh: nothing
    /// before a tag can hide its attributes from the count.
    static func crowdedElement(_ data: [UInt8]) -> Int? {
        data.withUnsafeBufferPointer { bytes in
            var (inTag, quote, count) = (false, UInt8(0), 0)
            for offset in bytes.indices {
                let byte = bytes[offset]
                if byte == UInt8(ascii: "<") {
                    (inTag, quote, count) = (true, 0, 0)
                } else if quote != 0 {
                    if byte == quote { quote = 0 }
                } else if inTag {
                    switch byte {
                    case UInt8(ascii: ">"): inTag = false
                    case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = byte
                    case UInt8(ascii: "="):
                        count += 1
                        if count > attributeLimit { return offset }
                    default: break
                    }
                }
            }
            return nil
        }
    }

    private final class FirstError {
        var error: XMLParseError?
    }

    /// One document's copy into Swift values, counting what it leaves out.
    private final class Copy {
        var nodes = 0
        var entityReferences = 0
        var nodesLeftOut = false

        var omitted: String? {
            var parts: [String] = []
            if entityReferences > 0 {
                parts.append("\(entityReferences) reference\(entityReferences == 1 ? "" : "s") to the feed's own entities left out")
            }
            if nodesLeftOut { parts.append("elements and attributes past the first \(nodeLimit) left out") }
            return parts.isEmpty ? nil : parts.joined(separator: "; ")
        }

        /// Counts a node against `nodeLimit`; false once the limit is reached.
        func admit() -> Bool {
            guard nodes < nodeLimit else {
                nodesLeftOut = true
                return false
            }
            nodes += 1
            return true
        }

        func element(_ node: xmlNodePtr, depth: Int) -> XMLElement {
            var result = XMLElement(name: string(node.pointee.name) ?? "", namespace: node.pointee.ns.flatMap { string($0.pointee.href) },
                                    attributes: [:], text: "", children: [])
            var attribute = node.pointee.properties
            while let current = attribute, admit() {
                // The value's own nodes, read as they are: `xmlGetProp` would expand every entity reference again.
                if let name = string(current.pointee.name) {
                    result.attributes[name] = text(of: current.pointee.children)
                }
                attribute = current.pointee.next
            }
            var child = node.pointee.children
            while let current = child {
                switch current.pointee.type {
                case XML_ELEMENT_NODE where depth < depthLimit:
                    guard admit() else { return result }
                    result.children.append(element(current, depth: depth + 1))
                case XML_TEXT_NODE, XML_CDATA_SECTION_NODE: result.text += string(current.pointee.content.map { UnsafePointer($0) }) ?? ""
                case XML_ENTITY_REF_NODE: entityReferences += 1
                default: break
                }
                child = current.pointee.next
            }
            return result
        }

        /// The text nodes of an attribute value; entity references counted and left out.
        private func text(of first: xmlNodePtr?) -> String {
            var value = ""
            var node = first
            while let current = node {
                switch current.pointee.type {
                case XML_TEXT_NODE: value += string(current.pointee.content.map { UnsafePointer($0) }) ?? ""
                case XML_ENTITY_REF_NODE: entityReferences += 1
                default: break
                }
                node = current.pointee.next
            }
            return value
        }

        private func string(_ pointer: UnsafePointer<xmlChar>?) -> String? {
            pointer.map { String(cString: $0) }
        }
    }
}

private extension String {
    var trimmingTrailingNewlines: String {
        var text = self
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }
}

/// Hands out one `String` per distinct text read from many rows (an app id, a mode name), so a
/// year of intervals decodes and allocates each name once, not 70 000 times.
///
/// A list searched from the front, each hit moved one place forward: a history names a few dozen
/// apps, most of its rows the same handful, which soon stand first. Names past the first
/// `capacity` are decoded each time, as without the list.
final class TextInterner {
    private let capacity = 64
    private var known: [(bytes: [UInt8], string: String)] = []

    func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        for index in known.indices where known[index].bytes.count == bytes.count
            && known[index].bytes.withUnsafeBufferPointer({ $0.elementsEqual(bytes) }) {
            let string = known[index].string
            if index > 0 { known.swapAt(index, index - 1) }
            return string
        }
        let string = String(decoding: bytes, as: UTF8.self)
        if known.count < capacity { known.append((Array(bytes), string)) }
        return string
    }
}

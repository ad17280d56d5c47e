import Foundation

/// A real TCP server on 127.0.0.1 for feed tests: it answers every request with a fixed body, or
/// (`silent`) accepts connections and never answers, as a server that hangs.
// Unchecked: a peer served on a thread of its own; what the thread and the tests share is read and changed only under `lock`.
public final class LocalHTTPServer: @unchecked Sendable {
    public enum Behaviour {
        /// `headers` are extra header lines (`Location: …`).
        case answer(status: String, body: String, headers: [String] = [])
        case silent
    }

    public let port: UInt16
    public var url: String { "http://127.0.0.1:\(port)/feed" }
    private let listener: Int32
    private let behaviour: Behaviour
    private let lock = NSLock()
    private var held: [Int32] = []
    private var running = true

    public init(_ behaviour: Behaviour) throws {
        self.behaviour = behaviour
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw Failure(message: "socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        guard bound else { close(listener); throw Failure(message: "bind or listen on 127.0.0.1: \(errno)") }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
        Thread { [self] in while serveOnce() {} }.start()
    }

    deinit { stop() }

    public struct Failure: Error { public let message: String }

    /// Closes the listener and every connection held.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard running else { return }
        running = false
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for fd in held { close(fd) }
        held.removeAll()
    }

    private func serveOnce() -> Bool {
        let client = accept(listener, nil, nil)
        guard client >= 0 else { return false }
        switch behaviour {
        case .silent:
            lock.lock()
            held.append(client)
            lock.unlock()
        case .answer(let status, let body, let headers):
            var request = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !request.suffix(4).elementsEqual([13, 10, 13, 10]) {
                let count = read(client, &buffer, buffer.count)
                guard count > 0 else { break }
                request += buffer[0..<count]
            }
            let bytes = Array(body.utf8)
            let head = ["HTTP/1.1 \(status)", "Content-Type: application/rss+xml", "Content-Length: \(bytes.count)", "Connection: close"] + headers
            let response = Array((head.joined(separator: "\r\n") + "\r\n\r\n").utf8) + bytes
            _ = response.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            close(client)
        }
        return true
    }
}

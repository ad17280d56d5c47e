import Foundation
import Synchronization

/// A real TCP server on 127.0.0.1 for feed tests: it answers every request with a fixed body, or
/// (`silent`) accepts connections and never answers, as a server that hangs.
public final class LocalHTTPServer: Sendable {
    public enum Behaviour: Sendable {
        /// `headers` are extra header lines (`Location: …`).
        case answer(status: String, body: String, headers: [String] = [])
        /// A web page (text/html), the same for every path and host name mapped here.
        case page(String)
        case silent
    }

    public let port: UInt16
    public var url: String { "http://127.0.0.1:\(port)/feed" }
    private let listener: Int32
    private let behaviour: Behaviour
    /// What the serving thread and `stop()` share: the connections a silent server holds open.
    private let connections = Mutex(Connections())

    private struct Connections {
        var held: [Int32] = []
        var running = true
    }

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
        connections.withLock { connections in
            guard connections.running else { return }
            connections.running = false
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
            for fd in connections.held { close(fd) }
            connections.held.removeAll()
        }
    }

    private func serveOnce() -> Bool {
        let client = accept(listener, nil, nil)
        guard client >= 0 else { return false }
        switch behaviour {
        case .silent:
            connections.withLock { $0.held.append(client) }
        case .page(let body):
            // A browser opens connections ahead of its requests: each is answered on its own thread.
            Thread { [self] in answer(client, status: "200 OK", body: body, headers: [], type: "text/html; charset=utf-8") }.start()
        case .answer(let status, let body, let headers):
            answer(client, status: status, body: body, headers: headers, type: "application/rss+xml")
        }
        return true
    }

    private func answer(_ client: Int32, status: String, body: String, headers: [String], type: String) {
        do {
            var request = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !request.suffix(4).elementsEqual([13, 10, 13, 10]) {
                let count = read(client, &buffer, buffer.count)
                guard count > 0 else { break }
                request += buffer[0..<count]
            }
            let bytes = Array(body.utf8)
            let head = ["HTTP/1.1 \(status)", "Content-Type: \(type)", "Content-Length: \(bytes.count)", "Connection: close"] + headers
            let response = Array((head.joined(separator: "\r\n") + "\r\n\r\n").utf8) + bytes
            _ = response.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            close(client)
        }
    }
}

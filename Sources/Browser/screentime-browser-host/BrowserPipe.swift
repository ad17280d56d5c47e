import Glibc
import ScreenTimeCore
import SystemErrors

/// The browser's end: stdin read whenever poll says so, stdout written frame by frame. A frame
/// is written whole (blocking): the browser reads its hosts promptly, and a half-written frame
/// would put the stream out of step for good.
struct BrowserPipe {
    private var frames = NativeMessageFrames()
    private var buffer = [UInt8](repeating: 0, count: 65536)

    enum Read {
        case items([NativeMessageFrames.Item])
        /// The browser closed the pipe (the extension disconnected, the browser quit).
        case closed
    }

    mutating func read() -> Read {
        let count: Int
        do {
            count = try buffer.withUnsafeMutableBytes { raw throws(Errno) in try retryingInterrupts { Glibc.read(0, raw.baseAddress, raw.count) } }
        } catch {
            if (error as? Errno) == .wouldBlock { return .items([]) }
            logLine("reading from the browser failed: \(error)")
            return .closed
        }
        if count == 0 { return .closed }
        return .items(frames.feed(buffer[..<count]))
    }

    /// Writes one message; false when the browser is gone.
    func send(_ json: String) -> Bool {
        guard let frame = NativeMessageFrames.frame(Array(json.utf8)) else {
            logLine("a message of \(json.utf8.count) bytes is too long for the browser; not sent")
            return true
        }
        var offset = 0
        while offset < frame.count {
            guard let written = try? frame[offset...].withUnsafeBytes({ raw throws(Errno) in
                try retryingInterrupts { write(1, raw.baseAddress, raw.count) }
            }), written > 0 else { return false }
            offset += written
        }
        return true
    }
}

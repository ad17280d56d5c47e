import CCurl
import FoundationEssentials

// The only file that calls libcurl.

/// Why a feed could not be fetched, in words for the run-down's note.
public struct FeedFetchError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// Fetches feeds over http, https and file:// all at once (one curl multi handle), each within its
/// own timeout, so a feed that hangs costs its timeout and no more. Redirects are followed to http
/// and https only; a body larger than `sizeLimit` is refused.
public enum FeedFetcher {
    public static let sizeLimit = 8 << 20

    /// The body of each URL, or why there is none; in the order of `urls`.
    public static func fetch(_ urls: [String], timeout: TimeInterval) -> [Result<[UInt8], FeedFetchError>] {
        guard !urls.isEmpty else { return [] }
        _ = initialized
        guard let multi = curl_multi_init() else { return urls.map { _ in .failure(FeedFetchError(message: "libcurl could not start")) } }
        defer { curl_multi_cleanup(multi) }
        let transfers = urls.map { Transfer(url: $0, timeout: timeout) }
        defer { for transfer in transfers { transfer.close(from: multi) } }
        for transfer in transfers where transfer.easy != nil { curl_multi_add_handle(multi, transfer.easy) }

        // libcurl ends each transfer at its timeout; the loop's own deadline only guards against a stuck resolver.
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000) + 1000)
        var running: Int32 = 1
        while running > 0, ContinuousClock.now < deadline {
            guard curl_multi_perform(multi, &running) == CURLM_OK else { break }
            if running > 0 { curl_multi_poll(multi, nil, 0, 100, nil) }
            var queued: Int32 = 0
            while let message = curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE,
                      let transfer = transfers.first(where: { $0.easy == message.pointee.easy_handle }) else { continue }
                transfer.finish(message.pointee.data.result)
            }
        }
        return transfers.map { $0.result ?? .failure(FeedFetchError(message: "no answer within \(seconds(timeout))")) }
    }

    private static let initialized: Bool = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK }()

    static func seconds(_ timeout: TimeInterval) -> String {
        timeout == timeout.rounded() ? "\(Int(timeout)) s" : "\(timeout) s"
    }

    /// One URL's easy handle and what it received.
    private final class Transfer {
        let easy: UnsafeMutableRawPointer?
        let timeout: TimeInterval
        var body: [UInt8] = []
        var tooLarge = false
        var result: Result<[UInt8], FeedFetchError>?

        init(url: String, timeout: TimeInterval) {
            self.timeout = timeout
            easy = curl_easy_init()
            guard let easy else {
                result = .failure(FeedFetchError(message: "libcurl could not start"))
                return
            }
            let milliseconds = max(1, Int(timeout * 1000))
            let problems = [
                screentime_curl_setopt_string(easy, CURLOPT_URL, url),
                screentime_curl_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https,file"),
                screentime_curl_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"),
                screentime_curl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 1),
                screentime_curl_setopt_long(easy, CURLOPT_MAXREDIRS, 5),
                screentime_curl_setopt_long(easy, CURLOPT_TIMEOUT_MS, milliseconds),
                screentime_curl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, milliseconds),
                screentime_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1),
                screentime_curl_setopt_long(easy, CURLOPT_FAILONERROR, 1),
                screentime_curl_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, ""),
                screentime_curl_setopt_string(easy, CURLOPT_USERAGENT, "screentime (run-down feeds)"),
                screentime_curl_setopt_write_function(easy, { data, size, count, context in
                    guard let context else { return 0 }
                    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
                    let length = size * count
                    guard transfer.body.count + length <= FeedFetcher.sizeLimit else {
                        transfer.tooLarge = true
                        return 0
                    }
                    if let data, length > 0 {
                        data.withMemoryRebound(to: UInt8.self, capacity: length) { transfer.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length)) }
                    }
                    return length
                }),
            ].filter { $0 != CURLE_OK }
            _ = screentime_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, Unmanaged.passUnretained(self).toOpaque())
            if let first = problems.first { result = .failure(FeedFetchError(message: String(cString: curl_easy_strerror(first)))) }
        }

        func finish(_ code: CURLcode) {
            guard result == nil, let easy else { return }
            switch code {
            case CURLE_OK: result = .success(body)
            case CURLE_OPERATION_TIMEDOUT: result = .failure(FeedFetchError(message: "no answer within \(FeedFetcher.seconds(timeout))"))
            case CURLE_WRITE_ERROR where tooLarge: result = .failure(FeedFetchError(message: "larger than \(FeedFetcher.sizeLimit >> 20) MB"))
            case CURLE_HTTP_RETURNED_ERROR:
                var status = 0
                _ = screentime_curl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
                result = .failure(FeedFetchError(message: "the server answered HTTP \(status)"))
            default: result = .failure(FeedFetchError(message: String(cString: curl_easy_strerror(code)).lowercasedFirst))
            }
        }

        func close(from multi: UnsafeMutableRawPointer) {
            guard let easy else { return }
            curl_multi_remove_handle(multi, easy)
            curl_easy_cleanup(easy)
        }
    }
}

private extension String {
    /// libcurl's messages start with a capital ("Couldn't connect to server"); the note continues a sentence.
    var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }
}

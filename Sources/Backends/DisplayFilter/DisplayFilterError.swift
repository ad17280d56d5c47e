import FoundationEssentials

/// What went wrong while filtering or restoring the screen, with what was being done.
public enum DisplayFilterError: Error, Equatable, CustomStringConvertible {
    case cannotOpenDisplay(String)
    case randrMissing
    case randrTooOld(major: Int, minor: Int)
    case requestFailed(String, detail: String)
    case xError(String, code: UInt8, request: UInt8, minor: UInt8)
    case gammaSizeMismatch(crtc: String, expected: Int, got: Int)
    case malformedCTM(output: String, format: Int, items: Int)
    case savedState(path: String, reason: String)
    case notStarted(output: String)
    case connectionClosed

    public var description: String {
        switch self {
        case .cannotOpenDisplay(let name): return "cannot open X display \(name)"
        case .randrMissing: return "the X server has no RandR extension"
        case .randrTooOld(let major, let minor): return "RandR \(major).\(minor) is too old (1.2 needed for CRTC gamma)"
        case .requestFailed(let request, let detail): return "\(request) failed: \(detail)"
        case .xError(let what, let code, let request, let minor):
            return "\(what): X error \(code) (request \(request).\(minor))"
        case .gammaSizeMismatch(let crtc, let expected, let got):
            return "\(crtc) takes a gamma ramp of \(expected) entries, not \(got)"
        case .malformedCTM(let output, let format, let items):
            return "CTM on \(output) is not 18 32-bit integers (format \(format), \(items) items)"
        case .savedState(let path, let reason): return "saved display state \(path): \(reason)"
        case .connectionClosed: return "the display filter's X connection is closed"
        case .notStarted(let output): return "the filter on \(output) was not started (its originals are unknown)"
        }
    }
}

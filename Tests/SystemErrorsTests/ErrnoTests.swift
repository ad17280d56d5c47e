import Glibc
import SystemErrors
import XCTest

final class ErrnoTests: XCTestCase {
    func testAnInterruptedCallIsMadeAgainAndItsResultReturned() throws {
        var calls = 0
        let result = try retryingInterrupts { () -> Int32 in
            calls += 1
            guard calls == 3 else {
                errno = EINTR
                return -1
            }
            return 7
        }
        XCTAssertEqual(result, 7)
        XCTAssertEqual(calls, 3)
    }

    func testAnotherFailureIsThrownOnceWithTheSystemsWords() {
        var calls = 0
        XCTAssertThrowsError(try retryingInterrupts { () -> Int in
            calls += 1
            errno = ENOENT
            return -1
        }) { error in
            XCTAssertEqual(error as? Errno, Errno(ENOENT))
            XCTAssertEqual("\(error)", "No such file or directory")
        }
        XCTAssertEqual(calls, 1)
        XCTAssertEqual(Errno.wouldBlock, Errno(EWOULDBLOCK), "one errno on Linux")
    }

    func testARealCallsFailureIsItsErrno() {
        XCTAssertThrowsError(try retryingInterrupts { open("/nonexistent/screentime", O_RDONLY) }) { error in
            XCTAssertEqual((error as? Errno)?.code, ENOENT)
        }
    }
}

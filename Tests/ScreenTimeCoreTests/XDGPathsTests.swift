import XCTest
import ScreenTimeCore

final class XDGPathsTests: XCTestCase {
    func testDefaultsUnderHome() {
        let env = ["HOME": "/home/ada"]
        XCTAssertEqual(XDGPaths.configFile(environment: env), "/home/ada/.config/screentime/config")
        XCTAssertEqual(XDGPaths.dataDirectory(environment: env), "/home/ada/.local/share/screentime")
        XCTAssertEqual(XDGPaths.databaseFile(environment: env), "/home/ada/.local/share/screentime/screentime.db")
        XCTAssertEqual(XDGPaths.stateDirectory(environment: env), "/home/ada/.local/state/screentime")
    }

    func testExplicitBaseDirectoriesWin() {
        let env = ["HOME": "/home/ada", "XDG_CONFIG_HOME": "/cfg", "XDG_DATA_HOME": "/data/", "XDG_RUNTIME_DIR": "/run/user/1000"]
        XCTAssertEqual(XDGPaths.configFile(environment: env), "/cfg/screentime/config")
        XCTAssertEqual(XDGPaths.databaseFile(environment: env), "/data/screentime/screentime.db")
        XCTAssertEqual(XDGPaths.runtimeDirectory(environment: env, uid: 1000), "/run/user/1000/screentime")
        XCTAssertEqual(XDGPaths.stateDirectory(environment: ["HOME": "/home/ada", "XDG_STATE_HOME": "/state"]), "/state/screentime")
    }

    func testEmptyOrRelativeVariablesAreIgnored() {
        let env = ["HOME": "/home/ada", "XDG_CONFIG_HOME": "", "XDG_DATA_HOME": "relative/data", "XDG_RUNTIME_DIR": "run"]
        XCTAssertEqual(XDGPaths.configFile(environment: env), "/home/ada/.config/screentime/config")
        XCTAssertEqual(XDGPaths.databaseFile(environment: env), "/home/ada/.local/share/screentime/screentime.db")
        XCTAssertEqual(XDGPaths.runtimeDirectory(environment: env, uid: 1000), "/tmp/screentime-1000")
    }

    func testRuntimeFallbackIsPerUser() {
        XCTAssertEqual(XDGPaths.runtimeDirectory(environment: [:], uid: 0), "/tmp/screentime-0")
        XCTAssertNotEqual(XDGPaths.runtimeDirectory(environment: [:], uid: 1000),
                          XDGPaths.runtimeDirectory(environment: [:], uid: 1001))
        XCTAssertEqual(XDGPaths.runtimeDirectory(environment: ["TMPDIR": "/tmp/user/1000/"], uid: 1000), "/tmp/user/1000/screentime-1000")
        XCTAssertEqual(XDGPaths.runtimeDirectory(environment: ["TMPDIR": "tmp"], uid: 1000), "/tmp/screentime-1000")
    }

    func testMissingHomeGivesRootBasedPathNotRelative() {
        XCTAssertEqual(XDGPaths.databaseFile(environment: [:]), "/.local/share/screentime/screentime.db")
        XCTAssertEqual(XDGPaths.configFile(environment: ["HOME": "ada"]), "/.config/screentime/config")
    }
}

import Foundation
import ScreenTimeCore
import Harnesses
import UsageStore
import XCTest

/// Issue 19: names from outside (an app id a window chose, a desktop entry's `Name=`, a mode
/// recorded in the store) that try to be markup in the report page or control sequences on the
/// terminal, through the built `screentime`.
extension CLIGoldenTests {
    /// Each starts with a character Swift joins into one `Character` with the markup character
    /// after it (U+0600 with `<`, `>` with U+0338, `"` with U+0301), which the old escape missed.
    static func payloads(_ field: Int) -> [String] {
        ["\u{0600}<img src=x onerror=console.error(\(field))>\u{0338}",
         "\u{0600}<svg onload=console.error(\(field + 1))>\u{0338}",
         "x\"\u{0301}>\u{0338}\u{0600}<img src=y onerror=console.error(\(field + 2))>\u{0338}"]
    }

    static let terminalID = "esc\u{1B}]0;INJECTED\u{07}"

    /// A day of use by apps whose ids, names, modes and titles are the payloads, with continues.
    func recordHostileDay() throws {
        let store = try UsageDatabase(path: home.appendingPathComponent(".local/share/screentime/screentime.db").path)
        let day = Date(timeIntervalSince1970: 1_795_824_000 + 9 * 3600) // 2026-11-28 09:00 UTC
        let ids = Self.payloads(10) + [Self.terminalID, "named"]
        let modes = Self.payloads(20) + ["standard", "wind\u{1B}[2J\u{9B}31m"]
        for (index, (id, mode)) in zip(ids, modes).enumerated() {
            let start = day.addingTimeInterval(Double(index) * 1200)
            let interval = try store.beginInterval(app: AppID(id), title: Self.payloads(40)[index % 3], mode: mode, at: start)
            try store.extendInterval(interval, to: start.addingTimeInterval(Double(10 + index) * 60))
            try store.recordBypass(app: AppID(id), mode: mode, rule: .limit, at: start.addingTimeInterval(300), granted: 600)
        }
        // `apps` lists today's: a second of it just now.
        let now = try store.beginInterval(app: AppID(Self.terminalID), title: "", mode: "standard", at: Date().addingTimeInterval(-1))
        try store.extendInterval(now, to: Date())
        // An entry whose name is the payload, for the app `named`.
        let applications = home.appendingPathComponent("share/applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try "[Desktop Entry]\nType=Application\nName=\(Self.payloads(30)[0])\nExec=named\nCategories=Game;\n"
            .write(to: applications.appendingPathComponent("named.desktop"), atomically: true, encoding: .utf8)
    }

    /// Issue 19's report page: headless Chromium ran `<svg onload>` and `<img onerror>` injected
    /// through app ids, names and modes. Now nothing runs, nothing loads but the page, no element
    /// carries an event handler, and the names read back as the text they are.
    func testInjectedMarkupInEveryFieldOfTheReportPageNeverRuns() throws {
        try recordHostileDay()
        let page = home.appendingPathComponent("report.html")
        let result = try run(["report", "2026-11-28", "--html", page.path])
        XCTAssertEqual(result.status, 0, result.err)
        let chromium = try HeadlessChromium(directory: home)
        let load = try chromium.open(page, evaluating: """
            JSON.stringify({
              handlers: [...document.querySelectorAll('*')].filter(e => [...e.attributes].some(a => a.name.startsWith('on'))).map(e => e.tagName),
              images: document.querySelectorAll('img').length,
              nested: document.querySelectorAll('svg svg').length,
              apps: [...document.querySelectorAll('#apps rect')].map(r => r.dataset.app),
              labels: [...document.querySelectorAll('#apps text')].map(t => t.textContent),
              modes: [...document.querySelectorAll('#continues rect')].map(r => r.dataset.mode),
              continues: [...document.querySelectorAll('li')].map(l => l.textContent)
            })
            """)
        XCTAssertEqual(load.problems, [], "no injected handler ran (each calls console.error)")
        XCTAssertEqual(load.requests, [page.absoluteString], "the page loads nothing but itself")
        let drawn = try JSONSerialization.jsonObject(with: Data(try XCTUnwrap(load.value as? String).utf8)) as! [String: Any]
        XCTAssertEqual(drawn["handlers"] as? [String], [])
        XCTAssertEqual(drawn["images"] as? Int, 0)
        XCTAssertEqual(drawn["nested"] as? Int, 0)
        let ids = Self.payloads(10) + [Self.terminalID, "named"]
        XCTAssertEqual(Set(drawn["apps"] as? [String] ?? []), Set(ids), "every app id reads back as the text it is")
        XCTAssertTrue((drawn["labels"] as? [String] ?? []).contains(String(Self.payloads(30)[0].prefix(28))), "\(drawn["labels"] ?? "")")
        XCTAssertEqual(Set(drawn["modes"] as? [String] ?? []), Set(Self.payloads(20) + ["standard", "wind\u{1B}[2J\u{9B}31m"]))
        XCTAssertTrue((drawn["continues"] as? [String] ?? []).contains { $0.hasPrefix(Self.payloads(30)[0] + ", 2026-11-28 ") },
                      "\(drawn["continues"] ?? "")")
    }

    /// Issue 19's terminal: an app id from `xterm -class $'esc\e]0;INJECTED\a'` and a mode with
    /// a clear-screen and a C1 CSI reached the terminal raw. Text shows each as U+FFFD; JSON and
    /// CSV keep them faithfully (JSON escaped, CSV as the bytes, quoted where needed).
    func testControlCharactersFromOutsideNeverReachTheTerminal() throws {
        try recordHostileDay()
        // The last: an error naming what it was given, on stderr.
        for arguments in [["report", "2026-11-28"], ["apps"], ["report", Self.terminalID]] {
            let result = try run(arguments)
            for (stream, text) in [("out", result.out), ("err", result.err)] {
                let controls = text.unicodeScalars.filter { $0.properties.generalCategory == .control && $0 != "\n" && $0 != "\t" }
                XCTAssertEqual(controls.map(\.value), [], "\(arguments) \(stream): \(text.debugDescription)")
            }
            XCTAssertTrue((result.out + result.err).contains("esc\u{FFFD}]0;INJECTED\u{FFFD}"), "\(arguments): \(result.out)\(result.err)")
        }
        let report = try run(["report", "2026-11-28"]).out
        XCTAssertTrue(report.contains("wind\u{FFFD}[2J\u{FFFD}31m"), report)

        let json = try run(["report", "2026-11-28", "--json"]).out
        XCTAssertTrue(json.lowercased().contains(#""esc\u001b]0;injected\u0007""#), json)
        let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        XCTAssertTrue((decoded?["apps"] as? [[String: Any]] ?? []).contains { $0["id"] as? String == Self.terminalID }, "faithful in JSON")

        let csv = try run(["report", "2026-11-28", "--csv"]).out
        let rows = CSVRows.parse(csv)
        XCTAssertTrue(rows.allSatisfy { $0.count == 8 }, "every row keeps its 8 fields: \(rows.filter { $0.count != 8 })")
        let appRows = rows.filter { $0.first == "app" }
        XCTAssertEqual(Set(appRows.map { $0[3] }), Set(Self.payloads(10) + [Self.terminalID, "named"]), "ids faithful in CSV")
        XCTAssertTrue(appRows.contains { $0[4] == Self.payloads(30)[0] }, "the entry's name faithful in CSV")
    }

    /// A name with a line break, a carriage return before it, a comma or a quote joined to a
    /// combining mark stays one field of one row.
    func testCSVFieldsSplitInsideGraphemeClustersStayWhole() throws {
        let store = try UsageDatabase(path: home.appendingPathComponent(".local/share/screentime/screentime.db").path)
        let start = Date(timeIntervalSince1970: 1_795_824_000 + 9 * 3600)
        let ids = ["a\r\nb", "c,\u{0301}d", "e\"\u{0301}f", "g\"h"]
        for (index, id) in ids.enumerated() {
            let interval = try store.beginInterval(app: AppID(id), title: "", mode: "standard", at: start.addingTimeInterval(Double(index) * 600))
            try store.extendInterval(interval, to: start.addingTimeInterval(Double(index) * 600 + 300))
        }
        let rows = CSVRows.parse(try run(["report", "2026-11-28", "--csv"]).out)
        XCTAssertTrue(rows.allSatisfy { $0.count == 8 }, "\(rows.filter { $0.count != 8 })")
        XCTAssertEqual(Set(rows.filter { $0.first == "app" }.map { $0[3] }), Set(ids))
    }
}

/// RFC 4180 read byte by byte, as a spreadsheet reads it (not by Swift `Character`s).
enum CSVRows {
    static func parse(_ text: String) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], field: [UInt8] = [], quoted = false
        var bytes = Array(text.utf8)[...]
        while let byte = bytes.popFirst() {
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if bytes.first == UInt8(ascii: "\"") { field.append(bytes.removeFirst()) } else { quoted = false }
                } else { field.append(byte) }
            } else if byte == UInt8(ascii: "\"") {
                quoted = true
            } else if byte == UInt8(ascii: ",") {
                row.append(String(decoding: field, as: UTF8.self)); field = []
            } else if byte == UInt8(ascii: "\n") {
                row.append(String(decoding: field, as: UTF8.self)); field = []
                rows.append(row); row = []
            } else { field.append(byte) }
        }
        if !row.isEmpty || !field.isEmpty {
            row.append(String(decoding: field, as: UTF8.self))
            rows.append(row)
        }
        return rows
    }
}

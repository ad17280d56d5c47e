import Foundation
import Harnesses
import XCTest

extension CLIGoldenTests {
    /// The page as a browser shows it (Debian's headless Chromium, offline): it loads nothing but
    /// itself and reports no error, and what it draws holds the fixture's numbers, read back from
    /// the laid-out SVG: each day's stacked bars are as tall as its minutes against the longest
    /// day, the app bars as long as their minutes, their labels and tooltips say the same.
    func testReportPageRendersInHeadlessChromium() throws {
        try recordUsage()
        try installApps()
        let page = home.appendingPathComponent("report.html")
        let result = try run(["report", "--from", "2026-11-22", "--to", "2026-11-28", "--html", page.path])
        XCTAssertEqual(result.status, 0, result.err)
        let started = Date()
        let chromium = try HeadlessChromium(directory: home)
        let load = try chromium.open(page, evaluating: """
            JSON.stringify({
              svgs: [...document.querySelectorAll('svg[id]')].map(s => ({id: s.id, width: s.getBoundingClientRect().width})),
              days: [...document.querySelectorAll('#days rect')].map(r => ({day: r.dataset.day, top: r.getBBox().y, height: r.getBBox().height, title: r.querySelector('title').textContent})),
              apps: [...document.querySelectorAll('#apps rect')].map(r => ({app: r.dataset.app, width: r.getBBox().width,
                     title: r.querySelector('title').textContent, label: r.nextElementSibling.textContent})),
              continues: [...document.querySelectorAll('#continues rect')].map(r => ({mode: r.dataset.mode, width: r.getBBox().width}))
            })
            """)
        print("headless Chromium: started, page loaded and read back in \(String(format: "%.2f", Date().timeIntervalSince(started))) s")
        XCTAssertEqual(load.problems, [])
        XCTAssertEqual(load.requests, [page.absoluteString], "the page loads nothing but itself")
        let drawn = try JSONSerialization.jsonObject(with: Data(try XCTUnwrap(load.value as? String).utf8)) as! [String: [[String: Any]]]
        XCTAssertEqual(drawn["svgs"]?.compactMap { $0["id"] as? String }, ["days", "apps", "hours", "continues"])
        XCTAssertTrue(drawn["svgs"]?.allSatisfy { ($0["width"] as? Double ?? 0) > 100 } == true, "\(drawn["svgs"] ?? [])")

        // The fixture: 2026-11-27 has 90 min, 2026-11-28 108 min (the longest: 160 px tall).
        var columns: [String: Double] = [:], tops: [String: Double] = [:]
        for bar in drawn["days"] ?? [] {
            let day = bar["day"] as? String ?? "", top = bar["top"] as? Double ?? 0
            columns[day, default: 0] += bar["height"] as? Double ?? 0
            tops[day] = min(tops[day] ?? top, top)
        }
        for (day, height) in columns { XCTAssertEqual(tops[day] ?? 0, 160 - height, accuracy: 0.2, "\(day)'s bars stack up from the axis") }
        XCTAssertEqual(columns.keys.sorted(), ["2026-11-27", "2026-11-28"])
        XCTAssertEqual(columns["2026-11-28"] ?? 0, 160, accuracy: 0.2)
        XCTAssertEqual((columns["2026-11-27"] ?? 0) / 160 * 108, 90, accuracy: 0.2, "minutes of 2026-11-27 from its height")
        XCTAssertEqual((drawn["days"] ?? []).compactMap { $0["title"] as? String }.sorted(),
                       ["2026-11-27 browsers: 30 min", "2026-11-27 productivity: 1 h",
                        "2026-11-28 browsers: 1 h 10 min", "2026-11-28 other: 3 min", "2026-11-28 productivity: 35 min"].sorted())

        // Apps: Firefox 100 min is the longest bar (420 px), XTerm 95 min, the calculator 3 min.
        let apps = drawn["apps"] ?? []
        XCTAssertEqual(apps.compactMap { $0["app"] as? String }, ["firefox", "xterm", "org.gnome.Calculator"])
        let minutes = apps.map { ($0["width"] as? Double ?? 0) / 420 * 100 }
        for (measured, expected) in zip(minutes, [100.0, 95, 3]) { XCTAssertEqual(measured, expected, accuracy: 0.1) }
        XCTAssertEqual(apps.compactMap { $0["label"] as? String }, ["1 h 40 min", "1 h 35 min", "3 min"])
        XCTAssertEqual(apps.compactMap { $0["title"] as? String }, ["Firefox: 1 h 40 min", "XTerm: 1 h 35 min", "org.gnome.Calculator: 3 min"])
        XCTAssertEqual((drawn["continues"] ?? []).map { "\($0["mode"] ?? ""):\($0["width"] ?? "")" }, ["productivity:420", "standard:420"])
    }
}

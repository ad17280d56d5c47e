import AgentControl
import FoundationEssentials
import LocalSystem
import PrivateFiles
import ScreenTimeCore
import UsageStore

struct ReportCommand: Subcommand {
    static let name = "report"
    static let abstract = "Usage per app, group and mode, pickups, switches and continues for a day, a week or a range"
    static let usage = ["report [today|yesterday|week|YYYY-MM-DD] [--json|--csv] [--html FILE] [--device NAME]",
                        "report --from YYYY-MM-DD --to YYYY-MM-DD [--json|--csv] [--html FILE] [--device NAME]"]
    static let notes = ["Joined to a synced folder (screentime sync), a report counts every joined computer and",
                        "shows each one's time; --device NAME shows one computer's alone."]

    enum Period {
        case today, yesterday, week
        case day(CivilDate)
        case range(CivilDate, CivilDate)
    }

    enum Output { case text, json, csv }

    let period: Period
    let output: Output
    /// Where `--html` writes the page; with `--json` or `--csv` those are printed too (the agent's
    /// weekly summary reads the figures of the page it links to).
    let page: String?
    /// `--device NAME`: one joined computer's time alone.
    let device: String?

    init(_ arguments: Arguments) throws {
        let json = arguments.flag("json")
        let csv = arguments.flag("csv")
        page = try arguments.option("html")
        device = try arguments.option("device")
        guard !(json && csv) else { throw UsageError(message: "choose one of --json and --csv") }
        output = json ? .json : csv ? .csv : .text
        let from = try arguments.option("from").map(Self.date)
        let to = try arguments.option("to").map(Self.date)
        switch (from, to, arguments.nextIfAny()) {
        case (nil, nil, nil), (nil, nil, "today"?): period = .today
        case (nil, nil, "yesterday"?): period = .yesterday
        case (nil, nil, "week"?): period = .week
        case (nil, nil, let word?): period = .day(try Self.date(word))
        case (let from?, let to?, nil):
            guard from <= to else { throw UsageError(message: "--from must not be after --to") }
            // A report lists every day: a typo of a century is refused, not days of work.
            guard to.daysSinceEpoch - from.daysSinceEpoch < Self.longestPeriod else {
                throw UsageError(message: "--from \(from) --to \(to) spans more than \(Self.longestPeriod) days; report at most a year at a time")
            }
            period = .range(from, to)
        default: throw UsageError(message: "give a period, or both --from and --to")
        }
        try arguments.finish()
    }

    static let longestPeriod = 366

    static func date(_ text: String) throws -> CivilDate {
        guard let date = CivilDate(parsing: text) else { throw UsageError(message: "`\(text)` is not a date (YYYY-MM-DD)") }
        return date
    }

    func run(_ context: Context) throws {
        let settings = try context.settings()
        let zone = context.zone
        let boundary = settings.dayBoundary
        let today = CivilDate(parsing: boundary.label(of: context.now, in: zone))!
        let (title, range): (String, ReportRange) = switch period {
        case .today: ("Today", ReportRange(from: today, to: today, boundary: boundary, zone: zone))
        case .yesterday: ("Yesterday", ReportRange(from: today.adding(days: -1), to: today.adding(days: -1), boundary: boundary, zone: zone))
        case .week: ("Last 7 days", ReportRange(from: today.adding(days: -6), to: today, boundary: boundary, zone: zone))
        case .day(let date): (date.weekday.name, ReportRange(from: date, to: date, boundary: boundary, zone: zone))
        case .range(let from, let to): ("\(to.daysSinceEpoch - from.daysSinceEpoch + 1) days", ReportRange(from: from, to: to, boundary: boundary, zone: zone))
        }
        var report = try Self.report(title: title, range: range, context: context, settings: settings,
                                     devices: try ReportDevices(context: context, only: device, reporting: range, boundary: boundary, zone: zone))
        let untracked = try context.openStore()?.untracked(from: range.start, to: range.end) ?? []
        report.setNotTracked(untracked, from: range.start, to: range.end, zone: zone)
        report.modeExits = try context.openStore()?.modeExits(from: range.start, to: range.end).map {
            UsageReport.ModeExitEntry(at: LocalTimeText.iso8601($0.at, in: zone), mode: $0.mode, leftSeconds: ($0.left ?? 0).rounded(),
                                      grantedSeconds: $0.granted ?? 0, how: $0.how)
        } ?? []
        if let page {
            // A week of per-app, per-hour usage: private, wherever it is written.
            do { try PrivateFiles.write(Array(ReportPage.html(report).utf8), to: page) } catch {
                throw CommandFailure(message: "cannot write \(page): \(error)")
            }
        }
        switch output {
        case .text:
            if let page { return context.print("wrote \(page)") }
            // Its colours are escape sequences of its own; its names are made printable inside.
            context.printVerbatim(ReportFormat.text(report, style: TerminalStyle(environment: context.environment,
                                                                                 terminalColumns: context.terminalColumns)))
        case .json: context.printVerbatim(ReportFormat.json(report))
        case .csv: context.printVerbatim(ReportFormat.csv(report))
        }
    }

    static func report(title: String, range: ReportRange, context: Context, settings: Settings,
                       devices: ReportDevices? = nil) throws -> UsageReport {
        let zone = context.zone
        let store = devices?.includesThisComputer ?? true ? try context.openStore() : nil
        func tally(_ range: ReportRange) throws -> UsageTally {
            var tally = UsageTally(lastEndBefore: try store?.lastIntervalEnd(before: range.start),
                                   idleThreshold: settings.idleThreshold, boundary: settings.dayBoundary, zone: zone)
            // The other computers' hours, in start order among this one's intervals.
            var elsewhere = (devices?.intervals(in: range, boundary: settings.dayBoundary, zone: zone) ?? [])[...]
            try store?.eachReportInterval(from: range.start, to: range.end) { interval in
                while let next = elsewhere.first, next.start <= interval.start { tally.addElsewhere(next); elsewhere.removeFirst() }
                tally.add(interval)
            }
            for interval in elsewhere { tally.addElsewhere(interval) }
            return tally
        }
        let bypasses = try store?.bypasses(from: range.start, to: range.end).map { UsageReport.Bypass(app: $0.app, mode: $0.mode, at: $0.at, granted: $0.granted) } ?? []
        let limitHits = try store?.limitHits(from: range.start, to: range.end).map { ($0.app, $0.at, $0.used) } ?? []
        let current = try tally(range)
        // Only the entries of the apps shown are read: a year's report names a few dozen apps.
        let entries = context.installedApps(among: Set(current.appIDs).union(bypasses.map(\.app)).union(limitHits.map(\.0)))
        var report = UsageReport(
            title: title, range: range, tally: current, previous: try tally(range.previous(boundary: settings.dayBoundary, zone: zone)),
            bypasses: bypasses, limitHits: limitHits,
            names: { entries[$0]?.name ?? $0.rawValue }, group: { ReportGroup.name(of: entries[$0] ?? SiteApp.known(by: $0), settings) },
            boundary: settings.dayBoundary, zone: zone)
        if let devices, devices.isJoined {
            var here: [String: TimeInterval] = [:]
            for day in report.days { here[day.date] = day.seconds }
            for share in devices.shares(in: range, here: [:]) { for (day, seconds) in share.days { here[day, default: 0] -= seconds } }
            if !devices.includesThisComputer { here = [:] }
            report.devices = devices.shares(in: range, here: here.filter { $0.value > 0.5 })
        }
        return report
    }
}

extension Context {
    /// The installed apps by id (all, or those `among` the ids given), from their desktop entries:
    /// an entry gives an app its categories, so its groups.
    func installedApps(among ids: Set<AppID>? = nil) -> [AppID: AppInfo] {
        var entries: [AppID: AppInfo] = [:]
        for entry in DesktopEntryIndex.load(environment: environment, ids: ids.map { Set($0.map(\.rawValue)) }) {
            entries[AppID(entry.id)] = AppInfo(entry)
        }
        return entries
    }

    /// The usage store, read-only; nil when nothing has been recorded yet.
    func openStore() throws -> UsageDatabase? {
        do { return try UsageDatabase(path: databasePath, readOnly: true) } catch StoreError.missing { return nil }
    }
}

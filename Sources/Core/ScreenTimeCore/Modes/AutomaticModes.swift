import FoundationEssentials

/// When the time-of-day modes start and end relative to bedtime and wake time (DESIGN.md's defaults).
public struct AutomaticModeSettings: Hashable, Sendable {
    /// Whether Wind Down, Sleep and Wake Up start by themselves from the sleep times; when off
    /// they start only when asked for (a manual switch, a schedule, a calendar event).
    public var isEnabled = true
    /// Wind Down starts this long before bedtime.
    public var windDownBeforeBedtime: TimeInterval = 3600
    /// Sleep starts this long after Wind Down started (unless the user says `bedtime` sooner).
    public var sleepAfterWindDown: TimeInterval = 4 * 3600
    /// Wake Up starts this long before wake time ...
    public var wakeUpBeforeWakeTime: TimeInterval = 3600
    /// ... and ends this long after it, unless the user says `start-day` sooner.
    public var wakeUpAfterWakeTime: TimeInterval = 2 * 3600
    /// How long `stay-up` holds Wind Down (and a Sleep due meanwhile) back.
    public var stayUpPause: TimeInterval = 3600

    public init() {}
}

/// The user's answers to the evening and morning prompts; only the latest of each matters.
public struct SleepActions: Hashable, Sendable {
    /// `screentime stay-up`: Wind Down pauses for `stayUpPause` from then.
    public var stayUpAt: Date?
    /// `screentime bedtime` ("Go to bed"): Sleep from then until Wake Up.
    public var bedtimeAt: Date?
    /// `screentime start-day`: the night's modes (Wake Up, or Sleep if still on) end then.
    public var startDayAt: Date?

    public init(stayUpAt: Date? = nil, bedtimeAt: Date? = nil, startDayAt: Date? = nil) {
        self.stayUpAt = stayUpAt
        self.bedtimeAt = bedtimeAt
        self.startDayAt = startDayAt
    }
}

/// Why a time-of-day mode is on.
public enum AutomaticCause: Hashable, Sendable {
    /// Wind Down, the hour(s) before `bedtime`.
    case beforeBedtime(WallTime)
    /// Sleep, started on its own a while after Wind Down began.
    case afterWindDown(started: Date)
    /// Sleep, because the user said `bedtime` at this instant.
    case bedtimeSaid(Date)
    /// Wake Up, around `wakeTime`.
    case aroundWakeTime(WallTime)
}

extension AutomaticCause {
    var isBedtimeSaid: Bool {
        if case .bedtimeSaid = self { true } else { false }
    }
}

/// One night's Wind Down, Sleep and Wake Up as intervals.
struct NightPlan {
    struct Part {
        var mode: Mode
        var cause: AutomaticCause
        var span: Range<Date>
    }

    /// The night's modes in order; empty parts are left out.
    let parts: [Part]
    /// From the first mode's start to the night's end.
    let span: Range<Date>

    /// The night that begins on the evening of `evening`: bedtime is its first `sleepTimes.bedtime`
    /// from noon that day on, wake time the first `sleepTimes.wakeTime` after bedtime.
    init(evening: CivilDate, sleepTimes: SleepTimes, actions: SleepActions, settings: AutomaticModeSettings,
         zone: LocalTimeZone) {
        let noon = WallTime(hour: 12, minute: 0)
        let bedDate = sleepTimes.bedtime >= noon ? evening : evening.adding(days: 1)
        let bedtime = zone.instant(of: bedDate, at: sleepTimes.bedtime)
        var wake = zone.instant(of: bedDate, at: sleepTimes.wakeTime)
        if wake <= bedtime { wake = zone.instant(of: bedDate.adding(days: 1), at: sleepTimes.wakeTime) }

        let windDownStart = bedtime.addingTimeInterval(-settings.windDownBeforeBedtime)
        let wakeUpEnd = wake.addingTimeInterval(settings.wakeUpAfterWakeTime)
        var wakeUpStart = wake.addingTimeInterval(-settings.wakeUpBeforeWakeTime)

        // "Go to bed" counts for this night when said between noon (or its Wind Down, for a bedtime
        // soon after noon) and the start of Wake Up.
        let saidFrom = min(zone.instant(of: evening, at: noon), windDownStart)
        let saidBedtime = actions.bedtimeAt.flatMap { said in
            Range(from: saidFrom, upTo: wakeUpStart).contains(said) ? said : nil
        }
        let start = min(windDownStart, saidBedtime ?? windDownStart)
        wakeUpStart = max(wakeUpStart, start)
        let end = actions.startDayAt.flatMap { Range(from: start, upTo: wakeUpEnd).contains($0) ? $0 : nil } ?? wakeUpEnd

        let pause = actions.stayUpAt.map { Range(from: $0, upTo: $0.addingTimeInterval(settings.stayUpPause)) }
        var automaticSleep = windDownStart.addingTimeInterval(settings.sleepAfterWindDown)
        if let pause, pause.contains(automaticSleep) { automaticSleep = pause.upperBound }
        let sleepStart = min(automaticSleep, saidBedtime ?? automaticSleep)
        let sleepCause: AutomaticCause = sleepStart == saidBedtime ? .bedtimeSaid(sleepStart) : .afterWindDown(started: windDownStart)

        var parts: [Part] = []
        func add(_ mode: Mode, _ cause: AutomaticCause, _ from: Date, _ to: Date) {
            let lower = max(from, start), upper = min(to, end)
            if lower < upper { parts.append(Part(mode: mode, cause: cause, span: Range(from: lower, upTo: upper))) }
        }
        let windDownEnd = min(sleepStart, wakeUpStart)
        // Said bedtime can come before Wind Down would have started: then there is no Wind Down to pause.
        if let pause, pause.overlaps(Range(from: windDownStart, upTo: windDownEnd)) {
            add(.windDown, .beforeBedtime(sleepTimes.bedtime), windDownStart, pause.lowerBound)
            add(.windDown, .beforeBedtime(sleepTimes.bedtime), pause.upperBound, windDownEnd)
        } else {
            add(.windDown, .beforeBedtime(sleepTimes.bedtime), windDownStart, windDownEnd)
        }
        add(.sleep, sleepCause, sleepStart, wakeUpStart)
        add(.wakeUp, .aroundWakeTime(sleepTimes.wakeTime), wakeUpStart, wakeUpEnd)
        self.parts = parts
        self.span = Range(from: start, upTo: end)
    }
}

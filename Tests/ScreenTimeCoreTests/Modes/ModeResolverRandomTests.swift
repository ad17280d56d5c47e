import FoundationEssentials
import ScreenTimeCore
import Harnesses
import XCTest

/// The resolver driven by long seeded random runs, as the agent drives it: ask at now, go to the
/// decided change or to the user's next command, with the clock stepped back and forward now and
/// then (up to 30 days), across daylight-saving changes. After every step the decision must hold up.
final class ModeResolverRandomTests: XCTestCase {
    struct Run {
        var random: SplitMix64
        let zone: LocalTimeZone
        var now: Date
        var inputs = ModeInputs()
        var steps = 0
        var simulated: TimeInterval = 0
        /// The decision's announced change, while nothing changed the inputs or the clock.
        var predicted: ModeChange?
        var nextID = 0

        init(seed: UInt64) {
            random = SplitMix64(seed: seed)
            zone = random.chance(0.5) ? CentralEuropeanZone() : FixedOffsetZone(seconds: Int.random(in: -12...14, using: &random) * 3600)
            // Between 2001 and 2037, so every daylight-saving change on the way is a real one.
            now = Date(timeIntervalSince1970: TimeInterval.random(in: 1e9...2.1e9, using: &random).rounded())
        }

        /// One thing the user (or the config, or a calendar) does at now.
        mutating func command() {
            predicted = nil
            let id = String(nextID)
            nextID += 1
            switch Int.random(in: 0..<12, using: &random) {
            case 0:
                let mode = random.chance(0.2) ? nil : random.pick(Mode.allCases)
                // A stored switch may come from the future after the clock stepped back.
                let since = random.chance(0.8) ? now : random.instant(near: now, within: 3 * 86_400)
                inputs.manual = mode.map { ManualSwitch(mode: $0, since: since,
                                                        until: random.chance(0.2) ? random.instant(near: now, within: 86_400) : nil) }
            case 1: inputs.sleepActions.bedtimeAt = sleepAction()
            case 2: inputs.sleepActions.stayUpAt = sleepAction()
            case 3: inputs.sleepActions.startDayAt = sleepAction()
            case 4:
                inputs.requestedBreaks.append(now)
                inputs.requestedBreaks = inputs.requestedBreaks.filter { $0 > now.addingTimeInterval(-ModeResolver.lookBack) }.suffix(50)
            case 5:
                let start = random.instant(near: now.addingTimeInterval(20 * 86_400), within: 21 * 86_400)
                if (try? inputs.cheatDays.book(start: start, now: now, zone: zone, id: id)) == nil, random.chance(0.3) {
                    // A hand-made row claiming any booking time: in force only if it keeps the notice.
                    var bookings = inputs.cheatDays.bookings
                    bookings.append(CheatDayBooking(id: id, start: start, bookedAt: random.instant(near: start, within: 86_400)))
                    inputs.cheatDays = CheatDayBook(bookings: bookings)
                }
                if inputs.cheatDays.bookings.count > 6, let first = inputs.cheatDays.bookings.first { inputs.cheatDays.cancel(id: first.id) }
            case 6:
                inputs.schedule.append(random.scheduleEntry(near: now, zone: zone, id: id))
                if inputs.schedule.count > 8 { inputs.schedule.removeFirst() }
            case 7:
                inputs.calendar.append(random.calendarEvent(near: now))
                if inputs.calendar.count > 20 { inputs.calendar.removeFirst() }
            case 8: inputs.automatic = random.automaticSettings()
            case 9: inputs.breaks = random.productivityBreaks()
            case 10: inputs.sleepTimes = SleepTimes(bedtime: random.wallTime(), wakeTime: random.wallTime())
            default: inputs.enabledModes = random.enabledModes()
            }
        }

        mutating func sleepAction() -> Date? {
            random.chance(0.1) ? nil : random.chance(0.8) ? now : random.instant(near: now, within: 2 * 86_400)
        }

        /// Moves the clock: to the decided change, a little, a lot, or a step of the wall clock.
        mutating func move(next: ModeChange?) {
            let before = now
            let choice = Int.random(in: 0..<20, using: &random)
            if let next, choice < 8 {
                now = next.at
                simulated += now.timeIntervalSince(before)
                return
            }
            predicted = nil
            switch choice {
            case 0..<14: now = now.addingTimeInterval(random.seconds(1...2 * 3600))
            case 14..<17: now = now.addingTimeInterval(random.seconds(1...3 * 86_400))
            case 17: now = now.addingTimeInterval(random.chance(0.3) ? -30 * 86_400 : -random.seconds(1...30 * 86_400))
            default: now = now.addingTimeInterval(random.chance(0.3) ? 30 * 86_400 : random.seconds(1...30 * 86_400))
            }
            // A step of the wall clock is not time the user lived through.
            if now > before, now.timeIntervalSince(before) <= 3 * 86_400 { simulated += now.timeIntervalSince(before) }
        }

        mutating func step() {
            if random.chance(0.3) { command() }
            let resolver = ModeResolver(inputs: inputs, zone: zone)
            let decision = resolver.resolve(at: now)
            check(decision)
            if random.chance(0.05) {
                // The day's timeline (status and reports) starts with the mode in force and agrees on the next change.
                let segments = resolver.timeline(from: now, to: now.addingTimeInterval(86_400))
                XCTAssertEqual(segments.first?.mode, decision.mode, "seed \(random.seed), step \(steps)")
                if let next = decision.next, next.at < now.addingTimeInterval(86_400), segments.count > 1 {
                    XCTAssertEqual(segments[1].start, next.at, "seed \(random.seed), step \(steps)")
                }
            }
            predicted = decision.next
            move(next: decision.next)
            steps += 1
        }

        func check(_ decision: ModeDecision) {
            let context = "seed \(random.seed), step \(steps), at \(zone.localDateTime(of: now)) (\(now.timeIntervalSince1970))"
            if let predicted { XCTAssertEqual(decision.mode, predicted.mode, "the announced change did not come: \(context)") }
            if let next = decision.next {
                XCTAssertGreaterThan(next.at, now, "a change in the past: \(context)")
                XCTAssertNotEqual(next.mode, decision.mode, "a change to the same mode: \(context)")
            }
            XCTAssertFalse(decision.reason.explanation(zone: zone).isEmpty, context)
            XCTAssertTrue(decision.mode == .standard || inputs.enabledModes.contains(decision.mode),
                          "\(decision.mode) is turned off: \(context)")
            if decision.mode == .cheatDay {
                XCTAssertNotNil(inputs.cheatDays.active(at: now), "a Cheat Day without a valid booking: \(context)")
            }
            switch decision.productivityBreak {
            case nil: break
            case .working(let nextBreak)?:
                XCTAssertEqual(decision.mode, .productivity, context)
                XCTAssertGreaterThan(nextBreak, now, "a break due in the past: \(context)")
            case .onBreak(let since, let until)?:
                XCTAssertEqual(decision.mode, .productivity, context)
                XCTAssertTrue(since <= now && now < until, "a break not under way: \(context)")
            }
        }
    }

    func testSeededRandomRuns() {
        let seeds = SplitMix64.seeds(count: 8, environment: ProcessInfo.processInfo.environment)
        let stepsPerSeed = Int(ProcessInfo.processInfo.environment["SCREENTIME_RESOLVER_STEPS"] ?? "") ?? 1_000
        var (steps, simulated) = (0, 0.0)
        for seed in seeds {
            var run = Run(seed: seed)
            for _ in 0..<stepsPerSeed { run.step() }
            steps += run.steps
            simulated += run.simulated
        }
        print("ModeResolver random runs: \(steps) steps, \(Int(simulated / 86_400)) simulated days, seeds \(seeds.map(String.init).joined(separator: ","))")
    }
}

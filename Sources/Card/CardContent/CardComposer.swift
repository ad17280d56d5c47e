import FoundationEssentials
import LocalSystem
import ScreenTimeCore

/// Builds what a card shows from the agent's request and the user's own files (config, usage,
/// calendars, to-do list, feeds). Never fails: what cannot be read becomes a section's note.
public enum CardComposer {
    public static func document(for request: CardRequest, environment: [String: String]) -> CardDocument {
        document(for: request, environment: environment, zone: SystemTimeZone())
    }

    /// The same in a given time zone (tests, and callers that know the user's zone).
    public static func document(for request: CardRequest, environment: [String: String], zone: LocalTimeZone) -> CardDocument {
        let sources = CardSources(environment: environment, zone: zone)
        switch request.occasion {
        case .limitReached: return limitCard(request, sources)
        case .notAllowed, .unlocked: return modeCard(request, sources)
        case .breakStarted: return breakCard(request, sources)
        case .rundown: return rundownCard(request, sources)
        }
    }

    /// An app at its daily limit: its time today and this week, the way through, Close.
    static func limitCard(_ request: CardRequest, _ sources: CardSources) -> CardDocument {
        let app = request.app ?? AppInfo(id: AppID("screentime"), name: CardWording.unnamedApp)
        let statistics = sources.statistics(of: app.id, at: request.at)
        var buttons: [CardButton] = []
        if let grant = request.grant { buttons.append(CardButton(key: CardChoice.continue, label: CardWording.continueFor(grant), role: .primary)) }
        buttons.append(closeButton)
        return CardDocument(icon: app.icon ?? Mode.standard.iconName, title: CardWording.limitTitle(app), statistics: statistics,
                            message: CardWording.limitMessage(app, used: statistics?.today, grant: request.grant), buttons: buttons)
    }

    /// An app the mode does not include, or the mode's card at unlock (no app): the mode's words,
    /// what it offers now, its own actions, the way through.
    static func modeCard(_ request: CardRequest, _ sources: CardSources) -> CardDocument {
        let onBreak = request.mode == .productivity && request.breakEndsAt != nil
        let response = sources.settings.profile(for: request.mode, onBreak: onBreak).onDisallowedApp
        if request.app == nil, response == .morningReminder { return rundownCard(request, sources) }
        var sections: [CardSection] = []
        var buttons: [CardButton] = []
        switch response {
        case .disableShowingBreakAndAgenda:
            sections = productivitySections(request, sources)
        case .quickNavigation:
            buttons = quickNavigation(sources)
            if buttons.isEmpty { sections.append(CardSection(title: CardWording.quickNavigation, items: [], note: CardWording.noQuickApps)) }
        case .offerCalmAlternatives:
            buttons = calmAlternatives(sources)
            if buttons.isEmpty { sections.append(CardSection(title: CardWording.calmAlternatives, items: [], note: CardWording.noAlternatives)) }
            buttons.append(CardButton(key: CardChoice.bedtime, label: CardWording.goToBed, role: .primary))
            buttons.append(CardButton(key: CardChoice.stayUp, label: CardWording.stayUp))
        case .sleepShortcuts:
            buttons = sleepShortcuts(sources)
        case .morningReminder:
            buttons.append(CardButton(key: CardChoice.startDay, label: CardWording.startDay))
        case .suggestActivityAwayFromDesk:
            let ends = request.breakEndsAt.map { [CardWording.breakEnds(at: sources.clock($0))] } ?? []
            sections.append(CardSection(title: CardWording.yourBreak, items: request.activity.map { [$0] + ends } ?? ends))
        case .countdownThenDisable, .nothing:
            break
        }
        if request.app != nil, let grant = request.grant {
            let label = response == .morningReminder ? CardWording.continueNow : Wording.moreTime(grant)
            let primary = !buttons.contains { $0.role == .primary }
            buttons.append(CardButton(key: CardChoice.continue, label: label, role: primary ? .primary : .normal))
        }
        if let leave = request.leave {
            sections.append(CardSection(title: CardWording.leavingEarly, items: [leave]))
            buttons.append(CardButton(key: CardChoice.leaveMode, label: CardWording.leaveMode(request.mode)))
        }
        buttons.append(closeButton)
        let title = request.app.map { CardWording.notAllowedTitle($0, in: request.mode, response: response) } ?? CardWording.modeTitle(request.mode)
        return CardDocument(icon: request.app?.icon ?? request.mode.iconName, title: title,
                            statistics: request.app.flatMap { sources.statistics(of: $0.id, at: request.at) },
                            message: CardWording.modeMessage(request.mode, response: response, app: request.app, grant: request.grant),
                            sections: sections, buttons: buttons)
    }

    /// A Productivity break: one activity away from the desk, and when the break ends.
    static func breakCard(_ request: CardRequest, _ sources: CardSources) -> CardDocument {
        CardDocument(icon: Mode.productivity.iconName, title: CardWording.breakTitle,
                     message: CardWording.breakMessage(activity: request.activity, endsAt: request.breakEndsAt.map(sources.clock)),
                     buttons: [closeButton])
    }

    /// The morning run-down (`Rundown`).
    static func rundownCard(_ request: CardRequest, _ sources: CardSources) -> CardDocument {
        Rundown(sources: sources).document(at: request.at)
    }

    static let closeButton = CardButton(key: CardChoice.close, label: CardWording.close, role: .close)

    /// How many events a Productivity card lists.
    static let eventCount = 3

    /// How many to-dos a Productivity card lists.
    static let toDoCount = 5

    /// The next break, the next events today, the first open to-dos.
    static func productivitySections(_ request: CardRequest, _ sources: CardSources) -> [CardSection] {
        var sections: [CardSection] = []
        if let due = request.nextBreakAt {
            sections.append(CardSection(title: CardWording.nextBreak,
                                        items: [CardWording.breakDue(in: due.timeIntervalSince(request.at), at: sources.clock(due))]))
        }
        if let agenda = sources.restOfDayEvents(at: request.at) {
            let items = agenda.events.prefix(eventCount).map { event in
                CardWording.event(event.title, location: event.location,
                                  time: event.allDay ? nil : (sources.clock(event.start), sources.clock(event.end)))
            }
            let problems = agenda.problems.map(\.description).joined(separator: "; ")
            sections.append(CardSection(title: CardWording.nextEvents, items: items,
                                        note: problems.isEmpty ? (items.isEmpty ? CardWording.noEvents : nil) : problems))
        }
        switch sources.openToDos() {
        case nil: break
        case .success(let items):
            sections.append(CardSection(title: CardWording.toDo, items: items.prefix(toDoCount).map(\.text),
                                        note: items.isEmpty ? CardWording.nothingToDo : nil))
        case .failure(let error):
            sections.append(CardSection(title: CardWording.toDo, items: [], note: error.message))
        }
        return sections
    }

    /// How many installed apps Social offers when the user named none.
    static let quickNavigationCount = 4

    /// Social: the user's quick-nav apps; without a list, the installed messaging, calling and maps apps.
    static func quickNavigation(_ sources: CardSources) -> [CardButton] {
        let entries = sources.entries
        let chosen = sources.settings.content.quickNav
        if !chosen.isEmpty { return chosen.compactMap { launchButton(sources.expandingHome($0), entries: entries) } }
        return entries.filter { sources.settings.groups(of: AppInfo($0)).contains(.communication) || $0.categories.contains("Maps") }
            .prefix(quickNavigationCount).map(entryButton)
    }

    /// How many calm apps Wind Down offers when the user named none.
    static let alternativeCount = 3

    /// Wind Down: the user's calm alternatives (apps or links); without a list, installed
    /// educational apps and puzzle games, the study's examples.
    static func calmAlternatives(_ sources: CardSources) -> [CardButton] {
        let entries = sources.entries
        let chosen = sources.settings.content.alternatives
        if !chosen.isEmpty { return chosen.compactMap { launchButton(sources.expandingHome($0), entries: entries) } }
        return entries.filter { $0.categories.contains { ["Education", "LogicGame"].contains($0) } }.prefix(alternativeCount).map(entryButton)
    }

    /// Sleep: the sleep music, a messaging app, the clock.
    static func sleepShortcuts(_ sources: CardSources) -> [CardButton] {
        var buttons: [CardButton] = []
        if let music = sources.settings.content.sleepMusic {
            buttons.append(CardButton(key: CardChoice.launchPrefix + "music", label: CardWording.sleepMusic, launch: .music(sources.expandingHome(music))))
        }
        let entries = sources.entries
        for group in [AppGroup.communication, .clock] {
            if let entry = entries.first(where: { sources.settings.groups(of: AppInfo($0)).contains(group) }) {
                buttons.append(entryButton(entry))
            }
        }
        return buttons
    }

    /// A launch button for a desktop-entry id (nil when not installed) or a link or file.
    static func launchButton(_ item: String, entries: [DesktopEntry]) -> CardButton? {
        if item.contains("://") || item.hasPrefix("/") {
            return CardButton(key: CardChoice.launchPrefix + item, label: linkLabel(item), launch: .uri(item))
        }
        return entries.first { $0.id == item }.map(entryButton)
    }

    static func entryButton(_ entry: DesktopEntry) -> CardButton {
        CardButton(key: CardChoice.launchPrefix + entry.id, label: entry.name, launch: .desktopEntry(entry.id))
    }

    /// `youtube.com/@3blue1brown` for `https://www.youtube.com/@3blue1brown`; a file's name for a path.
    static func linkLabel(_ link: String) -> String {
        if link.hasPrefix("/") || link.hasPrefix("file://") { return String(link.split(separator: "/").last ?? Substring(link)) }
        var rest = Substring(link)
        if let scheme = rest.firstRange(of: "://") { rest = rest[scheme.upperBound...] }
        if rest.hasPrefix("www.") { rest = rest.dropFirst(4) }
        while rest.hasSuffix("/") { rest = rest.dropLast() }
        return String(rest)
    }
}

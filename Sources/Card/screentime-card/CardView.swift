import FoundationEssentials
import ScreenTimeCore

/// A `CardDocument` drawn as a card centred on a dimmed full-screen window: icon, title, today's
/// time and a bar per day of the week, the message, the sections, the buttons. Sizes are measured
/// in lines of the user's own text (font size and scale), so the card reads the same at 4K and with
/// large text; boxes and start alignment only, so GTK mirrors it for right-to-left languages.
/// Keyboard first: the primary button has the focus (Enter), Tab moves, Escape is Close.
final class CardView {
    let window: Widget
    private var chosen = false

    /// `choose` is called once, with the button chosen (Escape and a closed window: the Close button,
    /// or a plain `close` when the document has none).
    init(document: CardDocument, monitorAt point: (x: Int32, y: Int32)?, choose: @escaping (CardButton) -> Void) {
        Gtk.loadStyle(Self.style(composited: Gtk.isComposited))
        window = .window(title: document.title)
        window.addClass("screentime-card")
        let screenHeight = window.coverMonitor(at: point)

        let line = window.lineHeight
        let card = Widget.box(vertical: true, spacing: line / 2)
        card.addClass("card")
        card.center()
        let content = Widget.box(vertical: true, spacing: line / 2)
        content.setMargins(line * 3 / 2)
        card.add(content)

        content.add(.icon(document.icon, size: line * 3))
        let title = Widget.label(document.title, wrapAt: 40)
        title.addClass("card-title")
        content.add(title)
        if let statistics = document.statistics { content.add(Self.statistics(statistics, line: line)) }
        content.add(.label(document.message, wrapAt: 56))
        if !document.sections.isEmpty {
            // A long run-down scrolls; the card's title and buttons stay in view.
            let sections = Widget.box(vertical: true, spacing: line / 2)
            for section in document.sections { sections.add(Self.section(section, line: line)) }
            content.add(.scrolled(sections, maxHeight: (screenHeight ?? line * 40) * 2 / 5))
        }

        let buttons = Widget.buttonBox()
        buttons.setSpacing(line / 2)
        var primary: Widget?
        let close = document.buttons.first { $0.role == .close } ?? CardButton(key: CardChoice.close, label: "Close", role: .close)
        let once: (CardButton) -> Void = { [unowned self] button in
            guard !chosen else { return }
            chosen = true
            window.hide()
            choose(button)
        }
        for choice in document.buttons {
            let button = Widget.button(choice.label)
            if choice.role == .primary, primary == nil {
                button.addClass("suggested-action")
                primary = button
            }
            button.onClicked { once(choice) }
            buttons.add(button)
        }
        content.add(buttons)
        window.add(card)
        window.onEscape { once(close) }
        window.onCloseRequest { once(close) }

        primary?.makeDefault(in: window)
        window.present()
        primary?.grabFocus()
        fadeIn()
    }

    /// "Today 1 h 5 min" over the week's bars, each as high as its share of the longest day.
    private static func statistics(_ statistics: CardStatistics, line: Int32) -> Widget {
        let box = Widget.box(vertical: true, spacing: line / 3)
        let today = Widget.label("Today: \(DurationText.spoken(statistics.today))")
        today.addClass("card-today")
        box.add(today)
        let longest = statistics.week.map(\.seconds).max() ?? 0
        let week = Widget.grid(rowSpacing: UInt32(line / 4), columnSpacing: UInt32(line / 2))
        week.center()
        for (column, day) in statistics.week.enumerated() {
            let bar = Widget.bar(fraction: longest > 0 ? day.seconds / longest : 0, width: line, height: line * 3)
            week.attach(bar, column: Int32(column), row: 0)
            let label = Widget.label(day.label)
            label.addClass("card-dim")
            week.attach(label, column: Int32(column), row: 1)
        }
        box.add(week)
        return box
    }

    private static func section(_ section: CardSection, line: Int32) -> Widget {
        let box = Widget.box(vertical: true, spacing: line / 6)
        let heading = Widget.label(section.title, alignStart: true)
        heading.addClass("card-section-title")
        box.add(heading)
        for item in section.items { box.add(.label(item, wrapAt: 56, alignStart: true)) }
        if let note = section.note {
            let label = Widget.label(note, wrapAt: 56, alignStart: true)
            label.addClass("card-dim")
            box.add(label)
        }
        return box
    }

    /// About 150 ms where a compositor can blend it; at once elsewhere (no opacity without one).
    private func fadeIn() {
        guard Gtk.isComposited else { return }
        let steps = 9
        var step = 0
        window.setOpacity(0)
        Gtk.every(.milliseconds(16)) { [window] in
            step += 1
            window.setOpacity(Double(step) / Double(steps))
            return step < steps
        }
    }

    /// The backdrop is see-through black where windows are blended, an opaque dark gray elsewhere.
    /// Font sizes are relative to the user's (em); pixels only for hairlines and corners.
    static func style(composited: Bool) -> String {
        """
        window.screentime-card { background-color: \(composited ? "rgba(0, 0, 0, 0.72)" : "#202124"); }
        .card { background-color: @theme_bg_color; color: @theme_fg_color; border-radius: 12px; }
        .card-title { font-size: 1.6em; font-weight: bold; }
        .card-today { font-size: 1.2em; }
        .card-section-title { font-weight: bold; }
        .card-dim { opacity: 0.7; }
        """
    }
}

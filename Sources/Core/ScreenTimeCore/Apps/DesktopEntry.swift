/// The parts of a desktop entry (freedesktop Desktop Entry Specification) that identify an app.
public struct DesktopEntry: Equatable, Sendable {
    /// `firefox` for `firefox.desktop`; `org.gnome.Calculator` for `org.gnome.Calculator.desktop`.
    public var id: String
    public var name: String
    public var icon: String?
    public var categories: [String]
    public var startupWMClass: String?
    /// `NoDisplay=true`: the entry names an app but is not offered in menus (nor on a card's buttons).
    public var noDisplay: Bool
    public init(id: String, name: String, icon: String? = nil, categories: [String] = [],
                startupWMClass: String? = nil, noDisplay: Bool = false) {
        self.id = id
        self.name = name
        self.icon = icon
        self.categories = categories
        self.startupWMClass = startupWMClass
        self.noDisplay = noDisplay
    }

    /// Reads an application entry; nil for anything that is not a visible application
    /// (Type other than Application, Hidden, NoDisplay entries stay: they still name apps).
    public init?(id: String, text: String) {
        guard let file = try? KeyFile(parsing: text) else { return nil }
        let section = "Desktop Entry"
        guard file.value("Type", in: section) == "Application", file.value("Hidden", in: section) != "true",
              let name = file.value("Name", in: section) else { return nil }
        self.init(id: id, name: name, icon: file.value("Icon", in: section).flatMap { $0.isEmpty ? nil : $0 },
                  categories: KeyFileList.split(file.value("Categories", in: section) ?? ""),
                  startupWMClass: file.value("StartupWMClass", in: section), noDisplay: file.value("NoDisplay", in: section) == "true")
    }
}


import ScreenTimeCore

/// `site add|rm|list`: web sites as the browser extension names them, put in or taken out of a
/// group (`[groups]`, as `group` does for apps), each typed as a host or URL's host and kept as
/// its registrable domain (`site add www.news.example` keeps `news.example`).
struct SiteCommand: Subcommand {
    static let name = "site"
    static let abstract = "Web sites the browser extension counts: put one in a group (content by default) or take it out"
    static let usage = ["site list", "site add DOMAIN [--group GROUP]", "site rm DOMAIN [--group GROUP]"]

    enum Action {
        case list
        case add(AppGroup, Site)
        case remove(AppGroup, Site)
    }

    let action: Action

    init(_ arguments: Arguments) throws {
        let group = try arguments.option("group").map(GroupCommand.group) ?? .content
        switch try arguments.next("an action (list, add, rm)") {
        case "list": action = .list
        case "add": action = .add(group, try Self.site(arguments.next("DOMAIN")))
        case "rm": action = .remove(group, try Self.site(arguments.next("DOMAIN")))
        case let other: throw UsageError(message: "unknown action `\(other)`")
        }
        try arguments.finish()
    }

    static func site(_ typed: String) throws -> Site {
        do { return try Site(host: typed) } catch { throw UsageError(message: error.description) }
    }

    func run(_ context: Context) throws {
        switch action {
        case .add(let group, let site):
            let pending = try context.editConfig { $0.setGroupMember(group, AppID(site.domain), true) }
            context.tell("\(site) is in \(group.rawValue)", pending: pending)
        case .remove(let group, let site):
            let pending = try context.editConfig { $0.setGroupMember(group, AppID(site.domain), false) }
            context.tell("\(site) is out of \(group.rawValue), whatever the built-in lists say", pending: pending)
        case .list:
            let width = SiteGroup.allCases.map(\.rawValue.count).max() ?? 0
            for kind in SiteGroup.allCases {
                context.print("\(kind.rawValue.padded(to: width))  \(kind.sites.sorted().joined(separator: ", "))")
            }
            context.print("Built in, counted in content; other sites count as the browser. Your own: `screentime group list`.")
        }
    }
}

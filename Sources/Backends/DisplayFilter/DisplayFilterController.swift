import CX11
import FoundationEssentials
import ScreenTimeCore

/// The screen's colour filter on X11: picks a method per output, saves the originals before
/// changing anything, fades between filters, follows hot-plugged outputs and puts everything back.
///
/// Clock-driven and single-threaded: `setFilter` and `step` return the next deadline for the
/// caller's poll loop; nothing here sleeps or spawns threads.
public final class DisplayFilterController {
    /// How long a change of filter takes to fade in.
    public static let fadeDuration = ColorFilterFade.duration
    /// How many visible steps a fade has.
    public static let fadeSteps = ColorFilterFade.steps

    private let randr: RandRConnection
    private let store: SavedDisplayState
    private var methods: [Output: any DisplayFilterMethod] = [:]
    private var fade: ColorFilterFade?
    /// Whether originals are saved (in memory and on disk) and some filter may be on screen.
    private var filtering = false
    private var started = false
    private var closed = false

    /// The filter on screen now (mid-fade: the blend shown at the last step).
    public private(set) var shown: ColorFilter = .none
    /// The filter being faded to, or on screen when no fade runs.
    public private(set) var target: ColorFilter = .none

    /// Opens an X connection of its own (`nil`: `$DISPLAY`). Its RandR events stay separate from
    /// the agent's window events; poll `pollDescriptor` and call `drainEvents()`.
    /// `runtimeDirectory` is screentime's (`XDGPaths.runtimeDirectory`); originals go to `display-originals` in it.
    public convenience init(displayName: String? = nil, runtimeDirectory: String) throws {
        try self.init(randr: RandRConnection(displayName: displayName), runtimeDirectory: runtimeDirectory)
    }

    /// Shares a connection owned elsewhere (an Xlib `Display *`); the owner must pass RandR events
    /// to `handleEvent(_:)` and keep the connection open until after `restore()`.
    public convenience init(sharing display: OpaquePointer, runtimeDirectory: String) throws {
        try self.init(randr: RandRConnection(display: display, owns: false), runtimeDirectory: runtimeDirectory)
    }

    private init(randr: RandRConnection, runtimeDirectory: String) {
        self.randr = randr
        self.store = SavedDisplayState(runtimeDirectory: runtimeDirectory)
    }

    /// Where the originals are kept while a filter is on.
    public var savedStatePath: String { store.directory }

    /// A descriptor to poll for RandR events (own connection only; with a shared one it is the owner's).
    public var pollDescriptor: Int32 { randr.connectionDescriptor }

    // MARK: Lifecycle

    /// Puts back anything a previous run left on screen (after a SIGKILL or a crash), picks a
    /// method per output and starts listening for outputs coming and going.
    @discardableResult
    public func start() throws -> [DisplayOutputReport] {
        try ensureOpen()
        if !store.isEmpty { try restoreFromSavedState() }
        try rescanOutputs()
        randr.selectChangeEvents()
        started = true
        return report()
    }

    /// Looks at the outputs and picks their methods without changing or restoring anything
    /// (for `screentime doctor`, which may run beside the agent).
    @discardableResult
    public func probe() throws -> [DisplayOutputReport] {
        try ensureOpen()
        try rescanOutputs()
        return report()
    }

    /// Fades to `filter` over `fadeDuration` (or at once with `fade: false`). Returns when to call
    /// `step(now:)` next, or nil when nothing is left to do.
    @discardableResult
    public func setFilter(_ filter: ColorFilter, now: Date, fade animated: Bool = true) throws -> Date? {
        try ensureOpen()
        if !started { try start() }
        target = filter
        if filter == shown {
            fade = nil
            if filter.isIdentity { try finishFiltering() }
            return nil
        }
        if !filtering { try beginFiltering() }
        fade = ColorFilterFade(from: shown, to: filter, start: now)
        return animated ? now.addingTimeInterval(ColorFilterFade.stepInterval) : try step(now: now.addingTimeInterval(Self.fadeDuration))
    }

    /// Shows the fade's state at `now`. Returns the next deadline, or nil once the target is shown.
    @discardableResult
    public func step(now: Date) throws -> Date? {
        guard let fade else { return nil }
        try ensureOpen()
        let frame = fade.frame(at: now)
        guard let next = frame.next else {
            self.fade = nil
            if fade.to.isIdentity {
                try finishFiltering()
            } else {
                try show(fade.to)
            }
            return nil
        }
        try show(frame.filter)
        return next
    }

    /// Puts every output back exactly as it was and forgets the saved originals. Safe to call
    /// twice, and from an exit path (it only talks to the X server and unlinks files).
    public func restore() throws {
        fade = nil
        target = .none
        try finishFiltering()
    }

    /// Restores what the originals files record (a previous run's leftovers) and deletes each
    /// file once its output is back. Returns the names of the outputs restored.
    @discardableResult
    public func restoreFromSavedState() throws -> [String] {
        try ensureOpen()
        let outputs = try randr.outputs()
        var restored: [String] = []
        for (file, originals) in try store.load() {
            let output = outputs.first { $0.name == originals.outputName }
            try originals.restore(on: randr, output: output?.output, crtc: output?.crtc)
            store.remove(file: file)
            restored.append(originals.outputName)
        }
        // Whatever this instance had on screen is gone now too.
        for method in methods.values { method.originals = nil }
        filtering = false
        fade = nil
        shown = .none
        target = .none
        return restored
    }

    /// Closes the connection when this controller opened it. Does not restore: call `restore()` first.
    public func close() {
        guard !closed else { return }
        closed = true
        randr.close()
    }

    deinit { close() }

    // MARK: Outputs coming and going

    /// Reads pending events on the controller's own connection; when outputs changed, the new ones
    /// get the current filter. Returns whether anything changed.
    @discardableResult
    public func drainEvents() throws -> Bool {
        try ensureOpen()
        guard randr.drainChangeEvents() > 0 else { return false }
        try rescanOutputs()
        return true
    }

    /// For a shared connection: pass every event; returns true when it was a RandR change (handled).
    @discardableResult
    public func handleEvent(_ event: UnsafeMutablePointer<XEvent>) throws -> Bool {
        guard randr.isChangeEvent(event) else { return false }
        try rescanOutputs()
        return true
    }

    /// Each output with its gamma size, whether it has a CTM, the method in use and what that
    /// method cannot show of the current target (for `screentime doctor`).
    public func report() -> [DisplayOutputReport] { report(for: target) }

    /// The same, as if `filter` were asked for: e.g. whether grayscale would show.
    public func report(for filter: ColorFilter) -> [DisplayOutputReport] {
        methods.values.map { $0.report(for: filter) }.sorted { $0.name < $1.name }
    }

    // MARK: Internals

    private func ensureOpen() throws {
        if closed { throw DisplayFilterError.connectionClosed }
    }

    private func rescanOutputs() throws {
        let current = try randr.outputs().filter { $0.crtc != nil }
        var firstError: Error?
        // Gone, or moved to another CRTC: the old CRTC gets its ramp back and the output starts afresh.
        for (output, method) in methods where !current.contains(where: { $0.output == output && $0.crtc == method.info.crtc }) {
            methods[output] = nil
            guard filtering else { continue }
            do {
                try method.restore()
                store.remove(outputName: method.info.name)
            } catch { firstError = firstError ?? error }
        }
        for info in current where methods[info.output] == nil {
            let method = DisplayMethodChooser.method(for: info, randr: randr)
            methods[info.output] = method
            guard filtering else { continue }
            do {
                try startAndPersist(method)
                try method.apply(shown)
            } catch { firstError = firstError ?? error }
        }
        if let firstError { throw firstError }
    }

    /// Saves every output's originals, on disk first, before anything changes.
    private func beginFiltering() throws {
        for method in methods.values.sorted(by: { $0.info.name < $1.info.name }) {
            try startAndPersist(method)
        }
        filtering = true
    }

    private func startAndPersist(_ method: any DisplayFilterMethod) throws {
        // A CRTC shared with an output already filtered (clone mode) shows our ramp now; its
        // originals are the ones saved with that output.
        if let crtc = method.info.crtc,
           let sibling = methods.values.first(where: { $0 !== method && $0.info.crtc == crtc && $0.originals != nil }),
           var shared = sibling.originals {
            shared.outputName = method.info.name
            shared.ctm = try randr.ctm(of: method.info.output)
            method.originals = shared
            if let originals = method.originals { try store.save(originals) }
        } else {
            let started = try DisplayMethodChooser.start(method)
            methods[started.info.output] = started
            if let originals = started.originals { try store.save(originals) }
        }
    }

    private func show(_ filter: ColorFilter) throws {
        var firstError: Error?
        for method in methods.values {
            do { try method.apply(filter) } catch { firstError = firstError ?? error }
        }
        shown = filter
        if let firstError { throw firstError }
    }

    /// Puts the originals back and deletes their files; files of outputs that failed stay for the next start.
    private func finishFiltering() throws {
        // Once closed there is no way to the server; the files stay for the next start.
        guard filtering, !closed else { return }
        var firstError: Error?
        for method in methods.values {
            do {
                try method.restore()
                store.remove(outputName: method.info.name)
                method.originals = nil
            } catch { firstError = firstError ?? error }
        }
        shown = .none
        if let firstError { throw firstError }
        filtering = false
    }
}

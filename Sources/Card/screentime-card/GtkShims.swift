import CGtk
import FoundationEssentials

/// The only file calling GTK (3, with gtk-layer-shell). GTK's widgets become `Widget` values;
/// Swift closures reach GTK's C callbacks through `@convention(c)` trampolines and an `Unmanaged`
/// box kept for the life of the process (a card lives a few seconds to minutes).
enum Gtk {
    /// Opens the display; false when there is none (no DISPLAY/WAYLAND_DISPLAY, or it refuses us).
    /// The program name is set first: it becomes WM_CLASS on X11 and the app id on Wayland.
    static func start(programName: String) -> Bool {
        g_set_prgname(programName)
        gdk_set_program_class(programName)
        return gtk_init_check(nil, nil) != 0
    }

    static func run() { gtk_main() }
    static func quit() { gtk_main_quit() }

    /// Lets GTK draw what is pending (a hidden window really hidden) without running the main loop.
    static func flushEvents() {
        while gtk_events_pending() != 0 { gtk_main_iteration_do(0) }
        gdk_display_flush(gdk_display_get_default())
    }

    /// Styles every widget of the process (class names as `Widget.addClass` gives them).
    static func loadStyle(_ css: String) {
        let provider = gtk_css_provider_new()
        gtk_css_provider_load_from_data(provider, css, -1, nil)
        gtk_style_context_add_provider_for_screen(gdk_screen_get_default(), OpaquePointer(provider),
                                                  UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    }

    /// Whether a compositor blends windows (then the backdrop can be see-through and fade in).
    static var isComposited: Bool { gdk_screen_is_composited(gdk_screen_get_default()) != 0 }

    /// The centre of another client's X window (the disabled app's), in the logical pixels
    /// `coverMonitor(at:)` takes; nil off X11 or when the window is gone.
    static func centreOfX11Window(_ xid: UInt) -> (x: Int32, y: Int32)? {
        var x: Int32 = 0, y: Int32 = 0
        return screentime_x11_window_centre(xid, &x, &y) != 0 ? (x, y) : nil
    }

    /// Whether the compositor offers the layer shell (wlroots, KDE; never on X11).
    static var hasLayerShell: Bool { gtk_layer_is_supported() != 0 }

    /// Retained closures (see the type's comment). Only GTK's one thread, the main thread, touches
    /// them (GTK is not thread-safe, and nothing else runs in the card): so `nonisolated(unsafe)`.
    nonisolated(unsafe) fileprivate static var boxes: [AnyObject] = []

    fileprivate static func retain<T: AnyObject>(_ box: T) -> UnsafeMutableRawPointer {
        boxes.append(box)
        return Unmanaged.passUnretained(box).toOpaque()
    }

    /// Calls `action` every `interval` until it returns false.
    static func every(_ interval: Duration, _ action: @escaping () -> Bool) {
        let milliseconds = UInt32(interval.components.seconds * 1000 + interval.components.attoseconds / 1_000_000_000_000_000)
        let trampoline: @convention(c) (gpointer?) -> gboolean = { data in
            Unmanaged<ClosureBox<() -> Bool>>.fromOpaque(data!).takeUnretainedValue().closure() ? 1 : 0
        }
        g_timeout_add(milliseconds, trampoline, retain(ClosureBox(action)))
    }
}

private final class ClosureBox<T> {
    let closure: T
    init(_ closure: T) { self.closure = closure }
}

private final class BarBox {
    let fraction: Double
    init(_ fraction: Double) { self.fraction = fraction }
}

private extension OpaquePointer {
    func cast<T>() -> UnsafeMutablePointer<T> { UnsafeMutablePointer<T>(self) }
}

/// A GTK widget (owned by its parent container, or by GTK for a top-level window).
struct Widget {
    let raw: UnsafeMutablePointer<GtkWidget>

    private func cast<T>() -> UnsafeMutablePointer<T> { OpaquePointer(raw).cast() }
    private var object: gpointer { UnsafeMutableRawPointer(raw) }

    // MARK: Making widgets

    static func window(title: String) -> Widget {
        let window = Widget(raw: gtk_window_new(GTK_WINDOW_TOPLEVEL))
        gtk_window_set_title(window.cast(), title)
        return window
    }

    static func box(vertical: Bool, spacing: Int32) -> Widget {
        Widget(raw: gtk_box_new(vertical ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL, spacing))
    }

    static func grid(rowSpacing: UInt32, columnSpacing: UInt32) -> Widget {
        let grid = Widget(raw: gtk_grid_new())
        gtk_grid_set_row_spacing(grid.cast(), rowSpacing)
        gtk_grid_set_column_spacing(grid.cast(), columnSpacing)
        gtk_grid_set_column_homogeneous(grid.cast(), 1)
        return grid
    }

    /// Plain text, never markup (titles and feed text come from elsewhere). `maxCharacters` makes
    /// it wrap at words; alignment `start` follows the text direction.
    static func label(_ text: String, wrapAt maxCharacters: Int32? = nil, alignStart: Bool = false) -> Widget {
        let label = Widget(raw: gtk_label_new(nil))
        gtk_label_set_text(label.cast(), text)
        if let maxCharacters {
            gtk_label_set_line_wrap(label.cast(), 1)
            gtk_label_set_line_wrap_mode(label.cast(), PANGO_WRAP_WORD_CHAR)
            gtk_label_set_max_width_chars(label.cast(), maxCharacters)
            gtk_label_set_justify(label.cast(), alignStart ? GTK_JUSTIFY_LEFT : GTK_JUSTIFY_CENTER)
        }
        if alignStart {
            gtk_widget_set_halign(label.raw, GTK_ALIGN_START)
            gtk_label_set_xalign(label.cast(), 0)
        }
        return label
    }

    /// An icon from the theme by name, or from a file by absolute path, `size` pixels square.
    static func icon(_ name: String, size: Int32) -> Widget {
        if name.hasPrefix("/"), let pixbuf = gdk_pixbuf_new_from_file_at_size(name, size, size, nil) {
            defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
            return Widget(raw: gtk_image_new_from_pixbuf(pixbuf))
        }
        // An app without an icon in the theme gets the generic one, not the "missing image" sign.
        let known = gtk_icon_theme_has_icon(gtk_icon_theme_get_default(), name) != 0
        let image = Widget(raw: gtk_image_new_from_icon_name(known ? name : "application-x-executable", GTK_ICON_SIZE_DIALOG))
        gtk_image_set_pixel_size(image.cast(), size)
        return image
    }

    /// A bar filled from the bottom to `fraction` (0...1) in the text colour, over a faint trough.
    static func bar(fraction: Double, width: Int32, height: Int32) -> Widget {
        let area = Widget(raw: gtk_drawing_area_new())
        gtk_widget_set_size_request(area.raw, width, height)
        gtk_widget_set_halign(area.raw, GTK_ALIGN_CENTER)
        let draw: @convention(c) (UnsafeMutablePointer<GtkWidget>?, OpaquePointer?, gpointer?) -> gboolean = { widget, cairo, data in
            guard let widget, let cairo, let data else { return 0 }
            let fraction = min(max(Unmanaged<BarBox>.fromOpaque(data).takeUnretainedValue().fraction, 0), 1)
            let width = Double(gtk_widget_get_allocated_width(widget)), height = Double(gtk_widget_get_allocated_height(widget))
            let style = gtk_widget_get_style_context(widget)
            var color = GdkRGBA()
            gtk_style_context_get_color(style, gtk_style_context_get_state(style), &color)
            cairo_set_source_rgba(cairo, color.red, color.green, color.blue, color.alpha * 0.15)
            cairo_rectangle(cairo, 0, 0, width, height)
            cairo_fill(cairo)
            cairo_set_source_rgba(cairo, color.red, color.green, color.blue, color.alpha * 0.8)
            cairo_rectangle(cairo, 0, height * (1 - fraction), width, height * fraction)
            cairo_fill(cairo)
            return 0
        }
        screentime_g_signal_connect(area.object, "draw", unsafeBitCast(draw, to: GCallback.self), Gtk.retain(BarBox(fraction)))
        return area
    }

    static func buttonBox() -> Widget {
        let box = Widget(raw: gtk_button_box_new(GTK_ORIENTATION_HORIZONTAL))
        gtk_button_box_set_layout(box.cast(), GTK_BUTTONBOX_CENTER)
        return box
    }

    static func button(_ label: String) -> Widget {
        let button = Widget(raw: gtk_button_new_with_label(nil))
        gtk_button_set_label(button.cast(), label)
        gtk_button_set_use_underline(button.cast(), 0)
        return button
    }

    // MARK: Layout

    func add(_ child: Widget) { gtk_container_add(cast(), child.raw) }

    func attach(_ child: Widget, column: Int32, row: Int32) { gtk_grid_attach(cast(), child.raw, column, row, 1, 1) }

    func addClass(_ name: String) { gtk_style_context_add_class(gtk_widget_get_style_context(raw), name) }

    func center() {
        gtk_widget_set_halign(raw, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(raw, GTK_ALIGN_CENTER)
    }

    func alignBottom() { gtk_widget_set_valign(raw, GTK_ALIGN_END) }

    func setMargins(_ pixels: Int32) {
        gtk_widget_set_margin_top(raw, pixels)
        gtk_widget_set_margin_bottom(raw, pixels)
        gtk_widget_set_margin_start(raw, pixels)
        gtk_widget_set_margin_end(raw, pixels)
    }

    func setSpacing(_ pixels: Int32) { gtk_box_set_spacing(cast(), pixels) }

    /// The height of one line of text in this widget's font (the user's size, in logical pixels):
    /// the unit every size of the card is measured in.
    var lineHeight: Int32 {
        guard let layout = gtk_widget_create_pango_layout(raw, "Ag") else { return 16 }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var width: Int32 = 0, height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        return max(height, 1)
    }

    // MARK: Windows

    /// Covers the monitor at `point` (global logical pixels), or the one under the pointer: an
    /// overlay layer where a layer shell is offered (wlroots, KDE), else a full-screen window kept
    /// above the others and out of task bars. Dimmed see-through where a compositor blends windows.
    /// Returns the monitor's height (logical pixels; nil when GDK names none).
    @discardableResult
    func coverMonitor(at point: (x: Int32, y: Int32)?) -> Int32? {
        let window: UnsafeMutablePointer<GtkWindow> = cast()
        let display = gdk_display_get_default()
        let screen = gdk_display_get_default_screen(display)
        var at = point ?? (0, 0)
        if point == nil, let seat = gdk_display_get_default_seat(display), let pointer = gdk_seat_get_pointer(seat) {
            gdk_device_get_position(pointer, nil, &at.x, &at.y)
        }
        let monitor = gdk_display_get_monitor_at_point(display, at.x, at.y)
        if Gtk.isComposited, let visual = gdk_screen_get_rgba_visual(screen) { gtk_widget_set_visual(raw, visual) }
        gtk_window_set_keep_above(window, 1)
        gtk_window_set_skip_taskbar_hint(window, 1)
        gtk_window_set_skip_pager_hint(window, 1)
        gtk_window_set_decorated(window, 0)
        if Gtk.hasLayerShell {
            gtk_layer_init_for_window(window)
            gtk_layer_set_namespace(window, "screentime-card")
            gtk_layer_set_layer(window, GTK_LAYER_SHELL_LAYER_OVERLAY)
            for edge in [GTK_LAYER_SHELL_EDGE_LEFT, GTK_LAYER_SHELL_EDGE_RIGHT, GTK_LAYER_SHELL_EDGE_TOP, GTK_LAYER_SHELL_EDGE_BOTTOM] {
                gtk_layer_set_anchor(window, edge, 1)
            }
            gtk_layer_set_exclusive_zone(window, -1)
            gtk_layer_set_keyboard_mode(window, GTK_LAYER_SHELL_KEYBOARD_MODE_EXCLUSIVE)
            if let monitor { gtk_layer_set_monitor(window, monitor) }
            return monitor.map { Self.height(of: $0) }
        }
        if let monitor {
            var area = GdkRectangle()
            gdk_monitor_get_geometry(monitor, &area)
            gtk_window_move(window, area.x, area.y)
            gtk_window_set_default_size(window, area.width, area.height)
            let index = (0..<gdk_display_get_n_monitors(display)).first { gdk_display_get_monitor(display, $0) == monitor }
            gtk_window_fullscreen_on_monitor(window, screen, index ?? 0)
            return area.height
        }
        gtk_window_fullscreen(window)
        return nil
    }

    private static func height(of monitor: OpaquePointer) -> Int32 {
        var area = GdkRectangle()
        gdk_monitor_get_geometry(monitor, &area)
        return area.height
    }

    /// Scrolls `child` vertically once it is taller than `maxHeight`; as tall as it is below that.
    static func scrolled(_ child: Widget, maxHeight: Int32) -> Widget {
        let scroller = Widget(raw: gtk_scrolled_window_new(nil, nil))
        gtk_scrolled_window_set_policy(scroller.cast(), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_propagate_natural_height(scroller.cast(), 1)
        gtk_scrolled_window_set_max_content_height(scroller.cast(), maxHeight)
        scroller.add(child)
        return scroller
    }

    func makeDefault(in window: Widget) {
        gtk_widget_set_can_default(raw, 1)
        gtk_window_set_default(window.cast(), raw)
    }

    func grabFocus() { gtk_widget_grab_focus(raw) }
    /// Shows the window and everything in it, and asks for the keyboard focus (a window manager
    /// may not give a new window the focus by itself).
    func present() {
        gtk_widget_show_all(raw)
        gtk_window_present(cast())
    }
    func hide() { gtk_widget_hide(raw) }

    func setOpacity(_ opacity: Double) { gtk_widget_set_opacity(raw, opacity) }

    // MARK: Signals

    func onClicked(_ action: @escaping () -> Void) {
        let trampoline: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
            Unmanaged<ClosureBox<() -> Void>>.fromOpaque(data!).takeUnretainedValue().closure()
        }
        screentime_g_signal_connect(object, "clicked", unsafeBitCast(trampoline, to: GCallback.self), Gtk.retain(ClosureBox(action)))
    }

    /// Escape pressed anywhere in the window (other keys go on to the focused widget).
    func onEscape(_ action: @escaping () -> Void) {
        let trampoline: @convention(c) (gpointer?, UnsafeMutablePointer<GdkEventKey>?, gpointer?) -> gboolean = { _, event, data in
            guard let event, screentime_event_key_keyval(event) == UInt32(GDK_KEY_Escape) else { return 0 }
            Unmanaged<ClosureBox<() -> Void>>.fromOpaque(data!).takeUnretainedValue().closure()
            return 1
        }
        screentime_g_signal_connect(object, "key-press-event", unsafeBitCast(trampoline, to: GCallback.self), Gtk.retain(ClosureBox(action)))
    }

    /// The window closed by the window manager (or the user's close keys): GTK does not destroy it.
    func onCloseRequest(_ action: @escaping () -> Void) {
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> gboolean = { _, _, data in
            Unmanaged<ClosureBox<() -> Void>>.fromOpaque(data!).takeUnretainedValue().closure()
            return 1
        }
        screentime_g_signal_connect(object, "delete-event", unsafeBitCast(trampoline, to: GCallback.self), Gtk.retain(ClosureBox(action)))
    }
}

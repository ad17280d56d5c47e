// The extension's logic, shared by the GNOME 43/44 (imports) and 45+ (ES modules) entry files,
// which pass in the libraries (`lib`: Gio, GLib, Meta, Shell, Clutter, Main) and the extension's
// directory. The agent (org.screentime.Agent) is the only client; while it is away nothing of
// ours stays on screen.

const BUS_NAME = 'org.screentime.Shell';
const OBJECT_PATH = '/org/screentime/Shell';
const AGENT_NAME = 'org.screentime.Agent';
const INTERFACE_XML = `<node>
  <interface name="org.screentime.Shell">
    <signal name="FocusChanged">
      <arg type="t" name="window_id"/><arg type="s" name="app_id"/><arg type="s" name="wm_class"/>
      <arg type="s" name="wm_class_instance"/><arg type="s" name="sandboxed_app_id"/>
      <arg type="u" name="pid"/><arg type="s" name="title"/>
    </signal>
    <method name="GetFocus"><arg type="(tssssus)" direction="out" name="window"/></method>
    <method name="ListWindows"><arg type="a(tssssusb)" direction="out" name="windows"/></method>
    <method name="Minimize"><arg type="at" direction="in" name="window_ids"/></method>
    <method name="SetFilter">
      <arg type="d" direction="in" name="saturation"/><arg type="d" direction="in" name="temperature_kelvin"/>
      <arg type="d" direction="in" name="brightness"/><arg type="u" direction="in" name="fade_ms"/>
    </method>
    <method name="Restore"/>
    <method name="GetShowBanners">
      <arg type="s" direction="in" name="app"/><arg type="b" direction="out" name="show"/>
    </method>
    <method name="SetShowBanners">
      <arg type="s" direction="in" name="app"/><arg type="b" direction="in" name="show"/>
    </method>
  </interface>
</node>`;
// Test-only methods, exported only when the tests' switch file is present.
const TESTING_XML = `<node>
  <interface name="org.screentime.Shell.Testing">
    <method name="Activate"><arg type="t" direction="in" name="window_id"/></method>
    <method name="InvokeNotificationAction">
      <arg type="s" direction="in" name="title"/><arg type="s" direction="in" name="label"/>
      <arg type="b" direction="out" name="found"/>
    </method>
    <method name="WriteSetting">
      <arg type="s" direction="in" name="schema"/><arg type="s" direction="in" name="path"/>
      <arg type="s" direction="in" name="key"/><arg type="v" direction="in" name="value"/>
    </method>
    <method name="ResetSetting">
      <arg type="s" direction="in" name="schema"/><arg type="s" direction="in" name="path"/>
      <arg type="s" direction="in" name="key"/>
    </method>
  </interface>
</node>`;
// Written only by the test harness: opens org.gnome.Shell.Screenshot and the testing interface.
const TESTING_SWITCH = 'testing-unsafe-mode';
const NO_WINDOW = [0, '', '', '', '', 0, ''];
const MINIMIZE_GUARD_MS = 1000;

function createService(lib, extensionPath) {
    const {Gio, GLib, Meta, Shell, Clutter, Main} = lib;
    const testing = GLib.file_test(`${extensionPath}/${TESTING_SWITCH}`, GLib.FileTest.EXISTS);
    let exported = null;
    let testingExported = null;
    let ownerId = 0;
    let agentWatchId = 0;
    let focusId = 0;
    let startupId = 0;
    let titleId = 0;
    let titleWindow = null;
    let desaturate = null;
    let tint = null;
    let fade = null;
    const minimizeGuards = new Map();

    function describe(window) {
        if (!window)
            return NO_WINDOW;
        const app = Shell.WindowTracker.get_default().get_window_app(window);
        let appId = app ? (app.get_id() || '') : '';
        if (appId.endsWith('.desktop'))
            appId = appId.slice(0, -'.desktop'.length);
        // Windows without a desktop entry get a made-up "window:N" app: not an app id.
        if (appId.startsWith('window:'))
            appId = '';
        const sandboxed = window.get_sandboxed_app_id() || window.get_gtk_application_id() || '';
        return [window.get_id(), appId, window.get_wm_class() || '', window.get_wm_class_instance() || '',
            sandboxed, Math.max(window.get_pid(), 0), window.get_title() || ''];
    }

    function normalWindows() {
        return global.get_window_actors().map(actor => actor.meta_window)
            .filter(window => window && !window.is_skip_taskbar() &&
                window.get_window_type() === Meta.WindowType.NORMAL);
    }

    function emitFocus() {
        if (!exported)
            return;
        exported.emit_signal('FocusChanged', new GLib.Variant('(tssssus)', describe(global.display.focus_window)));
    }

    function focusChanged() {
        if (titleWindow)
            titleWindow.disconnect(titleId);
        titleWindow = global.display.focus_window;
        titleId = titleWindow ? titleWindow.connect('notify::title', emitFocus) : 0;
        emitFocus();
    }

    function stopFade() {
        if (fade) {
            GLib.source_remove(fade);
            fade = null;
        }
    }

    function removeEffects() {
        stopFade();
        const group = Main.layoutManager.uiGroup;
        if (desaturate)
            group.remove_effect(desaturate);
        if (tint)
            group.remove_effect(tint);
        desaturate = null;
        tint = null;
    }

    function setFilter(saturation, kelvin, brightness, fadeMs) {
        stopFade();
        const group = Main.layoutManager.uiGroup;
        const targetGray = 1 - Math.min(Math.max(saturation, 0), 1);
        const warmth = Math.min(Math.max((6500 - kelvin) / 4600, 0), 1);
        const dim = 1 - Math.min(Math.max(brightness, 0), 1);
        if (!desaturate) {
            desaturate = new Clutter.DesaturateEffect({factor: 0});
            group.add_effect_with_name('screentime-desaturate', desaturate);
        }
        if (!tint) {
            tint = new Clutter.BrightnessContrastEffect();
            group.add_effect_with_name('screentime-tint', tint);
        }
        const startGray = desaturate.factor;
        const startWarmth = tint._screentimeWarmth || 0;
        const startDim = tint._screentimeDim || 0;
        const apply = progress => {
            const gray = startGray + (targetGray - startGray) * progress;
            const w = startWarmth + (warmth - startWarmth) * progress;
            const d = startDim + (dim - startDim) * progress;
            desaturate.factor = gray;
            tint._screentimeWarmth = w;
            tint._screentimeDim = d;
            // BrightnessContrast brightness: -1..1 per channel, 0 unchanged.
            tint.set_brightness_full(-d, -d - 0.15 * w, -d - 0.4 * w);
            desaturate.enabled = gray > 0;
            tint.enabled = w > 0 || d > 0;
        };
        if (fadeMs <= 0) {
            apply(1);
            return;
        }
        const started = GLib.get_monotonic_time();
        apply(0);
        fade = GLib.timeout_add(GLib.PRIORITY_DEFAULT, 16, () => {
            const progress = Math.min((GLib.get_monotonic_time() - started) / 1000 / fadeMs, 1);
            apply(progress);
            if (progress < 1)
                return GLib.SOURCE_CONTINUE;
            fade = null;
            return GLib.SOURCE_REMOVE;
        });
    }

    // A window the shell was still bringing back when Minimize came (its activation in flight)
    // shows itself again just after: for a moment each minimized window is watched, and minimized
    // again if it comes back. Bounded in time, not left to an idle callback, which a busy shell
    // may run seconds later, after the user has been given the app back.
    function unguard(window) {
        const guard = minimizeGuards.get(window);
        if (!guard)
            return;
        minimizeGuards.delete(window);
        window.disconnect(guard.signal);
        if (guard.timeout)
            GLib.source_remove(guard.timeout);
    }

    function guard(window) {
        unguard(window);
        const entry = {timeout: 0};
        entry.signal = window.connect('notify::minimized', () => {
            if (window.minimized)
                return;
            unguard(window);
            window.minimize();
        });
        entry.timeout = GLib.timeout_add(GLib.PRIORITY_DEFAULT, MINIMIZE_GUARD_MS, () => {
            entry.timeout = 0;
            unguard(window);
            return GLib.SOURCE_REMOVE;
        });
        minimizeGuards.set(window, entry);
    }

    function minimize(ids) {
        const wanted = new Set(ids.map(id => String(id)));
        const targets = normalWindows().filter(w => wanted.has(String(w.get_id())) && w.can_minimize());
        targets.forEach(w => {
            w.minimize();
            guard(w);
        });
    }

    // A deliberate bring-back (the tests' stand-in for the user's click) is never undone.
    function activate(id) {
        const window = normalWindows().find(w => String(w.get_id()) === String(id));
        if (!window)
            return;
        unguard(window);
        if (window.minimized)
            window.unminimize();
        Main.activateWindow(window);
    }

    // The path a click on the notification's button takes: the action's callback (which sends
    // ActionInvoked to the app), then the notification goes unless it is resident.
    function invokeNotificationAction(title, label) {
        // Newest first, as the banner a user clicks: an earlier agent's notification with the
        // same title may still be in the tray, and its id means nothing to the agent running now.
        for (const source of [...Main.messageTray.getSources()].reverse()) {
            for (const notification of [...source.notifications].reverse()) {
                const action = notification.title === title &&
                    (notification.actions || []).find(a => a.label === label);
                if (!action)
                    continue;
                action.callback();
                if (!notification.resident)
                    notification.destroy();
                return true;
            }
        }
        return false;
    }

    // Do-not-disturb's switches (`show-banners`, the global one for app '', else the app's own)
    // are written here, inside the shell, as its own Do Not Disturb switch writes them. GNOME 43
    // applies a dconf change made by another process on dconf's worker thread, where gjs can
    // deadlock against the main thread (the whole shell then stops); a change it makes itself it
    // applies here, and ignores dconf's echo of it. They are read here too: the value here
    // includes a write not yet handed on to dconf.
    function notificationSettings(app) {
        if (app === '')
            return settingsAt('org.gnome.desktop.notifications', '');
        if (!/^[a-z0-9-]+$/.test(app))
            throw new Error(`not an app's notification key: ${app}`);
        return settingsAt('org.gnome.desktop.notifications.application', `/org/gnome/desktop/notifications/application/${app}/`);
    }
    // A schema's settings, at `path` for a relocatable one ('' for a fixed one).
    function settingsAt(schema, path) {
        return new Gio.Settings(path ? {schema_id: schema, path} : {schema_id: schema});
    }

    const implementation = {
        GetFocus: () => describe(global.display.focus_window),
        ListWindows: () => normalWindows().map(w => describe(w).concat([w.minimized])),
        Minimize: ids => minimize(ids),
        SetFilter: (saturation, kelvin, brightness, fadeMs) => setFilter(saturation, kelvin, brightness, fadeMs),
        Restore: () => removeEffects(),
        GetShowBanners: app => notificationSettings(app).get_boolean('show-banners'),
        SetShowBanners: (app, show) => notificationSettings(app).set_boolean('show-banners', show),
    };
    // The tests' stand-in for the user's own settings (WriteSetting, ResetSetting), written by the
    // shell (see notificationSettings).
    const testingImplementation = {
        Activate: id => activate(id),
        InvokeNotificationAction: (title, label) => invokeNotificationAction(title, label),
        WriteSetting: (schema, path, key, value) => settingsAt(schema, path).set_value(key, value),
        ResetSetting: (schema, path, key) => settingsAt(schema, path).reset(key),
    };

    return {
        enable() {
            if (testing) {
                global.context.unsafe_mode = true;
                // The shell starts in the overview, where a new window takes no focus: tests
                // expect a desktop as after the user's first click.
                if (Main.layoutManager._startingUp)
                    startupId = Main.layoutManager.connect('startup-complete', () => Main.overview.hide());
            }
            exported = Gio.DBusExportedObject.wrapJSObject(INTERFACE_XML, implementation);
            exported.export(Gio.DBus.session, OBJECT_PATH);
            if (testing) {
                testingExported = Gio.DBusExportedObject.wrapJSObject(TESTING_XML, testingImplementation);
                testingExported.export(Gio.DBus.session, OBJECT_PATH);
            }
            ownerId = Gio.bus_own_name_on_connection(Gio.DBus.session, BUS_NAME, Gio.BusNameOwnerFlags.NONE, null, null);
            // The agent gone (quit, crashed, SIGKILLed): the screen is never left gray.
            agentWatchId = Gio.bus_watch_name_on_connection(Gio.DBus.session, AGENT_NAME, Gio.BusNameWatcherFlags.NONE,
                null, () => removeEffects());
            focusId = global.display.connect('notify::focus-window', focusChanged);
            focusChanged();
        },
        disable() {
            removeEffects();
            [...minimizeGuards.keys()].forEach(unguard);
            if (focusId)
                global.display.disconnect(focusId);
            if (titleWindow)
                titleWindow.disconnect(titleId);
            titleWindow = null;
            focusId = 0;
            if (agentWatchId)
                Gio.bus_unwatch_name(agentWatchId);
            agentWatchId = 0;
            if (ownerId)
                Gio.bus_unown_name(ownerId);
            ownerId = 0;
            if (testingExported)
                testingExported.unexport();
            testingExported = null;
            if (exported)
                exported.unexport();
            exported = null;
            if (startupId)
                Main.layoutManager.disconnect(startupId);
            startupId = 0;
            // Test mode leaves unsafe mode on: the tests take screenshots while it is disabled.
        },
    };
}

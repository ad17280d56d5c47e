// The top-bar indicator and the Quick Settings toggle: the agent's status where GNOME users look.
// Shared by the GNOME 43/44 and 45+ entry files, which pass in the libraries (`lib`: Gio, GLib,
// St, Clutter, GnomeDesktop, Main, PopupMenu, QuickSettings, gettext), the extension's directory
// and its GSettings. It follows the agent's StatusChanged signal and asks Status() then; it never
// polls. While the focused app is counted the figures move on with the shell's own minute clock.
// Every button calls the D-Bus method the CLI command of the same name calls (docs/DBUS.md), so
// commitments and friction apply alike. The focus and filter service (service.js) does not
// depend on any of this.

const INDICATOR_AGENT_NAME = 'org.screentime.Agent';
const INDICATOR_AGENT_PATH = '/org/screentime/Agent';
const INDICATOR_AGENT_INTERFACE = 'org.screentime.Agent1';
const INDICATOR_SHELL_PATH = '/org/screentime/Shell';
// The GSettings key (schemas/) that shows or hides the top-bar part; the toggle stays.
const SHOW_INDICATOR_KEY = 'show-indicator';
// The key that lets the time left near a limit take today's time's place (or not).
const SHOW_TIME_LEFT_KEY = 'show-time-left';
// From the countdown's first mark (the status's countdownSeconds, `[general] countdown`) the top
// bar shows the time left; this is the agent's default, for an agent too old to say.
const NEAR_LIMIT_SECONDS = 30 * 60;
const TOP_APPS = 3;
const INDICATOR_TESTING_SWITCH = 'testing-unsafe-mode';
const INDICATOR_TESTING_XML = `<node>
  <interface name="org.screentime.Shell.IndicatorTesting">
    <method name="Probe"><arg type="s" direction="out" name="json"/></method>
    <method name="ActivateMenuItem">
      <arg type="s" direction="in" name="label"/><arg type="b" direction="out" name="found"/>
    </method>
  </interface>
</node>`;

function createIndicator(lib, extensionPath, settings) {
    const {Gio, GLib, St, Clutter, GnomeDesktop, Main, PopupMenu, QuickSettings} = lib;
    // Every user-visible string goes through `_`, so a translation domain can take them.
    const _ = lib.gettext || (text => text);
    // The modes by their keys, in the user's language (the agent's document names them in English).
    const modeNames = {
        'standard': _('Standard'), 'productivity': _('Productivity'), 'social': _('Social'), 'wind-down': _('Wind Down'),
        'sleep': _('Sleep'), 'wake-up': _('Wake Up'), 'cheat-day': _('Cheat Day'),
    };
    const modeName = mode => modeNames[mode.mode] || mode.modeName;
    const testing = GLib.file_test(`${extensionPath}/${INDICATOR_TESTING_SWITCH}`, GLib.FileTest.EXISTS);

    let systemIndicator = null;
    let icon = null;
    let label = null;
    let toggle = null;
    let watchId = 0;
    let signalId = 0;
    let settingsId = 0;
    let clock = null;
    let clockId = 0;
    let menuSyncId = 0;
    let testingExported = null;
    let cancellable = null;
    // The last Status() document and when it came (monotonic µs); null while no agent runs.
    let status = null;
    let statusAt = 0;
    // When the top bar's text or icon last changed (monotonic µs): the tests' latency figure.
    let shownAt = 0;
    let asking = false;
    let askAgain = false;
    // LeaveMode's question ("ask") waiting in the menu for Leave or Keep, and the last error.
    let question = null;
    let problem = '';

    function fill(template, ...values) {
        let index = 0;
        return template.replace(/%s/g, () => String(values[index++] ?? ''));
    }

    function spoken(seconds) {
        const minutes = Math.max(0, Math.floor(seconds / 60));
        const hours = Math.floor(minutes / 60);
        if (hours === 0)
            return fill(_('%s min'), minutes);
        return minutes % 60 === 0 ? fill(_('%s h'), hours) : fill(_('%s h %s min'), hours, minutes % 60);
    }

    // "2026-12-03T22:00:00+01:00" -> "22:00": the agent already gives local time.
    function clockOf(iso) {
        return iso.slice(11, 16);
    }

    function modeIcon(mode) {
        const name = mode ? `screentime-${mode}-symbolic.svg` : 'screentime-symbolic.svg';
        return new Gio.FileIcon({file: Gio.File.new_for_path(`${extensionPath}/icons/${name}`)});
    }

    // Seconds counted since the document came, while its focused app is being counted.
    function elapsed() {
        if (!status || !counted())
            return 0;
        return (GLib.get_monotonic_time() - statusAt) / 1e6;
    }

    // As the agent counts: the focused app while the user is there, unless it is held back (its
    // state "counting" is only given to apps with a limit; unlimited ones are counted too).
    function counted() {
        return status && status.active && status.apps.some(app => app.id === status.focused &&
            !['disabled', 'outside-mode'].includes(app.state));
    }

    function indicatorText() {
        const focused = status.apps.find(app => app.id === status.focused);
        const moving = elapsed();
        if (focused && focused.state === 'disabled')
            return fill(_('%s: limit reached'), focused.name);
        if (settings.get_boolean(SHOW_TIME_LEFT_KEY) && focused && ['counting', 'ok'].includes(focused.state) &&
            focused.remainingSeconds !== null && focused.remainingSeconds !== undefined) {
            const left = focused.remainingSeconds - moving;
            if (left <= (status.countdownSeconds ?? NEAR_LIMIT_SECONDS))
                return fill(_('%s: %s left'), focused.name, spoken(Math.max(left, 0)));
        }
        return spoken(status.totalSeconds + moving);
    }

    function syncIndicator() {
        const shown = status !== null && settings.get_boolean(SHOW_INDICATOR_KEY);
        systemIndicator.visible = shown;
        if (!status)
            return;
        const gicon = modeIcon(status.mode);
        const text = indicatorText();
        if (!icon.gicon || !icon.gicon.equal(gicon) || label.text !== text) {
            icon.gicon = gicon;
            label.text = text;
            shownAt = GLib.get_monotonic_time();
        }
    }

    // The shell's minute clock moves the figures on while an app is counted: no timer of ours.
    function syncClock() {
        const wanted = counted();
        if (wanted && !clockId) {
            clock = new GnomeDesktop.WallClock();
            clockId = clock.connect('notify::clock', () => {
                syncIndicator();
                // An open menu is left as it is (rebuilt, it would lose the keyboard's place).
                if (!toggle.menu.isOpen)
                    scheduleMenuSync();
            });
        } else if (!wanted && clockId) {
            clock.disconnect(clockId);
            clock.run_dispose();
            clock = null;
            clockId = 0;
        }
    }

    function call(method, args, replyType, done) {
        Gio.DBus.session.call(INDICATOR_AGENT_NAME, INDICATOR_AGENT_PATH, INDICATOR_AGENT_INTERFACE, method,
            args, replyType ? new GLib.VariantType(replyType) : null, Gio.DBusCallFlags.NONE, -1, cancellable,
            (connection, result) => {
                let reply = null;
                let error = null;
                try {
                    reply = connection.call_finish(result).deepUnpack();
                } catch (e) {
                    if (e.matches && e.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED))
                        return;
                    error = e;
                }
                done(reply, error);
            });
    }

    // One Status() at a time; a signal during the call asks once more after it.
    function refresh() {
        if (asking) {
            askAgain = true;
            return;
        }
        asking = true;
        call('Status', null, '(s)', (reply, error) => {
            asking = false;
            if (!error) {
                try {
                    status = JSON.parse(reply[0]);
                    statusAt = GLib.get_monotonic_time();
                } catch (e) {
                    status = null;
                }
            }
            sync();
            if (askAgain) {
                askAgain = false;
                refresh();
            }
        });
    }

    // A button's method: its errors (NotAllowed, …) are shown in the menu in the agent's words.
    function press(method, args = null, replyType = null, then = null) {
        problem = '';
        call(method, args, replyType, (reply, error) => {
            if (error) {
                Gio.DBusError.strip_remote_error(error);
                problem = error.message;
            }
            if (then && !error)
                then(reply);
            sync();
        });
    }

    // `screentime mode NAME` (the "off" buttons are `mode standard`, which also leaves a mode the
    // schedule holds, where `mode auto` would keep it): LeaveMode unconfirmed, then confirmed after the
    // question, exactly as the terminal asks it.
    function leaveMode(target, confirmed) {
        question = null;
        press('LeaveMode', new GLib.Variant('(sb)', [target, confirmed]), '(sds)', ([outcome, , words]) => {
            if (outcome === 'ask')
                question = {target, words};
        });
    }

    function cliPath() {
        return GLib.find_program_in_path('screentime') ||
            [`${GLib.get_home_dir()}/.local/bin/screentime`, '/usr/local/bin/screentime', '/usr/bin/screentime']
                .find(path => GLib.file_test(path, GLib.FileTest.IS_EXECUTABLE)) || null;
    }

    // "Open report": `screentime report today --html FILE`, then the page in the user's browser.
    function openReport() {
        problem = '';
        const cli = cliPath();
        if (!cli) {
            problem = _('The screentime command was not found.');
            sync();
            return;
        }
        const folder = `${GLib.get_user_runtime_dir()}/screentime`;
        GLib.mkdir_with_parents(folder, 0o700);
        const page = `${folder}/report-today.html`;
        try {
            const child = Gio.Subprocess.new([cli, 'report', 'today', '--html', page], Gio.SubprocessFlags.STDOUT_SILENCE);
            child.wait_check_async(null, (process, result) => {
                try {
                    process.wait_check_finish(result);
                    Gio.AppInfo.launch_default_for_uri(`file://${page}`, global.create_app_launch_context(0, -1));
                } catch (e) {
                    problem = fill(_('The report could not be opened: %s'), e.message);
                    sync();
                }
            });
        } catch (e) {
            problem = fill(_('The report could not be opened: %s'), e.message);
            sync();
        }
    }

    function info(text) {
        const item = new PopupMenu.PopupMenuItem(text, {reactive: false, can_focus: false});
        item.label.clutter_text.line_wrap = true;
        return item;
    }

    function button(text, action) {
        const item = new PopupMenu.PopupMenuItem(text);
        item.connect('activate', () => action());
        return item;
    }

    function modeButtons() {
        const mode = status.mode;
        const buttons = [];
        if (mode === 'productivity') {
            if (status.breakSecondsLeft === null || status.breakSecondsLeft === undefined)
                buttons.push(button(_('Take a break now'), () => press('Break')));
            buttons.push(button(_('Productivity off'), () => leaveMode('standard', false)));
        } else if (mode === 'social') {
            buttons.push(button(_('Social off'), () => leaveMode('standard', false)));
        } else if (mode === 'wind-down') {
            buttons.push(button(_('Go to bed'), () => press('Bedtime')));
            buttons.push(button(_('Stay up'), () => press('StayUp')));
        } else if (mode === 'sleep') {
            buttons.push(button(_('Stay up'), () => press('StayUp')));
            buttons.push(button(_('Start the day'), () => press('StartDay')));
        } else {
            if (mode === 'wake-up')
                buttons.push(button(_('Start the day'), () => press('StartDay')));
            if (mode !== 'cheat-day') {
                buttons.push(button(_('Productivity on'), () => leaveMode('productivity', false)));
                buttons.push(button(_('Social on'), () => leaveMode('social', false)));
            }
        }
        return buttons;
    }

    function analytics() {
        const items = [];
        const moving = elapsed();
        if (status.breakSecondsLeft !== null && status.breakSecondsLeft !== undefined) {
            const since = (GLib.get_monotonic_time() - statusAt) / 1e6;
            items.push(info(fill(_('Break: %s left'), spoken(status.breakSecondsLeft - since))));
        }
        else if (status.nextBreakSeconds !== null && status.nextBreakSeconds !== undefined)
            items.push(info(fill(_('Next break in %s'), spoken(status.nextBreakSeconds))));
        items.push(info(fill(_('Today: %s'), spoken(status.totalSeconds + moving))));
        for (const app of status.apps.slice(0, TOP_APPS)) {
            const used = spoken(app.usedSeconds + (app.id === status.focused ? moving : 0));
            items.push(info(app.limitSeconds ? fill(_('%s: %s of %s'), app.name, used, spoken(app.limitSeconds))
                : fill(_('%s: %s'), app.name, used)));
        }
        return items;
    }

    function syncMenu() {
        const menu = toggle.menu;
        menu.removeAll();
        if (!status) {
            menu.setHeader(modeIcon(null), _('Screen Time'), _('Not running'));
            menu.addMenuItem(info(_('The screentime agent is not running: nothing is counted or limited.')));
            menu.addMenuItem(info(_('Start it with “systemctl --user start screentime” or “screentime agent”, or log in again.')));
        } else {
            menu.setHeader(modeIcon(status.mode), modeName(status), status.reason);
            if (status.next) {
                const when = status.next.inSeconds < 86400 ? clockOf(status.next.at)
                    : `${status.next.at.slice(0, 10)} ${clockOf(status.next.at)}`;
                menu.addMenuItem(info(fill(_('Next: %s at %s'), modeName(status.next), when)));
            }
            // In Wind Down and Sleep the figures give way to the evening's buttons.
            if (!['wind-down', 'sleep'].includes(status.mode))
                analytics().forEach(item => menu.addMenuItem(item));
            menu.addMenuItem(new PopupMenu.PopupSeparatorMenuItem());
            if (question) {
                menu.addMenuItem(info(question.words));
                const {target} = question;
                menu.addMenuItem(button(_('Leave it early'), () => leaveMode(target, true)));
                menu.addMenuItem(button(_('Keep it'), () => {
                    question = null;
                    sync();
                }));
            } else {
                modeButtons().forEach(item => menu.addMenuItem(item));
            }
            menu.addMenuItem(button(_('Open report'), () => openReport()));
        }
        if (problem)
            menu.addMenuItem(info(problem));
        menu.addMenuItem(new PopupMenu.PopupSeparatorMenuItem());
        const show = new PopupMenu.PopupSwitchMenuItem(_('Show in the top bar'), settings.get_boolean(SHOW_INDICATOR_KEY));
        show.connect('toggled', (item, state) => settings.set_boolean(SHOW_INDICATOR_KEY, state));
        menu.addMenuItem(show);
        const timeLeft = new PopupMenu.PopupSwitchMenuItem(_('Time left near a limit'), settings.get_boolean(SHOW_TIME_LEFT_KEY));
        timeLeft.connect('toggled', (item, state) => settings.set_boolean(SHOW_TIME_LEFT_KEY, state));
        menu.addMenuItem(timeLeft);
    }

    function syncToggle() {
        const title = _('Screen Time');
        const subtitle = status ? modeName(status) : _('Not running');
        // GNOME 44 and later: title and subtitle; 43: one label.
        if ('title' in toggle) {
            toggle.title = title;
            toggle.subtitle = subtitle;
        } else {
            toggle.label = status ? modeName(status) : title;
        }
        toggle.gicon = modeIcon(status ? status.mode : null);
        toggle.checked = status !== null && status.mode !== 'standard';
    }

    function sync() {
        if (!toggle)
            return;
        syncClock();
        syncIndicator();
        syncToggle();
        scheduleMenuSync();
    }

    // The menu is rebuilt once the current event is over: an item's own handler (the top-bar
    // switch, "Keep it") must not destroy that item under it.
    function scheduleMenuSync() {
        if (!menuSyncId) {
            menuSyncId = GLib.idle_add(GLib.PRIORITY_DEFAULT, () => {
                menuSyncId = 0;
                syncMenu();
                return GLib.SOURCE_REMOVE;
            });
        }
    }

    function agentAppeared() {
        refresh();
    }

    function agentVanished() {
        status = null;
        question = null;
        problem = '';
        sync();
    }

    function menuItems() {
        return toggle.menu._getMenuItems().filter(item => item.label);
    }

    const testingImplementation = {
        Probe: () => JSON.stringify({
            visible: systemIndicator.visible,
            showInTopBar: settings.get_boolean(SHOW_INDICATOR_KEY),
            showTimeLeft: settings.get_boolean(SHOW_TIME_LEFT_KEY),
            updatedAt: shownAt,
            text: label.text,
            icon: icon.gicon && icon.gicon.get_file ? icon.gicon.get_file().get_basename() : '',
            // Where the icon and the label are on the screen: mirrored under a right-to-left language.
            iconX: icon.get_transformed_position()[0],
            labelX: label.get_transformed_position()[0],
            toggleVisible: toggle.visible,
            toggleChecked: toggle.checked,
            toggleTitle: 'title' in toggle ? toggle.title : toggle.label,
            toggleSubtitle: 'subtitle' in toggle ? toggle.subtitle : '',
            items: menuItems().map(item => ({label: item.label.text, reactive: item.reactive})),
        }),
        // The path a click (or Enter) on the item takes: PopupBaseMenuItem.activate.
        ActivateMenuItem: text => {
            const item = menuItems().find(candidate => candidate.reactive && candidate.label.text === text);
            if (!item)
                return false;
            // A switch's click is its toggle (its activate() reads the event, which a call lacks).
            if (item instanceof PopupMenu.PopupSwitchMenuItem)
                item.toggle();
            else
                item.activate(Clutter.get_current_event());
            return true;
        },
    };

    function addToQuickSettings() {
        const quickSettings = Main.panel.statusArea.quickSettings;
        // GNOME 45 and later have a public way; 43 and 44 are given the same by hand.
        if (quickSettings.addExternalIndicator) {
            quickSettings.addExternalIndicator(systemIndicator);
        } else {
            quickSettings._indicators.insert_child_at_index(systemIndicator, 0);
            quickSettings._addItems(systemIndicator.quickSettingsItems);
        }
    }

    return {
        enable() {
            cancellable = new Gio.Cancellable();
            systemIndicator = new QuickSettings.SystemIndicator();
            icon = systemIndicator._addIndicator();
            label = new St.Label({y_align: Clutter.ActorAlign.CENTER, style_class: 'screentime-indicator-label'});
            systemIndicator.add_child(label);
            toggle = new QuickSettings.QuickMenuToggle({toggle_mode: false});
            // The toggle's body opens the same menu as its arrow: its buttons are the actions.
            toggle.connect('clicked', () => toggle.menu.open());
            systemIndicator.quickSettingsItems.push(toggle);
            addToQuickSettings();
            settingsId = settings.connect('changed', () => sync());
            signalId = Gio.DBus.session.signal_subscribe(INDICATOR_AGENT_NAME, INDICATOR_AGENT_INTERFACE, 'StatusChanged',
                INDICATOR_AGENT_PATH, null, Gio.DBusSignalFlags.NONE, () => refresh());
            watchId = Gio.bus_watch_name_on_connection(Gio.DBus.session, INDICATOR_AGENT_NAME, Gio.BusNameWatcherFlags.NONE,
                () => agentAppeared(), () => agentVanished());
            if (testing) {
                testingExported = Gio.DBusExportedObject.wrapJSObject(INDICATOR_TESTING_XML, testingImplementation);
                testingExported.export(Gio.DBus.session, INDICATOR_SHELL_PATH);
            }
            sync();
        },
        disable() {
            if (testingExported)
                testingExported.unexport();
            testingExported = null;
            if (watchId)
                Gio.bus_unwatch_name(watchId);
            watchId = 0;
            if (signalId)
                Gio.DBus.session.signal_unsubscribe(signalId);
            signalId = 0;
            if (settingsId)
                settings.disconnect(settingsId);
            settingsId = 0;
            cancellable.cancel();
            cancellable = null;
            if (menuSyncId)
                GLib.source_remove(menuSyncId);
            menuSyncId = 0;
            status = null;
            syncClock();
            systemIndicator.quickSettingsItems.forEach(item => {
                item.menu.destroy();
                item.destroy();
            });
            systemIndicator.destroy();
            systemIndicator = null;
            toggle = null;
            icon = null;
            label = null;
        },
    };
}

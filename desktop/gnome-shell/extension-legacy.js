// GNOME Shell 43 and 44: the `imports` format. The logic is in service.js (the agent's focus,
// minimize and filter service) and indicator.js (the top bar and Quick Settings).
/* exported init */
const {Gio, GLib, Meta, Shell, Clutter, St, GnomeDesktop} = imports.gi;
const Main = imports.ui.main;
const PopupMenu = imports.ui.popupMenu;
const QuickSettings = imports.ui.quickSettings;
const ExtensionUtils = imports.misc.extensionUtils;
const Me = ExtensionUtils.getCurrentExtension();

class ScreenTimeExtension {
    enable() {
        this._service = Me.imports.service.createService({Gio, GLib, Meta, Shell, Clutter, Main}, Me.path);
        this._service.enable();
        const gettext = imports.gettext.domain(Me.metadata['gettext-domain']).gettext;
        this._indicator = Me.imports.indicator.createIndicator(
            {Gio, GLib, St, Clutter, GnomeDesktop, Main, PopupMenu, QuickSettings, gettext}, Me.path, ExtensionUtils.getSettings());
        this._indicator.enable();
    }

    disable() {
        this._indicator.disable();
        this._indicator = null;
        this._service.disable();
        this._service = null;
    }
}

function init() {
    ExtensionUtils.initTranslations(Me.metadata['gettext-domain']);
    return new ScreenTimeExtension();
}

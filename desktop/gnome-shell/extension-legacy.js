// GNOME Shell 43 and 44: the `imports` format. The logic is in service.js.
/* exported init */
const {Gio, GLib, Meta, Shell, Clutter} = imports.gi;
const Main = imports.ui.main;
const Me = imports.misc.extensionUtils.getCurrentExtension();

class ScreenTimeExtension {
    enable() {
        this._service = Me.imports.service.createService({Gio, GLib, Meta, Shell, Clutter, Main}, Me.path);
        this._service.enable();
    }

    disable() {
        this._service.disable();
        this._service = null;
    }
}

function init() {
    return new ScreenTimeExtension();
}

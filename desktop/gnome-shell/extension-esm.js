// GNOME Shell 45 and later: ES modules. The logic is in service.js (the agent's focus, minimize
// and filter service) and indicator.js (the top bar and Quick Settings); build.sh adds their exports.
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import Meta from 'gi://Meta';
import Shell from 'gi://Shell';
import Clutter from 'gi://Clutter';
import St from 'gi://St';
import GnomeDesktop from 'gi://GnomeDesktop';
import * as Main from 'resource:///org/gnome/shell/ui/main.js';
import * as PopupMenu from 'resource:///org/gnome/shell/ui/popupMenu.js';
import * as QuickSettings from 'resource:///org/gnome/shell/ui/quickSettings.js';
import {Extension, gettext} from 'resource:///org/gnome/shell/extensions/extension.js';
import {createService} from './service.js';
import {createIndicator} from './indicator.js';

export default class ScreenTimeExtension extends Extension {
    enable() {
        this._service = createService({Gio, GLib, Meta, Shell, Clutter, Main}, this.path);
        this._service.enable();
        this._indicator = createIndicator({Gio, GLib, St, Clutter, GnomeDesktop, Main, PopupMenu, QuickSettings, gettext},
            this.path, this.getSettings());
        this._indicator.enable();
    }

    disable() {
        this._indicator.disable();
        this._indicator = null;
        this._service.disable();
        this._service = null;
    }
}

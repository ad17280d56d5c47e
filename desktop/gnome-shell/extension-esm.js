// GNOME Shell 45 and later: ES modules. The logic is in service.js (install.sh adds its export).
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import Meta from 'gi://Meta';
import Shell from 'gi://Shell';
import Clutter from 'gi://Clutter';
import * as Main from 'resource:///org/gnome/shell/ui/main.js';
import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';
import {createService} from './service.js';

export default class ScreenTimeExtension extends Extension {
    enable() {
        this._service = createService({Gio, GLib, Meta, Shell, Clutter, Main}, this.path);
        this._service.enable();
    }

    disable() {
        this._service.disable();
        this._service = null;
    }
}

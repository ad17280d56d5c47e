#include <gtk/gtk.h>
#include <gdk/gdkkeysyms.h>
#include <gtk-layer-shell.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/gdkx.h>
#endif

/* g_signal_connect is a macro; Swift sees only functions. */
static inline gulong screentime_g_signal_connect(gpointer instance, const gchar *signal, GCallback handler, gpointer data) {
    return g_signal_connect_data(instance, signal, handler, data, NULL, (GConnectFlags)0);
}

/* GdkEventKey's fields, for Swift without the struct's layout assumptions. */
static inline guint screentime_event_key_keyval(GdkEventKey *event) { return event->keyval; }

/* The centre of another client's X window in root coordinates (logical pixels), for the monitor
   the disabled app was on; 0 when GDK is not on X11 or the window is gone. X errors (the window
   destroyed meanwhile) are trapped, never fatal. */
static inline int screentime_x11_window_centre(unsigned long xid, int *x, int *y) {
#ifdef GDK_WINDOWING_X11
    GdkDisplay *display = gdk_display_get_default();
    if (!display || !GDK_IS_X11_DISPLAY(display)) return 0;
    gdk_x11_display_error_trap_push(display);
    GdkWindow *window = gdk_x11_window_foreign_new_for_display(display, (Window)xid);
    int found = 0;
    if (window) {
        int originX = 0, originY = 0;
        gdk_window_get_origin(window, &originX, &originY);
        *x = originX + gdk_window_get_width(window) / 2;
        *y = originY + gdk_window_get_height(window) / 2;
        g_object_unref(window);
        found = 1;
    }
    if (gdk_x11_display_error_trap_pop(display) != 0) found = 0;
    return found;
#else
    return 0;
#endif
}

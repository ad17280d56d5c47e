#include <gtk/gtk.h>
#include <gdk/gdkkeysyms.h>
#include <gtk-layer-shell.h>

/* g_signal_connect is a macro; Swift sees only functions. */
static inline gulong screentime_g_signal_connect(gpointer instance, const gchar *signal, GCallback handler, gpointer data) {
    return g_signal_connect_data(instance, signal, handler, data, NULL, (GConnectFlags)0);
}

/* GdkEventKey's fields, for Swift without the struct's layout assumptions. */
static inline guint screentime_event_key_keyval(GdkEventKey *event) { return event->keyval; }

#include <gtk/gtk.h>
#include <gdk/gdkkeysyms.h>
#include <gtk-layer-shell.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/gdkx.h>
#endif
#ifdef GDK_WINDOWING_WAYLAND
#include <gdk/gdkwayland.h>
#endif

/* g_signal_connect is a macro; Swift sees only functions. */
static inline gulong screentime_g_signal_connect(gpointer instance, const gchar *signal, GCallback handler, gpointer data) {
    return g_signal_connect_data(instance, signal, handler, data, NULL, (GConnectFlags)0);
}

/* GDK_IS_X11_DISPLAY / GDK_IS_WAYLAND_DISPLAY are type-check macros. */
static inline gboolean screentime_gdk_is_x11(GdkDisplay *display) {
#ifdef GDK_WINDOWING_X11
    return GDK_IS_X11_DISPLAY(display);
#else
    return FALSE;
#endif
}

static inline gboolean screentime_gdk_is_wayland(GdkDisplay *display) {
#ifdef GDK_WINDOWING_WAYLAND
    return GDK_IS_WAYLAND_DISPLAY(display);
#else
    return FALSE;
#endif
}

static inline guint screentime_event_key_keyval(GdkEventKey *event) { return event->keyval; }

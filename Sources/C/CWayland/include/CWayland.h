// The client side of the protocols the Wayland providers speak (libwayland-client is CWaylandClient).
#include <wayland-client.h>
#include "ext-idle-notify-v1-client-protocol.h"
#include "kde-idle-client-protocol.h"
#include "plasma-window-management-client-protocol.h"
#include "wlr-foreign-toplevel-management-unstable-v1-client-protocol.h"
#include "wlr-gamma-control-unstable-v1-client-protocol.h"

// Typed binds: Swift sees the interface tables as constants it may copy, and a copy's address
// would not outlive the call, so the tables' addresses are taken here.
static inline struct wl_seat *cwayland_bind_seat(struct wl_registry *registry, uint32_t name, uint32_t version) {
    return wl_registry_bind(registry, name, &wl_seat_interface, version);
}
static inline struct wl_output *cwayland_bind_output(struct wl_registry *registry, uint32_t name, uint32_t version) {
    return wl_registry_bind(registry, name, &wl_output_interface, version);
}
static inline struct zwlr_foreign_toplevel_manager_v1 *cwayland_bind_foreign_toplevel_manager(struct wl_registry *registry, uint32_t name, uint32_t version) {
    return wl_registry_bind(registry, name, &zwlr_foreign_toplevel_manager_v1_interface, version);
}
static inline struct zwlr_gamma_control_manager_v1 *cwayland_bind_gamma_control_manager(struct wl_registry *registry, uint32_t name, uint32_t version) {
    return wl_registry_bind(registry, name, &zwlr_gamma_control_manager_v1_interface, version);
}
static inline struct ext_idle_notifier_v1 *cwayland_bind_ext_idle_notifier(struct wl_registry *registry, uint32_t name, uint32_t version) {
    return wl_registry_bind(registry, name, &ext_idle_notifier_v1_interface, version);
}
static inline struct org_kde_kwin_idle *cwayland_bind_kde_idle(struct wl_registry *registry, uint32_t name, uint32_t version) {
    return wl_registry_bind(registry, name, &org_kde_kwin_idle_interface, version);
}
static inline struct org_kde_plasma_window_management *cwayland_bind_plasma_window_management(struct wl_registry *registry, uint32_t name, uint32_t version) {
    return wl_registry_bind(registry, name, &org_kde_plasma_window_management_interface, version);
}

// Gamma ramps travel in an anonymous file. glibc declares memfd_create only under _GNU_SOURCE,
// which Swift's Glibc module is not built with; this is the same declaration.
int memfd_create(const char *name, unsigned int flags);
#define CWAYLAND_MFD_CLOEXEC 1U

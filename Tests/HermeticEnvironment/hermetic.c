// The test bundle's own environment, set when it is loaded, before the first test (XCTest on Linux
// has no earlier hook). Every test, and every process a test starts, then sees the same on any
// machine at any hour: fonts named by the tests' own fontconfig, the C.UTF-8 locale, midday in
// the local time zone, a fresh HOME and XDG folders, none of the session's buses or displays, and
// the X socket folder a booted system has.
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void set_folder(const char *name, const char *home, const char *sub) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", home, sub);
    char made[4096] = "";
    // mkdir -p, 0700 like a session's own folders.
    for (char *part = strtok(path, "/"); part; part = strtok(NULL, "/")) {
        strncat(made, "/", sizeof made - strlen(made) - 1);
        strncat(made, part, sizeof made - strlen(made) - 1);
        mkdir(made, 0700);
    }
    setenv(name, made, 1);
}

__attribute__((constructor)) static void screentime_hermetic_environment(void) {
    // fonts.conf beside this file: DejaVu only (fonts-dejavu-core), whatever else is installed.
    // Copied where every user can read it: the tests run sway's clients as nobody, and a clone
    // under root's home is not theirs to read.
    char source[4096];
    snprintf(source, sizeof source, "%s", __FILE__);
    char original[4096];
    snprintf(original, sizeof original, "%s/fonts.conf", dirname(source));
    char fonts[] = "/tmp/screentime-fonts-XXXXXX";
    char conf[4096];
    FILE *in = fopen(original, "r");
    if (!in || !mkdtemp(fonts) || chmod(fonts, 0755) != 0) {
        perror("screentime tests: the tests' fonts.conf");
        exit(70);
    }
    snprintf(conf, sizeof conf, "%s/fonts.conf", fonts);
    FILE *out = fopen(conf, "w");
    if (!out) {
        perror(conf);
        exit(70);
    }
    char block[4096];
    for (size_t count; (count = fread(block, 1, sizeof block, in)) > 0;) fwrite(block, 1, count, out);
    fclose(in);
    if (fclose(out) != 0 || chmod(conf, 0644) != 0) {
        perror(conf);
        exit(70);
    }
    setenv("FONTCONFIG_FILE", conf, 1);

    setenv("LANG", "C.UTF-8", 1);
    setenv("LC_ALL", "C.UTF-8", 1);
    unsetenv("LANGUAGE");

    // A zone where the suite starts at midday: far from the day's start (04:00), Wake Up and
    // Wind Down, whatever hour it really is. Etc/GMT-N is N hours east of UTC.
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    char zone[32];
    snprintf(zone, sizeof zone, "Etc/GMT%+d", utc.tm_hour - 12);
    setenv("TZ", zone, 1);
    tzset();

    char home[] = "/tmp/screentime-tests-XXXXXX";
    if (!mkdtemp(home)) {
        perror("screentime tests: a fresh HOME");
        exit(70);
    }
    setenv("HOME", home, 1);
    set_folder("XDG_CONFIG_HOME", home, ".config");
    set_folder("XDG_DATA_HOME", home, ".local/share");
    set_folder("XDG_STATE_HOME", home, ".local/state");
    set_folder("XDG_CACHE_HOME", home, ".cache");
    set_folder("XDG_RUNTIME_DIR", home, "run");
    setenv("XDG_DATA_DIRS", "/usr/local/share:/usr/share", 1);
    setenv("XDG_CONFIG_DIRS", "/etc/xdg", 1);

    // The session the suite was started from is not the tests': each harness brings its own.
    const char *session[] = {"DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "SWAYSOCK", "I3SOCK",
                             "HYPRLAND_INSTANCE_SIGNATURE", "XDG_CURRENT_DESKTOP", "XDG_SESSION_TYPE",
                             "XDG_SESSION_DESKTOP", "DESKTOP_SESSION", "XAUTHORITY", "NO_COLOR"};
    for (size_t i = 0; i < sizeof session / sizeof *session; i++) unsetenv(session[i]);

    // The X servers' socket folder as a booted system has it (systemd-tmpfiles' x11.conf: root,
    // 1777). On a machine where no X server ever ran it is missing, and the first to start makes
    // it as the user it runs as: sway's Xwayland runs as nobody here, and KWin's XWayland then
    // refuses a folder "not owned by root or us" (it refuses a missing one too).
    struct stat folder;
    if ((lstat("/tmp/.X11-unix", &folder) != 0 && mkdir("/tmp/.X11-unix", 01777) != 0)
        || chown("/tmp/.X11-unix", 0, 0) != 0 || chmod("/tmp/.X11-unix", 01777) != 0) {
        perror("screentime tests: /tmp/.X11-unix");
        exit(70);
    }
}

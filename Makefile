# Builds and installs screentime system-wide or into a staging folder (scripts/build-deb.sh).
#   make install PREFIX=/usr/local          release build, then the files below
#   make install DESTDIR=staging PREFIX=/usr
#   make install-files BUILD_DIR=.build/debug   the files only, from binaries built already
# The binaries link the Swift runtime statically, so only the Debian libraries are needed at run time.

PREFIX ?= /usr/local
DESTDIR ?=
# The autostart entry works only where XDG_CONFIG_DIRS looks (/etc/xdg): /usr and /usr/local use /etc.
SYSCONFDIR ?= $(if $(filter /usr /usr/local,$(PREFIX)),/etc,$(PREFIX)/etc)
SWIFT ?= /opt/swift/usr/bin/swift
CONFIGURATION := $(if $(DEBUG),debug,release)
BUILD_DIR ?= .build/$(CONFIGURATION)
# The GNOME Shell major version the extension is built for; empty: the installed shell's, none without one.
GNOME_SHELL_VERSION ?= $(shell gnome-shell --version 2>/dev/null | sed -n 's/^GNOME Shell \([0-9]*\).*/\1/p')

PRODUCTS := screentime screentime-reader screentime-agent screentime-card screentime-browser-host
EXTENSION_UUID := screentime@screentime.org
# The release version, from the one line the CLI's --version prints.
VERSION := $(shell sed -n 's/^let releaseVersion = "\(.*\)"$$/\1/p' Sources/CLI/ScreenTimeCLI/ReleaseVersion.swift)
BINDIR := $(PREFIX)/bin
DATADIR := $(PREFIX)/share
ROOT := $(DESTDIR)

.PHONY: all build install install-files version

all: build

build:
	for product in $(PRODUCTS); do \
	    $(SWIFT) build -c $(CONFIGURATION) --static-swift-stdlib --product $$product || exit 1; \
	done

# The files only once the build is done, even under make -j.
install: build
	$(MAKE) install-files

# Paths inside the installed files name $(BINDIR), where the binaries are once installed.
install-files:
	for product in $(PRODUCTS); do install -Dm755 $(BUILD_DIR)/$$product $(ROOT)$(BINDIR)/$$product || exit 1; done
	install -d $(ROOT)$(DATADIR)/icons/hicolor/scalable/apps
	install -m644 packaging/icons/*.svg $(ROOT)$(DATADIR)/icons/hicolor/scalable/apps/
	install -d $(ROOT)$(SYSCONFDIR)/xdg/autostart $(ROOT)$(PREFIX)/lib/systemd/user $(ROOT)$(DATADIR)/applications
	sed 's|@BIN@|$(BINDIR)|g' packaging/screentime-autostart.desktop > $(ROOT)$(SYSCONFDIR)/xdg/autostart/screentime.desktop
	sed 's|@BIN@|$(BINDIR)|g' packaging/screentime.service > $(ROOT)$(PREFIX)/lib/systemd/user/screentime.service
	sed 's|@BIN@|$(BINDIR)|g' packaging/screentime-agent-kwin.desktop > $(ROOT)$(DATADIR)/applications/screentime-agent.desktop
	chmod 644 $(ROOT)$(SYSCONFDIR)/xdg/autostart/screentime.desktop $(ROOT)$(PREFIX)/lib/systemd/user/screentime.service \
	    $(ROOT)$(DATADIR)/applications/screentime-agent.desktop
	install -d $(ROOT)$(DATADIR)/man/man1
	sed 's|@VERSION@|$(VERSION)|g' packaging/screentime.1 > $(ROOT)$(DATADIR)/man/man1/screentime.1
	chmod 644 $(ROOT)$(DATADIR)/man/man1/screentime.1
	install -Dm644 packaging/completions/screentime.bash $(ROOT)$(DATADIR)/bash-completion/completions/screentime
	install -Dm644 packaging/completions/_screentime $(ROOT)$(DATADIR)/zsh/vendor-completions/_screentime
	install -Dm644 packaging/completions/screentime.fish $(ROOT)$(DATADIR)/fish/vendor_completions.d/screentime.fish
	desktop/browser/install.sh $(BINDIR)/screentime-browser-host --root $(if $(ROOT),$(ROOT),/)
	desktop/plasma/install.sh $(BINDIR) --into $(ROOT)$(DATADIR)/plasma/plasmoids
	if [ -n "$(GNOME_SHELL_VERSION)" ]; then \
	    desktop/gnome-shell/build.sh $(ROOT)$(DATADIR)/gnome-shell/extensions/$(EXTENSION_UUID) $(GNOME_SHELL_VERSION); \
	fi

version:
	@echo $(VERSION)

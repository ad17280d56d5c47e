#!/bin/sh
# The test command: the Debian packages the tests need, then every test (core, real desktop, CLI).
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test
PATH="/opt/swift/usr/bin:$PATH" swift test

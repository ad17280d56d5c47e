/// The release's version, printed by `screentime --version`. The Makefile and scripts/build-deb.sh
/// read it from this line, so the package and the binary always agree.
let releaseVersion = "0.1.0"

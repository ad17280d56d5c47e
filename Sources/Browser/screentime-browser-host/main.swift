import Glibc

// The browser extension's native messaging host: the browser starts it (its manifest names this
// file) and talks length-prefixed JSON on stdin/stdout; it tells the agent the site of the focused
// tab over the session bus and hands the agent's restrictions back to the extension. Holds nothing
// the agent needs: when it dies, the browser starts another, and the agent forgets what it said.
signal(SIGPIPE, SIG_IGN)
let host = NativeHost(environment: ProcessEnvironment.current(), browserPID: UInt32(truncatingIfNeeded: getppid()))
exit(host.run())

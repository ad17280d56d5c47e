import Agent
import AgentControl
import FoundationEssentials
import Glibc

// The agent process (`screentime agent` runs this): one event loop until SIGTERM, SIGINT or SIGHUP.
exit(AgentMain.run(environment: ProcessInfo.processInfo.environment))

import Glibc
import ScreenTimeCLI

// Run by `screentime` for the commands reading calendars and feeds or needing the desktop backends (`ReaderCommand`), and by the
// agent for `calendar expand`.
exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst()), among: [CalendarCommand.self, RundownCommand.self, DoctorCommand.self, DisplayCommand.self]))

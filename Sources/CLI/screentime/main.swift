import Glibc
import ScreenTimeCLI

exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst())))

import CardContent
import SystemErrors
import FoundationEssentials
import Glibc
import ScreenTimeCore

// The restriction card, a short-lived process the agent starts for each card (so the agent links
// no toolkit): draws the card, answers the agent over the session bus, exits. See CardOptions.usage.

func fail(_ message: String, status: Int32) -> Never {
    StandardStream.error.write("screentime-card: \(message)\n")
    exit(status)
}

let options: CardOptions
do { options = try CardOptions(Array(CommandLine.arguments.dropFirst())) } catch {
    fail("\(error)\n\(CardOptions.usage)", status: 2)
}
let environment = ProcessInfo.processInfo.environment
let document: CardDocument
switch options.source {
case .request(let request): document = CardComposer.document(for: request, environment: environment)
case .document(let given): document = given
}
if options.printsJSON {
    do { StandardStream.output.write(String(decoding: try JSONEncoder().encode(document), as: UTF8.self) + "\n") } catch {
        fail("cannot write the document: \(error)", status: 1)
    }
    exit(0)
}
if options.printOnly {
    print(CardText.render(document))
    exit(0)
}

// Apps a button starts inherit none of what the card was given: a parent watching for the card's
// exit (the agent: the end of our standard output) would otherwise wait for the app's.
for inherited in 3..<Int32(1024) { _ = fcntl(inherited, F_SETFD, FD_CLOEXEC) }
// The agent's pipe stays open, close-on-exec, until the card exits; 1 becomes /dev/null.
let agentPipe = fcntl(1, F_DUPFD_CLOEXEC, 3)
let null = open("/dev/null", O_WRONLY)
if null >= 0 { dup2(null, 1); close(null) }
_ = agentPipe

guard Gtk.start(programName: "screentime-card") else { fail("cannot open a display", status: 3) }
var status: Int32 = 0
let monitorAt = options.monitorAt ?? options.x11Window.flatMap(Gtk.centreOfX11Window)
let view = CardView(document: document, monitorAt: monitorAt) { button in
    Gtk.flushEvents()
    if let launch = button.launch {
        // The app, link or music starts whatever the agent makes of the answer.
        do { try CardLauncher.launch(launch, environment: environment) } catch {
            StandardStream.error.write("screentime-card: cannot start \(launch): \(error)\n")
        }
    }
    do { try CardAnswer.send(card: options.id, choice: button.key) } catch {
        StandardStream.error.write("screentime-card: cannot give the agent the answer \(button.key): \(error)\n")
        status = 4
    }
    Gtk.quit()
}
Gtk.run()
exit(status)

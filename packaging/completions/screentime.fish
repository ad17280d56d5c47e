# fish completion for screentime(1): the commands, their actions and options.
set -l commands setup agent status mode break bedtime stay-up start-day rundown report apps limit important essential group site rule continue schedule calendar cheat-day sync pending pause config display doctor help
set -l modes standard productivity social wind-down sleep wake-up
complete -c screentime -f
complete -c screentime -n "not __fish_seen_subcommand_from $commands" -l help -d 'Print the commands'
complete -c screentime -n "not __fish_seen_subcommand_from $commands" -l version -d 'Print the version'
set -l described \
    "setup:A few questions, then the configuration and autostart" \
    "agent:Run the agent in the foreground" \
    "status:The mode, today's use, the limits' time left" \
    "mode:Show or switch the mode" \
    "break:A Productivity break now" \
    "bedtime:Sleep now" \
    "stay-up:Pause Wind Down for an hour" \
    "start-day:End the night's modes" \
    "rundown:The morning run-down" \
    "report:Usage per app" \
    "apps:Known apps, their groups, time and limits" \
    "limit:Daily limits of apps and groups" \
    "important:Apps with no limit" \
    "essential:Apps never restricted" \
    "group:Groups of apps" \
    "site:Web sites the browser extension counts" \
    "rule:Title rules" \
    "continue:The notification's Continue" \
    "schedule:Scheduled modes" \
    "calendar:Calendars whose events name a mode" \
    "cheat-day:Book a Cheat Day" \
    "sync:Share one budget across your computers" \
    "pending:Loosenings waiting for their time" \
    "pause:No limits or modes for a while" \
    "config:The configuration file" \
    "display:Put the screen's colours back" \
    "doctor:What this desktop supports" \
    "help:A command's usage"
for pair in $described
    set -l parts (string split -m 1 : -- $pair)
    complete -c screentime -n "not __fish_seen_subcommand_from $commands" -a $parts[1] -d $parts[2]
end
complete -c screentime -n "__fish_seen_subcommand_from setup" -l defaults
complete -c screentime -n "__fish_seen_subcommand_from status" -l waybar -l i3blocks -l follow -l next -l shown
complete -c screentime -n "__fish_seen_subcommand_from status rundown" -l json
complete -c screentime -n "__fish_seen_subcommand_from mode" -a "$modes auto"
complete -c screentime -n "__fish_seen_subcommand_from report" -a "today yesterday week"
complete -c screentime -n "__fish_seen_subcommand_from report" -l from -l to -l json -l csv -l html
complete -c screentime -n "__fish_seen_subcommand_from limit" -a "set rm default list"
complete -c screentime -n "__fish_seen_subcommand_from important essential" -a "add rm list"
complete -c screentime -n "__fish_seen_subcommand_from group" -a "list add rm"
complete -c screentime -n "__fish_seen_subcommand_from site" -a "list add rm"
complete -c screentime -n "__fish_seen_subcommand_from rule" -a "add rm list"
complete -c screentime -n "__fish_seen_subcommand_from rule" -l app -l title
complete -c screentime -n "__fish_seen_subcommand_from schedule" -a "add list rm $modes"
complete -c screentime -n "__fish_seen_subcommand_from schedule" -l at -l for -l every
complete -c screentime -n "__fish_seen_subcommand_from calendar" -a "add rm list expand" -F
complete -c screentime -n "__fish_seen_subcommand_from cheat-day" -a "book list cancel"
complete -c screentime -n "__fish_seen_subcommand_from sync" -a "join leave status"
complete -c screentime -n "__fish_seen_subcommand_from pending" -a "list cancel"
complete -c screentime -n "__fish_seen_subcommand_from pause" -a "end"
complete -c screentime -n "__fish_seen_subcommand_from config" -a "path get set edit"
complete -c screentime -n "__fish_seen_subcommand_from display" -a restore
complete -c screentime -n "__fish_seen_subcommand_from help" -a "$commands"

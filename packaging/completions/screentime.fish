# fish completion for screentime(1): the commands, their actions and options.
set -l commands agent status mode break bedtime stay-up start-day rundown report apps limit important essential group rule continue schedule calendar cheat-day config display doctor help
set -l modes standard productivity social wind-down sleep wake-up
complete -c screentime -f
complete -c screentime -n "not __fish_seen_subcommand_from $commands" -l help -d 'Print the commands'
complete -c screentime -n "not __fish_seen_subcommand_from $commands" -l version -d 'Print the version'
complete -c screentime -n "not __fish_seen_subcommand_from $commands" -a agent -d 'Run the agent in the foreground'
complete -c screentime -n "not __fish_seen_subcommand_from $commands" -a status -d "The mode, today's use, the limits' time left"
complete -c screentime -n "not __fish_seen_subcommand_from $commands" -a mode -d 'Show or switch the mode'
complete -c screentime -n "not __fish_seen_subcommand_from $commands" -a break -d 'A Productivity break now'
complete -c screentime -n "not __fish_seen_subcommand_from $commands" -a bedtime -d 'Sleep now'
complete -c screentime -n "not __fish_seen_subcommand_from $commands" -a stay-up -d 'Pause Wind Down for an hour'
complete -c screentime -n "not __fish_seen_subcommand_from $commands" -a start-day -d "End the night's modes"
complete -c screentime -n "not __fish_seen_subcommand_from $commands" -a rundown -d 'The morning run-down'
complete -c screentime -n "not __fish_seen_subcommand_from $commands" -a report -d 'Usage per app'
complete -c screentime -n "not __fish_seen_subcommand_from $commands" -a apps -d 'Known apps, their groups, time and limits'
complete -c screentime -n "not __fish_seen_subcommand_from $commands" -a limit -d 'Daily limits of apps and groups'
complete -c screentime -n "not __fish_seen_subcommand_from $commands" -a important -d 'Apps with no limit'
complete -c screentime -n "not __fish_seen_subcommand_from $commands" -a essential -d 'Apps never restricted'
complete -c screentime -n "not __fish_seen_subcommand_from $commands" -a group -d 'Groups of apps'
complete -c screentime -n "not __fish_seen_subcommand_from $commands" -a rule -d 'Title rules'
complete -c screentime -n "not __fish_seen_subcommand_from $commands" -a continue -d "The notification's Continue"
complete -c screentime -n "not __fish_seen_subcommand_from $commands" -a schedule -d 'Scheduled modes'
complete -c screentime -n "not __fish_seen_subcommand_from $commands" -a calendar -d 'Calendars whose events name a mode'
complete -c screentime -n "not __fish_seen_subcommand_from $commands" -a cheat-day -d 'Book a Cheat Day'
complete -c screentime -n "not __fish_seen_subcommand_from $commands" -a config -d 'The configuration file'
complete -c screentime -n "not __fish_seen_subcommand_from $commands" -a display -d "Put the screen's colours back"
complete -c screentime -n "not __fish_seen_subcommand_from $commands" -a doctor -d 'What this desktop supports'
complete -c screentime -n "not __fish_seen_subcommand_from $commands" -a help -d "A command's usage"
complete -c screentime -n "__fish_seen_subcommand_from status rundown" -l json
complete -c screentime -n "__fish_seen_subcommand_from mode" -a "$modes auto"
complete -c screentime -n "__fish_seen_subcommand_from report" -a "today yesterday week"
complete -c screentime -n "__fish_seen_subcommand_from report" -l from -l to -l json -l csv
complete -c screentime -n "__fish_seen_subcommand_from limit" -a "set rm default list"
complete -c screentime -n "__fish_seen_subcommand_from important essential" -a "add rm list"
complete -c screentime -n "__fish_seen_subcommand_from group" -a "list add rm"
complete -c screentime -n "__fish_seen_subcommand_from rule" -a "add rm list"
complete -c screentime -n "__fish_seen_subcommand_from rule" -l app -l title
complete -c screentime -n "__fish_seen_subcommand_from schedule" -a "add list rm $modes"
complete -c screentime -n "__fish_seen_subcommand_from schedule" -l at -l for -l every
complete -c screentime -n "__fish_seen_subcommand_from calendar" -a "add rm list expand" -F
complete -c screentime -n "__fish_seen_subcommand_from cheat-day" -a "book list cancel"
complete -c screentime -n "__fish_seen_subcommand_from config" -a "path get set edit"
complete -c screentime -n "__fish_seen_subcommand_from display" -a restore
complete -c screentime -n "__fish_seen_subcommand_from help" -a "$commands"

# bash completion for screentime(1): the commands, their actions and options.
_screentime() {
    local cur=${COMP_WORDS[COMP_CWORD]} command=${COMP_WORDS[1]}
    local commands="setup agent status mode break bedtime stay-up start-day rundown report apps limit important essential group site rule continue schedule calendar cheat-day sync pending pause config display doctor help"
    local modes="standard productivity social wind-down sleep wake-up"
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
        return
    fi
    local words=""
    case "$command" in
        setup) words="--defaults" ;;
        status) words="--json --waybar --i3blocks --follow --next --shown" ;;
        rundown) words="--json" ;;
        mode) [ "$COMP_CWORD" -eq 2 ] && words="$modes auto" ;;
        report) words="today yesterday week --from --to --json --csv --html" ;;
        limit) [ "$COMP_CWORD" -eq 2 ] && words="set rm default list" ;;
        important|essential) [ "$COMP_CWORD" -eq 2 ] && words="add rm list" ;;
        group) [ "$COMP_CWORD" -eq 2 ] && words="list add rm" ;;
        site) [ "$COMP_CWORD" -eq 2 ] && words="list add rm" ;;
        rule) if [ "$COMP_CWORD" -eq 2 ]; then words="add rm list"; else words="--app --title"; fi ;;
        schedule) if [ "$COMP_CWORD" -eq 2 ]; then words="add list rm"
                  elif [ "$COMP_CWORD" -eq 3 ]; then words="$modes"
                  else words="--at --for --every"; fi ;;
        calendar) if [ "$COMP_CWORD" -eq 2 ]; then words="add rm list expand"
                  else COMPREPLY=($(compgen -f -- "$cur")); return; fi ;;
        cheat-day) [ "$COMP_CWORD" -eq 2 ] && words="book list cancel" ;;
        sync) [ "$COMP_CWORD" -eq 2 ] && words="join leave status" ;;
        pending) [ "$COMP_CWORD" -eq 2 ] && words="list cancel" ;;
        pause) [ "$COMP_CWORD" -eq 2 ] && words="end" ;;
        config) [ "$COMP_CWORD" -eq 2 ] && words="path get set edit" ;;
        display) [ "$COMP_CWORD" -eq 2 ] && words="restore" ;;
        help) [ "$COMP_CWORD" -eq 2 ] && words="$commands" ;;
    esac
    COMPREPLY=($(compgen -W "$words --help" -- "$cur"))
}
complete -F _screentime screentime

# SPDX-License-Identifier: MIT
# fish completion for kli(1). Installed in
# $(datadir)/fish/vendor_completions.d, which fish reads on its own.

# The built-in profiles and every [profile NAME] of the files kli reads:
# the system file, the user file, and the nearest .kli/config.ini from the
# current directory up to the git root (only the current directory outside
# a repository).
function __kli_profiles
    set -l xdg "$XDG_CONFIG_HOME"
    string match -q -- '/*' "$xdg"; or set xdg "$HOME/.config"
    set -l files /etc/kli/config.ini "$xdg/kli/config.ini"
    set -l root
    set -l d $PWD
    while true
        if test -e "$d/.git"
            set root $d
            break
        end
        test "$d" = /; and break
        set d (string replace -r -- '/[^/]*$' '' $d)
        test -n "$d"; or set d /
    end
    set d $PWD
    while true
        if test -f "$d/.kli/config.ini"
            set -a files "$d/.kli/config.ini"
            break
        end
        if test -z "$root"; or test "$d" = "$root"; or test "$d" = /
            break
        end
        set d (string replace -r -- '/[^/]*$' '' $d)
        test -n "$d"; or set d /
    end
    begin
        printf '%s\n' print headless interactive
        for f in $files
            test -r "$f"; and sed -n 's/^\[profile \([A-Za-z0-9._-]\{1,\}\)\].*$/\1/p' "$f" 2>/dev/null
        end
    end | sort -u
end

# True when the word before the cursor is the ATOM of --check.
function __kli_check_object
    set -l tokens (commandline -opc)
    set -q tokens[2]; or return 1
    test "$tokens[-2]" = --check
end

complete -c kli -f
complete -c kli -s p -l prompt -x -d 'Run one task headless (- reads stdin)'
complete -c kli -s q -l quiet -d 'No line per tool call (nor diff) on stderr'
complete -c kli -s m -l model -x -d 'The model to ask ([model] model)'
complete -c kli -s c -l config -x -d 'Set a config key: SECTION.KEY=VALUE'
complete -c kli -l max-turns -x -d 'Stop after N model turns (default 50)'
complete -c kli -l resume -d 'Continue a saved session (default: the newest here)'
complete -c kli -n '__fish_seen_argument -l resume' -a '(kli --sessions 2>/dev/null | cut -d" " -f1)' -d 'Saved session'
complete -c kli -l sessions -d 'List the saved sessions'
complete -c kli -l print-authority -d 'Print the run grant and exit'
complete -c kli -l json -d 'JSON: the grant, or one event per line'
complete -c kli -l check -x -a 'file/read file/write file/edit process/exec result/read tools/standard' -d 'Print allowed or denied for ATOM [OBJECT]'
complete -c kli -n __kli_check_object -F
complete -c kli -l profile -x -a '(__kli_profiles)' -d 'Narrow by profile NAME'
complete -c kli -l read-only -d 'Drop file/write, file/edit and process/exec'
complete -c kli -l no-bash -d 'Drop process/exec'
complete -c kli -l system-config -r -F -d 'Read FILE as the system config (the lowest layer)'
complete -c kli -l jail-policy -r -F -d "The jail's policy (a saved kjail --explain --json)"
complete -c kli -l check-containment -d 'Exit 1 when the grant exceeds the jail'
complete -c kli -l baseline -r -F -d 'Report drift from a saved kli --print-authority --json'
complete -c kli -s h -l help -d 'Show help'
complete -c kli -s V -l version -d 'Show the version'

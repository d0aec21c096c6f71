# SPDX-License-Identifier: MIT
# fish completion for kjail(1). Installed in
# $(datadir)/fish/vendor_completions.d, which fish reads on its own.

# Where the cursor is, from the words before it: "arg" (the argument of
# the option just before), "opts" (options, or the command to run),
# "explain" (paths for --explain) or "command" (the command's own words).
function __kjail_state
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l need 0
    set -l explain 0
    for t in $tokens
        if test $need = 1
            set need 0
            continue
        end
        switch $t
            case --
                if test $explain = 1
                    echo explain
                else
                    echo command
                end
                return
            case --workspace --writable --deny-read --deny-env --keep-env --config --backend --fallback --allow-host --net-log --device --allow-socket --secret --cache
                set need 1
            case --explain
                set explain 1
            case '--*'
            case '-*'
                # Stacked short options (-nC DIR); an argument may be attached.
                if string match -qr -- '^-[nvhV]*[Cwrek]$' $t
                    set need 1
                end
            case '*'
                if test $explain = 1
                    continue
                end
                echo command
                return
        end
    end
    if test $need = 1
        echo arg
    else if test $explain = 1
        echo explain
    else
        echo opts
    end
end

# The jailed command's own completions, as if it were typed alone.
function __kjail_complete_command
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l need 0
    while set -q tokens[1]
        set -l t $tokens[1]
        if test $need = 1
            set need 0
        else
            switch $t
                case --
                    set -e tokens[1]
                    break
                case --workspace --writable --deny-read --deny-env --keep-env --config --backend --fallback --allow-host --net-log --device --allow-socket --secret --cache
                    set need 1
                case '-*'
                    if string match -qr -- '^-[nvhV]*[Cwrek]$' $t
                        set need 1
                    end
                case '*'
                    break
            end
        end
        set -e tokens[1]
    end
    complete -C (string join -- ' ' (string escape -- $tokens) (commandline -ct))
end

# Options, and their arguments, until the command.
function __kjail_options
    contains -- (__kjail_state) opts arg
end

complete -c kjail -f
complete -c kjail -n __kjail_options -s C -l workspace -x -a '(__fish_complete_directories (commandline -ct))' -d 'Writable workspace and working directory'
complete -c kjail -n __kjail_options -s w -l writable -r -F -d 'Also bind PATH writable'
complete -c kjail -n __kjail_options -s r -l deny-read -r -F -d 'Mask PATH: reads as empty'
complete -c kjail -n __kjail_options -s e -l deny-env -x -a '(set --names --export)' -d 'Unset NAME (glob patterns allowed)'
complete -c kjail -n __kjail_options -s k -l keep-env -x -a '(set --names --export)' -d 'Let NAME through the secret scrub'
complete -c kjail -n __kjail_options -s n -l no-network -d 'Own network namespace, loopback only'
complete -c kjail -n __kjail_options -l network -d 'Keep the host network (the default)'
complete -c kjail -n __kjail_options -l nested-userns -d 'Inside a container that masks /proc'
complete -c kjail -n __kjail_options -l no-defaults -d 'Drop the built-in masks and scrub'
complete -c kjail -n __kjail_options -l allow-userns -d 'Let the command create user namespaces'
complete -c kjail -n __kjail_options -l allow-host -x -a '@models @registries' -d 'Reach HOST[:PORT] through kjail\'s proxy only'
complete -c kjail -n __kjail_options -l device -x -a 'gpu' -d 'Also the host\'s GPU device nodes, read-write'
complete -c kjail -n __kjail_options -l allow-socket -r -F -a 'ssh-agent gpg-agent docker podman system-bus' -d 'Let the jail reach this one Unix socket'
complete -c kjail -n __kjail_options -l net-log -r -F -d 'Keep the proxy\'s JSON log at FILE after the run'
complete -c kjail -n __kjail_options -l secret -x -d 'Hand the command NAME=PATH or NAME=env:VAR on a descriptor'
complete -c kjail -n __kjail_options -l cache -x -a 'true false shared' -d 'Toolchain caches: per workspace, none or shared'
complete -c kjail -n __kjail_options -l no-cache -d 'No writable toolchain caches, no shell history'
complete -c kjail -n __kjail_options -l cache-list -d 'List each workspace\'s cache: size, last use, workspace'
complete -c kjail -n __kjail_options -l cache-prune -d 'Remove caches unused for DAYS days (30) or whose workspace is gone'
complete -c kjail -n __kjail_options -l config -r -F -d 'Read FILE instead of the system and user config'
complete -c kjail -n __kjail_options -l backend -x -a 'auto bwrap seatbelt container landlock' -d 'How the jail is made'
complete -c kjail -n __kjail_options -l fallback -x -a 'none landlock' -d 'The backend used when bwrap cannot start'
complete -c kjail -n __kjail_options -l print -d 'Print the backend invocation instead of running it'
complete -c kjail -n __kjail_options -l explain -d 'Describe the jail, or the verdict on each PATH'
complete -c kjail -n __kjail_options -l check-config -d 'Check the config; print the declared policy'
complete -c kjail -n __kjail_options -l json -d 'Machine-readable --print, --explain, --check-config'
complete -c kjail -n __kjail_options -s v -l verbose -d 'With --explain: every rule, mask and absent path'
complete -c kjail -n __kjail_options -l doctor -d 'Check the host and say how to fix it'
complete -c kjail -n __kjail_options -s h -l help -d 'Show help and exit'
complete -c kjail -n __kjail_options -s V -l version -d 'Show the version and build and exit'
# The command to run in the jail, the paths for --explain, the command's words.
complete -c kjail -n 'test (__kjail_state) = opts; and not string match -q -- "-*" (commandline -ct)' -a '(__fish_complete_command)'
complete -c kjail -n 'test (__kjail_state) = explain' -F
complete -c kjail -n 'test (__kjail_state) = command' -a '(__kjail_complete_command)'

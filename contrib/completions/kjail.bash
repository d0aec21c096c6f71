# SPDX-License-Identifier: MIT
# bash completion for kjail(1)                              -*- shell-script -*-
#
# Installed as $(datadir)/bash-completion/completions/kjail.bash, where
# bash-completion loads it on first use; or source it from ~/.bashrc.
# Plain bash (3.2 and later): it needs none of bash-completion's helpers,
# and uses _command_offset for the jailed command's own arguments only
# when bash-completion is loaded.

# _kjail_add GENERATOR-ARGS...: append compgen's words to COMPREPLY, one per
# line (no word splitting on blanks, no globbing of the results).
_kjail_add()
{
	local line
	while IFS= read -r line; do
		COMPREPLY+=("$line")
	done < <(compgen "$@" 2>/dev/null)
}

_kjail()
{
	local cur=${COMP_WORDS[COMP_CWORD]} cword=$COMP_CWORD pre=''
	COMPREPLY=()

	# Walk the words before the cursor: options end at "--" or at the first
	# word that is neither an option nor an option's argument. $need is the
	# option whose argument comes next, if any. With '=' in COMP_WORDBREAKS
	# (the default), "--backend=bw" arrives as "--backend" "=" "bw".
	local i=1 w s need='' explain=0 cmd=0 dashdash=0
	while ((i < cword)); do
		w=${COMP_WORDS[i]}
		((i++))
		if [[ $w == = ]]; then
			continue
		elif [[ -n $need ]]; then
			need=
			continue
		fi
		case $w in
		--)
			# With --explain, what follows are paths.
			((explain)) && dashdash=1 || cmd=$i
			break
			;;
		--workspace | --writable | --deny-read | --deny-env | --keep-env | \
			--config | --backend | --fallback | --allow-host | --net-log | --device | --allow-socket | --secret | --cache)
			need=$w
			;;
		--explain) explain=1 ;;
		--*) ;;
		-?*)
			# Short options may be stacked (-nC DIR) or carry their
			# argument in the same word (-C/src).
			s=${w#-}
			while [[ -n $s ]]; do
				case ${s:0:1} in
				[Cwrek])
					[[ ${#s} -eq 1 ]] && need=-${s:0:1}
					break
					;;
				esac
				s=${s:1}
			done
			;;
		*)
			# With --explain the words are paths; otherwise the command.
			((explain)) && continue
			cmd=$((i - 1))
			break
			;;
		esac
	done

	# Without '=' in COMP_WORDBREAKS: "--backend=bw" is one word.
	if ((cmd == 0)) && [[ -z $need && $cur == --*=* ]]; then
		need=${cur%%=*}
		pre=${cur%%=*}=
		cur=${cur#*=}
	elif [[ $cur == = ]]; then
		cur=
	fi

	if ((cmd > 0 && cmd < cword)); then
		# Past the command: complete its own arguments.
		if declare -F _command_offset >/dev/null 2>&1; then
			_command_offset "$cmd"
			return
		fi
		compopt -o filenames 2>/dev/null
		_kjail_add -f -- "$cur"
		return
	fi

	case $need in
	-C | --workspace)
		compopt -o filenames 2>/dev/null
		_kjail_add -d -- "$cur"
		;;
	-w | --writable | -r | --deny-read | --config)
		compopt -o filenames 2>/dev/null
		_kjail_add -f -- "$cur"
		;;
	-e | --deny-env | -k | --keep-env)
		_kjail_add -e -- "$cur"
		;;
	--backend)
		_kjail_add -W 'auto bwrap seatbelt container landlock' -- "$cur"
		;;
	--fallback)
		_kjail_add -W 'none landlock' -- "$cur"
		;;
	--device)
		_kjail_add -W 'gpu' -- "$cur"
		;;
	--cache)
		_kjail_add -W 'true false shared' -- "$cur"
		;;
	--allow-host)
		# a host is the user's to type; the built-in groups are offered
		_kjail_add -W '@models @registries' -- "$cur"
		;;
	--net-log)
		# where to keep the proxy's log: a file outside the workspace
		compopt -o filenames 2>/dev/null
		_kjail_add -f -- "$cur"
		;;
	--allow-socket)
		# a name of the built-in table, or a socket's path
		compopt -o filenames 2>/dev/null
		_kjail_add -W 'ssh-agent gpg-agent docker podman system-bus' -- "$cur"
		_kjail_add -f -- "$cur"
		;;
	--secret)
		# NAME=PATH or NAME=env:VAR: the user's to type
		;;
	*)
		if ((cmd == 0 && !dashdash)) && [[ $cur == -* ]]; then
			_kjail_add -W '-C --workspace -w --writable -r --deny-read
				-e --deny-env -k --keep-env -n --no-network --network
				--nested-userns --no-defaults --allow-userns --allow-host --net-log --device --allow-socket --secret --cache
				--no-cache --cache-list --cache-prune --config
				--backend --fallback --print --explain --check-config --json -v --verbose --doctor -h --help
				-V --version' -- "$cur"
		elif ((explain)); then
			# --explain [PATH]...: the paths to judge.
			compopt -o filenames 2>/dev/null
			_kjail_add -f -- "$cur"
		else
			# The command to run in the jail: a name on PATH, or a path.
			if [[ $cur == */* ]]; then
				compopt -o filenames 2>/dev/null
				_kjail_add -f -- "$cur"
			else
				_kjail_add -c -- "$cur"
			fi
		fi
		;;
	esac
	if [[ -n $pre ]]; then
		for i in "${!COMPREPLY[@]}"; do
			COMPREPLY[i]=$pre${COMPREPLY[i]}
		done
	fi
}

complete -F _kjail kjail

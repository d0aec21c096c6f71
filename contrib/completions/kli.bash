# SPDX-License-Identifier: MIT
# bash completion for kli(1)                                -*- shell-script -*-
#
# Installed as $(datadir)/bash-completion/completions/kli.bash, where
# bash-completion loads it on first use; or source it from ~/.bashrc.
# Plain bash (3.2 and later): it needs none of bash-completion's helpers.

# _kli_add GENERATOR-ARGS...: append compgen's words to COMPREPLY, one per
# line (no word splitting on blanks, no globbing of the results).
_kli_add()
{
	local line
	while IFS= read -r line; do
		COMPREPLY+=("$line")
	done < <(compgen "$@" 2>/dev/null)
}

# The profiles kli knows here: the built-in ones, and every [profile NAME]
# of the files kli reads: the system file, the user file, and the nearest
# .kli/config.ini from the current directory up to the git root (only the
# current directory outside a repository).
_kli_profiles()
{
	local xdg=${XDG_CONFIG_HOME:-} d root='' f
	[[ $xdg == /* ]] || xdg=$HOME/.config
	local files=(/etc/kli/config.ini "$xdg/kli/config.ini")
	d=$PWD
	while :; do
		if [[ -e $d/.git ]]; then
			root=$d
			break
		fi
		[[ -z $d || $d == / ]] && break
		d=${d%/*}
		[[ -n $d ]] || d=/
	done
	d=$PWD
	while :; do
		if [[ -f $d/.kli/config.ini ]]; then
			files+=("$d/.kli/config.ini")
			break
		fi
		[[ -z $root || $d == "$root" || $d == / ]] && break
		d=${d%/*}
		[[ -n $d ]] || d=/
	done
	{
		printf '%s\n' print headless interactive
		for f in "${files[@]}"; do
			[[ -r $f ]] &&
				sed -n 's/^\[profile \([A-Za-z0-9._-]\{1,\}\)\].*$/\1/p' "$f" 2>/dev/null
		done
	} | sort -u
}

_kli()
{
	local cur=${COMP_WORDS[COMP_CWORD]} cword=$COMP_CWORD prev='' pre=''
	COMPREPLY=()
	((cword > 0)) && prev=${COMP_WORDS[cword - 1]}
	# "--profile=re" arrives as "--profile" "=" "re" with '=' in
	# COMP_WORDBREAKS (the default), as one word without it.
	if [[ $cur == = ]]; then
		cur=''
	elif [[ $prev == = ]] && ((cword > 1)); then
		prev=${COMP_WORDS[cword - 2]}
	elif [[ $cur == --*=* ]]; then
		prev=${cur%%=*}
		pre=$prev=
		cur=${cur#*=}
	fi

	# The word after "--check ATOM" is the object, a path as often as not.
	local before=''
	((cword > 1)) && before=${COMP_WORDS[cword - 2]}
	((cword > 2)) && [[ ${COMP_WORDS[cword - 2]} == = ]] && before=${COMP_WORDS[cword - 3]}

	case $prev in
	--profile)
		_kli_add -W "$(_kli_profiles)" -- "$cur"
		;;
	--check)
		_kli_add -W 'file/read file/write file/edit process/exec result/read
			tools/standard' -- "$cur"
		;;
	-p | --prompt)
		# Free text, or '-' for standard input.
		[[ -z $cur ]] && COMPREPLY=(-)
		;;
	--max-turns | -m | --model | -c | --config) ;;
	--resume)
		# A saved session's id (or a flag: the newest is the default).
		_kli_add -W "$(kli --sessions 2>/dev/null | cut -d' ' -f1)" -- "$cur"
		;;
	--jail-policy | --baseline | --system-config)
		compopt -o filenames 2>/dev/null
		_kli_add -f -- "$cur"
		;;
	*)
		if [[ $cur == -* ]]; then
			_kli_add -W '-p --prompt -q --quiet -m --model -c --config --max-turns --print-authority --json
				--check --profile --read-only --no-bash -h --help
				-V --version --jail-policy --check-containment
				--baseline --system-config --resume --sessions' -- "$cur"
		elif [[ $before == --check ]]; then
			compopt -o filenames 2>/dev/null
			_kli_add -f -- "$cur"
		fi
		;;
	esac
	if [[ -n $pre ]]; then
		local i
		for i in "${!COMPREPLY[@]}"; do
			COMPREPLY[i]=$pre${COMPREPLY[i]}
		done
	fi
}

complete -F _kli kli

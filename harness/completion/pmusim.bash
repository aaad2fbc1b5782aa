# bash completion for pmusim (installed as share/bash-completion/completions/pmusim;
# zsh reads it through bashcompinit, _pmusim).  Everything it offers comes from
# pmusim itself: the commands from `pmusim --help`, a command's options from
# `pmusim COMMAND --help`, the PMUs from `pmusim list`, events and unit masks
# from `pmusim list --names PMU`, so it never goes stale.

_pmusim_commands() {
    "$1" --help 2>/dev/null | awk '/^Commands:/ { c = 1; next } c && /^  [a-z]/ { print $1 } c && /^$/ { exit }'
    echo help
}

_pmusim_pmus() {
    "$1" list 2>/dev/null | awk '{ print $1 }'
}

# COMPREPLY from candidates $2 for the whole word $1, each cut to the part
# after the word's last ':' (what bash replaces).
_pmusim_reply() {
    local word=$1 cands=$2 c
    local head=${word%"${word##*:}"}
    COMPREPLY=()
    for c in $(compgen -W "$cands" -- "$word"); do
        COMPREPLY+=("${c#"$head"}")
    done
}

# An event string: PMU:: first, then that PMU's events and unit masks.
_pmusim_events() {
    local exe=$1 word=$2 pmu=$3
    if [[ $word == *::* ]]; then
        pmu=${word%%::*}
        _pmusim_reply "$word" "$("$exe" list --names "$pmu" 2>/dev/null)"
    elif [[ -n $pmu ]]; then
        _pmusim_reply "$word" "$("$exe" list --names "$pmu" 2>/dev/null | sed 's/^[^:]*:://')"
    else
        local p cands=""
        for p in $(_pmusim_pmus "$exe"); do cands+="$p:: "; done
        _pmusim_reply "$word" "$cands"
        compopt -o nospace 2>/dev/null
    fi
}

_pmusim() {
    local exe=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]}
    local word prev cmd pmu="" i
    # the line split at blanks only: bash also splits at ':' (its
    # COMP_WORDBREAKS), an event string is one word for us
    local line=${COMP_LINE:0:COMP_POINT}
    local -a toks
    read -r -a toks <<<"$line"
    word=""
    if [[ $line != *[[:space:]] ]]; then
        word=${toks[${#toks[@]} - 1]}
        unset 'toks[${#toks[@]}-1]' # the words before the one being completed
    fi
    if ((COMP_CWORD == 1)); then
        COMPREPLY=($(compgen -W "$(_pmusim_commands "$exe")" -- "$cur"))
        return
    fi
    cmd=${COMP_WORDS[1]}
    prev=${toks[${#toks[@]} - 1]} # the option before the word
    for ((i = 0; i < ${#toks[@]}; i++)); do
        case ${toks[i]} in
        -p | --pmu) pmu=${toks[i + 1]} ;;
        --pmu=*) pmu=${toks[i]#--pmu=} ;;
        esac
    done
    case $prev in
    -p | --pmu)
        COMPREPLY=($(compgen -W "$(_pmusim_pmus "$exe")" -- "$cur"))
        return
        ;;
    -e | --event)
        _pmusim_events "$exe" "$word" "$pmu"
        return
        ;;
    -s | --stim | -o | --output | -m | --model | --junit | --expect | --write-expect | --vectors)
        COMPREPLY=($(compgen -f -- "$cur"))
        return
        ;;
    -f | --format)
        COMPREPLY=($(compgen -W "table csv json vcd svg html text perf human" -- "$cur"))
        return
        ;;
    --engine)
        COMPREPLY=($(compgen -W "reference fast" -- "$cur"))
        return
        ;;
    --kind)
        COMPREPLY=($(compgen -W "encode sim" -- "$cur"))
        return
        ;;
    --backend)
        COMPREPLY=($(compgen -W "builtin libpfm4 cmd:" -- "$cur"))
        return
        ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$("$exe" "$cmd" --help 2>/dev/null | grep -o -- '--[a-z][a-z-]*' | sort -u)" -- "$cur"))
        return
    fi
    case $cmd in
    encode | explain) _pmusim_events "$exe" "$word" "$pmu" ;;
    list | conform | diff | decode) COMPREPLY=($(compgen -W "$(_pmusim_pmus "$exe")" -- "$cur")) ;;
    lint) COMPREPLY=($(compgen -f -- "$cur")) ;;
    help) COMPREPLY=($(compgen -W "$(_pmusim_commands "$exe")" -- "$cur")) ;;
    bench) COMPREPLY=($(compgen -W "encode sim conform" -- "$cur")) ;;
    esac
}

complete -F _pmusim pmusim

# bash completion for netsim(1), installed as
# share/bash-completion/completions/netsim: the commands, each command's
# options, scenario files, and after --set the section names of the
# scenario on the line and the keys `netsim keys --names` lists, so that
# the completed keys are the ones the reader accepts.

# The netsim being completed: the word typed, when it runs (./netsim in
# the build tree), else the one on PATH.
_netsim_bin() {
    local b=${COMP_WORDS[0]}
    [[ $b == */* && -x $b ]] || b=$(command -v netsim) || return 1
    printf '%s\n' "$b"
}

_netsim() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} cmd=${COMP_WORDS[1]:-}
    local bin opts w f names
    COMPREPLY=()
    if ((COMP_CWORD == 1)); then
        mapfile -t COMPREPLY < <(compgen -W "run sweep report plot merge models keys help --version --help" -- "$cur")
        return
    fi
    case $prev in
    -s | --set)
        bin=$(_netsim_bin) || return
        compopt -o nospace 2> /dev/null
        if [[ $cur == *.* ]]; then          # S.K=V: a key after the section
            mapfile -t COMPREPLY < <(compgen -P "${cur%%.*}." -S = -W "$("$bin" keys --names 2> /dev/null)" \
                -- "${cur#*.}")
        else                                # the section: sim, or a name in the scenario
            names=sim
            for w in "${COMP_WORDS[@]:2}"; do
                [[ $w == *.ini && -r $w ]] && f=$w && break
            done
            [[ -n ${f:-} ]] && names+=" $(sed -n 's/^[[:space:]]*\[[A-Za-z][A-Za-z0-9_-]*[[:space:]]\{1,\}\([^]]*\)\].*/\1/p' "$f")"
            mapfile -t COMPREPLY < <(compgen -S . -W "$names" -- "$cur")
        fi
        return
        ;;
    -o | --output | --ss | --script)
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        return
        ;;
    --metric)
        mapfile -t COMPREPLY < <(compgen -W "goodput retransmits rtt drops jain counter:" -- "$cur")
        return
        ;;
    --by)
        mapfile -t COMPREPLY < <(compgen -W "flow host" -- "$cur")
        return
        ;;
    --kind)
        [[ $cmd == plot ]] && mapfile -t COMPREPLY < <(compgen -W "sweep" -- "$cur")
        return
        ;;
    -j | --jobs | --seed | --rep | --shard | --only | --compare | --flow | --axis | --variant-axis | --size | --title)
        return
        ;;
    esac
    case $cmd in
    run) opts="-o --output -s --set --seed --rep --profile --json -q --quiet --no-db --pcap --pcap-snaplen --pcap-filter --pcap-wire --ss -h --help" ;;
    sweep) opts="-j --jobs -o --output -s --set --dry-run --resume --shard --only --emit-jobs -q --quiet -h --help" ;;
    report) opts="--compare --metric --by --json -h --help" ;;
    plot) opts="--metric --by --flow --axis --variant-axis --logx --no-logx -o --output --size --title --script --kind -h --help" ;;
    merge | models | help) opts="-h --help" ;;
    keys) opts="--md --roff --names -h --help" ;;
    *) return ;;
    esac
    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
    elif [[ $cmd == keys ]]; then           # sections, apps, families (netsim models)
        bin=$(_netsim_bin) || return
        names="sim link host flow $("$bin" models 2> /dev/null | awk '
            /^applications/ { a = 1; next } /^$/ { a = 0 }
            a { print $1 } /^  [^ ]+: / { sub(/:$/, "", $1); print $1 }')"
        mapfile -t COMPREPLY < <(compgen -W "$names" -- "$cur")
    elif [[ $cmd == run || $cmd == sweep ]]; then
        compopt -o filenames 2> /dev/null
        mapfile -t COMPREPLY < <(compgen -f -X '!*.ini' -- "$cur"; compgen -d -- "$cur")
    else
        compopt -o filenames 2> /dev/null
        mapfile -t COMPREPLY < <(compgen -f -X '!*.db' -- "$cur"; compgen -d -- "$cur")
    fi
}
complete -F _netsim netsim

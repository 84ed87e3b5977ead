# Sourced by the validation scripts (validate-grace.sh, validate-grace-change.sh, validate-sheet.sh) once they have set
# `work_name`: the binary they run, their scratch directory, the server their databases live on, and the cleanup that
# drops those databases and removes the scratch directory on exit.
#
# `churn` is CHURN, else .build/release/churn when built, else a debug build made now. `work` is a new directory
# /tmp/<work_name>.XXXXXX. With DATABASE_URL set, `base` is that server; otherwise an embedded cluster starts under
# "$work/home" (a private CHURN_HOME) and `churn db stop` stops it at the end. `create_database NAME` creates a
# database there (dropped on exit if the script has not) and sets `url` to its connection string; `drop_database NAME`
# drops it; `with_database "$base" NAME` gives a database's connection string.

churn=${CHURN:-}
if [ -z "$churn" ]; then
    if [ -x .build/release/churn ]; then
        churn=.build/release/churn
    else
        swift build --product churn >&2
        churn=.build/debug/churn
    fi
fi
churn=$(cd "$(dirname "$churn")" && pwd)/$(basename "$churn")

work=$(mktemp -d "/tmp/$work_name.XXXXXX")
chmod 755 "$work"
databases=()
embedded=false
base=
cleanup() {
    for name in "${databases[@]}"; do
        psql "$base" -q -c "DROP DATABASE IF EXISTS \"$name\"" >/dev/null 2>&1 || true
    done
    if $embedded; then "$churn" db stop >/dev/null 2>&1 || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

if [ -n "${DATABASE_URL:-}" ]; then
    base=$DATABASE_URL
else
    export CHURN_HOME="$work/home"
    embedded=true
    "$churn" db start >&2
    base=$("$churn" db url)
fi

# The connection string `$1` (a URI or key=value conninfo) for the database `$2` of the same server.
with_database() {
    case "$1" in
        postgres://* | postgresql://*)
            local scheme=${1%%://*} rest=${1#*://}
            local authority=${rest%%[/?]*}
            local tail=${rest#"$authority"} query=""
            [[ "$tail" == *\?* ]] && query="?${tail#*\?}"
            printf '%s://%s/%s%s\n' "$scheme" "$authority" "$2" "$query"
            ;;
        *) printf '%s dbname=%s\n' "$1" "$2" ;;
    esac
}

# Creates the database `$1` on the server, records it for the cleanup, and sets `url` to its connection string.
create_database() {
    psql "$base" -q -v ON_ERROR_STOP=1 -c "CREATE DATABASE \"$1\"" >/dev/null
    databases+=("$1")
    url=$(with_database "$base" "$1")
}

# Drops the database `$1`, once its run is done.
drop_database() {
    psql "$base" -q -c "DROP DATABASE \"$1\"" >/dev/null
}

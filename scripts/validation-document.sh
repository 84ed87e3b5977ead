# Sourced by the validation scripts that read a report's CSV files and write a document (validate.sh,
# validate-sheet.sh): `cell` reads one value of a report file, `write_document` writes the document and keeps the notes
# written by hand below its marker line.

# The value of column `$3` in the first row whose first cell is `$2`, of the CSV file `$1` (without quoted cells).
cell() {
    awk -F, -v key="$2" -v name="$3" '
        NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) column = i; next }
        $1 == key && column { print $column; exit }
    ' "$1"
}

# Prints the summary `$1`, which ends with the marker line `$3`, and writes it to the document `$2` followed by what
# the document held below that line.
write_document() {
    local summary=$1 document=$2 marker=$3
    cat "$summary"
    if [ -f "$document" ] && grep -qxF -- "$marker" "$document"; then
        awk -v marker="$marker" 'kept { print } $0 == marker { kept = 1 }' "$document" >> "$summary"
    fi
    cp "$summary" "$document"
}

#!/usr/bin/env python3
"""End-to-end benchmarks of `churn` (run by `make bench` through scripts/bench.sh, after the release build).

What it measures, each figure the median of BENCH_RUNS runs (default 3):
  - `churn load` of simulated signed exports (about 10 k, 100 k and 300 k notifications; BENCH_SIZES=10k,100k
    picks some), verified and with --no-verify, into an empty database and into one already holding the other
    exports: wall time, notifications/s, MB/s of input and peak resident memory (ru_maxrss, the figure
    `/usr/bin/time -f %M` prints);
  - the ceiling: the rows that load stored, written out with COPY TO and loaded back with a plain `\\copy … FROM`
    through psql into an empty table LIKE notifications INCLUDING ALL, timed in the same run as the load;
  - the same file loaded a second time: the export closest to 20 k notifications measured (the 10k one), verified,
    into an empty database, then, after a VACUUM ANALYZE, again into the same database (nothing new: every line a
    copy of a stored notification), against the first load;
  - loaders at once: two `churn load --workers 1` processes started together on the two halves of an export (the
    100k one when measured, else the smallest) against one `churn load --workers 2` of both halves, into an
    empty database each time, checking that each notification is stored once;
  - `churn analyze --full`, `churn report`, `churn query recovery-curve --group-by product` and `churn report
    --as-of` 90 days before the latest data on BENCH_ANALYZE_ROWS stored notifications (default 1000000,10000000:
    the largest export loaded, then its rows replicated in SQL under new notification_uuid,
    original_transaction_id and transaction_id values, growing to each size in turn) against one ordered scan of
    the columns analyze reads, with the peak memory of each command, and, at the first size, the incremental
    `churn analyze` after loading a further 1 % (a separate export of new subscribers) against `analyze --full`;
  - the machine's ECDSA P-256 verify rate (`openssl speed`), the floor of verified loads.

The ordered scan runs on the same embedded cluster as churn, with the planner settings the cluster starts with
(Sources/EmbeddedPostgres/EmbeddedCluster.swift, `defaultSettings`), so both read the notifications by the same plan.

Exports are generated once with `churn simulate` and kept in bench/data/exports/. The measurements use a dedicated
embedded cluster (CHURN_HOME=bench/data/cluster), one new database per measurement, and stop it at the end.
The table goes to standard output and to bench/results.md; every measurement also goes to bench/data/last-run.json,
from which `python3 scripts/bench.py --rerender` writes the table again without measuring.
"""

import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import namedtuple
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# BENCH_CHURN measures another build of churn (an A/B against an older commit's release binary) with this script
# and the same exports.
CHURN = Path(os.environ.get("BENCH_CHURN") or ROOT / ".build-bench" / "release" / "churn").resolve()
DATA = ROOT / "bench" / "data"
EXPORTS = DATA / "exports"
WORK = DATA / "work"
CLUSTER = DATA / "cluster"
SOCKET = CLUSTER / "run"
RESULTS = ROOT / "bench" / "results.md"

# churn simulate writes about 7.5 distinct notifications per subscriber with its default rates (plus about 2 %
# resent lines): subscribers are chosen for round totals. Each export has its own seed, hence its own identifiers.
SIZES = {
    "10k": {"subscribers": 1_330, "seed": 101},
    "100k": {"subscribers": 13_300, "seed": 102},
    "300k": {"subscribers": 40_000, "seed": 103},
}
NOTIFICATIONS_PER_SUBSCRIBER = 7.5
NIGHTLY_SEED = 104
BYTES_PER_NOTIFICATION = 13_600  # input, for the disk check
DATABASE_BYTES_PER_NOTIFICATION = 3_000  # stored row and indexes, for the disk check

# The targets, as the issues state them.
TARGET_LOAD_RATIO = 0.7  # load ≥ 0.7 × ceiling (ceiling seconds ÷ load seconds)
TARGET_VERIFIED_RATIO = 0.4  # verified load ≥ 0.4 × ceiling at every export size
TARGET_PEAK_MB = 100  # peak resident memory of load at every size, and of analyze, report and query at every row count
TARGET_ANALYZE_RATIOS = {1_000_000: 1.6, 10_000_000: 1.5}  # analyze --full ≤ this × one ordered scan, by row count
TARGET_NIGHTLY_RATIO = 0.05  # analyze after 1 % more ≤ 5 % of the full run
TARGET_REPORT_SECONDS = (10_000_000, 2.5)  # churn report ≤ 2.5 s at 10 M notifications (episodes current)
TARGET_CONCURRENT_RATIO = 0.9  # 2 loaders × 1 worker at once ≥ 0.9 × the throughput of 1 loader × 2 workers
TARGET_RELOAD_RATIO = 0.2  # the same file loaded a second time ≤ 0.2 × its first load
RELOAD_NOTIFICATIONS = 20_000  # the reload is measured on the export closest to this size
DEFAULT_ANALYZE_ROWS = "1000000,10000000"

# The query `churn analyze --full` streams (Sources/AnalysisStore/NotificationEventReader.swift, scope .all without
# as-of), written to /dev/null by the server instead of to the client. Plain string literals only:
# Tests/AnalysisStoreTests/BenchScanTests.swift joins them and fails when they differ from the reader's query.
ORDERED_SCAN = (
    "COPY (SELECT n.notification_uuid, n.notification_type, n.subtype, "
    "(date_part('epoch', n.signed_date) * 1000)::int8, n.environment, nullif(n.original_transaction_id, ''), "
    "n.transaction_id, n.product_id, n.storefront, (date_part('epoch', n.purchase_date) * 1000)::int8, "
    "(date_part('epoch', n.expires_date) * 1000)::int8, n.price, n.currency, n.in_app_ownership_type, "
    "n.offer_type, n.offer_discount_type, (date_part('epoch', n.grace_period_expires_date) * 1000)::int8, "
    "n.transaction_reason, n.bundle_id, n.renewal_price, n.renewal_currency, nullif(n.app_account_token, ''), "
    "n.app_transaction_id, n.previous_original_transaction_id, n.revocation_type, n.revocation_percentage, "
    "n.billing_plan_type, n.commitment_billing_period_number, n.commitment_total_billing_periods "
    "FROM notifications n ORDER BY n.original_transaction_id, n.signed_date, n.notification_uuid) TO '/dev/null'"
)


class BenchError(Exception):
    pass


def log(message):
    print(f"bench: {message}", file=sys.stderr, flush=True)


# MARK: - Processes


# A finished command: wall seconds, peak resident set (KiB), CPU seconds (user + system) of the process itself.
Completed = namedtuple("Completed", "seconds rss_kib cpu_seconds stdout stderr status")


def run(args, env=None, check=True, input_text=None):
    """Runs a command to completion; returns a Completed."""
    environment = dict(os.environ, CHURN_HOME=str(CLUSTER))
    environment.update(env or {})
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.monotonic()
        process = subprocess.Popen(
            [str(a) for a in args], stdout=out, stderr=err, env=environment,
            stdin=subprocess.PIPE if input_text is not None else subprocess.DEVNULL,
        )
        if input_text is not None:
            process.stdin.write(input_text.encode())
            process.stdin.close()
        # wait4 gives the child's own peak resident set (ru_maxrss, KiB on Linux): what /usr/bin/time -f %M prints.
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.monotonic() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    if check and process.returncode != 0:
        raise BenchError(f"{' '.join(map(str, args))} exited with {process.returncode}:\n{stderr[-2000:]}{stdout[-2000:]}")
    return Completed(
        seconds, usage.ru_maxrss, usage.ru_utime + usage.ru_stime, stdout, stderr, process.returncode
    )


def run_together(commands):
    """Starts the commands at once and waits for all; returns their Completed and the wall seconds from the first
    start to the last end."""
    environment = dict(os.environ, CHURN_HOME=str(CLUSTER))
    started = time.monotonic()
    running = []
    for args in commands:
        out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
        process = subprocess.Popen(
            [str(a) for a in args], stdout=out, stderr=err, env=environment, stdin=subprocess.DEVNULL
        )
        running.append((args, process, out, err, time.monotonic()))
    results = []
    for args, process, out, err, start in running:
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.monotonic() - start
        code = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(errors="replace"), err.read().decode(errors="replace")
        out.close()
        err.close()
        if code != 0:
            raise BenchError(f"{' '.join(map(str, args))} exited with {code}:\n{stderr[-2000:]}{stdout[-2000:]}")
        results.append(Completed(seconds, usage.ru_maxrss, usage.ru_utime + usage.ru_stime, stdout, stderr, code))
    # wait4 in start order: a process that ended first is reaped late, so the wall time is the last reap's.
    return results, time.monotonic() - started


def conninfo(database):
    return f"host={SOCKET} dbname={database} user=postgres"


def psql(database, sql, timed=False):
    """Runs SQL (psql meta-commands allowed) in one session; returns its unaligned output, or the seconds."""
    completed = run(["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", conninfo(database)], input_text=sql)
    return completed.seconds if timed else completed.stdout.strip()


def churn(args, database):
    return run([CHURN, *args, "--database-url", conninfo(database)])


def checkpoint():
    psql("postgres", "CHECKPOINT;")


def create_database(name, template=None):
    drop_database(name)
    if template:
        psql("postgres", f"CREATE DATABASE {name} TEMPLATE {template} STRATEGY FILE_COPY;")
    else:
        psql("postgres", f"CREATE DATABASE {name};")
        churn(["migrate"], name)


def drop_database(name):
    psql("postgres", f"DROP DATABASE IF EXISTS {name} WITH (FORCE);")


def drop_bench_databases():
    names = psql("postgres", "SELECT datname FROM pg_database WHERE datname LIKE 'bench\\_%';").split()
    for name in names:
        drop_database(name)


# MARK: - Inputs


def machine():
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = "unknown"
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                memory = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    return {
        "nproc": os.cpu_count(),
        "memory": memory,
        "cpu": cpu,
        "kernel": platform.release(),
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    }


def openssl_verify_rate():
    """ECDSA P-256 verifications per second on one core, from `openssl speed -seconds 3 ecdsap256`."""
    try:
        stdout = run(["openssl", "speed", "-seconds", "3", "ecdsap256"]).stdout
    except (BenchError, OSError) as error:
        log(f"openssl speed failed: {error}")
        return None
    for line in stdout.splitlines():
        if "nistp256" in line:
            return float(line.split()[-1])
    return None


def simulate(name, subscribers, seed):
    """Generates an export once; returns its description (cached in <name>.json next to it)."""
    EXPORTS.mkdir(parents=True, exist_ok=True)
    export = EXPORTS / f"{name}.jsonl"
    description_file = EXPORTS / f"{name}.json"
    if description_file.exists() and export.exists():
        description = json.loads(description_file.read_text())
        if description.get("subscribers") == subscribers and description.get("seed") == seed:
            return description
    log(f"simulating export {name}: {subscribers} subscribers, seed {seed}")
    staging = EXPORTS / f".{name}.tmp"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    stdout = run(
        [CHURN, "simulate", "--subscribers", subscribers, "--seed", seed, "--out", staging / f"{name}.jsonl"]
    ).stdout
    match = re.search(r"(\d+) notifications in (\d+) lines", stdout)
    if not match:
        raise BenchError(f"unexpected churn simulate output:\n{stdout}")
    for suffix in (".jsonl", ".root.der", ".truth.csv"):
        source = staging / f"{name}{suffix}"
        if source.exists():
            source.replace(EXPORTS / f"{name}{suffix}")
    shutil.rmtree(staging, ignore_errors=True)
    description = {
        "name": name,
        "subscribers": subscribers,
        "seed": seed,
        "notifications": int(match.group(1)),
        "lines": int(match.group(2)),
        "bytes": export.stat().st_size,
        "path": str(export.relative_to(ROOT)),
        "root": str((EXPORTS / f"{name}.root.der").relative_to(ROOT)),
    }
    description_file.write_text(json.dumps(description, indent=2) + "\n")
    return description


def check_disk(sizes, analyze_rows):
    """Drops the largest sizes whose exports and databases would not fit on the disk, then the largest row counts
    of the analysis; returns the sizes and row counts kept."""
    free = shutil.disk_usage(ROOT).free
    kept, counts = list(sizes), sorted(analyze_rows)

    def needed():
        notifications = sum(SIZES[s]["subscribers"] * NOTIFICATIONS_PER_SUBSCRIBER for s in kept)
        missing = [s for s in kept if not (EXPORTS / f"{s}.json").exists()]
        exports = sum(SIZES[s]["subscribers"] * NOTIFICATIONS_PER_SUBSCRIBER * BYTES_PER_NOTIFICATION for s in missing)
        # The populated templates hold every other export; a measurement adds one size (and its ceiling) on top.
        loads = len(kept) * notifications * DATABASE_BYTES_PER_NOTIFICATION
        # The analysis database at its largest, or at its first count beside its copy for the nightly run.
        analysis = max(counts[-1], 2.05 * counts[0]) * DATABASE_BYTES_PER_NOTIFICATION if counts else 0
        return exports + max(loads, analysis)

    while needed() >= free * 0.9 and len(counts) > 1:
        dropped = counts.pop()
        log(f"not enough disk for the analysis at {dropped:,} rows ({free / 1e9:.0f} GB free): skipping it")
    while kept and needed() >= free * 0.9:
        dropped = kept.pop()
        log(f"not enough disk for the {dropped} export ({free / 1e9:.0f} GB free): skipping it")
    return kept, counts


# MARK: - Measurements


LOAD_LINE = re.compile(r"load run \d+: \d+ file\(s\), (\d+) inputs?, (\d+) new")


def measured(completed):
    return {"seconds": completed.seconds, "rss_kib": completed.rss_kib, "cpu_seconds": completed.cpu_seconds}


def load_once(database, export, verify):
    args = ["load"]
    args += ["--trust-root", ROOT / export["root"]] if verify else ["--no-verify"]
    checkpoint()
    completed = churn([*args, ROOT / export["path"]], database)
    match = LOAD_LINE.search(completed.stdout)
    if not match or int(match.group(1)) != export["lines"] or int(match.group(2)) != export["notifications"]:
        raise BenchError(f"load stored something else than the {export['name']} export holds:\n{completed.stdout}")
    return measured(completed)


def ceiling_once(database, rows_file):
    """The plain-COPY ceiling: the rows `load` stored in `database`, loaded back into an empty identical table."""
    psql(database, f"\\copy notifications TO '{rows_file}'\nCREATE TABLE ceiling (LIKE notifications INCLUDING ALL);")
    checkpoint()
    seconds = psql(database, f"\\copy ceiling FROM '{rows_file}'", timed=True)
    stored = int(psql(database, "SELECT count(*) FROM ceiling;"))
    rows_file.unlink()
    return {"seconds": seconds, "rows": stored}


def prepare_populated(size, others, exports):
    """A template database holding the other exports (loaded without verification)."""
    name = f"bench_pop_{size}"
    create_database(name)
    for other in others:
        log(f"  template {name}: loading {other}")
        churn(["load", "--quiet", "--no-verify", ROOT / exports[other]["path"]], name)
    psql(name, "VACUUM ANALYZE;")
    rows = int(psql(name, "SELECT count(*) FROM notifications;"))
    return name, rows


def measure_loads(sizes, exports, runs):
    populated = {}
    if len(sizes) > 1:
        log("preparing the populated databases")
        for size in sizes:
            populated[size] = prepare_populated(size, [s for s in sizes if s != size], exports)
    results = {size: {"empty-verify": [], "empty-noverify": [], "populated-verify": [], "populated-noverify": [],
                      "ceiling": []} for size in sizes}
    WORK.mkdir(parents=True, exist_ok=True)
    for index in range(runs):
        for size in sizes:
            export = exports[size]
            for state in ("empty", "populated"):
                if state == "populated" and size not in populated:
                    continue
                for verify in (True, False):
                    database = "bench_load"
                    if state == "empty":
                        create_database(database)
                    else:
                        create_database(database, template=populated[size][0])
                    measurement = load_once(database, export, verify)
                    key = f"{state}-{'verify' if verify else 'noverify'}"
                    if state == "empty" and verify:
                        ceiling = ceiling_once(database, WORK / "ceiling.copy")
                        results[size]["ceiling"].append(ceiling)
                        measurement["ceiling_seconds"] = ceiling["seconds"]
                    results[size][key].append(measurement)
                    drop_database(database)
                    log(
                        f"run {index + 1}/{runs} {size} {key}: {measurement['seconds']:.2f} s, "
                        f"{measurement['rss_kib'] * 1024 / 1e6:.0f} MB"
                        + (f"; ceiling {measurement['ceiling_seconds']:.2f} s" if "ceiling_seconds" in measurement else "")
                    )
    for size, (name, rows) in populated.items():
        drop_database(name)
        results[size]["populated_rows"] = rows
    return results


RELOAD_LINE = re.compile(r"(\d+) byte-identical to stored notifications verified before")


def measure_reload(export, runs):
    """The export loaded verified into an empty database, then the same file again into that database: the second
    load finds every line stored (nothing new) and verifies only the lines that are no stored row's own."""
    database = "bench_reload"
    verify = ["--trust-root", ROOT / export["root"]]
    results = {"export": export["name"], "first": [], "second": []}
    for index in range(runs):
        create_database(database)
        results["first"].append(load_once(database, export, verify=True))
        # As a nightly finds the database a day later: autovacuum has been through the new rows (it would otherwise
        # start on them during the second load and take its cores).
        psql(database, "VACUUM ANALYZE;")
        checkpoint()
        completed = churn(["load", *verify, ROOT / export["path"]], database)
        match = LOAD_LINE.search(completed.stdout)
        if not match or int(match.group(1)) != export["lines"] or int(match.group(2)) != 0:
            raise BenchError(f"loading the {export['name']} export again stored something new:\n{completed.stdout}")
        recognised = RELOAD_LINE.search(completed.stdout)
        results["second"].append({**measured(completed), "not_verified_again": int(recognised.group(1)) if recognised else 0})
        drop_database(database)
        log(
            f"run {index + 1}/{runs} {export['name']} loaded again: {results['second'][-1]['seconds']:.2f} s "
            f"after {results['first'][-1]['seconds']:.2f} s, "
            f"{results['second'][-1]['not_verified_again']} lines not verified again"
        )
    return results


def split_halves(export):
    """The export's lines in two files (the first half and the rest, in order); returns their paths."""
    WORK.mkdir(parents=True, exist_ok=True)
    halves = [WORK / f"{export['name']}-a.jsonl", WORK / f"{export['name']}-b.jsonl"]
    first_half = export["lines"] // 2
    with open(ROOT / export["path"], "rb") as source, open(halves[0], "wb") as first, open(halves[1], "wb") as rest:
        for index, line in enumerate(source):
            (first if index < first_half else rest).write(line)
    return halves


def stored_once(database, export, completed):
    """Checks that the loads stored each of the export's notifications once; returns the notifications stored."""
    new = sum(int(LOAD_LINE.search(c.stdout).group(2)) for c in completed)
    stored = int(psql(database, "SELECT count(*) FROM notifications;"))
    distinct = int(psql(database, "SELECT count(DISTINCT notification_uuid) FROM notifications;"))
    if not (new == stored == distinct == export["notifications"]):
        raise BenchError(
            f"the loads of the {export['name']} halves reported {new} new and stored {stored} rows of {distinct} "
            f"notificationUUIDs; the export holds {export['notifications']}"
        )
    return stored


def measure_concurrent(export, runs):
    """Two loaders with one worker each, started together on the two halves, against one loader with two workers
    on both halves; a new empty database each time, the order alternating between runs."""
    halves = split_halves(export)
    verify = ["--trust-root", ROOT / export["root"]]
    database = "bench_concurrent"
    results = {"export": export["name"], "halves": [sum(1 for _ in open(h, "rb")) for h in halves],
               "one": [], "two": []}
    for index in range(runs):
        for shape in (("one", "two") if index % 2 == 0 else ("two", "one")):
            create_database(database)
            checkpoint()
            if shape == "one":
                completed, seconds = run_together([[CHURN, "load", "--workers", "2", *verify, *halves,
                                                    "--database-url", conninfo(database)]])
            else:
                completed, seconds = run_together(
                    [[CHURN, "load", "--workers", "1", *verify, half, "--database-url", conninfo(database)]
                     for half in halves]
                )
            stored_once(database, export, completed)
            results[shape].append({
                "seconds": seconds,
                "rss_kib": max(c.rss_kib for c in completed),
                "cpu_seconds": sum(c.cpu_seconds for c in completed),
            })
            drop_database(database)
            log(f"run {index + 1}/{runs} loaders at once, {shape}: {seconds:.2f} s")
    for half in halves:
        half.unlink()
    return results


def replicate_to(database, target_rows, state):
    """Replicates the loaded rows (kept in `bench_base`; new notification_uuid, original_transaction_id,
    transaction_id and customer ids, suffixed -r1, -r2, …) until `target_rows` rows are stored: whole copies, then whole
    subscriptions. `state` remembers the copies made, so a second call grows the same database further."""
    columns = psql(
        database,
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'notifications' "
        "AND table_schema = 'public' ORDER BY ordinal_position;",
    ).split()

    def select_list(suffix):
        replaced = {
            "notification_uuid": "gen_random_uuid()",
            # '' (no subscription) stays ''.
            "original_transaction_id": (
                f"CASE original_transaction_id WHEN '' THEN '' ELSE original_transaction_id || '-{suffix}' END"
            ),
            "transaction_id": f"transaction_id || '-{suffix}'",
            # Each copy is its own customers: the ids that link subscriptions get the suffix too (NULL stays NULL).
            "app_transaction_id": f"app_transaction_id || '-{suffix}'",
            "app_account_token": f"app_account_token || '-{suffix}'",
            "previous_original_transaction_id": f"previous_original_transaction_id || '-{suffix}'",
        }
        return ", ".join(replaced.get(column, column) for column in columns)

    column_list = ", ".join(columns)
    if "base_rows" not in state:
        psql(database, "CREATE TABLE bench_base AS SELECT * FROM notifications;")
        state["base_rows"] = int(psql(database, "SELECT count(*) FROM bench_base;"))
        state["copies"] = 0
    base_rows = state["base_rows"]
    stored = int(psql(database, "SELECT count(*) FROM notifications;"))
    while stored < target_rows:
        state["copies"] += 1
        suffix = f"r{state['copies']}"
        remaining = target_rows - stored
        if remaining >= base_rows:
            psql(database, f"INSERT INTO notifications ({column_list}) SELECT {select_list(suffix)} FROM bench_base;")
            stored += base_rows
        else:
            psql(
                database,
                f"INSERT INTO notifications ({column_list}) SELECT {select_list(suffix)} FROM bench_base "
                "WHERE original_transaction_id IN (SELECT original_transaction_id FROM ("
                "SELECT original_transaction_id, sum(count(*)) OVER (ORDER BY original_transaction_id) AS running "
                "FROM bench_base WHERE original_transaction_id <> '' GROUP BY 1) s "
                f"WHERE running <= {remaining});",
            )
            break
        log(f"  {stored:,} rows")
    psql(database, "VACUUM ANALYZE;")
    return base_rows, int(psql(database, "SELECT count(*) FROM notifications;"))


# The question `churn query` is measured with: the one that keeps the most per episode (a duration and an outcome
# for each product's curve and for the total).
QUERY = ["recovery-curve", "--group-by", "product", "--format", "csv"]

ANALYZE_LINE = re.compile(r"rebuilt (\d+) subscription\(s\) from (\d+) notifications into (\d+) episode")


def analyze_once(database, full):
    checkpoint()
    completed = churn(["analyze", *(["--full"] if full else [])], database)
    match = ANALYZE_LINE.search(completed.stdout)
    return {
        **measured(completed),
        "subscriptions": int(match.group(1)) if match else 0,
        "notifications": int(match.group(2)) if match else 0,
        "episodes": int(match.group(3)) if match else 0,
    }


def measure_analysis(base_export, nightly_export, targets, runs):
    """analyze --full and report at each row count in `targets` (ascending, one database grown in turn), and the
    1 % nightly re-run at the first."""
    database = "bench_analysis"
    log(f"preparing {targets[0]:,} rows from the {base_export['name']} export")
    create_database(database)
    churn(["load", "--quiet", "--no-verify", ROOT / base_export["path"]], database)
    state = {}
    stages = []
    report_dir = WORK / "report"
    for stage_index, target_rows in enumerate(targets):
        base_rows, rows = replicate_to(database, target_rows, state)
        log(f"  {base_rows:,} loaded, {rows:,} after replication; first analysis")
        first = analyze_once(database, full=False)
        results = {"rows": rows, "base_rows": base_rows, "first": first, "scan": [], "full": [], "report": [],
                   "query": [], "as_of_report": [], "sizes": table_sizes(database)}
        # An earlier as-of: the report then builds its episodes afresh from the notifications signed by then.
        as_of = psql(
            database,
            "SELECT to_char((max(signed_date) - interval '90 days') AT TIME ZONE 'UTC', 'YYYY-MM-DD') FROM notifications;",
        )
        results["as_of"] = as_of
        for index in range(runs):
            checkpoint()
            results["scan"].append({"seconds": psql(database, ORDERED_SCAN, timed=True)})
            results["full"].append(analyze_once(database, full=True))
            checkpoint()
            shutil.rmtree(report_dir, ignore_errors=True)
            results["report"].append(measured(churn(["report", "--out", report_dir], database)))
            checkpoint()
            results["query"].append(measured(churn(["query", *QUERY], database)))
            checkpoint()
            shutil.rmtree(report_dir, ignore_errors=True)
            results["as_of_report"].append(measured(churn(["report", "--as-of", as_of, "--out", report_dir], database)))
            seconds = results["report"][-1]["seconds"]
            log(
                f"run {index + 1}/{runs} analysis of {rows:,} rows: scan {results['scan'][-1]['seconds']:.2f} s, "
                f"analyze --full {results['full'][-1]['seconds']:.2f} s, report {seconds:.2f} s, "
                f"query {results['query'][-1]['seconds']:.2f} s, "
                f"report --as-of {results['as_of_report'][-1]['seconds']:.2f} s"
            )
        results["forecast_check"] = compare_forecast_checks(database, report_dir)
        shutil.rmtree(report_dir, ignore_errors=True)
        if stage_index == 0:
            results.update(measure_nightly(database, nightly_export, rows, runs))
        stages.append(results)
    drop_database(database)
    return stages


def compare_forecast_checks(database, report_dir):
    """forecast_check.csv as the report derives it from its own episodes (no --as-of) against the same check with the
    episodes as of B built afresh (--as-of the latest signedDate): the rows of each and how many differ."""
    latest = psql(database, "SELECT (date_part('epoch', max(signed_date)) * 1000)::int8 FROM notifications;")
    files = {}
    for name, extra in (("derived", []), ("rebuilt", ["--as-of", latest])):
        out = report_dir.parent / f"forecast-{name}"
        shutil.rmtree(out, ignore_errors=True)
        churn(["report", *extra, "--out", out], database)
        files[name] = (out / "forecast_check.csv").read_text().splitlines()
        shutil.rmtree(out, ignore_errors=True)
    derived, rebuilt = files["derived"], files["rebuilt"]
    differing = sum(1 for a, b in zip(derived, rebuilt) if a != b) + abs(len(derived) - len(rebuilt))
    log(f"  forecast check derived against rebuilt: {differing} of {len(rebuilt)} lines differ")
    return {"lines": len(rebuilt), "differing": differing, "all": (derived[-1], rebuilt[-1])}


def table_sizes(database):
    """Bytes on disk of the notifications (heap, TOAST and indexes), of the analysis tables, and of the database."""
    sql = (
        "SELECT coalesce(sum(pg_total_relation_size(c.oid)) FILTER (WHERE c.relname LIKE 'notifications%'), 0), "
        "coalesce(sum(pg_total_relation_size(c.oid)) FILTER (WHERE c.relname SIMILAR TO "
        "'(billing_episodes|subscription_analysis|subscription_renewals)%'), 0), pg_database_size(current_database()) "
        "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        # Plain tables and the partitions of partitioned ones (a partitioned table itself has no storage).
        "WHERE n.nspname = 'public' AND c.relkind = 'r';"
    )
    notifications, analysis, database_bytes = (int(v) for v in psql(database, sql).split("|"))
    return {"notifications": notifications, "analysis": analysis, "database": database_bytes}


def measure_nightly(database, nightly_export, rows, runs):
    """The nightly re-run: a copy of the analyzed database, 1 % more notifications, then analyze."""
    results = {"nightly": [], "nightly_full": [], "nightly_load": []}
    for index in range(runs):
        nightly = "bench_nightly"
        create_database(nightly, template=database)
        checkpoint()
        results["nightly_load"].append(
            measured(churn(["load", "--quiet", "--no-verify", ROOT / nightly_export["path"]], nightly))
        )
        results["nightly"].append(analyze_once(nightly, full=False))
        results["nightly_full"].append(analyze_once(nightly, full=True))
        drop_database(nightly)
        log(
            f"run {index + 1}/{runs} nightly: analyze {results['nightly'][-1]['seconds']:.2f} s "
            f"({results['nightly'][-1]['subscriptions']} subscriptions), "
            f"analyze --full {results['nightly_full'][-1]['seconds']:.2f} s"
        )
    results["nightly_rows"] = rows + nightly_export["notifications"]
    return results


# MARK: - The table


def median(values):
    return statistics.median(values) if values else None


def median_of(measurements, key="seconds"):
    return median([m[key] for m in measurements])


def peak_mb(measurements):
    """The largest peak resident set of the measurements, in MB (10⁶ bytes)."""
    return max(m["rss_kib"] for m in measurements) * 1024 / 1e6


def number(value, places=0):
    """A number with a thin space between thousands: 1 234 567, 12.5."""
    return f"{value:,.{places}f}".replace(",", "\u2009")


def seconds_text(value):
    return f"{value:.2f} s" if value < 100 else f"{value:.0f} s"


def paired(numerators, denominators):
    """The median of the per-run ratios (each pair measured in the same run)."""
    return median([n["seconds"] / d["seconds"] for n, d in zip(numerators, denominators)])


def analyze_target(rows):
    """The analyze --full target for `rows`: that of the nearest row count the targets name."""
    nearest = min(TARGET_ANALYZE_RATIOS, key=lambda count: abs(count - rows))
    return TARGET_ANALYZE_RATIOS[nearest]


def verdict(reached):
    return "**reached**" if reached else "**missed**"


LOAD_ROWS = (
    ("empty-verify", "`load`, verified, empty database"),
    ("empty-noverify", "`load --no-verify`, empty database"),
    ("populated-verify", "`load`, verified, database holding the other exports"),
    ("populated-noverify", "`load --no-verify`, database holding the other exports"),
)


def render(context):
    m, runs, exports, loads = context["machine"], context["runs"], context["exports"], context["loads"]
    # Runs before analysis grew in stages kept one stage under "analysis".
    stages = context.get("analyses") or ([context["analysis"]] if context.get("analysis") else [])
    concurrent = context.get("concurrent")
    lines = []
    add = lines.append
    add("# Benchmarks")
    add("")
    add(
        f"`make bench` on {m['date']}: {m['nproc']} cores ({m['cpu']}), {m['memory']} of memory, Linux {m['kernel']}; "
        f"{context['postgres']} with the embedded cluster's default settings (shared_buffers 128 MB, fsync on). "
        f"Every figure is the median of {runs} run(s), peak memory the largest. The machine is shared: expect some "
        "noise."
    )
    add("")
    add("Exports (`churn simulate`, default rates; lines include resent notifications):")
    add("")
    add("| export | subscribers | seed | lines | distinct notifications | size |")
    add("|---|--:|--:|--:|--:|--:|")
    for export in context["export_list"]:
        add(
            f"| `{export['path']}` | {number(export['subscribers'])} | {export['seed']} | {number(export['lines'])} "
            f"| {number(export['notifications'])} | {number(export['bytes'] / 1e6)} MB |"
        )
    add("")
    add("| measurement | input | time | throughput | CPU of churn | peak RSS | compared with | ratio |")
    add("|---|---|--:|--:|--:|--:|---|--:|")
    load_ratios, peaks = [], {}
    for size, result in loads.items():
        export = exports[size]
        ceiling = median_of(result["ceiling"])
        ceilings = [{"seconds": m["ceiling_seconds"]} for m in result["empty-verify"]]
        for key, label in LOAD_ROWS:
            measurements = result[key]
            if not measurements:
                continue
            seconds = median_of(measurements)
            ratio = paired(ceilings, measurements)
            load_ratios.append((ratio, f"{size}, {label}"))
            peaks[size] = max(peaks.get(size, 0), peak_mb(measurements))
            held = f" into {number(result['populated_rows'])} stored" if key.startswith("populated") else ""
            add(
                f"| {label} | {size}: {number(export['lines'])} lines, {number(export['bytes'] / 1e6)} MB{held} "
                f"| {seconds_text(seconds)} | {number(export['lines'] / seconds)}/s, "
                f"{number(export['bytes'] / 1e6 / seconds, 1)} MB/s | {seconds_text(median_of(measurements, 'cpu_seconds'))} "
                f"| {number(peak_mb(measurements))} MB | ceiling {seconds_text(ceiling)} | {ratio:.2f} |"
            )
        rows = result["ceiling"][0]["rows"]
        add(
            f"| ceiling: the stored rows, `\\copy ceiling FROM` via psql | {size}: {number(rows)} rows "
            f"| {seconds_text(ceiling)} | {number(rows / ceiling)} rows/s | | | | |"
        )
    for size in (s for s in loads if exports[s]["bytes"] >= 1e9):
        add(
            f"| peak memory of loading an export over 1 GB | {size}: {number(exports[size]['bytes'] / 1e9, 2)} GB "
            f"| | | | {number(peaks[size])} MB | | |"
        )
    reload = context.get("reload")
    if reload:
        export = exports[reload["export"]]
        first, second = reload["first"], reload["second"]
        reload_ratio = paired(second, first)
        recognised = min(m["not_verified_again"] for m in second)
        add(
            f"| `load` of the same file a second time, verified (nothing new; {number(recognised)} lines byte-identical "
            f"to stored notifications, not verified again) | {reload['export']}: {number(export['lines'])} lines, "
            f"{number(export['bytes'] / 1e6)} MB, loaded before | {seconds_text(median_of(second))} "
            f"| {number(export['lines'] / median_of(second))}/s | {seconds_text(median_of(second, 'cpu_seconds'))} "
            f"| {number(peak_mb(second))} MB | its first load, {seconds_text(median_of(first))} | {reload_ratio:.2f} |"
        )
    verified_ratios = [
        (paired([{"seconds": x["ceiling_seconds"]} for x in r["empty-verify"]], r[key]), size)
        for size, r in loads.items() for key in ("empty-verify", "populated-verify") if r[key]
    ]
    if concurrent:
        one, two = concurrent["one"], concurrent["two"]
        concurrent_ratio = paired(one, two)
        halves = " and ".join(number(h) for h in concurrent["halves"])
        add(
            f"| 1 loader × 2 workers (`load --workers 2 a b`), verified, empty database | {concurrent['export']} in "
            f"two halves, {halves} lines | {seconds_text(median_of(one))} | | {seconds_text(median_of(one, 'cpu_seconds'))} "
            f"| {number(peak_mb(one))} MB | | |"
        )
        add(
            f"| 2 loaders × 1 worker at once (`load --workers 1 a` and `load --workers 1 b`), verified, empty database "
            f"| the same halves | {seconds_text(median_of(two))} | | {seconds_text(median_of(two, 'cpu_seconds'))} "
            f"| {number(peak_mb(two))} MB each at most | 1 loader × 2 workers | {concurrent_ratio:.2f} |"
        )
    for stage in stages:
        rows = stage["rows"]
        scan = median_of(stage["scan"])
        add(
            f"| ordered scan: `COPY (SELECT <analyze's columns> … ORDER BY …) TO '/dev/null'` | {number(rows)} rows "
            f"| {seconds_text(scan)} | {number(rows / scan)} rows/s | | | | |"
        )
        full = median_of(stage["full"])
        add(
            f"| `churn analyze --full` | {number(rows)} rows | {seconds_text(full)} | {number(rows / full)} rows/s "
            f"| {seconds_text(median_of(stage['full'], 'cpu_seconds'))} | {number(peak_mb(stage['full']))} MB "
            f"| ordered scan | {paired(stage['full'], stage['scan']):.2f} |"
        )
        add(
            f"| `churn report` (episodes current) | {number(rows)} rows | {seconds_text(median_of(stage['report']))} "
            f"| | {seconds_text(median_of(stage['report'], 'cpu_seconds'))} | {number(peak_mb(stage['report']))} MB "
            f"| ordered scan | {paired(stage['report'], stage['scan']):.2f} |"
        )
        if stage.get("query"):
            add(
                f"| `churn query {' '.join(QUERY)}` (episodes current) | {number(rows)} rows "
                f"| {seconds_text(median_of(stage['query']))} | | {seconds_text(median_of(stage['query'], 'cpu_seconds'))} "
                f"| {number(peak_mb(stage['query']))} MB | ordered scan | {paired(stage['query'], stage['scan']):.2f} |"
            )
        if stage.get("as_of_report"):
            add(
                f"| `churn report --as-of {stage['as_of']}` (90 days before the latest data: episodes built afresh) "
                f"| {number(rows)} rows | {seconds_text(median_of(stage['as_of_report']))} "
                f"| | {seconds_text(median_of(stage['as_of_report'], 'cpu_seconds'))} "
                f"| {number(peak_mb(stage['as_of_report']))} MB | ordered scan "
                f"| {paired(stage['as_of_report'], stage['scan']):.2f} |"
            )
        if stage.get("forecast_check"):
            compared = stage["forecast_check"]
            agreement = "identical" if compared["differing"] == 0 else (
                f"{compared['differing']} of {compared['lines']} lines differ; (all) derived `{compared['all'][0]}`, "
                f"rebuilt `{compared['all'][1]}`")
            add(
                f"| `forecast_check.csv` of `churn report` (derived from its own episodes) against `churn report "
                f"--as-of <the latest signedDate>` (episodes as of B built afresh) | {number(rows)} rows | {agreement} "
                f"| | | | | |"
            )
        if stage.get("sizes"):
            sizes = stage["sizes"]
            add(
                f"| disk: `notifications` with its TOAST and indexes; the analysis tables; the whole database "
                f"| {number(rows)} rows | {number(sizes['notifications'] / 1e9, 2)} GB "
                f"({number(sizes['notifications'] / rows)} bytes a notification); "
                f"{number(sizes['analysis'] / 1e9, 2)} GB; {number(sizes['database'] / 1e9, 2)} GB | | | | | |"
            )
        if stage.get("nightly"):
            touched = stage["nightly"][0]
            nightly_export = context["nightly_export"]
            add(
                f"| `churn analyze` after loading 1 % more | {number(stage['nightly_rows'])} rows, "
                f"{number(nightly_export['notifications'])} new; {number(touched['subscriptions'])} subscriptions "
                f"rebuilt from {number(touched['notifications'])} notifications "
                f"| {seconds_text(median_of(stage['nightly']))} "
                f"| | {seconds_text(median_of(stage['nightly'], 'cpu_seconds'))} | {number(peak_mb(stage['nightly']))} MB "
                f"| `analyze --full` of the same rows, {seconds_text(median_of(stage['nightly_full']))} "
                f"| {paired(stage['nightly'], stage['nightly_full']):.3f} |"
            )
    rate = context.get("openssl")
    if rate:
        add(
            f"| ECDSA P-256 verify: `openssl speed -seconds 3 ecdsap256` | one core | {number(1e6 / rate)} µs each "
            f"| {number(rate)}/s | | | {m['nproc']} cores: {number(rate * m['nproc'])}/s | |"
        )
    add("")
    add(
        "Ratios: for `load`, ceiling seconds ÷ load seconds (1.00: as fast as a plain COPY of the rows it stored into "
        "an empty table with the same indexes; every row of a size is compared with that size's ceiling); for "
        "analysis and report, their seconds ÷ the ordered scan's; for the nightly run, incremental ÷ full; for "
        "loaders at once, the seconds of one loader with two workers ÷ those of the two loaders (at least 1.00: "
        "the two add up as well as two workers of one loader do). Each is "
        "the median of the ratios within a run. Throughput counts input lines (resent ones included) and input MB "
        "(10⁶ bytes) per second of wall time. CPU of churn is its own user + system time (the server's is not in it)."
    )
    if stages:
        add("")
        counts = " and ".join(number(stage["rows"]) for stage in stages)
        add(
            f"The {counts} rows: the {context['analysis_base']} export loaded with `--no-verify` "
            f"({number(stages[0]['base_rows'])} rows), then replicated in SQL (`INSERT … SELECT gen_random_uuid(), …, "
            "original_transaction_id || '-rN', transaction_id || '-rN', …`, whole subscriptions only, so every "
            "history stays complete; one database grown from one count to the next) and `VACUUM ANALYZE`d. The 1 % "
            f"is a separate export of new subscribers (`{context['nightly_export']['path']}`), loaded into a copy of "
            f"the database at {number(stages[0]['rows'])} rows, where `analyze --full` then runs too."
        )
    add("")
    add("## Targets")
    add("")
    add("| target | measured | |")
    add("|---|---|---|")
    if load_ratios:
        worst, best = min(load_ratios), max(load_ratios)
        add(
            f"| load ≥ {TARGET_LOAD_RATIO} × ceiling | {worst[0]:.2f} to {best[0]:.2f} (lowest: {worst[1]}) "
            f"| {verdict(worst[0] >= TARGET_LOAD_RATIO)} |"
        )
    if peaks:
        listed = ", ".join(f"{size}: {number(value)} MB" for size, value in peaks.items())
        add(
            f"| peak memory ≤ {TARGET_PEAK_MB} MB at every size | {listed} "
            f"| {verdict(max(peaks.values()) <= TARGET_PEAK_MB)} |"
        )
    if verified_ratios:
        worst = min(verified_ratios)
        add(
            f"| verified load ≥ {TARGET_VERIFIED_RATIO} × ceiling at every size | {worst[0]:.2f} to "
            f"{max(verified_ratios)[0]:.2f} (lowest: {worst[1]}) | {verdict(worst[0] >= TARGET_VERIFIED_RATIO)} |"
        )
    if concurrent:
        add(
            f"| 2 loaders × 1 worker ≥ {TARGET_CONCURRENT_RATIO} × 1 loader × 2 workers, nothing stored twice "
            f"| {concurrent_ratio:.2f} ×, each notification stored once | "
            f"{verdict(concurrent_ratio >= TARGET_CONCURRENT_RATIO)} |"
        )
    if reload:
        add(
            f"| the same file loaded a second time ≤ {TARGET_RELOAD_RATIO} × its first load | {reload_ratio:.2f} × "
            f"({reload['export']}) | {verdict(reload_ratio <= TARGET_RELOAD_RATIO)} |"
        )
    for stage in stages:
        ratio = paired(stage["full"], stage["scan"])
        target = analyze_target(stage["rows"])
        add(
            f"| analyze of {number(stage['rows'])} rows ≤ {target:g} × one ordered scan "
            f"| {ratio:.2f} × | {verdict(ratio <= target)} |"
        )
        if stage["rows"] >= TARGET_REPORT_SECONDS[0] * 0.99:
            seconds = median_of(stage["report"])
            add(
                f"| `churn report` at {number(stage['rows'])} rows ≤ {TARGET_REPORT_SECONDS[1]:g} s "
                f"| {seconds_text(seconds)} | {verdict(seconds <= TARGET_REPORT_SECONDS[1])} |"
            )
    if stages:
        largest = stages[-1]
        commands = {"analyze --full": largest["full"], "report": largest["report"]}
        if largest.get("query"):
            commands["query"] = largest["query"]
        if largest.get("as_of_report"):
            commands["report --as-of"] = largest["as_of_report"]
        listed = ", ".join(f"{name}: {number(peak_mb(values))} MB" for name, values in commands.items())
        add(
            f"| peak memory ≤ {TARGET_PEAK_MB} MB at {number(largest['rows'])} rows | {listed} "
            f"| {verdict(max(peak_mb(v) for v in commands.values()) <= TARGET_PEAK_MB)} |"
        )
        for stage in (s for s in stages if s.get("nightly")):
            ratio = paired(stage["nightly"], stage["nightly_full"])
            add(
                f"| 1 % nightly re-run ≤ {TARGET_NIGHTLY_RATIO:.0%} of the full run | {ratio:.1%} "
                f"| {verdict(ratio <= TARGET_NIGHTLY_RATIO)} |"
            )
    if rate and loads:
        bounds = []
        for size, result in loads.items():
            rows = result["ceiling"][0]["rows"]
            ceiling = median_of(result["ceiling"])
            # Each line costs one verification on some core, each stored row the server's COPY work (at most the
            # ceiling's time per row, which includes psql); nothing else is counted.
            floor_seconds = (exports[size]["lines"] / rate + ceiling) / m["nproc"]
            bound = ceiling / floor_seconds
            measured_ratio = paired([{"seconds": x["ceiling_seconds"]} for x in result["empty-verify"]],
                                    result["empty-verify"])
            bounds.append(f"{size}: {bound:.2f} (the verified load into an empty database reaches "
                          f"{measured_ratio:.2f}, {measured_ratio / bound:.0%} of it)")
        add("")
        add(
            f"The most a verified load can reach on this machine: every line costs one ECDSA verification "
            f"({number(1e6 / rate)} µs of a core) and every stored row the server's own COPY work (the ceiling's time "
            f"per row); shared by {m['nproc']} cores, and with reading, decoding and encoding counted as free, "
            f"that bounds the verified ratio at {', '.join(bounds)}."
        )
    for note in context.get("notes", []):
        add("")
        add(note)
    first_build = ROOT / "bench" / "first-build.md"
    if first_build.exists():
        add("")
        add("## First build")
        add("")
        add("`make demo` whole from a fresh clone with an empty build directory, by the wall clock "
            "(`scripts/first-build.sh [commit]`, which keeps its rows in bench/first-build.md):")
        add("")
        add(first_build.read_text().rstrip("\n"))
    return "\n".join(lines) + "\n"


# MARK: - Main


def main():
    runs = int(os.environ.get("BENCH_RUNS", "3"))
    requested = [s.strip() for s in os.environ.get("BENCH_SIZES", ",".join(SIZES)).split(",") if s.strip()]
    unknown = [s for s in requested if s not in SIZES]
    if unknown or not requested or runs < 1:
        raise BenchError(f"BENCH_SIZES takes {', '.join(SIZES)}; BENCH_RUNS a positive number (got {unknown or runs})")
    try:
        requested_rows = sorted(
            int(v) for v in os.environ.get("BENCH_ANALYZE_ROWS", DEFAULT_ANALYZE_ROWS).split(",") if int(v) > 0
        )
    except ValueError:
        raise BenchError("BENCH_ANALYZE_ROWS takes row counts separated by commas (0 skips the analysis)")
    concurrent_wanted = os.environ.get("BENCH_CONCURRENT", "1") != "0"
    reload_wanted = os.environ.get("BENCH_RELOAD", "1") != "0"
    if not CHURN.exists():
        raise BenchError(f"{CHURN} is missing: run scripts/bench.sh (make bench), which builds it")
    notes = []
    sizes, analyze_rows = check_disk(requested, requested_rows)
    for size in requested:
        if size not in sizes:
            notes.append(f"The {size} export was skipped: not enough free disk.")
    for rows in requested_rows:
        if rows not in analyze_rows:
            notes.append(f"The analysis at {number(rows)} rows was skipped: not enough free disk.")
    if not sizes:
        raise BenchError("not enough free disk for any export")

    context = {"machine": machine(), "runs": runs, "notes": notes, "churn": str(CHURN)}
    log(f"{runs} run(s) of {', '.join(sizes)}; {context['machine']['nproc']} cores, {context['machine']['cpu']}")
    # BENCH_KEEP_LOADS=1: the load measurements (and the ECDSA rate beside them) of the last run stand, and only
    # the analysis is measured again, after a change that touches the analysis alone.
    keep_loads = os.environ.get("BENCH_KEEP_LOADS") == "1"
    if keep_loads:
        previous = json.loads((DATA / "last-run.json").read_text())
        for key in ("openssl", "loads", "reload", "concurrent"):
            if key in previous:
                context[key] = previous[key]
        notes.append(
            f"The load rows (loads, the ceiling, the same file again, loaders at once, ECDSA) are those of the run of "
            f"{previous['machine']['date']}; the analysis rows were measured again on {context['machine']['date']} "
            f"(`BENCH_KEEP_LOADS=1`), with the same loader."
        )
    else:
        context["openssl"] = openssl_verify_rate()
    exports = {size: simulate(size, **SIZES[size]) for size in sizes}
    if keep_loads:
        # The kept load rows name the exports they measured, which this run may not have asked for.
        for size, export in previous.get("exports", {}).items():
            exports.setdefault(size, export)
    context["exports"] = exports
    context["export_list"] = list(exports.values())
    if analyze_rows:
        nightly_subscribers = max(1, round(analyze_rows[0] * 0.01 / NOTIFICATIONS_PER_SUBSCRIBER))
        context["nightly_export"] = simulate(f"nightly-{analyze_rows[0]}", nightly_subscribers, NIGHTLY_SEED)
        context["export_list"].append(context["nightly_export"])

    run([CHURN, "db", "start"])
    try:
        context["postgres"] = psql("postgres", "SHOW server_version;").split()[0]
        context["postgres"] = f"PostgreSQL {context['postgres']}"
        drop_bench_databases()
        if not keep_loads:
            context["loads"] = measure_loads(sizes, exports, runs)
        if reload_wanted and not keep_loads:
            reload_size = min(sizes, key=lambda s: abs(exports[s]["notifications"] - RELOAD_NOTIFICATIONS))
            context["reload"] = measure_reload(exports[reload_size], runs)
        if concurrent_wanted and not keep_loads:
            concurrent_size = "100k" if "100k" in sizes else sizes[0]
            context["concurrent"] = measure_concurrent(exports[concurrent_size], runs)
        if analyze_rows:
            base = sizes[-1]
            context["analysis_base"] = base
            context["analyses"] = measure_analysis(exports[base], context["nightly_export"], analyze_rows, runs)
        drop_bench_databases()
    finally:
        run([CHURN, "db", "stop"], check=False)
        shutil.rmtree(WORK, ignore_errors=True)

    (DATA / "last-run.json").write_text(json.dumps(context, indent=2, default=str) + "\n")
    table = render(context)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(table)
    print(table)
    log(f"written to {RESULTS.relative_to(ROOT)}")


def rerender():
    """Writes bench/results.md again from bench/data/last-run.json (after a change to the table's layout)."""
    context = json.loads((DATA / "last-run.json").read_text())
    RESULTS.write_text(render(context))
    print(RESULTS.read_text())


if __name__ == "__main__":
    try:
        rerender() if sys.argv[1:] == ["--rerender"] else main()
    except BenchError as error:
        log(str(error))
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
